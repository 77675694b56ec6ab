// Bit packing of RLE v2 DIRECT, PATCHED_BASE and DELTA runs.
//
// Layout: n values of w bits each (1 <= w <= 64), written one after the
// other most significant bit first, big-endian across byte boundaries, the
// last byte padded with zero bits:
//
//	w = 3, values 5 1 7 2:   101 001 111 010 0000   ->  0xa7 0xa0
//
// The run occupies ceil(n*w/8) bytes.
//
// Design note: unpacking is the hot loop of every integer column, so each
// width of at most 32 bits has a loop of its own, generated into
// rle_bitpack_gen.go: eight values of w bits fill exactly w bytes, so a
// group of eight is shifted out of a few 64-bit loads at constant offsets
// (one load of 8, 16 or 32 bits for widths 1 to 4),
// and a second variant undoes zigzag in the same pass (signed DIRECT runs).
// The loads of a group read up to 7 bytes past it; callers pass the rest
// of the chunk after the run when they have it, so only the last groups of
// a chunk and runs of fewer than 8 values take the general path, which
// loads 64 bits per value and shifts it out, byte-wise in the last 8 bytes
// of src. Widths 40, 48, 56 and 64 have loops of whole bytes.

//go:generate go run gen_bitpack.go

package format

import "encoding/binary"

// packedLen returns the bytes n values of w bits occupy.
func packedLen(n, w int) int { return (n*w + 7) >> 3 }

// unpackBits decodes len(dst) values of w bits (1..64) from src into dst as
// uint64 bit patterns. src holds at least packedLen(len(dst), w) bytes; bytes
// after those may be read but do not change the result.
func unpackBits(dst []int64, src []byte, w int) {
	if len(dst) == 0 {
		return
	}
	if w <= 32 && unpackGroups[w] != nil {
		n := unpackGroups[w](dst, src)
		unpackGeneric(dst[n:], src[n*w>>3:], w)
		return
	}
	unpackWide(dst, src, w)
}

// unpackBitsZigzag is unpackBits followed by zigzag decoding, in one pass
// for widths of at most 32 bits.
func unpackBitsZigzag(dst []int64, src []byte, w int) {
	if len(dst) == 0 {
		return
	}
	if w <= 32 && unpackGroupsZigzag[w] != nil {
		n := unpackGroupsZigzag[w](dst, src)
		rest := dst[n:]
		unpackGeneric(rest, src[n*w>>3:], w)
		unzigzagAll(rest)
		return
	}
	unpackWide(dst, src, w)
	unzigzagAll(dst)
}

// unpackWide handles widths of more than 32 bits.
func unpackWide(dst []int64, src []byte, w int) {
	switch w {
	case 40, 48, 56:
		unpackBytes(dst, src, w>>3)
	case 64:
		src = src[:8*len(dst)]
		for i := range dst {
			dst[i] = int64(binary.BigEndian.Uint64(src[8*i:]))
		}
	default:
		unpackGeneric(dst, src, w)
	}
}

// unpackBytes handles widths of k = 5, 6 or 7 whole bytes.
func unpackBytes(dst []int64, src []byte, k int) {
	shift := uint(64 - 8*k)
	i := 0
	// Wide loads while 8 bytes remain from the value's first byte.
	if len(src) >= 8 {
		fast := (len(src)-8)/k + 1
		if fast > len(dst) {
			fast = len(dst)
		}
		for ; i < fast; i++ {
			dst[i] = int64(binary.BigEndian.Uint64(src[i*k:]) >> shift)
		}
	}
	for ; i < len(dst); i++ {
		var v uint64
		for _, b := range src[i*k : i*k+k] {
			v = v<<8 | uint64(b)
		}
		dst[i] = int64(v)
	}
}

// unpackGeneric handles any width of at most 64 bits, fast while 8 bytes
// remain from a value's first byte and w <= 57.
func unpackGeneric(dst []int64, src []byte, w int) {
	uw := uint(w)
	sh := 64 - uw
	bit := uint(0)
	i := 0
	// Value i starts at bit i*w; a 64-bit load at its first byte covers it
	// when that byte is at most len(src)-8.
	if len(src) >= 8 && w <= 57 {
		limit := uint(len(src)-8)*8 + 7 // last bit offset a wide load can start from
		for ; i < len(dst) && bit <= limit; i++ {
			v := binary.BigEndian.Uint64(src[bit>>3:])
			dst[i] = int64(v << (bit & 7) >> sh)
			bit += uw
		}
	}
	for ; i < len(dst); i++ {
		var v uint64
		need := uw
		for need > 0 {
			b := uint64(src[bit>>3])
			avail := 8 - bit&7 // bits left in this byte
			b &= 1<<avail - 1
			if avail > need {
				v = v<<need | b>>(avail-need)
				bit += need
				need = 0
			} else {
				v = v<<avail | b
				bit += avail
				need -= avail
			}
		}
		dst[i] = int64(v)
	}
}

