package writer

import "math/bits"

// idBuffer keeps a stripe's dictionary key ids, in order, bit-packed at the
// width of the largest id so far: low-cardinality columns cost a few bits a
// value, as the RLE v2 stream it replaced did, at a shift and two ORs a
// value instead of a run encoder (and the ids come back without a
// decoder). When the dictionary outgrows the width, the ids so far are
// packed again at the new one; widths only grow, one bit at a time, so
// that costs less than two passes over the ids in all.
type idBuffer struct {
	words []uint64 // id i at bits [i*w, i*w+w), low bits first; one spare word at the end
	w     uint     // bits a value, 1..32
	n     int      // ids held
}

// reset empties the buffer, keeping its memory.
func (b *idBuffer) reset() {
	clear(b.words)
	b.words = b.words[:0]
	b.w, b.n = 1, 0
}

// len returns the number of ids held.
func (b *idBuffer) len() int { return b.n }

// bytes returns the memory the buffer holds.
func (b *idBuffer) bytes() int64 { return 8 * int64(cap(b.words)) }

// add appends ids, each below keys (the dictionary's size after them).
func (b *idBuffer) add(ids []int64, keys int) {
	if need := uint(max(1, bits.Len(uint(keys-1)))); need > b.w {
		b.widen(need)
	}
	w := b.w
	words := b.grow(len(ids))
	k := uint(b.n) * w
	// The word being filled stays in acc, with bit bits of it taken,
	// and is stored when full; the bits of an id that do not fit start
	// the next one.
	i, bit := k>>6, k&63
	acc := words[i]
	for _, id := range ids {
		u := uint64(id)
		acc |= u << bit
		bit += w
		if bit >= 64 {
			words[i] = acc
			i++
			bit -= 64
			acc = u >> (w - bit) // 0 when the id ended the word
		}
	}
	words[i] = acc
	b.n += len(ids)
}

// grow makes room for n more ids and returns the words.
func (b *idBuffer) grow(n int) []uint64 {
	need := int((uint(b.n+n)*b.w+63)>>6) + 1
	if need > cap(b.words) {
		words := make([]uint64, need, max(need, 2*cap(b.words), 64))
		copy(words, b.words)
		b.words = words
	}
	// Words past the old length are zero: reset clears what it drops.
	b.words = b.words[:max(len(b.words), need)]
	return b.words
}

// widen packs the held ids again at w bits, in place: id i moves from bit
// i*old to bit i*w, no lower, so going from the last id down, each lands on
// bits whose old contents were read already.
func (b *idBuffer) widen(w uint) {
	old, n := b.w, b.n
	b.w = w
	b.n = 0
	b.grow(n) // room for n ids at w bits; the words past the old ones are zero
	b.n = n
	oldMask := uint64(1)<<old - 1
	for i := n - 1; i >= 0; i-- {
		b.put(uint(i)*w, w, getBits(b.words, uint(i)*old, oldMask))
	}
}

// getBits returns the bits at bit k of words that mask (1<<w - 1) keeps.
func getBits(words []uint64, k uint, mask uint64) uint64 {
	lo := words[k>>6] >> (k & 63)
	hi := words[k>>6+1] << (64 - k&63)
	return (lo | hi) & mask
}

// put stores v in the w bits at bit k, clearing what they held.
func (b *idBuffer) put(k, w uint, v uint64) {
	mask := uint64(1)<<w - 1
	lo, sh := k>>6, k&63
	b.words[lo] = b.words[lo]&^(mask<<sh) | v<<sh
	if sh+w > 64 {
		b.words[lo+1] = b.words[lo+1]&^(mask>>(64-sh)) | v>>(64-sh)
	}
}

// read decodes the ids from index first into dst.
func (b *idBuffer) read(first int, dst []int64) {
	w, words := b.w, b.words
	mask := uint64(1)<<w - 1
	k := uint(first) * w
	// acc holds the avail bits of word i not yet read, lowest first.
	i := k >> 6
	acc, avail := words[i]>>(k&63), 64-k&63
	for j := range dst {
		if avail >= w {
			dst[j] = int64(acc & mask)
			acc >>= w
			avail -= w
			continue
		}
		i++
		next := words[i]
		dst[j] = int64((acc | next<<avail) & mask)
		acc = next >> (w - avail)
		avail += 64 - w
	}
}
