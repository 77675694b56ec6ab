package format

// Writing one stream of a stripe.
//
// # Format
//
// The output is what InStream reads (see compression.go): raw bytes for
// codec NONE, otherwise chunks of at most blockSize uncompressed bytes, each
// stored as [3-byte header][payload], where the payload is the compressed
// chunk, or the chunk itself with the header's isOriginal bit set when
// compression does not make it smaller. A chunk holds blockSize
// uncompressed bytes unless Flush ended it early: at the stream's end, and,
// when the writer aligns row groups, at every row-group boundary (a short
// chunk in mid-stream is legal ORC; each chunk decompresses on its own).
//
// Positions (AppendPosition) name the point where the next byte will go:
// uncompressed [bytes written]; compressed [bytes of chunks emitted so far,
// headers included; bytes buffered for the next chunk].
//
// The stored bytes are kept in pages of a quarter of what the stream holds
// (4 KiB to 1 MiB), so a stream of tens of megabytes is never copied to
// grow, and the room left unused in its last page is under a quarter of it.

import (
	"fmt"
	"io"

	"github.com/orcgo/orc"
)

// OutStream buffers one stream of a stripe in memory until the stripe is
// written. It implements Sink. An OutStream is not safe for concurrent use.
// After an error (a failing compressor), every call returns that error until
// Reset.
type OutStream struct {
	comp      orc.CompressionKind
	blockSize int
	c         Compressor

	pages [][]byte // emitted chunks, or the raw stream for codec NONE, in pages[:used]
	used  int      // pages in use: all full but the last; the rest are kept from before Reset
	n     int64    // bytes in pages
	held  int64    // capacity of all pages
	buf   []byte   // uncompressed bytes of the next chunk; cap blockSize
	cbuf  []byte   // compressor output, reused

	setupErr error // a bad configuration, kept across Reset
	err      error // sticky error
}

var _ Sink = (*OutStream)(nil)

// NewOutStream returns an empty stream. With codec NONE, blockSize and c are
// ignored and c may be nil. Otherwise c must compress with comp
// (NewCompressor) and blockSize must be in 1..2^23-1; a bad configuration
// makes every write fail. One Compressor may serve many OutStreams that are
// not used concurrently.
func NewOutStream(comp orc.CompressionKind, blockSize int, c Compressor) *OutStream {
	s := &OutStream{comp: comp, blockSize: blockSize, c: c}
	if comp != orc.CompressionNone {
		switch {
		case c == nil:
			s.setupErr = fmt.Errorf("format: no compressor for codec %v", comp)
		case blockSize <= 0 || blockSize > maxChunkLength:
			s.setupErr = fmt.Errorf("format: compression block size %d not in 1..%d", blockSize, maxChunkLength)
		}
	}
	s.err = s.setupErr
	return s
}

// Write appends p to the stream. It always consumes all of p unless the
// compressor fails.
func (s *OutStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.comp == orc.CompressionNone {
		s.store(p)
		return len(p), nil
	}
	total := len(p)
	for len(p) > 0 {
		if len(s.buf) == 0 && len(p) >= s.blockSize {
			// A whole chunk: compress it from p without copying.
			if err := s.emit(p[:s.blockSize]); err != nil {
				return total - len(p), err
			}
			p = p[s.blockSize:]
			continue
		}
		if s.buf == nil {
			s.buf = make([]byte, 0, s.blockSize)
		}
		k := copy(s.buf[len(s.buf):s.blockSize], p)
		s.buf = s.buf[:len(s.buf)+k]
		p = p[k:]
		if len(s.buf) == s.blockSize {
			if err := s.emit(s.buf); err != nil {
				return total - len(p), err
			}
			s.buf = s.buf[:0]
		}
	}
	return total, nil
}

// WriteByte appends one byte to the stream.
func (s *OutStream) WriteByte(b byte) error {
	if n := len(s.buf); n+1 < cap(s.buf) {
		// Fast path: room in the chunk buffer, which only exists for
		// compressed streams without error.
		s.buf = s.buf[:n+1]
		s.buf[n] = b
		return nil
	}
	if s.err != nil {
		return s.err
	}
	if s.comp == orc.CompressionNone {
		if k := s.used - 1; k >= 0 && len(s.pages[k]) < cap(s.pages[k]) {
			s.pages[k] = append(s.pages[k], b)
			s.n++
			return nil
		}
		s.store([]byte{b})
		return nil
	}
	if s.buf == nil {
		s.buf = make([]byte, 0, s.blockSize)
	}
	s.buf = append(s.buf, b)
	if len(s.buf) == s.blockSize {
		if err := s.emit(s.buf); err != nil {
			return err
		}
		s.buf = s.buf[:0]
	}
	return nil
}

