package sarg

// Box predicates on geometry columns.
//
// ST_INTERSECTS_BOX(g, xmin, ymin, xmax, ymax) is TRUE when the envelope of
// g (the least and greatest x and y over its coordinates, NaN ignored)
// meets the box, edges included; ST_WITHIN_BOX(...) when the envelope lies
// inside it. Both are FALSE for an empty geometry (no coordinate), NULL for
// a null one or a value that is not WKB. A box with xmin > xmax crosses the
// antimeridian: it holds x >= xmin or x <= xmax (the Parquet and ORC
// convention), infinite bounds included (xmin = +Inf: x <= xmax). The envelopes of values are never wrapped: geometry is
// planar.
//
// Against statistics: every coordinate of every value of a unit lies in the
// unit's box, so a value whose envelope meets (or lies within) the query
// box exists only if the unit's box meets the query box. A unit whose box
// misses it is NO (plus NULL when it has nulls); one without a usable box
// (x or y unknown: no bbox written, a geography column, a value that was
// not WKB) may match. The pruning never claims YES: an empty geometry
// inside the box is FALSE, and statistics do not tell empties apart.
// Geography columns are refused by Bind: their edges are not straight in
// x and y, so a box test on vertices would be wrong.
//
// The exact shape predicates (ST_INTERSECTS, ST_CONTAINS, ST_WITHIN with a
// WKT literal) are in geoshape.go; both families are geoTest types.

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/stats"
)

// IntersectsBox returns ST_INTERSECTS_BOX(col, xmin, ymin, xmax, ymax): the
// geometry's envelope meets the box. xmin > xmax crosses the antimeridian.
func IntersectsBox(col string, xmin, ymin, xmax, ymax float64) Expr {
	return leaf(LeafIntersectsBox, col, Float(xmin), Float(ymin), Float(xmax), Float(ymax))
}

// WithinBox returns ST_WITHIN_BOX(col, xmin, ymin, xmax, ymax): the
// geometry's envelope lies inside the box.
func WithinBox(col string, xmin, ymin, xmax, ymax float64) Expr {
	return leaf(LeafWithinBox, col, Float(xmin), Float(ymin), Float(xmax), Float(ymax))
}

func (o LeafOp) isGeo() bool { return o == LeafIntersectsBox || o == LeafWithinBox || o.isShape() }

var geoFuncs = map[string]LeafOp{"ST_INTERSECTS_BOX": LeafIntersectsBox, "ST_WITHIN_BOX": LeafWithinBox}

// geoText writes ST_...(col, xmin, ymin, xmax, ymax), with NOT in front
// when neg.
func (l *Leaf) geoText(neg bool) string {
	if l.Op.isShape() {
		return l.shapeText(neg)
	}
	var b []byte
	if neg {
		b = append(b, "NOT "...)
	}
	if l.Op == LeafIntersectsBox {
		b = append(b, "ST_INTERSECTS_BOX("...)
	} else {
		b = append(b, "ST_WITHIN_BOX("...)
	}
	b = append(b, canonicalColumn(l.Column)...)
	for _, lit := range l.Literals {
		b = append(b, ", "...)
		b = lit.appendText(b)
	}
	return string(append(b, ')'))
}

// geoCallAhead reports whether the parser stands on a geometry predicate
// (ST_INTERSECTS_BOX, ST_WITHIN_BOX, or one of shapeFuncs) followed by
// "(".
func (p *parser) geoCallAhead() bool {
	if p.tok.kind != tIdent {
		return false
	}
	name := strings.ToUpper(p.tok.text)
	_, box := geoFuncs[name]
	if _, shape := shapeFuncs[name]; !box && !shape {
		return false
	}
	save := *p
	defer func() { *p = save }()
	return p.advance() == nil && p.tok.punct("(")
}

// parseGeoCall reads ST_...(column, n, n, n, n), or a shape predicate.
func (p *parser) parseGeoCall() (Expr, error) {
	name := strings.ToUpper(p.tok.text)
	if _, ok := shapeFuncs[name]; ok {
		return p.parseShapeCall(name)
	}
	op := geoFuncs[name]
	if err := p.advance(); err != nil { // the name
		return Expr{}, err
	}
	if err := p.advance(); err != nil { // "("
		return Expr{}, err
	}
	col, err := p.parseColumn()
	if err != nil {
		return Expr{}, err
	}
	var lits []Literal
	for range 4 {
		if err := p.expect(p.tok.punct(","), "%s takes a column and 4 numbers (xmin, ymin, xmax, ymax)", name); err != nil {
			return Expr{}, err
		}
		lit, pos, err := p.parseLiteral()
		if err != nil {
			return Expr{}, err
		}
		if k := lit.Kind(); k != IntLit && k != FloatLit && k != DecimalLit {
			return Expr{}, p.errorf(pos, "%s takes numbers, found %s", name, lit)
		}
		lits = append(lits, lit)
	}
	if !p.tok.punct(")") {
		return Expr{}, p.errorf(p.tok.pos, "expected \")\" after the 4 numbers of %s, found %s", name, p.tok.describe())
	}
	return leaf(op, col, lits...), p.advance()
}

