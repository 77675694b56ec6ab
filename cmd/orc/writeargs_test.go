package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that writes takes OUT last (or as -o OUT), and no hint or
// --overwrite ever replaces an input (issue 48, item 1): "orc merge p1.orc
// p2.orc all.orc" writes all.orc and leaves p1.orc as it was.
func TestWriteCommandsTakeOutLast(t *testing.T) {
	dir := t.TempDir()
	p1, p2, all := filepath.Join(dir, "p1.orc"), filepath.Join(dir, "p2.orc"), filepath.Join(dir, "all.orc")
	d1 := writeORC(t, p1, 0, 100)
	d2 := writeORC(t, p2, 100, 100)
	unchanged := func(what string) {
		t.Helper()
		for _, f := range []struct {
			path string
			data []byte
		}{{p1, d1}, {p2, d2}} {
			if got, err := os.ReadFile(f.path); err != nil || !bytes.Equal(got, f.data) {
				t.Fatalf("%s: input %s changed (%v)", what, f.path, err)
			}
		}
	}
	if _, _, err := runCmd(t, "merge", p1, p2, all); err != nil {
		t.Fatalf("merge p1 p2 all: %v", err)
	}
	unchanged("merge p1 p2 all")
	if got, _, err := runCmd(t, "count", all); err != nil || !strings.Contains(got, "200") {
		t.Fatalf("count of all.orc: %v %q", err, got)
	}

	// An existing OUT is refused, and the refusal says which argument is
	// OUT, so that following it cannot replace what was meant as an input.
	_, _, err := runCmd(t, "merge", p1, p2, all)
	if err == nil || !strings.Contains(err.Error(), "all.orc") || !strings.Contains(err.Error(), "last argument") {
		t.Errorf("merge onto an existing OUT: %v; want it named as the last argument", err)
	}
	// The old order (OUT first) with --overwrite: OUT is now p2.orc, which
	// exists, but every argument before it is read, and all.orc is an
	// input: it is not replaced either.
	if _, _, err := runCmd(t, "merge", "--overwrite", all, p1, all); err == nil {
		t.Errorf("merge --overwrite all p1 all: want a refusal (OUT is an input)")
	}
	for _, args := range [][]string{
		{"merge", "--overwrite", p1, p2, p1},
		{"merge", "--overwrite", "-o", p1, p1, p2},
		{"convert", "--overwrite", "-o", p2, p1, p2},
	} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%q: want a refusal (OUT is an input)", args)
		}
		unchanged(strings.Join(args, " "))
	}

	// -o OUT: every other argument is an input, for merge and convert alike.
	m2, c2 := filepath.Join(dir, "m2.orc"), filepath.Join(dir, "c2.orc")
	if _, _, err := runCmd(t, "merge", "-o", m2, p1, p2); err != nil {
		t.Fatalf("merge -o: %v", err)
	}
	if _, _, err := runCmd(t, "convert", p1, p2, "-o", c2); err != nil {
		t.Fatalf("convert -o: %v", err)
	}
	for _, f := range []string{m2, c2} {
		if got, _, err := runCmd(t, "count", f); err != nil || !strings.Contains(got, "200") {
			t.Errorf("count of %s: %v %q", f, err, got)
		}
	}
	unchanged("-o")
	// convert's refusal names OUT as merge's does.
	if _, _, err := runCmd(t, "convert", p1, c2); err == nil || !strings.Contains(err.Error(), "last argument") {
		t.Errorf("convert onto an existing OUT: %v", err)
	}
}
