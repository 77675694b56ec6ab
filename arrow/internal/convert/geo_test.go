package convert_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/arrow/internal/convert"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
)

var geoWKTs = []string{
	"POINT (1 2)",
	"",
	"LINESTRING Z (0 0 5, 10 -3 7)",
	"POINT EMPTY",
	"MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
	"GEOMETRYCOLLECTION M (POINT M (3 4 9), LINESTRING M EMPTY)",
}

func appendWKT(t *testing.T, v *orc.BytesVector, w string) {
	t.Helper()
	if w == "" {
		v.AppendNull()
		return
	}
	b, err := geo.AppendWKB(nil, w)
	if err != nil {
		t.Fatal(err)
	}
	v.Append(b)
}

// orcRows returns a file's schema and rows as testutil prints them.
func orcRows(t *testing.T, data []byte) (*orc.Schema, []string) {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var rows []string
	for br.Next(b) == nil {
		for _, row := range testutil.Rows(r.Schema(), b, false) {
			rows = append(rows, fmt.Sprint(row))
		}
	}
	return r.Schema(), rows
}

// parquetColumns returns each leaf column's path and logical type.
func parquetColumns(t *testing.T, data []byte) []string {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var cols []string
	sc := pf.MetaData().Schema
	for i := range sc.NumColumns() {
		c := sc.Column(i)
		cols = append(cols, c.Path()+" "+c.LogicalType().String())
	}
	return cols
}

// TestGeoBothWays converts geometry and geography columns, top-level and
// nested, to Parquet's GEOMETRY and GEOGRAPHY logical types and back to the
// same ORC types and WKB values.
func TestGeoBothWays(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry(EPSG:4326),h:geography(OGC:CRS84,karney),p:geometry," +
		"n:struct<q:geography,r:int>,l:array<geometry(EPSG:3857)>,m:map<string,geometry>>")
	b := orc.NewBatch(s, len(geoWKTs))
	n := b.Cols[4].(*orc.StructVector)
	l := b.Cols[5].(*orc.ListVector)
	m := b.Cols[6].(*orc.MapVector)
	l.Offsets, m.Offsets = append(l.Offsets[:0], 0), append(m.Offsets[:0], 0)
	n.N = len(geoWKTs)
	for i, w := range geoWKTs {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		for c := 1; c <= 3; c++ {
			appendWKT(t, b.Cols[c].(*orc.BytesVector), w)
		}
		appendWKT(t, n.Fields[0].(*orc.BytesVector), w)
		n.Fields[1].(*orc.LongVector).Append(int64(i))
		for j := 0; j <= i%3; j++ {
			appendWKT(t, l.Elem.(*orc.BytesVector), geoWKTs[(i+j)%len(geoWKTs)])
		}
		l.Offsets = append(l.Offsets, int64(l.Elem.Len()))
		m.Keys.(*orc.BytesVector).AppendString(fmt.Sprint("k", i))
		appendWKT(t, m.Values.(*orc.BytesVector), w)
		m.Offsets = append(m.Offsets, int64(m.Keys.Len()))
	}
	b.NumRows = len(geoWKTs)
	data := writeORC(t, s, []*orc.Batch{b})
	_, want := orcRows(t, data)

	var pq bytes.Buffer
	if _, err := convert.ORCToParquet(bytes.NewReader(data), int64(len(data)), &pq,
		convert.ToParquet{Codec: "zstd", RowGroup: 4, BatchSize: 4}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(parquetColumns(t, pq.Bytes()), "\n")
	for _, c := range []string{
		"g Geometry(crs=EPSG:4326)",
		"h Geography(crs=OGC:CRS84, algorithm=karney)",
		"p Geometry\n",
		"n.q Geography(crs=OGC:CRS84, algorithm=spherical)",
		"l.list.element Geometry(crs=EPSG:3857)",
		"m.key_value.value Geometry\n",
	} {
		if !strings.Contains(got+"\n", c) {
			t.Errorf("Parquet columns lack %q:\n%s", c, got)
		}
	}

	var back bytes.Buffer
	if _, err := convert.ParquetToORC(bytes.NewReader(pq.Bytes()), &back, convert.ToORC{Codec: "zstd", BatchSize: 3}); err != nil {
		t.Fatal(err)
	}
	s2, rows := orcRows(t, back.Bytes())
	if s2.String() != s.String() {
		t.Errorf("schema back\n got %s\nwant %s", s2, s)
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows back\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// TestGeoFromForeignParquet reads GEOMETRY and GEOGRAPHY columns of a
// Parquet file that stores no Arrow schema, as other writers make them.
func TestGeoFromForeignParquet(t *testing.T) {
	fields := schema.FieldList{
		schema.MustPrimitive(schema.NewPrimitiveNodeLogical("g", parquet.Repetitions.Optional,
			schema.GeometryLogicalType{Crs: "EPSG:3857"}, parquet.Types.ByteArray, -1, -1)),
		schema.MustPrimitive(schema.NewPrimitiveNodeLogical("h", parquet.Repetitions.Required,
			schema.GeographyLogicalType{Algorithm: schema.GeographyEdgeVincenty}, parquet.Types.ByteArray, -1, -1)),
	}
	root := schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1))
	var pq bytes.Buffer
	w := file.NewParquetWriter(&pq, root)
	rg, err := w.AppendRowGroupChecked()
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := geo.AppendWKB(nil, "POINT (3 4)")
	ls, _ := geo.AppendWKB(nil, "LINESTRING (0 0, 1 1)")
	cw, _ := rg.NextColumn()
	if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch([]parquet.ByteArray{pt, ls}, []int16{1, 0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	cw.Close()
	cw, _ = rg.NextColumn()
	if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch([]parquet.ByteArray{ls, pt, pt}, nil, nil); err != nil {
		t.Fatal(err)
	}
	cw.Close()
	rg.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if _, err := convert.ParquetToORC(bytes.NewReader(pq.Bytes()), &out, convert.ToORC{Codec: "none", BatchSize: 10}); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Schema().String(), "struct<g:geometry(EPSG:3857),h:geography(OGC:CRS84,vincenty)>"; got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	bt := br.NewBatch()
	if err := br.Next(bt); err != nil || bt.NumRows != 3 {
		t.Fatalf("%d rows, %v", bt.NumRows, err)
	}
	var got []string
	for c := range 2 {
		v := bt.Cols[c].(*orc.BytesVector)
		for i := range 3 {
			if v.IsNull(i) {
				got = append(got, "null")
			} else {
				got = append(got, hex.EncodeToString(v.Get(i)))
			}
		}
	}
	want := []string{hex.EncodeToString(pt), "null", hex.EncodeToString(ls), hex.EncodeToString(ls), hex.EncodeToString(pt), hex.EncodeToString(pt)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("values\n got %s\nwant %s", got, want)
	}
	// The statistics are the writer's own, computed from the values.
	st, ok := r.Statistics(1)
	if !ok || st.Geo == nil || !st.Geo.Box.HasXY() || st.Geo.Box.Min[0] != 0 || st.Geo.Box.Max[1] != 4 {
		t.Fatalf("geometry statistics %+v", st.Geo)
	}
}
