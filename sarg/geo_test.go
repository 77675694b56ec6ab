package sarg_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

var geoSchema = orc.MustParseSchema("struct<id:int,g:geometry,h:geography>")

func TestGeoParse(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"ST_INTERSECTS_BOX(g, 1, 2, 3, 4)", "ST_INTERSECTS_BOX(g, 1, 2, 3, 4)"},
		{"st_within_box(g, -1.5, 2, 3e2, 4) AND id = 3", "ST_WITHIN_BOX(g, -1.5, 2, 3e+02, 4) AND id = 3"},
		{"NOT ST_INTERSECTS_BOX(g, 170, -10, -170, 10)", "NOT ST_INTERSECTS_BOX(g, 170, -10, -170, 10)"},
	} {
		e, err := sarg.Parse(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := e.String(); got != c.out {
			t.Errorf("%s printed %q, want %q", c.in, got, c.out)
		}
		back, err := sarg.Parse(e.String())
		if err != nil || !back.Equal(e) {
			t.Errorf("%s does not parse back: %v", e, err)
		}
	}
	if e := sarg.MustParse("st_intersects_box = 3"); e.Leaf == nil || e.Leaf.Column != "st_intersects_box" {
		t.Errorf("a column named like the function: %v", e)
	}
	built := sarg.IntersectsBox("g", 0.5, 1, 2, 3)
	if back, err := sarg.Parse(built.String()); err != nil || !back.Equal(built) {
		t.Errorf("builder's %s does not parse back: %v", built, err)
	}
	for _, bad := range []string{"ST_INTERSECTS_BOX(g, 1, 2, 3)", "ST_WITHIN_BOX(g, 1, 2, 3, 'x')", "ST_WITHIN_BOX(g, 1, 2, 3, 4, 5)", "ST_WITHIN_BOX(1, 2, 3, 4, 5)"} {
		if _, err := sarg.Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestGeoBind(t *testing.T) {
	for _, c := range []struct{ in, want, notWant string }{
		{"ST_INTERSECTS_BOX(h, 0, 0, 1, 1)", "need a geometry column; h is geography", ""},
		{"ST_INTERSECTS_BOX(h, 0, 0, 1, 1)", "edges are not straight", ""},
		// The remark on a geography's edges is for geography columns only.
		{"ST_INTERSECTS_BOX(id, 0, 0, 1, 1)", "need a geometry column", "edges"},
		{"g = 'x'", "allows only IS NULL", ""},
		{"ST_WITHIN_BOX(g, 0, 5, 1, 1)", "ymin 5 is above ymax 1", ""},
	} {
		_, err := sarg.Bind(sarg.MustParse(c.in), geoSchema)
		if err == nil || !errors.Is(err, sarg.ErrTypeMismatch) || !strings.Contains(err.Error(), c.want) ||
			c.notWant != "" && strings.Contains(err.Error(), c.notWant) {
			t.Errorf("%s: %v, want %q and not %q", c.in, err, c.want, c.notWant)
		}
	}
	if _, err := sarg.Bind(sarg.MustParse("g IS NULL OR h IS NOT NULL"), geoSchema); err != nil {
		t.Error(err)
	}
}

// randomGeom returns WKT of a small geometry near (cx, cy), sometimes empty
// or with NaN coordinates.
func randomGeom(r *rand.Rand, cx, cy float64) string {
	c := func() string {
		return fmt.Sprintf("%g %g", cx+r.Float64()*4-2, cy+r.Float64()*4-2)
	}
	switch r.IntN(8) {
	case 0:
		return "POINT EMPTY"
	case 1:
		return "LINESTRING (" + c() + ", " + c() + ", " + c() + ")"
	case 2:
		return "POINT (NaN " + fmt.Sprint(cy) + ")"
	case 3:
		return "MULTIPOINT ((" + c() + "), EMPTY)"
	case 4:
		return "GEOMETRYCOLLECTION (POINT (" + c() + "), LINESTRING EMPTY)"
	}
	return "POINT (" + c() + ")"
}

func randomQueryBox(r *rand.Rand) [4]float64 {
	x0, y0 := r.Float64()*400-200, r.Float64()*200-100
	w, h := r.Float64()*r.Float64()*100, r.Float64()*r.Float64()*60
	x1 := x0 + w
	if r.IntN(4) == 0 { // across the antimeridian
		x0, x1 = 180-r.Float64()*20, -180+r.Float64()*20
	}
	return [4]float64{x0, y0, x1, y0 + h}
}

// TestGeoSoundness checks, on random units of random geometries and random
// boxes, that the statistics never rule out a unit holding a row EvalRow
// finds TRUE, and that Match agrees with EvalRow row by row.
func TestGeoSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := geoSchema.Children[1]
	for iter := range 3000 {
		cx, cy := r.Float64()*380-190, r.Float64()*180-90
		n := 1 + r.IntN(6)
		acc := stats.NewAccumulator(g)
		vec := &orc.BytesVector{}
		for range n {
			if r.IntN(5) == 0 {
				vec.AppendNull()
				acc.AddNull()
				continue
			}
			wkb, err := geo.AppendWKB(nil, randomGeom(r, cx, cy))
			if err != nil {
				t.Fatal(err)
			}
			vec.Append(wkb)
			acc.AddGeometry(wkb)
		}
		// Statistics as a file holds them.
		st := stats.FromProto(acc.Proto(), g, stats.WriterInfo{})
		q := randomQueryBox(r)
		var e sarg.Expr
		switch iter % 3 {
		case 0:
			e = sarg.IntersectsBox("g", q[0], q[1], q[2], q[3])
		case 1:
			e = sarg.WithinBox("g", q[0], q[1], q[2], q[3])
		default:
			e = sarg.Not(sarg.IntersectsBox("g", q[0], q[1], q[2], q[3]))
		}
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
			match, _ := b.EvalRow(map[int]any{2: v})
			if match != got[i] {
				t.Fatalf("%s row %d: EvalRow %v, Match %v", e, i, match, got[i])
			}
			if match && !tv.IsNeeded() {
				t.Fatalf("%s: statistics %v x=[%g,%g] y=[%g,%g] say %v but row %d matches", e, st.Geo.Types.Codes(),
					st.Geo.Box.Min[0], st.Geo.Box.Max[0], st.Geo.Box.Min[1], st.Geo.Box.Max[1], tv, i)
			}
		}
	}
}

