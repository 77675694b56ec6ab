package stats

import (
	"bytes"
	"compress/flate"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// Statistics of Apache ORC's example files, decoded with a minimal tail
// parser written for this test: last byte = PostScript length, PostScript
// (never compressed), Footer and Metadata before it, each compressed with the
// file's codec (NONE or ZLIB here; ZLIB chunks are 3-byte headers
// length<<1|isOriginal followed by raw DEFLATE).

type exampleFile struct {
	name   string
	data   []byte
	ps     orcpb.PostScript
	footer orcpb.Footer
	meta   orcpb.Metadata
	cols   []*orc.Schema // by column id
	info   WriterInfo
}

func examplesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		return d
	}
	d := filepath.Join("..", "..", "shared", "orc-examples")
	if _, err := os.Stat(d); err != nil {
		t.Skip("ORC example files not found: set ORC_EXAMPLES or place them in ../shared/orc-examples")
	}
	return d
}

func openExample(t *testing.T, name string) *exampleFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir(t), name))
	if err != nil {
		t.Skipf("%s not readable: %v", name, err)
	}
	f := &exampleFile{name: name, data: data}
	psLen := int(data[len(data)-1])
	psStart := len(data) - 1 - psLen
	if err := proto.Unmarshal(data[psStart:len(data)-1], &f.ps); err != nil {
		t.Fatalf("%s: postscript: %v", name, err)
	}
	footStart := psStart - int(f.ps.GetFooterLength())
	if err := proto.Unmarshal(f.section(t, data[footStart:psStart]), &f.footer); err != nil {
		t.Fatalf("%s: footer: %v", name, err)
	}
	metaStart := footStart - int(f.ps.GetMetadataLength())
	if err := proto.Unmarshal(f.section(t, data[metaStart:footStart]), &f.meta); err != nil {
		t.Fatalf("%s: metadata: %v", name, err)
	}
	root := buildSchema(f.footer.Types, 0)
	root.Assign()
	f.cols = root.Columns()
	if len(f.cols) != len(f.footer.Types) {
		t.Fatalf("%s: schema has %d columns for %d types", name, len(f.cols), len(f.footer.Types))
	}
	f.info = WriterInfoFromTail(&f.ps, &f.footer)
	return f
}

func buildSchema(types []*orcpb.Type, id uint32) *orc.Schema {
	tp := types[id]
	s := &orc.Schema{Kind: orc.Kind(tp.GetKind()), Precision: int(tp.GetPrecision()),
		Scale: int(tp.GetScale()), MaxLength: int(tp.GetMaximumLength())}
	for i, sub := range tp.Subtypes {
		s.Children = append(s.Children, buildSchema(types, sub))
		if i < len(tp.FieldNames) {
			s.FieldNames = append(s.FieldNames, tp.FieldNames[i])
		}
	}
	return s
}

// section undoes the file's compression.
func (f *exampleFile) section(t *testing.T, b []byte) []byte {
	t.Helper()
	switch f.ps.GetCompression() {
	case orcpb.CompressionKind_NONE:
		return b
	case orcpb.CompressionKind_ZLIB:
	default:
		t.Skipf("%s: codec %v not handled by this test", f.name, f.ps.GetCompression())
	}
	var out []byte
	for len(b) > 0 {
		if len(b) < 3 {
			t.Fatalf("%s: truncated chunk header", f.name)
		}
		h := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		n := h >> 1
		if 3+n > len(b) {
			t.Fatalf("%s: chunk overruns its section", f.name)
		}
		chunk := b[3 : 3+n]
		b = b[3+n:]
		if h&1 == 1 {
			out = append(out, chunk...)
			continue
		}
		d, err := io.ReadAll(flate.NewReader(bytes.NewReader(chunk)))
		if err != nil {
			t.Fatalf("%s: inflate: %v", f.name, err)
		}
		out = append(out, d...)
	}
	return out
}

func (f *exampleFile) fileStats(id int) Column {
	return FromProto(f.footer.Statistics[id], f.cols[id], f.info)
}

