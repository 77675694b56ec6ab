// Package geo reads the values of ORC's GEOMETRY and GEOGRAPHY columns: ISO
// well-known binary (WKB). It validates a value, computes its bounding box
// and geometry type code (the statistics ORC keeps), and prints it as
// well-known text (WKT). A Shape holds a value decoded for the exact planar
// predicates Intersects and Contains. Nothing here
// allocates by a count read from a value: every count is checked against
// the bytes that remain first.
//
// # Format
//
// A geometry is a byte order (0 big-endian, 1 little-endian), a uint32 type
// code, then its body in that byte order:
//
//	point               x y [z] [m]                     (all NaN: POINT EMPTY)
//	linestring          uint32 n, n points' coordinates
//	polygon             uint32 rings, each a uint32 n and n coordinates
//	multipoint,
//	multilinestring,
//	multipolygon,
//	geometrycollection  uint32 parts, each a whole geometry (own byte order)
//
// The type code is base + 1000 x dimensions: base 1 point .. 7 collection,
// dimensions 0 XY, 1 XYZ, 2 XYM, 3 XYZM (so 3002 is a linestring ZM). Every
// coordinate is a float64. Extended WKB (PostGIS's SRID and flag bits) is
// not ISO WKB and is refused.
//
// # Bounding boxes
//
// A box holds, per axis x, y, z, m, the least and greatest coordinate over
// every vertex, NaN coordinates ignored, each axis on its own: an axis no
// coordinate reached is empty (+Inf, -Inf). This is the box Apache ORC C++
// writes into column statistics, and for geometry (planar edges) it contains
// the whole shape. For geography, whose edges follow the ellipsoid, a box
// over the vertices can miss part of an edge, which is why Apache ORC writes
// no box for geography columns.
package geo

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The base geometry types of ISO WKB.
const (
	Point              = 1
	LineString         = 2
	Polygon            = 3
	MultiPoint         = 4
	MultiLineString    = 5
	MultiPolygon       = 6
	GeometryCollection = 7
)

// The dimension groups of ISO WKB, as the thousands of a type code.
const (
	XY   = 0
	XYZ  = 1
	XYM  = 2
	XYZM = 3
)

// MaxDepth bounds how deeply collections may nest inside one value.
const MaxDepth = 64

var baseNames = [...]string{"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"}

// TypeName returns the WKT name of a type code, such as "LINESTRING ZM" for
// 3002, or "type(n)" for a code outside ISO WKB.
func TypeName(code uint32) string {
	base, dims := code%1000, code/1000
	if base < 1 || base > 7 || dims > 3 {
		return fmt.Sprintf("type(%d)", code)
	}
	return baseNames[base] + [...]string{"", " Z", " M", " ZM"}[dims]
}

// Error is a malformed WKB value: what is wrong and the byte offset in the
// value where it was found.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("bad WKB at byte %d: %s", e.Offset, e.Msg) }

// Box is a bounding box over the x, y, z and m axes. An axis is empty when
// its Min is greater than its Max (a new box has +Inf and -Inf) and unknown
// when either bound is NaN.
type Box struct {
	Min, Max [4]float64 // x, y, z, m
}

// EmptyBox returns a box with every axis empty, the start of a bound.
func EmptyBox() Box {
	inf := math.Inf(1)
	return Box{Min: [4]float64{inf, inf, inf, inf}, Max: [4]float64{-inf, -inf, -inf, -inf}}
}

// AxisEmpty reports whether no coordinate reached axis i (0 x .. 3 m).
func (b *Box) AxisEmpty(i int) bool { return b.Min[i] > b.Max[i] }

// AxisKnown reports whether axis i holds no NaN bound.
func (b *Box) AxisKnown(i int) bool { return !math.IsNaN(b.Min[i]) && !math.IsNaN(b.Max[i]) }

// HasXY reports whether both the x and the y axis are known and not empty:
// the box then bounds something on the plane.
func (b *Box) HasXY() bool {
	return b.AxisKnown(0) && b.AxisKnown(1) && !b.AxisEmpty(0) && !b.AxisEmpty(1)
}

