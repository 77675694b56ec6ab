// Integer run-length encoding version 2 (Hive 0.12; DIRECT_V2 and
// DICTIONARY_V2 column encodings): the decoder.
//
// A stream is a sequence of runs of 1..512 values. The top two bits of a
// run's first byte give its kind; header fields below are listed most
// significant bit first, W codes are the 5-bit width codes of rle_int.go.
//
//	SHORT_REPEAT  00 | width-1 (3) | count-3 (3)                         1 byte
//	              value: width (1..8) bytes big-endian
//	              3..10 copies of value
//	DIRECT        01 | W (5) | count-1 (9)                               2 bytes
//	              count values bit-packed at W bits (rle_bitpack.go)
//	PATCHED_BASE  10 | W (5) | count-1 (9) | BW-1 (3) | PW (5)
//	              | PGW-1 (3) | PLL (5)                                  4 bytes
//	              base: BW bytes big-endian, top bit = sign, rest = magnitude
//	              count values bit-packed at W bits
//	              PLL patch entries bit-packed at closestFixedBits(PGW+PW)
//	              bits: gap (high PGW bits) then patch (low PW bits)
//	              value[i] = base + (packed[i] | patch << W) at the patched
//	              positions; each gap counts from the previous patch, and an
//	              entry with gap 255 and patch 0 only moves on 255 places.
//	DELTA         11 | W (5, code 0 = 0 bits) | count-1 (9)              2 bytes
//	              base varint, delta-base signed varint
//	              W = 0: value[i] = base + i*deltaBase
//	              else:  value[0] = base, value[1] = base + deltaBase, then
//	                     count-2 deltas bit-packed at W bits, unsigned,
//	                     added when deltaBase >= 0 and subtracted when < 0
//
// Signed streams zigzag-encode SHORT_REPEAT and DIRECT values and the DELTA
// base; PATCHED_BASE values are never zigzagged and the delta base is always a
// signed varint.
//
// Spec examples: 10000 x5 (unsigned) = 0a 27 10; 23713 43806 57005 48879 =
// 5e 03 5c a1 ab 1e de ad be ef; 2 3 5 7 11 13 17 19 23 29 =
// c6 09 02 02 22 42 42 46.
//
// Values that do not fit int64 (a DELTA run stepping past MaxInt64, a base
// plus patch overflowing) are reported as corruption: no correct writer
// produces them. Unsigned streams hold values read as uint64 bit patterns.

package format

import (
	"math/bits"

	"github.com/orcgo/orc"
)

const (
	v2MaxRun         = 512
	v2ShortRepeatMin = 3
	v2ShortRepeatMax = 10

	v2ShortRepeat = 0
	v2Direct      = 1
	v2PatchedBase = 2
	v2Delta       = 3
)

// IntRLEv2Decoder reads an integer RLE v2 stream.
type IntRLEv2Decoder struct {
	// The current run: left values remain. When literal is set they are
	// buf[pos:pos+left]; otherwise they are value, value+delta, ...
	intRun
	pos int

	// Allocated when first needed, so that a decoder costs a few hundred
	// bytes until it decodes a literal run into itself (a file of 100,000
	// columns has that many decoders).
	buf     *[v2MaxRun]int64
	patches *[31]int64 // a patched run's patch list
	scratch []byte     // a packed run that crosses chunks, plus room for wide loads
}

// NewIntRLEv2Decoder returns a decoder reading from src.
func NewIntRLEv2Decoder(src ChunkSource, signed bool) *IntRLEv2Decoder {
	d := &IntRLEv2Decoder{intRun: intRun{signed: signed}}
	d.Reset(src)
	return d
}

// Next fills all of dst.
func (d *IntRLEv2Decoder) Next(dst []int64) error {
	for len(dst) > 0 {
		if d.left == 0 {
			n, err := d.readRun(dst, 0)
			if err != nil {
				return err
			}
			dst = dst[n:]
			continue
		}
		n := min(d.left, len(dst))
		out := dst[:n]
		switch {
		case d.literal:
			copy(out, d.buf[d.pos:d.pos+n])
			d.pos += n
		case d.delta == 0:
			v := d.value
			for i := range out {
				out[i] = v
			}
		default:
			d.step(out)
		}
		d.left -= n
		dst = dst[n:]
	}
	return nil
}

// NextRepeat consumes up to max values of a SHORT_REPEAT run or of a DELTA
// run with no step (see IntDecoder). A DIRECT or PATCHED_BASE run that
// comes next is left unread; a DELTA run with deltas is read into the
// decoder's buffer, where Next takes it from.
func (d *IntRLEv2Decoder) NextRepeat(max int) (int64, int, error) {
	if max <= 0 {
		return 0, 0, nil
	}
	if d.left == 0 {
		if b := d.r.Buffered(); len(b) > 0 && (b[0]>>6 == v2Direct || b[0]>>6 == v2PatchedBase) {
			return 0, 0, nil
		}
		if _, err := d.readRun(nil, 0); err != nil {
			return 0, 0, err
		}
	}
	return d.repeat(max)
}

