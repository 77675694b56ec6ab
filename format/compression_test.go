package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/klauspost/compress/huff0"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// writeCodecs are the codecs orcgo writes, with the levels the tests use.
var writeCodecs = []struct {
	kind  orc.CompressionKind
	level int
}{
	{orc.CompressionZlib, 0},
	{orc.CompressionZlib, 1},
	{orc.CompressionSnappy, 0},
	{orc.CompressionLZ4, 0},
	{orc.CompressionLZ4, 4},
	{orc.CompressionZstd, 0},
	{orc.CompressionZstd, 19},
}

func codecName(kind orc.CompressionKind, level int) string {
	return fmt.Sprintf("%v-%d", kind, level)
}

// testInputs returns named inputs of the kinds compression cares about.
func testInputs(r *rand.Rand) []struct {
	name string
	data []byte
} {
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	zeros := make([]byte, 100000)
	text := make([]byte, 0, 90000)
	words := []string{"orc ", "stripe ", "footer ", "chunk ", "zstd ", "row ", "index "}
	for len(text) < 90000 {
		text = append(text, words[r.IntN(len(words))]...)
	}
	small := make([]byte, 300)
	for i := range small {
		small[i] = byte(r.IntN(4))
	}
	return []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"one", []byte{42}},
		{"random", random},
		{"zeros", zeros},
		{"text", text},
		{"small-alphabet", small},
	}
}

func TestChunkHeaderBytes(t *testing.T) {
	// The spec's examples: 100,000 compressed bytes and 5 stored bytes.
	tests := []struct {
		n        int
		original bool
		want     []byte
	}{
		{100000, false, []byte{0x40, 0x0d, 0x03}},
		{5, true, []byte{0x0b, 0x00, 0x00}},
		{0, false, []byte{0, 0, 0}},
		{0, true, []byte{1, 0, 0}},
		{maxChunkLength, true, []byte{0xff, 0xff, 0xff}},
		{maxChunkLength, false, []byte{0xfe, 0xff, 0xff}},
	}
	for _, tc := range tests {
		got := appendChunkHeader(nil, tc.n, tc.original)
		if !bytes.Equal(got, tc.want) {
			t.Errorf("appendChunkHeader(%d, %v) = % x, want % x", tc.n, tc.original, got, tc.want)
		}
		var put [3]byte
		putChunkHeader(put[:], tc.n, tc.original)
		if !bytes.Equal(put[:], tc.want) {
			t.Errorf("putChunkHeader(%d, %v) = % x, want % x", tc.n, tc.original, put, tc.want)
		}
		n, orig := parseChunkHeader(tc.want)
		if n != tc.n || orig != tc.original {
			t.Errorf("parseChunkHeader(% x) = %d, %v; want %d, %v", tc.want, n, orig, tc.n, tc.original)
		}
	}
}

