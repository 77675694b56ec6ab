package sarg

// Shape predicates on geometry columns.
//
// ST_INTERSECTS(g, 'WKT') is TRUE when the geometry g and the literal's
// share a point; ST_CONTAINS(g, 'WKT') when g contains the literal (no
// point of the literal outside g, some point of it in g's interior: a
// polygon does not contain a point on its boundary); ST_WITHIN(g, 'WKT')
// when the literal contains g. The literal may come first, ST_CONTAINS
// ('WKT', g) being ST_WITHIN(g, 'WKT'), and may be written
// ST_GEOMFROMTEXT('WKT'); ST_DISJOINT is NOT ST_INTERSECTS. The geometry
// is planar, evaluated exactly on the float64 coordinates (package geo:
// even-odd polygons, the OGC mod-2 rule for line boundaries, vertices with
// a NaN or infinite coordinate left out). Empty geometries intersect and
// contain nothing and lie within nothing. A null value is NULL, and so is
// a value that is not WKB, as for the box predicates.
//
// Against statistics: every point of a value lies in the box of its
// vertices, so in the unit's box. A value meets the literal, or lies
// within it, only if the unit's box meets the literal's box; it contains
// the literal only if the unit's box holds the literal's box. A unit whose
// box fails that test is NO (plus NULL when it has nulls); one without a
// usable box may match. An empty literal makes every value FALSE. As for
// the box predicates the statistics never claim YES, since they do not
// tell empty geometries apart. A unit box that wraps (xmin > xmax, which
// ORC allows for geography) bounds the vertices but not the straight
// edges between them, so its x is taken as unbounded.

import (
	"fmt"
	"math"
	"strings"

	"github.com/orcgo/orc/geo"
)

// Intersects returns ST_INTERSECTS(col, 'wkt'): the column's geometry and
// the literal's share a point.
func Intersects(col, wkt string) Expr { return leaf(LeafIntersects, col, String(wkt)) }

// Disjoint returns ST_DISJOINT(col, 'wkt'), that is
// NOT ST_INTERSECTS(col, 'wkt').
func Disjoint(col, wkt string) Expr { return Not(Intersects(col, wkt)) }

// Contains returns ST_CONTAINS(col, 'wkt'): the column's geometry contains
// the literal's.
func Contains(col, wkt string) Expr { return leaf(LeafContains, col, String(wkt)) }

// Within returns ST_WITHIN(col, 'wkt'): the literal's geometry contains
// the column's (ST_CONTAINS('wkt', col)).
func Within(col, wkt string) Expr { return leaf(LeafWithin, col, String(wkt)) }

func (o LeafOp) isShape() bool { return o == LeafIntersects || o == LeafContains || o == LeafWithin }

var shapeFuncs = map[string]LeafOp{"ST_INTERSECTS": LeafIntersects, "ST_DISJOINT": LeafIntersects,
	"ST_CONTAINS": LeafContains, "ST_WITHIN": LeafWithin}

// shapeText writes ST_...(col, 'WKT'), with NOT in front when neg.
func (l *Leaf) shapeText(neg bool) string {
	var b []byte
	if neg {
		b = append(b, "NOT "...)
	}
	b = append(b, l.Op.String()...)
	b = append(b, '(')
	b = append(b, canonicalColumn(l.Column)...)
	for _, lit := range l.Literals {
		b = append(b, ", "...)
		b = lit.appendText(b)
	}
	return string(append(b, ')'))
}

// shapeArg is one argument of a shape predicate: a column or a literal.
type shapeArg struct {
	col string
	wkt string
	lit bool
	pos int
}

