package convert

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
)

// Geometry and geography reach Parquet as its GEOMETRY and GEOGRAPHY logical
// types (BYTE_ARRAY holding WKB, with the CRS and, for geography, the edge
// algorithm).
//
// orcarrow marks such columns as binary fields whose metadata names the
// GeoArrow extension geoarrow.wkb; pqarrow only gives a column a logical type
// of an extension's choosing when the field's type is an arrow.ExtensionType
// that implements pqarrow.ExtensionCustomParquetType. So on the way to Parquet
// each marked binary column becomes a wkbType column over the same data, and
// on the way back every geoarrow.wkb extension column (from the stored Arrow
// schema, or from a GEOMETRY or GEOGRAPHY column of a file written elsewhere,
// through pqarrow.ExtensionCustomArrowReadType) becomes a marked binary column
// again, which orcarrow writes as geometry or geography.
//
// arrow-go v18.8 writes no geospatial statistics (bounding boxes) into the
// Parquet column chunks; the values and types carry over, the boxes do not.

const (
	geoArrowWKB       = "geoarrow.wkb"
	metaExtensionName = "ARROW:extension:name"
	metaExtensionMeta = "ARROW:extension:metadata"
)

// wkbType is the geoarrow.wkb extension type over a binary storage type.
// Its metadata is GeoArrow's JSON ({"crs": ..., "edges": ...}); the ORC type
// it stands for is decided by orcarrow's reading of that metadata, so both
// directions follow one rule.
type wkbType struct {
	arrow.ExtensionBase
	meta string
	geo  *orc.Schema // geometry or geography, with its CRS and edges
}

// wkbArray is the array of a wkbType column.
type wkbArray struct{ array.ExtensionArrayBase }

var (
	_ arrow.ExtensionType                  = (*wkbType)(nil)
	_ pqarrow.ExtensionCustomParquetType   = (*wkbType)(nil)
	_ pqarrow.ExtensionCustomArrowReadType = (*wkbType)(nil)
)

// newWKBType returns the extension type over storage with GeoArrow metadata
// meta, or an error when the metadata does not describe geometry or
// geography.
func newWKBType(storage arrow.DataType, meta string) (*wkbType, error) {
	if !arrow.IsBinaryLike(storage.ID()) {
		return nil, fmt.Errorf("%s over %s: want a binary storage type", geoArrowWKB, storage)
	}
	md := arrow.NewMetadata([]string{metaExtensionName, metaExtensionMeta}, []string{geoArrowWKB, meta})
	s, err := orcarrow.ORCSchema(arrow.NewSchema([]arrow.Field{{Name: "g", Type: arrow.BinaryTypes.Binary, Nullable: true, Metadata: md}}, nil))
	if err != nil {
		return nil, err
	}
	g := s.Children[0]
	if g.Kind != orc.Geometry && g.Kind != orc.Geography {
		return nil, fmt.Errorf("%s metadata %q is not a geometry type", geoArrowWKB, meta)
	}
	return &wkbType{ExtensionBase: arrow.ExtensionBase{Storage: storage}, meta: meta, geo: g}, nil
}

func (*wkbType) ArrayType() reflect.Type { return reflect.TypeOf(wkbArray{}) }
func (*wkbType) ExtensionName() string   { return geoArrowWKB }
func (t *wkbType) Serialize() string     { return t.meta }
func (t *wkbType) String() string        { return fmt.Sprintf("extension<%s %s>", geoArrowWKB, t.meta) }

func (*wkbType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	return newWKBType(storage, data)
}

func (t *wkbType) ExtensionEquals(o arrow.ExtensionType) bool {
	u, ok := o.(*wkbType)
	return ok && arrow.TypeEqual(t.Storage, u.Storage) && t.geo.String() == u.geo.String()
}

// ParquetLogicalType is GEOMETRY or GEOGRAPHY with the column's CRS (left
// unset when it is OGC:CRS84, Parquet's default) and edge algorithm.
func (t *wkbType) ParquetLogicalType() schema.LogicalType {
	crs := t.geo.CRS
	if crs == orc.DefaultCRS {
		crs = ""
	}
	if t.geo.Kind == orc.Geography {
		return schema.GeographyLogicalType{Crs: crs, Algorithm: schema.GeographyEdgeInterpolationAlgorithm(t.geo.Edges.String())}
	}
	return schema.GeometryLogicalType{Crs: crs}
}

