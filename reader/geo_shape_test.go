package reader_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// shapeRows returns n rows of struct<id:bigint,g:geometry> walking slowly
// over a grid of step 0.25 (so that values and literals share vertices,
// edges and collinear points): points, short linestrings, small polygons
// (some with a hole), multi-geometries and collections, with nulls, empty
// geometries and a NaN vertex here and there.
func shapeRows(n int, seed uint64) (*orc.Schema, *orc.Batch) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry>")
	r := rand.New(rand.NewPCG(seed, 52))
	b := orc.NewBatch(s, n)
	ids := b.Cols[0].(*orc.LongVector)
	g := b.Cols[1].(*orc.BytesVector)
	x, y := 0.0, 0.0
	var wkb []byte
	for i := range n {
		ids.Append(int64(i))
		if i%4000 == 0 {
			x, y = float64(r.IntN(400)), float64(r.IntN(200))
		}
		x += float64(r.IntN(3)) * 0.25
		y += float64(r.IntN(3)-1) * 0.25
		w := shapeNear(r, x, y)
		if w == "" {
			g.AppendNull()
			continue
		}
		wkb, _ = geo.AppendWKB(wkb[:0], w)
		g.Append(wkb)
	}
	b.NumRows = n
	return s, b
}

// shapeNear returns the WKT of a random geometry with vertices on the grid
// of step 0.25 within 1 of (x, y); "" for a null.
func shapeNear(r *rand.Rand, x, y float64) string {
	c := func() string { return fmt.Sprintf("%v %v", x+float64(r.IntN(9)-4)*0.25, y+float64(r.IntN(9)-4)*0.25) }
	tri := func() string { a := c(); return "(" + a + ", " + c() + ", " + c() + ", " + a + ")" }
	box := func(x0, y0, w float64) string {
		return fmt.Sprintf("(%v %v, %v %v, %v %v, %v %v, %v %v)", x0, y0, x0+w, y0, x0+w, y0+w, x0, y0+w, x0, y0)
	}
	switch k := r.IntN(40); {
	case k == 0:
		return ""
	case k == 1:
		return "POINT EMPTY"
	case k == 2:
		return "LINESTRING (" + c() + ", NaN 0, " + c() + ")"
	case k < 12:
		return "POINT (" + c() + ")"
	case k < 20:
		return "LINESTRING (" + c() + ", " + c() + ", " + c() + ")"
	case k < 26:
		return "POLYGON (" + tri() + ")"
	case k < 30:
		return "POLYGON (" + box(x-0.5, y-0.5, 1) + ", " + box(x-0.25, y-0.25, 0.5) + ")"
	case k < 33:
		return "POLYGON (" + box(x-0.5, y-0.5, 0.75) + ")"
	case k < 35:
		return "MULTIPOINT ((" + c() + "), (" + c() + "))"
	case k < 37:
		return "MULTIPOLYGON ((" + tri() + "), (" + box(x, y, 0.25) + "))"
	case k < 39:
		return "MULTILINESTRING ((" + c() + ", " + c() + "), (" + c() + ", " + c() + "))"
	}
	return "GEOMETRYCOLLECTION (POINT (" + c() + "), LINESTRING (" + c() + ", " + c() + "), POLYGON (" + tri() + "))"
}

// shapeLiteral returns a random WKT literal: near a value of the table
// (matches likely), anywhere (matches rare), or exactly a value.
func shapeLiteral(r *rand.Rand, b *orc.Batch) string {
	n := b.NumRows
	i := r.IntN(n)
	vec := b.Cols[1].(*orc.BytesVector)
	e, _, _ := geo.Envelope(vec.Get(i))
	x, y := 10.0, 10.0
	if !vec.IsNull(i) && e.HasXY() {
		x, y = e.Min[0], e.Min[1]
	}
	switch r.IntN(6) {
	case 0: // a value itself
		if t, err := geo.AppendWKT(nil, vec.Get(i)); err == nil && !vec.IsNull(i) && !strings.Contains(string(t), "NaN") {
			return string(t)
		}
	case 1: // anywhere: often nothing there
		x, y = float64(r.IntN(400)), float64(r.IntN(200))
	}
	w := 0.25 * float64(1+r.IntN(16))
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("POINT (%v %v)", x, y)
	case 1:
		return fmt.Sprintf("LINESTRING (%v %v, %v %v)", x-w, y, x+w, y+w)
	case 2:
		return fmt.Sprintf("POLYGON ((%v %v, %v %v, %v %v, %v %v))", x-w, y-w, x+w, y-w, x, y+w, x-w, y-w)
	case 3:
		return fmt.Sprintf("POLYGON ((%v %v, %v %v, %v %v, %v %v, %v %v), (%v %v, %v %v, %v %v, %v %v))",
			x-w, y-w, x+w, y-w, x+w, y+w, x-w, y+w, x-w, y-w, x, y, x+w/2, y, x, y+w/2, x, y)
	}
	return fmt.Sprintf("MULTIPOLYGON (((%v %v, %v %v, %v %v, %v %v)), ((%v %v, %v %v, %v %v, %v %v)))",
		x, y, x+w, y, x, y+w, x, y, x+2*w, y+2*w, x+3*w, y+2*w, x+2*w, y+3*w, x+2*w, y+2*w)
}

