package writer_test

import (
	"testing"

	"github.com/orcgo/orc"
)

// TestHeapBound writes several stripes of the 16-column lineitem table and
// of the 200-column table with 8 MiB stripes and checks that the peak live
// heap while writing (measured exactly, after a forced collection, at every
// stripe's fullest moment and every 16 batches; see peakHeap) stays within
// 1.5 x the stripe size plus one batch. TestPeakHeap (ORC_PEAK_HEAP=1) does
// the same at the default 64 MiB over tens of millions of rows.
func TestHeapBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes some 20 MB of stripes")
	}
	const stripe = 8 << 20
	for _, c := range []struct {
		name string
		rows int
	}{{"lineitem", 600_000}, {"wide", 40_000}} {
		t.Run(c.name, func(t *testing.T) {
			var run heapRun
			var s *orc.Schema
			switch c.name {
			case "lineitem":
				gen := newLineitemGen(6)
				s = orc.MustParseSchema(lineitemSchema)
				run = peakHeap(t, s, func(b *orc.Batch, n int) { gen.fill(b, n) }, c.rows, stripe)
			default:
				gen := newWideGen(6)
				s = gen.schema
				run = peakHeap(t, s, gen.fill, c.rows, stripe)
			}
			limit := 1.5*stripe + float64(run.batch)
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
