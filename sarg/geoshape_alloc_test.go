package sarg_test

import (
	"fmt"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
)

// shapeVector returns n rows of points, short linestrings and small
// polygons spread over 0..100 x 0..100, none touching the literals of
// TestShapeMatchAllocs (their coordinates end in .3 or .7).
func shapeVector(n int) *orc.BytesVector {
	v := &orc.BytesVector{}
	for i := range n {
		x, y := float64(i*37%97)+0.3, float64(i*53%89)+0.7
		var w string
		switch i % 3 {
		case 0:
			w = fmt.Sprintf("POINT (%v %v)", x, y)
		case 1:
			w = fmt.Sprintf("LINESTRING (%v %v, %v %v)", x, y, x+0.4, y-0.4)
		default:
			w = fmt.Sprintf("POLYGON ((%v %v, %v %v, %v %v, %v %v))", x, y, x+0.4, y, x, y-0.4, x, y)
		}
		wkb, _ := geo.AppendWKB(nil, w)
		v.Append(wkb)
	}
	return v
}

const shapeLitPoly = "POLYGON ((10 10, 60 10, 60 60, 10 60, 10 10), (20 20, 30 20, 30 30, 20 30, 20 20))"

// TestShapeMatchAllocs checks that filtering rows decodes them into reused
// buffers: no allocation per row when no segments touch.
func TestShapeMatchAllocs(t *testing.T) {
	const n = 1000
	vec := shapeVector(n)
	for _, e := range []sarg.Expr{sarg.Intersects("g", shapeLitPoly), sarg.Within("g", shapeLitPoly), sarg.Contains("g", "POINT (50 50)")} {
		b := sarg.MustBind(e, geoSchema)
		m := b.NewMatcher()
		dst := make([]bool, n)
		cols := sarg.ColumnVectors{2: vec}
		if _, err := m.Match(cols, n, dst); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() { dst, _ = m.Match(cols, n, dst) })
		if allocs > 20 {
			t.Errorf("%s: %.0f allocations to filter %d rows", e, allocs, n)
		}
	}
}

// BenchmarkShapeMatch filters 1,024 rows of points, linestrings and
// polygons against a polygon with a hole; MB/s reads as millions of rows
// per second.
func BenchmarkShapeMatch(b *testing.B) {
	const n = 1024
	vec := shapeVector(n)
	for _, e := range []sarg.Expr{sarg.Intersects("g", shapeLitPoly), sarg.Within("g", shapeLitPoly), sarg.Contains("g", "POINT (50 50)"), sarg.IntersectsBox("g", 10, 10, 60, 60)} {
		b.Run(e.Leaf.Op.String(), func(b *testing.B) {
			m := sarg.MustBind(e, geoSchema).NewMatcher()
			cols := sarg.ColumnVectors{2: vec}
			dst := make([]bool, n)
			b.SetBytes(n)
			b.ReportAllocs()
			for range b.N {
				dst, _ = m.Match(cols, n, dst)
			}
		})
	}
}
