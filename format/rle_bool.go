// Boolean run-length encoding: PRESENT streams and BOOLEAN column DATA.
//
// Values are packed eight to a byte, first value in the most significant bit,
// and the bytes are written with byte RLE (rle_byte.go). The value count is
// not stored: the last byte's unused low bits are padding (zero from our
// writer) and the reader knows how many values to take. Example (spec): the
// bytes ff 80 are one true followed by seven false values.
//
// A row-index position is the byte-RLE position of the byte that holds the
// value (stream position, bytes of its group to skip) followed by how many
// bits of that byte come before it (0..7).

package format

import (
	"math/bits"

	"github.com/orcgo/orc"
)

// BoolRLEDecoder reads a boolean-RLE stream.
type BoolRLEDecoder struct {
	bytes   ByteRLEDecoder
	cur     byte // unread bits of the current byte, next one in the top bit
	nbits   int  // how many bits of cur are unread
	scratch [256]byte
}

// NewBoolRLEDecoder returns a decoder reading from src.
func NewBoolRLEDecoder(src ChunkSource) *BoolRLEDecoder {
	d := &BoolRLEDecoder{}
	d.bytes.Reset(src)
	return d
}

// Reset drops buffered bits and reads from src next.
func (d *BoolRLEDecoder) Reset(src ChunkSource) {
	d.bytes.Reset(src)
	d.cur, d.nbits = 0, 0
}

// SeekTo positions the decoder, after Reset, at a row-index position: it
// skips byteValues bytes of the byte-RLE group and then bits (0..7) bits of
// the next byte. (It is not named Seek because go vet reserves that name for
// io.Seeker's signature.)
func (d *BoolRLEDecoder) SeekTo(byteValues int64, bits int) error {
	if byteValues < 0 || bits < 0 || bits > 7 {
		return orc.Corruptf("boolean RLE: bad position (%d bytes, %d bits)", byteValues, bits)
	}
	d.cur, d.nbits = 0, 0
	if err := d.bytes.Skip(byteValues); err != nil {
		return err
	}
	if bits > 0 {
		var b [1]byte
		if err := d.bytes.Next(b[:]); err != nil {
			return err
		}
		d.cur, d.nbits = b[0]<<bits, 8-bits
	}
	return nil
}

// Next fills all of dst.
func (d *BoolRLEDecoder) Next(dst []bool) error {
	_, err := d.NextPresent(dst)
	return err
}

// NextPresent fills all of dst and returns how many of the values are true:
// read from a PRESENT stream, that is how many values the column's other
// streams hold for these rows.
func (d *BoolRLEDecoder) NextPresent(dst []bool) (int, error) {
	trues := 0
	// Bits left over from the current byte.
	for d.nbits > 0 && len(dst) > 0 {
		v := d.cur&0x80 != 0
		dst[0] = v
		if v {
			trues++
		}
		d.cur <<= 1
		d.nbits--
		dst = dst[1:]
	}
	// Whole bytes.
	for len(dst) >= 8 {
		k := min(len(dst)>>3, len(d.scratch))
		buf := d.scratch[:k]
		if err := d.bytes.Next(buf); err != nil {
			return trues, err
		}
		for i, b := range buf {
			o := dst[8*i : 8*i+8 : 8*i+8]
			o[0] = b&0x80 != 0
			o[1] = b&0x40 != 0
			o[2] = b&0x20 != 0
			o[3] = b&0x10 != 0
			o[4] = b&0x08 != 0
			o[5] = b&0x04 != 0
			o[6] = b&0x02 != 0
			o[7] = b&0x01 != 0
			trues += bits.OnesCount8(b)
		}
		dst = dst[8*k:]
	}
	// The first bits of one more byte.
	if len(dst) > 0 {
		var b [1]byte
		if err := d.bytes.Next(b[:]); err != nil {
			return trues, err
		}
		d.cur, d.nbits = b[0], 8
		for i := range dst {
			v := d.cur&0x80 != 0
			dst[i] = v
			if v {
				trues++
			}
			d.cur <<= 1
		}
		d.nbits -= len(dst)
	}
	return trues, nil
}

