package format

// A compressed footer or metadata section is kept as it is stored, with a
// table of where each of its chunks starts in it and in the decompressed
// bytes: ReadTail decompresses it whole once, to index it and build the
// schema, and drops the decompressed bytes; a statistics entry asked for
// later is cut from the chunks that hold it, decompressed again (the last
// one kept for the next ask, so reading every column's in order
// decompresses each chunk once). The footer of a 100,000-column file is
// 275 KB stored and 4.5 MB decompressed; its metadata 15 KB and 1.4 MB.

import (
	"fmt"
	"io"
	"sort"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
)

// section is a tail section: its stored bytes, and for a compressed one
// the chunk table and the last chunk decompressed.
type section struct {
	name string // "footer" or "metadata", for errors
	off  int64  // file offset of raw
	raw  []byte // the stored bytes; the decompressed ones when not compressed
	size int    // decompressed length

	comp      orc.CompressionKind
	blockSize int
	// chunkRaw[i] is where chunk i's header is in raw, chunkOut[i] where
	// its bytes start in the decompressed section; chunkOut has one more
	// entry, size. Only non-empty chunks are listed.
	chunkRaw []uint32
	chunkOut []uint32

	mu  sync.Mutex
	in  *InStream // decompresses one chunk at a time; nil until needed
	cur int       // the chunk in buf, or -1
	buf []byte    // chunk cur decompressed (the InStream's buffer)
}

// decompressSection returns the decompressed bytes of the stored section
// data at file offset off, at most limit of them, and the section that
// keeps data to cut them again.
func (t *Tail) decompressSection(name string, data []byte, off int64, dec Decompressor, limit int64) ([]byte, *section, error) {
	sec := &section{name: name, off: off, raw: data, size: len(data), comp: t.Compression, blockSize: t.BlockSize, cur: -1}
	if t.Compression == orc.CompressionNone {
		return data, sec, nil
	}
	if len(data) > maxSection {
		return nil, nil, fmt.Errorf("%w: a %s of %d bytes (offsets are 32 bits)", orc.ErrLimit, name, len(data))
	}
	in := NewInStream(StreamInfo{Name: name, FileOffset: off, Stripe: -1, Column: -1, Length: uint64(len(data))},
		data, t.Compression, t.BlockSize, dec)
	// The chunks are decompressed twice: once to list them and count
	// the bytes, then into one buffer of the section's size (copies of
	// the chunks joined at the end cost the section's size twice over).
	n := 0
	for {
		c, err := in.NextChunk()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if int64(n+len(c)) > limit {
			return nil, nil, fmt.Errorf("%w: %s decompresses to more than %d bytes", orc.ErrLimit, name, limit)
		}
		if int64(n+len(c)) > maxSection {
			return nil, nil, fmt.Errorf("%w: %s decompresses to more than %d bytes (offsets are 32 bits)", orc.ErrLimit, name, maxSection)
		}
		sec.chunkRaw = append(sec.chunkRaw, uint32(in.curOff))
		sec.chunkOut = append(sec.chunkOut, uint32(n))
		n += len(c)
	}
	sec.chunkOut = append(sec.chunkOut, uint32(n))
	sec.size = n
	out := make([]byte, 0, n)
	sec.in = in // lent for the second pass: dec is the caller's
	for i := range sec.chunkRaw {
		c, err := sec.chunk(i)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, c...)
	}
	sec.in, sec.cur, sec.buf = nil, -1, nil
	return out, sec, nil
}

// maxSection bounds a tail section, stored and decompressed, so that
// offsets in it fit in 32 bits.
const maxSection = 1<<32 - 1

// read returns bytes [off, off+n) of the decompressed section, clamped to
// its end. They are the caller's (a compressed section's are copied from
// its chunks; an uncompressed one's are the stored bytes, not to be
// written).
func (s *section) read(off, n int) ([]byte, error) { return s.readInto(nil, off, n) }

