package iceberg

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	ice "github.com/apache/iceberg-go"
	"github.com/google/uuid"
	"github.com/orcgo/orc"
)

// partitioner computes the partition values of rows of a batch of a
// table's ORC schema under a partition spec, with iceberg-go's transforms,
// so that the values are those its scan planning projects predicates onto.
type partitioner struct {
	fields []partField
}

type partField struct {
	fieldID   int      // partition field id
	path      []int    // child indexes from the root to the source column
	typ       ice.Type // the source column's type
	transform ice.Transform
}

func newPartitioner(s *ice.Schema, spec ice.PartitionSpec) (*partitioner, error) {
	p := &partitioner{}
	for _, f := range spec.Fields() {
		if len(f.SourceIDs) != 1 {
			return nil, fmt.Errorf("iceberg: partition field %s has %d sources; one is supported", f.Name, len(f.SourceIDs))
		}
		src, ok := s.FindFieldByID(f.SourceIDs[0])
		if !ok {
			return nil, fmt.Errorf("iceberg: partition field %s: source column %d is not in the schema", f.Name, f.SourceIDs[0])
		}
		path, ok := fieldPath(s.AsStruct().FieldList, f.SourceIDs[0])
		if !ok {
			return nil, fmt.Errorf("iceberg: partition field %s: source %s is inside a list or map", f.Name, src.Name)
		}
		if !f.Transform.CanTransform(src.Type) {
			return nil, fmt.Errorf("iceberg: partition field %s: %s cannot transform %s", f.Name, f.Transform, src.Type)
		}
		p.fields = append(p.fields, partField{fieldID: f.FieldID, path: path, typ: src.Type, transform: f.Transform})
	}
	return p, nil
}

// fieldPath finds id among fields and the structs below them.
func fieldPath(fields []ice.NestedField, id int) ([]int, bool) {
	for i, f := range fields {
		if f.ID == id {
			return []int{i}, true
		}
		if st, ok := f.Type.(*ice.StructType); ok {
			if p, ok := fieldPath(st.FieldList, id); ok {
				return append([]int{i}, p...), true
			}
		}
	}
	return nil, false
}

// values returns row i's partition values by partition field id (nil for
// a null) and a key that is equal for equal values.
func (p *partitioner) values(b *orc.Batch, row int) (map[int]any, string, error) {
	vals := make(map[int]any, len(p.fields))
	var key strings.Builder
	for _, f := range p.fields {
		lit, err := literalAt(b, f.path, row, f.typ)
		if err != nil {
			return nil, "", err
		}
		var v any
		if lit != nil {
			if out := f.transform.Apply(ice.Optional[ice.Literal]{Val: lit, Valid: true}); out.Valid {
				v = out.Val.Any()
			}
		}
		vals[f.fieldID] = v
		fmt.Fprintf(&key, "%T:%v|", v, v)
	}
	return vals, key.String(), nil
}

// literalAt returns the value at row of the column at path as a literal of
// type t; nil for a null (the column's, or a parent struct's).
func literalAt(b *orc.Batch, path []int, row int, t ice.Type) (ice.Literal, error) {
	if path[0] >= len(b.Cols) {
		return nil, fmt.Errorf("iceberg: batch has %d columns, the partition source is column %d", len(b.Cols), path[0])
	}
	v := b.Cols[path[0]]
	for _, i := range path[1:] {
		st, ok := v.(*orc.StructVector)
		if !ok || i >= len(st.Fields) {
			return nil, fmt.Errorf("iceberg: partition source column is not where the schema puts it")
		}
		if row >= st.Len() || st.IsNull(row) {
			return nil, nil
		}
		v = st.Fields[i]
	}
	if row >= v.Len() {
		return nil, fmt.Errorf("iceberg: row %d is beyond the partition source's %d values", row, v.Len())
	}
	if v.IsNull(row) {
		return nil, nil
	}
	return literalOf(v, row, t)
}

func literalOf(v orc.Vector, row int, t ice.Type) (ice.Literal, error) {
	switch v := v.(type) {
	case *orc.LongVector:
		x := v.Values[row]
		switch t.(type) {
		case ice.BooleanType:
			return ice.NewLiteral(x != 0), nil
		case ice.Int32Type:
			return ice.NewLiteral(int32(x)), nil
		case ice.Int64Type:
			return ice.NewLiteral(x), nil
		case ice.DateType:
			return ice.NewLiteral(ice.Date(x)), nil
		case ice.TimeType:
			return ice.NewLiteral(ice.Time(x)), nil
		}
	case *orc.DoubleVector:
		switch t.(type) {
		case ice.Float32Type:
			return ice.NewLiteral(float32(v.Values[row])), nil
		case ice.Float64Type:
			return ice.NewLiteral(v.Values[row]), nil
		}
	case *orc.BytesVector:
		return bytesLiteral(v.Get(row), t)
	case *orc.DecimalVector:
		if d, ok := t.(ice.DecimalType); ok && v.Scale == d.Scale() {
			return ice.NewLiteral(ice.Decimal{Val: decimal128.FromBigInt(v.Values[row].Big()), Scale: d.Scale()}), nil
		}
	case *orc.TimestampVector:
		sec, ns := v.Seconds[row], int64(v.Nanos[row])
		switch t.(type) {
		case ice.TimestampType, ice.TimestampTzType:
			return ice.NewLiteral(ice.Timestamp(sec*1_000_000 + ns/1000)), nil
		case ice.TimestampNsType, ice.TimestampTzNsType:
			return ice.NewLiteral(ice.TimestampNano(sec*1_000_000_000 + ns)), nil
		}
	}
	return nil, fmt.Errorf("%w: partitioning by a %s column", ErrUnsupportedType, t)
}

func bytesLiteral(b []byte, t ice.Type) (ice.Literal, error) {
	switch t.(type) {
	case ice.StringType:
		return ice.NewLiteral(string(b)), nil
	case ice.BinaryType:
		return ice.NewLiteral(append([]byte{}, b...)), nil
	case ice.UUIDType:
		u, err := uuid.FromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("iceberg: a uuid value of %d bytes", len(b))
		}
		return ice.NewLiteral(u), nil
	}
	return nil, fmt.Errorf("%w: partitioning by a %s column", ErrUnsupportedType, t)
}
