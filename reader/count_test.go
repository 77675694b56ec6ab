package reader_test

import (
	"errors"
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestCount: Reader.Count equals the rows a full scan filtered by the
// predicate returns, decides stripes from statistics where they decide
// (all rows match, or none), and scans the others.
func TestCount(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,d:date,s:string,`odd.name`:int>")
	const n = 40000
	b := orc.NewBatch(s, n)
	for i := range n {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		dv := b.Cols[1].(*orc.LongVector)
		if i%101 == 0 {
			dv.AppendNull()
		} else {
			dv.Append(sarg.DateOf(2024, 1, 1).Int64() + int64(i/200)) // sorted, 200 days
		}
		b.Cols[2].(*orc.BytesVector).AppendString([]string{"alpha", "beta", "gamma"}[i%3])
		b.Cols[3].(*orc.LongVector).Append(int64(i % 7))
	}
	b.NumRows = n
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithStripeRowLimit(5000), writer.WithRowIndexStride(1000))
	if len(r.Stripes()) != 8 {
		t.Fatalf("%d stripes", len(r.Stripes()))
	}
	for _, c := range []struct {
		where            string
		decided, scanned int // stripes
	}{
		{"TRUE", 8, 0},
		{"id >= 0", 8, 0},
		{"id < 0", 8, 0},
		{"id < 12000", 7, 1}, // stripes 0, 1 match whole, 3..7 none; 2 scanned
		{"MONTH(d) = 2", 6, 2},
		{"YEAR(d) = 2024 AND s = 'beta'", 0, 8},
		{"d IS NULL", 0, 8},
		{"`odd.name` * 2 > 11 AND id BETWEEN 100 AND 200", 7, 1},
		{"id + 5 < 3", 8, 0},
	} {
		e := sarg.MustParse(c.where)
		cs, err := r.Count(e)
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		want := countFull(t, r, e)
		if cs.Rows != want {
			t.Errorf("%s: Count %d, a filtered full scan %d", c.where, cs.Rows, want)
		}
		if cs.StripesDecided != c.decided || cs.StripesScanned != c.scanned || cs.StatsRows+cs.ScannedRows != n {
			t.Errorf("%s: %+v, want %d stripes decided and %d scanned", c.where, cs, c.decided, c.scanned)
		}
		t.Logf("%s: %d rows, %+v", c.where, cs.Rows, cs)
	}
	if _, err := r.Count(sarg.MustParse("nope = 1")); !errors.Is(err, sarg.ErrUnknownColumn) {
		t.Errorf("unknown column: %v", err)
	}
}

// countFull counts the rows of a full scan for which e is TRUE.
func countFull(t *testing.T, r *reader.Reader, e sarg.Expr) int64 {
	t.Helper()
	bd := sarg.MustBind(e, r.Schema())
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	batch := orc.NewBatch(br.Schema(), 1024)
	var n int64
	for {
		err := br.Next(batch)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		cols := sarg.ColumnVectors{}
		for i, c := range r.Schema().Children {
			cols[c.ID()] = batch.Cols[i]
		}
		m, err := bd.Match(cols, batch.NumRows, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, ok := range m {
			if ok {
				n++
			}
		}
	}
}
