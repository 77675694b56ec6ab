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
// or lits[0] <= x <= lits[1]), and reports whether op is one of these.
func cmpConst(op LeafOp, lits []int64, xs []int64, out []uint8) bool {
	switch op {
	case LeafEquals:
		equal8(xs, lits[0], out)
	case LeafLessThan:
		less8(xs, lits[0], out)
	case LeafLessThanEquals:
		if lits[0] == math.MaxInt64 {
			fill(out[:len(xs)], rowTrue)
			return true
		}
		less8(xs, lits[0]+1, out)
	case LeafBetween:
		between8(xs, lits[0], lits[1], out)
	default:
		return false
	}
	return true
}

// cmpConstLow is cmpConst on decimals' low words.
func cmpConstLow(op LeafOp, lits []int64, xs []orc.Int128, out []uint8) bool {
	switch op {
	case LeafEquals:
		equalLow8(xs, lits[0], out)
	case LeafLessThan:
		lessLow8(xs, lits[0], out)
	case LeafLessThanEquals:
		if lits[0] == math.MaxInt64 {
			fill(out[:len(xs)], rowTrue)
			return true
		}
		lessLow8(xs, lits[0]+1, out)
	case LeafBetween:
		betweenLow8(xs, lits[0], lits[1], out)
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
		atLeast8(xs, c, out)
	case c == math.MaxInt64:
		fill(out[:len(xs)], rowFalse)
	default:
		atLeast8(xs, c+1, out)
	}
}

// notLessLow is notLess on decimals' low words.
func notLessLow(op LeafOp, lits []int64, xs []orc.Int128, out []uint8) {
	c := lits[0]
	switch {
	case op == LeafLessThan:
		atLeastLow8(xs, c, out)
	case c == math.MaxInt64:
		fill(out[:len(xs)], rowFalse)
	default:
		atLeastLow8(xs, c+1, out)
	}
}

// less8 sets out[i] to t2(xs[i] < c).
func less8(xs []int64, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(x[0] < c), t2(x[1] < c), t2(x[2] < c), t2(x[3] < c)
		o[4], o[5], o[6], o[7] = t2(x[4] < c), t2(x[5] < c), t2(x[6] < c), t2(x[7] < c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(xs[i] < c)
	}
}

// atLeast8 sets out[i] to t2(xs[i] >= c) (a row's instruction fewer
// than between8 to math.MaxInt64).
func atLeast8(xs []int64, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(x[0] >= c), t2(x[1] >= c), t2(x[2] >= c), t2(x[3] >= c)
		o[4], o[5], o[6], o[7] = t2(x[4] >= c), t2(x[5] >= c), t2(x[6] >= c), t2(x[7] >= c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(xs[i] >= c)
	}
}

// atLeastLow8 sets out[i] to t2(int64(xs[i].Lo) >= c).
func atLeastLow8(xs []orc.Int128, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1] = t2(int64(x[0].Lo) >= c), t2(int64(x[1].Lo) >= c)
		o[2], o[3] = t2(int64(x[2].Lo) >= c), t2(int64(x[3].Lo) >= c)
		o[4], o[5] = t2(int64(x[4].Lo) >= c), t2(int64(x[5].Lo) >= c)
		o[6], o[7] = t2(int64(x[6].Lo) >= c), t2(int64(x[7].Lo) >= c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(int64(xs[i].Lo) >= c)
	}
}

// equal8 sets out[i] to t2(xs[i] == c).
func equal8(xs []int64, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1], o[2], o[3] = t2(x[0] == c), t2(x[1] == c), t2(x[2] == c), t2(x[3] == c)
		o[4], o[5], o[6], o[7] = t2(x[4] == c), t2(x[5] == c), t2(x[6] == c), t2(x[7] == c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(xs[i] == c)
	}
}

// between8 sets out[i] to t2(a <= xs[i] && xs[i] <= b): x - a, taken
// modulo 2^64, is at most b - a exactly for the x in [a, b] (none when
// a > b).
func between8(xs []int64, a, b int64, out []uint8) {
	out = out[:len(xs)]
	if a > b {
		fill(out, rowFalse)
		return
	}
	w := uint64(b) - uint64(a)
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1] = t2(uint64(x[0])-uint64(a) <= w), t2(uint64(x[1])-uint64(a) <= w)
		o[2], o[3] = t2(uint64(x[2])-uint64(a) <= w), t2(uint64(x[3])-uint64(a) <= w)
		o[4], o[5] = t2(uint64(x[4])-uint64(a) <= w), t2(uint64(x[5])-uint64(a) <= w)
		o[6], o[7] = t2(uint64(x[6])-uint64(a) <= w), t2(uint64(x[7])-uint64(a) <= w)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(uint64(xs[i])-uint64(a) <= w)
	}
}

// lessLow8 sets out[i] to t2(int64(xs[i].Lo) < c).
func lessLow8(xs []orc.Int128, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1] = t2(int64(x[0].Lo) < c), t2(int64(x[1].Lo) < c)
		o[2], o[3] = t2(int64(x[2].Lo) < c), t2(int64(x[3].Lo) < c)
		o[4], o[5] = t2(int64(x[4].Lo) < c), t2(int64(x[5].Lo) < c)
		o[6], o[7] = t2(int64(x[6].Lo) < c), t2(int64(x[7].Lo) < c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(int64(xs[i].Lo) < c)
	}
}

// equalLow8 sets out[i] to t2(int64(xs[i].Lo) == c).
func equalLow8(xs []orc.Int128, c int64, out []uint8) {
	out = out[:len(xs)]
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1] = t2(int64(x[0].Lo) == c), t2(int64(x[1].Lo) == c)
		o[2], o[3] = t2(int64(x[2].Lo) == c), t2(int64(x[3].Lo) == c)
		o[4], o[5] = t2(int64(x[4].Lo) == c), t2(int64(x[5].Lo) == c)
		o[6], o[7] = t2(int64(x[6].Lo) == c), t2(int64(x[7].Lo) == c)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(int64(xs[i].Lo) == c)
	}
}

// betweenLow8 is between8 on the low words.
func betweenLow8(xs []orc.Int128, a, b int64, out []uint8) {
	out = out[:len(xs)]
	if a > b {
		fill(out, rowFalse)
		return
	}
	w, ua := uint64(b)-uint64(a), uint64(a)
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x, o := at8(xs, i), at8(out, i)
		o[0], o[1] = t2(x[0].Lo-ua <= w), t2(x[1].Lo-ua <= w)
		o[2], o[3] = t2(x[2].Lo-ua <= w), t2(x[3].Lo-ua <= w)
		o[4], o[5] = t2(x[4].Lo-ua <= w), t2(x[5].Lo-ua <= w)
		o[6], o[7] = t2(x[6].Lo-ua <= w), t2(x[7].Lo-ua <= w)
	}
	for ; i < len(xs); i++ {
		out[i] = t2(xs[i].Lo-ua <= w)
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
