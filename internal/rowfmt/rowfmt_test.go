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
