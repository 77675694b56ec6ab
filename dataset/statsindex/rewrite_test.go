package statsindex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// A file rewritten in place with the same size and its modification time
// set back (as cp -p, rsync -a and tar x leave it) is not judged by its old
// index entry: its version holds the inode change time, which setting the
// modification time changes.
func TestIndexRewriteKeepsModTime(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" && runtime.GOOS != "netbsd" {
		t.Skip("versions hold the inode change time on Linux and the BSDs only")
	}
	dir := t.TempDir()
	// Two versions of one size: ids 1000..1099, then 2000..2099.
	a, b := idFile(t, 1000, 100), idFile(t, 2000, 100)
	if len(a) != len(b) {
		t.Fatalf("the two versions have %d and %d bytes; the test needs equal sizes", len(a), len(b))
	}
	path := filepath.Join(dir, "f.orc")
	if err := os.WriteFile(path, a, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *dataset.Dataset {
		files, err := dataset.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema("struct<id:bigint>")),
			dataset.WithIndexFile(filepath.Join(dir, statsindex.FileName)))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if _, err := statsindex.WriteFile(open().IndexSource(), filepath.Join(dir, statsindex.FileName)); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite in place, then restore the modification time.
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	// The first id of b, which a's entry rules out.
	where := sarg.Eq("id", sarg.Int(2000))
	rows, st := scanRows(t, open(), dataset.WithSearchArgument(where))
	if len(rows) != 1 || st.FilesNotInIndex != 1 {
		t.Fatalf("%d rows, %d files not in the index; want 1 and 1 (%+v)", len(rows), st.FilesNotInIndex, st)
	}
}

// idFile writes n rows of struct<id:bigint>, ids from first.
func idFile(t *testing.T, first, n int) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint>")
	bt := orc.NewBatch(s, n)
	for i := range n {
		bt.Cols[0].(*orc.LongVector).Values = append(bt.Cols[0].(*orc.LongVector).Values, int64(first+i))
	}
	bt.NumRows = n
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bt); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
