package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// orc iceberg runs the helper $ORC_ICEBERG names with its arguments, its
// output and error passed through and its exit status kept; without a
// helper it says how to install one.
func TestIcebergHelper(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in helper is a shell script")
	}
	dir := t.TempDir()
	helper := filepath.Join(dir, "fake-orc-iceberg")
	script := "#!/bin/sh\necho \"args: $*\"\necho 'orc iceberg scan: catalog sqlite:x.db has no table db.t' >&2\nexit 3\n"
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(icebergHelperEnv, helper)
	var out, errOut bytes.Buffer
	code := run([]string{"iceberg", "scan", "--catalog", "sqlite:x.db", "db.t"}, &out, &errOut)
	if code != 3 || out.String() != "args: scan --catalog sqlite:x.db db.t\n" ||
		errOut.String() != "orc iceberg scan: catalog sqlite:x.db has no table db.t\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}

	// A helper ended by a signal: 128 + its number, nothing more said.
	killed := filepath.Join(dir, "killed-orc-iceberg")
	if err := os.WriteFile(killed, []byte("#!/bin/sh\nkill -TERM $$\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(icebergHelperEnv, killed)
	errOut.Reset()
	if code := run([]string{"iceberg", "scan"}, &out, &errOut); code != 128+15 || errOut.Len() != 0 {
		t.Errorf("a helper ended by SIGTERM: exit %d, %q", code, errOut.String())
	}

	t.Setenv(icebergHelperEnv, filepath.Join(dir, "missing"))
	out.Reset()
	errOut.Reset()
	if code := run([]string{"iceberg", "files"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "$ORC_ICEBERG names "+filepath.Join(dir, "missing")) {
		t.Errorf("a missing $ORC_ICEBERG: exit %d, %q", code, errOut.String())
	}

	// Not named, not beside the test binary, not on PATH.
	t.Setenv(icebergHelperEnv, "")
	t.Setenv("PATH", dir)
	errOut.Reset()
	if code := run([]string{"iceberg", "files"}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "orc-iceberg helper, which reads and writes Iceberg tables, was not found: go install github.com/orcgo/orc/iceberg/cmd/orc-iceberg@latest") {
		t.Errorf("no helper: exit %d, %q", code, errOut.String())
	}
	out.Reset()
	if code := run([]string{"help", "iceberg"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage: orc iceberg create|append|scan|files|snapshots") ||
		!strings.Contains(out.String(), "cd iceberg && go install ./cmd/orc-iceberg") {
		t.Errorf("orc help iceberg without the helper: exit %d, %q", code, out.String())
	}
}
