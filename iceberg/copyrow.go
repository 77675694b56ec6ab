package iceberg

import (
	"fmt"

	"github.com/orcgo/orc"
)

// appendRow appends row i of src to dst, a vector of the same type: how
// the table writer splits a batch among partitions.
func appendRow(dst, src orc.Vector, i int) error {
	if src.IsNull(i) {
		return appendNullOf(dst)
	}
	switch s := src.(type) {
	case *orc.LongVector:
		dst.(*orc.LongVector).Append(s.Values[i])
	case *orc.DoubleVector:
		dst.(*orc.DoubleVector).Append(s.Values[i])
	case *orc.BytesVector:
		dst.(*orc.BytesVector).Append(s.Get(i))
	case *orc.DecimalVector:
		dst.(*orc.DecimalVector).Append(s.Values[i])
	case *orc.TimestampVector:
		dst.(*orc.TimestampVector).Append(s.Seconds[i], s.Nanos[i])
	case *orc.StructVector:
		d := dst.(*orc.StructVector)
		for j, f := range s.Fields {
			if err := appendRow(d.Fields[j], f, i); err != nil {
				return err
			}
		}
		d.AppendRow()
	case *orc.ListVector:
		d := dst.(*orc.ListVector)
		for k := s.Offsets[i]; k < s.Offsets[i+1]; k++ {
			if err := appendRow(d.Elem, s.Elem, int(k)); err != nil {
				return err
			}
		}
		d.AppendRow()
	case *orc.MapVector:
		d := dst.(*orc.MapVector)
		for k := s.Offsets[i]; k < s.Offsets[i+1]; k++ {
			if err := appendRow(d.Keys, s.Keys, int(k)); err != nil {
				return err
			}
			if err := appendRow(d.Values, s.Values, int(k)); err != nil {
				return err
			}
		}
		d.AppendRow()
	default:
		return fmt.Errorf("%w: a %T column", ErrUnsupportedType, src)
	}
	return nil
}

func appendNullOf(v orc.Vector) error {
	switch d := v.(type) {
	case *orc.LongVector:
		d.AppendNull()
	case *orc.DoubleVector:
		d.AppendNull()
	case *orc.BytesVector:
		d.AppendNull()
	case *orc.DecimalVector:
		d.AppendNull()
	case *orc.TimestampVector:
		d.AppendNull()
	case *orc.StructVector:
		d.AppendNull()
	case *orc.ListVector:
		d.AppendNull()
	case *orc.MapVector:
		d.AppendNull()
	default:
		return fmt.Errorf("%w: a %T column", ErrUnsupportedType, v)
	}
	return nil
}

// checkRows reports whether every row of b can be copied: lengths and
// offsets within their vectors, so that appendRow cannot index out of range.
func checkRows(b *orc.Batch) error {
	if len(b.Selected) > 0 {
		return fmt.Errorf("iceberg: the batch has a selection (Batch.Selected, as reader.WithSelection hands rows over); Batch.Compact moves its rows together first")
	}
	for i, v := range b.Cols {
		if err := checkVector(v, b.NumRows); err != nil {
			return fmt.Errorf("iceberg: batch column %d: %w", i, err)
		}
	}
	return nil
}

func checkVector(v orc.Vector, n int) error {
	if v.Len() < n {
		return fmt.Errorf("%d rows, the batch has %d", v.Len(), n)
	}
	switch v := v.(type) {
	case *orc.StructVector:
		for _, f := range v.Fields {
			if err := checkVector(f, n); err != nil {
				return err
			}
		}
	case *orc.ListVector:
		return checkOffsets(v.Offsets, n, v.Elem)
	case *orc.MapVector:
		if err := checkOffsets(v.Offsets, n, v.Keys); err != nil {
			return err
		}
		return checkOffsets(v.Offsets, n, v.Values)
	case *orc.BytesVector:
		if n == 0 {
			return nil
		}
		if len(v.Offsets) <= n || v.Offsets[0] < 0 || v.Offsets[n] > len(v.Data) {
			return fmt.Errorf("bytes offsets beyond the data")
		}
		for i := 0; i < n; i++ {
			if v.Offsets[i+1] < v.Offsets[i] {
				return fmt.Errorf("bytes offsets decrease at row %d", i)
			}
		}
	}
	return nil
}

func checkOffsets(off []int64, n int, child orc.Vector) error {
	if n == 0 {
		return nil
	}
	if len(off) <= n || off[0] < 0 {
		return fmt.Errorf("%d offsets for %d rows", len(off), n)
	}
	for i := 0; i < n; i++ {
		if off[i+1] < off[i] {
			return fmt.Errorf("offsets decrease at row %d", i)
		}
	}
	return checkVector(child, int(off[n]))
}
