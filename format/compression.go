package format

// Compression chunks and codecs.
//
// # Format
//
// When a file names a codec in its PostScript, every stream of every stripe,
// the footer, the metadata section, stripe footers and index streams are cut
// into chunks, each compressed on its own so a reader can start at any chunk
// header:
//
//	+--------+--------+--------+---------------------------+
//	| h0     | h1     | h2     | chunkLength payload bytes |
//	+--------+--------+--------+---------------------------+
//	header = h0 | h1<<8 | h2<<16 = chunkLength*2 + isOriginal
//
// The header is a 24-bit little-endian number: the low bit says the payload
// is stored as is (isOriginal = 1, used when compression does not shrink a
// chunk), the other 23 bits give the payload length. A chunk compressed to
// 100,000 bytes has the header 40 0d 03; five bytes stored as is have
// 0b 00 00. Neither the payload length nor the decompressed length of a chunk
// may exceed the PostScript's compression block size. With the codec NONE a
// stream is its bytes, with no headers at all.
//
// Payloads per codec: ZLIB is raw DEFLATE (RFC 1951, no zlib header or
// checksum), SNAPPY a raw snappy block (not the framing format), LZO a raw
// LZO1X block, LZ4 a raw LZ4 block (no frame, no size prefix), ZSTD one
// complete zstd frame per chunk. BROTLI is not supported, and LZO is read
// only.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/orcgo/orc"
)

const (
	// chunkHeaderSize is the length of a compression chunk header.
	chunkHeaderSize = 3
	// maxChunkLength is the largest payload a 23-bit header can describe. It
	// also bounds what Decompress produces, since Java rejects block sizes
	// of 2^23 and more, so no valid chunk decompresses to more.
	maxChunkLength = 1<<23 - 1
)

// appendChunkHeader appends the 3-byte header of a chunk whose payload is n
// bytes long; original says the payload is stored uncompressed.
func appendChunkHeader(dst []byte, n int, original bool) []byte {
	v := uint32(n) << 1
	if original {
		v |= 1
	}
	return append(dst, byte(v), byte(v>>8), byte(v>>16))
}

// putChunkHeader writes a chunk header into b[:3].
func putChunkHeader(b []byte, n int, original bool) {
	v := uint32(n) << 1
	if original {
		v |= 1
	}
	_ = b[2]
	b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16)
}

// parseChunkHeader decodes a chunk header from b[:3].
func parseChunkHeader(b []byte) (n int, original bool) {
	_ = b[2]
	v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	return int(v >> 1), v&1 != 0
}

// Decompressor decompresses the payload of one compressed chunk.
// A Decompressor is not safe for concurrent use; reuse one for many chunks.
type Decompressor interface {
	// Decompress appends the decompressed form of src to dst[:0] and returns
	// the result. Output of more than 2^23-1 bytes (more than any valid
	// chunk holds) is refused. Bad input gives an error wrapping
	// orc.ErrCorrupt.
	Decompress(dst, src []byte) ([]byte, error)
}

// LimitDecompressor is a Decompressor that can stop at an output size. Every
// Decompressor from NewDecompressor implements it; InStream uses it to hold a
// chunk to the block size.
type LimitDecompressor interface {
	Decompressor
	// DecompressLimit is Decompress failing with an error wrapping
	// orc.ErrCorrupt when the output would exceed limit bytes. It allocates
	// no more than about limit bytes (zstd: limit plus one zstd block of at
	// most 128 KiB) however large the input claims to expand, and none when
	// cap(dst) already holds the output.
	DecompressLimit(dst, src []byte, limit int) ([]byte, error)
}

// Compressor compresses the payload of one chunk.
// A Compressor is not safe for concurrent use; reuse one for many chunks.
type Compressor interface {
	// Compress appends the compressed form of src to dst[:0] and returns the
	// result. The output may be larger than src; the caller then stores src
	// as is.
	Compress(dst, src []byte) ([]byte, error)
}

// buffered is implemented by the Compressors of this package: each keeps
// an output buffer that OutStream passes back as dst when it cannot
// compress straight into its pages, so that one buffer serves every stream
// the Compressor compresses for rather than one per stream.
type buffered interface{ outBuf() *[]byte }

