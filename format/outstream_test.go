package format

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

func TestOutStreamFraming(t *testing.T) {
	// NONE: no headers at all.
	raw := NewOutStream(orc.CompressionNone, 0, nil)
	raw.Write([]byte{1, 2})
	raw.WriteByte(3)
	if got := raw.AppendPosition(nil); len(got) != 1 || got[0] != 3 {
		t.Errorf("NONE position %v, want [3]", got)
	}
	raw.Flush()
	if !bytes.Equal(raw.Bytes(), []byte{1, 2, 3}) || raw.Size() != 3 {
		t.Errorf("NONE stream % x, size %d", raw.Bytes(), raw.Size())
	}

	// Five bytes that do not compress are stored with the isOriginal bit:
	// header 0b 00 00.
	c, _ := NewCompressor(orc.CompressionZlib, 0)
	s := NewOutStream(orc.CompressionZlib, 1000, c)
	s.Write([]byte("hello"))
	if s.Size() != 5 || len(s.Bytes()) != 0 {
		t.Errorf("before Flush: size %d, %d bytes emitted", s.Size(), len(s.Bytes()))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x0b, 0, 0, 'h', 'e', 'l', 'l', 'o'}; !bytes.Equal(s.Bytes(), want) {
		t.Errorf("stored chunk % x, want % x", s.Bytes(), want)
	}
	// A compressible chunk is stored compressed: low header bit clear.
	s.Reset()
	s.Write(make([]byte, 1000))
	b := s.Bytes()
	n, orig := parseChunkHeader(b)
	if orig || n != len(b)-3 || n >= 100 {
		t.Errorf("1000 zeros: header says %d bytes, original %v; stream %d bytes", n, orig, len(b))
	}
	// The full buffer went out at once; Flush adds nothing.
	size := len(b)
	s.Flush()
	if len(s.Bytes()) != size {
		t.Errorf("Flush after a full chunk added %d bytes", len(s.Bytes())-size)
	}
	var w bytes.Buffer
	if n, err := s.WriteTo(&w); err != nil || n != int64(size) || !bytes.Equal(w.Bytes(), s.Bytes()) {
		t.Errorf("WriteTo: %d, %v", n, err)
	}
}

// decodeStream reads back a stored stream.
func decodeStream(t *testing.T, kind orc.CompressionKind, blockSize int, stream []byte) []byte {
	t.Helper()
	var dec Decompressor
	if kind != orc.CompressionNone {
		dec, _ = NewDecompressor(kind)
	}
	got, err := readAll(t, NewInStream(StreamInfo{Name: "DATA"}, stream, kind, blockSize, dec))
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	return got
}

// chunkLengths checks a stored stream's framing and returns the header
// offsets and uncompressed lengths of its chunks.
func chunkOffsets(t *testing.T, kind orc.CompressionKind, blockSize int, stream []byte) (offs []uint64, lens []int) {
	t.Helper()
	dec, _ := NewDecompressor(kind)
	for off := 0; off < len(stream); {
		n, orig := parseChunkHeader(stream[off:])
		if n > blockSize {
			t.Fatalf("chunk at %d: %d bytes > block size %d", off, n, blockSize)
		}
		payload := stream[off+3 : off+3+n]
		ulen := n
		if !orig {
			out, err := dec.Decompress(nil, payload)
			if err != nil {
				t.Fatalf("chunk at %d: %v", off, err)
			}
			if len(out) <= n {
				t.Errorf("chunk at %d stored compressed though %d >= %d", off, n, len(out))
			}
			ulen = len(out)
		}
		offs = append(offs, uint64(off))
		lens = append(lens, ulen)
		off += 3 + n
	}
	return offs, lens
}

func TestOutStreamRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	inputs := testInputs(r)
	codecs := append([]struct {
		kind  orc.CompressionKind
		level int
	}{{orc.CompressionNone, 0}}, writeCodecs...)
	for _, cc := range codecs {
		t.Run(codecName(cc.kind, cc.level), func(t *testing.T) {
			var c Compressor
			if cc.kind != orc.CompressionNone {
				c, _ = NewCompressor(cc.kind, cc.level)
			}
			for _, bs := range []int{1, 7, 100, 4096, 65536} {
				s := NewOutStream(cc.kind, bs, c)
				for _, in := range inputs {
					if bs < 100 && len(in.data) > 3000 {
						in.data = in.data[:3000] // tiny chunks: keep it quick
					}
					s.Reset()
					// Mixed writes: single bytes, short and long slices.
					for p := in.data; len(p) > 0; {
						switch r.IntN(3) {
						case 0:
							s.WriteByte(p[0])
							p = p[1:]
						case 1:
							k := min(len(p), r.IntN(50))
							s.Write(p[:k])
							p = p[k:]
						default:
							k := min(len(p), r.IntN(3*bs+1))
							s.Write(p[:k])
							p = p[k:]
						}
					}
					if s.Size() < 0 {
						t.Fatal("negative size")
					}
					if err := s.Flush(); err != nil {
						t.Fatal(err)
					}
					if s.Size() != int64(len(s.Bytes())) {
						t.Errorf("after Flush, Size %d != %d stored bytes", s.Size(), len(s.Bytes()))
					}
					got := decodeStream(t, cc.kind, bs, s.Bytes())
					if !bytes.Equal(got, in.data) {
						t.Fatalf("block size %d, %s: round trip differs (%d bytes, want %d)", bs, in.name, len(got), len(in.data))
					}
					if cc.kind == orc.CompressionNone {
						continue
					}
					_, lens := chunkOffsets(t, cc.kind, bs, s.Bytes())
					for i, l := range lens {
						if l != bs && i != len(lens)-1 {
							t.Fatalf("block size %d, %s: chunk %d holds %d bytes", bs, in.name, i, l)
						}
					}
					if in.name == "random" && len(s.Bytes()) > len(in.data)+3*len(lens) {
						t.Errorf("%s: random data grew to %d bytes", in.name, len(s.Bytes()))
					}
				}
			}
		})
	}
}

// TestOutStreamSeekEveryPosition records a position before each of many
// small writes, then seeks an InStream to each and checks the bytes that
// follow. It also checks the form of a position at a full buffer: the
// previous chunk with an offset equal to its length.
func TestOutStreamSeekEveryPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	codecs := append([]struct {
		kind  orc.CompressionKind
		level int
	}{{orc.CompressionNone, 0}}, writeCodecs...)
	for _, cc := range codecs {
		t.Run(codecName(cc.kind, cc.level), func(t *testing.T) {
			var c Compressor
			var dec Decompressor
			if cc.kind != orc.CompressionNone {
				c, _ = NewCompressor(cc.kind, cc.level)
				dec, _ = NewDecompressor(cc.kind)
			}
			const bs = 1000
			s := NewOutStream(cc.kind, bs, c)
			var data []byte
			var positions [][]uint64
			var at []int
			for len(data) < 30000 {
				positions = append(positions, s.AppendPosition(nil))
				at = append(at, len(data))
				var p []byte
				switch r.IntN(4) {
				case 0:
					p = randBytes(r, r.IntN(20), 256)
				case 1:
					p = make([]byte, r.IntN(300))
				case 2:
					p = lzoText(r, r.IntN(100))
				default:
					p = make([]byte, bs-len(data)%bs) // fill the buffer exactly
				}
				if len(p) == 1 {
					s.WriteByte(p[0])
				} else {
					s.Write(p)
				}
				data = append(data, p...)
			}
			positions = append(positions, s.AppendPosition(nil))
			at = append(at, len(data))
			s.Flush()
			stream := s.Bytes()
			in := NewInStream(StreamInfo{Name: "DATA"}, stream, cc.kind, bs, dec)
			var p PositionProvider
			for i, pos := range positions {
				p.Reset(pos)
				if err := in.Seek(&p); err != nil {
					t.Fatalf("Seek(%v): %v", pos, err)
				}
				if p.Remaining() != 0 {
					t.Fatalf("Seek(%v) left %d positions", pos, p.Remaining())
				}
				want := data[at[i]:]
				got, err := readAll(t, in)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("after Seek(%v) (byte %d): %d bytes, %v; want %d", pos, at[i], len(got), err, len(want))
				}
			}
			if cc.kind == orc.CompressionNone {
				return
			}
			// [previous chunk, its length] is the same point as [chunk, 0].
			offs, lens := chunkOffsets(t, cc.kind, bs, stream)
			total := 0
			for k := 1; k <= len(offs); k++ {
				total += lens[k-1]
				p.Reset([]uint64{offs[k-1], uint64(lens[k-1])})
				if err := in.Seek(&p); err != nil {
					t.Fatalf("Seek to the end of chunk %d: %v", k-1, err)
				}
				got, err := readAll(t, in)
				if err != nil || !bytes.Equal(got, data[total:]) {
					t.Fatalf("after the end of chunk %d: %d bytes, %v", k-1, len(got), err)
				}
			}
		})
	}
}

