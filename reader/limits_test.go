package reader_test

import (
	"bytes"
	"errors"
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
	read := func(opts ...reader.ScanOption) error {
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			return err
		}
		bb := br.NewBatch()
		for {
			if err := br.Next(bb); err != nil {
				return err
			}
		}
	}
	err = read(reader.WithMaxNestedValues(1024))
	if !errors.Is(err, orc.ErrUnsupported) || !strings.Contains(err.Error(), "WithMaxNestedValues") {
		t.Fatalf("nested limit: %v", err)
	}
	err = read(reader.WithMaxDictionarySize(1024))
	if !errors.Is(err, orc.ErrUnsupported) || !strings.Contains(err.Error(), "WithMaxDictionarySize") {
		t.Fatalf("dictionary limit: %v", err)
	}
	if err := read(reader.WithMaxNestedValues(5000), reader.WithMaxDictionarySize(1800)); err.Error() != "EOF" {
		t.Fatalf("within limits: %v", err)
	}
}