// ArrowTypeFromParquet maps a GEOMETRY or GEOGRAPHY column of a Parquet file
// to the extension type, with GeoArrow metadata built from its CRS and edge
// algorithm.
func (*wkbType) ArrowTypeFromParquet(logical schema.LogicalType, storage arrow.DataType) (arrow.ExtensionType, error) {
	var m struct {
		CRS   string `json:"crs"`
		Edges string `json:"edges,omitempty"`
	}
	switch l := logical.(type) {
	case schema.GeometryLogicalType:
		m.CRS = l.CRS()
	case schema.GeographyLogicalType:
		m.CRS, m.Edges = l.CRS(), l.EdgeInterpolationAlgorithm().String()
	default:
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return newWKBType(storage, string(b))
}

var registerWKB = sync.OnceValue(func() error {
	proto, err := newWKBType(arrow.BinaryTypes.Binary, `{"crs":"OGC:CRS84"}`)
	if err != nil {
		return err
	}
	if arrow.GetExtensionType(geoArrowWKB) != nil {
		return nil // registered by someone else: unwrapGeo still handles it by name
	}
	return arrow.RegisterExtensionType(proto)
})

// retype rebuilds data (an array of type from) as an array of type to, which
// differs from it only in extension types wrapped around or taken off some
// nested storage types; the buffers are shared.
func retype(data arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	if arrow.TypeEqual(data.DataType(), to) {
		data.Retain()
		return data
	}
	storage := to
	if e, ok := to.(arrow.ExtensionType); ok {
		storage = e.StorageType()
	}
	var childTypes []arrow.DataType
	switch st := storage.(type) {
	case arrow.NestedType:
		for _, f := range st.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	}
	children := make([]arrow.ArrayData, len(data.Children()))
	for i, c := range data.Children() {
		if i < len(childTypes) {
			children[i] = retype(c, childTypes[i])
		} else {
			c.Retain()
			children[i] = c
		}
	}
	out := array.NewData(to, data.Len(), data.Buffers(), children, data.NullN(), data.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// mapGeoFields applies f to every field of s, nested ones included (f sees a
// field after its children were mapped), and reports whether any changed.
func mapGeoFields(s *arrow.Schema, f func(arrow.Field) (arrow.Field, error)) (*arrow.Schema, bool, error) {
	changed := false
	var walk func(fl arrow.Field) (arrow.Field, error)
	walk = func(fl arrow.Field) (arrow.Field, error) {
		var err error
		switch t := fl.Type.(type) {
		case *arrow.StructType:
			fs := make([]arrow.Field, t.NumFields())
			for i, c := range t.Fields() {
				if fs[i], err = walk(c); err != nil {
					return fl, err
				}
			}
			if !fieldsEqual(fs, t.Fields()) {
				fl.Type = arrow.StructOf(fs...)
			}
		case *arrow.ListType:
			e, err := walk(t.ElemField())
			if err != nil {
				return fl, err
			}
			if !fieldsEqual([]arrow.Field{e}, []arrow.Field{t.ElemField()}) {
				fl.Type = arrow.ListOfField(e)
			}
		case *arrow.LargeListType:
			e, err := walk(t.ElemField())
			if err != nil {
				return fl, err
			}
			if !fieldsEqual([]arrow.Field{e}, []arrow.Field{t.ElemField()}) {
				fl.Type = arrow.LargeListOfField(e)
			}
		case *arrow.MapType:
			k, err := walk(t.KeyField())
			if err != nil {
				return fl, err
			}
			v, err := walk(t.ItemField())
			if err != nil {
				return fl, err
			}
			if !fieldsEqual([]arrow.Field{k, v}, []arrow.Field{t.KeyField(), t.ItemField()}) {
				m := arrow.MapOfWithMetadata(k.Type, k.Metadata, v.Type, v.Metadata)
				m.SetItemNullable(v.Nullable)
				m.KeysSorted = t.KeysSorted
				fl.Type = m
			}
		}
		g, err := f(fl)
		if err != nil {
			return fl, err
		}
		if !arrow.TypeEqual(g.Type, fl.Type) || !g.Metadata.Equal(fl.Metadata) {
			changed = true
		}
		return g, nil
	}
	fs := make([]arrow.Field, s.NumFields())
	for i, fl := range s.Fields() {
		var err error
		if fs[i], err = walk(fl); err != nil {
			return nil, false, err
		}
	}
	if !changed {
		return s, false, nil
	}
	md := s.Metadata()
	return arrow.NewSchema(fs, &md), true, nil
}

func fieldsEqual(a, b []arrow.Field) bool {
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// wrapGeo turns every binary field marked geoarrow.wkb into a wkbType field,
// dropping the two marking keys from its metadata.
func wrapGeo(s *arrow.Schema) (*arrow.Schema, bool, error) {
	if err := registerWKB(); err != nil {
		return nil, false, err
	}
	return mapGeoFields(s, func(f arrow.Field) (arrow.Field, error) {
		i := f.Metadata.FindKey(metaExtensionName)
		if i < 0 || f.Metadata.Values()[i] != geoArrowWKB || !arrow.IsBinaryLike(f.Type.ID()) {
			return f, nil
		}
		meta := ""
		if j := f.Metadata.FindKey(metaExtensionMeta); j >= 0 {
			meta = f.Metadata.Values()[j]
		}
		t, err := newWKBType(f.Type, meta)
		if err != nil {
			return f, fmt.Errorf("column %q: %w", f.Name, err)
		}
		var keys, vals []string
		for k, key := range f.Metadata.Keys() {
			if key != metaExtensionName && key != metaExtensionMeta {
				keys = append(keys, key)
				vals = append(vals, f.Metadata.Values()[k])
			}
		}
		f.Type, f.Metadata = t, arrow.NewMetadata(keys, vals)
		return f, nil
	})
}

// unwrapGeo turns every geoarrow.wkb extension field, whatever type
// implements it, into a field of its storage type marked geoarrow.wkb with the
// extension's metadata, as orcarrow expects.
func unwrapGeo(s *arrow.Schema) (*arrow.Schema, bool, error) {
	return mapGeoFields(s, func(f arrow.Field) (arrow.Field, error) {
		e, ok := f.Type.(arrow.ExtensionType)
		if !ok || e.ExtensionName() != geoArrowWKB {
			return f, nil
		}
		keys := append(slices.Clone(f.Metadata.Keys()), metaExtensionName, metaExtensionMeta)
		vals := append(slices.Clone(f.Metadata.Values()), geoArrowWKB, e.Serialize())
		f.Type, f.Metadata = e.StorageType(), arrow.NewMetadata(keys, vals)
		return f, nil
	})
}

// retypeRecord returns rec's columns as a record of schema s, whose fields
// differ from rec's only where wrapGeo or unwrapGeo changed them.
func retypeRecord(s *arrow.Schema, rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		d := retype(c.Data(), s.Field(i).Type)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	out := array.NewRecordBatch(s, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return out
}
