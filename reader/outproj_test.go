package reader_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// outProjFile writes rows id, sym, price (decimal) and s{a, b}, with small
// row groups, for the tests of what a projection with a predicate returns.
func outProjFile(t *testing.T) *reader.Reader {
	t.Helper()
	s, err := orc.ParseSchema("struct<id:bigint,sym:string,price:decimal(10,2),s:struct<a:int,b:int>>")
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	b := orc.NewBatch(s, n)
	id, sym := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector)
	price, st := b.Cols[2].(*orc.DecimalVector), b.Cols[3].(*orc.StructVector)
	a, bb := st.Fields[0].(*orc.LongVector), st.Fields[1].(*orc.LongVector)
	for i := range n {
		id.Append(int64(i))
		sym.AppendString(fmt.Sprintf("s%03d", i%97))
		price.Append(orc.Int128FromInt64(int64(i * 7 % 10007)))
		a.Append(int64(i % 13))
		if i%11 == 0 {
			bb.AppendNull()
		} else {
			bb.Append(int64(i))
		}
	}
	st.N = n
	b.NumRows = n
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(7000))
	return r
}

// TestProjectionLeavesOutPredicateColumns: a scan with WithColumns and a
// search argument on other columns returns batches of exactly the named
// columns, whatever the scan's shape, with the rows the predicate keeps.
func TestProjectionLeavesOutPredicateColumns(t *testing.T) {
	r := outProjFile(t)
	full := rowsAsMaps(t, r)
	cases := []struct {
		cols   []string
		where  string
		schema string
		keep   func(m map[string]any) bool
	}{
		{[]string{"id", "price"}, "sym = 's005'", "struct<id:bigint,price:decimal(10,2)>",
			func(m map[string]any) bool { return m["sym"] == "s005" }},
		{[]string{"price", "id"}, "sym = 's005' AND id < 9000", "struct<price:decimal(10,2),id:bigint>",
			func(m map[string]any) bool { return m["sym"] == "s005" && m["id"].(float64) < 9000 }},
		{[]string{"s.a"}, "s.b > 15000", "struct<s:struct<a:int>>",
			func(m map[string]any) bool {
				v := m["s"].(map[string]any)["b"]
				return v != nil && v.(float64) > 15000
			}},
		{[]string{"sym", "s.b"}, "s.a = 3 AND id >= 100", "struct<sym:string,s:struct<b:int>>",
			func(m map[string]any) bool {
				return m["s"].(map[string]any)["a"].(float64) == 3 && m["id"].(float64) >= 100
			}},
	}
	shapes := []struct {
		name string
		opts []reader.ScanOption
	}{
		{"serial", nil},
		{"parallel", []reader.ScanOption{reader.WithParallelism(2)}},
		{"small batches", []reader.ScanOption{reader.WithBatchSize(100)}},
		{"read schema", []reader.ScanOption{reader.WithReadSchema(orc.MustParseSchema(
			"struct<id:bigint,sym:string,price:decimal(12,2),s:struct<a:bigint,b:bigint>>"))}},
	}
	for _, c := range cases {
		e, err := sarg.Parse(c.where)
		if err != nil {
			t.Fatal(err)
		}
		var want []map[string]any
		for _, m := range full {
			if c.keep(m) {
				want = append(want, project(m, c.cols))
			}
		}
		for _, sh := range shapes {
			name := fmt.Sprintf("%v where %s, %s", c.cols, c.where, sh.name)
			opts := append([]reader.ScanOption{reader.WithColumns(c.cols...), reader.WithSearchArgument(e),
				reader.WithExactFilter(true)}, sh.opts...)
			br, err := r.NewBatchReader(opts...)
			if err != nil {
				t.Fatal(name, err)
			}
			schema := c.schema
			if sh.name == "read schema" {
				schema = evolvedSchema(c.schema)
			}
			if got := br.Schema().String(); got != schema {
				t.Errorf("%s: schema %s, want %s", name, got, schema)
			}
			br.Close()
			got := rowsAsMaps(t, r, opts...)
			if len(got) != len(want) || len(want) == 0 {
				t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(jsonNumbers(got[i]), jsonNumbers(want[i])) {
					t.Fatalf("%s: row %d = %v, want %v", name, i, got[i], want[i])
				}
			}
		}
	}
}

