package reader_test

import (
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestFormsPruneOnClusteredTable checks issue 32's targets on a
// lineitem-like table clustered by ship date (200,000 rows, 200 row
// groups): YEAR(d) = y skips exactly the row groups of the equivalent date
// range, and a comparison of two date columns skips every group whose
// statistics prove it false (commit dates are 0-5 days before shipping and
// receipts 20-30 after, except in one group in ten, where receipts come
// before commits: the only groups l_commitdate >= l_receiptdate reads).
func TestFormsPruneOnClusteredTable(t *testing.T) {
	s := orc.MustParseSchema("struct<l_shipdate:date,l_commitdate:date,l_receiptdate:date>")
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, stride = 200_000, 1000
	const first, days = 8036, 2557 // 1992-01-01, to 1998-12-31
	var batches []*orc.Batch
	for g := 0; g < rows/stride; g++ {
		b := orc.NewBatch(s, stride)
		for i := g * stride; i < (g+1)*stride; i++ {
			ship := int64(first + i*days/rows)
			commit := ship - int64(rng.IntN(6))
			receipt := ship + 20 + int64(rng.IntN(11))
			if g%10 == 3 {
				receipt = commit - 1 - int64(rng.IntN(5))
			}
			b.Cols[0].(*orc.LongVector).Append(ship)
			b.Cols[1].(*orc.LongVector).Append(commit)
			b.Cols[2].(*orc.LongVector).Append(receipt)
		}
		b.NumRows = stride
		batches = append(batches, b)
	}
	r, _ := writeOpen(t, s, batches, writer.WithRowIndexStride(stride))
	scan := func(where string) ([]string, reader.ScanStats) {
		return scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(where)))
	}
	year, sty := scan("YEAR(l_shipdate) = 1995")
	span, sts := scan("l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-12-31'")
	if len(year) != len(span) || len(year) == 0 || sty.GroupsSkipped != sts.GroupsSkipped || sty.GroupsSkipped < 150 {
		t.Errorf("YEAR: %d rows, %d groups skipped; the date range: %d rows, %d skipped", len(year), sty.GroupsSkipped, len(span), sts.GroupsSkipped)
	}
	late, stl := scan("l_commitdate >= l_receiptdate")
	if len(late) != rows/10 || stl.GroupsSkipped != 180 {
		t.Errorf("commit >= receipt: %d rows (want %d), %d of 200 groups skipped (want 180)", len(late), rows/10, stl.GroupsSkipped)
	}
	t.Logf("YEAR and its range skip %d of 200 groups; commit >= receipt skips %d", sty.GroupsSkipped, stl.GroupsSkipped)
}
