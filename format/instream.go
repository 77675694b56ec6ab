package format

// Reading one stream as stored in a file.
//
// # Format
//
// A stream is either raw bytes (codec NONE) or a sequence of chunks
//
//	[3-byte header][payload] [3-byte header][payload] ...
//
// as described in compression.go. A row-index position names a point in a
// stream: uncompressed, one number, the byte offset from the stream start;
// compressed, two numbers, the offset of the header of the chunk that holds
// the point (from the stream start, headers included) and the offset inside
// that chunk's decompressed bytes. The inner offset may equal the chunk's
// decompressed length, which means the point is the start of the next chunk
// (a writer records that when its buffer is exactly full).

import (
	"errors"
	"fmt"
	"io"

	"github.com/orcgo/orc"
)

// ErrOutsideWindow is wrapped by the errors of an InStream without a Loader
// asked to seek to or read bytes of its stream that are not loaded (see
// SetWindow). It means the caller planned its reads wrongly, not that the
// file is corrupt.
var ErrOutsideWindow = errors.New("format: read outside the loaded part of a stream")

// A Loader fetches parts of one stream for an InStream (SetLoader), so that
// a stream can be read a bounded number of bytes at a time.
type Loader interface {
	// Load returns stored bytes of the stream, data holding stream bytes
	// [start, start+len(data)), with start <= off and at least n bytes
	// from off (fewer only where the stream ends). The InStream drops its
	// previous bytes: the Loader may reuse or free them, so nothing handed
	// out from them before may be used after the call.
	Load(off, n uint64) (data []byte, start uint64, err error)
}

// StreamInfo says which stream an InStream reads and where it lies, for the
// locations in error messages.
type StreamInfo struct {
	Name       string // stream name, such as "DATA" or "footer"; "" if none
	FileOffset int64  // file offset of the stream's first byte
	Stripe     int    // stripe index, or -1
	Column     int    // column id, or -1
	Length     uint64 // stream length in the file; 0 means len(data) at Reset
}

// InStream is a ChunkSource over one stream as stored in the file: for a
// compressed file it parses the chunk headers and decompresses chunk by
// chunk into a buffer it reuses; for codec NONE it hands out the bytes as
// they are. It can seek to row-index positions, and it can work on a part of
// the stream only (SetWindow).
//
// An InStream is not safe for concurrent use. Chunks it returns stay valid
// until the next call on it; stored (isOriginal) chunks and raw streams
// alias the caller's data.
type InStream struct {
	info      StreamInfo
	comp      orc.CompressionKind
	blockSize int
	dec       Decompressor // a LimitDecompressor is asked for no more than blockSize
	setupErr  error
	loader    Loader // fetches bytes outside the window, or nil

	data   []byte // loaded stream bytes [start, start+len(data))
	start  uint64
	length uint64 // stream length
	pos    uint64 // stream offset of the next chunk header (or raw byte)

	buf     []byte // decompression buffer
	pending []byte // rest of the current chunk, handed out next
	skip    uint64 // bytes of the next chunk read to skip (a lazy Seek)

	// The last chunk read, so seeks inside it need no second
	// decompression: cur is its whole decompressed content, curOff its
	// header's stream offset, curEnd the offset after it. curOff is
	// noChunk when nothing is cached.
	cur    []byte
	curOff uint64
	curEnd uint64
}

const noChunk = ^uint64(0)

var _ ChunkSource = (*InStream)(nil)

// NewInStream returns a stream reader over data, the stream's stored bytes
// (data[0] is at file offset s.FileOffset). comp and blockSize come from the
// PostScript; dec must be a decompressor for comp (NewDecompressor), and may
// be nil when comp is orc.CompressionNone. One Decompressor may serve many
// InStreams that are not used concurrently.
func NewInStream(s StreamInfo, data []byte, comp orc.CompressionKind, blockSize int, dec Decompressor) *InStream {
	in := &InStream{comp: comp, blockSize: blockSize, dec: dec}
	if comp != orc.CompressionNone {
		switch {
		case dec == nil:
			in.setupErr = fmt.Errorf("format: no decompressor for codec %v", comp)
		case blockSize <= 0 || blockSize > maxChunkLength:
			in.setupErr = fmt.Errorf("format: compression block size %d not in 1..%d", blockSize, maxChunkLength)
		}
	}
	in.Reset(s, data)
	return in
}

// SetDecompressor makes the stream decompress with dec from now on, so that
// a stream can move to another goroutine's decompressor (a decompressor
// serves one goroutine at a time).
func (s *InStream) SetDecompressor(dec Decompressor) {
	s.dec = dec
	if s.comp != orc.CompressionNone && dec == nil && s.setupErr == nil {
		s.setupErr = fmt.Errorf("format: no decompressor for codec %v", s.comp)
	}
}