// rowIndexes returns the ROW_INDEX of every column of one stripe.
func (f *exampleFile) rowIndexes(t *testing.T, stripe int) map[uint32]*orcpb.RowIndex {
	t.Helper()
	st := f.footer.Stripes[stripe]
	sfStart := int(st.GetOffset() + st.GetIndexLength() + st.GetDataLength())
	var sf orcpb.StripeFooter
	if err := proto.Unmarshal(f.section(t, f.data[sfStart:sfStart+int(st.GetFooterLength())]), &sf); err != nil {
		t.Fatalf("%s: stripe footer: %v", f.name, err)
	}
	out := map[uint32]*orcpb.RowIndex{}
	off := int(st.GetOffset())
	for _, s := range sf.Streams {
		n := int(s.GetLength())
		if s.GetKind() == orcpb.Stream_ROW_INDEX {
			var ri orcpb.RowIndex
			if err := proto.Unmarshal(f.section(t, f.data[off:off+n]), &ri); err != nil {
				t.Fatalf("%s: row index: %v", f.name, err)
			}
			out[s.GetColumn()] = &ri
		}
		off += n
	}
	return out
}

// sameStats compares two decoded Columns, allowing double sums to differ
// by rounding (Java adds row by row, merging adds partial sums).
func sameStats(a, b Column) bool {
	if a.Double != nil && b.Double != nil {
		x, y := *a.Double, *b.Double
		if math.Abs(x.Sum-y.Sum) <= 1e-9*math.Max(1, math.Abs(y.Sum)) {
			x.Sum = y.Sum
		}
		a.Double, b.Double = &x, &y
	}
	return equalColumns(a, b)
}

func TestExamplePredicatePushdown(t *testing.T) {
	f := openExample(t, "TestOrcFile.testPredicatePushdown.orc")
	want := []Column{
		{Kind: orc.Struct, NumValues: 3500, HasNullKnown: true},
		{Kind: orc.Int, NumValues: 3500, HasNullKnown: true,
			Int: &IntStats{Min: 0, Max: 1049700, HasMinMax: true, Sum: 1836975000, HasSum: true}},
		{Kind: orc.String, NumValues: 3500, HasNullKnown: true,
			String: &StringStats{Min: "0", Max: "ffa", HasMin: true, HasMax: true, Sum: 13562, HasSum: true}},
	}
	for id, w := range want {
		if got := f.fileStats(id); !equalColumns(got, w) {
			t.Errorf("column %d:\n got %s\nwant %s", id, dump(got), dump(w))
		}
	}
	checkRowGroupsMergeToStripes(t, f)
	checkStripesMergeToFile(t, f)
}

func TestExampleSplitElim(t *testing.T) {
	f := openExample(t, "orc_split_elim.orc")
	if f.info.WriterVersion != 0 || f.info.Version011 {
		t.Fatalf("unexpected writer info %+v", f.info)
	}
	// No has_null anywhere (old writer); writer version 0: string min/max
	// not trusted. The decimal has no precision/scale in the file, so its
	// values keep their own scale. The timestamp column has no statistics.
	want := []Column{
		{Kind: orc.Struct, NumValues: 25000, HasNull: true},
		{Kind: orc.Long, NumValues: 25000, HasNull: true,
			Int: &IntStats{Min: 2, Max: 100, HasMinMax: true, Sum: 2499619, HasSum: true}},
		{Kind: orc.String, NumValues: 25000, HasNull: true, String: &StringStats{Sum: 124990, HasSum: true}},
		{Kind: orc.Double, NumValues: 25000, HasNull: true,
			Double: &DoubleStats{Min: 0.8, Max: 80, HasMinMax: true, Sum: 200051.40000000002, HasSum: true}},
		{Kind: orc.Decimal, NumValues: 25000, HasNull: true,
			Decimal: &DecimalStats{Min: dec(0, 0), Max: dec(55, 1), HasMinMax: true, Sum: dec(166, 1), HasSum: true}},
		{Kind: orc.Timestamp, NumValues: 25000, HasNull: true},
	}
	for id, w := range want {
		if got := f.fileStats(id); !equalColumns(got, w) {
			t.Errorf("column %d:\n got %s\nwant %s", id, dump(got), dump(w))
		}
	}
	if len(f.footer.Stripes) != 5 {
		t.Fatalf("%d stripes, want 5", len(f.footer.Stripes))
	}
	checkRowGroupsMergeToStripes(t, f)
	checkStripesMergeToFile(t, f)
}