func TestCodecKinds(t *testing.T) {
	for _, k := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionBrotli, 42} {
		if _, err := NewDecompressor(k); !errors.Is(err, orc.ErrUnsupported) {
			t.Errorf("NewDecompressor(%v) error %v, want ErrUnsupported", k, err)
		}
	}
	for _, k := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionLZO, orc.CompressionBrotli, 42} {
		if _, err := NewCompressor(k, 0); !errors.Is(err, orc.ErrUnsupported) {
			t.Errorf("NewCompressor(%v) error %v, want ErrUnsupported", k, err)
		}
	}
	for _, k := range []orc.CompressionKind{orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZO, orc.CompressionLZ4, orc.CompressionZstd} {
		d, err := NewDecompressor(k)
		if err != nil {
			t.Fatalf("NewDecompressor(%v): %v", k, err)
		}
		if _, ok := d.(LimitDecompressor); !ok {
			t.Errorf("decompressor for %v does not implement LimitDecompressor", k)
		}
	}
	bad := []struct {
		kind  orc.CompressionKind
		level int
	}{
		{orc.CompressionZlib, -1}, {orc.CompressionZlib, 10},
		{orc.CompressionLZ4, 10}, {orc.CompressionLZ4, -3},
		{orc.CompressionZstd, 23}, {orc.CompressionZstd, -1},
	}
	for _, tc := range bad {
		_, err := NewCompressor(tc.kind, tc.level)
		if err == nil || errors.Is(err, orc.ErrUnsupported) {
			t.Errorf("NewCompressor(%v, %d) error %v, want a level error", tc.kind, tc.level, err)
		}
	}
	for l := 1; l <= 9; l++ {
		for _, k := range []orc.CompressionKind{orc.CompressionZlib, orc.CompressionLZ4, orc.CompressionZstd} {
			if _, err := NewCompressor(k, l); err != nil {
				t.Errorf("NewCompressor(%v, %d): %v", k, l, err)
			}
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := testInputs(r)
	for _, cc := range writeCodecs {
		t.Run(codecName(cc.kind, cc.level), func(t *testing.T) {
			c, err := NewCompressor(cc.kind, cc.level)
			if err != nil {
				t.Fatal(err)
			}
			d, err := NewDecompressor(cc.kind)
			if err != nil {
				t.Fatal(err)
			}
			ld := d.(LimitDecompressor)
			var zbuf, obuf []byte
			for _, in := range inputs {
				z, err := c.Compress(zbuf, in.data)
				if err != nil {
					t.Fatalf("%s: compress: %v", in.name, err)
				}
				zbuf = z
				out, err := d.Decompress(obuf, z)
				if err != nil {
					t.Fatalf("%s: decompress: %v", in.name, err)
				}
				if !bytes.Equal(out, in.data) {
					t.Fatalf("%s: round trip differs (%d bytes, want %d)", in.name, len(out), len(in.data))
				}
				obuf = out
				// From an empty buffer too, which makes the codecs grow it.
				out, err = ld.DecompressLimit(nil, z, len(in.data))
				if err != nil || !bytes.Equal(out, in.data) {
					t.Fatalf("%s: DecompressLimit at the exact size: %v", in.name, err)
				}
				if len(in.data) > 0 {
					_, err = ld.DecompressLimit(nil, z, len(in.data)-1)
					if !errors.Is(err, orc.ErrCorrupt) {
						t.Fatalf("%s: DecompressLimit one byte short: error %v, want ErrCorrupt", in.name, err)
					}
				}
				if in.name == "zeros" && len(z) > len(in.data)/10 {
					t.Errorf("zeros compress to %d bytes, expected far fewer", len(z))
				}
			}
		})
	}
}

// TestDecompressStreamedZstd decodes zstd frames that do not state their
// size, as a streaming encoder writes them.
func TestDecompressStreamedZstd(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefgh-ijklmnop"), 40000) // 680,000 bytes
	var z bytes.Buffer
	w, err := zstd.NewWriter(&z)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	var h zstd.Header
	if err := h.Decode(z.Bytes()); err != nil || h.HasFCS {
		t.Fatalf("test frame should have no content size (err %v)", err)
	}
	d, _ := NewDecompressor(orc.CompressionZstd)
	out, err := d.Decompress(nil, z.Bytes())
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("decompress: %v", err)
	}
	if _, err := d.(LimitDecompressor).DecompressLimit(make([]byte, 0, 1000), z.Bytes(), 600000); !errors.Is(err, orc.ErrCorrupt) {
		t.Fatalf("over the limit: error %v, want ErrCorrupt", err)
	}
}

// A frame under 256 bytes carries no content size (the encoder leaves it
// out): decoding one takes a buffer near its size, not 64 KiB per chunk.
// A reader opening the small stripe footers of many stripes made 64 KiB of
// garbage for each.
func TestZstdSmallFrameBuffer(t *testing.T) {
	c, _ := NewCompressor(orc.CompressionZstd, 0)
	d, _ := NewDecompressor(orc.CompressionZstd)
	for _, n := range []int{1, 20, 100, 255, 2000} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i % 7)
		}
		z, err := c.Compress(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := d.Decompress(nil, z)
		if err != nil || !bytes.Equal(out, src) {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if want := max(n, 1<<10) + zstdSlack; cap(out) > want {
			t.Errorf("%d bytes in a frame of %d: buffer of %d, want at most %d", n, len(z), cap(out), want)
		}
	}
}

