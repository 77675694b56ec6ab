package stats_test

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// A writer keeps one Accumulator per column and row group, stores its Proto
// in the row index, and merges it into the stripe's accumulator. A reader
// decodes stored statistics with FromProto, telling it who wrote the file.
func Example() {
	col := orc.MustParseSchema("decimal(10,2)")
	rowGroup := stats.NewAccumulator(col)
	stripe := stats.NewAccumulator(col)
	for _, cents := range []int64{150, -100050, 2500} {
		rowGroup.AddDecimal(orc.Int128FromInt64(cents))
	}
	rowGroup.AddNull()
	stored := rowGroup.Proto()
	stripe.Merge(rowGroup)
	rowGroup.Reset()

	ds := stored.GetDecimalStatistics()
	fmt.Println(stored.GetNumberOfValues(), stored.GetHasNull(), ds.GetMinimum(), ds.GetMaximum(), ds.GetSum())

	c := stats.FromProto(stored, col, stats.WriterInfo{Writer: 7, WriterVersion: stats.WriterVersionORC135})
	fmt.Println(c.Decimal.HasMinMax, c.Decimal.Min.Unscaled.Int64(), c.Decimal.Max.Unscaled.Int64())
	fmt.Println(stripe.Column().NumValues)
	// Output:
	// 3 true -1000.5 25 -974
	// true -100050 2500
	// 3
}
