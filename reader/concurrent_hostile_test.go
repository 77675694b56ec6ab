package reader_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// scanOutcome is what one scan of a file gives: its rows (a count and a
// hash of their JSON) or its error.
type scanOutcome struct {
	rows int
	hash uint64
	err  string
}

// scanFile opens path and scans it to the end with the options scan i
// uses: a batch size, a column subset and a parallelism, all from i (the
// six option sets cover each column choice serially and on 2 and 3
// goroutines).
func scanFile(path string, i int) (out scanOutcome) {
	f, err := os.Open(path)
	if err != nil {
		return scanOutcome{err: err.Error()}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return scanOutcome{err: err.Error()}
	}
	r, err := reader.Open(f, fi.Size())
	if err != nil {
		return scanOutcome{err: "open: " + err.Error()}
	}
	opts := []reader.ScanOption{reader.WithBatchSize(100 + i%3*300), reader.WithMaxScanMemory(32 << 20)}
	if i%2 == 1 && len(r.Schema().FieldNames) > 1 {
		opts = append(opts, reader.WithColumns(r.Schema().FieldNames[1:]...))
	}
	if p := i % 3; p > 0 {
		opts = append(opts, reader.WithParallelism(p+1))
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return scanOutcome{err: "scan: " + err.Error()}
	}
	defer br.Close()
	b := br.NewBatch()
	h := fnv.New64a()
	var row []byte
	for {
		err := br.Next(b)
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

// openFDs counts this process's open file descriptors, or -1 where
// /proc/self/fd does not exist.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// mutants writes damaged copies of a few random files to dir: bytes of
// the stripes XORed, bytes of the tail XORed, the file cut short. The
// intact files are among them.
func mutants(t *testing.T, dir string, n int) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(35, 6))
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionZstd}
	var bases [][]byte
	for i := range 4 {
		s := testutil.RandomSchema(r, 5, 2)
		g := testutil.NewGenerator(r, s)
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, writer.WithCompression(codecs[i]), writer.WithRowIndexStride(200),
			writer.WithStripeRowLimit(600), writer.WithCompressionBlockSize(4096))
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := w.Write(g.Batch(400)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		bases = append(bases, buf.Bytes())
	}
	var paths []string
	for i := range n {
		data := bytes.Clone(bases[i%len(bases)])
		switch i / len(bases) % 4 {
		case 0: // intact
		case 1: // stripes damaged
			for range 1 + r.IntN(6) {
				data[3+r.IntN(len(data)*3/4)] ^= byte(1 + r.IntN(255))
			}
		case 2: // tail damaged
			for range 1 + r.IntN(3) {
				data[len(data)-1-r.IntN(min(len(data)-1, 300))] ^= byte(1 + r.IntN(255))
			}
		case 3: // cut short
			data = data[:r.IntN(len(data))]
		}
		p := filepath.Join(dir, fmt.Sprintf("m%03d.orc", i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestConcurrentScansOfMutants runs 32 scans at once, each going through
// damaged files one after another, under a memory limit (GOMEMLIMIT, set
// here with debug.SetMemoryLimit): no crash, every scan's outcome (rows
// and their hash, or the error) the same as that file's scan alone (so no
// error lands on another file's scan), and no goroutine or file
// descriptor left behind. It runs about two seconds; ORC_CONCURRENT_FOR
// (a duration such as 5m) runs it that long.
func TestConcurrentScansOfMutants(t *testing.T) {
	const scans = 32
	dur := 2 * time.Second
	if s := os.Getenv("ORC_CONCURRENT_FOR"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("ORC_CONCURRENT_FOR=%q: %v", s, err)
		}
		dur = d
	}
	paths := mutants(t, t.TempDir(), 64)
	// Each file's outcome, scanned alone, for each of the option sets.
	want := make([][6]scanOutcome, len(paths))
	failing := 0
	for j, p := range paths {
		for i := range 6 {
			want[j][i] = scanFile(p, i)
		}
		if want[j][0].err != "" {
			failing++
		}
	}
	if failing == 0 || failing == len(paths) {
		t.Fatalf("%d of %d files fail to scan: the mutants should mix both", failing, len(paths))
	}

	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs()
	var peak runtime.MemStats
	var mu sync.Mutex
	var wrong []string
	done := make([]int, scans)
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	for g := range scans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 35))
			for time.Now().Before(deadline) {
				j, i := r.IntN(len(paths)), r.IntN(6)
				got := scanFile(paths[j], i)
				done[g]++
				if got != want[j][i] {
					mu.Lock()
					wrong = append(wrong, fmt.Sprintf("%s (options %d): %+v, alone %+v", filepath.Base(paths[j]), i, got, want[j][i]))
					mu.Unlock()
				}
			}
		}()
	}
	stopSample := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stopSample:
				return
			case <-time.After(50 * time.Millisecond):
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.HeapInuse {
					peak = m
				}
			}
		}
	}()
	wg.Wait()
	close(stopSample)
	<-sampled
	total := 0
	for _, n := range done {
		total += n
	}
	t.Logf("%d scans of %d files (%d failing alone) by %d goroutines in %v; peak heap in use %d MiB (limit 256 MiB)",
		total, len(paths), failing, scans, dur, peak.HeapInuse>>20)
	for _, w := range wrong[:min(len(wrong), 5)] {
		t.Errorf("a scan among 32 differs from the same scan alone: %s", w)
	}
	if len(wrong) > 5 {
		t.Errorf("and %d more", len(wrong)-5)
	}
	for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait) && runtime.NumGoroutine() > goroutines; {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the scans, %d before:\n%s", g, goroutines, buf[:runtime.Stack(buf, true)])
	}
	if n := openFDs(); n > fds {
		t.Errorf("%d file descriptors open after the scans, %d before", n, fds)
	}
}
