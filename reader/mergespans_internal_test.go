package reader

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// mergeSpans joins only spans that follow one another with the same rows
// and reads, up to mergeSpanMax bytes, and the scheduler makes the same
// requests of the merged spans as of the spans themselves (when requests
// are as small as streams, requests covering the same bytes, cut inside
// streams rather than between them), which it gives back once their bytes
// are read.
func TestMergeSpansSameRequests(t *testing.T) {
	spans := []span{
		{off: 0, n: 10, end: 1}, {off: 10, n: 20, end: 1}, // joined
		{off: 40, n: 5, end: 1},                     // a gap
		{off: 45, n: 5, pos: 0.5, end: 1},           // other rows
		{off: 50, n: 5, pos: 0.5, end: 1, times: 2}, // other reads
		{off: 55, n: mergeSpanMax, pos: 0.5, end: 1, times: 2},
	}
	got := mergeSpans(append([]span(nil), spans...))
	want := []span{{off: 0, n: 30, end: 1}, spans[2], spans[3], spans[4], spans[5]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merged %v, want %v", got, want)
	}
	// A wide stripe: 3,000 streams of 7..300 bytes, some with gaps, read
	// in requests of at most 64 KiB (4 KiB for the second schedule).
	var wide []span
	off := int64(0)
	for i := range 3000 {
		n := int64(7 + i*37%293)
		if i%100 == 99 {
			off += 9000 // past the coalescing gap
		}
		wide = append(wide, span{off: off, n: n, end: 1})
		off += n
	}
	for _, maxReq := range []int64{64 << 10, 4 << 10} {
		var reqs [2][]string
		for k, ss := range [][]span{wide, mergeSpans(append([]span(nil), wide...))} {
			f := &slowFile{data: testData(int(off)), latency: time.Millisecond, failAt: -1}
			s := newIOSched(f, schedConfig{inFlight: 2, maxRequest: maxReq, prefetch: 1 << 20, gap: 4 << 10, ahead: true}, nil)
			reqs[k] = s.schedule(0, ss)
			for _, sp := range wide {
				p := make([]byte, sp.n)
				if err := s.readAt(p, sp.off); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(p, f.data[sp.off:sp.off+sp.n]) {
					t.Fatalf("span at %d: wrong bytes", sp.off)
				}
			}
			if s.held != 0 {
				t.Errorf("max request %d, merged %v: %d bytes held after every planned byte was read", maxReq, k == 1, s.held)
			}
			s.close()
		}
		same := reflect.DeepEqual(reqs[0], reqs[1])
		if maxReq < mergeSpanMax {
			same = reflect.DeepEqual(covered(t, reqs[0]), covered(t, reqs[1])) && len(reqs[1]) <= len(reqs[0])
		}
		if len(reqs[0]) == 0 || !same {
			t.Errorf("max request %d: requests %v, merged %v", maxReq, reqs[0], reqs[1])
		}
	}
}

// covered returns the file ranges requests (as schedule lists them) cover,
// adjacent ones joined.
func covered(t *testing.T, reqs []string) [][2]int64 {
	var out [][2]int64
	for _, r := range reqs {
		var off, n int64
		if _, err := fmt.Sscanf(r, "%d+%d", &off, &n); err != nil {
			t.Fatalf("request %q: %v", r, err)
		}
		if k := len(out) - 1; k >= 0 && out[k][1] == off {
			out[k][1] = off + n
			continue
		}
		out = append(out, [2]int64{off, off + n})
	}
	return out
}
