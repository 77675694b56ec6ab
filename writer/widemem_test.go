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
// against 6 KB now (strings 11 KB).
func TestWideSchemaMemory(t *testing.T) {
	const cols = 2000
	for _, c := range []struct {
		kind  string
		limit int // bytes allocated a column
	}{{"bigint", 8000}, {"double", 8000}, {"boolean", 8000}, {"string", 14000}} {
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
