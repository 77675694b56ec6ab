package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.parquet")
	js := `[{"id": 1, "name": "a", "tags": ["x", null], "u": 7},
		{"id": null, "name": null, "tags": null, "u": 4000000000},
		{"id": 3, "name": "ccc", "tags": [], "u": null}]`
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	}, nil)
	writeParquet(t, in, s, js)

	out := filepath.Join(dir, "out.orc")
	var stderr bytes.Buffer
	if err := run([]string{"-codec", "zlib", "-stripe-size", "1048576", "-row-index-stride", "1000", "-progress", "1ns", in, out}, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "parquet2orc: 3 rows from") {
		t.Fatalf("no summary line:\n%s", stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Schema().String(), "struct<id:bigint,name:string,tags:array<string>,u:bigint>"; got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	if r.Compression() != orc.CompressionZlib {
		t.Fatalf("codec %v", r.Compression())
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range b.NumRows {
		lines = append(lines, string(reader.AppendJSONRow(nil, b, i)))
	}
	want := `{"id": 1, "name": "a", "tags": ["x", null], "u": 7}|` +
		`{"id": null, "name": null, "tags": null, "u": 4000000000}|` +
		`{"id": 3, "name": "ccc", "tags": [], "u": null}`
	if got := strings.Join(lines, "|"); got != want {
		t.Fatalf("rows\n got %s\nwant %s", got, want)
	}

	bad := filepath.Join(dir, "bad.parquet")
	writeParquet(t, bad, arrow.NewSchema([]arrow.Field{{Name: "big", Type: arrow.PrimitiveTypes.Uint64, Nullable: true}}, nil), `[{"big": 1}]`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "want two arguments"},
		{[]string{"-codec", "brotli", in, out}, `unknown ORC codec "brotli"`},
		{[]string{bad, filepath.Join(dir, "x.orc")}, `"big"`},
		{[]string{out, filepath.Join(dir, "y.orc")}, "parquet"},
	} {
		err := run(c.args, &stderr)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.want)) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.orc")); !os.IsNotExist(err) {
		t.Error("a failed run left its output behind")
	}

	// An existing output is replaced only with -overwrite, and a failed
	// run with -overwrite leaves it as it was.
	if err := run([]string{in, out}, &stderr); err == nil || !strings.Contains(err.Error(), "exists; pass -overwrite") {
		t.Errorf("over an existing output: %v", err)
	}
	if err := run([]string{"-overwrite", bad, out}, &stderr); err == nil {
		t.Error("a bad input converted")
	}
	if now, _ := os.ReadFile(out); !bytes.Equal(now, data) {
		t.Error("a refused or failed run changed the existing output")
	}
	if err := run([]string{"-overwrite", "-codec", "none", in, out}, &stderr); err != nil {
		t.Errorf("-overwrite: %v", err)
	}
	if now, _ := os.ReadFile(out); bytes.Equal(now, data) {
		t.Error("-overwrite left the output as it was")
	}
}

func writeParquet(tb testing.TB, path string, s *arrow.Schema, js string) {
	tb.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, s, strings.NewReader(js))
	if err != nil {
		tb.Fatal(err)
	}
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(s, f, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		tb.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		tb.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		tb.Fatal(err)
	}
}
