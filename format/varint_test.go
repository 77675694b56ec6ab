package format

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

// Decimal varints round-trip over the whole 128-bit range, through whole
// buffers and through pieces of 1 to 7 bytes (which take the slow path).
func TestVarint128RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []orc.Int128{{}, orc.Int128FromInt64(1), orc.Int128FromInt64(-1),
		orc.Int128FromInt64(math.MaxInt64), orc.Int128FromInt64(math.MinInt64),
		{Hi: math.MaxInt64, Lo: math.MaxUint64}, {Hi: math.MinInt64, Lo: 0}}
	for i := 0; i < 2000; i++ {
		v := orc.Int128{Hi: int64(rng.Uint64()) >> rng.IntN(64), Lo: rng.Uint64()}
		if rng.IntN(2) == 0 {
			v = orc.Int128FromInt64(int64(rng.Uint64()) >> rng.IntN(64))
		}
		vals = append(vals, v)
	}
	var data []byte
	for _, v := range vals {
		data = AppendVarint128(data, v)
	}
	for _, src := range sources(data) {
		r := NewByteReader(src)
		for i, want := range vals {
			got, err := r.ReadVarint128()
			if err != nil || got != want {
				t.Fatalf("value %d: got %v, %v; want %v", i, got, err, want)
			}
		}
	}
	// The same through the batch call, in batches of varied sizes, also
	// from pieces long enough for the 8-byte loads.
	for _, src := range append(sources(data), newPieceSource(data, 5, 40), newPieceSource(data, 6, 300)) {
		r := NewByteReader(src)
		got := make([]orc.Int128, len(vals))
		for i := 0; i < len(vals); {
			n := min(1+rng.IntN(100), len(vals)-i)
			readVarintsChecked(t, r, got[i:i+n], vals[i:i+n])
			i += n
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("batch value %d: got %v, want %v", i, got[i], vals[i])
			}
		}
	}
	// The 128-bit zigzag agrees with big-integer arithmetic.
	for _, v := range vals[:50] {
		b := AppendVarint128(nil, v)
		var u big.Int
		for i := len(b) - 1; i >= 0; i-- {
			u.Lsh(&u, 7)
			u.Or(&u, big.NewInt(int64(b[i]&0x7f)))
		}
		z := new(big.Int).Lsh(v.Big(), 1)
		if v.Sign() < 0 {
			z.Neg(z)
			z.Sub(z, big.NewInt(1))
		}
		if u.Cmp(z) != 0 {
			t.Fatalf("zigzag of %v is %v, want %v", v.Big(), &u, z)
		}
	}
}

// Runs of varints of one length (the words the batch call decodes whole)
// mixed with others, in batches that end inside words.
func TestVarint128sUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var vals []orc.Int128
	for len(vals) < 20000 {
		// zigzag(v) < 2^(7*bytes): v in [-2^(7*bytes-1), 2^(7*bytes-1))
		bytes := []int{1, 1, 2, 2, 3, 4, 4, 5}[rng.IntN(8)]
		half := int64(1) << (7*bytes - 1)
		for range 1 + rng.IntN(40) {
			vals = append(vals, orc.Int128FromInt64(rng.Int64N(2*half)-half))
		}
	}
	var data []byte
	for _, v := range vals {
		data = AppendVarint128(data, v)
	}
	for _, src := range []ChunkSource{whole(data), newPieceSource(data, 9, 300)} {
		r := NewByteReader(src)
		got := make([]orc.Int128, len(vals))
		for i := 0; i < len(vals); {
			n := min(1+rng.IntN(50), len(vals)-i)
			readVarintsChecked(t, r, got[i:i+n], vals[i:i+n])
			i += n
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("value %d: got %v, want %v", i, got[i], vals[i])
			}
		}
	}
}

// readVarintsChecked reads len(dst) varints and checks the bound
// ReadVarint128sBound returns against want, the values they encode: every
// |v| < 2^bound, and the bound is at most 7 bits a byte of the longest
// varint.
//
// Batches of odd length are read with ReadVarint128s, without a bound, so
// that the values of both forms are checked by the callers.
func readVarintsChecked(t *testing.T, r *ByteReader, dst, want []orc.Int128) {
	t.Helper()
	if len(dst)%2 == 1 {
		if err := r.ReadVarint128s(dst); err != nil {
			t.Fatal(err)
		}
		return
	}
	bound, err := r.ReadVarint128sBound(dst)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, v := range want {
		longest = max(longest, len(AppendVarint128(nil, v)))
		a := new(big.Int).Abs(v.Big())
		if a.BitLen() > bound || a.BitLen() == bound && a.Cmp(new(big.Int).Lsh(big.NewInt(1), uint(bound))) >= 0 {
			t.Fatalf("value %v: |v| is not below 2^%d, the bound returned", v, bound)
		}
	}
	if bound > 7*longest {
		t.Fatalf("bound %d for varints of at most %d bytes, want at most %d", bound, longest, 7*longest)
	}
}

