package reader

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelection checks selection against a plain loop, appending to an
// empty and to a non-empty list, on masks of every density.
func TestSelection(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := range 300 {
		sel := make([]bool, r.IntN(70))
		p := r.Float64()
		for i := range sel {
			sel[i] = r.Float64() < p
		}
		prefix := make([]int32, it%3, 5)
		for i := range prefix {
			prefix[i] = int32(100 + i)
		}
		want := slices.Clone(prefix)
		for i, ok := range sel {
			if ok {
				want = append(want, int32(i))
			}
		}
		if got := selection(sel, slices.Clone(prefix)); !slices.Equal(got, want) {
			t.Fatalf("selection(%v) after %v = %v, want %v", sel, prefix, got, want)
		}
	}
}

// bitsMask returns a random mask of n rows and its bits, as MatchBits
// gives them: all rows, none, runs across word ends, or random rows of a
// random density.
func bitsMask(r *rand.Rand, n int) ([]bool, []uint64) {
	sel := make([]bool, n)
	p := r.Float64()
	switch r.IntN(5) {
	case 0:
		p = 1
	case 1:
		p = 0
	case 2: // long runs
		on := r.IntN(2) == 0
		for i := range sel {
			if r.IntN(40) == 0 {
				on = !on
			}
			sel[i] = on
		}
		p = -1
	}
	set := make([]uint64, (n+63)/64)
	for i := range sel {
		if p >= 0 {
			sel[i] = r.Float64() < p
		}
		if sel[i] {
			set[i/64] |= 1 << (i % 64)
		}
	}
	return sel, set
}

// TestSelectionBits checks selectionBits, countRunsBitsTo and appendBits
// against selection, countRunsTo and appendMask of the same rows as
// bools, on every length to 300 (whole words and partial ones), bits set
// past the rows (which they must not read), and limits below and above
// the runs.
func TestSelectionBits(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 5))
	for it := range 1500 {
		n := it % 301
		sel, set := bitsMask(r, n)
		if n%64 != 0 && r.IntN(2) == 0 {
			set[len(set)-1] |= ^uint64(0) << (n % 64) // rows past n
		}
		prefix := make([]int32, it%3, 5)
		for i := range prefix {
			prefix[i] = int32(100 + i)
		}
		want := selection(sel, slices.Clone(prefix))
		if got := selectionBits(set, n, slices.Clone(prefix)); !slices.Equal(got, want) {
			t.Fatalf("selectionBits(%x, %d) after %v = %v, want %v", set, n, prefix, got, want)
		}
		runs := countRuns(sel)
		for _, limit := range []int{runs, runs - 1, runs / 2, 0} {
			w, g := countRunsTo(sel, limit), countRunsBitsTo(set, n, limit)
			if (w > limit) != (g > limit) || w <= limit && g != w {
				t.Fatalf("countRunsBitsTo(%x, %d, %d) = %d, countRunsTo %d", set, n, limit, g, w)
			}
		}
		old := rowSelection{runs: []rowRun{{1, 2}, {5, 9}}} // reused
		wantSel, gotSel := appendMask(rowSelection{}, sel), appendBits(old, set, n)
		if wantSel.n != gotSel.n || !slices.Equal(wantSel.runs, gotSel.runs) {
			t.Fatalf("appendBits(%x, %d) = %v, want %v", set, n, gotSel, wantSel)
		}
	}
}
