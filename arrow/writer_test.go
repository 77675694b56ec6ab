package orcarrow_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

func fromJSON(tb testing.TB, mem memory.Allocator, t arrow.DataType, js string) arrow.Array {
	tb.Helper()
	a, _, err := array.FromJSON(mem, t, strings.NewReader(js))
	if err != nil {
		tb.Fatalf("%s from %s: %v", t, js, err)
	}
	return a
}

// writeRecords writes records through orcarrow.Writer and returns the file.
func writeRecords(tb testing.TB, s *arrow.Schema, recs ...arrow.RecordBatch) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := orcarrow.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		tb.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// checkWritten writes rec and checks the file's schema and rows against the
// record's values.
func checkWritten(t *testing.T, rec arrow.RecordBatch, wantSchema string) {
	t.Helper()
	data := writeRecords(t, rec.Schema(), rec)
	r := openORC(t, data)
	if got := r.Schema().String(); got != wantSchema {
		t.Fatalf("schema\n got %s\nwant %s", got, wantSchema)
	}
	want := recordRows(r.Schema(), rec)
	if d := testutil.Diff(want, orcRows(t, r)); d != "" {
		t.Fatal(d)
	}
}

// TestWriteArrowTypes writes the Arrow types that have an ORC counterpart
// but are not what the reader produces (unsigned, large, other units), and
// edge values of the rest.
func TestWriteArrowTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long := strings.Repeat("long ☃ string ", 10000)
	cols := []struct {
		name string
		typ  arrow.DataType
		js   string
	}{
		{"u8", arrow.PrimitiveTypes.Uint8, `[0, 255, null]`},
		{"u16", arrow.PrimitiveTypes.Uint16, `[0, null, 65535]`},
		{"u32", arrow.PrimitiveTypes.Uint32, `[null, 4294967295, 1]`},
		{"i64", arrow.PrimitiveTypes.Int64, `[-9223372036854775808, 9223372036854775807, null]`},
		{"f32", arrow.PrimitiveTypes.Float32, `[1.5, null, -0.0]`},
		{"f64", arrow.PrimitiveTypes.Float64, `[null, 1e308, -5e-324]`},
		{"ls", arrow.BinaryTypes.LargeString, `["", null, "` + long + `"]`},
		{"lb", arrow.BinaryTypes.LargeBinary, `["AAEC", "", null]`},
		{"d64", arrow.FixedWidthTypes.Date64, `[-86400000, null, 1700000000000]`},
		// timestamps as numbers of their unit: before 1970, the extremes of ns
		{"ts_s", &arrow.TimestampType{Unit: arrow.Second}, `[-1, null, 9223372036]`},
		{"ts_ms", &arrow.TimestampType{Unit: arrow.Millisecond}, `[-2208988799999, 999, null]`},
		{"ts_us", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, `[null, -14182939999999, 2147483648000000]`},
		{"ts_ns", &arrow.TimestampType{Unit: arrow.Nanosecond}, `[-9223372036854775808, 9223372036854775807, -299591999999999999]`},
		{"dec", &arrow.Decimal128Type{Precision: 38, Scale: 4}, `["9999999999999999999999999999999999.9999", "-9999999999999999999999999999999999.9999", null]`},
		{"ll", arrow.LargeListOf(arrow.PrimitiveTypes.Int32), `[[1, null], null, []]`},
		{"fsb", &arrow.FixedSizeBinaryType{ByteWidth: 3}, `["AAEC", null, "////"]`},
	}
	var fields []arrow.Field
	var arrs []arrow.Array
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	for _, c := range cols {
		fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
		arrs = append(arrs, fromJSON(t, mem, c.typ, c.js))
	}
	// a NaN, which JSON cannot spell
	nan := array.NewFloat64Builder(mem)
	nan.AppendValues([]float64{math.NaN(), math.Inf(-1), math.Inf(1)}, nil)
	fields = append(fields, arrow.Field{Name: "nan", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	arrs = append(arrs, nan.NewArray())
	nan.Release()
	s := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(s, arrs, 3)
	defer rec.Release()
	checkWritten(t, rec, "struct<u8:smallint,u16:int,u32:bigint,i64:bigint,f32:float,f64:double,ls:string,lb:binary,"+
		"d64:date,ts_s:timestamp,ts_ms:timestamp,ts_us:timestamp with local time zone,ts_ns:timestamp,"+
		"dec:decimal(38,4),ll:array<int>,fsb:binary,nan:double>")

	// the same record sliced: offsets into every buffer
	sl := rec.NewSlice(1, 3)
	defer sl.Release()
	checkWritten(t, sl, "struct<u8:smallint,u16:int,u32:bigint,i64:bigint,f32:float,f64:double,ls:string,lb:binary,"+
		"d64:date,ts_s:timestamp,ts_ms:timestamp,ts_us:timestamp with local time zone,ts_ns:timestamp,"+
		"dec:decimal(38,4),ll:array<int>,fsb:binary,nan:double>")
}

// TestWriteNestedLayouts writes nested layouts Arrow allows and ORC does
// not: null list rows that own elements, struct children with values under
// null structs, sparse unions, unions with type codes other than 0..n-1,
// and slices of all of them.
func TestWriteNestedLayouts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// list<string> of 4 rows; row 1 is null but owns "x", "y"
	elems := fromJSON(t, mem, arrow.BinaryTypes.String, `["a", "x", "y", null, "b", "c"]`)
	defer elems.Release()
	valid := memory.NewBufferBytes([]byte{0b1101})
	offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 3, 4, 6}))
	listData := array.NewData(arrow.ListOf(arrow.BinaryTypes.String), 4, []*memory.Buffer{valid, offs}, []arrow.ArrayData{elems.Data()}, 1, 0)
	list := array.MakeFromData(listData)
	listData.Release()
	defer list.Release()

	// struct<a:int,m:map<string,int>>: row 2 is null over non-null children
	sa := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 2, 3, null]`)
	defer sa.Release()
	sm := fromJSON(t, mem, arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
		`[[{"key": "k", "value": 1}], null, [{"key": "under null", "value": 2}], []]`)
	defer sm.Release()
	sValid := memory.NewBufferBytes([]byte{0b1011})
	stData := array.NewData(arrow.StructOf(
		arrow.Field{Name: "a", Type: sa.DataType(), Nullable: true},
		arrow.Field{Name: "m", Type: sm.DataType(), Nullable: true}),
		4, []*memory.Buffer{sValid}, []arrow.ArrayData{sa.Data(), sm.Data()}, 1, 0)
	st := array.MakeFromData(stData)
	stData.Release()
	defer st.Release()

	// sparse union<i:int64, s:string> with codes 5 and 9
	ui := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 0, null, 40]`)
	defer ui.Release()
	us := fromJSON(t, mem, arrow.BinaryTypes.String, `["", "two", "", null]`)
	defer us.Release()
	codes := fromJSON(t, mem, arrow.PrimitiveTypes.Int8, `[5, 9, 5, 9]`)
	defer codes.Release()
	sparse, err := array.NewSparseUnionFromArraysWithFieldCodes(codes, []arrow.Array{ui, us}, []string{"i", "s"}, []arrow.UnionTypeCode{5, 9})
	if err != nil {
		t.Fatal(err)
	}
	defer sparse.Release()

	// dense union<s:struct<x:double>, l:list<int8>> with codes 3 and 1
	dx := fromJSON(t, mem, arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), `[{"x": 1.5}, null]`)
	defer dx.Release()
	dl := fromJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int8), `[[1, 2], [], [-128]]`)
	defer dl.Release()
	dcodes := fromJSON(t, mem, arrow.PrimitiveTypes.Int8, `[1, 3, 1, 3]`)
	defer dcodes.Release()
	doffs := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[2, 0, 0, 1]`)
	defer doffs.Release()
	dense, err := array.NewDenseUnionFromArraysWithFieldCodes(dcodes, doffs, []arrow.Array{dx, dl}, []string{"s", "l"}, []arrow.UnionTypeCode{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer dense.Release()

	s := arrow.NewSchema([]arrow.Field{
		{Name: "list", Type: list.DataType(), Nullable: true},
		{Name: "st", Type: st.DataType(), Nullable: true},
		{Name: "sparse", Type: sparse.DataType(), Nullable: true},
		{Name: "dense", Type: dense.DataType(), Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(s, []arrow.Array{list, st, sparse, dense}, 4)
	defer rec.Release()
	const want = "struct<list:array<string>,st:struct<a:int,m:map<string,int>>,sparse:uniontype<bigint,string>," +
		"dense:uniontype<struct<x:double>,array<tinyint>>>"
	checkWritten(t, rec, want)
	for lo := range 4 {
		for hi := lo; hi <= 4; hi++ {
			sl := rec.NewSlice(int64(lo), int64(hi))
			checkWritten(t, sl, want)
			sl.Release()
		}
	}
}

// TestCharVarcharRoundTrip checks that char and varchar survive ORC ->
// Arrow -> ORC through field metadata, and that bad metadata is refused.
func TestCharVarcharMetadata(t *testing.T) {
	s := orc.MustParseSchema("struct<c:char(3),v:varchar(5),l:array<varchar(2)>,m:map<char(1),string>>")
	as, err := orcarrow.ArrowSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := orcarrow.ORCSchema(as)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != s.String() {
		t.Fatalf("got %s, want %s", back, s)
	}
	md := arrow.NewMetadata([]string{orcarrow.MetadataORCType}, []string{"int"})
	_, err = orcarrow.ORCSchema(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.BinaryTypes.String, Metadata: md}}, nil))
	if err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("metadata int on a string: got %v", err)
	}
	md = arrow.NewMetadata([]string{orcarrow.MetadataORCType}, []string{"varchar("})
	if _, err = orcarrow.ORCSchema(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.BinaryTypes.String, Metadata: md}}, nil)); err == nil {
		t.Fatal("bad metadata accepted")
	}
}

// TestUnsupportedTypes checks that Arrow types without an ORC counterpart
// are refused with an error naming the field, nested ones by their path.
func TestUnsupportedTypes(t *testing.T) {
	cases := []struct {
		typ  arrow.DataType
		path string
	}{
		{arrow.PrimitiveTypes.Uint64, "f"},
		{arrow.FixedWidthTypes.Float16, "f"},
		{arrow.FixedWidthTypes.Duration_ms, "f"},
		{arrow.FixedWidthTypes.Time32ms, "f"},
		{arrow.FixedWidthTypes.MonthInterval, "f"},
		{arrow.Null, "f"},
		{arrow.BinaryTypes.StringView, "f"},
		{&arrow.Decimal256Type{Precision: 50, Scale: 2}, "f"},
		{&arrow.Decimal128Type{Precision: 10, Scale: 12}, "f"},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, "f"},
		{arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), "f"},
		{arrow.StructOf(arrow.Field{Name: "inner", Type: arrow.PrimitiveTypes.Uint64}), "f.inner"},
		{arrow.ListOf(arrow.FixedWidthTypes.Float16), "f.item"},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.Null), "f.value"},
		{arrow.DenseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}, {Name: "b", Type: arrow.FixedWidthTypes.Duration_s}}, []arrow.UnionTypeCode{0, 1}), "f.b"},
	}
	for _, c := range cases {
		s := arrow.NewSchema([]arrow.Field{{Name: "f", Type: c.typ, Nullable: true}}, nil)
		_, err := orcarrow.ORCSchema(s)
		if !errors.Is(err, orcarrow.ErrUnsupportedType) || !strings.Contains(err.Error(), `"`+c.path+`"`) {
			t.Errorf("%s: got %v, want an ErrUnsupportedType naming %q", c.typ, err, c.path)
		}
		if _, err := orcarrow.NewWriter(&bytes.Buffer{}, s); err == nil {
			t.Errorf("%s: NewWriter accepted it", c.typ)
		}
	}
}

// TestWriteMisuse checks the errors of a Writer given the wrong records.
func TestWriteMisuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	var buf bytes.Buffer
	w, err := orcarrow.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(nil); err == nil {
		t.Fatal("nil record accepted")
	}
	other := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	a := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1]`)
	defer a.Release()
	rec := array.NewRecordBatch(other, []arrow.Array{a}, 1)
	defer rec.Release()
	if err := w.Write(rec); err == nil || !strings.Contains(err.Error(), "int64") {
		t.Fatalf("wrong record type: got %v", err)
	}
	// a decimal beyond its precision: the ORC writer refuses it, naming the column
	ds := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.Decimal128Type{Precision: 3, Scale: 1}, Nullable: true}}, nil)
	dw, err := orcarrow.NewWriter(&bytes.Buffer{}, ds)
	if err != nil {
		t.Fatal(err)
	}
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 3, Scale: 1})
	db.Append(decimal128.FromI64(12345))
	da := db.NewArray()
	db.Release()
	defer da.Release()
	drec := array.NewRecordBatch(ds, []arrow.Array{da}, 1)
	defer drec.Release()
	if err := dw.Write(drec); err == nil || !strings.Contains(err.Error(), "d") {
		t.Fatalf("decimal beyond precision: got %v", err)
	}
	if err := w.AddUserMetadata("k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err == nil {
		t.Fatal("write after close accepted")
	}
	md := openORC(t, buf.Bytes()).UserMetadata()
	if len(md) != 1 || md[0].Key != "k" || string(md[0].Value) != "v" {
		t.Fatalf("user metadata %v", md)
	}
}

