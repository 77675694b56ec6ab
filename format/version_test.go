package format

import (
	"testing"

	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// TestWriterInfoIncludes checks the one question asked of a writer
// version: which fixes a file's writer has.
func TestWriterInfoIncludes(t *testing.T) {
	for _, c := range []struct {
		name string
		w    WriterInfo
		fix  WriterVersion
		want bool
	}{
		{"absent version", WriterInfo{}, WriterHive8732, false},
		{"original", WriterInfo{WriterVersion: WriterOriginal}, WriterOriginal, true},
		{"Java ORC-135 has HIVE-8732", WriterInfo{WriterVersion: WriterORC135}, WriterHive8732, true},
		{"Java ORC-135 lacks ORC-517", WriterInfo{WriterVersion: WriterORC135}, WriterORC517, false},
		{"0.11 files have no fix", WriterInfo{WriterVersion: WriterORC203, Version011: true}, WriterHive8732, false},
		{"C++ compared by number", WriterInfo{Writer: WriterCpp, WriterVersion: WriterHive8732}, WriterORC135, false},
		{"future version", WriterInfo{WriterVersion: 42}, WriterORC14, true},
	} {
		if got := c.w.Includes(c.fix); got != c.want {
			t.Errorf("%s: Includes(%v) = %v, want %v", c.name, c.fix, got, c.want)
		}
	}
	for _, c := range []struct {
		version []uint32
		want011 bool
	}{{nil, true}, {[]uint32{0, 11}, true}, {[]uint32{0, 12}, false}, {[]uint32{1, 9999}, false}} {
		w := WriterInfoFromTail(&orcpb.PostScript{Version: c.version, WriterVersion: proto.Uint32(6)}, &orcpb.Footer{Writer: proto.Uint32(1)})
		if w.Version011 != c.want011 || w.WriterVersion != WriterORC135 || w.Writer != WriterCpp {
			t.Errorf("version %v: %+v", c.version, w)
		}
	}
}

// TestWriterVersionNames checks the Apache ORC names of writer versions.
func TestWriterVersionNames(t *testing.T) {
	for v, want := range map[WriterVersion]string{WriterOriginal: "ORIGINAL", WriterHive12055: "HIVE_12055",
		WriterORC135: "ORC_135", WriterORC14: "ORC_14", 10: "FUTURE(10)"} {
		if got := v.String(); got != want {
			t.Errorf("%d: %q, want %q", uint32(v), got, want)
		}
	}
	if v, ok := FileVersionOf(nil); !ok || v != Version0_11 {
		t.Errorf("empty version field: %v %v", v, ok)
	}
	if _, ok := FileVersionOf([]uint32{0}); ok {
		t.Error("one number taken for a version")
	}
	if got := Version0_12.Numbers(); len(got) != 2 || got[0] != 0 || got[1] != 12 {
		t.Errorf("0.12 stored as %v", got)
	}
}
