package geo

// Shapes: geometries decoded for exact planar predicates.
//
// A Shape keeps the x and y of a geometry's vertices (z and m are
// dropped) as the parts the predicates need: isolated points, segments
// (the edges of linestrings and of polygon rings) and, per polygon, the
// range of its ring edges. Decoding reuses the Shape's slices, so a Shape
// set to one value after another allocates only while it grows.
//
// # What a shape is, as a set of points
//
// The geometry is the union of its parts, as in the OGC simple features:
//   - a point is itself; a linestring the union of its segments; a
//     polygon the region its rings enclose by the even-odd rule (a point
//     not on a ring is inside when a ray from it crosses the rings an odd
//     number of times), plus the rings themselves. For a valid polygon
//     (a shell and holes inside it) this is the OGC polygon; for an
//     invalid one it is still a well-defined set inside the vertices' box.
//   - a ring is closed whether or not its last vertex repeats the first;
//     repeated consecutive vertices are one vertex.
//   - a vertex with a NaN or infinite x or y names no point of the plane
//     and is left out, as POINT EMPTY's NaN coordinates are. A geometry
//     with no vertex left is empty.
//
// Interior and boundary follow the OGC with the dimension-priority rule
// for collections (the one JTS uses): a point is in the interior when it
// lies strictly inside some polygon (inside its region and on none of its
// rings); else on the boundary when it lies on some polygon's ring; else
// on the boundary when it is an endpoint of an odd number of linestrings
// that are not closed (the OGC mod-2 rule); else in the interior when it
// lies on a linestring or is one of the points; else outside.

import (
	"math"
	"slices"
)

// pt is a point of the plane.
type pt struct{ x, y float64 }

func (p pt) eq(q pt) bool { return p.x == q.x && p.y == q.y }

// seg is a segment from p to q (p == q for a ring of one vertex). poly is
// the polygon whose ring it belongs to, or -1 for a linestring's segment.
type seg struct {
	p, q pt
	poly int32
}

// Component kinds: each point, linestring and ring is connected.
const (
	compPoint = iota
	compLine
	compRing
)

// comp is a connected part of a shape and one of its vertices.
type comp struct {
	first pt
	kind  uint8
}

// Shape is a geometry decoded for Intersects and Contains. The zero Shape
// is empty; SetWKB decodes a value into it.
type Shape struct {
	points []pt     // isolated points
	segs   []seg    // linestring segments and ring edges
	polys  [][2]int // per polygon, its range of segs
	comps  []comp   // connected parts, for the predicates' reachability tests
	bounds []pt     // the linestrings' boundary (mod-2 endpoints), sorted
	verts  []pt     // every vertex kept (points, linestrings, rings)
	minX   float64  // the vertices' box (meaningless when empty)
	minY   float64
	maxX   float64
	maxY   float64
	// dropped counts the vertices left out for a NaN or infinite x or y.
	dropped int
	// rat holds the segments in rationals once Prepare made them.
	rat []rseg

	// Decoding state.
	stack []uint32 // base type of each open part
	run   []pt     // the vertices of the linestring or ring being read
	ends  []pt     // endpoints of linestrings that are not closed
}

// Empty reports whether the shape has no point.
func (s *Shape) Empty() bool { return len(s.verts) == 0 }

// Box returns the least and greatest x and y over the shape's vertices;
// ok is false for an empty shape. Every point of the shape lies in it.
func (s *Shape) Box() (minX, minY, maxX, maxY float64, ok bool) {
	return s.minX, s.minY, s.maxX, s.maxY, !s.Empty()
}

// SetWKB decodes one ISO WKB value into s, replacing what s held. A
// malformed value returns its *Error and leaves s empty.
func (s *Shape) SetWKB(wkb []byte) error {
	s.reset()
	var box Box
	p := parser{b: wkb, box: box, visit: s}
	_, err := p.geometry(0, 0, 0)
	if err == nil && p.off != len(wkb) {
		err = &Error{p.off, "bytes after the geometry"}
	}
	if err != nil {
		s.reset()
		return err
	}
	s.finish()
	return nil
}

// SetWKT parses well-known text (see AppendWKB) into s.
func (s *Shape) SetWKT(wkt string) error {
	wkb, err := AppendWKB(nil, wkt)
	if err != nil {
		return err
	}
	return s.SetWKB(wkb)
}

// Dropped returns how many vertices were left out for a NaN or infinite
// x or y (POINT EMPTY's NaN coordinates are not vertices and not counted).
func (s *Shape) Dropped() int { return s.dropped }

// Prepare readies s for being compared with many shapes (a predicate's
// literal): the exact rational form of its segments, which Contains needs
// when segments touch, is made once here instead of on each call. A
// prepared shape is only read by Intersects and Contains, so several
// goroutines may compare it at once.
func (s *Shape) Prepare() { s.rat = ratSegs(s) }

