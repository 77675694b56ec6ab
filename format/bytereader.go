package format

import (
	"encoding/binary"
	"errors"
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
	return orc.Corruptf("the stream ends before the %s it promises", what)
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
				return errShort("value bytes")
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
				return errShort("value bytes")
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
	for len(dst) > 0 {
		n, p := decodeVarints(dst, r.buf[r.pos:])
		r.pos += p
		dst = dst[n:]
		if len(dst) > 0 {
			// A varint of 9 or more bytes, one within the last 7 bytes of
			// the chunk, or the end of the chunk.
			v, err := r.ReadVarint128()
			if err != nil {
				return err
			}
			dst[0] = v
			dst = dst[1:]
		}
	}
	return nil
}

// ReadVarint128sBound is ReadVarint128s that also returns a bound on the
// values' magnitudes, from the lengths of their varints: every
// |v| < 2^bound (at most 128). A k-byte varint holds a zigzag value below
// 2^(7k), whose magnitude is at most 2^(7k-1).
func (r *ByteReader) ReadVarint128sBound(dst []orc.Int128) (bound int, err error) {
	for len(dst) > 0 {
		n, p, acc := decodeVarintsBound(dst, r.buf[r.pos:])
		r.pos += p
		dst = dst[n:]
		bound = max(bound, 7*((bits.Len64(acc)+7)/8))
		if len(dst) > 0 {
			v, err := r.ReadVarint128()
			if err != nil {
				return 0, err
			}
			dst[0] = v
			dst = dst[1:]
			bound = max(bound, magnitude128(v))
		}
	}
	return bound, nil
}

// magnitude128 returns the least b with |v| < 2^b.
func magnitude128(v orc.Int128) int {
	s := uint64(v.Hi >> 63) // -1 below zero: |v| - 1 is v's complement
	hi, lo := uint64(v.Hi)^s, v.Lo^s
	if hi != 0 {
		return 64 + bits.Len64(hi) + 1
	}
	return bits.Len64(lo) + 1
}

// decodeVarints decodes zigzag varints of at most 8 bytes from buf into dst
// while 8 bytes of buf remain from the next varint's start, and returns how
// many values it decoded and how many bytes they took. It stops early at a
// varint of 9 bytes or more.
//
// Design note: each step loads 8 bytes; every byte without its top bit ends
// a varint. A varint's 7-bit groups are squeezed together in three steps
// (pairs of bytes, of 16-bit lanes, of 32-bit lanes). A word of eight
// 1-byte, four 2-byte or two 4-byte varints (rates, quantities, prices) is
// squeezed and zigzag-decoded in all its lanes at once; otherwise the first
// two varints that end in the word are decoded, so that a mix of 3- and
// 4-byte money values takes one load per two values and no branch that
// depends on their lengths.
func decodeVarints(dst []orc.Int128, buf []byte) (n, p int) {
	i := 0
	for i < len(dst) && p+8 <= len(buf) {
		w := binary.LittleEndian.Uint64(buf[p:])
		ends := ^w & 0x8080808080808080
		switch {
		case ends == 0:
			return i, p
		case ends == 0x8080808080808080 && i+8 <= len(dst):
			// Zigzag undone in every byte lane at once: the lane's low
			// bit, spread over the lane by a multiply, flips the rest.
			z := w>>1&0x7f7f7f7f7f7f7f7f ^ (w&0x0101010101010101)*0xff
			d := dst[i : i+8 : i+8]
			for k := range d {
				d[k] = orc.Int128FromInt64(int64(int8(z >> (8 * k))))
			}
			i, p = i+8, p+8
			continue
		case ends == 0x8000800080008000 && i+4 <= len(dst):
			x := w&0x007f007f007f007f | w&0x7f007f007f007f00>>1
			z := x>>1&0x7fff7fff7fff7fff ^ (x&0x0001000100010001)*0xffff
			d := dst[i : i+4 : i+4]
			for k := range d {
				d[k] = orc.Int128FromInt64(int64(int16(z >> (16 * k))))
			}
			i, p = i+4, p+8
			continue
		case ends == 0x8000000080000000 && i+2 <= len(dst):
			x := w & 0x7f7f7f7f7f7f7f7f
			x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
			x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
			z := x>>1&0x7fffffff7fffffff ^ (x&0x0000000100000001)*0xffffffff
			dst[i] = orc.Int128FromInt64(int64(int32(z)))
			dst[i+1] = orc.Int128FromInt64(int64(int32(z >> 32)))
			i, p = i+2, p+8
			continue
		}
		e0 := uint(bits.TrailingZeros64(ends)) + 1 // bits of the first varint
		m0 := uint64(1)<<e0 - 1                    // e0 = 64 gives all ones
		dst[i] = orc.Int128FromInt64(UnZigzag(squeezeVarint(w & m0)))
		rest := ends &^ m0
		if rest == 0 || i+1 == len(dst) {
			i, p = i+1, p+int(e0>>3)
			continue
		}
		e1 := uint(bits.TrailingZeros64(rest)) + 1
		m1 := uint64(1)<<e1 - 1
		dst[i+1] = orc.Int128FromInt64(UnZigzag(squeezeVarint(w & m1 >> e0)))
		i, p = i+2, p+int(e1>>3)
	}
	return i, p
}