// failingCompressor fails after ok successful calls.
type failingCompressor struct{ ok int }

var errCompress = errors.New("compressor broke")

func (f *failingCompressor) Compress(dst, src []byte) ([]byte, error) {
	if f.ok == 0 {
		return nil, errCompress
	}
	f.ok--
	return append(dst[:0], src...), nil
}

func TestOutStreamErrors(t *testing.T) {
	s := NewOutStream(orc.CompressionZlib, 10, &failingCompressor{ok: 1})
	if _, err := s.Write(make([]byte, 15)); err != nil {
		t.Fatalf("first chunk: %v", err)
	}
	if n, err := s.Write(make([]byte, 10)); !errors.Is(err, errCompress) || n != 5 {
		t.Fatalf("second chunk: %d, %v", n, err)
	}
	// Sticky.
	if err := s.WriteByte(1); !errors.Is(err, errCompress) {
		t.Errorf("WriteByte after failure: %v", err)
	}
	if _, err := s.Write([]byte{1}); !errors.Is(err, errCompress) {
		t.Errorf("Write after failure: %v", err)
	}
	if err := s.Flush(); !errors.Is(err, errCompress) {
		t.Errorf("Flush after failure: %v", err)
	}
	if _, err := s.WriteTo(&bytes.Buffer{}); !errors.Is(err, errCompress) {
		t.Errorf("WriteTo after failure: %v", err)
	}
	// Reset clears it.
	s.c = &failingCompressor{ok: 5}
	s.Reset()
	if err := s.WriteByte(1); err != nil {
		t.Errorf("after Reset: %v", err)
	}
	for _, bs := range []int{0, -5, maxChunkLength + 1} {
		c, _ := NewCompressor(orc.CompressionZlib, 0)
		s := NewOutStream(orc.CompressionZlib, bs, c)
		if _, err := s.Write([]byte{1}); err == nil {
			t.Errorf("block size %d: Write succeeded", bs)
		}
		if err := s.WriteByte(1); err == nil {
			t.Errorf("block size %d: WriteByte succeeded", bs)
		}
		s.Reset()
		if err := s.Flush(); err == nil {
			t.Errorf("block size %d: error gone after Reset", bs)
		}
	}
	s = NewOutStream(orc.CompressionZstd, 100, nil)
	if _, err := s.Write([]byte{1}); err == nil {
		t.Errorf("no compressor: Write succeeded")
	}
}

// TestOutStreamNoAllocs checks that writing chunks after Reset allocates
// nothing per chunk.
func TestOutStreamNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data := benchChunk()[:64<<10]
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		t.Run(cc.kind.String(), func(t *testing.T) {
			c, _ := NewCompressor(cc.kind, 0)
			s := NewOutStream(cc.kind, 4096, c)
			run := func() {
				s.Reset()
				for i := 0; i < len(data); i += 100 {
					s.Write(data[i:min(i+100, len(data))])
				}
				for _, b := range data[:5000] {
					s.WriteByte(b)
				}
				s.Flush()
			}
			run()
			run()
			if allocs := testing.AllocsPerRun(5, run); allocs != 0 {
				t.Errorf("%v allocations writing %d chunks", allocs, len(data)/4096+2)
			}
		})
	}
}

