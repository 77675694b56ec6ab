package iceberg

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

func allTypesSchema() *ice.Schema {
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "b", Type: ice.PrimitiveTypes.Bool, Required: true},
		ice.NestedField{ID: 2, Name: "i", Type: ice.PrimitiveTypes.Int32},
		ice.NestedField{ID: 3, Name: "l", Type: ice.PrimitiveTypes.Int64},
		ice.NestedField{ID: 4, Name: "f", Type: ice.PrimitiveTypes.Float32},
		ice.NestedField{ID: 5, Name: "d", Type: ice.PrimitiveTypes.Float64},
		ice.NestedField{ID: 6, Name: "dec", Type: ice.DecimalTypeOf(12, 3)},
		ice.NestedField{ID: 7, Name: "date", Type: ice.PrimitiveTypes.Date},
		ice.NestedField{ID: 8, Name: "time", Type: ice.PrimitiveTypes.Time},
		ice.NestedField{ID: 9, Name: "ts", Type: ice.PrimitiveTypes.Timestamp},
		ice.NestedField{ID: 10, Name: "tstz", Type: ice.PrimitiveTypes.TimestampTz},
		ice.NestedField{ID: 11, Name: "tsns", Type: ice.PrimitiveTypes.TimestampNs},
		ice.NestedField{ID: 12, Name: "tstzns", Type: ice.PrimitiveTypes.TimestampTzNs},
		ice.NestedField{ID: 13, Name: "s", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 14, Name: "u", Type: ice.PrimitiveTypes.UUID},
		ice.NestedField{ID: 15, Name: "fx", Type: ice.FixedTypeOf(7)},
		ice.NestedField{ID: 16, Name: "bin", Type: ice.PrimitiveTypes.Binary},
		ice.NestedField{ID: 17, Name: "st", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 18, Name: "x", Type: ice.PrimitiveTypes.Int32, Required: true},
		}}},
		ice.NestedField{ID: 19, Name: "lst", Type: &ice.ListType{ElementID: 20, Element: ice.PrimitiveTypes.String}},
		ice.NestedField{ID: 21, Name: "m", Type: &ice.MapType{KeyID: 22, KeyType: ice.PrimitiveTypes.String,
			ValueID: 23, ValueType: ice.PrimitiveTypes.Float64, ValueRequired: true}},
	)
}

func TestToORCTypesAndAttributes(t *testing.T) {
	o, err := ToORC(allTypesSchema())
	if err != nil {
		t.Fatal(err)
	}
	const wantType = "struct<b:boolean,i:int,l:bigint,f:float,d:double,dec:decimal(12,3),date:date,time:bigint," +
		"ts:timestamp,tstz:timestamp with local time zone,tsns:timestamp,tstzns:timestamp with local time zone," +
		"s:string,u:binary,fx:binary,bin:binary,st:struct<x:int>,lst:array<string>,m:map<string,double>>"
	if got := o.String(); got != wantType {
		t.Fatalf("type\n got %s\nwant %s", got, wantType)
	}
	check := func(col int, want map[string]string) {
		t.Helper()
		n := o.Columns()[col]
		for k, v := range want {
			if n.Attributes[k] != v {
				t.Errorf("column %d: %s = %q, want %q (all: %v)", col, k, n.Attributes[k], v, n.Attributes)
			}
		}
		if len(n.Attributes) != len(want) {
			t.Errorf("column %d: attributes %v, want %v", col, n.Attributes, want)
		}
	}
	if len(o.Attributes) != 0 {
		t.Errorf("root has attributes %v", o.Attributes)
	}
	check(1, map[string]string{AttrID: "1", AttrRequired: "true"})
	check(3, map[string]string{AttrID: "3", AttrRequired: "false", AttrLongType: "LONG"})
	check(8, map[string]string{AttrID: "8", AttrRequired: "false", AttrLongType: "TIME"})
	check(9, map[string]string{AttrID: "9", AttrRequired: "false", AttrTimestampUnit: "MICROS"})
	check(10, map[string]string{AttrID: "10", AttrRequired: "false", AttrTimestampUnit: "MICROS"})
	check(16, map[string]string{AttrID: "16", AttrRequired: "false", AttrBinaryType: "BINARY"})
	check(11, map[string]string{AttrID: "11", AttrRequired: "false", AttrTimestampUnit: "NANOS"})
	check(12, map[string]string{AttrID: "12", AttrRequired: "false", AttrTimestampUnit: "NANOS"})
	check(14, map[string]string{AttrID: "14", AttrRequired: "false", AttrBinaryType: "UUID"})
	check(15, map[string]string{AttrID: "15", AttrRequired: "false", AttrBinaryType: "FIXED", AttrLength: "7"})
	check(18, map[string]string{AttrID: "18", AttrRequired: "true"})
	check(20, map[string]string{AttrID: "20", AttrRequired: "false"}) // list element
	check(22, map[string]string{AttrID: "22", AttrRequired: "true"})  // map key
	check(23, map[string]string{AttrID: "23", AttrRequired: "true"})  // map value
}