// scanIDs returns the ids of the rows a scan returns, and its statistics.
func scanIDs(t *testing.T, r *reader.Reader, opts ...reader.ScanOption) ([]int64, reader.ScanStats) {
	t.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var ids []int64
	for {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
	}
	return ids, br.Stats()
}

// TestGeoShapeDifferential scans with ST_INTERSECTS, ST_DISJOINT,
// ST_CONTAINS and ST_WITHIN (and their negations) against random WKT
// literals, pruned by the geospatial statistics, and compares the rows
// with a full scan filtered row by row; a scan of whole row groups must
// keep every group holding a match. It reports, per form, the row groups
// skipped of those holding no match. The seed is new each run and
// printed; ORCGO_GEO_SEED reruns one, ORCGO_GEO_LONG runs longer.
func TestGeoShapeDifferential(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ORCGO_GEO_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	n, queries := 30000, 16
	if testing.Short() {
		n, queries = 8000, 6
	}
	if os.Getenv("ORCGO_GEO_LONG") != "" {
		n, queries = 100000, 200
	}
	t.Logf("seed %d (ORCGO_GEO_SEED=%d reruns it)", seed, seed)
	const stride = 1000
	s, b := shapeRows(n, seed)
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(stride), writer.WithStripeRowLimit(5*stride))
	rnd := rand.New(rand.NewPCG(seed, 7))
	forms := []struct {
		name   string
		make   func(string) sarg.Expr
		prunes bool // a positive form, held to a yield of 75%
	}{
		{"ST_INTERSECTS", func(w string) sarg.Expr { return sarg.Intersects("g", w) }, true},
		{"ST_DISJOINT", func(w string) sarg.Expr { return sarg.Disjoint("g", w) }, false},
		{"ST_CONTAINS(g, lit)", func(w string) sarg.Expr { return sarg.Contains("g", w) }, true},
		{"ST_WITHIN(g, lit)", func(w string) sarg.Expr { return sarg.Within("g", w) }, true},
		{"NOT ST_CONTAINS(g, lit)", func(w string) sarg.Expr { return sarg.Not(sarg.Contains("g", w)) }, false},
		{"NOT ST_WITHIN(g, lit)", func(w string) sarg.Expr { return sarg.Not(sarg.Within("g", w)) }, false},
		// Compounds: three-valued logic over nulls and empty geometries.
		{"ST_INTERSECTS OR id < k", func(w string) sarg.Expr {
			return sarg.Or(sarg.Intersects("g", w), sarg.Lt("id", sarg.Int(int64(rnd.IntN(n)/10))))
		}, false},
		{"ST_WITHIN AND NOT ST_CONTAINS", func(w string) sarg.Expr {
			return sarg.And(sarg.Within("g", w), sarg.Not(sarg.Contains("g", shapeLiteral(rnd, b))))
		}, true},
	}
	nGroups := (n + stride - 1) / stride
	type tally struct{ queries, matched, skippable, skipped int }
	tallies := make([]tally, len(forms))
	for range queries {
		lit := shapeLiteral(rnd, b)
		for fi, form := range forms {
			e := form.make(lit)
			bound := sarg.MustBind(e, r.Schema())
			keep, err := bound.Match(sarg.ColumnVectors{1: b.Cols[0], 2: b.Cols[1]}, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			hit := make([]bool, nGroups)
			for i, k := range keep {
				if k {
					want = append(want, int64(i))
					hit[i/stride] = true
				}
			}
			got, _ := scanIDs(t, r, reader.WithSearchArgument(e), reader.WithExactFilter(true))
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d: %s: %d rows, the full scan filtered %d", seed, e, len(got), len(want))
			}
			whole, _ := scanIDs(t, r, reader.WithSearchArgument(e), reader.WithWholeRowGroups())
			kept := make([]bool, nGroups)
			for _, id := range whole {
				kept[id/stride] = true
			}
			tl := &tallies[fi]
			tl.queries++
			tl.matched += len(want)
			for g := range nGroups {
				switch {
				case hit[g] && !kept[g]:
					t.Fatalf("seed %d: %s: row group %d holds a match but was skipped", seed, e, g)
				case !hit[g]:
					tl.skippable++
					if !kept[g] {
						tl.skipped++
					}
				}
			}
		}
	}
	for fi, form := range forms {
		tl := tallies[fi]
		y := 0.0
		if tl.skippable > 0 {
			y = 100 * float64(tl.skipped) / float64(tl.skippable)
		}
		t.Logf("%-24s %d queries, %d rows matched; row groups without a match %d, skipped %d (yield %.1f%%)",
			form.name, tl.queries, tl.matched, tl.skippable, tl.skipped, y)
		// The positive forms prune a clustered table well: a literal near
		// one trace misses the boxes of the other groups.
		if form.prunes && tl.skippable >= 100 && y < 75 {
			t.Errorf("seed %d: %s skips %.1f%% of the row groups without a match, want at least 75%%", seed, form.name, y)
		}
	}
}