func TestExampleSplitElimNew(t *testing.T) {
	f := openExample(t, "orc_split_elim_new.orc")
	// Java 1.8.0, writer version 9: UTC timestamp statistics with
	// maximum_nanos 1 (0 ns past the millisecond), decimal(16,6).
	ts := f.fileStats(5)
	wantTS := Column{Kind: orc.Timestamp, NumValues: 25000, HasNullKnown: true, BytesOnDisk: 62,
		Timestamp: &TimestampStats{MinSec: -28800, MinNanos: 0, MaxSec: -28550, MaxNanos: 0, HasMinMax: true}}
	if !equalColumns(ts, wantTS) {
		t.Errorf("timestamp:\n got %s\nwant %s", dump(ts), dump(wantTS))
	}
	d := f.fileStats(4)
	wantD := Column{Kind: orc.Decimal, NumValues: 25000, HasNullKnown: true, BytesOnDisk: 168,
		Decimal: &DecimalStats{Min: dec(0, 6), Max: dec(5_500_000, 6), HasMinMax: true, Sum: dec(16_600_000, 6), HasSum: true}}
	if !equalColumns(d, wantD) {
		t.Errorf("decimal:\n got %s\nwant %s", dump(d), dump(wantD))
	}
	s := f.fileStats(2)
	if s.String == nil || s.String.Min != "bar" || s.String.Max != "zebra" || s.BytesOnDisk != 68 {
		t.Errorf("string: %s", dump(s))
	}
	checkRowGroupsMergeToStripes(t, f)
	checkStripesMergeToFile(t, f)
}

func TestExampleDecimal(t *testing.T) {
	f := openExample(t, "decimal.orc")
	got := f.fileStats(1)
	want := Column{Kind: orc.Decimal, NumValues: 4000, HasNull: true,
		Decimal: &DecimalStats{Min: dec(-100_050_000, 5), Max: dec(199_920_000, 5), HasMinMax: true,
			Sum: dec(199_830_109_900, 5), HasSum: true}}
	if !equalColumns(got, want) {
		t.Errorf("decimal.orc:\n got %s\nwant %s", dump(got), dump(want))
	}
	checkStripesMergeToFile(t, f)
}

// decimal64_v2.orc is a Java file with writer version 6 (ORC 1.5.0-1.5.5):
// decimal statistics of precision <= 18 are not trusted (ORC-517).
func TestExampleDecimal64ORC517(t *testing.T) {
	f := openExample(t, "decimal64_v2.orc")
	for _, id := range []int{2, 4, 5} {
		c := f.fileStats(id)
		if c.Decimal == nil || c.Decimal.HasMinMax || c.Decimal.HasSum || c.NumValues != 10 {
			t.Errorf("column %d (%v): %s", id, f.cols[id], dump(c))
		}
	}
	got := f.fileStats(3)
	want := Column{Kind: orc.Decimal, NumValues: 10, HasNullKnown: true, BytesOnDisk: 48,
		Decimal: &DecimalStats{Min: dec(209648, 2), Max: dec(8215252, 2), HasMinMax: true, Sum: dec(42905178, 2), HasSum: true}}
	if !equalColumns(got, want) {
		t.Errorf("decimal(20,2):\n got %s\nwant %s", dump(got), dump(want))
	}
}