// TestDecompressionBomb checks that a chunk expanding far beyond the limit
// is refused without allocating much beyond the limit.
func TestDecompressionBomb(t *testing.T) {
	bomb := make([]byte, 8<<20)
	const limit = 64 << 10
	for _, cc := range writeCodecs {
		t.Run(codecName(cc.kind, cc.level), func(t *testing.T) {
			c, _ := NewCompressor(cc.kind, cc.level)
			d, _ := NewDecompressor(cc.kind)
			ld := d.(LimitDecompressor)
			var z []byte
			var err error
			if cc.kind == orc.CompressionSnappy || cc.kind == orc.CompressionLZ4 {
				// These encoders take bounded blocks; 1 MiB is enough.
				z, err = c.Compress(nil, bomb[:1<<20])
			} else {
				z, err = c.Compress(nil, bomb)
			}
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, limit)
			ld.DecompressLimit(buf, z, limit) // warm up
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = ld.DecompressLimit(buf, z, limit)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("error %v, want ErrCorrupt", err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 512<<10 {
				t.Errorf("allocated %d bytes refusing a bomb at limit %d", got, limit)
			}
		})
	}
}

func TestDecompressCorrupt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	text := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog "), 200)
	for _, cc := range writeCodecs {
		c, _ := NewCompressor(cc.kind, cc.level)
		d0, _ := NewDecompressor(cc.kind)
		ld := d0.(LimitDecompressor)
		limit := 2 * len(text)
		z, _ := c.Compress(nil, text)
		// Every truncation must fail cleanly (or, rarely, decode to
		// something shorter); none may panic or yield the whole text.
		for n := 0; n < len(z); n++ {
			out, err := ld.DecompressLimit(nil, z[:n], limit)
			if err == nil && bytes.Equal(out, text) {
				t.Errorf("%v: %d of %d bytes decode to the whole text", cc.kind, n, len(z))
			}
			if err != nil && !errors.Is(err, orc.ErrCorrupt) {
				t.Errorf("%v: truncated at %d: error %v does not wrap ErrCorrupt", cc.kind, n, err)
			}
		}
		// Flipped bytes.
		for i := 0; i < 200; i++ {
			bad := bytes.Clone(z)
			bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
			if _, err := ld.DecompressLimit(nil, bad, limit); err != nil && !errors.Is(err, orc.ErrCorrupt) {
				t.Errorf("%v: flipped byte: error %v does not wrap ErrCorrupt", cc.kind, err)
			}
		}
	}
}

// FuzzDecompress feeds arbitrary payloads to every decompressor: none may
// panic, exceed its limit, or fail with an error that is not ErrCorrupt.
func FuzzDecompress(f *testing.F) {
	text := bytes.Repeat([]byte("fuzz the codecs "), 100)
	for _, cc := range writeCodecs {
		c, _ := NewCompressor(cc.kind, cc.level)
		z, _ := c.Compress(nil, text)
		f.Add(byte(cc.kind), z)
		z, _ = c.Compress(nil, nil)
		f.Add(byte(cc.kind), z)
	}
	f.Add(byte(orc.CompressionLZO), []byte{0x11, 0, 0})
	f.Add(byte(orc.CompressionLZO), []byte{0x13, 'a', 'b', 0x64, 0x00, 0x11, 0, 0})
	f.Add(byte(orc.CompressionLZO), []byte{0x00, 0x00, 0x00, 0x11, 0, 0})
	kinds := []orc.CompressionKind{orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZO, orc.CompressionLZ4, orc.CompressionZstd}
	decs := make(map[orc.CompressionKind]LimitDecompressor)
	for _, k := range kinds {
		d, _ := NewDecompressor(k)
		decs[k] = d.(LimitDecompressor)
	}
	f.Fuzz(func(t *testing.T, kind byte, src []byte) {
		k := kinds[int(kind)%len(kinds)]
		const limit = 1 << 16
		out, err := decs[k].DecompressLimit(nil, src, limit)
		if err != nil {
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("%v: error %v does not wrap ErrCorrupt", k, err)
			}
			return
		}
		if len(out) > limit {
			t.Fatalf("%v: %d bytes out, limit %d", k, len(out), limit)
		}
	})
}

// benchChunk is a compressible block like an ORC stream: small integers
// written as varints mixed with some text.
func benchChunk() []byte {
	r := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, 0, 256<<10)
	for len(b) < 256<<10-16 {
		if r.IntN(4) == 0 {
			b = append(b, "value-"...)
		}
		b = AppendUvarint(b, uint64(r.IntN(5000)))
	}
	return b
}

