package reader_test

import (
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestTermsPruneOnClusteredTable checks issue 52's pruning targets for
// compound arithmetic on a clustered table (200 row groups of 500 rows):
// x rises with the row number, and y lies 5-8 above x, except in one
// group in ten where it lies 0-1 below (the only groups where x - y > 0
// or x BETWEEN y AND y + 1 can hold). Each predicate must skip at least
// 80% of the groups holding no match, and return exactly the matching
// rows.
func TestTermsPruneOnClusteredTable(t *testing.T) {
	s := orc.MustParseSchema("struct<x:bigint,y:bigint>")
	rng := rand.New(rand.NewPCG(52, 1))
	const groups, stride = 200, 500
	xs := make([]int64, 0, groups*stride)
	ys := make([]int64, 0, groups*stride)
	var batches []*orc.Batch
	for g := range groups {
		b := orc.NewBatch(s, stride)
		for range stride {
			x := int64(10*g-1000) + rng.Int64N(3)
			y := x + 5 + rng.Int64N(4)
			if g%10 == 3 {
				y = x - rng.Int64N(2)
			}
			b.Cols[0].(*orc.LongVector).Append(x)
			b.Cols[1].(*orc.LongVector).Append(y)
			xs, ys = append(xs, x), append(ys, y)
		}
		b.NumRows = stride
		batches = append(batches, b)
	}
	r, _ := writeOpen(t, s, batches, writer.WithRowIndexStride(stride))
	for _, c := range []struct {
		where string
		match func(x, y int64) bool
	}{
		{"x - y > 0", func(x, y int64) bool { return x-y > 0 }},
		{"(x + 1) * 2 > 10", func(x, _ int64) bool { return (x+1)*2 > 10 }},
		{"x BETWEEN y AND y + 1", func(x, y int64) bool { return x >= y && x <= y+1 }},
		{"-x + 1 <= 1 - y AND ABS(x - y) < 2", func(x, y int64) bool { return -x+1 <= 1-y && max(x-y, y-x) < 2 }},
	} {
		want, empty := 0, 0
		for g := range groups {
			hit := false
			for i := g * stride; i < (g+1)*stride; i++ {
				if c.match(xs[i], ys[i]) {
					want++
					hit = true
				}
			}
			if !hit {
				empty++
			}
		}
		rows, st := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(c.where)))
		if len(rows) != want {
			t.Errorf("%s: %d rows, want %d", c.where, len(rows), want)
		}
		if empty == 0 || st.GroupsSkipped > empty || 10*st.GroupsSkipped < 8*empty {
			t.Errorf("%s: %d of the %d groups without a match skipped, want at least 80%%", c.where, st.GroupsSkipped, empty)
		}
		t.Logf("%s: %d rows; %d of %d groups without a match skipped", c.where, want, st.GroupsSkipped, empty)
	}
}
