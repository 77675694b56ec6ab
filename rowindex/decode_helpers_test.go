package rowindex

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/writer"
)

// The hand-written decoders of decode.go are checked against proto.Unmarshal
// on the same bytes: both fail, or both succeed with equal messages (unknown
// fields cleared from the reference where the decoders drop them).
// DecodeRowIndexPositions is checked against proto.Unmarshal into a dynamic
// message shaped like RowIndex whose statistics field is plain bytes, so
// that it must fail exactly where the RowIndex and RowIndexEntry levels
// fail.

// indexStream is the decompressed bytes of one index stream.
type indexStream struct {
	name string // file, stripe, column
	kind orcpb.Stream_Kind
	data []byte
}

// refRowIndex is proto.Unmarshal with the unknown fields DecodeRowIndex
// drops cleared.
func refRowIndex(data []byte) (*orcpb.RowIndex, error) {
	ri := &orcpb.RowIndex{}
	if err := proto.Unmarshal(data, ri); err != nil {
		return nil, err
	}
	ri.ProtoReflect().SetUnknown(nil)
	for _, e := range ri.Entry {
		e.ProtoReflect().SetUnknown(nil)
	}
	return ri, nil
}

// refBloomIndex is proto.Unmarshal with unknown fields cleared.
func refBloomIndex(data []byte) (*orcpb.BloomFilterIndex, error) {
	bi := &orcpb.BloomFilterIndex{}
	if err := proto.Unmarshal(data, bi); err != nil {
		return nil, err
	}
	bi.ProtoReflect().SetUnknown(nil)
	for _, f := range bi.BloomFilter {
		f.ProtoReflect().SetUnknown(nil)
	}
	return bi, nil
}

// outerRowIndex describes RowIndex with statistics as bytes:
// proto.Unmarshal into it checks the outer two levels only.
var outerRowIndex = sync.OnceValue(func() protoreflect.MessageDescriptor {
	fd := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("rowindex_outer_test.proto"),
		Package: proto.String("rowindextest"),
		Syntax:  proto.String("proto2"),
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("Entry"),
			Field: []*descriptorpb.FieldDescriptorProto{{
				Name: proto.String("positions"), Number: proto.Int32(1),
				Label:   descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
				Type:    descriptorpb.FieldDescriptorProto_TYPE_UINT64.Enum(),
				Options: &descriptorpb.FieldOptions{Packed: proto.Bool(true)},
			}, {
				Name: proto.String("statistics"), Number: proto.Int32(2),
				Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
				Type:  descriptorpb.FieldDescriptorProto_TYPE_BYTES.Enum(),
			}},
		}, {
			Name: proto.String("Index"),
			Field: []*descriptorpb.FieldDescriptorProto{{
				Name: proto.String("entry"), Number: proto.Int32(1),
				Label:    descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
				Type:     descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
				TypeName: proto.String(".rowindextest.Entry"),
			}},
		}},
	}
	file, err := protodesc.NewFile(fd, nil)
	if err != nil {
		panic(err)
	}
	return file.Messages().ByName("Index")
})

// refPositions decodes data into outerRowIndex and returns each entry's
// positions.
func refPositions(data []byte) ([][]uint64, error) {
	md := outerRowIndex()
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, err
	}
	list := m.Get(md.Fields().ByNumber(1)).List()
	out := make([][]uint64, list.Len())
	for i := range list.Len() {
		e := list.Get(i).Message()
		pl := e.Get(e.Descriptor().Fields().ByNumber(1)).List()
		for j := range pl.Len() {
			out[i] = append(out[i], pl.Get(j).Uint())
		}
	}
	return out, nil
}

// checkCorrupt reports what is wrong with err as a decoder's error for
// stream.
func checkCorrupt(err error, stream string) string {
	var ce *orc.CorruptError
	if !errors.Is(err, orc.ErrCorrupt) || !errors.As(err, &ce) || ce.Stream != stream {
		return fmt.Sprintf("error %v (%T) is not a *orc.CorruptError for %s", err, err, stream)
	}
	return ""
}

// scribble decodes a copy of data with decode, then overwrites the copy:
// a result aliasing its input would change.
func scribble[T any](data []byte, decode func([]byte) (T, error)) (T, error) {
	buf := slices.Clone(data)
	m, err := decode(buf)
	for i := range buf {
		buf[i] = 0xa5
	}
	return m, err
}

