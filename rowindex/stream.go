package rowindex

// Byte ranges of row-group runs, exact where the positions show nothing
// carried over.
//
// A stream's position at the start of row group b says what the groups
// before b may still need past it. Three cases, told apart by the numbers
// after the stream place (see layout.go):
//
//   - Nothing is carried: a raw-bytes stream (its position is an exact byte
//     offset), or an RLE stream whose values-to-skip are 0 (and, for boolean
//     RLE, bytes-to-skip and bits both 0). Decoding from the position gives
//     group b's first value, so every value before it lies in front of the
//     position. Uncompressed, a run ending before b ends at the position.
//     Compressed, at chunk c (the position's chunk) when the offset inside
//     the chunk is 0: the group is aligned, and its bytes start exactly
//     there. With a non-zero inner offset the run needs chunk c whole.
//     Neither bound assumes anything about chunk sizes.
//   - A boolean byte split at the boundary (bits > 0, no bytes to skip): the
//     groups before need the run header and the shared byte, 2 bytes from the
//     position, which lie in chunk c (the first run of a chunk is not cut
//     before its first data byte by any writer that fills or flushes chunks).
//   - Otherwise values are carried in a run that the position points into:
//     the slop of plan.go (maxBufferedBytes past the position, with the
//     chunks counted on the assumption that chunks are full).
//
// Writers that align their streams (orcgo's default) record the first kind
// at every boundary except for split boolean bytes, so the planned range of
// a run is exactly its groups' bytes, plus one chunk of a boolean stream.

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// splitBoolCarry is what a run needs past a boolean position whose byte is
// split: the byte-RLE header and the byte.
const splitBoolCarry = 2

// StreamIndex is one stream's place at the start of each row group of a
// stripe, read from the column's row index.
type StreamIndex struct {
	length     uint64 // stream length in the file
	compressed bool
	blockSize  int
	// Per group: the stream place (the chunk header offset compressed, the
	// byte offset uncompressed), the offset inside the decompressed chunk
	// (0 uncompressed), and the decompressed bytes past the position that
	// the groups before may still need (see the file comment).
	Starts, Offsets, Carry []uint64
	valid                  bool // starts ascend within the stream
}

// NewStreamIndex reads the places of the stream in layout slot slot from a
// column's row index entries (one per row group). Entry 0 is the stream's
// start whatever it holds. Another entry with more or fewer numbers than
// the layout's slots take gives an error wrapping orc.ErrCorrupt.
func NewStreamIndex(length uint64, entries []*orcpb.RowIndexEntry, layout []Slot, slot int, compressed bool, blockSize int) (*StreamIndex, error) {
	if err := checkLayout(layout); err != nil {
		return nil, err
	}
	if slot < 0 || slot >= len(layout) || layout[slot].Count == 0 {
		return nil, fmt.Errorf("rowindex: no slot %d with positions in a layout of %d slots", slot, len(layout))
	}
	extra := 0
	if compressed {
		extra = 1
	}
	count := layout[slot].Count
	if count-extra < rawCount || count-extra > boolCount {
		return nil, fmt.Errorf("rowindex: slot %v takes %d numbers, not a stream's", layout[slot].Kind, count)
	}
	off := 0
	for _, s := range layout[:slot] {
		off += s.Count
	}
	w := width(layout)
	n := len(entries)
	s := &StreamIndex{length: length, compressed: compressed, blockSize: blockSize,
		Starts: make([]uint64, n), Offsets: make([]uint64, n), Carry: make([]uint64, n), valid: true}
	for g, e := range entries {
		if g == 0 {
			continue
		}
		p := e.GetPositions()
		if len(p) != w {
			return nil, orc.Corruptf("row index entry %d has %d positions, the column's streams (%s) take %d",
				g, len(p), layoutString(layout), w)
		}
		nums := p[off : off+count]
		s.Starts[g] = nums[0]
		rest := nums[1:]
		if compressed {
			s.Offsets[g] = nums[1]
			rest = nums[2:]
		}
		switch count - extra {
		case rleCount:
			if rest[0] != 0 {
				s.Carry[g] = maxBufferedBytes
			}
		case boolCount:
			switch {
			case rest[0] != 0:
				s.Carry[g] = maxBufferedBytes
			case rest[1] != 0:
				s.Carry[g] = splitBoolCarry
			}
		}
		if s.Starts[g] > length || s.Starts[g] < s.Starts[g-1] {
			s.valid = false
		}
	}
	if compressed && blockSize < 1 {
		s.valid = false
	}
	return s, nil
}

// Aligned reports whether group g of the stream starts with nothing carried
// from the groups before it at a chunk start (compressed) or at its exact
// byte (uncompressed): the groups before end where it starts.
func (s *StreamIndex) Aligned(g int) bool {
	return g == 0 || s.Carry[g] == 0 && s.Offsets[g] == 0
}

// RunRange returns the bytes of the stream that reading row groups
// [first, end) needs, and whether the range is exact: it ends where group
// end starts (an aligned group, or the stream's end). An index that cannot be
// planned from (starts that decrease or lie past the stream, a compressed
// block size below 1) gives the whole stream, as does a bad run.
func (s *StreamIndex) RunRange(first, end int) (r Range, exact bool) {
	n := len(s.Starts)
	if !s.valid || first < 0 || first >= end || first >= n {
		return Range{0, s.length}, false
	}
	r.Start = s.Starts[first]
	if end >= n {
		return Range{r.Start, s.length}, true
	}
	c, inner, carry := s.Starts[end], s.Offsets[end], s.Carry[end]
	if !s.compressed {
		r.End = min(s.length, c+carry)
		return r, carry == 0
	}
	if inner == 0 && carry == 0 {
		r.End = c
		return r, true
	}
	bs := uint64(s.blockSize)
	chunks := uint64(1) // chunk c whole
	if carry > 0 {
		if inner > bs {
			chunks = 1 + (maxBufferedBytes+bs-1)/bs
		} else if rest := inner + carry; rest > bs {
			chunks = 1 + (rest-bs+bs-1)/bs
		}
	}
	r.End = min(s.length, c+chunks*(bs+chunkHeaderSize))
	// Chunks are contiguous and every group start is a chunk start, so
	// chunk c+i-1 ends at or before the i-th distinct start after c.
	seen, last := uint64(0), c
	for g := end + 1; g < n; g++ {
		if st := s.Starts[g]; st > last {
			last = st
			if seen++; seen == chunks {
				r.End = min(r.End, st)
				break
			}
		}
	}
	return r, false
}
