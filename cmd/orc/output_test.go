package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// orc schema prints the type as --schema takes it, and with --json the
// type tree with ids, decimal precision and scale and struct fields in
// order; convert --metadata stores key=value pairs in the file.
func TestSchemaAndMetadata(t *testing.T) {
	dir := t.TempDir()
	test1 := filepath.Join(examplesDir(t), "TestOrcFile.test1.orc")
	r, closeFn, err := openORC(test1)
	if err != nil {
		t.Fatal(err)
	}
	want := r.Schema().String()
	closeFn()
	out, _, err := runCmd(t, "schema", test1)
	if err != nil || out != want+"\n" {
		t.Errorf("schema: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "schema", "--json", filepath.Join(examplesDir(t), "decimal.orc"))
	var tree struct {
		Category string
		ID, Max  int
		Fields   []map[string]struct {
			Category         string
			ID               int
			Precision, Scale int
		}
	}
	if err != nil || json.Unmarshal([]byte(out), &tree) != nil || tree.Category != "struct" || tree.Max != 1 || len(tree.Fields) != 1 ||
		tree.Fields[0]["_col0"].Category != "decimal" || tree.Fields[0]["_col0"].Precision != 10 || tree.Fields[0]["_col0"].Scale != 5 {
		t.Errorf("schema --json: %v %+v\n%s", err, tree, out)
	}

	in := writeFile(t, dir, "in.csv", "1\n")
	dst := filepath.Join(dir, "out.orc")
	if _, err := convert(t, "--schema", "struct<a:int>", "--metadata", "origin=test", "--metadata", "note=a=b c", in, dst); err != nil {
		t.Fatal(err)
	}
	r, closeFn, err = openORC(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var got []string
	for _, kv := range r.UserMetadata() {
		got = append(got, kv.Key+"="+string(kv.Value))
	}
	if strings.Join(got, ";") != "origin=test;note=a=b c" {
		t.Errorf("--metadata stored %q", got)
	}
	for _, bad := range [][]string{{"--metadata", "x"}, {"--metadata", "k=1", "--metadata", "k=2"}} {
		if _, err := convert(t, append(append(bad, "--schema", "struct<a:int>", "--overwrite"), in, dst)...); err == nil {
			t.Errorf("convert %v succeeded", bad)
		}
	}
}

// cat and scan print CSV (quoted where needed, NULL empty, an empty string
// ""), TSV (escaped, NULL \N) and tables (widths from the first rows,
// numbers right, wider values cut), all with a header; timestamps with
// local time zone print in --timezone with their offset, in a form --where
// reads back, while wall-clock timestamps print as stored.
func TestOutputFormats(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "id,s,d,i,w\n"+
		"1,\"a,b\",1.50,2024-03-10T06:30:00Z,2024-03-10 01:30:00\n"+
		"2,\"say \"\"hi\"\"\",-2.00,\\N,2024-03-10 01:30:00\n"+
		"3,,10.25,2024-07-01T12:00:00.25Z,\\N\n"+
		"4,\\N,0.00,\\N,\\N\n"+
		"5,\"tab\there\",0.00,\\N,\\N\n")
	f := filepath.Join(dir, "f.orc")
	mustConvert(t, "--header", "--null", `\N`, "--schema", "struct<id:bigint,s:string,d:decimal(5,2),i:timestamp with local time zone,w:timestamp>", in, f)
	cat := func(args ...string) string {
		t.Helper()
		out, errs, err := runCmd(t, append([]string{"cat", f}, args...)...)
		if err != nil {
			t.Fatalf("cat %v: %v\n%s", args, err, errs)
		}
		return out
	}
	if got, want := cat("--format", "csv"), "id,s,d,i,w\n"+
		"1,\"a,b\",1.50,2024-03-10 06:30:00.0+00:00,2024-03-10 01:30:00.0\n"+
		"2,\"say \"\"hi\"\"\",-2.00,,2024-03-10 01:30:00.0\n"+
		"3,\"\",10.25,2024-07-01 12:00:00.25+00:00,\n"+
		"4,,0.00,,\n"+
		"5,tab\there,0.00,,\n"; got != want {
		t.Errorf("csv:\n%s\nwant\n%s", got, want)
	}
	if got, want := cat("--format", "tsv", "--columns", "id,s"), "id\ts\n1\ta,b\n2\tsay \"hi\"\n3\t\n4\t\\N\n5\ttab\\there\n"; got != want {
		t.Errorf("tsv:\n%q\nwant\n%q", got, want)
	}
	if got, want := cat("--format", "table", "--limit", "3"), ""+
		"id  s             d  i                             w\n"+
		"--  --------  -----  ----------------------------  ---------------------\n"+
		" 1  a,b        1.50  2024-03-10 06:30:00.0+00:00   2024-03-10 01:30:00.0\n"+
		" 2  say \"hi\"  -2.00  null                          2024-03-10 01:30:00.0\n"+
		" 3            10.25  2024-07-01 12:00:00.25+00:00  null\n"; got != want {
		t.Errorf("table:\n%s\nwant\n%s", got, want)
	}
	if got, want := cat("--columns", "i,w", "--limit", "1", "--timezone", "America/New_York"), `{"i": "2024-03-10 01:30:00.0-05:00", "w": "2024-03-10 01:30:00.0"}`+"\n"; got != want {
		t.Errorf("--timezone America/New_York: %s want %s", got, want)
	}
	out, _, err := runCmd(t, "scan", f, "--where", "i = TIMESTAMP '2024-03-10 01:30:00.0-05:00'", "--format", "csv", "--columns", "id")
	if err != nil || out != "id\n1\n" {
		t.Errorf("an instant as printed, read back by --where: %v %q", err, out)
	}
	for _, bad := range [][]string{{"--format", "xml"}, {"--timezone", "Mars/Base"}} {
		if code := run(append([]string{"cat", f}, bad...), &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
			t.Errorf("cat %v: exit %d, want 2", bad, code)
		}
	}

	// A table takes its widths from the first 100 rows: a wider text
	// after them is cut, a wider number is not.
	var sb strings.Builder
	sb.WriteString("n,s\n")
	for i := range 150 {
		s := "short"
		if i == 120 {
			s = strings.Repeat("x", 30)
		}
		fmt.Fprintf(&sb, "%d,%s\n", i, s)
	}
	many := filepath.Join(dir, "many.orc")
	mustConvert(t, "--header", "--schema", "struct<n:int,s:string>", writeFile(t, dir, "many.csv", sb.String()), many)
	out, _, err = runCmd(t, "cat", many, "--format", "table")
	lines := strings.Split(out, "\n")
	if err != nil || len(lines) != 153 || lines[0] != " n  s" || lines[2] != " 0  short" || lines[122] != "120  xxxx…" {
		t.Errorf("table of 150 rows: %v, %d lines\n%s", err, len(lines), strings.Join(lines[:min(len(lines), 4)], "\n"))
	}
}

// A table whose first rows leave a column empty (an unnamed field, empty
// strings) cuts a later value to one character rather than failing.
func TestTableEmptyColumn(t *testing.T) {
	s := &orc.Schema{Kind: orc.Struct, FieldNames: []string{""}, Children: []*orc.Schema{{Kind: orc.String}}}
	s.Assign()
	f := newFormatter(outputOptions{format: "table", zone: time.UTC}, s)
	b := orc.NewBatch(s, 2)
	b.Cols[0].(*orc.BytesVector).AppendString("")
	b.NumRows = 1
	out, _ := f.Add(nil, b, 0)
	out, _ = f.Flush(out)
	b.Reset()
	b.Cols[0].(*orc.BytesVector).AppendString("wide")
	b.NumRows = 1
	out, n := f.Add(out, b, 0)
	if n != 1 || string(out) != "\n-\n\n…\n" {
		t.Errorf("%q (%d rows)", out, n)
	}
}
