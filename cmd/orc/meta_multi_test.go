package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestMetaJSONSeveralFiles: "orc meta --json a.orc b.orc" (or a directory)
// prints one JSON document, an array with one object per file, which a
// JSON parser reads whole; a file that fails adds no element and the
// command fails. One file still prints its object alone.
func TestMetaJSONSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.orc"), filepath.Join(dir, "b.orc")
	writeORC(t, a, 100, 10)
	writeORC(t, b, 200, 20)
	out, _, err := runCmd(t, "meta", "--json", a, b)
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	if err := json.Unmarshal([]byte(out), &docs); err != nil {
		t.Fatalf("not one JSON document: %v\n%.300s", err, out)
	}
	if len(docs) != 2 || docs[0]["file"] != a || docs[1]["file"] != b || docs[1]["rows"] != float64(20) {
		t.Fatalf("%d objects: %v", len(docs), docs)
	}
	out, _, err = runCmd(t, "meta", "--json", "--no-stripes", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 2 {
		t.Fatalf("directory: %d objects, %v", len(docs), err)
	}
	bad := filepath.Join(dir, "c.orc")
	if err := os.WriteFile(bad, []byte("not an ORC file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "meta", "--json", a, bad, b)
	if err == nil {
		t.Fatal("a failing file: no error")
	}
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 2 {
		t.Fatalf("with a failing file: %d objects, %v\n%s", len(docs), err, errOut)
	}
	out, _, err = runCmd(t, "meta", "--json", a)
	if err != nil {
		t.Fatal(err)
	}
	var one map[string]any
	if err := json.Unmarshal([]byte(out), &one); err != nil || one["file"] != a {
		t.Fatalf("one file: %v %v", err, one)
	}
}
