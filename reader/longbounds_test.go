package reader_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
	"github.com/orcgo/orc/writer"
)

// TestLongValueBoundsRoundTrip writes strings longer than
// stats.MaxStringBytes, each in a row group of its own, and reads the statistics
// back: every level holds bounds of at most 1,024 bytes, and a predicate on
// each long value, on the value equal to a lower bound and on one just
// past it, keeps exactly the rows that match (issue 49 item 11, the
// reading side of bounds kept by the writer).
func TestLongValueBoundsRoundTrip(t *testing.T) {
	long := strings.Repeat("k", 3000)
	values := []string{long + "b", long + "a", long[:stats.MaxStringBytes], "z" + long, long[:stats.MaxStringBytes] + "a"}
	s := orc.MustParseSchema("struct<s:string>")
	f := &fileSpec{schema: s, opts: []writer.Option{writer.WithRowIndexStride(100)}, desc: "long values"}
	for _, v := range values {
		b := orc.NewBatch(s, 100)
		for range 100 {
			b.Cols[0].(*orc.BytesVector).AppendString(v)
		}
		b.NumRows = 100
		f.batches = append(f.batches, b)
	}
	data := writeFile(t, f)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := r.Statistics(1)
	if !ok || c.String == nil {
		t.Fatal("no string statistics")
	}
	if c.String.MinIsLowerBound || c.String.Min != long[:stats.MaxStringBytes] {
		t.Errorf("minimum %d bytes, bound %v: want the 1,024-byte value, exact", len(c.String.Min), c.String.MinIsLowerBound)
	}
	if !c.String.MaxIsUpperBound || len(c.String.Max) > stats.MaxStringBytes {
		t.Errorf("maximum %d bytes, bound %v: want an upper bound", len(c.String.Max), c.String.MaxIsUpperBound)
	}
	for _, v := range values {
		br, err := r.NewBatchReader(reader.WithSearchArgument(sarg.Eq("s", sarg.String(v))), reader.WithExactFilter(true))
		if err != nil {
			t.Fatal(err)
		}
		b, rows := br.NewBatch(), 0
		for br.Next(b) == nil {
			rows += b.NumRows
		}
		if rows != 100 {
			t.Errorf("s = a %d-byte value: %d rows, want 100", len(v), rows)
		}
	}
}
