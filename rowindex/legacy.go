package rowindex

// BLOOM_FILTER streams (the legacy kind, before BLOOM_FILTER_UTF8) come in
// two layouts of the BloomFilter message. Today's (Hive 1.2.0 and later):
// field 1 num_hash_functions, field 2 repeated fixed64 bitset. The early
// one (see bloomfilter.EarlyFilter): field 1 expected entries, field 2 the
// false-positive probability as a fixed64 double, field 3 the words as
// repeated varints. A filter is of the early layout when its field 3 holds
// varints; today's message never does (its field 3, utf8bitset, is bytes).
// Which types' filters a reader may trust is the reader's decision.

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
)

// LegacyBloom is one row group's filter of a BLOOM_FILTER stream: exactly
// one of Early and Filter is set.
type LegacyBloom struct {
	Early  *bloomfilter.EarlyFilter // the early layout
	Filter *bloomfilter.Filter      // today's layout
}

// Probe returns the filter as a bloomfilter.Probe.
func (l LegacyBloom) Probe() bloomfilter.Probe {
	if l.Early != nil {
		return l.Early
	}
	return l.Filter
}

func legacyCorrupt(format string, args ...any) error {
	return &orc.CorruptError{Offset: -1, Stripe: -1, Column: -1, Stream: "BLOOM_FILTER", Msg: fmt.Sprintf(format, args...)}
}

// DecodeLegacyBloomIndex decodes a BLOOM_FILTER stream: one filter per row
// group, in either layout. Malformed bytes or sizes are errors wrapping
// orc.ErrCorrupt naming the filter.
func DecodeLegacyBloomIndex(data []byte) ([]LegacyBloom, error) {
	var out []LegacyBloom
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return nil, legacyCorrupt("bloom filter %d: bad tag", len(out))
		}
		data = data[n:]
		if num != 1 || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, data); n < 0 {
				return nil, legacyCorrupt("bloom filter %d: bad field %d", len(out), num)
			}
			data = data[n:]
			continue
		}
		msg, n := protowire.ConsumeBytes(data)
		if n < 0 {
			return nil, legacyCorrupt("bloom filter %d: length past the end of the stream", len(out))
		}
		data = data[n:]
		lb, err := decodeLegacyBloom(msg)
		if err != nil {
			return nil, legacyCorrupt("bloom filter %d: %v", len(out), err)
		}
		out = append(out, lb)
	}
	return out, nil
}

// decodeLegacyBloom decodes one BloomFilter message of either layout.
func decodeLegacyBloom(msg []byte) (LegacyBloom, error) {
	var (
		f1       uint64
		has1     bool
		fixed    []uint64 // field 2, fixed64 (packed or not)
		varints  []uint64 // field 3 as varints: the early layout's words
		utf8     []byte   // field 3 as bytes: today's utf8bitset
		maxWords = bloomfilter.MaxBits / 64
	)
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return LegacyBloom{}, fmt.Errorf("bad tag")
		}
		msg = msg[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			f1, n = protowire.ConsumeVarint(msg)
			has1 = true
		case num == 2 && typ == protowire.Fixed64Type:
			var v uint64
			v, n = protowire.ConsumeFixed64(msg)
			fixed = append(fixed, v)
		case num == 2 && typ == protowire.BytesType:
			var b []byte
			b, n = protowire.ConsumeBytes(msg)
			if n >= 0 && len(b)%8 != 0 {
				return LegacyBloom{}, fmt.Errorf("packed bitset of %d bytes", len(b))
			}
			for i := 0; n >= 0 && i+8 <= len(b); i += 8 {
				v, _ := protowire.ConsumeFixed64(b[i:])
				fixed = append(fixed, v)
			}
		case num == 3 && typ == protowire.VarintType:
			var v uint64
			v, n = protowire.ConsumeVarint(msg)
			varints = append(varints, v)
		case num == 3 && typ == protowire.BytesType:
			utf8, n = protowire.ConsumeBytes(msg)
		default:
			n = protowire.ConsumeFieldValue(num, typ, msg)
		}
		if n < 0 {
			return LegacyBloom{}, fmt.Errorf("field %d does not parse", num)
		}
		if len(fixed) > maxWords || len(varints) > maxWords {
			return LegacyBloom{}, fmt.Errorf("more than %d words", maxWords)
		}
		msg = msg[n:]
	}
	if len(varints) > 0 {
		if !has1 || len(fixed) != 1 || len(utf8) > 0 {
			return LegacyBloom{}, fmt.Errorf("varint words without the early layout's entries and probability")
		}
		e, err := bloomfilter.NewEarly(varints, f1, math.Float64frombits(fixed[0]))
		if err != nil {
			return LegacyBloom{}, err
		}
		return LegacyBloom{Early: e}, nil
	}
	if !has1 || f1 > math.MaxUint32 {
		return LegacyBloom{}, fmt.Errorf("no number of hash functions")
	}
	k := uint32(f1)
	f, err := bloomfilter.FromProto(&orcpb.BloomFilter{NumHashFunctions: &k, Bitset: fixed, Utf8Bitset: utf8})
	if err != nil {
		return LegacyBloom{}, err
	}
	return LegacyBloom{Filter: f}, nil
}
