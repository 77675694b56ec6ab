package geo

// The general case of Contains, in exact rational arithmetic.
//
// Every segment of both shapes is cut at every point where a segment or an
// isolated point of either shape meets it. An open piece between two cuts
// meets nothing, so what holds at its midpoint holds along it, and the
// faces on its two sides are each one face of both shapes' segments:
//   - a piece of b must lie in a (on a segment of a or inside a polygon);
//   - a side that lies inside a polygon of b must lie inside a polygon of
//     a (every face inside b's polygons borders some piece, so this covers
//     b's polygons whole, holes of a included);
//   - b's vertices, checked by locate, and the pieces and sides found in
//     a's interior tell whether some point of b lies there.
// Which side of a piece lies inside a polygon is counted along the line
// through the piece's midpoint at right angles to it: the polygon's edges
// that cross that line beyond the midpoint on that side, counted by the
// half-open rule at vertices (an edge counts when exactly one end lies
// strictly ahead along the piece's direction). Edges through the
// midpoint are the piece's own line and count on neither side.
//
// Only the segments of a that reach b's box are cut and walked: b lies in
// that box, so a piece of a outside it borders no face inside b. Float64
// boxes and the rounded midpoint rule out most comparisons before the
// rationals are asked (see cmpFR).
//
// This allocates (math/big); Contains comes here only when segments of
// the two shapes touch or cross, or when a part of a lies inside a
// polygon of b.

import (
	"math/big"
	"slices"
)

// rseg is a segment in rationals, with its float64 box; deg marks a
// segment of one point.
type rseg struct {
	p, q rpt
	poly int32
	deg  bool
	lo   pt // the box of the segment
	hi   pt
}

// ratSegs returns the segments of s in rationals (those Prepare made, if
// any).
func ratSegs(s *Shape) []rseg {
	if s.rat != nil {
		return s.rat
	}
	out := make([]rseg, len(s.segs))
	for i, e := range s.segs {
		out[i] = rseg{ratPt(e.p), ratPt(e.q), e.poly, e.p.eq(e.q),
			pt{min(e.p.x, e.q.x), min(e.p.y, e.q.y)}, pt{max(e.p.x, e.q.x), max(e.p.y, e.q.y)}}
	}
	return out
}

// boxesMeet reports whether the closed boxes [lo, hi] and [lo2, hi2] meet.
func boxesMeet(lo, hi, lo2, hi2 pt) bool {
	return lo.x <= hi2.x && lo2.x <= hi.x && lo.y <= hi2.y && lo2.y <= hi.y
}

// mpt is a rational point and its coordinates rounded to float64.
type mpt struct {
	r rpt
	f pt
}

func newMpt(r rpt) mpt {
	x, _ := r.x.Float64()
	y, _ := r.y.Float64()
	return mpt{r, pt{x, y}}
}

// cmpFR compares the float64 f with the rational r, rf being r rounded to
// the nearest float64: f > rf means f is at least the float64 after rf,
// which r lies below, so f > r; likewise below. Only f == rf needs r.
func cmpFR(f float64, r *big.Rat, rf float64) int {
	switch {
	case f > rf:
		return 1
	case f < rf:
		return -1
	}
	return new(big.Rat).SetFloat64(f).Cmp(r)
}

// exactContains is Contains for shapes whose segments may touch.
func exactContains(a, b *Shape) bool {
	interior, ok := vertsIn(a, b)
	if !ok {
		return false
	}
	ea, eb := ratSegs(a), ratSegs(b)
	blo, bhi := pt{b.minX, b.minY}, pt{b.maxX, b.maxY}
	var pts []rpt
	for _, p := range a.points {
		if boxesMeet(p, p, blo, bhi) {
			pts = append(pts, ratPt(p))
		}
	}
	for _, p := range b.points {
		pts = append(pts, ratPt(p))
	}
	// The segments to cut and walk: a's that reach b's box, then b's.
	var near []rseg
	for _, e := range ea {
		if boxesMeet(e.lo, e.hi, blo, bhi) {
			near = append(near, e)
		}
	}
	nearA := len(near)
	near = append(near, eb...)
	for i, s := range near {
		if s.deg {
			continue
		}
		ts := cuts(s, near, pts)
		for k := 1; k < len(ts); k++ {
			tm := new(big.Rat).Add(ts[k-1], ts[k])
			tm.Mul(tm, big.NewRat(1, 2))
			m := newMpt(rpt{new(big.Rat).Add(s.p.x, rmul(tm, rsub(s.q.x, s.p.x))), new(big.Rat).Add(s.p.y, rmul(tm, rsub(s.q.y, s.p.y)))})
			if i >= nearA { // a piece of b
				switch locateR(a, ea, m) {
				case outside:
					return false
				case inside:
					interior = true
				}
			}
			if len(b.polys) == 0 {
				continue
			}
			for _, side := range [2]int{1, -1} {
				if !sideIn(eb, b.polys, s, m.r, side) {
					continue
				}
				if !sideIn(ea, a.polys, s, m.r, side) {
					return false
				}
				interior = true
			}
		}
	}
	return interior
}

