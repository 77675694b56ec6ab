//go:build unix

package dataset_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
)

// TestDirFileReplacedByFIFO: a listed file replaced by a named pipe before
// the scan reaches it fails the scan at once, naming the path, instead of
// blocking on an open that waits for a writer that never comes. The same
// for a path given directly (FromPaths of a file).
func TestDirFileReplacedByFIFO(t *testing.T) {
	tf := makeFiles(t, 1, 2, 300)
	dir := t.TempDir()
	writeTree(t, dir, tf[0].data, "k=1/a.orc", "k=2/b.orc")
	listed, err := dataset.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := dataset.FromPaths(filepath.Join(dir, "k=2", "b.orc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"k=1/a.orc", "k=2/b.orc"} {
		p := filepath.Join(dir, filepath.FromSlash(n))
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	for _, c := range []struct {
		name  string
		files []dataset.File
		want  string
	}{{"listed", listed, "a.orc"}, {"direct", direct, "b.orc"}} {
		d, err := dataset.New(c.files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- scanErr(d) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "regular") {
				t.Fatalf("%s: a file replaced by a FIFO: %v; want an error naming %s as not a regular file", c.name, err, c.want)
			}
		case <-time.After(10 * time.Second):
			// Unblock the open so that the test's goroutine ends.
			for _, n := range []string{"k=1/a.orc", "k=2/b.orc"} {
				if f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(n)), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
			t.Fatalf("%s: the scan blocked opening a FIFO", c.name)
		}
	}
}