// Reset makes the stream read another stream, keeping its buffers and its
// codec. data holds the whole stream; if si.Length is 0 it is taken to be
// len(data), and data beyond si.Length is ignored. A si.Length beyond
// len(data) makes data a window onto the start of the stream (SetWindow).
func (s *InStream) Reset(si StreamInfo, data []byte) {
	s.info = si
	s.length = si.Length
	if s.length == 0 {
		s.length = uint64(len(data))
	}
	s.SetWindow(data, 0)
}

// SetWindow gives the stream a part of its bytes: data holds stream bytes
// [start, start+len(data)). Reading continues at start; seeking to a
// position outside the window, or reading past its end when that is not the
// end of the stream, gives an error wrapping ErrOutsideWindow.
func (s *InStream) SetWindow(data []byte, start uint64) {
	if start >= s.length {
		data = data[:0]
	} else if uint64(len(data)) > s.length-start {
		data = data[:s.length-start]
	}
	s.data = data
	s.start = start
	s.pos = start
	s.pending = nil
	s.skip = 0
	s.cur = nil
	s.curOff = noChunk
}

// SetLoader makes the stream fetch the bytes it needs outside its window
// from l instead of failing with ErrOutsideWindow; nil removes the loader.
// Reset keeps the loader.
func (s *InStream) SetLoader(l Loader) { s.loader = l }

// ensure makes stream bytes [off, off+n) part of the window, clamped to the
// stream's end, loading them when a Loader is set. Loading replaces the
// window, so the cached chunk (which may alias it) is dropped.
func (s *InStream) ensure(off, n uint64) error {
	if off+n > s.length {
		n = s.length - min(off, s.length)
	}
	if off >= s.start && off+n <= s.end() {
		return nil
	}
	if s.loader == nil {
		return s.outside(off, n)
	}
	data, start, err := s.loader.Load(off, n)
	if err != nil {
		return s.locate(err, off)
	}
	if start > off || start+uint64(len(data)) < off+n {
		return fmt.Errorf("format: internal error: %s stream (stripe %d, column %d): loader gave bytes [%d, %d) for [%d, %d)",
			s.info.Name, s.info.Stripe, s.info.Column, start, start+uint64(len(data)), off, off+n)
	}
	if uint64(len(data)) > s.length-start {
		data = data[:s.length-start]
	}
	s.data, s.start = data, start
	s.cur, s.curOff = nil, noChunk
	return nil
}

// end returns the stream offset just past the window.
func (s *InStream) end() uint64 { return s.start + uint64(len(s.data)) }

// corrupt returns an error wrapping orc.ErrCorrupt located at stream offset off.
func (s *InStream) corrupt(off uint64, format string, args ...any) error {
	return &orc.CorruptError{
		Offset: s.info.FileOffset + int64(off),
		Stripe: s.info.Stripe,
		Column: s.info.Column,
		Stream: s.info.Name,
		Msg:    fmt.Sprintf(format, args...),
	}
}

// locate fills in the location of a corruption error from below.
func (s *InStream) locate(err error, off uint64) error {
	o := int64(-1)
	if off != noChunk {
		o = s.info.FileOffset + int64(off)
	}
	return orc.WithLocation(err, o, s.info.Stripe, s.info.Column, s.info.Name)
}

// outside reports an access to stream bytes [off, off+n) beyond the window.
func (s *InStream) outside(off, n uint64) error {
	return fmt.Errorf("%w: %s stream (stripe %d, column %d): bytes [%d, %d) wanted, [%d, %d) loaded",
		ErrOutsideWindow, s.info.Name, s.info.Stripe, s.info.Column, off, off+n, s.start, s.end())
}

// NextChunk returns the next non-empty piece of the decompressed stream, or
// io.EOF at its end. Bad chunk headers and payloads give errors wrapping
// orc.ErrCorrupt with the file offset of the chunk.
func (s *InStream) NextChunk() ([]byte, error) {
	if len(s.pending) > 0 {
		c := s.pending
		s.pending = nil
		return c, nil
	}
	for {
		if s.pos >= s.length {
			return nil, io.EOF
		}
		if s.comp == orc.CompressionNone {
			if err := s.ensure(s.pos, 1); err != nil {
				return nil, err
			}
			c := s.data[s.pos-s.start:]
			s.pos = s.end()
			return c, nil
		}
		off := s.pos
		c, err := s.readChunk()
		if err != nil {
			return nil, err
		}
		if s.skip > 0 {
			if s.skip > uint64(len(c)) {
				return nil, s.corrupt(off, "position %d inside a chunk of %d bytes", s.skip, len(c))
			}
			c, s.skip = c[s.skip:], 0
		}
		if len(c) > 0 {
			return c, nil
		}
	}
}

