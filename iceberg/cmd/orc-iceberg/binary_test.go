package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildPrograms builds the orc command (from the repository's root
// module) and orc-iceberg beside it, as a user who installed both has
// them, and returns the orc program's path.
func buildPrograms(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the orc and orc-iceberg programs")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the programs with")
	}
	bin := t.TempDir()
	builds := []struct{ dir, out, pkg string }{
		{"../../..", "orc", "./cmd/orc"},
		{".", "orc-iceberg", "."},
	}
	errs := make(chan error, len(builds))
	for _, b := range builds { // side by side: linking orc-iceberg takes seconds
		go func() {
			cmd := exec.Command(goCmd, "build", "-o", filepath.Join(bin, b.out), b.pkg)
			cmd.Dir = b.dir
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
				return
			}
			errs <- nil
		}()
	}
	for range builds {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(bin, "orc")
}

// orc iceberg runs orc-iceberg found beside orc; its rows print exactly as
// orc scan prints the same rows of the table's data file, in every format.
func TestOrcCommandRunsHelper(t *testing.T) {
	orcCmd := buildPrograms(t)
	dir := t.TempDir()
	cat := "sqlite:" + filepath.Join(dir, "cat.db")
	runOrc := func(args ...string) (string, string, int) {
		cmd := exec.Command(orcCmd, args...)
		cmd.Env = append(os.Environ(), "ORC_ICEBERG=")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	if _, errOut, code := runOrc("iceberg", "create", "--catalog", cat, "db.t", "--schema",
		"struct<id:bigint,name:string,ts:timestamp,d:decimal(10,2),tags:array<string>,loc:struct<lat:double,lon:double>>"); code != 0 {
		t.Fatalf("orc iceberg create: exit %d: %s", code, errOut)
	}
	in := filepath.Join(dir, "in.jsonl")
	rows := `{"id": 1, "name": "a,b \"q\"", "ts": "2024-03-10 01:30:00.5", "d": "12.50", "tags": ["x", "y"], "loc": {"lat": 1.5, "lon": -2}}
{"id": 2, "name": null, "ts": null, "d": "-0.01", "tags": [], "loc": null}
{"id": 3, "name": "ü\ttab", "ts": "1969-12-31 23:59:59.999999", "d": null, "tags": null, "loc": {"lat": null, "lon": 3.25}}
`
	if err := os.WriteFile(in, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runOrc("iceberg", "append", "--catalog", cat, "db.t", in); code != 0 || !strings.Contains(out, "appended 3 rows in 1 data files") {
		t.Fatalf("orc iceberg append: exit %d: %s%s", code, out, errOut)
	}
	files, _, _ := runOrc("iceberg", "files", "--catalog", cat, "db.t")
	var dataFile string
	for _, f := range strings.Fields(files) {
		if p, ok := strings.CutPrefix(f, "file://"); ok {
			dataFile = p
		}
	}
	if dataFile == "" {
		t.Fatalf("no data file in\n%s", files)
	}
	for _, args := range [][]string{
		{"--format", "json"}, {"--format", "csv"}, {"--format", "tsv"}, {"--format", "table"},
		{"--format", "csv", "--columns", "loc.lon,name"}, {"--where", "id >= 2", "--format", "table", "--columns", "tags,id"},
	} {
		want, errOut, code := runOrc(append([]string{"scan", dataFile}, args...)...)
		if code != 0 {
			t.Fatalf("orc scan %s: exit %d: %s", args, code, errOut)
		}
		got, errOut, code := runOrc(append([]string{"iceberg", "scan", "--catalog", cat, "db.t"}, args...)...)
		if code != 0 || got != want {
			t.Errorf("orc iceberg scan %s: exit %d %s\n%s\norc scan prints\n%s", args, code, errOut, got, want)
		}
	}
	if _, errOut, code := runOrc("iceberg", "scan", "--catalog", cat, "db.nope"); code != 1 ||
		errOut != "orc iceberg scan: catalog "+cat+" has no table db.nope (orc iceberg create makes one)\n" {
		t.Errorf("an unknown table through orc: exit %d, %q", code, errOut)
	}
	if _, errOut, code := runOrc("iceberg", "create", "--catalog", cat, "db.u", "--schema", "struct<a:int>", "--partition-by", "year(a)"); code != 2 ||
		!strings.Contains(errOut, "year cannot partition column a of type int") {
		t.Errorf("a bad --partition-by through orc: exit %d, %q", code, errOut)
	}
}
