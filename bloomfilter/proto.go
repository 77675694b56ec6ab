package bloomfilter

// Conversion between Filter and the orcpb.BloomFilter message stored in
// BLOOM_FILTER (legacy) and BLOOM_FILTER_UTF8 index streams:
//
//	field 1 num_hash_functions  uint32            k, 1..MaxHashFunctions
//	field 2 bitset              repeated fixed64  legacy form: one word each
//	field 3 utf8bitset          bytes             8*W bytes: word i is bytes
//	                                              [8i, 8i+8) little-endian
//
// Our writer fills utf8bitset only. Readers should probe only filters from
// BLOOM_FILTER_UTF8 streams (legacy streams hashed strings with the JVM's
// default charset before HIVE-12055 and timestamps in writer-local time
// before ORC-135), but FromProto decodes both fields.

import (
	"encoding/binary"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Proto returns the filter as stored in a BLOOM_FILTER_UTF8 stream: k and
// the words as little-endian bytes in utf8bitset.
func (f *Filter) Proto() *orcpb.BloomFilter {
	b := make([]byte, 8*len(f.words))
	for i, w := range f.words {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
	k := uint32(f.k)
	return &orcpb.BloomFilter{NumHashFunctions: &k, Utf8Bitset: b}
}

// FromProto decodes a stored filter, from utf8bitset when it is set and from
// the legacy bitset field otherwise. It returns an error wrapping
// orc.ErrCorrupt when k is outside 1..MaxHashFunctions, when both bit fields
// are empty, when utf8bitset's length is not a multiple of 8, or when the
// filter is larger than MaxBits.
func FromProto(pb *orcpb.BloomFilter) (*Filter, error) {
	if pb == nil {
		return nil, orc.Corruptf("bloom filter missing")
	}
	if pb.NumHashFunctions == nil {
		return nil, orc.Corruptf("bloom filter without num_hash_functions")
	}
	k := pb.GetNumHashFunctions()
	if k < 1 || k > MaxHashFunctions {
		return nil, orc.Corruptf("bloom filter has %d hash functions, want 1..%d", k, MaxHashFunctions)
	}
	var words []uint64
	switch {
	case len(pb.Utf8Bitset) > 0:
		b := pb.Utf8Bitset
		if len(b)%8 != 0 {
			return nil, orc.Corruptf("bloom filter utf8bitset of %d bytes is not a whole number of 64-bit words", len(b))
		}
		if len(b) > MaxBits/8 {
			return nil, orc.Corruptf("bloom filter of %d bytes exceeds the %d-byte limit", len(b), MaxBits/8)
		}
		words = make([]uint64, len(b)/8)
		for i := range words {
			words[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
	case len(pb.Bitset) > 0:
		if len(pb.Bitset) > MaxBits/64 {
			return nil, orc.Corruptf("bloom filter of %d words exceeds the %d-word limit", len(pb.Bitset), MaxBits/64)
		}
		words = append([]uint64(nil), pb.Bitset...)
	default:
		return nil, orc.Corruptf("bloom filter with an empty bitset")
	}
	return newFilter(words, int32(k)), nil
}
