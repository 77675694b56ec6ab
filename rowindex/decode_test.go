package rowindex

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc/format/orcpb"
)

// Every index stream of Apache's example files decodes as proto.Unmarshal
// decodes it.
func TestDecodeExampleStreams(t *testing.T) {
	counts := map[orcpb.Stream_Kind]int{}
	for _, s := range exampleStreams(t) {
		checkStream(t, s)
		counts[s.kind]++
	}
	t.Logf("example streams compared: %v", counts)
	if counts[orcpb.Stream_ROW_INDEX] == 0 || counts[orcpb.Stream_BLOOM_FILTER_UTF8] == 0 || counts[orcpb.Stream_BLOOM_FILTER] == 0 {
		t.Errorf("expected row indexes and both kinds of bloom filter streams in the examples, found %v", counts)
	}
}

// Every index stream of files of our writer decodes as proto.Unmarshal
// decodes it.
func TestDecodeWriterStreams(t *testing.T) {
	counts := map[orcpb.Stream_Kind]int{}
	for _, s := range writerStreams(t) {
		checkStream(t, s)
		counts[s.kind]++
	}
	t.Logf("writer streams compared: %v", counts)
	if counts[orcpb.Stream_ROW_INDEX] == 0 || counts[orcpb.Stream_BLOOM_FILTER_UTF8] == 0 {
		t.Errorf("expected row indexes and bloom filters from the writer, found %v", counts)
	}
}

// checkStream compares one stream, which proto.Unmarshal must accept, and
// reports when its decoded form is empty (a sign the test reads the wrong
// bytes).
func checkStream(t *testing.T, s indexStream) {
	t.Helper()
	var d string
	var ok bool
	switch s.kind {
	case orcpb.Stream_ROW_INDEX:
		d, ok = diffRowIndex(s.data)
	default:
		d, ok = diffBloomIndex(s.data)
	}
	if d != "" {
		t.Errorf("%s %v: %s", s.name, s.kind, d)
	} else if !ok {
		t.Errorf("%s %v: proto.Unmarshal rejects the stream", s.name, s.kind)
	}
}

// Field builders for the hand-made cases.

func tag(num protowire.Number, typ protowire.Type) []byte {
	return protowire.AppendTag(nil, num, typ)
}

func varint(v uint64) []byte { return protowire.AppendVarint(nil, v) }

func fixed64(v uint64) []byte { return protowire.AppendFixed64(nil, v) }

func lenField(num protowire.Number, parts ...[]byte) []byte {
	body := slices.Concat(parts...)
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), body)
}

func cat(parts ...[]byte) []byte { return slices.Concat(parts...) }

