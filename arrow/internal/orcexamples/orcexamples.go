// Package orcexamples locates Apache ORC's example files for the tests of
// the orcarrow module. They live outside the repository, at
// ../shared/orc-examples next to the repository's root (the folder holding
// the library's go.mod, one level above this module), or wherever
// $ORC_EXAMPLES points.
package orcexamples

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the examples folder, or skips the test with a message when
// there is none (under CI=true their absence fails the test instead).
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		tb.Fatalf("ORC_EXAMPLES=%s is not a folder", d)
	}
	if root := repoRoot(); root != "" {
		d := filepath.Join(root, "..", "shared", "orc-examples")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("Apache ORC examples not found at <repo>/../shared/orc-examples or $ORC_EXAMPLES; CI must have them")
	}
	tb.Skip("Apache ORC examples not found: set ORC_EXAMPLES or place them at <repo>/../shared/orc-examples")
	return ""
}

// repoRoot walks up from the working directory to the folder whose go.mod
// declares the library's module.
func repoRoot() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if first, _, _ := bytes.Cut(b, []byte("\n")); string(bytes.TrimSpace(first)) == "module github.com/orcgo/orc" {
				return d
			}
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}
