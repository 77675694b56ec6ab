package sarg

// Arithmetic terms: +, -, *, /, % (MOD), unary minus, ABS, and the
// coercions between numeric types that SQL's promotion inserts.
//
// Exact numbers (integers and decimals) compute exactly: the result is an
// integer or a decimal whose scale is the larger of the two for +, - and
// %, their sum for *, with no rounding and no wrapping; Bind refuses a
// combination whose result could exceed 38 digits for some values of its
// arguments' types. A double on either side makes the operation IEEE
// double arithmetic. / always divides in double precision (as Hive does);
// division and % by zero give NULL (as Hive and Spark do).
//
// Intervals: exact arithmetic maps the bounds with exact rationals; double
// arithmetic maps them with the same IEEE operations, whose rounding is
// monotone, and gives up (unbounded) wherever a NaN could arise (inf - inf,
// 0 * inf, inf / inf) or a divisor may be zero.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/orcgo/orc"
)

func init() {
	for name, op := range arithOps {
		termFuncs[name] = bindArith
		if op == opNeg || op == opAbs {
			termFuncs[name] = bindUnary
		}
	}
}

// arithOp is one arithmetic operation.
type arithOp uint8

const (
	opAdd arithOp = iota
	opSub
	opMul
	opDiv
	opMod
	opNeg
	opAbs
)

var arithOps = map[string]arithOp{"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "%": opMod, "MOD": opMod, "NEG": opNeg, "ABS": opAbs}

func wantArgs(t Term, kids []*tnode, n int) error {
	if len(kids) != n {
		return termErrorf("%s takes %d argument(s), not %d", t.Fn, n, len(kids))
	}
	return nil
}

// bindArith binds a binary operation.
func bindArith(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 2); err != nil {
		return nil, ttype{}, nil, err
	}
	a, b := kids[0], kids[1]
	op := arithOps[t.Fn]
	if !a.t.numeric() || !b.t.numeric() {
		return nil, ttype{}, nil, termErrorf("%s needs a numeric column or term on both sides, not %s and %s: %s", t.Fn, a.t, b.t, t)
	}
	if op == opDiv || a.t.k == tkDouble || b.t.k == tkDouble {
		d := ttype{k: tkDouble}
		return doubleArith{op: op}, d, []*tnode{coerce(a, d), coerce(b, d)}, nil
	}
	s := max(a.t.scale, b.t.scale)
	ma := new(big.Int).Mul(a.t.maxAbs(), pow10Big(s-a.t.scale)) // at scale s
	mb := new(big.Int).Mul(b.t.maxAbs(), pow10Big(s-b.t.scale))
	var res ttype
	switch op {
	case opAdd, opSub:
		res = exactType(tkDec, s, new(big.Int).Add(ma, mb))
	case opMul:
		res = exactType(tkDec, a.t.scale+b.t.scale, new(big.Int).Mul(a.t.maxAbs(), b.t.maxAbs()))
	default: // %: |x % y| <= |x| and < |y|
		m := ma
		if mb.Cmp(m) < 0 {
			m = mb
		}
		res = exactType(tkDec, s, m)
	}
	if res.max.Cmp(maxDecimal) >= 0 || ma.Cmp(maxDecimal) >= 0 || mb.Cmp(maxDecimal) >= 0 {
		return nil, ttype{}, nil, termErrorf("%s could exceed the 38 digits of a decimal (%s %s %s); a double (CAST(... AS DOUBLE), or a constant such as 1e0) computes in double precision instead",
			t, a.t, t.Fn, b.t)
	}
	if a.t.k == tkInt && b.t.k == tkInt && res.max.IsInt64() {
		res.k = tkInt
		return intArith{op: op}, res, kids, nil
	}
	if op == opMul {
		return decArith{op: op, scale: res.scale}, res, []*tnode{coerce(a, exactType(tkDec, a.t.scale, a.t.maxAbs())),
			coerce(b, exactType(tkDec, b.t.scale, b.t.maxAbs()))}, nil
	}
	return decArith{op: op, scale: res.scale}, res, []*tnode{coerce(a, exactType(tkDec, s, ma)), coerce(b, exactType(tkDec, s, mb))}, nil
}