// outBuffer is embedded in the package's Compressors (see buffered).
type outBuffer struct{ b []byte }

func (o *outBuffer) outBuf() *[]byte { return &o.b }

// bounded is implemented by Compressors that know the largest output they
// produce for n bytes of input without allocating when dst has that
// capacity.
type bounded interface{ compressBound(n int) int }

// compressBound returns the room c needs to compress n bytes into a dst it
// does not have to grow: c's own bound, or for other Compressors a margin
// over n after which OutStream stores the chunk as is anyway.
func compressBound(c Compressor, n int) int {
	if b, ok := c.(bounded); ok {
		return b.compressBound(n)
	}
	return n + n>>6 + 64
}

// NewDecompressor returns a decompressor for a codec: ZLIB, SNAPPY, LZO, LZ4
// or ZSTD. NONE, BROTLI and unknown codecs give an error wrapping
// orc.ErrUnsupported.
func NewDecompressor(kind orc.CompressionKind) (Decompressor, error) {
	switch kind {
	case orc.CompressionZlib:
		return &zlibDecompressor{}, nil
	case orc.CompressionSnappy:
		return snappyDecompressor{}, nil
	case orc.CompressionLZO:
		return lzoDecompressor{}, nil
	case orc.CompressionLZ4:
		return lz4Decompressor{}, nil
	case orc.CompressionZstd:
		return newZstdDecompressor()
	}
	return nil, orc.Unsupportedf("decompression with codec %v", kind)
}

// NewCompressor returns a compressor for a codec: ZLIB (level 1..9), SNAPPY
// (no levels), LZ4 (levels 1..9 select the high-compression mode) or ZSTD
// (levels 1..22, mapped onto the four speeds the Go encoder offers). Level 0
// is the codec's default. LZO, BROTLI, NONE and unknown codecs give an error
// wrapping orc.ErrUnsupported; a level out of range is an ordinary error.
func NewCompressor(kind orc.CompressionKind, level int) (Compressor, error) {
	return NewBlockCompressor(kind, level, maxChunkLength)
}

// NewBlockCompressor is NewCompressor for chunks of at most blockSize bytes.
// Knowing the size lets ZSTD keep a window no larger than one chunk (each
// chunk is a frame of its own), which saves most of the default 8 MiB
// window's memory.
func NewBlockCompressor(kind orc.CompressionKind, level, blockSize int) (Compressor, error) {
	switch kind {
	case orc.CompressionZlib:
		if level == 0 {
			level = flate.DefaultCompression
		} else if level < 1 || level > 9 {
			return nil, fmt.Errorf("format: ZLIB level %d not in 1..9", level)
		}
		w, err := flate.NewWriter(nil, level)
		if err != nil {
			return nil, fmt.Errorf("format: ZLIB level %d: %w", level, err)
		}
		return &zlibCompressor{w: w}, nil
	case orc.CompressionSnappy:
		return &snappyCompressor{}, nil
	case orc.CompressionLZ4:
		if level == 0 {
			return &lz4Compressor{}, nil
		}
		if level < 1 || level > 9 {
			return nil, fmt.Errorf("format: LZ4 level %d not in 1..9", level)
		}
		return &lz4Compressor{hc: &lz4.CompressorHC{Level: lz4.Level1 << (level - 1)}}, nil
	case orc.CompressionZstd:
		el := zstd.SpeedDefault
		if level != 0 {
			if level < 1 || level > 22 {
				return nil, fmt.Errorf("format: ZSTD level %d not in 1..22", level)
			}
			el = zstd.EncoderLevelFromZstd(level)
		}
		window := zstd.MinWindowSize
		for window < blockSize && window < zstd.MaxWindowSize {
			window <<= 1
		}
		enc, err := zstd.NewWriter(nil,
			zstd.WithWindowSize(window),
			zstd.WithEncoderLevel(el),
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false),
			zstd.WithZeroFrames(true),
			// Blocks without matches are Huffman-coded by Compress
			// below, only where that pays for its decoding.
			zstd.WithAllLitEntropyCompression(false))
		if err != nil {
			return nil, fmt.Errorf("format: ZSTD encoder: %w", err)
		}
		return &zstdCompressor{enc: enc, words: el <= zstd.SpeedDefault}, nil
	}
	return nil, orc.Unsupportedf("compression with codec %v", kind)
}

