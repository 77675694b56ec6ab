package reader

// The bool-mask forms of selection: the filter works from bitmaps now
// (selectionBits, trueBits), and these stay as the tests' oracles of them.

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"
)

// selectMask selects the rows i of mask that are true.
func selectMask(mask []bool) rowSelection {
	return appendMask(rowSelection{}, mask)
}

// appendMask is selectMask reusing s's runs.
// It writes each row's possible start and end of a run and advances
// past the real ones, without a branch on the mask: a filter's matches
// are often random, and branches on them are mispredicted as often.
func appendMask(s rowSelection, mask []bool) rowSelection {
	s.n = int64(len(mask))
	runs := slices.Grow(s.runs[:0], len(mask)/2+2)[:len(mask)/2+2]
	starts, ends := 0, 0 // runs begun and ended
	prev := 0            // the previous row is selected
	for i, m := range mask {
		cur := int(*(*uint8)(unsafe.Pointer(&m))) // a bool is one byte, 0 or 1
		runs[starts].start = int64(i)
		runs[ends].end = int64(i)
		starts += cur &^ prev
		ends += prev &^ cur
		prev = cur
	}
	runs[ends].end = int64(len(mask))
	s.runs = runs[:starts] // a run still open ends at the mask's end
	return s
}

// countRuns returns how many runs of true rows mask holds, without a
// branch on the mask: eight rows a step, a run starting at each byte that
// is 1 where the byte before it is 0.
func countRuns(mask []bool) int { return countRunsTo(mask, len(mask)) }

// countRunsTo is countRuns, but it stops counting, and returns a number
// above limit, once the runs are more than limit: the exact filter asks
// whether a batch's matches are sparse, and a dense batch's answer is
// clear after its first rows.
func countRunsTo(mask []bool, limit int) int {
	b := boolBytes(mask)
	runs := 0
	var prev uint64 // the last byte of the previous word, in bits 56..63
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		runs += bits.OnesCount64(w &^ (w<<8 | prev>>56))
		prev = w
		if runs > limit {
			return runs
		}
	}
	last := uint64(prev >> 56)
	for ; i < len(b); i++ {
		cur := uint64(b[i])
		runs += int(cur &^ last)
		last = cur
	}
	return runs
}
