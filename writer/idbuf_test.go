package writer

import (
	"math/rand/v2"
	"testing"
)

// TestIDBuffer adds ids in batches, with dictionaries that grow past
// every width from 1 to 20 bits (each growth packing the held ids again),
// and reads them back from random starting points; then reuses the buffer
// after reset.
func TestIDBuffer(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var b idBuffer
	for round := range 3 {
		b.reset()
		var want []int64
		keys := 1
		for len(want) < 60000 {
			if r.IntN(4) == 0 {
				keys += r.IntN(keys) + 1 // new keys: the width may grow
			}
			keys = min(keys, 1<<20)
			batch := make([]int64, r.IntN(300))
			for i := range batch {
				batch[i] = int64(r.IntN(keys))
				if r.IntN(50) == 0 {
					batch[i] = int64(keys - 1) // the largest id
				}
			}
			b.add(batch, keys)
			want = append(want, batch...)
		}
		if b.len() != len(want) {
			t.Fatalf("round %d: %d ids, want %d", round, b.len(), len(want))
		}
		if b.w != 20 && keys == 1<<20 {
			t.Fatalf("round %d: width %d with %d keys", round, b.w, keys)
		}
		for range 200 {
			first := r.IntN(len(want))
			got := make([]int64, r.IntN(min(2000, len(want)-first)+1))
			b.read(first, got)
			for i, id := range got {
				if id != want[first+i] {
					t.Fatalf("round %d: id %d = %d, want %d (width %d)", round, first+i, id, want[first+i], b.w)
				}
			}
		}
	}
}

// TestIDBufferReuse checks that a buffer reset for the next stripe takes
// the same ids, widening from 1 bit to 14 as a column's dictionary grows,
// without allocating: the ids are packed again in place.
func TestIDBufferReuse(t *testing.T) {
	ids := make([]int64, 10000)
	for i := range ids {
		ids[i] = int64(i)
	}
	var b idBuffer
	fill := func() {
		b.reset()
		for i := 0; i < len(ids); i += 100 {
			b.add(ids[i:i+100], i+100)
		}
	}
	fill()
	if allocs := testing.AllocsPerRun(5, fill); allocs != 0 {
		t.Errorf("refilling a reset buffer allocated %.0f times, want 0", allocs)
	}
	got := make([]int64, len(ids))
	b.read(0, got)
	for i, id := range got {
		if id != int64(i) {
			t.Fatalf("id %d = %d after the refills", i, id)
		}
	}
}