// evolvedSchema is schema with the read schema's wider types.
func evolvedSchema(s string) string {
	out := orc.MustParseSchema(s)
	out.Walk(func(n *orc.Schema) {
		switch n.Kind {
		case orc.Int:
			n.Kind = orc.Long
		case orc.Decimal:
			n.Precision = 12
		}
	})
	return out.String()
}

// project keeps the fields of m that the column paths name, nested.
func project(m map[string]any, cols []string) map[string]any {
	out := map[string]any{}
	for _, c := range cols {
		path := splitDots(c)
		src, dst := m, out
		for i, p := range path {
			if i == len(path)-1 {
				dst[p] = src[p]
				break
			}
			if dst[p] == nil {
				dst[p] = map[string]any{}
			}
			src, dst = src[p].(map[string]any), dst[p].(map[string]any)
		}
	}
	return out
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// jsonNumbers re-encodes v so numbers written as 5 and "5.00" compare by
// their JSON text.
func jsonNumbers(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestPredicateNamesIgnoreCase: a predicate's column names resolve as the
// row API's fields do (exact, else the one equal ignoring case), on the
// file's schema and through a read schema.
func TestPredicateNamesIgnoreCase(t *testing.T) {
	r := outProjFile(t)
	for _, opts := range [][]reader.ScanOption{nil, {reader.WithReadSchema(orc.MustParseSchema(
		"struct<ID:bigint,Sym:string,price:decimal(12,2),s:struct<a:bigint,b:bigint>>"))}} {
		for _, where := range []string{"ID = 4242", "Id = 4242 AND S.B > 0", "sym = 's071' AND ID = 4242"} {
			rows := rowsAsMaps(t, r, append([]reader.ScanOption{reader.WithSearchArgument(sarg.MustParse(where))}, opts...)...)
			if len(rows) != 1 {
				t.Fatalf("%s (read schema %v): %d rows, want 1", where, opts != nil, len(rows))
			}
		}
	}
}

// TestColumnsInOrderAsked: WithColumns gives the top-level columns in the
// order first named, without a search argument too, serially and in
// parallel, through a read schema, and with the same values as the file's
// order; a nested name places its top-level column.
func TestColumnsInOrderAsked(t *testing.T) {
	r := outProjFile(t)
	full := rowsAsMaps(t, r)
	for _, c := range []struct {
		cols   []string
		schema string
	}{
		{[]string{"price", "sym", "id"}, "struct<price:decimal(10,2),sym:string,id:bigint>"},
		{[]string{"s.b", "id", "s.a"}, "struct<s:struct<a:int,b:int>,id:bigint>"},
		{[]string{"id", "price"}, "struct<id:bigint,price:decimal(10,2)>"},
	} {
		var want []map[string]any
		for _, m := range full {
			want = append(want, project(m, c.cols))
		}
		for _, sh := range []struct {
			name string
			opts []reader.ScanOption
		}{
			{"serial", nil},
			{"parallel", []reader.ScanOption{reader.WithParallelism(2)}},
			{"read schema", []reader.ScanOption{reader.WithReadSchema(orc.MustParseSchema(
				"struct<id:bigint,sym:string,price:decimal(12,2),s:struct<a:bigint,b:bigint>>"))}},
		} {
			opts := append([]reader.ScanOption{reader.WithColumns(c.cols...)}, sh.opts...)
			br, err := r.NewBatchReader(opts...)
			if err != nil {
				t.Fatal(err)
			}
			schema := c.schema
			if sh.name == "read schema" {
				schema = evolvedSchema(schema)
			}
			if got := br.Schema().String(); got != schema {
				t.Errorf("%v, %s: schema %s, want %s", c.cols, sh.name, got, schema)
			}
			br.Close()
			got := rowsAsMaps(t, r, opts...)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v, %s: %d rows differ from the file's, %d", c.cols, sh.name, len(got), len(want))
			}
		}
	}
}
