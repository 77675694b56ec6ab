package sarg

// A kernel's last operation fused into its comparison. The last
// operation of a kernel computes the register that the comparison reads
// (one side of x op y, or the value compared with the inner leaf's
// literals); run apart, it stores a chunk's results and the comparison
// loads them back. Where that operation reads a decimal column known to
// fit in an int64 (by its low words, lowConst's and lowRegs' case) and
// the comparison is an interval test, the two run as one loop that
// keeps each result in a register of the CPU: t = v, or t = v - o for a
// comparison with another side o, is tested against [a, b] as between8
// tests (t - a, modulo 2^64, at most b - a).
//
// The comparisons become intervals so: x = c is [c, c], x < c is
// [MinInt64, c-1], x <= c [MinInt64, c], BETWEEN c1 AND c2 [c1, c2],
// their negations by < and <= (x >= c, x > c) [c, MaxInt64] and
// [c+1, MaxInt64]. A comparison of two sides, one the fused value v,
// tests d = v - o: v < o is d in [MinInt64, -1], o < v is d in
// [1, MaxInt64], v <= o [MinInt64, 0], o <= v [0, MaxInt64], v = o
// [0, 0]. That difference is exact only where |v| and |o| are below
// 2^62, which the chunk's magnitude bounds must show; otherwise, and for
// any other form, the operation and the comparison run apart.

import (
	"math"

	"github.com/orcgo/orc"
)

// fuseMax is the largest magnitude bound (|v| < 2^fuseMax) of two sides
// whose difference the fused comparison takes: it fits in an int64.
const fuseMax = 62

// fusedTest is the interval test of a fused comparison on t = v (other
// nil, with no other side) or t = v - other[i]: t in [a, b], or no row
// when none.
type fusedTest struct {
	a, b  int64
	none  bool
	other []int64
}

// lastFusable reports whether the kernel's last operation may fuse with
// its comparison, as far as its form tells: it reads a decimal column
// and a literal or a register, and writes the register compared.
func (k *kernel) lastFusable() bool {
	if len(k.code) == 0 {
		return false
	}
	in := &k.code[len(k.code)-1]
	if in.op != opAdd && in.op != opSub && in.op != opMul {
		return false
	}
	if (in.a.kind == kWide) == (in.b.kind == kWide) {
		return false // two columns, or none
	}
	if o := in.b; in.b.kind == kWide {
		if o = in.a; o.kind != kConst && o.kind != kReg {
			return false
		}
	} else if o.kind != kConst && o.kind != kReg {
		return false
	}
	reads := func(o kopnd) bool { return o.kind == kReg && o.reg == in.dst }
	if k.holds {
		return k.cmp != cmpNullSafe && reads(k.x) != reads(k.y)
	}
	switch k.inner.op {
	case LeafEquals, LeafLessThan, LeafLessThanEquals, LeafBetween:
		return reads(k.x)
	}
	return false
}

// fusedInterval returns the test of the comparison on the fused value,
// with neg its NOT (only for < and <=, as outcomes takes it), or false
// where the chunk's bounds (mv the fused value's) do not allow it.
func (k *kernel) fusedInterval(ks *kernScratch, mv, m int, neg bool) (fusedTest, bool) {
	last := k.code[len(k.code)-1].dst
	if !k.holds {
		return k.literalInterval(neg), true
	}
	other, vLeft := k.y, true
	if k.y.kind == kReg && k.y.reg == last {
		other, vLeft = k.x, false
	}
	mo := 0
	if other.kind == kConst {
		mo = constMag(other.c)
	} else {
		mo = ks.mag[other.reg]
	}
	if mv > fuseMax || mo > fuseMax {
		return fusedTest{}, false
	}
	op := k.cmp
	if neg { // NOT x < y is y <= x, NOT x <= y is y < x
		op, vLeft = cmpLt+cmpLe-op, !vLeft
	}
	t := fusedTest{other: k.operand(other, ks, m)}
	switch {
	case op == cmpEq:
		t.a, t.b = 0, 0
	case op == cmpLt && vLeft:
		t.a, t.b = math.MinInt64, -1
	case op == cmpLt:
		t.a, t.b = 1, math.MaxInt64
	case vLeft: // v <= o
		t.a, t.b = math.MinInt64, 0
	default: // o <= v
		t.a, t.b = 0, math.MaxInt64
	}
	return t, true
}

