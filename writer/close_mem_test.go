package writer_test

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// Close of a file of many columns makes one column's statistics message
// at a time for the stripe statistics and the footer, keeps the row
// index's statistics and the stripe footer encoded, not as messages, and
// makes no streams for a next stripe (issue 49 item 10: a CSV line of
// 100,000 integers held 80 MB of statistics messages). The heap Close
// adds to what the writer holds, over 10,000 int columns of one row, is
// at most 1,200 bytes a column (measured 718-970; each column's first
// stream bytes come at Close); it was 1,700-1,753.
func TestCloseStatisticsMemory(t *testing.T) {
	const cols = 10000
	var sb strings.Builder
	sb.WriteString("struct<")
	for i := range cols {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "c%d:int", i)
	}
	sb.WriteByte('>')
	s := orc.MustParseSchema(sb.String())
	b := orc.NewBatch(s, 1)
	for i, c := range b.Cols {
		c.(*orc.LongVector).Values = append(c.(*orc.LongVector).Values, int64(i))
	}
	b.NumRows = 1
	least := uint64(1 << 62)
	for range 3 {
		w, err := writer.NewWriter(io.Discard, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		least = min(least, closePeak(func() {
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}))
	}
	per := least / cols
	t.Logf("Close of %d columns: the heap grew by %.1f MiB, %d B a column", cols, float64(least)/(1<<20), per)
	if per > 1200 {
		t.Errorf("Close grew the heap by %d B a column, want at most 1,200", per)
	}
}

// closePeak runs fn and returns the most the heap's objects grew above
// their size before it, sampled every 100 µs with the collector at GOGC 2,
// so that garbage adds little to what the objects hold.
func closePeak(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(2))
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	return max(peak, base) - base
}
