package sarg

// Comparison terms (=, <, <=, <=> of two terms, boolean), COALESCE, and
// the coercions of SQL's promotion. Two terms compare when both are
// numbers (integers, decimals and doubles compare by exact value: an
// integer equals a double only when the double is that integer; NaN lies
// above every number and equals itself, -0.0 equals 0.0), both text
// (char without its padding), both binary, a date and a timestamp (the
// date is its midnight), both instants, or both booleans.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/orcgo/orc"
)

func init() {
	registerFuncs(cmpOps, bindCompare)
	termFuncs["COALESCE"] = bindCoalesce
}

// cmpOp is a comparison of two terms.
type cmpOp uint8

const (
	cmpEq cmpOp = iota
	cmpLt
	cmpLe
	cmpNullSafe
)

var cmpOps = map[string]cmpOp{"=": cmpEq, "<": cmpLt, "<=": cmpLe, "<=>": cmpNullSafe}

// comparable returns the common type two terms compare in.
func comparable(a, b ttype) (ttype, bool) {
	switch {
	case a.numeric() && b.numeric():
		if a.k == tkDouble || b.k == tkDouble {
			return ttype{k: tkDouble}, true // exact values compare with doubles by value, see cmpMixed
		}
		s := max(a.scale, b.scale)
		m := new(big.Int).Mul(a.maxAbs(), pow10Big(s-a.scale))
		if mb := new(big.Int).Mul(b.maxAbs(), pow10Big(s-b.scale)); mb.Cmp(m) > 0 {
			m = mb
		}
		if m.Cmp(maxDecimal) >= 0 {
			return ttype{}, false
		}
		if a.k == tkInt && b.k == tkInt { // int64 values, whatever the bound
			return exactType(tkInt, 0, m), true
		}
		return exactType(tkDec, s, m), true
	case (a.k == tkDate || a.k == tkTs) && (b.k == tkDate || b.k == tkTs):
		if a.k == tkDate && b.k == tkDate {
			return a, true
		}
		return ttype{k: tkTs}, true
	}
	return a, a.k == b.k
}

// bindCompare binds a comparison of two terms.
func bindCompare(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 2); err != nil {
		return nil, ttype{}, nil, err
	}
	a, b := kids[0], kids[1]
	c, ok := comparable(a.t, b.t)
	if !ok {
		return nil, ttype{}, nil, termErrorf("%s compares %s with %s, which SQL does not compare: %s", t.Fn, a.t, b.t, t)
	}
	f := compareFn{op: cmpOps[t.Fn], k: c.k}
	if c.k == tkDouble && (a.t.exact() || b.t.exact()) {
		// Exact against double: compared by value, not through a rounded
		// double.
		f.mixed, f.scaleA, f.scaleB = true, a.t.scale, b.t.scale
		return f, ttype{k: tkBool}, []*tnode{coerce(a, exactOrDouble(a.t)), coerce(b, exactOrDouble(b.t))}, nil
	}
	return f, ttype{k: tkBool}, []*tnode{coerce(a, c), coerce(b, c)}, nil
}

// exactOrDouble is the type a side of a mixed comparison is read as: a
// decimal (integers too, at scale 0) or the double itself.
func exactOrDouble(t ttype) ttype {
	if t.exact() {
		return exactType(tkDec, t.scale, t.maxAbs())
	}
	return t
}

// compareFn is a comparison of two terms of kind k (or, mixed, of a
// decimal and a double in either order).
type compareFn struct {
	op             cmpOp
	k              tkind
	mixed          bool
	scaleA, scaleB int // mixed: the decimal side's scale
}

func (f compareFn) handlesNulls() {}

func (f compareFn) eval(args []*tvec, n int, out *tvec) error {
	a, b := args[0], args[1]
	out.i = grow(out.i, n)
	narrow := f.k == tkDec && !f.mixed && a.narrowDec(n) && b.narrowDec(n)
	if !narrow {
		a.widenDec(n)
		b.widenDec(n)
	}
	switch {
	case narrow:
		compareInt64(f.op, a.n64[:n], b.n64[:n], out.i)
	case f.mixed:
		cmp := f.rowCmp(a, b)
		for i := range n {
			out.i[i] = b2i(f.holds(cmp(i)))
		}
	case f.k == tkInt || f.k == tkDate || f.k == tkBool:
		compareSlices(f.op, a.i[:n], b.i[:n], out.i, cmpOrdered[int64])
	case f.k == tkDouble:
		compareSlices(f.op, a.f[:n], b.f[:n], out.i, cmpFloat)
	case f.k == tkDec:
		compareSlices(f.op, a.d[:n], b.d[:n], out.i, orc.Int128.Cmp)
	default:
		cmp := f.rowCmp(a, b)
		for i := range n {
			out.i[i] = b2i(f.holds(cmp(i)))
		}
	}
	if a.null == nil && b.null == nil {
		return nil
	}
	for i := range n {
		if an, bn := a.isNull(i), b.isNull(i); an || bn {
			if f.op == cmpNullSafe {
				out.i[i] = b2i(an && bn)
			} else {
				out.setNull(i, n)
			}
		}
	}
	return nil
}