// bindUnary binds NEG and ABS.
func bindUnary(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 1); err != nil {
		return nil, ttype{}, nil, err
	}
	a := kids[0]
	op := arithOps[t.Fn]
	switch {
	case a.t.k == tkDouble:
		return doubleArith{op: op}, a.t, kids, nil
	case a.t.k == tkInt && a.t.maxAbs().IsInt64():
		return intArith{op: op}, a.t, kids, nil
	case a.t.exact():
		d := exactType(tkDec, a.t.scale, a.t.maxAbs())
		return decArith{op: op, scale: d.scale}, d, []*tnode{coerce(a, d)}, nil
	}
	return nil, ttype{}, nil, termErrorf("%s needs a numeric column or term, not %s: %s", t.Fn, a.t, t)
}

// ivalArith maps exact intervals.
func ivalArith(op arithOp, args []ival) ival {
	out := strictIval(args)
	if !out.val {
		return ival{null: out.null}
	}
	if op == opMod || op == opDiv {
		if !args[1].bounded || args[1].lo.r.Sign() <= 0 && args[1].hi.r.Sign() >= 0 {
			out.null = true // a zero divisor
		}
		if op == opMod {
			return modIval(out, args[0], args[1])
		}
	}
	if !out.bounded {
		return out
	}
	x := args[0]
	switch op {
	case opNeg:
		out.lo, out.hi = tval{r: new(big.Rat).Neg(x.hi.r)}, tval{r: new(big.Rat).Neg(x.lo.r)}
	case opAbs:
		lo, hi := absRangeR(x.lo.r, x.hi.r)
		out.lo, out.hi = tval{r: lo}, tval{r: hi}
	case opAdd:
		out.lo, out.hi = tval{r: new(big.Rat).Add(x.lo.r, args[1].lo.r)}, tval{r: new(big.Rat).Add(x.hi.r, args[1].hi.r)}
	case opSub:
		out.lo, out.hi = tval{r: new(big.Rat).Sub(x.lo.r, args[1].hi.r)}, tval{r: new(big.Rat).Sub(x.hi.r, args[1].lo.r)}
	case opMul:
		y := args[1]
		c := []*big.Rat{new(big.Rat).Mul(x.lo.r, y.lo.r), new(big.Rat).Mul(x.lo.r, y.hi.r), new(big.Rat).Mul(x.hi.r, y.lo.r), new(big.Rat).Mul(x.hi.r, y.hi.r)}
		lo, hi := c[0], c[0]
		for _, v := range c[1:] {
			if v.Cmp(lo) < 0 {
				lo = v
			}
			if v.Cmp(hi) > 0 {
				hi = v
			}
		}
		out.lo, out.hi = tval{r: lo}, tval{r: hi}
	}
	return out
}

// modIval bounds x % y: between 0 and x, below |y| in magnitude, and x
// itself where every |y| exceeds every |x|.
func modIval(out, x, y ival) ival {
	if !x.bounded {
		out.bounded = false
		return out
	}
	zero := new(big.Rat)
	lo, hi := x.lo.r, x.hi.r
	if lo.Sign() > 0 {
		lo = zero
	}
	if hi.Sign() < 0 {
		hi = zero
	}
	out.bounded = true
	out.lo, out.hi = tval{r: lo}, tval{r: hi}
	if !y.bounded {
		return out
	}
	m := new(big.Rat).Abs(y.lo.r) // max |y|
	if a := new(big.Rat).Abs(y.hi.r); a.Cmp(m) > 0 {
		m = a
	}
	if lo.Cmp(new(big.Rat).Neg(m)) < 0 {
		out.lo = tval{r: new(big.Rat).Neg(m)}
	}
	if hi.Cmp(m) > 0 {
		out.hi = tval{r: m}
	}
	if y.lo.r.Sign() > 0 || y.hi.r.Sign() < 0 { // y keeps one sign: min |y|
		mn := new(big.Rat).Abs(y.lo.r)
		if a := new(big.Rat).Abs(y.hi.r); a.Cmp(mn) < 0 {
			mn = a
		}
		ax := new(big.Rat).Abs(x.lo.r)
		if a := new(big.Rat).Abs(x.hi.r); a.Cmp(ax) > 0 {
			ax = a
		}
		if ax.Cmp(mn) < 0 {
			out.lo, out.hi = x.lo, x.hi // x % y = x
		}
	}
	return out
}

