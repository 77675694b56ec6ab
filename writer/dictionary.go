package writer

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

// dictionary holds the distinct values of a text column's stripe, each
// stored once, with ids in the order of first appearance. It replaces a
// map[string]int32, which copied every new key into a string of its own
// (an allocation per distinct value) on top of the copy in the key data:
// here a key costs its bytes, its offset, its hash and two slots of an
// open-addressing table.
type dictionary struct {
	data    []byte   // the keys back to back
	offsets []int    // key i is data[offsets[i]:offsets[i+1]]; offsets[0] = 0
	hashes  []uint32 // the low 32 bits of each key's hash
	slots   []int32  // id+1 of the key hashed there, 0 for none; a power of two long, at most half full
	seed    maphash.Seed
	// recent holds, by a cheap hash of a key's length and outer words
	// (keyWords), the last key looked up with that hash: for the few keys
	// of low-cardinality columns (flags, modes, country codes) a word
	// comparison, and for keys over 16 bytes a byte comparison, finds the
	// id without hashing the whole value.
	recent [1 << recentBits]recentKey
}

// recentBits sizes recent: 64 entries of 24 bytes, few enough for the
// 60 text columns of a wide table (TestHeapBound), many enough that the
// handful of keys of a flag or mode column rarely share one.
const recentBits = 6

// recentKey is an entry of dictionary.recent.
type recentKey struct {
	id   int32 // id+1 of the key; 0 for none
	n    int32 // its length
	head uint64
	tail uint64
}

// dictMinSlots is the table's size for an empty dictionary.
const dictMinSlots = 64

func newDictionary() *dictionary {
	d := &dictionary{seed: maphash.MakeSeed()}
	d.reset()
	return d
}

// reset empties the dictionary, keeping its buffers.
func (d *dictionary) reset() {
	d.data = d.data[:0]
	d.offsets = append(d.offsets[:0], 0)
	d.hashes = d.hashes[:0]
	if len(d.slots) == 0 {
		d.slots = make([]int32, dictMinSlots)
	} else {
		clear(d.slots)
	}
	clear(d.recent[:])
}

// keyWords returns b's first and last 8 bytes as little-endian words,
// with the bytes past b's end (read where b's capacity has them) masked
// off; for keys of up to 16 bytes the two words and the length are the
// whole key. Callers cap b at the length of the vector's data, so that
// what is read past it is other values of the batch, never spare
// capacity the caller may be writing meanwhile.
func keyWords(b []byte) (head, tail uint64) {
	n := len(b)
	if n >= 8 {
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	}
	if cap(b) >= 8 {
		// A vector's values are slices of one array: the next value's
		// bytes follow, and the mask drops them.
		return binary.LittleEndian.Uint64(b[:8]) & (1<<(8*uint(n)) - 1), 0
	}
	for i, c := range b {
		head |= uint64(c) << (8 * i)
	}
	return head, 0
}

// recentSlot returns the slot in recent of a key of length n and words
// head and tail.
func recentSlot(n int, head, tail uint64) uint64 {
	return ((head ^ tail*0x9e3779b97f4a7c15) + uint64(n)) * 0xff51afd7ed558ccd >> (64 - recentBits)
}

// capacityBytes returns the memory of the dictionary's arrays, used or not.
func (d *dictionary) capacityBytes() int64 {
	return int64(cap(d.data)) + 8*int64(cap(d.offsets)) + 4*int64(cap(d.hashes)) + 4*int64(len(d.slots))
}

// len returns the number of distinct keys.
func (d *dictionary) len() int { return len(d.offsets) - 1 }

// key returns the bytes of key id.
func (d *dictionary) key(id int32) []byte { return d.data[d.offsets[id]:d.offsets[id+1]] }

// add returns the id of b, adding it (a copy) when it is new, and whether
// it was new.
func (d *dictionary) add(b []byte) (int32, bool) {
	head, tail := keyWords(b)
	n := len(b)
	r := &d.recent[recentSlot(n, head, tail)]
	if r.id > 0 && r.head == head && r.tail == tail && int(r.n) == n &&
		(n <= 16 || bytes.Equal(d.key(r.id-1), b)) {
		return r.id - 1, false
	}
	id, added := d.lookup(b)
	*r = recentKey{id: id + 1, n: int32(n), head: head, tail: tail}
	return id, added
}

// lookup is add through the hash table.
func (d *dictionary) lookup(b []byte) (int32, bool) {
	h := maphash.Bytes(d.seed, b)
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := d.slots[i]
		if s == 0 {
			id := int32(d.len())
			d.slots[i] = id + 1
			d.hashes = append(d.hashes, uint32(h))
			d.data = append(d.data, b...)
			d.offsets = append(d.offsets, len(d.data))
			if 2*d.len() > len(d.slots) {
				d.grow()
			}
			return id, true
		}
		if id := s - 1; d.hashes[id] == uint32(h) && bytes.Equal(d.key(id), b) {
			return id, false
		}
	}
}

// grow doubles the table, placing every key again by its hash.
func (d *dictionary) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint32(len(d.slots) - 1)
	for id, h := range d.hashes {
		i := h & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = int32(id) + 1
	}
}