// Merge widens b to cover o, axis by axis. An unknown axis on either side
// makes the axis unknown, as Apache ORC merges boxes.
func (b *Box) Merge(o *Box) {
	for i := range 4 {
		if !b.AxisKnown(i) || !o.AxisKnown(i) {
			b.Min[i], b.Max[i] = math.NaN(), math.NaN()
			continue
		}
		b.Min[i] = math.Min(b.Min[i], o.Min[i])
		b.Max[i] = math.Max(b.Max[i], o.Max[i])
	}
}

func (b *Box) add(i int, v float64) {
	if v != v {
		return
	}
	if v < b.Min[i] {
		b.Min[i] = v
	}
	if v > b.Max[i] {
		b.Max[i] = v
	}
}

// Bound checks that wkb is one well-formed ISO WKB geometry with nothing
// after it, widens box by its coordinates and returns its type code. On an
// error box may have been widened by the coordinates before the damage.
func Bound(wkb []byte, box *Box) (code uint32, err error) {
	p := parser{b: wkb, box: *box}
	code, err = p.geometry(0, 0, 0)
	*box = p.box
	if err == nil && p.off != len(wkb) {
		err = &Error{p.off, fmt.Sprintf("%d bytes after the geometry", len(wkb)-p.off)}
	}
	return code, err
}

// Validate checks that wkb is one well-formed ISO WKB geometry.
func Validate(wkb []byte) error {
	box := EmptyBox()
	_, err := Bound(wkb, &box)
	return err
}

// Envelope returns the bounding box of one value and its type code.
func Envelope(wkb []byte) (Box, uint32, error) {
	box := EmptyBox()
	code, err := Bound(wkb, &box)
	return box, code, err
}

type parser struct {
	b   []byte
	off int
	// box is widened by each coordinate; held by value, since a pointer
	// here would escape with the visitor and cost an allocation per value.
	box Box
	// visit, when set, is called for each part as it is parsed (used by
	// the WKT printer).
	visit visitor
}

type visitor interface {
	begin(code uint32, n int, empty bool)
	coord(c [4]float64, width int) // by value: a slice would escape, costing an allocation per call
	end()
}

func (p *parser) fail(format string, args ...any) error {
	return &Error{p.off, fmt.Sprintf(format, args...)}
}

func (p *parser) u32(be bool) (uint32, error) {
	if len(p.b)-p.off < 4 {
		return 0, p.fail("value ends inside a 4-byte count (%d bytes left)", len(p.b)-p.off)
	}
	var v uint32
	if be {
		v = binary.BigEndian.Uint32(p.b[p.off:])
	} else {
		v = binary.LittleEndian.Uint32(p.b[p.off:])
	}
	p.off += 4
	return v, nil
}

// count reads a count of items each at least minBytes long and checks that
// the value has room for them.
func (p *parser) count(be bool, minBytes int, what string) (int, error) {
	at := p.off
	n, err := p.u32(be)
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(minBytes) > uint64(len(p.b)-p.off) {
		return 0, &Error{at, fmt.Sprintf("%d %s need at least %d bytes, %d remain", n, what, uint64(n)*uint64(minBytes), len(p.b)-p.off)}
	}
	return int(n), nil
}

// coords reads n coordinates of width dims (2..4 values).
func (p *parser) coords(be bool, dims uint32, n int) {
	width := 2 + int(dims&1) + int(dims>>1)
	var c [4]float64
	for range n {
		for k := range width {
			u := binary.LittleEndian.Uint64(p.b[p.off:])
			if be {
				u = binary.BigEndian.Uint64(p.b[p.off:])
			}
			c[k] = math.Float64frombits(u)
			p.off += 8
		}
		p.box.add(0, c[0])
		p.box.add(1, c[1])
		switch dims {
		case XYZ:
			p.box.add(2, c[2])
		case XYM:
			p.box.add(3, c[2])
		case XYZM:
			p.box.add(2, c[2])
			p.box.add(3, c[3])
		}
		if p.visit != nil {
			p.visit.coord(c, width)
		}
	}
}

