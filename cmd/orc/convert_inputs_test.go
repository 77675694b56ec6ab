package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// runConvertErr runs orc convert and returns stdout, stderr and the error.
func runConvertErr(args ...string) (string, string, error) {
	var o, e bytes.Buffer
	err := runConvert(args, &o, &e)
	return o.String(), e.String(), err
}

// Several inputs into one output, CSV, JSON and ORC mixed; an ORC input
// rewritten with other options; ORC inputs of another schema read by name.
func TestConvertInputs(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.csv", "1,x\n2,y\n")
	b := writeFile(t, dir, "b.jsonl", `{"id": 3, "v": "z"}`+"\n")
	out := filepath.Join(dir, "ab.orc")
	mustConvert(t, "--schema", "struct<id:bigint,v:string>", a, b, out)
	want := parseLines(t, "{\"id\": 1, \"v\": \"x\"}\n{\"id\": 2, \"v\": \"y\"}\n{\"id\": 3, \"v\": \"z\"}")
	if got := catValues(t, out); !reflect.DeepEqual(got, want) {
		t.Fatalf("two inputs: %v", got)
	}

	// ORC in: the schema is the input's, the options are new.
	re := filepath.Join(dir, "re.orc")
	mustConvert(t, "--compression", "snappy", "--stride", "1000", "--bloom-columns", "v", out, a, re)
	r, _ := readAll(t, re)
	if r.Compression().String() != "SNAPPY" || r.RowIndexStride() != 1000 || r.Schema().String() != "struct<id:bigint,v:string>" {
		t.Errorf("rewritten: %s, stride %d, %s", r.Compression(), r.RowIndexStride(), r.Schema())
	}
	want = append(want, want[:2]...)
	if got := catValues(t, re); !reflect.DeepEqual(got, want) {
		t.Fatalf("ORC and CSV in: %v", got)
	}
	// An ORC input read as another schema: columns by name, missing ones
	// null when --fill-missing asks for it.
	ev := filepath.Join(dir, "ev.orc")
	mustConvert(t, "--fill-missing", "--schema", "struct<v:string,n:int>", out, ev)
	if got := catValues(t, ev); !reflect.DeepEqual(got, parseLines(t, "{\"v\": \"x\", \"n\": null}\n{\"v\": \"y\", \"n\": null}\n{\"v\": \"z\", \"n\": null}")) {
		t.Errorf("ORC read as another schema: %v", got)
	}
	if _, err := convert(t, "--schema", "struct<id:bigint>", "--format", "csv", "-", "-", out+"3"); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("stdin twice: %v", err)
	}
	bad := writeFile(t, dir, "bad.csv", "7,q,extra\n")
	if _, err := convert(t, "--schema", "struct<id:bigint,v:string>", a, bad, out+"4"); err == nil || !strings.Contains(err.Error(), "bad.csv: line 1: 3 fields") {
		t.Errorf("error in the second input: %v", err)
	}
}

// --max-errors N: up to N bad rows are skipped, each reported with its
// input and line; one more fails the conversion.
func TestConvertMaxErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "1,a\nx,b\n3,c\n4,d,e\n5,\"e\n")
	js := writeFile(t, dir, "in.jsonl", "{\"id\": 6}\n{bad\n{\"id\": \"seven\"}\n{\"id\": 8}\n")
	out := filepath.Join(dir, "out.orc")
	_, errOut, err := runConvertErr("--schema", "struct<id:int,v:string>", "--max-errors", "5", in, js, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"in.csv: line 2, column 1 (id int): bad int \"x\": not an integer (row skipped)", "in.csv: line 4: 3 fields",
		"in.csv: parse error on line 5", "in.jsonl: line 2, byte", "in.jsonl: line 3, column \"id\"", "skipped 5 bad row(s) (--max-errors 5)"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, "{\"id\": 1, \"v\": \"a\"}\n{\"id\": 3, \"v\": \"c\"}\n{\"id\": 6, \"v\": null}\n{\"id\": 8, \"v\": null}")) {
		t.Errorf("rows kept: %v", got)
	}
	_, _, err = runConvertErr("--schema", "struct<id:int,v:string>", "--max-errors", "4", "--overwrite", in, js, out)
	if err == nil || !strings.Contains(err.Error(), "more than 4 bad rows (--max-errors), the last: line 3") {
		t.Errorf("--max-errors 4: %v", err)
	}
	if _, _, err := runConvertErr("--schema", "struct<id:int>", "--max-errors", "-1", in, out); err == nil || !strings.Contains(err.Error(), "--max-errors -1") {
		t.Errorf("--max-errors -1: %v", err)
	}
}

