package reader_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// geoBatch builds a batch of struct<id:bigint,g:geometry,h:geography> from
// WKT ("" for null).
func geoBatch(t testing.TB, s *orc.Schema, wkts []string) *orc.Batch {
	t.Helper()
	b := orc.NewBatch(s, len(wkts))
	ids := b.Cols[0].(*orc.LongVector)
	for c := 1; c < len(b.Cols); c++ {
		v := b.Cols[c].(*orc.BytesVector)
		for _, w := range wkts {
			if w == "" {
				v.AppendNull()
				continue
			}
			wkb, err := geo.AppendWKB(nil, w)
			if err != nil {
				t.Fatal(err)
			}
			v.Append(wkb)
		}
	}
	for i := range wkts {
		ids.Append(int64(i))
	}
	b.NumRows = len(wkts)
	return b
}

func TestGeoRoundTrip(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry(EPSG:4326),h:geography(OGC:CRS84,karney)>")
	wkts := []string{
		"POINT (1 2)",
		"",
		"LINESTRING Z (0 0 5, 10 -3 7)",
		"POINT EMPTY",
		"MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
		"GEOMETRYCOLLECTION M (POINT M (3 4 9), LINESTRING M EMPTY)",
	}
	r, _ := writeOpen(t, s, []*orc.Batch{geoBatch(t, s, wkts)}, writer.WithRowIndexStride(100))
	if got := r.Schema().String(); got != s.String() {
		t.Errorf("schema %s, want %s", got, s)
	}
	rows, _ := scanLines(t, r)
	for i, w := range wkts {
		want := fmt.Sprintf(`{"id": %d, "g": %q, "h": %q}`, i, w, w)
		if w == "" {
			want = fmt.Sprintf(`{"id": %d, "g": null, "h": null}`, i)
		}
		if rows[i] != want {
			t.Errorf("row %d: %s, want %s", i, rows[i], want)
		}
	}
	// File statistics: the box over every coordinate, z from the
	// linestring, no m (the collection's m point is XYM: m 9).
	st, ok := r.Statistics(2)
	if !ok || st.Geo == nil {
		t.Fatalf("no geometry statistics: %+v", st)
	}
	b := st.Geo.Box
	wantMin := [4]float64{0, -3, 5, 9}
	wantMax := [4]float64{10, 6, 7, 9}
	if b.Min != wantMin || b.Max != wantMax || st.NumValues != 5 || !st.HasNull {
		t.Errorf("file box %v %v count %d hasNull %v", b.Min, b.Max, st.NumValues, st.HasNull)
	}
	if codes := st.Geo.Types.Codes(); fmt.Sprint(codes) != "[1 6 1002 2007]" {
		t.Errorf("types %v", codes)
	}
	// Geography: counts, no box, no types (as Apache writes).
	hs, _ := r.Statistics(3)
	if hs.Geo == nil || hs.Geo.Box.HasXY() || hs.Geo.Types != 0 || hs.NumValues != 5 {
		t.Errorf("geography statistics %+v %+v", hs, hs.Geo)
	}
	// Stripe statistics equal the file's (one stripe).
	ss, ok := r.StripeStatistics(0, 2)
	if !ok || ss.Geo == nil || ss.Geo.Box != st.Geo.Box || ss.Geo.Types != st.Geo.Types {
		t.Errorf("stripe statistics %+v", ss.Geo)
	}
}