// geometry parses one geometry at p.off. want is the base type a multi
// geometry requires of its parts (0: any); wantDims+1 the parent's
// dimensions (0: top level).
func (p *parser) geometry(depth int, want, parentDims uint32) (uint32, error) {
	if depth > MaxDepth {
		return 0, p.fail("collections nested deeper than %d", MaxDepth)
	}
	if p.off >= len(p.b) {
		return 0, p.fail("value ends where a geometry should start")
	}
	var be bool
	switch p.b[p.off] {
	case 0:
		be = true
	case 1:
	default:
		return 0, p.fail("byte order is %d, want 0 (big-endian) or 1 (little-endian)", p.b[p.off])
	}
	p.off++
	at := p.off
	code, err := p.u32(be)
	if err != nil {
		return 0, err
	}
	if code&0xE0000000 != 0 {
		return 0, &Error{at, fmt.Sprintf("type code %#x has extended-WKB flags (SRID, Z or M bits); ISO WKB wanted", code)}
	}
	base, dims := code%1000, code/1000
	if base < 1 || base > 7 || dims > 3 {
		return 0, &Error{at, fmt.Sprintf("type code %d is not an ISO WKB geometry (1..7, plus 1000, 2000 or 3000)", code)}
	}
	if want != 0 && base != want {
		return 0, &Error{at, fmt.Sprintf("%s inside a %s", TypeName(code), TypeName(want+3))}
	}
	if parentDims != 0 && dims != parentDims-1 {
		return 0, &Error{at, fmt.Sprintf("%s inside a collection of other dimensions", TypeName(code))}
	}
	width := 8 * (2 + int(dims&1) + int(dims>>1))
	switch base {
	case Point:
		if len(p.b)-p.off < width {
			return 0, p.fail("point needs %d bytes, %d remain", width, len(p.b)-p.off)
		}
		if p.visit != nil {
			empty := true
			for k := 0; k < width; k += 8 {
				u := binary.LittleEndian.Uint64(p.b[p.off+k:])
				if be {
					u = binary.BigEndian.Uint64(p.b[p.off+k:])
				}
				if !math.IsNaN(math.Float64frombits(u)) {
					empty = false
				}
			}
			p.visit.begin(code, 1, empty)
			if !empty {
				p.coords(be, dims, 1)
			} else {
				p.coords2(be, dims)
			}
			p.visit.end()
			return code, nil
		}
		p.coords(be, dims, 1)
	case LineString:
		if err := p.line(be, code, dims, width); err != nil {
			return 0, err
		}
	case Polygon:
		rings, err := p.count(be, 4, "rings")
		if err != nil {
			return 0, err
		}
		p.begin(code, rings)
		for range rings {
			if err := p.line(be, LineString, dims, width); err != nil {
				return 0, err
			}
		}
		p.end()
	default:
		parts, err := p.count(be, 5, "parts")
		if err != nil {
			return 0, err
		}
		var sub uint32
		if base != GeometryCollection {
			sub = base - 3
		}
		p.begin(code, parts)
		for range parts {
			if _, err := p.geometry(depth+1, sub, dims+1); err != nil {
				return 0, err
			}
		}
		p.end()
	}
	return code, nil
}

// line reads a count of points of width bytes each, then the points, as
// one line of type code: a LineString, or a ring of a Polygon.
func (p *parser) line(be bool, code, dims uint32, width int) error {
	n, err := p.count(be, width, "points")
	if err != nil {
		return err
	}
	p.begin(code, n)
	p.coords(be, dims, n)
	p.end()
	return nil
}

// coords2 skips one empty point's coordinates (all NaN: nothing to bound).
func (p *parser) coords2(be bool, dims uint32) {
	_ = be
	p.off += 8 * (2 + int(dims&1) + int(dims>>1))
}

func (p *parser) begin(code uint32, n int) {
	if p.visit != nil {
		p.visit.begin(code, n, n == 0)
	}
}

func (p *parser) end() {
	if p.visit != nil {
		p.visit.end()
	}
}