func BenchmarkDecompress(b *testing.B) {
	data := benchChunk()
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		b.Run(cc.kind.String(), func(b *testing.B) {
			c, _ := NewCompressor(cc.kind, 0)
			d, _ := NewDecompressor(cc.kind)
			z, _ := c.Compress(nil, data)
			buf := make([]byte, 0, len(data))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ReportMetric(float64(len(z))/float64(len(data)), "ratio")
			for b.Loop() {
				out, err := d.Decompress(buf, z)
				if err != nil || len(out) != len(data) {
					b.Fatal(err)
				}
				buf = out[:0] // reuse what the decompressor chose, as InStream does
			}
		})
	}
	b.Run("LZO", func(b *testing.B) {
		z := lzoTestEncode(nil, data)
		d, _ := NewDecompressor(orc.CompressionLZO)
		buf := make([]byte, 0, len(data))
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		b.ReportMetric(float64(len(z))/float64(len(data)), "ratio")
		for b.Loop() {
			out, err := d.Decompress(buf, z)
			if err != nil || len(out) != len(data) {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCompress(b *testing.B) {
	data := benchChunk()
	for _, cc := range writeCodecs {
		b.Run(codecName(cc.kind, cc.level), func(b *testing.B) {
			c, _ := NewCompressor(cc.kind, cc.level)
			var buf []byte
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				z, err := c.Compress(buf, data)
				if err != nil {
					b.Fatal(err)
				}
				buf = z
			}
		})
	}
}

// examplesDir returns the folder of Apache's example files, or skips.
func examplesDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		return d
	}
	d := filepath.Join("..", "..", "shared", "orc-examples")
	if _, err := os.Stat(d); err != nil {
		t.Skip("Apache ORC example files not found: set ORC_EXAMPLES or put them in ../shared/orc-examples")
	}
	return d
}

// exampleFile is an example file with its PostScript parsed.
type exampleFile struct {
	data      []byte
	ps        *orcpb.PostScript
	comp      orc.CompressionKind
	blockSize int
	dec       Decompressor
}

func openExample(t *testing.T, name string) *exampleFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	psLen := int(b[len(b)-1])
	ps := &orcpb.PostScript{}
	if err := proto.Unmarshal(b[len(b)-1-psLen:len(b)-1], ps); err != nil {
		t.Fatalf("%s: postscript: %v", name, err)
	}
	e := &exampleFile{data: b, ps: ps, comp: orc.CompressionKind(ps.GetCompression()), blockSize: int(ps.GetCompressionBlockSize())}
	if e.comp != orc.CompressionNone {
		if e.dec, err = NewDecompressor(e.comp); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// section decompresses length stored bytes at file offset off.
func (e *exampleFile) section(t *testing.T, name string, off, length uint64) []byte {
	t.Helper()
	in := NewInStream(StreamInfo{Name: name, FileOffset: int64(off), Stripe: -1, Column: -1, Length: length},
		e.data[off:off+length], e.comp, e.blockSize, e.dec)
	var all []byte
	for {
		c, err := in.NextChunk()
		if err == io.EOF {
			return all
		}
		if err != nil {
			t.Fatalf("%s at %d: %v", name, off, err)
		}
		if len(c) == 0 || len(c) > max(e.blockSize, 1) && e.comp != orc.CompressionNone {
			t.Fatalf("%s: chunk of %d bytes, block size %d", name, len(c), e.blockSize)
		}
		all = append(all, c...)
	}
}

func (e *exampleFile) footer(t *testing.T) *orcpb.Footer {
	t.Helper()
	psLen := uint64(e.data[len(e.data)-1])
	fl := e.ps.GetFooterLength()
	off := uint64(len(e.data)) - 1 - psLen - fl
	f := &orcpb.Footer{}
	if err := proto.Unmarshal(e.section(t, "footer", off, fl), f); err != nil {
		t.Fatalf("footer: %v", err)
	}
	return f
}

func TestExampleFiles(t *testing.T) {
	tests := []struct {
		file  string
		comp  orc.CompressionKind
		rows  uint64
		kinds string
	}{
		{"TestVectorOrcFile.testLzo.orc", orc.CompressionLZO, 10000, "[STRUCT LONG INT LONG]"},
		{"TestVectorOrcFile.testLz4.orc", orc.CompressionLZ4, 10000, "[STRUCT LONG INT LONG]"},
		{"TestVectorOrcFile.testZstd.0.12.orc", orc.CompressionZstd, 10000, "[STRUCT LONG INT LONG]"},
		{"TestOrcFile.testSnappy.orc", orc.CompressionSnappy, 10000, "[STRUCT INT STRING]"},
		{"TestOrcFile.testSeek.orc", orc.CompressionZlib, 32768,
			"[STRUCT BOOLEAN BYTE SHORT INT LONG FLOAT DOUBLE BINARY STRING STRUCT LIST STRUCT INT STRING LIST STRUCT INT STRING MAP STRING STRUCT INT STRING]"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			e := openExample(t, tc.file)
			if e.comp != tc.comp {
				t.Fatalf("codec %v, want %v", e.comp, tc.comp)
			}
			f := e.footer(t)
			if f.GetNumberOfRows() != tc.rows {
				t.Errorf("rows %d, want %d", f.GetNumberOfRows(), tc.rows)
			}
			var kinds []string
			for _, ty := range f.GetTypes() {
				kinds = append(kinds, ty.GetKind().String())
			}
			if got := fmt.Sprint(kinds); got != tc.kinds {
				t.Errorf("types %s, want %s", got, tc.kinds)
			}
			checkExampleStripes(t, e, f)
		})
	}
}

// checkExampleStripes decompresses every stream of every stripe and seeks
// each stream a row index points into to each of its positions.
func checkExampleStripes(t *testing.T, e *exampleFile, f *orcpb.Footer) {
	t.Helper()
	var rows uint64
	var seeks int
	for si, st := range f.GetStripes() {
		rows += st.GetNumberOfRows()
		fo := st.GetOffset() + st.GetIndexLength() + st.GetDataLength()
		var sf orcpb.StripeFooter
		if err := proto.Unmarshal(e.section(t, "stripe footer", fo, st.GetFooterLength()), &sf); err != nil {
			t.Fatalf("stripe %d footer: %v", si, err)
		}
		off := st.GetOffset()
		type loc struct{ off, length uint64 }
		data := make(map[[2]int]loc)
		hasPresent := make(map[int]bool)
		var indexes []loc
		var indexCols []int
		for _, s := range sf.GetStreams() {
			col := int(s.GetColumn())
			switch s.GetKind() {
			case orcpb.Stream_ROW_INDEX:
				indexes = append(indexes, loc{off, s.GetLength()})
				indexCols = append(indexCols, col)
			case orcpb.Stream_PRESENT:
				hasPresent[col] = true
			}
			data[[2]int{col, int(s.GetKind())}] = loc{off, s.GetLength()}
			e.section(t, s.GetKind().String(), off, s.GetLength())
			off += s.GetLength()
		}
		// Integer columns: DATA positions follow PRESENT's (if any).
		for i, ix := range indexes {
			col := indexCols[i]
			k := f.GetTypes()[col].GetKind()
			if k != orcpb.Type_INT && k != orcpb.Type_LONG {
				continue
			}
			var ri orcpb.RowIndex
			if err := proto.Unmarshal(e.section(t, "ROW_INDEX", ix.off, ix.length), &ri); err != nil {
				t.Fatalf("stripe %d column %d row index: %v", si, col, err)
			}
			d := data[[2]int{col, int(orcpb.Stream_DATA)}]
			in := NewInStream(StreamInfo{Name: "DATA", FileOffset: int64(d.off), Stripe: si, Column: col, Length: d.length},
				e.data[d.off:d.off+d.length], e.comp, e.blockSize, e.dec)
			for _, entry := range ri.GetEntry() {
				pos := entry.GetPositions()
				if hasPresent[col] {
					pos = pos[4:]
				}
				if err := in.Seek(NewPositionProvider(pos)); err != nil {
					t.Fatalf("stripe %d column %d seek to %v: %v", si, col, pos, err)
				}
				if _, err := in.NextChunk(); err != nil && err != io.EOF {
					t.Fatalf("stripe %d column %d after seek to %v: %v", si, col, pos, err)
				}
				seeks++
			}
		}
	}
	if rows != f.GetNumberOfRows() {
		t.Errorf("stripes hold %d rows, footer says %d", rows, f.GetNumberOfRows())
	}
	if seeks == 0 {
		t.Errorf("no row-index position was tried")
	}
}

// hexText returns n bytes of random UUID text: no repeats for a match
// finder, but 17 symbols for an entropy coder.
func hexText(r *rand.Rand, n int) []byte {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, n+36)
	for len(out) < n {
		for i := range 36 {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				out = append(out, '-')
			} else {
				out = append(out, hex[r.IntN(16)])
			}
		}
	}
	return out[:n]
}

