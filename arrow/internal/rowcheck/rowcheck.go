// Package rowcheck turns Arrow records into the plain values of the
// library's testutil package (reading the Arrow arrays directly, not through
// orcarrow), fits generated ORC batches to what Arrow can hold, and sums rows
// into order-sensitive checksums: test support for the orcarrow module.
package rowcheck

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
)

// Sum is an order-sensitive checksum of rows.
type Sum struct {
	h    hash.Hash64
	buf  []byte
	Rows int64
}

// Add adds rows (plain values) to the sum.
func (s *Sum) Add(rows []any) {
	if s.h == nil {
		s.h = fnv.New64a()
	}
	for _, r := range rows {
		s.buf = appendValue(s.buf[:0], r)
		s.h.Write(s.buf)
		s.Rows++
	}
}

// appendValue encodes a plain value without ambiguity: a type byte, then
// fixed-width or length-prefixed content. NaNs encode as one canonical NaN
// (testutil.Diff treats every NaN as equal too).
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 'n')
	case bool:
		if v {
			return append(b, 't')
		}
		return append(b, 'f')
	case int64:
		return binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(v))
	case float64:
		bits := math.Float64bits(v)
		if v != v {
			bits = 0x7ff8000000000001
		}
		return binary.LittleEndian.AppendUint64(append(b, 'd'), bits)
	case string:
		b = binary.AppendUvarint(append(b, 's'), uint64(len(v)))
		return append(b, v...)
	case testutil.Dec:
		b = binary.LittleEndian.AppendUint64(append(b, 'D'), uint64(v.Unscaled.Hi))
		b = binary.LittleEndian.AppendUint64(b, v.Unscaled.Lo)
		return binary.AppendUvarint(b, uint64(v.Scale))
	case testutil.TS:
		b = binary.LittleEndian.AppendUint64(append(b, 'T'), uint64(v.Sec))
		return binary.LittleEndian.AppendUint32(b, uint32(v.Nanos))
	case []any:
		b = binary.AppendUvarint(append(b, '['), uint64(len(v)))
		for _, e := range v {
			b = appendValue(b, e)
		}
		return b
	case []testutil.KV:
		b = binary.AppendUvarint(append(b, '{'), uint64(len(v)))
		for _, e := range v {
			b = appendValue(appendValue(b, e.K), e.V)
		}
		return b
	case testutil.U:
		return appendValue(append(b, 'u', v.Tag), v.V)
	}
	return fmt.Appendf(append(b, '?'), "%T%v", v, v)
}

// Value64 returns the checksum.
func (s *Sum) Value64() uint64 {
	if s.h == nil {
		return 0
	}
	return s.h.Sum64()
}

// String shows the rows and checksum.
func (s *Sum) String() string { return fmt.Sprintf("%d rows, checksum %016x", s.Rows, s.Value64()) }

// RecordRows returns the rows of rec as the plain values of package
// testutil, reading the Arrow arrays directly (ORC schema s says which
// plain form each field takes).
func RecordRows(s *orc.Schema, rec arrow.RecordBatch) []any {
	rows := make([]any, rec.NumRows())
	if s.Kind != orc.Struct { // one column holds the root
		for i := range rows {
			rows[i] = Value(s, rec.Column(0), i)
		}
		return rows
	}
	for i := range rows {
		row := make([]any, len(s.Children))
		for f, c := range s.Children {
			row[f] = Value(c, rec.Column(f), i)
		}
		rows[i] = row
	}
	return rows
}