// TestMalformedInput checks that inconsistent input is an error, not a panic.
func TestMalformedInput(t *testing.T) {
	// a string array whose offsets go backwards (arrow-go panics itself on
	// offsets past the data)
	offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 4, 2}))
	data := memory.NewBufferBytes([]byte("abcd"))
	d := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil, offs, data}, nil, 0, 0)
	a := array.MakeFromData(d)
	d.Release()
	defer a.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := array.NewRecordBatch(s, []arrow.Array{a}, 2)
	defer rec.Release()
	w, err := orcarrow.NewWriter(&bytes.Buffer{}, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err == nil || !strings.Contains(err.Error(), "column s") {
		t.Fatalf("got %v, want an error naming s", err)
	}

	// a batch whose list offsets point past the elements
	os := orc.MustParseSchema("struct<l:array<int>>")
	b := orc.NewBatch(os, 2)
	lv := b.Cols[0].(*orc.ListVector)
	lv.Offsets = []int64{0, 5, 9}
	lv.Elem.(*orc.LongVector).Values = []int64{1, 2}
	b.NumRows = 2
	if _, err := orcarrow.Convert(os, b, nil); err == nil {
		t.Fatal("inconsistent batch accepted")
	}
	sb := orc.NewBatch(orc.MustParseSchema("struct<s:string>"), 2)
	sv := sb.Cols[0].(*orc.BytesVector)
	sv.Offsets, sv.Data = []int{0, 9, 3}, []byte("abc")
	sb.NumRows = 2
	if _, err := orcarrow.Convert(sb.Schema, sb, nil); err == nil {
		t.Fatal("inconsistent strings accepted")
	}
}
