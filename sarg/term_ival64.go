package sarg

// Term intervals in int64: a fast path for pruning with terms over exact
// numbers, dates and booleans. The general intervals (ival) hold exact
// numbers as rationals, which cost a few allocations an operation; most
// statistics and literals (money, quantities, dates) are small. Where
// every node of a term is an integer, a decimal, a date or a boolean
// computed by +, -, *, unary minus, ABS, a rescaling or a comparison,
// each node's bounds are held as int64 unscaled values at the node's
// scale (0 for integers, dates and booleans), and every operation checks
// for overflow. When a statistic, a literal or a result does not fit, the
// whole term is computed again with rationals. The int64 bounds are the
// rationals' bounds exactly (no rounding happens on either path), so the
// outcomes are the same: a sound over-approximation of the unit's rows,
// as ival's.

import (
	"math"
	"math/big"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// ival64 is an ival whose bounds are int64 unscaled values at the scale
// of their node (scale64).
type ival64 struct {
	val, null, bounded bool
	lo, hi             int64
}

// scale64 returns the scale of the node's int64 bounds.
func (nd *tnode) scale64() int {
	if nd.t.k == tkDec {
		return nd.t.scale
	}
	return 0
}

// prepFast decides whether the node's intervals can be computed in int64
// (nd.fast), given its children's; a literal's value is converted once.
// It is called on every node of a bound term, children first.
func (nd *tnode) prepFast() {
	nd.fast = false
	switch nd.t.k {
	case tkInt, tkDec, tkDate, tkBool:
	default:
		return
	}
	for _, k := range nd.kids {
		if !k.fast {
			return
		}
	}
	switch f := nd.fn.(type) {
	case nil:
		if nd.col != nil {
			nd.fast = true
			return
		}
		nd.lit64, nd.fast = lit64Of(nd.lit, nd.scale64())
	case intArith:
		nd.fast = arithFast(f.op, nd)
	case decArith:
		nd.fast = arithFast(f.op, nd)
	case coercion:
		d := nd.scale64() - nd.kids[0].scale64()
		nd.fast = f.from.exact() && (f.to.k == tkDec || f.to.k == tkInt) && d >= 0 && d < len(pow10Int64)
	case compareFn:
		nd.fast = !f.mixed && f.k != tkDouble && len(nd.kids) == 2 && nd.kids[0].scale64() == nd.kids[1].scale64()
	}
}

// arithFast reports whether an arithmetic node computes its bounds in
// int64: +, -, * and the unary operations, with the scales Bind gave.
func arithFast(op arithOp, nd *tnode) bool {
	s := nd.scale64()
	switch op {
	case opNeg, opAbs:
		return len(nd.kids) == 1 && nd.kids[0].scale64() == s
	case opAdd, opSub:
		return len(nd.kids) == 2 && nd.kids[0].scale64() == s && nd.kids[1].scale64() == s
	case opMul:
		return len(nd.kids) == 2 && nd.kids[0].scale64()+nd.kids[1].scale64() == s
	}
	return false
}

// lit64Of returns a literal's value as an int64 unscaled at scale, if it
// is one exactly.
func lit64Of(v any, scale int) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, scale == 0
	case bool:
		return b2i(x), scale == 0
	case *big.Rat:
		if scale < 0 || scale >= len(pow10Int64) {
			return 0, false
		}
		n := new(big.Int).Mul(x.Num(), big.NewInt(pow10Int64[scale]))
		q, m := new(big.Int).QuoRem(n, x.Denom(), new(big.Int))
		if m.Sign() != 0 || !q.IsInt64() {
			return 0, false
		}
		return q.Int64(), true
	}
	return 0, false
}

