package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command reads a table URL (ending in /) through its index, as cat
// and scan do; a URL that answers with an HTML page (a directory listing)
// is an error saying so, not "not an ORC file" (issue 48, item 11).
func TestTableURLEveryCommand(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "a.orc"), 0, 10)
	writeORC(t, filepath.Join(dir, "b.orc"), 10, 5)
	if _, _, err := runCmd(t, "index", "build", dir); err != nil {
		t.Fatal(err)
	}
	sd := serveDir(t, dir)
	url := sd.srv.URL + "/"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"count", url}, "15\ttotal (2 files)"},
		{[]string{"meta", url}, "b.orc"},
		{[]string{"schema", url}, "struct<id:bigint,v:string>"},
		{[]string{"sizes", url}, "b.orc"},
	} {
		out, _, err := runCmd(t, tc.args...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: %v\n%s", strings.Join(tc.args, " "), err, out)
		}
	}
	sub := filepath.Join(dir, "sub")
	writeORC(t, filepath.Join(sub, "c.orc"), 0, 1)
	for _, cmd := range []string{"meta", "count", "schema"} {
		_, errs, err := runCmd(t, cmd, sd.srv.URL+"/sub/")
		if err == nil || !strings.Contains(err.Error()+errs, "index") {
			t.Errorf("%s of a table URL without an index: %v; want it to say the index is missing", cmd, err)
		}
		_, errs, err = runCmd(t, cmd, sd.srv.URL+"/sub")
		if err == nil || !strings.Contains(err.Error()+errs, "HTML") || !strings.Contains(err.Error()+errs, "directory listing") {
			t.Errorf("%s of a directory listing's URL: %v; want it to say it is an HTML page", cmd, err)
		}
	}
}

// A file the index lists but the server no longer has: the error says the
// index is stale and how to refresh it (issue 48, error messages).
func TestStaleURLIndex(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "a.orc"), 0, 10)
	writeORC(t, filepath.Join(dir, "b c.orc"), 10, 5)
	if _, _, err := runCmd(t, "index", "build", dir); err != nil {
		t.Fatal(err)
	}
	sd := serveDir(t, dir)
	if out, _, err := runCmd(t, "count", sd.srv.URL+"/"); err != nil || !strings.Contains(out, "b%20c.orc") {
		t.Errorf("count of a table with a file name to escape: %v %q", err, out)
	}
	if err := os.Remove(filepath.Join(dir, "b c.orc")); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, "cat", sd.srv.URL+"/")
	if err == nil || !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), "orc index update") {
		t.Errorf("cat of a table whose index lists a removed file: %v; want it to say the index is stale", err)
	}
}
