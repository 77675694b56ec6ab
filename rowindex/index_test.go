package rowindex

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/stats"
)

func u64(v uint64) *uint64 { return &v }
func s64(v int64) *int64   { return &v }
func u32(v uint32) *uint32 { return &v }
func bl(v bool) *bool      { return &v }

// rowIndex returns a RowIndex of n entries whose group g has integer
// statistics min = max = g.
func rowIndex(n int) *orcpb.RowIndex {
	ri := &orcpb.RowIndex{}
	for g := range n {
		ri.Entry = append(ri.Entry, &orcpb.RowIndexEntry{
			Positions: []uint64{uint64(g) * 100, uint64(g)},
			Statistics: &orcpb.ColumnStatistics{NumberOfValues: u64(10), HasNull: bl(false),
				IntStatistics: &orcpb.IntegerStatistics{Minimum: s64(int64(g)), Maximum: s64(int64(g)), Sum: s64(10 * int64(g))}},
		})
	}
	return ri
}

func TestDecodeRowIndex(t *testing.T) {
	want := rowIndex(3)
	b, err := proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeRowIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, want) {
		t.Errorf("round trip: %v, want %v", got, want)
	}
	// An empty stream is an index without entries.
	if ri, err := DecodeRowIndex(nil); err != nil || len(ri.Entry) != 0 {
		t.Errorf("empty: %v, %v", ri, err)
	}
	// Field 1 as a length-delimited entry running past the end.
	for _, bad := range [][]byte{{0x0a, 0x05, 0x0a}, {0xff}, {0x0a, 0x02, 0x08, 0x80}} {
		if _, err := DecodeRowIndex(bad); !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("DecodeRowIndex(% x): err %v, want ErrCorrupt", bad, err)
		}
		if _, err := DecodeBloomFilterIndex(bad); !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("DecodeBloomFilterIndex(% x): err %v, want ErrCorrupt", bad, err)
		}
	}
}

func TestDecodeBloomFilterIndex(t *testing.T) {
	f := bloomfilter.New(1000, 0.01)
	f.AddLong(42)
	want := &orcpb.BloomFilterIndex{BloomFilter: []*orcpb.BloomFilter{f.Proto(), f.Proto()}}
	b, err := proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeBloomFilterIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, want) {
		t.Errorf("round trip differs")
	}
}

func TestIndexGroups(t *testing.T) {
	tests := []struct {
		rows, stride uint64
		want         int
	}{
		{0, 1000, 0},
		{1, 1000, 1},
		{1000, 1000, 1},
		{1001, 1000, 2},
		{3500, 1000, 4},
		{32768, 4096, 8},
		{5000, 0, 0},
		{^uint64(0), 1, maxInt},
	}
	for _, tt := range tests {
		if got := NewIndex(tt.rows, tt.stride).Groups(); got != tt.want {
			t.Errorf("NewIndex(%d, %d).Groups() = %d, want %d", tt.rows, tt.stride, got, tt.want)
		}
	}
}