// codecCorrupt reports a payload the codec rejects.
func codecCorrupt(kind orc.CompressionKind, err error) error {
	e := orc.Corruptf("%v chunk does not decompress", kind)
	e.Err = err
	return e
}

// errTooLarge reports a chunk that expands beyond the limit.
func errTooLarge(limit int) error {
	return orc.Corruptf("chunk decompresses to more than %d bytes", limit)
}

// growTo returns dst[:0] with capacity for at least n bytes, keeping dst's
// array when it is large enough.
func growTo(dst []byte, n int) []byte {
	if cap(dst) >= n {
		return dst[:0]
	}
	return make([]byte, 0, n)
}

// nextCap is the capacity to try after a buffer of capacity c proved too
// small, up to limit.
func nextCap(c, limit int) int {
	n := 2 * c
	if n < 64<<10 {
		n = 64 << 10
	}
	return min(n, limit)
}

// ---- ZLIB (raw DEFLATE) ----

type zlibDecompressor struct {
	src  bytes.Reader
	r    io.ReadCloser // implements flate.Resetter
	tiny [1]byte
}

func (z *zlibDecompressor) Decompress(dst, src []byte) ([]byte, error) {
	return z.DecompressLimit(dst, src, maxChunkLength)
}

func (z *zlibDecompressor) DecompressLimit(dst, src []byte, limit int) ([]byte, error) {
	limit = clampLimit(limit)
	z.src.Reset(src)
	if z.r == nil {
		z.r = flate.NewReader(&z.src)
	} else if err := z.r.(flate.Resetter).Reset(&z.src, nil); err != nil {
		return nil, codecCorrupt(orc.CompressionZlib, err)
	}
	dst = dst[:0]
	for {
		if len(dst) == cap(dst) {
			if len(dst) >= limit {
				// Full: the stream must end here.
				n, err := io.ReadFull(z.r, z.tiny[:])
				if n > 0 {
					return nil, errTooLarge(limit)
				}
				if err != io.EOF {
					return nil, codecCorrupt(orc.CompressionZlib, err)
				}
				return dst, nil
			}
			grown := make([]byte, len(dst), nextCap(cap(dst), limit))
			copy(grown, dst)
			dst = grown
		}
		end := min(cap(dst), limit)
		n, err := z.r.Read(dst[len(dst):end])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return nil, codecCorrupt(orc.CompressionZlib, err)
		}
	}
}

type zlibCompressor struct {
	outBuffer
	w   *flate.Writer
	out appendWriter
}

// compressBound: DEFLATE stores incompressible input in blocks of at most
// 64 KiB with 5 bytes of header each, plus a final empty block.
func (z *zlibCompressor) compressBound(n int) int { return n + 5*(n>>16+2) + 16 }

// appendWriter is an io.Writer appending to a slice.
type appendWriter struct{ b []byte }

func (a *appendWriter) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

func (z *zlibCompressor) Compress(dst, src []byte) ([]byte, error) {
	z.out.b = dst[:0]
	z.w.Reset(&z.out)
	if _, err := z.w.Write(src); err != nil {
		return nil, err
	}
	if err := z.w.Close(); err != nil {
		return nil, err
	}
	out := z.out.b
	z.out.b = nil
	return out, nil
}

// ---- SNAPPY (raw block) ----

type snappyDecompressor struct{}

func (snappyDecompressor) Decompress(dst, src []byte) ([]byte, error) {
	return snappyDecompressor{}.DecompressLimit(dst, src, maxChunkLength)
}

func (snappyDecompressor) DecompressLimit(dst, src []byte, limit int) ([]byte, error) {
	limit = clampLimit(limit)
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return nil, codecCorrupt(orc.CompressionSnappy, err)
	}
	if n > limit {
		return nil, errTooLarge(limit)
	}
	out, err := snappy.Decode(growTo(dst, n), src)
	if err != nil {
		return nil, codecCorrupt(orc.CompressionSnappy, err)
	}
	return out, nil
}

