package format

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

// readAll reads a ChunkSource to its end.
func readAll(t testing.TB, src ChunkSource) ([]byte, error) {
	t.Helper()
	var all []byte
	for {
		c, err := src.NextChunk()
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
		if len(c) == 0 {
			t.Fatalf("NextChunk returned an empty chunk")
		}
		all = append(all, c...)
	}
}

// chunk builds one stored chunk: header plus payload.
func chunk(payload []byte, original bool) []byte {
	return append(appendChunkHeader(nil, len(payload), original), payload...)
}

func zlibChunk(t testing.TB, data []byte) []byte {
	t.Helper()
	c, _ := NewCompressor(orc.CompressionZlib, 0)
	z, err := c.Compress(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	return chunk(z, false)
}

func TestInStreamChunks(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	text := bytes.Repeat([]byte("abc"), 300) // 900 bytes, compresses well
	var stream []byte
	stream = append(stream, chunk([]byte("hello"), true)...)
	stream = append(stream, chunk(nil, true)...) // empty chunks are skipped
	stream = append(stream, zlibChunk(t, text)...)
	stream = append(stream, chunk([]byte("!"), true)...)
	if !bytes.Equal(stream[:8], []byte{0x0b, 0, 0, 'h', 'e', 'l', 'l', 'o'}) {
		t.Fatalf("stream starts % x", stream[:8])
	}
	in := NewInStream(StreamInfo{Name: "DATA", Stripe: 0, Column: 1}, stream, orc.CompressionZlib, 1000, dec)
	var got [][]byte
	for {
		c, err := in.NextChunk()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, bytes.Clone(c))
	}
	want := [][]byte{[]byte("hello"), text, []byte("!")}
	if len(got) != len(want) {
		t.Fatalf("%d chunks, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("chunk %d = %q, want %q", i, got[i], want[i])
		}
	}
	// io.EOF again, and after Reset the same bytes.
	if _, err := in.NextChunk(); err != io.EOF {
		t.Errorf("after the end: %v, want io.EOF", err)
	}
	in.Reset(StreamInfo{Name: "DATA"}, stream)
	all, err := readAll(t, in)
	if err != nil || !bytes.Equal(all, append(append([]byte("hello"), text...), '!')) {
		t.Errorf("after Reset: %q, %v", all, err)
	}
	// Codec NONE: the bytes as they are, no headers.
	raw := NewInStream(StreamInfo{Name: "DATA"}, []byte{1, 2, 3}, orc.CompressionNone, 0, nil)
	all, err = readAll(t, raw)
	if err != nil || !bytes.Equal(all, []byte{1, 2, 3}) {
		t.Errorf("NONE: % x, %v", all, err)
	}
	empty := NewInStream(StreamInfo{}, nil, orc.CompressionZlib, 1000, dec)
	if _, err := empty.NextChunk(); err != io.EOF {
		t.Errorf("empty stream: %v, want io.EOF", err)
	}
}

func TestInStreamCorrupt(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	good := chunk([]byte("12345"), true)
	bomb := zlibChunk(t, make([]byte, 5000)) // expands to 5000 > block size 1000
	tests := []struct {
		name   string
		stream []byte
		offset int64 // stream offset of the bad chunk
	}{
		{"header length over the block size", chunk(make([]byte, 1001), true), 0},
		{"compressed length over the block size", append(good, appendChunkHeader(nil, 1001, false)...), 8},
		{"truncated header", append(bytes.Clone(good), 0x0b), 8},
		{"truncated header 2", append(bytes.Clone(good), 0x0b, 0x00), 8},
		{"truncated payload", append(bytes.Clone(good), 0x0b, 0, 0, 'a'), 8},
		{"bomb", append(bytes.Clone(good), bomb...), 8},
		{"bad deflate", append(bytes.Clone(good), chunk([]byte{0xff, 0xff, 0xff}, false)...), 8},
	}
	for _, tc := range tests {
		si := StreamInfo{Name: "LENGTH", FileOffset: 1000, Stripe: 2, Column: 3}
		in := NewInStream(si, tc.stream, orc.CompressionZlib, 1000, dec)
		_, err := readAll(t, in)
		var ce *orc.CorruptError
		if !errors.As(err, &ce) {
			t.Errorf("%s: error %v, want a *orc.CorruptError", tc.name, err)
			continue
		}
		if ce.Offset != 1000+tc.offset || ce.Stripe != 2 || ce.Column != 3 || ce.Stream != "LENGTH" {
			t.Errorf("%s: location %d/%d/%d/%q, want %d/2/3/LENGTH (%v)", tc.name, ce.Offset, ce.Stripe, ce.Column, ce.Stream, 1000+tc.offset, err)
		}
		if errors.Is(err, ErrOutsideWindow) {
			t.Errorf("%s: corruption reported as outside the window", tc.name)
		}
	}
	// Misconfiguration is an error, not corruption.
	for _, bs := range []int{0, -1, maxChunkLength + 1} {
		in := NewInStream(StreamInfo{}, good, orc.CompressionZlib, bs, dec)
		if _, err := in.NextChunk(); err == nil || errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("block size %d: error %v, want a plain error", bs, err)
		}
	}
	in := NewInStream(StreamInfo{}, good, orc.CompressionZlib, 1000, nil)
	if _, err := in.NextChunk(); err == nil {
		t.Errorf("no decompressor: no error")
	}
}