// Value returns row i of a, an Arrow array read from or written to ORC
// type t, as a plain value.
func Value(t *orc.Schema, a arrow.Array, i int) any {
	switch u := a.(type) {
	case *array.DenseUnion:
		id := u.UnionType().ChildIDs()[u.TypeCode(i)]
		v := Value(t.Children[id], u.Field(id), int(u.ValueOffset(i)))
		if v == nil {
			return nil
		}
		return testutil.U{Tag: uint8(id), V: v}
	case *array.SparseUnion:
		id := u.UnionType().ChildIDs()[u.TypeCode(i)]
		v := Value(t.Children[id], u.Field(id), i)
		if v == nil {
			return nil
		}
		return testutil.U{Tag: uint8(id), V: v}
	}
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Date64:
		ms := int64(a.Value(i))
		d := ms / 86_400_000
		if ms%86_400_000 < 0 {
			d--
		}
		return d
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return string(a.Value(i))
	case *array.LargeString:
		return a.Value(i)
	case *array.LargeBinary:
		return string(a.Value(i))
	case *array.FixedSizeBinary:
		return string(a.Value(i))
	case *array.Decimal128:
		v := a.Value(i)
		return testutil.Dec{Unscaled: orc.Int128{Hi: v.HighBits(), Lo: v.LowBits()}, Scale: t.Scale}
	case *array.Timestamp:
		v := int64(a.Value(i))
		per := map[arrow.TimeUnit]int64{arrow.Second: 1, arrow.Millisecond: 1e3, arrow.Microsecond: 1e6, arrow.Nanosecond: 1e9}[a.DataType().(*arrow.TimestampType).Unit]
		sec, frac := v/per, v%per
		if frac < 0 {
			sec, frac = sec-1, frac+per
		}
		return testutil.TS{Sec: sec, Nanos: int32(frac * (1e9 / per))}
	case *array.Struct:
		out := make([]any, a.NumField())
		for f := range out {
			out[f] = Value(t.Children[f], a.Field(f), i)
		}
		return out
	case *array.Map:
		lo, hi := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		out := []testutil.KV{}
		for j := lo; j < hi; j++ {
			out = append(out, testutil.KV{K: Value(t.Children[0], entries.Field(0), int(j)), V: Value(t.Children[1], entries.Field(1), int(j))})
		}
		return out
	case *array.LargeList:
		lo, hi := a.ValueOffsets(i)
		out := []any{}
		for j := lo; j < hi; j++ {
			out = append(out, Value(t.Children[0], a.ListValues(), int(j)))
		}
		return out
	case *array.List:
		lo, hi := a.ValueOffsets(i)
		out := []any{}
		for j := lo; j < hi; j++ {
			out = append(out, Value(t.Children[0], a.ListValues(), int(j)))
		}
		return out
	}
	panic("arrowValue: no case for " + a.DataType().String())
}

// FitForArrow adjusts a generated batch to what Arrow can hold, in place:
// timestamps within timestamp[ns] (years 1677..2262), map keys not null, and
// no union row selecting a null value (Arrow unions have no nulls of their
// own, so that row reads as a null union).
func FitForArrow(t *orc.Schema, v orc.Vector) {
	switch t.Kind {
	case orc.Timestamp, orc.TimestampInstant:
		tv := v.(*orc.TimestampVector)
		for i, s := range tv.Seconds {
			s %= 5_000_000_000 // about 158 years either side of 1970
			if s == -1 {
				s = -2 // (-1 s, 0) is ORC's one unrepresentable range
			}
			tv.Seconds[i] = s
		}
	case orc.Struct:
		sv := v.(*orc.StructVector)
		for f, c := range t.Children {
			FitForArrow(c, sv.Fields[f])
		}
	case orc.List:
		FitForArrow(t.Children[0], v.(*orc.ListVector).Elem)
	case orc.Map:
		mv := v.(*orc.MapVector)
		FitForArrow(t.Children[0], mv.Keys)
		FitForArrow(t.Children[1], mv.Values)
		ClearNulls(mv.Keys)
	case orc.Union:
		uv := v.(*orc.UnionVector)
		for k, c := range t.Children {
			FitForArrow(c, uv.Children[k])
		}
		for i, tag := range uv.Tags {
			if !uv.IsNull(i) && uv.Children[tag].IsNull(i) {
				if len(uv.Nulls.Nulls) == 0 {
					uv.Nulls.Nulls = make([]bool, len(uv.Tags))
				}
				uv.Nulls.Nulls[i] = true
			}
		}
	}
}

// ClearNulls drops the null mask of v.
func ClearNulls(v orc.Vector) {
	switch v := v.(type) {
	case *orc.LongVector:
		v.Nulls.Nulls = nil
	case *orc.DoubleVector:
		v.Nulls.Nulls = nil
	case *orc.BytesVector:
		v.Nulls.Nulls = nil
	case *orc.DecimalVector:
		v.Nulls.Nulls = nil
	case *orc.TimestampVector:
		v.Nulls.Nulls = nil
	case *orc.StructVector:
		v.Nulls.Nulls = nil
	case *orc.ListVector:
		v.Nulls.Nulls = nil
	case *orc.MapVector:
		v.Nulls.Nulls = nil
	case *orc.UnionVector:
		v.Nulls.Nulls = nil
	}
}