// TestZstdEntropyCodesMatchlessChunks checks that ZSTD still shrinks a
// chunk in which the match finder finds nothing, by coding its literals:
// random hex text carries 4 bits per byte, so it must come out well under
// two thirds of its size (stored raw, it would be larger than the input).
func TestZstdEntropyCodesMatchlessChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{10_000, 64 << 10, 256 << 10} {
		data := hexText(r, size)
		for _, level := range []int{0, 1, 3, 9} {
			c, err := NewBlockCompressor(orc.CompressionZstd, level, size)
			if err != nil {
				t.Fatal(err)
			}
			z, err := c.Compress(nil, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(z) > len(data)*2/3 {
				t.Errorf("%d bytes of hex text, level %d: compressed to %d bytes, want at most %d",
					size, level, len(z), len(data)*2/3)
			}
			d, _ := NewDecompressor(orc.CompressionZstd)
			out, err := d.Decompress(nil, z)
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("%d bytes, level %d: round trip: %v", size, level, err)
			}
		}
	}
}

// skewedBytes returns n random bytes, one in eight of them a zero: about
// 5% smaller Huffman-coded, under the 1/16 the encoder asks for, and with
// no matches to find, like bit-packed integers whose high bits vary little.
func skewedBytes(r *rand.Rand, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		if r.IntN(8) != 0 {
			out[i] = byte(r.Uint32())
		}
	}
	return out
}