func marshal(t testing.TB, m proto.Message) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeCases are hand-made inputs for the edge cases of the wire format,
// each valid or not as proto.Unmarshal decides. Most are read as both a
// RowIndex and a BloomFilterIndex, whose field 1 shapes coincide.
func decodeCases(t testing.TB) map[string][]byte {
	u64 := func(v uint64) *uint64 { return &v }
	s64 := func(v int64) *int64 { return &v }
	intStats := func(lo, hi int64) []byte {
		return marshal(t, &orcpb.ColumnStatistics{NumberOfValues: u64(3), IntStatistics: &orcpb.IntegerStatistics{Minimum: s64(lo), Maximum: s64(hi)}})
	}
	sumStats := marshal(t, &orcpb.ColumnStatistics{IntStatistics: &orcpb.IntegerStatistics{Sum: s64(99)}})
	bigTag := varint(uint64(protowire.MaxValidNumber)<<3 | uint64(protowire.VarintType))
	tooBigTag := varint(uint64(protowire.MaxValidNumber+1)<<3 | uint64(protowire.VarintType))
	max10 := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	over10 := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}
	long11 := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}
	group := func(num protowire.Number, body ...[]byte) []byte {
		return cat(tag(num, protowire.StartGroupType), cat(body...), tag(num, protowire.EndGroupType))
	}
	packed := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = protowire.AppendVarint(b, v)
		}
		return lenField(1, b)
	}
	pos := func(v uint64) []byte { return cat(tag(1, protowire.VarintType), varint(v)) }
	stats := func(b []byte) []byte { return lenField(2, b) }
	entry := func(parts ...[]byte) []byte { return lenField(1, parts...) }
	hash := func(v uint64) []byte { return cat(tag(1, protowire.VarintType), varint(v)) }
	word := func(v uint64) []byte { return cat(tag(2, protowire.Fixed64Type), fixed64(v)) }
	words := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = protowire.AppendFixed64(b, v)
		}
		return lenField(2, b)
	}
	utf8 := func(b ...byte) []byte { return lenField(3, b) }

	realRI := marshal(t, rowIndex(4))
	realBI := marshal(t, bloomIndex(3))
	legacy := bloomIndex(2)
	for _, f := range legacy.BloomFilter {
		f.Bitset = make([]uint64, len(f.Utf8Bitset)/8)
		for i := range f.Bitset {
			f.Bitset[i] = uint64(f.Utf8Bitset[8*i]) | uint64(i)<<32
		}
		f.Utf8Bitset = nil
	}
	legacyBI := marshal(t, legacy)

	return map[string][]byte{
		"empty":                      {},
		"real row index":             realRI,
		"real bloom index":           realBI,
		"legacy bloom index":         legacyBI,
		"empty entries":              cat(entry(), entry(), entry()),
		"packed positions":           entry(packed(1, 300, 1<<40, 0)),
		"unpacked positions":         entry(pos(5), pos(1<<33), pos(0)),
		"mixed positions":            entry(packed(1, 2), pos(3), packed(), packed(4, 5), pos(6)),
		"empty packed":               entry(packed()),
		"positions max varint":       entry(packed(1), lenField(1, max10), cat(tag(1, protowire.VarintType), max10)),
		"positions overflow packed":  entry(lenField(1, over10)),
		"positions overflow single":  entry(cat(tag(1, protowire.VarintType), over10)),
		"positions 11 bytes packed":  entry(lenField(1, long11)),
		"positions 11 bytes single":  entry(cat(tag(1, protowire.VarintType), long11)),
		"positions overlong 1":       entry(lenField(1, []byte{0x81, 0x00, 0x80, 0x80, 0x00})),
		"positions truncated packed": entry(lenField(1, []byte{0x05, 0x80})),
		"positions truncated single": entry(tag(1, protowire.VarintType)),
		"positions split varint":     entry(lenField(1, []byte{0x05, 0x80}), []byte{0x01}),
		"positions as fixed64":       entry(tag(1, protowire.Fixed64Type), fixed64(7), packed(8)),
		"positions as fixed32":       entry(tag(1, protowire.Fixed32Type), []byte{1, 2, 3, 4}, pos(9)),
		"positions as group":         entry(group(1, pos(3), lenField(2, []byte{1})), pos(4)),
		"positions as end group":     entry(tag(1, protowire.EndGroupType)),
		"positions wire type 6":      entry(tag(1, 6), []byte{0}),
		"positions wire type 7":      entry(tag(1, 7), []byte{0}),
		"stats":                      entry(packed(1), stats(intStats(1, 2))),
		"stats twice merged":         entry(stats(intStats(1, 2)), packed(7), stats(sumStats)),
		"stats thrice":               entry(stats(intStats(1, 2)), stats(intStats(-5, 9)), stats(nil), stats(sumStats)),
		"stats empty":                entry(stats(nil)),
		"stats bad inside":           entry(packed(1), stats([]byte{0x08})),
		"stats bad wire inside":      entry(packed(1), stats([]byte{0x0f, 0x00})),
		"stats unknown inside":       entry(stats(cat(tag(99, protowire.VarintType), varint(5), intStats(3, 4)))),
		"stats group inside":         entry(stats(group(50, pos(1)))),
		"stats as varint":            entry(tag(2, protowire.VarintType), varint(12), packed(3)),
		"stats as fixed32":           entry(tag(2, protowire.Fixed32Type), []byte{1, 2, 3}),
		"stats past end":             entry(tag(2, protowire.BytesType), varint(10), []byte{1, 2}),
		"stats in entries":           cat(entry(stats(intStats(1, 1))), entry(packed(2)), entry(stats(intStats(2, 2)), stats(sumStats))),
		"entry as varint":            cat(tag(1, protowire.VarintType), varint(300), entry(packed(1))),
		"entry as fixed64":           cat(tag(1, protowire.Fixed64Type), fixed64(1), entry(packed(1))),
		"entry as fixed32 short":     cat(tag(1, protowire.Fixed32Type), []byte{1, 2}),
		"entry as group":             cat(group(1, entry(packed(3)), group(4, word(1))), entry(packed(1))),
		"group nested deep":          cat(group(9, group(9, group(8, group(7))))),
		"group unmatched end":        cat(group(9, tag(8, protowire.EndGroupType))),
		"group unterminated":         cat(tag(9, protowire.StartGroupType), pos(1)),
		"stray end group":            cat(entry(), tag(1, protowire.EndGroupType)),
		"stray end group in entry":   entry(packed(1), tag(3, protowire.EndGroupType)),
		"field 0":                    cat(tag(0, protowire.VarintType), varint(1)),
		"field 0 in entry":           entry(cat(tag(0, protowire.BytesType), varint(0))),
		"field max":                  cat(bigTag, varint(1), entry(cat(bigTag, varint(2)), packed(4))),
		"field too big":              cat(tooBigTag, varint(1)),
		"field too big in entry":     entry(tooBigTag, varint(1)),
		"field 2^31 in group":        group(3, varint(uint64(1)<<34|uint64(protowire.VarintType)), varint(1)),
		"tag overlong":               cat([]byte{0x8a, 0x00}, varint(3), packed(5), []byte{0x8a, 0x80, 0x00, 0x00}),
		"tag overlong in entry":      entry([]byte{0x8a, 0x80, 0x00}, varint(2), []byte{5, 6}, []byte{0x92, 0x00, 0x00}),
		"tag 10 bytes":               cat([]byte{0x8a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, varint(0)),
		"tag overflow":               cat([]byte{0x8a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}, varint(0)),
		"tag truncated":              {0x8a},
		"unknown top":                cat(tag(5, protowire.VarintType), varint(1), lenField(99, []byte("x")), tag(7, protowire.Fixed32Type), []byte{1, 2, 3, 4}, entry(packed(1))),
		"unknown in entry":           entry(tag(5, protowire.VarintType), varint(1), lenField(99, []byte("x")), packed(2), tag(7, protowire.Fixed64Type), fixed64(3)),
		"length past end":            {0x0a, 0x05, 0x0a},
		"length huge":                cat(tag(1, protowire.BytesType), varint(1<<62), []byte{1}),
		"length overflow":            cat(tag(1, protowire.BytesType), over10),
		"length truncated":           {0x0a, 0x80},
		"packed past entry":          cat(tag(1, protowire.BytesType), varint(2), []byte{0x0a, 0x05, 1, 2, 3, 4, 5}),
		"unknown past end":           cat(entry(), lenField(6, []byte{1, 2})[:3]),
		"wire type 6 top":            cat(tag(3, 6), varint(1)),
		"wire type 7 top":            cat(tag(3, 7)),

		"hash":                    lenField(1, hash(3), words(1, 2)),
		"hash last wins":          lenField(1, hash(3), hash(7), word(1), hash(5)),
		"hash truncated to 32":    lenField(1, hash(1<<32|5)),
		"hash 64-bit":             lenField(1, hash(^uint64(0))),
		"hash max varint":         lenField(1, tag(1, protowire.VarintType), max10),
		"hash overflow":           lenField(1, tag(1, protowire.VarintType), over10),
		"hash as bytes":           lenField(1, lenField(1, []byte{9}), hash(2)),
		"hash as fixed32":         lenField(1, tag(1, protowire.Fixed32Type), []byte{1, 0, 0, 0}),
		"words unpacked":          lenField(1, word(1), word(2), word(1<<63)),
		"words packed":            lenField(1, words(1, 2, 3)),
		"words mixed":             lenField(1, word(1), words(2, 3), word(4), words(), words(5)),
		"words across filters":    cat(lenField(1, word(1), word(2)), lenField(1), lenField(1, words(3, 4, 5))),
		"words packed ragged":     lenField(1, lenField(2, []byte{1, 2, 3, 4, 5, 6, 7})),
		"words packed ragged 9":   lenField(1, lenField(2, make([]byte, 9))),
		"word truncated":          lenField(1, tag(2, protowire.Fixed64Type), []byte{1, 2, 3, 4, 5}),
		"word truncated last":     cat(lenField(1, word(1)), tag(1, protowire.BytesType), varint(6), tag(2, protowire.Fixed64Type), []byte{1, 2, 3, 4, 5}),
		"words as varint":         lenField(1, tag(2, protowire.VarintType), varint(7), word(8)),
		"words as fixed32":        lenField(1, tag(2, protowire.Fixed32Type), []byte{1, 2, 3, 4}, word(8)),
		"words as group":          lenField(1, group(2, word(3)), word(4)),
		"words wire type 6":       lenField(1, tag(2, 6)),
		"utf8":                    lenField(1, hash(2), utf8(1, 2, 3, 4, 5, 6, 7, 8)),
		"filter words mixed":      lenField(1, hash(3), word(1), words(2, 3), word(1<<63)),
		"filter words packed":     lenField(1, words(5, 6), hash(2)),
		"filter utf8 over words":  lenField(1, hash(2), words(1), utf8(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
		"utf8 last wins":          lenField(1, utf8(1, 2, 3), hash(1), utf8(4, 5)),
		"utf8 last wins shorter":  cat(lenField(1, utf8(1, 2, 3, 4, 5, 6)), lenField(1, utf8(7, 8, 9, 10), utf8(11))),
		"utf8 empty":              lenField(1, utf8()),
		"utf8 empty last":         lenField(1, utf8(1, 2), utf8()),
		"utf8 then empty filter":  cat(lenField(1, utf8(1)), lenField(1, utf8())),
		"utf8 as varint":          lenField(1, tag(3, protowire.VarintType), varint(4), utf8(9)),
		"utf8 as fixed64":         lenField(1, tag(3, protowire.Fixed64Type), fixed64(4)),
		"utf8 past end":           lenField(1, tag(3, protowire.BytesType), varint(3), []byte{1}),
		"all forms":               lenField(1, hash(4), word(1), utf8(1, 2), words(2), tag(9, protowire.Fixed32Type), []byte{0, 0, 0, 0}, utf8(3)),
		"filter unknown fields":   lenField(1, lenField(4, []byte{1}), group(5), tag(6, protowire.Fixed32Type), []byte{1, 2, 3, 4}, hash(1)),
		"filter field 0":          lenField(1, tag(0, protowire.Fixed64Type), fixed64(1)),
		"filter stray end":        lenField(1, hash(1), tag(1, protowire.EndGroupType)),
		"filter tag overlong":     lenField(1, []byte{0x91, 0x00}, fixed64(3), []byte{0x88, 0x80, 0x00}, varint(2)),
		"filter as varint":        cat(tag(1, protowire.VarintType), varint(3), lenField(1, hash(1))),
		"filter in group":         group(1, lenField(1, hash(1))),
		"filter field too big":    lenField(1, tooBigTag, varint(1)),
		"real index tail cut":     realRI[:len(realRI)-1],
		"real bloom tail cut":     realBI[:len(realBI)-3],
		"real index doubled":      cat(realRI, realRI),
		"real bloom with unknown": cat(lenField(7, realBI), realBI, tag(15, protowire.VarintType), varint(1)),
	}
}

// The hand-made cases decode as proto.Unmarshal decodes them, read as
// either message.
func TestDecodeEdgeCases(t *testing.T) {
	accepted := 0
	for name, data := range decodeCases(t) {
		d, ok := diffRowIndex(data)
		if d != "" {
			t.Errorf("%s (% x) as a row index: %s", name, data, d)
		}
		if ok {
			accepted++
		}
		d, ok = diffBloomIndex(data)
		if d != "" {
			t.Errorf("%s (% x) as a bloom filter index: %s", name, data, d)
		}
		if ok {
			accepted++
		}
	}
	t.Logf("%d cases, %d decodings accepted", len(decodeCases(t)), accepted)
}

// Some outcomes checked directly, so that the test does not only trust
// proto.Unmarshal and the differential together.
func TestDecodeKnownOutcomes(t *testing.T) {
	cases := decodeCases(t)
	ri, err := DecodeRowIndex(cases["mixed positions"])
	if err != nil || len(ri.Entry) != 1 || !slices.Equal(ri.Entry[0].Positions, []uint64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("mixed positions: %v, %v", ri, err)
	}
	ri, err = DecodeRowIndex(cases["stats twice merged"])
	if err != nil || ri.Entry[0].GetStatistics().GetIntStatistics().GetSum() != 99 ||
		ri.Entry[0].GetStatistics().GetIntStatistics().GetMaximum() != 2 {
		t.Errorf("stats twice merged: %v, %v", ri, err)
	}
	if _, err := DecodeRowIndex(cases["stats bad inside"]); err == nil {
		t.Error("stats bad inside: DecodeRowIndex accepts it")
	}
	ri, err = DecodeRowIndexPositions(cases["stats bad inside"])
	if err != nil || ri.Entry[0].Statistics != nil || !slices.Equal(ri.Entry[0].Positions, []uint64{1}) {
		t.Errorf("stats bad inside: DecodeRowIndexPositions = %v, %v", ri, err)
	}
	ri, err = DecodeRowIndex(cases["positions as fixed64"])
	if err != nil || !slices.Equal(ri.Entry[0].Positions, []uint64{8}) {
		t.Errorf("positions as fixed64: %v, %v", ri, err)
	}
	bi, err := DecodeBloomFilterIndex(cases["hash truncated to 32"])
	if err != nil || bi.BloomFilter[0].GetNumHashFunctions() != 5 {
		t.Errorf("hash truncated to 32: %v, %v", bi, err)
	}
	bi, err = DecodeBloomFilterIndex(cases["utf8 last wins"])
	if err != nil || string(bi.BloomFilter[0].Utf8Bitset) != "\x04\x05" || bi.BloomFilter[0].GetNumHashFunctions() != 1 {
		t.Errorf("utf8 last wins: %v, %v", bi, err)
	}
	bi, err = DecodeBloomFilterIndex(cases["utf8 empty"])
	if err != nil || bi.BloomFilter[0].Utf8Bitset == nil {
		t.Errorf("utf8 empty: %v, %v (want present and empty)", bi, err)
	}
	bi, err = DecodeBloomFilterIndex(cases["words mixed"])
	if err != nil || !slices.Equal(bi.BloomFilter[0].Bitset, []uint64{1, 2, 3, 4, 5}) {
		t.Errorf("words mixed: %v, %v", bi, err)
	}
	for _, name := range []string{"positions overflow packed", "positions 11 bytes packed", "positions truncated packed",
		"positions split varint", "field 0", "field too big", "tag overflow", "stray end group", "length huge", "wire type 6 top"} {
		if _, err := DecodeRowIndex(cases[name]); err == nil {
			t.Errorf("%s: DecodeRowIndex accepts it", name)
		}
		if _, err := DecodeRowIndexPositions(cases[name]); err == nil {
			t.Errorf("%s: DecodeRowIndexPositions accepts it", name)
		}
	}
	for _, name := range []string{"words packed ragged", "word truncated", "hash overflow", "filter stray end"} {
		if _, err := DecodeBloomFilterIndex(cases[name]); err == nil {
			t.Errorf("%s: DecodeBloomFilterIndex accepts it", name)
		}
	}
}

// mutate returns a random mutation of data: byte changes, cuts, insertions
// of random bytes or of wire-format fragments, and copies of a run of the
// input elsewhere (which duplicates fields and sub-messages).
func mutate(rng *rand.Rand, data []byte) []byte {
	fragments := [][]byte{
		{0x0a, 0x00}, {0x12, 0x00}, {0x08, 0x80}, {0x08, 0x01}, {0x0b}, {0x0c}, {0x0e}, {0x0f}, {0x00},
		{0x11, 1, 2, 3, 4, 5, 6, 7, 8}, {0x1a, 0x01, 0x00}, {0x8a, 0x00}, {0x80}, {0xff, 0xff, 0xff, 0xff, 0x0f},
		{0x0d, 1, 2, 3, 4}, {0x09, 1, 2, 3, 4, 5, 6, 7, 8}, {0x12, 0x03, 0x08, 0x01, 0x10}, {0x0a, 0x7f},
	}
	b := slices.Clone(data)
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			b = append(b, fragments[rng.IntN(len(fragments))]...)
			continue
		}
		i := rng.IntN(len(b))
		switch rng.IntN(8) {
		case 0:
			b[i] = byte(rng.Uint32())
		case 1:
			b[i] ^= 1 << rng.IntN(8)
		case 2:
			b[i] ^= 0x80
		case 3:
			b = b[:i]
		case 4:
			ins := make([]byte, 1+rng.IntN(4))
			for k := range ins {
				ins[k] = byte(rng.Uint32())
			}
			b = slices.Insert(b, i, ins...)
		case 5:
			b = slices.Insert(b, i, fragments[rng.IntN(len(fragments))]...)
		case 6:
			j := i + rng.IntN(min(len(b)-i, 64)+1)
			b = slices.Insert(b, rng.IntN(len(b)+1), slices.Clone(b[i:j])...)
		case 7:
			j := i + rng.IntN(min(len(b)-i, 16)+1)
			b = slices.Delete(b, i, j)
		}
	}
	return b
}