type snappyCompressor struct{ outBuffer }

func (*snappyCompressor) compressBound(n int) int { return max(snappy.MaxEncodedLen(n), n) }

func (*snappyCompressor) Compress(dst, src []byte) ([]byte, error) {
	n := snappy.MaxEncodedLen(len(src))
	if n < 0 {
		return nil, errors.New("format: snappy input too large")
	}
	// s2's fast Snappy-compatible encoder: snappy.Encode uses the slower
	// "better" mode for a ratio that is hardly better on ORC streams.
	return s2.EncodeSnappy(growTo(dst, n), src), nil
}

// ---- LZ4 (raw block) ----

type lz4Decompressor struct{}

func (lz4Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	return lz4Decompressor{}.DecompressLimit(dst, src, maxChunkLength)
}

func (lz4Decompressor) DecompressLimit(dst, src []byte, limit int) ([]byte, error) {
	limit = clampLimit(limit)
	// A raw LZ4 block does not say how large it expands: decode into the
	// capacity at hand and retry with more until the limit.
	if cap(dst) > limit {
		dst = dst[:0:limit]
	}
	if cap(dst) == 0 {
		dst = make([]byte, 0, min(limit, max(4*len(src), 4<<10)))
	}
	for {
		n, err := lz4.UncompressBlock(src, dst[:cap(dst)])
		if err == nil {
			return dst[:n], nil
		}
		if cap(dst) >= limit {
			return nil, codecCorrupt(orc.CompressionLZ4, err)
		}
		dst = make([]byte, 0, nextCap(cap(dst), limit))
	}
}

type lz4Compressor struct {
	outBuffer
	fast lz4.Compressor
	hc   *lz4.CompressorHC
}

func (*lz4Compressor) compressBound(n int) int { return lz4.CompressBlockBound(n) }

func (c *lz4Compressor) Compress(dst, src []byte) ([]byte, error) {
	dst = growTo(dst, lz4.CompressBlockBound(len(src)))
	dst = dst[:cap(dst)]
	var n int
	var err error
	if c.hc != nil {
		n, err = c.hc.CompressBlock(src, dst)
	} else {
		n, err = c.fast.CompressBlock(src, dst)
	}
	if err != nil {
		return nil, err
	}
	if n == 0 && len(src) > 0 {
		// Incompressible: return something at least as long as src so the
		// caller stores the original.
		return append(dst[:0], src...), nil
	}
	return dst[:n], nil
}

// ---- ZSTD (one frame per chunk) ----

// zstdDecompressor decompresses with decoders from zstdDecoders, one for
// each chunk: a decoder's tables and buffers (about 300 KB once it has
// decoded a chunk) are made once for the process's scans, not for each
// scan's streams and workers, and goroutines decompressing at once each
// take their own.
type zstdDecompressor struct{}

// zstdDecoders holds the ZSTD decoders not decompressing a chunk. (The
// garbage collector empties it of those that stay unused.)
var zstdDecoders sync.Pool

func newZstdDecoder() (*zstd.Decoder, error) {
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecodeAllCapLimit(true),
		// Windows above 16 MiB are refused; ORC chunks are below 8 MiB.
		zstd.WithDecoderMaxMemory(1<<24))
	if err != nil {
		return nil, fmt.Errorf("format: ZSTD decoder: %w", err)
	}
	return dec, nil
}

func newZstdDecompressor() (*zstdDecompressor, error) {
	if d, ok := zstdDecoders.Get().(*zstd.Decoder); ok {
		zstdDecoders.Put(d)
		return &zstdDecompressor{}, nil
	}
	d, err := newZstdDecoder() // fails now, not at the first chunk
	if err != nil {
		return nil, err
	}
	zstdDecoders.Put(d)
	return &zstdDecompressor{}, nil
}

// decodeAll decompresses a frame into dst with a pooled decoder.
func (z *zstdDecompressor) decodeAll(src, dst []byte) ([]byte, error) {
	d, ok := zstdDecoders.Get().(*zstd.Decoder)
	if !ok {
		var err error
		if d, err = newZstdDecoder(); err != nil {
			return nil, err
		}
	}
	out, err := d.DecodeAll(src, dst)
	zstdDecoders.Put(d)
	return out, err
}

