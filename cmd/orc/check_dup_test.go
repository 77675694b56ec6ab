package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// A struct with two fields of one name and different types: orc check
// matches them in order, as the file has them, and checks the file
// instead of panicking.
func TestCheckDuplicateFieldNames(t *testing.T) {
	// Written with the names qq1 and qq2, then the footer's qq2 made qq1
	// (no compression: the names are plain bytes in the footer).
	s := orc.MustParseSchema("struct<qq1:int,name:string,qq2:double,day:date>")
	b := orc.NewBatch(s, 100)
	for i := range 100 {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.BytesVector).AppendString("n")
		b.Cols[2].(*orc.DoubleVector).Values = append(b.Cols[2].(*orc.DoubleVector).Values, float64(i)/2)
		b.Cols[3].(*orc.LongVector).Values = append(b.Cols[3].(*orc.LongVector).Values, int64(19000+i))
	}
	b.NumRows = 100
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if n := bytes.Count(data, []byte("qq2")); n != 1 {
		t.Fatalf("qq2 appears %d times in the file", n)
	}
	data = bytes.Replace(data, []byte("qq2"), []byte("qq1"), 1)
	path := filepath.Join(t.TempDir(), "dup.orc")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("check: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Fatal(stderr.String())
	}
	// Other commands read it too.
	stdout.Reset()
	if code := run([]string{"cat", "--limit", "1", path}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `"qq1": 0.0`) && !strings.Contains(stdout.String(), `"qq1": 0,`) {
		t.Fatalf("cat: exit %d: %s%s", code, stdout.String(), stderr.String())
	}
}
