package reader_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// TestLastBatchLetsStripeGo checks that the batch which ends a stripe
// comes back with the stripe's streams, plans and read pieces given up:
// what the caller does with it (orc convert writes a wide row) does not
// find them held as well. A file of 20,000 int columns and one row:
// the heap live after Next, less what was live before the scan (the
// batch's included), was 275 bytes a column with the stripe's state held
// and is 163 without it (the column readers and the scan's own).
func TestLastBatchLetsStripeGo(t *testing.T) {
	if reader.RaceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	const cols = 20_000
	data := wideFile(t, cols)
	least := int64(1 << 62)
	for range 3 {
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		out := orc.NewBatch(r.Schema(), 1)
		before := liveHeap()
		br, err := r.NewBatchReader(reader.WithBatchSize(1))
		if err != nil {
			t.Fatal(err)
		}
		if err := br.Next(out); err != nil || out.NumRows != 1 || out.Cols[7].(*orc.LongVector).Values[0] != 1 {
			t.Fatalf("Next: %v, %d rows", err, out.NumRows)
		}
		held := liveHeap() - before
		least = min(least, held)
		runtime.KeepAlive(br)
		runtime.KeepAlive(out)
		br.Close()
	}
	perCol := least / cols
	t.Logf("held after the stripe's last batch: %d bytes, %d a column", least, perCol)
	if perCol > 200 {
		t.Errorf("the scan holds %d bytes a column after the batch that ends its only stripe: the stripe's state was kept (at most 200)", perCol)
	}
}

func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
