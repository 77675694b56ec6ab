package sarg

// Narrow exact numbers: a fast path for decimal terms whose values fit in
// 64 bits. Decimal columns hold 128-bit values, and 128-bit arithmetic
// and comparisons cost several times their 64-bit forms; most decimal
// data (money, quantities) is far smaller. A batch's decimal values are
// read as int64 where every one of them fits, together with a bound on
// their magnitude (every |value| < 2^mag), and each operation decides
// from its arguments' bounds whether its results fit in an int64 for
// every row: then it computes in int64 with no check per row, else it
// computes the batch in 128 bits as before. Results are the same either
// way: the int64 path is taken only where it cannot overflow. The bounds
// cover every row, null ones too (whatever value they hold), so that no
// row is left out of the proof.

import (
	"math"
	"math/bits"

	"github.com/orcgo/orc"
)

// forceWide turns the narrow paths and compareFn.outcomes off, so that
// tests can compare them with the general paths; it is never set outside
// tests.
var forceWide = false

// narrowMax is the largest magnitude bound (in bits) whose values fit in
// an int64: |v| < 2^63.
const narrowMax = 63

// narrowAware marks functions that read decimal arguments in their
// narrow form themselves (and widen them when they need to); the
// arguments of other functions are widened before they run.
type narrowAware interface{ readsNarrow() }

func (decArith) readsNarrow()  {}
func (coercion) readsNarrow()  {}
func (compareFn) readsNarrow() {}

// magOf returns the bit length of the largest magnitude in xs: every
// |x| < 2^magOf(xs) (64 for math.MinInt64).
func magOf(xs []int64) int {
	var acc uint64
	for _, x := range xs {
		s := x >> 63
		acc |= uint64((x ^ s) - s)
	}
	return bits.Len64(acc)
}

// narrowDec makes v's decimal values available as int64 in v.n64 and
// reports whether they are: every value of rows 0..n-1 fits and their
// magnitude bound is at most narrowMax.
func (v *tvec) narrowDec(n int) bool {
	if v.narrow && len(v.n64) >= n {
		return true
	}
	// A literal's values are kept from batch to batch (broadcast): its
	// int64 form may have been made for fewer rows than this batch has.
	if v.wideOnly || forceWide {
		return false // tried on this batch already
	}
	v.n64 = grow(v.n64, n)
	var bad int64
	var acc uint64
	for i, x := range v.d[:n] {
		lo := int64(x.Lo)
		bad |= x.Hi ^ (lo >> 63)
		s := lo >> 63
		acc |= uint64((lo ^ s) - s)
		v.n64[i] = lo
	}
	v.mag = bits.Len64(acc)
	if bad != 0 || v.mag > narrowMax {
		v.wideOnly = true
		return false
	}
	v.narrow = true
	return true
}

// widenDec makes v's decimal values available as orc.Int128 in v.d.
func (v *tvec) widenDec(n int) {
	if !v.narrowOnly {
		return
	}
	v.d = grow(v.d, n)
	for i, x := range v.n64[:n] {
		v.d[i] = orc.Int128FromInt64(x)
	}
	v.narrowOnly = false
}

// setNarrow marks v as holding its values in v.n64 only, each below
// 2^mag in magnitude.
func (v *tvec) setNarrow(mag int) {
	v.narrow, v.narrowOnly, v.wideOnly, v.mag = true, true, false, mag
}

// resetNarrow forgets the narrow form of v's values (new values).
func (v *tvec) resetNarrow() { v.narrow, v.narrowOnly, v.wideOnly = false, false, false }

// exact64 returns an exact argument's values as int64 and their
// magnitude bound, when they fit: integers always do, decimals when
// narrowDec finds they do.
func exact64(a *tvec, k tkind, n int) ([]int64, int, bool) {
	if k == tkInt && !forceWide {
		return a.i[:n], magOf(a.i[:n]), true
	}
	if !a.narrowDec(n) {
		return nil, 0, false
	}
	return a.n64[:n], a.mag, true
}

