package reader_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
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
