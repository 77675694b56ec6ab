package geo

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// randShape returns the WKT of a random geometry on a small grid, where
// collinear points, shared edges and touching vertices are common; scale
// (0.1 or 1) makes the coordinates inexact in binary, so that orientation
// tests meet rounding.
func randShape(r *rand.Rand, scale float64) string {
	c := func() string {
		return fmt.Sprintf("%v %v", float64(r.IntN(7))*scale, float64(r.IntN(7))*scale)
	}
	list := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = c()
		}
		return strings.Join(parts, ", ")
	}
	ring := func() string {
		n := 3 + r.IntN(3)
		first := c()
		parts := []string{first}
		for range n - 1 {
			parts = append(parts, c())
		}
		return "(" + strings.Join(append(parts, first), ", ") + ")"
	}
	poly := func() string {
		if r.IntN(4) == 0 { // an axis-parallel box with a box hole
			x0, y0 := r.IntN(3), r.IntN(3)
			x1, y1 := x0+3+r.IntN(2), y0+3+r.IntN(2)
			f := func(x, y int) string { return fmt.Sprintf("%v %v", float64(x)*scale, float64(y)*scale) }
			shell := fmt.Sprintf("(%s, %s, %s, %s, %s)", f(x0, y0), f(x1, y0), f(x1, y1), f(x0, y1), f(x0, y0))
			if r.IntN(2) == 0 {
				return "(" + shell + ")"
			}
			hole := fmt.Sprintf("(%s, %s, %s, %s, %s)", f(x0+1, y0+1), f(x1-1, y0+1), f(x1-1, y1-1), f(x0+1, y1-1), f(x0+1, y0+1))
			return "(" + shell + ", " + hole + ")"
		}
		return "(" + ring() + ")"
	}
	switch r.IntN(10) {
	case 0:
		return "POINT (" + c() + ")"
	case 1:
		return "MULTIPOINT (" + list(1+r.IntN(3)) + ")"
	case 2, 3:
		return "LINESTRING (" + list(2+r.IntN(3)) + ")"
	case 4:
		return "MULTILINESTRING ((" + list(2) + "), (" + list(2+r.IntN(2)) + "))"
	case 5, 6:
		return "POLYGON " + poly()
	case 7:
		return "MULTIPOLYGON (" + poly() + ", " + poly() + ")"
	case 8:
		return "GEOMETRYCOLLECTION (POINT (" + c() + "), LINESTRING (" + list(2) + "), POLYGON " + poly() + ")"
	}
	return []string{"POINT EMPTY", "LINESTRING EMPTY", "POLYGON EMPTY"}[r.IntN(3)]
}

// memberR reports whether the rational point x lies in s (any point,
// vertices included), for exactIntersects.
func memberR(s *Shape, es []rseg, x rpt) bool {
	for _, p := range s.verts {
		q := ratPt(p)
		if q.x.Cmp(x.x) == 0 && q.y.Cmp(x.y) == 0 {
			return true
		}
	}
	for _, e := range es {
		if onSegR(e.p, e.q, x) {
			return true
		}
	}
	for _, r := range s.polys {
		if _, in := polyHasR(es[r[0]:r[1]], newMpt(x)); in {
			return true
		}
	}
	return false
}

