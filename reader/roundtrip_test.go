package reader_test

// Round trips: random schemas and batches written by package writer and
// read back by package reader, compared value by value.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

var allCodecs = []orc.CompressionKind{
	orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd,
}

// fileSpec is one generated file: its schema, writer options and the
// batches written.
type fileSpec struct {
	schema  *orc.Schema
	opts    []writer.Option
	desc    string
	batches []*orc.Batch
	rows    []any // expected rows (written values, normalized)
	stride  int
}

// randomOptions picks writer options that make many stripes and row groups:
// small stripes, strides of 100..1000, small compression blocks, a stripe
// row limit now and then, any dictionary threshold.
func randomOptions(r *rand.Rand, codec orc.CompressionKind) ([]writer.Option, int, string) {
	opts := []writer.Option{writer.WithCompression(codec), writer.WithStripeSize(64 << 10)}
	desc := codec.String()
	stride := 100 + r.IntN(901)
	if r.IntN(6) == 0 {
		stride = 0
	}
	opts = append(opts, writer.WithRowIndexStride(stride))
	desc += fmt.Sprintf(" stride=%d", stride)
	if codec != orc.CompressionNone {
		bs := []int{1 << 10, 1<<10 + 7, 4 << 10, 64 << 10}[r.IntN(4)]
		opts = append(opts, writer.WithCompressionBlockSize(bs))
		desc += fmt.Sprintf(" block=%d", bs)
	}
	if r.IntN(2) == 0 {
		lim := int64(200 + r.IntN(3000))
		opts = append(opts, writer.WithStripeRowLimit(lim))
		desc += fmt.Sprintf(" stripeRows=%d", lim)
	}
	ratio := []float64{0, 0.5, 0.8, 1}[r.IntN(4)]
	opts = append(opts, writer.WithDictionaryKeyRatio(ratio))
	desc += fmt.Sprintf(" dict=%v", ratio)
	return opts, stride, desc
}

// randomFile builds a file spec from a seed: schema (sometimes a non-struct
// root), options, and batches whose sizes do not divide the stride.
func randomFile(seed uint64) *fileSpec {
	r := rand.New(rand.NewPCG(seed, 0x0c0ffee))
	var schema *orc.Schema
	if r.IntN(6) == 0 {
		schema = testutil.RandomType(r, 3)
		schema.Assign()
	} else {
		schema = testutil.RandomSchema(r, 6, 3)
	}
	codec := allCodecs[seed%uint64(len(allCodecs))]
	opts, stride, desc := randomOptions(r, codec)
	g := testutil.NewGenerator(r, schema)
	f := &fileSpec{schema: schema, opts: opts, desc: desc, stride: stride}
	total := r.IntN(4000)
	if r.IntN(8) == 0 {
		total = 0
	}
	for n := 0; n < total; {
		k := 1 + r.IntN(1500)
		if r.IntN(10) == 0 {
			k = 0 // empty batches are allowed
		}
		k = min(k, total-n)
		b := g.Batch(k)
		f.batches = append(f.batches, b)
		f.rows = append(f.rows, testutil.Rows(schema, b, true)...)
		n += k
	}
	return f
}

// writeFile writes the spec's batches and returns the file.
func writeFile(t testing.TB, f *fileSpec) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, f.schema, f.opts...)
	if err != nil {
		t.Fatalf("NewWriter(%s, %s): %v", f.schema, f.desc, err)
	}
	for i, b := range f.batches {
		if err := w.Write(b); err != nil {
			t.Fatalf("Write batch %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return buf.Bytes()
}

// readRows reads every row of a file with the given scan options.
func readRows(t testing.TB, data []byte, opts ...reader.ScanOption) (*orc.Schema, []any) {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatalf("NewBatchReader: %v", err)
	}
	b := br.NewBatch()
	var rows []any
	for {
		err := br.Next(b)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next after %d rows: %v", len(rows), err)
		}
		rows = append(rows, testutil.Rows(br.Schema(), b, false)...)
	}
	if int64(len(rows)) != r.NumRows() {
		t.Errorf("read %d rows, NumRows says %d", len(rows), r.NumRows())
	}
	return br.Schema(), rows
}