// ival64Of returns the interval of the term's values on the unit src in
// int64, as ivalOf does with rationals; ok is false when the term is not
// fast or some bound does not fit (then ivalOf decides).
func (nd *tnode) ival64Of(src Source) (iv ival64, ok bool) {
	switch {
	case !nd.fast:
		return ival64{}, false
	case nd.col != nil:
		return nd.columnIval64(src)
	case nd.fn == nil:
		return ival64{val: true, bounded: true, lo: nd.lit64, hi: nd.lit64}, true
	}
	var args [2]ival64
	for i, k := range nd.kids {
		if args[i], ok = k.ival64Of(src); !ok {
			return ival64{}, false
		}
		if !args[i].val && !args[i].null {
			return ival64{}, true // no rows (see ivalOf1)
		}
	}
	switch f := nd.fn.(type) {
	case intArith:
		return arith64(f.op, args[:len(nd.kids)])
	case decArith:
		return arith64(f.op, args[:len(nd.kids)])
	case coercion:
		a := args[0]
		m := pow10Int64[nd.scale64()-nd.kids[0].scale64()]
		if a.bounded {
			var ok1, ok2 bool
			a.lo, ok1 = mul64(a.lo, m)
			a.hi, ok2 = mul64(a.hi, m)
			if !ok1 || !ok2 {
				return ival64{}, false
			}
		}
		return a, true
	case compareFn:
		return f.ival64(args[0], args[1]), true
	}
	return ival64{}, false
}

// columnIval64 reads a column's statistics as columnIval does, in int64.
func (nd *tnode) columnIval64(src Source) (ival64, bool) {
	st, hasNull, ok := unitNulls(src, nd.colID, nd.col.Kind, nd.anc)
	if !ok {
		return ival64{val: true, null: true}, true
	}
	if st.NumValues == 0 {
		return ival64{null: hasNull}, true
	}
	iv := ival64{val: true, null: hasNull}
	switch nd.t.k {
	case tkInt, tkDate, tkBool:
		r := intRange(nd.col.Kind, st)
		if nd.t.k == tkBool {
			r = boolRange(st)
		}
		if r.hasLo && r.hasHi && r.lo <= r.hi {
			iv.bounded, iv.lo, iv.hi = true, r.lo, r.hi
		}
	case tkDec:
		r := decimalRange(st)
		if r.hasLo && r.hasHi && cmpDecimal(r.lo, r.hi) <= 0 {
			var ok1, ok2 bool
			iv.lo, ok1 = decAt64(r.lo, nd.t.scale)
			iv.hi, ok2 = decAt64(r.hi, nd.t.scale)
			if !ok1 || !ok2 {
				return ival64{}, false
			}
			iv.bounded = true
		}
	default:
		return ival64{}, false
	}
	return iv, true
}

// decAt64 returns d's value unscaled at scale as an int64, if it is one
// exactly.
func decAt64(d stats.DecimalValue, scale int) (int64, bool) {
	if !d.Unscaled.IsInt64() {
		return 0, false
	}
	u := d.Unscaled.Int64()
	switch e := scale - d.Scale; {
	case e >= 0 && e < len(pow10Int64):
		return mul64(u, pow10Int64[e])
	case e < 0 && -e < len(pow10Int64):
		m := pow10Int64[-e]
		return u / m, u%m == 0
	}
	return 0, false
}

// arith64 maps int64 intervals as ivalArith maps rational ones, for +, -,
// *, unary minus and ABS; ok is false on an overflow.
func arith64(op arithOp, args []ival64) (ival64, bool) {
	out := ival64{val: true, bounded: true}
	for _, a := range args {
		out.null = out.null || a.null
		out.val = out.val && a.val
		out.bounded = out.bounded && a.bounded
	}
	if !out.val {
		return ival64{null: out.null}, true
	}
	if !out.bounded {
		return out, true
	}
	x := args[0]
	var ok1, ok2 bool
	switch op {
	case opNeg:
		out.lo, ok1 = neg64(x.hi)
		out.hi, ok2 = neg64(x.lo)
	case opAbs:
		out.lo, out.hi, ok1 = absRange64(x.lo, x.hi)
		ok2 = true
	case opAdd:
		out.lo, ok1 = add64(x.lo, args[1].lo)
		out.hi, ok2 = add64(x.hi, args[1].hi)
	case opSub:
		out.lo, ok1 = sub64(x.lo, args[1].hi)
		out.hi, ok2 = sub64(x.hi, args[1].lo)
	case opMul:
		out.lo, out.hi, ok1 = mulRange64(x, args[1])
		ok2 = true
	}
	return out, ok1 && ok2
}