func TestGeoWriterValidates(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry>")
	b := orc.NewBatch(s, 3)
	for i := range 3 {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
	}
	g := b.Cols[1].(*orc.BytesVector)
	pt, _ := geo.AppendWKB(nil, "POINT (1 2)")
	g.Append(pt)
	g.Append(pt)
	g.Append(pt[:10]) // truncated
	b.NumRows = 3
	w, err := writer.NewWriter(discard{}, s)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Write(b)
	if err == nil || !errors.Is(err, orc.ErrInvalidBatch) || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "bad WKB at byte 5") {
		t.Fatalf("bad WKB accepted or badly reported: %v", err)
	}
	// Unvalidated, the value is stored and the statistics are unknown.
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithUnvalidatedGeometry(true))
	rows, _ := scanLines(t, r)
	if len(rows) != 3 || !strings.Contains(rows[2], `"INVALID WKB 010100000000`) {
		t.Errorf("rows %q", rows)
	}
	st, _ := r.Statistics(2)
	if st.Geo == nil || st.Geo.Box.HasXY() || st.Geo.Types != 0 || st.NumValues != 3 {
		t.Errorf("statistics after a bad value: %+v", st.Geo)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// gpsTraces returns n rows of struct<id:bigint,g:geometry> shaped like GPS
// traces: points and short linestrings walking slowly, so that row groups
// have tight boxes, with some nulls and empty geometries, and one trace
// crossing the antimeridian.
func gpsTraces(t testing.TB, n int, seed uint64) (*orc.Schema, *orc.Batch) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry>")
	r := rand.New(rand.NewPCG(seed, 7))
	b := orc.NewBatch(s, n)
	ids := b.Cols[0].(*orc.LongVector)
	g := b.Cols[1].(*orc.BytesVector)
	x, y := -170.0, -60.0
	var wkb []byte
	for i := range n {
		ids.Append(int64(i))
		if i%5000 == 0 {
			x, y = r.Float64()*360-180, r.Float64()*160-80
		}
		x += r.Float64()*0.02 - 0.005
		y += r.Float64()*0.01 - 0.005
		if x > 180 {
			x -= 360
		}
		switch k := r.IntN(50); {
		case k == 0:
			g.AppendNull()
			continue
		case k == 1:
			wkb, _ = geo.AppendWKB(wkb[:0], "POINT EMPTY")
		case k < 10:
			wkb, _ = geo.AppendWKB(wkb[:0], fmt.Sprintf("LINESTRING (%g %g, %g %g)", x, y, x+0.001, y-0.002))
		default:
			wkb, _ = geo.AppendWKB(wkb[:0], fmt.Sprintf("POINT (%g %g)", x, y))
		}
		g.Append(wkb)
	}
	b.NumRows = n
	return s, b
}

// TestGeoPruneDifferential scans with a box predicate, pruning by the
// geospatial statistics, and compares the rows with a full scan filtered
// by the same predicate row by row.
func TestGeoPruneDifferential(t *testing.T) {
	n, queries := 30000, 24
	if testing.Short() { // the -race pass
		n, queries = 5000, 8
	}
	s, b := gpsTraces(t, n, 3)
	r, data := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(1000), writer.WithStripeSize(256<<10))
	all, _ := scanLines(t, r)
	if len(all) != n {
		t.Fatalf("%d rows, want %d", len(all), n)
	}
	rnd := rand.New(rand.NewPCG(5, 5))
	totalSkipped, totalGroups, stripesPruned, stripes := 0, 0, 0, 0
	for q := range queries {
		var box [4]float64
		switch q % 5 {
		case 0: // around a real value: non-empty result
			i := rnd.IntN(n)
			if b.Cols[1].IsNull(i) {
				i = 0
			}
			e, _, _ := geo.Envelope(b.Cols[1].(*orc.BytesVector).Get(i))
			box = [4]float64{e.Min[0] - 0.05, e.Min[1] - 0.05, e.Max[0] + 0.05, e.Max[1] + 0.05}
		case 1: // across the antimeridian
			box = [4]float64{179 - rnd.Float64(), -90, -179 + rnd.Float64(), 90}
		case 4: // beyond every trace (y stays within about 81 degrees): empty, across the antimeridian or not
			box = [4]float64{-180, 85, 180, 90}
			if q%2 == 1 {
				box = [4]float64{170, -90, -170, -85}
			}
		case 2: // anywhere, often empty
			x, y := rnd.Float64()*360-180, rnd.Float64()*180-90
			box = [4]float64{x, y, x + rnd.Float64()*5, y + rnd.Float64()*5}
		default: // whole world
			box = [4]float64{-180, -90, 180, 90}
		}
		for _, e := range []sarg.Expr{
			sarg.IntersectsBox("g", box[0], box[1], box[2], box[3]),
			sarg.WithinBox("g", box[0], box[1], box[2], box[3]),
		} {
			// The full scan, filtered row by row (Match agrees with
			// EvalRow: sarg's TestGeoSoundness).
			bound := sarg.MustBind(e, r.Schema())
			keep, err := bound.Match(sarg.ColumnVectors{2: b.Cols[1]}, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, line := range all {
				if keep[i] {
					want = append(want, line)
				}
			}
			got, st := scanLines(t, r, reader.WithSearchArgument(e), reader.WithExactFilter(true))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s: %d rows, full scan %d", e, len(got), len(want))
			}
			totalSkipped += st.GroupsSkipped
			totalGroups += st.GroupsConsidered
			stripesPruned += st.StripesPruned
			stripes += st.StripesConsidered
			if q%5 == 4 && (len(want) != 0 || st.BytesRead > int64(len(data))/20) {
				t.Errorf("%s: %d rows, %d of %d bytes read; want none and under 5%%", e, len(want), st.BytesRead, len(data))
			}
			if q%5 == 2 && len(want) == 0 && st.BytesRead > int64(len(data))/2 {
				t.Errorf("%s: nothing matches but %d of %d bytes read", e, st.BytesRead, len(data))
			}
		}
	}
	t.Logf("%d rows, %d bytes: over %d queries %d of %d stripes pruned, %d of %d row groups of the others skipped", n, len(data), 2*queries, stripesPruned, stripes, totalSkipped, totalGroups)
	if totalSkipped == 0 {
		t.Error("no row group was skipped")
	}
}

