package rowfmt

import (
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions("CSV", "Europe/Paris")
	if err != nil || o.Format != CSV || o.Zone.String() != "Europe/Paris" {
		t.Errorf("CSV, Europe/Paris: %+v %v", o, err)
	}
	if o, err := ParseOptions("json", ""); err != nil || o.Zone != time.UTC {
		t.Errorf("json: %+v %v", o, err)
	}
	if _, err := ParseOptions("xml", "UTC"); err == nil || !strings.Contains(err.Error(), `--format "xml": want json, csv, tsv or table`) {
		t.Errorf("xml: %v", err)
	}
	if _, err := ParseOptions("json", "Mars/Base"); err == nil || !strings.Contains(err.Error(), `--timezone "Mars/Base"`) {
		t.Errorf("Mars/Base: %v", err)
	}
}

// Each format prints a row with a null, a quote and a tab; a formatter
// given no row prints the header of CSV, TSV and a table.
func TestFormats(t *testing.T) {
	s := orc.MustParseSchema("struct<n:int,s:string>")
	b := orc.NewBatch(s, 2)
	b.Cols[0].(*orc.LongVector).Append(1)
	b.Cols[1].(*orc.BytesVector).AppendString("a\t\"b\"")
	b.Cols[0].(*orc.LongVector).AppendNull()
	b.Cols[1].(*orc.BytesVector).AppendString("")
	b.NumRows = 2
	for format, want := range map[string]string{
		JSON:  "{\"n\": 1, \"s\": \"a\\t\\\"b\\\"\"}\n{\"n\": null, \"s\": \"\"}\n",
		CSV:   "n,s\n1,\"a\t\"\"b\"\"\"\n,\"\"\n",
		TSV:   "n\ts\n1\ta\\t\"b\"\n\\N\t\n",
		Table: "   n  s\n----  -----\n   1  a·\"b\"\nnull  \n",
	} {
		f := New(Options{Format: format}, s)
		var out []byte
		rows := 0
		for i := 0; i < b.NumRows; i++ {
			var n int
			out, n = f.Add(out, b, i)
			rows += n
		}
		out, n := f.Flush(out)
		if rows+n != 2 || string(out) != want {
			t.Errorf("%s: %d rows\n%q\nwant\n%q", format, rows+n, out, want)
		}
		empty, _ := New(Options{Format: format}, s).Flush(nil)
		if (format != JSON) != (len(empty) > 0) {
			t.Errorf("%s of no rows: %q", format, empty)
		}
	}
}

// Every format prints a batch with a selection as the batch its selection
// makes (Batch.Compact), and a projection (Project) of it as the same
// batch cut to the fields asked.
func TestSelectionAndProjection(t *testing.T) {
	s := orc.MustParseSchema("struct<n:int,p:struct<a:string,b:double>,s:string>")
	b := orc.NewBatch(s, 6)
	st := b.Cols[1].(*orc.StructVector)
	for i := range 6 {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		st.Fields[0].(*orc.BytesVector).AppendString(string(rune('a' + i)))
		st.Fields[1].(*orc.DoubleVector).Append(float64(i) / 2)
		st.N++
		b.Cols[2].(*orc.BytesVector).AppendString(strings.Repeat("x", i))
	}
	b.NumRows = 6
	fields := []Field{{Index: 2}, {Index: 1, Sub: []Field{{Index: 1}}}}
	print := func(b *orc.Batch, f string) string {
		fm := New(Options{Format: f, Zone: time.UTC}, b.Schema)
		var out []byte
		for i := range b.NumRows {
			out, _ = fm.Add(out, b, i)
		}
		out, _ = fm.Flush(out)
		return string(out)
	}
	for _, f := range []string{JSON, CSV, TSV, Table} {
		sel := *b
		sel.Selected, sel.NumRows = []int32{1, 4, 5}, 3
		var view orc.Batch
		Project(&view, &sel, fields)
		got, gotView := print(&sel, f), print(&view, f)
		sel.Compact()
		var dense orc.Batch
		Project(&dense, &sel, fields)
		if want := print(&sel, f); got != want {
			t.Errorf("format %s, a selection:\n got %s\nwant %s", f, got, want)
		}
		if want := print(&dense, f); gotView != want {
			t.Errorf("format %s, a projection of a selection:\n got %s\nwant %s", f, gotView, want)
		}
		// Compact moved b's rows in place: make them again.
		b = orc.NewBatch(s, 6)
		st = b.Cols[1].(*orc.StructVector)
		for i := range 6 {
			b.Cols[0].(*orc.LongVector).Append(int64(i))
			st.Fields[0].(*orc.BytesVector).AppendString(string(rune('a' + i)))
			st.Fields[1].(*orc.DoubleVector).Append(float64(i) / 2)
			st.N++
			b.Cols[2].(*orc.BytesVector).AppendString(strings.Repeat("x", i))
		}
		b.NumRows = 6
	}
}
