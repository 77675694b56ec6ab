package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// orc meta writes the stripes as it reads them: a file of many small
// stripes is not held as one document (60,000 stripes in a 9 MB file took
// 544 MB before, 132 MB now), in JSON and in text.
func TestMetaStreamsStripes(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a file of 4,000 stripes")
	}
	const stripes = 4000
	s := orc.MustParseSchema("struct<a:int,b:string,c:double>")
	path := filepath.Join(t.TempDir(), "many.orc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.NewWriter(f, s, writer.WithStripeRowLimit(1))
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	for i := range stripes {
		b.Reset()
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.BytesVector).AppendString("x")
		b.Cols[2].(*orc.DoubleVector).Values = append(b.Cols[2].(*orc.DoubleVector).Values, float64(i))
		b.NumRows = 1
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{{"--json", path}, {path}} {
		var out countingWriter
		peak := peakHeap(func() {
			if err := runMeta(args, &out, io.Discard); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("meta %v: %d bytes out, peak heap growth %.1f MiB", args[:len(args)-1], out.n, float64(peak)/(1<<20))
		if peak > 16<<20 {
			t.Fatalf("meta %v: the heap grew by %d bytes for %d bytes of output", args[:len(args)-1], peak, out.n)
		}
	}
	// The JSON is one valid document with every stripe.
	var buf bytes.Buffer
	if err := runMeta([]string{"--json", path}, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stripes []json.RawMessage `json:"stripes"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil || len(doc.Stripes) != stripes {
		t.Fatalf("JSON: %v, %d stripes", err, len(doc.Stripes))
	}
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// peakHeap returns how far the live heap grew above its level before f
// while f ran: every 2 ms a forced collection, then the heap it marked
// live. Not the heap in use sampled between collections, which counts the
// garbage of a cycle the collector could not finish on a busy machine
// (16.4 MiB under CI's parallel packages, 7-8 alone).
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
			runtime.GC()
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak.Load()
}