func compareRows(t testing.TB, want, got []any) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	bad := 0
	for i := range want {
		if d := testutil.Diff(want[i], got[i]); d != "" {
			t.Errorf("row %d: %s", i, d)
			if bad++; bad == 5 {
				t.Fatalf("too many differences")
			}
		}
	}
}

func roundTripSeeds(t *testing.T) int {
	if testing.Short() {
		return 30
	}
	return 80
}

// TestRoundTripRandom writes random schemas and data with every codec and
// many stripes and row groups, and reads them back whole and projected.
func TestRoundTripRandom(t *testing.T) {
	t.Parallel()
	for seed := 0; seed < roundTripSeeds(t); seed++ {
		f := randomFile(uint64(seed))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			data := writeFile(t, f)
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			batch := []int{1, 7, 1000, 1024, 4096}[r.IntN(5)]
			schema, rows := readRows(t, data, reader.WithBatchSize(batch))
			if schema.String() != f.schema.String() {
				t.Fatalf("schema %s, wrote %s", schema, f.schema)
			}
			if t.Failed() {
				return
			}
			compareRows(t, f.rows, rows)
			if t.Failed() {
				t.Logf("schema %s, %s", f.schema, f.desc)
				return
			}
			if f.schema.Kind != orc.Struct {
				return
			}
			// A projection: some top-level columns, sometimes a nested
			// struct field.
			var names []string
			for i, name := range f.schema.FieldNames {
				if r.IntN(2) == 0 {
					continue
				}
				c := f.schema.Children[i]
				if c.Kind == orc.Struct && r.IntN(2) == 0 {
					names = append(names, name+"."+c.FieldNames[r.IntN(len(c.FieldNames))])
				} else {
					names = append(names, name)
				}
			}
			proj, rows := readRows(t, data, reader.WithColumns(names...), reader.WithBatchSize(batch))
			want := make([]any, len(f.rows))
			for i, row := range f.rows {
				want[i] = testutil.Project(f.schema, proj, row)
			}
			compareRows(t, want, rows)
			if t.Failed() {
				t.Logf("schema %s, %s, projection %q -> %s", f.schema, f.desc, names, proj)
			}
		})
	}
}

// allTypesFile is one schema holding every type, tiny stripes and strides,
// and batches that straddle row groups.
func allTypesFile(seed uint64, codec orc.CompressionKind) *fileSpec {
	r := rand.New(rand.NewPCG(seed, 99))
	s := testutil.AllTypesSchema()
	g := testutil.NewGenerator(r, s)
	f := &fileSpec{schema: s, stride: 250, desc: codec.String(), opts: []writer.Option{
		writer.WithCompression(codec), writer.WithStripeSize(64 << 10), writer.WithRowIndexStride(250),
		writer.WithStripeRowLimit(1700), writer.WithCompressionBlockSize(2 << 10),
	}}
	for n := 0; n < 5000; {
		k := min(333, 5000-n)
		b := g.Batch(k)
		f.batches = append(f.batches, b)
		f.rows = append(f.rows, testutil.Rows(s, b, true)...)
		n += k
	}
	return f
}

// TestRoundTripAllTypes writes the all-types schema with every codec.
func TestRoundTripAllTypes(t *testing.T) {
	for i, codec := range allCodecs {
		t.Run(codec.String(), func(t *testing.T) {
			f := allTypesFile(uint64(i), codec)
			data := writeFile(t, f)
			r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(r.Stripes()); n < 3 {
				t.Errorf("%d stripes, want at least 3", n)
			}
			_, rows := readRows(t, data)
			compareRows(t, f.rows, rows)
		})
	}
}

// TestRoundTripRoots writes files whose root is not a struct.
func TestRoundTripRoots(t *testing.T) {
	for i, text := range []string{"int", "string", "array<int>", "map<string,double>",
		"uniontype<int,string>", "timestamp", "decimal(38,2)", "char(3)", "array<array<binary>>"} {
		t.Run(text, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 5))
			s := orc.MustParseSchema(text)
			g := testutil.NewGenerator(r, s)
			f := &fileSpec{schema: s, stride: 100, opts: []writer.Option{writer.WithRowIndexStride(100), writer.WithStripeRowLimit(777)}}
			for n := 0; n < 2000; n += 301 {
				b := g.Batch(301)
				f.batches = append(f.batches, b)
				f.rows = append(f.rows, testutil.Rows(s, b, true)...)
			}
			data := writeFile(t, f)
			schema, rows := readRows(t, data)
			if schema.String() != s.String() {
				t.Errorf("schema %s, want %s", schema, s)
			}
			compareRows(t, f.rows, rows)
		})
	}
}

