package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// writeStrided writes struct<id:bigint,v:string> with ids first.. in
// stripes of stripeRows rows and row groups of stride rows.
func writeStrided(t *testing.T, path string, first, rows, stride int, stripeRows int64, opts ...writer.Option) {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,v:string>")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts = append([]writer.Option{writer.WithRowIndexStride(stride), writer.WithStripeRowLimit(stripeRows)}, opts...)
	w, err := writer.NewWriter(f, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 100)
	for i := 0; i < rows; {
		b.Reset()
		for ; b.NumRows < 100 && i < rows; i++ {
			b.Cols[0].(*orc.LongVector).Append(int64(first + i))
			b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprint("v", first+i))
			b.NumRows++
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// scan --explain: the compact form per stripe, leaves as written (id >= 150
// is not shown as its inner leaf id < 150), skipped stripes with the leaf
// that ruled them out; --explain=full and --explain-groups give one line
// per row group, with the leaf values as written.
func TestScanExplain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.orc")
	writeStrided(t, path, 0, 1000, 100, 500) // stripes of ids 0-499 and 500-999, groups of 100
	where := "id >= 150 AND id < 420 OR id BETWEEN 330 AND 340"
	_, errOut, err := runCmd(t, "scan", path, "--where", where, "--explain")
	if err != nil {
		t.Fatal(err)
	}
	want := `predicate: id >= 150 AND id < 420 OR id BETWEEN 330 AND 340
  leaf 0: id >= 150
  leaf 1: id < 420
  leaf 2: id BETWEEN 330 AND 340
file: read (statistics: YES_NO)
stripe 0: 500 rows, 5 row groups: 4 kept, 1 skipped (ruled out by leaf 0: 1, leaf 2: 1)
  read groups 1-4 (4 groups)
stripe 1: skipped by its statistics (leaf 1 NO, leaf 2 NO)
total: 2 stripes, 1 skipped by their statistics; in the others 5 row groups, 4 kept, 1 skipped
`
	if errOut != want {
		t.Errorf("--explain:\n%s\nwant:\n%s", errOut, want)
	}
	_, errOut, _ = runCmd(t, "scan", path, "--where", "id > 250 AND id <= 260", "--explain")
	if !strings.Contains(errOut, "  leaf 0: id > 250\n") || !strings.Contains(errOut, "  read group 2\n") ||
		!strings.Contains(errOut, "4 skipped (ruled out by leaf 0: 2, leaf 1: 2)") {
		t.Errorf("--explain with one kept group:\n%s", errOut)
	}
	for _, flag := range []string{"--explain=full", "--explain-groups"} {
		_, errOut, err = runCmd(t, "scan", path, "--where", "id >= 150", flag)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"stripe 0 group 0: leaf0=NO -> NO: skip\n", "stripe 0 group 1: leaf0=YES_NO -> YES_NO: read\n",
			"stripe 0 group 2: leaf0=YES -> YES: read\n", "  leaf 0: id >= 150 -> YES_NO\n", "runs: [1,5)"} {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s lacks %q:\n%s", flag, w, errOut)
			}
		}
		if strings.Contains(errOut, "id < 150") {
			t.Errorf("%s prints the inner leaf:\n%s", flag, errOut)
		}
	}
	if _, _, err := runCmd(t, "scan", path, "--where", "id = 1", "--explain=some"); err == nil || !strings.Contains(err.Error(), "explain") {
		t.Errorf("--explain=some: %v", err)
	}

	// A directory: each file under its name; a file its statistics rule out.
	writeStrided(t, filepath.Join(dir, "u.orc"), 5000, 200, 100, 500)
	_, errOut, err = runCmd(t, "scan", dir, "--where", "id < 120", "--explain")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"t.orc:\npredicate: id < 120\n  leaf 0: id < 120\nfile: read (statistics: YES_NO)\nstripe 0: 500 rows, 5 row groups: 2 kept, 3 skipped (ruled out by leaf 0: 3)\n  read groups 0-1 (2 groups)\nstripe 1: skipped by its statistics (leaf 0 NO)\ntotal: 2 stripes, 1 skipped by their statistics; in the others 5 row groups, 2 kept, 3 skipped\n",
		"u.orc:\npredicate: id < 120\n  leaf 0: id < 120\nfile: skipped by its statistics (NO)\n"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("directory --explain lacks\n%s\nin:\n%s", w, errOut)
		}
	}
}
