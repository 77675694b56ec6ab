//go:build unix

package dataset_test

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/orcgo/orc/dataset"
)

// ListPaths reports the entries it leaves out for their kind (symbolic
// links, not followed, and other files that are not regular), hidden and
// marker names aside, with names as File.Name spells them.
func TestListPathsSkipped(t *testing.T) {
	dir := t.TempDir()
	tf := makeFiles(t, 1, 1, 10)
	writeTree(t, dir, tf[0].data, "k=1/a.orc", "_SUCCESS")
	if err := os.Symlink(filepath.Join(dir, "k=1", "a.orc"), filepath.Join(dir, "k=1", "b.orc")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "k=1", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "p.orc"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, ".hidden")); err != nil {
		t.Fatal(err)
	}
	files, skipped, err := dataset.ListPaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "k=1/a.orc" {
		t.Fatalf("files %v", files)
	}
	want := []dataset.Skipped{{Name: "k=1/b.orc", Kind: "symbolic link"}, {Name: "k=1/loop", Kind: "symbolic link"}, {Name: "p.orc", Kind: "named pipe"}}
	slices.SortFunc(skipped, func(a, b dataset.Skipped) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	if !slices.Equal(skipped, want) {
		t.Fatalf("skipped %v, want %v", skipped, want)
	}
}
