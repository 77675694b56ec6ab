package dataset_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// Planning a scan allocates its units once, sized for the files, and the
// files share the scan's predicate when the dataset has no partition
// columns: at most 160 bytes a file (80 measured, between 1,000 and 20,000
// files). The units' slices grew by appending, and each unit held a copy
// of the predicate of its own: 476 bytes a file.
func TestPlanSharesPredicate(t *testing.T) {
	data := makeFiles(t, 1, 1, 50)[0].data
	alloc := func(n int) uint64 {
		files := make([]dataset.File, n)
		for i := range files {
			files[i] = dataset.File{Name: fmt.Sprintf("f%06d.orc", i), Size: int64(len(data)),
				Open: func() (io.ReaderAt, int64, io.Closer, error) {
					return bytes.NewReader(data), int64(len(data)), nil, nil
				}}
		}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
		if err != nil {
			t.Fatal(err)
		}
		where := sarg.And(sarg.Lt("id", sarg.Int(0)), sarg.Eq("note", sarg.String("x")))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := d.Scan(dataset.WithSearchArgument(where), dataset.WithOpenAhead(1))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1000), alloc(20000)
	per := (int64(large) - int64(small)) / 19000
	t.Logf("planning a scan: %d B a file", per)
	if per > 160 {
		t.Errorf("planning a scan allocates %d B a file, want at most 160", per)
	}
}