// parseShapeCall reads ST_INTERSECTS, ST_CONTAINS, ST_WITHIN or
// ST_DISJOINT with a column and a WKT literal, in either order.
func (p *parser) parseShapeCall(name string) (Expr, error) {
	callPos := p.tok.pos
	if err := p.advance(); err != nil { // the name
		return Expr{}, err
	}
	if err := p.advance(); err != nil { // "("
		return Expr{}, err
	}
	var args [2]shapeArg
	for i := range args {
		if i == 1 {
			if !p.tok.punct(",") {
				return Expr{}, p.errorf(p.tok.pos, "%s takes a geometry column and a WKT literal, found %s after the first", name, p.tok.describe())
			}
			if err := p.advance(); err != nil {
				return Expr{}, err
			}
		}
		a, err := p.parseShapeArg(name)
		if err != nil {
			return Expr{}, err
		}
		args[i] = a
	}
	if !p.tok.punct(")") {
		return Expr{}, p.errorf(p.tok.pos, "expected \")\" after the 2 arguments of %s, found %s", name, p.tok.describe())
	}
	switch {
	case !args[0].lit && !args[1].lit:
		return Expr{}, p.errorf(args[1].pos, "%s compares a geometry column with a WKT literal ('POINT (1 2)' or ST_GEOMFROMTEXT('...')); two columns are not supported", name)
	case args[0].lit && args[1].lit:
		return Expr{}, p.errorf(callPos, "%s needs a geometry column, found two literals", name)
	}
	op, col, wkt := shapeFuncs[name], args[0].col, args[1].wkt
	if args[0].lit { // the literal first: the roles of contains and within swap
		col, wkt = args[1].col, args[0].wkt
		switch op {
		case LeafContains:
			op = LeafWithin
		case LeafWithin:
			op = LeafContains
		}
	}
	e := leaf(op, col, String(wkt))
	if name == "ST_DISJOINT" {
		e = Not(e)
	}
	return e, p.advance()
}

// parseShapeArg reads a column, a string of WKT or ST_GEOMFROMTEXT('WKT').
func (p *parser) parseShapeArg(name string) (shapeArg, error) {
	t := p.tok
	switch {
	case t.kind == tString:
		if err := p.checkWKT(name, t); err != nil {
			return shapeArg{}, err
		}
		return shapeArg{wkt: t.text, lit: true, pos: t.pos}, p.advance()
	case (t.is("ST_GEOMFROMTEXT") || t.is("ST_GEOMETRYFROMTEXT")) && p.peekByte() == '(':
		fn := strings.ToUpper(t.text)
		if err := p.advance(); err != nil {
			return shapeArg{}, err
		}
		if err := p.advance(); err != nil { // "("
			return shapeArg{}, err
		}
		s := p.tok
		if s.kind != tString {
			return shapeArg{}, p.errorf(s.pos, "%s takes the well-known text of a geometry in quotes, found %s", fn, s.describe())
		}
		if err := p.checkWKT(name, s); err != nil {
			return shapeArg{}, err
		}
		if err := p.advance(); err != nil {
			return shapeArg{}, err
		}
		if !p.tok.punct(")") {
			return shapeArg{}, p.errorf(p.tok.pos, "expected \")\" after the text of %s (a spatial reference is not supported), found %s", fn, p.tok.describe())
		}
		return shapeArg{wkt: s.text, lit: true, pos: t.pos}, p.advance()
	case p.atColumn():
		col, err := p.parseColumn()
		return shapeArg{col: col, pos: t.pos}, err
	}
	return shapeArg{}, p.errorf(t.pos, "%s takes a geometry column and a WKT literal ('POINT (1 2)' or ST_GEOMFROMTEXT('...')), found %s", name, t.describe())
}

// checkWKT reports malformed well-known text in the string token t at
// the position of the fault in the predicate's text.
func (p *parser) checkWKT(name string, t token) error {
	_, err := parseShapeLit(t.text)
	if err == nil {
		return nil
	}
	if we, ok := err.(*geo.WKTError); ok {
		return p.errorf(p.inString(t.pos, we.Pos), "%s: bad WKT literal: %s", name, we.Msg)
	}
	return p.errorf(t.pos, "%s: %v", name, err)
}

// inString returns the position in the text of byte k of the string
// literal whose opening quote is at quote (a doubled quote in the text
// stands for one quote in the string).
func (p *parser) inString(quote, k int) int {
	i := quote + 1
	for ; k > 0 && i < len(p.src); k-- {
		if p.src[i] == '\'' {
			i++
		}
		i++
	}
	return i
}

