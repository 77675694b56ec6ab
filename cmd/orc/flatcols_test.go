package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A nested projection prints in CSV, TSV and table output as flat columns
// named by their paths, not as a struct column holding JSON (issue 48,
// item 8); the whole struct, asked by its name, is still one column.
func TestNestedColumnsFlatInText(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.orc")
	in := writeFile(t, t.TempDir(), "in.jsonl", `{"id": 0, "loc": {"lat": 10, "lon": 20}}`+"\n"+`{"id": 1, "loc": {"lat": 11, "lon": 21}}`+"\n")
	mustConvert(t, "--schema", "struct<id:bigint,loc:struct<lat:bigint,lon:bigint>>", in, f)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", "--columns", "loc.lat", "--format", "csv", f}, "loc.lat\n10\n11\n"},
		{[]string{"cat", "--columns", "loc.lon,id,loc.lat", "--format", "csv", f}, "loc.lon,loc.lat,id\n20,10,0\n21,11,1\n"},
		{[]string{"cat", "--columns", "id,loc.lat", "--format", "tsv", f}, "id\tloc.lat\n0\t10\n1\t11\n"},
		{[]string{"scan", "--columns", "loc.lat", "--where", "id = 1", "--format", "csv", f}, "loc.lat\n11\n"},
		{[]string{"cat", "--columns", "loc", "--format", "csv", f}, "loc\n\"{\"\"lat\"\": 10, \"\"lon\"\": 20}\"\n\"{\"\"lat\"\": 11, \"\"lon\"\": 21}\"\n"},
		{[]string{"cat", "--columns", "loc.lat", "--format", "table", f}, "loc.lat\n-------\n     10\n     11\n"},
		{[]string{"cat", "--columns", "loc.lat", dir}, "{\"loc\": {\"lat\": 10}}\n{\"loc\": {\"lat\": 11}}\n"},
	} {
		out, _, err := runCmd(t, tc.args...)
		if err != nil || out != tc.want {
			t.Errorf("%s: %v\n%q\nwant\n%q", strings.Join(tc.args[:len(tc.args)-1], " "), err, out, tc.want)
		}
	}
}
