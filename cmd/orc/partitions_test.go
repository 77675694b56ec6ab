package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// writeSchemaORC writes rows rows of schema s, column i of row r holding
// r+10*i (as the column's type: numbers, or their text).
func writeSchemaORC(t *testing.T, path, schema string, rows int) {
	t.Helper()
	s := orc.MustParseSchema(schema)
	b := orc.NewBatch(s, rows)
	for r := range rows {
		for i, v := range b.Cols {
			switch v := v.(type) {
			case *orc.LongVector:
				v.Append(int64(r + 10*i))
			case *orc.DoubleVector:
				v.Values = append(v.Values, float64(r+10*i))
			case *orc.BytesVector:
				v.AppendString(fmt.Sprint(r + 10*i))
			}
		}
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A directory's key=value partitions are columns without --partitions,
// typed from their values (a date, an integer, a string); --partitions
// overrides the types or, as none, leaves them out; a key that is also a
// column of the files stays the files' column; the predicate prunes on
// discovered partitions.
func TestPartitionsDiscovered(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "dt=2024-03-01", "n=7", "region=eu", "id=99", "a.orc"), 0, 2)
	writeORC(t, filepath.Join(dir, "dt=2024-03-02", "n=12", "region=us", "id=99", "b.orc"), 10, 2)

	out, _, err := runCmd(t, "cat", dir, "--limit", "1")
	if want := `{"id": 0, "v": "v0", "dt": "2024-03-01", "n": 7, "region": "eu"}` + "\n"; err != nil || out != want {
		t.Errorf("cat of a partitioned directory: %v\n%s want\n%s", err, out, want)
	}
	out, errs, err := runCmd(t, "scan", dir, "--where", "dt >= DATE '2024-03-02' AND n > 10", "--stats")
	if err != nil || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"region": "us"`) || statFigure(errs, "pruned by partition values") != 1 {
		t.Errorf("scan on discovered partitions: %v\n%s%s", err, out, errs)
	}
	out, _, err = runCmd(t, "cat", dir, "--limit", "1", "--partitions", "struct<n:string>")
	if want := `{"id": 0, "v": "v0", "n": "7"}` + "\n"; err != nil || out != want {
		t.Errorf("--partitions struct<n:string>: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "cat", dir, "--limit", "1", "--partitions", "none")
	if want := `{"id": 0, "v": "v0"}` + "\n"; err != nil || out != want {
		t.Errorf("--partitions none: %v\n%s", err, out)
	}

	// count takes the same flags, and --where counts the matching rows.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--where", "region = 'us'"}, "2\trows matching --where\n"},
		{[]string{"--where", "n = 7 AND id >= 1"}, "1\trows matching --where\n"},
		{[]string{"--where", "n = '7'", "--partitions", "struct<n:string>"}, "2\trows matching --where\n"},
	} {
		out, errs, err := runCmd(t, append([]string{"count", dir}, c.args...)...)
		if err != nil || out != c.want {
			t.Errorf("count %v: %v %q %s", c.args, err, out, errs)
		}
	}
	if _, _, err := runCmd(t, "count", dir, "--where", "nope = 1"); err == nil || !strings.Contains(err.Error(), `unknown column "nope"`) {
		t.Errorf("count --where on an unknown column: %v", err)
	}
}

// --union-by-name reads files of different columns through their union:
// columns in the order first seen, a column of several types widened
// (int and bigint are bigint), a file lacking a column null there; types
// that cannot be joined are reported with the files that hold them.
func TestUnionByName(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.orc"), filepath.Join(dir, "b.orc")
	writeSchemaORC(t, a, "struct<id:int,v:string>", 1)
	writeSchemaORC(t, b, "struct<w:double,ID:bigint>", 1)
	out, _, err := runCmd(t, "cat", dir)
	if err == nil {
		t.Errorf("cat without --union-by-name of files without a common column: %s", out)
	}
	out, errs, err := runCmd(t, "cat", dir, "--union-by-name")
	want := `{"id": 0, "v": "10", "w": null}` + "\n" + `{"id": 10, "v": null, "w": 0}` + "\n"
	if err != nil || out != want {
		t.Errorf("--union-by-name: %v\n%s%s want\n%s", err, out, errs, want)
	}
	c := filepath.Join(dir, "c.orc")
	writeSchemaORC(t, c, "struct<id:string,v:bigint>", 1)
	_, _, err = runCmd(t, "cat", dir, "--union-by-name")
	if err == nil || !strings.Contains(err.Error(), "id: bigint in "+b+", string in "+c) || !strings.Contains(err.Error(), "v: string in "+a+", bigint in "+c) {
		t.Errorf("--union-by-name with conflicts: %v", err)
	}
}
