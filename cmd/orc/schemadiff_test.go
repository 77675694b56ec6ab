package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A directory whose files have different schemas is an error naming the
// first file that differs and the difference, and suggesting
// --union-by-name, in every command that reads it as one table; the flag
// (or --schema) reads it (issue 48, item 3).
func TestDirectoryOfDifferingSchemas(t *testing.T) {
	dir := t.TempDir()
	writeSchemaORC(t, filepath.Join(dir, "a.orc"), "struct<id:bigint,v:string>", 3)
	writeSchemaORC(t, filepath.Join(dir, "b.orc"), "struct<id:bigint,w:string>", 2)
	for _, args := range [][]string{
		{"cat", dir},
		{"scan", dir, "--where", "id >= 0"},
		{"count", dir, "--where", "id >= 0"},
		{"cat", filepath.Join(dir, "a.orc"), filepath.Join(dir, "b.orc")},
	} {
		out, _, err := runCmd(t, args...)
		if err == nil {
			t.Errorf("%q: no error; printed %q", args, out)
			continue
		}
		for _, w := range []string{filepath.Join(dir, "b.orc"), filepath.Join(dir, "a.orc"), `column "v" is missing`, "--union-by-name"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q lacks %q", args, err, w)
			}
		}
	}
	out, _, err := runCmd(t, "cat", "--union-by-name", dir)
	if err != nil || strings.Count(out, "\n") != 5 || !strings.Contains(out, `"w": "11"`) {
		t.Errorf("--union-by-name: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "cat", "--schema", "struct<id:bigint,v:string>", dir)
	if err != nil || strings.Count(out, "\n") != 5 {
		t.Errorf("--schema: %v\n%s", err, out)
	}
}
