package bloomfilter

import (
	"math"
	"testing"
)

// The vectors below were worked out from the algorithm in hash.go (the
// checklist's description of Java's Murmur3.hash64 and getLongHash), not by
// running this package. Two of them step by step:
//
// HashBytes("a"): no whole block; tail k = 0x61.
//
//	k *= c1 (0x87c37b91114253d5)              -> 0x7111d1f78a21c3b5
//	k = rotl(k, 31)                           -> 0xc510e1dab888e8fb
//	k *= c2 (0x4cf5ad432745937f)              -> 0xf49ed48e325ab585
//	h = 104729 = 0x19919; h ^= k              -> 0xf49ed48e325b2c9c
//	h ^= len (1)                              -> 0xf49ed48e325b2c9d
//	h ^= h>>33                                -> 0xf49ed48e481446da
//	h *= 0xff51afd7ed558ccd                   -> 0x01d740c4275df492
//	h ^= h>>33                                -> 0x01d740c427b654f0
//	h *= 0xc4ceb9fe1a85ec53                   -> 0xddd9b0af771ac9d0
//	h ^= h>>33                                -> 0xddd9b0af19f61187
//
// HashBytes("abcdefghi"): block k = 0x6867666564636261 ("abcdefgh" LE),
// mixed 0x2c206eca25d3cf80; h = 0x19919 ^ k = 0x2c206eca25d25699, then
// rotl(h, 27)*5 + 0x52dce729 = 0x95e8dd8841c1f877; tail k = 0x69 mixed
// 0xcde4f83b55ae88c0, h ^= k -> 0x580c25b3146f70b7; h ^= 9 ->
// 0x580c25b3146f70be; fmix64 -> 0x2b0bc4f4e20036a9.
//
// HashLong(1), each line one step of Thomas Wang's mix (int64, >> arithmetic):
//
//	k = ^1 + (1<<21) = -2 + 2,097,152          = 0x1ffffe
//	k ^= k>>24   (0)                           = 0x1ffffe
//	k = k + k<<3 + k<<8  (k*265)               = 0x211ffdee
//	k ^= k>>14   (0x847f)                      = 0x211f7991
//	k = k + k<<2 + k<<4  (k*21)                = 0x2b794f8e5
//	k ^= k>>28   (0x2b)                        = 0x2b794f8ce
//	k += k<<31   (k*(2^31+1) mod 2^64)         = 0x5bca7c69b794f8ce
//
// HashLong(0): ^0 = -1, then -1 ^ (-1>>24) = 0, and every later step keeps 0.
// HashLong(-1): ^-1 + (-1<<21) = 0xffffffffffe00000; the arithmetic shift
// >>24 gives -1 and the xor 0x1fffff; a logical shift would not.
var hashBytesVectors = []struct {
	in   string
	want uint64
}{
	{"", 0x74a18dc8f20adb48}, // fmix64(104729)
	{"a", 0xddd9b0af19f61187},
	{"abcdefgh", 0x0a2025e4fc40126d},
	{"abcdefghi", 0x2b0bc4f4e20036a9},
	{"Alice", 0x0865822709f100ce},
}

var hashLongVectors = []struct {
	in   int64
	want uint64
}{
	{0, 0},
	{1, 0x5bca7c69b794f8ce},
	{-1, 0x5bca868437950d03},
	{42, 0x0f3db82f1e7b6f7a},
	{18000000000, 0xf0c67aca9b006bcb},
}

func TestHashBytesVectors(t *testing.T) {
	for _, tc := range hashBytesVectors {
		if got := HashBytes([]byte(tc.in)); got != tc.want {
			t.Errorf("HashBytes(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
		if got := HashString(tc.in); got != tc.want {
			t.Errorf("HashString(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

func TestHashLongVectors(t *testing.T) {
	for _, tc := range hashLongVectors {
		if got := HashLong(tc.in); got != tc.want {
			t.Errorf("HashLong(%d) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

func TestHashDouble(t *testing.T) {
	cases := []struct {
		in   float64
		bits int64
		want uint64
	}{
		{1.5, 0x3ff8000000000000, 0x3dddff49a005b9c8},
		{0, 0, 0},
		{math.Copysign(0, -1), math.MinInt64, 0x3be7d0f7780de548},
		{math.NaN(), 0x7ff8000000000000, 0x13d2d3f2cc0e846e},
		// A NaN with another payload must canonicalize too.
		{math.Float64frombits(0x7ff0000000000001), 0x7ff8000000000000, 0x13d2d3f2cc0e846e},
		{math.Float64frombits(0xfff8000000000123), 0x7ff8000000000000, 0x13d2d3f2cc0e846e},
	}
	for _, tc := range cases {
		if got := DoubleBits(tc.in); got != tc.bits {
			t.Errorf("DoubleBits(%v) = %#x, want %#x", tc.in, got, tc.bits)
		}
		if got := HashDouble(tc.in); got != tc.want {
			t.Errorf("HashDouble(%v) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// Every input length 0..40 hashed from a []byte and a string must agree, and
// changing any byte must change the hash (for these inputs).
func TestHashBytesLengths(t *testing.T) {
	buf := make([]byte, 40)
	for i := range buf {
		buf[i] = byte(i*37 + 11)
	}
	seen := map[uint64]int{}
	for n := 0; n <= len(buf); n++ {
		h := HashBytes(buf[:n])
		if HashString(string(buf[:n])) != h {
			t.Fatalf("length %d: HashString differs from HashBytes", n)
		}
		if prev, ok := seen[h]; ok {
			t.Fatalf("lengths %d and %d collide", prev, n)
		}
		seen[h] = n
		for i := 0; i < n; i++ {
			buf[i] ^= 0x80
			if HashBytes(buf[:n]) == h {
				t.Fatalf("length %d: flipping byte %d keeps the hash", n, i)
			}
			buf[i] ^= 0x80
		}
	}
}

func TestHashStringAllocs(t *testing.T) {
	s := "a string long enough to span several blocks"
	f := New(1000, 0.01)
	if n := testing.AllocsPerRun(100, func() {
		f.AddString(s)
		_ = f.TestString(s)
	}); n != 0 {
		t.Errorf("AddString/TestString allocate %v times", n)
	}
}
