package bloomfilter

import (
	"github.com/orcgo/orc"
)

// Bits is a stored filter probed where it lies, without a copy: its bitset
// is the bytes of its 64-bit words in little-endian order, as
// BLOOM_FILTER_UTF8's utf8bitset (and a packed bitset field) stores them.
// Bit p of the filter is bit p%8 of byte p/8, the same bit as bit p%64 of
// word p/64, so Bits answers exactly as the Filter FromProto decodes from
// the same message.
//
// A reader probing a stripe's filters once or a few times (a lookup tests
// one value in each row group) so pays for no copy of their bits: at
// orcgo's default 1% false-positive rate a row group of 10,000 rows has a
// filter of 11.7 KiB. Bits refers to the bytes it was made from, which must not
// change while it is in use. The zero Bits is no filter (Valid reports
// false) and must not be probed.
type Bits struct {
	b       []byte
	numBits uint32 // 8 * len(b)
	k       int32
	magic   uint64 // for mod, as Filter's
}

var _ Probe = (*Bits)(nil)

// NewBits returns a filter of k hash functions over the bitset b, the
// little-endian bytes of its words. It returns an error wrapping
// orc.ErrCorrupt, as FromProto does for the same message, when k is outside
// 1..MaxHashFunctions, when b is empty or not a whole number of 64-bit
// words, or when the filter is larger than MaxBits.
func NewBits(b []byte, k int) (Bits, error) {
	if k < 1 || k > MaxHashFunctions {
		return Bits{}, orc.Corruptf("bloom filter has %d hash functions, want 1..%d", k, MaxHashFunctions)
	}
	if len(b) == 0 {
		return Bits{}, orc.Corruptf("bloom filter with an empty bitset")
	}
	if len(b)%8 != 0 {
		return Bits{}, orc.Corruptf("bloom filter bitset of %d bytes is not a whole number of 64-bit words", len(b))
	}
	if len(b) > MaxBits/8 {
		return Bits{}, orc.Corruptf("bloom filter of %d bytes exceeds the %d-byte limit", len(b), MaxBits/8)
	}
	m := uint32(8 * len(b))
	return Bits{b: b, numBits: m, k: int32(k), magic: ^uint64(0)/uint64(m) + 1}, nil
}

// Valid reports whether f is a filter (not the zero Bits).
func (f *Bits) Valid() bool { return f.numBits != 0 }

// Bytes returns the bitset f probes: the bytes it was made from, not a
// copy.
func (f *Bits) Bytes() []byte { return f.b }

// NumBits returns the filter's size m in bits, a multiple of 64.
func (f *Bits) NumBits() int { return int(f.numBits) }

// NumHashFunctions returns k, the number of bits each value sets.
func (f *Bits) NumHashFunctions() int { return int(f.k) }

// TestHash reports whether a value with hash h may have been added; the
// positions are Filter.TestHash's.
func (f *Bits) TestHash(h uint64) bool { return mayHold(f.b, h, f.k, f.magic, uint64(f.numBits)) }

// TestLong reports whether an integer value (also dates as days) may have
// been added.
func (f *Bits) TestLong(v int64) bool { return f.TestHash(HashLong(v)) }

// TestDouble reports whether a floating-point value may have been added.
func (f *Bits) TestDouble(v float64) bool { return f.TestHash(HashDouble(v)) }

// TestBytes reports whether a byte string may have been added.
func (f *Bits) TestBytes(b []byte) bool { return f.TestHash(HashBytes(b)) }

// TestString reports whether a string may have been added.
func (f *Bits) TestString(s string) bool { return f.TestHash(HashString(s)) }