// cuts returns the parameters t in [0, 1] of the points of s.p + t (s.q -
// s.p) where a segment of all or a point of pts meets s, 0 and 1
// included, ascending and distinct.
func cuts(s rseg, all []rseg, pts []rpt) []*big.Rat {
	one := big.NewRat(1, 1)
	ts := []*big.Rat{new(big.Rat), one}
	length := dot(s.p, s.q, s.p, s.q)
	add := func(x rpt) { // x lies on s
		t := new(big.Rat).Quo(dot(s.p, x, s.p, s.q), length)
		if t.Sign() > 0 && t.Cmp(one) < 0 {
			ts = append(ts, t)
		}
	}
	addIfOn := func(x rpt) {
		if betweenR(s.p, s.q, x) {
			add(x)
		}
	}
	for _, x := range pts {
		if onSegR(s.p, s.q, x) {
			add(x)
		}
	}
	for _, e := range all {
		if !boxesMeet(e.lo, e.hi, s.lo, s.hi) {
			continue
		}
		if e.deg {
			if onSegR(s.p, s.q, e.p) {
				add(e.p)
			}
			continue
		}
		o1, o2 := orientR(s.p, s.q, e.p), orientR(s.p, s.q, e.q)
		switch {
		case o1 == 0 && o2 == 0: // collinear: the overlap's ends
			addIfOn(e.p)
			addIfOn(e.q)
			continue
		case o1 == 0:
			addIfOn(e.p)
			continue
		case o2 == 0:
			addIfOn(e.q)
			continue
		case o1 == o2:
			continue
		}
		o3, o4 := orientR(e.p, e.q, s.p), orientR(e.p, e.q, s.q)
		if o3 == 0 || o4 == 0 || o3 == o4 {
			continue // meets s at an end (t = 0 or 1), or not at all
		}
		ts = append(ts, new(big.Rat).Quo(cross(s.p, e.p, e.p, e.q), cross(s.p, s.q, e.p, e.q)))
	}
	slices.SortFunc(ts, func(x, y *big.Rat) int { return x.Cmp(y) })
	return slices.CompactFunc(ts, func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })
}

// locateR is locate for a point that is no vertex of a.
func locateR(a *Shape, ea []rseg, m mpt) int {
	ring := false
	for _, r := range a.polys {
		on, in := polyHasR(ea[r[0]:r[1]], m)
		if in && !on {
			return inside
		}
		ring = ring || on
	}
	if ring {
		return onBoundary
	}
	for _, e := range ea {
		if e.poly < 0 && onSegM(e, m) {
			return inside
		}
	}
	return outside
}

// onSegM is onSegR with the float64 box of e ruling most points out.
func onSegM(e rseg, m mpt) bool {
	if cmpFR(e.lo.x, m.r.x, m.f.x) > 0 || cmpFR(e.hi.x, m.r.x, m.f.x) < 0 ||
		cmpFR(e.lo.y, m.r.y, m.f.y) > 0 || cmpFR(e.hi.y, m.r.y, m.f.y) < 0 {
		return false
	}
	return orientR(e.p, e.q, m.r) == 0
}

// polyHasR is polyHas on a polygon's rational edges.
func polyHasR(edges []rseg, m mpt) (onRing, in bool) {
	for _, e := range edges {
		if onSegM(e, m) {
			return true, false
		}
		if (cmpFR(e.lo.y, m.r.y, m.f.y) > 0) == (cmpFR(e.hi.y, m.r.y, m.f.y) > 0) {
			continue // not exactly one end above m: no crossing (the half-open rule)
		}
		// The edge crosses the horizontal line through m: count it when
		// the crossing is to the right of m.
		switch {
		case cmpFR(e.lo.x, m.r.x, m.f.x) > 0:
			in = !in
		case cmpFR(e.hi.x, m.r.x, m.f.x) < 0:
		case (orientR(e.p, e.q, m.r) > 0) == (e.q.y.Cmp(e.p.y) > 0):
			in = !in
		}
	}
	return false, in
}

// sideIn reports whether the points just beside m, on the given side of
// s (1 left, -1 right, looking from s.p to s.q), lie inside one of the
// polygons (ranges of edges).
func sideIn(edges []rseg, polys [][2]int, s rseg, m rpt, side int) bool {
	for _, r := range polys {
		odd := false
		for _, e := range edges[r[0]:r[1]] {
			da, db := dot(s.p, s.q, m, e.p), dot(s.p, s.q, m, e.q)
			if (da.Sign() > 0) == (db.Sign() > 0) {
				continue // does not cross the line at right angles to s through m
			}
			// Which side of m the crossing lies on: the sign of
			// d x (crossing - m), times the sign of d . (e.q - e.p).
			dba := dot(s.p, s.q, e.p, e.q)
			num := new(big.Rat).Add(rmul(cross(s.p, s.q, m, e.p), dba), rmul(dot(s.p, s.q, e.p, m), cross(s.p, s.q, e.p, e.q)))
			if num.Sign()*dba.Sign() == side {
				odd = !odd
			}
		}
		if odd {
			return true
		}
	}
	return false
}
