package ingest

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// nestedSchema has every kind, nested.
const nestedSchema = "struct<id:bigint,name:string,flag:boolean,tags:array<string>,attrs:map<string,int>," +
	"loc:struct<lat:double,lon:float>,u:uniontype<int,string,array<tinyint>>,price:decimal(20,4),ts:timestamp," +
	"d:date,bin:binary,items:array<struct<sku:varchar(10),qty:smallint,cost:decimal(38,10)>>," +
	"nest:map<string,array<map<int,string>>>>"

// nestedRows are in the exact forms orc cat prints.
var nestedRows = []string{
	`{"id": 1, "name": "alpha", "flag": true, "tags": ["a", "b"], "attrs": [{"key": "x", "value": 1}, {"key": "y", "value": null}], "loc": {"lat": 52.52, "lon": 13.405}, "u": {"tag": 0, "value": 42}, "price": 1234.5000, "ts": "2024-02-29 12:34:56.123456789", "d": "2024-02-29", "bin": [0, 1, 255], "items": [{"sku": "s1", "qty": 2, "cost": 0.1000000000}], "nest": [{"key": "k", "value": [[{"key": 1, "value": "one"}], []]}]}`,
	`{"id": -9223372036854775808, "name": "", "flag": false, "tags": [], "attrs": [], "loc": null, "u": {"tag": 1, "value": "s"}, "price": -0.0001, "ts": "1969-12-31 23:59:58.9", "d": "1969-12-31", "bin": [], "items": [], "nest": []}`,
	`{"id": null, "name": null, "flag": null, "tags": null, "attrs": null, "loc": {"lat": null, "lon": -1.5}, "u": null, "price": null, "ts": null, "d": null, "bin": null, "items": null, "nest": null}`,
	`{"id": 9223372036854775807, "name": "\"quoted\" \\ ünï", "flag": true, "tags": [null, "c"], "attrs": [{"key": "z", "value": -2147483648}], "loc": {"lat": 1e-300, "lon": 3.4028235e+38}, "u": {"tag": 2, "value": [1, null, -128]}, "price": 9999999999999999.9999, "ts": "2038-01-19 03:14:08.0", "d": "9999-12-31", "bin": [10], "items": [{"sku": null, "qty": null, "cost": null}, null, {"sku": "s2", "qty": -32768, "cost": 1234567890123456789012345678.0123456789}], "nest": [{"key": "a", "value": null}, {"key": "b", "value": [null, [{"key": 2, "value": null}]]}]}`,
	`{"id": 5, "name": "tab\tnewline\n", "flag": false, "tags": ["x"], "attrs": [{"key": "w", "value": 0}], "loc": {"lat": -0.5, "lon": 0}, "u": {"tag": 1, "value": ""}, "price": 0.0000, "ts": "1900-01-01 00:00:00.000001", "d": "0001-01-01", "bin": [128], "items": [null], "nest": [{"key": "c", "value": []}]}`,
}

// FuzzJSONRow feeds arbitrary lines to the JSON reader of a nested schema:
// no panic, and whatever it accepts makes a batch the writer takes.
func FuzzJSONRow(f *testing.F) {
	for _, r := range nestedRows {
		f.Add(r)
	}
	f.Add(`{"u": {"tag": 2, "value": [1]}, "nest": [{"key": "a", "value": [null]}]}`)
	f.Add(`{"bin": [1, 2, 300]}`)
	f.Add(`{"items": [{"sku": "x"}, null, {"qty": "7"}]}`)
	f.Add("{\"loc\": {}}\n\n{\"loc\": null}")
	schema := orc.MustParseSchema(nestedSchema)
	f.Fuzz(func(t *testing.T, text string) {
		batch := orc.NewBatch(schema, 4)
		rb := newRowBuilder(batch, time.UTC)
		src := newJSONSource(bufio.NewReader(strings.NewReader(text)), rb)
		for batch.NumRows < 64 {
			ok, err := src.next()
			if err != nil || !ok {
				break
			}
			batch.NumRows++
		}
		w, err := writer.NewWriter(io.Discard, schema)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(batch); err != nil {
			t.Fatalf("writer refused a batch the JSON reader built: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
