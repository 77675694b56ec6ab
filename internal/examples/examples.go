// Package examples locates Apache ORC's conformance files for tests. They
// live outside the repository, at ../shared/orc-examples from the module
// root or wherever $ORC_EXAMPLES points, and are never copied in.
package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the examples folder. Without one, it skips the test with a
// message, except under CI (CI=true), where the files must be present and
// their absence fails the test.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		tb.Fatalf("ORC_EXAMPLES=%s is not a folder", d)
	}
	if root := moduleRoot(); root != "" {
		d := filepath.Join(root, "..", "shared", "orc-examples")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("Apache ORC examples not found at ../shared/orc-examples or $ORC_EXAMPLES; CI must have them")
	}
	tb.Skip("Apache ORC examples not found: set ORC_EXAMPLES or place them at ../shared/orc-examples")
	return ""
}

// Path returns the path of one example file, skipping as Dir does.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), name)
}

// moduleRoot walks up from the working directory to the folder whose
// go.mod declares the library's module, so that tests of nested modules
// (bench/, arrow/) find the examples beside the repository too.
func moduleRoot() string {
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
