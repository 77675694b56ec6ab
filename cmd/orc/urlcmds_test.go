package main

import (
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