// absRange64 returns the range of |v| for v in lo..hi.
func absRange64(lo, hi int64) (int64, int64, bool) {
	switch {
	case lo >= 0:
		return lo, hi, true
	case hi <= 0:
		l, ok1 := neg64(hi)
		h, ok2 := neg64(lo)
		return l, h, ok1 && ok2
	}
	m, ok := neg64(lo)
	return 0, max(m, hi), ok
}

// mulRange64 returns the range of x * y: the least and the greatest of
// the bounds' four products.
func mulRange64(x, y ival64) (lo, hi int64, ok bool) {
	c := [4][2]int64{{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}}
	for i, p := range c {
		v, fits := mul64(p[0], p[1])
		if !fits {
			return 0, 0, false
		}
		if i == 0 {
			lo, hi = v, v
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi, true
}

// add64, sub64, mul64 and neg64 compute in int64 and report whether the
// result is exact (no overflow).
func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, (a^s)&(b^s) >= 0 // overflow: both operands' signs differ from the sum's
}

func sub64(a, b int64) (int64, bool) {
	s := a - b
	return s, (a^b)&(a^s) >= 0 // overflow: operands of different signs, sum of b's sign
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return a * b, a == 1 || b == 1 // x * MinInt64 fits only for x = 1
	}
	p := a * b
	return p, p/b == a
}

func neg64(a int64) (int64, bool) { return -a, a != math.MinInt64 }

// ival64 decides the comparison as ival does.
func (f compareFn) ival64(a, b ival64) ival64 {
	var t, fl bool
	if a.val && b.val {
		if !a.bounded || !b.bounded {
			t, fl = true, true
		} else {
			ra := rng[int64]{lo: a.lo, hi: a.hi, hasLo: true, hasHi: true, cmp: cmpOrdered[int64]}
			rb := rng[int64]{lo: b.lo, hi: b.hi, hasLo: true, hasHi: true, cmp: cmpOrdered[int64]}
			t, fl = colsOutcome(&ra, &rb, f.leafOp())
		}
	}
	t, fl, null := f.withNulls(t, fl, a.null, a.val, b.null, b.val)
	// As boolIval: bounds 0 (false) and 1 (true).
	iv := ival64{val: t || fl, null: null, bounded: t || fl, lo: 1}
	if fl {
		iv.lo = 0
	}
	if t {
		iv.hi = 1
	}
	return iv
}

// stats returns the statistics object ival.stats returns for the same
// interval of a node of type t.
func (iv ival64) stats(t ttype) *stats.Column {
	if !iv.val || !iv.bounded {
		return ival{val: iv.val, null: iv.null}.stats(t)
	}
	m := &stats.Column{Kind: t.schema().Kind, HasNull: iv.null, HasNullKnown: true, NumValues: 2}
	switch t.k {
	case tkInt:
		m.Int = &stats.IntStats{Min: iv.lo, Max: iv.hi, HasMinMax: true}
	case tkBool:
		tc := uint64(1)
		switch {
		case iv.hi == 0:
			tc = 0
		case iv.lo > 0:
			tc = 2
		}
		m.Bool = &stats.BoolStats{TrueCount: tc}
	case tkDate:
		if iv.lo >= -1<<31 && iv.hi < 1<<31 {
			m.Date = &stats.DateStats{Min: int32(iv.lo), Max: int32(iv.hi), HasMinMax: true}
		}
	case tkDec:
		m.Decimal = &stats.DecimalStats{
			Min:       stats.DecimalValue{Unscaled: orc.Int128FromInt64(iv.lo), Scale: t.scale},
			Max:       stats.DecimalValue{Unscaled: orc.Int128FromInt64(iv.hi), Scale: t.scale},
			HasMinMax: true,
		}
	}
	return m
}

// rat returns iv as an ival of a node at scale (for tests and explain).
func (iv ival64) rat(scale int) ival {
	out := ival{val: iv.val, null: iv.null, bounded: iv.bounded}
	if iv.bounded {
		d := pow10Big(scale)
		out.lo = tval{r: new(big.Rat).SetFrac(big.NewInt(iv.lo), d)}
		out.hi = tval{r: new(big.Rat).SetFrac(big.NewInt(iv.hi), d)}
	}
	return out
}
