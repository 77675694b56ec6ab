package format

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/orcgo/orc"

	"github.com/klauspost/compress/zstd"
)

// wordShapes are 8-byte value streams of the kinds the word frames are for,
// and some they are not.
func wordShapes(r *rand.Rand, n int) map[string][]byte {
	put := func(f func(i int) float64) []byte {
		b := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(f(i)))
		}
		return b
	}
	m := map[string][]byte{
		"discount": put(func(int) float64 { return float64(r.IntN(11)) / 100 }),
		"quantity": put(func(int) float64 { return float64(r.IntN(50) + 1) }),
		"zeros":    put(func(int) float64 { return 0 }),
		"runs":     put(func(i int) float64 { return float64(i / 300) }),
		"two":      put(func(i int) float64 { return float64(i % 2) }),
		"nan":      put(func(i int) float64 { return []float64{math.NaN(), math.Inf(1), math.Copysign(0, -1), 1}[r.IntN(4)] }),
		"k256":     put(func(int) float64 { return float64(r.IntN(256)) * 1.5 }),
		"k2000":    put(func(int) float64 { return float64(r.IntN(2000)) / 7 }),
		"random":   put(func(int) float64 { return r.Float64() }),
		"price":    put(func(int) float64 { return float64(r.IntN(10_000_000)) / 100 }),
	}
	// half repeated values, half noise, and text
	mixed := put(func(i int) float64 {
		if i%2 == 0 {
			return 1
		}
		return r.Float64()
	})
	m["mixed"] = mixed
	words := []string{"furiously ", "sly ", "careful ", "blithely ", "quickly ", "fluffily ", "ironic ", "final ", "regular ", "express ", "pending "}
	var text []byte
	for len(text) < 8*n {
		text = append(text, words[r.IntN(len(words))]...)
	}
	m["text"] = text[:8*n]
	odd := make([]byte, 8*n+5) // not a multiple of 8
	copy(odd, m["discount"])
	m["odd"] = odd
	return m
}

func TestWordFrames(t *testing.T) {
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	r := rand.New(rand.NewPCG(7, 8))
	var e wordEncoder
	for _, n := range []int{512, 1000, 10_000, 16_384, 32_768, 40_000} {
		for name, src := range wordShapes(r, n) {
			for _, pre := range []int{0, 3} {
				dst := make([]byte, pre, pre+len(src))
				out, ok := e.appendFrame(dst, src)
				if !ok {
					if len(out) != pre {
						t.Fatalf("%s/%d: refused, but dst grew to %d", name, n, len(out))
					}
					continue
				}
				if len(out)-pre > len(src)/4 {
					t.Errorf("%s/%d: frame of %d bytes for %d", name, n, len(out)-pre, len(src))
				}
				got, err := dec.DecodeAll(out[pre:], nil)
				if err != nil {
					t.Fatalf("%s/%d: %v", name, n, err)
				}
				if !bytes.Equal(got, src) {
					t.Fatalf("%s/%d: decodes to other bytes", name, n)
				}
			}
		}
	}
}

// The word frames take the shapes they are for, and leave the rest.
func TestWordFramesTaken(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var e wordEncoder
	shapes := wordShapes(r, 10_000)
	for name, want := range map[string]bool{
		"discount": true, "quantity": true, "zeros": true, "runs": true, "two": true, "nan": true,
		"random": false, "price": false, "text": false, "mixed": false,
	} {
		_, ok := e.appendFrame(nil, shapes[name])
		if ok != want {
			t.Errorf("%s: taken %v, want %v", name, ok, want)
		}
	}
}

// libzstd (the zstd command) reads the frames too.
func TestWordFramesZstdCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the zstd command")
	}
	bin, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("no zstd command")
	}
	r := rand.New(rand.NewPCG(11, 12))
	var e wordEncoder
	dir := t.TempDir()
	for name, src := range wordShapes(r, 20_000) {
		out, ok := e.appendFrame(nil, src)
		if !ok {
			continue
		}
		p := filepath.Join(dir, name+".zst")
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := exec.Command(bin, "-d", "-c", "-q", p).Output()
		if err != nil {
			t.Fatalf("%s: zstd -d: %v", name, err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("%s: zstd -d gives other bytes", name)
		}
	}
}

