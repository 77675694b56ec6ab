package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What convert writes is what its name and its input say (issue 48, item
// 15): an OUT named for another format is refused, pointing to the
// converter that writes it; a CSV of one line of distinct names, with the
// schema inferred, is a header and no rows; "wrote 1 row", not "1 rows".
func TestConvertNoSurprises(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "people.csv", "id,name\n1,ann\n")
	for _, name := range []string{"out.parquet", "out.csv", "out.jsonl", "OUT.PARQUET"} {
		_, _, err := runConvertErr(in, filepath.Join(dir, name))
		if err == nil || !strings.Contains(err.Error(), "writes ORC") {
			t.Errorf("OUT %s: %v; want a refusal saying convert writes ORC", name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("OUT %s was written", name)
		}
	}
	out, _, err := runConvertErr(in, filepath.Join(dir, "one.orc"))
	if err != nil || !strings.Contains(out, "wrote 1 row to") {
		t.Errorf("one row: %v %q", err, out)
	}
	// Any other name (or none) is ORC's.
	if _, _, err := runConvertErr(in, filepath.Join(dir, "people")); err != nil {
		t.Errorf("OUT without an extension: %v", err)
	}

	only := writeFile(t, dir, "only.csv", "id,name\n")
	out, errOut, err := runConvertErr(only, filepath.Join(dir, "only.orc"))
	if err != nil || !strings.Contains(out, "wrote 0 rows") || !strings.Contains(errOut, "read as the header") {
		t.Errorf("a header alone: %v %q %q", err, out, errOut)
	}
	if got := catValues(t, filepath.Join(dir, "only.orc")); len(got) != 0 {
		t.Errorf("a header alone: rows %v", got)
	}
	sch, _, _ := runCmd(t, "schema", filepath.Join(dir, "only.orc"))
	if !strings.Contains(sch, "id:") || !strings.Contains(sch, "name:") {
		t.Errorf("a header alone: schema %q", sch)
	}
	// --header=false reads it as a row.
	out, _, err = runConvertErr("--header=false", only, filepath.Join(dir, "row.orc"))
	if err != nil || !strings.Contains(out, "wrote 1 row") {
		t.Errorf("--header=false: %v %q", err, out)
	}
}