// TestReadWriterGoldens reads the writer's golden files whole.
func TestReadWriterGoldens(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "writer", "testdata", "*.orc"))
	if len(paths) == 0 {
		t.Skip("no golden files in ../writer/testdata")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, rows := readRows(t, data)
		if len(rows) == 0 && !strings.Contains(p, "empty") {
			t.Errorf("%s: no rows", p)
		}
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".orc")
		if md := r.UserMetadata(); len(md) != 1 || md[0].Key != "golden" || string(md[0].Value) != name {
			t.Errorf("%s: user metadata %+v", p, md)
		}
		if r.SoftwareVersion() != writer.SoftwareVersion || r.WriterVersion() != writer.WriterVersion {
			t.Errorf("%s: software version %q, writer version %v", p, r.SoftwareVersion(), r.WriterVersion())
		}
	}
}

// wallClockExists reports whether the wall clock sec (read as UTC) names an
// instant in loc, that is, whether it is not in a daylight-saving gap.
func wallClockExists(sec int64, loc *time.Location) bool {
	t := time.Unix(sec, 0).UTC()
	l := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
	return l.Year() == t.Year() && l.YearDay() == t.YearDay() && l.Hour() == t.Hour() && l.Minute() == t.Minute() && l.Second() == t.Second()
}

// TestRoundTripTimeZone writes TIMESTAMP columns with a writer zone that
// has daylight saving time and historic offsets; wall clocks come back
// unchanged (those in a spring-forward gap, which name no instant, are
// avoided), and instants are unaffected by the zone.
func TestRoundTripTimeZone(t *testing.T) {
	for _, name := range []string{"America/Los_Angeles", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Skipf("no time zone data: %v", err)
		}
		t.Run(name, func(t *testing.T) {
			s := orc.MustParseSchema("struct<ts:timestamp,tsi:timestamp with local time zone,l:array<timestamp>>")
			r := rand.New(rand.NewPCG(3, uint64(len(name))))
			g := testutil.NewGenerator(r, s)
			f := &fileSpec{schema: s, opts: []writer.Option{writer.WithTimeZone(loc), writer.WithRowIndexStride(100),
				writer.WithStripeRowLimit(500), writer.WithCompression(orc.CompressionZstd)}}
			fix := func(v *orc.TimestampVector) {
				for i := range v.Seconds {
					for !wallClockExists(v.Seconds[i], loc) {
						v.Seconds[i] += 1800
					}
				}
			}
			for n := 0; n < 1500; n += 250 {
				b := g.Batch(250)
				fix(b.Cols[0].(*orc.TimestampVector))
				fix(b.Cols[2].(*orc.ListVector).Elem.(*orc.TimestampVector))
				// Wall clocks around the zone's transitions of a few years.
				ts := b.Cols[0].(*orc.TimestampVector)
				ts.Nulls.Nulls = nil
				for i := 0; i < len(ts.Seconds); i += 3 {
					y := 1900 + r.IntN(200)
					base := time.Date(y, time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC).Unix()
					if wallClockExists(base, loc) {
						ts.Seconds[i] = base
					}
				}
				f.batches = append(f.batches, b)
				f.rows = append(f.rows, testutil.Rows(s, b, true)...)
			}
			values := 0
			for _, row := range f.rows {
				if row.([]any)[0] != nil {
					values++
				}
			}
			if values < 500 {
				t.Fatalf("only %d timestamp values; pick another seed", values)
			}
			data := writeFile(t, f)
			_, rows := readRows(t, data)
			compareRows(t, f.rows, rows)
			checkStatistics(t, data, s, f.rows)
		})
	}
}

// FuzzRoundTrip writes and reads back the random file of a fuzzed seed
// (schema, options and data all follow from it).
func FuzzRoundTrip(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 3, 4, 1 << 40} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		spec := randomFile(seed)
		data := writeFile(t, spec)
		_, rows := readRows(t, data)
		compareRows(t, spec.rows, rows)
	})
}
