package bloomfilter

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// Java sizing (checklist 3.4): n = 10,000 gives 95,872 bits and k = 7 at
// p = 0.01, 62,400 bits and k = 4 at p = 0.05 (the latter is what
// bad_bloom_filter_*.orc holds). The other rows follow the same formula by
// hand: n = 1, p = 0.05: nb = floor(6.235) = 6, m = 64, k = round(44.4) = 44.
// n = 0 counts as 1. n = 1000, p = 0.01: nb = floor(9585.06) = 9585,
// m = 9585 + 64 - 49 = 9600, k = round(6.654) = 7.
func TestNewSizing(t *testing.T) {
	cases := []struct {
		n       int
		fpp     float64
		bits, k int
	}{
		{10000, 0.01, 95872, 7},
		{10000, 0.05, 62400, 4},
		{1000, 0.01, 9600, 7},
		{1, 0.05, 64, 44},
		{0, 0.05, 64, 44},
		{-5, 0.05, 64, 44},
		{10000, 0, 95872, 7}, // invalid fpp -> DefaultFPP
		{10000, 1, 95872, 7}, // invalid fpp -> DefaultFPP
		{10000, math.NaN(), 95872, 7},
	}
	for _, tc := range cases {
		f := New(tc.n, tc.fpp)
		if f.NumBits() != tc.bits || f.NumHashFunctions() != tc.k {
			t.Errorf("New(%d, %v): %d bits, k=%d; want %d bits, k=%d",
				tc.n, tc.fpp, f.NumBits(), f.NumHashFunctions(), tc.bits, tc.k)
		}
		if len(f.words)*64 != f.NumBits() {
			t.Errorf("New(%d, %v): %d words for %d bits", tc.n, tc.fpp, len(f.words), f.NumBits())
		}
	}
	// Huge requests are capped.
	f := New(math.MaxInt, 1e-9)
	if f.NumBits() != MaxBits || f.NumHashFunctions() < 1 || f.NumHashFunctions() > MaxHashFunctions {
		t.Errorf("huge filter: %d bits, k=%d", f.NumBits(), f.NumHashFunctions())
	}
	f = New(10, 1e-300)
	if f.NumHashFunctions() != MaxHashFunctions {
		t.Errorf("tiny fpp: k=%d, want the cap %d", f.NumHashFunctions(), MaxHashFunctions)
	}
}

// The bit positions of one value worked out by hand from the rule
// c = h1 + i*h2 (int32), c = ^c if negative, p = c % m.
// HashLong(1) = 0x5bca7c69b794f8ce: h1 = int32(0xb794f8ce) = -1214973746,
// h2 = 0x5bca7c69 = 1539996777. With m = 64:
//
//	i=1: c = -1214973746 + 1539996777 = 325023031; 325023031 % 64 = 55
//	i=2: c = -1214973746 + 3079993554 = 1865019808; % 64 = 32
func TestBitPositions(t *testing.T) {
	f := newFilter(make([]uint64, 1), 2)
	f.AddLong(1)
	want := uint64(1)<<55 | uint64(1)<<32
	if f.words[0] != want {
		t.Fatalf("bits %#x, want %#x", f.words[0], want)
	}
	// i=3: c = -1214973746 + 4619990331 = 3405016585, which wraps to
	// 3405016585 - 2^32 = -889950711; negative, so ^c = 889950710; % 64 = 54.
	f = newFilter(make([]uint64, 1), 3)
	f.AddLong(1)
	want |= uint64(1) << 54
	if f.words[0] != want {
		t.Fatalf("k=3: bits %#x, want %#x", f.words[0], want)
	}
}

func TestAddedValuesTestTrue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	f := New(2000, 0.05)
	var longs []int64
	var doubles []float64
	var strs []string
	for i := 0; i < 2000; i++ {
		l := int64(r.Uint64())
		d := r.NormFloat64() * 1e6
		s := strconv.FormatUint(r.Uint64(), 36)
		f.AddLong(l)
		f.AddDouble(d)
		if i%2 == 0 {
			f.AddString(s)
		} else {
			f.AddBytes([]byte(s))
		}
		longs, doubles, strs = append(longs, l), append(doubles, d), append(strs, s)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)} {
		f.AddDouble(v)
		doubles = append(doubles, v)
	}
	for _, v := range []int64{0, math.MinInt64, math.MaxInt64, -1} {
		f.AddLong(v)
		longs = append(longs, v)
	}
	f.AddString("")
	strs = append(strs, "")
	for _, v := range longs {
		if !f.TestLong(v) {
			t.Fatalf("TestLong(%d) false after AddLong", v)
		}
	}
	for _, v := range doubles {
		if !f.TestDouble(v) {
			t.Fatalf("TestDouble(%v) false after AddDouble", v)
		}
	}
	for _, v := range strs {
		if !f.TestString(v) || !f.TestBytes([]byte(v)) {
			t.Fatalf("TestString(%q) false after adding it", v)
		}
	}
	// Any NaN payload finds the canonical NaN.
	if !f.TestDouble(math.Float64frombits(0x7ff0000000000abc)) {
		t.Error("a NaN with another payload was not found")
	}
}

func TestEmptyFilterFindsNothing(t *testing.T) {
	f := New(100, 0.01)
	for i := int64(-50); i < 50; i++ {
		if f.TestLong(i) || f.TestString(strconv.FormatInt(i, 10)) {
			t.Fatalf("empty filter claims %d", i)
		}
	}
}

