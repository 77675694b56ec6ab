package rowindex

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
)

func u64(v uint64) *uint64 { return &v }
func s64(v int64) *int64   { return &v }
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
