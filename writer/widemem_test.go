package writer_test

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestWideSchemaMemory writes one row of 2,000 columns of each of a few
// kinds and checks the bytes the writer allocates per column, from
// NewWriter to Close: per-column state starts small and grows with the
// data (issue 49 item 10). Before, every integer column held a 4 KiB RLE
// buffer, every column a PRESENT stream and encoder, and every stream a
// chunk buffer of a whole block and a 4 KiB page for its few bytes:
// 15-20 KB a column here (strings 46 KB, with 8 KB of dictionary ids),
// then 4.2-4.5 KB (strings 8.3 KB), then bigint 2.2 KB, double and
// boolean 3.7 KB, strings 7.5 KB: integers' statistics encoded without
// their messages, smaller first chunk buffers, footers made with room.
// Now bigint 1.5 KB, double 3.5 KB, boolean 3.1 KB, strings 7.2 KB: a
// written column's stream reused by the next at Close, the footers
// written in parts, integer columns holding a value or two without an
// encoder, the row index one table. Now bigint 1.34 KB, double 3.36 KB,
// boolean 2.92 KB, strings 7.04 KB (1db8607: 1.51, 3.52, 3.08, 7.20): the
// schema used as given, not copied, and the stripe footer's streams and
// the root's type written out in parts. The bounds keep a tenth over that.
// Under the race detector, which allocates on its own, it is skipped.
func TestWideSchemaMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const cols = 2000
	for _, c := range []struct {
		kind  string
		limit int // bytes allocated a column
	}{{"bigint", 1480}, {"double", 3700}, {"boolean", 3220}, {"string", 7750}} {
		parts := make([]string, cols)
		for i := range parts {
			parts[i] = fmt.Sprintf("c%d:%s", i, c.kind)
		}
		s := orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
		b := orc.NewBatch(s, 1)
		for _, v := range b.Cols {
			switch v := v.(type) {
			case *orc.LongVector:
				v.Append(1)
			case *orc.DoubleVector:
				v.Append(1.5)
			case *orc.BytesVector:
				v.AppendString("x")
			}
		}
		b.NumRows = 1
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w, err := writer.NewWriter(io.Discard, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		per := int(after.TotalAlloc-before.TotalAlloc) / cols
		t.Logf("%s: %d bytes allocated a column", c.kind, per)
		if per > c.limit {
			t.Errorf("%s: %d bytes allocated a column, want at most %d", c.kind, per, c.limit)
		}
	}
}

// sampledWriter discards what it is given and, at every 200th write,
// collects garbage and notes the live heap, keeping the most.
type sampledWriter struct {
	writes int
	peak   uint64
}

func (s *sampledWriter) Write(p []byte) (int, error) {
	if s.writes++; s.writes%200 == 0 {
		s.peak = max(s.peak, liveHeap())
	}
	return len(p), nil
}

// TestWideLiveMemory writes one row of 10,000 bigint columns and checks the
// live heap a column takes (issue 49 item 10): after the Write, what the
// writer keeps for a column; during Close, the most it held, read at every
// 200th write to the io.Writer. Garbage is collected before each reading,
// so the figures are of live objects, whatever the collector's timing.
// Before, a column held 1,708 bytes after the Write and 2,337 at Close's
// peak (a stream of 416 bytes, its chunk buffer and pages kept to the
// end, a column writer of 352 bytes, three accumulators of 112, a row
// index entry of 176, an encoder's room for 8 values); then 870 and
// 1,048; then 546 and 733; then 530 and 729 (of which the compressor's
// state made at its first chunk, 1.6 MB, is 160): a column writer of 224
// bytes with its encoder, its stream made at its first byte, a list of
// its streams asked for rather than kept, an accumulator of 64 bytes, and
// a row index entry of 48 bytes (its positions in 32) with no slice of
// present counts beside it. Now 354 and 546: a column writer of 96 bytes
// holding its value without an encoder (heldInts), the row index one
// table of 40 bytes an entry with no positions kept when they are all 0,
// the first row group's statistics encoded from the stripe's when the
// index is written, the footers written in parts. Of the rest, the
// writer's copy of the schema took 136 bytes a column, the accumulator
// 64 and the list of column writers 16. Now 220-226 and 398-403 (1db8607:
// 354 and 545): the writer uses the schema it is given, noting 8 bytes a
// column of it (schemaNote), and the stripe footer's streams go out
// compressed as they come. The bounds keep a tenth over.
func TestWideLiveMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const cols = 10000
	parts := make([]string, cols)
	for i := range parts {
		parts[i] = fmt.Sprintf("c%d:bigint", i)
	}
	s := orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
	b := orc.NewBatch(s, 1)
	for i, v := range b.Cols {
		v.(*orc.LongVector).Append(int64(i))
	}
	b.NumRows = 1
	out := &sampledWriter{}
	base := liveHeap()
	w, err := writer.NewWriter(out, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	written := liveHeap()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(w)
	runtime.KeepAlive(b)
	perWrite := int(written-base) / cols
	perClose := int(max(out.peak, written)-base) / cols
	t.Logf("live heap a column: %d bytes after the Write, %d at most during Close (%d samples)", perWrite, perClose, out.writes/200)
	if perWrite > 250 {
		t.Errorf("after the Write: %d live bytes a column, want at most 250", perWrite)
	}
	if perClose > 445 {
		t.Errorf("during Close: %d live bytes a column, want at most 445", perClose)
	}
}
