package iceberg

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	ice "github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/orcgo/orc"
)

// Parquet delete files: iceberg-go writes its equality and position
// deletes in Parquet whatever the data files' format. Their columns are
// found by the field id Iceberg writers store in Parquet's schema (arrow-go
// shows it as the PARQUET:field_id metadata), or for a column without one
// by the table's name for it, and converted to the vectors orcgo would read for the same
// Iceberg type, so that the delete rows compare with the data rows. Only
// top-level primitive columns are read.

// eachParquetBatch calls fn with the rows of the Parquet file at path as
// batches of ToORC(want)'s shape; a column want names that the file lacks
// reads as nulls, unless it is required. A panic in arrow-go's reader (on
// a malformed file) is returned as an error.
func eachParquetBatch(fsys icebergio.IO, path string, want *ice.Schema, fn func(*orc.Batch) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading Parquet: %v", r)
		}
	}()
	f, err := fsys.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	sch, err := ToORC(want)
	if err != nil {
		return err
	}
	fields := want.Fields()
	at := make([]int, len(fields)) // each field's column in the records, or -1
	var leaves []int
	for i, f := range fields {
		leaf, err := parquetLeaf(fr.Manifest.Fields, f)
		if err != nil {
			return err
		}
		at[i] = -1
		if leaf >= 0 {
			at[i] = len(leaves)
			leaves = append(leaves, leaf)
		}
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	b := orc.NewBatch(sch, 1024)
	for rr.Next() {
		rec := rr.RecordBatch()
		b.Reset()
		n := int(rec.NumRows())
		for i := range fields {
			if at[i] < 0 {
				for range n {
					if err := appendNullOf(b.Cols[i]); err != nil {
						return err
					}
				}
				continue
			}
			if err := appendArrow(b.Cols[i], rec.Column(at[i]), fields[i]); err != nil {
				return err
			}
		}
		b.NumRows = n
		if err := fn(b); err != nil {
			return err
		}
	}
	return rr.Err()
}

// parquetLeaf returns the leaf column index of top-level field f among
// fields, or -1 when the file lacks an optional f.
func parquetLeaf(fields []pqarrow.SchemaField, f ice.NestedField) (int, error) {
	var found *pqarrow.SchemaField
	for i := range fields {
		sf := &fields[i]
		id, hasID := sf.Field.Metadata.GetValue("PARQUET:field_id")
		if hasID && id == strconv.Itoa(f.ID) || !hasID && sf.Field.Name == f.Name {
			found = sf
			break
		}
	}
	switch {
	case found == nil && f.Required:
		return 0, fmt.Errorf("no column for required field %s (id %d)", f.Name, f.ID)
	case found == nil:
		return -1, nil
	case !found.IsLeaf():
		return 0, fmt.Errorf("column %s is not a primitive: only top-level primitive columns of Parquet delete files are read", found.Field.Name)
	}
	return found.ColIndex, nil
}

// appendArrow appends the values of arr, the column of field f, to v, a
// vector of ToORC's type for f, as orcgo would read them.
func appendArrow(v orc.Vector, arr arrow.Array, f ice.NestedField) error {
	if ext, ok := arr.(array.ExtensionArray); ok {
		arr = ext.Storage()
	}
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			if err := appendNullOf(v); err != nil {
				return err
			}
			continue
		}
		if err := appendArrowValue(v, arr, i, f); err != nil {
			return err
		}
	}
	return nil
}

func appendArrowValue(v orc.Vector, arr arrow.Array, i int, f ice.NestedField) error {
	bad := func() error {
		return fmt.Errorf("column %s: a %s column cannot hold the field's %s values", f.Name, arr.DataType(), f.Type)
	}
	switch v := v.(type) {
	case *orc.LongVector:
		switch a := arr.(type) {
		case *array.Boolean:
			x := int64(0)
			if a.Value(i) {
				x = 1
			}
			v.Append(x)
		case *array.Int32:
			v.Append(int64(a.Value(i)))
		case *array.Int64:
			v.Append(a.Value(i))
		case *array.Date32:
			v.Append(int64(a.Value(i)))
		case *array.Time64:
			v.Append(int64(a.Value(i)))
		default:
			return bad()
		}
	case *orc.DoubleVector:
		switch a := arr.(type) {
		case *array.Float32:
			v.Append(float64(a.Value(i)))
		case *array.Float64:
			v.Append(a.Value(i))
		default:
			return bad()
		}
	case *orc.BytesVector:
		switch a := arr.(type) {
		case *array.String:
			v.AppendString(a.Value(i))
		case *array.LargeString:
			v.AppendString(a.Value(i))
		case *array.Binary:
			v.Append(a.Value(i))
		case *array.LargeBinary:
			v.Append(a.Value(i))
		case *array.FixedSizeBinary:
			v.Append(a.Value(i))
		default:
			return bad()
		}
	case *orc.DecimalVector:
		a, ok := arr.(*array.Decimal128)
		if !ok || a.DataType().(*arrow.Decimal128Type).Scale != int32(v.Scale) {
			return bad()
		}
		x := a.Value(i)
		v.Append(orc.Int128{Hi: x.HighBits(), Lo: x.LowBits()})
	case *orc.TimestampVector:
		a, ok := arr.(*array.Timestamp)
		if !ok {
			return bad()
		}
		per := map[arrow.TimeUnit]int64{arrow.Second: 1, arrow.Millisecond: 1e3, arrow.Microsecond: 1e6, arrow.Nanosecond: 1e9}[a.DataType().(*arrow.TimestampType).Unit]
		x := int64(a.Value(i))
		sec, frac := x/per, x%per
		if frac < 0 {
			sec, frac = sec-1, frac+per
		}
		v.Append(sec, int32(frac*(1e9/per)))
	default:
		return bad()
	}
	return nil
}
