package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Directories that fight back, through the commands: links (a loop, one
// leading out) are not followed, a partition key given twice is an error
// naming the file, and a file that vanishes after the listing is named.
func TestCommandsOnHostileDirectories(t *testing.T) {
	outside := t.TempDir()
	writeORC(t, filepath.Join(outside, "secret.orc"), 100, 3)
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "k=1", "a.orc"), 0, 2)
	for l, target := range map[string]string{
		"k=1/loop": "..",
		"out.orc":  filepath.Join(outside, "secret.orc"),
		"k=9":      outside,
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(l))); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	for _, cmd := range []string{"count", "cat", "scan", "check"} {
		out, errs, err := runCmd(t, cmd, dir)
		if err != nil || strings.Contains(out, "secret") || strings.Contains(out, `"id": 100`) || strings.Contains(out, "3\t") {
			t.Errorf("%s of a directory with links: %v\n%s%s", cmd, err, out, errs)
		}
	}
	out, _, err := runCmd(t, "count", dir)
	if want := "2\t" + filepath.Join(dir, "k=1", "a.orc") + "\n"; err != nil || out != want {
		t.Errorf("count: %v\n%s want\n%s", err, out, want)
	}

	twice := filepath.Join(dir, "k=2", "K=3", "b.orc")
	writeORC(t, twice, 10, 2)
	_, _, err = runCmd(t, "cat", dir)
	if err == nil || !strings.Contains(err.Error(), "given twice") || !strings.Contains(err.Error(), filepath.ToSlash(filepath.Join("k=2", "K=3", "b.orc"))) {
		t.Errorf("cat with a partition key twice in a path: %v", err)
	}
	if out, _, err := runCmd(t, "cat", dir, "--partitions", "none"); err != nil || strings.Count(out, "\n") != 4 {
		t.Errorf("cat --partitions none reads the files whatever their directories: %v\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(dir, "k=2"))

	// A dangling link is left out like any other link.
	if err := os.Symlink(filepath.Join(outside, "gone.orc"), filepath.Join(dir, "k=1", "gone.orc")); err != nil {
		t.Fatal(err)
	}
	if out, errs, err := runCmd(t, "cat", dir); err != nil || strings.Count(out, "\n") != 2 {
		t.Errorf("a dangling link is left out: %v\n%s%s", err, out, errs)
	}
}