func BenchmarkOutStream(b *testing.B) {
	data := benchChunk()
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		b.Run(cc.kind.String(), func(b *testing.B) {
			c, _ := NewCompressor(cc.kind, 0)
			s := NewOutStream(cc.kind, 64<<10, c)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				s.Reset()
				for i := 0; i < len(data); i += 1000 {
					s.Write(data[i:min(i+1000, len(data))])
				}
				s.Flush()
			}
		})
	}
}

// A stream of several megabytes spans many pages: Bytes, WriteTo, Size and
// positions agree with the bytes written, for codec NONE byte by byte and
// in pieces, and for a compressed stream read back through InStream.
func TestOutStreamPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	data := make([]byte, 5<<20+123)
	for i := range data {
		data[i] = byte(rng.IntN(16))
	}
	none := NewOutStream(orc.CompressionNone, 0, nil)
	for i := 0; i < len(data); {
		if rng.IntN(2) == 0 {
			none.WriteByte(data[i])
			i++
			continue
		}
		k := min(len(data)-i, rng.IntN(100_000))
		none.Write(data[i : i+k])
		i += k
	}
	if got := none.AppendPosition(nil); got[0] != uint64(len(data)) || none.Size() != int64(len(data)) {
		t.Fatalf("position %v, size %d; want %d", got, none.Size(), len(data))
	}
	if s := none.Stored(); s < int64(len(data)) || s > int64(len(data))+maxPage {
		t.Fatalf("Stored() = %d for %d bytes", s, len(data))
	}
	var w bytes.Buffer
	if n, err := none.WriteTo(&w); err != nil || n != int64(len(data)) || !bytes.Equal(w.Bytes(), data) || !bytes.Equal(none.Bytes(), data) {
		t.Fatalf("WriteTo wrote %d bytes, %v; contents equal: %v, %v", n, err, bytes.Equal(w.Bytes(), data), bytes.Equal(none.Bytes(), data))
	}
	none.Reset()
	none.Write(data[:10])
	if !bytes.Equal(none.Bytes(), data[:10]) || none.Size() != 10 {
		t.Fatalf("after Reset: % x", none.Bytes())
	}

	c, _ := NewCompressor(orc.CompressionZstd, 0)
	z := NewOutStream(orc.CompressionZstd, 64<<10, c)
	z.Write(data)
	var zw bytes.Buffer
	if _, err := z.WriteTo(&zw); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(zw.Bytes(), z.Bytes()) || int64(zw.Len()) != z.Size() {
		t.Fatalf("compressed: WriteTo %d bytes, Bytes %d, Size %d", zw.Len(), len(z.Bytes()), z.Size())
	}
	dec, _ := NewDecompressor(orc.CompressionZstd)
	got, err := readAll(t, NewInStream(StreamInfo{Name: "DATA"}, zw.Bytes(), orc.CompressionZstd, 64<<10, dec))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("compressed stream reads back %d bytes (%v), want %d", len(got), err, len(data))
	}
}

// Streams drawing on a PagePool write the same bytes as streams without
// one, and a stream written again after Release takes every page and its
// chunk buffer from the pool: nothing is allocated for the bytes.
func TestOutStreamPool(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data := benchChunk()
	for _, cc := range writeCodecs {
		if cc.level != 0 {
			continue
		}
		t.Run(cc.kind.String(), func(t *testing.T) {
			c, _ := NewCompressor(cc.kind, 0)
			write := func(s *OutStream) {
				for i := 0; i < len(data); i += 1000 {
					s.Write(data[i:min(i+1000, len(data))])
					if i%20000 == 0 {
						s.Flush() // short chunks, as aligned row groups make them
					}
				}
				s.Flush()
			}
			plain := NewOutStream(cc.kind, 16<<10, c)
			write(plain)
			want := append([]byte(nil), plain.Bytes()...)
			pool := NewPagePool()
			s := NewPooledOutStream(cc.kind, 16<<10, c, pool)
			write(s)
			if !bytes.Equal(s.Bytes(), want) {
				t.Fatal("pooled stream differs from a plain one")
			}
			held := s.Stored()
			s.Release()
			if s.Size() != 0 || s.Stored() != 0 {
				t.Fatalf("after Release: size %d, stored %d", s.Size(), s.Stored())
			}
			if got := pool.Held(); got < held {
				t.Fatalf("pool holds %d bytes, the stream gave %d", got, held)
			}
			run := func() {
				write(s)
				s.Release()
			}
			if allocs := testing.AllocsPerRun(3, run); allocs != 0 {
				t.Errorf("%v allocations writing a stream again from the pool", allocs)
			}
			write(s)
			if !bytes.Equal(s.Bytes(), want) {
				t.Fatal("stream written again from the pool differs")
			}
			s.Release()
			// The chunk buffer went round since the last Trim, so the
			// first Trim keeps it; the second, with nothing taken in
			// between, drops it.
			pool.Trim()
			if got := pool.Held(); got != 16<<10 {
				t.Fatalf("after Trim the pool holds %d bytes, want the 16384 of the chunk buffer", got)
			}
			pool.Trim()
			if pool.Held() != 0 {
				t.Fatalf("after a second Trim the pool holds %d bytes", pool.Held())
			}
		})
	}
}

