package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// orc count --where on one file decides stripes from statistics where they
// decide, and counts what the directory form (a filtered scan of the same
// file as a dataset) counts.
func TestCountWhereFromStatistics(t *testing.T) {
	dir := t.TempDir()
	s := orc.MustParseSchema("struct<id:bigint,d:date>")
	const n = 20000
	b := orc.NewBatch(s, n)
	for i := range n {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		b.Cols[1].(*orc.LongVector).Append(sarg.DateOf(2023, 12, 1).Int64() + int64(i/100))
	}
	b.NumRows = n
	path := filepath.Join(dir, "t.orc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.NewWriter(f, s, writer.WithStripeRowLimit(5000), writer.WithRowIndexStride(1000))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct{ where, want, stats string }{
		{"id < 7500", "7500\trows matching --where\n", "15000 rows decided by statistics (3 stripes), 5000 rows read and filtered (1 stripe)"},
		{"YEAR(d) = 2024", "16900\trows matching --where\n", "15000 rows decided by statistics (3 stripes), 5000 rows read"},
		{"MONTH(d) = 12 AND id % 2 = 0", "1550\trows matching --where\n", "15000 rows decided by statistics (3 stripes), 5000 rows read"},
		{"MONTH(d) = 12 AND id ^ 2 = 0", "", ""},
		{"id * 2 >= 0", "20000\trows matching --where\n", "20000 rows decided by statistics (4 stripes), 0 rows read"},
	} {
		out, errOut, err := runCmd(t, "count", "--where", c.where, "--stats", path)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: no error", c.where)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v %s", c.where, err, errOut)
		}
		if out != c.want || !strings.Contains(errOut, c.stats) {
			t.Errorf("%s: %q, %q; want %q, %q", c.where, out, errOut, c.want, c.stats)
		}
		viaDir, _, err := runCmd(t, "count", "--where", c.where, dir)
		if err != nil || viaDir != out {
			t.Errorf("%s: the directory counts %q (%v), the file %q", c.where, viaDir, err, out)
		}
	}
}
