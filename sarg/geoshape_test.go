package sarg_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

func TestShapeParse(t *testing.T) {
	const sq = "POLYGON ((0 0, 1 0, 1 1, 0 0))"
	for _, c := range []struct{ in, out string }{
		{"ST_INTERSECTS(g, 'POINT (1 2)')", "ST_INTERSECTS(g, 'POINT (1 2)')"},
		{"st_intersects('POINT (1 2)', g)", "ST_INTERSECTS(g, 'POINT (1 2)')"},
		{"ST_INTERSECTS(g, ST_GEOMFROMTEXT('" + sq + "'))", "ST_INTERSECTS(g, '" + sq + "')"},
		{"ST_CONTAINS(g, '" + sq + "')", "ST_CONTAINS(g, '" + sq + "')"},
		{"ST_CONTAINS('" + sq + "', g)", "ST_WITHIN(g, '" + sq + "')"},
		{"ST_WITHIN(g, '" + sq + "')", "ST_WITHIN(g, '" + sq + "')"},
		{"ST_WITHIN(st_geometryfromtext('" + sq + "'), g)", "ST_CONTAINS(g, '" + sq + "')"},
		{"ST_DISJOINT(g, 'POINT (1 2)')", "NOT ST_INTERSECTS(g, 'POINT (1 2)')"},
		{"NOT ST_CONTAINS(g, 'POINT EMPTY') AND id = 3", "NOT ST_CONTAINS(g, 'POINT EMPTY') AND id = 3"},
		{"ST_INTERSECTS(s.`g 2`, 'POINT (1 2)')", "ST_INTERSECTS(s.`g 2`, 'POINT (1 2)')"},
	} {
		e, err := sarg.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.out {
			t.Errorf("%s printed %q, want %q", c.in, got, c.out)
		}
		if back, err := sarg.Parse(e.String()); err != nil || !back.Equal(e) {
			t.Errorf("%s does not parse back: %v", e, err)
		}
	}
	for _, e := range []sarg.Expr{sarg.Intersects("g", "POINT (1 2)"), sarg.Contains("g", sq), sarg.Within("a.b", sq), sarg.Disjoint("g", "LINESTRING (0 0, 1 1)")} {
		if back, err := sarg.Parse(e.String()); err != nil || !back.Equal(e) {
			t.Errorf("builder's %s does not parse back: %v", e, err)
		}
	}
	if e := sarg.MustParse("st_contains = 3"); e.Leaf == nil || e.Leaf.Column != "st_contains" {
		t.Errorf("a column named like the function: %v", e)
	}
}

// TestShapeParseErrors checks the refusals: what is wrong, and where.
func TestShapeParseErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		pos int
		msg string
	}{
		{"ST_INTERSECTS(g, 'POINT (1 2')", 28, "bad WKT literal: expected ')', found the end"},
		{"ST_INTERSECTS(g, 'POLYGON ((0 0, 1 x, 0 0))')", 35, "bad WKT literal: a coordinate has 1 numbers"},
		{"ST_CONTAINS('CIRCLE (1 2)', g)", 19, `unknown geometry "CIRCLE"`},
		{"ST_WITHIN(g, ST_GEOMFROMTEXT('POINT (1e 2)'))", 37, `bad number "1e"`},
		{"ST_INTERSECTS(g, 'POINT (inf 2)')", 17, "NaN or infinite coordinate"},
		{"ST_INTERSECTS(g, h)", 17, "two columns are not supported"},
		{"ST_INTERSECTS('POINT (1 2)', 'POINT (1 2)')", 0, "needs a geometry column, found two literals"},
		{"ST_INTERSECTS(g)", 15, "takes a geometry column and a WKT literal"},
		{"ST_INTERSECTS(g, 'POINT (1 2)', 3)", 30, `expected ")" after the 2 arguments`},
		{"ST_INTERSECTS(g, 3)", 17, "takes a geometry column and a WKT literal"},
		{"ST_INTERSECTS(g, ST_GEOMFROMTEXT('POINT (1 2)', 4326))", 46, "a spatial reference is not supported"},
		{"ST_INTERSECTS(g, ST_GEOMFROMTEXT(g))", 33, "takes the well-known text of a geometry in quotes"},
		{"ST_CONTAINS(g, 'POINT (''1 2)')", 23, "bad WKT literal"}, // at the doubled quote
	} {
		_, err := sarg.Parse(c.in)
		var pe *sarg.ParseError
		if !errors.As(err, &pe) || pe.Pos != c.pos || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v, want position %d and %q", c.in, err, c.pos, c.msg)
		}
	}
}

