package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A varchar(n) or char(n) value longer than n characters is a bad row naming
// line, column and length, as a decimal that would round is, from CSV, JSON
// and ORC inputs; --truncate cuts it to n characters (issue 48, item 5).
func TestConvertNoSilentTruncation(t *testing.T) {
	dir := t.TempDir()
	csvIn := writeFile(t, dir, "in.csv", "1,ab\n2,abcdef\n")
	jsonIn := writeFile(t, dir, "in.jsonl", "{\"id\": 1, \"s\": \"ab\"}\n{\"id\": 2, \"s\": \"abcdéf\"}\n")
	orcIn := filepath.Join(dir, "in.orc")
	writeSchemaORC(t, orcIn, "struct<id:bigint,s:string>", 12) // s of row 10 is "20"
	for _, tc := range []struct {
		in, schema, want string
	}{
		{csvIn, "struct<id:int,s:varchar(3)>", "line 2"},
		{csvIn, "struct<id:int,s:char(3)>", "line 2"},
		{jsonIn, "struct<id:int,s:varchar(3)>", "line 2"},
		{orcIn, "struct<id:bigint,s:varchar(1)>", `"s"`},
	} {
		out := filepath.Join(dir, "out.orc")
		_, _, err := runConvertErr("--overwrite", "--schema", tc.schema, tc.in, out)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--truncate") {
			t.Errorf("%s as %s: %v; want an error naming %s and --truncate", filepath.Base(tc.in), tc.schema, err, tc.want)
		}
		if _, _, err := runConvertErr("--overwrite", "--truncate", "--schema", tc.schema, tc.in, out); err != nil {
			t.Errorf("%s as %s --truncate: %v", filepath.Base(tc.in), tc.schema, err)
		}
	}
	out := filepath.Join(dir, "t.orc")
	if _, _, err := runConvertErr("--truncate", "--schema", "struct<id:int,s:varchar(3)>", jsonIn, out); err != nil {
		t.Fatal(err)
	}
	if got := catValues(t, out); !reflect.DeepEqual(got, parseLines(t, "{\"id\": 1, \"s\": \"ab\"}\n{\"id\": 2, \"s\": \"abc\"}")) {
		t.Errorf("--truncate: %v", got)
	}
	// Values that fit need no flag, counted in characters, not bytes.
	fit := writeFile(t, dir, "fit.csv", "1,héé\n")
	if _, _, err := runConvertErr("--schema", "struct<id:int,s:varchar(3)>", fit, filepath.Join(dir, "fit.orc")); err != nil {
		t.Errorf("a value that fits: %v", err)
	}
	if _, _, err := runConvertErr("--schema", "struct<id:bigint,s:varchar(2)>", orcIn, filepath.Join(dir, "fit2.orc")); err != nil {
		t.Errorf("ORC values that fit: %v", err)
	}
}