// evalNarrow computes the operation in int64 when both arguments are
// narrow and the bounds prove every result fits; it reports whether it
// did.
func (f decArith) evalNarrow(args []*tvec, n int, out *tvec) bool {
	if len(args) == 2 && f.op != opMod && !forceWide && (args[0].untried() || args[1].untried()) {
		if ok, done := f.evalFused(args[0], args[1], n, out); done {
			return ok
		}
	}
	x, mx, ok := exact64(args[0], tkDec, n)
	if !ok {
		return false
	}
	var y []int64
	my := 0
	if len(args) > 1 {
		if y, my, ok = exact64(args[1], tkDec, n); !ok {
			return false
		}
	}
	mag := mx
	switch f.op {
	case opAdd, opSub:
		mag = max(mx, my) + 1
	case opMul:
		mag = mx + my
	}
	if mag > narrowMax {
		return false
	}
	r := grow(out.n64, n)
	out.n64 = r
	switch f.op {
	case opNeg, opAdd, opSub, opMul:
		arithLoop(f.op, x, y, r)
	case opAbs:
		for i, v := range x {
			s := v >> 63
			r[i] = (v ^ s) - s
		}
	case opMod:
		for i := range r {
			if y[i] == 0 {
				r[i] = 0
				out.setNull(i, n)
				continue
			}
			r[i] = x[i] % y[i] // no MinInt64 / -1: |x| < 2^63
		}
	}
	out.setNarrow(mag)
	return true
}

// untried reports whether v holds its decimal values in v.d only, not
// yet read as int64 (a column's, a literal's, or a 128-bit result).
func (v *tvec) untried() bool { return !v.narrow && !v.narrowOnly && !v.wideOnly }

// evalFused computes x op y (+, - or *) in int64 where one argument holds
// 128-bit values not yet read as int64 (a column's): it reads their low
// words, checking in the same pass that they fit and bounding them, which
// spares a pass writing them as int64 first. It reports whether it
// computed the batch (done) and whether the checks and bounds prove every
// result exact (ok; else the caller computes in 128 bits).
func (f decArith) evalFused(x, y *tvec, n int, out *tvec) (ok, done bool) {
	// A literal's int64 form is kept from batch to batch: read the other
	// argument's low words when both are untried.
	wideFirst := x.untried() && !(y.untried() && x.filled > 0)
	w, nv := x, y
	if !wideFirst {
		w, nv = y, x
	}
	if !nv.narrowDec(n) {
		return false, false // both 128-bit: the general path tries each
	}
	r := grow(out.n64, n)
	out.n64 = r
	var bad int64
	var acc uint64
	if nv.filled > 0 && n > 0 { // a literal: one value, held in a register
		bad, acc = lowArith(f.op, w.d[:n], nil, nv.n64[0], r, wideFirst)
	} else {
		bad, acc = lowArith(f.op, w.d[:n], nv.n64[:n], 0, r, wideFirst)
	}
	mw := bits.Len64(acc)
	mag := max(mw, nv.mag) + 1
	if f.op == opMul {
		mag = mw + nv.mag
	}
	if bad != 0 || mw > narrowMax || mag > narrowMax {
		return false, true
	}
	out.setNarrow(mag)
	return true, true
}

// lowArith sets r[i] to w[i] op v[i] (v[i] op w[i] unless wideFirst),
// or with v nil w[i] op c, computed on w's low words, and returns whether
// some w[i] does not fit in an int64 (nonzero) and the OR of the low
// words' magnitudes.
func lowArith(op arithOp, w []orc.Int128, v []int64, c int64, r []int64, wideFirst bool) (bad int64, acc uint64) {
	switch {
	case op == opAdd:
		return lowLoop[[lowAdd]int8](w, v, c, r)
	case op == opMul:
		return lowLoop[[lowMul]int8](w, v, c, r)
	case wideFirst:
		return lowLoop[[lowSub]int8](w, v, c, r)
	}
	return lowLoop[[lowRSub]int8](w, v, c, r)
}