// Skip discards the next n values. Whole DIRECT, PATCHED_BASE and DELTA
// runs inside the skipped range are stepped over without unpacking.
func (d *IntRLEv2Decoder) Skip(n int64) error {
	if n < 0 {
		return orc.Corruptf("integer RLE v2: negative skip %d", n)
	}
	for n > 0 {
		if d.left == 0 {
			k, err := d.readRun(nil, n)
			if err != nil {
				return err
			}
			n -= int64(k)
			continue
		}
		k := int(min(int64(d.left), n))
		if d.literal {
			d.pos += k
		} else {
			d.value += d.delta * int64(k)
		}
		d.left -= k
		n -= int64(k)
	}
	return nil
}

// readRun reads the next run's header. A run of literal kind (DIRECT,
// PATCHED_BASE, DELTA with deltas) of at most skip values is stepped over
// and its length returned; one that fits in dst is decoded there and its
// length returned; otherwise the run becomes the current run and readRun
// returns 0.
func (d *IntRLEv2Decoder) readRun(dst []int64, skip int64) (int, error) {
	h0, err := d.r.ReadByte()
	if err != nil {
		return 0, eofAsCorrupt(err, "integer RLE v2")
	}
	kind := h0 >> 6
	if kind == v2ShortRepeat {
		w := int(h0>>3&7) + 1
		u, err := d.readBigEndian(w)
		if err != nil {
			return 0, err
		}
		v := int64(u)
		if d.signed {
			v = UnZigzag(u)
		}
		d.left, d.literal, d.value, d.delta = int(h0&7)+v2ShortRepeatMin, false, v, 0
		return 0, nil
	}
	h1, err := d.r.ReadByte()
	if err != nil {
		return 0, eofAsCorrupt(err, "integer RLE v2 header")
	}
	code := h0 >> 1 & 31
	n := int(h0&1)<<8 | int(h1) + 1
	switch kind {
	case v2Direct:
		w := int(widthFromCode[code])
		if int64(n) <= skip {
			return n, d.skipBytes(packedLen(n, w))
		}
		out, direct := d.target(dst, n)
		if err := d.readPackedAs(out, w, d.signed); err != nil {
			return 0, err
		}
		return d.finish(direct, n), nil
	case v2Delta:
		return d.readDelta(dst, skip, code, n)
	default:
		return d.readPatched(dst, skip, code, n)
	}
}

// target returns where to decode a run of n values: dst when it has room,
// else the decoder's buffer.
func (d *IntRLEv2Decoder) target(dst []int64, n int) ([]int64, bool) {
	if len(dst) >= n {
		return dst[:n], true
	}
	if d.buf == nil {
		d.buf = new([v2MaxRun]int64)
	}
	return d.buf[:n], false
}

// finish ends readRun for a literal run decoded into dst or the buffer.
func (d *IntRLEv2Decoder) finish(direct bool, n int) int {
	if direct {
		return n
	}
	d.left, d.literal, d.pos = n, true, 0
	return 0
}

func (d *IntRLEv2Decoder) readDelta(dst []int64, skip int64, code uint8, n int) (int, error) {
	u, err := d.r.ReadUvarint()
	if err != nil {
		return 0, err
	}
	base := int64(u)
	if d.signed {
		base = UnZigzag(u)
	}
	db, err := d.r.ReadVarint()
	if err != nil {
		return 0, err
	}
	if code == 0 {
		// Fixed delta: base, base+db, base+2db, ...
		if !stepsFit(base, db, n) {
			return 0, orc.Corruptf("integer RLE v2: DELTA run of %d steps of %d from %d overflows int64", n, db, base)
		}
		d.left, d.literal, d.value, d.delta = n, false, base, db
		return 0, nil
	}
	if n < 2 {
		return 0, orc.Corruptf("integer RLE v2: DELTA run of %d value with packed deltas", n)
	}
	w := int(widthFromCode[code])
	if int64(n) <= skip {
		return n, d.skipBytes(packedLen(n-2, w))
	}
	if addOverflows(base, db) {
		return 0, orc.Corruptf("integer RLE v2: DELTA base %d plus %d overflows int64", base, db)
	}
	out, direct := d.target(dst, n)
	out[0], out[1] = base, base+db
	if err := d.readPacked(out[2:], w); err != nil {
		return 0, err
	}
	if err := prefixSum(out[1:], db < 0, w); err != nil {
		return 0, err
	}
	return d.finish(direct, n), nil
}