func TestIndexRowIndex(t *testing.T) {
	x := NewIndex(3500, 1000)
	x.SetRowIndex(1, rowIndex(4))
	x.SetRowIndex(2, rowIndex(3)) // one entry short
	x.SetRowIndex(3, rowIndex(5)) // one too many
	x.SetRowIndex(-1, rowIndex(4))
	if !x.HasRowIndex(1) || x.RowIndexErr(1) != nil || len(x.Entries(1)) != 4 {
		t.Errorf("column 1: has %v, err %v, %d entries", x.HasRowIndex(1), x.RowIndexErr(1), len(x.Entries(1)))
	}
	for _, col := range []int{2, 3} {
		if x.HasRowIndex(col) || x.Entries(col) != nil || !errors.Is(x.RowIndexErr(col), orc.ErrCorrupt) {
			t.Errorf("column %d: has %v, err %v", col, x.HasRowIndex(col), x.RowIndexErr(col))
		}
		if _, ok := x.GroupStats(col, 0, &orc.Schema{Kind: orc.Int}, stats.WriterInfo{}); ok {
			t.Errorf("column %d: statistics from an unusable index", col)
		}
	}
	for _, col := range []int{-1, 0, 4, 100} {
		if x.HasRowIndex(col) || x.RowIndexErr(col) != nil || x.Entries(col) != nil {
			t.Errorf("column %d never given: has %v, err %v", col, x.HasRowIndex(col), x.RowIndexErr(col))
		}
	}
	// Statistics per group.
	intType := &orc.Schema{Kind: orc.Int}
	for g := range 4 {
		s, ok := x.GroupStats(1, g, intType, stats.WriterInfo{WriterVersion: 9})
		if !ok || s.Int == nil || s.Int.Min != int64(g) || s.Int.Max != int64(g) || s.NumValues != 10 {
			t.Errorf("group %d: %+v, %v", g, s, ok)
		}
	}
	for _, g := range []int{-1, 4} {
		if _, ok := x.GroupStats(1, g, intType, stats.WriterInfo{}); ok {
			t.Errorf("group %d out of range gave statistics", g)
		}
	}
	// An entry without statistics.
	x.Entries(1)[2].Statistics = nil
	if _, ok := x.GroupStats(1, 2, intType, stats.WriterInfo{}); ok {
		t.Error("entry without statistics gave statistics")
	}
	// Replacing and forgetting.
	x.SetRowIndex(2, rowIndex(4))
	if !x.HasRowIndex(2) || x.RowIndexErr(2) != nil {
		t.Errorf("column 2 after a good index: %v", x.RowIndexErr(2))
	}
	x.SetRowIndex(2, nil)
	if x.HasRowIndex(2) || x.RowIndexErr(2) != nil {
		t.Error("column 2 not forgotten")
	}
	// A file without a stride has no usable row index.
	y := NewIndex(100, 0)
	y.SetRowIndex(0, rowIndex(0))
	if y.HasRowIndex(0) || !errors.Is(y.RowIndexErr(0), orc.ErrCorrupt) {
		t.Errorf("stride 0: has %v, err %v", y.HasRowIndex(0), y.RowIndexErr(0))
	}
	// A stripe without rows has an empty but usable index.
	z := NewIndex(0, 1000)
	z.SetRowIndex(0, &orcpb.RowIndex{})
	if !z.HasRowIndex(0) || len(z.Entries(0)) != 0 {
		t.Errorf("empty stripe: has %v", z.HasRowIndex(0))
	}
}

func TestIndexPositions(t *testing.T) {
	x := NewIndex(3000, 1000)
	layout := []Slot{{data, 1}, {length, 2}}
	x.SetRowIndex(1, &orcpb.RowIndex{Entry: []*orcpb.RowIndexEntry{
		{}, // empty, as Java writes it for converted dictionaries
		{Positions: []uint64{100, 7, 8}},
		{Positions: []uint64{200, 9}},
	}})
	p, err := x.Positions(1, 0, layout)
	if err != nil || len(p) != 2 || len(p[0]) != 1 || p[0][0] != 0 || len(p[1]) != 2 || p[1][0] != 0 || p[1][1] != 0 {
		t.Errorf("group 0: %v, %v", p, err)
	}
	p, err = x.Positions(1, 1, layout)
	if err != nil || p[0][0] != 100 || p[1][1] != 8 {
		t.Errorf("group 1: %v, %v", p, err)
	}
	if _, err := x.Positions(1, 2, layout); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("short group 2: err %v, want ErrCorrupt", err)
	}
	for _, g := range []int{-1, 3} {
		if _, err := x.Positions(1, g, layout); err == nil {
			t.Errorf("group %d: no error", g)
		}
	}
	if _, err := x.Positions(5, 0, layout); err == nil {
		t.Error("column without index: no error")
	}
	if err := x.CheckPositions(1, layout); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("CheckPositions: err %v, want ErrCorrupt for group 2", err)
	}
	x.Entries(1)[2].Positions = append(x.Entries(1)[2].Positions, 10)
	if err := x.CheckPositions(1, layout); err != nil {
		t.Errorf("CheckPositions after the fix: %v", err)
	}
	if err := x.CheckPositions(4, layout); err == nil {
		t.Error("CheckPositions of a column without index: no error")
	}
}

// bloomIndex returns n filters holding the long g in group g.
func bloomIndex(n int) *orcpb.BloomFilterIndex {
	bi := &orcpb.BloomFilterIndex{}
	for g := range n {
		f := bloomfilter.New(100, 0.01)
		f.AddLong(int64(g))
		bi.BloomFilter = append(bi.BloomFilter, f.Proto())
	}
	return bi
}

