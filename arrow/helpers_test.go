package orcarrow_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// writeORC writes batches with the library's writer.
func writeORC(tb testing.TB, s *orc.Schema, batches []*orc.Batch, opts ...writer.Option) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func openORC(tb testing.TB, data []byte) *reader.Reader {
	tb.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// orcRows reads every row of a file with the batch API as plain values.
func orcRows(tb testing.TB, r *reader.Reader, opts ...reader.ScanOption) []any {
	tb.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var rows []any
	for {
		err := br.Next(b)
		if err == io.EOF {
			return rows
		}
		if err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, testutil.Rows(br.Schema(), b, false)...)
	}
}

// validate runs ValidateFull on every column of rec.
func validate(tb testing.TB, rec arrow.RecordBatch) {
	tb.Helper()
	for i, col := range rec.Columns() {
		if err := array.ValidateFull(col); err != nil {
			tb.Fatalf("column %d (%s): ValidateFull: %v", i, rec.Schema().Field(i).Name, err)
		}
		if col.Len() != int(rec.NumRows()) {
			tb.Fatalf("column %d has %d rows, record %d", i, col.Len(), rec.NumRows())
		}
	}
}

// recordRows returns the rows of rec as the plain values of package
// testutil, reading the Arrow arrays directly (ORC schema s says which
// plain form each field takes).
func recordRows(s *orc.Schema, rec arrow.RecordBatch) []any {
	rows := make([]any, rec.NumRows())
	for i := range rows {
		row := make([]any, len(s.Children))
		for f, c := range s.Children {
			row[f] = arrowValue(c, rec.Column(f), i)
		}
		rows[i] = row
	}
	return rows
}

func arrowValue(t *orc.Schema, a arrow.Array, i int) any {
	switch u := a.(type) {
	case *array.DenseUnion:
		id := u.UnionType().ChildIDs()[u.TypeCode(i)]
		v := arrowValue(t.Children[id], u.Field(id), int(u.ValueOffset(i)))
		if v == nil {
			return nil
		}
		return testutil.U{Tag: uint8(id), V: v}
	case *array.SparseUnion:
		id := u.UnionType().ChildIDs()[u.TypeCode(i)]
		v := arrowValue(t.Children[id], u.Field(id), i)
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
			out[f] = arrowValue(t.Children[f], a.Field(f), i)
		}
		return out
	case *array.Map:
		lo, hi := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		out := []testutil.KV{}
		for j := lo; j < hi; j++ {
			out = append(out, testutil.KV{K: arrowValue(t.Children[0], entries.Field(0), int(j)), V: arrowValue(t.Children[1], entries.Field(1), int(j))})
		}
		return out
	case *array.LargeList:
		lo, hi := a.ValueOffsets(i)
		out := []any{}
		for j := lo; j < hi; j++ {
			out = append(out, arrowValue(t.Children[0], a.ListValues(), int(j)))
		}
		return out
	case *array.List:
		lo, hi := a.ValueOffsets(i)
		out := []any{}
		for j := lo; j < hi; j++ {
			out = append(out, arrowValue(t.Children[0], a.ListValues(), int(j)))
		}
		return out
	}
	panic("arrowValue: no case for " + a.DataType().String())
}

// fitForArrow adjusts a generated batch to what Arrow can hold, in place:
// timestamps within timestamp[ns] (years 1677..2262), map keys not null, and
// no union row selecting a null value (Arrow unions have no nulls of their
// own, so that row reads as a null union).
func fitForArrow(t *orc.Schema, v orc.Vector) {
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
			fitForArrow(c, sv.Fields[f])
		}
	case orc.List:
		fitForArrow(t.Children[0], v.(*orc.ListVector).Elem)
	case orc.Map:
		mv := v.(*orc.MapVector)
		fitForArrow(t.Children[0], mv.Keys)
		fitForArrow(t.Children[1], mv.Values)
		clearNulls(mv.Keys)
	case orc.Union:
		uv := v.(*orc.UnionVector)
		for k, c := range t.Children {
			fitForArrow(c, uv.Children[k])
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

func clearNulls(v orc.Vector) {
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
