package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Structure-aware mutation: byte-level fuzzing rarely builds a valid
// protobuf tail with one field set to an extreme (a wrapped 64-bit sum, a
// huge claimed count), so these tests and FuzzTailFields decode the tail of
// a valid file, set one integer field anywhere in it to a chosen value,
// encode it again and read the result.

// fieldRef is one integer field (or list element) of a decoded message.
type fieldRef struct {
	msg protoreflect.Message
	fd  protoreflect.FieldDescriptor
	idx int // list index, or -1
}

// intFields lists the integer fields set in m, nested messages included.
func intFields(m protoreflect.Message) []fieldRef {
	var out []fieldRef
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				if fd.Kind() == protoreflect.MessageKind {
					out = append(out, intFields(l.Get(i).Message())...)
				} else if isIntKind(fd.Kind()) {
					out = append(out, fieldRef{m, fd, i})
				}
			}
		case fd.IsMap():
		case fd.Kind() == protoreflect.MessageKind:
			out = append(out, intFields(v.Message())...)
		case isIntKind(fd.Kind()):
			out = append(out, fieldRef{m, fd, -1})
		}
		return true
	})
	return out
}

func isIntKind(k protoreflect.Kind) bool {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Uint32Kind, protoreflect.Int64Kind,
		protoreflect.Sint64Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind,
		protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind, protoreflect.EnumKind:
		return true
	}
	return false
}

// set stores v in the field, cut to the field's width.
func (f fieldRef) set(v uint64) {
	var pv protoreflect.Value
	switch f.fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		pv = protoreflect.ValueOfInt32(int32(v))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		pv = protoreflect.ValueOfUint32(uint32(v))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		pv = protoreflect.ValueOfInt64(int64(v))
	case protoreflect.EnumKind:
		pv = protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(v)))
	default:
		pv = protoreflect.ValueOfUint64(v)
	}
	if f.idx >= 0 {
		f.msg.Mutable(f.fd).List().Set(f.idx, pv)
	} else {
		f.msg.Set(f.fd, pv)
	}
}

// Sections of the tail a mutation edits.
const (
	secFooter = iota
	secStripeFooter
	secPostScript
	secMetadata
	numSections
)

// mutateTail returns data with integer field k (mod the number of fields)
// of a section set to v, or nil when the section has no such field.
func mutateTail(t *testing.T, data []byte, section, k int, v uint64) []byte {
	t.Helper()
	pick := func(m proto.Message) bool {
		fs := intFields(m.ProtoReflect())
		if len(fs) == 0 {
			return false
		}
		fs[k%len(fs)].set(v)
		return true
	}
	ok := false
	var out []byte
	switch section {
	case secFooter:
		out = editFooter(t, data, func(f *orcpb.Footer) { ok = pick(f) })
	case secStripeFooter:
		out = spliceStripeFooter(t, data, func(sf *orcpb.StripeFooter) { ok = pick(sf) })
	case secPostScript:
		out = editPostScript(t, data, func(ps *orcpb.PostScript) { ok = pick(ps) })
	case secMetadata:
		out = editMetadata(t, data, func(md *orcpb.Metadata) { ok = pick(md) })
	}
	if !ok {
		return nil
	}
	return out
}

// spliceStripeFooter returns data (uncompressed, one stripe) with the
// stripe footer changed by edit, and the file footer and postscript
// rebuilt from data's own tail around it.
func spliceStripeFooter(t *testing.T, data []byte, edit func(*orcpb.StripeFooter)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	si := tail.Footer.GetStripes()[0]
	start := si.GetOffset() + si.GetIndexLength() + si.GetDataLength()
	end := start + si.GetFooterLength()
	sf := &orcpb.StripeFooter{}
	if err := proto.Unmarshal(data[start:end], sf); err != nil {
		t.Fatal(err)
	}
	edit(sf)
	sb, err := proto.Marshal(sf)
	if err != nil {
		t.Fatal(err)
	}
	f := proto.Clone(tail.Footer).(*orcpb.Footer)
	f.GetStripes()[0].FooterLength = proto.Uint64(uint64(len(sb)))
	if f.ContentLength != nil {
		f.ContentLength = proto.Uint64(f.GetContentLength() + uint64(len(sb)) - (end - start))
	}
	fb, err := proto.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:start]...)
	out = append(out, sb...)
	out = append(out, data[end:uint64(tail.FooterStart)]...) // to the metadata's end
	out = append(out, fb...)
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	ps.FooterLength = proto.Uint64(uint64(len(fb)))
	pb, _ := proto.Marshal(ps)
	out = append(out, pb...)
	return append(out, byte(len(pb)))
}