// --header maps CSV columns to fields by name (any order, fields left out
// are null with --fill-missing); a header naming no field is skipped; columns a header names
// that are not fields are left out, and named on stderr.
func TestConvertHeader(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.orc")
	in := writeFile(t, dir, "h.csv", "v,ID\nx,1\ny,2\n")
	mustConvert(t, "--schema", "struct<id:int,w:double,v:string>", "--header", "--fill-missing", in, out)
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, "{\"id\": 1, \"w\": null, \"v\": \"x\"}\n{\"id\": 2, \"w\": null, \"v\": \"y\"}")) {
		t.Errorf("by name: %v", got)
	}
	in = writeFile(t, dir, "skip.csv", "first,second\n1,x\n")
	mustConvert(t, "--schema", "struct<id:int,v:string>", "--header", "--overwrite", in, out)
	if got := catValues(t, out); len(got) != 1 {
		t.Errorf("skipped header: %v", got)
	}
	in = writeFile(t, dir, "extra.csv", "nope,id,more\nx,1,y\n")
	_, errOut, err := runConvertErr("--schema", "struct<id:int,v:string>", "--header", "--fill-missing", "--overwrite", in, out)
	if err != nil || !strings.Contains(errOut, `line 1: left out 2 columns the schema does not name: "nope", "more"`) {
		t.Errorf("columns the schema does not name: %v %q", err, errOut)
	}
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, `{"id": 1, "v": null}`)) {
		t.Errorf("columns the schema does not name: %v", got)
	}
	for _, c := range []struct{ text, want string }{
		{"id,ID\n1,2\n", `the header names field "id" twice`},
		{"id,v\n1\n", "line 2: 1 fields, but the header has 2"},
	} {
		in := writeFile(t, dir, "bad.csv", c.text)
		if _, err := convert(t, "--schema", "struct<id:int,v:string>", "--header", "--overwrite", in, out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// TestConvertInferWideNote: an inferred schema longer than maxSchemaNote
// is summed up on stderr (fields per type, the command that prints it
// whole) instead of printed whole: a CSV line of 100,000 numbers printed
// one line of 1.6 MB.
func TestConvertInferWideNote(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.orc")
	var line strings.Builder
	for i := range 3000 {
		if i > 0 {
			line.WriteByte(',')
		}
		if i%1000 == 999 {
			line.WriteString("x")
		} else {
			fmt.Fprint(&line, i)
		}
	}
	in := writeFile(t, dir, "wide.csv", line.String()+"\n")
	_, errOut, err := runConvertErr(in, out)
	if err != nil {
		t.Fatal(err)
	}
	want := "orc convert: inferred schema: a struct of 3000 fields (2997 bigint, 3 string), "
	if !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "`orc schema "+out+"` prints it") || len(errOut) > 300 {
		t.Errorf("stderr %q, want %q... and the command", errOut, want)
	}
	if got := schemaNote(orc.MustParseSchema("struct<a:int,b:string>"), out); got != "struct<a:int,b:string>" {
		t.Errorf("a short schema: %q", got)
	}
}

// Without --schema the schema is inferred from the first rows and printed;
// ORC inputs give theirs.
func TestConvertInfer(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.orc")
	in := writeFile(t, dir, "in.csv", "id,price,ok,day,at,name\n1,2.5,true,2024-03-10,2024-03-10 01:30:00,x\n2,3,false,2024-03-11,2024-03-10T01:30:00Z,\n,,,,,7\n")
	_, errOut, err := runConvertErr("--header", in, out)
	if err != nil {
		t.Fatal(err)
	}
	if w := "orc convert: inferred schema: struct<id:bigint,price:decimal(2,1),ok:boolean,day:date,at:timestamp,name:string>\n"; errOut != w {
		t.Errorf("stderr %q, want %q", errOut, w)
	}
	if got := catValues(t, out); len(got) != 3 {
		t.Errorf("rows: %v", got)
	}
	in = writeFile(t, dir, "nohead.csv", "1,a\n2,b\n")
	if _, errOut, err = runConvertErr("--overwrite", in, out); err != nil || !strings.Contains(errOut, "struct<_col0:bigint,_col1:string>") {
		t.Errorf("no header: %v %q", err, errOut)
	}
	js := writeFile(t, dir, "in.jsonl", `{"id": 1, "tags": ["a"], "loc": {"lat": 1.5}, "d": "2024-03-10"}`+"\n"+
		`{"id": 2, "tags": [], "loc": {"lat": 2, "lon": -1}, "extra": null, "d": null}`+"\n")
	if _, errOut, err = runConvertErr("--overwrite", js, out); err != nil ||
		!strings.Contains(errOut, "struct<id:bigint,tags:array<string>,loc:struct<lat:double,lon:bigint>,d:date,extra:string>") {
		t.Errorf("JSON: %v %q", err, errOut)
	}
	if got := catValues(t, out); len(got) != 2 {
		t.Errorf("JSON rows: %v", got)
	}
	mixed := writeFile(t, dir, "mixed.jsonl", `{"a": 1}`+"\n"+`{"a": "x"}`+"\n")
	if _, _, err := runConvertErr("--overwrite", mixed, out); err == nil || !strings.Contains(err.Error(), "a: both number and string values") || !strings.Contains(err.Error(), "--schema") {
		t.Errorf("mixed: %v", err)
	}
	// Rows after --infer-rows that do not fit are bad rows.
	late := writeFile(t, dir, "late.csv", "1\n2\nx\n")
	if _, _, err := runConvertErr("--overwrite", "--infer-rows", "2", late, out); err == nil || !strings.Contains(err.Error(), "line 3, column 1 (_col0 bigint)") {
		t.Errorf("late misfit: %v", err)
	}
	// ORC in, no --schema: the input's schema, nothing printed.
	re := filepath.Join(dir, "re.orc")
	if _, errOut, err := runConvertErr(out, re); err != nil || errOut != "" {
		t.Errorf("ORC in: %v %q", err, errOut)
	}
}

// Inference does not surprise: a first CSV line of text above numbers is
// the header, and convert says so (--header=false reads it as a row);
// decimal text is decimal(p,s), double only past 38 digits or with an
// exponent; JSON numbers widen to double over the whole sample, and a row
// past the sample that does not fit says how to pass a schema.
func TestInferenceDoesNotSurprise(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.orc")
	infer := func(name, text string, args ...string) (string, error) {
		t.Helper()
		in := writeFile(t, dir, name, text)
		_, errOut, err := runConvertErr(append(append([]string{"--overwrite"}, args...), in, out)...)
		return errOut, err
	}
	errOut, err := infer("h.csv", "name,qty,price\nx,1,\ny,2,2.50\n")
	if err != nil || !strings.Contains(errOut, "h.csv: the first line is text above numbers: read as the header") ||
		!strings.Contains(errOut, "inferred schema: struct<name:string,qty:bigint,price:decimal(3,2)>") {
		t.Errorf("a header line: %v %q", err, errOut)
	}
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, `{"name": "x", "qty": 1, "price": null}`+"\n"+`{"name": "y", "qty": 2, "price": 2.50}`)) {
		t.Errorf("a header line: %v", got)
	}
	if errOut, err = infer("h.csv", "name,qty\nx,1\n", "--header=false"); err != nil || strings.Contains(errOut, "header") ||
		!strings.Contains(errOut, "struct<_col0:string,_col1:string>") {
		t.Errorf("--header=false: %v %q", err, errOut)
	}
	if errOut, _ = infer("text.csv", "a,b\nc,d\n"); strings.Contains(errOut, "header") {
		t.Errorf("text only is not a header: %q", errOut)
	}
	for text, want := range map[string]string{
		"-0.5\n12.125\n7\n": "decimal(5,3)",
		"1e3\n2.5\n":        "double",
		"0.1234567890123456789012345678901234567\n1234\n": "double",
		"+3.0\n": "decimal(2,1)",
	} {
		if errOut, err = infer("d.csv", text); err != nil || !strings.Contains(errOut, "struct<_col0:"+want+">") {
			t.Errorf("%q: %v %q, want %s", text, err, errOut, want)
		}
	}
	if errOut, err = infer("w.jsonl", `{"a": 1}`+"\n"+`{"a": 1500.5, "b": "x"}`+"\n"); err != nil || !strings.Contains(errOut, "struct<a:double,b:string>") {
		t.Errorf("JSON widening: %v %q", err, errOut)
	}
	late := `{"a": 1}` + "\n" + `{"a": 2}` + "\n" + `{"a": 3, "b": 1}` + "\n"
	if _, err = infer("late.jsonl", late, "--infer-rows", "2"); err == nil || !strings.Contains(err.Error(), `line 3: unknown field "b"`) ||
		!strings.Contains(err.Error(), "inferred from the first 2 lines: give --schema, or more lines with --infer-rows") {
		t.Errorf("a field past the sample: %v", err)
	}
	for _, args := range [][]string{nil, {"--infer-rows", "0"}} {
		if errOut, err = infer("late.jsonl", late, args...); err != nil || !strings.Contains(errOut, "struct<a:bigint,b:bigint>") {
			t.Errorf("a sample holding the whole input (%v): %v %q", args, err, errOut)
		}
	}
}