// plainDecompressor hides the LimitDecompressor method, to test the path
// for decompressors from elsewhere.
type plainDecompressor struct{ d Decompressor }

func (p plainDecompressor) Decompress(dst, src []byte) ([]byte, error) {
	return p.d.Decompress(dst, src)
}

func TestInStreamPlainDecompressor(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	bomb := zlibChunk(t, make([]byte, 5000))
	in := NewInStream(StreamInfo{}, bomb, orc.CompressionZlib, 1000, plainDecompressor{dec})
	if _, err := in.NextChunk(); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("bomb: error %v, want ErrCorrupt", err)
	}
	in = NewInStream(StreamInfo{}, bomb, orc.CompressionZlib, 5000, plainDecompressor{dec})
	if c, err := in.NextChunk(); err != nil || len(c) != 5000 {
		t.Errorf("at the block size: %d bytes, %v", len(c), err)
	}
}

func TestInStreamSeek(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	text := bytes.Repeat([]byte("0123456789"), 50) // 500 bytes
	a := chunk([]byte("hello"), true)
	b := zlibChunk(t, text)
	stream := append(append(bytes.Clone(a), b...), chunk([]byte("xyz"), true)...)
	bOff := uint64(len(a))
	cOff := bOff + uint64(len(b))
	end := uint64(len(stream))
	in := NewInStream(StreamInfo{Name: "DATA"}, stream, orc.CompressionZlib, 1000, dec)
	tail := append(bytes.Clone(text), "xyz"...)
	tests := []struct {
		pos  []uint64
		want []byte
	}{
		{[]uint64{0, 0}, append([]byte("hello"), tail...)},
		{[]uint64{0, 2}, append([]byte("llo"), tail...)},
		{[]uint64{0, 5}, tail}, // offset == chunk length: the next chunk
		{[]uint64{bOff, 0}, tail},
		{[]uint64{bOff, 123}, tail[123:]},
		{[]uint64{bOff, 500}, []byte("xyz")},
		{[]uint64{cOff, 1}, []byte("yz")},
		{[]uint64{end, 0}, nil},
		{[]uint64{bOff, 7}, tail[7:]}, // again in the same chunk: from the cache
	}
	for _, tc := range tests {
		if err := in.Seek(NewPositionProvider(tc.pos)); err != nil {
			t.Errorf("Seek(%v): %v", tc.pos, err)
			continue
		}
		got, err := readAll(t, in)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("Seek(%v): read %q, %v; want %q", tc.pos, got, err, tc.want)
		}
	}
	bad := [][]uint64{
		{0, 6},        // past the chunk
		{bOff, 501},   // past the chunk
		{end, 1},      // past the end
		{end + 1, 0},  // past the end
		{1, 0},        // not a chunk header: header of 0x6568 bytes > block size
		{0},           // too few numbers
		{},            // none at all
		{cOff + 1, 0}, // not a chunk header either
	}
	for _, pos := range bad {
		err := in.Seek(NewPositionProvider(pos))
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("Seek(%v): error %v, want ErrCorrupt", pos, err)
		}
	}

	// Uncompressed: one number, the byte offset.
	raw := NewInStream(StreamInfo{Name: "DATA"}, text, orc.CompressionNone, 0, nil)
	for _, off := range []uint64{0, 1, 250, 499, 500} {
		p := NewPositionProvider([]uint64{off, 77})
		if err := raw.Seek(p); err != nil {
			t.Fatalf("raw Seek(%d): %v", off, err)
		}
		if p.Remaining() != 1 {
			t.Errorf("raw Seek consumed %d positions, want 1", 2-p.Remaining())
		}
		got, err := readAll(t, raw)
		if err != nil || !bytes.Equal(got, text[off:]) {
			t.Errorf("raw Seek(%d): %d bytes, %v", off, len(got), err)
		}
	}
	if err := raw.Seek(NewPositionProvider([]uint64{501})); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("raw Seek past the end: %v, want ErrCorrupt", err)
	}
}