func (s *Shape) reset() {
	s.dropped = 0
	s.rat = nil
	s.points, s.segs, s.polys, s.comps = s.points[:0], s.segs[:0], s.polys[:0], s.comps[:0]
	s.bounds, s.verts, s.stack, s.run, s.ends = s.bounds[:0], s.verts[:0], s.stack[:0], s.run[:0], s.ends[:0]
}

func (s *Shape) begin(code uint32, _ int, _ bool) {
	base := code % 1000
	if base == LineString && len(s.stack) > 0 && s.stack[len(s.stack)-1] == Polygon {
		base = 0 // a ring
	}
	switch base {
	case Polygon:
		s.polys = append(s.polys, [2]int{len(s.segs), len(s.segs)})
	case LineString, 0:
		s.run = s.run[:0]
	}
	s.stack = append(s.stack, base)
}

func (s *Shape) coord(c [4]float64, _ int) {
	p := pt{c[0], c[1]}
	if math.IsNaN(p.x) || math.IsNaN(p.y) || math.IsInf(p.x, 0) || math.IsInf(p.y, 0) {
		s.dropped++
		return
	}
	if s.stack[len(s.stack)-1] == Point {
		s.points = append(s.points, p)
		s.verts = append(s.verts, p)
		s.comps = append(s.comps, comp{p, compPoint})
		return
	}
	if n := len(s.run); n > 0 && s.run[n-1].eq(p) {
		return
	}
	s.run = append(s.run, p)
}

func (s *Shape) end() {
	base := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	switch base {
	case LineString:
		s.endLine()
	case 0:
		s.endRing()
	}
}

// endLine keeps the linestring just read: a point when it has one vertex.
func (s *Shape) endLine() {
	r := s.run
	s.verts = append(s.verts, r...)
	switch len(r) {
	case 0:
		return
	case 1:
		s.points = append(s.points, r[0])
		s.comps = append(s.comps, comp{r[0], compPoint})
		return
	}
	for i := 1; i < len(r); i++ {
		s.segs = append(s.segs, seg{r[i-1], r[i], -1})
	}
	s.comps = append(s.comps, comp{r[0], compLine})
	if !r[0].eq(r[len(r)-1]) {
		s.ends = append(s.ends, r[0], r[len(r)-1])
	}
}

// endRing keeps the ring just read as edges of the open polygon.
func (s *Shape) endRing() {
	r := s.run
	if n := len(r); n > 1 && r[0].eq(r[n-1]) {
		r = r[:n-1]
	}
	if len(r) == 0 {
		return
	}
	s.verts = append(s.verts, r...)
	poly := int32(len(s.polys) - 1)
	kind := uint8(compRing)
	if len(r) == 1 {
		// A ring of one vertex is that point: its edge is degenerate.
		s.segs = append(s.segs, seg{r[0], r[0], poly})
		kind = compPoint
	} else {
		for i := range r {
			s.segs = append(s.segs, seg{r[i], r[(i+1)%len(r)], poly})
		}
	}
	s.polys[poly][1] = len(s.segs)
	s.comps = append(s.comps, comp{r[0], kind})
}

// finish drops polygons without rings and computes the box and the
// linestrings' boundary.
func (s *Shape) finish() {
	kept := s.polys[:0]
	for _, p := range s.polys {
		if p[1] > p[0] {
			kept = append(kept, p)
		}
	}
	// Renumber the polygons of the segments after dropping empty ones.
	for i, p := range kept {
		for j := p[0]; j < p[1]; j++ {
			s.segs[j].poly = int32(i)
		}
	}
	s.polys = kept
	s.minX, s.minY = math.Inf(1), math.Inf(1)
	s.maxX, s.maxY = math.Inf(-1), math.Inf(-1)
	for _, v := range s.verts {
		s.minX, s.maxX = min(s.minX, v.x), max(s.maxX, v.x)
		s.minY, s.maxY = min(s.minY, v.y), max(s.maxY, v.y)
	}
	slices.SortFunc(s.ends, cmpPt)
	for i := 0; i < len(s.ends); {
		j := i
		for j < len(s.ends) && s.ends[j].eq(s.ends[i]) {
			j++
		}
		if (j-i)%2 == 1 {
			s.bounds = append(s.bounds, s.ends[i])
		}
		i = j
	}
}

func cmpPt(a, b pt) int {
	switch {
	case a.x < b.x:
		return -1
	case a.x > b.x:
		return 1
	case a.y < b.y:
		return -1
	case a.y > b.y:
		return 1
	}
	return 0
}

// isBound reports whether p is a boundary point of the linestrings.
func (s *Shape) isBound(p pt) bool {
	_, ok := slices.BinarySearchFunc(s.bounds, p, cmpPt)
	return ok
}
