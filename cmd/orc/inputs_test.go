package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// count, check, meta and sizes take several files and directories, go on
// past a file that fails (its error names it, the command fails at the
// end), and leave out the files of a directory that are not ORC, naming
// them, as cat and scan do; scan without --where scans; --where twice is
// an error.
func TestCommandsTakeSeveralInputs(t *testing.T) {
	dir := t.TempDir()
	tbl := filepath.Join(dir, "tbl")
	a, b := filepath.Join(tbl, "a.orc"), filepath.Join(tbl, "sub", "b.orc")
	data := writeORC(t, a, 0, 10)
	writeORC(t, b, 10, 20)
	os.WriteFile(filepath.Join(tbl, "README.md"), []byte("notes\n"), 0o644)
	os.WriteFile(filepath.Join(tbl, "_SUCCESS"), nil, 0o644)
	trunc := filepath.Join(dir, "trunc.orc")
	os.WriteFile(trunc, data[:len(data)/2], 0o644)
	missing := filepath.Join(dir, "missing.orc")

	call := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		return code, out.String(), errs.String()
	}
	has := func(what, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, text)
			}
		}
	}
	skippedNote := "left out 1 file that is not ORC: README.md"

	code, out, errs := call("count", tbl, trunc, missing)
	if code != 1 || out != "10\t"+a+"\n20\t"+b+"\n30\ttotal (2 files)\n" {
		t.Errorf("count: exit %d, stdout:\n%s", code, out)
	}
	has("count's stderr", errs, skippedNote, "orc count: "+trunc+": corrupt file", "orc count: "+missing+": no such file", "orc count: 2 of 4 files failed")

	code, out, errs = call("meta", "--no-stripes", tbl, trunc)
	if code != 1 || strings.Count(out, "File: ") != 2 || strings.Contains(out, "Stripes:") {
		t.Errorf("meta: exit %d, stdout:\n%s", code, out)
	}
	has("meta", out, "File: "+a+" (", "File: "+b+" (")
	has("meta's stderr", errs, skippedNote, "orc meta: "+trunc+": corrupt file", "1 of 3 files failed")

	// One JSON document: an array of an object per file.
	code, out, _ = call("meta", "--json", tbl)
	var docs []struct{ File string }
	if err := json.Unmarshal([]byte(out), &docs); err != nil {
		t.Fatalf("meta --json of a directory: %v\n%s", err, out)
	}
	var files []string
	for _, d := range docs {
		files = append(files, d.File)
	}
	if code != 0 || len(files) != 2 || files[0] != a || files[1] != b {
		t.Errorf("meta --json of a directory: exit %d, files %q", code, files)
	}

	code, out, errs = call("check", a, b)
	if code != 0 || strings.Count(out, ": OK: ") != 2 {
		t.Errorf("check a b: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = call("sizes", tbl)
	if code != 0 || !strings.HasPrefix(out, a+":\nfile: ") || !strings.Contains(out, "\n\n"+b+":\nfile: ") {
		t.Errorf("sizes of a directory: exit %d\n%s", code, out)
	}

	code, out, errs = call("cat", tbl)
	if code != 0 || strings.Count(out, "\n") != 30 {
		t.Errorf("cat of a directory holding a README: exit %d, %d lines\n%s", code, strings.Count(out, "\n"), errs)
	}
	has("cat's stderr", errs, skippedNote)

	code, out, errs = call("scan", a)
	if code != 0 || strings.Count(out, "\n") != 10 {
		t.Errorf("scan without --where: exit %d, %d lines\n%s", code, strings.Count(out, "\n"), errs)
	}
	code, _, errs = call("meta")
	if code != 2 || !strings.Contains(errs, "orc meta: missing or extra arguments; orc meta --help describes them") {
		t.Errorf("meta without a file: exit %d\n%s", code, errs)
	}
	code, _, errs = call("scan", a, "--where", "id = 1", "--where", "id = 2")
	if code != 2 {
		t.Errorf("--where twice: exit %d", code)
	}
	has("--where twice", errs, `orc scan: --where "id = 2": given twice`)
}
