//go:build unix

package localfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A regular file opens with its Stat; a named pipe and a directory are a
// *NotRegularError naming the path and the mode, returned at once.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "a.orc")
	if err := os.WriteFile(reg, []byte("ORC"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi.Size() != 3 {
		t.Errorf("size %d, want 3", fi.Size())
	}
	pipe := filepath.Join(dir, "p.orc")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, c := range []struct{ path, mode string }{{pipe, "p"}, {dir, "d"}} {
		_, _, err := Open(c.path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Path != c.path {
			t.Fatalf("Open(%s): %v, want a *NotRegularError naming it", c.path, err)
		}
		if want := c.path + ": not a regular file (mode " + c.mode; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Open(%s): %q, want it to start %q", c.path, err, want)
		}
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want os.ErrNotExist", err)
	}
}
