package geo

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// circleWKT returns a polygon of n vertices on the circle of radius rad
// around (cx, cy).
func circleWKT(n int, cx, cy, rad float64) string {
	parts := make([]string, n+1)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		parts[i] = fmt.Sprintf("%v %v", cx+rad*math.Cos(a), cy+rad*math.Sin(a))
	}
	parts[n] = parts[0]
	return "POLYGON ((" + strings.Join(parts, ", ") + "))"
}

// TestContainsBigPolygon checks that the general path of Contains stays
// fast with a detailed polygon: small geometries crossing or touching its
// boundary cut and walk only the edges near them.
func TestContainsBigPolygon(t *testing.T) {
	big := shapeOf(t, circleWKT(4000, 0, 0, 100))
	big.Prepare()
	var rows []*Shape
	var want []bool
	for i := range 200 {
		a := 2 * math.Pi * float64(i) / 200
		x, y := 100*math.Cos(a), 100*math.Sin(a)
		// A segment from inside to outside, a triangle straddling the
		// boundary, and one well inside whose edge touches nothing.
		rows = append(rows, shapeOf(t, fmt.Sprintf("LINESTRING (%v %v, %v %v)", 0.9*x, 0.9*y, 1.1*x, 1.1*y)))
		want = append(want, false)
		rows = append(rows, shapeOf(t, fmt.Sprintf("POLYGON ((%v %v, %v %v, %v %v, %v %v))", 0.95*x, 0.95*y, 1.05*x, 0.95*y, 0.95*x, 1.05*y, 0.95*x, 0.95*y)))
		want = append(want, false)
		rows = append(rows, shapeOf(t, fmt.Sprintf("POLYGON ((%v %v, %v %v, %v %v, %v %v))", 0.5*x, 0.5*y, 0.6*x, 0.5*y, 0.5*x, 0.6*y, 0.5*x, 0.5*y)))
		want = append(want, true)
	}
	// A chord between two vertices of the polygon lies inside it.
	v := big.verts
	rows = append(rows, shapeOf(t, fmt.Sprintf("LINESTRING (%v %v, %v %v)", v[10].x, v[10].y, v[12].x, v[12].y)))
	want = append(want, true)
	start := time.Now()
	for i, r := range rows {
		if got := Contains(big, r); got != want[i] {
			t.Errorf("row %d: Contains %v, want %v", i, got, want[i])
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d rows against a polygon of 4,000 vertices took %v", len(rows), d)
	} else {
		t.Logf("%d rows against a polygon of 4,000 vertices: %v", len(rows), d)
	}
}

// TestPreparedConcurrent compares one prepared shape with others on
// several goroutines at once, through the general path of Contains (run
// with -race).
func TestPreparedConcurrent(t *testing.T) {
	lit := shapeOf(t, donut)
	lit.Prepare()
	rows := []string{"LINESTRING (1 1, 3 3, 3 7, 1 9)", "POLYGON ((1 1, 3 1, 3 3, 1 3, 1 1))", "POLYGON ((1 1, 9 1, 9 9, 1 9, 1 1))", "LINESTRING (3 3, 7 3)"}
	want := []bool{true, true, false, false}
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := true
			for range 20 {
				for i, w := range rows {
					s := &Shape{}
					if s.SetWKT(w) != nil || Contains(lit, s) != want[i] || !Intersects(lit, s) {
						ok = false
					}
				}
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a goroutine got a wrong answer")
		}
	}
}
