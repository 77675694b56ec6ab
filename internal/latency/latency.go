// Package latency keeps the shortest wait for an answer that a remote file
// has seen: what reader.LatencyReader reports, for httpfile, cloud and the
// store gateway's client alike.
package latency

import (
	"sync/atomic"
	"time"
)

// Min is the shortest of the latencies noted so far. It is safe for
// concurrent use; the zero value has noted none.
type Min struct {
	ns atomic.Int64 // 0: none yet
}

// Note records one wait. A wait under a nanosecond counts as one, so
// that a noted latency is never 0.
func (m *Min) Note(d time.Duration) {
	d = max(d, time.Nanosecond)
	for {
		old := m.ns.Load()
		if old != 0 && old <= int64(d) || m.ns.CompareAndSwap(old, int64(d)) {
			return
		}
	}
}

// Get returns the shortest wait noted, or 0 before the first.
func (m *Min) Get() time.Duration { return time.Duration(m.ns.Load()) }