// TestPagePoolTrimKeepsUsedBuffers checks Trim's low-water mark: of each
// capacity it drops the free buffers not taken out since the last Trim
// and keeps those that went round, and it drops every free page.
func TestPagePoolTrimKeepsUsedBuffers(t *testing.T) {
	p := NewPagePool()
	for range 5 {
		p.putBuf(make([]byte, 0, 4<<10))
	}
	p.putBuf(make([]byte, 0, 8<<10))
	p.putPage(make([]byte, 0, firstPage))
	p.Trim() // the pool's first: nothing was taken, but all came in since
	if got := p.Held(); got != 5*4<<10+8<<10 {
		t.Fatalf("after the first Trim the pool holds %d bytes", got)
	}
	// Three 4 KiB buffers go round: at most three out at once.
	var out [][]byte
	for range 3 {
		out = append(out, p.getBuf(4<<10))
	}
	for _, b := range out {
		p.putBuf(b)
	}
	p.getBuf(4 << 10) // and one again
	p.putBuf(make([]byte, 0, 4<<10))
	p.Trim()
	if got, want := p.Held(), int64(3*4<<10); got != want {
		t.Fatalf("after Trim the pool holds %d bytes, want %d: the three 4 KiB buffers used, not the 8 KiB one or the two unused", got, want)
	}
	for range 3 {
		if p.getBuf(4<<10) == nil {
			t.Fatal("a kept buffer is missing")
		}
	}
	if p.getBuf(4<<10) != nil || p.getBuf(8<<10) != nil {
		t.Fatal("Trim kept a buffer it should have dropped")
	}
	if p.Held() != 0 {
		t.Fatalf("the pool holds %d bytes with every buffer taken", p.Held())
	}
}