func TestGeoEvaluate(t *testing.T) {
	g := geoSchema.Children[1]
	unit := func(wkts ...string) *stats.Column {
		acc := stats.NewAccumulator(g)
		for _, w := range wkts {
			wkb, _ := geo.AppendWKB(nil, w)
			acc.AddGeometry(wkb)
		}
		c := stats.FromProto(acc.Proto(), g, stats.WriterInfo{})
		return &c
	}
	near := unit("POINT (10 10)", "LINESTRING (11 11, 12 14)") // box x 10..12, y 10..14
	dateline := unit("POINT (179 0)", "POINT (178.5 1)")
	empty := unit("POINT EMPTY")
	for _, c := range []struct {
		where string
		st    *stats.Column
		want  sarg.TruthValue
	}{
		{"ST_INTERSECTS_BOX(g, 0, 0, 9.99, 100)", near, sarg.No},
		{"ST_INTERSECTS_BOX(g, 0, 0, 10, 10)", near, sarg.YesNo}, // touches a corner
		{"ST_WITHIN_BOX(g, 12.5, 0, 20, 20)", near, sarg.No},
		{"ST_INTERSECTS_BOX(g, 170, -5, -170, 5)", dateline, sarg.YesNo},
		{"ST_INTERSECTS_BOX(g, 179.5, -5, -170, 5)", dateline, sarg.No},
		{"ST_INTERSECTS_BOX(g, 170, -5, -170, 5)", near, sarg.No},
		{"NOT ST_INTERSECTS_BOX(g, 0, 0, 9, 9)", near, sarg.Yes},
		{"ST_INTERSECTS_BOX(g, 0, 0, 1, 1)", empty, sarg.YesNo}, // no bbox written: kept
	} {
		b := sarg.MustBind(sarg.MustParse(c.where), geoSchema)
		if got := b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{2: c.st}}); got != c.want {
			t.Errorf("%s: %v, want %v", c.where, got, c.want)
		}
	}
}
