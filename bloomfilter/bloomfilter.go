// Package bloomfilter builds, probes, merges and (de)serializes ORC bloom
// filters, bit for bit as Java ORC does, so that filters written here are
// read correctly by Java and C++ readers and the other way round.
//
// # Semantics
//
// A filter answers "may contain" for one row group of one column: a Test
// method returning false proves that the value was never added; true means
// only that it might have been (false positives happen at about the rate the
// filter was sized for). Pruning therefore skips a row group only on false.
// A filter never has false negatives as long as the writer added every
// non-null value with the same hash the reader probes with, which is why the
// hashes (HashBytes, HashLong and their kin) and the value each column type adds (the
// writer's job) must match Apache ORC Java exactly.
//
// # Layout
//
// A filter is m bits, m a multiple of 64, stored as m/64 64-bit words. Bit p
// is bit p&63 of word p>>6. On disk (orcpb.BloomFilter):
//
//	field 1 num_hash_functions  uint32   k
//	field 2 bitset              fixed64  the words (legacy BLOOM_FILTER streams)
//	field 3 utf8bitset          bytes    the words, 8 bytes each little-endian
//	                                     (BLOOM_FILTER_UTF8 streams)
//
// so bit p is also bit p&7 of byte p>>3 of utf8bitset.
//
// A value with 64-bit hash h sets (or probes) k bits: with h1 = int32(h) and
// h2 = int32(h>>32), for i = 1..k, c = h1 + i*h2 in wrapping 32-bit
// arithmetic, c = ^c when negative, bit c % m.
//
// # Sizing
//
// New sizes a filter from the expected number of entries n (the row index
// stride) and the false-positive probability p exactly as Java's
// org.apache.orc.util.BloomFilter constructor does:
//
//	n  = max(n, 1)
//	nb = floor(-n*ln(p) / (ln 2)^2)        (Java: (int) cast)
//	m  = nb + 64 - nb%64                   (adds 64 even when nb%64 == 0)
//	k  = max(1, floor(m/n*ln 2 + 0.5))     (Java: Math.round)
//
// For n = 10,000: p = 0.01 gives m = 95,872 and k = 7; p = 0.05 gives
// m = 62,400 and k = 4.
//
// A Filter is not safe for concurrent use while values are added; concurrent
// Test calls on a filter nobody modifies are safe.
package bloomfilter

import (
	"fmt"
	"math"
	"math/bits"
)

// DefaultFPP is the false-positive probability Java ORC (since ORC-1338) and
// C++ ORC (since ORC-1597) use by default.
const DefaultFPP = 0.01

// MaxHashFunctions is the largest number of hash functions FromProto accepts
// and New produces. Java sizing gives k = 7 at p = 0.01 and reaches 32 only
// around p = 1e-10; the cap bounds the work a hostile filter can cause per
// probe.
const MaxHashFunctions = 64

// MaxBits is the largest filter size, in bits, that New produces and
// FromProto accepts (32 MiB of words). A default filter (stride 10,000,
// p = 0.01) has 95,872 bits. Positions are 31-bit numbers, so bits past 2^31
// could never be used anyway.
const MaxBits = 1 << 28

// Filter is an ORC bloom filter. The zero value is not usable; create one
// with New or FromProto.
type Filter struct {
	words   []uint64
	numBits uint32 // 64 * len(words)
	k       int32
	magic   uint64 // for mod: ^uint64(0)/numBits + 1
}

// newFilter wraps words (at least one) in a Filter with k hash functions.
func newFilter(words []uint64, k int32) *Filter {
	m := uint32(64 * len(words))
	return &Filter{words: words, numBits: m, k: k, magic: ^uint64(0)/uint64(m) + 1}
}

// mod returns c % numBits without a division: Lemire, Kaser and Kurz,
// "Faster Remainder by Direct Computation" (2019), exact for every 32-bit
// c and divisor. The probe loop runs k of these per value.
// probe computes it from the fields held in locals.
func (f *Filter) mod(c uint32) uint32 {
	hi, _ := bits.Mul64(f.magic*uint64(c), uint64(f.numBits))
	return uint32(hi)
}

// New returns an empty filter sized for expectedEntries values at a
// false-positive probability fpp, exactly as Java ORC sizes it (see the
// package documentation). expectedEntries below 1 counts as 1. An fpp that
// is not strictly between 0 and 1 is replaced by DefaultFPP. The size is
// capped at MaxBits and k at MaxHashFunctions.
func New(expectedEntries int, fpp float64) *Filter {
	if !(fpp > 0 && fpp < 1) {
		fpp = DefaultFPP
	}
	n := float64(max(expectedEntries, 1))
	ln2 := math.Log(2)
	nbf := -n * math.Log(fpp) / (ln2 * ln2)
	var m int64
	if nbf >= MaxBits {
		m = MaxBits
	} else {
		nb := int64(nbf)
		m = nb + 64 - nb%64
		m = min(m, MaxBits)
	}
	k := int64(math.Floor(float64(m)/n*ln2 + 0.5))
	k = min(max(k, 1), MaxHashFunctions)
	return newFilter(make([]uint64, m/64), int32(k))
}

