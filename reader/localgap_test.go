package reader_test

import (
	"testing"

	"github.com/orcgo/orc/reader"
)

// TestParallelLocalDataBytes: the chunks of a parallel scan of a file of
// this machine each plan a few row groups of every stream, and a
// dictionary column's dictionary, stored after its data, in every chunk.
// Coalesced across a 64 KiB gap, each chunk's read of the dictionary took
// the data of the column's later row groups with it, read again by the
// chunks they belong to: 2 goroutines read 15% more data bytes than one
// here. Between the data ranges of a local file the gap is 16 KiB
// (localDataGap), and the chunks together read about what a serial scan
// reads.
func TestParallelLocalDataBytes(t *testing.T) {
	data := storeTable(t, 200_000)
	r, err := reader.Open(localRangeLog(t, data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var serial int64
	for _, par := range []int{1, 2, 3} {
		_, _, st := storeScan(t, r, reader.WithParallelism(par))
		got := st.BytesRead - st.IndexBytesRead
		t.Logf("%d goroutines: %d data bytes in %d reads", par, got, st.ReadCalls)
		if par == 1 {
			serial = got
		} else if got*100 > serial*102 {
			t.Errorf("%d goroutines read %d data bytes, over 1.02 times the serial scan's %d", par, got, serial)
		}
	}
}
