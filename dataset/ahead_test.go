package dataset_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// store serves test files as an object store would: each ReadAt waits
// latency, and it counts the files opened, closed and open at once.
type store struct {
	latency time.Duration
	tails   bool // only the reads of a file's last bytes (its tail) wait
	data    map[string][]byte
	failing map[string]bool // names whose Opener fails

	opens, closes, doubleCloses, open, mostOpen atomic.Int64
}

func newStore(files []tfile, latency time.Duration) *store {
	st := &store{latency: latency, data: map[string][]byte{}, failing: map[string]bool{}}
	for _, f := range files {
		st.data[f.name] = f.data
	}
	return st
}

// files returns the dataset's files, in the test files' order.
func (st *store) files(files []tfile) []dataset.File {
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	return dataset.FromOpeners(names, func(name string) (io.ReaderAt, int64, io.Closer, error) {
		if st.failing[name] {
			return nil, 0, nil, errors.New("object store: 503 Slow Down")
		}
		st.opens.Add(1)
		n := st.open.Add(1)
		for {
			most := st.mostOpen.Load()
			if n <= most || st.mostOpen.CompareAndSwap(most, n) {
				break
			}
		}
		d := st.data[name]
		return slowReader{bytes.NewReader(d), st.latency, st.tails}, int64(len(d)), &storeObject{st: st}, nil
	})
}

// allClosed fails the test unless every file opened was closed, once.
func (st *store) allClosed(t testing.TB, what string) {
	t.Helper()
	if o, c, d := st.opens.Load(), st.closes.Load(), st.doubleCloses.Load(); o != c || d != 0 {
		t.Fatalf("%s: %d files opened, %d closed, %d closed twice", what, o, c, d)
	}
}

// reset forgets the counts.
func (st *store) reset() {
	st.opens.Store(0)
	st.closes.Store(0)
	st.doubleCloses.Store(0)
	st.open.Store(0)
	st.mostOpen.Store(0)
}

type storeObject struct {
	st     *store
	closed atomic.Bool
}

func (o *storeObject) Close() error {
	if o.closed.Swap(true) {
		o.st.doubleCloses.Add(1)
		return nil
	}
	o.st.closes.Add(1)
	o.st.open.Add(-1)
	return nil
}

// slowReader is a ReaderAt a round trip away.
type slowReader struct {
	r       *bytes.Reader
	latency time.Duration
	tails   bool // only the reads of the last bytes wait
}

func (s slowReader) ReadAt(p []byte, off int64) (int, error) {
	if !s.tails || off+int64(len(p)) >= s.r.Size() {
		time.Sleep(s.latency)
	}
	return s.r.ReadAt(p, off)
}

// scanAll scans to the end and returns the rows, the statistics and the
// pruning decisions; jsonRows returns a batch's rows as JSON.
var (
	scanAll  = dstest.ScanAll
	jsonRows = dstest.JSONRows
)

// TestOpenAheadSameResults checks that opening files ahead changes nothing
// a scan returns (rows, statistics, pruning decisions), whatever the
// parallelism, and that it keeps its bound on open files and closes them
// all.
func TestOpenAheadSameResults(t *testing.T) {
	files := makeFiles(t, 4, 3, 100)
	st := newStore(files, time.Millisecond)
	st.tails = true // the opens overlap; the scans need not wait
	d := newDataset(t, st.files(files))
	cases := []struct {
		name   string
		where  *sarg.Expr
		filter bool
	}{
		{"no predicate", nil, false},
		// Files are 100 ids each: the footers rule out all but 3 files.
		{"footer", ptr(sarg.Between("id", sarg.Int(3*100+10), sarg.Int(5*100+5))), true},
		// Partition values rule out 8 files, footers some of the rest.
		{"partition", ptr(sarg.And(sarg.Eq("region", sarg.String("eu")), sarg.Lt("id", sarg.Int(700)))), true},
		// The footers of the old files, which lack note, rule them out.
		{"old files", ptr(sarg.Eq("note", sarg.String("n3"))), false},
	}
	for _, c := range cases {
		// Each file's own reading ahead stays off: the reader turns it on
		// when reads look slow (2 ms), which a 1 ms tail read under -race
		// on a busy machine can, and its statistics (reads ahead, the
		// index read with the data) would then differ between the scans
		// compared for reasons that have nothing to do with opening files
		// ahead (CI at c44ceb2: "3 ahead" against "0 ahead").
		opts := []dataset.ScanOption{dataset.WithFileOptions(reader.WithPrefetch(0))}
		if c.where != nil {
			opts = append(opts, dataset.WithSearchArgument(*c.where), dataset.WithExactFilter(c.filter))
		}
		st.reset()
		wantRows, wantStats, wantExplain := scanAll(t, d, append(opts, dataset.WithOpenAhead(0))...)
		st.allClosed(t, c.name)
		if c.name == "footer" && wantStats.FilesSkipped != 9 {
			t.Fatalf("the footers rule out %d files, want 9", wantStats.FilesSkipped)
		}
		for _, par := range []int{1, 3} {
			for _, ahead := range []int{1, 2, 8, 64} {
				what := fmt.Sprintf("%s, parallelism %d, open-ahead %d", c.name, par, ahead)
				st.reset()
				rows, stats, explain := scanAll(t, d, append(opts, dataset.WithParallelism(par), dataset.WithOpenAhead(ahead))...)
				same(t, what, rows, wantRows)
				if stats != wantStats {
					t.Fatalf("%s: stats\n%+v\nwant\n%+v", what, stats, wantStats)
				}
				if explain != wantExplain {
					t.Fatalf("%s: explain\n%s\nwant\n%s", what, explain, wantExplain)
				}
				st.allClosed(t, what)
				if most, bound := st.mostOpen.Load(), int64(par+max(ahead-1, 0)); most > bound {
					t.Fatalf("%s: %d files open at once, more than %d", what, most, bound)
				}
				if opened := st.opens.Load(); opened != int64(stats.FilesConsidered-stats.FilesPrunedByPartition) {
					t.Fatalf("%s: %d files opened, %d not ruled out by partition values", what, opened, stats.FilesConsidered-stats.FilesPrunedByPartition)
				}
			}
		}
	}
}

