package geo

import (
	"math"
	"testing"
)

func shapeOf(t testing.TB, wkt string) *Shape {
	t.Helper()
	s := &Shape{}
	if err := s.SetWKT(wkt); err != nil {
		t.Fatalf("%s: %v", wkt, err)
	}
	return s
}

const (
	square = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))"
	donut  = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (3 3, 7 3, 7 7, 3 7, 3 3))"
)

// TestRelateCases checks Intersects and Contains on hand-made cases with
// known answers, both ways round where the answer is known, and the
// general (exact) path of Contains on every case against the fast one.
func TestRelateCases(t *testing.T) {
	for _, c := range []struct {
		a, b       string
		intersects bool
		contains   bool // a contains b
	}{
		// Points and polygons: the boundary is not the interior.
		{square, "POINT (5 5)", true, true},
		{square, "POINT (10 5)", true, false},
		{square, "POINT (0 0)", true, false},
		{square, "POINT (10.000000000000002 5)", false, false},
		{square, "POINT (-0 5)", true, false},
		{donut, "POINT (5 5)", false, false},
		{donut, "POINT (3 5)", true, false},
		{donut, "POINT (2 5)", true, true},
		{square, "MULTIPOINT ((5 5), (10 10))", true, true},
		{square, "MULTIPOINT ((10 0), (10 10))", true, false},
		{square, "MULTIPOINT ((5 5), (11 11))", true, false},
		// Lines and polygons.
		{square, "LINESTRING (1 1, 9 9)", true, true},
		{square, "LINESTRING (0 0, 10 10)", true, true},    // diagonal: interior between boundary ends
		{square, "LINESTRING (0 0, 10 0)", true, false},    // along an edge: boundary only
		{square, "LINESTRING (0 0, 5 0, 5 5)", true, true}, // partly on the boundary
		{square, "LINESTRING (5 5, 15 5)", true, false},
		{square, "LINESTRING (-5 5, 0 5)", true, false}, // touches from outside
		{square, "LINESTRING (-5 -5, -1 -1)", false, false},
		{donut, "LINESTRING (1 1, 9 9)", true, false},          // through the hole
		{donut, "LINESTRING (1 1, 3 3, 3 7, 1 9)", true, true}, // along the hole's edge
		{donut, "LINESTRING (3 3, 7 3)", true, false},          // only on the hole's edge
		{donut, "LINESTRING (4 4, 6 6)", false, false},         // in the hole
		{"POLYGON ((0 0, 10 0, 5 5, 10 10, 0 10, 0 0))", "LINESTRING (2 5, 8 5)", true, false},
		// Polygons and polygons.
		{square, square, true, true},
		{square, "POLYGON ((0 0, 5 0, 5 5, 0 5, 0 0))", true, true}, // shares two edges
		{square, "POLYGON ((2 2, 8 2, 8 8, 2 8, 2 2))", true, true},
		{square, "POLYGON ((2 2, 12 2, 12 8, 2 8, 2 2))", true, false},
		{square, "POLYGON ((10 0, 20 0, 20 10, 10 10, 10 0))", true, false}, // shares an edge
		{square, "POLYGON ((10 10, 20 10, 20 20, 10 20, 10 10))", true, false},
		{square, "POLYGON ((11 0, 20 0, 20 10, 11 10, 11 0))", false, false},
		{donut, "POLYGON ((1 1, 9 1, 9 9, 1 9, 1 1))", true, false},          // covers the hole
		{donut, "POLYGON ((1 1, 3 1, 3 3, 1 3, 1 1))", true, true},           // touches the hole at a corner
		{donut, "POLYGON ((3 3, 7 3, 7 7, 3 7, 3 3))", true, false},          // the hole itself
		{donut, "POLYGON ((4 4, 6 4, 6 6, 4 6, 4 4))", false, false},         // inside the hole
		{"POLYGON ((4 4, 6 4, 6 6, 4 6, 4 4))", donut, false, false},         // the other way round
		{"POLYGON ((-1 -1, 11 -1, 11 11, -1 11, -1 -1))", donut, true, true}, // a bigger square holds the donut
		{square, "POLYGON ((0 0, 10 0, 10 10, 0 0))", true, true},            // half of it
		// A multipolygon filling the hole of a donut contains a square across it.
		{"MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (3 3, 7 3, 7 7, 3 7, 3 3)), ((3 3, 7 3, 7 7, 3 7, 3 3)))",
			"POLYGON ((1 1, 9 1, 9 9, 1 9, 1 1))", true, true},
		// ... but an island inside the hole leaves a ring of hole uncovered.
		{"MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (3 3, 7 3, 7 7, 3 7, 3 3)), ((4 4, 6 4, 6 6, 4 6, 4 4)))",
			"POLYGON ((1 1, 9 1, 9 9, 1 9, 1 1))", true, false},
		// Lines and lines, points and lines: the mod-2 boundary.
		{"LINESTRING (0 0, 10 0)", "POINT (5 0)", true, true},
		{"LINESTRING (0 0, 10 0)", "POINT (0 0)", true, false},
		{"LINESTRING (0 0, 10 0, 10 10, 0 0)", "POINT (0 0)", true, true}, // a closed line has no boundary
		{"MULTILINESTRING ((0 0, 5 0), (5 0, 10 0))", "POINT (5 0)", true, true},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (2 0, 8 0)", true, true},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (0 0, 10 0)", true, true},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (5 0, 15 0)", true, false},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (5 -5, 5 5)", true, false},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (10 0, 10 5)", true, false},
		{"MULTILINESTRING ((0 0, 5 0), (5 0, 10 0))", "LINESTRING (2 0, 8 0)", true, true},
		{"LINESTRING (0 0, 10 10)", "POINT (3 3)", true, true},
		{"LINESTRING (0 0, 10 10)", "POINT (3 3.0000000000000004)", false, false},
		// A line cannot contain an area, even one it encloses.
		{"LINESTRING (0 0, 10 0, 10 10, 0 10, 0 0)", square, true, false},
		{square, "LINESTRING (0 0, 10 0, 10 10, 0 10, 0 0)", true, false},
		// Collections: union, dimension priority.
		{"GEOMETRYCOLLECTION (POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0)), LINESTRING (10 5, 20 5))", "LINESTRING (5 5, 15 5)", true, true},
		{"GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 2 0))", "MULTIPOINT ((1 1), (1 0))", true, true},
		{"GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 2 0))", "MULTIPOINT ((1 1), (0 0))", true, true},
		{"GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 2 0))", "MULTIPOINT ((0 0), (2 0))", true, false},
		{square, "GEOMETRYCOLLECTION (POINT (5 5), LINESTRING (1 1, 2 2), POLYGON ((3 3, 4 3, 4 4, 3 3)))", true, true},
		{square, "GEOMETRYCOLLECTION (POINT (5 5), LINESTRING (1 1, 12 2))", true, false},
		// Empty geometries intersect nothing and are contained by nothing.
		{square, "POINT EMPTY", false, false},
		{square, "POLYGON EMPTY", false, false},
		{"POINT EMPTY", "POINT EMPTY", false, false},
		{"GEOMETRYCOLLECTION EMPTY", square, false, false},
		{square, "POINT (NaN 5)", false, false},
		{square, "LINESTRING (1 1, NaN 3, 2 2)", true, true}, // the NaN vertex is left out
		// Near-degenerate: nearly collinear points, where float64 rounds.
		{"LINESTRING (0 0, 1 1)", "POINT (0.1 0.1)", true, true},
		{"LINESTRING (0.1 0.1, 0.30000000000000004 0.30000000000000004)", "POINT (0.2 0.2)", true, true},
		{"LINESTRING (0.5 0.5, 12 12)", "POINT (24 24)", false, false},
		{"LINESTRING (1e-300 1e-300, 3e-300 3e-300)", "POINT (2e-300 2e-300)", true, true},
		{"LINESTRING (1e300 1e300, -1e300 -1e300)", "POINT (1e-300 1e-300)", true, true},
		{"LINESTRING (1e300 1e300, -1e300 -1e300)", "POINT (1e-300 2e-300)", false, false},
		// 0.3333333333333333 is below 1/3, 0.33333333333333337 above.
		{"LINESTRING (0 0, 3 1)", "LINESTRING (1 0.3333333333333333, 1 1)", true, false},
		{"LINESTRING (0 0, 3 1)", "LINESTRING (1 0.33333333333333337, 1 1)", false, false},
		{"POLYGON ((0 0, 3 1, 0 1, 0 0))", "POINT (1 0.3333333333333333)", false, false},
		{"POLYGON ((0 0, 3 1, 0 1, 0 0))", "POINT (1 0.33333333333333337)", true, true},
		// Touching vertices.
		{"POLYGON ((0 0, 2 0, 1 1, 0 0))", "POLYGON ((1 1, 2 2, 0 2, 1 1))", true, false},
		{"LINESTRING (0 0, 2 2)", "LINESTRING (2 2, 4 0)", true, false},
		{"LINESTRING (0 0, 2 2)", "LINESTRING (0 2, 2 0)", true, false},
	} {
		a, b := shapeOf(t, c.a), shapeOf(t, c.b)
		if got := Intersects(a, b); got != c.intersects {
			t.Errorf("Intersects(%s, %s) = %v", c.a, c.b, got)
		}
		if got := Intersects(b, a); got != c.intersects {
			t.Errorf("Intersects(%s, %s) = %v", c.b, c.a, got)
		}
		if got := Contains(a, b); got != c.contains {
			t.Errorf("Contains(%s, %s) = %v", c.a, c.b, got)
		}
		if !a.Empty() && !b.Empty() {
			if got := exactContains(a, b); got != c.contains && boxWithin(a, b) {
				t.Errorf("exactContains(%s, %s) = %v", c.a, c.b, got)
			}
		}
	}
}

