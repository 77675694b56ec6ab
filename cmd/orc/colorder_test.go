package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --columns gives the columns in the order asked, and only those, for one
// file and for a directory, with or without --where (issue 48, item 7).
func TestColumnsInOrderAsked(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "t", "a.orc")
	writeSchemaORC(t, f, "struct<id:bigint,sku:string,qty:bigint>", 3)
	writeSchemaORC(t, filepath.Join(dir, "t", "b.orc"), "struct<id:bigint,sku:string,qty:bigint>", 3)
	for _, args := range [][]string{
		{"cat", "--columns", "sku,id", f},
		{"cat", "--columns", "sku,id", filepath.Join(dir, "t")},
		{"scan", "--columns", "sku,id", "--where", "qty = 21", f},
		{"scan", "--columns", "sku,id", "--where", "qty = 21", filepath.Join(dir, "t")},
		{"cat", "--columns", "sku,id", "--format", "csv", f},
	} {
		out, _, err := runCmd(t, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		want := `{"sku": "11", "id": 1}`
		if strings.Contains(strings.Join(args, " "), "csv") {
			want = "sku,id"
		} else if args[0] == "cat" {
			want = `{"sku": "10", "id": 0}`
		}
		if first != want {
			t.Errorf("%q: first line %q, want %q", args, first, want)
		}
	}
}
