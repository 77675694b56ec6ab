package sarg_test

import (
	"math"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// Infinite box bounds follow the antimeridian rule like finite ones: with
// xmin > xmax the box holds x >= xmin or x <= xmax, so xmin = +Inf leaves
// x <= xmax and xmax = -Inf leaves x >= xmin. Rows and statistics agree.
func TestGeoInfiniteBounds(t *testing.T) {
	g := geoSchema.Children[1]
	inf := math.Inf(1)
	for _, c := range []struct {
		e    sarg.Expr
		wkt  string
		want bool
	}{
		{sarg.IntersectsBox("g", inf, 0, 20, 20), "POINT (10 10)", true},
		{sarg.IntersectsBox("g", inf, 0, 20, 20), "POINT (30 10)", false},
		{sarg.IntersectsBox("g", 5, 0, -inf, 20), "POINT (10 10)", true},
		{sarg.IntersectsBox("g", 5, 0, -inf, 20), "POINT (1 10)", false},
		{sarg.WithinBox("g", 0, 0, -inf, 20), "LINESTRING (1 1, 3 4)", true},
		{sarg.WithinBox("g", 0, 0, -inf, 20), "LINESTRING (-1 1, 3 4)", false},
		{sarg.WithinBox("g", inf, 0, 20, 20), "LINESTRING (-100 1, 3 4)", true},
		{sarg.IntersectsBox("g", -inf, -inf, inf, inf), "POINT (1e300 -1e300)", true},
	} {
		wkb, err := geo.AppendWKB(nil, c.wkt)
		if err != nil {
			t.Fatal(err)
		}
		b := sarg.MustBind(c.e, geoSchema)
		vec := &orc.BytesVector{}
		vec.Append(wkb)
		got, err := b.Match(sarg.ColumnVectors{2: vec}, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		row, _ := b.EvalRow(map[int]any{2: wkb})
		acc := stats.NewAccumulator(g)
		acc.AddGeometry(wkb)
		st := stats.FromProto(acc.Proto(), g, stats.WriterInfo{})
		tv := b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{2: &st}})
		// Statistics may keep a unit whose rows do not match (a box
		// test on an envelope), never rule out one that does.
		if got[0] != c.want || row != c.want || c.want && !tv.IsNeeded() {
			t.Errorf("%s on %s: Match %v, EvalRow %v, statistics %v; want %v", c.e, c.wkt, got[0], row, tv, c.want)
		}
	}
}