// literalInterval returns the inner leaf's test of the fused value
// against its literals (or, with neg, of NOT x < c and NOT x <= c).
func (k *kernel) literalInterval(neg bool) fusedTest {
	c := k.lits[0]
	switch op := k.inner.op; {
	case neg && op == LeafLessThan:
		return fusedTest{a: c, b: math.MaxInt64}
	case neg:
		return fusedTest{a: c + 1, b: math.MaxInt64, none: c == math.MaxInt64}
	case op == LeafEquals:
		return fusedTest{a: c, b: c}
	case op == LeafLessThan:
		return fusedTest{a: math.MinInt64, b: c - 1, none: c == math.MinInt64}
	case op == LeafLessThanEquals:
		return fusedTest{a: math.MinInt64, b: c}
	}
	return fusedTest{a: c, b: k.lits[1], none: c > k.lits[1]} // BETWEEN
}

// execFused runs the last operation on rows s..e-1 fused with the
// comparison into out, and reports whether it did: the column it reads
// must be known to fit (a bound), the result's bound at most narrowMax
// (as exec requires), and the comparison's test allowed by the bounds.
func (k *kernel) execFused(ks *kernScratch, s, e int, neg bool, out []uint8) bool {
	in := &k.code[len(k.code)-1]
	w, o, wideFirst := in.a, in.b, true
	if o.kind == kWide {
		w, o, wideFirst = in.b, in.a, false
	}
	mw := ks.bound[w.col]
	if mw < 0 {
		return false
	}
	mo := 0
	if o.kind == kConst {
		mo = constMag(o.c)
	} else {
		mo = ks.mag[o.reg]
	}
	mv := resultMag(in.op, mw, mo)
	if mv > narrowMax {
		return false
	}
	m := e - s
	t, ok := k.fusedInterval(ks, mv, m, neg)
	if !ok {
		return false
	}
	if t.none {
		fill(out[:m], rowFalse)
		return true
	}
	ws := ks.wides[w.col][s:e]
	if o.kind == kConst {
		fusedConst(in.op, ws, o.c, wideFirst, t, out[:m])
	} else {
		fusedRegs(in.op, ws, ks.regs[o.reg][:m], wideFirst, t, out[:m])
	}
	return true
}

// fusedConst runs fusedTest t on v = w op c (c op w unless wideFirst),
// w's low words.
func fusedConst(op arithOp, ws []orc.Int128, c int64, wideFirst bool, t fusedTest, out []uint8) {
	ua, wd := uint64(t.a), uint64(t.b)-uint64(t.a)
	switch {
	case op == opSub && wideFirst && c != math.MinInt64:
		fusedAddConst(ws, -c, ua, wd, t.other, out)
	case op == opSub && wideFirst: // lo - MinInt64 wraps as lo + MinInt64 (execFused's bounds rule it out)
		fusedAddConst(ws, c, ua, wd, t.other, out)
	case op == opAdd:
		fusedAddConst(ws, c, ua, wd, t.other, out)
	case op == opMul:
		fusedMulConst(ws, c, ua, wd, t.other, out)
	default:
		fusedSubFromConst(ws, c, ua, wd, t.other, out)
	}
}

// fusedRegs runs fusedTest t on v = w op r (r op w unless wideFirst),
// w's low words.
func fusedRegs(op arithOp, ws []orc.Int128, r []int64, wideFirst bool, t fusedTest, out []uint8) {
	ua, wd := uint64(t.a), uint64(t.b)-uint64(t.a)
	switch {
	case op == opAdd:
		fusedAddRegs(ws, r, ua, wd, t.other, out)
	case op == opMul:
		fusedMulRegs(ws, r, ua, wd, t.other, out)
	case wideFirst:
		fusedSubRegs(ws, r, ua, wd, t.other, out)
	default:
		fusedRSubRegs(ws, r, ua, wd, t.other, out)
	}
}

// in returns the outcome of t - a, modulo 2^64, at most wd: TRUE for
// the t in [a, a+wd].
func in(t int64, ua, wd uint64) uint8 { return t2(uint64(t)-ua <= wd) }

// fusedAddConst sets out[i] to the test of t = v or t = v - other[i], v = lo + c.
func fusedAddConst(ws []orc.Int128, c int64, ua, wd uint64, other []int64, out []uint8) {
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, z, o := at8(ws, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)+c-z[0], ua, wd), in(int64(x[1].Lo)+c-z[1], ua, wd), in(int64(x[2].Lo)+c-z[2], ua, wd), in(int64(x[3].Lo)+c-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)+c-z[4], ua, wd), in(int64(x[5].Lo)+c-z[5], ua, wd), in(int64(x[6].Lo)+c-z[6], ua, wd), in(int64(x[7].Lo)+c-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(int64(ws[i].Lo)+c-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, o := at8(ws, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)+c, ua, wd), in(int64(x[1].Lo)+c, ua, wd), in(int64(x[2].Lo)+c, ua, wd), in(int64(x[3].Lo)+c, ua, wd)
		o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)+c, ua, wd), in(int64(x[5].Lo)+c, ua, wd), in(int64(x[6].Lo)+c, ua, wd), in(int64(x[7].Lo)+c, ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(int64(ws[i].Lo)+c, ua, wd)
	}
}

