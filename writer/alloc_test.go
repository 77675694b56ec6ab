package writer_test

import (
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// maxAllocsPerBatch bounds the allocations of one steady-state Write of
// 1,024 lineitem rows (16 columns). What remains is per row group, not per
// row: each column's row index entry and statistics at every 10,000 rows
// (20 serially, 24 on two goroutines when this was written).
const maxAllocsPerBatch = 28

// TestWriteAllocs writes lineitem batches until the writer is in its
// steady state (past its first stripe) and checks the allocations of
// further Writes, serially and on two goroutines.
func TestWriteAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, par := range []int{1, 2} {
		s := orc.MustParseSchema(lineitemSchema)
		batches, _ := lineitemBatches(8, 1024, 7)
		w, err := writer.NewWriter(io.Discard, s, writer.WithStripeSize(4<<20), writer.WithParallelism(par),
			writer.WithBloomFilterColumns("l_comment"))
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		write := func() {
			if err := w.Write(batches[i%len(batches)]); err != nil {
				t.Fatal(err)
			}
			i++
		}
		for range 150 { // past the first stripe
			write()
		}
		allocs := testing.AllocsPerRun(100, write)
		t.Logf("parallelism %d: %.1f allocations per 1,024-row batch", par, allocs)
		if allocs > maxAllocsPerBatch {
			t.Errorf("parallelism %d: %.1f allocations per 1,024-row batch, want at most %d", par, allocs, maxAllocsPerBatch)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