// NumBits returns the filter's size m in bits, a multiple of 64.
func (f *Filter) NumBits() int { return int(f.numBits) }

// NumHashFunctions returns k, the number of bits each value sets.
func (f *Filter) NumHashFunctions() int { return int(f.k) }

// probe returns the position of the i-th of the k bits (i from 1) that a
// value whose hash has the halves h1 and h2 sets in a filter of m bits,
// magic being the filter's reciprocal of m.
func probe(h1, h2, i int32, magic, m uint64) uint64 {
	c := h1 + i*h2
	if c < 0 {
		c = ^c
	}
	p, _ := bits.Mul64(magic*uint64(uint32(c)), m) // mod
	return p
}

// AddHash adds a value by its 64-bit hash (HashBytes, HashLong, HashDouble).
func (f *Filter) AddHash(h uint64) {
	h1, h2 := int32(h), int32(h>>32)
	// The fields in locals: through f, every store to a word made the
	// compiler load them again, for some 200 instructions a value at k = 7.
	words, magic, m, k := f.words, f.magic, uint64(f.numBits), f.k
	for i := int32(1); i <= k; i++ {
		p := probe(h1, h2, i, magic, m)
		words[p>>6] |= 1 << (p & 63)
	}
}

// TestHash reports whether a value with hash h may have been added.
func (f *Filter) TestHash(h uint64) bool { return mayHold(f.words, h, f.k, f.magic, uint64(f.numBits)) }

// mayHold reports whether the k bits that a value of hash h sets in a
// filter of m bits (magic its reciprocal of m) are all set in set, the
// filter's bitset in words of W: Filter's 64-bit words, or Bits' bytes,
// the same words in little-endian order, in which bit p of the filter is
// bit p%8 of byte p/8 as it is bit p%64 of word p/64.
func mayHold[W uint8 | uint64](set []W, h uint64, k int32, magic, m uint64) bool {
	width := uint64(bits.Len64(uint64(^W(0)))) // 8 or 64, a constant in each instance
	shift := uint(bits.TrailingZeros64(width))
	h1, h2 := int32(h), int32(h>>32)
	for i := int32(1); i <= k; i++ {
		p := probe(h1, h2, i, magic, m)
		if set[p>>shift]&(W(1)<<(p&(width-1))) == 0 {
			return false
		}
	}
	return true
}

// AddLong adds an integer value (also dates as days, timestamps as
// milliseconds, list and map child counts, union tags).
func (f *Filter) AddLong(v int64) { f.AddHash(HashLong(v)) }

// AddDouble adds a float or double value, NaN canonicalized as Java does.
func (f *Filter) AddDouble(v float64) { f.AddHash(HashDouble(v)) }

// AddBytes adds a binary value or the UTF-8 bytes of a text value.
func (f *Filter) AddBytes(b []byte) { f.AddHash(HashBytes(b)) }

// AddString adds the UTF-8 bytes of s without copying them.
func (f *Filter) AddString(s string) { f.AddHash(HashString(s)) }

// TestLong reports whether the integer v may have been added.
func (f *Filter) TestLong(v int64) bool { return f.TestHash(HashLong(v)) }

// TestDouble reports whether v may have been added. A zero literal must be
// probed as both +0.0 and -0.0, which hash differently.
func (f *Filter) TestDouble(v float64) bool { return f.TestHash(HashDouble(v)) }

// TestBytes reports whether b may have been added.
func (f *Filter) TestBytes(b []byte) bool { return f.TestHash(HashBytes(b)) }

// TestString reports whether the bytes of s may have been added.
func (f *Filter) TestString(s string) bool { return f.TestHash(HashString(s)) }

// Merge adds every value of o to f. Both filters must have the same size and
// number of hash functions; otherwise f is unchanged and an error is
// returned.
func (f *Filter) Merge(o *Filter) error {
	if o == nil {
		return fmt.Errorf("bloomfilter: merge with a nil filter")
	}
	if f.numBits != o.numBits || f.k != o.k {
		return fmt.Errorf("bloomfilter: cannot merge a filter of %d bits and %d hash functions into one of %d bits and %d",
			o.numBits, o.k, f.numBits, f.k)
	}
	for i, w := range o.words {
		f.words[i] |= w
	}
	return nil
}

// Reset clears every bit, keeping the size, so the filter can serve the
// next row group.
func (f *Filter) Reset() { clear(f.words) }
