package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/orcgo/orc"
)

// ChunkSource yields the decompressed bytes of one stream, piece by piece.
type ChunkSource interface {
	// NextChunk returns the next non-empty piece of the stream, or io.EOF
	// at its end. The returned slice is valid until the next call.
	NextChunk() ([]byte, error)
}

// Sink receives encoded bytes.
type Sink interface {
	io.Writer
	io.ByteWriter
}

// errShort is the corruption every decoder reports when a stream ends
// before the values it promised.
func errShort(what string) error {
	return orc.Corruptf("%s: stream ends early", what)
}

// ByteReader reads bytes from a ChunkSource. Its methods work on the current
// chunk as a plain slice and call the source only when the chunk runs out.
type ByteReader struct {
	src ChunkSource
	buf []byte
	pos int
}

// NewByteReader returns a reader over src.
func NewByteReader(src ChunkSource) *ByteReader { return &ByteReader{src: src} }

// Reset drops buffered bytes and reads from src next.
func (r *ByteReader) Reset(src ChunkSource) {
	r.src = src
	r.buf = nil
	r.pos = 0
}

// fill makes at least one byte available, or returns io.EOF at the end.
func (r *ByteReader) fill() error {
	for r.pos >= len(r.buf) {
		if r.src == nil {
			return io.EOF
		}
		b, err := r.src.NextChunk()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return err
		}
		r.buf, r.pos = b, 0
	}
	return nil
}

// Buffered returns the bytes of the current chunk not read yet. The caller
// may consume some of them with Advance.
func (r *ByteReader) Buffered() []byte { return r.buf[r.pos:] }

// Advance consumes n bytes of Buffered.
func (r *ByteReader) Advance(n int) { r.pos += n }

// Available returns the buffered bytes, reading a new chunk when none are
// left; it returns io.EOF at the end of the stream.
func (r *ByteReader) Available() ([]byte, error) {
	if err := r.fill(); err != nil {
		return nil, err
	}
	return r.buf[r.pos:], nil
}

// ReadByte returns the next byte, or io.EOF at the end of the stream.
func (r *ByteReader) ReadByte() (byte, error) {
	if r.pos < len(r.buf) {
		c := r.buf[r.pos]
		r.pos++
		return c, nil
	}
	if err := r.fill(); err != nil {
		return 0, err
	}
	c := r.buf[r.pos]
	r.pos++
	return c, nil
}

// ReadFull fills dst. A stream that ends first gives an error wrapping
// orc.ErrCorrupt.
func (r *ByteReader) ReadFull(dst []byte) error {
	for len(dst) > 0 {
		if err := r.fill(); err != nil {
			if err == io.EOF {
				return errShort("bytes")
			}
			return err
		}
		n := copy(dst, r.buf[r.pos:])
		r.pos += n
		dst = dst[n:]
	}
	return nil
}

// Skip discards n bytes. A stream that ends first gives an error wrapping
// orc.ErrCorrupt.
func (r *ByteReader) Skip(n int64) error {
	for n > 0 {
		if err := r.fill(); err != nil {
			if err == io.EOF {
				return errShort("bytes")
			}
			return err
		}
		k := int64(len(r.buf) - r.pos)
		if k > n {
			k = n
		}
		r.pos += int(k)
		n -= k
	}
	return nil
}

// ReadUvarint reads a base-128 varint of at most 64 bits.
func (r *ByteReader) ReadUvarint() (uint64, error) {
	// Fast path: the whole varint is in the current chunk.
	if r.pos+10 <= len(r.buf) {
		var x uint64
		var s uint
		for i := 0; i < 10; i++ {
			c := r.buf[r.pos+i]
			if c < 0x80 {
				if i == 9 && c > 1 {
					return 0, orc.Corruptf("varint overflows 64 bits")
				}
				r.pos += i + 1
				return x | uint64(c)<<s, nil
			}
			x |= uint64(c&0x7f) << s
			s += 7
		}
		return 0, orc.Corruptf("varint longer than 10 bytes")
	}
	var x uint64
	var s uint
	for i := 0; ; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, errShort("varint")
			}
			return 0, err
		}
		if c < 0x80 {
			if i == 9 && c > 1 || i > 9 {
				return 0, orc.Corruptf("varint overflows 64 bits")
			}
			return x | uint64(c)<<s, nil
		}
		if i >= 9 {
			return 0, orc.Corruptf("varint longer than 10 bytes")
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
}

// ReadVarint reads a zigzag-encoded signed varint.
func (r *ByteReader) ReadVarint() (int64, error) {
	u, err := r.ReadUvarint()
	return UnZigzag(u), err
}

// ReadVarint128 reads a zigzag-encoded signed varint of up to 128 bits, the
// form of decimal DATA streams. Longer values give an error wrapping
// orc.ErrUnsupported (Hive 0.11 allowed unbounded decimals).
func (r *ByteReader) ReadVarint128() (orc.Int128, error) {
	// Fast path: a varint of at most 9 bytes (63 bits of zigzag, so the
	// value fits in an int64) found whole in the current chunk.
	if buf := r.buf[r.pos:]; len(buf) > 0 {
		var x uint64
		for i := 0; i < len(buf) && i < 9; i++ {
			c := buf[i]
			x |= uint64(c&0x7f) << (7 * uint(i))
			if c < 0x80 {
				r.pos += i + 1
				return orc.Int128FromInt64(UnZigzag(x)), nil
			}
		}
	}
	return r.readVarint128Slow()
}