// Operations of a column's low word a with the other side b (lowKind).
const (
	lowAdd  = iota // a + b
	lowSub         // a - b
	lowRSub        // b - a
	lowMul         // a * b
)

// lowKind names an operation (lowAdd and the others) by an array's
// length, so that the loops generic in it are compiled once per
// operation with lowOp's switch folded away, as testKind does for tests.
type lowKind interface {
	[lowAdd]int8 | [lowSub]int8 | [lowRSub]int8 | [lowMul]int8
}

// lowOp returns a op b for operation O (wrapping; callers' bounds rule
// that out). Small enough to inline, its switch folded.
func lowOp[O lowKind](a, b int64) int64 {
	var o O
	switch len(o) {
	case lowAdd:
		return a + b
	case lowSub:
		return a - b
	case lowRSub:
		return b - a
	}
	return a * b
}

// lowLoop is lowArith for operation O. (Each loop reads a low word a,
// ORs into bad the bits by which x differs from a sign-extended a, and
// into acc |a|; a function for that step cost an instruction per row.)
func lowLoop[O lowKind](w []orc.Int128, v []int64, c int64, r []int64) (bad int64, acc uint64) {
	r = r[:len(w)]
	if v == nil {
		for i, x := range w {
			a := int64(x.Lo)
			s := a >> 63
			bad |= x.Hi ^ s
			acc |= uint64((a ^ s) - s)
			r[i] = lowOp[O](a, c)
		}
		return bad, acc
	}
	v = v[:len(w)]
	for i, x := range w {
		a := int64(x.Lo)
		s := a >> 63
		bad |= x.Hi ^ s
		acc |= uint64((a ^ s) - s)
		r[i] = lowOp[O](a, v[i])
	}
	return bad, acc
}

// toDecimalNarrow rescales narrow values up by 10^(to.scale - from.scale)
// when the bound proves every result fits in an int64; it reports
// whether it did.
func (c coercion) toDecimalNarrow(a *tvec, n int, out *tvec) bool {
	x, mx, ok := exact64(a, c.from.k, n)
	if !ok {
		return false
	}
	d := c.to.scale - c.from.scale
	if d < 0 || d > 18 {
		return false
	}
	m := pow10Int64[d]
	mag := mx // |v * 10^d| < 2^mx * 2^Len(10^d), and v itself for d = 0
	if d > 0 {
		mag += bits.Len64(uint64(m))
	}
	if mag > narrowMax {
		return false
	}
	r := grow(out.n64, n)
	out.n64 = r
	for i, v := range x {
		r[i] = v * m
	}
	out.setNarrow(mag)
	return true
}

// toDoubleNarrow converts narrow decimals to the nearest doubles as
// decFloat does, when every value is exact as a double (|v| < 2^53); it
// reports whether it did.
func (c coercion) toDoubleNarrow(a *tvec, n int, out *tvec) bool {
	if c.from.k != tkDec || c.from.scale > 22 || !a.narrowDec(n) || a.mag > 53 {
		return false
	}
	out.f = grow(out.f, n)
	p := math.Pow10(c.from.scale)
	if c.from.scale == 0 {
		for i, v := range a.n64[:n] {
			out.f[i] = float64(v)
		}
		return true
	}
	for i, v := range a.n64[:n] {
		out.f[i] = float64(v) / p // both exact: one rounding, as decFloat
	}
	return true
}

// pow10Int64 holds 10^0 .. 10^18.
var pow10Int64 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// b2u8 returns 1 for true and 0 for false without a branch: a
// comparison's outcome on random data mispredicts a branch half of the
// time. The compiler turns this form into the comparison's flag (SETcc on
// amd64) held in a register; reading the bool's byte through a pointer
// made it store the flag to the stack and load it back in every row.
func b2u8(b bool) uint8 {
	var x uint8
	if b {
		x = 1
	}
	return x
}