func (z *zstdDecompressor) Decompress(dst, src []byte) ([]byte, error) {
	return z.DecompressLimit(dst, src, maxChunkLength)
}

func (z *zstdDecompressor) DecompressLimit(dst, src []byte, limit int) ([]byte, error) {
	limit = clampLimit(limit)
	// The decoder stops at cap(dst) without allocating more. Size the
	// buffer from the frame header when it gives the content size;
	// otherwise retry with more room, up to the limit. zstdSlack spare
	// bytes past the content let the decoder copy in whole words on every
	// block (it takes slower, bounds-exact copies for a block that ends
	// within that distance of cap(dst)), so the output's length, not the
	// buffer's capacity, is what the limit is checked against.
	if cap(dst) > limit+zstdSlack {
		dst = dst[: 0 : limit+zstdSlack]
	}
	var h zstd.Header
	if h.Decode(src) == nil && h.HasFCS {
		if h.FrameContentSize > uint64(limit) {
			return nil, errTooLarge(limit)
		}
		if uint64(cap(dst)) < h.FrameContentSize+zstdSlack {
			dst = make([]byte, 0, h.FrameContentSize+zstdSlack)
		}
	} else if guess := zstdGuess(len(src), limit); cap(dst) < guess+zstdSlack {
		// No content size: encoders leave it out of frames under 256
		// bytes, so a small chunk gets a small buffer, not 64 KiB.
		dst = make([]byte, 0, guess+zstdSlack)
	}
	for {
		out, err := z.decodeAll(src, dst[:0])
		if err == nil {
			if len(out) > limit {
				return nil, errTooLarge(limit)
			}
			return out, nil
		}
		if cap(dst) >= limit+zstdSlack {
			// Running out of room is reported either way, depending
			// on where the decoder noticed.
			if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				return nil, errTooLarge(limit)
			}
			return nil, codecCorrupt(orc.CompressionZstd, err)
		}
		dst = make([]byte, 0, nextCap(cap(dst), limit)+zstdSlack)
	}
}

// zstdGuess is the first buffer for a frame that does not give its content
// size: four times the frame and at least 1 KiB, within the limit. A frame
// that expands more is decoded again into a larger buffer.
func zstdGuess(n, limit int) int { return min(max(4*n, 1<<10), limit) }

// zstdSlack is the room past a chunk's content that keeps the ZSTD decoder
// on its fast copies (it needs 32 bytes).
const zstdSlack = 64

type zstdCompressor struct {
	outBuffer
	enc   *zstd.Encoder
	words bool          // try word frames (zstd_words.go): at levels up to the default
	wenc  *wordEncoder  // made on first use
	huff  huff0.Scratch // literals-only frames
	alt   []byte        // a literals-only frame being built
	probe *[1 << zstdProbeBits]uint32
}

// compressBound: a frame header of at most 18 bytes and, where blocks do
// not shrink, raw blocks of at most 128 KiB with 3-byte headers.
func (*zstdCompressor) compressBound(n int) int { return n + 3*(n/zstdMaxBlock+1) + 18 }

