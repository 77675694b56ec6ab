package rowindex

// Decoding the index streams of a stripe, after decompression (the file's
// codec frames them in chunks like any other stream):
//
//	ROW_INDEX (6)          RowIndex         {1: repeated RowIndexEntry}
//	                       RowIndexEntry    {1: positions packed uint64,
//	                                         2: statistics ColumnStatistics}
//	BLOOM_FILTER_UTF8 (8)  BloomFilterIndex {1: repeated BloomFilter}
//	BLOOM_FILTER (7)       (same message; legacy, not used for pruning)
//	                       BloomFilter      {1: num_hash_functions uint32,
//	                                         2: bitset repeated fixed64,
//	                                         3: utf8bitset bytes}
//
// One entry and one filter per row group, in row-group order.
//
// The decoders below walk the protobuf wire format by hand rather than
// through proto.Unmarshal: a stripe's indexes hold thousands of small
// messages, and a legacy bitset is one 9-byte field per 64-bit word, so the
// generic decoder's per-message and per-field costs dominated selective
// scans. Each decoder makes two passes over the bytes. The first checks the
// framing and counts entries, positions, filters and words; the second fills
// messages and values allocated once, exactly, from those counts (so no
// allocation is larger than the input can justify). The result is the
// message proto.Unmarshal would give, with these rules of the wire format
// kept:
//
//   - a repeated scalar may come packed or one value per field, mixed, and
//     all occurrences are appended in order;
//   - a non-repeated scalar or bytes field given more than once keeps the
//     last value; a varint for a uint32 field is truncated to 32 bits;
//   - a sub-message field given more than once is merged;
//   - a known field number with another wire type than its own is an
//     unknown field, skipped like any other (groups included);
//   - field number 0 or above 2^29-1, a stray end-group tag, wire types 6
//     and 7, varints longer than 10 bytes and anything running past its
//     enclosing length are errors.
//
// Unknown fields are skipped and dropped, not kept in the messages'
// unknown-field sets as proto.Unmarshal keeps them; nothing in this module
// reads them. Unknown fields inside statistics, which are still decoded by
// proto.Unmarshal, are kept.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
)

// Single-byte tags of the fields decoded here most (field number << 3 |
// wire type). A tag may also be spelled as a longer varint; the fast paths
// test these bytes and the general path (consumeTag) decodes any spelling.
const (
	tagBytes1 = 1<<3 | byte(protowire.BytesType)   // entry, bloom_filter, positions (packed)
	tagBytes2 = 2<<3 | byte(protowire.BytesType)   // statistics, bitset (packed)
	tagFixed2 = 2<<3 | byte(protowire.Fixed64Type) // bitset (one word)
)

var (
	errFieldNumber = errors.New("invalid field number")
	errEndGroup    = errors.New("end-group tag without a group")
	errBadVarint   = errors.New("truncated or overlong varint")
)

// mergeStats decodes a statistics field into the entry's message, merging
// with what an earlier statistics field of the same entry set.
var mergeStats = proto.UnmarshalOptions{Merge: true}

// consumeTag reads a field tag as proto.Unmarshal does at message level: a
// varint of up to 10 bytes (longer spellings than needed allowed), a field
// number in 1..2^29-1, and no end-group, since no group is open here. b is
// not empty.
func consumeTag(b []byte) (protowire.Number, protowire.Type, int, error) {
	var tag uint64
	n := 1
	if b[0] < 0x80 {
		tag = uint64(b[0])
	} else if tag, n = protowire.ConsumeVarint(b); n < 0 {
		return 0, 0, 0, fmt.Errorf("field tag: %w", protowire.ParseError(n))
	}
	num := tag >> 3
	if num < uint64(protowire.MinValidNumber) || num > uint64(protowire.MaxValidNumber) {
		return 0, 0, 0, errFieldNumber
	}
	typ := protowire.Type(tag & 7)
	if typ == protowire.EndGroupType {
		return 0, 0, 0, errEndGroup
	}
	return protowire.Number(num), typ, n, nil
}

// entryTag is consumeTag with a row index entry's two fields, in their
// one-byte spelling, read inline.
func entryTag(b []byte) (protowire.Number, protowire.Type, int, error) {
	if c := b[0]; c == tagBytes1 || c == tagBytes2 {
		return protowire.Number(c >> 3), protowire.BytesType, 1, nil
	}
	return consumeTag(b)
}

// skipField returns the length of the value of an unknown field, which
// starts b.
func skipField(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
	n := protowire.ConsumeFieldValue(num, typ, b)
	if n < 0 {
		return 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
	}
	return n, nil
}

