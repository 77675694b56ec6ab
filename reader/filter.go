package reader

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/orcgo/orc"
)

// selection appends to idx the indexes of the rows sel selects, eight
// rows a step and without a branch on sel (a filter's matches are often
// random, and a branch on them is mispredicted as often): the step's
// eight bools become an 8-bit mask by one multiply, whose entry in
// selTable lists its rows two to a word; the four words, plus the step's
// first row in both halves, are stored whole and the index advances past
// the selected rows (the slots after them are written over next). A
// big-endian machine, whose int32s lie otherwise, takes a row a step.
func selection(sel []bool, idx []int32) []int32 {
	k := len(idx)
	idx = slices.Grow(idx, len(sel)+8)[:k+len(sel)+8]
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(sel))), len(sel)) // a bool is one byte, 0 or 1
	w := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(idx))), 4*len(idx))
	i, whole := 0, 0
	if littleEndian { // the words stored are two int32s each, low first
		whole = len(b) &^ 7
	}
	for ; i < whole; i += 8 {
		m := binary.LittleEndian.Uint64(bytes8(b, i)[:]) * 0x0102040810204080 >> 56
		t := &selTable[m]
		base := uint64(i) * (1<<32 + 1)
		d := (*[32]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(w)), 4*k)) // k+8 <= len(idx)
		binary.LittleEndian.PutUint64(d[0:8], t[0]+base)
		binary.LittleEndian.PutUint64(d[8:16], t[1]+base)
		binary.LittleEndian.PutUint64(d[16:24], t[2]+base)
		binary.LittleEndian.PutUint64(d[24:32], t[3]+base)
		k += int(selCount[m])
	}
	for ; i < len(b); i++ {
		idx[k] = int32(i)
		k += int(b[i])
	}
	return idx[:k]
}

