package rowindex

// Planning the I/O for reading some row groups of a stream.
//
// A selected run of row groups a..b-1 (b the first unselected group after
// it) needs the stream from group a's position up to where the values of
// group b-1 end. Group b's position does not mark that end: it names the
// start of the run that holds group b's first value, and the values buffered
// in front of it, which belong to group b-1 and earlier, are in that same
// run (or, below, the one after it). So a run of groups reads
//
//	[start of group a, start of group b + slop)     clamped to the stream
//	[start of group a, end of stream)               when no group b follows
//
// and runs whose ranges touch or overlap are merged.
//
// # The slop
//
// Uncompressed, the slop is the most bytes from a position to the end of
// the values buffered at it, maxBufferedBytes = 4378:
//
//	raw bytes (float/double, string/binary DATA, decimal DATA varints): 0;
//	    the position is the exact byte offset, nothing is buffered.
//	byte RLE: one literal group 1 + 128 = 129 bytes, plus for boolean RLE
//	    the control byte and first byte of the next group, which holds the
//	    partly used byte (bits > 0): 131.
//	integer RLE v1: one literal group of 128 varints of up to 10 bytes,
//	    1 + 1280 = 1281, plus the run group it may be cut into: 12.
//	integer RLE v2 (the largest): a writer buffers at most 511 values
//	    before one run; the runs the decoder accepts are at most
//	      DIRECT        2 + 512*8                         = 4098
//	      DELTA         2 + 10 + 10 + 510*8               = 4102
//	      PATCHED_BASE  4 + 8 + 512*8 + 31 entries * 8    = 4356
//	    (W and the patch entry width both 64 bits, as the decoder allows),
//	    and Java's writer and ours may cut the buffered values into one
//	    such run followed by a run of equal values (when a repeat appears
//	    after the position), at most a DELTA of width 0: 2 + 10 + 10 = 22.
//	    4356 + 22 = 4378.
//
// Java's 2 + 8*512 = 4098 covers a DIRECT run of 64-bit values but neither
// a 64-bit DELTA nor the trailing repeat run; the 280 extra bytes cost
// nothing measurable.
//
// Compressed, group b's position is (chunk offset c, offset u in the
// decompressed chunk). The reader needs chunk c whole (InStream decompresses
// whole chunks) and the chunks after it until S = maxBufferedBytes
// decompressed bytes past u are in. u can equal the block size (the writer's
// buffer was exactly full), so in the worst case chunk c contributes nothing
// and ceil(S/blockSize) more chunks are needed, each at most blockSize + 3
// bytes on disk (chunk lengths above the block size are corrupt):
//
//	slop = (1 + ceil(S/blockSize)) * (blockSize + 3),  S = 4378
//
// Java uses (2 + (512*8-1)/blockSize) * (blockSize + 3), the same with
// S = 4096, which is short even of a plain 4098-byte DIRECT run when u is
// near the block size and the block size is small (the tests meet it with
// 16-byte blocks and with 4096-byte ones). Either bound assumes, as Java and C++ ORC and our writer do,
// that every chunk but a stream's last decompresses to exactly the block
// size: a writer that emits short chunks in mid-stream can put any number of
// chunks within the slop, and no bound from metadata alone exists then. A
// reader should then read on past the planned range (format.Loader) rather
// than fail. StreamIndex.RunRange plans exactly where positions carry
// nothing (stream.go).

import (
	"slices"
)

// Range is a byte range [Start, End) within a stream.
type Range struct{ Start, End uint64 }

// maxBufferedBytes is the most bytes a stream needs past a row-index position
// to finish the values buffered at it (see the file comment).
const maxBufferedBytes = 4356 + 22

// chunkHeaderSize is the 3-byte header in front of each compressed chunk.
const chunkHeaderSize = 3

// Slop returns how many bytes past the start of the first unselected row
// group a selected run of row groups may still need (see the file comment),
// for a stream of a file that is compressed with the given block size or not.
// A compressed blockSize below 1 gives 0, meaning no bound: PlanStream then
// reads whole streams.
func Slop(compressed bool, blockSize int) uint64 {
	if !compressed {
		return maxBufferedBytes
	}
	if blockSize < 1 {
		return 0
	}
	bs := uint64(blockSize)
	chunks := 1 + (maxBufferedBytes+bs-1)/bs
	return chunks * (bs + chunkHeaderSize)
}

// PlanStream returns the byte ranges of one stream, of streamLength bytes,
// that reading the selected row groups needs: groupStarts[g] is the stream's
// first position number in group g's row-index entry (the byte offset
// uncompressed, the chunk header offset compressed; see GroupStarts),
// selected[g] whether group g is read. Each run of selected groups a..b-1
// maps to [groupStarts[a], groupStarts[b] + Slop) clamped to the stream, or
// to the stream's end when no group follows; ranges that overlap or touch
// are merged, and empty ones (a run starting at the stream's end) left out.
// The result is sorted.
//
// Inputs that cannot be planned safely give the whole stream when any group
// is selected: groupStarts and selected of different lengths, starts that
// decrease or lie past the stream's end (a corrupt index, which seeking will
// report), or a compressed blockSize below 1.
func PlanStream(streamLength uint64, groupStarts []uint64, selected []bool, compressed bool, blockSize int) []Range {
	return PlanStreamAt(streamLength, groupStarts, nil, selected, compressed, blockSize)
}