// TestOpenAheadStop checks that a scan stopped early (a limit, the caller
// closing it midway) closes every file opened ahead before Close returns,
// and stops its goroutines.
func TestOpenAheadStop(t *testing.T) {
	files := makeFiles(t, 4, 4, 200)
	st := newStore(files, time.Millisecond)
	st.tails = true
	d := newDataset(t, st.files(files))
	want := allRows(files)
	before := runtime.NumGoroutine()
	for _, par := range []int{1, 3} {
		for _, ahead := range []int{1, 8} {
			what := fmt.Sprintf("parallelism %d, open-ahead %d", par, ahead)
			// A limit inside the second file.
			st.reset()
			rows, stats, _ := scanAll(t, d, dataset.WithLimit(250), dataset.WithParallelism(par), dataset.WithOpenAhead(ahead))
			same(t, what+", limit", rows, want[:250])
			st.allClosed(t, what+", limit")
			// Every file whose scan started counts, with the work done
			// in it: the two the rows came from, and the files after
			// them whose scans started meanwhile: at most par, the jobs
			// queued for the caller (a 200-row file's job ends as soon
			// as its one batch is queued, so as many start as the queue
			// holds); files opened ahead and never reached count nowhere.
			if most := par + 2; stats.FilesOpened < 2 || stats.FilesOpened > most || stats.RowsDecoded < 250 {
				t.Fatalf("%s, limit: %d files count as opened (want 2..%d), %d rows decoded", what, stats.FilesOpened, most, stats.RowsDecoded)
			}
			// The caller stops after a batch, or after a few files.
			for _, batches := range []int{1, 7} {
				st.reset()
				s, err := d.Scan(dataset.WithBatchSize(100), dataset.WithParallelism(par), dataset.WithOpenAhead(ahead))
				if err != nil {
					t.Fatal(err)
				}
				b := s.NewBatch()
				var got []string
				for range batches {
					if err := s.Next(b); err != nil {
						t.Fatal(err)
					}
					got = append(got, jsonRows(b)...)
				}
				s.Close()
				st.allClosed(t, fmt.Sprintf("%s, closed after %d batches", what, batches))
				same(t, what+", closed", got, want[:len(got)])
				if err := s.Next(b); err != io.EOF {
					t.Fatalf("%s: Next after Close: %v", what, err)
				}
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Fatalf("%d goroutines after closing, %d before", g, before)
	}
}

// TestOpenAheadError checks that a file that fails to open fails the scan
// where it comes: after every row of the files before it, before any of
// the files after it, whether its opener fails or its tail is not ORC.
func TestOpenAheadError(t *testing.T) {
	files := makeFiles(t, 3, 3, 200)
	const bad = 4
	for _, how := range []string{"opener", "tail"} {
		st := newStore(files, time.Millisecond)
		st.tails = true
		if how == "opener" {
			st.failing[files[bad].name] = true
		} else {
			st.data[files[bad].name] = []byte("not an ORC file, but long enough to have a tail")
		}
		d, err := dataset.New(st.files(files), dataset.WithSchema(orc.MustParseSchema(readSchema)), dataset.WithPartitioning(parts))
		if err != nil {
			t.Fatal(err)
		}
		for _, par := range []int{1, 3} {
			for _, ahead := range []int{1, 2, 8} {
				what := fmt.Sprintf("%s fails, parallelism %d, open-ahead %d", how, par, ahead)
				st.reset()
				s, err := d.Scan(dataset.WithBatchSize(64), dataset.WithParallelism(par), dataset.WithOpenAhead(ahead))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				b := s.NewBatch()
				for {
					err = s.Next(b)
					if err != nil {
						break
					}
					got = append(got, jsonRows(b)...)
				}
				if err == io.EOF || !strings.Contains(err.Error(), files[bad].name) {
					t.Fatalf("%s: the scan ended with %v, want the error of %s", what, err, files[bad].name)
				}
				same(t, what, got, allRows(files[:bad]))
				if again := s.Next(b); again != err {
					t.Fatalf("%s: Next after the error: %v, want %v", what, again, err)
				}
				s.Close()
				st.allClosed(t, what)
			}
		}
	}
}

// latencyFiles writes dstest.LatencyFiles' n files.
func latencyFiles(t testing.TB, n int) []tfile {
	var files []tfile
	for _, f := range dstest.LatencyFiles(t, n) {
		files = append(files, tfile{name: f.Name, data: f.Data, rows: f.Rows})
	}
	return files
}

// latencyScan scans the files a store serves for the ids of three files
// (the footers rule out the others) and returns the wall time.
func latencyScan(t testing.TB, d *dataset.Dataset, ahead []dataset.ScanOption) ([]string, dataset.Stats, time.Duration) {
	t.Helper()
	e := sarg.Or(sarg.Eq("id", sarg.Int(10*17+1)), sarg.Eq("id", sarg.Int(10*100+2)), sarg.Eq("id", sarg.Int(10*198+3)))
	start := time.Now()
	rows, stats, _ := scanAll(t, d, append(ahead, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))...)
	return rows, stats, time.Since(start)
}

// TestOpenAheadSpeedup scans 200 files 5 ms away for rows of 3 of them:
// opening one file after another pays 200 round trips in turn, opening
// ahead (the default) overlaps them.
func TestOpenAheadSpeedup(t *testing.T) {
	const n, latency = 200, 5 * time.Millisecond
	files := latencyFiles(t, n)
	st := newStore(files, latency)
	d, err := dataset.New(st.files(files), dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>")))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"id": 171, "name": "row 171"}`, `{"id": 1002, "name": "row 1002"}`, `{"id": 1983, "name": "row 1983"}`}
	serialRows, serialStats, serial := latencyScan(t, d, []dataset.ScanOption{dataset.WithOpenAhead(1)})
	st.allClosed(t, "open-ahead 1")
	st.reset()
	rows, stats, ahead := latencyScan(t, d, nil)
	st.allClosed(t, "default open-ahead")
	same(t, "open-ahead 1", serialRows, want)
	same(t, "default open-ahead", rows, want)
	if stats != serialStats || stats.FilesOpened != n || stats.FilesSkipped != n-3 {
		t.Fatalf("stats:\n%+v\nwant\n%+v, %d files opened, %d skipped", stats, serialStats, n, n-3)
	}
	t.Logf("%d files, %v a read: open-ahead 1 %v, default %v (%.1fx)", n, latency, serial.Round(time.Millisecond), ahead.Round(time.Millisecond), float64(serial)/float64(ahead))
	if serial < 3*ahead {
		t.Fatalf("opening ahead took %v, one after another %v: want at least 3 times faster", ahead, serial)
	}
}

// TestOpenAheadClosesPrunedFiles checks that a file its footer rules out is
// closed as soon as its tail is read, while the scan is still on a file
// before it.
func TestOpenAheadClosesPrunedFiles(t *testing.T) {
	files := latencyFiles(t, 20)
	st := newStore(files, 0)
	d, err := dataset.New(st.files(files), dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>")))
	if err != nil {
		t.Fatal(err)
	}
	// The first file is kept, the next ones ruled out.
	e := sarg.Or(sarg.Lt("id", sarg.Int(10)), sarg.Eq("id", sarg.Int(10*15)))
	s, err := d.Scan(dataset.WithSearchArgument(e), dataset.WithBatchSize(1), dataset.WithOpenAhead(8))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := s.NewBatch()
	if err := s.Next(b); err != nil { // the scan is on the first file
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for (st.opens.Load() < 8 || st.open.Load() > 1) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if o, open := st.opens.Load(), st.open.Load(); o != 8 || open != 1 {
		t.Fatalf("the scan on the first file: %d files opened, %d open; want 8 opened, 1 open (7 ruled out and closed)", o, open)
	}
	s.Close()
	st.allClosed(t, "closed")
}
