package reader_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

func TestScanLimits(t *testing.T) {
	s := orc.MustParseSchema("struct<tags:array<int>,name:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 100)
	list := b.Cols[0].(*orc.ListVector)
	elems := list.Elem.(*orc.LongVector)
	names := b.Cols[1].(*orc.BytesVector)
	list.Offsets = append(list.Offsets, 0)
	for i := 0; i < 100; i++ {
		for k := 0; k < 50; k++ {
			elems.Values = append(elems.Values, int64(k))
		}
		list.Offsets = append(list.Offsets, int64(len(elems.Values)))
		names.AppendString(strings.Repeat(string(rune('a'+i%3)), 600))
	}
	b.NumRows = 100
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = scanRows(r, reader.WithMaxNestedValues(1024))
	if !errors.Is(err, orc.ErrLimit) || !strings.Contains(err.Error(), "WithMaxNestedValues") {
		t.Fatalf("nested limit: %v", err)
	}
	_, err = scanRows(r, reader.WithMaxDictionarySize(1024))
	if !errors.Is(err, orc.ErrLimit) || !strings.Contains(err.Error(), "WithMaxDictionarySize") {
		t.Fatalf("dictionary limit: %v", err)
	}
	if n, err := scanRows(r, reader.WithMaxNestedValues(5000), reader.WithMaxDictionarySize(1800)); err != nil || n != 100 {
		t.Fatalf("within limits: %d rows, %v", n, err)
	}
}

// TestScanMemoryLimit checks WithMaxScanMemory: each kind of need (fetched
// stripe bytes, a dictionary, a batch's string bytes) is refused with
// orc.ErrLimit when over the cap, parallel workers share one cap, and a cap
// above the scan's needs changes nothing.
func TestScanMemoryLimit(t *testing.T) {
	// write makes an uncompressed file of one string column.
	write := func(rows, stripe int, value func(i int) string) *reader.Reader {
		t.Helper()
		s := orc.MustParseSchema("struct<s:string>")
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, writer.WithStripeSize(int64(stripe)), writer.WithCompression(orc.CompressionNone))
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(s, 1024)
		col := b.Cols[0].(*orc.BytesVector)
		for i := 0; i < rows; {
			b.Reset()
			for ; b.NumRows < 1024 && i < rows; i++ {
				col.AppendString(value(i))
				b.NumRows++
			}
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// 2,000 distinct 1 KiB values: a 2 MiB dictionary.
	dict := write(8192, 64<<20, func(i int) string { return fmt.Sprintf("%04d%s", i%2000, strings.Repeat("d", 1020)) })
	// One 2 MiB value among short distinct ones: direct encoding.
	big := write(4096, 64<<20, func(i int) string {
		if i == 100 {
			return strings.Repeat("b", 2<<20)
		}
		return fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
	})
	// Eight or so stripes of about 1 MiB.
	many := write(64<<10, 1<<20, func(i int) string { return fmt.Sprintf("%0128x", uint64(i)*0x9e3779b97f4a7c15) })
	if n := len(many.Stripes()); n < 4 {
		t.Fatalf("want several stripes, got %d", n)
	}
	if _, err := dict.NewBatchReader(reader.WithMaxScanMemory(1000)); err == nil {
		t.Fatal("WithMaxScanMemory(1000) accepted")
	}
	for _, c := range []struct {
		name string
		r    *reader.Reader
		rows int64
		opts []reader.ScanOption
		want string // in the error, or "" for success
	}{
		{"dictionary ample", dict, 8192, []reader.ScanOption{reader.WithMaxScanMemory(8 << 20)}, ""},
		{"dictionary", dict, 8192, []reader.ScanOption{reader.WithMaxScanMemory(3 << 20)}, "the dictionary of column 1 in stripe 0"},
		// The caps of big's cases are set against 1 MiB read windows: the
		// 2 MiB value's batch beside a window's piece overflows 3 MiB, and
		// a first piece of 1 MiB is refused by a 1 MiB cap before any batch.
		{"batch ample", big, 4096, []reader.ScanOption{reader.WithMaxScanMemory(8 << 20), reader.WithReadWindow(1 << 20)}, ""},
		{"batch", big, 4096, []reader.ScanOption{reader.WithMaxScanMemory(3 << 20), reader.WithReadWindow(1 << 20)}, "a batch of column 1"},
		{"stripe bytes", big, 4096, []reader.ScanOption{reader.WithMaxScanMemory(1 << 20), reader.WithReadWindow(1 << 20)}, "reading DATA of column 1 in stripe 0"},
		{"batch, default window", big, 4096, []reader.ScanOption{reader.WithMaxScanMemory(2 << 20)}, "a batch of column 1"},
		{"parallel ample", many, 64 << 10, []reader.ScanOption{reader.WithParallelism(3)}, ""},
	} {
		n, err := scanRows(c.r, c.opts...)
		switch {
		case c.want == "" && (err != nil || n != c.rows):
			t.Errorf("%s: %d rows, %v; want %d rows", c.name, n, err, c.rows)
		case c.want != "" && (!errors.Is(err, orc.ErrLimit) || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "WithMaxScanMemory")):
			t.Errorf("%s: got %v; want an ErrLimit naming %q", c.name, err, c.want)
		}
	}
	// Parallel workers share the cap: one that a stripe at a time fits in
	// refuses four stripes at once.
	var largest int64
	for _, st := range many.Stripes() {
		largest = max(largest, st.Length())
	}
	limit := 2*largest + 1<<20
	if _, err := scanRows(many, reader.WithMaxScanMemory(limit)); err != nil {
		t.Fatalf("one stripe at a time within %d bytes: %v", limit, err)
	}
	if _, err := scanRows(many, reader.WithMaxScanMemory(limit), reader.WithParallelism(4)); !errors.Is(err, orc.ErrLimit) {
		t.Fatalf("four stripes at once within %d bytes (largest stripe %d): got %v, want ErrLimit", limit, largest, err)
	}
}

// scanRows reads every batch of r with opts and returns the rows read and
// the error that ended the scan (nil at the end of the file).
func scanRows(r *reader.Reader, opts ...reader.ScanOption) (int64, error) {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return 0, err
	}
	defer br.Close()
	b := br.NewBatch()
	var n int64
	for {
		if err := br.Next(b); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
		n += int64(b.NumRows)
	}
}
