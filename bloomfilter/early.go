package bloomfilter

// Filters of the early Hive layout, found in BLOOM_FILTER streams of some
// files written by Hive 1.2-era Java writers (Apache's over1k_bloom.orc is
// one). Their BloomFilter message differs from today's:
//
//	field 1  varint            expected entries n (the row index stride)
//	field 2  fixed64           false-positive probability p, an IEEE double
//	field 3  repeated varint   the words, one varint each
//
// so today's message reads n as the number of hash functions and p as a
// one-word bitset. The filter has m = floor(-n*ln(p) / (ln 2)^2) bits (not
// rounded up to a multiple of 64; the words hold ceil(m/64)*64 bits) and
// k = max(1, round(m/n*ln 2)) hash functions, and the positions of a hash
// are computed as today's, modulo m. Values are hashed with HashBytes of
// their bytes: integers and the bit patterns of doubles (DoubleBits) as 8
// little-endian bytes, strings and binary values as they are.

import (
	"encoding/binary"
	"math"

	"github.com/orcgo/orc"
)

// Probe is what a stored filter answers: whether a value may have been
// added. *Filter and *EarlyFilter implement it.
type Probe interface {
	TestLong(v int64) bool
	TestDouble(v float64) bool
	TestBytes(b []byte) bool
}

var (
	_ Probe = (*Filter)(nil)
	_ Probe = (*EarlyFilter)(nil)
)

// EarlyFilter is a filter of the early Hive layout (see the file comment).
type EarlyFilter struct {
	f        *Filter
	entries  uint64
	fpp      float64
	numWords int
}

// NewEarly returns the filter of the early layout stored as words, sized
// for expectedEntries at fpp. It returns an error wrapping orc.ErrCorrupt
// when the sizes are not those of such a filter: expectedEntries 0, fpp
// not strictly between 0 and 1, or m not within the last word of words.
func NewEarly(words []uint64, expectedEntries uint64, fpp float64) (*EarlyFilter, error) {
	if expectedEntries == 0 || expectedEntries > MaxBits || !(fpp > 0 && fpp < 1) {
		return nil, orc.Corruptf("early-layout bloom filter sized for %d entries at p = %v", expectedEntries, fpp)
	}
	n := float64(expectedEntries)
	ln2 := math.Log(2)
	mf := math.Floor(-n * math.Log(fpp) / (ln2 * ln2))
	if mf < 1 || mf > MaxBits || int64(mf) > 64*int64(len(words)) || int64(mf) <= 64*int64(len(words))-64 {
		return nil, orc.Corruptf("early-layout bloom filter of %d words cannot hold the %v bits that %d entries at p = %v need", len(words), mf, expectedEntries, fpp)
	}
	m := uint32(mf)
	k := int64(math.Floor(float64(m)/n*ln2 + 0.5))
	k = min(max(k, 1), MaxHashFunctions)
	f := &Filter{words: words, numBits: m, k: int32(k), magic: ^uint64(0)/uint64(m) + 1}
	return &EarlyFilter{f: f, entries: expectedEntries, fpp: fpp, numWords: len(words)}, nil
}

func le8(v uint64) [8]byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return b
}

// AddLong adds an integer value.
func (e *EarlyFilter) AddLong(v int64) { b := le8(uint64(v)); e.f.AddHash(HashBytes(b[:])) }

// AddDouble adds a floating-point value.
func (e *EarlyFilter) AddDouble(v float64) {
	b := le8(uint64(DoubleBits(v)))
	e.f.AddHash(HashBytes(b[:]))
}

// AddBytes adds a string or binary value.
func (e *EarlyFilter) AddBytes(b []byte) { e.f.AddHash(HashBytes(b)) }

// TestLong reports whether the integer v may have been added.
func (e *EarlyFilter) TestLong(v int64) bool {
	b := le8(uint64(v))
	return e.f.TestHash(HashBytes(b[:]))
}

// TestDouble reports whether the floating-point v may have been added.
func (e *EarlyFilter) TestDouble(v float64) bool {
	b := le8(uint64(DoubleBits(v)))
	return e.f.TestHash(HashBytes(b[:]))
}

// TestBytes reports whether the string or binary value b may have been
// added.
func (e *EarlyFilter) TestBytes(b []byte) bool { return e.f.TestHash(HashBytes(b)) }

// NumBits returns m, the bits positions are taken modulo.
func (e *EarlyFilter) NumBits() int { return int(e.f.numBits) }

// NumWords returns the number of stored words.
func (e *EarlyFilter) NumWords() int { return e.numWords }

// NumHashFunctions returns k.
func (e *EarlyFilter) NumHashFunctions() int { return int(e.f.k) }

// ExpectedEntries returns the n the filter was sized for.
func (e *EarlyFilter) ExpectedEntries() uint64 { return e.entries }

// FPP returns the false-positive probability the filter was sized for.
func (e *EarlyFilter) FPP() float64 { return e.fpp }

// Words returns the stored words (not a copy).
func (e *EarlyFilter) Words() []uint64 { return e.f.words }