// consumeLen reads the length prefix of a length-delimited value starting
// b and returns the value and the bytes consumed.
func consumeLen(num protowire.Number, b []byte) ([]byte, int, error) {
	v, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
	}
	return v, n, nil
}

// varintEnds counts the bytes of b without the continuation bit: the
// number of varints in b when b is a run of well-formed varints.
func varintEnds(b []byte) int {
	n := 0
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		n += bits.OnesCount64(^w & 0x8080808080808080)
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}

// appendVarints appends the packed varints of b to dst. The caller has
// checked that b ends a varint, and dst has room for one value per varint.
func appendVarints(dst []uint64, b []byte) ([]uint64, error) {
	for len(b) > 0 {
		if b[0] < 0x80 {
			dst = append(dst, uint64(b[0]))
			b = b[1:]
			continue
		}
		if len(b) >= 2 && b[1] < 0x80 {
			dst = append(dst, uint64(b[0]&0x7f)|uint64(b[1])<<7)
			b = b[2:]
			continue
		}
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return dst, errBadVarint
		}
		dst = append(dst, v)
		b = b[n:]
	}
	return dst, nil
}

func rowIndexError(err error) error {
	return &orc.CorruptError{Offset: -1, Stripe: -1, Column: -1, Stream: "ROW_INDEX",
		Msg: "row index does not parse", Err: err}
}

func bloomError(err error) error {
	return &orc.CorruptError{Offset: -1, Stripe: -1, Column: -1, Stream: "BLOOM_FILTER_UTF8",
		Msg: "bloom filter index does not parse", Err: err}
}

// DecodeRowIndex parses the decompressed bytes of a ROW_INDEX stream. Bytes
// that do not parse give an error wrapping orc.ErrCorrupt. Entry counts and
// position counts are checked by the reader, Split and NewStreamIndex, which
// know what to expect.
//
// The result equals proto.Unmarshal's for every input proto.Unmarshal
// accepts, except that unknown fields of the RowIndex and its entries are
// dropped (those inside statistics are kept), and it fails exactly where
// proto.Unmarshal fails. The entries share one backing array, and so do
// their positions (each entry's slice capped at its own length); the
// statistics are decoded by proto.Unmarshal into messages from one backing
// array. Nothing in the result aliases data.
func DecodeRowIndex(data []byte) (*orcpb.RowIndex, error) {
	return decodeRowIndex(data, true)
}

// DecodeRowIndexPositions is DecodeRowIndex for a column that is only
// seeked, never pruned on: every entry's Statistics is left nil, and the
// statistics bytes are not decoded. It checks everything DecodeRowIndex
// checks at the RowIndex and RowIndexEntry levels, including that each
// statistics field is a well-formed length-delimited value inside its
// entry, but not the contents of that value: bytes that only make
// DecodeRowIndex fail inside a ColumnStatistics message are accepted here.
// Otherwise it fails where DecodeRowIndex fails, and the entries' positions
// are the same.
func DecodeRowIndexPositions(data []byte) (*orcpb.RowIndex, error) {
	return decodeRowIndex(data, false)
}

// rowIndexCounts are what the first pass over a ROW_INDEX stream finds.
type rowIndexCounts struct {
	entries   int // RowIndexEntry messages
	positions int // position values in all entries
	stats     int // entries with at least one statistics field
}

// scanRowIndex checks the framing of a RowIndex and counts its parts. It
// leaves one check to the second pass: that each packed varint is at most
// 10 bytes long.
func scanRowIndex(data []byte) (rowIndexCounts, error) {
	var c rowIndexCounts
	var err error
	c.entries, err = scanRepeated(data, "entry", func(v []byte) error { return scanEntry(v, &c) })
	return c, err
}

// scanRepeated walks a message whose field 1 is a repeated message (an
// index's entries or filters), calling each with every one in turn and
// skipping the other fields, and returns how many it met. An error names
// the one it is in by its kind what and its number.
func scanRepeated(data []byte, what string, each func(v []byte) error) (int, error) {
	count := 0
	for b := data; len(b) > 0; {
		num, typ, n, err := consumeTag(b)
		if err != nil {
			return count, err
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n, err := consumeLen(1, b)
			if err == nil {
				err = each(v)
			}
			if err != nil {
				return count, fmt.Errorf("%s %d: %w", what, count, err)
			}
			count++
			b = b[n:]
			continue
		}
		if n, err = skipField(num, typ, b); err != nil {
			return count, err
		}
		b = b[n:]
	}
	return count, nil
}

