package sarg

// Comparisons of a batch's values with a literal or with another
// register's values, eight rows a step: the eight loads, compares and
// byte stores of a step are written out, against fixed-size arrays
// (at8), so that a row costs those instructions with no bounds check and
// a loop test every eight rows (the plain loops took 7 to 10 a row).
// Decimal forms read the low words of values known to fit in an int64.

import (
	"math"
	"unsafe"

	"github.com/orcgo/orc"
)

// at8 returns s[i:i+8] as an array, with no bounds check: callers loop
// with i+8 <= len(s). (Converting s[i:] to *[8]T costs a dozen
// instructions a step: a length check and the masking that keeps an
// empty slice's pointer inside its array.)
func at8[T any](s []T, i int) *[8]T {
	return (*[8]T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*unsafe.Sizeof(s[0])))
}

// cmpConst sets out[i] to the outcome of xs[i] op c for op LeafEquals,
// LeafLessThan, LeafLessThanEquals and LeafBetween (c the first of lits,
// or lits[0] <= x <= lits[1]: x - lits[0], modulo 2^64, at most
// lits[1] - lits[0], as pass tests it), and reports whether op is one of
// these. (It and the three below are written out, each calling its
// loops directly: a shared decision cost some 55 instructions a call.)
func cmpConst(op LeafOp, lits []int64, xs []int64, out []uint8) bool {
	switch op {
	case LeafEquals:
		test8[[testEqual]int8](xs, lits[0], 0, 0, out)
	case LeafLessThan:
		test8[[testLess]int8](xs, lits[0], 0, 0, out)
	case LeafLessThanEquals:
		if lits[0] == math.MaxInt64 {
			fill(out[:len(xs)], rowTrue)
			return true
		}
		test8[[testLess]int8](xs, lits[0]+1, 0, 0, out)
	case LeafBetween:
		if lits[0] > lits[1] {
			fill(out[:len(xs)], rowFalse)
			return true
		}
		test8[[testBetween]int8](xs, 0, uint64(lits[0]), uint64(lits[1])-uint64(lits[0]), out)
	default:
		return false
	}
	return true
}

// cmpConstLow is cmpConst on decimals' low words.
func cmpConstLow(op LeafOp, lits []int64, xs []orc.Int128, out []uint8) bool {
	switch op {
	case LeafEquals:
		testLow8[[testEqual]int8](xs, lits[0], 0, 0, out)
	case LeafLessThan:
		testLow8[[testLess]int8](xs, lits[0], 0, 0, out)
	case LeafLessThanEquals:
		if lits[0] == math.MaxInt64 {
			fill(out[:len(xs)], rowTrue)
			return true
		}
		testLow8[[testLess]int8](xs, lits[0]+1, 0, 0, out)
	case LeafBetween:
		if lits[0] > lits[1] {
			fill(out[:len(xs)], rowFalse)
			return true
		}
		testLow8[[testBetween]int8](xs, 0, uint64(lits[0]), uint64(lits[1])-uint64(lits[0]), out)
	default:
		return false
	}
	return true
}

// notLess sets out[i] to NOT xs[i] op c for op LeafLessThan (xs[i] >= c)
// or LeafLessThanEquals (xs[i] > c), lits[0] being c.
func notLess(op LeafOp, lits []int64, xs []int64, out []uint8) {
	c := lits[0]
	switch {
	case op == LeafLessThan:
		test8[[testGreaterEq]int8](xs, c, 0, 0, out)
	case c == math.MaxInt64:
		fill(out[:len(xs)], rowFalse)
	default:
		test8[[testGreaterEq]int8](xs, c+1, 0, 0, out)
	}
}

// notLessLow is notLess on decimals' low words.
func notLessLow(op LeafOp, lits []int64, xs []orc.Int128, out []uint8) {
	c := lits[0]
	switch {
	case op == LeafLessThan:
		testLow8[[testGreaterEq]int8](xs, c, 0, 0, out)
	case c == math.MaxInt64:
		fill(out[:len(xs)], rowFalse)
	default:
		testLow8[[testGreaterEq]int8](xs, c+1, 0, 0, out)
	}
}

// test8 sets out[i] to t2 of test K of xs[i] (pass, z being c).
func test8[K testKind](xs []int64, c int64, p, q uint64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(pass[K](x[0], c, p, q)), t2(pass[K](x[1], c, p, q)), t2(pass[K](x[2], c, p, q)), t2(pass[K](x[3], c, p, q))
		o[4], o[5], o[6], o[7] = t2(pass[K](x[4], c, p, q)), t2(pass[K](x[5], c, p, q)), t2(pass[K](x[6], c, p, q)), t2(pass[K](x[7], c, p, q))
	}
	for ; i < len(xs); i++ {
		out[i] = t2(pass[K](xs[i], c, p, q))
	}
}

// testLow8 is test8 on the low words of xs.
func testLow8[K testKind](xs []orc.Int128, c int64, p, q uint64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(pass[K](int64(x[0].Lo), c, p, q)), t2(pass[K](int64(x[1].Lo), c, p, q)), t2(pass[K](int64(x[2].Lo), c, p, q)), t2(pass[K](int64(x[3].Lo), c, p, q))
		o[4], o[5], o[6], o[7] = t2(pass[K](int64(x[4].Lo), c, p, q)), t2(pass[K](int64(x[5].Lo), c, p, q)), t2(pass[K](int64(x[6].Lo), c, p, q)), t2(pass[K](int64(x[7].Lo), c, p, q))
	}
	for ; i < len(xs); i++ {
		out[i] = t2(pass[K](int64(xs[i].Lo), c, p, q))
	}
}

// lessRegs8 sets out[i] to t2(x[i] < y[i]), or with orEq to
// t2(x[i] <= y[i]).
func lessRegs8(x, y []int64, orEq bool, out []uint8) {
	y, out = y[:len(x)], out[:len(x)]
	i := 0
	if orEq {
		for ; i+8 <= len(x); i += 8 {
			a, b, o := at8(x, i), at8(y, i), at8(out, i)
			o[0], o[1], o[2], o[3] = t2(a[0] <= b[0]), t2(a[1] <= b[1]), t2(a[2] <= b[2]), t2(a[3] <= b[3])
			o[4], o[5], o[6], o[7] = t2(a[4] <= b[4]), t2(a[5] <= b[5]), t2(a[6] <= b[6]), t2(a[7] <= b[7])
		}
		for ; i < len(x); i++ {
			out[i] = t2(x[i] <= y[i])
		}
		return
	}
	for ; i+8 <= len(x); i += 8 {
		a, b, o := at8(x, i), at8(y, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(a[0] < b[0]), t2(a[1] < b[1]), t2(a[2] < b[2]), t2(a[3] < b[3])
		o[4], o[5], o[6], o[7] = t2(a[4] < b[4]), t2(a[5] < b[5]), t2(a[6] < b[6]), t2(a[7] < b[7])
	}
	for ; i < len(x); i++ {
		out[i] = t2(x[i] < y[i])
	}
}
