//go:build unix

package writer_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/orcgo/orc/writer"
)

// WriteFile's errors name the file, a row type it cannot map included
// (issue 48, error messages), and the file it writes is created 0666 less
// the umask, as other Unix tools create theirs (item 12).
func TestWriteFileNamesFileAndKeepsUmask(t *testing.T) {
	dir := t.TempDir()
	type bad struct {
		C chan int `orc:"c"`
	}
	p := filepath.Join(dir, "bad.orc")
	if err := writer.WriteFile(p, []bad{{}}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("a row type that does not map: %v; want the error to name %s", err, p)
	}
	type row struct {
		ID int64 `orc:"id"`
	}
	old := syscall.Umask(0o077)
	err := writer.WriteFile(filepath.Join(dir, "r.orc"), []row{{1}})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "r.orc")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("under umask 077: mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
}