// PlanStreamAt is PlanStream that also knows, for a compressed stream, each
// group's offset inside its decompressed chunk (the entry's second position
// number; nil when unknown). A run whose next group starts early enough in
// its chunk that the values buffered there end inside that chunk then needs
// that one chunk only, not the worst case's chunks after it.
func PlanStreamAt(streamLength uint64, groupStarts, groupOffsets []uint64, selected []bool, compressed bool, blockSize int) []Range {
	slop := Slop(compressed, blockSize)
	if slop == 0 {
		if !slices.Contains(selected, true) || streamLength == 0 {
			return nil
		}
		return []Range{{0, streamLength}}
	}
	chunks := chunkCounts(groupStarts, groupOffsets, compressed, blockSize)
	return planStreamChunks(streamLength, groupStarts, selected, slop, chunks, true)
}

// chunkCounts returns, for a compressed stream, how many chunks from the
// one where each group starts the values buffered at its start may need;
// nil for an uncompressed stream.
func chunkCounts(groupStarts, groupOffsets []uint64, compressed bool, blockSize int) []int {
	if !compressed {
		return nil
	}
	bs := uint64(blockSize)
	worst := int(1 + (maxBufferedBytes+bs-1)/bs)
	chunks := make([]int, len(groupStarts))
	for g := range chunks {
		chunks[g] = worst
		if len(groupOffsets) == len(groupStarts) && groupOffsets[g] <= bs {
			// Bytes still needed after the chunk where group g starts.
			rest := int64(maxBufferedBytes) - int64(bs-groupOffsets[g])
			chunks[g] = 1
			if rest > 0 {
				chunks[g] = 1 + int((uint64(rest)+bs-1)/bs)
			}
		}
	}
	return chunks
}

// PlanStreamRuns is PlanStreamAt without the merging: one range for each
// run of selected groups (leaving out empty ones), in the runs' order, so
// that a reader can fetch the bytes of one run alone. The ranges of
// neighbouring runs may overlap; the range of a run is the one with the
// largest End among those holding the run's first group start.
func PlanStreamRuns(streamLength uint64, groupStarts, groupOffsets []uint64, selected []bool, compressed bool, blockSize int) []Range {
	slop := Slop(compressed, blockSize)
	if slop == 0 {
		return PlanStreamAt(streamLength, groupStarts, groupOffsets, selected, compressed, blockSize)
	}
	chunks := chunkCounts(groupStarts, groupOffsets, compressed, blockSize)
	return planStreamChunks(streamLength, groupStarts, selected, slop, chunks, false)
}

// planStream is planStreamChunks with one chunk count for every group.
func planStream(streamLength uint64, groupStarts []uint64, selected []bool, slop uint64, chunks int) []Range {
	var per []int
	if chunks > 0 {
		per = make([]int, len(groupStarts))
		for g := range per {
			per[g] = chunks
		}
	}
	return planStreamChunks(streamLength, groupStarts, selected, slop, per, true)
}

// planStreamChunks is PlanStream with the slop given. When chunks is not
// nil the stream is compressed and a run ending before group b needs at
// most chunks[b] chunks from the chunk where group b starts; since every
// group start is a chunk start, the chunks[b]-th distinct group start after
// it bounds them more tightly than the worst-case slop whenever groups are
// small.
func planStreamChunks(streamLength uint64, groupStarts []uint64, selected []bool, slop uint64, chunks []int, merge bool) []Range {
	if !slices.Contains(selected, true) || streamLength == 0 {
		return nil
	}
	whole := []Range{{0, streamLength}}
	if len(groupStarts) != len(selected) {
		return whole
	}
	for g, s := range groupStarts {
		if s > streamLength || g > 0 && s < groupStarts[g-1] {
			return whole
		}
	}
	var out []Range
	n := len(selected)
	for a := 0; a < n; {
		if !selected[a] {
			a++
			continue
		}
		b := a + 1
		for b < n && selected[b] {
			b++
		}
		r := Range{Start: groupStarts[a], End: streamLength}
		if b < n && streamLength-groupStarts[b] > slop {
			r.End = groupStarts[b] + slop
		}
		if b < n && len(chunks) == n {
			// Chunk c+i-1 ends at or before the i-th distinct chunk start
			// after c: chunks are contiguous and every group start is one.
			c, seen := groupStarts[b], 0
			for g := b + 1; g < n; g++ {
				if groupStarts[g] > c {
					c = groupStarts[g]
					if seen++; seen == chunks[b] {
						r.End = min(r.End, c)
						break
					}
				}
			}
		}
		if r.End > r.Start {
			if k := len(out); merge && k > 0 && out[k-1].End >= r.Start {
				out[k-1].End = max(out[k-1].End, r.End)
			} else {
				out = append(out, r)
			}
		}
		a = b
	}
	return out
}

// MergeRanges sorts rs by start and merges ranges that overlap or lie at most
// gap bytes apart (0: only overlapping or touching ones), dropping empty
// ones. It works in place and returns the merged prefix of rs.
func MergeRanges(rs []Range, gap uint64) []Range {
	out := rs[:0]
	for _, r := range rs {
		if r.End > r.Start {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Range) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	if len(out) == 0 {
		return out
	}
	k := 0
	for _, r := range out[1:] {
		if last := &out[k]; r.Start <= last.End || r.Start-last.End <= gap {
			last.End = max(last.End, r.End)
			continue
		}
		k++
		out[k] = r
	}
	return out[:k+1]
}