// compareSlices sets out[i] to whether x[i] op y[i], in one loop per
// operator (cmp inlined where the compiler can).
func compareSlices[T any](op cmpOp, x, y []T, out []int64, cmp func(a, b T) int) {
	switch op {
	case cmpLt:
		for i := range x {
			out[i] = b2i(cmp(x[i], y[i]) < 0)
		}
	case cmpLe:
		for i := range x {
			out[i] = b2i(cmp(x[i], y[i]) <= 0)
		}
	default:
		for i := range x {
			out[i] = b2i(cmp(x[i], y[i]) == 0)
		}
	}
}

func (f compareFn) holds(c int) bool {
	switch f.op {
	case cmpLt:
		return c < 0
	case cmpLe:
		return c <= 0
	}
	return c == 0
}

// rowCmp returns the comparison of row i's two values. It is called once
// per batch; the closures it returns compare typed slices.
func (f compareFn) rowCmp(a, b *tvec) func(i int) int {
	switch {
	case f.mixed && a.d != nil:
		return func(i int) int { return cmpDecFloat(a.d[i], f.scaleA, b.f[i]) }
	case f.mixed:
		return func(i int) int { return -cmpDecFloat(b.d[i], f.scaleB, a.f[i]) }
	}
	switch f.k {
	case tkInt, tkDate, tkBool:
		return func(i int) int { return cmpOrdered(a.i[i], b.i[i]) }
	case tkDec:
		return func(i int) int { return a.d[i].Cmp(b.d[i]) }
	case tkDouble:
		return func(i int) int { return cmpFloat(a.f[i], b.f[i]) }
	case tkStr, tkBin:
		return func(i int) int { return cmpOrdered(string(a.bytesAt(i)), string(b.bytesAt(i))) }
	}
	return func(i int) int { return cmpTS(tsVal{a.sec[i], a.ns[i]}, tsVal{b.sec[i], b.ns[i]}) }
}

// cmpDecFloat compares the decimal u (unscaled, at scale s) with f by
// exact value; NaN is above every number.
func cmpDecFloat(u orc.Int128, s int, f float64) int {
	if f != f {
		return -1
	}
	if math.IsInf(f, 0) {
		return -int(math.Copysign(1, f))
	}
	if d := decFloat(u, s); d != f {
		// Rounding to the nearest double is monotone: a decimal whose
		// nearest double lies below f lies below f.
		return cmpOrdered(d, f)
	}
	x := new(big.Rat).SetFrac(u.Big(), pow10Big(s))
	return x.Cmp(new(big.Rat).SetFloat64(f))
}

func (f compareFn) plain(args []any) (any, error) {
	a, b := args[0], args[1]
	if a == nil || b == nil {
		if f.op == cmpNullSafe {
			return a == nil && b == nil, nil
		}
		return nil, nil
	}
	c, err := plainCmp(a, b)
	if err != nil {
		return nil, err
	}
	return f.holds(c), nil
}

// plainCmp compares two plain values of comparable kinds.
func plainCmp(a, b any) (int, error) {
	switch x := a.(type) {
	case *big.Rat:
		switch y := b.(type) {
		case *big.Rat:
			return x.Cmp(y), nil
		case float64:
			return -plainCmpFloatRat(y, x), nil
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return cmpFloat(x, y), nil
		case *big.Rat:
			return plainCmpFloatRat(x, y), nil
		}
	case string:
		if y, ok := b.(string); ok {
			return cmpOrdered(x, y), nil
		}
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), nil
		case tsVal:
			return cmpTS(tsVal{x * 86400, 0}, y), nil
		}
	case tsVal:
		switch y := b.(type) {
		case tsVal:
			return cmpTS(x, y), nil
		case int64:
			return cmpTS(x, tsVal{y * 86400, 0}), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmpOrdered(b2i(x), b2i(y)), nil
		}
	}
	return 0, fmt.Errorf("sarg: cannot compare %v (%T) with %v (%T)", a, a, b, b)
}

// plainCmpFloatRat compares a double with an exact value.
func plainCmpFloatRat(f float64, r *big.Rat) int {
	switch {
	case f != f:
		return 1
	case math.IsInf(f, 0):
		return int(math.Copysign(1, f))
	}
	return new(big.Rat).SetFloat64(f).Cmp(r)
}

