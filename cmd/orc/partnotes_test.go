package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Partition keys are never dropped or shadowed without a word (issue 48,
// item 9): --partitions naming some keys notes the others it leaves out,
// and a key that is also a column of the files is noted as read from the
// files.
func TestPartitionNotes(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "dt=2024-03-01", "region=eu", "id=99", "a.orc"), 0, 2)
	_, errs, err := runCmd(t, "cat", dir, "--partitions", "struct<dt:string>")
	if err != nil || !strings.Contains(errs, "region") || !strings.Contains(errs, "--partitions") {
		t.Errorf("--partitions leaving region out: %v, stderr %q; want a note naming region", err, errs)
	}
	_, errs, err = runCmd(t, "cat", dir)
	if err != nil || !strings.Contains(errs, `"id"`) || !strings.Contains(errs, "column of the files") {
		t.Errorf("a key that is also a column: %v, stderr %q; want a note naming id", err, errs)
	}
	if _, errs, _ := runCmd(t, "cat", dir, "--partitions", "none"); errs != "" {
		t.Errorf("--partitions none: stderr %q, want nothing", errs)
	}
}
