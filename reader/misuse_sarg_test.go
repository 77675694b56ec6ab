package reader_test

// File-level checks of two pruning rules (issue 16): a bloom filter never
// undoes a NO that min/max gave, and an exponent literal on an integer
// column compares by the exact value of its text.

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

func TestMisuseSargBloomAndExponent(t *testing.T) {
	s := orc.MustParseSchema("struct<x:bigint>")
	b := orc.NewBatch(s, 3000)
	x := b.Cols[0].(*orc.LongVector)
	for i := range 3000 {
		switch {
		case i < 1000:
			x.Values = append(x.Values, 0) // group 0: all zero
		case i == 2500:
			x.Values = append(x.Values, 1<<60)
		case i == 2501:
			x.Values = append(x.Values, 1152921504606847000) // the double's shortest decimal
		default:
			x.Values = append(x.Values, int64(i))
		}
	}
	b.NumRows = 3000
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(1000), writer.WithBloomFilterColumns("x"))
	for _, tc := range []struct {
		where   string
		skipped int
		rows    int
	}{
		{"x <> 0", 1, 2000},
		{"x NOT IN (0, 7)", 1, 2000},
		{"x = 0", 2, 1000},
		{"x = 1152921504606846976e0", 2, 1},
		{"x = 1152921504606847000", 2, 1},
	} {
		lines, st := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(tc.where)), reader.WithExactFilter(true))
		if st.GroupsConsidered != 3 || st.GroupsSkipped != tc.skipped || len(lines) != tc.rows {
			t.Errorf("%s: %d of %d groups skipped, %d rows; want %d skipped, %d rows",
				tc.where, st.GroupsSkipped, st.GroupsConsidered, len(lines), tc.skipped, tc.rows)
		}
		if strings.Contains(tc.where, "e0") && (len(lines) != 1 || !strings.Contains(lines[0], "1152921504606846976")) {
			t.Errorf("%s: rows %v, want the one holding 2^60", tc.where, lines)
		}
	}
}