// bytes8 returns b[i:i+8] as an array, with no bounds check: callers loop
// with i+8 <= len(b).
func bytes8(b []byte, i int) *[8]byte {
	return (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// selCount is the number of set bits of each 8-bit mask (bits.OnesCount8
// without its CPU feature test).
var selCount = func() (c [256]uint8) {
	for m := range c {
		c[m] = uint8(bits.OnesCount8(uint8(m)))
	}
	return c
}()

// selTable lists, for each 8-bit mask, the positions of its set bits in
// ascending order, two to a word (the first in the low half, as int32s
// lie in memory), the rest of the eight slots zero.
var selTable = func() (t [256][4]uint64) {
	for m := range t {
		k := 0
		for j := range 8 {
			if m>>j&1 == 1 {
				t[m][k/2] |= uint64(j) << (32 * (k % 2))
				k++
			}
		}
	}
	return t
}()

// appendRows appends the rows of src to dst, a vector of the same type.
func appendRows(dst, src orc.Vector) {
	n, have := src.Len(), dst.Len()
	if dn, sn := orc.NullsOf(dst), orc.NullsOf(src); dn != nil && sn != nil {
		dn.Nulls = appendNulls(dn.Nulls, have, sn.Nulls, n)
	}
	switch d := dst.(type) {
	case *orc.LongVector:
		s := src.(*orc.LongVector)
		d.Values = append(d.Values, s.Values[:n]...)
	case *orc.DoubleVector:
		s := src.(*orc.DoubleVector)
		d.Values = append(d.Values, s.Values[:n]...)
	case *orc.DecimalVector:
		s := src.(*orc.DecimalVector)
		d.Values = append(d.Values, s.Values[:n]...)
	case *orc.TimestampVector:
		s := src.(*orc.TimestampVector)
		d.Seconds = append(d.Seconds, s.Seconds[:n]...)
		d.Nanos = append(d.Nanos, s.Nanos[:n]...)
	case *orc.BytesVector:
		s := src.(*orc.BytesVector)
		if len(d.Offsets) == 0 {
			d.Offsets = append(d.Offsets, 0)
		}
		base := len(d.Data) - s.Offsets[0]
		d.Data = append(d.Data, s.Data[s.Offsets[0]:s.Offsets[n]]...)
		for _, o := range s.Offsets[1 : n+1] {
			d.Offsets = append(d.Offsets, o+base)
		}
	case *orc.StructVector:
		s := src.(*orc.StructVector)
		for i, f := range d.Fields {
			appendRows(f, s.Fields[i])
		}
		d.N += n
	case *orc.ListVector:
		s := src.(*orc.ListVector)
		d.Offsets = appendOffsets(d.Offsets, s.Offsets, n)
		appendRows(d.Elem, s.Elem)
	case *orc.MapVector:
		s := src.(*orc.MapVector)
		d.Offsets = appendOffsets(d.Offsets, s.Offsets, n)
		appendRows(d.Keys, s.Keys)
		appendRows(d.Values, s.Values)
	case *orc.UnionVector:
		s := src.(*orc.UnionVector)
		d.Tags = append(d.Tags, s.Tags[:n]...)
		for i, c := range d.Children {
			appendRows(c, s.Children[i])
		}
	}
}

// appendNulls appends n rows' null flags (src, empty when none is null) to
// dst, the flags of have rows (empty when none is null).
func appendNulls(dst []bool, have int, src []bool, n int) []bool {
	if len(src) == 0 {
		if len(dst) == 0 {
			return dst
		}
		for range n {
			dst = append(dst, false)
		}
		return dst
	}
	if len(dst) == 0 {
		for range have {
			dst = append(dst, false)
		}
	}
	return append(dst, src[:n]...)
}

// appendOffsets appends the n rows of src offsets (n+1 entries) to dst,
// rebased to follow dst's last offset.
func appendOffsets(dst, src []int64, n int) []int64 {
	if len(dst) == 0 {
		dst = append(dst, 0)
	}
	base := dst[len(dst)-1] - src[0]
	for _, o := range src[1 : n+1] {
		dst = append(dst, o+base)
	}
	return dst
}

// checkBatch reports an error when b cannot hold this reader's rows: a
// batch of another schema, or vectors of the wrong types.
func (br *BatchReader) checkBatch(b *orc.Batch) error {
	if b == nil {
		return fmt.Errorf("%w: Next: nil batch (make batches with BatchReader.NewBatch)", orc.ErrInvalidBatch)
	}
	want := 1
	if br.schema.Kind == orc.Struct {
		want = len(br.schema.Children)
	}
	if len(b.Cols) != want {
		return fmt.Errorf("%w: Next: the batch has %d columns, the scan's schema %s has %d (make batches with BatchReader.NewBatch)",
			orc.ErrInvalidBatch, len(b.Cols), br.schema, want)
	}
	if br.schema.Kind != orc.Struct {
		return checkVectorType(br.schema, b.Cols[0], "")
	}
	for i, c := range br.schema.Children {
		if err := checkVectorType(c, b.Cols[i], br.schema.FieldNames[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkVectorType checks that v is the vector type for values of type t,
// down its children; path names t in the error. The names of the columns
// below are made only for the error (a batch of 100,000 nested columns
// made a megabyte of them at each check).
func checkVectorType(t *orc.Schema, v orc.Vector, path string) error {
	bt, bv, at := badVector(t, v)
	if bt == nil {
		return nil
	}
	for k := len(at) - 1; k >= 0; k-- { // at runs from the mismatch up
		path += "." + childName(t, at[k])
		t = t.Children[at[k]]
	}
	return fmt.Errorf("%w: Next: column %q of type %s has a %T, not a vector for that type (make batches with BatchReader.NewBatch)", orc.ErrInvalidBatch, path, bt, bv)
}

// badVector returns the first column under t (t included) whose vector
// under v is not of its type, with the vector and the child indexes that
// lead to it from t, innermost first; a nil type when there is none.
func badVector(t *orc.Schema, v orc.Vector) (*orc.Schema, orc.Vector, []int) {
	if !orc.VectorFits(t, v) {
		return t, v, nil
	}
	var kids []orc.Vector
	ok := true
	switch vec := v.(type) {
	case *orc.StructVector:
		ok, kids = len(vec.Fields) == len(t.Children), vec.Fields
	case *orc.ListVector:
		ok, kids = vec.Elem != nil, []orc.Vector{vec.Elem}
	case *orc.MapVector:
		ok, kids = vec.Keys != nil && vec.Values != nil, []orc.Vector{vec.Keys, vec.Values}
	case *orc.UnionVector:
		ok, kids = len(vec.Children) == len(t.Children), vec.Children
	}
	if !ok {
		return t, v, nil
	}
	for i, k := range kids {
		if bt, bv, at := badVector(t.Children[i], k); bt != nil {
			return bt, bv, append(at, i)
		}
	}
	return nil, nil, nil
}

// childName names child i of t in a dotted path.
func childName(t *orc.Schema, i int) string {
	switch t.Kind {
	case orc.Struct:
		if i < len(t.FieldNames) {
			return t.FieldNames[i]
		}
	case orc.List:
		return "_elem"
	case orc.Map:
		return []string{"_key", "_value"}[i]
	}
	return fmt.Sprint("_", i)
}

// compact moves the rows of a filtered batch's columns (n rows) whose
// bits are set (kept of them) to the front. Where every column is a flat
// vector and the rows kept are many, each column moves by the bits
// (orc.CompactBits, a few instructions a row whatever it holds);
// otherwise the kept rows are listed once and each column moves them
// (orc.Compact, a few a row kept, plus the list). Costs a row, from
// instruction counts (cachegrind, BenchmarkExactFilter): listing 4; by
// the list about 8 a kept 16-byte value and 5 an 8-byte one; by the bits
// about 6.3 and 5.5 a row. The bits win when 8·c·kept >= (6·c - 4)·n
// over c columns: with four, beyond two kept rows in three.
func (f *exactFilter) compact(cols []orc.Vector, set []uint64, n, kept int) {
	if byBits(cols, n, kept) {
		for _, c := range cols {
			orc.CompactBits(c, set, n)
		}
		return
	}
	f.idx = selectionBits(set, n, f.idx[:0])
	for _, c := range cols {
		orc.Compact(c, f.idx)
	}
}

// byBits reports whether compact moves cols' kept rows by their bits:
// every column flat, and kept of n rows enough.
func byBits(cols []orc.Vector, n, kept int) bool {
	if compactPath != 0 {
		return compactPath > 0 // a test's choice
	}
	for _, c := range cols {
		switch c.(type) {
		case *orc.LongVector, *orc.DoubleVector, *orc.DecimalVector, *orc.TimestampVector:
		default:
			return false
		}
	}
	c := len(cols)
	return 8*c*kept >= (6*c-4)*n
}

// compactPath makes compact move rows by the bits (1) or by the list
// (-1), whatever they hold, so that tests can compare the two; it is
// never set outside tests.
var compactPath = 0

// selectionBits appends to idx the rows i < n whose bit i%64 of
// set[i/64] is set, as selection does from bools: eight rows a step,
// their 8-bit mask a byte of the word, whose entry in selTable lists
// its rows two to a word, stored whole. A big-endian machine, whose
// int32s lie otherwise, takes a row a step.
func selectionBits(set []uint64, n int, idx []int32) []int32 {
	k := len(idx)
	idx = slices.Grow(idx, n+8)[:k+n+8]
	set = set[:(n+63)/64]
	i := 0
	if littleEndian { // the words stored are two int32s each, low first
		i = n &^ 7
		first := unsafe.Pointer(unsafe.SliceData(idx))
		p := selectEights(set, i, unsafe.Add(first, 4*k))
		k = int((uintptr(p) - uintptr(first)) / 4)
	}
	for ; i < n; i++ {
		idx[k] = int32(i)
		k += int(set[uint(i)/64] >> (uint(i) % 64) & 1)
	}
	return idx[:k]
}

// selectEights stores at p the rows below whole (a multiple of 8) whose
// bits are set, as selectionBits does on a little-endian machine, and
// returns where the next row goes; the 8 slots after that must be
// there. (A function of its own, so that its loop keeps its values in
// registers.)
func selectEights(set []uint64, whole int, p unsafe.Pointer) unsafe.Pointer {
	base := uint64(0) // the step's first row, in both halves of a word
	for i := 0; i < whole; i += 8 {
		m := set[uint(i)/64] >> (uint(i) % 64) & 0xff
		t := &selTable[m]
		d := (*[4]uint64)(p)
		d[0], d[1], d[2], d[3] = t[0]+base, t[1]+base, t[2]+base, t[3]+base
		p = unsafe.Add(p, 4*uintptr(selCount[m]))
		base += 8 * (1<<32 + 1)
	}
	return p
}

// countRunsBitsTo counts the runs of set bits among the first n of bits
// (as selectionBits reads them), as countRunsTo counts a mask's runs of
// true rows: a run starts at each set bit whose row before is clear,
// 64 rows a step. It stops once the runs are more than limit.
func countRunsBitsTo(set []uint64, n, limit int) int {
	runs := 0
	var carry uint64 // the previous word's last row
	for wi := 0; wi*64 < n; wi++ {
		w := set[wi]
		if r := n - wi*64; r < 64 {
			w &= 1<<r - 1
		}
		runs += bits.OnesCount64(w &^ (w<<1 | carry))
		carry = w >> 63
		if runs > limit {
			return runs
		}
	}
	return runs
}

// appendBits is appendMask of the first n rows of bits (as selectionBits
// reads them): the runs found a word at a time, by the zero bits that
// trail the word's rows not yet taken, for a run's start, and the ones,
// for its end.
func appendBits(s rowSelection, set []uint64, n int) rowSelection {
	s.n = int64(n)
	runs := s.runs[:0]
	start := -1 // the open run's first row, or -1
	for wi := 0; wi*64 < n; wi++ {
		w := set[wi]
		if r := n - wi*64; r < 64 {
			w &= 1<<r - 1
		}
		pos := 0 // bits of w below pos are taken
		for pos < 64 {
			rest := w >> pos
			if start < 0 {
				if rest == 0 {
					break
				}
				pos += bits.TrailingZeros64(rest)
				start = wi*64 + pos
				continue
			}
			ones := bits.TrailingZeros64(^rest) // 64 - pos at most: ^rest has its high bits set
			if pos+ones >= 64 {
				break // the run goes on into the next word
			}
			pos += ones
			runs = append(runs, rowRun{start: int64(start), end: int64(wi*64 + pos)})
			start = -1
		}
	}
	if start >= 0 {
		runs = append(runs, rowRun{start: int64(start), end: int64(n)})
	}
	s.runs = runs
	return s
}