// DetachPages hands over the bytes WriteTo would write, in order, empties
// the stream for the next stripe, and lends the pool's pages until Give:
// while they are out, a miss does not drop free pages (they are coming
// back, and dropping them made garbage at every stripe's start).
func TestOutStreamDetachPages(t *testing.T) {
	data := benchChunk()
	c, _ := NewCompressor(orc.CompressionZstd, 0)
	write := func(s *OutStream) {
		for i := 0; i < len(data); i += 1000 {
			s.Write(data[i:min(i+1000, len(data))])
		}
		s.Flush()
	}
	plain := NewOutStream(orc.CompressionZstd, 16<<10, c)
	write(plain)
	want := bytes.Clone(plain.Bytes())
	pool := NewPagePool()
	s := NewPooledOutStream(orc.CompressionZstd, 16<<10, c, pool)
	for round := range 2 {
		write(s)
		pages, own, err := s.DetachPages(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Join(pages, nil); !bytes.Equal(got, want) {
			t.Fatalf("round %d: detached pages hold %d bytes, the stream %d", round, len(got), len(want))
		}
		if len(own) != len(pages) || len(pages) < 2 {
			t.Fatalf("round %d: %d pages, %d of the pool's; want several, all", round, len(pages), len(own))
		}
		if s.Size() != 0 || s.Stored() != 0 {
			t.Fatalf("round %d: after DetachPages: size %d, stored %d", round, s.Size(), s.Stored())
		}
		if pool.lent == 0 {
			t.Fatalf("round %d: nothing lent", round)
		}
		// A stream filling while the pages are out takes new ones and
		// leaves the pool's free pages alone.
		pool.putPage(make([]byte, 0, 64*firstPage))
		held := pool.Held()
		if pool.getPage(firstPage) != nil || pool.Held() != held {
			t.Fatalf("round %d: a miss with pages lent changed the pool: %d bytes, was %d", round, pool.Held(), held)
		}
		for _, pg := range own {
			pool.Give(pg)
		}
		if pool.lent != 0 {
			t.Fatalf("round %d: %d bytes still lent", round, pool.lent)
		}
		pool.Trim()
	}
}

// TrimTo keeps the smallest free pages up to its budget.
func TestPagePoolTrimTo(t *testing.T) {
	p := NewPagePool()
	for _, n := range []int{8, 1, 2, 1, 4} {
		p.putPage(make([]byte, 0, n*firstPage))
	}
	p.TrimTo(4 * firstPage)
	if got := p.Held(); got != 4*firstPage {
		t.Fatalf("held %d, want the two 1-page and the 2-page pages (%d)", got, 4*firstPage)
	}
	for _, n := range []int{1, 1, 2} {
		if pg := p.getPage(n * firstPage); pg == nil || cap(pg) != n*firstPage {
			t.Fatalf("a kept page of %d is missing", n*firstPage)
		}
	}
	if p.Held() != 0 {
		t.Fatalf("held %d after taking every kept page", p.Held())
	}
}

func TestPagePoolTrimPagesTo(t *testing.T) {
	p := NewPagePool()
	for _, n := range []int{8, 1, 2, 1, 4} {
		p.putPage(make([]byte, 0, n*firstPage))
	}
	p.putBuf(make([]byte, 0, 4<<10))
	if got, want := p.FreePages(), int64(16*firstPage); got != want {
		t.Fatalf("FreePages %d, want %d (the buffer is not a page)", got, want)
	}
	p.TrimPagesTo(5 * firstPage)
	if got, want := p.FreePages(), int64(4*firstPage); got != want {
		t.Fatalf("FreePages %d after TrimPagesTo(5 pages), want the 1-, 1- and 2-page pages (%d): the largest go first", got, want)
	}
	if got, want := p.Held(), int64(4*firstPage+4<<10); got != want {
		t.Fatalf("Held %d, want the kept pages and the untouched buffer (%d)", got, want)
	}
	if p.getBuf(4<<10) == nil {
		t.Fatal("TrimPagesTo dropped a chunk buffer")
	}
	p.TrimPagesTo(0)
	if p.Held() != 0 || p.FreePages() != 0 {
		t.Fatalf("held %d, free pages %d after TrimPagesTo(0)", p.Held(), p.FreePages())
	}
}

// TestSmallFirstPageCounted: a stream's small first page counts as the
// size it asked for whether or not the pool had a page to give it, so
// that what a stream counts as holding (Stored, Settle), and with it where
// a writer cuts its stripes, does not depend on what the pool held at the
// time: a parallel writer's pool gets its pages back from the background
// stripe writes at no fixed time, and a stripe cut by it made the parallel
// file differ from the serial one now and then.
func TestSmallFirstPageCounted(t *testing.T) {
	stored := func(withFree bool) int64 {
		pool := NewPagePool()
		if withFree {
			// A page given back to the pool, as a finished stripe's are.
			s := NewPooledOutStream(orc.CompressionNone, 0, nil, pool)
			s.Write(make([]byte, 5000))
			s.Release()
		}
		s := NewPooledOutStream(orc.CompressionNone, 0, nil, pool)
		s.Write([]byte("a few bytes"))
		return s.Stored()
	}
	if a, b := stored(false), stored(true); a != b {
		t.Errorf("a stream of a few bytes counts %d bytes from an empty pool, %d from a pool with free pages", a, b)
	}
}