// readInto is read into buf's room when it has enough.
func (s *section) readInto(buf []byte, off, n int) ([]byte, error) {
	if off > s.size {
		off = s.size
	}
	n = min(n, s.size-off)
	if s.chunkOut == nil {
		return s.raw[off : off+n], nil
	}
	out := buf[:0]
	if cap(out) < n {
		out = make([]byte, 0, n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The last chunk starting at or before off.
	i := sort.Search(len(s.chunkRaw), func(i int) bool { return int(s.chunkOut[i]) > off }) - 1
	for ; len(out) < n && i < len(s.chunkRaw); i++ {
		c, err := s.chunk(i)
		if err != nil {
			return nil, err
		}
		lo := off + len(out) - int(s.chunkOut[i])
		out = append(out, c[lo:min(len(c), lo+n-len(out))]...)
	}
	return out, nil
}

// walk calls fn with the number, wire type and section offset of each
// field of the message at [start, start+n), reading it a window at a time
// rather than copying it whole (a stripe's statistics of 100,000 columns
// are 1.4 MB).
func (s *section) walk(start, n int, fn func(num protowire.Number, typ protowire.Type, off int)) error {
	win := 64 << 10
	var buf []byte
	end := min(start+n, s.size)
	for off := start; off < end; {
		b, err := s.readInto(buf, off, min(win, end-off))
		if err != nil {
			return err
		}
		buf = b
		p := 0
		for p < len(b) {
			num, typ, k := protowire.ConsumeTag(b[p:])
			m := 0
			if k >= 0 {
				m = protowire.ConsumeFieldValue(num, typ, b[p+k:])
			}
			if k >= 0 && m >= 0 {
				fn(num, typ, off+p)
				p += k + m
				continue
			}
			if off+len(b) < end { // the window cut the field: read on from it
				if p == 0 {
					win *= 2 // a field longer than the window
				}
				break
			}
			if k < 0 {
				return fmt.Errorf("bad field tag at byte %d: %w", off+p-start, protowire.ParseError(k))
			}
			return fmt.Errorf("bad field %d at byte %d: %w", num, off+p-start, protowire.ParseError(m))
		}
		off += p
	}
	return nil
}

// chunk returns chunk i decompressed, valid until the next call (s.mu
// held).
func (s *section) chunk(i int) ([]byte, error) {
	if s.cur == i {
		return s.buf, nil
	}
	h := int(s.chunkRaw[i])
	si := StreamInfo{Name: s.name, FileOffset: s.off + int64(h), Stripe: -1, Column: -1, Length: uint64(len(s.raw) - h)}
	if s.in == nil {
		dec, err := NewDecompressor(s.comp)
		if err != nil {
			return nil, err
		}
		s.in = NewInStream(si, s.raw[h:], s.comp, s.blockSize, dec)
	} else {
		s.in.Reset(si, s.raw[h:])
	}
	c, err := s.in.NextChunk()
	if err == nil && len(c) != int(s.chunkOut[i+1]-s.chunkOut[i]) {
		err = fmt.Errorf("chunk of %d bytes, %d when the tail was read", len(c), s.chunkOut[i+1]-s.chunkOut[i])
	}
	if err != nil {
		s.cur = -1
		return nil, &orc.CorruptError{Offset: s.off + int64(h), Stripe: -1, Column: -1, Stream: s.name,
			Msg: "chunk does not decompress again", Err: err}
	}
	s.cur, s.buf = i, c
	return c, nil
}

// all returns the whole decompressed section.
func (s *section) all() ([]byte, error) { return s.read(0, s.size) }

// elem returns the payload of the length-delimited field whose tag is at
// off (ReadTail has checked the fields it indexes), and where the payload
// starts.
func (s *section) elem(off uint32) ([]byte, int, error) {
	start, n, err := s.payload(off)
	if err != nil {
		return nil, 0, err
	}
	v, err := s.read(start, n)
	return v, start, err
}

// payload returns where the payload of the length-delimited field whose
// tag is at off starts, and its length.
func (s *section) payload(off uint32) (int, int, error) {
	var b [2 * binaryMaxVarint]byte
	head, err := s.readInto(b[:], int(off), len(b))
	if err != nil {
		return 0, 0, err
	}
	_, _, n := protowire.ConsumeTag(head)
	m, k := protowire.ConsumeVarint(head[max(n, 0):])
	if n < 0 || k < 0 || m > uint64(s.size-int(off)-n-k) {
		return 0, 0, fmt.Errorf("%s field at byte %d is not where the tail indexed it", s.name, off)
	}
	return int(off) + n + k, int(m), nil
}

// binaryMaxVarint is the longest varint.
const binaryMaxVarint = 10
