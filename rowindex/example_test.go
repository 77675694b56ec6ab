package rowindex_test

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/stats"
)

// Pruning row groups of one stripe by their statistics, then planning which
// bytes of a column's DATA stream to read for the groups that are left.
func Example() {
	// A stripe of 3,500 rows in groups of 1,000, as in Apache's
	// TestOrcFile.testPredicatePushdown.orc: an int column without nulls,
	// uncompressed, RLE v2.
	ri := &orcpb.RowIndex{}
	for g := range 4 {
		lo, hi, n := int64(g*1000), int64(g*1000+999), uint64(1000)
		if g == 3 {
			hi, n = 3499, 500
		}
		ri.Entry = append(ri.Entry, &orcpb.RowIndexEntry{
			Positions: []uint64{uint64(g) * 1500, uint64(g * 8)},
			Statistics: &orcpb.ColumnStatistics{NumberOfValues: &n,
				IntStatistics: &orcpb.IntegerStatistics{Minimum: &lo, Maximum: &hi}},
		})
	}
	x := rowindex.NewIndex(3500, 1000)
	x.SetRowIndex(1, ri)

	// Keep the groups that may hold values >= 2500.
	intType := &orc.Schema{Kind: orc.Int}
	selected := make([]bool, x.Groups())
	for g := range selected {
		s, ok := x.GroupStats(1, g, intType, stats.WriterInfo{WriterVersion: 9})
		selected[g] = !ok || s.Int == nil || !s.Int.HasMinMax || s.Int.Max >= 2500
	}
	fmt.Println("selected:", selected)

	// Where the DATA stream's positions are, and what to read of it.
	layout := rowindex.Layout(intType, orcpb.ColumnEncoding_DIRECT_V2, false, false, false)
	starts, err := rowindex.GroupStarts(nil, x.Entries(1), layout, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("layout:", layout, "starts:", starts)
	fmt.Println("read:", rowindex.PlanStream(6000, starts, selected, false, 0))

	// Seeking to group 2 takes its positions for the DATA stream.
	parts, err := x.Positions(1, 2, layout)
	if err != nil {
		panic(err)
	}
	fmt.Println("group 2 DATA positions:", parts[0])
	// Output:
	// selected: [false false true true]
	// layout: [{DATA 2}] starts: [0 1500 3000 4500]
	// read: [{3000 6000}]
	// group 2 DATA positions: [3000 16]
}
