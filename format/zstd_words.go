package format

// ZSTD frames for streams of 8-byte values drawn from a small set.
//
// A DOUBLE column of prices, rates or quantities holds a few dozen distinct
// values, stored as raw IEEE 754 bytes (ORC has no dictionary for DOUBLE).
// The general encoder finds those repeats as matches of 8 bytes, one a
// value, at about 100 cycles each: on the bench's lineitem-double its
// quantity, discount and tax streams cost more to compress than everything
// else in their columns together. Here the matches are looked up where
// they can only be, value by value: the last places the next one, two and
// three values in a row were seen are kept in tables, the longest match
// found there is taken and extended while the values after it repeat too,
// and the sequences are entropy-coded with tables fitted to each block.
// The frames are standard (RFC 8878): any zstd decoder reads them.
//
// Compress (compression.go) tries this path at levels up to the default,
// for chunks of wordMinChunk to wordMaxChunk bytes whose first KiB has a
// quarter of its values repeated (wordsLikely). A chunk keeps the path
// while its first 4 KiB are at most a quarter literals, and its frame when
// that is a quarter of the chunk or less; a frame under a sixteenth is
// compared with the general encoder's, and the smaller kept.
//
// Block layout written (compressed block, RFC 8878 section 3.1.1.3):
//
//	literals section: Raw_Literals_Block header (1-3 bytes) | literals
//	sequences section: Number_of_Sequences (1-3 bytes) | modes byte |
//	    table descriptions (LL, OF, ML) | bitstream
//
// Each of the three codes is coded with an FSE table of its own described
// in the block (FSE_Compressed_Mode), or, when a block uses one symbol, in
// RLE_Mode. Offsets are always stored as values (offset + 3), never as
// repeat codes, so the decoder's repeat-offset history does not matter.

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

const (
	wordHashBits  = 12
	wordMinChunk  = 4 << 10   // smaller chunks take the general encoder
	wordMaxChunk  = 1<<19 - 8 // and larger ones: positions in values + 1 fit 16 bits
	wordProbeSize = 4 << 10   // the start of a chunk that must be mostly matches
	wordMaxGain   = 2         // a frame is kept when at most len >> wordMaxGain
)

// Largest codes and table logs of the three sequence codes (RFC 8878
// 3.1.1.3.2.1 and 3.1.1.3.2.2).
const (
	llMaxCode = 35
	mlMaxCode = 52
	ofMaxCode = 31
	llMaxLog  = 9
	mlMaxLog  = 9
	ofMaxLog  = 8
)