// decodeVarintsBound is decodeVarints that also returns acc, the OR of
// the varints' bytes each moved to the start of a word: no varint has a
// byte beyond the highest set in acc (continuation bits included), so
// every zigzag value is below 2^(7*ceil(bits.Len64(acc)/8)). It is a
// copy, not decodeVarints with a flag or a type parameter: the ORs, a
// flag's test, or a generic's dictionary taking a register the loop is
// short of, each cost a scan without a predicate 0.5-2% of the
// instructions of its decimal columns.
func decodeVarintsBound(dst []orc.Int128, buf []byte) (n, p int, acc uint64) {
	i := 0
	for i < len(dst) && p+8 <= len(buf) {
		w := binary.LittleEndian.Uint64(buf[p:])
		ends := ^w & 0x8080808080808080
		switch {
		case ends == 0:
			return i, p, acc
		case ends == 0x8080808080808080 && i+8 <= len(dst):
			// Zigzag undone in every byte lane at once: the lane's low
			// bit, spread over the lane by a multiply, flips the rest.
			z := w>>1&0x7f7f7f7f7f7f7f7f ^ (w&0x0101010101010101)*0xff
			d := dst[i : i+8 : i+8]
			for k := range d {
				d[k] = orc.Int128FromInt64(int64(int8(z >> (8 * k))))
			}
			i, p = i+8, p+8
			acc |= 0x7f
			continue
		case ends == 0x8000800080008000 && i+4 <= len(dst):
			x := w&0x007f007f007f007f | w&0x7f007f007f007f00>>1
			z := x>>1&0x7fff7fff7fff7fff ^ (x&0x0001000100010001)*0xffff
			d := dst[i : i+4 : i+4]
			for k := range d {
				d[k] = orc.Int128FromInt64(int64(int16(z >> (16 * k))))
			}
			i, p = i+4, p+8
			acc |= 0x7fff
			continue
		case ends == 0x8000000080000000 && i+2 <= len(dst):
			x := w & 0x7f7f7f7f7f7f7f7f
			x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
			x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
			z := x>>1&0x7fffffff7fffffff ^ (x&0x0000000100000001)*0xffffffff
			dst[i] = orc.Int128FromInt64(int64(int32(z)))
			dst[i+1] = orc.Int128FromInt64(int64(int32(z >> 32)))
			i, p = i+2, p+8
			acc |= 0x7fffffff
			continue
		}
		e0 := uint(bits.TrailingZeros64(ends)) + 1 // bits of the first varint
		m0 := uint64(1)<<e0 - 1                    // e0 = 64 gives all ones
		v0 := w & m0
		dst[i] = orc.Int128FromInt64(UnZigzag(squeezeVarint(v0)))
		acc |= v0
		rest := ends &^ m0
		if rest == 0 || i+1 == len(dst) {
			i, p = i+1, p+int(e0>>3)
			continue
		}
		e1 := uint(bits.TrailingZeros64(rest)) + 1
		m1 := uint64(1)<<e1 - 1
		v1 := w & m1 >> e0
		dst[i+1] = orc.Int128FromInt64(UnZigzag(squeezeVarint(v1)))
		acc |= v1
		i, p = i+2, p+int(e1>>3)
	}
	return i, p, acc
}

// squeezeVarint turns the bytes of a varint of at most 8 bytes (low byte
// first, continuation bits included) into its value.
func squeezeVarint(x uint64) uint64 {
	x &= 0x7f7f7f7f7f7f7f7f
	x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
	x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
	return x&0x000000000fffffff | x&0x0fffffff00000000>>4
}

// SkipVarints discards n varints of any width, base-128 or decimal: it
// counts the bytes that end one (those without the top bit), eight at a
// time, and decodes nothing. A stream that ends first gives an error
// wrapping orc.ErrCorrupt.
func (r *ByteReader) SkipVarints(n int64) error {
	for n > 0 {
		buf, err := r.Available()
		if err != nil {
			if err == io.EOF {
				return errShort("varints")
			}
			return err
		}
		p := 0
		// Whole words while the varints they end are fewer than n, so
		// that the n-th one ends in the bytes counted one at a time.
		for p+8 <= len(buf) {
			ends := ^binary.LittleEndian.Uint64(buf[p:]) & 0x8080808080808080
			c := int64(bits.OnesCount64(ends))
			if c >= n {
				break
			}
			n -= c
			p += 8
		}
		for p < len(buf) && n > 0 {
			if buf[p] < 0x80 {
				n--
			}
			p++
		}
		r.pos += p
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
				return orc.Int128{}, orc.Corruptf("a decimal value is wider than 128 bits (ORC decimals have at most 38 digits)")
			}
			hi |= v << (s - 64)
		default:
			if v != 0 {
				return orc.Int128{}, orc.Corruptf("a decimal value is wider than 128 bits (ORC decimals have at most 38 digits)")
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
