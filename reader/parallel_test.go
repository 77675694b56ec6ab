package reader_test

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

func TestParallelMatchesSequential(t *testing.T) {
	const n = 30000
	data := manyStripes(t, n)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := readIDs(t, r)
	for _, p := range []int{2, 3, 8, 64} {
		got := readIDs(t, r, reader.WithParallelism(p), reader.WithBatchSize(333))
		if !slices.Equal(got, want) {
			t.Fatalf("parallelism %d: %d rows, want %d in order", p, len(got), len(want))
		}
		where := sarg.MustParse("id BETWEEN 5000 AND 5099 OR id >= 29990")
		seq := readIDs(t, r, reader.WithSearchArgument(where), reader.WithExactFilter(true))
		par := readIDs(t, r, reader.WithSearchArgument(where), reader.WithExactFilter(true), reader.WithParallelism(p))
		if len(seq) != 110 || !slices.Equal(seq, par) {
			t.Fatalf("parallelism %d with a predicate: %d rows, sequential %d", p, len(par), len(seq))
		}
		half := int64(len(data) / 2)
		a := readIDs(t, r, reader.WithRange(0, half), reader.WithParallelism(p))
		b := readIDs(t, r, reader.WithRange(half, int64(len(data))), reader.WithParallelism(p))
		if !slices.Equal(append(a, b...), want) {
			t.Fatalf("parallelism %d with ranges: %d + %d rows", p, len(a), len(b))
		}
	}
}

// Stopping a parallel scan early with Close leaves no goroutine behind.
func TestParallelCloseNoLeak(t *testing.T) {
	data := manyStripes(t, 30000)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		br, err := r.NewBatchReader(reader.WithParallelism(4), reader.WithBatchSize(100))
		if err != nil {
			t.Fatal(err)
		}
		b := br.NewBatch()
		for k := 0; k < i; k++ {
			if err := br.Next(b); err != nil {
				t.Fatal(err)
			}
		}
		br.Close()
		if err := br.Next(b); err != io.EOF {
			t.Fatalf("Next after Close: %v", err)
		}
	}
	// A scan read to the end stops its workers by itself.
	readIDs(t, r, reader.WithParallelism(4))
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Fatalf("%d goroutines after the scans, %d before", g, before)
	}
}

// Close from another goroutine while Next runs stops the scan: Next
// returns io.EOF soon after, every later Next too, and no goroutine is
// left (serial and parallel; run with -race).
func TestConcurrentClose(t *testing.T) {
	data := manyStripes(t, 30000)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for _, p := range []int{1, 2, 4} {
		for _, after := range []int{0, 3, 40} {
			br, err := r.NewBatchReader(reader.WithParallelism(p), reader.WithBatchSize(50))
			if err != nil {
				t.Fatal(err)
			}
			started := make(chan struct{})
			done := make(chan error, 1)
			go func() {
				b := br.NewBatch()
				n := 0
				for {
					err := br.Next(b)
					if n == after {
						close(started)
					}
					n++
					if err != nil {
						done <- err
						return
					}
				}
			}()
			<-started
			if err := br.Close(); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if err != io.EOF {
					t.Fatalf("parallelism %d: Next after Close: %v", p, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("parallelism %d: Next still running 10 s after Close", p)
			}
			if err := br.Next(br.NewBatch()); err != io.EOF {
				t.Fatalf("parallelism %d: Next after Close returned: %v", p, err)
			}
			br.Close()
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Fatalf("%d goroutines after the scans, %d before", g, before)
	}
}

// A parallel scan fills the caller's b.Cols in place: a batch whose Cols is
// a view of a larger slice (as dataset scans pass, with partition columns
// after the file's) sees the rows through both. Swapping the slices left
// the larger one holding emptied vectors.
func TestParallelFillsColsInPlace(t *testing.T) {
	data := manyStripes(t, 3000)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{1, 2} {
		br, err := r.NewBatchReader(reader.WithParallelism(p), reader.WithBatchSize(256))
		if err != nil {
			t.Fatal(err)
		}
		full := br.NewBatch()
		cols := append(full.Cols, nil) // room for one more column after the file's
		view := *full
		view.Cols = cols[:len(full.Cols)]
		rows := 0
		for {
			err := br.Next(&view)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			ids := cols[0].(*orc.LongVector)
			if len(ids.Values) < view.NumRows || ids.Values[0] != int64(rows) {
				t.Fatalf("parallelism %d: after %d rows the larger slice holds %d ids (first %v), want %d from %d",
					p, rows, len(ids.Values), ids.Values, view.NumRows, rows)
			}
			rows += view.NumRows
		}
		br.Close()
		if rows != 3000 {
			t.Fatalf("parallelism %d: %d rows", p, rows)
		}
	}
}
