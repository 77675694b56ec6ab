package orcarrow

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/orcgo/orc"
)

// MetadataORCType is the field metadata key that carries the ORC type of a
// field whose Arrow type alone does not say it: char(n) and varchar(n), both
// read as Arrow strings. The value is the type in ORC's syntax, such as
// "varchar(20)". The Writer honours it on string fields, so a round trip
// ORC -> Arrow -> ORC restores the type.
const MetadataORCType = "orc.type"

// MetadataAttributePrefix prefixes the field metadata keys that carry ORC
// type attributes (such as Iceberg's "iceberg.id"): attribute k is stored
// under MetadataAttributePrefix + k, and the Writer restores it.
const MetadataAttributePrefix = "orc.attribute."

// ErrUnsupportedType is wrapped by errors about Arrow types that have no ORC
// counterpart (and about ORC schemas Arrow cannot hold). The message names
// the field. Test for it with errors.Is.
var ErrUnsupportedType = errors.New("orcarrow: unsupported type")

func unsupported(path string, format string, args ...any) error {
	return fmt.Errorf("%w: field %q: %s", ErrUnsupportedType, path, fmt.Sprintf(format, args...))
}

// joinPath names a nested field for messages: "a.b", "a.item", "m.key".
func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// MetadataORCRoot is the schema metadata key that marks a file whose root
// type is not a struct (ORC allows any type at the root). Its records have
// one field, named by the key's value ("value"), holding the root; the Writer
// writes such a schema back with that field's type at the root.
const MetadataORCRoot = "orc.root"

// rootField names the one field of a non-struct root.
const rootField = "value"

// ArrowSchema returns the Arrow schema of records read from ORC data of
// schema s (the type of a whole file). A struct's fields become the
// record's fields; any other root becomes one field named "value", marked
// with MetadataORCRoot. Every field is nullable; the mapping is the table in
// the package documentation.
func ArrowSchema(s *orc.Schema) (*arrow.Schema, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: no schema", ErrUnsupportedType)
	}
	if s.Kind != orc.Struct {
		f, err := arrowField(rootField, rootField, s)
		if err != nil {
			return nil, err
		}
		md := arrow.NewMetadata([]string{MetadataORCRoot}, []string{rootField})
		return arrow.NewSchema([]arrow.Field{f}, &md), nil
	}
	fields := make([]arrow.Field, len(s.Children))
	for i, c := range s.Children {
		f, err := arrowField(s.FieldNames[i], s.FieldNames[i], c)
		if err != nil {
			return nil, err
		}
		fields[i] = f
	}
	return arrow.NewSchema(fields, nil), nil
}

// arrowField maps one ORC node to an Arrow field named name; path names it in
// errors.
func arrowField(name, path string, s *orc.Schema) (arrow.Field, error) {
	t, err := arrowType(path, s)
	if err != nil {
		return arrow.Field{}, err
	}
	var keys, vals []string
	if s.Kind == orc.Char || s.Kind == orc.Varchar {
		keys, vals = append(keys, MetadataORCType), append(vals, s.String())
	}
	if s.Kind.IsGeospatial() {
		keys, vals = geoFieldMetadata(s)
	}
	for _, k := range sortedKeys(s.Attributes) {
		keys, vals = append(keys, MetadataAttributePrefix+k), append(vals, s.Attributes[k])
	}
	f := arrow.Field{Name: name, Type: t, Nullable: true}
	if len(keys) > 0 {
		f.Metadata = arrow.NewMetadata(keys, vals)
	}
	return f, nil
}