// fpRate adds n values and probes 100,000 values that were not added.
func fpRate(t *testing.T, fpp float64, strs bool) float64 {
	const n, probes = 10000, 100000
	r := rand.New(rand.NewPCG(uint64(fpp*1000), 7))
	f := New(n, fpp)
	added := make(map[uint64]bool, n)
	for len(added) < n {
		v := r.Uint64()
		added[v] = true
		if strs {
			f.AddString(strconv.FormatUint(v, 16))
		} else {
			f.AddLong(int64(v))
		}
	}
	hits := 0
	for i := 0; i < probes; {
		v := r.Uint64()
		if added[v] {
			continue
		}
		i++
		var hit bool
		if strs {
			hit = f.TestString(strconv.FormatUint(v, 16))
		} else {
			hit = f.TestLong(int64(v))
		}
		if hit {
			hits++
		}
	}
	return float64(hits) / probes
}

func TestFalsePositiveRate(t *testing.T) {
	for _, fpp := range []float64{0.01, 0.05} {
		for _, strs := range []bool{false, true} {
			got := fpRate(t, fpp, strs)
			t.Logf("fpp %v strings=%v: measured %.4f", fpp, strs, got)
			if got > 1.5*fpp {
				t.Errorf("fpp %v strings=%v: measured false-positive rate %.4f exceeds 1.5x", fpp, strs, got)
			}
			if got == 0 {
				t.Errorf("fpp %v strings=%v: no false positive at all; the probe is suspicious", fpp, strs)
			}
		}
	}
}

func TestMergeAndReset(t *testing.T) {
	a, b := New(1000, 0.01), New(1000, 0.01)
	for i := int64(0); i < 500; i++ {
		a.AddLong(i)
		b.AddLong(i + 1000)
	}
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	for i := int64(0); i < 500; i++ {
		if !a.TestLong(i) || !a.TestLong(i+1000) {
			t.Fatalf("merged filter lost %d", i)
		}
	}
	if err := a.Merge(New(1000, 0.05)); err == nil {
		t.Error("merging filters of different sizes succeeded")
	}
	if err := a.Merge(newFilter(make([]uint64, len(a.words)), a.k+1)); err == nil {
		t.Error("merging filters with different k succeeded")
	}
	if err := a.Merge(nil); err == nil {
		t.Error("merging nil succeeded")
	}
	bits, k := a.NumBits(), a.NumHashFunctions()
	a.Reset()
	if a.NumBits() != bits || a.NumHashFunctions() != k {
		t.Error("Reset changed the size")
	}
	for _, w := range a.words {
		if w != 0 {
			t.Fatal("Reset left bits set")
		}
	}
}

func BenchmarkAddBytes(b *testing.B) {
	for _, size := range []int{8, 32, 128} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			f := New(10000, 0.01)
			v := make([]byte, size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				v[0] = byte(i)
				f.AddBytes(v)
			}
		})
	}
}

func BenchmarkTestBytes(b *testing.B) {
	for _, size := range []int{8, 32, 128} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			f := New(10000, 0.01)
			v := make([]byte, size)
			for i := 0; i < 10000; i++ {
				v[0], v[1] = byte(i), byte(i>>8)
				f.AddBytes(v)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				v[0], v[2] = byte(i), byte(i>>8)
				_ = f.TestBytes(v)
			}
		})
	}
}

func BenchmarkAddLong(b *testing.B) {
	f := New(10000, 0.01)
	b.SetBytes(8)
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		f.AddLong(i)
	}
}

// The division-free mod must equal % for every position the probe loop can
// ask for (0..2^31-1) and every filter size.
func TestModMatchesDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sizes := []int{1, 2, 3, 975, 1498, MaxBits / 64}
	for i := 0; i < 50; i++ {
		sizes = append(sizes, 1+r.IntN(MaxBits/64))
	}
	for _, words := range sizes {
		f := newFilter(make([]uint64, words), 1)
		m := uint32(64 * words)
		for _, c := range []uint32{0, 1, m - 1, m, m + 1, 1<<31 - 1, 1 << 31, math.MaxUint32} {
			if got := f.mod(c); got != c%m {
				t.Fatalf("m=%d: mod(%d) = %d, want %d", m, c, got, c%m)
			}
		}
		for j := 0; j < 2000; j++ {
			c := r.Uint32()
			if got := f.mod(c); got != c%m {
				t.Fatalf("m=%d: mod(%d) = %d, want %d", m, c, got, c%m)
			}
		}
	}
}

// TestAddHashMatchesDivision checks AddHash and TestHash against the
// definition, with each probe's position taken by division, on filters of
// several sizes and numbers of hash functions.
func TestAddHashMatchesDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		n   int
		fpp float64
	}{{1, 0.5}, {1000, 0.05}, {10000, 0.01}, {3, 1e-9}} {
		f := New(c.n, c.fpp)
		want := make([]uint64, len(f.words))
		m := int64(f.numBits)
		for range 500 {
			h := r.Uint64()
			f.AddHash(h)
			h1, h2 := int32(h), int32(h>>32)
			for i := int32(1); i <= f.k; i++ {
				c := h1 + i*h2
				if c < 0 {
					c = ^c
				}
				p := int64(c) % m
				want[p>>6] |= 1 << (p & 63)
			}
			if !f.TestHash(h) {
				t.Fatalf("n=%d: TestHash false for a hash just added", c.n)
			}
		}
		if !slices.Equal(f.words, want) {
			t.Fatalf("n=%d, fpp %g: AddHash set other bits than the definition", c.n, c.fpp)
		}
	}
}

// BenchmarkBitsTestLong probes a stored filter (Bits) as a reader does.
func BenchmarkBitsTestLong(b *testing.B) {
	f := New(10000, 0.01)
	for i := range int64(10000) {
		f.AddLong(i * 3)
	}
	bits, err := NewBits(f.Proto().Utf8Bitset, f.NumHashFunctions())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		_ = bits.TestLong(i)
	}
}
