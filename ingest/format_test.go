package ingest

import (
	"strings"
	"testing"
)

// TestInputFormat: the flag first, any case; else the extension; standard
// input and an unknown extension are errors saying to give --format.
func TestInputFormat(t *testing.T) {
	for _, c := range []struct{ flag, path, want, err string }{
		{"CSV", "a.json", "csv", ""},
		{"ndjson", "a", "json", ""},
		{"jsonl", "-", "json", ""},
		{"", "dir/a.ORC", "orc", ""},
		{"", "a.jsonl", "json", ""},
		{"", "a.csv", "csv", ""},
		{"xml", "a.csv", "", `--format "xml": want csv, json or orc`},
		{"", "-", "", "standard input (-) needs --format"},
		{"", "in.parquet", "", "in.parquet: not .csv, .json, .jsonl, .ndjson or .orc: give --format"},
	} {
		got, err := InputFormat(c.flag, c.path)
		if got != c.want || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("InputFormat(%q, %q) = %q, %v; want %q, %q", c.flag, c.path, got, err, c.want, c.err)
		}
	}
}
