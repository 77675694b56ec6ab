package reader_test

import (
	"bytes"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// writeOpen writes batches with the writer options and opens the file; it
// returns the reader and the file's bytes.
func writeOpen(tb testing.TB, s *orc.Schema, batches []*orc.Batch, opts ...writer.Option) (*reader.Reader, []byte) {
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
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		tb.Fatal(err)
	}
	return r, buf.Bytes()
}