// TestSchemaThroughFile writes an ORC file of the converted schema and
// checks that the attributes come back from the file and convert back to
// the same Iceberg schema.
func TestSchemaThroughFile(t *testing.T) {
	want := allTypesSchema()
	o, err := ToORC(want)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromORC(r.Schema(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equals(want) {
		t.Fatalf("round trip through a file\n got %s\nwant %s", back, want)
	}
}

func TestFromORCErrors(t *testing.T) {
	for _, tc := range []struct{ schema, attr, want string }{
		{"struct<a:int>", "", "no iceberg.id"},
		{"struct<a:int>", "x", "not a field id"},
		{"struct<a:uniontype<int,string>>", "1", "no ORC or Iceberg counterpart"},
		{"struct<a:binary>", "1", ""},
	} {
		s := orc.MustParseSchema(tc.schema)
		if tc.attr != "" {
			s.Children[0].Attributes = map[string]string{AttrID: tc.attr}
		}
		_, err := FromORC(s, 0)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.schema, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s id %q: error %v, want one saying %q", tc.schema, tc.attr, err, tc.want)
		}
	}
	s := orc.MustParseSchema("struct<a:binary>")
	s.Children[0].Attributes = map[string]string{AttrID: "1", AttrBinaryType: "FIXED", AttrLength: "-3"}
	if _, err := FromORC(s, 0); err == nil {
		t.Error("fixed with a negative length was accepted")
	}
	if _, err := ToORC(ice.NewSchema(0, ice.NestedField{ID: 1, Name: "v", Type: ice.VariantType{}})); !errors.Is(err, ErrUnsupportedType) {
		t.Errorf("variant: %v", err)
	}
}

// writeV1 writes rows (a int, b string, c double, s struct<x int, y int>)
// with the ids of the first version of a table.
func writeV1(t *testing.T, withIDs bool) []byte {
	t.Helper()
	v1 := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "a", Type: ice.PrimitiveTypes.Int32},
		ice.NestedField{ID: 2, Name: "b", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 3, Name: "c", Type: ice.PrimitiveTypes.Float64},
		ice.NestedField{ID: 4, Name: "s", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 5, Name: "x", Type: ice.PrimitiveTypes.Int32},
			{ID: 6, Name: "y", Type: ice.PrimitiveTypes.Int32},
		}}},
	)
	o, err := ToORC(v1)
	if err != nil {
		t.Fatal(err)
	}
	if !withIDs {
		o.Walk(func(n *orc.Schema) { n.Attributes = nil })
	}
	b := orc.NewBatch(o, 3)
	for i := range 3 {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i+1))
		b.Cols[1].(*orc.BytesVector).AppendString(string(rune('p' + i)))
		b.Cols[2].(*orc.DoubleVector).Values = append(b.Cols[2].(*orc.DoubleVector).Values, float64(i)/2)
		sv := b.Cols[3].(*orc.StructVector)
		sv.Fields[0].(*orc.LongVector).Values = append(sv.Fields[0].(*orc.LongVector).Values, int64(10*i))
		sv.Fields[1].(*orc.LongVector).Values = append(sv.Fields[1].(*orc.LongVector).Values, int64(100*i))
		sv.N++
	}
	b.NumRows = 3
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// evolved is v1 after: b renamed bee and moved first, a promoted to long,
// c dropped, d added, s.y renamed why and moved before s.x, s.z added.
func evolved() *ice.Schema {
	return ice.NewSchema(1,
		ice.NestedField{ID: 2, Name: "bee", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 1, Name: "a", Type: ice.PrimitiveTypes.Int64},
		ice.NestedField{ID: 7, Name: "d", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 4, Name: "s", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 6, Name: "why", Type: ice.PrimitiveTypes.Int64},
			{ID: 8, Name: "z", Type: ice.PrimitiveTypes.Int32},
			{ID: 5, Name: "x", Type: ice.PrimitiveTypes.Int32},
		}}},
		// a column named as the dropped one but with a new id reads as nulls
		ice.NestedField{ID: 9, Name: "c", Type: ice.PrimitiveTypes.Float64},
	)
}

func readAll(t *testing.T, data []byte, table *ice.Schema, mapping ice.NameMapping) string {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ReadSchema(table, r.Schema(), mapping)
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithReadSchema(rs))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := orc.NewBatch(rs, 16)
	var out []string
	for {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			out = append(out, rowString(b, i))
		}
	}
	return strings.Join(out, "\n")
}