// boxWithin reports whether b's box lies in a's (the precondition of
// exactContains being asked).
func boxWithin(a, b *Shape) bool {
	return b.minX >= a.minX && b.maxX <= a.maxX && b.minY >= a.minY && b.maxY <= a.maxY
}

func TestOrient(t *testing.T) {
	for _, c := range []struct {
		a, b, c pt
		want    int
	}{
		{pt{0, 0}, pt{1, 0}, pt{0, 1}, 1},
		{pt{0, 0}, pt{1, 0}, pt{0, -1}, -1},
		{pt{0, 0}, pt{1, 1}, pt{2, 2}, 0},
		{pt{0.1, 0.1}, pt{0.2, 0.2}, pt{0.30000000000000004, 0.30000000000000004}, 0},
		// Rounds to the wrong sign in plain float64 arithmetic.
		{pt{0.5, 0.5}, pt{12, 12}, pt{24, 24}, 0},
		{pt{0.5, 0.5}, pt{12, 12}, pt{24, math.Nextafter(24, 25)}, 1},
		{pt{1e300, 1e300}, pt{-1e300, -1e300}, pt{1e-300, 2e-300}, -1},
		{pt{-1e300, -1e300}, pt{1e300, 1e300}, pt{1e-300, 2e-300}, 1},
		{pt{1e-320, 0}, pt{0, 1e-320}, pt{5e-321, 5e-321}, 0},
	} {
		if got := orient(c.a, c.b, c.c); got != c.want {
			t.Errorf("orient(%v, %v, %v) = %d, want %d", c.a, c.b, c.c, got, c.want)
		}
		if got := orientExact(c.a, c.b, c.c); got != c.want {
			t.Errorf("orientExact(%v, %v, %v) = %d, want %d", c.a, c.b, c.c, got, c.want)
		}
	}
}
