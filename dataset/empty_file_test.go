package dataset_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// A 0-byte file (Hive's empty file) has no schema: sorting first in a
// directory, it must not make the dataset's read schema struct<>.
func TestEmptyFileDecidesNoSchema(t *testing.T) {
	dir := t.TempDir()
	files := makeFiles(t, 1, 1, 300)
	if err := os.WriteFile(filepath.Join(dir, "a-empty.orc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.orc"), files[0].data, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := dataset.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.New(fs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Schema().String(), readSchema; got != want {
		t.Fatalf("schema %s, want %s (the first non-empty file's)", got, want)
	}
	rows, _ := scanRows(t, d, dataset.WithSearchArgument(sarg.Lt("id", sarg.Int(10))))
	if len(rows) != 10 {
		t.Fatalf("%d rows with id < 10, want 10", len(rows))
	}
	// Only empty files: the schema is the empty struct, and a scan has no
	// rows.
	only := dir + "/only"
	if err := os.Mkdir(only, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(only, "e.orc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err = dataset.Dir(only)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = dataset.New(fs); err != nil || d.Schema().String() != orc.MustParseSchema("struct<>").String() {
		t.Fatalf("a dataset of one empty file: %v, %v", d, err)
	}
	if rows, _ := scanRows(t, d); len(rows) != 0 {
		t.Fatalf("%d rows from an empty file", len(rows))
	}
}
