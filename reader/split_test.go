package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// manyStripes writes a file of n rows with small stripes.
func manyStripes(t testing.TB, n int) []byte {
	return manyStripesWith(t, n, orc.CompressionSnappy)
}

func manyStripesWith(t testing.TB, n int, comp orc.CompressionKind) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithStripeRowLimit(700), writer.WithRowIndexStride(200),
		writer.WithCompression(comp))
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1000)
	for start := 0; start < n; start += 1000 {
		b.Reset()
		ids := b.Cols[0].(*orc.LongVector)
		names := b.Cols[1].(*orc.BytesVector)
		for i := start; i < start+1000 && i < n; i++ {
			ids.Values = append(ids.Values, int64(i))
			names.AppendString(fmt.Sprintf("name-%d", i%97))
		}
		b.NumRows = len(ids.Values)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readIDs(t testing.TB, r *reader.Reader, opts ...reader.ScanOption) []int64 {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	var ids []int64
	for {
		err := br.Next(b)
		if err == io.EOF {
			return ids
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
	}
}

// TestSplitsCoverOnce checks that splits of every size tile the file: each
// row is read by exactly one split.
func TestSplitsCoverOnce(t *testing.T) {
	const n = 20000
	data := manyStripes(t, n)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Stripes()) < 20 {
		t.Fatalf("want many stripes, got %d", len(r.Stripes()))
	}
	for _, size := range []int64{1, 7, 100, 1000, 4096, 10000, int64(len(data)) / 3, int64(len(data))} {
		seen := make([]int, n)
		for off := int64(0); off < int64(len(data)); off += size {
			for _, id := range readIDs(t, r, reader.WithRange(off, size)) {
				seen[id]++
			}
		}
		for id, c := range seen {
			if c != 1 {
				t.Fatalf("split size %d: row %d read %d times", size, id, c)
			}
		}
	}
}

// TestConcurrentScans runs many BatchReaders on one Reader at once (run
// under -race).
func TestConcurrentScans(t *testing.T) {
	const n = 10000
	data := manyStripes(t, n)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ids := readIDs(t, r, reader.WithBatchSize(100+g*37))
			if len(ids) != n {
				errs <- fmt.Errorf("goroutine %d read %d rows", g, len(ids))
				return
			}
			for i, id := range ids {
				if id != int64(i) {
					errs <- fmt.Errorf("goroutine %d: row %d is %d", g, i, id)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