// parseShapeLit parses a literal's well-known text, refusing coordinates
// that name no point (NaN, infinite).
func parseShapeLit(wkt string) (*geo.Shape, error) {
	s := new(geo.Shape)
	if err := s.SetWKT(wkt); err != nil {
		return nil, err
	}
	if n := s.Dropped(); n > 0 {
		return nil, fmt.Errorf("the WKT literal has %d vertices with a NaN or infinite coordinate", n)
	}
	s.Prepare()
	return s, nil
}

// bindShape binds the literal of a shape predicate.
func bindShape(l *Leaf) (geoTest, error) {
	lit := l.Literals[0]
	if lit.Kind() != StringLit {
		return nil, fmt.Errorf("the geometry must be well-known text in a string, found %s", lit)
	}
	s, err := parseShapeLit(lit.s)
	if err != nil {
		return nil, err
	}
	sl := shapeLit{s: s}
	sl.minX, sl.minY, sl.maxX, sl.maxY, sl.ok = s.Box()
	switch l.Op {
	case LeafContains:
		return &containsTest{sl}, nil
	case LeafWithin:
		return &withinTest{sl}, nil
	}
	return &intersectsTest{sl}, nil
}

// shapeLit is a shape predicate's literal and its box (ok false: empty).
type shapeLit struct {
	s                      *geo.Shape
	minX, minY, maxX, maxY float64
	ok                     bool
}

// unitX returns the x extent of a unit's box, unbounded when it wraps.
func unitX(b *geo.Box) (lo, hi float64) {
	lo, hi = b.Min[0], b.Max[0]
	if lo > hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		return math.Inf(-1), math.Inf(1)
	}
	return lo, hi
}

// meets reports whether the literal is not empty and its box meets b.
func (sl *shapeLit) meets(b *geo.Box) bool {
	lo, hi := unitX(b)
	return sl.ok && meets(lo, hi, sl.minX, sl.maxX) && meets(b.Min[1], b.Max[1], sl.minY, sl.maxY)
}

// heldBy reports whether the literal is not empty and b holds its box.
func (sl *shapeLit) heldBy(b *geo.Box) bool {
	lo, hi := unitX(b)
	return sl.ok && lo <= sl.minX && sl.maxX <= hi && b.Min[1] <= sl.minY && sl.maxY <= b.Max[1]
}

func (sl *shapeLit) describe() string {
	if !sl.ok {
		return "; the literal is empty"
	}
	return fmt.Sprintf("; the literal's box: x [%g, %g] y [%g, %g]", sl.minX, sl.maxX, sl.minY, sl.maxY)
}

// intersectsTest is ST_INTERSECTS: the value and the literal share a point.
type intersectsTest struct{ shapeLit }

func (t *intersectsTest) outcome(b *geo.Box) (bool, bool) { return t.meets(b), true }

func (t *intersectsTest) value(wkb []byte, sc *geo.Shape) uint8 {
	if sc.SetWKB(wkb) != nil {
		return rowNull
	}
	return t2(geo.Intersects(t.s, sc))
}

// containsTest is ST_CONTAINS(g, lit): the value contains the literal.
type containsTest struct{ shapeLit }

func (t *containsTest) outcome(b *geo.Box) (bool, bool) { return t.heldBy(b), true }

func (t *containsTest) value(wkb []byte, sc *geo.Shape) uint8 {
	if sc.SetWKB(wkb) != nil {
		return rowNull
	}
	return t2(geo.Contains(sc, t.s))
}

// withinTest is ST_WITHIN(g, lit): the literal contains the value.
type withinTest struct{ shapeLit }

func (t *withinTest) outcome(b *geo.Box) (bool, bool) { return t.meets(b), true }

func (t *withinTest) value(wkb []byte, sc *geo.Shape) uint8 {
	if sc.SetWKB(wkb) != nil {
		return rowNull
	}
	return t2(geo.Contains(t.s, sc))
}