// geoBox is a bound query box; xmin > xmax crosses the antimeridian.
type geoBox struct {
	xmin, ymin, xmax, ymax float64
}

// geoTest is a bound geometry predicate: one type per family (boxTest
// here, the shape tests in geoshape.go).
type geoTest interface {
	// outcome says whether some value of a unit whose box (x and y known)
	// is b may make the predicate TRUE, and whether some may make it FALSE.
	outcome(b *geo.Box) (t, f bool)
	// value evaluates the predicate on one WKB value; sc is scratch space
	// for decoding it.
	value(wkb []byte, sc *geo.Shape) uint8
	// describe says, for Explain, what the units' boxes are compared with.
	describe() string
}

// bindGeo binds a geometry predicate, or refuses another comparison on a
// geometry or geography column.
func (b *Bound) bindGeo(bl *boundLeaf, l *Leaf) (*boundLeaf, Op, error) {
	mismatch := func(format string, args ...any) (*boundLeaf, Op, error) {
		return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch,
			Msg: fmt.Sprintf("sarg: %s: %s", l, fmt.Sprintf(format, args...))}
	}
	if !l.Op.isGeo() {
		return mismatch("%s column %s allows only IS NULL and the geometry predicates (ST_INTERSECTS, ST_CONTAINS, ST_WITHIN, ST_INTERSECTS_BOX, ST_WITHIN_BOX)", bl.col.Kind, canonicalColumn(l.Column))
	}
	what := "box predicates need"
	if l.Op.isShape() {
		what = l.Op.String() + " needs"
	}
	switch bl.col.Kind {
	case orc.Geometry:
	case orc.Geography:
		return mismatch("%s a geometry column; %s is %s, whose edges are not straight in x and y", what, canonicalColumn(l.Column), bl.col)
	default:
		return mismatch("%s a geometry column; %s is %s", what, canonicalColumn(l.Column), bl.col)
	}
	if l.Op.isShape() {
		t, err := bindShape(l)
		if err != nil {
			return mismatch("%v", err)
		}
		bl.geo = t
		return bl, 0, nil
	}
	var v [4]float64
	for i, lit := range l.Literals {
		if k := lit.Kind(); k != IntLit && k != FloatLit && k != DecimalLit {
			return mismatch("the box needs numbers, literal %d is %s", i+1, lit)
		}
		v[i] = nearestFloat(lit)
		if math.IsNaN(v[i]) {
			return mismatch("the box has a NaN bound")
		}
	}
	q := geoBox{xmin: v[0], ymin: v[1], xmax: v[2], ymax: v[3]}
	if q.ymin > q.ymax {
		return mismatch("ymin %g is above ymax %g (only x may wrap, across the antimeridian)", q.ymin, q.ymax)
	}
	bl.geo = &boxTest{q: q, within: l.Op == LeafWithinBox}
	return bl, 0, nil
}

// xRanges returns an x extent as one or two plain ranges: two when it wraps
// (lo > hi with both finite), each open on its far side.
func xRanges(lo, hi float64) [][2]float64 {
	if lo > hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		return [][2]float64{{lo, math.Inf(1)}, {math.Inf(-1), hi}}
	}
	return [][2]float64{{lo, hi}}
}

// queryXRanges returns a query box's x extent as one or two plain ranges:
// two when xmin > xmax, the antimeridian rule (x >= xmin or x <= xmax),
// whether or not a bound is infinite. xmin = +Inf thus leaves x <= xmax
// (and x = +Inf), xmax = -Inf leaves x >= xmin. Unlike a unit's box, a
// query box is never empty by its bounds: the rule gives every pair a
// meaning, and rows and statistics both use it.
func queryXRanges(lo, hi float64) [][2]float64 {
	if lo > hi {
		return [][2]float64{{lo, math.Inf(1)}, {math.Inf(-1), hi}}
	}
	return [][2]float64{{lo, hi}}
}

// meets reports whether the plain ranges [a0, a1] and [b0, b1] share a
// point; an empty range (a0 > a1) meets nothing.
func meets(a0, a1, b0, b1 float64) bool { return a0 <= a1 && b0 <= b1 && a0 <= b1 && b0 <= a1 }

// boxMeets reports whether the box (x possibly wrapped) meets the query.
func (q *geoBox) meets(xlo, xhi, ylo, yhi float64) bool {
	if !meets(ylo, yhi, q.ymin, q.ymax) {
		return false
	}
	for _, a := range xRanges(xlo, xhi) {
		for _, r := range queryXRanges(q.xmin, q.xmax) {
			if meets(a[0], a[1], r[0], r[1]) {
				return true
			}
		}
	}
	return false
}

