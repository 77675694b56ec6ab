package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A schema field that no input column gives is an error naming it, for a
// CSV header and an ORC input alike; --fill-missing writes it as nulls
// (issue 48, item 4).
func TestConvertMissingField(t *testing.T) {
	dir := t.TempDir()
	csvIn := writeFile(t, dir, "in.csv", "id,name\n1,a\n2,b\n")
	out := filepath.Join(dir, "out.orc")
	_, _, err := runConvertErr("--header", "--schema", "struct<id:int,nme:string>", csvIn, out)
	if err == nil || !strings.Contains(err.Error(), `"nme"`) || !strings.Contains(err.Error(), "--fill-missing") || !strings.Contains(err.Error(), "in.csv") {
		t.Errorf("CSV header without nme: %v; want an error naming nme, the file and --fill-missing", err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
	if _, _, err := runConvertErr("--header", "--fill-missing", "--schema", "struct<id:int,nme:string>", csvIn, out); err != nil {
		t.Fatal(err)
	}
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, "{\"id\": 1, \"nme\": null}\n{\"id\": 2, \"nme\": null}")) {
		t.Errorf("--fill-missing: %v", got)
	}

	// An ORC input read as a schema with a field it lacks.
	orcIn := filepath.Join(dir, "in.orc")
	writeSchemaORC(t, orcIn, "struct<id:bigint,v:string>", 2)
	out2 := filepath.Join(dir, "out2.orc")
	_, _, err = runConvertErr("--schema", "struct<id:bigint,w:string>", orcIn, out2)
	if err == nil || !strings.Contains(err.Error(), `"w"`) || !strings.Contains(err.Error(), "--fill-missing") {
		t.Errorf("ORC input without w: %v; want an error naming w and --fill-missing", err)
	}
	if _, _, err := runConvertErr("--fill-missing", "--schema", "struct<id:bigint,w:string>", orcIn, out2); err != nil {
		t.Fatal(err)
	}
	if got := catValues(t, out2); !reflect.DeepEqual(got, parseLines(t, "{\"id\": 0, \"w\": null}\n{\"id\": 1, \"w\": null}")) {
		t.Errorf("ORC --fill-missing: %v", got)
	}
	// Every field given: no flag needed, in any column order and case.
	if _, _, err := runConvertErr("--overwrite", "--header", "--schema", "struct<NAME:string,id:int>", csvIn, out); err != nil {
		t.Errorf("all fields named: %v", err)
	}
}