// prefixSum turns v[0], d1, d2, ... (deltas as uint64 bit patterns of at
// most w bits) into v[0], v[0]±d1, v[0]±d1±d2, ..., failing if a value
// leaves int64.
func prefixSum(v []int64, down bool, w int) error {
	if len(v) < 2 {
		return nil
	}
	prev := v[0]
	// With w <= 54 the largest possible total fits in uint64 without
	// overflow; when it also fits the room left, no step can overflow.
	var room uint64
	if down {
		room = roomDown(prev)
	} else {
		room = roomUp(prev)
	}
	if w <= 54 && uint64(len(v)-1)*(uint64(1)<<w-1) <= room {
		if down {
			for i := 1; i < len(v); i++ {
				prev -= v[i]
				v[i] = prev
			}
		} else {
			for i := 1; i < len(v); i++ {
				prev += v[i]
				v[i] = prev
			}
		}
		return nil
	}
	for i := 1; i < len(v); i++ {
		dl := uint64(v[i])
		if dl > room {
			return orc.Corruptf("integer RLE v2: DELTA run overflows int64")
		}
		room -= dl
		if down {
			prev -= int64(dl)
		} else {
			prev += int64(dl)
		}
		v[i] = prev
	}
	return nil
}

func (d *IntRLEv2Decoder) readPatched(dst []int64, skip int64, code uint8, n int) (int, error) {
	var h [2]byte
	if err := d.r.ReadFull(h[:]); err != nil {
		return 0, err
	}
	w := int(widthFromCode[code])
	bw := int(h[0]>>5) + 1
	pw := int(widthFromCode[h[0]&31])
	pgw := int(h[1]>>5) + 1
	pll := int(h[1] & 31)
	if pgw+pw > 64 {
		return 0, orc.Corruptf("integer RLE v2: PATCHED_BASE patch gap width %d plus patch width %d exceeds 64", pgw, pw)
	}
	ew := closestFixedBits(pgw + pw)
	if int64(n) <= skip {
		return n, d.skipBytes(bw + packedLen(n, w) + packedLen(pll, ew))
	}
	u, err := d.readBigEndian(bw)
	if err != nil {
		return 0, err
	}
	sign := uint64(1) << (8*bw - 1)
	base := int64(u &^ sign)
	if u&sign != 0 {
		base = -base
	}
	out, direct := d.target(dst, n)
	if err := d.readPacked(out, w); err != nil {
		return 0, err
	}
	if d.patches == nil {
		d.patches = new([31]int64)
	}
	patches := d.patches[:pll]
	if err := d.readPacked(patches, ew); err != nil {
		return 0, err
	}
	pos := 0
	mask := uint64(1)<<pw - 1
	for _, e := range patches {
		gap := int(uint64(e) >> pw)
		patch := uint64(e) & mask
		pos += gap
		if patch == 0 {
			continue // a gap-only entry (gap 255) or a no-op patch
		}
		if pos >= n {
			return 0, orc.Corruptf("integer RLE v2: PATCHED_BASE patch at %d in a run of %d", pos, n)
		}
		if w+bits.Len64(patch) > 64 {
			return 0, orc.Corruptf("integer RLE v2: PATCHED_BASE patch wider than 64 bits")
		}
		out[pos] |= int64(patch << w)
	}
	room := roomUp(base)
	for i, v := range out {
		if uint64(v) > room {
			return 0, orc.Corruptf("integer RLE v2: PATCHED_BASE value overflows int64")
		}
		out[i] = base + v
	}
	return d.finish(direct, n), nil
}

// readPacked unpacks len(out) values of w bits, from the current chunk when
// the whole run is there.
func (d *IntRLEv2Decoder) readPacked(out []int64, w int) error {
	return d.readPackedAs(out, w, false)
}

// readPackedAs is readPacked, zigzag-decoding the values when zigzag is set.
func (d *IntRLEv2Decoder) readPackedAs(out []int64, w int, zigzag bool) error {
	need := packedLen(len(out), w)
	src := d.r.Buffered()
	if len(src) >= need {
		d.r.Advance(need)
	} else {
		if len(d.scratch) < need+8 {
			d.scratch = make([]byte, max(need+8, 512))
		}
		if err := d.r.ReadFull(d.scratch[:need]); err != nil {
			return err
		}
		src = d.scratch[:need+8]
	}
	if zigzag {
		unpackBitsZigzag(out, src, w)
	} else {
		unpackBits(out, src, w)
	}
	return nil
}

// readBigEndian reads a w-byte (1..8) big-endian number.
func (d *IntRLEv2Decoder) readBigEndian(w int) (uint64, error) {
	var u uint64
	if b := d.r.Buffered(); len(b) >= w {
		for _, c := range b[:w] {
			u = u<<8 | uint64(c)
		}
		d.r.Advance(w)
		return u, nil
	}
	for i := 0; i < w; i++ {
		c, err := d.r.ReadByte()
		if err != nil {
			return 0, eofAsCorrupt(err, "integer RLE v2 value")
		}
		u = u<<8 | uint64(c)
	}
	return u, nil
}

func (d *IntRLEv2Decoder) skipBytes(n int) error { return d.r.Skip(int64(n)) }

// unzigzagAll zigzag-decodes v in place.
func unzigzagAll(v []int64) {
	for i, x := range v {
		u := uint64(x)
		v[i] = int64(u>>1) ^ -int64(u&1)
	}
}
