package statsindex_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
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
		if _, err = statsindex.Write(d.IndexSource(), &ix); err != nil {
			t.Fatal(err)
		}
		// The least of three runs: a sample can only come late (the
		// collector behind, other tests' garbage), never early.
		least := uint64(1 << 62)
		for range 3 {
			least = min(least, peakHeap(func() {
				if err := statsindex.Check(d.IndexSource(), bytes.NewReader(ix.Bytes()), int64(ix.Len())); err != nil {
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

// CheckIndex reads the index's rows a batch at a time and keeps what it
// learns per file of the dataset only: an index listing many files the
// dataset does not have (a forged one) costs no memory per entry. Its
// peak heap checking two files against indexes of 1,000 and 20,000
// entries grows by at most 16 bytes an entry (the least of three runs; 1
// measured);
// it kept every entry's path and hash: 38 bytes an entry.
func TestCheckIndexForeignEntriesMemory(t *testing.T) {
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
	peak := func(n int) uint64 {
		d, err := dataset.New(listing(n), schema)
		if err != nil {
			t.Fatal(err)
		}
		var ix bytes.Buffer
		if _, err = statsindex.Write(d.IndexSource(), &ix); err != nil {
			t.Fatal(err)
		}
		if d, err = dataset.New(listing(2), schema); err != nil {
			t.Fatal(err)
		}
		least := uint64(1 << 62)
		for range 3 {
			least = min(least, peakHeap(func() {
				err := statsindex.Check(d.IndexSource(), bytes.NewReader(ix.Bytes()), int64(ix.Len()))
				if !errors.Is(err, statsindex.ErrStale) || !strings.Contains(err.Error(), "f000002.orc, which is not in the dataset") {
					t.Fatalf("CheckIndex: %v, want the first entry not in the dataset named", err)
				}
			}))
		}
		return least
	}
	// A sampled peak counts garbage the collector has not reached yet,
	// more of it when other processes hold the CPU (17 B once, beside CI's
	// other packages, against -5..6 alone): the least slope of up to three
	// measurements is bounded. Entries kept would show in every one.
	var small, large uint64
	slope := int64(1 << 62)
	for try := 0; try < 3 && slope > 16; try++ {
		s, l := peak(1000), peak(20000)
		if d := (int64(l) - int64(s)) / 19000; d < slope {
			small, large, slope = s, l, d
		}
	}
	t.Logf("CheckIndex of 2 files: peak heap %.2f MiB with an index of 1,000 entries, %.2f MiB with 20,000: %d B an entry",
		float64(small)/(1<<20), float64(large)/(1<<20), slope)
	if slope > 16 {
		t.Errorf("CheckIndex's peak heap grows by %d B an entry of files not in the dataset, want at most 16", slope)
	}
}