func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// insertion sort: attribute maps hold a handful of entries
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func arrowType(path string, s *orc.Schema) (arrow.DataType, error) {
	switch s.Kind {
	case orc.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case orc.Byte:
		return arrow.PrimitiveTypes.Int8, nil
	case orc.Short:
		return arrow.PrimitiveTypes.Int16, nil
	case orc.Int:
		return arrow.PrimitiveTypes.Int32, nil
	case orc.Long:
		return arrow.PrimitiveTypes.Int64, nil
	case orc.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case orc.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case orc.String, orc.Char, orc.Varchar:
		return arrow.BinaryTypes.String, nil
	case orc.Binary, orc.Geometry, orc.Geography:
		return arrow.BinaryTypes.Binary, nil
	case orc.Date:
		return arrow.FixedWidthTypes.Date32, nil
	case orc.Timestamp:
		return &arrow.TimestampType{Unit: arrow.Nanosecond}, nil
	case orc.TimestampInstant:
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, nil
	case orc.Decimal:
		p := s.Precision
		if p == 0 { // Hive 0.11's unbounded decimal
			p = 38
		}
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s.Scale)}, nil
	case orc.List:
		f, err := arrowField("item", joinPath(path, "item"), s.Children[0])
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(f), nil
	case orc.Map:
		k, err := arrowField("key", joinPath(path, "key"), s.Children[0])
		if err != nil {
			return nil, err
		}
		k.Nullable = false
		v, err := arrowField("value", joinPath(path, "value"), s.Children[1])
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(k, v), nil
	case orc.Struct:
		fields := make([]arrow.Field, len(s.Children))
		for i, c := range s.Children {
			f, err := arrowField(s.FieldNames[i], joinPath(path, s.FieldNames[i]), c)
			if err != nil {
				return nil, err
			}
			fields[i] = f
		}
		return arrow.StructOf(fields...), nil
	case orc.Union:
		if len(s.Children) > 128 {
			return nil, unsupported(path, "a union of %d variants (Arrow allows 128)", len(s.Children))
		}
		fields := make([]arrow.Field, len(s.Children))
		codes := make([]arrow.UnionTypeCode, len(s.Children))
		for i, c := range s.Children {
			name := strconv.Itoa(i)
			f, err := arrowField(name, joinPath(path, name), c)
			if err != nil {
				return nil, err
			}
			fields[i], codes[i] = f, arrow.UnionTypeCode(i)
		}
		return arrow.DenseUnionOf(fields, codes), nil
	}
	return nil, unsupported(path, "ORC kind %v", s.Kind)
}

// ORCSchema returns the ORC schema (a struct) of files written from records
// of Arrow schema s. An Arrow type with no ORC counterpart is an error
// wrapping ErrUnsupportedType that names the field.
func ORCSchema(s *arrow.Schema) (*orc.Schema, error) {
	if f, ok := bareRoot(s); ok {
		root, err := orcType(f.Name, f)
		if err != nil {
			return nil, err
		}
		root.Assign()
		if err := root.Validate(); err != nil {
			return nil, fmt.Errorf("orcarrow: %w", err)
		}
		return root, nil
	}
	root := &orc.Schema{Kind: orc.Struct}
	for _, f := range s.Fields() {
		c, err := orcType(f.Name, f)
		if err != nil {
			return nil, err
		}
		root.Children = append(root.Children, c)
		root.FieldNames = append(root.FieldNames, f.Name)
	}
	root.Assign()
	if err := root.Validate(); err != nil {
		return nil, fmt.Errorf("orcarrow: %w", err)
	}
	return root, nil
}

// bareRoot reports whether s holds a non-struct root (MetadataORCRoot),
// and returns its field.
func bareRoot(s *arrow.Schema) (arrow.Field, bool) {
	md := s.Metadata()
	i := md.FindKey(MetadataORCRoot)
	if i < 0 || s.NumFields() != 1 || s.Field(0).Name != md.Values()[i] {
		return arrow.Field{}, false
	}
	if _, isStruct := s.Field(0).Type.(*arrow.StructType); isStruct {
		return arrow.Field{}, false
	}
	return s.Field(0), true
}

// columnTypes returns the ORC node of each record column of a file schema:
// a struct's fields, or the root itself when it is not a struct.
func columnTypes(s *orc.Schema) (names []string, types []*orc.Schema) {
	if s.Kind != orc.Struct {
		return []string{rootField}, []*orc.Schema{s}
	}
	return s.FieldNames, s.Children
}

// orcType maps an Arrow field to an ORC node; path names the field in errors.
func orcType(path string, f arrow.Field) (*orc.Schema, error) {
	s, err := orcKind(path, f)
	if err != nil {
		return nil, err
	}
	for i, k := range f.Metadata.Keys() {
		if a, ok := strings.CutPrefix(k, MetadataAttributePrefix); ok && a != "" {
			if s.Attributes == nil {
				s.Attributes = map[string]string{}
			}
			s.Attributes[a] = f.Metadata.Values()[i]
		}
	}
	return s, nil
}

