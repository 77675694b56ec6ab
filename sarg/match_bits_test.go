package sarg

import (
	"math/rand/v2"
	"testing"
)

// TestTrueBits compares trueBits, eight rows a step, with trueRows row by
// row on outcomes of every kind (FALSE, NULL, TRUE) and on every length
// to 300 (whole words, a partial last word, fewer than eight rows): each
// row's bit, the bits past the rows clear, and the count.
func TestTrueBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 64))
	outcomes := []uint8{rowFalse, rowNull, rowTrue}
	for n := range 300 {
		for trial := range 4 {
			out := make([]uint8, n)
			for i := range out {
				switch trial {
				case 0:
					out[i] = outcomes[rng.IntN(3)]
				case 1:
					out[i] = rowTrue
				case 2:
					out[i] = rowNull // bit 0 set, not TRUE
				default:
					out[i] = outcomes[2*rng.IntN(2)]
				}
			}
			want := make([]bool, n)
			trueRows(want, out)
			dst := make([]uint64, (n+63)/64)
			for i := range dst {
				dst[i] = ^uint64(0) // every bit written, none left over
			}
			kept := trueBits(dst, out)
			count := 0
			for i := range (n + 63) / 64 * 64 {
				got := dst[i/64]>>(i%64)&1 == 1
				if i >= n {
					if got {
						t.Fatalf("n=%d trial %d: bit %d past the rows is set", n, trial, i)
					}
					continue
				}
				if got != want[i] {
					t.Fatalf("n=%d trial %d: row %d (outcome %d): bit %v, want %v", n, trial, i, out[i], got, want[i])
				}
				if got {
					count++
				}
			}
			if kept != count {
				t.Fatalf("n=%d trial %d: count %d, want %d", n, trial, kept, count)
			}
		}
	}
}

// TestMatchBitsAgrees runs MatchBits and Match on the same batches of
// the benchmark's predicates, with nulls: the same rows, and the count.
func TestMatchBitsAgrees(t *testing.T) {
	for _, text := range []string{
		"(i BETWEEN 10 AND 500 OR s IN ('a', 'b')) AND NOT f < 0.5",
		"i IS NULL OR i > 700",
		"NOT (i < 300)",
	} {
		b := MustBind(MustParse(text), testSchema)
		for _, n := range []int{0, 1, 63, 64, 65, 1000, 1024} {
			cols, _ := benchBatch(max(n, 1))
			m := b.NewMatcher()
			want, err := m.Match(cols, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, kept, err := m.MatchBits(cols, nil, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			count := 0
			for i := range n {
				if bit := got[i/64]>>(i%64)&1 == 1; bit != want[i] {
					t.Fatalf("%s, n=%d: row %d: bit %v, Match %v", text, n, i, bit, want[i])
				}
				if want[i] {
					count++
				}
			}
			if kept != count || len(got) != (n+63)/64 {
				t.Fatalf("%s, n=%d: %d kept in %d words, want %d in %d", text, n, kept, len(got), count, (n+63)/64)
			}
		}
	}
}
