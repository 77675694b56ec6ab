package rowindex

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
)

// FuzzSplit cuts fuzzed positions by a fuzzed layout: either the count fits
// and the parts are the positions in order with the slots' counts, or the
// error wraps orc.ErrCorrupt (or, for negative counts, is a plain error).
func FuzzSplit(f *testing.F) {
	f.Add([]byte{2, 1, 3, 2}, []byte{1, 2, 3, 4, 5})
	f.Add([]byte{4, 0, 3, 1}, []byte{0, 61, 64, 0, 0, 0, 0})
	f.Add([]byte{}, []byte{})
	f.Add([]byte{0xff, 1}, []byte{9})
	f.Fuzz(func(t *testing.T, slots, pos []byte) {
		var layout []Slot
		for i := 0; i+1 < len(slots) && len(layout) < 8; i += 2 {
			layout = append(layout, Slot{Kind: orcpb.Stream_Kind(slots[i+1] % 6), Count: int(int8(slots[i])) % 6})
		}
		positions := make([]uint64, len(pos))
		for i, b := range pos {
			positions[i] = uint64(b) << (i % 57)
		}
		parts, err := Split(positions, layout)
		neg := slices.ContainsFunc(layout, func(s Slot) bool { return s.Count < 0 })
		switch {
		case neg:
			if err == nil || errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("negative count: err %v", err)
			}
		case len(positions) != width(layout):
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("%d positions for width %d: err %v", len(positions), width(layout), err)
			}
		default:
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) != len(layout) {
				t.Fatalf("%d parts for %d slots", len(parts), len(layout))
			}
			var joined []uint64
			for i, p := range parts {
				if len(p) != layout[i].Count || cap(p) != len(p) {
					t.Fatalf("part %d: len %d cap %d, want %d", i, len(p), cap(p), layout[i].Count)
				}
				joined = append(joined, p...)
			}
			if !slices.Equal(joined, positions) {
				t.Fatalf("parts %v do not rebuild %v", parts, positions)
			}
		}
	})
}

// FuzzRunRange builds one stream's index from fuzzed numbers (places from
// 16-bit gaps, a top bit making a step back, to reach the indexes that
// cannot be planned from; chunk offsets and decoder numbers from nums) and
// checks the range of every run with checkRunRange.
func FuzzRunRange(f *testing.F) {
	f.Add(uint64(100000), []byte{0, 0, 0x10, 0x27, 0x20, 0x4e}, []byte{0, 3, 0}, uint8(1), false, 0)
	f.Add(uint64(1<<20), []byte{0, 0, 0, 0, 0x03, 0x00, 0x01}, []byte{0, 0, 9, 1}, uint8(2), true, 65536)
	f.Add(uint64(5000), []byte{0, 0, 0xe8, 0x03}, []byte{1, 0, 1}, uint8(1), true, 100)
	f.Add(^uint64(0), []byte{0xff, 0xff, 0xff}, []byte{}, uint8(0), false, 0)
	f.Add(uint64(10), []byte{}, []byte{1}, uint8(2), true, -1)
	f.Fuzz(func(t *testing.T, length uint64, gaps, nums []byte, kind uint8, compressed bool, blockSize int) {
		if len(gaps) > 400 {
			return
		}
		decoder := int(kind % 3) // numbers after the place: raw bytes, RLE, boolean RLE
		extra := 0
		if compressed {
			extra = 1
		}
		blockSize %= 1 << 23
		num := func(i int) uint64 {
			if len(nums) == 0 {
				return 0
			}
			return uint64(nums[i%len(nums)])
		}
		var pos []streamPos
		var entries []*orcpb.RowIndexEntry
		var place uint64
		for i := 0; i+1 < len(gaps); i += 2 {
			g := uint64(binary.LittleEndian.Uint16(gaps[i:]))
			if len(pos) > 0 {
				if g&0x8000 != 0 && place >= g&0x7fff {
					place -= g & 0x7fff
				} else {
					place += g * uint64(1+i%7)
				}
			}
			p := streamPos{place: place, rest: make([]uint64, decoder)}
			k := len(pos) * (1 + decoder)
			if compressed {
				p.inner = num(k) * 16
			}
			for j := range p.rest {
				p.rest[j] = num(k + 1 + j)
			}
			numbers := []uint64{p.place}
			if compressed {
				numbers = append(numbers, p.inner)
			}
			entries = append(entries, &orcpb.RowIndexEntry{Positions: append(numbers, p.rest...)})
			if len(pos) == 0 {
				p = streamPos{rest: make([]uint64, decoder)}
			}
			pos = append(pos, p)
		}
		si, err := NewStreamIndex(length, entries, []Slot{{orcpb.Stream_DATA, 1 + extra + decoder}}, 0, compressed, blockSize)
		if err != nil {
			t.Fatal(err)
		}
		for a := range pos {
			for b := a + 1; b <= len(pos); b++ {
				r, exact := si.RunRange(a, b)
				if msg := checkRunRange(length, pos, compressed, blockSize, a, b, r, exact); msg != "" {
					t.Fatal(msg)
				}
			}
		}
	})
}

