package sarg

// A kernel's last operation fused into its comparison. The last
// operation of a kernel computes the register that the comparison reads
// (one side of x op y, or the value compared with the inner leaf's
// literals); run apart, it stores a chunk's results and the comparison
// loads them back. Where that operation reads a decimal column known to
// fit in an int64 (by its low words, lowConst's and lowRegs' case) and
// the comparison is one of those below, the two run as one loop that
// keeps each result v in a register of the CPU.
//
// The comparisons, each a test of v: with the literals, x = c is v in
// [c, c], x < c is v <= c-1, x <= c v <= c, BETWEEN c1 AND c2 v in
// [c1, c2], their negations by < and <= (x >= c, x > c) v >= c and
// v >= c+1; an interval [a, b] is tested as between8 tests it (v - a,
// modulo 2^64, at most b - a), a bound on one side by one comparison.
// With another side o (a register, or a literal repeated), v < o,
// v <= o, v > o, v >= o or v = o, compared as they are.

import (
	"math"

	"github.com/orcgo/orc"
)

// fusedTest is a fused comparison's test of v: its kind (a testKind's
// length: testBetween and the others below), the interval [a, b] of
// testBetween, a bound of testAtLeast (a) and testAtMost (b), or the
// other side of the rest; none when no row passes.
type fusedTest struct {
	kind  int
	a, b  int64
	none  bool
	other []int64
}

// Kinds of fused tests of v.
const (
	testBetween   = iota // a <= v <= b
	testAtLeast          // v >= a
	testAtMost           // v <= b
	testLess             // v < other
	testLessEq           // v <= other
	testGreater          // v > other
	testGreaterEq        // v >= other
	testEqual            // v == other
)

// testKind names a fused test by an array's length, so that the fused
// loops, generic in it, are compiled once per test with the test's
// switch folded away.
type testKind interface {
	[testBetween]int8 | [testAtLeast]int8 | [testAtMost]int8 | [testLess]int8 |
		[testLessEq]int8 | [testGreater]int8 | [testGreaterEq]int8 | [testEqual]int8
}

// pass reports whether v passes test K: p and q are the test's a and
// b - a (testBetween), a (testAtLeast) or b (testAtMost), z the other
// side's value. (Small enough to inline, its switch folded.)
func pass[K testKind](v, z int64, p, q uint64) bool {
	var k K
	switch len(k) {
	case testBetween:
		return uint64(v)-p <= q
	case testAtLeast:
		return v >= int64(p)
	case testAtMost:
		return v <= int64(p)
	case testLess:
		return v < z
	case testLessEq:
		return v <= z
	case testGreater:
		return v > z
	case testGreaterEq:
		return v >= z
	}
	return v == z
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

// fusedInterval returns the test of the comparison on the fused value
// of a chunk of m rows, with neg its NOT (only for < and <=, as outcomes
// takes it).
func (k *kernel) fusedInterval(ks *kernScratch, m int, neg bool) fusedTest {
	last := k.code[len(k.code)-1].dst
	if !k.holds {
		t := k.literalInterval(neg)
		t.other = ks.cx[:m] // not read: a slice of the rows' length
		return t
	}
	other, vLeft := k.y, true
	if k.y.kind == kReg && k.y.reg == last {
		other, vLeft = k.x, false
	}
	op := k.cmp
	if neg { // NOT x < y is y <= x, NOT x <= y is y < x
		op, vLeft = cmpLt+cmpLe-op, !vLeft
	}
	t := fusedTest{other: k.operand(other, ks, m)}
	switch {
	case op == cmpEq:
		t.kind = testEqual
	case op == cmpLt && vLeft:
		t.kind = testLess
	case op == cmpLt:
		t.kind = testGreater
	case vLeft: // v <= o
		t.kind = testLessEq
	default: // o <= v
		t.kind = testGreaterEq
	}
	return t
}

// literalInterval returns the inner leaf's test of the fused value
// against its literals (or, with neg, of NOT x < c and NOT x <= c).
func (k *kernel) literalInterval(neg bool) fusedTest {
	c := k.lits[0]
	switch op := k.inner.op; {
	case neg && op == LeafLessThan:
		return fusedTest{kind: testAtLeast, a: c}
	case neg:
		return fusedTest{kind: testAtLeast, a: c + 1, none: c == math.MaxInt64}
	case op == LeafEquals:
		return fusedTest{kind: testBetween, a: c, b: c}
	case op == LeafLessThan:
		return fusedTest{kind: testAtMost, b: c - 1, none: c == math.MinInt64}
	case op == LeafLessThanEquals:
		return fusedTest{kind: testAtMost, b: c}
	}
	return fusedTest{kind: testBetween, a: c, b: k.lits[1], none: c > k.lits[1]} // BETWEEN
}

// execFused runs the last operation on rows s..e-1 fused with the
// comparison into out, and reports whether it did: the column it reads
// must be known to fit (a bound), and the result's bound be at most
// narrowMax (as exec requires).
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
	if resultMag(in.op, mw, mo) > narrowMax {
		return false
	}
	m := e - s
	t := k.fusedInterval(ks, m, neg)
	if t.none {
		fill(out[:m], rowFalse)
		return true
	}
	f := fusedArgs{op: in.op, ws: ks.wides[w.col][s:e], c: o.c, wideFirst: wideFirst, other: t.other, out: out[:m]}
	if o.kind != kConst {
		f.r = ks.regs[o.reg][:m]
	}
	f.p, f.q = uint64(t.a), uint64(t.b)-uint64(t.a)
	switch t.kind {
	case testAtLeast:
		f.p = uint64(t.a)
	case testAtMost:
		f.p = uint64(t.b)
	}
	runFusedFor[t.kind](f)
	return true
}

