package sarg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
)

// TestCmp8 compares the eight-row comparisons with one comparison a row,
// on every length from 0 to 40 and on values and literals at the int64
// limits (<= MaxInt64, BETWEEN with its ends swapped or at the limits).
func TestCmp8(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 3))
	edge := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64}
	val := func() int64 {
		if rng.IntN(4) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return int64(rng.Uint64()) >> rng.IntN(64)
	}
	ops := []LeafOp{LeafEquals, LeafLessThan, LeafLessThanEquals, LeafBetween}
	for n := range 41 {
		for range 30 {
			xs, ys := make([]int64, n), make([]int64, n)
			ws := make([]orc.Int128, n)
			for i := range xs {
				xs[i], ys[i] = val(), val()
				if rng.IntN(5) == 0 {
					ys[i] = xs[i]
				}
				ws[i] = orc.Int128FromInt64(xs[i])
			}
			lits := []int64{val(), val()}
			if n > 0 && rng.IntN(3) == 0 {
				lits[rng.IntN(2)] = xs[rng.IntN(n)]
			}
			for _, op := range ops {
				want := make([]uint8, n)
				for i, x := range xs {
					switch op {
					case LeafEquals:
						want[i] = t2(x == lits[0])
					case LeafLessThan:
						want[i] = t2(x < lits[0])
					case LeafLessThanEquals:
						want[i] = t2(x <= lits[0])
					case LeafBetween:
						want[i] = t2(lits[0] <= x && x <= lits[1])
					}
				}
				got, gotLow := make([]uint8, n), make([]uint8, n)
				if !cmpConst(op, lits, xs, got) || !cmpConstLow(op, lits, ws, gotLow) {
					t.Fatalf("%v: not compared", op)
				}
				if !slices.Equal(got, want) || !slices.Equal(gotLow, want) {
					t.Fatalf("%v %v on %v: got %v and %v (low words), want %v", op, lits, xs, got, gotLow, want)
				}
			}
			// NOT x < c and NOT x <= c: x >= c, x > c.
			for _, op := range []LeafOp{LeafLessThan, LeafLessThanEquals} {
				want := make([]uint8, n)
				for i, x := range xs {
					want[i] = t2(x > lits[0] || op == LeafLessThan && x == lits[0])
				}
				got, gotLow := make([]uint8, n), make([]uint8, n)
				notLess(op, lits, xs, got)
				notLessLow(op, lits, ws, gotLow)
				if !slices.Equal(got, want) || !slices.Equal(gotLow, want) {
					t.Fatalf("NOT %v %v on %v: got %v and %v (low words), want %v", op, lits, xs, got, gotLow, want)
				}
			}
			for _, orEq := range []bool{false, true} {
				want, got := make([]uint8, n), make([]uint8, n)
				for i := range xs {
					want[i] = t2(xs[i] < ys[i] || orEq && xs[i] == ys[i])
				}
				lessRegs8(xs, ys, orEq, got)
				if !slices.Equal(got, want) {
					t.Fatalf("lessRegs8(orEq %v) on %v, %v: got %v, want %v", orEq, xs, ys, got, want)
				}
			}
		}
	}
	if cmpConst(LeafIn, []int64{1}, []int64{1}, make([]uint8, 1)) {
		t.Error("cmpConst took IN")
	}
}
