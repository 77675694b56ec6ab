package reader_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

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

// TestCalendarPartsWrapAround: a row group whose dates run from one year
// into the next (or whose wall clocks run past midnight) holds only the
// months (hours) at the ends of the cycle: MONTH(d) = 6 skips a group of
// November to January, HOUR(ts) = 4 a group of 05:00 to 03:00 the next
// day. Every group holds consecutive days (80-second steps), so a group
// holds a part's value exactly when its minimum and maximum say it may:
// each query must skip every group without a match, and return the rows
// of a full scan.
func TestCalendarPartsWrapAround(t *testing.T) {
	s := orc.MustParseSchema("struct<d:date,ts:timestamp>")
	const stride, groups = 1000, 60
	const firstDay = 9131 // 1995-01-01
	const firstSec = firstDay*86400 + 5*3600
	day := func(i int) int64 { return firstDay + int64(i*60/stride) } // 60 days a group
	sec := func(i int) int64 { return firstSec + int64(i)*80 }        // 22.2 hours a group
	var batches []*orc.Batch
	for g := range groups {
		b := orc.NewBatch(s, stride)
		for i := g * stride; i < (g+1)*stride; i++ {
			b.Cols[0].(*orc.LongVector).Append(day(i))
			ts := b.Cols[1].(*orc.TimestampVector)
			ts.Seconds = append(ts.Seconds, sec(i))
			ts.Nanos = append(ts.Nanos, 0)
			ts.Nulls.Nulls = append(ts.Nulls.Nulls, false)
		}
		b.NumRows = stride
		batches = append(batches, b)
	}
	r, _ := writeOpen(t, s, batches, writer.WithRowIndexStride(stride))
	cases := []struct {
		where string
		part  func(i int) int
	}{
		{"MONTH(d) = 6", func(i int) int { return int(time.Unix(day(i)*86400, 0).UTC().Month()) }},
		{"MONTH(d) = 12", func(i int) int { return int(time.Unix(day(i)*86400, 0).UTC().Month()) }},
		{"QUARTER(d) = 2", func(i int) int { return (int(time.Unix(day(i)*86400, 0).UTC().Month()) + 2) / 3 }},
		{"HOUR(ts) = 4", func(i int) int { return time.Unix(sec(i), 0).UTC().Hour() }},
		{"HOUR(ts) = 23", func(i int) int { return time.Unix(sec(i), 0).UTC().Hour() }},
	}
	want := []int{6, 12, 2, 4, 23}
	allWrapped := 0
	for k, c := range cases {
		rows, st := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(c.where)), reader.WithExactFilter(true))
		matches, empty, wrapped := 0, 0, 0
		for g := range groups {
			n := 0
			for i := g * stride; i < (g+1)*stride; i++ {
				if c.part(i) == want[k] {
					n++
				}
			}
			matches += n
			if n == 0 {
				empty++
				if c.part(g*stride) > c.part((g+1)*stride-1) {
					wrapped++ // the old interval said: any value
				}
			}
		}
		if len(rows) != matches || st.GroupsSkipped != empty {
			t.Errorf("%s: %d rows (want %d), %d groups skipped (want %d, %d of them wrapping around)",
				c.where, len(rows), matches, st.GroupsSkipped, empty, wrapped)
		}
		allWrapped += wrapped
		t.Logf("%s: %d rows, %d of %d groups skipped, %d of them wrapping around", c.where, len(rows), st.GroupsSkipped, groups, wrapped)
	}
	if allWrapped < 20 {
		t.Errorf("%d groups without a match wrap around: too few to test the rule", allWrapped)
	}
}

// TestColumnWithItself: a comparison of a column with itself compares
// each row's value with itself, NaN (equal to itself) and -0.0 included:
// x < x and s <> s match no row and skip every group, x = x matches the
// non-null rows and skips only the group of nulls, x <=> x matches every
// row.
func TestColumnWithItself(t *testing.T) {
	s := orc.MustParseSchema("struct<x:double,s:string,d:decimal(10,2)>")
	const stride, groups = 500, 4
	rng := rand.New(rand.NewPCG(3, 4))
	var batches []*orc.Batch
	nonNull := 0
	for g := range groups {
		b := orc.NewBatch(s, stride)
		x, str, d := b.Cols[0].(*orc.DoubleVector), b.Cols[1].(*orc.BytesVector), b.Cols[2].(*orc.DecimalVector)
		for i := range stride {
			null := g == 0 || g == 3 && i%2 == 0
			if null {
				x.AppendNull()
				str.AppendNull()
				d.AppendNull()
				continue
			}
			nonNull++
			v := rng.Float64()*100 - 50
			switch {
			case g == 1 && i%3 == 0:
				v = math.NaN()
			case g == 1 && i%3 == 1:
				v = math.Copysign(0, -1)
			}
			x.Append(v)
			str.Append([]byte(strings.Repeat("k", rng.IntN(1100))))
			d.Append(orc.Int128FromInt64(int64(rng.IntN(100000) - 50000)))
		}
		b.NumRows = stride
		batches = append(batches, b)
	}
	r, _ := writeOpen(t, s, batches, writer.WithRowIndexStride(stride))
	for _, c := range []struct {
		where         string
		rows, skipped int
	}{
		{"x < x", 0, groups},
		{"x <> x", 0, groups},
		{"s <> s", 0, groups},
		{"NOT (d <= d)", 0, groups},
		{"x = x", nonNull, 1},
		{"s >= s AND d = d", nonNull, 1},
		{"x <=> x", groups * stride, 0},
	} {
		rows, st := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(c.where)), reader.WithExactFilter(true))
		skipped := st.GroupsSkipped
		if st.FilesSkipped == 1 || st.StripesSkipped == 1 {
			skipped = groups // the file's (one stripe's) statistics decided
		}
		if len(rows) != c.rows || skipped != c.skipped {
			t.Errorf("%s: %d rows (want %d), %d of %d groups skipped (want %d)", c.where, len(rows), c.rows, skipped, groups, c.skipped)
		}
	}
}