// TestWordFrameSizes logs the word frames' sizes and times against the
// general encoder's (go test -run WordFrameSizes -v).
func TestWordFrameSizes(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("a report, with -v")
	}
	r := rand.New(rand.NewPCG(13, 14))
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	z := c.(*zstdCompressor)
	var e wordEncoder
	for name, src := range wordShapes(r, 10_000) {
		var buf []byte
		t0 := time.Now()
		for range 20 {
			buf = z.enc.EncodeAll(src, buf[:0])
		}
		gen := time.Since(t0) / 20
		ng := len(buf)
		t0 = time.Now()
		ok := false
		for range 20 {
			buf, ok = e.appendFrame(buf[:0], src)
		}
		wt := time.Since(t0) / 20
		t.Logf("%-9s general %7d B %8v   words %7d B %8v taken %v", name, ng, gen, len(buf), wt, ok)
	}
}

func BenchmarkWordFrame(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	src := wordShapes(r, 10_000)["discount"]
	var e wordEncoder
	var buf []byte
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		buf, _ = e.appendFrame(buf[:0], src)
	}
}

// At higher levels the general encoder may do better than word frames,
// which are kept for levels up to the default.
func TestWordFramesBetterLevels(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("a report, with -v")
	}
	r := rand.New(rand.NewPCG(13, 14))
	var e wordEncoder
	for _, lvl := range []int{9, 19} {
		c, err := NewBlockCompressor(orc.CompressionZstd, lvl, 256<<10)
		if err != nil {
			t.Fatal(err)
		}
		z := c.(*zstdCompressor)
		for name, src := range wordShapes(r, 10_000) {
			g := z.enc.EncodeAll(src, nil)
			w, ok := e.appendFrame(nil, src)
			if ok {
				t.Logf("level %d %-9s general %7d B words %7d B", lvl, name, len(g), len(w))
			}
		}
	}
}

// One encoder over many chunks of odd sizes and mixed shapes, as a
// stream's chunks come: every frame it keeps decodes to its chunk.
func TestWordFramesChunks(t *testing.T) {
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	r := rand.New(rand.NewPCG(15, 16))
	shapes := wordShapes(r, 40_000)
	names := make([]string, 0, len(shapes))
	for k := range shapes {
		names = append(names, k)
	}
	slices.Sort(names)
	var e wordEncoder
	taken := 0
	for i := range 2000 {
		src := shapes[names[r.IntN(len(names))]]
		n := wordMinChunk + r.IntN(len(src)-wordMinChunk)
		at := r.IntN(len(src) - n + 1)
		chunk := src[at : at+n]
		out, ok := e.appendFrame(nil, chunk)
		if !ok {
			continue
		}
		taken++
		got, err := dec.DecodeAll(out, nil)
		if err != nil || !bytes.Equal(got, chunk) {
			t.Fatalf("chunk %d (%d bytes at %d): %v", i, n, at, err)
		}
	}
	if taken < 500 {
		t.Errorf("%d chunks of 2000 taken", taken)
	}
}

// wordsLikely passes what appendFrame's first checkpoint would, and stops
// the chunks appendFrame refuses there.
func TestWordsLikely(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for name, src := range wordShapes(r, 10_000) {
		var e wordEncoder
		_, ok := e.appendFrame(nil, src)
		if ok && !wordsLikely(src) {
			t.Errorf("%s: taken, but not likely", name)
		}
	}
	// (text from a small vocabulary may pass: appendFrame's next
	// checkpoint stops it)
	small := wordShapes(r, 1000)
	for name, want := range map[string]bool{"random": false, "price": false, "discount": true, "quantity": true, "zeros": true} {
		if got := wordsLikely(small[name]); got != want {
			t.Errorf("%s: likely %v, want %v", name, got, want)
		}
	}
	if wordsLikely(make([]byte, 1000)) {
		t.Error("likely under 1 KiB")
	}
}

