package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/arrow/internal/lineitem"
	"github.com/orcgo/orc/writer"
)

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.orc")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	g := lineitem.New(3)
	w, err := writer.NewWriter(f, g.Schema(), writer.WithCompression(orc.CompressionSnappy))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(g.Batch(5000)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out := filepath.Join(dir, "out.parquet")
	var stderr bytes.Buffer
	if err := run([]string{"-codec", "snappy", "-row-group", "1000", "-batch", "700", "-progress", "1ns", in, out}, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "orc2parquet: 5000 rows from") || !strings.Contains(stderr.String(), "rows of 5000 (") {
		t.Fatalf("no summary or progress line:\n%s", stderr.String())
	}
	pf, err := file.OpenParquetFile(out, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRows() != 5000 || pf.NumRowGroups() != 5 {
		t.Fatalf("%d rows in %d row groups, want 5000 in 5", pf.NumRows(), pf.NumRowGroups())
	}
	if got := pf.MetaData().Schema.Column(0).Name(); got != "l_orderkey" {
		t.Fatalf("first column %q", got)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{in}, "want two arguments"},
		{[]string{"-codec", "xz", in, out}, `unknown Parquet codec "xz"`},
		{[]string{filepath.Join(dir, "missing.orc"), out}, "no such file"},
		{[]string{out, filepath.Join(dir, "x.parquet")}, "orc"},
		{[]string{"-columns", "nope", in, filepath.Join(dir, "y.parquet")}, "nope"},
	} {
		stderr.Reset()
		err := run(c.args, &stderr)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.want)) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.parquet")); !os.IsNotExist(err) {
		t.Error("a failed run left its output behind")
	}

	// An existing output is replaced only with -overwrite, and a failed
	// run with -overwrite leaves it as it was.
	data, _ := os.ReadFile(out)
	if err := run([]string{in, out}, &stderr); err == nil || !strings.Contains(err.Error(), "exists; pass -overwrite") {
		t.Errorf("over an existing output: %v", err)
	}
	if err := run([]string{"-overwrite", "-columns", "nope", in, out}, &stderr); err == nil {
		t.Error("an unknown column converted")
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
