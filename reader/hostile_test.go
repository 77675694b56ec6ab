package reader_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
	"google.golang.org/protobuf/proto"
)

// editFooter returns a copy of an ORC file with its footer changed by edit
// (and the postscript's footer length updated).
func editFooter(t *testing.T, data []byte, edit func(f *orcpb.Footer)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := tail.FullFooter()
	if err != nil {
		t.Fatal(err)
	}
	edit(f)
	fb, err := proto.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	fb = asChunk(tail, fb)
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

// asChunk frames b as one stored (not compressed) chunk when the file is
// compressed.
func asChunk(tail *format.Tail, b []byte) []byte {
	if tail.Compression == orc.CompressionNone {
		return b
	}
	h := uint32(len(b))<<1 | 1
	return append([]byte{byte(h), byte(h >> 8), byte(h >> 16)}, b...)
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

// editStripeFooter returns a copy of a one-stripe file with
// its stripe footer changed by edit (and the lengths that locate it
// updated).
func editStripeFooter(t *testing.T, data []byte, edit func(sf *orcpb.StripeFooter)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	si := tail.Footer.GetStripes()
	if len(si) != 1 {
		t.Fatal("editStripeFooter needs a file of one stripe")
	}
	start := si[0].GetOffset() + si[0].GetIndexLength() + si[0].GetDataLength()
	end := start + si[0].GetFooterLength()
	raw := data[start:end]
	if tail.Compression != orc.CompressionNone {
		dec, err := format.NewDecompressor(tail.Compression)
		if err != nil {
			t.Fatal(err)
		}
		in := format.NewInStream(format.StreamInfo{Name: "stripe footer", Length: uint64(len(raw))}, raw, tail.Compression, tail.BlockSize, dec)
		if raw, err = format.ReadAll(in, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	sf := &orcpb.StripeFooter{}
	if err := proto.Unmarshal(raw, sf); err != nil {
		t.Fatal(err)
	}
	edit(sf)
	sb, err := proto.Marshal(sf)
	if err != nil {
		t.Fatal(err)
	}
	sb = asChunk(tail, sb)
	out := append(append(append([]byte(nil), data[:start]...), sb...), data[end:]...)
	return editFooter(t, out, func(f *orcpb.Footer) {
		f.GetStripes()[0].FooterLength = proto.Uint64(uint64(len(sb)))
		if f.ContentLength != nil {
			f.ContentLength = proto.Uint64(f.GetContentLength() + uint64(len(sb)) - (end - start))
		}
	})
}

// A dictionary size claimed by the stripe footer is not allocated ahead:
// the offsets grow as the LENGTH stream yields entries, so a claim of 2^28
// entries in a small file fails as corrupt after a few KiB, not after
// allocating 2 GiB.
func TestDictionarySizeClaim(t *testing.T) {
	s := orc.MustParseSchema("struct<s:string>")
	b := orc.NewBatch(s, 1000)
	for i := range 1000 {
		b.Cols[0].(*orc.BytesVector).AppendString([]string{"red", "green", "blue"}[i%3])
	}
	b.NumRows = 1000
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, claim := range []uint32{1 << 28, 1 << 26, 4} {
		data := editStripeFooter(t, buf.Bytes(), func(sf *orcpb.StripeFooter) {
			e := sf.GetColumns()[1]
			if e.GetKind() != orcpb.ColumnEncoding_DICTIONARY_V2 {
				t.Fatalf("column encoded %s, want a dictionary", e.GetKind())
			}
			e.DictionarySize = proto.Uint32(claim)
		})
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var grew uint64
		err = func() error {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			defer func() {
				runtime.ReadMemStats(&after)
				grew = after.TotalAlloc - before.TotalAlloc
			}()
			_, err := scanRows(r)
			return err
		}()
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Fatalf("dictionary size %d claimed for 3 entries: %v, want a corrupt-file error", claim, err)
		}
		if grew > 16<<20 {
			t.Fatalf("dictionary size %d claimed: the scan allocated %d bytes", claim, grew)
		}
	}
}

// ScanStats tells stripes pruned by their statistics from stripes left
// with no row group, and groups a bloom filter ruled out from groups
// min/max ruled out.
func TestPruningCounters(t *testing.T) {
	s := orc.MustParseSchema("struct<k:bigint>")
	b := orc.NewBatch(s, 20000)
	for i := range 20000 {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(2*i)) // even keys
	}
	b.NumRows = 20000
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(10000),
		writer.WithBloomFilterColumns("k"))
	for _, c := range []struct {
		where                                   string
		stripes, pruned, groups, bloom, matches int
	}{
		// 30001 is odd: min/max keeps group 15 (30000..31998), its bloom
		// filter does not; stripe 0 (keys 0..19998) is pruned by statistics.
		{"k = 30001", 2, 1, 10, 1, 0},
		{"k = 30000", 1, 1, 9, 0, 1},
		// Stripe 1 keeps no group (15 goes by its bloom filter): skipped,
		// not pruned by statistics.
		{"k = 2000 OR k = 30001", 1, 0, 19, 1, 1},
	} {
		_, st := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(c.where)), reader.WithExactFilter(true))
		if st.StripesSkipped != c.stripes || st.StripesPruned != c.pruned || st.GroupsSkipped != c.groups ||
			st.GroupsSkippedByBloom != c.bloom || st.RowsReturned != int64(c.matches) {
			t.Errorf("%s: %v", c.where, st)
		}
		for _, p := range []int{2, 3} {
			_, pst := scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(c.where)), reader.WithExactFilter(true), reader.WithParallelism(p))
			if pst.StripesPruned != st.StripesPruned || pst.GroupsSkippedByBloom != st.GroupsSkippedByBloom || pst.GroupsSkipped != st.GroupsSkipped {
				t.Errorf("%s, %d workers: %v\nserial %v", c.where, p, pst, st)
			}
		}
	}
}