// scanEntry checks the framing of one RowIndexEntry and adds its counts.
func scanEntry(b []byte, c *rowIndexCounts) error {
	hasStats := false
	for len(b) > 0 {
		num, typ, n, err := entryTag(b)
		if err != nil {
			return err
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n, err := consumeLen(num, b)
			if err != nil {
				return err
			}
			if len(v) > 0 && v[len(v)-1] >= 0x80 {
				return fmt.Errorf("positions: %w", errBadVarint)
			}
			c.positions += varintEnds(v)
			b = b[n:]
		case num == 1 && typ == protowire.VarintType:
			_, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return fmt.Errorf("positions: %w", protowire.ParseError(n))
			}
			c.positions++
			b = b[n:]
		case num == 2 && typ == protowire.BytesType:
			_, n, err := consumeLen(num, b)
			if err != nil {
				return err
			}
			hasStats = true
			b = b[n:]
		default:
			n, err := skipField(num, typ, b)
			if err != nil {
				return err
			}
			b = b[n:]
		}
	}
	if hasStats {
		c.stats++
	}
	return nil
}

func decodeRowIndex(data []byte, withStats bool) (*orcpb.RowIndex, error) {
	c, err := scanRowIndex(data)
	if err != nil {
		return nil, rowIndexError(err)
	}
	pos := room[uint64](c.positions)
	var stats []orcpb.ColumnStatistics
	if withStats && c.stats > 0 {
		stats = make([]orcpb.ColumnStatistics, c.stats)
	}
	entries := backed[orcpb.RowIndexEntry](c.entries)
	err = eachChecked(data, func(k int, v []byte) error {
		e := entries[k]
		start := len(pos)
		var err error
		if pos, stats, err = decodeEntry(v, e, pos, stats, withStats); err != nil {
			return rowIndexError(fmt.Errorf("entry %d: %w", k, err))
		}
		e.Positions = appended(pos, start)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &orcpb.RowIndex{Entry: entries}, nil
}

// backed returns pointers to n zero messages held in one backing array (an
// index's entries or filters, allocated at once from the first pass's
// count), or nil when n is 0.
func backed[T any](n int) []*T {
	if n == 0 {
		return nil
	}
	msgs, ptrs := make([]T, n), make([]*T, n)
	for k := range msgs {
		ptrs[k] = &msgs[k]
	}
	return ptrs
}

// room returns an empty slice with room for n values, or nil when n is 0.
func room[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// appended returns what was appended to s after its first start values,
// capped at its own length so that later appends to s cannot reach it, or
// nil when nothing was.
func appended[T any](s []T, start int) []T {
	if len(s) == start {
		return nil
	}
	return s[start:len(s):len(s)]
}

// eachChecked calls each with the field-1 messages of data (an index's
// entries or filters, which the first pass checked) in turn, numbered from
// 0.
func eachChecked(data []byte, each func(k int, v []byte) error) error {
	k := 0
	for b := data; len(b) > 0; {
		num, typ, n, _ := consumeTag(b)
		b = b[n:]
		if num != 1 || typ != protowire.BytesType {
			n, _ = skipField(num, typ, b)
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		b = b[n:]
		if err := each(k, v); err != nil {
			return err
		}
		k++
	}
	return nil
}

// decodeEntry fills e from the fields of a RowIndexEntry checked by
// scanEntry, appending its positions to pos and taking its statistics
// message, if it has one and withStats is set, from the front of stats.
func decodeEntry(b []byte, e *orcpb.RowIndexEntry, pos []uint64, stats []orcpb.ColumnStatistics, withStats bool) ([]uint64, []orcpb.ColumnStatistics, error) {
	for len(b) > 0 {
		num, typ, n, _ := entryTag(b) // scanEntry checked it
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			var err error
			if pos, err = appendVarints(pos, v); err != nil {
				return pos, stats, fmt.Errorf("positions: %w", err)
			}
			b = b[n:]
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			pos = append(pos, v)
			b = b[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if withStats {
				if e.Statistics == nil {
					e.Statistics = &stats[0]
					stats = stats[1:]
				}
				if err := mergeStats.Unmarshal(v, e.Statistics); err != nil {
					return pos, stats, fmt.Errorf("statistics: %w", err)
				}
			}
			b = b[n:]
		default:
			n, _ := skipField(num, typ, b)
			b = b[n:]
		}
	}
	return pos, stats, nil
}

// DecodeBloomFilterIndex parses the decompressed bytes of a BLOOM_FILTER_UTF8
// (or legacy BLOOM_FILTER) stream. Bytes that do not parse give an error
// wrapping orc.ErrCorrupt. The filters themselves are checked when used
// (bloomfilter.FromProto; DecodeBloomBits gives the zero Bits for one that
// FromProto rejects).
//
// The result equals proto.Unmarshal's for every input proto.Unmarshal
// accepts, except that unknown fields are dropped, and it fails exactly
// where proto.Unmarshal fails. The filters share one backing array, as do
// their bitset words (each filter's slice capped at its own length), their
// num_hash_functions values and their utf8bitset bytes, which are copied:
// nothing in the result aliases data.
func DecodeBloomFilterIndex(data []byte) (*orcpb.BloomFilterIndex, error) {
	c, err := scanBloomIndex(data)
	if err != nil {
		return nil, bloomError(err)
	}
	var hashes []uint32
	if c.hashes > 0 {
		hashes = make([]uint32, c.hashes)
	}
	words, utf8 := room[uint64](c.words), room[byte](c.utf8)
	filters := backed[orcpb.BloomFilter](c.filters)
	_ = eachChecked(data, func(k int, v []byte) error {
		f := filters[k]
		start := len(words)
		words, hashes, utf8 = decodeFilter(v, f, words, hashes, utf8)
		f.Bitset = appended(words, start)
		return nil
	})
	return &orcpb.BloomFilterIndex{BloomFilter: filters}, nil
}

// DecodeBloomBits parses the decompressed bytes of a BLOOM_FILTER_UTF8 (or
// legacy BLOOM_FILTER) stream into one bloomfilter.Bits per filter,
// appended to dst. It fails exactly where DecodeBloomFilterIndex fails, and
// each filter answers as bloomfilter.FromProto's of the same message would,
// or is the zero Bits where FromProto fails (no num_hash_functions, an
// empty or ragged bitset, too many hash functions or bits).
//
// The filters refer to data, which must not change while they are in use:
// a utf8bitset, or a bitset stored as one packed field, is probed where it
// lies, and only a bitset stored in several fields is copied. A reader so
// gets a stripe's filters for one allocation, where decoding the messages
// and then the filters copied every bit twice (2.8 MB for a stripe of
// 100 row groups of 10,000 rows).
func DecodeBloomBits(data []byte, dst []bloomfilter.Bits) ([]bloomfilter.Bits, error) {
	c, err := scanBloomIndex(data)
	if err != nil {
		return dst, bloomError(err)
	}
	dst = slices.Grow(dst, c.filters)
	_ = eachChecked(data, func(_ int, v []byte) error {
		dst = append(dst, filterBits(v))
		return nil
	})
	return dst, nil
}

// filterBits returns the filter of a BloomFilter message checked by
// scanFilter (see DecodeBloomBits).
func filterBits(b []byte) bloomfilter.Bits {
	var (
		k      uint32
		hasK   bool
		u8     []byte
		bitset []byte // the bitset field's words as little-endian bytes
		pieces int    // fields that made bitset; from the second on it is a copy
	)
	add := func(p []byte) {
		pieces++
		if pieces == 1 {
			bitset = p
			return
		}
		if pieces == 2 {
			bitset = append(make([]byte, 0, 2*(len(bitset)+len(p))), bitset...)
		}
		bitset = append(bitset, p...)
	}
	for c := (filterFields{b}); ; {
		field, v, p, ok := c.next()
		if !ok {
			break
		}
		switch field {
		case filterHash:
			k, hasK = uint32(v), true
		case filterWords:
			if len(p) > 0 {
				add(p)
			}
		case filterUTF8:
			u8 = p
		}
	}
	if !hasK || uint64(k) > bloomfilter.MaxHashFunctions {
		return bloomfilter.Bits{}
	}
	if len(u8) == 0 {
		u8 = bitset
	}
	f, err := bloomfilter.NewBits(u8, int(k))
	if err != nil {
		return bloomfilter.Bits{}
	}
	return f
}

// bloomCounts are what the first pass over a bloom filter stream finds.
type bloomCounts struct {
	filters int // BloomFilter messages
	hashes  int // filters with num_hash_functions
	words   int // bitset words in all filters
	utf8    int // bytes of the last utf8bitset of each filter
}

// scanBloomIndex checks a BloomFilterIndex completely and counts its
// parts.
func scanBloomIndex(data []byte) (bloomCounts, error) {
	var c bloomCounts
	var err error
	c.filters, err = scanRepeated(data, "filter", func(v []byte) error { return scanFilter(v, &c) })
	return c, err
}

// scanFilter checks one BloomFilter and adds its counts.
func scanFilter(b []byte, c *bloomCounts) error {
	hasHash := false
	last := -1 // length of the last utf8bitset
	for len(b) > 0 {
		if b[0] == tagFixed2 {
			if len(b) < 9 {
				return fmt.Errorf("bitset: %w", protowire.ParseError(-1))
			}
			c.words++
			b = b[9:]
			continue
		}
		num, typ, n, err := consumeTag(b)
		if err != nil {
			return err
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			if _, n = protowire.ConsumeVarint(b); n < 0 {
				return fmt.Errorf("num_hash_functions: %w", protowire.ParseError(n))
			}
			hasHash = true
		case num == 2 && typ == protowire.Fixed64Type:
			if _, n = protowire.ConsumeFixed64(b); n < 0 {
				return fmt.Errorf("bitset: %w", protowire.ParseError(n))
			}
			c.words++
		case num == 2 && typ == protowire.BytesType:
			var v []byte
			if v, n, err = consumeLen(num, b); err != nil {
				return err
			}
			if len(v)%8 != 0 {
				return fmt.Errorf("packed bitset of %d bytes is not a whole number of words", len(v))
			}
			c.words += len(v) / 8
		case num == 3 && typ == protowire.BytesType:
			var v []byte
			if v, n, err = consumeLen(num, b); err != nil {
				return err
			}
			last = len(v)
		default:
			if n, err = skipField(num, typ, b); err != nil {
				return err
			}
		}
		b = b[n:]
	}
	if hasHash {
		c.hashes++
	}
	if last > 0 {
		c.utf8 += last
	}
	return nil
}

// filterFields walks the fields of a BloomFilter message checked by
// scanFilter, for decodeFilter and filterBits.
type filterFields struct{ b []byte }

// The fields filterFields.next tells apart.
const (
	filterOther = iota
	filterHash  // num_hash_functions: v
	filterWords // a piece of the bitset: one word's 8 bytes, or a packed field's words, little-endian
	filterUTF8  // utf8bitset
)

// next returns the next field and its value (v for a varint, p for bytes),
// or false after the last.
func (c *filterFields) next() (field int, v uint64, p []byte, ok bool) {
	b := c.b
	if len(b) == 0 {
		return filterOther, 0, nil, false
	}
	if b[0] == tagFixed2 {
		c.b = b[9:]
		return filterWords, 0, b[1:9], true
	}
	num, typ, n, _ := consumeTag(b)
	b = b[n:]
	field = filterOther
	switch {
	case num == 1 && typ == protowire.VarintType:
		v, n = protowire.ConsumeVarint(b)
		field = filterHash
	case num == 2 && typ == protowire.Fixed64Type:
		p, n, field = b[:8], 8, filterWords
	case num == 2 && typ == protowire.BytesType:
		p, n = protowire.ConsumeBytes(b)
		field = filterWords
	case num == 3 && typ == protowire.BytesType:
		p, n = protowire.ConsumeBytes(b)
		field = filterUTF8
	default:
		n, _ = skipField(num, typ, b)
	}
	c.b = b[n:]
	return field, v, p, true
}

// decodeFilter fills f from the fields of a BloomFilter checked by
// scanFilter, appending its bitset words to words and its utf8bitset to
// utf8, and taking its num_hash_functions from the front of hashes.
func decodeFilter(b []byte, f *orcpb.BloomFilter, words []uint64, hashes []uint32, utf8 []byte) ([]uint64, []uint32, []byte) {
	var (
		hash    uint32
		hasHash bool
		u8      []byte
		hasU8   bool
	)
	for c := (filterFields{b}); ; {
		field, v, p, ok := c.next()
		if !ok {
			break
		}
		switch field {
		case filterHash:
			hash, hasHash = uint32(v), true
		case filterWords:
			for ; len(p) >= 8; p = p[8:] {
				words = append(words, binary.LittleEndian.Uint64(p))
			}
		case filterUTF8:
			u8, hasU8 = p, true
		}
	}
	if hasHash {
		hashes[0] = hash
		f.NumHashFunctions = &hashes[0]
		hashes = hashes[1:]
	}
	if hasU8 {
		if len(u8) == 0 {
			f.Utf8Bitset = []byte{} // present but empty, as proto.Unmarshal leaves it
		} else {
			start := len(utf8)
			utf8 = append(utf8, u8...)
			f.Utf8Bitset = appended(utf8, start)
		}
	}
	return words, hashes, utf8
}