func TestIndexBloomGating(t *testing.T) {
	utf8 := orcpb.Stream_BLOOM_FILTER_UTF8
	legacy := orcpb.Stream_BLOOM_FILTER
	java := stats.WriterInfo{Writer: 0}
	cppBad := stats.WriterInfo{Writer: 1, SoftwareVersion: "1.6.11"}
	cppOld := stats.WriterInfo{Writer: 1}
	cppGood := stats.WriterInfo{Writer: 1, SoftwareVersion: "1.7.1"}
	tests := []struct {
		name string
		src  BloomSource
		ok   bool
	}{
		{"utf8 int enc 1", BloomSource{utf8, orc.Int, 1, java}, true},
		{"utf8 int enc 0", BloomSource{utf8, orc.Int, 0, java}, true},
		{"utf8 string enc 0", BloomSource{utf8, orc.String, 0, java}, true},
		{"utf8 timestamp enc 1", BloomSource{utf8, orc.Timestamp, 1, java}, true},
		{"utf8 timestamp enc 0", BloomSource{utf8, orc.Timestamp, 0, java}, false},
		{"utf8 instant enc 0", BloomSource{utf8, orc.TimestampInstant, 0, java}, false},
		{"utf8 instant enc 1", BloomSource{utf8, orc.TimestampInstant, 1, java}, true},
		{"utf8 int enc 2", BloomSource{utf8, orc.Int, 2, java}, false},
		{"legacy int", BloomSource{legacy, orc.Int, 1, java}, false},
		{"legacy string", BloomSource{legacy, orc.String, 0, java}, false},
		{"C++ 1.6.11", BloomSource{utf8, orc.Int, 1, cppBad}, false},
		{"C++ without version", BloomSource{utf8, orc.Int, 1, cppOld}, false},
		{"C++ 1.7.1", BloomSource{utf8, orc.Int, 1, cppGood}, true},
	}
	for _, tt := range tests {
		x := NewIndex(2500, 1000)
		x.SetBloomFilterIndex(3, bloomIndex(3), tt.src)
		f, ok := x.Bloom(3, 1)
		if ok != tt.ok || x.HasBloom(3) != tt.ok {
			t.Errorf("%s: Bloom ok %v, HasBloom %v, want %v (err %v)", tt.name, ok, x.HasBloom(3), tt.ok, x.BloomErr(3))
			continue
		}
		if ok {
			if x.BloomErr(3) != nil || !f.TestLong(1) {
				t.Errorf("%s: err %v, filter of group 1 misses 1", tt.name, x.BloomErr(3))
			}
		} else if !errors.Is(x.BloomErr(3), ErrBloomIgnored) || errors.Is(x.BloomErr(3), orc.ErrCorrupt) {
			t.Errorf("%s: BloomErr %v, want ErrBloomIgnored", tt.name, x.BloomErr(3))
		}
	}
}

func TestIndexBloom(t *testing.T) {
	src := BloomSource{Stream: orcpb.Stream_BLOOM_FILTER_UTF8, Type: orc.Long, Encoding: 1}
	x := NewIndex(2500, 1000)
	bi := bloomIndex(3)
	bi.BloomFilter[2].NumHashFunctions = u32(0) // does not decode
	x.SetBloomFilterIndex(1, bi, src)
	f0, ok := x.Bloom(1, 0)
	if !ok || !f0.TestLong(0) {
		t.Fatalf("group 0: %v", ok)
	}
	if again, _ := x.Bloom(1, 0); again != f0 {
		t.Error("group 0 decoded twice")
	}
	for _, g := range []int{2, 2, -1, 3} { // the bad filter, asked twice, then out of range
		if f, ok := x.Bloom(1, g); ok || f != nil {
			t.Errorf("group %d: got a filter", g)
		}
	}
	if !x.HasBloom(1) || x.BloomErr(1) != nil {
		t.Errorf("one bad filter set the column aside: %v", x.BloomErr(1))
	}
	// A legacy index given later does not replace the UTF-8 one.
	x.SetBloomFilterIndex(1, bloomIndex(3), BloomSource{Stream: orcpb.Stream_BLOOM_FILTER, Type: orc.Long})
	if _, ok := x.Bloom(1, 1); !ok {
		t.Error("legacy index replaced the UTF-8 one")
	}
	// A UTF-8 index given after a legacy one is used.
	x.SetBloomFilterIndex(2, bloomIndex(3), BloomSource{Stream: orcpb.Stream_BLOOM_FILTER, Type: orc.Long})
	x.SetBloomFilterIndex(2, bloomIndex(3), src)
	if _, ok := x.Bloom(2, 1); !ok {
		t.Errorf("UTF-8 index after a legacy one not used: %v", x.BloomErr(2))
	}
	// Wrong counts set the column aside as corrupt.
	x.SetBloomFilterIndex(4, bloomIndex(2), src)
	if x.HasBloom(4) || !errors.Is(x.BloomErr(4), orc.ErrCorrupt) {
		t.Errorf("short bloom index: %v", x.BloomErr(4))
	}
	if _, ok := x.Bloom(4, 0); ok {
		t.Error("short bloom index used")
	}
	// Forgetting.
	x.SetBloomFilterIndex(1, nil, src)
	if x.HasBloom(1) || x.BloomErr(1) != nil {
		t.Error("column 1 filters not forgotten")
	}
	if _, ok := x.Bloom(9, 0); ok {
		t.Error("column never given has a filter")
	}
}

