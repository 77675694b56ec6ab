package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

var wide struct {
	sync.Mutex
	data map[int][]byte
}

// wideFile is a one-row file of n int columns, each holding 1.
func wideFile(b testing.TB, n int) []byte {
	wide.Lock()
	defer wide.Unlock()
	if d, ok := wide.data[n]; ok {
		return d
	}
	var sb strings.Builder
	sb.WriteString("struct<")
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "c%d:int", i)
	}
	sb.WriteString(">")
	s := orc.MustParseSchema(sb.String())
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		b.Fatal(err)
	}
	batch := orc.NewBatch(s, 1)
	for _, c := range batch.Cols {
		v := c.(*orc.LongVector)
		v.Values = append(v.Values, 1)
	}
	batch.NumRows = 1
	if err := w.Write(batch); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if wide.data == nil {
		wide.data = map[int][]byte{}
	}
	wide.data[n] = buf.Bytes()
	return buf.Bytes()
}

// BenchmarkWideFooter measures metadata calls and a scan on footers of
// 10,000, 50,000 and 100,000 columns: each must be linear in the schema's
// size, ns/col flat (Statistics of every column walked the type tree per
// call, and planning a stripe went over every stream for every column:
// minutes, where this takes a second).
func BenchmarkWideFooter(b *testing.B) {
	for _, n := range []int{10000, 50000, 100000} {
		data := wideFile(b, n)
		perCol := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/col")
		}
		b.Run(fmt.Sprintf("open+statistics/cols=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					b.Fatal(err)
				}
				for id := range r.Schema().MaxID() + 1 {
					if _, ok := r.Statistics(id); !ok {
						b.Fatal("no statistics")
					}
					if _, ok := r.StripeStatistics(0, id); !ok {
						b.Fatal("no stripe statistics")
					}
				}
			}
			perCol(b)
		})
		b.Run(fmt.Sprintf("scan/cols=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				br, err := r.NewBatchReader(reader.WithBatchSize(1))
				if err != nil {
					b.Fatal(err)
				}
				batch := br.NewBatch()
				rows := 0
				for {
					err := br.Next(batch)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					rows += batch.NumRows
				}
				if rows != 1 {
					b.Fatalf("%d rows", rows)
				}
			}
			perCol(b)
		})
	}
}

// A batch is no larger than the file's largest stripe: a small file of
// many columns does not get vectors of the default 1,024 rows.
func TestBatchCapacityBoundedByStripes(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,b:string>")
	batch := orc.NewBatch(s, 3)
	for i := range 3 {
		batch.Cols[0].(*orc.LongVector).Values = append(batch.Cols[0].(*orc.LongVector).Values, int64(i))
		batch.Cols[1].(*orc.BytesVector).AppendString("x")
	}
	batch.NumRows = 3
	r, _ := writeOpen(t, s, []*orc.Batch{batch})
	br, err := r.NewBatchReader(reader.WithBatchSize(5000))
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	if c := cap(b.Cols[0].(*orc.LongVector).Values); c != 3 {
		t.Fatalf("batch capacity %d for a file of 3 rows", c)
	}
	if err := br.Next(b); err != nil || b.NumRows != 3 {
		t.Fatalf("Next: %v, %d rows", err, b.NumRows)
	}
}
