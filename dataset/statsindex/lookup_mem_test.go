package statsindex_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
)

// A scan's index lookup keeps nothing per entry of a file the dataset does
// not list: an index of many entries (a forged one, or a table's index
// over a few of its files) costs the time to read it and no memory per
// entry. Measured as the bytes a scan of two files allocates with an index
// of 1,000 and of 20,000 entries: at most 16 bytes more an entry (2
// measured; decoding the index's batches reuses their vectors). It
// allocated 204 bytes an entry here (every entry's membership and
// statistics kept), and a scan through an index of 200,000 entries
// reached 130 MiB RSS.
func TestIndexLookupMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own: the bound is checked without it")
	}
	data := makeFiles(t, 1, 1, 50)[0].data
	open := func(b []byte) dataset.Opener {
		return func() (io.ReaderAt, int64, io.Closer, error) {
			return bytes.NewReader(b), int64(len(b)), nil, nil
		}
	}
	listing := func(n int) []dataset.File {
		files := make([]dataset.File, n)
		for i := range files {
			files[i] = dataset.File{Name: fmt.Sprintf("f%06d.orc", i), Size: int64(len(data)), Version: "v", Open: open(data)}
		}
		return files
	}
	schema := dataset.WithSchema(orc.MustParseSchema(readSchema))
	where := sarg.Lt("id", sarg.Int(0))
	alloc := func(n int) uint64 {
		d, err := dataset.New(listing(n), schema)
		if err != nil {
			t.Fatal(err)
		}
		var ix bytes.Buffer
		if _, err = statsindex.Write(d.IndexSource(), &ix); err != nil {
			t.Fatal(err)
		}
		d, err = dataset.New(listing(2), schema, dataset.WithIndex("ix", open(ix.Bytes())))
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := d.Scan(dataset.WithSearchArgument(where))
		if err != nil {
			t.Fatal(err)
		}
		b := s.NewBatch()
		for err == nil {
			err = s.Next(b)
		}
		if err != io.EOF {
			t.Fatal(err)
		}
		s.Close()
		runtime.ReadMemStats(&after)
		if st := s.Stats(); st.FilesPrunedByIndex != 2 || st.IndexWarning != "" {
			t.Fatalf("index of %d entries: %d files pruned by the index (want 2), warning %q", n, st.FilesPrunedByIndex, st.IndexWarning)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1000), alloc(20000)
	slope := (int64(large) - int64(small)) / 19000
	t.Logf("scan with an index: %d B allocated at 1,000 entries, %d at 20,000: %d B an entry", small, large, slope)
	if slope > 16 {
		t.Errorf("a scan's index lookup allocates %d B an entry of files it does not read, want at most 16", slope)
	}
}