// fusedMulConst sets out[i] to the test of t = v or t = v - other[i], v = lo * c.
func fusedMulConst(ws []orc.Int128, c int64, ua, wd uint64, other []int64, out []uint8) {
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, z, o := at8(ws, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)*c-z[0], ua, wd), in(int64(x[1].Lo)*c-z[1], ua, wd), in(int64(x[2].Lo)*c-z[2], ua, wd), in(int64(x[3].Lo)*c-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)*c-z[4], ua, wd), in(int64(x[5].Lo)*c-z[5], ua, wd), in(int64(x[6].Lo)*c-z[6], ua, wd), in(int64(x[7].Lo)*c-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(int64(ws[i].Lo)*c-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, o := at8(ws, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)*c, ua, wd), in(int64(x[1].Lo)*c, ua, wd), in(int64(x[2].Lo)*c, ua, wd), in(int64(x[3].Lo)*c, ua, wd)
		o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)*c, ua, wd), in(int64(x[5].Lo)*c, ua, wd), in(int64(x[6].Lo)*c, ua, wd), in(int64(x[7].Lo)*c, ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(int64(ws[i].Lo)*c, ua, wd)
	}
}

// fusedSubFromConst sets out[i] to the test of t = v or t = v - other[i], v = c - lo.
func fusedSubFromConst(ws []orc.Int128, c int64, ua, wd uint64, other []int64, out []uint8) {
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, z, o := at8(ws, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(c-int64(x[0].Lo)-z[0], ua, wd), in(c-int64(x[1].Lo)-z[1], ua, wd), in(c-int64(x[2].Lo)-z[2], ua, wd), in(c-int64(x[3].Lo)-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(c-int64(x[4].Lo)-z[4], ua, wd), in(c-int64(x[5].Lo)-z[5], ua, wd), in(c-int64(x[6].Lo)-z[6], ua, wd), in(c-int64(x[7].Lo)-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(c-int64(ws[i].Lo)-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, o := at8(ws, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(c-int64(x[0].Lo), ua, wd), in(c-int64(x[1].Lo), ua, wd), in(c-int64(x[2].Lo), ua, wd), in(c-int64(x[3].Lo), ua, wd)
		o[4], o[5], o[6], o[7] = in(c-int64(x[4].Lo), ua, wd), in(c-int64(x[5].Lo), ua, wd), in(c-int64(x[6].Lo), ua, wd), in(c-int64(x[7].Lo), ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(c-int64(ws[i].Lo), ua, wd)
	}
}

// fusedAddRegs sets out[i] to the test of t = v or t = v - other[i], v = lo + r.
func fusedAddRegs(ws []orc.Int128, r []int64, ua, wd uint64, other []int64, out []uint8) {
	r = r[:len(ws)]
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, y, z, o := at8(ws, i), at8(r, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)+y[0]-z[0], ua, wd), in(int64(x[1].Lo)+y[1]-z[1], ua, wd), in(int64(x[2].Lo)+y[2]-z[2], ua, wd), in(int64(x[3].Lo)+y[3]-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)+y[4]-z[4], ua, wd), in(int64(x[5].Lo)+y[5]-z[5], ua, wd), in(int64(x[6].Lo)+y[6]-z[6], ua, wd), in(int64(x[7].Lo)+y[7]-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(int64(ws[i].Lo)+r[i]-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, y, o := at8(ws, i), at8(r, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)+y[0], ua, wd), in(int64(x[1].Lo)+y[1], ua, wd), in(int64(x[2].Lo)+y[2], ua, wd), in(int64(x[3].Lo)+y[3], ua, wd)
		o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)+y[4], ua, wd), in(int64(x[5].Lo)+y[5], ua, wd), in(int64(x[6].Lo)+y[6], ua, wd), in(int64(x[7].Lo)+y[7], ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(int64(ws[i].Lo)+r[i], ua, wd)
	}
}

// fusedMulRegs sets out[i] to the test of t = v or t = v - other[i], v = lo * r.
func fusedMulRegs(ws []orc.Int128, r []int64, ua, wd uint64, other []int64, out []uint8) {
	r = r[:len(ws)]
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, y, z, o := at8(ws, i), at8(r, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)*y[0]-z[0], ua, wd), in(int64(x[1].Lo)*y[1]-z[1], ua, wd), in(int64(x[2].Lo)*y[2]-z[2], ua, wd), in(int64(x[3].Lo)*y[3]-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)*y[4]-z[4], ua, wd), in(int64(x[5].Lo)*y[5]-z[5], ua, wd), in(int64(x[6].Lo)*y[6]-z[6], ua, wd), in(int64(x[7].Lo)*y[7]-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(int64(ws[i].Lo)*r[i]-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, y, o := at8(ws, i), at8(r, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)*y[0], ua, wd), in(int64(x[1].Lo)*y[1], ua, wd), in(int64(x[2].Lo)*y[2], ua, wd), in(int64(x[3].Lo)*y[3], ua, wd)
		o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)*y[4], ua, wd), in(int64(x[5].Lo)*y[5], ua, wd), in(int64(x[6].Lo)*y[6], ua, wd), in(int64(x[7].Lo)*y[7], ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(int64(ws[i].Lo)*r[i], ua, wd)
	}
}