// A varint wider than 128 bits is corrupt (no ORC decimal needs one), and so
// is one cut short.
func TestVarint128Bad(t *testing.T) {
	wide := append(make([]byte, 0, 20), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f)
	if _, err := NewByteReader(whole(wide)).ReadVarint128(); !errors.Is(err, orc.ErrCorrupt) || errors.Is(err, orc.ErrUnsupported) {
		t.Fatalf("wide: %v", err)
	}
	if _, err := NewByteReader(whole([]byte{0x80, 0x80})).ReadVarint128(); !errors.Is(err, orc.ErrCorrupt) {
		t.Fatalf("short: %v", err)
	}
}

func BenchmarkReadVarint128(b *testing.B) {
	var data []byte
	for i := 0; i < 4096; i++ {
		data = AppendVarint128(data, orc.Int128FromInt64(int64(i*7919-10000000)))
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r := NewByteReader(whole(data))
		for j := 0; j < 4096; j++ {
			if _, err := r.ReadVarint128(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadVarint128s decodes decimal(15,2) values in batches of 1024:
// prices below 10^5 (1 to 4 bytes each, mostly 4), and rates 0.00-0.10
// (one byte each).
func BenchmarkReadVarint128s(b *testing.B) {
	b.Run("prices", func(b *testing.B) { benchVarints(b, 10_000_000) })
	b.Run("rates", func(b *testing.B) { benchVarints(b, 11) })
	// TPC-H l_extendedprice in cents: quantity 1..50 times a part price
	// of 900.00..2099.99, 3 or 4 bytes each, mixed.
	b.Run("extendedprice", func(b *testing.B) {
		benchVarintsOf(b, func(rng *rand.Rand) int64 { return (1 + rng.Int64N(50)) * (90000 + rng.Int64N(120000)) })
	})
}

func benchVarints(b *testing.B, below int64) {
	benchVarintsOf(b, func(rng *rand.Rand) int64 { return rng.Int64N(below) })
}

func benchVarintsOf(b *testing.B, gen func(*rand.Rand) int64) {
	rng := rand.New(rand.NewPCG(9, 10))
	var data []byte
	for i := 0; i < 1<<16; i++ {
		data = AppendVarint128(data, orc.Int128FromInt64(gen(rng)))
	}
	dst := make([]orc.Int128, 1024)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewByteReader(whole(data))
		for j := 0; j < 64; j++ {
			if err := r.ReadVarint128s(dst); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// SkipVarints lands where reading the same number of varints would, over
// values of 1 to 19 bytes and chunks cut anywhere, and reports a stream that
// ends inside the skipped varints as corrupt.
func TestSkipVarints(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	var vals []orc.Int128
	var data []byte
	for len(vals) < 5000 {
		v := orc.Int128FromInt64(rng.Int64N(1<<(7*(1+rng.IntN(9))-1)) - 1<<20)
		if rng.IntN(20) == 0 {
			v = orc.Int128{Hi: rng.Int64(), Lo: rng.Uint64()}
		}
		vals = append(vals, v)
		data = AppendVarint128(data, v)
	}
	for _, src := range []ChunkSource{whole(data), newPieceSource(data, 17, 40)} {
		r := NewByteReader(src)
		for i := 0; i < len(vals); {
			k := min([]int{0, 1, 2, 7, 8, 9, 30, 200}[rng.IntN(8)], len(vals)-i)
			if err := r.SkipVarints(int64(k)); err != nil {
				t.Fatal(err)
			}
			i += k
			if i == len(vals) {
				break
			}
			v, err := r.ReadVarint128()
			if err != nil {
				t.Fatal(err)
			}
			if v != vals[i] {
				t.Fatalf("value %d after a skip of %d: got %v, want %v", i, k, v, vals[i])
			}
			i++
		}
	}
	if err := NewByteReader(whole(data[:len(data)-1])).SkipVarints(int64(len(vals))); !errors.Is(err, orc.ErrCorrupt) {
		t.Fatalf("truncated: %v", err)
	}
}
