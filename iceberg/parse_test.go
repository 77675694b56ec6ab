package iceberg

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
)

func TestSchemaFromText(t *testing.T) {
	s, err := SchemaFromText("struct<id:bigint,loc:struct<lat:double,lon:double>,tags:array<string>,m:map<string,int>,d:decimal(9,2),ts:timestamp,b:tinyint>")
	if err != nil {
		t.Fatal(err)
	}
	want := "table {\n\t1: id: optional long\n\t2: loc: optional struct<8: lat: optional double, 9: lon: optional double>\n" +
		"\t3: tags: optional list<string>\n\t4: m: optional map<string, int>\n\t5: d: optional decimal(9, 2)\n" +
		"\t6: ts: optional timestamp\n\t7: b: optional int\n}"
	if s.String() != want {
		t.Errorf("schema:\n%s\nwant\n%s", s, want)
	}
	j, err := SchemaFromText(`{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"s","required":false,"type":"string"}]}`)
	if err != nil || len(j.Fields()) != 2 || !j.Fields()[0].Required || j.Fields()[1].Required {
		t.Errorf("JSON schema: %v %v", j, err)
	}
	for _, bad := range []string{"struct<id:bigint", "int", "struct<>", `{"type":"struct","fields":[]}`, `{"type":`, "struct<u:uniontype<int,string>>"} {
		if _, err := SchemaFromText(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestParsePartitionSpec(t *testing.T) {
	s := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64},
		ice.NestedField{ID: 2, Name: "ts", Type: ice.PrimitiveTypes.Timestamp},
		ice.NestedField{ID: 3, Name: "s", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 4, Name: "st", Type: &ice.StructType{FieldList: []ice.NestedField{{ID: 5, Name: "d", Type: ice.PrimitiveTypes.Date}}}},
	)
	spec, err := ParsePartitionSpec(s, " day(ts), bucket(16, id) ,truncate(s, 3),s, months(st.d), void(id)")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range spec.Fields() {
		got = append(got, f.Name+"="+f.Transform.String())
	}
	if want := "ts_day=day id_bucket=bucket[16] s_trunc=truncate[3] s=identity st_d_month=month id_null=void"; strings.Join(got, " ") != want {
		t.Errorf("spec %s, want %s", strings.Join(got, " "), want)
	}
	if spec, err := ParsePartitionSpec(s, ""); err != nil || !spec.IsUnpartitioned() {
		t.Errorf("empty: %v %v", spec, err)
	}
	for bad, want := range map[string]string{
		"day(nope)":        `the schema has no column "nope"`,
		"hour(id)":         "hour cannot partition column id of type long",
		"bucket(0,id)":     "bucket needs a positive whole number",
		"bucket(id)":       "bucket takes a number and a column",
		"day(ts":           "unbalanced parentheses",
		"day(ts),,id":      "an empty item",
		"minute(ts)":       `unknown transform "minute"`,
		"day(ts),day(ts)":  "partition spec",
		"truncate(x, y)":   "truncate needs a positive whole number",
		"day(ts)x":         "no closing parenthesis",
		"year(ts, id)":     "year takes one column",
		"identity(s, id)":  "identity takes one column",
		"bucket(2, 3, id)": "bucket takes a number and a column",
	} {
		if _, err := ParsePartitionSpec(s, bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
}

func TestParseMetricsModes(t *testing.T) {
	s := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64},
		ice.NestedField{ID: 2, Name: "st", Type: &ice.StructType{FieldList: []ice.NestedField{{ID: 3, Name: "d", Type: ice.PrimitiveTypes.String}}}},
	)
	p, err := ParseMetricsModes(s, "default=Truncate(8), id=none,st.d=full")
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 3 || p[PropMetricsDefault] != "truncate(8)" || p[PropMetricsColumnPrefix+"id"] != "none" || p[PropMetricsColumnPrefix+"st.d"] != "full" {
		t.Errorf("properties %v", p)
	}
	for bad, want := range map[string]string{
		"id":                   "want default=MODE or column=MODE",
		"nope=none":            `the schema has no column "nope"`,
		"id=truncate(-1)":      "the length must be positive",
		"id=some":              `"some" is not none, counts, truncate(n) or full`,
		"id=none,id=full":      "id is given twice",
		"default=none,=counts": "want default=MODE",
	} {
		if _, err := ParseMetricsModes(s, bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
}

// A null in a required column is refused, naming it; Abort removes every
// file the writer made, finished or open.
func TestTableWriterRequiredAndAbort(t *testing.T) {
	ctx := context.Background()
	cat, dir := newCatalog(t)
	ident := createEvents(t, cat)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := NewTableWriter(ctx, tbl, 1) // every write finishes its files
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Write(eventsBatch(tw.Schema(), 0, 30)); err != nil {
		t.Fatal(err)
	}
	b := eventsBatch(tw.Schema(), 30, 3)
	b.Cols[0].(*orc.LongVector).Nulls.Nulls = []bool{false, true, false}
	if err := tw.Write(b); err == nil || err.Error() != "iceberg: required column id is null in row 2 of the batch" {
		t.Errorf("a null id: %v", err)
	}
	dataDir := filepath.Join(dir, "warehouse", "db.db", "events", "data")
	if files, err := os.ReadDir(dataDir); err != nil || len(files) == 0 {
		t.Fatalf("no data files before Abort: %v", err)
	}
	if err := tw.Abort(); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dataDir); len(files) != 0 {
		t.Errorf("%d files left after Abort", len(files))
	}
	if _, err := tw.Close(); err == nil {
		t.Error("Close after Abort: no error")
	}
	if tbl2, _ := cat.LoadTable(ctx, ident); tbl2.CurrentSnapshot() != nil {
		t.Error("a snapshot after Abort")
	}
}
