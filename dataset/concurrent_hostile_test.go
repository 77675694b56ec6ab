package dataset_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// dsOutcome is what one dataset scan gives: its rows (a count and a hash of
// their JSON) and the error that ended it, if any.
type dsOutcome struct {
	rows int
	hash uint64
	err  string
}

// scanDataset scans the directory dir with option set i: parallelism 1,
// 2 or 4 across files, open-ahead 0 or 8, with or without a predicate and
// a file-level WithParallelism(2).
func scanDataset(dir string, i int) (out dsOutcome) {
	files, err := dataset.Dir(dir)
	if err != nil {
		return dsOutcome{err: err.Error()}
	}
	d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)),
		dataset.WithPartitioning(orc.MustParseSchema("struct<dt:date,region:string>")))
	if err != nil {
		return dsOutcome{err: err.Error()}
	}
	opts := []dataset.ScanOption{dataset.WithParallelism([]int{1, 2, 4}[i%3]), dataset.WithOpenAhead(i / 3 % 2 * 8),
		dataset.WithBatchSize(64)}
	if i/6%2 == 1 {
		opts = append(opts, dataset.WithSearchArgument(sarg.Lt("id", sarg.Int(4500))), dataset.WithExactFilter(true),
			dataset.WithFileOptions(reader.WithParallelism(2)))
	}
	s, err := d.Scan(opts...)
	if err != nil {
		return dsOutcome{err: err.Error()}
	}
	defer s.Close()
	b := s.NewBatch()
	h := fnv.New64a()
	var row []byte
	for {
		err := s.Next(b)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.err = err.Error()
			break
		}
		for k := range b.NumRows {
			row = reader.AppendJSONRow(row[:0], b, k)
			h.Write(row)
		}
		out.rows += b.NumRows
	}
	out.hash = h.Sum64()
	return out
}

// TestConcurrentDatasetScansOfMutants: 16 dataset scans at once (parallel
// across files, opening ahead, with and without a predicate and parallel
// file scans) over directories of damaged files, under a memory limit.
// Every scan's outcome, rows or the error naming a file, is the same as
// that scan alone, and no goroutine or file descriptor is left behind.
func TestConcurrentDatasetScansOfMutants(t *testing.T) {
	tf := makeFiles(t, 4, 3, 500)
	r := rand.New(rand.NewPCG(35, 16))
	var dirs []string
	for k := range 6 {
		dir := t.TempDir()
		bad := -1 // even directories intact, odd ones with one damaged file
		if k%2 == 1 {
			bad = r.IntN(len(tf))
		}
		for j, f := range tf {
			data := append([]byte(nil), f.data...)
			if j == bad {
				switch k / 2 {
				case 0: // bytes of the stripes
					for range 1 + r.IntN(4) {
						data[3+r.IntN(len(data)*3/4)] ^= byte(1 + r.IntN(255))
					}
				case 1: // bytes of the tail
					data[len(data)-1-r.IntN(200)] ^= byte(1 + r.IntN(255))
				case 2: // cut short
					data = data[:r.IntN(len(data))]
				}
			}
			writeTree(t, dir, data, f.name)
		}
		dirs = append(dirs, dir)
	}
	const sets = 12
	want := make([][sets]dsOutcome, len(dirs))
	failing := 0
	for k, dir := range dirs {
		for i := range sets {
			want[k][i] = scanDataset(dir, i)
		}
		if want[k][0].err != "" {
			failing++
			for i := range sets {
				if e := want[k][i].err; e != "" && !strings.Contains(e, ".orc") {
					t.Errorf("directory %d (options %d): %q does not name the file", k, i, e)
				}
			}
		}
	}
	if failing == 0 || failing == len(dirs) {
		t.Fatalf("%d of %d directories fail to scan: the mutants should mix both", failing, len(dirs))
	}

	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs()
	var mu sync.Mutex
	var wrong []string
	total := 0
	deadline := time.Now().Add(time.Second)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 16))
			for time.Now().Before(deadline) {
				k, i := r.IntN(len(dirs)), r.IntN(sets)
				got := scanDataset(dirs[k], i)
				mu.Lock()
				total++
				if got != want[k][i] {
					wrong = append(wrong, fmt.Sprintf("directory %d (options %d): %+v, alone %+v", k, i, got, want[k][i]))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d dataset scans of %d directories (%d failing alone) by 16 goroutines", total, len(dirs), failing)
	for _, w := range wrong[:min(len(wrong), 5)] {
		t.Errorf("a scan among 16 differs from the same scan alone: %s", w)
	}
	for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait) && runtime.NumGoroutine() > goroutines; {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the scans, %d before:\n%s", n, goroutines, buf[:runtime.Stack(buf, true)])
	}
	if n := openFDs(); n > fds {
		t.Errorf("%d file descriptors open after the scans, %d before", n, fds)
	}
}

// openFDs counts this process's open file descriptors, or -1 where
// /proc/self/fd does not exist.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}
