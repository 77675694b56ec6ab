package geo

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// AppendWKB parses well-known text, such as "POINT (1 2)" or
// "MULTIPOLYGON Z (((0 0 1, 1 0 1, 1 1 1, 0 0 1)))", and appends it to dst
// as little-endian ISO WKB. Keywords are case-insensitive; without a Z, M
// or ZM keyword the dimensions follow the first coordinate (3 values XYZ,
// 4 XYZM). Malformed text returns dst unchanged and a *WKTError.
func AppendWKB(dst []byte, wkt string) ([]byte, error) {
	p := &wktParser{s: wkt, out: dst}
	if _, err := p.geometry(0, 0, -1); err != nil {
		return dst, err
	}
	p.space()
	if p.pos != len(p.s) {
		return dst, p.fail("unexpected %q after the geometry", p.rest())
	}
	return p.out, nil
}

type wktParser struct {
	s   string
	pos int
	out []byte
}

func (p *wktParser) rest() string {
	r := p.s[p.pos:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

// WKTError is malformed well-known text: what is wrong and the byte
// offset in the text where it was found.
type WKTError struct {
	Pos int
	Msg string
}

// Error returns the message, "bad WKT at position n: what".
func (e *WKTError) Error() string { return fmt.Sprintf("bad WKT at position %d: %s", e.Pos, e.Msg) }

func (p *wktParser) fail(format string, args ...any) error {
	return &WKTError{p.pos, fmt.Sprintf(format, args...)}
}

func (p *wktParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *wktParser) word() string {
	p.space()
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' || p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z') {
		p.pos++
	}
	return strings.ToUpper(p.s[start:p.pos])
}

func (p *wktParser) peek(c byte) bool {
	p.space()
	return p.pos < len(p.s) && p.s[p.pos] == c
}

func (p *wktParser) expect(c byte) error {
	if !p.peek(c) {
		if p.pos >= len(p.s) {
			return p.fail("expected %q, found the end", c)
		}
		return p.fail("expected %q, found %q", c, p.rest())
	}
	p.pos++
	return nil
}

// emptyNext consumes EMPTY if it comes next.
func (p *wktParser) emptyNext() bool {
	save := p.pos
	if p.word() == "EMPTY" {
		return true
	}
	p.pos = save
	return false
}

func (p *wktParser) u32(v uint32) { p.out = binary.LittleEndian.AppendUint32(p.out, v) }

// header writes byte order and a type code to be patched once the
// dimensions are known, returning the code's offset.
func (p *wktParser) header() int {
	p.out = append(p.out, 1)
	at := len(p.out)
	p.u32(0)
	return at
}

// geometry parses one tagged geometry and returns its dimensions. want is
// the base type required (0 any); dims the dimensions (-1 not known yet).
func (p *wktParser) geometry(depth int, want uint32, dims int) (int, error) {
	if depth > MaxDepth {
		return 0, p.fail("collections nested deeper than %d", MaxDepth)
	}
	name := p.word()
	base := uint32(0)
	for i, n := range baseNames {
		if i > 0 && n == name {
			base = uint32(i)
		}
	}
	if base == 0 {
		return 0, p.fail("unknown geometry %q", name)
	}
	if want != 0 && base != want {
		return 0, p.fail("%s where %s was expected", name, baseNames[want])
	}
	save := p.pos
	switch p.word() {
	case "Z":
		dims = XYZ
	case "M":
		dims = XYM
	case "ZM":
		dims = XYZM
	default:
		p.pos = save
	}
	return p.body(depth, base, dims)
}

// body parses the part after the keyword (EMPTY or a parenthesised list)
// and returns the dimensions. The parts of a multi geometry or collection
// share them: the first part fixes unknown ones, and a part of other
// dimensions is refused, as ISO WKB refuses it.
func (p *wktParser) body(depth int, base uint32, dims int) (int, error) {
	at := p.header()
	d := &dims
	// part parses one part of a multi geometry or collection.
	part := func(parse func() (int, error)) error {
		start := p.pos
		pd, err := parse()
		if err != nil {
			return err
		}
		if *d < 0 {
			*d = pd
		} else if pd != *d {
			p.pos = start
			return p.fail("a part with %s coordinates in a %s with %s ones", dimNames[pd], baseNames[base], dimNames[*d])
		}
		return nil
	}
	if p.emptyNext() {
		switch base {
		case Point:
			if *d < 0 {
				*d = XY
			}
			for range 2 + *d&1 + *d>>1 {
				p.out = binary.LittleEndian.AppendUint64(p.out, math.Float64bits(math.NaN()))
			}
		default:
			p.u32(0)
		}
	} else {
		if err := p.expect('('); err != nil {
			return 0, err
		}
		var err error
		switch base {
		case Point:
			err = p.coord(d)
		case LineString:
			err = p.coordList(d, false)
		case Polygon:
			err = p.list(func() error { return p.coordListParen(d) })
		case MultiPoint:
			err = p.list(func() error {
				at := p.header()
				if p.emptyNext() {
					if *d < 0 {
						*d = XY
					}
					for range 2 + *d&1 + *d>>1 {
						p.out = binary.LittleEndian.AppendUint64(p.out, math.Float64bits(math.NaN()))
					}
				} else if p.peek('(') {
					p.pos++
					if err := p.coord(d); err != nil {
						return err
					}
					if err := p.expect(')'); err != nil {
						return err
					}
				} else if err := p.coord(d); err != nil {
					return err
				}
				p.patch(at, Point, *d)
				return nil
			})
		case MultiLineString, MultiPolygon:
			err = p.list(func() error {
				return part(func() (int, error) { return p.body(depth+1, base-3, *d) })
			})
		case GeometryCollection:
			err = p.list(func() error {
				return part(func() (int, error) { return p.geometry(depth+1, 0, *d) })
			})
		}
		if err != nil {
			return 0, err
		}
		if err := p.expect(')'); err != nil {
			return 0, err
		}
	}
	if *d < 0 {
		*d = XY
	}
	p.patch(at, base, *d)
	return *d, nil
}

var dimNames = [...]string{XY: "XY", XYZ: "XYZ", XYM: "XYM", XYZM: "XYZM"}

func (p *wktParser) patch(at int, base uint32, dims int) {
	binary.LittleEndian.PutUint32(p.out[at:], base+1000*uint32(dims))
}

// list parses items separated by commas up to (not including) ')', writing
// their count first.
func (p *wktParser) list(item func() error) error {
	at := len(p.out)
	p.u32(0)
	n := uint32(0)
	for {
		if err := item(); err != nil {
			return err
		}
		n++
		if !p.peek(',') {
			break
		}
		p.pos++
	}
	binary.LittleEndian.PutUint32(p.out[at:], n)
	return nil
}

func (p *wktParser) coordListParen(d *int) error {
	if p.emptyNext() {
		p.u32(0)
		return nil
	}
	if err := p.expect('('); err != nil {
		return err
	}
	return p.coordList(d, true)
}

func (p *wktParser) coordList(d *int, closeParen bool) error {
	if err := p.list(func() error { return p.coord(d) }); err != nil {
		return err
	}
	if closeParen {
		return p.expect(')')
	}
	return nil
}

// coord parses 2 to 4 numbers; the first coordinate fixes unknown
// dimensions (3 numbers XYZ, 4 XYZM).
func (p *wktParser) coord(d *int) error {
	var c [4]float64
	n := 0
	for n < 4 {
		p.space()
		start := p.pos
		for p.pos < len(p.s) && strings.IndexByte("+-.0123456789eEnaNAifIF", p.s[p.pos]) >= 0 {
			p.pos++
		}
		if start == p.pos {
			break
		}
		v, err := strconv.ParseFloat(p.s[start:p.pos], 64)
		if err != nil {
			text := p.s[start:p.pos]
			p.pos = start
			return p.fail("bad number %q", text)
		}
		c[n] = v
		n++
	}
	if *d < 0 {
		switch n {
		case 2:
			*d = XY
		case 3:
			*d = XYZ
		case 4:
			*d = XYZM
		}
	}
	if *d < 0 || n != 2+*d&1+*d>>1 {
		return p.fail("a coordinate has %d numbers", n)
	}
	for _, v := range c[:n] {
		p.out = binary.LittleEndian.AppendUint64(p.out, math.Float64bits(v))
	}
	return nil
}
