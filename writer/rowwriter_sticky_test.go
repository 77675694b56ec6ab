package writer_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/orcgo/orc/writer"
)

type rowText struct {
	S string `orc:"s"`
}

// TestRowWriterStickyClose checks that RowWriter, like Writer, returns the
// first error from every call after it: after a Close or a Write that
// failed writing.
func TestRowWriterStickyClose(t *testing.T) {
	t.Run("failed Close", func(t *testing.T) {
		rw, err := writer.NewRowWriter[rowText](&rowFailWriter{n: 3})
		if err != nil {
			t.Fatal(err)
		}
		if err := rw.Write(rowText{"a"}); err != nil {
			t.Fatal(err)
		}
		first := rw.Close()
		if first == nil || !strings.Contains(first.Error(), "disk full") {
			t.Fatalf("Close: %v, want disk full", first)
		}
		if err := rw.Close(); err != first {
			t.Errorf("second Close: %v, want %v", err, first)
		}
		if err := rw.Write(rowText{"b"}); err != first {
			t.Errorf("Write after the failed Close: %v, want %v", err, first)
		}
	})
	t.Run("refused batch", func(t *testing.T) {
		var buf bytes.Buffer
		rw, err := writer.NewRowWriter[rowText](&buf)
		if err != nil {
			t.Fatal(err)
		}
		rows := make([]rowText, 1024)
		rows[5].S = "\xff"
		first := rw.Write(rows...)
		if first == nil || !strings.Contains(first.Error(), "UTF-8") {
			t.Fatalf("Write: %v, want an invalid UTF-8 error", first)
		}
		if err := rw.Write(rowText{"b"}); err != first {
			t.Errorf("Write after the refusal: %v, want %v", err, first)
		}
		for i := range 2 {
			if err := rw.Close(); err != first {
				t.Errorf("Close %d: %v, want %v", i+1, err, first)
			}
		}
	})
	t.Run("failed Write then Close twice", func(t *testing.T) {
		rw, err := writer.NewRowWriter[rowText](&rowFailWriter{n: 3}, writer.WithStripeRowLimit(1024))
		if err != nil {
			t.Fatal(err)
		}
		first := rw.Write(make([]rowText, 1024)...)
		if first == nil || !errors.Is(first, first) || !strings.Contains(first.Error(), "disk full") {
			t.Fatalf("Write: %v, want disk full", first)
		}
		for i := range 2 {
			if err := rw.Close(); err != first {
				t.Errorf("Close %d: %v, want %v", i+1, err, first)
			}
		}
	})
}
