package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// catOf runs orc cat with args, standard input reading from stdin when not
// nil, and returns its output and error.
func catOf(t *testing.T, stdin []byte, args ...string) (string, error) {
	t.Helper()
	if stdin != nil {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			pw.Write(stdin)
			pw.Close()
		}()
		old := os.Stdin
		os.Stdin = pr
		defer func() { os.Stdin = old; pr.Close() }()
	}
	var out bytes.Buffer
	err := runCat(args, &out, io.Discard)
	return out.String(), err
}

// A pipe, standard input ("-") and a FIFO read as the file they carry, not
// as an empty file; a directory is refused; a zero-length file is Hive's
// empty file and says so.
func TestInputKinds(t *testing.T) {
	path := filepath.Join(examplesDir(t), "TestOrcFile.test1.orc")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := catOf(t, nil, path)
	if err != nil || strings.Count(want, "\n") != 2 {
		t.Fatalf("cat of the file: %v, %d lines", err, strings.Count(want, "\n"))
	}
	if got, err := catOf(t, data, "-"); err != nil || got != want {
		t.Fatalf("cat -: %v, %d bytes, want %d", err, len(got), len(want))
	}
	if runtime.GOOS == "linux" {
		fifo := filepath.Join(t.TempDir(), "f.orc")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write(data)
				f.Close()
			}
		}()
		if got, err := catOf(t, nil, fifo); err != nil || got != want {
			t.Fatalf("cat FIFO: %v, %d bytes, want %d", err, len(got), len(want))
		}
	}
	// A directory is a dataset (multi_test.go); an empty one says so.
	if _, err := catOf(t, nil, t.TempDir()); err == nil || !strings.Contains(err.Error(), "no files found") {
		t.Fatalf("cat of an empty directory: %v", err)
	}
	if err := runMeta([]string{t.TempDir()}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "no ORC files found") {
		t.Fatalf("meta of a directory: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.orc")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runMeta([]string{empty}, &out, io.Discard); err != nil || !strings.Contains(out.String(), "empty file (0 bytes)") ||
		strings.Contains(out.String(), "writer") {
		t.Fatalf("meta of an empty file: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runMeta([]string{"--json", empty}, &out, io.Discard); err != nil || !strings.Contains(out.String(), `"empty": true`) {
		t.Fatalf("meta --json of an empty file: %v\n%s", err, out.String())
	}
	// convert does not create a file named "-".
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	os.WriteFile(in, []byte("1\n"), 0o644)
	wd, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(wd)
	if err := runConvert([]string{"--schema", "struct<a:int>", in, "-"}, io.Discard, io.Discard); err == nil {
		t.Fatal("convert to - succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Fatal("convert created a file named -")
	}
}

// cat names the encrypted columns it leaves out; --limit refuses negative
// counts; scan --stats says how many rows --limit printed.
func TestCatEncryptedAndLimit(t *testing.T) {
	enc := filepath.Join(examplesDir(t), "encrypted", "sample1.orc")
	var out, errs bytes.Buffer
	if err := runCat([]string{"--limit", "1", enc}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errs.String(), "left out 2 encrypted column(s)") || !strings.Contains(errs.String(), "ssn, email") {
		t.Fatalf("stderr %q", errs.String())
	}
	plain := filepath.Join(examplesDir(t), "TestOrcFile.test1.orc")
	errs.Reset()
	if err := runCat([]string{plain}, io.Discard, &errs); err != nil || errs.Len() != 0 {
		t.Fatalf("cat of a file without encryption: %v, stderr %q", err, errs.String())
	}
	for _, args := range [][]string{{"cat", "--limit", "-3", plain}, {"scan", "--where", "int1 > 0", "--limit", "-2", plain}} {
		var e bytes.Buffer
		if code := run(args, io.Discard, &e); code != 2 || !strings.Contains(e.String(), "must be 0 or more") {
			t.Fatalf("%v: exit %d, %q", args, code, e.String())
		}
	}
	errs.Reset()
	out.Reset()
	if err := runScan([]string{"--where", "int1 > 0", "--limit", "1", "--stats", plain}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != 1 || !strings.Contains(errs.String(), "printed: 1 row (--limit 1)") {
		t.Fatalf("scan --limit 1 --stats: %q / %q", out.String(), errs.String())
	}
}

// Errors name the flag and the file's real problem: a text file is "not an
// ORC file", a truncated ORC file is told apart, a bad --stride says
// --stride (not the Go option), and no message says "orc: orc:".
func TestErrorMessages(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("these are notes, not a columnar file at all\n"), 0o644)
	orcData, err := os.ReadFile(filepath.Join(examplesDir(t), "TestOrcFile.test1.orc"))
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.orc")
	os.WriteFile(trunc, orcData[:len(orcData)/2], 0o644)
	csv := filepath.Join(dir, "in.csv")
	os.WriteFile(csv, []byte("1\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"meta", text}, 1, "not an ORC file"},
		{[]string{"cat", text}, 1, "not an ORC file"},
		{[]string{"meta", trunc}, 1, "truncated"},
		{[]string{"demo", "--stride", "-5", "--rows", "10"}, 2, "orc demo: --stride -5: must be 0 or 100..10000000"},
		{[]string{"convert", "--schema", "struct<a:int>", "--stride", "-5", csv, filepath.Join(dir, "o.orc")}, 2, "--stride -5: must be"},
		{[]string{"convert", "--schema", "struct<a:int>", "--fpp", "2", csv, filepath.Join(dir, "o.orc")}, 2, "--fpp 2: must be"},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, &out, &errs)
		msg := errs.String()
		if code != c.code || !strings.Contains(msg, c.want) || strings.Contains(msg, "orc: orc:") ||
			strings.Contains(msg, ": orc: ") || strings.Contains(msg, "With") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, msg, c.code, c.want)
		}
		if strings.Contains(msg, "not an ORC file") && strings.Contains(msg, "truncated") {
			t.Errorf("%v: %q says both", c.args, msg)
		}
	}
}