// A char(n) whose n no file can hold is refused when the footer is read, so
// that binding a predicate never pads a literal to it.
func TestCharLengthClaim(t *testing.T) {
	data := editFooter(t, hostileBase(t), func(f *orcpb.Footer) {
		k := orcpb.Type_CHAR
		f.Types[2].Kind = &k
		f.Types[2].MaximumLength = proto.Uint32(math.MaxUint32)
	})
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	_, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if !errors.Is(err, orc.ErrCorrupt) || !strings.Contains(err.Error(), "char(4294967295)") {
		t.Fatalf("char(4294967295): %v", err)
	}
	runtime.ReadMemStats(&m)
	if m.TotalAlloc-before > 16<<20 {
		t.Fatalf("refusing the file allocated %d bytes", m.TotalAlloc-before)
	}
	if _, err := orc.ParseSchema("struct<c:char(70000)>"); err == nil {
		t.Fatal("char(70000) parsed")
	}
	if _, err := orc.ParseSchema("struct<c:char(65535),v:varchar(100000)>"); err != nil {
		t.Fatalf("the largest char and a long varchar: %v", err)
	}
}

// A damaged writer time zone is corruption, echoed as a short prefix; an
// unknown but plausible name is unsupported.
func TestWriterZoneClaim(t *testing.T) {
	s := orc.MustParseSchema("struct<ts:timestamp>")
	var buf bytes.Buffer
	w, _ := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone))
	b := orc.NewBatch(s, 1)
	b.Cols[0].(*orc.TimestampVector).Append(0, 0)
	b.NumRows = 1
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, c := range []struct {
		zone string
		want error
	}{
		{strings.Repeat("\x01garbage", 2000), orc.ErrCorrupt},
		{"Mars/Olympus_Mons", orc.ErrUnsupported},
	} {
		data := editStripeFooter(t, buf.Bytes(), func(sf *orcpb.StripeFooter) { sf.WriterTimezone = proto.String(c.zone) })
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		br, _ := r.NewBatchReader()
		err = br.Next(br.NewBatch())
		br.Close()
		if !errors.Is(err, c.want) || len(err.Error()) > 300 {
			t.Errorf("zone %.20q: got %v, want %v in a short message", c.zone, err, c.want)
		}
	}
}

// A boolean, tinyint or double column whose stripe footer claims a
// dictionary encoding is corrupt, and says so with the column: these types
// are only ever DIRECT, and their readers would otherwise decode the
// stream as if it were.
func TestDirectOnlyEncodings(t *testing.T) {
	s := orc.MustParseSchema("struct<b:boolean,t:tinyint,d:double>")
	b := orc.NewBatch(s, 100)
	for i := range 100 {
		b.Cols[0].(*orc.LongVector).Append(int64(i % 2))
		b.Cols[1].(*orc.LongVector).Append(int64(i % 7))
		b.Cols[2].(*orc.DoubleVector).Append(float64(i) / 3)
	}
	b.NumRows = 100
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for col := 1; col <= 3; col++ {
		data := editStripeFooter(t, buf.Bytes(), func(sf *orcpb.StripeFooter) {
			sf.GetColumns()[col].Kind = orcpb.ColumnEncoding_DICTIONARY_V2.Enum()
		})
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = scanRows(r)
		if !errors.Is(err, orc.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("column %d", col)) {
			t.Errorf("column %d claimed DICTIONARY_V2: %v, want a corrupt-file error naming the column", col, err)
		}
	}
}