// mutateDeep mutates the value of one length-delimited field of data, up
// to depth levels down (an entry, its statistics, a filter), and frames it
// again with its new length, so that the mutation reaches the inner
// messages instead of breaking the outer framing. Bytes that do not split
// into fields are mutated whole.
func mutateDeep(rng *rand.Rand, data []byte, depth int) []byte {
	type field struct {
		tag, value []byte
		bytes      bool
	}
	var fields []field
	var lenFields []int
	for b := data; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return mutate(rng, data)
		}
		f := field{tag: b[:n]}
		b = b[n:]
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return mutate(rng, data)
			}
			f.value, f.bytes = v, true
			lenFields = append(lenFields, len(fields))
			b = b[m:]
		} else {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return mutate(rng, data)
			}
			f.value = b[:m]
			b = b[m:]
		}
		fields = append(fields, f)
	}
	if len(lenFields) == 0 {
		return mutate(rng, data)
	}
	k := lenFields[rng.IntN(len(lenFields))]
	if depth > 1 && rng.IntN(2) == 0 {
		fields[k].value = mutateDeep(rng, fields[k].value, depth-1)
	} else {
		fields[k].value = mutate(rng, fields[k].value)
	}
	var out []byte
	for _, f := range fields {
		out = append(out, f.tag...)
		if f.bytes {
			out = protowire.AppendBytes(out, f.value)
		} else {
			out = append(out, f.value...)
		}
	}
	return out
}

