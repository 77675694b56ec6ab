package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// Structure-aware mutation (testutil.MutateTail): one integer field of the
// tail set to an extreme, the rest of the file intact.

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
	same, err := testutil.MutateTail(base, -1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range [][]byte{base, same} {
		if err := exercise(f); err != nil {
			t.Fatalf("an unmutated file: %v", err)
		}
	}
	counts := map[int]int{}
	failed := 0
	var most uint64
	for section := range testutil.NumSections {
		n, err := testutil.TailFieldCount(base, section)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if testing.Short() && n > 60 {
			step = 3
		}
		for k := 0; k < n; k += step {
			for _, v := range extremes {
				data, err := testutil.MutateTail(base, section, k, v)
				if err != nil {
					t.Fatal(err)
				}
				if data == nil {
					continue
				}
				counts[section]++
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
	if counts[testutil.SecFooter] < 100 || counts[testutil.SecStripeFooter] < 50 || counts[testutil.SecPostScript] < 20 {
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
		data, err := testutil.MutateTail(base, int(section)%testutil.NumSections, int(field), v)
		if err != nil {
			t.Fatal(err)
		}
		if data == nil {
			return
		}
		got := measure(func() { err = exercise(data) })
		if got > allocBound(len(data)) {
			t.Fatalf("allocated %d bytes for a %d-byte file (%v)", got, len(data), err)
		}
		if err != nil && err == io.ErrUnexpectedEOF {
			t.Fatalf("a bare io error escaped: %v", err)
		}
	})
}