func TestInStreamWindow(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	var stream []byte
	var offs []uint64
	var want []byte
	for i := 0; i < 10; i++ {
		offs = append(offs, uint64(len(stream)))
		data := bytes.Repeat([]byte{byte('a' + i)}, 100)
		want = append(want, data...)
		stream = append(stream, zlibChunk(t, data)...)
	}
	length := uint64(len(stream))
	in := NewInStream(StreamInfo{Name: "DATA", Length: length}, nil, orc.CompressionZlib, 1000, dec)

	// Window over chunks 3..5.
	in.SetWindow(stream[offs[3]:offs[6]], offs[3])
	got, err := readAll(t, in)
	if !errors.Is(err, ErrOutsideWindow) || errors.Is(err, orc.ErrCorrupt) {
		t.Fatalf("reading past the window: %v, want ErrOutsideWindow only", err)
	}
	if !bytes.Equal(got, want[300:600]) {
		t.Errorf("window read %q", got)
	}
	if err := in.Seek(NewPositionProvider([]uint64{offs[4], 50})); err != nil {
		t.Fatal(err)
	}
	if c, err := in.NextChunk(); err != nil || !bytes.Equal(c, want[450:500]) {
		t.Errorf("after seek in window: %q, %v", c, err)
	}
	for _, pos := range [][]uint64{{offs[2], 0}, {offs[6], 0}, {offs[7], 3}} {
		err := in.Seek(NewPositionProvider(pos))
		if !errors.Is(err, ErrOutsideWindow) || errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("Seek(%v) outside the window: %v", pos, err)
		}
	}
	// A window ending inside a chunk.
	in.SetWindow(stream[offs[3]:offs[6]-2], offs[3])
	if _, err := readAll(t, in); !errors.Is(err, ErrOutsideWindow) {
		t.Errorf("window ending inside a chunk: %v", err)
	}
	in.SetWindow(stream[offs[3]:offs[3]+2], offs[3])
	if _, err := readAll(t, in); !errors.Is(err, ErrOutsideWindow) {
		t.Errorf("window ending inside a header: %v", err)
	}
	// A window reaching the stream's end ends with io.EOF.
	in.SetWindow(stream[offs[8]:], offs[8])
	got, err = readAll(t, in)
	if err != nil || !bytes.Equal(got, want[800:]) {
		t.Errorf("window to the end: %q, %v", got, err)
	}
	if err := in.Seek(NewPositionProvider([]uint64{length, 0})); err != nil {
		t.Errorf("seek to the end: %v", err)
	}
	// Data past the declared length is ignored.
	in.SetWindow(append(bytes.Clone(stream[offs[9]:]), 1, 2, 3), offs[9])
	if got, err = readAll(t, in); err != nil || !bytes.Equal(got, want[900:]) {
		t.Errorf("window with extra bytes: %q, %v", got, err)
	}

	// Uncompressed windows.
	raw := NewInStream(StreamInfo{Name: "DATA", Length: 100}, nil, orc.CompressionNone, 0, nil)
	data := make([]byte, 100)
	for i := range data {
		data[i] = byte(i)
	}
	raw.SetWindow(data[20:50], 20)
	got, err = readAll(t, raw)
	if !errors.Is(err, ErrOutsideWindow) || !bytes.Equal(got, data[20:50]) {
		t.Errorf("raw window: % x, %v", got, err)
	}
	for _, off := range []uint64{19, 51} {
		if err := raw.Seek(NewPositionProvider([]uint64{off})); !errors.Is(err, ErrOutsideWindow) {
			t.Errorf("raw Seek(%d) outside the window: %v", off, err)
		}
	}
	if err := raw.Seek(NewPositionProvider([]uint64{30})); err != nil {
		t.Fatal(err)
	}
	if c, err := raw.NextChunk(); err != nil || !bytes.Equal(c, data[30:50]) {
		t.Errorf("raw after seek: % x, %v", c, err)
	}
	raw.SetWindow(data[90:], 90)
	if got, err = readAll(t, raw); err != nil || !bytes.Equal(got, data[90:]) {
		t.Errorf("raw window to the end: % x, %v", got, err)
	}
}

