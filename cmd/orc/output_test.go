package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// orc schema prints the type as --schema takes it, and with --json the
// type tree with ids, decimal precision and scale and struct fields in
// order; convert --metadata stores key=value pairs in the file.
func TestSchemaAndMetadata(t *testing.T) {
	dir := t.TempDir()
	test1 := filepath.Join(examplesDir(t), "TestOrcFile.test1.orc")
	r, closeFn, err := openORC(test1)
	if err != nil {
		t.Fatal(err)
	}
	want := r.Schema().String()
	closeFn()
	out, _, err := runCmd(t, "schema", test1)
	if err != nil || out != want+"\n" {
		t.Errorf("schema: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "schema", "--json", filepath.Join(examplesDir(t), "decimal.orc"))
	var tree struct {
		Category string
		ID, Max  int
		Fields   []map[string]struct {
			Category         string
			ID               int
			Precision, Scale int
		}
	}
	if err != nil || json.Unmarshal([]byte(out), &tree) != nil || tree.Category != "struct" || tree.Max != 1 || len(tree.Fields) != 1 ||
		tree.Fields[0]["_col0"].Category != "decimal" || tree.Fields[0]["_col0"].Precision != 10 || tree.Fields[0]["_col0"].Scale != 5 {
		t.Errorf("schema --json: %v %+v\n%s", err, tree, out)
	}

	in := writeFile(t, dir, "in.csv", "1\n")
	dst := filepath.Join(dir, "out.orc")
	if _, err := convert(t, "--schema", "struct<a:int>", "--metadata", "origin=test", "--metadata", "note=a=b c", in, dst); err != nil {
		t.Fatal(err)
	}
	r, closeFn, err = openORC(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var got []string
	for _, kv := range r.UserMetadata() {
		got = append(got, kv.Key+"="+string(kv.Value))
	}
	if strings.Join(got, ";") != "origin=test;note=a=b c" {
		t.Errorf("--metadata stored %q", got)
	}
	for _, bad := range [][]string{{"--metadata", "x"}, {"--metadata", "k=1", "--metadata", "k=2"}} {
		if _, err := convert(t, append(append(bad, "--schema", "struct<a:int>", "--overwrite"), in, dst)...); err == nil {
			t.Errorf("convert %v succeeded", bad)
		}
	}
}