// fusedSubRegs sets out[i] to the test of t = v or t = v - other[i], v = lo - r.
func fusedSubRegs(ws []orc.Int128, r []int64, ua, wd uint64, other []int64, out []uint8) {
	r = r[:len(ws)]
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, y, z, o := at8(ws, i), at8(r, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)-y[0]-z[0], ua, wd), in(int64(x[1].Lo)-y[1]-z[1], ua, wd), in(int64(x[2].Lo)-y[2]-z[2], ua, wd), in(int64(x[3].Lo)-y[3]-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)-y[4]-z[4], ua, wd), in(int64(x[5].Lo)-y[5]-z[5], ua, wd), in(int64(x[6].Lo)-y[6]-z[6], ua, wd), in(int64(x[7].Lo)-y[7]-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(int64(ws[i].Lo)-r[i]-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, y, o := at8(ws, i), at8(r, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(int64(x[0].Lo)-y[0], ua, wd), in(int64(x[1].Lo)-y[1], ua, wd), in(int64(x[2].Lo)-y[2], ua, wd), in(int64(x[3].Lo)-y[3], ua, wd)
		o[4], o[5], o[6], o[7] = in(int64(x[4].Lo)-y[4], ua, wd), in(int64(x[5].Lo)-y[5], ua, wd), in(int64(x[6].Lo)-y[6], ua, wd), in(int64(x[7].Lo)-y[7], ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(int64(ws[i].Lo)-r[i], ua, wd)
	}
}

// fusedRSubRegs sets out[i] to the test of t = v or t = v - other[i], v = r - lo.
func fusedRSubRegs(ws []orc.Int128, r []int64, ua, wd uint64, other []int64, out []uint8) {
	r = r[:len(ws)]
	out = out[:len(ws)]
	i := 0
	if other != nil {
		other = other[:len(ws)]
		for ; i+8 <= len(ws); i += 8 {
			x, y, z, o := at8(ws, i), at8(r, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = in(y[0]-int64(x[0].Lo)-z[0], ua, wd), in(y[1]-int64(x[1].Lo)-z[1], ua, wd), in(y[2]-int64(x[2].Lo)-z[2], ua, wd), in(y[3]-int64(x[3].Lo)-z[3], ua, wd)
			o[4], o[5], o[6], o[7] = in(y[4]-int64(x[4].Lo)-z[4], ua, wd), in(y[5]-int64(x[5].Lo)-z[5], ua, wd), in(y[6]-int64(x[6].Lo)-z[6], ua, wd), in(y[7]-int64(x[7].Lo)-z[7], ua, wd)
		}
		for ; i < len(ws); i++ {
			out[i] = in(r[i]-int64(ws[i].Lo)-other[i], ua, wd)
		}
		return
	}
	for ; i+8 <= len(ws); i += 8 {
		x, y, o := at8(ws, i), at8(r, i), at8(out, i)
		o[0], o[1], o[2], o[3] = in(y[0]-int64(x[0].Lo), ua, wd), in(y[1]-int64(x[1].Lo), ua, wd), in(y[2]-int64(x[2].Lo), ua, wd), in(y[3]-int64(x[3].Lo), ua, wd)
		o[4], o[5], o[6], o[7] = in(y[4]-int64(x[4].Lo), ua, wd), in(y[5]-int64(x[5].Lo), ua, wd), in(y[6]-int64(x[6].Lo), ua, wd), in(y[7]-int64(x[7].Lo), ua, wd)
	}
	for ; i < len(ws); i++ {
		out[i] = in(r[i]-int64(ws[i].Lo), ua, wd)
	}
}