// Literal length codes 16..35: baseline and extra bits; codes 0..15 are
// the length itself with no extra bits.
var (
	llBase = [llMaxCode + 1]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llExtra = [llMaxCode + 1]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	// Match length codes 0..31 are lengths 3..34 with no extra bits.
	mlBase = [mlMaxCode + 1]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlExtra = [mlMaxCode + 1]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

// llCodeOf returns the literal length code of n.
func llCodeOf(n uint32) uint8 {
	if n < 16 {
		return uint8(n)
	}
	if n >= 65536 {
		return 35
	}
	if n >= 64 {
		return uint8(bits.Len32(n) + 18) // 64..127: 25, one code a power of two
	}
	c := uint8(16)
	for c < 24 && llBase[c+1] <= n {
		c++
	}
	return c
}

// mlCodeOf returns the match length code of a match of n bytes (n >= 3).
func mlCodeOf(n uint32) uint8 {
	if n < 35 {
		return uint8(n - 3)
	}
	if n >= 131 {
		return uint8(min(52, bits.Len32(n-3)+35)) // 131..258: 43, one code a power of two
	}
	c := uint8(32)
	for c < 52 && mlBase[c+1] <= n {
		c++
	}
	return c
}

// wordSeq is one sequence, packed: literal length (bits 0-19), match
// length (20-39) and offset (40-63).
type wordSeq uint64

func packSeq(lit, ml, off int) wordSeq {
	return wordSeq(uint64(lit) | uint64(ml)<<20 | uint64(off)<<40)
}

func (s wordSeq) lit() uint32 { return uint32(s) & (1<<20 - 1) }
func (s wordSeq) ml() uint32  { return uint32(s>>20) & (1<<20 - 1) }
func (s wordSeq) off() uint32 { return uint32(s >> 40) }

// wordEncoder builds word frames; its buffers are reused from chunk to
// chunk.
type wordEncoder struct {
	// per value hash, the latest position it was seen at in the chunk,
	// in values, + 1 (0: none); then the same for two values in a row,
	// and three
	last, last2, last3 [1 << wordHashBits]uint16
	seqs               []wordSeq
	lits               []byte
	ll                 fseTable
	ml                 fseTable
	of                 fseTable
}

func hashWord(v uint64) uint32 { return uint32((v * 0x9e3779b97f4a7c15) >> (64 - wordHashBits)) }

// h2w mixes two values into one word, for hashWords.
func h2w(a, b uint64) uint64 { return a*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(b, 31) }

// hashWords hashes a pair of words.
func hashWords(a, b uint64) uint32 { return hashWord(h2w(a, b) * 0xbf58476d1ce4e5b9) }

// wordsLikely reports whether a quarter of the 8-byte values in the first
// KiB of src repeat one before them there: the first of appendBlock's
// checkpoints, made without the encoder, which is made only for chunks
// that pass it.
func wordsLikely(src []byte) bool {
	const n = wordProbeSize / 4 / 8
	if len(src) < 8*n {
		return false
	}
	var keys [2 * n]uint64
	var used [2 * n]bool
	hits := 0
	for i := range n {
		v := binary.LittleEndian.Uint64(src[8*i:])
		h := uint32(v*0x9e3779b97f4a7c15>>32) % (2 * n)
		for used[h] && keys[h] != v {
			h = (h + 1) % (2 * n)
		}
		if used[h] {
			hits++
		}
		keys[h], used[h] = v, true
	}
	return hits >= n/4
}

// appendFrame appends to dst a zstd frame holding src (at least
// wordMinChunk bytes), and reports false when src is over wordMaxChunk, (dst unchanged) when the values
// of its first wordProbeSize bytes mostly do not repeat, or when the frame
// would exceed a quarter of src.
func (e *wordEncoder) appendFrame(dst, src []byte) ([]byte, bool) {
	if len(src) > wordMaxChunk {
		return dst, false
	}
	clear(e.last[:])
	clear(e.last2[:])
	clear(e.last3[:])
	start := len(dst)
	limit := len(src) >> wordMaxGain
	dst = appendFrameHeader(dst, len(src))
	for off := 0; off < len(src); off += zstdMaxBlock {
		end := min(len(src), off+zstdMaxBlock)
		var ok bool
		if dst, ok = e.appendBlock(dst, src, off, end, end == len(src)); !ok || len(dst)-start > limit {
			return dst[:start], false
		}
	}
	return dst, true
}

// appendBlock appends the block of src[bs:be], matching back into src[:bs].
// In the first block it gives up (false) when over 3/4 of the first KiB,
// or 1/4 of the first wordProbeSize bytes, are literals.
func (e *wordEncoder) appendBlock(dst, src []byte, bs, be int, last bool) ([]byte, bool) {
	e.seqs, e.lits = e.seqs[:0], e.lits[:0]
	lit, p := bs, bs
	probe := be
	if bs == 0 {
		probe = min(be, wordProbeSize/4)
	}
	for {
		for p+8 <= probe {
			// The longest of: the last place the next three values
			// were seen together, the next two, the next one.
			v := binary.LittleEndian.Uint64(src[p:])
			c, n := -1, 0
			h1 := hashWord(v)
			c1 := 8*int(e.last[h1]) - 8
			e.last[h1] = uint16(p/8 + 1)
			if p+16 <= be {
				v2 := binary.LittleEndian.Uint64(src[p+8:])
				h2 := hashWords(v, v2)
				c2 := 8*int(e.last2[h2]) - 8
				e.last2[h2] = uint16(p/8 + 1)
				if p+24 <= be {
					v3 := binary.LittleEndian.Uint64(src[p+16:])
					h3 := hashWords(h2w(v, v2), v3)
					c3 := 8*int(e.last3[h3]) - 8
					e.last3[h3] = uint16(p/8 + 1)
					if c3 >= 0 && binary.LittleEndian.Uint64(src[c3:]) == v &&
						binary.LittleEndian.Uint64(src[c3+8:]) == v2 && binary.LittleEndian.Uint64(src[c3+16:]) == v3 {
						c, n = c3, 24
					}
				}
				if n == 0 && c2 >= 0 && binary.LittleEndian.Uint64(src[c2:]) == v && binary.LittleEndian.Uint64(src[c2+8:]) == v2 {
					c, n = c2, 16
				}
			}
			if n == 0 {
				if c1 < 0 || binary.LittleEndian.Uint64(src[c1:]) != v {
					p += 8
					continue
				}
				c, n = c1, 8
			}
			for p+n+8 <= be && binary.LittleEndian.Uint64(src[p+n:]) == binary.LittleEndian.Uint64(src[c+n:]) {
				n += 8
			}
			if lit < p {
				e.lits = append(e.lits, src[lit:p]...)
			}
			e.seqs = append(e.seqs, packSeq(p-lit, n, p-c))
			// The values inside the match are seen here last (in a long
			// match, its last three are enough).
			q := p + 8
			if n > 64 {
				q = p + n - 24
			}
			for ; q < p+n && q+24 <= len(src); q += 8 {
				a, b, d := binary.LittleEndian.Uint64(src[q:]), binary.LittleEndian.Uint64(src[q+8:]), binary.LittleEndian.Uint64(src[q+16:])
				e.last[hashWord(a)] = uint16(q/8 + 1)
				e.last2[hashWords(a, b)] = uint16(q/8 + 1)
				e.last3[hashWords(h2w(a, b), d)] = uint16(q/8 + 1)
			}
			p += n
			lit = p
		}
		if probe == be {
			break
		}
		// Checkpoints: at most 3/4 literals in the first 1 KiB, 1/4 in
		// the first 4.
		if probe < wordProbeSize {
			if len(e.lits)+p-lit > 3*probe/4 {
				return dst, false
			}
			probe = min(be, wordProbeSize)
			continue
		}
		if len(e.lits)+p-lit > probe/4 {
			return dst, false
		}
		probe = be
	}
	e.lits = append(e.lits, src[lit:be]...)

	hdr := len(dst)
	dst = append(dst, 0, 0, 0) // block header, set below
	dst = appendRawLiterals(dst, e.lits)
	dst = e.appendSequences(dst)
	size := len(dst) - hdr - 3
	if size >= be-bs {
		// Stored is smaller: a raw block.
		dst = dst[:hdr]
		v := b2u(last) | uint32(be-bs)<<3
		dst = append(dst, byte(v), byte(v>>8), byte(v>>16))
		return append(dst, src[bs:be]...), true
	}
	v := b2u(last) | 2<<1 | uint32(size)<<3
	dst[hdr], dst[hdr+1], dst[hdr+2] = byte(v), byte(v>>8), byte(v>>16)
	return dst, true
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// appendFrameHeader appends a frame header for n bytes of content (n >=
// 256): Single_Segment, no checksum or dictionary, a 2-byte (n - 256) or
// 4-byte content size.
func appendFrameHeader(dst []byte, n int) []byte {
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd)
	if v := n - 256; v < 1<<16 {
		return append(dst, 1<<6|1<<5, byte(v), byte(v>>8))
	}
	return append(dst, 2<<6|1<<5, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
}

// appendRawLiterals appends a Raw_Literals_Block section of lits (at most
// 2^20 - 1 bytes).
func appendRawLiterals(dst, lits []byte) []byte {
	switch n := len(lits); {
	case n < 32:
		dst = append(dst, byte(n<<3))
	case n < 4096:
		dst = append(dst, byte(1<<2|n<<4), byte(n>>4))
	default:
		dst = append(dst, byte(3<<2|n<<4), byte(n>>4), byte(n>>12))
	}
	return append(dst, lits...)
}

// appendSequences appends the sequences section of e.seqs.
func (e *wordEncoder) appendSequences(dst []byte) []byte {
	n := len(e.seqs)
	switch {
	case n == 0:
		return append(dst, 0)
	case n < 128:
		dst = append(dst, byte(n))
	case n < 0x7f00:
		dst = append(dst, byte(n>>8)+0x80, byte(n))
	default:
		dst = append(dst, 0xff, byte(n-0x7f00), byte((n-0x7f00)>>8))
	}
	var llCount [llMaxCode + 1]uint32
	var mlCount [mlMaxCode + 1]uint32
	var ofCount [ofMaxCode + 1]uint32
	maxExtra := 0
	for _, s := range e.seqs {
		llc, mlc, ofc := llCodeOf(s.lit()), mlCodeOf(s.ml()), bits.Len32(s.off()+3)-1
		llCount[llc]++
		mlCount[mlc]++
		ofCount[ofc]++
		maxExtra = max(maxExtra, int(llExtra[llc])+int(mlExtra[mlc])+ofc)
	}
	modes := len(dst)
	dst = append(dst, 0)
	var m byte
	dst, m = e.ll.fit(dst, llCount[:], n, llMaxLog)
	dst[modes] |= m << 6
	dst, m = e.of.fit(dst, ofCount[:], n, ofMaxLog)
	dst[modes] |= m << 4
	dst, m = e.ml.fit(dst, mlCount[:], n, mlMaxLog)
	dst[modes] |= m << 2

	// The bitstream: sequences last to first, so that a decoder reading
	// it backwards meets them first to last. Bits fill each byte from its
	// lowest bit up; a flush stores 8 bytes and keeps the whole ones, so
	// at most 7 bits wait after it. A sequence adds at most 26 bits of
	// states and maxExtra of extra bits: when 7 + 26 + maxExtra <= 64 one
	// flush a sequence does, else one after the states, the lengths and
	// the offset each (a code's extra bits are at most 24).
	at := len(dst)
	dst = slices.Grow(dst, n*12+16)
	buf := dst[:cap(dst)]
	ll, ml, of := &e.ll, &e.ml, &e.of
	s := e.seqs[n-1]
	llc, mlc, ofc := llCodeOf(s.lit()), mlCodeOf(s.ml()), uint8(bits.Len32(s.off()+3)-1)
	mlS, ofS, llS := ml.first(mlc), of.first(ofc), ll.first(llc)
	acc := uint64(s.lit() - llBase[llc])
	nb := uint(llExtra[llc])
	acc |= uint64(s.ml()-mlBase[mlc]) << nb
	nb += uint(mlExtra[mlc])
	binary.LittleEndian.PutUint64(buf[at:], acc)
	at += int(nb >> 3)
	acc >>= nb &^ 7
	nb &= 7
	acc |= uint64(s.off()+3) & (1<<ofc - 1) << nb
	nb += uint(ofc)
	one := 7+26+maxExtra <= 64
	for i := n - 2; i >= 0; i-- {
		binary.LittleEndian.PutUint64(buf[at:], acc)
		at += int(nb >> 3)
		acc >>= nb &^ 7
		nb &= 7
		s := e.seqs[i]
		llc, mlc, ofc := llCodeOf(s.lit()), mlCodeOf(s.ml()), uint8(bits.Len32(s.off()+3)-1)
		// the three states' bits, then the extra bits, in b
		t := &of.tt[ofc]
		k := uint((ofS + t.deltaBits) >> 16)
		b := uint64(ofS) & (1<<k - 1)
		ofS = uint32(of.next[int32(ofS>>k)+t.deltaState])
		t = &ml.tt[mlc]
		k2 := uint((mlS + t.deltaBits) >> 16)
		b |= uint64(mlS) & (1<<k2 - 1) << k
		k += k2
		mlS = uint32(ml.next[int32(mlS>>k2)+t.deltaState])
		t = &ll.tt[llc]
		k2 = uint((llS + t.deltaBits) >> 16)
		b |= uint64(llS) & (1<<k2 - 1) << k
		k += k2
		llS = uint32(ll.next[int32(llS>>k2)+t.deltaState])
		if !one {
			acc |= b << nb
			nb += k
			binary.LittleEndian.PutUint64(buf[at:], acc)
			at += int(nb >> 3)
			acc >>= nb &^ 7
			nb &= 7
			b, k = 0, 0
		}
		b |= uint64(s.lit()-llBase[llc]) << k
		k += uint(llExtra[llc])
		b |= uint64(s.ml()-mlBase[mlc]) << k
		k += uint(mlExtra[mlc])
		if !one {
			acc |= b << nb
			nb += k
			binary.LittleEndian.PutUint64(buf[at:], acc)
			at += int(nb >> 3)
			acc >>= nb &^ 7
			nb &= 7
			b, k = 0, 0
		}
		b |= uint64(s.off()+3) & (1<<ofc - 1) << k
		k += uint(ofc)
		acc |= b << nb
		nb += k
	}
	binary.LittleEndian.PutUint64(buf[at:], acc)
	at += int(nb >> 3)
	acc >>= nb &^ 7
	nb &= 7
	acc |= uint64(mlS) & (1<<ml.log - 1) << nb
	nb += ml.log
	acc |= uint64(ofS) & (1<<of.log - 1) << nb
	nb += of.log
	binary.LittleEndian.PutUint64(buf[at:], acc)
	at += int(nb >> 3)
	acc >>= nb &^ 7
	nb &= 7
	acc |= (uint64(llS)&(1<<ll.log-1) | 1<<ll.log) << nb // the last state and the end mark
	nb += ll.log + 1
	binary.LittleEndian.PutUint64(buf[at:], acc)
	at += int(nb+7) >> 3
	return buf[:at]
}

// fseTable codes one of the three sequence codes in a block: in RLE mode
// when the block uses one symbol (no bits), else with an FSE table.
type fseTable struct {
	log  uint           // 0 in RLE mode: one state, which outputs no bits
	next [1 << 9]uint16 // state table, by symbol then occurrence
	tt   [mlMaxCode + 1]struct {
		deltaBits  uint32 // (bits out << 16) - the least state that outputs them
		deltaState int32
	}
	norm [mlMaxCode + 1]int32
	sym  [1 << 9]uint8
}

// fit chooses the table for count (the block's n symbols), appends its
// description, and returns the mode: 1 (RLE) or 2 (FSE_Compressed).
func (t *fseTable) fit(dst []byte, count []uint32, n int, maxLog uint) ([]byte, byte) {
	distinct, top := 0, 0
	for s, c := range count {
		if c > 0 {
			distinct++
			if c > count[top] {
				top = s
			}
		}
	}
	if distinct == 1 {
		t.log = 0
		t.tt[top].deltaBits, t.tt[top].deltaState = 0, 0
		t.next[0] = 0
		return append(dst, byte(top)), 1
	}
	// A table about a quarter of the symbol count, between 2^5 and 2^maxLog
	// slots, with at least two slots a distinct symbol.
	lg := uint(max(5, bits.Len(uint(n))-2))
	for lg < maxLog && 1<<lg < 2*distinct {
		lg++
	}
	lg = min(lg, maxLog)
	t.log = lg
	t.normalize(count, n, top)
	dst = t.appendDescription(dst, len(count))
	t.build(len(count))
	return dst, 2
}

// normalize scales count (summing to n) to t.norm, summing to 2^t.log,
// with every used symbol at least 1; top is the most frequent symbol.
func (t *fseTable) normalize(count []uint32, n, top int) {
	size := int64(1) << t.log
	sum := int64(0)
	for s, c := range count {
		if c == 0 {
			t.norm[s] = 0
			continue
		}
		v := (int64(c)*size + int64(n)/2) / int64(n)
		v = max(v, 1)
		t.norm[s] = int32(v)
		sum += v
	}
	// Settle the rounding on the most frequent symbols.
	for sum != size {
		if sum < size {
			t.norm[top] += int32(size - sum)
			break
		}
		big := 0
		for s := range count {
			if t.norm[s] > t.norm[big] {
				big = s
			}
		}
		cut := min(sum-size, int64(t.norm[big])-1)
		t.norm[big] -= int32(cut)
		sum -= cut
	}
}

// appendDescription appends the FSE table description of t.norm (RFC 8878
// 4.1.1): the accuracy log, then each symbol's probability + 1 in a
// variable number of bits, with runs of zero probabilities as 2-bit
// repeat counts.
func (t *fseTable) appendDescription(dst []byte, nsym int) []byte {
	var acc uint64
	var nb uint
	put := func(v uint64, n uint) {
		acc |= v << nb
		nb += n
		for nb >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nb -= 8
		}
	}
	put(uint64(t.log-5), 4)
	remaining := int32(1)<<t.log + 1
	threshold := int32(1) << t.log
	width := t.log + 1
	zeroRun := false
	for s := 0; s < nsym && remaining > 1; {
		if zeroRun {
			from := s
			for s < nsym && t.norm[s] == 0 {
				s++
			}
			for s >= from+24 {
				from += 24
				put(0xffff, 16)
			}
			for s >= from+3 {
				from += 3
				put(3, 2)
			}
			put(uint64(s-from), 2)
		}
		c := t.norm[s]
		s++
		maxLow := 2*threshold - 1 - remaining
		remaining -= c
		v := c + 1
		if v >= threshold {
			v += maxLow
		}
		if v < maxLow {
			put(uint64(v), width-1)
		} else {
			put(uint64(v), width)
		}
		zeroRun = c == 0
		for remaining < threshold {
			width--
			threshold >>= 1
		}
	}
	if nb > 0 {
		dst = append(dst, byte(acc))
	}
	return dst
}

// build makes the encoding tables of t.norm.
func (t *fseTable) build(nsym int) {
	size := 1 << t.log
	mask := size - 1
	step := size>>1 + size>>3 + 3
	pos := 0
	for s := range nsym {
		for range t.norm[s] {
			t.sym[pos] = uint8(s)
			pos = (pos + step) & mask
		}
	}
	var cum [mlMaxCode + 2]int32
	for s := range nsym {
		cum[s+1] = cum[s] + t.norm[s]
	}
	for u := range size {
		s := t.sym[u]
		t.next[cum[s]] = uint16(size + u)
		cum[s]++
	}
	total := int32(0)
	for s := range nsym {
		c := t.norm[s]
		switch {
		case c == 0:
		case c == 1:
			t.tt[s].deltaBits = uint32(t.log)<<16 - uint32(size)
			t.tt[s].deltaState = total - 1
		default:
			out := uint32(t.log) - uint32(bits.Len32(uint32(c-1))-1)
			t.tt[s].deltaBits = out<<16 - uint32(c)<<out
			t.tt[s].deltaState = total - c
		}
		total += c
	}
}

// first returns the state for the first symbol coded (that of the last
// sequence).
func (t *fseTable) first(s uint8) uint32 {
	tt := t.tt[s]
	out := (tt.deltaBits + 1<<15) >> 16
	v := out<<16 - tt.deltaBits
	return uint32(t.next[int32(v>>out)+tt.deltaState])
}
