package reader

import "github.com/orcgo/orc"

// compact keeps the rows of v whose sel entry is true, in order, in place.
// sel has one entry per row of v.
func compact(v orc.Vector, sel []bool) {
	switch vec := v.(type) {
	case *orc.LongVector:
		vec.Values = keep(vec.Values, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.DoubleVector:
		vec.Values = keep(vec.Values, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.DecimalVector:
		vec.Values = keep(vec.Values, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.TimestampVector:
		vec.Seconds = keep(vec.Seconds, sel)
		vec.Nanos = keep(vec.Nanos, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.BytesVector:
		out, j := 0, 0
		for i, ok := range sel {
			if !ok {
				continue
			}
			s, e := vec.Offsets[i], vec.Offsets[i+1]
			copy(vec.Data[out:], vec.Data[s:e])
			vec.Offsets[j] = out
			out += e - s
			j++
		}
		vec.Offsets[j] = out
		vec.Offsets = vec.Offsets[:j+1]
		vec.Data = vec.Data[:out]
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.StructVector:
		for _, f := range vec.Fields {
			compact(f, sel)
		}
		vec.N = countTrue(sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.ListVector:
		elemSel := childSelection(vec.Offsets, sel)
		compact(vec.Elem, elemSel)
		vec.Offsets = keepOffsets(vec.Offsets, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.MapVector:
		elemSel := childSelection(vec.Offsets, sel)
		compact(vec.Keys, elemSel)
		compact(vec.Values, elemSel)
		vec.Offsets = keepOffsets(vec.Offsets, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	case *orc.UnionVector:
		for _, c := range vec.Children {
			compact(c, sel)
		}
		vec.Tags = keep(vec.Tags, sel)
		vec.Nulls.Nulls = keepNulls(vec.Nulls.Nulls, sel)
	}
}

func keep[T any](vals []T, sel []bool) []T {
	j := 0
	for i, ok := range sel {
		if ok {
			vals[j] = vals[i]
			j++
		}
	}
	return vals[:j]
}

func keepNulls(nulls []bool, sel []bool) []bool {
	if len(nulls) == 0 {
		return nulls
	}
	return keep(nulls, sel)
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
