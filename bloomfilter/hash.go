package bloomfilter

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// The hashes ORC feeds its bloom filters. Both must match Java ORC bit for
// bit, or filters written by one implementation answer "absent" for values
// the other added.
//
// Bytes (strings, binary, decimals as text) use ORC's own 64-bit Murmur3
// variant. It is not the first half of MurmurHash3_x64_128 (which is what
// github.com/twmb/murmur3's Sum64 returns, and what the spec's wording
// suggests): it runs a single 64-bit lane over 8-byte little-endian blocks.
//
//	h = 104729
//	for each whole 8-byte block k (little-endian):
//	    k *= c1; k = rotl64(k, 31); k *= c2
//	    h ^= k; h = rotl64(h, 27)*5 + 0x52dce729
//	if 1..7 bytes remain: k = those bytes little-endian;
//	    k *= c1; k = rotl64(k, 31); k *= c2; h ^= k
//	h ^= len
//	h ^= h>>33; h *= 0xff51afd7ed558ccd; h ^= h>>33
//	h *= 0xc4ceb9fe1a85ec53; h ^= h>>33
//
// Longs use Thomas Wang's 64-bit integer mix with arithmetic (sign-extending)
// right shifts, as Java's >> on a long does. C++ ORC 1.6.0 to 1.6.11 and
// 1.7.0 used logical shifts instead (ORC-1024); see TrustFilters.
//
// Doubles are hashed as longs through their bit pattern after Java's
// Double.doubleToLongBits, which maps every NaN to 0x7ff8000000000000.
// +0.0 and -0.0 have different patterns and so different hashes.

const (
	murmurSeed = 104729
	murmurC1   = 0x87c37b91114253d5
	murmurC2   = 0x4cf5ad432745937f
	murmurN1   = 0x52dce729
	fmixM1     = 0xff51afd7ed558ccd
	fmixM2     = 0xc4ceb9fe1a85ec53

	canonicalNaN = 0x7ff8000000000000 // Java's Double.doubleToLongBits(NaN)
)

// HashBytes returns ORC's 64-bit Murmur3 hash of b (seed 104729), the hash
// bloom filters use for string, char, varchar, binary and decimal values.
func HashBytes(b []byte) uint64 {
	h := uint64(murmurSeed)
	n := len(b)
	for len(b) >= 8 {
		k := binary.LittleEndian.Uint64(b)
		k *= murmurC1
		k = bits.RotateLeft64(k, 31)
		k *= murmurC2
		h ^= k
		h = bits.RotateLeft64(h, 27)*5 + murmurN1
		b = b[8:]
	}
	if len(b) > 0 {
		var k uint64
		for i := len(b) - 1; i >= 0; i-- {
			k = k<<8 | uint64(b[i])
		}
		k *= murmurC1
		k = bits.RotateLeft64(k, 31)
		k *= murmurC2
		h ^= k
	}
	h ^= uint64(n)
	h ^= h >> 33
	h *= fmixM1
	h ^= h >> 33
	h *= fmixM2
	h ^= h >> 33
	return h
}

// HashString is HashBytes of the bytes of s, without copying them.
func HashString(s string) uint64 {
	return HashBytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// HashLong returns Thomas Wang's 64-bit hash of v with arithmetic right
// shifts, the hash bloom filters use for integer, date, timestamp and
// (through DoubleBits) floating-point values.
func HashLong(v int64) uint64 {
	k := v
	k = ^k + (k << 21)
	k ^= k >> 24
	k = k + (k << 3) + (k << 8)
	k ^= k >> 14
	k = k + (k << 2) + (k << 4)
	k ^= k >> 28
	k += k << 31
	return uint64(k)
}

// DoubleBits returns the bit pattern Java's Double.doubleToLongBits gives v:
// math.Float64bits, except that every NaN becomes 0x7ff8000000000000.
func DoubleBits(v float64) int64 {
	if v != v {
		return canonicalNaN
	}
	return int64(math.Float64bits(v))
}

// HashDouble returns the hash bloom filters use for a float or double value.
// Floats are widened to float64 first.
func HashDouble(v float64) uint64 { return HashLong(DoubleBits(v)) }
