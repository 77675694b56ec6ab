package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// A column's type in meta is written one level deep (nested compound types
// as struct<...>), so that the types of a chain of nested structs print in
// size linear in its columns, where each line repeated its whole
// subtree's type. (Column names are dotted paths, as long as the depth.)
func TestMetaNestedTypesLinear(t *testing.T) {
	const depth, fields = 100, 10
	var sb strings.Builder
	for d := range depth {
		sb.WriteString("struct<")
		for f := range fields {
			fmt.Fprintf(&sb, "f%d_%d:int,", d, f)
		}
		sb.WriteString("next:")
	}
	sb.WriteString("int")
	sb.WriteString(strings.Repeat(">", depth))
	s := orc.MustParseSchema("struct<top:" + sb.String() + ">")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	b.NumRows = 0
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chain.orc")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"meta", "--json", "--no-stripes", path}, &out, &errOut); code != 0 {
		t.Fatalf("meta --json: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Columns []struct {
			Type string `json:"type"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// Every column's children are written once, at their parent: the
	// types of all columns together are about the schema's length (they
	// were depth/2 times it).
	total := 0
	for _, c := range doc.Columns {
		total += len(c.Type)
	}
	if limit := 2 * len(s.String()); total > limit {
		t.Errorf("the columns' types take %d bytes, over %d (twice the schema's)", total, limit)
	}
	if got := doc.Columns[1].Type; !strings.HasPrefix(got, "struct<f0_0:int,") || !strings.HasSuffix(got, ",next:struct<...>>") {
		t.Errorf("column 1's type: %.80s...", got)
	}
	if got := doc.Columns[2].Type; got != "int" {
		t.Errorf("column 2's type: %s", got)
	}
	out.Reset()
	if code := run([]string{"meta", "--no-stripes", path}, &out, &errOut); code != 0 {
		t.Fatalf("meta: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "  1 top                      struct<f0_0:int,") {
		t.Errorf("meta's column 1:\n%.400s", out.String())
	}
}
