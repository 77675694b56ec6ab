package writer_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/writer"
)

// TestHeapBound writes several stripes of the 16-column lineitem table and
// of the 200-column table with 8 MiB stripes and checks that the peak live
// heap while writing (measured exactly, after a forced collection, at every
// stripe's fullest moment and every 16 batches; see peakHeap) stays within
// 1.5 x the stripe size plus one batch, serially and, for lineitem, on two
// goroutines, where each compression worker past the first adds a
// compressor (measured here: some 2.8 MiB for ZSTD) and each worker two
// chunks in flight. On two goroutines stripes go out in the background, so
// the last case writes to a destination that takes 1 ms a write (a network
// one, or a busy machine's): the stripe being written then holds its pages
// while the next fills, and the pages of both together with the pool's
// free ones must stay within the 1.25 x the stripe size the writer waits
// at. (Counting neither the pool nor the pages' unused ends, it went to
// 15.7-16.2 MiB here against a limit of 15.0.) TestPeakHeap
// (ORC_PEAK_HEAP=1) does the same at the default 64 MiB over tens of
// millions of rows.
func TestHeapBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes some 20 MB of stripes")
	}
	const stripe = 8 << 20
	for _, c := range []struct {
		name  string
		rows  int
		par   int
		delay time.Duration // of each write to the destination
	}{{"lineitem", 600_000, 1, 0}, {"wide", 40_000, 1, 0}, {"lineitem", 600_000, 2, 0}, {"lineitem", 600_000, 2, time.Millisecond}} {
		name := fmt.Sprintf("%s/par=%d", c.name, c.par)
		if c.delay > 0 {
			name += "/slow-destination"
		}
		t.Run(name, func(t *testing.T) {
			var run heapRun
			var s *orc.Schema
			opt := writer.WithParallelism(c.par)
			switch c.name {
			case "lineitem":
				gen := newLineitemGen(6)
				s = orc.MustParseSchema(lineitemSchema)
				run = peakHeap(t, s, func(b *orc.Batch, n int) { gen.fill(b, n) }, c.rows, stripe, c.delay, opt)
			default:
				gen := newWideGen(6)
				s = gen.schema
				run = peakHeap(t, s, gen.fill, c.rows, stripe, c.delay, opt)
			}
			limit := 1.5*stripe + float64(run.batch)
			if c.par > 1 {
				limit += float64(c.par-1)*compressorBytes(t) + float64(2*int64(c.par)*defaultBlock(stripe, s))
			}
			t.Logf("%d columns, %d stripes (largest %.1f MiB): peak live heap %.1f MiB = %.2f x stripe size, limit %.1f MiB; all heap objects incl. garbage %.1f MiB; peak %s",
				s.MaxID(), run.stripes, float64(run.largest)/(1<<20), float64(run.live)/(1<<20), float64(run.live)/stripe,
				limit/(1<<20), float64(run.alloc)/(1<<20), run.at)
			if run.stripes < 3 {
				t.Errorf("%d stripes, want several", run.stripes)
			}
			if float64(run.live) > limit {
				t.Errorf("peak live heap %.1f MiB over 1.5 x the stripe size + one batch = %.1f MiB",
					float64(run.live)/(1<<20), limit/(1<<20))
			}
		})
	}
}

// compressorBytes is the live heap of one ZSTD compressor for the default
// block, after it has compressed a chunk.
func compressorBytes(t *testing.T) float64 {
	src := make([]byte, 256<<10)
	for i := range src {
		src[i] = byte(i * 7 / 13)
	}
	before := liveHeap()
	c, err := format.NewBlockCompressor(orc.CompressionZstd, 0, len(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compress(nil, src); err != nil {
		t.Fatal(err)
	}
	n := liveHeap() - before
	runtime.KeepAlive(c)
	return float64(n)
}

// defaultBlock is the writer's compression block for the stripe size and
// schema (see WithCompressionBlockSize).
func defaultBlock(stripe int64, s *orc.Schema) int64 {
	limit := stripe / (20 * int64(s.MaxID()+1))
	n := int64(4 << 10)
	for n < 256<<10 && n < limit {
		n <<= 1
	}
	return n
}

// liveHeap returns the live heap after a forced collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