func TestReadByFieldID(t *testing.T) {
	const want = "p 1 null {0 null 0} null\nq 2 null {100 null 10} null\nr 3 null {200 null 20} null"
	if got := readAll(t, writeV1(t, true), evolved(), nil); got != want {
		t.Errorf("by id\n got %s\nwant %s", got, want)
	}
	// Without ids the table's name mapping (names as the file has them)
	// gives the ids; c is mapped to id 3, which the table no longer has.
	id := func(i int) *int { return &i }
	mapping := ice.NameMapping{
		{Names: []string{"a"}, FieldID: id(1)}, {Names: []string{"b"}, FieldID: id(2)},
		{Names: []string{"c"}, FieldID: id(3)},
		{Names: []string{"s"}, FieldID: id(4), Fields: []ice.MappedField{
			{Names: []string{"x"}, FieldID: id(5)}, {Names: []string{"y"}, FieldID: id(6)}}},
	}
	noIDs := writeV1(t, false)
	if got := readAll(t, noIDs, evolved(), mapping); got != want {
		t.Errorf("by name mapping\n got %s\nwant %s", got, want)
	}
	r, _ := reader.Open(bytes.NewReader(noIDs), int64(len(noIDs)))
	if _, err := ReadSchema(evolved(), r.Schema(), nil); err == nil || !strings.Contains(err.Error(), "name mapping") {
		t.Errorf("no ids, no mapping: %v", err)
	}
	req := ice.NewSchema(2, ice.NestedField{ID: 42, Name: "must", Type: ice.PrimitiveTypes.Int32, Required: true})
	if _, err := ReadSchema(req, r.Schema(), mapping); err == nil || !strings.Contains(err.Error(), "required column must") {
		t.Errorf("missing required column: %v", err)
	}
	bad := ice.NewSchema(2, ice.NestedField{ID: 4, Name: "s", Type: ice.PrimitiveTypes.Int32})
	if _, err := ReadSchema(bad, r.Schema(), mapping); err == nil || !strings.Contains(err.Error(), "column s is int in the table but struct") {
		t.Errorf("struct read as int: %v", err)
	}
}

func rowString(b *orc.Batch, i int) string {
	parts := make([]string, len(b.Cols))
	for c, v := range b.Cols {
		parts[c] = valueString(v, i)
	}
	return strings.Join(parts, " ")
}

func valueString(v orc.Vector, i int) string {
	if v.IsNull(i) {
		return "null"
	}
	switch v := v.(type) {
	case *orc.LongVector:
		return itoa(v.Values[i])
	case *orc.DoubleVector:
		if math.IsNaN(v.Values[i]) {
			return "NaN"
		}
		return itoa(int64(v.Values[i] * 1000))
	case *orc.BytesVector:
		return v.String(i)
	case *orc.StructVector:
		parts := make([]string, len(v.Fields))
		for c, f := range v.Fields {
			parts[c] = valueString(f, i)
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	return "?"
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// TestReadPromotions: float to double and decimal(9,2) to decimal(12,2),
// the promotions Iceberg allows, read from a file of the old types.
func TestReadPromotions(t *testing.T) {
	old := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "f", Type: ice.PrimitiveTypes.Float32},
		ice.NestedField{ID: 2, Name: "d", Type: ice.DecimalTypeOf(9, 2)})
	o, _ := ToORC(old)
	b := orc.NewBatch(o, 1)
	b.Cols[0].(*orc.DoubleVector).Append(1.5)
	b.Cols[1].(*orc.DecimalVector).Append(orc.Int128FromInt64(-1234))
	b.NumRows = 1
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	promoted := ice.NewSchema(1,
		ice.NestedField{ID: 1, Name: "f", Type: ice.PrimitiveTypes.Float64},
		ice.NestedField{ID: 2, Name: "d", Type: ice.DecimalTypeOf(12, 2)})
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ReadSchema(promoted, r.Schema(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.String() != "struct<f:double,d:decimal(12,2)>" {
		t.Errorf("read schema %s", rs)
	}
	br, err := r.NewBatchReader(reader.WithReadSchema(rs))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	got := orc.NewBatch(rs, 4)
	if err := br.Next(got); err != nil {
		t.Fatal(err)
	}
	dv := got.Cols[1].(*orc.DecimalVector)
	if got.Cols[0].(*orc.DoubleVector).Values[0] != 1.5 || dv.Values[0] != orc.Int128FromInt64(-1234) || dv.Scale != 2 {
		t.Errorf("read %v and %v (scale %d)", got.Cols[0].(*orc.DoubleVector).Values, dv.Values, dv.Scale)
	}
	// A narrowing (decimal(9,2) to decimal(5,2)) is orcgo's schema mismatch error, naming the column.
	narrowed := ice.NewSchema(2, ice.NestedField{ID: 2, Name: "d", Type: ice.DecimalTypeOf(5, 2)})
	rs, _ = ReadSchema(narrowed, r.Schema(), nil)
	if _, err := r.NewBatchReader(reader.WithReadSchema(rs)); !errors.Is(err, reader.ErrSchemaMismatch) {
		t.Errorf("decimal(9,2) read as decimal(5,2): %v", err)
	}
}
