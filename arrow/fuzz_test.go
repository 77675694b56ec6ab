package orcarrow_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// FuzzRecordReader reads arbitrary bytes through Arrow: the scan may fail,
// but never panic, and every record it returns must pass ValidateFull and
// release all it allocated.
func FuzzRecordReader(f *testing.F) {
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 1))
		s := testutil.RandomSchema(r, 4, 2)
		f.Add(generated(f, seed, s, 1, 50))
	}
	f.Add(salesFile(f, 30))
	// Apache's example files, the small ones of few rows, when ORC_EXAMPLES names them.
	if dir := os.Getenv("ORC_EXAMPLES"); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
		for _, p := range paths {
			if fi, err := os.Stat(p); err == nil && fi.Size() <= 64<<10 {
				b, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				// Files of many rows (a few KB of runs can hold millions)
				// make each run slow.
				if r, err := reader.Open(bytes.NewReader(b), int64(len(b))); err == nil && r.NumRows() <= 10000 {
					f.Add(b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(r, orcarrow.WithAllocator(mem),
			orcarrow.WithScanOptions(reader.WithBatchSize(17), reader.WithMaxScanMemory(64<<20)))
		if err != nil {
			return
		}
		for rr.Next() {
			for _, c := range rr.RecordBatch().Columns() {
				if err := array.ValidateFull(c); err != nil {
					t.Fatalf("ValidateFull: %v (schema %s)", err, r.Schema())
				}
			}
		}
		rr.Release()
		mem.AssertSize(t, 0)
	})
}

// stripeBases are the files FuzzRecordReaderStripes damages: random
// schemas (nested types, unions, every primitive) and the sales file.
func stripeBases(tb testing.TB) [][]byte {
	var out [][]byte
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 35))
		out = append(out, generated(tb, seed, testutil.RandomSchema(r, 5, 3), 2, 300))
	}
	return append(out, salesFile(tb, 500))
}

// FuzzRecordReaderStripes damages the stripes of a valid file and leaves
// its tail whole, so that every run gets past Open into the decoders and
// the conversion to Arrow (raw bytes, as FuzzRecordReader feeds, mostly
// stop at the tail). Each edit is three bytes: a position (two bytes,
// taken modulo the stripes' length) and a value XORed in. The scan may
// fail, with an error, but never panic; what it returns must pass
// ValidateFull and release all it allocated.
func FuzzRecordReaderStripes(f *testing.F) {
	bases := stripeBases(f)
	f.Add(uint8(0), []byte{0, 10, 0xff})
	f.Add(uint8(1), []byte{0, 200, 1, 1, 0, 0x80})
	f.Add(uint8(4), []byte{3, 0, 0x10, 0, 40, 0x7f, 9, 9, 9})
	f.Fuzz(func(t *testing.T, which uint8, edits []byte) {
		base := bases[int(which)%len(bases)]
		r0, err := reader.Open(bytes.NewReader(base), int64(len(base)))
		if err != nil {
			t.Fatal(err)
		}
		var end int64 = 3
		for _, st := range r0.Stripes() {
			end = max(end, st.Offset+st.Length())
		}
		data := bytes.Clone(base)
		for i := 0; i+2 < len(edits) && i < 3*64; i += 3 {
			pos := 3 + (int64(edits[i])<<8|int64(edits[i+1]))%(end-3)
			data[pos] ^= edits[i+2]
		}
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("the tail is untouched, yet Open fails: %v", err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(r, orcarrow.WithAllocator(mem),
			orcarrow.WithScanOptions(reader.WithBatchSize(64), reader.WithMaxScanMemory(64<<20)))
		if err != nil {
			return
		}
		for rr.Next() {
			for _, c := range rr.RecordBatch().Columns() {
				if err := array.ValidateFull(c); err != nil {
					t.Fatalf("ValidateFull: %v (schema %s)", err, r.Schema())
				}
			}
		}
		if err := rr.Err(); err != nil && err.Error() == "" {
			t.Fatal("an empty error")
		}
		rr.Release()
		mem.AssertSize(t, 0)
	})
}

// A string column holding bytes that are not UTF-8 (other writers store
// any bytes; the fuzzer found it in damaged files) is an error naming the
// column and row, not an Arrow string array that fails ValidateFull: a
// bad byte inside a value, and valid text cut in the middle of a
// character between two values.
func TestRecordReaderInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		vals []string
		row  int
	}{
		{[]string{"ok", "b\xffd", "ok"}, 1},
		{[]string{"ok", "\xc3", "\xa9"}, 1},
		{[]string{"é", "ok", "日本"}, -1},
	} {
		s := orc.MustParseSchema("struct<id:int,s:string>")
		b := orc.NewBatch(s, len(c.vals))
		for i, v := range c.vals {
			b.Cols[0].(*orc.LongVector).Append(int64(i))
			b.Cols[1].(*orc.BytesVector).AppendString(v)
		}
		b.NumRows = len(c.vals)
		data := writeORC(t, s, []*orc.Batch{b}, writer.WithAllowInvalidUTF8(true))
		for _, opts := range [][]reader.ScanOption{nil, {reader.WithSearchArgument(sarg.Ge("id", sarg.Int(1)))}} {
			rr, err := orcarrow.FromReader(openORC(t, data), orcarrow.WithScanOptions(opts...))
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for rr.Next() {
				for _, col := range rr.RecordBatch().Columns() {
					if err := array.ValidateFull(col); err != nil {
						t.Fatalf("%q: ValidateFull: %v", c.vals, err)
					}
				}
				rows += int(rr.RecordBatch().NumRows())
			}
			err = rr.Err()
			rr.Release()
			if c.row < 0 {
				if err != nil || rows == 0 {
					t.Errorf("%q: %v (%d rows)", c.vals, err, rows)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), "not valid UTF-8") || !strings.Contains(err.Error(), `"s"`) {
				t.Errorf("%q (scan %v): %v; want an error naming column s", c.vals, opts, err)
			}
		}
	}
}