// exactIntersects is a slow reference for Intersects: a point of a and b
// is a vertex, a cut point or a piece of some segment, or lies in a face
// beside a piece.
func exactIntersects(a, b *Shape) bool {
	if a.Empty() || b.Empty() {
		return false
	}
	ea, eb := ratSegs(a), ratSegs(b)
	for _, v := range a.verts {
		if memberR(b, eb, ratPt(v)) {
			return true
		}
	}
	for _, v := range b.verts {
		if memberR(a, ea, ratPt(v)) {
			return true
		}
	}
	var pts []rpt
	for _, p := range a.points {
		pts = append(pts, ratPt(p))
	}
	for _, p := range b.points {
		pts = append(pts, ratPt(p))
	}
	all := append(append([]rseg(nil), ea...), eb...)
	for i, s := range all {
		if s.deg {
			continue
		}
		own, other, oe := a, b, eb
		if i >= len(ea) {
			own, other, oe = b, a, ea
		}
		ts := cuts(s, all, pts)
		at := func(t *big.Rat) rpt {
			return rpt{new(big.Rat).Add(s.p.x, rmul(t, rsub(s.q.x, s.p.x))), new(big.Rat).Add(s.p.y, rmul(t, rsub(s.q.y, s.p.y)))}
		}
		for k := range ts {
			if memberR(other, oe, at(ts[k])) {
				return true
			}
			if k == 0 {
				continue
			}
			tm := new(big.Rat).Add(ts[k-1], ts[k])
			m := at(tm.Mul(tm, big.NewRat(1, 2)))
			if memberR(other, oe, m) {
				return true
			}
			for _, side := range [2]int{1, -1} {
				if sideIn(ea, a.polys, s, m, side) && sideIn(eb, b.polys, s, m, side) {
					return true
				}
			}
		}
		_ = own
	}
	return false
}

// TestRelateRandom checks Intersects against exactIntersects and the fast
// path of Contains against its general path, on random geometries of a
// small grid. ORCGO_GEO_SEED fixes the seed; ORCGO_GEO_LONG runs longer.
func TestRelateRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ORCGO_GEO_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	n := 3000
	if testing.Short() {
		n = 500
	}
	if os.Getenv("ORCGO_GEO_LONG") != "" {
		n = 200000
	}
	t.Logf("seed %d (ORCGO_GEO_SEED=%d reruns it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 52))
	var nInt, nCont, nExact int
	for i := range n {
		scale := 1.0
		if i%3 == 0 {
			scale = 0.1
		}
		wa, wb := randShape(r, scale), randShape(r, scale)
		a := shapeOf(t, wa)
		if i%2 == 1 && !a.Empty() {
			wb = derivedShape(r, a) // on a's vertices and edges: boundary cases
		}
		b := shapeOf(t, wb)
		in := Intersects(a, b)
		if want := exactIntersects(a, b); in != want {
			t.Fatalf("seed %d: Intersects(%s, %s) = %v, the reference %v", seed, wa, wb, in, want)
		}
		if in != Intersects(b, a) {
			t.Fatalf("seed %d: Intersects is not symmetric on %s, %s", seed, wa, wb)
		}
		for _, p := range [2][2]*Shape{{a, b}, {b, a}} {
			got := Contains(p[0], p[1])
			if got && !in {
				t.Fatalf("seed %d: Contains without Intersects: %s, %s", seed, wa, wb)
			}
			if !p[0].Empty() && !p[1].Empty() && boxWithin(p[0], p[1]) {
				nExact++
				if want := exactContains(p[0], p[1]); got != want {
					t.Fatalf("seed %d: Contains(%s, %s) = %v, the general path %v", seed, wa, wb, got, want)
				}
			}
			if got {
				nCont++
			}
			if bad, x := sampleOutside(p[0], p[1]); got && bad {
				t.Fatalf("seed %d: Contains(%s, %s) but the point (%s, %s) of the second is not in the first", seed, wa, wb, x.x.RatString(), x.y.RatString())
			}
		}
		if in {
			nInt++
		}
	}
	t.Logf("%d pairs: %d intersect, %d contain (of %d compared with the general path)", n, nInt, nCont, nExact)
}

