package writer_test

import (
	"io"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestWrongVectorTypeMessage checks that a vector of the wrong type is
// refused with a message naming the type the column takes and the one
// given, for every family of kinds.
func TestWrongVectorTypeMessage(t *testing.T) {
	for _, c := range []struct{ typ, want string }{
		{"boolean", "want *orc.LongVector, have *orc.UnionVector"},
		{"double", "want *orc.DoubleVector, have *orc.UnionVector"},
		{"string", "want *orc.BytesVector, have *orc.UnionVector"},
		{"decimal(5,2)", "want *orc.DecimalVector, have *orc.UnionVector"},
		{"timestamp", "want *orc.TimestampVector, have *orc.UnionVector"},
		{"struct<a:int>", "want *orc.StructVector, have *orc.UnionVector"},
		{"array<int>", "want *orc.ListVector, have *orc.UnionVector"},
		{"map<int,int>", "want *orc.MapVector, have *orc.UnionVector"},
		{"geometry(OGC:CRS84)", "want *orc.BytesVector, have *orc.UnionVector"},
		{"uniontype<int>", "want *orc.UnionVector, have *orc.LongVector"},
	} {
		s := orc.MustParseSchema("struct<c:" + c.typ + ">")
		w, err := writer.NewWriter(io.Discard, s)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(s, 1)
		b.NumRows = 1
		if c.typ == "uniontype<int>" {
			b.Cols[0] = &orc.LongVector{Values: []int64{1}}
		} else {
			b.Cols[0] = &orc.UnionVector{Tags: []uint8{0}, Children: []orc.Vector{&orc.LongVector{Values: []int64{1}}}}
		}
		err = w.Write(b)
		if err == nil || !strings.Contains(err.Error(), "column c ("+c.typ+"): "+c.want) {
			t.Errorf("%s: got %v, want the message to hold %q", c.typ, err, c.want)
		}
	}
}