// TestInStreamNoAllocs checks that reading and seeking a compressed stream
// allocates nothing once the buffers exist.
func TestInStreamNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewPCG(9, 10))
	data := lzoText(r, 50000)
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		t.Run(cc.kind.String(), func(t *testing.T) {
			c, _ := NewCompressor(cc.kind, 0)
			out := NewOutStream(cc.kind, 4096, c)
			var positions [][]uint64
			for i := 0; i < len(data); i += 1000 {
				positions = append(positions, out.AppendPosition(nil))
				out.Write(data[i:min(i+1000, len(data))])
			}
			out.Flush()
			dec, _ := NewDecompressor(cc.kind)
			stored := out.Bytes()
			in := NewInStream(StreamInfo{Name: "DATA"}, stored, cc.kind, 4096, dec)
			readAll(t, in) // grow the buffers
			var p PositionProvider
			allocs := testing.AllocsPerRun(10, func() {
				in.Reset(StreamInfo{Name: "DATA"}, stored)
				for {
					if _, err := in.NextChunk(); err != nil {
						break
					}
				}
				for _, pos := range positions {
					p.Reset(pos)
					if err := in.Seek(&p); err != nil {
						t.Fatal(err)
					}
					in.NextChunk()
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per pass", allocs)
			}
		})
	}
}

// FuzzInStream reads arbitrary bytes as a stream and seeks to arbitrary
// positions: no panic, chunks within the block size, errors that wrap
// ErrCorrupt.
func FuzzInStream(f *testing.F) {
	c, _ := NewCompressor(orc.CompressionZlib, 0)
	out := NewOutStream(orc.CompressionZlib, 100, c)
	out.Write(bytes.Repeat([]byte("seed "), 100))
	out.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	out.Flush()
	f.Add(byte(orc.CompressionZlib), uint16(100), out.Bytes(), uint64(0), uint64(3))
	for _, cc := range writeCodecs {
		c, _ := NewCompressor(cc.kind, cc.level)
		out := NewOutStream(cc.kind, 64, c)
		out.Write(bytes.Repeat([]byte("abcdefgh"), 30))
		out.Flush()
		f.Add(byte(cc.kind), uint16(64), out.Bytes(), uint64(0), uint64(70))
	}
	f.Add(byte(orc.CompressionLZO), uint16(1000), chunk([]byte{0x13, 'a', 'b', 0x64, 0x00, 0x11, 0, 0}, false), uint64(0), uint64(2))
	f.Add(byte(orc.CompressionNone), uint16(0), []byte{1, 2, 3}, uint64(1), uint64(0))
	kinds := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZO, orc.CompressionLZ4, orc.CompressionZstd}
	decs := make(map[orc.CompressionKind]Decompressor)
	for _, k := range kinds[1:] {
		decs[k], _ = NewDecompressor(k)
	}
	f.Fuzz(func(t *testing.T, kind byte, blockSize uint16, stream []byte, p0, p1 uint64) {
		k := kinds[int(kind)%len(kinds)]
		bs := int(blockSize) + 1
		in := NewInStream(StreamInfo{Name: "DATA"}, stream, k, bs, decs[k])
		check := func(err error) {
			if err != nil && err != io.EOF && !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("%v: error %v does not wrap ErrCorrupt", k, err)
			}
		}
		for {
			c, err := in.NextChunk()
			if err != nil {
				check(err)
				break
			}
			if len(c) == 0 || (k != orc.CompressionNone && len(c) > bs) {
				t.Fatalf("%v: chunk of %d bytes, block size %d", k, len(c), bs)
			}
		}
		check(in.Seek(NewPositionProvider([]uint64{p0, p1})))
		_, err := in.NextChunk()
		check(err)
		// The same over a window of the second half.
		half := uint64(len(stream) / 2)
		in.SetWindow(stream[half:], half)
		err = in.Seek(NewPositionProvider([]uint64{p0, p1}))
		if err != nil && !errors.Is(err, ErrOutsideWindow) {
			check(err)
		}
	})
}

func BenchmarkInStream(b *testing.B) {
	data := benchChunk()
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		b.Run(cc.kind.String(), func(b *testing.B) {
			c, _ := NewCompressor(cc.kind, 0)
			out := NewOutStream(cc.kind, 64<<10, c)
			out.Write(data)
			out.Flush()
			dec, _ := NewDecompressor(cc.kind)
			in := NewInStream(StreamInfo{}, out.Bytes(), cc.kind, 64<<10, dec)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				in.Reset(StreamInfo{}, out.Bytes())
				for {
					if _, err := in.NextChunk(); err != nil {
						break
					}
				}
			}
		})
	}
}

