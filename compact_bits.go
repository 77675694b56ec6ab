package orc

import (
	"math/bits"
	"unsafe"
)

// CompactBits keeps the rows i < n of v whose bit i%64 of keep[i/64] is
// set, moved to the front in order, in place, as Compact does with the
// list of those rows; n is at most v's length (the rows from n on are
// dropped), keep holds at least (n+63)/64 words. It suits a dense
// selection: the flat vectors (integers, floats, decimals, timestamps)
// move eight rows a step with no branch on the bits and no list of
// rows, a few instructions a row kept or not, where Compact pays for
// each row kept about twice that, and a list of the rows besides. Other
// vectors list the rows and call Compact.
func CompactBits(v Vector, keep []uint64, n int) {
	keep = keep[:(n+63)/64]
	switch vec := v.(type) {
	case *LongVector:
		vec.Values = keepRows(vec.Values, keep, n)
		vec.Nulls.Nulls = keepNullsBits(vec.Nulls.Nulls, keep, n)
	case *DoubleVector:
		vec.Values = keepRows(vec.Values, keep, n)
		vec.Nulls.Nulls = keepNullsBits(vec.Nulls.Nulls, keep, n)
	case *DecimalVector:
		vec.Values = keepInt128s(vec.Values, keep, n)
		vec.Nulls.Nulls = keepNullsBits(vec.Nulls.Nulls, keep, n)
	case *TimestampVector:
		vec.Seconds = keepRows(vec.Seconds, keep, n)
		vec.Nanos = keepRows(vec.Nanos, keep, n)
		vec.Nulls.Nulls = keepNullsBits(vec.Nulls.Nulls, keep, n)
	default:
		var rows []int32
		for i := range n {
			if keep[i/64]>>(i%64)&1 == 1 {
				rows = append(rows, int32(i))
			}
		}
		Compact(v, rows)
	}
}

// keepNullsBits is keepRows of a null mask, which is empty when no row
// is null.
func keepNullsBits(nulls []bool, keep []uint64, n int) []bool {
	if len(nulls) == 0 {
		return nulls
	}
	return keepRows(nulls, keep, n)
}

// keepInt128s is keepRows of 128-bit values, each moved whole as an
// array of two words (one 16-byte load and store; the struct's two
// fields would move one by one). Only bytes move: the order of the
// words in memory does not matter.
func keepInt128s(vals []Int128, keep []uint64, n int) []Int128 {
	vals = vals[:n]
	if n == 0 {
		return vals
	}
	w := unsafe.Slice((*[2]uint64)(unsafe.Pointer(unsafe.SliceData(vals))), n)
	return vals[:len(keepRows(w, keep, n))]
}

// keepRows moves vals[i] for each i < n whose bit is set in keep (as
// CompactBits reads it) to the front of vals, in order, and returns
// them; the rows from n on are dropped (n past vals panics, as slicing
// would). The rows before the first dropped one stay where they are;
// from there on, eight rows a step, every row of the step is stored at
// the place it takes if kept, the step's first free place plus the rows
// kept before it in the step (its rank, from the step's 8-bit mask;
// storeOffsets holds the ranks times the value's size): a dropped row's
// store is written over by the next kept row's, or lies past the rows
// kept. Every place stored to is at most the row read, so no row is
// overwritten before it is read.
func keepRows[T any](vals []T, keep []uint64, n int) []T {
	vals = vals[:n]
	keep = keep[:(n+63)/64]
	i := 0
	for i+64 <= n && keep[i/64] == ^uint64(0) {
		i += 64
	}
	for i+8 <= n && keep[i/64]>>(i%64)&0xff == 0xff {
		i += 8
	}
	size := unsafe.Sizeof(*new(T))
	offs := storeOffsets(size)
	// The row read and the first free place (at or before it), carried
	// from step to step; they move only when another step follows, so
	// that they stay within vals (a pointer past its end would be
	// invalid).
	k := i
	if i+8 <= n {
		src := unsafe.Pointer(&vals[i])
		dst, kept := src, 0
		for {
			m := keep[uint(i)/64] >> (uint(i) % 64) & 0xff
			o := offs[m] // a copy: indexing the table entry made an address for each row
			s := (*[8]T)(src)
			*(*T)(unsafe.Add(dst, o[0])) = s[0]
			*(*T)(unsafe.Add(dst, o[1])) = s[1]
			*(*T)(unsafe.Add(dst, o[2])) = s[2]
			*(*T)(unsafe.Add(dst, o[3])) = s[3]
			*(*T)(unsafe.Add(dst, o[4])) = s[4]
			*(*T)(unsafe.Add(dst, o[5])) = s[5]
			*(*T)(unsafe.Add(dst, o[6])) = s[6]
			*(*T)(unsafe.Add(dst, o[7])) = s[7]
			kept = int(selCount8[m])
			if i += 8; i+8 > n {
				break
			}
			src, dst = unsafe.Add(src, 8*size), unsafe.Add(dst, uintptr(kept)*size)
		}
		k = int((uintptr(dst)-uintptr(unsafe.Pointer(&vals[0])))/size) + kept
	}
	for ; i < n; i++ {
		vals[k] = vals[i]
		k += int(keep[i/64] >> (i % 64) & 1)
	}
	return vals[:k]
}

// storeOffsets returns the table of keepRows' store offsets for values of
// size bytes (1, 4, 8 or 16).
func storeOffsets(size uintptr) *[256][8]uint8 {
	switch size {
	case 1:
		return &keepOffsets1
	case 4:
		return &keepOffsets4
	case 8:
		return &keepOffsets8
	}
	return &keepOffsets16
}

// keepOffsetsN gives, for each 8-bit mask m and row j < 8, the number of
// m's bits set below bit j (which is at most j) times N; selCount8 the
// bits set of each mask.
var (
	keepOffsets1  = keepOffsetTable(1)
	keepOffsets4  = keepOffsetTable(4)
	keepOffsets8  = keepOffsetTable(8)
	keepOffsets16 = keepOffsetTable(16)
	selCount8     = func() (c [256]uint8) {
		for m := range c {
			c[m] = uint8(bits.OnesCount8(uint8(m)))
		}
		return c
	}()
)

func keepOffsetTable(size int) (t [256][8]uint8) {
	for m := range t {
		for j := range 8 {
			t[m][j] = uint8(bits.OnesCount8(uint8(m)&uint8(1<<j-1)) * size)
		}
	}
	return t
}
