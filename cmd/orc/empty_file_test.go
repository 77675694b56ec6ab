package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 0-byte file sorting first in a directory does not decide the
// directory's schema, nor which partition keys are columns of the files.
func TestEmptyFileFirstInDir(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "v=v3", "b.orc"), 0, 3000)
	if err := os.WriteFile(filepath.Join(dir, "v=v3", "a.orc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "cat", dir, "--limit", "2")
	if err != nil {
		t.Fatalf("cat: %v %s", err, errOut)
	}
	if !strings.HasPrefix(out, `{"id": 0, "v": "v0"}`) {
		t.Fatalf("cat printed:\n%s", out)
	}
	out, errOut, err = runCmd(t, "scan", dir, "--where", "id < 5")
	if err != nil {
		t.Fatalf("scan: %v %s", err, errOut)
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Fatalf("scan --where id < 5 printed %d rows:\n%s", n, out)
	}
}