func (z *zstdCompressor) Compress(dst, src []byte) ([]byte, error) {
	if z.words && len(src) >= wordMinChunk && wordsLikely(src) {
		if z.wenc == nil {
			z.wenc = new(wordEncoder)
		}
		if out, ok := z.wenc.appendFrame(dst[:0], src); ok {
			if len(out) >= len(src)>>4 {
				return out, nil
			}
			// Under a sixteenth: the general encoder is fast on
			// data this repetitive, and may find what matching whole
			// values misses (runs of bytes that do not start on an
			// 8-byte boundary). The smaller frame is kept.
			z.alt = append(z.alt[:0], out...)
			g := z.enc.EncodeAll(src, dst[:0])
			if len(g) <= len(z.alt) {
				return g, nil
			}
			return append(g[:0], z.alt...), nil
		}
	}
	alt := false
	if len(src) >= zstdProbeMin && z.fewRepeats(src) {
		// Hardly any repeats to match: the match finder would spend most
		// of the time (random UUID text: 2.2 ms a 256 KiB chunk, against
		// 0.5 ms for its literals) for a frame larger than the literals
		// alone. Those are taken when they save a quarter.
		z.alt = z.appendLiteralsFrame(z.alt[:0], src)
		if len(z.alt) <= len(src)-len(src)>>zstdMinLiteralGain {
			return append(dst[:0], z.alt...), nil
		}
		alt = true
	}
	out := z.enc.EncodeAll(src, dst[:0])
	if len(src) >= zstdMinLiteralBlock && len(out) > len(src)-len(src)>>zstdMinLiteralGain {
		if alt {
			if len(z.alt) < len(out) {
				out = append(out[:0], z.alt...)
			}
			return out, nil
		}
		// Less than a quarter saved: the encoder may have stored blocks
		// without matches raw (below its best level it never
		// Huffman-codes the literals of such a block). Random UUID text,
		// 16 hex digits and dashes with few repeats, then came out barely
		// smaller than it went in, where the reference zstd halves it. A
		// frame of Huffman-coded literals alone may do better.
		z.alt = z.appendLiteralsFrame(z.alt[:0], src)
		if len(z.alt) < len(out) {
			out = append(out[:0], z.alt...)
		}
	}
	return out, nil
}

// Repeat probe.
//
// fewRepeats samples zstdProbeWindows windows of zstdProbeWindow bytes
// spread over src and counts the positions whose next 6 bytes already
// occurred in what was sampled before (one candidate per hash slot, so a
// lower bound). Under one position in 64 means that matches would cover
// little of the chunk, as in random hex, while text, repeated keys and
// integer runs repeat at far more positions.
const (
	zstdProbeBits    = 12
	zstdProbeWindow  = 2 << 10
	zstdProbeWindows = 4
	zstdProbeMin     = 4 * zstdProbeWindow * zstdProbeWindows // smaller chunks are not probed
)

func (z *zstdCompressor) fewRepeats(src []byte) bool {
	if z.probe == nil {
		z.probe = new([1 << zstdProbeBits]uint32)
	}
	t := z.probe
	clear(t[:])
	const mask = 1<<48 - 1
	// Few means under one position in 64 of all probed. Past that many
	// repeats the answer is no whatever the rest holds, and text, numbers
	// and anything else the encoder does well on get there within a few
	// hundred positions: the probe stops.
	const enough = zstdProbeWindows * zstdProbeWindow / 64
	repeats := 0
	for w := range zstdProbeWindows {
		start := (len(src) - zstdProbeWindow - 8) * w / (zstdProbeWindows - 1)
		for i := start; i < start+zstdProbeWindow; i++ {
			v := binary.LittleEndian.Uint64(src[i:]) & mask
			h := uint32((v * 0x9e3779b97f4a7c15) >> (64 - zstdProbeBits))
			if p := t[h]; p != 0 && binary.LittleEndian.Uint64(src[p-1:])&mask == v {
				if repeats++; repeats >= enough {
					return false
				}
			}
			t[h] = uint32(i + 1)
		}
	}
	return true
}

// Literals-only frames.
//
// A zstd block whose sequences section says "no sequences" decodes to its
// literals, so a frame of such blocks, each a Huffman-coded literals
// section, is a standard frame (RFC 8878) that any zstd decoder reads:
//
//	frame:   magic fd2fb528 (LE) | descriptor | content size | blocks
//	block:   3-byte header (last | type<<1 | size<<3) | content
//	content: literals header | Huffman table + jump table + 4 streams | 0x00
//
// The descriptor sets Single_Segment (no window descriptor; the window is
// the content size) with a 2-byte (size - 256) or 4-byte content size, and
// no checksum or dictionary. Blocks hold at most 128 KiB of content.
//
// Design note: a block is Huffman-coded only when that saves a quarter of it
// (zstdMinLiteralGain); otherwise it is stored raw (type 0). Decoding
// Huffman-coded literals costs far more than copying stored bytes, so the
// gain must pay for it: text from a small alphabet (hex, UUIDs) halves, and
// is coded; bit-packed dates and decimal varints shrink by 2 to 12%, and stay
// raw. libzstd's rule (1/64) and the Go encoder's (1/16, with
// WithAllLitEntropyCompression) were measured on the bench's lineitem (SF
// 0.5): they saved 0.6% and 1.2% of the file and made a scan of its date
// and decimal columns 35% and 19% slower (best of 9: 67.6 and 59.6 ms
// against 49.9 ms).
const (
	zstdMaxBlock        = 128 << 10 // largest block content (Block_Maximum_Size)
	zstdMinLiteralBlock = 1 << 10   // smaller blocks are stored raw
	zstdMinLiteralGain  = 2         // a coded block saves at least len >> this
)

