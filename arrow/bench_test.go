package orcarrow_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/arrow/internal/lineitem"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

const (
	benchRows  = 100_000
	benchBatch = 8192
)

func benchFile(b *testing.B) ([]byte, []*orc.Batch) {
	b.Helper()
	g := lineitem.New(42)
	var bs []*orc.Batch
	for left := benchRows; left > 0; left -= benchBatch {
		bs = append(bs, g.Batch(min(left, benchBatch)))
	}
	return writeORC(b, g.Schema(), bs, writer.WithCompression(orc.CompressionZstd)), bs
}

func reportRows(b *testing.B, rows int) {
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRead scans a 100k-row lineitem file (ZSTD) with the batch API
// (reusing one batch, and with a fresh batch per call as the Arrow reader
// decodes) and through Arrow records.
func BenchmarkRead(b *testing.B) {
	data, _ := benchFile(b)
	r := openORC(b, data)
	b.Run("batch", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			br, err := r.NewBatchReader(reader.WithBatchSize(benchBatch))
			if err != nil {
				b.Fatal(err)
			}
			batch := br.NewBatch()
			for br.Next(batch) != io.EOF {
			}
			br.Close()
		}
		reportRows(b, benchRows)
	})
	b.Run("batch-fresh", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			br, err := r.NewBatchReader(reader.WithBatchSize(benchBatch))
			if err != nil {
				b.Fatal(err)
			}
			for br.Next(br.NewBatch()) != io.EOF {
			}
			br.Close()
		}
		reportRows(b, benchRows)
	})
	for _, reuse := range []bool{false, true} {
		name := "arrow"
		if reuse {
			name = "arrow-reuse"
		}
		b.Run(name, func(b *testing.B) { benchArrowRead(b, r, len(data), reuse) })
	}
}

func benchArrowRead(b *testing.B, r *reader.Reader, size int, reuse bool) {
	{
		b.ReportAllocs()
		b.SetBytes(int64(size))
		for b.Loop() {
			rr, err := orcarrow.FromReader(r, orcarrow.WithReuse(reuse), orcarrow.WithScanOptions(reader.WithBatchSize(benchBatch)))
			if err != nil {
				b.Fatal(err)
			}
			for rr.Next() {
			}
			if rr.Err() != nil {
				b.Fatal(rr.Err())
			}
			rr.Release()
		}
		reportRows(b, benchRows)
	}
}

// BenchmarkConvert measures the conversion alone: decoded batches of the
// lineitem file to Arrow records.
func BenchmarkConvert(b *testing.B) {
	_, bs := benchFile(b)
	s := bs[0].Schema
	b.ReportAllocs()
	for b.Loop() {
		for _, batch := range bs {
			rec, err := orcarrow.Convert(s, batch, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	}
	reportRows(b, benchRows)
}

// BenchmarkWrite writes the lineitem rows (ZSTD) from ORC batches and from
// the same rows as Arrow records.
func BenchmarkWrite(b *testing.B) {
	_, bs := benchFile(b)
	s := bs[0].Schema
	var recs []arrow.RecordBatch
	for _, batch := range bs {
		rec, err := orcarrow.Convert(s, batch, nil)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, rec)
	}
	var buf bytes.Buffer
	b.Run("batch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
			if err != nil {
				b.Fatal(err)
			}
			for _, batch := range bs {
				if err := w.Write(batch); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, benchRows)
	})
	b.Run("arrow", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			w, err := orcarrow.NewWriter(&buf, recs[0].Schema(), writer.WithCompression(orc.CompressionZstd))
			if err != nil {
				b.Fatal(err)
			}
			for _, rec := range recs {
				if err := w.Write(rec); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, benchRows)
	})
	for _, rec := range recs {
		rec.Release()
	}
}

// TestNoPerValueAllocation checks that converting a batch to a record
// allocates as much for 8 rows as for 8,192 (fill_test.go checks the other
// way).
func TestNoPerValueAllocation(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	g := lineitem.New(5)
	small, large := g.Batch(8), g.Batch(8192)
	s := small.Schema
	toArrow := func(batch *orc.Batch) float64 {
		return testing.AllocsPerRun(20, func() {
			rec, err := orcarrow.Convert(s, batch, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			rec.Release()
		})
	}
	// a few buffers (validity bitmaps) exist only when some row is null
	if a, b := toArrow(small), toArrow(large); b > a+10 {
		t.Errorf("ORC -> Arrow: %v allocations for 8 rows, %v for 8192", a, b)
	}
	t.Logf("ORC -> Arrow: %v allocations per record", toArrow(large))
}