// FuzzWordFrames builds chunks of 8-byte values from a fuzzed alphabet and
// order, so that many reach the word frames: every frame kept decodes to
// its chunk, with the Go decoder and through Compress/Decompress.
func FuzzWordFrames(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), []byte{1, 5, 9, 200, 3}, uint16(900))
	f.Add([]byte("ab"), []byte{0}, uint16(4000))
	f.Add([]byte{0xff, 0, 0x7f, 0x80, 0x3f, 0xf0}, []byte{3, 1, 4, 1, 5, 9, 2, 6}, uint16(10_000))
	dec, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 1<<19)
	if err != nil {
		f.Fatal(err)
	}
	d, _ := NewDecompressor(orc.CompressionZstd)
	var e wordEncoder
	f.Fuzz(func(t *testing.T, alphabet, order []byte, n uint16) {
		if len(alphabet) == 0 || len(order) == 0 {
			return
		}
		// value k: 8 bytes taken cyclically from alphabet at k; the
		// values picked by order, which repeats with a drift
		count := int(n)%(1<<16/8) + 1
		src := make([]byte, 8*count+int(n%8))
		for i := range count {
			k := int(order[i%len(order)]) + i/len(order)%3
			for j := range 8 {
				src[8*i+j] = alphabet[(k+j)%len(alphabet)] + byte(k)
			}
		}
		if len(src) >= wordMinChunk {
			if out, ok := e.appendFrame(nil, src); ok {
				got, err := dec.DecodeAll(out, nil)
				if err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%d bytes: word frame round trip: %v", len(src), err)
				}
			}
		}
		z, err := c.Compress(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		back, err := d.Decompress(nil, z)
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("%d bytes: round trip: %v", len(src), err)
		}
	})
}

// Compress takes the word frame for a DOUBLE stream of few values, where
// it is smaller than the general encoder's, and for one that repetitive
// data whose frame is tiny, the smaller of the two; never a word frame at
// a level above the default.
func TestZstdCompressWordFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	shapes := wordShapes(r, 10_000)
	d, _ := NewDecompressor(orc.CompressionZstd)
	for _, level := range []int{0, 1, 3, 9} {
		c, err := NewBlockCompressor(orc.CompressionZstd, level, 256<<10)
		if err != nil {
			t.Fatal(err)
		}
		z := c.(*zstdCompressor)
		var e wordEncoder
		for name, src := range shapes {
			out, err := c.Compress(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			back, err := d.Decompress(nil, out)
			if err != nil || !bytes.Equal(back, src) {
				t.Fatalf("level %d %s: round trip: %v", level, name, err)
			}
			w, ok := e.appendFrame(nil, src)
			g := z.enc.EncodeAll(src, nil)
			switch {
			case !ok:
			case level > 3:
				if bytes.Equal(out, w) && !bytes.Equal(out, g) {
					t.Errorf("level %d %s: word frame", level, name)
				}
			case len(w) >= len(src)/16:
				if !bytes.Equal(out, w) {
					t.Errorf("level %d %s: %d bytes, not the word frame of %d", level, name, len(out), len(w))
				}
			default:
				if len(out) != min(len(w), len(g)) {
					t.Errorf("level %d %s: %d bytes, word frame %d, encoder %d", level, name, len(out), len(w), len(g))
				}
			}
		}
		if !z.words == (level <= 3) {
			t.Errorf("level %d: words %v", level, z.words)
		}
	}
	// the shapes it is for are smaller than the general encoder makes them
	c, _ := NewBlockCompressor(orc.CompressionZstd, 0, 256<<10)
	for _, name := range []string{"discount", "quantity", "nan"} {
		out, _ := c.Compress(nil, shapes[name])
		g := c.(*zstdCompressor).enc.EncodeAll(shapes[name], nil)
		if len(out) >= len(g) {
			t.Errorf("%s: %d bytes, encoder %d", name, len(out), len(g))
		}
	}
}

// BenchmarkWordFrameDecode decodes a DOUBLE chunk of 11 values compressed
// as a word frame and by the general encoder: what the change costs a
// reader (go test -run '^$' -bench WordFrameDecode ./format).
func BenchmarkWordFrameDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	src := wordShapes(r, 10_000)["discount"]
	var e wordEncoder
	w, ok := e.appendFrame(nil, src)
	if !ok {
		b.Fatal("not taken")
	}
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 256<<10)
	if err != nil {
		b.Fatal(err)
	}
	g := c.(*zstdCompressor).enc.EncodeAll(src, nil)
	d, _ := NewDecompressor(orc.CompressionZstd)
	for _, tc := range []struct {
		name  string
		frame []byte
	}{{"words", w}, {"general", g}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var out []byte
			for b.Loop() {
				var err error
				if out, err = d.Decompress(out[:0], tc.frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
