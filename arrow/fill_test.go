package orcarrow

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow/array"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/arrow/internal/lineitem"
	"github.com/orcgo/orc/writer"
)

// TestFillAllocations checks that converting records to the Writer's ORC
// vectors allocates nothing once the vectors have grown (the ORC writer's
// own allocations are not counted).
func TestFillAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	g := lineitem.New(5)
	b := g.Batch(8192)
	rec, err := Convert(b.Schema, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	w, err := NewWriter(&bytes.Buffer{}, rec.Schema(), writer.WithCompression(orc.CompressionNone))
	if err != nil {
		t.Fatal(err)
	}
	fill := func() {
		for i, c := range w.cols {
			if err := c.fill(rec.Column(i), 0, int(rec.NumRows()), nil); err != nil {
				t.Fatal(err)
			}
		}
		w.unalias()
	}
	fill()
	if n := testing.AllocsPerRun(20, fill); n != 0 {
		t.Fatalf("%v allocations per record of %d rows", n, rec.NumRows())
	}
	// bigint values and string bytes are shared with the record
	for i, c := range w.cols {
		if err := c.fill(rec.Column(i), 0, int(rec.NumRows()), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := &w.cols[0].vec.(*orc.LongVector).Values[0], &rec.Column(0).(*array.Int64).Int64Values()[0]; got != want {
		t.Error("bigint values were copied")
	}
	if got, want := &w.cols[16].vec.(*orc.BytesVector).Data[0], &rec.Column(16).(*array.String).ValueBytes()[0]; got != want {
		t.Error("string bytes were copied")
	}
	w.unalias()
}