// Random mutations of real streams (examples when present, our writer's
// always) decode as proto.Unmarshal decodes them.
func TestDecodeMutations(t *testing.T) {
	// Two pools, row indexes and bloom filters, drawn from equally.
	var pools [2][]indexStream
	add := func(streams []indexStream) {
		for _, s := range streams {
			if s.kind == orcpb.Stream_ROW_INDEX && len(s.data) <= 8<<10 {
				pools[0] = append(pools[0], s)
			} else if s.kind != orcpb.Stream_ROW_INDEX && len(s.data) <= 64<<10 {
				pools[1] = append(pools[1], s)
			}
		}
	}
	add(writerStreams(t))
	// A subtest, so that without the examples only it is skipped.
	t.Run("examples", func(t *testing.T) { add(exampleStreams(t)) })
	if len(pools[0]) == 0 || len(pools[1]) == 0 {
		t.Fatalf("pools of %d row indexes and %d bloom filter indexes", len(pools[0]), len(pools[1]))
	}
	n := 8000
	if testing.Short() {
		n = 1000
	}
	rng := rand.New(rand.NewPCG(7, 7))
	accepted, kept := 0, 0
	for i := range n {
		pool := pools[i%2]
		s := pool[rng.IntN(len(pool))]
		var data []byte
		if i%4 < 2 {
			data = mutate(rng, s.data)
		} else {
			data = mutateDeep(rng, s.data, 3)
		}
		if d, ok := diffRowIndex(data); d != "" {
			t.Fatalf("mutation %d of %s %v (% x): %s", i, s.name, s.kind, data, d)
		} else if ok {
			accepted++
			if s.kind == orcpb.Stream_ROW_INDEX {
				kept++
			}
		}
		if d, ok := diffBloomIndex(data); d != "" {
			t.Fatalf("mutation %d of %s %v (% x): %s", i, s.name, s.kind, data, d)
		} else if ok {
			accepted++
			if s.kind != orcpb.Stream_ROW_INDEX {
				kept++
			}
		}
	}
	t.Logf("%d mutations of %d streams compared as both messages: %d of %d decodings accepted, %d still parsing as their own kind",
		n, len(pools[0])+len(pools[1]), accepted, 2*n, kept)
}

