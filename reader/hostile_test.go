package reader_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
	"google.golang.org/protobuf/proto"
)

// editFooter returns a copy of an uncompressed ORC file with its footer
// changed by edit (and the postscript's footer length updated).
func editFooter(t *testing.T, data []byte, edit func(f *orcpb.Footer)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tail.Compression != orc.CompressionNone {
		t.Fatal("editFooter needs an uncompressed file")
	}
	f := proto.Clone(tail.Footer).(*orcpb.Footer)
	edit(f)
	fb, err := proto.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	ps.FooterLength = proto.Uint64(uint64(len(fb)))
	pb, err := proto.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:tail.FooterStart]...)
	out = append(out, fb...)
	out = append(out, pb...)
	return append(out, byte(len(pb)))
}

// hostileBase is a small uncompressed file of two stripes.
func hostileBase(t *testing.T) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,s:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone), writer.WithStripeRowLimit(500))
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1000)
	ids, strs := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector)
	for i := range 1000 {
		ids.Values = append(ids.Values, int64(i))
		strs.AppendString(fmt.Sprint("v", i))
	}
	b.NumRows = 1000
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Stripe lengths near 2^64 must not wrap into the data area: every such
// file is refused with ErrCorrupt naming the stripe, by Open or by the
// first read of the stripe, and nothing panics.
func TestStripeLengthOverflow(t *testing.T) {
	base := hostileBase(t)
	const top = math.MaxUint64
	cases := map[string]func(s *orcpb.StripeInformation){
		"footer 2^64-1": func(s *orcpb.StripeInformation) { s.FooterLength = proto.Uint64(top) },
		"footer wraps to inside": func(s *orcpb.StripeInformation) {
			s.FooterLength = proto.Uint64(top - s.GetDataLength() + s.GetFooterLength())
		},
		"index wraps to inside": func(s *orcpb.StripeInformation) {
			s.IndexLength = proto.Uint64(top - s.GetDataLength() + s.GetIndexLength() + 1)
		},
		"data wraps to inside": func(s *orcpb.StripeInformation) {
			s.DataLength = proto.Uint64(top - s.GetIndexLength() + s.GetDataLength() + 1)
		},
		"footer 2^63": func(s *orcpb.StripeInformation) { s.FooterLength = proto.Uint64(1 << 63) },
		"rows 2^64-1": func(s *orcpb.StripeInformation) { s.NumberOfRows = proto.Uint64(top) },
	}
	for name, edit := range cases {
		data := editFooter(t, base, func(f *orcpb.Footer) {
			edit(f.GetStripes()[1])
			f.NumberOfRows = nil
		})
		err := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return err
			}
			_, err = scanRows(r)
			return err
		}()
		if err == nil || !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%s: %v, want a corrupt-file error", name, err)
		}
	}
}

// Next with a batch that does not fit the scan's schema returns an error
// naming the column, not a panic, and the scan goes on with a good batch.
func TestNextWrongBatch(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,s:string,l:array<struct<x:int>>>")
	b := orc.NewBatch(s, 4)
	b.Cols[0].(*orc.LongVector).Values = []int64{1, 2}
	b.Cols[1].(*orc.BytesVector).AppendString("a")
	b.Cols[1].(*orc.BytesVector).AppendString("b")
	l := b.Cols[2].(*orc.ListVector)
	l.Offsets = []int64{0, 1, 1}
	l.Elem.(*orc.StructVector).Fields[0].(*orc.LongVector).Values = []int64{7}
	l.Elem.(*orc.StructVector).N = 1
	b.NumRows = 2
	r, _ := writeOpen(t, s, []*orc.Batch{b})
	for _, p := range []int{1, 2} {
		br, err := r.NewBatchReader(reader.WithParallelism(p))
		if err != nil {
			t.Fatal(err)
		}
		wrongNested := br.NewBatch()
		wrongNested.Cols[2].(*orc.ListVector).Elem.(*orc.StructVector).Fields[0] = &orc.BytesVector{}
		for name, bad := range map[string]*orc.Batch{
			"another schema": orc.NewBatch(orc.MustParseSchema("struct<a:double>"), 4),
			"swapped types":  {Schema: s, Cols: []orc.Vector{&orc.BytesVector{}, &orc.LongVector{}, &orc.ListVector{}}},
			"nested field":   wrongNested,
			"nil":            nil,
		} {
			err := func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return br.Next(bad)
			}()
			if err == nil || strings.Contains(err.Error(), "panic") || !strings.Contains(err.Error(), "NewBatch") {
				t.Fatalf("parallelism %d, %s: %v", p, name, err)
			}
		}
		good := br.NewBatch()
		if err := br.Next(good); err != nil || good.NumRows != 2 {
			t.Fatalf("parallelism %d: Next with a good batch after refusals: %v, %d rows", p, err, good.NumRows)
		}
		br.Close()
	}
}
