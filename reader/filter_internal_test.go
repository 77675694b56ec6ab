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