// plainArith computes one exact operation on rationals (nil: NULL).
func plainArith(op arithOp, args []any) (any, error) {
	x, ok := args[0].(*big.Rat)
	if !ok {
		return nil, fmt.Errorf("sarg: %v is no exact number", args[0])
	}
	var y *big.Rat
	if len(args) > 1 {
		if y, ok = args[1].(*big.Rat); !ok {
			return nil, fmt.Errorf("sarg: %v is no exact number", args[1])
		}
	}
	switch op {
	case opAdd:
		return new(big.Rat).Add(x, y), nil
	case opSub:
		return new(big.Rat).Sub(x, y), nil
	case opMul:
		return new(big.Rat).Mul(x, y), nil
	case opNeg:
		return new(big.Rat).Neg(x), nil
	case opAbs:
		return new(big.Rat).Abs(x), nil
	case opMod:
		if y.Sign() == 0 {
			return nil, nil
		}
		q := new(big.Rat).Quo(x, y)
		tr := new(big.Int).Quo(q.Num(), q.Denom()) // truncated toward zero
		return new(big.Rat).Sub(x, new(big.Rat).Mul(new(big.Rat).SetInt(tr), y)), nil
	}
	return nil, fmt.Errorf("sarg: bad exact operation %d", op)
}

// intArith computes on int64 values (Bind proved no overflow).
type intArith struct{ op arithOp }

func (f intArith) eval(args []*tvec, n int, out *tvec) error {
	r := grow(out.i, n)
	out.i = r
	x, y := args[0].i, []int64(nil)
	if len(args) > 1 {
		y = args[1].i
	}
	if arithLoop(f.op, x, y, r) {
		return nil
	}
	x = x[:len(r)] // no bounds checks in the loops
	if f.op == opAbs {
		for i, v := range x {
			s := v >> 63
			r[i] = (v ^ s) - s // |v| without a branch (max is one)
		}
		return nil
	}
	y = y[:len(r)]
	for i := range r { // %
		if y[i] == 0 {
			out.setNull(i, n)
			continue
		}
		r[i] = x[i] % y[i]
	}
	return nil
}

// arithLoop sets r[i] to x[i] op y[i] for op +, - or *, or to -x[i] for
// NEG (y unused; on int64 the callers' bounds rule out wrapping), and
// reports whether op is one of them. It is not inlined: inlined, it made its callers' own loops
// (/ and % on doubles) keep their index on the stack.
//
//go:noinline
func arithLoop[T int64 | float64](op arithOp, x, y, r []T) bool {
	x = x[:len(r)] // no bounds checks in the loops
	if op == opNeg {
		for i := range r {
			r[i] = -x[i]
		}
		return true
	}
	if op != opAdd && op != opSub && op != opMul {
		return false
	}
	y = y[:len(r)]
	switch op {
	case opAdd:
		for i := range r {
			r[i] = x[i] + y[i]
		}
	case opSub:
		for i := range r {
			r[i] = x[i] - y[i]
		}
	default:
		for i := range r {
			r[i] = x[i] * y[i]
		}
	}
	return true
}

func (f intArith) ival(args []ival) ival            { return ivalArith(f.op, args) }
func (f intArith) plain(args []any) (any, error)    { return plainArith(f.op, args) }
func (f decArith) ival(args []ival) ival            { return ivalArith(f.op, args) }
func (f decArith) plain(args []any) (any, error)    { return plainArith(f.op, args) }
func (f doubleArith) plain(args []any) (any, error) { return f.one(args) }

// decArith computes on 128-bit decimals: +, - and % at one scale, * at
// the sum of its arguments' scales.
type decArith struct {
	op    arithOp
	scale int
}

func (f decArith) eval(args []*tvec, n int, out *tvec) error {
	if f.evalNarrow(args, n, out) {
		return nil
	}
	for _, a := range args {
		a.widenDec(n)
	}
	out.d = grow(out.d, n)
	x := args[0]
	for i := 0; i < n; i++ {
		if x.isNull(i) || len(args) > 1 && args[1].isNull(i) {
			continue
		}
		var r orc.Int128
		overflow := false
		switch f.op {
		case opNeg:
			r = x.d[i].Neg()
		case opAbs:
			if r = x.d[i]; r.Sign() < 0 {
				r = r.Neg()
			}
		case opAdd:
			r, overflow = x.d[i].Add(args[1].d[i])
		case opSub:
			r, overflow = x.d[i].Add(args[1].d[i].Neg())
		case opMul:
			r, overflow = mul128(x.d[i], args[1].d[i])
		case opMod:
			var null bool
			r, null = mod128(x.d[i], args[1].d[i])
			if null {
				out.setNull(i, n)
			}
		}
		if overflow {
			return fmt.Errorf("row %d overflows a decimal(38, %d)", i, f.scale)
		}
		out.d[i] = r
	}
	return nil
}

