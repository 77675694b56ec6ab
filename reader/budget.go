package reader

// The scan memory budget (WithMaxScanMemory). A scan's large allocations are
// known in size before they are made: the bytes fetched for a stripe, one
// decompression block per compressed stream, a string column's dictionary,
// a batch's string bytes and list or map children. Each has a slot holding
// the bytes it needs now; changing a slot checks the scan's total (shared by
// parallel workers) against the limit before anything is allocated.

import (
	"fmt"
	"sync/atomic"

	"github.com/orcgo/orc"
)

// budget is one scan's memory limit and the bytes its slots hold.
type budget struct {
	limit int64
	used  atomic.Int64
}

// set changes the bytes held by slot to n. Growing past the limit fails
// with an error wrapping orc.ErrLimit and leaves the slot unchanged; what
// describes the need (it is called only on failure). A nil budget allows
// everything.
func (b *budget) set(slot *int64, n int64, what func() string) error {
	if b == nil {
		return nil
	}
	d := n - *slot
	if d > 0 {
		if u := b.used.Add(d); u > b.limit {
			b.used.Add(-d)
			return fmt.Errorf("%w: %s needs %d bytes, and the scan would hold %d, over WithMaxScanMemory(%d)",
				orc.ErrLimit, what(), n, u, b.limit)
		}
	} else {
		b.used.Add(d)
	}
	*slot = n
	return nil
}

// take adds n bytes held outside any slot (buffers shared by several
// streams, or held by goroutines of their own), failing like set.
func (b *budget) take(n int64, what func() string) error {
	if b == nil || n <= 0 {
		return nil
	}
	if u := b.used.Add(n); u > b.limit {
		b.used.Add(-n)
		return fmt.Errorf("%w: %s needs %d bytes, and the scan would hold %d, over WithMaxScanMemory(%d)",
			orc.ErrLimit, what(), n, u, b.limit)
	}
	return nil
}

// release gives back n bytes of take.
func (b *budget) release(n int64) {
	if b != nil && n > 0 {
		b.used.Add(-n)
	}
}