// The bloom filters of Apache's example files: over1k_bloom.orc has only
// legacy streams (ignored); bad_bloom_filter_*.orc are from C++ writers with
// ORC-1024 (ignored); the rest are used, and a value from a row group's
// statistics is found in its filter.
func TestExampleBlooms(t *testing.T) {
	tests := []struct {
		file   string
		usable bool
	}{
		{"over1k_bloom.orc", false},
		{"bad_bloom_filter_1.6.0.orc", false},
		{"bad_bloom_filter_1.6.11.orc", false},
	}
	for _, tt := range tests {
		examples.Dir(t)
		f := openExampleOrSkip(t, tt.file)
		if f == nil {
			continue // the tail reader rejects it
		}
		info := stats.WriterInfoFromTail(f.tail.PostScript, f.tail.Footer)
		stride := uint64(f.tail.Footer.GetRowIndexStride())
		seen, decoded := 0, 0
		for i := range f.stripes() {
			s := f.stripe(t, i)
			x := NewIndex(s.rows, stride)
			trusting := NewIndex(s.rows, stride) // as if the writer were Java
			for col := range f.cols {
				for _, kind := range []orcpb.Stream_Kind{orcpb.Stream_BLOOM_FILTER, orcpb.Stream_BLOOM_FILTER_UTF8} {
					b, ok := s.streams[streamKey{col, kind}]
					if !ok {
						continue
					}
					bi, err := DecodeBloomFilterIndex(f.decompress(t, b))
					if err != nil {
						t.Fatalf("%s stripe %d column %d: %v", tt.file, i, col, err)
					}
					seen++
					src := BloomSource{Stream: kind, Type: f.cols[col].Kind,
						Encoding: s.footer.GetColumns()[col].GetBloomEncoding(), Writer: info}
					x.SetBloomFilterIndex(col, bi, src)
					src.Writer = stats.WriterInfo{}
					trusting.SetBloomFilterIndex(col, bi, src)
				}
				if x.HasBloom(col) != tt.usable {
					t.Errorf("%s stripe %d column %d: HasBloom %v, want %v (%v)", tt.file, i, col, x.HasBloom(col), tt.usable, x.BloomErr(col))
				}
				if err := x.BloomErr(col); err != nil && !errors.Is(err, ErrBloomIgnored) {
					t.Errorf("%s stripe %d column %d: %v", tt.file, i, col, err)
				}
				for g := range trusting.Groups() {
					if _, ok := trusting.Bloom(col, g); ok {
						decoded++
					}
				}
			}
		}
		if seen == 0 {
			t.Errorf("%s: no bloom filter streams", tt.file)
		}
		t.Logf("%s: %d bloom filter streams, %d filters usable had the writer been trusted", tt.file, seen, decoded)
	}
}

// Filters we trust, built as Java builds them, read back through an Index
// next to the row index statistics: every group's min and max are in its
// filter.
func TestBloomAgreesWithStats(t *testing.T) {
	const groups = 5
	ri := rowIndex(groups)
	x := NewIndex(groups*1000-1, 1000)
	x.SetRowIndex(2, ri)
	x.SetBloomFilterIndex(2, bloomIndex(groups), BloomSource{Stream: orcpb.Stream_BLOOM_FILTER_UTF8, Type: orc.Long, Encoding: 1})
	for g := range groups {
		s, ok := x.GroupStats(2, g, &orc.Schema{Kind: orc.Long}, stats.WriterInfo{WriterVersion: 9})
		f, fok := x.Bloom(2, g)
		if !ok || !fok {
			t.Fatalf("group %d: stats %v, bloom %v", g, ok, fok)
		}
		if !f.TestLong(s.Int.Min) || !f.TestLong(s.Int.Max) {
			t.Errorf("group %d: filter misses its own min/max", g)
		}
	}
}

func protoSize(m proto.Message) int { return proto.Size(m) }
