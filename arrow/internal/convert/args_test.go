//go:build unix

package convert

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// Flags go anywhere among the arguments, as the orc command takes them
// (issue 48, item 13): -overwrite after the files is a flag, not a third
// argument; "--" ends the flags.
func TestParseFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		over bool
		n    int
	}{
		{[]string{"in.orc", "out.parquet", "-overwrite"}, []string{"in.orc", "out.parquet"}, true, 1},
		{[]string{"-n", "3", "in.orc", "--overwrite", "out.parquet"}, []string{"in.orc", "out.parquet"}, true, 3},
		{[]string{"in.orc", "-n", "5", "out.parquet"}, []string{"in.orc", "out.parquet"}, false, 5},
		{[]string{"in.orc", "--", "-overwrite"}, []string{"in.orc", "-overwrite"}, false, 1},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		over := fs.Bool("overwrite", false, "")
		n := fs.Int("n", 1, "")
		pos, err := ParseFlags(fs, tc.args)
		if err != nil || !slices.Equal(pos, tc.pos) || *over != tc.over || *n != tc.n {
			t.Errorf("%q: %q %v %d %v; want %q %v %d", tc.args, pos, *over, *n, err, tc.pos, tc.over, tc.n)
		}
	}
}

// The output is created 0666 less the umask, as other Unix tools create
// files (issue 48, item 12).
func TestOutputMode(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	out, err := CreateOutput(filepath.Join(dir, "o.parquet"), false)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "o.parquet"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", st.Mode(), err)
	}
}
