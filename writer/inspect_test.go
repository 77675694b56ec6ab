package writer_test

// Helpers that take a written file apart with package format alone (no
// reader): the tail, each stripe's footer, its streams' bytes and
// decompressed index messages.

import (
	"bytes"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// file is a written file taken apart.
type file struct {
	data    []byte
	tail    *format.Tail
	dec     format.Decompressor
	stripes []*stripe
}

// stripe is one stripe: its footer and where each stream lies.
type stripe struct {
	info    *orcpb.StripeInformation
	footer  *orcpb.StripeFooter
	streams map[streamKey][]byte // stored bytes of each stream
	offsets map[streamKey]int64
	rows    int
	first   int // file row of the stripe's first row
}

type streamKey struct {
	col  int
	kind orcpb.Stream_Kind
}

// parseFile reads the tail and every stripe footer of data.
func parseFile(t testing.TB, data []byte) *file {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatalf("ReadTail: %v", err)
	}
	f := &file{data: data, tail: tail}
	if tail.Compression != orc.CompressionNone {
		if f.dec, err = format.NewDecompressor(tail.Compression); err != nil {
			t.Fatal(err)
		}
	}
	row := 0
	for i, si := range tail.Footer.GetStripes() {
		s := &stripe{info: si, streams: map[streamKey][]byte{}, offsets: map[streamKey]int64{},
			rows: int(si.GetNumberOfRows()), first: row}
		row += s.rows
		footStart := si.GetOffset() + si.GetIndexLength() + si.GetDataLength()
		b := f.readAll(t, fmt.Sprintf("stripe %d footer", i), data[footStart:footStart+si.GetFooterLength()])
		s.footer = &orcpb.StripeFooter{}
		if err := proto.Unmarshal(b, s.footer); err != nil {
			t.Fatalf("stripe %d footer: %v", i, err)
		}
		off := int64(si.GetOffset())
		var index, dataLen uint64
		inData := false
		for _, st := range s.footer.GetStreams() {
			k := streamKey{int(st.GetColumn()), st.GetKind()}
			if _, dup := s.streams[k]; dup {
				t.Errorf("stripe %d: stream %v of column %d twice", i, k.kind, k.col)
			}
			isIndex := k.kind == orcpb.Stream_ROW_INDEX || k.kind == orcpb.Stream_BLOOM_FILTER || k.kind == orcpb.Stream_BLOOM_FILTER_UTF8
			if isIndex && inData {
				t.Errorf("stripe %d: index stream %v of column %d after data streams", i, k.kind, k.col)
			}
			inData = inData || !isIndex
			if isIndex {
				index += st.GetLength()
			} else {
				dataLen += st.GetLength()
			}
			s.streams[k] = data[off : off+int64(st.GetLength())]
			s.offsets[k] = off
			off += int64(st.GetLength())
		}
		if index != si.GetIndexLength() || dataLen != si.GetDataLength() {
			t.Errorf("stripe %d: streams sum to index %d data %d, stripe information says %d and %d",
				i, index, dataLen, si.GetIndexLength(), si.GetDataLength())
		}
		if n := len(s.footer.GetColumns()); n != tail.Schema.MaxID()+1 {
			t.Errorf("stripe %d: %d column encodings for %d columns", i, n, tail.Schema.MaxID()+1)
		}
		f.stripes = append(f.stripes, s)
	}
	return f
}

// readAll decompresses a whole stored section.
func (f *file) readAll(t testing.TB, name string, stored []byte) []byte {
	t.Helper()
	in := format.NewInStream(format.StreamInfo{Name: name, Stripe: -1, Column: -1}, stored,
		f.tail.Compression, f.tail.BlockSize, f.dec)
	b, err := format.ReadAll(in, 256<<20)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// in returns a fresh InStream over a stream of stripe s, or nil when the
// stripe has no such stream.
func (f *file) in(s *stripe, col int, kind orcpb.Stream_Kind) *format.InStream {
	b, ok := s.streams[streamKey{col, kind}]
	if !ok {
		return nil
	}
	return format.NewInStream(format.StreamInfo{Name: kind.String(), FileOffset: s.offsets[streamKey{col, kind}], Stripe: -1, Column: col},
		b, f.tail.Compression, f.tail.BlockSize, f.dec)
}

// rowIndex decodes a column's ROW_INDEX stream in stripe s.
func (f *file) rowIndex(t testing.TB, s *stripe, col int) *orcpb.RowIndex {
	t.Helper()
	b, ok := s.streams[streamKey{col, orcpb.Stream_ROW_INDEX}]
	if !ok {
		t.Fatalf("column %d has no ROW_INDEX stream", col)
	}
	ri := &orcpb.RowIndex{}
	if err := proto.Unmarshal(f.readAll(t, "ROW_INDEX", b), ri); err != nil {
		t.Fatalf("column %d ROW_INDEX: %v", col, err)
	}
	return ri
}

// bloomIndex decodes a column's BLOOM_FILTER_UTF8 stream, or returns nil.
func (f *file) bloomIndex(t testing.TB, s *stripe, col int) *orcpb.BloomFilterIndex {
	t.Helper()
	b, ok := s.streams[streamKey{col, orcpb.Stream_BLOOM_FILTER_UTF8}]
	if !ok {
		return nil
	}
	bi := &orcpb.BloomFilterIndex{}
	if err := proto.Unmarshal(f.readAll(t, "BLOOM_FILTER_UTF8", b), bi); err != nil {
		t.Fatalf("column %d BLOOM_FILTER_UTF8: %v", col, err)
	}
	return bi
}

// spec is a file to write: schema, options and batches.
type spec struct {
	schema  *orc.Schema
	opts    []writer.Option
	batches []*orc.Batch
	rows    []any // the rows as written (normalized)
	desc    string
}

// generate fills a spec with rows from a generator, in batches of random
// sizes up to maxBatch.
func generate(sp *spec, g *testutil.Generator, rows, maxBatch int, r interface{ IntN(int) int }) {
	for n := 0; n < rows; {
		k := min(1+r.IntN(maxBatch), rows-n)
		b := g.Batch(k)
		sp.batches = append(sp.batches, b)
		sp.rows = append(sp.rows, testutil.Rows(sp.schema, b, true)...)
		n += k
	}
}

// write writes a spec and returns the file's bytes.
func write(t testing.TB, sp *spec) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, sp.schema, sp.opts...)
	if err != nil {
		t.Fatalf("NewWriter: %v", err)
	}
	for i, b := range sp.batches {
		if err := w.Write(b); err != nil {
			t.Fatalf("Write batch %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return buf.Bytes()
}