// appendLiteralsFrame appends to dst a zstd frame holding src as
// Huffman-coded literals, with no matches.
func (z *zstdCompressor) appendLiteralsFrame(dst, src []byte) []byte {
	n := len(src)
	dst = appendFrameHeader(dst, n) // callers pass at least zstdMinLiteralBlock bytes
	for off := 0; off < n; off += zstdMaxBlock {
		blk := src[off:min(n, off+zstdMaxBlock)]
		last := uint32(0)
		if off+len(blk) == n {
			last = 1
		}
		var lits []byte
		if len(blk) >= zstdMinLiteralBlock && huffmanMayPay(blk) {
			z.huff.Reuse = huff0.ReusePolicyNone
			var err error
			if lits, _, err = huff0.Compress4X(blk, &z.huff); err != nil {
				lits = nil
			}
		}
		// literals header, Size_Format 10 (14-bit sizes, 4 bytes) or 11
		// (18-bit sizes, 5 bytes); 4 streams either way
		hdr := 5
		if len(blk) < 1<<14 && len(lits) < 1<<14 {
			hdr = 4
		}
		if lits == nil || hdr+len(lits)+1 > len(blk)-len(blk)>>zstdMinLiteralGain {
			v := last | 0<<1 | uint32(len(blk))<<3
			dst = append(dst, byte(v), byte(v>>8), byte(v>>16))
			dst = append(dst, blk...)
			continue
		}
		size := hdr + len(lits) + 1
		v := last | 2<<1 | uint32(size)<<3
		dst = append(dst, byte(v), byte(v>>8), byte(v>>16))
		if hdr == 4 {
			h := uint32(2) | 2<<2 | uint32(len(blk))<<4 | uint32(len(lits))<<18
			dst = append(dst, byte(h), byte(h>>8), byte(h>>16), byte(h>>24))
		} else {
			h := uint64(2) | 3<<2 | uint64(len(blk))<<4 | uint64(len(lits))<<22
			dst = append(dst, byte(h), byte(h>>8), byte(h>>16), byte(h>>24), byte(h>>32))
		}
		dst = append(dst, lits...)
		dst = append(dst, 0) // Number_of_Sequences = 0
	}
	return dst
}

// huffmanMayPay reports whether Huffman coding might save a quarter of
// blk, judged by the entropy of the byte values at every 7th position: a
// Huffman code takes at least that many bits a byte, so above 6.25 bits
// (some margin over 6, for the sample) it cannot save a quarter. Without
// it, every chunk of random or bit-packed numbers paid for a Huffman
// table and a full coding pass (7-8 times the cost of the encoder's own
// pass over such a chunk) only to be stored raw.
//
// The step is odd so that it meets every byte of records 2, 4 or 8 bytes
// long (an even step saw only some: every 4th byte of 8-byte values is
// bytes 0 and 4 of each, which may be all noise while the rest repeat).
func huffmanMayPay(blk []byte) bool {
	const step = 7
	var count [256]uint32
	n := 0
	for i := 0; i < len(blk); i += step {
		count[blk[i]]++
		n++
	}
	if n < 256 {
		return true
	}
	// bits = n*log2(n) - sum(c*log2(c))
	var sum float64
	for _, c := range count {
		if c > 1 {
			f := float64(c)
			sum += f * math.Log2(f)
		}
	}
	f := float64(n)
	bits := (f*math.Log2(f) - sum) / f
	return bits <= 6.25
}

// clampLimit bounds a caller's output limit to [0, maxChunkLength].
func clampLimit(limit int) int {
	return max(0, min(limit, maxChunkLength))
}
