package format

// LZO1X block decompression, for reading ORC files written with LZO.
//
// # Format
//
// An LZO1X block is a sequence of instructions. Each starts with an opcode
// byte; its high bits choose the instruction, and what the low bits mean
// depends on how many literals the previous instruction copied (the
// "state": 0, 1..3, or 4 meaning four or more). Lengths that do not fit
// their bit field are extended: a field of zero means "field maximum, plus
// 255 for each following zero byte, plus the first non-zero byte".
// Distances count back from the end of the output.
//
//	first byte 18..255   copy (byte-17) literals; state = that count (4 when >= 4)
//	first byte 0..17     an ordinary instruction with state 0
//
//	0000LLLL, state 0    literal run of 3+L bytes (L=0: 18+extension); state = 4
//	0000DDSS HHHHHHHH    state 1..3: copy 2 bytes, distance 1 + D + H*4
//	                     state 4:    copy 3 bytes, distance 2049 + D + H*4
//	0001HLLL le16        copy 2+L bytes (L=0: 9+extension), distance
//	                     16384 + H*16384 + le16>>2; distance 16384 ends the block
//	001LLLLL le16        copy 2+L bytes (L=0: 33+extension), distance 1 + le16>>2
//	01LDDDSS HHHHHHHH    copy 3+L bytes, distance 1 + D + H*8
//	1LLDDDSS HHHHHHHH    copy 5+L bytes, distance 1 + D + H*8
//
// After every copy instruction, SS (the low two bits of the opcode, or of
// le16) literal bytes follow, and the state becomes SS. The usual block ends
// with 11 00 00. A copy may overlap its own output (distance < length): the
// bytes it reads are the ones it has just written.
//
// The decoder below checks every read of the input and every copy against
// the output produced so far and the caller's limit.

import "github.com/orcgo/orc"

type lzoDecompressor struct{}

func (lzoDecompressor) Decompress(dst, src []byte) ([]byte, error) {
	return lzo1xDecode(dst[:0], src, maxChunkLength)
}

func (lzoDecompressor) DecompressLimit(dst, src []byte, limit int) ([]byte, error) {
	return lzo1xDecode(dst[:0], src, clampLimit(limit))
}

// lzoCorrupt reports a bad LZO block at input offset off.
func lzoCorrupt(off int, what string) error {
	return orc.Corruptf("LZO chunk: %s at input byte %d", what, off)
}

// lzoGrow makes room for n more bytes in out without passing limit.
func lzoGrow(out []byte, n, limit int) ([]byte, bool) {
	need := len(out) + n
	if n < 0 || need > limit {
		return out, false
	}
	if need <= cap(out) {
		return out, true
	}
	c := min(limit, max(need, 2*cap(out), 4<<10))
	grown := make([]byte, len(out), c)
	copy(grown, out)
	return grown, true
}

// lzo1xDecode appends the decompression of the LZO1X block src to out,
// failing when the result would pass limit bytes.
func lzo1xDecode(out, src []byte, limit int) ([]byte, error) {
	ip := 0
	state := 0
	var ok bool

	// extend reads the extension of a length field whose bits were all zero.
	extend := func(base int) (int, error) {
		n := base
		for {
			if ip >= len(src) {
				return 0, lzoCorrupt(ip, "length runs past the end")
			}
			b := src[ip]
			ip++
			if b != 0 {
				return n + int(b), nil
			}
			n += 255
			if n > limit+255 {
				// No valid length can be this long: stop counting.
				return 0, lzoCorrupt(ip, "length too long")
			}
		}
	}
	literals := func(n int) error {
		if n > len(src)-ip {
			return lzoCorrupt(ip, "literals run past the end")
		}
		if out, ok = lzoGrow(out, n, limit); !ok {
			return errTooLarge(limit)
		}
		out = append(out, src[ip:ip+n]...)
		ip += n
		return nil
	}

	if len(src) > 0 && src[0] > 17 {
		n := int(src[0]) - 17
		ip = 1
		if err := literals(n); err != nil {
			return nil, err
		}
		state = min(n, 4)
	}

	for {
		if ip >= len(src) {
			return nil, lzoCorrupt(ip, "block ends without an end marker")
		}
		t := int(src[ip])
		ip++
		var length, dist, next int
		switch {
		case t < 16:
			if state == 0 {
				n := t
				if n == 0 {
					var err error
					if n, err = extend(15); err != nil {
						return nil, err
					}
				}
				if err := literals(n + 3); err != nil {
					return nil, err
				}
				state = 4
				continue
			}
			if ip >= len(src) {
				return nil, lzoCorrupt(ip, "copy runs past the end")
			}
			h := int(src[ip])
			ip++
			if state < 4 {
				length, dist = 2, 1+(t>>2&3)+h<<2
			} else {
				length, dist = 3, 2049+(t>>2&3)+h<<2
			}
			next = t & 3
		case t < 32:
			length = t & 7
			if length == 0 {
				var err error
				if length, err = extend(7); err != nil {
					return nil, err
				}
			}
			length += 2
			if len(src)-ip < 2 {
				return nil, lzoCorrupt(ip, "copy runs past the end")
			}
			v := int(src[ip]) | int(src[ip+1])<<8
			ip += 2
			dist = 16384 + (t&8)<<11 + v>>2
			if dist == 16384 {
				if ip != len(src) {
					return nil, lzoCorrupt(ip, "data after the end marker")
				}
				return out, nil
			}
			next = v & 3
		case t < 64:
			length = t & 31
			if length == 0 {
				var err error
				if length, err = extend(31); err != nil {
					return nil, err
				}
			}
			length += 2
			if len(src)-ip < 2 {
				return nil, lzoCorrupt(ip, "copy runs past the end")
			}
			v := int(src[ip]) | int(src[ip+1])<<8
			ip += 2
			dist = 1 + v>>2
			next = v & 3
		default:
			if ip >= len(src) {
				return nil, lzoCorrupt(ip, "copy runs past the end")
			}
			h := int(src[ip])
			ip++
			if t < 128 {
				length = 3 + t>>5&1
			} else {
				length = 5 + t>>5&3
			}
			dist = 1 + (t >> 2 & 7) + h<<3
			next = t & 3
		}

		// Copy length bytes from dist back; the source may overlap the
		// bytes being written, so copy in steps no longer than what is
		// already final.
		if dist > len(out) {
			return nil, lzoCorrupt(ip, "copy reaches before the start of the output")
		}
		if out, ok = lzoGrow(out, length, limit); !ok {
			return nil, errTooLarge(limit)
		}
		pos := len(out)
		from := pos - dist
		out = out[:pos+length]
		for done := 0; done < length; {
			done += copy(out[pos+done:], out[from:pos+done])
		}

		if next > 0 {
			if err := literals(next); err != nil {
				return nil, err
			}
		}
		state = next
	}
}
