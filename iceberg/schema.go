package iceberg

import (
	"errors"
	"fmt"
	"strconv"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
)

// The ORC type attributes of the Iceberg spec's "ORC" section (the names
// Apache Iceberg's ORCSchemaUtil uses).
const (
	// AttrID holds a type's Iceberg field id, in decimal.
	AttrID = "iceberg.id"
	// AttrRequired is "true" on a required field and "false" on an optional one.
	AttrRequired = "iceberg.required"
	// AttrLongType is "TIME" on an ORC bigint that holds an Iceberg time
	// (microseconds from midnight) and "LONG" on one that holds a long.
	AttrLongType = "iceberg.long-type"
	// AttrBinaryType is "UUID", "FIXED" or "BINARY" on an ORC binary that
	// holds an Iceberg uuid, fixed(L) or binary.
	AttrBinaryType = "iceberg.binary-type"
	// AttrLength is L of an Iceberg fixed(L).
	AttrLength = "iceberg.length"
	// AttrTimestampUnit is "MICROS" on an ORC timestamp that holds an
	// Iceberg timestamp or timestamptz, "NANOS" on one that holds a
	// timestamp_ns or timestamptz_ns (readers take no attribute as MICROS).
	AttrTimestampUnit = "iceberg.timestamp-unit"
)

// ErrUnsupportedType is returned (wrapped, naming the field) for a type one
// side cannot hold: an Iceberg variant, geometry or unknown column, or an ORC
// union, tinyint or smallint without a matching Iceberg type.
var ErrUnsupportedType = errors.New("iceberg: type has no ORC or Iceberg counterpart")

// ToORC returns the ORC schema of Iceberg schema s: a struct whose every
// node carries AttrID, every field AttrRequired, and every bigint, binary
// and timestamp the long, binary and timestamp attributes, as the spec's
// ORC section and Apache Iceberg's ORCSchemaUtil write them. The tree is
// numbered (Assign).
func ToORC(s *ice.Schema) (*orc.Schema, error) {
	if s == nil {
		return nil, errors.New("iceberg: nil schema")
	}
	root := &orc.Schema{Kind: orc.Struct}
	for _, f := range s.Fields() {
		c, err := fieldToORC(f.Name, f.ID, f.Required, f.Type)
		if err != nil {
			return nil, err
		}
		root.Children = append(root.Children, c)
		root.FieldNames = append(root.FieldNames, f.Name)
	}
	root.Assign()
	return root, nil
}

func fieldToORC(name string, id int, required bool, t ice.Type) (*orc.Schema, error) {
	n, err := typeToORC(name, t)
	if err != nil {
		return nil, err
	}
	if n.Attributes == nil {
		n.Attributes = map[string]string{}
	}
	n.Attributes[AttrID] = strconv.Itoa(id)
	n.Attributes[AttrRequired] = strconv.FormatBool(required)
	return n, nil
}

func typeToORC(name string, t ice.Type) (*orc.Schema, error) {
	switch t := t.(type) {
	case *ice.StructType:
		n := &orc.Schema{Kind: orc.Struct}
		for _, f := range t.FieldList {
			c, err := fieldToORC(name+"."+f.Name, f.ID, f.Required, f.Type)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
			n.FieldNames = append(n.FieldNames, f.Name)
		}
		return n, nil
	case *ice.ListType:
		e, err := fieldToORC(name+".element", t.ElementID, t.ElementRequired, t.Element)
		if err != nil {
			return nil, err
		}
		return &orc.Schema{Kind: orc.List, Children: []*orc.Schema{e}}, nil
	case *ice.MapType:
		k, err := fieldToORC(name+".key", t.KeyID, true, t.KeyType)
		if err != nil {
			return nil, err
		}
		v, err := fieldToORC(name+".value", t.ValueID, t.ValueRequired, t.ValueType)
		if err != nil {
			return nil, err
		}
		return &orc.Schema{Kind: orc.Map, Children: []*orc.Schema{k, v}}, nil
	case ice.DecimalType:
		return &orc.Schema{Kind: orc.Decimal, Precision: t.Precision(), Scale: t.Scale()}, nil
	case ice.FixedType:
		return &orc.Schema{Kind: orc.Binary, Attributes: map[string]string{
			AttrBinaryType: "FIXED", AttrLength: strconv.Itoa(t.Len())}}, nil
	}
	return primitiveToORC(name, t)
}

func primitiveToORC(name string, t ice.Type) (*orc.Schema, error) {
	attr := func(k orc.Kind, key, val string) *orc.Schema {
		return &orc.Schema{Kind: k, Attributes: map[string]string{key: val}}
	}
	switch t.(type) {
	case ice.BooleanType:
		return &orc.Schema{Kind: orc.Boolean}, nil
	case ice.Int32Type:
		return &orc.Schema{Kind: orc.Int}, nil
	case ice.Int64Type:
		return attr(orc.Long, AttrLongType, "LONG"), nil
	case ice.Float32Type:
		return &orc.Schema{Kind: orc.Float}, nil
	case ice.Float64Type:
		return &orc.Schema{Kind: orc.Double}, nil
	case ice.DateType:
		return &orc.Schema{Kind: orc.Date}, nil
	case ice.TimeType:
		return attr(orc.Long, AttrLongType, "TIME"), nil
	case ice.TimestampType:
		return attr(orc.Timestamp, AttrTimestampUnit, "MICROS"), nil
	case ice.TimestampTzType:
		return attr(orc.TimestampInstant, AttrTimestampUnit, "MICROS"), nil
	case ice.TimestampNsType:
		return attr(orc.Timestamp, AttrTimestampUnit, "NANOS"), nil
	case ice.TimestampTzNsType:
		return attr(orc.TimestampInstant, AttrTimestampUnit, "NANOS"), nil
	case ice.StringType:
		return &orc.Schema{Kind: orc.String}, nil
	case ice.BinaryType:
		return attr(orc.Binary, AttrBinaryType, "BINARY"), nil
	case ice.UUIDType:
		return attr(orc.Binary, AttrBinaryType, "UUID"), nil
	}
	return nil, fmt.Errorf("%w: %s is %s", ErrUnsupportedType, name, t)
}

