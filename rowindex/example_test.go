package rowindex_test

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/stats"
)

// Pruning row groups of one stripe by their statistics, then finding which
// bytes of a column's DATA stream the runs of groups that are left need.
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
	// Keep the groups that may hold values >= 2500.
	intType := &orc.Schema{Kind: orc.Int}
	selected := make([]bool, len(ri.Entry))
	for g, e := range ri.Entry {
		s := stats.FromProto(e.GetStatistics(), intType, stats.WriterInfo{WriterVersion: 9})
		selected[g] = s.Int == nil || !s.Int.HasMinMax || s.Int.Max >= 2500
	}
	fmt.Println("selected:", selected)

	// Where the DATA stream's positions are, and what to read of it for
	// each run of selected groups (here groups 2 and 3, to the stream's
	// end, and, for comparison, group 0 alone, which needs the slop: RLE
	// values buffered at group 1's start belong to group 0).
	layout := rowindex.Layout(intType, orcpb.ColumnEncoding_DIRECT_V2, false, false, false)
	si, err := rowindex.NewStreamIndex(6000, ri.Entry, layout, 0, false, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("layout:", layout, "starts:", si.Starts)
	r, exact := si.RunRange(2, 4)
	fmt.Println("read groups 2..3:", r, "exact:", exact)
	r, exact = si.RunRange(0, 1)
	fmt.Println("read group 0:", r, "exact:", exact)

	// Seeking to group 2 takes its positions for the DATA stream.
	parts, err := rowindex.Split(ri.Entry[2].GetPositions(), layout)
	if err != nil {
		panic(err)
	}
	fmt.Println("group 2 DATA positions:", parts[0])
	// Output:
	// selected: [false false true true]
	// layout: [{DATA 2}] starts: [0 1500 3000 4500]
	// read groups 2..3: {3000 6000} exact: true
	// read group 0: {0 5878} exact: false
	// group 2 DATA positions: [3000 16]
}
