package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A command without --where given one points to those that take it
// (issue 48, error messages).
func TestWhereOnCommandWithout(t *testing.T) {
	f := filepath.Join(t.TempDir(), "a.orc")
	writeORC(t, f, 0, 2)
	for _, cmd := range []string{"cat", "meta", "sizes"} {
		_, _, err := runCmd(t, cmd, "--where", "id = 1", f)
		if err == nil || !strings.Contains(err.Error(), "orc scan") {
			t.Errorf("%s --where: %v; want it to point to orc scan", cmd, err)
		}
	}
}