// diffRowIndex compares DecodeRowIndex with proto.Unmarshal on data, and
// DecodeRowIndexPositions with the outer-level reference. It returns ""
// when they agree; ok reports whether proto.Unmarshal accepted data.
func diffRowIndex(data []byte) (diff string, ok bool) {
	want, werr := refRowIndex(data)
	got, gerr := scribble(data, DecodeRowIndex)
	ok = werr == nil
	switch {
	case werr != nil && gerr == nil:
		return fmt.Sprintf("DecodeRowIndex accepts what proto.Unmarshal rejects (%v): %v", werr, got), false
	case werr == nil && gerr != nil:
		return fmt.Sprintf("DecodeRowIndex rejects what proto.Unmarshal accepts: %v", gerr), true
	case gerr != nil:
		if d := checkCorrupt(gerr, "ROW_INDEX"); d != "" {
			return d, false
		}
	default:
		if !proto.Equal(got, want) {
			return fmt.Sprintf("DecodeRowIndex = %v\nproto.Unmarshal = %v", got, want), true
		}
		for i, e := range got.Entry {
			if cap(e.Positions) != len(e.Positions) {
				return fmt.Sprintf("entry %d: positions len %d cap %d", i, len(e.Positions), cap(e.Positions)), true
			}
		}
	}

	wantPos, werr := refPositions(data)
	gotPos, gerr := scribble(data, DecodeRowIndexPositions)
	switch {
	case werr != nil && gerr == nil:
		return fmt.Sprintf("DecodeRowIndexPositions accepts what the outer levels reject (%v)", werr), ok
	case werr == nil && gerr != nil:
		return fmt.Sprintf("DecodeRowIndexPositions rejects what the outer levels accept: %v", gerr), ok
	case gerr != nil:
		if d := checkCorrupt(gerr, "ROW_INDEX"); d != "" {
			return d, ok
		}
	default:
		if len(gotPos.Entry) != len(wantPos) {
			return fmt.Sprintf("DecodeRowIndexPositions: %d entries, want %d", len(gotPos.Entry), len(wantPos)), ok
		}
		for i, e := range gotPos.Entry {
			if e.Statistics != nil {
				return fmt.Sprintf("DecodeRowIndexPositions: entry %d has statistics", i), ok
			}
			if !slices.Equal(e.Positions, wantPos[i]) || cap(e.Positions) != len(e.Positions) {
				return fmt.Sprintf("DecodeRowIndexPositions: entry %d positions %v (cap %d), want %v", i, e.Positions, cap(e.Positions), wantPos[i]), ok
			}
			if got != nil && !slices.Equal(e.Positions, got.Entry[i].Positions) {
				return fmt.Sprintf("entry %d: positions differ between the two decoders", i), ok
			}
		}
	}
	if gerr != nil && got != nil {
		return "DecodeRowIndex accepts what DecodeRowIndexPositions rejects", ok
	}
	return "", ok
}

// diffBloomIndex compares DecodeBloomFilterIndex with proto.Unmarshal on
// data. ok reports whether proto.Unmarshal accepted data.
func diffBloomIndex(data []byte) (diff string, ok bool) {
	want, werr := refBloomIndex(data)
	got, gerr := scribble(data, DecodeBloomFilterIndex)
	switch {
	case werr != nil && gerr == nil:
		return fmt.Sprintf("DecodeBloomFilterIndex accepts what proto.Unmarshal rejects (%v)", werr), false
	case werr == nil && gerr != nil:
		return fmt.Sprintf("DecodeBloomFilterIndex rejects what proto.Unmarshal accepts: %v", gerr), true
	case gerr != nil:
		if _, err := DecodeBloomBits(data, nil); err == nil {
			return "DecodeBloomBits accepts what DecodeBloomFilterIndex rejects", false
		}
		return checkCorrupt(gerr, "BLOOM_FILTER_UTF8"), false
	}
	if !proto.Equal(got, want) {
		return fmt.Sprintf("DecodeBloomFilterIndex = %v\nproto.Unmarshal = %v", got, want), true
	}
	for i, f := range got.BloomFilter {
		if cap(f.Bitset) != len(f.Bitset) || cap(f.Utf8Bitset) != len(f.Utf8Bitset) {
			return fmt.Sprintf("filter %d: capacity beyond length", i), true
		}
	}
	return diffBloomBits(data, got), true
}

// diffBloomBits compares DecodeBloomBits with DecodeBloomFilterIndex's
// messages decoded by bloomfilter.FromProto: the same filters usable, with
// the same bits and hash functions.
func diffBloomBits(data []byte, want *orcpb.BloomFilterIndex) string {
	prefix := []bloomfilter.Bits{{}}
	got, err := DecodeBloomBits(data, prefix)
	if err != nil {
		return fmt.Sprintf("DecodeBloomBits rejects what DecodeBloomFilterIndex accepts: %v", err)
	}
	got = got[1:]
	if len(got) != len(want.BloomFilter) {
		return fmt.Sprintf("DecodeBloomBits: %d filters, want %d", len(got), len(want.BloomFilter))
	}
	for i, pb := range want.BloomFilter {
		f, err := bloomfilter.FromProto(pb)
		switch {
		case err != nil && got[i].Valid():
			return fmt.Sprintf("filter %d: DecodeBloomBits made a filter FromProto rejects (%v)", i, err)
		case err == nil && !got[i].Valid():
			return fmt.Sprintf("filter %d: DecodeBloomBits has no filter where FromProto has one", i)
		case err == nil:
			if got[i].NumHashFunctions() != f.NumHashFunctions() || !bytes.Equal(got[i].Bytes(), f.Proto().Utf8Bitset) {
				return fmt.Sprintf("filter %d: DecodeBloomBits has k=%d and other bits than FromProto's k=%d", i, got[i].NumHashFunctions(), f.NumHashFunctions())
			}
		}
	}
	return ""
}

