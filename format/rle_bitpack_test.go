package format

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestBitPackExample(t *testing.T) {
	// From the file comment: 5 1 7 2 at 3 bits.
	got := packBits(nil, []uint64{5, 1, 7, 2}, 3)
	if want := []byte{0xa7, 0xa0}; !bytes.Equal(got, want) {
		t.Fatalf("packBits = % x, want % x", got, want)
	}
}

// Every width 1..64 against the bit-at-a-time reference, for lengths that
// end at every bit offset, with and without bytes after the run.
func TestBitPackAllWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for w := 1; w <= 64; w++ {
		for _, n := range []int{0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 63, 100, 511, 512} {
			vals := make([]uint64, n)
			for i := range vals {
				switch rng.IntN(4) {
				case 0:
					vals[i] = mask(w) // all ones
				case 1:
					vals[i] = 0
				default:
					vals[i] = rng.Uint64() & mask(w)
				}
			}
			ref := packRef(vals, w)
			if got := packBits(nil, vals, w); !bytes.Equal(got, ref) {
				t.Fatalf("w=%d n=%d: packBits differs from reference", w, n)
			}
			if got := packBits([]byte{1, 2}, vals, w); !bytes.Equal(got[2:], ref) || got[0] != 1 {
				t.Fatalf("w=%d n=%d: packBits with prefix wrong", w, n)
			}
			for _, tail := range [][]byte{nil, {0xff}, bytes.Repeat([]byte{0xff}, 9)} {
				src := append(append([]byte{}, ref...), tail...)
				dst := make([]int64, n)
				unpackBits(dst, src, w)
				for i := range vals {
					if uint64(dst[i]) != vals[i] {
						t.Fatalf("w=%d n=%d tail=%d: value %d = %#x, want %#x", w, n, len(tail), i, dst[i], vals[i])
					}
				}
			}
		}
	}
}

func TestClosestFixedBits(t *testing.T) {
	for n := 1; n <= 64; n++ {
		c := closestFixedBits(n)
		if c < n || codeFromWidth[c] == 0xff {
			t.Fatalf("closestFixedBits(%d) = %d", n, c)
		}
		// No smaller width with a code fits.
		for m := n; m < c; m++ {
			if codeFromWidth[m] != 0xff {
				t.Fatalf("closestFixedBits(%d) = %d, but %d has a code", n, c, m)
			}
		}
		a := alignedWidth(n)
		switch a {
		case 1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64:
		default:
			t.Fatalf("alignedWidth(%d) = %d", n, a)
		}
		if a < n {
			t.Fatalf("alignedWidth(%d) = %d", n, a)
		}
	}
	for c, w := range widthFromCode {
		if codeFromWidth[w] != uint8(c) {
			t.Fatalf("code table: width %d -> %d, want %d", w, codeFromWidth[w], c)
		}
	}
}

func TestStepsFit(t *testing.T) {
	const maxI, minI = int64(^uint64(0) >> 1), -int64(^uint64(0)>>1) - 1
	cases := []struct {
		base, delta int64
		n           int
		ok          bool
	}{
		{0, 1, 512, true},
		{maxI - 511, 1, 512, true},
		{maxI - 510, 1, 512, false},
		{minI + 511, -1, 512, true},
		{minI + 510, -1, 512, false},
		{minI, maxI, 2, true},
		{minI, maxI, 3, true},
		{minI, maxI, 4, false},
		{maxI, minI, 2, true},
		{0, minI, 2, true},
		{-1, minI, 2, false},
		{1, minI, 2, true},
		{5, 123, 1, true},
		{maxI, 0, 512, true},
	}
	for _, c := range cases {
		if got := stepsFit(c.base, c.delta, c.n); got != c.ok {
			t.Errorf("stepsFit(%d, %d, %d) = %v, want %v", c.base, c.delta, c.n, got, c.ok)
		}
	}
}

// The zigzag variant equals unpacking then zigzag decoding, for every width,
// for lengths around the 8-value groups, with and without bytes after the
// run (which decide whether the group loops may run to its end).
func TestBitPackZigzag(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for w := 1; w <= 64; w++ {
		for _, n := range []int{1, 7, 8, 9, 16, 23, 24, 64, 65, 511, 512} {
			vals := make([]uint64, n)
			for i := range vals {
				vals[i] = rng.Uint64() & mask(w)
				if rng.IntN(5) == 0 {
					vals[i] = mask(w)
				}
			}
			packed := packRef(vals, w)
			for _, tail := range [][]byte{nil, {0xff, 0xff, 0xff}, bytes.Repeat([]byte{0xff}, 8)} {
				src := append(append([]byte{}, packed...), tail...)
				got := make([]int64, n)
				unpackBitsZigzag(got, src, w)
				for i, v := range vals {
					if want := UnZigzag(v); got[i] != want {
						t.Fatalf("w=%d n=%d tail=%d: value %d = %d, want %d", w, n, len(tail), i, got[i], want)
					}
				}
			}
		}
	}
}
