package geo

// Intersects and Contains.
//
// Intersects(a, b) holds when a and b share a point. Without a shared
// point of two segments, a shared point lies inside a polygon of one of
// them and a whole connected part (point, linestring, ring) of the other
// lies there too, since a part that crosses no segment of the other shape
// stays within one face of it. So: a pair of segments that meet, or one
// vertex of some part inside the other shape, decides it.
//
// Contains(a, b) holds when no point of b lies outside a and some point of
// b lies in a's interior (the OGC definition). When no segment of b meets
// a segment of a, each part of b lies in one face of a's segments, and
// one vertex per part tells where; a's parts inside b's polygons are then
// the only way b could enclose a hole of a, and that case, like every case
// where segments touch or cross, is decided by exactContains.

// location of a point relative to a shape.
const (
	outside = iota
	onBoundary
	inside
)

// polyHas returns, for polygon i, whether p lies on one of its rings and
// whether it lies inside its region (even-odd, meaningful when not on a
// ring).
func (s *Shape) polyHas(i int, p pt) (onRing, in bool) {
	r := s.polys[i]
	for _, e := range s.segs[r[0]:r[1]] {
		a, b := e.p, e.q
		if onSeg(a, b, p) {
			return true, false
		}
		if (a.y > p.y) != (b.y > p.y) {
			// The edge crosses the horizontal line through p: count it
			// when the crossing is to the right of p.
			if (orient(a, b, p) > 0) == (b.y > a.y) {
				in = !in
			}
		}
	}
	return false, in
}

// inArea reports whether p lies strictly inside some polygon of s.
func (s *Shape) inArea(p pt) bool {
	for i := range s.polys {
		if on, in := s.polyHas(i, p); in && !on {
			return true
		}
	}
	return false
}

// locate returns where p lies relative to s (see Shape for the rules).
func (s *Shape) locate(p pt) int {
	if p.x < s.minX || p.x > s.maxX || p.y < s.minY || p.y > s.maxY || s.Empty() {
		return outside
	}
	ring := false
	for i := range s.polys {
		on, in := s.polyHas(i, p)
		if in && !on {
			return inside
		}
		ring = ring || on
	}
	if ring || s.isBound(p) {
		return onBoundary
	}
	for _, e := range s.segs {
		if e.poly < 0 && onSeg(e.p, e.q, p) {
			return inside
		}
	}
	for _, q := range s.points {
		if q.eq(p) {
			return inside
		}
	}
	return outside
}

func (s *Shape) boxMeets(o *Shape) bool {
	return s.minX <= o.maxX && o.minX <= s.maxX && s.minY <= o.maxY && o.minY <= s.maxY
}

// anySegsMeet reports whether a segment of a meets a segment of b.
func anySegsMeet(a, b *Shape) bool {
	for _, e := range a.segs {
		if max(e.p.x, e.q.x) < b.minX || min(e.p.x, e.q.x) > b.maxX || max(e.p.y, e.q.y) < b.minY || min(e.p.y, e.q.y) > b.maxY {
			continue
		}
		for _, f := range b.segs {
			if segsMeet(e.p, e.q, f.p, f.q) {
				return true
			}
		}
	}
	return false
}

// Intersects reports whether a and b share a point. Empty shapes share
// none.
func Intersects(a, b *Shape) bool {
	if a.Empty() || b.Empty() || !a.boxMeets(b) {
		return false
	}
	if anySegsMeet(a, b) {
		return true
	}
	for _, c := range a.comps {
		if b.locate(c.first) != outside {
			return true
		}
	}
	for _, c := range b.comps {
		if a.locate(c.first) != outside {
			return true
		}
	}
	return false
}

// vertsIn locates the vertices of b in a: ok is false when one lies
// outside a, interior is true when one lies in a's interior.
func vertsIn(a, b *Shape) (interior, ok bool) {
	for _, v := range b.verts {
		switch a.locate(v) {
		case outside:
			return false, false
		case inside:
			interior = true
		}
	}
	return interior, true
}

// Contains reports whether a contains b: no point of b lies outside a,
// and some point of b lies in a's interior. It is false when either is
// empty; a polygon does not contain a point or segment of its boundary.
func Contains(a, b *Shape) bool {
	if a.Empty() || b.Empty() || b.minX < a.minX || b.maxX > a.maxX || b.minY < a.minY || b.maxY > a.maxY {
		return false
	}
	interior, ok := vertsIn(a, b)
	if !ok {
		return false
	}
	if len(b.segs) == 0 {
		return interior
	}
	if anySegsMeet(a, b) {
		return exactContains(a, b)
	}
	// No segment of b meets one of a: each part of b with segments lies
	// in one face of a's segments, inside a polygon or outside every one.
	for _, c := range b.comps {
		if c.kind != compPoint && !a.inArea(c.first) {
			return false
		}
	}
	// Every vertex of b lies in a's interior now (inside a polygon, or,
	// touching no segment of a, on one of a's points), so interior holds.
	if len(b.polys) == 0 {
		return interior
	}
	// b's polygons lie in a's area; a hole of a inside one of them needs a
	// part of a inside it.
	for _, c := range a.comps {
		if c.kind != compPoint && b.inArea(c.first) {
			return exactContains(a, b)
		}
	}
	return interior
}
