package writer_test

import (
	"bytes"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// TestStatisticsAfterClose: Writer.Statistics is nothing before Close and
// then what a reader finds in the footer.
func TestStatisticsAfterClose(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint,s:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 4)
	a, str := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector)
	a.Values = append(a.Values, 7, -3, 12)
	str.AppendString("pear")
	str.AppendNull()
	str.AppendString("apple")
	b.NumRows = 3
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Statistics(1); ok {
		t.Fatal("statistics before Close")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Statistics(3); ok {
		t.Fatal("statistics of column 3 of 3")
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for id := range 3 {
		got, ok := w.Statistics(id)
		want, _ := r.Statistics(id)
		if !ok || got.NumValues != want.NumValues || got.HasNull != want.HasNull || got.BytesOnDisk != want.BytesOnDisk {
			t.Errorf("column %d: writer says %+v, file %+v", id, got, want)
		}
	}
	if c, _ := w.Statistics(1); c.Int == nil || c.Int.Min != -3 || c.Int.Max != 12 {
		t.Errorf("a: %+v", c.Int)
	}
	if c, _ := w.Statistics(2); c.String == nil || c.String.Min != "apple" || c.String.Max != "pear" || c.NumValues != 2 || !c.HasNull {
		t.Errorf("s: %+v %+v", c, c.String)
	}
}