func TestExampleUnionAndTimestamp(t *testing.T) {
	f := openExample(t, "TestOrcFile.testUnionAndTimestamp.orc")
	// Legacy writer-local timestamp fields only: bounds unknown.
	ts := f.fileStats(1)
	if want := (Column{Kind: orc.Timestamp, NumValues: 71, HasNull: true, HasNullKnown: true, Timestamp: &TimestampStats{}}); !equalColumns(ts, want) {
		t.Errorf("timestamp: %s", dump(ts))
	}
	if u := f.fileStats(2); u.Kind != orc.Union || u.NumValues != 5076 || !u.HasNull {
		t.Errorf("union: %s", dump(u))
	}
	d := f.fileStats(5)
	mn, _, _ := orc.ParseDecimal("-5643.234000000000000000")
	mx, _, _ := orc.ParseDecimal("13671155366944483051.000000000000000000")
	sum, _, _ := orc.ParseDecimal("53246247702808099200.531856403454526690")
	want := Column{Kind: orc.Decimal, NumValues: 71, HasNull: true, HasNullKnown: true,
		Decimal: &DecimalStats{Min: DecimalValue{mn, 18}, Max: DecimalValue{mx, 18}, HasMinMax: true,
			Sum: DecimalValue{sum, 18}, HasSum: true}}
	if !equalColumns(d, want) {
		t.Errorf("decimal(38,18):\n got %s\nwant %s", dump(d), dump(want))
	}
}

func TestExampleStripeLevelStats(t *testing.T) {
	for _, name := range []string{"TestOrcFile.testStripeLevelStats.orc", "TestOrcFile.columnProjection.orc",
		"TestOrcFile.test1.orc", "orc_index_int_string.orc", "TestStringDictionary.testRowIndex.orc"} {
		f := openExample(t, name)
		checkStripesMergeToFile(t, f)
		checkRowGroupsMergeToStripes(t, f)
	}
}

// checkStripesMergeToFile merges the stripe statistics of the Metadata
// section and compares them with the Footer's file statistics.
func checkStripesMergeToFile(t *testing.T, f *exampleFile) {
	t.Helper()
	if len(f.meta.StripeStats) != len(f.footer.Stripes) {
		t.Fatalf("%s: %d stripe statistics for %d stripes", f.name, len(f.meta.StripeStats), len(f.footer.Stripes))
	}
	for id := range f.cols {
		var merged Column
		for s, ss := range f.meta.StripeStats {
			c := FromProto(ss.ColStats[id], f.cols[id], f.info)
			if s == 0 {
				merged = c
			} else {
				merged.Merge(&c)
			}
		}
		file := f.fileStats(id)
		merged.BytesOnDisk = file.BytesOnDisk // stripe statistics carry no sizes in these files
		if !sameStats(merged, file) {
			t.Errorf("%s column %d: stripes merge to\n %s\nfile says\n %s", f.name, id, dump(merged), dump(file))
		}
	}
}

// checkRowGroupsMergeToStripes merges the row-index statistics of each
// stripe and compares them with that stripe's statistics.
func checkRowGroupsMergeToStripes(t *testing.T, f *exampleFile) {
	t.Helper()
	for s := range f.footer.Stripes {
		idx := f.rowIndexes(t, s)
		if len(idx) == 0 {
			continue
		}
		for id := range f.cols {
			ri := idx[uint32(id)]
			if ri == nil || len(ri.Entry) == 0 {
				t.Fatalf("%s stripe %d: no row index for column %d", f.name, s, id)
			}
			var merged Column
			for g, e := range ri.Entry {
				c := FromProto(e.Statistics, f.cols[id], f.info)
				if g == 0 {
					merged = c
				} else {
					merged.Merge(&c)
				}
			}
			stripe := FromProto(f.meta.StripeStats[s].ColStats[id], f.cols[id], f.info)
			merged.BytesOnDisk = stripe.BytesOnDisk
			if !sameStats(merged, stripe) {
				t.Errorf("%s stripe %d column %d: %d row groups merge to\n %s\nstripe says\n %s",
					f.name, s, id, len(ri.Entry), dump(merged), dump(stripe))
			}
		}
	}
}