func TestShapeBind(t *testing.T) {
	for _, c := range []struct {
		e          sarg.Expr
		want, not_ string
	}{
		{sarg.Intersects("h", "POINT (1 2)"), "ST_INTERSECTS needs a geometry column; h is geography", ""},
		{sarg.Contains("id", "POINT (1 2)"), "ST_CONTAINS needs a geometry column; id is int", "edges"},
		{sarg.Within("g", "POINT (1"), "bad WKT at position 8", ""},
		{sarg.Intersects("g", "POINT (nan 1)"), "NaN or infinite coordinate", ""},
		{sarg.Eq("g", sarg.String("POINT (1 2)")), "allows only IS NULL and the geometry predicates", ""},
	} {
		_, err := sarg.Bind(c.e, geoSchema)
		if err == nil || !errors.Is(err, sarg.ErrTypeMismatch) || !strings.Contains(err.Error(), c.want) ||
			c.not_ != "" && strings.Contains(err.Error(), c.not_) {
			t.Errorf("%s: %v, want %q", c.e, err, c.want)
		}
	}
}

// shapeUnit returns the statistics of a unit of WKT values (nulls for "").
func shapeUnit(t testing.TB, wkts ...string) *stats.Column {
	t.Helper()
	acc := stats.NewAccumulator(geoSchema.Children[1])
	for _, w := range wkts {
		if w == "" {
			acc.AddNull()
			continue
		}
		wkb, err := geo.AppendWKB(nil, w)
		if err != nil {
			t.Fatal(err)
		}
		acc.AddGeometry(wkb)
	}
	c := stats.FromProto(acc.Proto(), geoSchema.Children[1], stats.WriterInfo{})
	return &c
}

func TestShapeEvaluate(t *testing.T) {
	near := shapeUnit(t, "POINT (10 10)", "LINESTRING (11 11, 12 14)") // box x 10..12, y 10..14
	withNull := shapeUnit(t, "POINT (10 10)", "")
	for _, c := range []struct {
		where string
		st    *stats.Column
		want  sarg.TruthValue
	}{
		{"ST_INTERSECTS(g, 'POLYGON ((0 0, 9 0, 9 9, 0 0))')", near, sarg.No},
		{"ST_INTERSECTS(g, 'POLYGON ((0 0, 10 0, 10 10, 0 0))')", near, sarg.YesNo}, // boxes touch at a corner
		{"ST_DISJOINT(g, 'POLYGON ((0 0, 9 0, 9 9, 0 0))')", near, sarg.Yes},
		{"ST_INTERSECTS(g, 'POINT (9 9)')", withNull, sarg.NoNull},
		{"NOT ST_INTERSECTS(g, 'POINT (9 9)')", withNull, sarg.YesNull},
		{"ST_INTERSECTS(g, 'POINT EMPTY')", near, sarg.No},
		{"ST_CONTAINS(g, 'POINT (11 12)')", near, sarg.YesNo},
		{"ST_CONTAINS(g, 'LINESTRING (11 12, 13 12)')", near, sarg.No}, // sticks out of the unit's box
		{"ST_CONTAINS(g, 'POINT EMPTY')", near, sarg.No},
		{"ST_WITHIN(g, 'POLYGON ((12 14, 20 14, 20 20, 12 14))')", near, sarg.YesNo},
		{"ST_WITHIN(g, 'POLYGON ((13 0, 20 0, 20 20, 13 0))')", near, sarg.No},
		{"ST_CONTAINS('POLYGON ((13 0, 20 0, 20 20, 13 0))', g)", near, sarg.No},
		{"ST_INTERSECTS(g, 'POINT (0 0)')", shapeUnit(t, "POINT EMPTY"), sarg.YesNo}, // no bbox written: kept
	} {
		b := sarg.MustBind(sarg.MustParse(c.where), geoSchema)
		if got := b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{2: c.st}}); got != c.want {
			t.Errorf("%s: %v, want %v", c.where, got, c.want)
		}
	}
	// A box that wraps (xmin > xmax, written by another writer) bounds the
	// vertices, not the straight edges between them: x is not bounded.
	wrapped := &stats.Column{Kind: orc.Geometry, NumValues: 1, HasNullKnown: true,
		Geo: &stats.GeoStats{Box: geo.Box{Min: [4]float64{170, 0, 0, 0}, Max: [4]float64{-170, 10, 0, 0}}, Types: stats.TypeSet(0).Add(geo.LineString)}}
	for _, c := range []struct {
		where string
		want  sarg.TruthValue
	}{
		{"ST_INTERSECTS(g, 'POINT (0 5)')", sarg.YesNo},
		{"ST_CONTAINS(g, 'POINT (0 5)')", sarg.YesNo},
		{"ST_WITHIN(g, 'POLYGON ((-1 1, 1 1, 0 2, -1 1))')", sarg.YesNo},
		{"ST_INTERSECTS(g, 'POINT (0 11)')", sarg.No},
	} {
		b := sarg.MustBind(sarg.MustParse(c.where), geoSchema)
		if got := b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{2: wrapped}}); got != c.want {
			t.Errorf("%s on a wrapped box: %v, want %v", c.where, got, c.want)
		}
	}
	b := sarg.MustBind(sarg.MustParse("ST_CONTAINS(g, 'LINESTRING (11 12, 13 12)')"), geoSchema)
	ex := b.Explain(sarg.MapSource{Columns: map[int]*stats.Column{2: near}})
	if !strings.Contains(ex, "box of g: x [10, 12] y [10, 14]; the literal's box: x [11, 13] y [12, 12]") || !strings.Contains(ex, "result: NO (skip)") {
		t.Errorf("explain:\n%s", ex)
	}
}

