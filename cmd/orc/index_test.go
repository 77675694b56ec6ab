package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc/dataset/statsindex"
)

// TestIndexCommands builds a directory's index, scans with and without it
// (the same rows; files ruled out unopened), adds a file after the build
// (read all the same), and shows the index.
func TestIndexCommands(t *testing.T) {
	dir := t.TempDir()
	for m := 1; m <= 4; m++ {
		writeORC(t, filepath.Join(dir, fmt.Sprintf("dt=2024-%02d-01", m), "part-0.orc"), m*1000, 100)
	}
	out, _, err := runCmd(t, "index", "build", dir, "--partitions", "struct<dt:date>", "--columns", "id")
	if err != nil || !strings.Contains(out, "4 files, columns id") {
		t.Fatalf("index build: %q, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(dir, statsindex.FileName)); err != nil {
		t.Fatal(err)
	}
	scan := func(extra ...string) (string, string) {
		t.Helper()
		args := append([]string{"scan", dir, "--partitions", "struct<dt:date>", "--where", "id = 2005 OR id = 4099 OR dt = DATE '2024-01-01' AND v = 'v1003'", "--stats", "--explain"}, extra...)
		out, errOut, err := runCmd(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out, errOut
	}
	want, errOut := scan("--no-index")
	if strings.Contains(errOut, "by the index") {
		t.Fatalf("--no-index used the index:\n%s", errOut)
	}
	got, errOut := scan()
	if got != want || strings.Count(got, "\n") != 3 {
		t.Fatalf("rows through the index:\n%s\nwithout:\n%s", got, want)
	}
	if !strings.Contains(errOut, "3 opened") || !strings.Contains(errOut, "1 by the index") ||
		!strings.Contains(errOut, "index: lookup expression: (min(id) IS NULL OR min(id) <= 2005)") {
		t.Fatalf("scan through the index:\n%s", errOut)
	}
	// A file added after the build is read.
	writeORC(t, filepath.Join(dir, "dt=2024-05-01", "part-0.orc"), 2000, 10)
	got, errOut = scan()
	if strings.Count(got, "\n") != 4 || !strings.Contains(errOut, "1 not in it or changed") {
		t.Fatalf("after adding a file:\n%s\n%s", got, errOut)
	}
	if _, _, err := runCmd(t, "index", "check", dir); err == nil || !strings.Contains(err.Error(), "dt=2024-05-01") ||
		!strings.Contains(err.Error(), "orc index update "+dir) {
		t.Fatalf("check of a stale index: %v", err)
	}
	out, _, err = runCmd(t, "index", "update", dir)
	if err != nil || !strings.Contains(out, "5 files (1 footers read)") {
		t.Fatalf("index update: %q, %v", out, err)
	}
	if out, _, err := runCmd(t, "index", "check", dir); err != nil || !strings.Contains(out, "current (5 files)") {
		t.Fatalf("check of an updated index: %q, %v", out, err)
	}
	got, errOut = scan()
	if strings.Count(got, "\n") != 4 || !strings.Contains(errOut, "0 not in it or changed") {
		t.Fatalf("after the update:\n%s\n%s", got, errOut)
	}
	out, _, err = runCmd(t, "index", "show", dir)
	if err != nil || !strings.Contains(out, "files: 5") || !strings.Contains(out, "columns: id bigint") || !strings.Contains(out, "partitions: struct<dt:date>") {
		t.Fatalf("index show: %q, %v", out, err)
	}
	// A damaged index is a warning, not a failure.
	os.WriteFile(filepath.Join(dir, statsindex.FileName), []byte("garbage"), 0o644)
	got, errOut = scan()
	if strings.Count(got, "\n") != 4 || !strings.Contains(errOut, "warning: index ignored") || !strings.Contains(errOut, statsindex.FileName) {
		t.Fatalf("damaged index:\n%s\n%s", got, errOut)
	}
	if _, _, err := runCmd(t, "index", "frob", dir); err == nil {
		t.Fatal("index frob was accepted")
	}
}

// TestIndexBloomColumns: index build --bloom-columns keeps a filter of each
// file's values of a column, so that an equality rules out a file whose
// range holds the value but whose values do not; show names the filters.
func TestIndexBloomColumns(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "a.orc"), 0, 100) // v0 .. v99
	writeORC(t, filepath.Join(dir, "b.orc"), 60, 50) // v60 .. v109: 'v7' sorts inside
	scan := func() (string, string) {
		t.Helper()
		out, errOut, err := runCmd(t, "scan", dir, "--where", "v = 'v7'", "--stats")
		if err != nil {
			t.Fatal(err)
		}
		return out, errOut
	}
	if _, _, err := runCmd(t, "index", "build", dir, "--columns", "id,v"); err != nil {
		t.Fatal(err)
	}
	out, errOut := scan()
	if strings.Count(out, "\n") != 1 || !strings.Contains(errOut, "0 by the index") {
		t.Fatalf("without filters:\n%s\n%s", out, errOut)
	}
	if _, _, err := runCmd(t, "index", "build", dir, "--bloom-columns", "id,v"); err != nil {
		t.Fatal(err)
	}
	out, errOut = scan()
	if strings.Count(out, "\n") != 1 || !strings.Contains(errOut, "1 by the index") {
		t.Fatalf("with filters:\n%s\n%s", out, errOut)
	}
	show, _, err := runCmd(t, "index", "show", dir)
	if err != nil || !strings.Contains(show, "v string (bloom filter, fpp 0.05)") {
		t.Fatalf("show: %q, %v", show, err)
	}
	if _, _, err := runCmd(t, "index", "update", dir, "--bloom-columns", "v"); err == nil {
		t.Fatal("update took --bloom-columns")
	}
	if _, _, err := runCmd(t, "index", "build", dir, "--columns", "id", "--bloom-columns", "v"); err == nil || !strings.Contains(err.Error(), "not an indexed column") {
		t.Fatalf("a filter on an unindexed column: %v", err)
	}
}