// editPostScript returns data with its postscript changed by edit.
func editPostScript(t *testing.T, data []byte, edit func(*orcpb.PostScript)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	edit(ps)
	pb, err := proto.Marshal(ps)
	if err != nil || len(pb) > 255 {
		return data
	}
	out := append([]byte(nil), data[:len(data)-1-int(tail.PostScriptLen)]...)
	out = append(out, pb...)
	return append(out, byte(len(pb)))
}

// editMetadata returns data with its metadata section changed by edit (the
// file must be uncompressed).
func editMetadata(t *testing.T, data []byte, edit func(*orcpb.Metadata)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tail.Metadata == nil || tail.Compression != orc.CompressionNone {
		return data
	}
	md := proto.Clone(tail.Metadata).(*orcpb.Metadata)
	edit(md)
	mb, err := proto.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	metaStart := tail.FooterStart - int64(tail.PostScript.GetMetadataLength())
	out := append([]byte(nil), data[:metaStart]...)
	out = append(out, mb...)
	out = append(out, data[tail.FooterStart:len(data)-1-int(tail.PostScriptLen)]...)
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	ps.MetadataLength = proto.Uint64(uint64(len(mb)))
	pb, _ := proto.Marshal(ps)
	out = append(out, pb...)
	return append(out, byte(len(pb)))
}