// compareInt64 sets out[i] to whether x[i] op y[i] (0 or 1).
func compareInt64(op cmpOp, x, y []int64, out []int64) {
	y = y[:len(x)]
	out = out[:len(x)]
	switch op {
	case cmpLt:
		for i := range x {
			out[i] = int64(b2u8(x[i] < y[i]))
		}
	case cmpLe:
		for i := range x {
			out[i] = int64(b2u8(x[i] <= y[i]))
		}
	default:
		for i := range x {
			out[i] = int64(b2u8(x[i] == y[i]))
		}
	}
}

// decsAsInts returns ds as int64, or nil when one does not fit (or there
// is none).
func decsAsInts(ds []orc.Int128) []int64 {
	if len(ds) == 0 {
		return nil
	}
	out := make([]int64, len(ds))
	if !decsFit(out, ds) {
		return nil
	}
	return out
}

// decsFit copies xs into dst (of the same length) as int64 and reports
// whether every value fits.
func decsFit(dst []int64, xs []orc.Int128) bool {
	dst = dst[:len(xs)]
	var bad int64
	for i, x := range xs {
		lo := int64(x.Lo)
		bad |= x.Hi ^ (lo >> 63)
		dst[i] = lo
	}
	return bad == 0
}

// outcomes sets out[i] to the row outcome of the comparison (rowTrue,
// rowFalse or rowNull) for comparisons of integers, dates, booleans,
// doubles and decimals that fit in int64, and reports whether it did; the
// other kinds go through eval.
func (f compareFn) outcomes(args []*tvec, n int, out []uint8) bool {
	a, b := args[0], args[1]
	out = out[:n]
	switch {
	case f.mixed || forceWide:
		return false
	case f.k == tkInt || f.k == tkDate || f.k == tkBool:
		outcomesOf(f.op, a.i[:n], b.i[:n], out)
	case f.k == tkDec && a.narrowDec(n) && b.narrowDec(n):
		outcomesOf(f.op, a.n64[:n], b.n64[:n], out)
	case f.k == tkDouble:
		outcomesFloat(f.op, a.f[:n], b.f[:n], out)
	default:
		return false
	}
	if a.null == nil && b.null == nil {
		return true
	}
	for i := range out {
		if an, bn := a.isNull(i), b.isNull(i); an || bn {
			if f.op == cmpNullSafe {
				out[i] = t2(an && bn)
			} else {
				out[i] = rowNull
			}
		}
	}
	return true
}

// outcomesOf sets out[i] to t2(x[i] op y[i]).
func outcomesOf(op cmpOp, x, y []int64, out []uint8) {
	y, out = y[:len(x)], out[:len(x)]
	switch op {
	case cmpLt, cmpLe:
		lessRegs8(x, y, op == cmpLe, out)
	default:
		for i := range x {
			out[i] = t2(x[i] == y[i])
		}
	}
}

// outcomesFloat sets out[i] to t2(x[i] op y[i]) in cmpFloat's order: NaN
// above every number and equal to itself, -0.0 equal to 0.0.
func outcomesFloat(op cmpOp, x, y []float64, out []uint8) {
	y, out = y[:len(x)], out[:len(x)]
	switch op {
	case cmpLt:
		for i, a := range x {
			b := y[i]
			// a < b, or a is a number and b NaN
			out[i] = (b2u8(a < b) | b2u8(a == a)&b2u8(b != b)) * rowTrue
		}
	case cmpLe:
		for i, a := range x {
			b := y[i]
			out[i] = (b2u8(a <= b) | b2u8(b != b)) * rowTrue
		}
	default:
		for i, a := range x {
			b := y[i]
			out[i] = (b2u8(a == b) | b2u8(a != a)&b2u8(b != b)) * rowTrue
		}
	}
}
