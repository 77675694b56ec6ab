package dataset_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
)

// peakHeap runs fn and returns the most heap its objects held above the
// live heap before it, sampled every 100 µs (an approximation from below).
// The collector runs at GOGC 5 meanwhile, so that garbage adds little to
// the objects the heap holds and the peak is close to the live one.
func peakHeap(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	if peak < base {
		return 0
	}
	return peak - base
}

// CheckIndex holds a path and a hash per entry, not every entry's
// statistics and JSON, and builds the fresh entries 1,024 files at a
// time: its peak heap grows by under 400 bytes an entry (measured between
// 1,000 and 6,000 entries, the least of three runs; the readers and
// decoders it opens are the same at any size). It grew by 800 to 1,500 bytes.
func TestCheckIndexMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 40,000 footers")
	}
	data := makeFiles(t, 1, 1, 50)[0].data
	peak := func(n int) uint64 {
		files := make([]dataset.File, n)
		for i := range files {
			files[i] = dataset.File{Name: fmt.Sprintf("f%06d.orc", i), Size: int64(len(data)), Version: "v",
				Open: func() (io.ReaderAt, int64, io.Closer, error) {
					return bytes.NewReader(data), int64(len(data)), nil, nil
				}}
		}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
		if err != nil {
			t.Fatal(err)
		}
		var ix bytes.Buffer
		if _, err = d.WriteIndex(&ix); err != nil {
			t.Fatal(err)
		}
		// The least of three runs: a sample can only come late (the
		// collector behind, other tests' garbage), never early.
		least := uint64(1 << 62)
		for range 3 {
			least = min(least, peakHeap(func() {
				if err := d.CheckIndex(bytes.NewReader(ix.Bytes()), int64(ix.Len())); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return least
	}
	small, large := peak(1000), peak(6000)
	slope := (int64(large) - int64(small)) / 5000
	t.Logf("CheckIndex peak heap: %.1f MiB at 1,000 entries, %.1f MiB at 6,000: %d B an entry", float64(small)/(1<<20), float64(large)/(1<<20), slope)
	if slope > 400 {
		t.Errorf("CheckIndex's peak heap grows by %d B an entry, want at most 400", slope)
	}
}