// packBits appends vals packed at w bits each (1..64) to dst. Every value
// must fit in w bits.
func packBits(dst []byte, vals []uint64, w int) []byte {
	n := packedLen(len(vals), w)
	start := len(dst)
	dst = grow(dst, n)
	out := dst[start : start+n]
	switch w {
	case 1:
		i := 0
		for ; i+8 <= len(vals); i += 8 {
			v := vals[i : i+8 : i+8]
			out[i>>3] = byte(v[0]<<7 | v[1]<<6 | v[2]<<5 | v[3]<<4 | v[4]<<3 | v[5]<<2 | v[6]<<1 | v[7])
		}
		if i < len(vals) {
			var b uint64
			for j := i; j < len(vals); j++ {
				b |= vals[j] << (7 - uint(j-i))
			}
			out[i>>3] = byte(b)
		}
	case 2:
		i := 0
		for ; i+4 <= len(vals); i += 4 {
			v := vals[i : i+4 : i+4]
			out[i>>2] = byte(v[0]<<6 | v[1]<<4 | v[2]<<2 | v[3])
		}
		if i < len(vals) {
			var b uint64
			for j := i; j < len(vals); j++ {
				b |= vals[j] << (6 - 2*uint(j-i))
			}
			out[i>>2] = byte(b)
		}
	case 4:
		i := 0
		for ; i+2 <= len(vals); i += 2 {
			out[i>>1] = byte(vals[i]<<4 | vals[i+1])
		}
		if i < len(vals) {
			out[i>>1] = byte(vals[i] << 4)
		}
	case 8:
		out = out[:len(vals)]
		for i, v := range vals {
			out[i] = byte(v)
		}
	case 16:
		out = out[:2*len(vals)]
		for i, v := range vals {
			binary.BigEndian.PutUint16(out[2*i:], uint16(v))
		}
	case 32:
		out = out[:4*len(vals)]
		for i, v := range vals {
			binary.BigEndian.PutUint32(out[4*i:], uint32(v))
		}
	case 64:
		out = out[:8*len(vals)]
		for i, v := range vals {
			binary.BigEndian.PutUint64(out[8*i:], v)
		}
	case 24, 40, 48, 56:
		k := w >> 3
		for i, v := range vals {
			o := out[i*k : i*k+k]
			for j := k - 1; j >= 0; j-- {
				o[j] = byte(v)
				v >>= 8
			}
		}
	default:
		if w <= 32 {
			packUpTo32(out, vals, uint(w))
			break
		}
		// acc holds at most 7 pending bits before each value, so a value
		// of up to 56 bits fits beside them; wider ones (57..63 bits, which
		// no width code has) go in two steps, their high bits first.
		var acc uint64 // pending bits, right-aligned
		var nacc uint
		o := 0
		uw := uint(w)
		for _, v := range vals {
			k := uw
			if k > 56 {
				acc = acc<<(k-32) | v>>32
				nacc += k - 32
				for nacc >= 8 {
					nacc -= 8
					out[o] = byte(acc >> nacc)
					o++
				}
				v &= 1<<32 - 1
				k = 32
			}
			acc = acc<<k | v
			nacc += k
			for nacc >= 8 {
				nacc -= 8
				out[o] = byte(acc >> nacc)
				o++
			}
		}
		if nacc > 0 {
			out[o] = byte(acc << (8 - nacc))
		}
	}
	return dst
}

// packUpTo32 packs vals at w bits each (1..32) into out, which has
// packedLen(len(vals), w) bytes. The bits gather at the top of a word and
// leave 32 at a time: a value costs two shifts, an OR and a branch taken
// once every 32/w values, where moving a byte at a time took a loop per
// value.
func packUpTo32(out []byte, vals []uint64, w uint) {
	var acc uint64 // pending bits, left-aligned
	var nacc uint  // how many; under 32 between values
	o := 0
	for _, v := range vals {
		// The counts masked to 0..63 spare the compiler's checks for
		// shifts of 64 and more: 64-w and nacc are in range anyway.
		acc |= v << ((64 - w) & 63) >> (nacc & 63)
		nacc += w
		if nacc >= 32 {
			binary.BigEndian.PutUint32(out[o:o+4], uint32(acc>>32))
			o += 4
			acc <<= 32
			nacc -= 32
		}
	}
	for ; nacc > 0; nacc -= min(8, nacc) {
		out[o] = byte(acc >> 56)
		o++
		acc <<= 8
	}
}

// grow extends dst by n bytes (contents of the new bytes undefined).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) < n {
		nd := make([]byte, len(dst), 2*cap(dst)+n)
		copy(nd, dst)
		dst = nd
	}
	return dst[:len(dst)+n]
}
