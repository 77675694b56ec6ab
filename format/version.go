package format

import (
	"fmt"

	"github.com/orcgo/orc/format/orcpb"
)

// FileVersion is the ORC file format version stored in the PostScript.
type FileVersion struct {
	Major, Minor uint32
}

// The file versions orcgo reads.
var (
	// Version0_11 is Hive 0.11's format: RLE v1 and DIRECT/DICTIONARY only.
	Version0_11 = FileVersion{0, 11}
	// Version0_12 is the current ORC v1 format: adds RLE v2 (DIRECT_V2,
	// DICTIONARY_V2). orcgo writes this version.
	Version0_12 = FileVersion{0, 12}
	// VersionUnstablePre2 is "UNSTABLE-PRE-2.0" ([1,9999]): adds decimal64
	// (RLE v2 unscaled longs, no SECONDARY) for precision <= 18. Read only.
	VersionUnstablePre2 = FileVersion{1, 9999}
)

// FileVersionOf returns the file version of a PostScript's version field:
// Version0_11 when it is empty (Hive 0.11 wrote none), and false when it
// does not hold two numbers.
func FileVersionOf(v []uint32) (FileVersion, bool) {
	switch len(v) {
	case 0:
		return Version0_11, true
	case 2:
		return FileVersion{v[0], v[1]}, true
	}
	return FileVersion{}, false
}

// Numbers returns the version as the PostScript's version field stores it.
func (v FileVersion) Numbers() []uint32 { return []uint32{v.Major, v.Minor} }

func (v FileVersion) String() string {
	if v == VersionUnstablePre2 {
		return "UNSTABLE-PRE-2.0"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// WriterVersion records which writer bugs a file is free of (PostScript field
// 6). Each value includes the fixes of the values before it.
type WriterVersion uint32

// The writer versions defined by Apache ORC.
const (
	WriterOriginal  WriterVersion = 0 // no fixes
	WriterHive8732  WriterVersion = 1 // stripe and file string min/max compared as UTF-8
	WriterHive4243  WriterVersion = 2 // real column names instead of _colN
	WriterHive12055 WriterVersion = 3 // vectorized writer; legacy string bloom filters are UTF-8
	WriterHive13083 WriterVersion = 4 // decimal PRESENT stream written correctly
	WriterORC101    WriterVersion = 5 // BLOOM_FILTER_UTF8 streams
	WriterORC135    WriterVersion = 6 // timestamp statistics in UTC fields
	WriterORC517    WriterVersion = 7 // decimal64 min/max fixed
	WriterORC203    WriterVersion = 8 // long string statistics truncated to bounds
	WriterORC14     WriterVersion = 9 // column encryption
)

// writerVersionNames are the names Apache ORC gives the writer versions.
var writerVersionNames = [...]string{"ORIGINAL", "HIVE_8732", "HIVE_4243", "HIVE_12055", "HIVE_13083",
	"ORC_101", "ORC_135", "ORC_517", "ORC_203", "ORC_14"}

// String returns the name Apache ORC gives v ("ORC_135"), or FUTURE(n) for
// a version after the last one defined.
func (v WriterVersion) String() string {
	if int(v) < len(writerVersionNames) {
		return writerVersionNames[v]
	}
	return fmt.Sprintf("FUTURE(%d)", uint32(v))
}

// Writer ids of Footer field 9.
const (
	WriterJava         uint32 = 0
	WriterCpp          uint32 = 1
	WriterPresto       uint32 = 2
	WriterGoScritchley uint32 = 3
	WriterTrino        uint32 = 4
	WriterCUDF         uint32 = 5
	// WriterOrcgo is the id orcgo writes. It is not registered with Apache
	// ORC: Java maps unknown ids to "future writer" and assumes every fix.
	WriterOrcgo uint32 = 77
)

// WriterName returns a readable name for a writer id.
func WriterName(id uint32) string {
	switch id {
	case WriterJava:
		return "ORC Java"
	case WriterCpp:
		return "ORC C++"
	case WriterPresto:
		return "Presto"
	case WriterGoScritchley:
		return "scritchley/orc (Go)"
	case WriterTrino:
		return "Trino"
	case WriterCUDF:
		return "CUDF"
	case WriterOrcgo:
		return "orcgo"
	}
	return fmt.Sprintf("writer %d", id)
}

// WriterInfo is what a file says about its writer: which statistics,
// filters and encodings to trust depends on it. Includes is the one
// question to ask of the writer version.
type WriterInfo struct {
	Writer          uint32        // Footer.writer (WriterJava, also when absent)
	WriterVersion   WriterVersion // PostScript.writer_version (WriterOriginal when absent)
	SoftwareVersion string        // Footer.software_version ("" when absent)
	// Version011 is true for files of format version 0.11 (Hive 0.11),
	// which predate every writer fix: their writer version counts as
	// WriterOriginal whatever the PostScript says.
	Version011 bool
}

// WriterInfoFromTail collects the WriterInfo of a file from its PostScript
// and Footer; either may be nil.
func WriterInfoFromTail(ps *orcpb.PostScript, footer *orcpb.Footer) WriterInfo {
	var w WriterInfo
	if ps != nil {
		w.WriterVersion = WriterVersion(ps.GetWriterVersion())
		v := ps.GetVersion()
		w.Version011 = len(v) == 0 || len(v) >= 2 && (FileVersion{v[0], v[1]}) == Version0_11
	}
	if footer != nil {
		w.Writer = footer.GetWriter()
		w.SoftwareVersion = footer.GetSoftwareVersion()
	}
	return w
}

// Version returns the writer version the file is judged by: its
// PostScript's, or WriterOriginal for a file of format version 0.11.
func (w WriterInfo) Version() WriterVersion {
	if w.Version011 {
		return WriterOriginal
	}
	return w.WriterVersion
}

// Includes reports whether the file's writer has the fix of writer version
// fix (WriterHive8732, WriterORC135, ...): whether its Version is fix or
// later. Unlike Apache ORC Java, which assumes every fix of a writer that
// is not Java, the number is compared whatever the writer id, as the C++
// reader does: non-Java writers must write WriterORC135 or later, and Java
// refuses files of others that do not.
func (w WriterInfo) Includes(fix WriterVersion) bool { return w.Version() >= fix }

// IsJava reports whether the file was written by Apache ORC Java.
func (w WriterInfo) IsJava() bool { return w.Writer == WriterJava }