// ReadVarint128s fills dst with decimal varints (see ReadVarint128),
// decoding those that fit in 63 bits straight from the chunk in one loop.
func (r *ByteReader) ReadVarint128s(dst []orc.Int128) error {
	for i := 0; i < len(dst); {
		buf := r.buf[r.pos:]
		p := 0
		// Eight bytes at a time: every byte without its top bit ends a
		// varint, and the varints that end within the word are decoded
		// from it one after the other (their 7-bit groups squeezed
		// together in three steps: pairs of bytes, of 16-bit lanes, of
		// 32-bit lanes). A varint running past the word is decoded from
		// the next load; one of 9 or more bytes, or the last 7 bytes of
		// the chunk, from the loop below.
		for i < len(dst) && p+8 <= len(buf) {
			w := binary.LittleEndian.Uint64(buf[p:])
			ends := ^w & 0x8080808080808080
			if ends == 0 {
				break
			}
			// A word of varints of one length (1, 2 or 4 bytes: small
			// decimals such as rates, quantities and prices) is decoded
			// without looking for each end.
			if i+8 <= len(dst) {
				switch ends {
				case 0x8080808080808080:
					for k := range 8 {
						dst[i+k] = orc.Int128FromInt64(UnZigzag(w >> (8 * k) & 0x7f))
					}
					i, p = i+8, p+8
					continue
				case 0x8000800080008000:
					for k := range 4 {
						x := w >> (16 * k)
						dst[i+k] = orc.Int128FromInt64(UnZigzag(x&0x7f | x>>1&0x3f80))
					}
					i, p = i+4, p+8
					continue
				case 0x8000000080000000:
					for k := range 2 {
						x := w >> (32 * k)
						x = x&0x7f | x>>1&0x3f80 | x>>2&0x1fc000 | x>>3&0xfe00000
						dst[i+k] = orc.Int128FromInt64(UnZigzag(x))
					}
					i, p = i+2, p+8
					continue
				}
			}
			for ends != 0 && i < len(dst) {
				end := uint(bits.TrailingZeros64(ends)) + 1 // bits of this varint
				x := w & 0x7f7f7f7f7f7f7f7f & (uint64(1)<<end - 1)
				x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
				x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
				x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
				dst[i] = orc.Int128FromInt64(UnZigzag(x))
				i++
				p += int(end >> 3)
				w >>= end
				ends >>= end
			}
		}
	values:
		for i < len(dst) {
			var x uint64
			for j := 0; j < 9 && p+j < len(buf); j++ {
				c := buf[p+j]
				x |= uint64(c&0x7f) << (7 * uint(j))
				if c < 0x80 {
					p += j + 1
					dst[i] = orc.Int128FromInt64(UnZigzag(x))
					i++
					continue values
				}
			}
			break
		}
		r.pos += p
		if i < len(dst) {
			v, err := r.ReadVarint128()
			if err != nil {
				return err
			}
			dst[i] = v
			i++
		}
	}
	return nil
}

func (r *ByteReader) readVarint128Slow() (orc.Int128, error) {
	var lo, hi uint64
	var s uint
	for i := 0; ; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				return orc.Int128{}, errShort("decimal varint")
			}
			return orc.Int128{}, err
		}
		v := uint64(c & 0x7f)
		switch {
		case s < 64:
			lo |= v << s
			if s > 57 {
				hi |= v >> (64 - s)
			}
		case s < 128:
			if s > 121 && v>>(128-s) != 0 {
				return orc.Int128{}, fmt.Errorf("%w: decimal value wider than 128 bits", orc.ErrUnsupported)
			}
			hi |= v << (s - 64)
		default:
			if v != 0 {
				return orc.Int128{}, fmt.Errorf("%w: decimal value wider than 128 bits", orc.ErrUnsupported)
			}
		}
		if c < 0x80 {
			break
		}
		s += 7
		if i > 40 {
			return orc.Int128{}, orc.Corruptf("decimal varint longer than 40 bytes")
		}
	}
	// Zigzag decode over 128 bits: (u >> 1) ^ -(u & 1).
	neg := lo&1 != 0
	lo = lo>>1 | hi<<63
	hi >>= 1
	if neg {
		lo, hi = ^lo, ^hi
	}
	return orc.Int128{Hi: int64(hi), Lo: lo}, nil
}

// Zigzag maps a signed value to an unsigned one so small magnitudes stay small.
func Zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// UnZigzag inverts Zigzag.
func UnZigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// AppendUvarint appends v as a base-128 varint.
func AppendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// AppendVarint appends v zigzag-encoded as a varint.
func AppendVarint(dst []byte, v int64) []byte { return AppendUvarint(dst, Zigzag(v)) }

// AppendVarint128 appends v zigzag-encoded as a varint of up to 19 bytes,
// the form of decimal DATA streams.
func AppendVarint128(dst []byte, v orc.Int128) []byte {
	// zigzag over 128 bits: (v << 1) ^ (v >> 127)
	sign := uint64(v.Hi >> 63)
	lo := v.Lo<<1 ^ sign
	hi := (uint64(v.Hi)<<1 | v.Lo>>63) ^ sign
	for hi != 0 || lo >= 0x80 {
		dst = append(dst, byte(lo)|0x80)
		lo = lo>>7 | hi<<57
		hi >>= 7
	}
	return append(dst, byte(lo))
}