// FromORC returns the Iceberg schema of an ORC schema whose nodes carry
// AttrID (as ToORC writes them), with schema id schemaID. A node without
// an id is an error naming it; a file written without ids is read through
// the table's name mapping instead (see Resolve).
func FromORC(s *orc.Schema, schemaID int) (*ice.Schema, error) {
	if s == nil || s.Kind != orc.Struct {
		return nil, errors.New("iceberg: an ORC file schema must be a struct")
	}
	st, err := structFromORC("", s)
	if err != nil {
		return nil, err
	}
	return ice.NewSchema(schemaID, st.FieldList...), nil
}

func structFromORC(prefix string, s *orc.Schema) (*ice.StructType, error) {
	st := &ice.StructType{}
	for i, c := range s.Children {
		name := s.FieldNames[i]
		f, err := fieldFromORC(prefix+name, name, c)
		if err != nil {
			return nil, err
		}
		st.FieldList = append(st.FieldList, f)
	}
	return st, nil
}

func fieldFromORC(path, name string, n *orc.Schema) (ice.NestedField, error) {
	id, ok, err := FieldID(n)
	if err != nil {
		return ice.NestedField{}, fmt.Errorf("iceberg: column %s: %w", path, err)
	}
	if !ok {
		return ice.NestedField{}, fmt.Errorf("iceberg: column %s has no %s attribute", path, AttrID)
	}
	t, err := typeFromORC(path, n)
	if err != nil {
		return ice.NestedField{}, err
	}
	return ice.NestedField{ID: id, Name: name, Type: t, Required: n.Attributes[AttrRequired] == "true"}, nil
}

// FieldID returns the Iceberg field id that node n carries in AttrID. ok is
// false when it carries none; an id that is not a positive int is an error.
func FieldID(n *orc.Schema) (id int, ok bool, err error) {
	v, ok := n.Attributes[AttrID]
	if !ok {
		return 0, false, nil
	}
	id, err = strconv.Atoi(v)
	if err != nil || id < 0 {
		return 0, false, fmt.Errorf("%s %q is not a field id", AttrID, v)
	}
	return id, true, nil
}

func typeFromORC(path string, n *orc.Schema) (ice.Type, error) {
	switch n.Kind {
	case orc.Struct:
		return structFromORC(path+".", n)
	case orc.List:
		e, err := fieldFromORC(path+".element", "element", n.Children[0])
		if err != nil {
			return nil, err
		}
		return &ice.ListType{ElementID: e.ID, Element: e.Type, ElementRequired: e.Required}, nil
	case orc.Map:
		k, err := fieldFromORC(path+".key", "key", n.Children[0])
		if err != nil {
			return nil, err
		}
		v, err := fieldFromORC(path+".value", "value", n.Children[1])
		if err != nil {
			return nil, err
		}
		return &ice.MapType{KeyID: k.ID, KeyType: k.Type, ValueID: v.ID, ValueType: v.Type, ValueRequired: v.Required}, nil
	}
	return primitiveFromORC(path, n)
}

func primitiveFromORC(path string, n *orc.Schema) (ice.Type, error) {
	nanos := n.Attributes[AttrTimestampUnit] == "NANOS"
	switch n.Kind {
	case orc.Boolean:
		return ice.PrimitiveTypes.Bool, nil
	case orc.Byte, orc.Short, orc.Int:
		return ice.PrimitiveTypes.Int32, nil
	case orc.Long:
		if n.Attributes[AttrLongType] == "TIME" {
			return ice.PrimitiveTypes.Time, nil
		}
		return ice.PrimitiveTypes.Int64, nil
	case orc.Float:
		return ice.PrimitiveTypes.Float32, nil
	case orc.Double:
		return ice.PrimitiveTypes.Float64, nil
	case orc.Decimal:
		return ice.DecimalTypeOf(n.Precision, n.Scale), nil
	case orc.Date:
		return ice.PrimitiveTypes.Date, nil
	case orc.Timestamp:
		if nanos {
			return ice.PrimitiveTypes.TimestampNs, nil
		}
		return ice.PrimitiveTypes.Timestamp, nil
	case orc.TimestampInstant:
		if nanos {
			return ice.PrimitiveTypes.TimestampTzNs, nil
		}
		return ice.PrimitiveTypes.TimestampTz, nil
	case orc.String, orc.Varchar, orc.Char:
		return ice.PrimitiveTypes.String, nil
	case orc.Binary:
		return binaryFromORC(path, n)
	}
	return nil, fmt.Errorf("%w: column %s is %s", ErrUnsupportedType, path, n.Kind)
}

func binaryFromORC(path string, n *orc.Schema) (ice.Type, error) {
	switch n.Attributes[AttrBinaryType] {
	case "UUID":
		return ice.PrimitiveTypes.UUID, nil
	case "FIXED":
		l, err := strconv.Atoi(n.Attributes[AttrLength])
		if err != nil || l <= 0 {
			return nil, fmt.Errorf("iceberg: column %s: fixed binary with %s %q", path, AttrLength, n.Attributes[AttrLength])
		}
		return ice.FixedTypeOf(l), nil
	}
	return ice.PrimitiveTypes.Binary, nil
}