// TestShapeRows checks row values on hand-made cases: NULL for null and
// malformed values, FALSE for empty geometries, the boundary rule.
func TestShapeRows(t *testing.T) {
	const sq = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))"
	rows := []string{"POINT (5 5)", "POINT (10 5)", "", "POINT EMPTY", "LINESTRING (0 0, 10 10)", "LINESTRING (0 0, 10 0)", "bad", sq,
		"POLYGON ((-1 -1, 11 -1, 11 11, -1 11, -1 -1))"}
	vec := &orc.BytesVector{}
	for _, w := range rows {
		switch w {
		case "":
			vec.AppendNull()
		case "bad":
			vec.Append([]byte{1, 1, 0, 0})
		default:
			wkb, _ := geo.AppendWKB(nil, w)
			vec.Append(wkb)
		}
	}
	for _, c := range []struct {
		where string
		want  string // per row: T, F or N
	}{
		{"ST_INTERSECTS(g, '" + sq + "')", "TTNFTTNTT"},
		{"ST_DISJOINT(g, '" + sq + "')", "FFNTFFNFF"},
		{"ST_WITHIN(g, '" + sq + "')", "TFNFTFNTF"},
		{"ST_CONTAINS(g, '" + sq + "')", "FFNFFFNTT"},
		{"ST_CONTAINS(g, 'POINT (5 5)')", "TFNFTFNTT"},
		{"ST_CONTAINS(g, 'POINT (0 0)')", "FFNFFFNFT"},
		{"ST_CONTAINS(g, 'POINT EMPTY')", "FFNFFFNFF"},
		{"NOT ST_CONTAINS(g, 'POINT EMPTY')", "TTNTTTNTT"},
		{"ST_INTERSECTS(g, 'LINESTRING (10 5, 20 5)')", "FTNFFFNTT"},
	} {
		b := sarg.MustBind(sarg.MustParse(c.where), geoSchema)
		got, err := b.Match(sarg.ColumnVectors{2: vec}, len(rows), nil)
		if err != nil {
			t.Fatal(err)
		}
		var s []byte
		for i := range rows {
			var v any
			if !vec.IsNull(i) {
				v = vec.Get(i)
			}
			m, known := b.EvalRow(map[int]any{2: v})
			switch {
			case !known:
				s = append(s, 'N')
			case m:
				s = append(s, 'T')
			default:
				s = append(s, 'F')
			}
			if got[i] != m {
				t.Errorf("%s row %d: Match %v, EvalRow %v", c.where, i, got[i], m)
			}
		}
		if string(s) != c.want {
			t.Errorf("%s: rows %s, want %s", c.where, s, c.want)
		}
	}
}

