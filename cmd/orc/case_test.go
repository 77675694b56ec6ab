package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --columns matches names as --where does: exactly, else the one column
// equal ignoring case, for a file and a directory (issue 48, item 10).
func TestColumnsIgnoreCase(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "t", "a.orc")
	writeSchemaORC(t, f, "struct<id:bigint,sku:string>", 2)
	for _, p := range []string{f, filepath.Join(dir, "t")} {
		out, _, err := runCmd(t, "scan", "--columns", "ID,Sku", "--where", "ID = 1", p)
		if err != nil || strings.TrimSpace(out) != `{"id": 1, "sku": "11"}` {
			t.Errorf("%s: %v %q", p, err, out)
		}
	}
}
