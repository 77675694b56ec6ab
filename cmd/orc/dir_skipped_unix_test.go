//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Symbolic links, named pipes and other entries that are not regular files
// are named on stderr when a directory is read, as files that are not ORC
// are; symbolic links are not followed, and the note says so.
func TestDirNamesSkippedEntries(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "a.orc"), 0, 10)
	outside := filepath.Join(t.TempDir(), "o.orc")
	writeORC(t, outside, 100, 10)
	if err := os.Symlink(outside, filepath.Join(dir, "link.orc")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.orc"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	out, errOut, err := runCmd(t, "cat", dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n"); n != 10 {
		t.Fatalf("cat printed %d rows, want a.orc's 10:\n%s", n, out)
	}
	for _, want := range []string{"link.orc (symbolic link, not followed)", "loop (symbolic link, not followed)", "pipe.orc (named pipe)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}