// readChunk reads the chunk whose header is at s.pos, returns its
// decompressed bytes and moves s.pos past it.
func (s *InStream) readChunk() ([]byte, error) {
	if s.setupErr != nil {
		return nil, s.setupErr
	}
	off := s.pos
	if err := s.ensure(off, chunkHeaderSize); err != nil {
		return nil, err
	}
	rel := off - s.start
	avail := uint64(len(s.data)) - rel
	if avail < chunkHeaderSize {
		return nil, s.corrupt(off, "chunk header truncated: %d of %d bytes left in the stream", avail, chunkHeaderSize)
	}
	n, original := parseChunkHeader(s.data[rel:])
	if n > s.blockSize {
		return nil, s.corrupt(off, "chunk of %d bytes exceeds the compression block size %d", n, s.blockSize)
	}
	if err := s.ensure(off, chunkHeaderSize+uint64(n)); err != nil {
		return nil, err
	}
	rel = off - s.start
	if avail = uint64(len(s.data)) - rel; uint64(n) > avail-chunkHeaderSize {
		return nil, s.corrupt(off, "chunk of %d bytes runs past the stream's end (%d bytes left)", n, avail-chunkHeaderSize)
	}
	payload := s.data[rel+chunkHeaderSize : rel+chunkHeaderSize+uint64(n)]
	s.pos = off + chunkHeaderSize + uint64(n)
	var c []byte
	if original {
		c = payload
	} else {
		var err error
		if ldec, ok := s.dec.(LimitDecompressor); ok {
			c, err = ldec.DecompressLimit(s.buf[:0], payload, s.blockSize)
		} else {
			c, err = s.dec.Decompress(s.buf[:0], payload)
			if err == nil && len(c) > s.blockSize {
				err = errTooLarge(s.blockSize)
			}
		}
		if err != nil {
			s.curOff = noChunk
			return nil, s.locate(err, off)
		}
		if cap(c) >= cap(s.buf) {
			s.buf = c[:0]
		}
	}
	s.cur, s.curOff, s.curEnd = c, off, s.pos
	return c, nil
}

// Seek moves the stream to a row-index position, taking its numbers from p:
// one for an uncompressed stream (the byte offset), two for a compressed
// one (the chunk header's offset from the stream start, then the offset in
// the decompressed chunk, which may equal the chunk's length). A position
// outside the stream or its chunk gives an error wrapping orc.ErrCorrupt; a
// position outside the window an error wrapping ErrOutsideWindow.
// With a Loader nothing is fetched until bytes are read: the chunk is read
// then, and an inner offset past its end is reported then.
func (s *InStream) Seek(p *PositionProvider) error {
	s.pending = nil
	if s.comp == orc.CompressionNone {
		off, err := p.Next()
		if err != nil {
			return s.locate(err, noChunk)
		}
		if off > s.length {
			return s.corrupt(0, "position %d beyond the stream's %d bytes", off, s.length)
		}
		if (off < s.start || off > s.end()) && s.loader == nil {
			return s.outside(off, 0)
		}
		s.pos = off // with a Loader, the bytes are fetched when read
		return nil
	}
	if s.setupErr != nil {
		return s.setupErr
	}
	off, err := p.Next()
	if err != nil {
		return s.locate(err, noChunk)
	}
	inner, err := p.Next()
	if err != nil {
		return s.locate(err, noChunk)
	}
	if off >= s.length {
		if off == s.length && inner == 0 {
			s.pos = off
			return nil
		}
		return s.corrupt(0, "position (%d, %d) beyond the stream's %d bytes", off, inner, s.length)
	}
	s.skip = 0
	if off != s.curOff && s.loader != nil {
		// Fetched and decompressed when first read: a run of row groups
		// whose values are all null reads no byte of the stream.
		s.pos, s.skip = off, inner
		return nil
	}
	if off < s.start || off >= s.end() {
		if err := s.ensure(off, chunkHeaderSize); err != nil {
			return err
		}
	}
	var c []byte
	if off == s.curOff {
		c = s.cur
		s.pos = s.curEnd
	} else {
		s.pos = off
		if c, err = s.readChunk(); err != nil {
			return err
		}
	}
	if inner > uint64(len(c)) {
		return s.corrupt(off, "position %d inside a chunk of %d bytes", inner, len(c))
	}
	s.pending = c[inner:]
	return nil
}

// countRest returns how many bytes the rest of the stream decompresses to,
// reading it with a copy of s (which is left where it was), failing past
// limit bytes as AppendAll does.
func (s *InStream) countRest(limit int64) (int, error) {
	probe := *s
	if s.curOff != noChunk {
		probe.buf = nil // s.buf holds the chunk s caches
	}
	n := 0
	for {
		c, err := probe.NextChunk()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
		if int64(n+len(c)) > limit {
			return 0, fmt.Errorf("%w: section decompresses to more than %d bytes", orc.ErrLimit, limit)
		}
		n += len(c)
	}
}
