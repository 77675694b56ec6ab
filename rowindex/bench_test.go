package rowindex

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
)

// BenchmarkRunRange reads the index of a compressed RLE stream of 1,000 row
// groups, every other group aligned, and plans the runs of a random half
// of the groups; bytes are the stream's.
func BenchmarkRunRange(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const groups = 1000
	entries := make([]*orcpb.RowIndexEntry, groups)
	sel := make([]bool, groups)
	for g := range entries {
		entries[g] = &orcpb.RowIndexEntry{Positions: []uint64{uint64(g) * 20000, uint64(g%2) * 300, uint64(g%2) * 7}}
		sel[g] = rng.IntN(2) == 0
	}
	runs := runsOf(sel)
	layout := []Slot{{orcpb.Stream_DATA, 3}}
	length := uint64(groups * 20000)
	b.SetBytes(int64(length))
	b.ReportAllocs()
	for b.Loop() {
		si, err := NewStreamIndex(length, entries, layout, 0, true, 262144)
		if err != nil {
			b.Fatal(err)
		}
		for _, run := range runs {
			si.RunRange(run[0], run[1])
		}
	}
}

// BenchmarkSplit cuts a compressed timestamp entry with PRESENT.
func BenchmarkSplit(b *testing.B) {
	layout := Layout(&orc.Schema{Kind: orc.Timestamp}, orcpb.ColumnEncoding_DIRECT_V2, true, true, false)
	pos := make([]uint64, width(layout))
	b.SetBytes(int64(8 * len(pos)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(pos, layout); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStreams returns the index streams of the 100-group file of
// writerStreams: the ROW_INDEX of the int column (1) and of the string
// column (2), and the BLOOM_FILTER_UTF8 of the int column (100 filters of
// 9,600 bits) with the same filters in the legacy form Java writes, one
// fixed64 field per bitset word.
func benchStreams(b *testing.B) (intIndex, stringIndex, utf8Bloom, legacyBloom []byte) {
	b.Helper()
	for _, s := range writerStreams(b) {
		if !strings.HasPrefix(s.name, "writer 100000 rows") {
			continue
		}
		switch {
		case s.kind == orcpb.Stream_ROW_INDEX && strings.HasSuffix(s.name, "column 1"):
			intIndex = s.data
		case s.kind == orcpb.Stream_ROW_INDEX && strings.HasSuffix(s.name, "column 2"):
			stringIndex = s.data
		case s.kind == orcpb.Stream_BLOOM_FILTER_UTF8 && strings.HasSuffix(s.name, "column 1"):
			utf8Bloom = s.data
		}
	}
	bi := &orcpb.BloomFilterIndex{}
	if err := proto.Unmarshal(utf8Bloom, bi); err != nil {
		b.Fatal(err)
	}
	for _, f := range bi.BloomFilter {
		f.Bitset = make([]uint64, len(f.Utf8Bitset)/8)
		for i := range f.Bitset {
			f.Bitset[i] = binary.LittleEndian.Uint64(f.Utf8Bitset[8*i:])
		}
		f.Utf8Bitset = nil
	}
	legacyBloom, err := proto.Marshal(bi)
	if err != nil {
		b.Fatal(err)
	}
	if len(intIndex) == 0 || len(stringIndex) == 0 || len(utf8Bloom) == 0 {
		b.Fatal("writer streams missing")
	}
	return intIndex, stringIndex, utf8Bloom, legacyBloom
}

// benchDecode runs decode on data, which must give want entries.
func benchDecode[T any](b *testing.B, data []byte, decode func([]byte) (T, error), count func(T) int, want int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := decode(data)
		if err != nil {
			b.Fatal(err)
		}
		if count(m) != want {
			b.Fatalf("%d messages, want %d", count(m), want)
		}
	}
}

func entries(ri *orcpb.RowIndex) int { return len(ri.Entry) }

func filters(bi *orcpb.BloomFilterIndex) int { return len(bi.BloomFilter) }

// BenchmarkDecodeRowIndex decodes the row index of 100 row groups of an
// int column and of a string column, statistics included.
func BenchmarkDecodeRowIndex(b *testing.B) {
	ints, strs, _, _ := benchStreams(b)
	b.Run("int", func(b *testing.B) { benchDecode(b, ints, DecodeRowIndex, entries, 100) })
	b.Run("string", func(b *testing.B) { benchDecode(b, strs, DecodeRowIndex, entries, 100) })
}

// BenchmarkDecodeRowIndexPositions decodes the same row indexes without
// their statistics.
func BenchmarkDecodeRowIndexPositions(b *testing.B) {
	ints, strs, _, _ := benchStreams(b)
	b.Run("int", func(b *testing.B) { benchDecode(b, ints, DecodeRowIndexPositions, entries, 100) })
	b.Run("string", func(b *testing.B) { benchDecode(b, strs, DecodeRowIndexPositions, entries, 100) })
}

// BenchmarkDecodeBloomFilterIndex decodes 100 bloom filters of 9,600 bits,
// as our writer stores them (utf8bitset) and in the legacy form (one
// fixed64 field per word).
func BenchmarkDecodeBloomFilterIndex(b *testing.B) {
	_, _, utf8, legacy := benchStreams(b)
	b.Run("utf8bitset", func(b *testing.B) { benchDecode(b, utf8, DecodeBloomFilterIndex, filters, 100) })
	b.Run("bitset", func(b *testing.B) { benchDecode(b, legacy, DecodeBloomFilterIndex, filters, 100) })
}

// BenchmarkDecodeBloomBits decodes the same streams as a reader does, to
// filters probed where they lie.
func BenchmarkDecodeBloomBits(b *testing.B) {
	_, _, utf8, legacy := benchStreams(b)
	decode := func(data []byte) ([]bloomfilter.Bits, error) { return DecodeBloomBits(data, nil) }
	count := func(fs []bloomfilter.Bits) int { return len(fs) }
	b.Run("utf8bitset", func(b *testing.B) { benchDecode(b, utf8, decode, count, 100) })
	b.Run("bitset", func(b *testing.B) { benchDecode(b, legacy, decode, count, 100) })
}