// randShapeNear returns the WKT of a random geometry with coordinates on a
// grid near (cx, cy) (step 0.5, so that shapes touch, share edges and meet
// at vertices), sometimes empty, with a NaN vertex, or not WKB ("bad").
func randShapeNear(r *rand.Rand, cx, cy float64) string {
	c := func() string {
		return fmt.Sprintf("%v %v", cx+float64(r.IntN(9))*0.5-2, cy+float64(r.IntN(9))*0.5-2)
	}
	ring := func() string {
		first := c()
		parts := []string{first}
		for range 2 + r.IntN(3) {
			parts = append(parts, c())
		}
		return "(" + strings.Join(append(parts, first), ", ") + ")"
	}
	box := func(x0, y0, w float64) string {
		return fmt.Sprintf("(%v %v, %v %v, %v %v, %v %v, %v %v)", x0, y0, x0+w, y0, x0+w, y0+w, x0, y0+w, x0, y0)
	}
	switch r.IntN(12) {
	case 0:
		return "POINT EMPTY"
	case 1:
		return "POINT (" + c() + ")"
	case 2:
		return "MULTIPOINT ((" + c() + "), (" + c() + "))"
	case 3, 4:
		return "LINESTRING (" + c() + ", " + c() + ", " + c() + ")"
	case 5, 6:
		return "POLYGON (" + ring() + ")"
	case 7:
		x0, y0 := cx-2+float64(r.IntN(3))*0.5, cy-2+float64(r.IntN(3))*0.5
		return "POLYGON (" + box(x0, y0, 3) + ", " + box(x0+1, y0+1, 1) + ")"
	case 8:
		return "MULTIPOLYGON ((" + ring() + "), (" + ring() + "))"
	case 9:
		return "GEOMETRYCOLLECTION (POINT (" + c() + "), LINESTRING (" + c() + ", " + c() + "), POLYGON (" + ring() + "))"
	case 10:
		return "LINESTRING (" + c() + ", NaN " + fmt.Sprint(cy) + ", " + c() + ")"
	}
	return "bad"
}

// shapeForms are the forms the soundness test draws from.
var shapeForms = []func(wkt string) sarg.Expr{
	func(w string) sarg.Expr { return sarg.Intersects("g", w) },
	func(w string) sarg.Expr { return sarg.Disjoint("g", w) },
	func(w string) sarg.Expr { return sarg.Contains("g", w) },
	func(w string) sarg.Expr { return sarg.Not(sarg.Contains("g", w)) },
	func(w string) sarg.Expr { return sarg.Within("g", w) },
	func(w string) sarg.Expr { return sarg.Not(sarg.Within("g", w)) },
}

// TestShapeSoundness checks, on random units of random geometries and
// random literals, that every row's value (EvalRow) is one of the outcomes
// the statistics allow, and that Match agrees with EvalRow. The seed is
// new each run and printed; ORCGO_SARG_GEO_SEED reruns one.
func TestShapeSoundness(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ORCGO_SARG_GEO_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (ORCGO_SARG_GEO_SEED=%d reruns it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 52))
	iters := 3000
	if testing.Short() {
		iters = 600
	}
	for iter := range iters {
		cx, cy := float64(r.IntN(9)), float64(r.IntN(9))
		n := 1 + r.IntN(6)
		acc := stats.NewAccumulator(geoSchema.Children[1])
		vec := &orc.BytesVector{}
		for range n {
			w := randShapeNear(r, cx, cy)
			switch {
			case r.IntN(6) == 0:
				vec.AppendNull()
				acc.AddNull()
				continue
			case w == "bad":
				vec.Append([]byte{1, 2, 0, 0, 0, 1})
				acc.AddGeometry([]byte{1, 2, 0, 0, 0, 1})
				continue
			}
			wkb, err := geo.AppendWKB(nil, w)
			if err != nil {
				t.Fatal(err)
			}
			vec.Append(wkb)
			acc.AddGeometry(wkb)
		}
		st := stats.FromProto(acc.Proto(), geoSchema.Children[1], stats.WriterInfo{})
		lit := randShapeNear(r, float64(r.IntN(9)), float64(r.IntN(9)))
		if lit == "bad" || strings.Contains(lit, "NaN") {
			lit = "POINT (4 4)"
		}
		e := shapeForms[iter%len(shapeForms)](lit)
		b := sarg.MustBind(e, geoSchema)
		tv := b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{2: &st}})
		got, err := b.Match(sarg.ColumnVectors{2: vec}, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			var v any
			if !vec.IsNull(i) {
				v = vec.Get(i)
			}
			match, known := b.EvalRow(map[int]any{2: v})
			if match != got[i] {
				t.Fatalf("seed %d: %s row %d: EvalRow %v, Match %v", seed, e, i, match, got[i])
			}
			out := sarg.No // FALSE
			switch {
			case !known:
				out = sarg.Null
			case match:
				out = sarg.Yes
			}
			if tv&out == 0 {
				t.Fatalf("seed %d: %s: statistics x=[%g,%g] y=[%g,%g] say %v but row %d is %v", seed, e,
					st.Geo.Box.Min[0], st.Geo.Box.Max[0], st.Geo.Box.Min[1], st.Geo.Box.Max[1], tv, i, out)
			}
		}
	}
}
