package writer

import (
	"bytes"
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
	// recent holds, by a cheap hash of length and end bytes, id+1 of the
	// last key looked up with that hash: for the few keys of
	// low-cardinality columns (flags, modes, country codes) a byte
	// comparison finds the id without hashing the whole value.
	recent [256]int32
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

// recentSlot returns b's slot in recent.
func recentSlot(b []byte) uint8 {
	n := len(b)
	if n == 0 {
		return 0
	}
	return uint8(n*37) ^ b[0] ^ b[n-1]<<3 ^ b[n/2]<<5
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
	r := &d.recent[recentSlot(b)]
	if id := *r - 1; id >= 0 && bytes.Equal(d.key(id), b) {
		return id, false
	}
	id, added := d.lookup(b)
	*r = id + 1
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
