package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A corrupt stream's error names its column's path, not only its id, in
// a file's scan and a directory's (issue 48, error messages).
func TestCorruptColumnNamed(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.jsonl", strings.Repeat(`{"id": 1, "loc": {"lat": 1.5, "name": "abcdefgh"}}`+"\n", 200))
	f := filepath.Join(dir, "t", "a.orc")
	os.MkdirAll(filepath.Dir(f), 0o755)
	mustConvert(t, "--compression", "none", "--schema", "struct<id:bigint,loc:struct<lat:double,name:string>>", in, f)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	// Scramble the first streams (after the magic): the id column's data.
	for i := 3; i < len(data)/3; i++ {
		data[i] ^= 0x5a
	}
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f, filepath.Dir(f)} {
		_, _, err := runCmd(t, "cat", p)
		if err == nil || !strings.Contains(err.Error(), `column 1 "id"`) {
			t.Errorf("%s: %v; want the column's path beside its id", p, err)
		}
	}
}