func orcKind(path string, f arrow.Field) (*orc.Schema, error) {
	prim := func(k orc.Kind) (*orc.Schema, error) { return &orc.Schema{Kind: k}, nil }
	switch t := f.Type.(type) {
	case *arrow.BooleanType:
		return prim(orc.Boolean)
	case *arrow.Int8Type:
		return prim(orc.Byte)
	case *arrow.Int16Type, *arrow.Uint8Type:
		return prim(orc.Short)
	case *arrow.Int32Type, *arrow.Uint16Type:
		return prim(orc.Int)
	case *arrow.Int64Type, *arrow.Uint32Type:
		return prim(orc.Long)
	case *arrow.Float32Type:
		return prim(orc.Float)
	case *arrow.Float64Type:
		return prim(orc.Double)
	case *arrow.StringType, *arrow.LargeStringType:
		if i := f.Metadata.FindKey(MetadataORCType); i >= 0 {
			v := f.Metadata.Values()[i]
			s, err := orc.ParseSchema(v)
			if err != nil {
				return nil, fmt.Errorf("orcarrow: field %q: metadata %s=%q: %w", path, MetadataORCType, v, err)
			}
			switch s.Kind {
			case orc.String, orc.Char, orc.Varchar:
				return &orc.Schema{Kind: s.Kind, MaxLength: s.MaxLength}, nil
			}
			return nil, fmt.Errorf("orcarrow: field %q: metadata %s=%q does not fit Arrow type %s", path, MetadataORCType, v, f.Type)
		}
		return prim(orc.String)
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.FixedSizeBinaryType:
		if g := geoFromField(f); g != nil {
			return g, nil
		}
		return prim(orc.Binary)
	case *arrow.Date32Type, *arrow.Date64Type:
		return prim(orc.Date)
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return prim(orc.TimestampInstant)
		}
		return prim(orc.Timestamp)
	case *arrow.Decimal128Type:
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return nil, unsupported(path, "%s: ORC decimals need 1 <= precision <= 38 and 0 <= scale <= precision", t)
		}
		return &orc.Schema{Kind: orc.Decimal, Precision: int(t.Precision), Scale: int(t.Scale)}, nil
	case *arrow.MapType: // before ListType: a map is also a list
		k, err := orcType(joinPath(path, "key"), t.KeyField())
		if err != nil {
			return nil, err
		}
		v, err := orcType(joinPath(path, "value"), t.ItemField())
		if err != nil {
			return nil, err
		}
		return &orc.Schema{Kind: orc.Map, Children: []*orc.Schema{k, v}}, nil
	case *arrow.ListType:
		e, err := orcType(joinPath(path, t.ElemField().Name), t.ElemField())
		if err != nil {
			return nil, err
		}
		return &orc.Schema{Kind: orc.List, Children: []*orc.Schema{e}}, nil
	case *arrow.LargeListType:
		e, err := orcType(joinPath(path, t.ElemField().Name), t.ElemField())
		if err != nil {
			return nil, err
		}
		return &orc.Schema{Kind: orc.List, Children: []*orc.Schema{e}}, nil
	case *arrow.StructType:
		s := &orc.Schema{Kind: orc.Struct}
		seen := map[string]bool{}
		for _, cf := range t.Fields() {
			if seen[cf.Name] {
				return nil, unsupported(path, "struct field name %q appears twice", cf.Name)
			}
			seen[cf.Name] = true
			c, err := orcType(joinPath(path, cf.Name), cf)
			if err != nil {
				return nil, err
			}
			s.Children = append(s.Children, c)
			s.FieldNames = append(s.FieldNames, cf.Name)
		}
		return s, nil
	case arrow.UnionType:
		if len(t.Fields()) == 0 {
			return nil, unsupported(path, "a union without variants")
		}
		s := &orc.Schema{Kind: orc.Union}
		for _, cf := range t.Fields() {
			c, err := orcType(joinPath(path, cf.Name), cf)
			if err != nil {
				return nil, err
			}
			s.Children = append(s.Children, c)
		}
		return s, nil
	case arrow.ExtensionType:
		// stored as its storage type; the extension's name is not kept
		st := f
		st.Type = t.StorageType()
		return orcKind(path, st)
	}
	return nil, unsupported(path, "Arrow type %s has no ORC counterpart", f.Type)
}