// derivedShape returns the WKT of a geometry built on a's vertices and
// the midpoints of its segments: points, segments and triangles that lie
// on a's boundary, inside it or across it.
func derivedShape(r *rand.Rand, a *Shape) string {
	var cand []pt
	cand = append(cand, a.verts...)
	for _, e := range a.segs {
		cand = append(cand, pt{(e.p.x + e.q.x) / 2, (e.p.y + e.q.y) / 2})
	}
	c := func() string { p := cand[r.IntN(len(cand))]; return fmt.Sprintf("%v %v", p.x, p.y) }
	switch r.IntN(4) {
	case 0:
		return "POINT (" + c() + ")"
	case 1:
		return "LINESTRING (" + c() + ", " + c() + ")"
	case 2:
		return "MULTIPOINT ((" + c() + "), (" + c() + "))"
	}
	first := c()
	return "POLYGON ((" + first + ", " + c() + ", " + c() + ", " + first + "))"
}

// sampleOutside looks for a point of b outside a among b's vertices, the
// midpoints of b's segments and the centroids of three consecutive
// vertices of b's rings that lie inside b: a one-way check of Contains
// that does not go through it.
func sampleOutside(a, b *Shape) (bool, rpt) {
	ea, eb := ratSegs(a), ratSegs(b)
	var samples []rpt
	for _, v := range b.verts {
		samples = append(samples, ratPt(v))
	}
	third := big.NewRat(1, 3)
	for pi, pr := range b.polys {
		edges := eb[pr[0]:pr[1]]
		for k := range edges {
			p0, p1, p2 := edges[k].p, edges[k].q, edges[(k+1)%len(edges)].q
			cx := new(big.Rat).Mul(new(big.Rat).Add(new(big.Rat).Add(p0.x, p1.x), p2.x), third)
			cy := new(big.Rat).Mul(new(big.Rat).Add(new(big.Rat).Add(p0.y, p1.y), p2.y), third)
			if on, in := polyHasR(eb[b.polys[pi][0]:b.polys[pi][1]], newMpt(rpt{cx, cy})); in && !on {
				samples = append(samples, rpt{cx, cy})
			}
		}
	}
	half := big.NewRat(1, 2)
	for _, e := range eb {
		samples = append(samples, rpt{rmul(new(big.Rat).Add(e.p.x, e.q.x), half), rmul(new(big.Rat).Add(e.p.y, e.q.y), half)})
	}
	for _, x := range samples {
		if !memberR(a, ea, x) {
			return true, x
		}
	}
	return false, rpt{}
}

// FuzzRelate decodes two WKB values into shapes (any bytes: no panic) and,
// for small well-formed ones, checks Intersects against exactIntersects and
// the fast path of Contains against its general path.
func FuzzRelate(f *testing.F) {
	for _, c := range [][2]string{
		{square, "POINT (5 5)"}, {donut, "POLYGON ((1 1, 9 1, 9 9, 1 9, 1 1))"},
		{"LINESTRING (0 0, 10 0)", "LINESTRING (2 0, 8 0)"}, {"MULTIPOINT ((1 1), (2 2))", "GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 1 1))"},
	} {
		a, _ := AppendWKB(nil, c[0])
		b, _ := AppendWKB(nil, c[1])
		f.Add(a, b)
	}
	f.Fuzz(func(t *testing.T, wa, wb []byte) {
		var a, b Shape
		if a.SetWKB(wa) != nil || b.SetWKB(wb) != nil {
			return
		}
		if len(a.segs)+len(a.points) > 40 || len(b.segs)+len(b.points) > 40 {
			return // the references are slow on big shapes
		}
		in := Intersects(&a, &b)
		if in != Intersects(&b, &a) || in != exactIntersects(&a, &b) {
			t.Fatalf("Intersects %v, the other way %v, the reference %v", in, Intersects(&b, &a), exactIntersects(&a, &b))
		}
		for _, p := range [2][2]*Shape{{&a, &b}, {&b, &a}} {
			got := Contains(p[0], p[1])
			if got && !in {
				t.Fatal("Contains without Intersects")
			}
			if !p[0].Empty() && !p[1].Empty() && boxWithin(p[0], p[1]) && got != exactContains(p[0], p[1]) {
				t.Fatalf("Contains %v, the general path %v", got, !got)
			}
		}
	})
}