// diffIndex runs both comparisons on data, as the fuzz target does.
func diffIndex(data []byte) string {
	if d, _ := diffRowIndex(data); d != "" {
		return d
	}
	d, _ := diffBloomIndex(data)
	return d
}

// exampleStreams returns the decompressed index streams of Apache's example
// files, read once for all tests, or skips without the files.
func exampleStreams(t *testing.T) []indexStream {
	t.Helper()
	dir := examples.Dir(t)
	exampleStreamsOnce.Do(func() {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".orc") {
				continue
			}
			f := openExampleOrSkip(t, name)
			if f == nil {
				continue
			}
			exampleStreamsCache = append(exampleStreamsCache, fileIndexStreams(t, f)...)
		}
	})
	if len(exampleStreamsCache) == 0 {
		t.Fatal("no index streams in the examples")
	}
	return exampleStreamsCache
}

var (
	exampleStreamsOnce  sync.Once
	exampleStreamsCache []indexStream
)

// fileIndexStreams returns every ROW_INDEX, BLOOM_FILTER and
// BLOOM_FILTER_UTF8 stream of f, decompressed, in stripe and column order.
func fileIndexStreams(t testing.TB, f *exFile) []indexStream {
	var out []indexStream
	for i := range f.stripes() {
		s := f.stripe(t, i)
		for col := range len(s.footer.GetColumns()) {
			for _, kind := range []orcpb.Stream_Kind{orcpb.Stream_ROW_INDEX, orcpb.Stream_BLOOM_FILTER, orcpb.Stream_BLOOM_FILTER_UTF8} {
				if b, ok := s.streams[streamKey{col, kind}]; ok {
					out = append(out, indexStream{fmt.Sprintf("%s stripe %d column %d", f.name, i, col), kind, f.decompress(t, b)})
				}
			}
		}
	}
	return out
}

// writerFile writes rows rows of an int, a string and a double column,
// with bloom filters on the first two, and returns the file's bytes.
func writerFile(tb testing.TB, rows, stride int, codec orc.CompressionKind, stripeRows int64) []byte {
	tb.Helper()
	schema := orc.MustParseSchema("struct<i:int,s:string,d:double>")
	var out bytes.Buffer
	w, err := writer.NewWriter(&out, schema, writer.WithCompression(codec), writer.WithRowIndexStride(stride),
		writer.WithBloomFilterColumns("i", "s"), writer.WithStripeRowLimit(stripeRows))
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(rows), uint64(stride)))
	b := orc.NewBatch(schema, 1024)
	for done := 0; done < rows; {
		b.Reset()
		ints := b.Cols[0].(*orc.LongVector)
		strs := b.Cols[1].(*orc.BytesVector)
		dbls := b.Cols[2].(*orc.DoubleVector)
		n := min(1024, rows-done)
		for j := range n {
			r := done + j
			ints.Values = append(ints.Values, int64(r)*7919%1_000_003-500_000)
			if rng.IntN(50) == 0 {
				strs.AppendNull()
			} else {
				strs.AppendString(fmt.Sprintf("customer-%06d-%s", rng.IntN(1_000_000), strings.Repeat("x", rng.IntN(12))))
			}
			dbls.Values = append(dbls.Values, rng.NormFloat64())
		}
		b.NumRows = n
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
		done += n
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// writerStreams returns the index streams of two files of our writer: one
// of 100 row groups of 1,000 rows uncompressed in one stripe, and one
// zstd file of 3 stripes of 7 groups of 300 rows.
func writerStreams(tb testing.TB) []indexStream {
	tb.Helper()
	writerStreamsOnce.Do(func() {
		for _, w := range []struct {
			rows, stride int
			codec        orc.CompressionKind
			stripe       int64
		}{
			{100_000, 1000, orc.CompressionNone, 1 << 30},
			{6000, 300, orc.CompressionZstd, 2100},
		} {
			name := fmt.Sprintf("writer %d rows stride %d %v", w.rows, w.stride, w.codec)
			f, err := parseExample(name, writerFile(tb, w.rows, w.stride, w.codec, w.stripe))
			if err != nil {
				tb.Fatal(err)
			}
			writerStreamsCache = append(writerStreamsCache, fileIndexStreams(tb, f)...)
		}
	})
	return writerStreamsCache
}

var (
	writerStreamsOnce  sync.Once
	writerStreamsCache []indexStream
)

// examplesIfPresent returns the examples folder as examples.Dir finds it
// ($ORC_EXAMPLES, else ../shared/orc-examples beside the repository, which
// is ../../shared/orc-examples from this package's folder, where tests
// run), or "" without skipping when there is none.
func examplesIfPresent() string {
	for _, d := range []string{os.Getenv("ORC_EXAMPLES"), filepath.Join("..", "..", "shared", "orc-examples")} {
		if st, err := os.Stat(d); d != "" && err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}
