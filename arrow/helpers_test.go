package orcarrow_test

import (
	"bytes"
	"github.com/orcgo/orc/arrow/internal/rowcheck"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// writeORC writes batches with the library's writer.
func writeORC(tb testing.TB, s *orc.Schema, batches []*orc.Batch, opts ...writer.Option) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func openORC(tb testing.TB, data []byte) *reader.Reader {
	tb.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// orcRows reads every row of a file with the batch API as plain values.
func orcRows(tb testing.TB, r *reader.Reader, opts ...reader.ScanOption) []any {
	tb.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var rows []any
	for {
		err := br.Next(b)
		if err == io.EOF {
			return rows
		}
		if err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, testutil.Rows(br.Schema(), b, false)...)
	}
}

// validate runs ValidateFull on every column of rec.
func validate(tb testing.TB, rec arrow.RecordBatch) {
	tb.Helper()
	for i, col := range rec.Columns() {
		if err := array.ValidateFull(col); err != nil {
			tb.Fatalf("column %d (%s): ValidateFull: %v", i, rec.Schema().Field(i).Name, err)
		}
		if col.Len() != int(rec.NumRows()) {
			tb.Fatalf("column %d has %d rows, record %d", i, col.Len(), rec.NumRows())
		}
	}
}

func recordRows(s *orc.Schema, rec arrow.RecordBatch) []any { return rowcheck.RecordRows(s, rec) }

func fitForArrow(t *orc.Schema, v orc.Vector) { rowcheck.FitForArrow(t, v) }