// BenchmarkGeoBoxQuery writes 2,000,000 GPS-like rows with default options
// and compares a box query for about 0.1% of the world's area (8 x 8
// degrees), pruned by the geospatial statistics, with a full scan filtered
// by the same predicate.
func BenchmarkGeoBoxQuery(b *testing.B) {
	s, batch := gpsTraces(b, 2_000_000, 11)
	r, data := writeOpen(b, s, []*orc.Batch{batch})
	// A box around a value, so that the query returns rows.
	e0, _, _ := geo.Envelope(batch.Cols[1].(*orc.BytesVector).Get(1_234_567))
	x, y := e0.Min[0]-4, e0.Min[1]-4
	where := sarg.IntersectsBox("g", x, y, x+8, y+8)
	for _, c := range []struct {
		name string
		opts []reader.ScanOption
	}{
		{"pruned", []reader.ScanOption{reader.WithSearchArgument(where), reader.WithExactFilter(true)}},
		{"fullscan", nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			bound := sarg.MustBind(where, r.Schema())
			var st reader.ScanStats
			rows := 0
			for range b.N {
				br, err := r.NewBatchReader(c.opts...)
				if err != nil {
					b.Fatal(err)
				}
				bt := br.NewBatch()
				rows = 0
				var keep []bool
				for br.Next(bt) == nil {
					if c.opts == nil { // filter the full scan by the same predicate
						keep, _ = bound.Match(sarg.ColumnVectors{2: bt.Cols[1]}, bt.NumRows, keep)
						for _, k := range keep {
							if k {
								rows++
							}
						}
					} else {
						rows += bt.NumRows
					}
				}
				st = br.Stats()
				br.Close()
			}
			b.ReportMetric(float64(rows), "rows")
			b.ReportMetric(100*float64(st.BytesRead)/float64(len(data)), "%read")
			b.ReportMetric(float64(st.StripesSkipped), "stripes-skipped")
			b.ReportMetric(float64(st.StripesConsidered), "stripes")
			b.ReportMetric(float64(st.GroupsSkipped), "groups-skipped")
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
		})
	}
	b.Logf("file %d bytes, %d stripes", len(data), len(r.Stripes()))
}