// emit stores one chunk of uncompressed bytes.
func (s *OutStream) emit(chunk []byte) error {
	z, err := s.c.Compress(s.cbuf[:0], chunk)
	if err != nil {
		s.err = fmt.Errorf("format: %v compression: %w", s.comp, err)
		s.buf = nil // keeps WriteByte's fast path off until Reset
		return s.err
	}
	if cap(z) >= cap(s.cbuf) {
		s.cbuf = z[:0]
	}
	var h [chunkHeaderSize]byte
	if len(z) < len(chunk) {
		s.store(appendChunkHeader(h[:0], len(z), false))
		s.store(z)
	} else {
		s.store(appendChunkHeader(h[:0], len(chunk), true))
		s.store(chunk)
	}
	return nil
}

// Page sizes of the stored bytes.
const (
	firstPage = 4 << 10
	maxPage   = 1 << 20
)

// store appends p to the pages.
func (s *OutStream) store(p []byte) {
	s.n += int64(len(p))
	for len(p) > 0 {
		k := s.used - 1
		if k < 0 || len(s.pages[k]) == cap(s.pages[k]) {
			if s.used == len(s.pages) {
				// A quarter of what the stream holds, so the last
				// page's unused room stays under a quarter of it.
				size := min(max(firstPage, int(s.n/4)&^(firstPage-1)), maxPage)
				s.pages = append(s.pages, make([]byte, 0, size))
				s.held += int64(size)
			}
			s.used++
			k++
		}
		pg := s.pages[k]
		c := copy(pg[len(pg):cap(pg)], p)
		s.pages[k] = pg[:len(pg)+c]
		p = p[c:]
	}
}

// AppendPosition appends the stream's current position to dst in the form
// InStream.Seek consumes: [bytes written] for codec NONE; otherwise
// [bytes of chunks emitted, headers included; bytes buffered for the next
// chunk].
func (s *OutStream) AppendPosition(dst []uint64) []uint64 {
	if s.comp == orc.CompressionNone {
		return append(dst, uint64(s.n))
	}
	return append(dst, uint64(s.n), uint64(len(s.buf)))
}

// Flush emits the buffered bytes as a possibly short chunk, so that the next
// byte written starts a new chunk and the position is then [bytes emitted;
// 0]. Call it when the stripe ends, before WriteTo, and wherever a position
// must fall on a chunk start (aligned row groups). With nothing buffered,
// and with codec NONE, it does nothing.
func (s *OutStream) Flush() error {
	if s.err != nil {
		return s.err
	}
	if len(s.buf) > 0 {
		if err := s.emit(s.buf); err != nil {
			return err
		}
		s.buf = s.buf[:0]
	}
	return nil
}

// Size returns the bytes emitted plus those buffered, uncompressed: an
// estimate of the stream's stored size for deciding when a stripe is full.
// After Flush it is the exact stored size.
func (s *OutStream) Size() int64 { return s.n + int64(len(s.buf)) }

// Stored returns the capacity of the buffers holding the stored stream:
// the memory it takes beyond the chunk buffers.
func (s *OutStream) Stored() int64 { return s.held }

// Bytes returns the stored stream emitted so far (call Flush first for all
// of it). It is a copy when the stream spans more than one page, and stays
// valid until the next write or Reset.
func (s *OutStream) Bytes() []byte {
	switch s.used {
	case 0:
		return nil
	case 1:
		return s.pages[0]
	}
	out := make([]byte, 0, s.n)
	for _, pg := range s.pages[:s.used] {
		out = append(out, pg...)
	}
	return out
}

// WriteTo flushes the stream and writes its stored bytes to w.
func (s *OutStream) WriteTo(w io.Writer) (int64, error) {
	if err := s.Flush(); err != nil {
		return 0, err
	}
	var n int64
	for _, pg := range s.pages[:s.used] {
		k, err := w.Write(pg)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Reset empties the stream for the next stripe, keeping its buffers and
// clearing an error from the compressor.
func (s *OutStream) Reset() {
	for i := range s.pages[:s.used] {
		s.pages[i] = s.pages[i][:0]
	}
	s.used, s.n = 0, 0
	s.buf = s.buf[:0]
	s.err = s.setupErr
}