// scan prints the columns named, down to nested fields: a predicate on
// st.a with --columns st.c prints st.c alone, not st.a.
func TestScanPrintsNamedNestedFields(t *testing.T) {
	s := orc.MustParseSchema("struct<id:int,st:struct<a:int,b:string,c:struct<x:int,y:int>>>")
	b := orc.NewBatch(s, 3)
	id := b.Cols[0].(*orc.LongVector)
	st := b.Cols[1].(*orc.StructVector)
	for i := range 3 {
		id.Values = append(id.Values, int64(i))
		st.Fields[0].(*orc.LongVector).Values = append(st.Fields[0].(*orc.LongVector).Values, int64(40+i))
		st.Fields[1].(*orc.BytesVector).AppendString(fmt.Sprint("b", i))
		c := st.Fields[2].(*orc.StructVector)
		c.Fields[0].(*orc.LongVector).Values = append(c.Fields[0].(*orc.LongVector).Values, int64(10*i))
		c.Fields[1].(*orc.LongVector).Values = append(c.Fields[1].(*orc.LongVector).Values, int64(-i))
		c.N++
	}
	st.N = 3
	b.NumRows = 3
	path := filepath.Join(t.TempDir(), "n.orc")
	f, _ := os.Create(path)
	w, err := writer.NewWriter(f, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f.Close()
	for _, c := range []struct {
		columns, want string
	}{
		{"st.c", `{"st": {"c": {"x": 20, "y": -2}}}`},
		{"st.c.y,id", `{"st": {"c": {"y": -2}}, "id": 2}`}, // top-level columns in the order asked
		{"id,st.c.y", `{"id": 2, "st": {"c": {"y": -2}}}`},
		{"st", `{"st": {"a": 42, "b": "b2", "c": {"x": 20, "y": -2}}}`},
		{"st.b,st.a", `{"st": {"a": 42, "b": "b2"}}`},
	} {
		var out bytes.Buffer
		if err := runScan([]string{"--where", "st.a > 41", "--columns", c.columns, path}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.String()); got != c.want {
			t.Errorf("--columns %s: %s, want %s", c.columns, got, c.want)
		}
	}
}
