package orc

import "unsafe"

// Compact keeps rows (ascending, each below v's length) of v and of its
// children, moved to the front in order, in place: afterwards row j of v is
// what row rows[j] was. A list's or map's elements follow their rows.
func Compact(v Vector, rows []int32) {
	switch vec := v.(type) {
	case *LongVector:
		vec.Values = pick(vec.Values, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *DoubleVector:
		vec.Values = pick(vec.Values, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *DecimalVector:
		vec.Values = pickInt128s(vec.Values, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *TimestampVector:
		vec.Seconds = pick(vec.Seconds, rows)
		vec.Nanos = pick(vec.Nanos, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *BytesVector:
		out := 0
		for j, i := range rows {
			s, e := vec.Offsets[i], vec.Offsets[i+1]
			copy(vec.Data[out:], vec.Data[s:e])
			vec.Offsets[j] = out
			out += e - s
		}
		vec.Offsets[len(rows)] = out
		vec.Offsets = vec.Offsets[:len(rows)+1]
		vec.Data = vec.Data[:out]
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *StructVector:
		for _, f := range vec.Fields {
			Compact(f, rows)
		}
		vec.N = len(rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *ListVector:
		Compact(vec.Elem, elementRows(vec.Offsets, rows))
		vec.Offsets = keepOffsets(vec.Offsets, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *MapVector:
		elems := elementRows(vec.Offsets, rows)
		Compact(vec.Keys, elems)
		Compact(vec.Values, elems)
		vec.Offsets = keepOffsets(vec.Offsets, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	case *UnionVector:
		for _, c := range vec.Children {
			Compact(c, rows)
		}
		vec.Tags = pick(vec.Tags, rows)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, rows)
	}
}

// Compact moves the batch's selected rows to the front of its vectors, in
// order, and clears the selection, so that row i of the batch is row i of
// every vector. A batch without a selection is left as it is.
func (b *Batch) Compact() {
	if len(b.Selected) == 0 {
		return
	}
	for _, c := range b.Cols {
		Compact(c, b.Selected)
	}
	b.NumRows = len(b.Selected)
	b.Selected = b.Selected[:0]
}

// pick moves the values at rows (ascending) to the front of vals, eight
// rows a step: the step's rows and destinations are fixed-size arrays
// (at8), so that only the reads from vals, at the rows given, are checked
// (a row out of range panics, as indexing does), and a row costs a few
// instructions against 10 (int64) to 15 (Int128) one by one.
func pick[T any](vals []T, rows []int32) []T {
	dst := vals[:len(rows)] // rows ascending and in range: no more than vals
	j := 0
	if len(rows) >= 8 {
		// One by one: row j goes to j <= rows[j] < rows[j+1], so no
		// store lands on a row still to be read (and a statement's value
		// need not wait in memory for the others, as in one assignment).
		// The pointers advance a step at a time (indexing at j made an
		// address for every row), and only when another step follows
		// (never past the slices' ends).
		rp, dp := unsafe.Pointer(&rows[0]), unsafe.Pointer(&dst[0])
		for {
			r, d := (*[8]int32)(rp), (*[8]T)(dp)
			d[0] = vals[r[0]]
			d[1] = vals[r[1]]
			d[2] = vals[r[2]]
			d[3] = vals[r[3]]
			d[4] = vals[r[4]]
			d[5] = vals[r[5]]
			d[6] = vals[r[6]]
			d[7] = vals[r[7]]
			if j += 8; j+8 > len(rows) {
				break
			}
			rp, dp = unsafe.Add(rp, 8*4), unsafe.Add(dp, 8*unsafe.Sizeof(*new(T)))
		}
	}
	for ; j < len(rows); j++ {
		dst[j] = vals[rows[j]]
	}
	return dst
}

// pickInt128s is pick of 128-bit values, each moved whole as an array of
// two words (one 16-byte load and store, where the struct's two fields
// move one by one). Only bytes move: the order of the words in memory
// does not matter.
func pickInt128s(vals []Int128, rows []int32) []Int128 {
	if len(vals) == 0 {
		return pick(vals, rows) // no rows to move, or a row out of range
	}
	w := unsafe.Slice((*[2]uint64)(unsafe.Pointer(unsafe.SliceData(vals))), len(vals))
	return vals[:len(pick(w, rows))]
}

func keepNulls(nulls []bool, rows []int32) []bool {
	if len(nulls) == 0 {
		return nulls
	}
	return pick(nulls, rows)
}

// elementRows returns the elements of the given rows of a list or map
// with these offsets, in order.
func elementRows(offsets []int64, rows []int32) []int32 {
	n := 0
	for _, i := range rows {
		n += int(offsets[i+1] - offsets[i])
	}
	out := make([]int32, 0, n)
	for _, i := range rows {
		for j := offsets[i]; j < offsets[i+1]; j++ {
			out = append(out, int32(j))
		}
	}
	return out
}

// keepOffsets rebuilds offsets for the given rows, in place.
func keepOffsets(offsets []int64, rows []int32) []int64 {
	var cur int64
	for j, i := range rows {
		l := offsets[i+1] - offsets[i]
		offsets[j] = cur
		cur += l
	}
	offsets[len(rows)] = cur
	return offsets[:len(rows)+1]
}
