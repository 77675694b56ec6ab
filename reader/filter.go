package reader

import "github.com/orcgo/orc"

// compact keeps the rows of v whose sel entry is true, in order, in place.
// sel has one entry per row of v; idx lists the selected rows
// (selection(sel)).
func compact(v orc.Vector, sel []bool, idx []int32) {
	switch vec := v.(type) {
	case *orc.LongVector:
		vec.Values = pick(vec.Values, idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.DoubleVector:
		vec.Values = pick(vec.Values, idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.DecimalVector:
		vec.Values = pick(vec.Values, idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.TimestampVector:
		vec.Seconds = pick(vec.Seconds, idx)
		vec.Nanos = pick(vec.Nanos, idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.BytesVector:
		out := 0
		for j, i := range idx {
			s, e := vec.Offsets[i], vec.Offsets[i+1]
			copy(vec.Data[out:], vec.Data[s:e])
			vec.Offsets[j] = out
			out += e - s
		}
		vec.Offsets[len(idx)] = out
		vec.Offsets = vec.Offsets[:len(idx)+1]
		vec.Data = vec.Data[:out]
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.StructVector:
		for _, f := range vec.Fields {
			compact(f, sel, idx)
		}
		vec.N = len(idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.ListVector:
		elemSel := childSelection(vec.Offsets, sel)
		compact(vec.Elem, elemSel, selection(elemSel, nil))
		vec.Offsets = keepOffsets(vec.Offsets, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.MapVector:
		elemSel := childSelection(vec.Offsets, sel)
		elemIdx := selection(elemSel, nil)
		compact(vec.Keys, elemSel, elemIdx)
		compact(vec.Values, elemSel, elemIdx)
		vec.Offsets = keepOffsets(vec.Offsets, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	case *orc.UnionVector:
		for _, c := range vec.Children {
			compact(c, sel, idx)
		}
		vec.Tags = pick(vec.Tags, idx)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, idx)
	}
}

// selection appends to idx the indexes of the rows sel selects.
func selection(sel []bool, idx []int32) []int32 {
	for i, ok := range sel {
		if ok {
			idx = append(idx, int32(i))
		}
	}
	return idx
}

// pick moves the values at idx (ascending) to the front of vals.
func pick[T any](vals []T, idx []int32) []T {
	for j, i := range idx {
		vals[j] = vals[i]
	}
	return vals[:len(idx)]
}

func keepNulls(nulls []bool, idx []int32) []bool {
	if len(nulls) == 0 {
		return nulls
	}
	return pick(nulls, idx)
}

// childSelection marks the children owned by the selected rows.
func childSelection(offsets []int64, sel []bool) []bool {
	n := len(sel)
	total := offsets[n]
	out := make([]bool, total)
	for i, ok := range sel {
		if ok {
			for j := offsets[i]; j < offsets[i+1]; j++ {
				out[j] = true
			}
		}
	}
	return out
}

// keepOffsets rebuilds offsets for the selected rows.
func keepOffsets(offsets []int64, sel []bool) []int64 {
	var cur int64
	j := 0
	for i, ok := range sel {
		if !ok {
			continue
		}
		l := offsets[i+1] - offsets[i]
		offsets[j] = cur
		cur += l
		j++
	}
	offsets[j] = cur
	return offsets[:j+1]
}

// appendRows appends the rows of src to dst, a vector of the same type.
func appendRows(dst, src orc.Vector) {
	n, have := src.Len(), dst.Len()
	switch d := dst.(type) {
	case *orc.LongVector:
		s := src.(*orc.LongVector)
		d.Values = append(d.Values, s.Values[:n]...)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.DoubleVector:
		s := src.(*orc.DoubleVector)
		d.Values = append(d.Values, s.Values[:n]...)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.DecimalVector:
		s := src.(*orc.DecimalVector)
		d.Values = append(d.Values, s.Values[:n]...)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.TimestampVector:
		s := src.(*orc.TimestampVector)
		d.Seconds = append(d.Seconds, s.Seconds[:n]...)
		d.Nanos = append(d.Nanos, s.Nanos[:n]...)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
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
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.StructVector:
		s := src.(*orc.StructVector)
		for i, f := range d.Fields {
			appendRows(f, s.Fields[i])
		}
		d.N += n
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.ListVector:
		s := src.(*orc.ListVector)
		d.Offsets = appendOffsets(d.Offsets, s.Offsets, n)
		appendRows(d.Elem, s.Elem)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.MapVector:
		s := src.(*orc.MapVector)
		d.Offsets = appendOffsets(d.Offsets, s.Offsets, n)
		appendRows(d.Keys, s.Keys)
		appendRows(d.Values, s.Values)
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
	case *orc.UnionVector:
		s := src.(*orc.UnionVector)
		d.Tags = append(d.Tags, s.Tags[:n]...)
		for i, c := range d.Children {
			appendRows(c, s.Children[i])
		}
		d.Nulls.Nulls = appendNulls(d.Nulls.Nulls, have, s.Nulls.Nulls, n)
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
