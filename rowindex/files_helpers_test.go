package rowindex

import (
	"bytes"
	"os"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
)

// Reading Apache's example files for the tests: the tail with format.ReadTail,
// then each stripe's footer and streams located as the spec says (index
// streams from the stripe offset, data streams after the index area, each in
// footer order), decompressed with format.InStream.

type exFile struct {
	name     string
	data     []byte
	tail     *format.Tail
	cols     []*orc.Schema // by column id
	parent   []int         // parent column id, -1 for the root
	childIdx []int         // position among the parent's children
	dec      format.Decompressor
}

type streamKey struct {
	col  int
	kind orcpb.Stream_Kind
}

type exStripe struct {
	f       *exFile
	index   int
	rows    uint64
	footer  *orcpb.StripeFooter
	streams map[streamKey][]byte // stored bytes
}

func openExample(t testing.TB, name string) *exFile {
	t.Helper()
	path := examples.Path(t, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s not readable: %v", name, err)
	}
	f, err := parseExample(name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// parseExample reads the tail of a file's bytes.
func parseExample(name string, data []byte) (*exFile, error) {
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		return nil, err
	}
	f := &exFile{name: name, data: data, tail: tail}
	if tail.Schema != nil {
		f.cols = tail.Schema.Columns()
		f.parent = make([]int, len(f.cols))
		f.childIdx = make([]int, len(f.cols))
		f.parent[0] = -1
		for _, c := range f.cols {
			for i, ch := range c.Children {
				f.parent[ch.ID()] = c.ID()
				f.childIdx[ch.ID()] = i
			}
		}
	}
	return f, nil
}

func (f *exFile) compressed() bool { return f.tail.Compression != orc.CompressionNone }

func (f *exFile) decompressor(t testing.TB) format.Decompressor {
	t.Helper()
	if !f.compressed() {
		return nil
	}
	if f.dec == nil {
		d, err := format.NewDecompressor(f.tail.Compression)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		f.dec = d
	}
	return f.dec
}

// inStream returns a stream reader over the whole of stored.
func (f *exFile) inStream(t testing.TB, stored []byte) *format.InStream {
	return format.NewInStream(format.StreamInfo{Name: "test", Stripe: -1, Column: -1, Length: uint64(len(stored))},
		stored, f.tail.Compression, f.tail.BlockSize, f.decompressor(t))
}

// decompress returns the decompressed bytes of stored.
func (f *exFile) decompress(t testing.TB, stored []byte) []byte {
	t.Helper()
	b, err := format.ReadAll(f.inStream(t, stored), 1<<30)
	if err != nil {
		t.Fatalf("%s: decompress: %v", f.name, err)
	}
	return b
}

func (f *exFile) stripes() int { return len(f.tail.Footer.GetStripes()) }

func (f *exFile) stripe(t testing.TB, i int) *exStripe {
	t.Helper()
	si := f.tail.Footer.GetStripes()[i]
	off := si.GetOffset()
	footStart := off + si.GetIndexLength() + si.GetDataLength()
	footEnd := footStart + si.GetFooterLength()
	if footEnd > uint64(len(f.data)) {
		t.Fatalf("%s stripe %d: footer past the end of the file", f.name, i)
	}
	sf := &orcpb.StripeFooter{}
	if err := proto.Unmarshal(f.decompress(t, f.data[footStart:footEnd]), sf); err != nil {
		t.Fatalf("%s stripe %d: footer: %v", f.name, i, err)
	}
	s := &exStripe{f: f, index: i, rows: si.GetNumberOfRows(), footer: sf, streams: map[streamKey][]byte{}}
	idx, dat := off, off+si.GetIndexLength()
	for _, st := range sf.GetStreams() {
		var p *uint64
		switch st.GetKind() {
		case orcpb.Stream_ROW_INDEX, orcpb.Stream_BLOOM_FILTER, orcpb.Stream_BLOOM_FILTER_UTF8:
			p = &idx
		default:
			p = &dat
		}
		start, end := *p, *p+st.GetLength()
		if end > footStart {
			t.Fatalf("%s stripe %d: stream %v of column %d overruns the stripe", f.name, i, st.GetKind(), st.GetColumn())
		}
		s.streams[streamKey{int(st.GetColumn()), st.GetKind()}] = f.data[start:end]
		*p = end
	}
	return s
}

func (s *exStripe) encoding(col int) orcpb.ColumnEncoding_Kind {
	if col < len(s.footer.GetColumns()) {
		return s.footer.GetColumns()[col].GetKind()
	}
	return orcpb.ColumnEncoding_DIRECT
}

func (s *exStripe) has(col int, kind orcpb.Stream_Kind) bool {
	_, ok := s.streams[streamKey{col, kind}]
	return ok
}

// decimal64 reports whether column col is stored as decimal64 (RLE v2
// unscaled longs, no SECONDARY).
func (s *exStripe) decimal64(col int) bool {
	c := s.f.cols[col]
	return c.Kind == orc.Decimal && s.f.tail.Version == format.VersionUnstablePre2 &&
		c.Precision <= 18 && !s.has(col, orcpb.Stream_SECONDARY)
}

// layout returns column col's Layout in this stripe.
func (s *exStripe) layout(col int) []Slot {
	return Layout(s.f.cols[col], s.encoding(col), s.has(col, orcpb.Stream_PRESENT), s.f.compressed(), s.decimal64(col))
}

// rowIndex decodes column col's ROW_INDEX, or returns nil when there is none.
func (s *exStripe) rowIndex(t testing.TB, col int) *orcpb.RowIndex {
	t.Helper()
	b, ok := s.streams[streamKey{col, orcpb.Stream_ROW_INDEX}]
	if !ok {
		return nil
	}
	ri, err := DecodeRowIndex(s.f.decompress(t, b))
	if err != nil {
		t.Fatalf("%s stripe %d column %d: %v", s.f.name, s.index, col, err)
	}
	return ri
}

// runsOf returns the runs of selected groups, [first, end) each.
func runsOf(sel []bool) [][2]int {
	var out [][2]int
	for a := 0; a < len(sel); a++ {
		if !sel[a] {
			continue
		}
		b := a + 1
		for b < len(sel) && sel[b] {
			b++
		}
		out = append(out, [2]int{a, b})
		a = b
	}
	return out
}
