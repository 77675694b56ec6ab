package reader

import (
	"math"
	"math/rand/v2"
	"testing"
)

// decodeNanosRef is the SECONDARY decoding spelled out: z+1 zeros put back
// one multiplication at a time.
func decodeNanosRef(v int64) (int32, bool) {
	z := v & 7
	m := v >> 3
	if z != 0 {
		for i := int64(0); i <= z; i++ {
			if m > math.MaxInt64/10 {
				return 0, false
			}
			m *= 10
		}
	}
	if m < 0 || m > 999_999_999 {
		return 0, false
	}
	return int32(m), true
}

// decodeNanos agrees with the reference on every zero count, on both sides
// of the bounds, on negatives and on values whose product would overflow.
func TestDecodeNanos(t *testing.T) {
	check := func(v int64) {
		got, ok := decodeNanos(v)
		want, wok := decodeNanosRef(v)
		if ok != wok || got != want {
			t.Fatalf("decodeNanos(%d) = %d, %v; want %d, %v", v, got, ok, want, wok)
		}
	}
	for z := int64(0); z < 8; z++ {
		for _, m := range []int64{0, 1, 9, 10, 99, 999, 1_000, 999_999, 1_000_000, 9_999_999, 10_000_000,
			99_999_999, 100_000_000, 999_999_999, 1_000_000_000, 1 << 40, math.MaxInt64 >> 3} {
			check(m<<3 | z)
		}
		check(-8 | z)
		check(math.MinInt64 | z)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		check(rng.Int64N(1<<34) - 1<<20)
	}
}