func (f compareFn) ival(args []ival) ival {
	a, b := args[0], args[1]
	var t, fl bool
	if a.val && b.val {
		k := f.k
		if f.mixed {
			a, b, k = ratIval(a), ratIval(b), tkDec
		}
		if !a.bounded || !b.bounded {
			t, fl = true, true
		} else {
			ra, rb := a.rng(k), b.rng(k)
			t, fl = colsOutcome(&ra, &rb, f.leafOp())
		}
	}
	return boolIval(f.withNulls(t, fl, a.null, a.val, b.null, b.val))
}

// withNulls adds to the outcomes t and fl of the comparison on two
// values those of rows where a side is null, given whether each side may
// be null and may hold a value: <=> is TRUE for two nulls and FALSE for
// one, the other comparisons NULL.
func (f compareFn) withNulls(t, fl, aNull, aVal, bNull, bVal bool) (bool, bool, bool) {
	if f.op == cmpNullSafe {
		return t || aNull && bNull, fl || aNull && bVal || aVal && bNull, false
	}
	return t, fl, aNull || bNull
}

func (f compareFn) leafOp() LeafOp {
	return [...]LeafOp{cmpEq: LeafEquals, cmpLt: LeafLessThan, cmpLe: LeafLessThanEquals, cmpNullSafe: LeafEquals}[f.op]
}

// ratIval returns a double interval's finite bounds as exact values
// (unbounded at an infinity); exact intervals are returned as they are.
func ratIval(iv ival) ival {
	if !iv.bounded || iv.lo.r != nil {
		return iv
	}
	if math.IsInf(iv.lo.f, 0) || math.IsInf(iv.hi.f, 0) {
		iv.bounded = false
		return iv
	}
	iv.lo, iv.hi = tval{r: new(big.Rat).SetFloat64(iv.lo.f)}, tval{r: new(big.Rat).SetFloat64(iv.hi.f)}
	return iv
}

// boolIval is the interval of a boolean that may be true, false or null.
func boolIval(t, f, null bool) ival {
	iv := ival{val: t || f, null: null, bounded: t || f}
	iv.lo, iv.hi = tval{r: ratOf(1)}, tval{r: ratOf(0)}
	if f {
		iv.lo = tval{r: ratOf(0)}
	}
	if t {
		iv.hi = tval{r: ratOf(1)}
	}
	return iv
}

// bindCoalesce binds COALESCE(a, b, ...): the first non-null argument.
func bindCoalesce(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if len(kids) < 1 {
		return nil, ttype{}, nil, termErrorf("COALESCE needs at least one argument")
	}
	c := kids[0].t
	for _, k := range kids[1:] {
		var ok bool
		if c, ok = comparable(c, k.t); !ok {
			return nil, ttype{}, nil, termErrorf("COALESCE mixes %s and %s: %s", kids[0].t, k.t, t)
		}
	}

	out := make([]*tnode, len(kids))
	for i, k := range kids {
		out[i] = coerce(k, c)
	}
	return coalesceFn{k: c.k}, c, out, nil
}

// coalesceFn is COALESCE over arguments of one type.
type coalesceFn struct{ k tkind }

func (f coalesceFn) handlesNulls() {}

func (f coalesceFn) eval(args []*tvec, n int, out *tvec) error {
	out.nullBuf = grow(out.nullBuf, n)
	out.null = out.nullBuf
	out.pick = grow(out.pick, n)
	pick := out.pick
	for i := 0; i < n; i++ {
		pick[i] = -1
		for j, a := range args {
			if !a.isNull(i) {
				pick[i] = int8(j)
				break
			}
		}
		out.null[i] = pick[i] < 0
	}
	switch f.k {
	case tkInt, tkDate, tkBool:
		out.i = gather(out.i, pick, args, func(a *tvec) []int64 { return a.i })
	case tkDec:
		out.d = gather(out.d, pick, args, func(a *tvec) []orc.Int128 { return a.d })
	case tkDouble:
		out.f = gather(out.f, pick, args, func(a *tvec) []float64 { return a.f })
	case tkStr, tkBin:
		out.st, out.en = grow(out.st, n), grow(out.en, n)
		for i, p := range pick {
			if p >= 0 {
				out.data = append(out.data, args[p].bytesAt(i)...)
			}
			out.en[i] = len(out.data)
			if i > 0 {
				out.st[i] = out.en[i-1]
			}
		}
	default:
		out.sec = gather(out.sec, pick, args, func(a *tvec) []int64 { return a.sec })
		out.ns = gather(out.ns, pick, args, func(a *tvec) []int32 { return a.ns })
	}
	return nil
}

// gather takes row i from argument pick[i], into dst.
func gather[T any](dst []T, pick []int8, args []*tvec, of func(*tvec) []T) []T {
	out := grow(dst, len(pick))
	for i, p := range pick {
		if p >= 0 {
			out[i] = of(args[p])[i]
		}
	}
	return out
}

func (f coalesceFn) plain(args []any) (any, error) {
	for _, a := range args {
		if a != nil {
			return a, nil
		}
	}
	return nil, nil
}

