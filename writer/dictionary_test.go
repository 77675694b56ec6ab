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
			id, added := d.add(k)
			want, seen := ids[string(k)]
			if !seen {
				want = int32(len(ids))
				ids[string(k)] = want
			}
			if id != want || added == seen {
				t.Fatalf("size %d: add(%q) = %d, %v; want %d, %v", size, k, id, added, want, !seen)
			}
			if !bytes.Equal(d.key(id), k) {
				t.Fatalf("size %d: key(%d) = %q, want %q", size, id, d.key(id), k)
			}
		}
		if d.len() != len(ids) {
			t.Fatalf("size %d: %d keys, want %d", size, d.len(), len(ids))
		}
	}
}
