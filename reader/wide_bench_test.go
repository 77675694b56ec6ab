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
	once sync.Once
	data []byte
}

// wideFile is a one-row file of 100,000 int columns.
func wideFile(b *testing.B) []byte {
	wide.once.Do(func() {
		var sb strings.Builder
		sb.WriteString("struct<")
		for i := range 100000 {
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
		wide.data = buf.Bytes()
	})
	return wide.data
}

// BenchmarkWideFooter measures metadata calls and a scan on a footer of
// 100,000 columns: each must be linear in the schema's size (Statistics of
// every column walked the type tree per call, and planning a stripe went
// over every stream for every column: minutes, where this takes a second).
func BenchmarkWideFooter(b *testing.B) {
	data := wideFile(b)
	b.Run("open+statistics", func(b *testing.B) {
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
	})
	b.Run("scan", func(b *testing.B) {
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
	})
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
