package helper

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFind: the environment variable first (a missing file it names is an
// error naming both), then PATH; nowhere is ErrNotFound.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "orc-test-helper")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ORC_TEST_HELPER", prog)
	if p, err := Find("ORC_TEST_HELPER", "orc-test-helper"); err != nil || p != prog {
		t.Fatalf("from the environment: %q, %v", p, err)
	}
	t.Setenv("ORC_TEST_HELPER", filepath.Join(dir, "nothing"))
	if _, err := Find("ORC_TEST_HELPER", "orc-test-helper"); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing file in the environment: %v", err)
	}
	t.Setenv("ORC_TEST_HELPER", "")
	t.Setenv("PATH", dir)
	if p, err := Find("ORC_TEST_HELPER", "orc-test-helper"); err != nil || p != prog {
		t.Fatalf("on PATH: %q, %v", p, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Find("ORC_TEST_HELPER", "orc-test-helper"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("nowhere: %v", err)
	}
}