// holds reports whether the query holds the plain, non-empty envelope.
func (q *geoBox) holds(e *geo.Box) bool {
	if e.Min[1] < q.ymin || e.Max[1] > q.ymax {
		return false
	}
	for _, r := range queryXRanges(q.xmin, q.xmax) {
		if e.Min[0] >= r[0] && e.Max[0] <= r[1] {
			return true
		}
	}
	return false
}

// boxTest is ST_INTERSECTS_BOX (the envelope meets q) or ST_WITHIN_BOX
// (the envelope lies in q).
type boxTest struct {
	q      geoBox
	within bool
}

// outcome: a value's envelope lies in the unit's box, so it can meet (or
// lie in) q only if the unit's box meets q.
func (t *boxTest) outcome(b *geo.Box) (bool, bool) {
	return t.q.meets(b.Min[0], b.Max[0], b.Min[1], b.Max[1]), true
}

func (t *boxTest) value(wkb []byte, _ *geo.Shape) uint8 {
	e, _, err := geo.Envelope(wkb)
	if err != nil {
		return rowNull
	}
	if e.AxisEmpty(0) || e.AxisEmpty(1) {
		return rowFalse
	}
	if t.within {
		return t2(t.q.holds(&e))
	}
	return t2(t.q.meets(e.Min[0], e.Max[0], e.Min[1], e.Max[1]))
}

func (t *boxTest) describe() string { return "" }

// geoOutcome is rangeOutcome for a geometry leaf: whether some value may
// be TRUE and whether some may be FALSE.
func (l *boundLeaf) geoOutcome(st *stats.Column) (t, f bool) {
	if !geoBoxKnown(st) {
		return true, true
	}
	return l.geo.outcome(&st.Geo.Box)
}

// geoBoxKnown reports whether st has a box known on x and y.
func geoBoxKnown(st *stats.Column) bool {
	return st.Geo != nil && st.Geo.Box.AxisKnown(0) && st.Geo.Box.AxisKnown(1)
}

// mayHoldBadWKB reports whether the unit may hold a value that is not WKB
// (NULL for the geometry predicates). Writers then leave both the box and
// the type codes unknown; a unit of empty geometries has no box but its
// types.
func mayHoldBadWKB(st *stats.Column) bool {
	return !geoBoxKnown(st) && (st.Geo == nil || st.Geo.Types == 0)
}

// shapePool holds scratch shapes for decoding row values.
var shapePool = sync.Pool{New: func() any { return new(geo.Shape) }}

// geoPlain is evalPlain for a geometry leaf on a non-null value.
func (l *boundLeaf) geoPlain(v any) (uint8, error) {
	var wkb []byte
	switch t := v.(type) {
	case []byte:
		wkb = t
	case string:
		wkb = []byte(t)
	default:
		return 0, fmt.Errorf("sarg: column %d is geometry, value is %T", l.colID, v)
	}
	return l.geo.value(wkb, new(geo.Shape)), nil
}

// matchGeo is match for a geometry leaf: each row's value from its WKB
// (nulls are set by the caller), decoded into one scratch shape.
func (l *boundLeaf) matchGeo(v orc.Vector, n int, out []uint8) error {
	x, ok := v.(*orc.BytesVector)
	if !ok {
		return fmt.Errorf("sarg: column %d is geometry but its vector is %T", l.colID, v)
	}
	if len(x.Offsets) < n+1 {
		return fmt.Errorf("sarg: bytes vector for column %d has %d offsets, need %d", l.colID, len(x.Offsets), n+1)
	}
	sc := shapePool.Get().(*geo.Shape)
	defer shapePool.Put(sc)
	for i := range out[:n] {
		out[i] = l.geo.value(x.Data[x.Offsets[i]:x.Offsets[i+1]], sc)
	}
	return nil
}

// explainBox describes the unit's box for Explain: "box of g: x [1, 2] y
// [3, 4]", or why there is none, and what it is compared with.
func (l *boundLeaf) explainBox(src Source) string {
	name := canonicalColumn(l.orig.Column)
	extra := l.geo.describe()
	st := src.Stats(l.colID)
	if st == nil || st.Geo == nil {
		return "box of " + name + ": no geospatial statistics" + extra
	}
	b := &st.Geo.Box
	if !b.AxisKnown(0) || !b.AxisKnown(1) {
		return "box of " + name + ": unknown (no bbox)" + extra
	}
	return fmt.Sprintf("box of %s: x [%g, %g] y [%g, %g]%s", name, b.Min[0], b.Max[0], b.Min[1], b.Max[1], extra)
}
