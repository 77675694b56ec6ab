//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every file the commands write is created 0666 less the umask, as other
// Unix tools create theirs: 0600 under umask 077, 0644 under 022 (issue 48,
// item 12). The test changes the process's umask, so it runs alone.
func TestOutputModeFollowsUmask(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.orc")
	writeORC(t, a, 0, 10)
	table := filepath.Join(dir, "table")
	writeORC(t, filepath.Join(table, "p.orc"), 0, 10)
	for _, tc := range []struct {
		umask int
		want  os.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}, {0o002, 0o664}} {
		old := syscall.Umask(tc.umask)
		c, m := filepath.Join(dir, "c.orc"), filepath.Join(dir, "m.orc")
		var errs []error
		for _, args := range [][]string{
			{"convert", "--overwrite", a, c},
			{"merge", "--overwrite", a, a, m},
			{"index", "build", table},
		} {
			if _, _, err := runCmd(t, args...); err != nil {
				errs = append(errs, err)
			}
		}
		syscall.Umask(old)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, f := range []string{c, m, filepath.Join(table, "_orcgo_index.orc")} {
			st, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Mode().Perm(); got != tc.want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", tc.umask, filepath.Base(f), got, tc.want)
			}
		}
	}
}
