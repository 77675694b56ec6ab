package writer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDictionary checks ids, the added flag and the keys' bytes against a
// map, over key sets from 1 to 20,000 keys (the table grows, and many keys
// share a slot of the recent cache: same length and end bytes), with the
// empty key, across resets.
func TestDictionary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	d := newDictionary()
	for _, size := range []int{1, 3, 7, 300, 20000} {
		keys := make([][]byte, size)
		for i := range keys {
			switch i % 3 {
			case 0:
				keys[i] = fmt.Appendf(nil, "k%06dz", i) // same length and first and last bytes
			case 1:
				keys[i] = bytes.Repeat([]byte{byte(i)}, i%40)
			default:
				keys[i] = fmt.Appendf(nil, "%x", r.Uint64())
			}
		}
		d.reset()
		ids := map[string]int32{}
		for range 5 * size {
			k := keys[r.IntN(size)]
			if r.IntN(10) == 0 {
				k = append([]byte{}, k...) // not the same array
			}
			id := checkAdd(t, d, ids, k, fmt.Sprintf("size %d", size))
			if !bytes.Equal(d.key(id), k) {
				t.Fatalf("size %d: key(%d) = %q, want %q", size, id, d.key(id), k)
			}
		}
		if d.len() != len(ids) {
			t.Fatalf("size %d: %d keys, want %d", size, d.len(), len(ids))
		}
	}
}

// TestDictionaryKeysInOneArray adds keys that are slices of one array, as
// a vector's values are: the bytes after each key are the next key's
// (read with it by keyWords and masked off), keys of up to 24 bytes from
// the alphabet {0, a, b} are prefixes of one another and differ only in
// the middle, and the last keys lack 16 bytes of room.
func TestDictionaryKeysInOneArray(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 20 {
		var data []byte
		var offs []int
		alphabet := []byte{0, 'a', 'b'}
		for range 3000 {
			offs = append(offs, len(data))
			n := r.IntN(25)
			if round%2 == 1 {
				n = r.IntN(4) // few distinct keys, as in a flag column
			}
			for range n {
				data = append(data, alphabet[r.IntN(len(alphabet))])
			}
		}
		// Long keys alike in their first and last 8 bytes and length,
		// different in the middle, in turn.
		for i := range 200 {
			offs = append(offs, len(data))
			data = append(data, "prefix08"...)
			data = append(data, bytes.Repeat([]byte{byte('0' + i%5)}, 4)...)
			data = append(data, "suffix08"...)
		}
		offs = append(offs, len(data))
		data = data[:len(data):len(data)] // the last keys have no room
		d := newDictionary()
		ids := map[string]int32{}
		for pass := range 2 {
			for i := range len(offs) - 1 {
				checkAdd(t, d, ids, data[offs[i]:offs[i+1]], fmt.Sprintf("round %d, pass %d, key %d", round, pass, i))
			}
		}
		if d.len() != len(ids) {
			t.Fatalf("round %d: %d keys, want %d", round, d.len(), len(ids))
		}
	}
}

// checkAdd adds k to d and checks the id and the added flag against ids,
// the keys added so far by their ids, which it keeps up to date.
func checkAdd(t *testing.T, d *dictionary, ids map[string]int32, k []byte, where string) int32 {
	t.Helper()
	id, added := d.add(k)
	want, seen := ids[string(k)]
	if !seen {
		want = int32(len(ids))
		ids[string(k)] = want
	}
	if id != want || added == seen {
		t.Fatalf("%s: add(%q) = %d, %v; want %d, %v", where, k, id, added, want, !seen)
	}
	return id
}
