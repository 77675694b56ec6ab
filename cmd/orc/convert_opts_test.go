package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// convert's text options: --null, booleans 1/0/yes/no, RFC 3339 and
// --timestamp-format timestamps, JSON objects for maps, and decimals whose
// text has more digits than 128 bits although the value fits.
func TestConvertTextOptions(t *testing.T) {
	dir := t.TempDir()
	check := func(name, schema, input, want string, flags ...string) {
		t.Helper()
		in := writeFile(t, dir, name, input)
		out := filepath.Join(dir, name+".orc")
		mustConvert(t, append(append([]string{"--schema", schema, "--overwrite"}, flags...), in, out)...)
		if got, w := catValues(t, out), parseLines(t, want); !reflect.DeepEqual(got, w) {
			t.Errorf("%s: got\n%v\nwant\n%v", name, got, w)
		}
	}
	check("dec.csv", "struct<a:decimal(38,0),b:decimal(5,2)>",
		"99999999999999999999999999999999999999.0,0001.50\n-99999999999999999999999999999999999999.000000,-00.0\n",
		`{"a": 99999999999999999999999999999999999999, "b": 1.50}
{"a": -99999999999999999999999999999999999999, "b": 0.00}`)
	check("bool.csv", "struct<a:boolean>", "1\n0\nyes\nNO\nTrue\n", "{\"a\": true}\n{\"a\": false}\n{\"a\": true}\n{\"a\": false}\n{\"a\": true}")
	check("bool.jsonl", "struct<a:boolean>", `{"a": 1}`+"\n"+`{"a": "no"}`+"\n"+`{"a": true}`, "{\"a\": true}\n{\"a\": false}\n{\"a\": true}")
	check("null.csv", "struct<a:int,s:string>", "\\N,\\N\n,\n7,x\n", `{"a": null, "s": null}
{"a": null, "s": ""}
{"a": 7, "s": "x"}`, "--null", `\N`)
	check("nonull.csv", "struct<a:int,s:string>", ",\n", `{"a": null, "s": null}`)
	check("null.jsonl", "struct<s:string>", `{"s": "NULL"}`+"\n"+`{"s": "x"}`, "{\"s\": null}\n{\"s\": \"x\"}", "--null", "NULL")
	check("rfc.csv", "struct<t:timestamp,i:timestamp with local time zone>",
		"2024-03-10T01:30:00Z,2024-03-10T01:30:00Z\n2024-03-10T07:00:00.25+05:30,2024-03-10 01:30:00\n",
		`{"t": "2024-03-10 01:30:00.0", "i": "2024-03-10 01:30:00.0+00:00"}
{"t": "2024-03-10 01:30:00.25", "i": "2024-03-10 01:30:00.0+00:00"}`)
	check("rfcny.csv", "struct<t:timestamp>", "2024-03-10T06:30:00Z\n2024-03-10 01:30:00\n",
		"{\"t\": \"2024-03-10 01:30:00.0\"}\n{\"t\": \"2024-03-10 01:30:00.0\"}", "--timezone", "America/New_York")
	check("layout.csv", "struct<t:timestamp>", "03/10/2024 01:30\n12/31/1969 23:59\n",
		"{\"t\": \"2024-03-10 01:30:00.0\"}\n{\"t\": \"1969-12-31 23:59:00.0\"}", "--timestamp-format", "01/02/2006 15:04")
	check("layoutz.csv", "struct<t:timestamp>", "10 Mar 24 06:30 UTC\n",
		"{\"t\": \"2024-03-10 01:30:00.0\"}", "--timestamp-format", time.RFC822, "--timezone", "America/New_York")
	check("map.jsonl", "struct<m:map<string,int>,n:map<int,string>>",
		`{"m": {"b": 2, "a": 1}, "n": {"10": "x", "-1": null}}`+"\n"+`{"m": {}, "n": [{"key": 3, "value": "y"}]}`,
		`{"m": [{"key": "a", "value": 1}, {"key": "b", "value": 2}], "n": [{"key": -1, "value": null}, {"key": 10, "value": "x"}]}
{"m": [], "n": [{"key": 3, "value": "y"}]}`)

	for _, c := range []struct {
		name, schema, input string
		flags               []string
		want                string
	}{
		{"bad layout", "struct<t:timestamp>", "x\n", []string{"--timestamp-format", "hh:mm"}, "--timestamp-format"},
		{"layout mismatch", "struct<t:timestamp>", "2024-03-10 01:30:00\n", []string{"--timestamp-format", "01/02/2006"}, `want the form "01/02/2006"`},
		{"bad rfc", "struct<t:timestamp>", "2024-03-10T01:30:00+25:00\n", nil, "RFC 3339"},
		{"decimal too big", "struct<a:decimal(38,0)>", "999999999999999999999999999999999999999.0\n", nil, "does not fit"},
		{"map object keys", "struct<m:map<struct<a:int>,int>>", `{"m": {"x": 1}}`, nil, "cannot hold the keys"},
	} {
		ext := ".csv"
		if strings.HasPrefix(c.input, "{") {
			ext = ".jsonl"
		}
		in := writeFile(t, dir, "bad"+ext, c.input)
		_, err := convert(t, append(append([]string{"--schema", c.schema, "--overwrite"}, c.flags...), in, filepath.Join(dir, "bad.orc"))...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