// runFusedFor holds runFused compiled for each kind of test, by kind.
var runFusedFor = [...]func(fusedArgs){
	testBetween: runFused[[testBetween]int8], testAtLeast: runFused[[testAtLeast]int8],
	testAtMost: runFused[[testAtMost]int8], testLess: runFused[[testLess]int8],
	testLessEq: runFused[[testLessEq]int8], testGreater: runFused[[testGreater]int8],
	testGreaterEq: runFused[[testGreaterEq]int8], testEqual: runFused[[testEqual]int8],
}

// fusedArgs are a fused loop's arguments: the operation (op, the column
// ws, the literal c or the register r, wideFirst), the test's p and q
// (pass) or other side, and the outcomes.
type fusedArgs struct {
	op        arithOp
	ws        []orc.Int128
	c         int64
	r         []int64
	wideFirst bool
	p, q      uint64
	other     []int64
	out       []uint8
}

// runFused runs test K on v = w op c, or w op r (c or r op w unless
// wideFirst), w's low words.
func runFused[K testKind](f fusedArgs) {
	switch {
	case f.op == opAdd:
		fusedLoop[[lowAdd]int8, K](f.ws, f.r, f.c, f.p, f.q, f.other, f.out)
	case f.op == opMul:
		fusedLoop[[lowMul]int8, K](f.ws, f.r, f.c, f.p, f.q, f.other, f.out)
	case f.wideFirst:
		fusedLoop[[lowSub]int8, K](f.ws, f.r, f.c, f.p, f.q, f.other, f.out)
	default:
		fusedLoop[[lowRSub]int8, K](f.ws, f.r, f.c, f.p, f.q, f.other, f.out)
	}
}

// fusedLoop sets out[i] to test K of v = lo op r[i] (operation O, lo
// ws[i]'s low word), or with r nil of v = lo op c (pass; z the other
// side), eight rows at a time.
func fusedLoop[O lowKind, K testKind](ws []orc.Int128, r []int64, c int64, p, q uint64, other []int64, out []uint8) {
	other, out = other[:len(ws)], out[:len(ws)]
	i := 0
	if r == nil {
		for ; i+8 <= len(ws); i += 8 {
			x, z, o := at8(ws, i), at8(other, i), at8(out, i)
			o[0], o[1], o[2], o[3] = t2(pass[K](lowOp[O](int64(x[0].Lo), c), z[0], p, q)), t2(pass[K](lowOp[O](int64(x[1].Lo), c), z[1], p, q)), t2(pass[K](lowOp[O](int64(x[2].Lo), c), z[2], p, q)), t2(pass[K](lowOp[O](int64(x[3].Lo), c), z[3], p, q))
			o[4], o[5], o[6], o[7] = t2(pass[K](lowOp[O](int64(x[4].Lo), c), z[4], p, q)), t2(pass[K](lowOp[O](int64(x[5].Lo), c), z[5], p, q)), t2(pass[K](lowOp[O](int64(x[6].Lo), c), z[6], p, q)), t2(pass[K](lowOp[O](int64(x[7].Lo), c), z[7], p, q))
		}
		for ; i < len(ws); i++ {
			out[i] = t2(pass[K](lowOp[O](int64(ws[i].Lo), c), other[i], p, q))
		}
		return
	}
	r = r[:len(ws)]
	for ; i+8 <= len(ws); i += 8 {
		x, y, z, o := at8(ws, i), at8(r, i), at8(other, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(pass[K](lowOp[O](int64(x[0].Lo), y[0]), z[0], p, q)), t2(pass[K](lowOp[O](int64(x[1].Lo), y[1]), z[1], p, q)), t2(pass[K](lowOp[O](int64(x[2].Lo), y[2]), z[2], p, q)), t2(pass[K](lowOp[O](int64(x[3].Lo), y[3]), z[3], p, q))
		o[4], o[5], o[6], o[7] = t2(pass[K](lowOp[O](int64(x[4].Lo), y[4]), z[4], p, q)), t2(pass[K](lowOp[O](int64(x[5].Lo), y[5]), z[5], p, q)), t2(pass[K](lowOp[O](int64(x[6].Lo), y[6]), z[6], p, q)), t2(pass[K](lowOp[O](int64(x[7].Lo), y[7]), z[7], p, q))
	}
	for ; i < len(ws); i++ {
		out[i] = t2(pass[K](lowOp[O](int64(ws[i].Lo), r[i]), other[i], p, q))
	}
}