func TestPositionProvider(t *testing.T) {
	p := NewPositionProvider([]uint64{4, 5})
	for _, want := range []uint64{4, 5} {
		if got, err := p.Next(); err != nil || got != want {
			t.Fatalf("Next = %d, %v; want %d", got, err, want)
		}
	}
	if p.Remaining() != 0 {
		t.Errorf("Remaining = %d", p.Remaining())
	}
	if _, err := p.Next(); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("exhausted: %v, want ErrCorrupt", err)
	}
	p.Reset([]uint64{9})
	if got, err := p.Next(); err != nil || got != 9 {
		t.Errorf("after Reset: %d, %v", got, err)
	}
}

// pieceLoader serves a stream piece by piece, at least size bytes at a time,
// and scribbles over the piece it replaces, so a reader that kept bytes of
// an old piece would see garbage.
type pieceLoader struct {
	stream []byte
	size   uint64
	cur    []byte
	loads  int
}

func (l *pieceLoader) Load(off, n uint64) ([]byte, uint64, error) {
	for i := range l.cur {
		l.cur[i] = 0xEE
	}
	end := min(uint64(len(l.stream)), off+max(n, l.size))
	l.cur = bytes.Clone(l.stream[off:end])
	l.loads++
	return l.cur, off, nil
}

func TestInStreamLoader(t *testing.T) {
	dec, _ := NewDecompressor(orc.CompressionZlib)
	var stream, want []byte
	var offs []uint64
	for i := 0; i < 10; i++ {
		offs = append(offs, uint64(len(stream)))
		data := bytes.Repeat([]byte{byte('a' + i)}, 100+i)
		want = append(want, data...)
		if i%3 == 0 {
			stream = append(stream, chunk(data, true)...)
		} else {
			stream = append(stream, zlibChunk(t, data)...)
		}
	}
	for _, size := range []uint64{1, 2, 5, 40, 1000} {
		l := &pieceLoader{stream: stream, size: size}
		in := NewInStream(StreamInfo{Name: "DATA", Length: uint64(len(stream))}, nil, orc.CompressionZlib, 1000, dec)
		in.SetLoader(l)
		got, err := readAll(t, in)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("pieces of %d: %d bytes, %v", size, len(got), err)
		}
		loads := l.loads
		if err := in.Seek(NewPositionProvider([]uint64{offs[4], 50})); err != nil {
			t.Fatal(err)
		}
		if l.loads != loads {
			t.Errorf("pieces of %d: Seek loaded %d pieces before any read", size, l.loads-loads)
		}
		got, err = readAll(t, in)
		if err != nil || !bytes.Equal(got, want[4*100+6+50:]) {
			t.Fatalf("pieces of %d after a seek: %d bytes, %v", size, len(got), err)
		}
	}
	// A lazy seek past a chunk's end is corrupt at the first read.
	l := &pieceLoader{stream: stream, size: 1000}
	in := NewInStream(StreamInfo{Name: "DATA", Length: uint64(len(stream))}, nil, orc.CompressionZlib, 1000, dec)
	in.SetLoader(l)
	if err := in.Seek(NewPositionProvider([]uint64{offs[2], 500})); err != nil {
		t.Fatal(err)
	}
	if _, err := in.NextChunk(); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("reading after a seek past the chunk's end: %v, want ErrCorrupt", err)
	}
	// Uncompressed.
	raw := NewInStream(StreamInfo{Name: "DATA", Length: uint64(len(want))}, nil, orc.CompressionNone, 0, nil)
	l = &pieceLoader{stream: want, size: 7}
	raw.SetLoader(l)
	var br ByteReader
	br.Reset(raw)
	got := make([]byte, len(want))
	if err := br.ReadFull(got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("raw pieces: %v", err)
	}
	if l.loads < len(want)/7 {
		t.Errorf("%d loads for %d bytes in pieces of 7", l.loads, len(want))
	}
	if err := raw.Seek(NewPositionProvider([]uint64{3})); err != nil {
		t.Fatal(err)
	}
	if c, err := raw.NextChunk(); err != nil || !bytes.Equal(c, want[3:10]) {
		t.Errorf("raw after seek: %q, %v", c, err)
	}
}