// FuzzDecodeIndex reads fuzzed bytes as a RowIndex and as a
// BloomFilterIndex: the hand-written decoders agree with proto.Unmarshal
// (DecodeRowIndexPositions with its outer-level reference).
func FuzzDecodeIndex(f *testing.F) {
	for _, data := range decodeCases(f) {
		f.Add(data)
	}
	// Small real streams: the zstd writer file's (a few hundred bytes each).
	for _, s := range writerStreams(f) {
		if len(s.data) <= 2<<10 {
			f.Add(s.data)
		}
	}
	// And a few of Apache's when they are at hand (without skipping the
	// target when they are not): Java's legacy bitset form, statistics of
	// several types.
	if dir := examplesIfPresent(); dir != "" {
		for _, name := range []string{"over1k_bloom.orc", "TestOrcFile.testSeek.orc", "bad_bloom_filter_1.6.11.orc"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			ex, err := parseExample(name, data)
			if err != nil {
				f.Fatalf("%s: %v", name, err)
			}
			seeded := map[orcpb.Stream_Kind]int{}
			for _, s := range fileIndexStreams(f, ex) {
				if len(s.data) <= 2<<10 && seeded[s.kind] < 4 {
					f.Add(s.data)
					seeded[s.kind]++
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := diffIndex(data); d != "" {
			t.Fatal(d)
		}
	})
}

// The decoders allocate a fixed number of blocks whatever the number of
// entries, positions, filters and words: the message, the entry or filter
// structs, their pointers, and one block per kind of value.
func TestDecodeAllocations(t *testing.T) {
	var ri, bi []byte
	for _, s := range writerStreams(t) {
		if strings.HasPrefix(s.name, "writer 100000 rows") && strings.HasSuffix(s.name, "column 2") {
			switch s.kind {
			case orcpb.Stream_ROW_INDEX:
				ri = s.data
			case orcpb.Stream_BLOOM_FILTER_UTF8:
				bi = s.data
			}
		}
	}
	legacy := decodeCases(t)["legacy bloom index"]
	tests := []struct {
		name   string
		decode func() error
		max    float64
	}{
		{"DecodeRowIndexPositions", func() error { _, err := DecodeRowIndexPositions(ri); return err }, 4},
		{"DecodeBloomFilterIndex", func() error { _, err := DecodeBloomFilterIndex(bi); return err }, 5},
		{"DecodeBloomFilterIndex legacy", func() error { _, err := DecodeBloomFilterIndex(legacy); return err }, 5},
	}
	for _, tt := range tests {
		if err := tt.decode(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = tt.decode() }); n > tt.max {
			t.Errorf("%s: %v allocations, want at most %v", tt.name, n, tt.max)
		}
	}
}

// DecodeBloomBits probes a utf8bitset, or a bitset in one packed field,
// where it lies in the stream's bytes, and copies a bitset stored in
// several fields.
func TestDecodeBloomBitsAliases(t *testing.T) {
	cases := decodeCases(t)
	alias := func(b, data []byte) bool {
		for i := range data {
			if len(b) > 0 && &data[i] == &b[0] {
				return true
			}
		}
		return false
	}
	for name, wantAlias := range map[string]bool{"filter words packed": true, "filter utf8 over words": true, "utf8": true, "filter words mixed": false} {
		data := cases[name]
		fs, err := DecodeBloomBits(data, nil)
		if err != nil || len(fs) != 1 || !fs[0].Valid() {
			t.Fatalf("%s: %d filters, %v", name, len(fs), err)
		}
		if got := alias(fs[0].Bytes(), data); got != wantAlias {
			t.Errorf("%s: filter refers to the stream's bytes: %v, want %v", name, got, wantAlias)
		}
	}
	fs, _ := DecodeBloomBits(cases["filter words mixed"], nil)
	if want := []uint64{1, 2, 3, 1 << 63}; fs[0].NumBits() != 64*len(want) || fs[0].NumHashFunctions() != 3 {
		t.Fatalf("words mixed: %d bits k=%d", fs[0].NumBits(), fs[0].NumHashFunctions())
	}
	for _, s := range writerStreams(t) {
		if s.kind != orcpb.Stream_BLOOM_FILTER_UTF8 {
			continue
		}
		fs, err := DecodeBloomBits(s.data, nil)
		if err != nil || len(fs) == 0 {
			t.Fatalf("%s: %d filters, %v", s.name, len(fs), err)
		}
		for i := range fs {
			if !fs[i].Valid() || !alias(fs[i].Bytes(), s.data) {
				t.Fatalf("%s filter %d: valid %v, not in the stream's bytes", s.name, i, fs[i].Valid())
			}
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = DecodeBloomBits(s.data, fs[:0]) }); n != 0 {
			t.Errorf("%s: DecodeBloomBits into a slice with room allocates %v times", s.name, n)
		}
	}
}
