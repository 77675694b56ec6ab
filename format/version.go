package format

import "fmt"

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