// TestZstdLiteralsOnlyFrames checks the literals-only frames of chunks the
// encoder leaves raw: text from a small alphabet must come out Huffman-coded
// (at most two thirds of its size) as frames our decoder reads back, while
// bytes that Huffman coding shrinks by only about 5% must stay raw (their
// decoding would cost more than the bytes saved; see the design note in
// compression.go), and random bytes must not grow past the raw size plus
// headers. (Chunks under 4 KiB are only round-tripped: the Huffman table
// eats the gain.)
func TestZstdLiteralsOnlyFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	d, _ := NewDecompressor(orc.CompressionZstd)
	for _, size := range []int{1 << 10, 5000, 16383, 16384, 100_000, 128 << 10, 128<<10 + 1, 256 << 10, 1 << 20} {
		c, err := NewBlockCompressor(orc.CompressionZstd, 0, size)
		if err != nil {
			t.Fatal(err)
		}
		hex := hexText(r, size)
		z, err := c.Compress(nil, hex)
		if err != nil {
			t.Fatal(err)
		}
		if limit := size * 2 / 3; size >= 4096 && len(z) > limit {
			t.Errorf("%d bytes of hex text: compressed to %d, want at most %d", size, len(z), limit)
		}
		out, err := d.Decompress(nil, z)
		if err != nil || !bytes.Equal(out, hex) {
			t.Fatalf("%d bytes of hex text: round trip: %v", size, err)
		}
		var h zstd.Header
		if err := h.Decode(z); err != nil || !h.HasFCS || h.FrameContentSize != uint64(size) {
			t.Errorf("%d bytes of hex text: frame header %+v, %v", size, h, err)
		}
		skewed := skewedBytes(r, size)
		if z, _ = c.Compress(nil, skewed); len(z) < size {
			t.Errorf("%d skewed bytes (5%% to gain): compressed to %d; want them left raw", size, len(z))
		}
		if out, err = d.Decompress(nil, z); err != nil || !bytes.Equal(out, skewed) {
			t.Fatalf("%d skewed bytes: round trip: %v", size, err)
		}
		random := make([]byte, size)
		for i := range random {
			random[i] = byte(r.Uint32())
		}
		if z, _ = c.Compress(nil, random); len(z) > size+size/1000+16 {
			t.Errorf("%d random bytes: compressed to %d", size, len(z))
		}
		if out, err = d.Decompress(nil, z); err != nil || !bytes.Equal(out, random) {
			t.Fatalf("%d random bytes: round trip: %v", size, err)
		}
	}
}

// TestZstdLiteralsMinGain checks that a block Huffman coding would shrink
// by about 0.3% (one byte in 64 a zero, the rest random) is not coded: the
// chunk comes out no smaller than it went in and is stored as is.
func TestZstdLiteralsMinGain(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	data := make([]byte, 256<<10)
	for i := range data {
		if r.IntN(64) != 0 {
			data[i] = byte(r.Uint32())
		}
	}
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, len(data))
	if err != nil {
		t.Fatal(err)
	}
	z, err := c.Compress(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(z) < len(data) {
		t.Errorf("%d bytes with 0.3%% skew compressed to %d; want them stored as is", len(data), len(z))
	}
}

