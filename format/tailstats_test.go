package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/writer"
)

// wideFile writes one row of a schema of n int columns: flat, or in
// structs of per fields each, with the writer's statistics and stripes of
// rows rows.
func wideFile(t testing.TB, n, per, rows int, opts ...writer.Option) []byte {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("struct<")
	if per == 0 {
		for i := range n {
			fmt.Fprintf(&sb, "%sc%d:int", map[bool]string{true: ",", false: ""}[i > 0], i)
		}
	} else {
		for s := range n / per {
			fmt.Fprintf(&sb, "%ss%d:struct<", map[bool]string{true: ",", false: ""}[s > 0], s)
			for i := range per {
				fmt.Fprintf(&sb, "%sf%d:int", map[bool]string{true: ",", false: ""}[i > 0], i)
			}
			sb.WriteString(">")
		}
	}
	sb.WriteString(">")
	s := orc.MustParseSchema(sb.String())
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, append([]writer.Option{writer.WithRowIndexStride(0), writer.WithStripeRowLimit(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	var fill func(v orc.Vector, x int64)
	fill = func(v orc.Vector, x int64) {
		switch v := v.(type) {
		case *orc.LongVector:
			v.Append(x)
		case *orc.StructVector:
			for _, c := range v.Fields {
				fill(c, x)
			}
			v.AppendRow()
		}
	}
	for r := range rows {
		b.Reset()
		for _, c := range b.Cols {
			fill(c, int64(r))
		}
		b.NumRows = 1
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The statistics and types a tail decodes when asked are those of the
// footer and metadata decoded whole.
func TestTailStatisticsMatchWholeDecode(t *testing.T) {
	files := map[string][]byte{
		"flat":   wideFile(t, 300, 0, 3),
		"nested": wideFile(t, 300, 20, 2),
	}
	addExampleFiles(t, files)
	checked := 0
	for name, data := range files {
		tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
		if err != nil {
			continue // the examples include damaged and encrypted files
		}
		full, err := tail.FullFooter()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		types, err := tail.Types()
		if err != nil || len(types) != len(full.GetTypes()) || tail.NumTypes() != len(types) {
			t.Fatalf("%s: %d types (%v), want %d", name, len(types), err, len(full.GetTypes()))
		}
		for i := range types {
			if !proto.Equal(types[i], full.GetTypes()[i]) {
				t.Fatalf("%s: type %d differs", name, i)
			}
		}
		if n := tail.NumStatistics(); n != 0 && n != len(full.GetStatistics()) {
			t.Fatalf("%s: %d statistics, the footer has %d", name, n, len(full.GetStatistics()))
		}
		for id := range tail.NumStatistics() {
			got, err := tail.Statistics(id)
			if err != nil || !proto.Equal(got, full.GetStatistics()[id]) {
				t.Fatalf("%s: statistics of column %d differ (%v)", name, id, err)
			}
		}
		if got, _ := tail.Statistics(tail.NumStatistics()); got != nil {
			t.Fatalf("%s: statistics past the last column", name)
		}
		md, err := tail.DecodeMetadata()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tail.HasStripeStatistics() != (md != nil) {
			t.Fatalf("%s: HasStripeStatistics %v, metadata %v", name, tail.HasStripeStatistics(), md != nil)
		}
		for s, ss := range md.GetStripeStats() {
			if n, err := tail.NumStripeStatistics(s); err != nil || n != len(ss.GetColStats()) {
				t.Fatalf("%s: stripe %d: %d columns (%v), want %d", name, s, n, err, len(ss.GetColStats()))
			}
			for id, want := range ss.GetColStats() {
				got, err := tail.StripeStatistics(s, id)
				if err != nil || !proto.Equal(got, want) {
					t.Fatalf("%s: stripe %d column %d differ (%v)", name, s, id, err)
				}
			}
		}
		if got, _ := tail.StripeStatistics(len(md.GetStripeStats()), 0); got != nil {
			t.Fatalf("%s: statistics of a stripe past the last", name)
		}
		checked++
	}
	t.Logf("%d files", checked)
}

// A column's statistics that do not parse are an error of that column
// only, naming it; the tail opens, and the other columns' statistics read.
func TestTailDamagedStatistics(t *testing.T) {
	data := wideFile(t, 20, 0, 1, writer.WithCompression(orc.CompressionNone))
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := tail.FullFooter()
	if err != nil {
		t.Fatal(err)
	}
	// Column 5's statistics: a field claiming 5 bytes where 1 follows.
	full.Statistics[5] = &orcpb.ColumnStatistics{}
	full.Statistics[5].ProtoReflect().SetUnknown([]byte{0x12, 0x05, 0x08})
	fb, err := proto.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	ps.FooterLength = proto.Uint64(uint64(len(fb)))
	pb, err := proto.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	bad := append(append(append([]byte(nil), data[:tail.FooterStart]...), fb...), pb...)
	bad = append(bad, byte(len(pb)))
	bt, err := format.ReadTail(bytes.NewReader(bad), int64(len(bad)), format.TailOptions{})
	if err != nil {
		t.Fatalf("a tail with one column's statistics damaged: %v", err)
	}
	if _, err := bt.Statistics(5); !errors.Is(err, orc.ErrCorrupt) || !strings.Contains(err.Error(), "column 5") {
		t.Fatalf("damaged statistics: %v", err)
	}
	if st, err := bt.Statistics(6); err != nil || st.GetIntStatistics() == nil {
		t.Fatalf("the next column's statistics: %v, %v", st, err)
	}
	if _, err := bt.FullFooter(); err == nil {
		t.Fatal("the whole footer decoded")
	}
}

// The tail of a file of many columns holds about 135 bytes a column, most
// of it the schema (TestTailMemory at 100,000 columns with ORCGO_WIDE=1:
// 13.2 MiB flat, 12.4 MiB in structs of 200; 18.5 and 17.4 MiB when the
// decompressed footer and metadata were kept, 85 MiB when the footer's
// statistics and types and the stripe statistics were decoded whole).
func TestTailMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 10,000 columns")
	}
	n := 10000
	if os.Getenv("ORCGO_WIDE") != "" {
		n = 100000
	}
	for _, per := range []int{0, 200} {
		data := wideFile(t, n, per, 1)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		before := m.HeapAlloc
		tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&m)
		held := int64(m.HeapAlloc) - int64(before)
		runtime.KeepAlive(tail)
		t.Logf("%d columns (structs of %d): a %d-byte file's tail holds %.1f MiB", tail.NumTypes(), per, len(data), float64(held)/(1<<20))
		if limit := int64(160*n + 1<<20); held > limit {
			t.Fatalf("the tail of %d columns holds %d bytes, over %d", n, held, limit)
		}
		if st, err := tail.Statistics(n - 1); err != nil || st == nil {
			t.Fatalf("statistics of the last column: %v, %v", st, err)
		}
	}
}

// The statistics, types and stripe statistics a tail cuts from its stored
// sections' chunks are those of the footer and metadata decompressed here
// whole and decoded, on every codec, with chunks small enough that entries
// straddle them, read from several goroutines at once (run with -race).
func TestTailSectionsMatchIndependentDecode(t *testing.T) {
	files := map[string][]byte{}
	for _, c := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy,
		orc.CompressionLZ4, orc.CompressionZstd} {
		for _, bs := range []int{1024, 5000, 256 << 10} {
			files[fmt.Sprintf("%s/%d", c, bs)] = wideFile(t, 400, 20, 3, writer.WithCompression(c), writer.WithCompressionBlockSize(bs))
		}
	}
	addExampleFiles(t, files)
	checked := 0
	for name, data := range files {
		tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
		if err != nil || tail.NumTypes() == 0 {
			continue // damaged, encrypted or empty
		}
		whole := func(start int64, n uint64, what string) []byte {
			raw := data[start : start+int64(n)]
			if tail.Compression == orc.CompressionNone {
				return raw
			}
			dec, err := format.NewDecompressor(tail.Compression)
			if err != nil {
				t.Fatal(err)
			}
			b, err := format.ReadAll(format.NewInStream(format.StreamInfo{Name: what}, raw, tail.Compression, tail.BlockSize, dec), 1<<30)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, what, err)
			}
			return b
		}
		var footer orcpb.Footer
		if err := proto.Unmarshal(whole(tail.FooterStart, tail.PostScript.GetFooterLength(), "footer"), &footer); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var md orcpb.Metadata
		if n := tail.PostScript.GetMetadataLength(); n > 0 && tail.HasStripeStatistics() {
			if err := proto.Unmarshal(whole(tail.MetadataStart, n, "metadata"), &md); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		errs := make(chan error, 3)
		for g := range 3 { // each goroutine its own order
			go func() {
				errs <- func() error {
					for k := range len(footer.GetTypes()) {
						i := (k*(g+1) + g) % len(footer.GetTypes())
						if pt, err := tail.Type(i); err != nil || !proto.Equal(pt, footer.GetTypes()[i]) {
							return fmt.Errorf("type %d differs (%v)", i, err)
						}
					}
					for k := range tail.NumStatistics() {
						i := (k*(g+1) + g) % tail.NumStatistics()
						if cs, err := tail.Statistics(i); err != nil || !proto.Equal(cs, footer.GetStatistics()[i]) {
							return fmt.Errorf("statistics of column %d differ (%v)", i, err)
						}
					}
					for s, ss := range md.GetStripeStats() {
						for k := range ss.GetColStats() {
							i := (k*(g+1) + g) % len(ss.GetColStats())
							if cs, err := tail.StripeStatistics(s, i); err != nil || !proto.Equal(cs, ss.GetColStats()[i]) {
								return fmt.Errorf("stripe %d column %d differ (%v)", s, i, err)
							}
						}
					}
					return nil
				}()
			}()
		}
		for range 3 {
			if err := <-errs; err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if full, err := tail.FullFooter(); err != nil || !proto.Equal(full, &footer) {
			t.Fatalf("%s: the whole footer differs (%v)", name, err)
		}
		checked++
	}
	t.Logf("%d files", checked)
}

// addExampleFiles adds Apache's example files, when present, to files by
// their names.
func addExampleFiles(t *testing.T, files map[string][]byte) {
	t.Helper()
	dir := examples.Dir(t)
	if dir == "" {
		return
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
}
