package sarg

import (
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

// fusedPreds are predicates over kernelSchema whose kernels end in an
// operation that may fuse with the comparison: every form of it (a
// column's low words plus, times or minus a literal or a register, the
// literal or register minus them) under every comparison that fuses
// (=, <, <=, >, >=, BETWEEN with literals, and two sides compared, each
// way and negated), and forms that must not fuse (IN, <=>).
var fusedPreds = []string{
	"a + 1 > 0", "a + 1 >= 0", "a + 1 < 0", "a + 1 <= 0", "a + 1 = 0", "a + 1 BETWEEN -1 AND 1",
	"NOT (a + 1 > 0)", "NOT (a + 1 >= 0)", "a - 1 > 0", "a - 1 <= 0.01", "1 - a > 0", "1 - a = 0",
	"2 - a BETWEEN 0 AND 0.02", "a * 3 < 2", "a * 3 >= -3", "a * 3 > 3", "a * 3 = -3", "a * 3 BETWEEN 3 AND 2",
	"a * (1 - b) > 0.02", "a * (1 - b) <= 0.03", "a + b * 2 <= 7", "a + b * 2 > 0", "b * 2 - a < 0",
	"b * 2 - a = 0", "b * 2 - a >= 0", "a - b * 2 BETWEEN -1 AND 1", "a - b * 2 > 0",
	"c * 2 < a * (1 - b)", "c * 2 <= a * (1 - b)", "c * 2 = a * (1 - b)", "c * 2 > a * (1 - b)",
	"c * 2 >= a * (1 - b)", "NOT (c * 2 < a * (1 - b))", "NOT (c * 2 <= a * (1 - b))",
	"c + 1 < a + b * 2", "c + 1 >= a - b * 2", "c - 1 = b * 2 - a", "NOT (c + 1 > b * 2 - a)",
	"b * 3 > c * 100", "b * 3 <= c * 100", "b + 1 < a * 3", "b + 1 = a - 1",
	"i - 1 < w + 1", "1 - a < c", "c * 2 < 1 - a", "3 - a * 2 > 0", "0.02 - a > 0", "0.01 - a = 0", "1 - a >= 0", "-w < w + 1", "0 - w < w + 1", "w * -1 < w + 1", "NOT (0 - w <= w + 1)", "i - 1 >= w + 1", "i + 1 = w - 1", "i * 1 > w * 1", "NOT (i - 1 < w + 1)",
	"a + c IN (1, 2.5, -7)", "a * c <=> b",
}

// fusedBatch returns n rows of kernelSchema's columns: most values small
// (-4 to 4 hundredths, or whole numbers, so that sides often tie and
// literals sit on the values), some near ±2^62 in w and i (two sides
// whose difference leaves int64: compared, never subtracted), nulls now
// and then.
func fusedBatch(rng *rand.Rand, n int) ColumnVectors {
	dec := func(scale int) *orc.DecimalVector {
		return &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: scale, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	}
	a, b, c, w := dec(2), dec(2), dec(0), dec(2)
	iv := &orc.LongVector{Values: make([]int64, n), Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	big := rng.IntN(3) == 0
	unit := []int64{1, 100}[rng.IntN(2)] // hundredths, or whole numbers at scale 2
	small := func() int64 { return (rng.Int64N(9) - 4) * unit }
	for r := range n {
		for _, d := range []*orc.DecimalVector{a, b, c, w} {
			d.Values[r] = orc.Int128FromInt64(small())
			d.Nulls.Nulls[r] = rng.IntN(20) == 0
		}
		iv.Values[r], iv.Nulls.Nulls[r] = small(), rng.IntN(20) == 0
		if big && rng.IntN(2) == 0 {
			w.Values[r] = orc.Int128FromInt64(1<<62 - 1 - rng.Int64N(4))
			iv.Values[r] = -(1<<62 - 1 - rng.Int64N(4))
			if rng.IntN(2) == 0 {
				w.Values[r], iv.Values[r] = orc.Int128FromInt64(-(1<<62 - 1)), 1<<62-1
			}
		}
	}
	return ColumnVectors{1: a, 2: b, 3: c, 4: w, 5: iv}
}

// TestFusedKernel compares kernels whose last operation runs fused with
// the comparison (bounds given, so that columns are read by their low
// words) with the same kernels run in two steps and with the general
// path, row by row, over batches of several chunks and rests; and checks
// that every fused form ran fused on some batch. Breaking any fused
// loop, test kind or interval end fails it.
func TestFusedKernel(t *testing.T) {
	schema := orc.MustParseSchema(kernelSchema)
	rng := rand.New(rand.NewPCG(52, 62))
	defer func() { fuseOff, kernelOff = false, false }()
	for _, p := range fusedPreds {
		bd, err := Bind(MustParse(p), schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		kern := bd.leaves[0].term.kern
		fused := 0
		for trial := range 30 {
			n := []int{1, 7, 8, kernChunk + 9, 2*kernChunk + 3}[trial%5]
			cols := fusedBatch(rng, n)
			bounds := leastBounds(cols, n)
			run := func() []uint8 {
				m := bd.NewMatcher()
				m.bounds = bounds
				out, err := m.eval3(cols, n)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				return append([]uint8(nil), out...)
			}
			got := run()
			fuseOff = true
			apart := run()
			fuseOff, kernelOff = false, true
			gen := run()
			kernelOff = false
			for i := range n {
				if got[i] != apart[i] || got[i] != gen[i] {
					t.Fatalf("%s trial %d row %d: fused %d, two steps %d, general path %d (bounds %v)", p, trial, i, got[i], apart[i], gen[i], bounds)
				}
			}
			if kern != nil && kern.fusable {
				ks := kern.scratch()
				if kern.readCols(cols, bounds, n, ks) && fusedChunk(kern, ks, min(n, kernChunk)) {
					fused++
				}
			}
		}
		if want := kern != nil && kern.fusable; want != (fused > 0) {
			t.Errorf("%s: fusable %v, ran fused on %d batches", p, want, fused)
		}
	}
}

// fusedChunk reports whether the first chunk of m rows runs fused.
func fusedChunk(k *kernel, ks *kernScratch, m int) bool {
	for i := range k.code[:len(k.code)-1] {
		if !k.exec(&k.code[i], ks, 0, m) {
			return false
		}
	}
	return k.execFused(ks, 0, m, false, make([]uint8, m))
}