// TestZstdFramesAreStandard decodes what the ZSTD compressor writes with
// the reference zstd command when it is installed: chunks must stay
// plain zstd frames that every ORC reader (zstd-jni, libzstd) decodes.
func TestZstdFramesAreStandard(t *testing.T) {
	bin, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("the zstd command is not installed")
	}
	r := rand.New(rand.NewPCG(5, 6))
	inputs := testInputs(r)
	inputs = append(inputs, struct {
		name string
		data []byte
	}{"hex", hexText(r, 200_000)}, struct {
		name string
		data []byte
	}{"skewed", skewedBytes(r, 300_000)}, struct {
		name string
		data []byte
	}{"skewed-small", skewedBytes(r, 3000)})
	for _, level := range []int{0, 1, 19} {
		c, err := NewBlockCompressor(orc.CompressionZstd, level, 256<<10)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			if len(in.data) == 0 {
				continue
			}
			z, err := c.Compress(nil, in.data)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "-d", "-c", "-q")
			cmd.Stdin = bytes.NewReader(z)
			out, err := cmd.Output()
			if err != nil || !bytes.Equal(out, in.data) {
				t.Errorf("level %d, %s: zstd -d gave %d bytes (want %d), error %v", level, in.name, len(out), len(in.data), err)
			}
		}
	}
}

// FuzzZstdRoundTrip compresses arbitrary chunks, skewed ones repeated so
// that some take the literals-only path, and checks they decode back.
func FuzzZstdRoundTrip(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	f.Add(skewedBytes(r, 3000), uint16(1))
	f.Add(hexText(r, 2000), uint16(3))
	f.Add([]byte("orc"), uint16(500))
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 1<<20)
	if err != nil {
		f.Fatal(err)
	}
	d, _ := NewDecompressor(orc.CompressionZstd)
	f.Fuzz(func(t *testing.T, piece []byte, times uint16) {
		data := bytes.Repeat(piece, int(times%1000)+1)
		if len(data) > 1<<20 {
			data = data[:1<<20]
		}
		z, err := c.Compress(nil, data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := d.Decompress(nil, z)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("%d bytes: round trip: %v", len(data), err)
		}
	})
}