func (f coalesceFn) ival(args []ival) ival {
	out := ival{}
	allNull := true
	for _, a := range args {
		v := a
		v.null = false
		out = out.union(f.k, v)
		allNull = allNull && a.null
		if !a.null {
			break // later arguments are never reached
		}
	}
	out.null = allNull
	return out
}

// coerce returns n read as type t (n itself when it already is; a literal
// converted once).
func coerce(n *tnode, t ttype) *tnode {
	if n.t.k == t.k && (n.t.k != tkDec || n.t.scale == t.scale) {
		return n
	}
	c := coercion{from: n.t, to: t}
	if n.fn == nil && n.col == nil {
		if v, err := c.plain([]any{n.lit}); err == nil {
			return &tnode{t: t, lit: v, text: n.text}
		}
	}
	return &tnode{t: t, fn: c, kids: []*tnode{n}, text: n.text}
}

// coercion converts exact numbers to decimals of a larger or equal scale
// or to doubles, integers to bigger integers, and dates to timestamps.
type coercion struct{ from, to ttype }

func (c coercion) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	switch {
	case c.to.k == tkDec:
		if c.toDecimalNarrow(a, n, out) {
			return nil
		}
		a.widenDec(n)
		return c.toDecimal(a, n, out)
	case c.to.k == tkDouble:
		if c.toDoubleNarrow(a, n, out) {
			return nil
		}
		a.widenDec(n)
		out.f = grow(out.f, n)
		for i := 0; i < n; i++ {
			if c.from.k == tkInt {
				out.f[i] = float64(a.i[i])
			} else if !a.isNull(i) {
				out.f[i] = decFloat(a.d[i], c.from.scale)
			}
		}
	case c.to.k == tkTs:
		out.sec, out.ns = grow(out.sec, n), grow(out.ns, n)
		clear(out.ns)
		for i := 0; i < n; i++ {
			out.sec[i] = a.i[i] * 86400
		}
	default:
		out.i = append(grow(out.i, 0), a.i[:n]...) // a copy: out's arrays are grown
	}
	return nil
}

// toDecimal rescales exact values up to the target scale: in int64 where
// the value allows (the type's precision says it does; a value beyond it,
// from a file that breaks its type, takes the 128-bit path), else in 128
// bits.
func (c coercion) toDecimal(a *tvec, n int, out *tvec) error {
	out.d = grow(out.d, n)
	m := int64(math.Pow10(c.to.scale - c.from.scale))
	lim := int64(math.MaxInt64) / m
	small := c.from.prec+c.to.scale-c.from.scale <= 18
	for i := 0; i < n; i++ {
		var v orc.Int128
		if c.from.k == tkInt {
			if x := a.i[i]; small && x <= lim && x >= -lim {
				out.d[i] = orc.Int128FromInt64(x * m)
				continue
			}
			v = orc.Int128FromInt64(a.i[i])
		} else {
			v = a.d[i]
			if x := v.Int64(); small && v.IsInt64() && x <= lim && x >= -lim {
				out.d[i] = orc.Int128FromInt64(x * m)
				continue
			}
		}
		if a.isNull(i) {
			continue
		}
		r, _, ok := orc.Rescale(v, c.from.scale, c.to.scale)
		if !ok {
			return fmt.Errorf("row %d does not fit a decimal(38, %d)", i, c.to.scale)
		}
		out.d[i] = r
	}
	return nil
}

// decFloat returns the double nearest to a decimal.
func decFloat(u orc.Int128, s int) float64 {
	if u.IsInt64() {
		i := u.Int64()
		if s == 0 {
			return float64(i)
		}
		if i < 1<<53 && i > -(1<<53) && s <= 22 {
			return float64(i) / math.Pow10(s) // both exact: one rounding
		}
	}
	f, _ := new(big.Rat).SetFrac(u.Big(), pow10Big(s)).Float64()
	return f
}

func (c coercion) plain(args []any) (any, error) {
	switch {
	case c.to.k == tkDouble:
		return plainFloat(args[0]), nil
	case c.to.k == tkTs:
		if d, ok := args[0].(int64); ok {
			return tsVal{d * 86400, 0}, nil
		}
	}
	return args[0], nil
}

func (c coercion) ival(args []ival) ival {
	a := args[0]
	if !a.bounded {
		return a
	}
	switch c.to.k {
	case tkDouble:
		lo, _ := a.lo.r.Float64()
		hi, _ := a.hi.r.Float64()
		a.lo, a.hi = tval{f: lo}, tval{f: hi}
	case tkTs:
		a.lo, a.hi = tval{ts: tsVal{a.lo.r.Num().Int64() * 86400, 0}}, tval{ts: tsVal{a.hi.r.Num().Int64() * 86400, 0}}
	}
	return a
}