// FuzzIndex decodes fuzzed ROW_INDEX and BLOOM_FILTER_UTF8 bytes and uses
// what decodes as the reader does: each entry's positions cut by a layout
// (Split), its statistics (stats.FromProto), the stream's places
// (NewStreamIndex) and every run's range (RunRange), each filter
// (bloomfilter.FromProto) probed. No panics, errors only of the documented
// kinds, ranges inside the stream.
func FuzzIndex(f *testing.F) {
	ri, _ := proto.Marshal(rowIndex(3))
	bi, _ := proto.Marshal(bloomIndex(3))
	f.Add(ri, bi, uint16(2500))
	f.Add(ri, bi, uint16(100))
	f.Add([]byte{0x0a, 0x00, 0x0a, 0x02, 0x0a, 0x00}, []byte{0x0a, 0x04, 0x08, 0x03, 0x1a, 0x00}, uint16(20))
	f.Add([]byte{}, []byte{}, uint16(0))
	f.Fuzz(func(t *testing.T, riBytes, biBytes []byte, length uint16) {
		layout := []Slot{{orcpb.Stream_DATA, 2}}
		ri, err := DecodeRowIndex(riBytes)
		if err != nil {
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("DecodeRowIndex: %v", err)
			}
		} else {
			for g, e := range ri.GetEntry() {
				if _, err := Split(e.GetPositions(), layout); err != nil && !errors.Is(err, orc.ErrCorrupt) {
					t.Fatalf("Split of entry %d: %v", g, err)
				}
				stats.FromProto(e.GetStatistics(), &orc.Schema{Kind: orc.Long}, stats.WriterInfo{})
			}
			si, err := NewStreamIndex(uint64(length), ri.GetEntry(), layout, 0, false, 0)
			if err != nil {
				if !errors.Is(err, orc.ErrCorrupt) {
					t.Fatalf("NewStreamIndex: %v", err)
				}
			} else {
				for a := range len(si.Starts) {
					for b := a + 1; b <= len(si.Starts); b++ {
						if r, _ := si.RunRange(a, b); r.Start > r.End || r.End > uint64(length) {
							t.Fatalf("RunRange(%d, %d) = %v in a stream of %d bytes", a, b, r, length)
						}
					}
				}
			}
		}
		bix, err := DecodeBloomFilterIndex(biBytes)
		if err != nil {
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("DecodeBloomFilterIndex: %v", err)
			}
			return
		}
		for g, pb := range bix.GetBloomFilter() {
			if fl, err := bloomfilter.FromProto(pb); err == nil {
				fl.TestLong(int64(g))
			}
		}
	})
}