// TestZstdRepeatProbe checks the probe that sends chunks with hardly any
// repeats straight to a literals-only frame: hex text takes that path
// (the frame equals appendLiteralsFrame's, and is smaller than the
// encoder's), while text with repeated words, integer runs and bytes that
// Huffman coding barely shrinks still get the encoder's frame (or the
// smaller of the two). Every output round-trips.
func TestZstdRepeatProbe(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	words := []string{"carefully ", "final ", "deposits ", "sleep ", "quickly ", "blithely ", "regular ", "ideas "}
	var text []byte
	for len(text) < 256<<10 {
		text = append(text, words[r.IntN(len(words))]...)
	}
	runs := make([]byte, 256<<10)
	for i := range runs {
		runs[i] = byte(i / 300)
	}
	cases := []struct {
		name     string
		data     []byte
		few      bool // fewRepeats
		literals bool // the literals-only frame is taken without the encoder
	}{
		{"hex", hexText(r, 256<<10), true, true},
		{"hex 40 KiB", hexText(r, 40<<10), true, true},
		{"words", text[:256<<10], false, false},
		{"runs", runs, false, false},
		// No repeats, but Huffman coding saves too little: the encoder.
		{"skewed", skewedBytes(r, 256<<10), true, false},
	}
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	z := c.(*zstdCompressor)
	d, _ := NewDecompressor(orc.CompressionZstd)
	for _, tc := range cases {
		if got := z.fewRepeats(tc.data); got != tc.few {
			t.Errorf("%s: fewRepeats %v, want %v", tc.name, got, tc.few)
		}
		out, err := c.Compress(nil, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		lits := z.appendLiteralsFrame(nil, tc.data)
		enc := z.enc.EncodeAll(tc.data, nil)
		if tc.literals {
			if !bytes.Equal(out, lits) || len(out) >= len(enc) {
				t.Errorf("%s: %d bytes; literals frame %d, encoder %d", tc.name, len(out), len(lits), len(enc))
			}
		} else if len(out) != len(enc) && (len(out) != len(lits) || len(lits) >= len(enc)) {
			t.Errorf("%s: %d bytes; encoder %d, literals frame %d", tc.name, len(out), len(enc), len(lits))
		}
		back, err := d.Decompress(nil, out)
		if err != nil || !bytes.Equal(back, tc.data) {
			t.Fatalf("%s: round trip: %v", tc.name, err)
		}
	}
}

// TestHuffmanMayPay checks the entropy test that spares the literals-only
// frame its Huffman pass: it must say no for random and bit-packed bytes,
// yes for text from small alphabets, and never say no where Huffman coding
// would have saved the quarter a coded block needs (which would change the
// output).
func TestHuffmanMayPay(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	random := make([]byte, zstdMaxBlock)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	if huffmanMayPay(random) {
		t.Error("random bytes: may pay")
	}
	if huffmanMayPay(skewedBytes(r, zstdMaxBlock)) {
		t.Error("skewed bytes (7.4 bits a byte): may pay")
	}
	if !huffmanMayPay(hexText(r, zstdMaxBlock)) {
		t.Error("hex text: may not pay")
	}
	// 8-byte records with noise in bytes 0 and 4 and the other six from
	// two values: about 2.9 bits a byte, though the bytes at every 4th
	// position are all noise.
	records := make([]byte, zstdMaxBlock)
	for i := range records {
		switch i % 8 {
		case 0, 4:
			records[i] = byte(r.Uint32())
		default:
			records[i] = byte(r.IntN(2))
		}
	}
	if !huffmanMayPay(records) {
		t.Error("8-byte records, noise in bytes 0 and 4: may not pay")
	}
	var h huff0.Scratch
	for _, k := range []int{2, 16, 40, 60, 64, 66, 70, 76, 80, 90, 128, 200, 256} {
		for _, zipf := range []bool{false, true} {
			blk := make([]byte, zstdMaxBlock)
			z := rand.NewZipf(rand.New(rand.NewPCG(uint64(k), 3)), 1.1, 1, uint64(k-1))
			for i := range blk {
				if zipf {
					blk[i] = byte(z.Uint64())
				} else {
					blk[i] = byte(r.IntN(k))
				}
			}
			if huffmanMayPay(blk) {
				continue
			}
			h.Reuse = huff0.ReusePolicyNone
			out, _, err := huff0.Compress4X(blk, &h)
			if err == nil && 5+len(out)+1 <= len(blk)-len(blk)>>zstdMinLiteralGain {
				t.Errorf("%d symbols (zipf %v): judged not to pay, but Huffman codes it in %d of %d bytes", k, zipf, len(out), len(blk))
			}
		}
	}
}

// ZSTD decompressors share the process's decoders (zstdDecoders): many
// goroutines decompressing at once, through their own decompressors or one
// shared, each get a decoder of their own and the right bytes, and a new
// decompressor, once a decoder has been used, allocates no decoder.
func TestZstdDecodersShared(t *testing.T) {
	c, _ := NewCompressor(orc.CompressionZstd, 0)
	var frames, plains [][]byte
	for i := range 16 {
		src := make([]byte, 10000+i*997)
		for j := range src {
			src[j] = byte(j*(i+1)) ^ byte(j>>7)
		}
		z, err := c.Compress(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		frames, plains = append(frames, append([]byte(nil), z...)), append(plains, src)
	}
	shared, err := NewDecompressor(orc.CompressionZstd)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := shared
			if g%2 == 1 {
				own, err := NewDecompressor(orc.CompressionZstd)
				if err != nil {
					errs <- err
					return
				}
				d = own
			}
			var out []byte
			for r := range 50 {
				i := (g + r) % len(frames)
				var err error
				if out, err = d.Decompress(out[:0], frames[i]); err != nil || !bytes.Equal(out, plains[i]) {
					errs <- fmt.Errorf("goroutine %d, frame %d: %d bytes, %v", g, i, len(out), err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if raceEnabled {
		return // sync.Pool drops some of what is put back under the race detector
	}
	out := make([]byte, 0, 64<<10)
	if n := testing.AllocsPerRun(20, func() {
		d, _ := NewDecompressor(orc.CompressionZstd)
		if _, err := d.Decompress(out, frames[3]); err != nil {
			t.Fatal(err)
		}
	}); n > 2 {
		t.Errorf("a new decompressor and a chunk: %v allocations, want at most 2 (no decoder of its own)", n)
	}
}