// Skip discards the next n values.
func (d *BoolRLEDecoder) Skip(n int64) error {
	if n < 0 {
		return orc.Corruptf("boolean RLE: negative skip %d", n)
	}
	k := min(int64(d.nbits), n)
	d.cur <<= k
	d.nbits -= int(k)
	n -= k
	if n == 0 {
		return nil
	}
	if err := d.bytes.Skip(n >> 3); err != nil {
		return err
	}
	return d.SeekTo(0, int(n&7))
}

// SkipPresent discards the next n values and returns how many were true.
func (d *BoolRLEDecoder) SkipPresent(n int64) (int64, error) {
	if n < 0 {
		return 0, orc.Corruptf("boolean RLE: negative skip %d", n)
	}
	var trues int64
	k := min(int64(d.nbits), n)
	trues += int64(bits.OnesCount8(d.cur >> (8 - k)))
	d.cur <<= k
	d.nbits -= int(k)
	n -= k
	if n >= 8 {
		t, err := d.bytes.skipCountOnes(n >> 3)
		trues += t
		if err != nil {
			return trues, err
		}
		n &= 7
	}
	if n > 0 {
		var b [1]byte
		if err := d.bytes.Next(b[:]); err != nil {
			return trues, err
		}
		trues += int64(bits.OnesCount8(b[0] >> (8 - n)))
		d.cur, d.nbits = b[0]<<n, 8-int(n)
	}
	return trues, nil
}

// BoolRLEEncoder writes a boolean-RLE stream.
type BoolRLEEncoder struct {
	bytes ByteRLEEncoder
	cur   byte // bits of the current byte, first one in the top bit
	nbits int  // how many bits of cur are filled
}

// NewBoolRLEEncoder returns an encoder writing to out.
func NewBoolRLEEncoder(out Sink) *BoolRLEEncoder {
	e := &BoolRLEEncoder{}
	e.bytes.Reset(out)
	return e
}

// Reset drops held values and the sticky error, and writes to out next.
func (e *BoolRLEEncoder) Reset(out Sink) {
	e.bytes.Reset(out)
	e.cur, e.nbits = 0, 0
}

// Buffered returns the encoder's position state: how many byte values the
// byte-RLE layer holds that are not yet in the sink, and how many bits (0..7)
// of the current byte are filled.
func (e *BoolRLEEncoder) Buffered() (bytes int, bits int) {
	return e.bytes.Buffered(), e.nbits
}

// Write adds one value.
func (e *BoolRLEEncoder) Write(v bool) error {
	if v {
		e.cur |= 0x80 >> e.nbits
	}
	e.nbits++
	if e.nbits == 8 {
		err := e.bytes.Write(e.cur)
		e.cur, e.nbits = 0, 0
		return err
	}
	return e.bytes.err
}

// WriteValues adds vs in order.
func (e *BoolRLEEncoder) WriteValues(vs []bool) error {
	for _, v := range vs {
		if v {
			e.cur |= 0x80 >> e.nbits
		}
		e.nbits++
		if e.nbits == 8 {
			e.bytes.Write(e.cur)
			e.cur, e.nbits = 0, 0
		}
	}
	return e.bytes.err
}

// FlushBytes writes every complete byte held by the byte-RLE layer, ending
// its run, and keeps the partly filled byte (Buffered then reports 0 bytes
// and the bits of that byte). A writer that aligns row groups calls it at
// each group boundary: the partial byte cannot end there without padding
// values that do not exist, so it goes into the sink with the next group's
// first bits.
func (e *BoolRLEEncoder) FlushBytes() error { return e.bytes.Flush() }

// Flush writes every held value; a partly filled last byte is padded with
// zero bits. Call it once, at the end of the stream: values written after a
// Flush that padded a byte start a new byte.
func (e *BoolRLEEncoder) Flush() error {
	if e.nbits > 0 {
		e.bytes.Write(e.cur)
		e.cur, e.nbits = 0, 0
	}
	return e.bytes.Flush()
}