// mod128 returns x % y (the sign of x), null for y = 0.
func mod128(x, y orc.Int128) (orc.Int128, bool) {
	if y.Sign() == 0 {
		return orc.Int128{}, true
	}
	if x.IsInt64() && y.IsInt64() && !(y.Int64() == -1) {
		return orc.Int128FromInt64(x.Int64() % y.Int64()), false
	}
	r, _ := orc.Int128FromBig(new(big.Int).Rem(x.Big(), y.Big()))
	return r, false
}

// doubleArith computes in IEEE double precision.
type doubleArith struct{ op arithOp }

func (f doubleArith) eval(args []*tvec, n int, out *tvec) error {
	r := grow(out.f, n)
	out.f = r
	x, y := args[0].f, []float64(nil)
	if len(args) > 1 {
		y = args[1].f
	}
	if arithLoop(f.op, x, y, r) {
		return nil
	}
	x = x[:len(r)] // no bounds checks in the loops
	if f.op == opAbs {
		for i := range r {
			r[i] = math.Abs(x[i])
		}
		return nil
	}
	y = y[:len(r)]
	for i := range r { // / and %
		if y[i] == 0 {
			out.setNull(i, n)
			continue
		}
		if f.op == opDiv {
			r[i] = x[i] / y[i]
		} else {
			r[i] = math.Mod(x[i], y[i])
		}
	}
	return nil
}

// one computes one row.
func (f doubleArith) one(args []any) (any, error) {
	x := plainFloat(args[0])
	if f.op == opNeg {
		return -x, nil
	}
	if f.op == opAbs {
		return math.Abs(x), nil
	}
	y := plainFloat(args[1])
	switch f.op {
	case opAdd:
		return x + y, nil
	case opSub:
		return x - y, nil
	case opMul:
		return x * y, nil
	}
	if y == 0 {
		return nil, nil
	}
	if f.op == opDiv {
		return x / y, nil
	}
	return math.Mod(x, y), nil
}

func (f doubleArith) ival(args []ival) ival {
	out := strictIval(args)
	if !out.val {
		return ival{null: out.null}
	}
	if (f.op == opDiv || f.op == opMod) && (!args[1].bounded || args[1].lo.f <= 0 && args[1].hi.f >= 0) {
		out.null = true
		out.bounded = false
	}
	if !out.bounded {
		return out
	}
	x := args[0]
	var c []float64
	switch f.op {
	case opNeg:
		c = []float64{-x.lo.f, -x.hi.f}
	case opAbs:
		lo, hi := absRangeF(x.lo.f, x.hi.f)
		c = []float64{lo, hi}
	case opMod:
		if math.IsInf(x.lo.f, 0) || math.IsInf(x.hi.f, 0) {
			out.bounded = false
			return out
		}
		c = []float64{min(0, x.lo.f), max(0, x.hi.f)}
	default:
		y := args[1]
		c = []float64{f.op.float(x.lo.f, y.lo.f), f.op.float(x.lo.f, y.hi.f), f.op.float(x.hi.f, y.lo.f), f.op.float(x.hi.f, y.hi.f)}
		if f.mayNaN(x, y) {
			out.bounded = false
			return out
		}
	}
	out.lo, out.hi = tval{f: c[0]}, tval{f: c[0]}
	for _, v := range c {
		if v != v {
			out.bounded = false
			return out
		}
		out.lo.f, out.hi.f = min(out.lo.f, v), max(out.hi.f, v)
	}
	return out
}

// float applies a binary operation.
func (op arithOp) float(x, y float64) float64 {
	switch op {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	}
	return x / y
}

// mayNaN reports whether x op y may be NaN for values of the intervals
// (which hold no NaN).
func (f doubleArith) mayNaN(x, y ival) bool {
	pinf := func(v ival) bool { return math.IsInf(v.hi.f, 1) }
	ninf := func(v ival) bool { return math.IsInf(v.lo.f, -1) }
	inf := func(v ival) bool { return pinf(v) || ninf(v) }
	zero := func(v ival) bool { return v.lo.f <= 0 && v.hi.f >= 0 }
	switch f.op {
	case opAdd:
		return pinf(x) && ninf(y) || ninf(x) && pinf(y)
	case opSub:
		return pinf(x) && pinf(y) || ninf(x) && ninf(y)
	case opMul:
		return inf(x) && zero(y) || zero(x) && inf(y)
	}
	return inf(x) && inf(y) || zero(y)
}