// structBase is a small uncompressed one-stripe file with every kind of
// stream: dictionary and direct strings, decimals, timestamps, nested
// types, nulls, a bloom filter.
func structBase(t testing.TB) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,s:string,d:decimal(12,3),ts:timestamp,st:struct<l:array<int>,m:map<string,double>>,b:boolean>")
	const rows = 3000
	b := orc.NewBatch(s, rows)
	st := b.Col("st").(*orc.StructVector)
	l, m := st.Fields[0].(*orc.ListVector), st.Fields[1].(*orc.MapVector)
	for i := range rows {
		b.Col("id").(*orc.LongVector).Append(int64(i * 7))
		if i%5 == 0 {
			b.Col("s").(*orc.BytesVector).AppendNull()
		} else {
			b.Col("s").(*orc.BytesVector).AppendString(fmt.Sprint("k", i%40))
		}
		b.Col("d").(*orc.DecimalVector).Append(orc.Int128FromInt64(int64(i*1001 - 500000)))
		b.Col("ts").(*orc.TimestampVector).Append(int64(i)*3600-1e6, int32(i*1000))
		if i%7 == 0 {
			st.AppendNull()
		} else {
			l.Elem.(*orc.LongVector).Append(int64(i))
			l.AppendRow()
			m.Keys.(*orc.BytesVector).AppendString("x")
			m.Values.(*orc.DoubleVector).Append(float64(i) / 3)
			m.AppendRow()
			st.AppendRow()
		}
		b.Col("b").(*orc.LongVector).Append(int64(i % 2))
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(1000),
		writer.WithBloomFilterColumns("s"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// exercise opens a file and uses every metadata call and a full and a
// pruned scan, returning the first error; it must never panic.
func exercise(data []byte) error {
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for id := 0; id <= r.Schema().MaxID(); id++ {
		r.Statistics(id)
		for s := range r.Stripes() {
			r.StripeStatistics(s, id)
		}
	}
	for s := range r.Stripes() {
		if _, err := r.StripeDetail(s); err != nil {
			return err
		}
	}
	scan := func(opts ...reader.ScanOption) error {
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			return err
		}
		defer br.Close()
		for _, err := range br.All() {
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := scan(); err != nil {
		return err
	}
	if r.Schema().Kind == orc.Struct && len(r.Schema().Children) > 0 && r.Schema().Children[0].Kind == orc.Long {
		return scan(reader.WithSearchArgument(sarg.Lt(r.Schema().FieldNames[0], sarg.Int(700))), reader.WithExactFilter(true))
	}
	return nil
}

// allocBound is the most a call on a file of size bytes may allocate,
// whatever the file claims: 64 MiB plus 8 times its size.
func allocBound(size int) uint64 { return 64<<20 + 8*uint64(size) }

// measure runs fn and returns the bytes it allocated.
func measure(fn func()) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	fn()
	runtime.ReadMemStats(&m)
	return m.TotalAlloc - before
}

var extremes = []uint64{0, 1, 2, 0x7f, 0xff, 0x7fffffff, 0xffffffff, 1 << 40, math.MaxInt64, 1 << 63, math.MaxUint64}

// TestHostileTailFields sets every integer field of the footer, the stripe
// footer, the postscript and the metadata, one at a time, to each extreme
// value: no panic, an error or rows, and never more than 64 MiB + 8x the
// file allocated, the default limits included.
func TestHostileTailFields(t *testing.T) {
	base := structBase(t)
	// The editing itself keeps a file intact.
	for _, same := range [][]byte{
		base,
		spliceStripeFooter(t, base, func(*orcpb.StripeFooter) {}),
		editPostScript(t, base, func(*orcpb.PostScript) {}),
		editMetadata(t, base, func(*orcpb.Metadata) {}),
	} {
		if err := exercise(same); err != nil {
			t.Fatalf("an unmutated file: %v", err)
		}
	}
	counts := map[int]int{}
	failed := 0
	var most uint64
	for section := range numSections {
		var n int
		switch section {
		case secFooter:
			editFooter(t, base, func(f *orcpb.Footer) { n = len(intFields(f.ProtoReflect())) })
		case secStripeFooter:
			spliceStripeFooter(t, base, func(sf *orcpb.StripeFooter) { n = len(intFields(sf.ProtoReflect())) })
		case secPostScript:
			editPostScript(t, base, func(ps *orcpb.PostScript) { n = len(intFields(ps.ProtoReflect())) })
		case secMetadata:
			editMetadata(t, base, func(md *orcpb.Metadata) { n = len(intFields(md.ProtoReflect())) })
		}
		step := 1
		if testing.Short() && n > 60 {
			step = 3
		}
		for k := 0; k < n; k += step {
			for _, v := range extremes {
				data := mutateTail(t, base, section, k, v)
				if data == nil {
					continue
				}
				counts[section]++
				var err error
				got := measure(func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("section %d field %d = %d: panic: %v", section, k, v, p)
						}
					}()
					err = exercise(data)
				})
				if err != nil {
					failed++
				}
				most = max(most, got)
				if got > allocBound(len(data)) {
					t.Errorf("section %d field %d = %d: allocated %d bytes for a %d-byte file (%v)", section, k, v, got, len(data), err)
				}
			}
		}
	}
	if counts[secFooter] < 100 || counts[secStripeFooter] < 50 || counts[secPostScript] < 20 {
		t.Fatalf("too few mutations: %v", counts)
	}
	if failed == 0 {
		t.Fatal("no mutation made a file fail: the mutations do not reach the reader")
	}
	t.Logf("mutated files per section (footer, stripe footer, postscript, metadata): %v; %d refused; at most %d bytes allocated", counts, failed, most)
}

// FuzzTailFields is the structure-aware fuzz target: a section, a field
// and a value chosen by the fuzzer.
//
//	go test ./reader -run '^$' -fuzz FuzzTailFields -fuzztime 5m
func FuzzTailFields(f *testing.F) {
	f.Add(uint8(0), uint16(3), uint64(1<<63))
	f.Add(uint8(1), uint16(10), uint64(math.MaxUint32))
	f.Add(uint8(2), uint16(0), uint64(0))
	f.Add(uint8(3), uint16(5), uint64(math.MaxInt64))
	var base []byte
	f.Fuzz(func(t *testing.T, section uint8, field uint16, v uint64) {
		if base == nil {
			base = structBase(t)
		}
		data := mutateTail(t, base, int(section)%numSections, int(field), v)
		if data == nil {
			return
		}
		var err error
		got := measure(func() { err = exercise(data) })
		if got > allocBound(len(data)) {
			t.Fatalf("allocated %d bytes for a %d-byte file (%v)", got, len(data), err)
		}
		if err != nil && err == io.ErrUnexpectedEOF {
			t.Fatalf("a bare io error escaped: %v", err)
		}
	})
}
