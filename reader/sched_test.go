package reader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// slowFile is an in-memory file whose reads take a while, as an object
// store's do, and can be made to fail over a range.
type slowFile struct {
	data     []byte
	latency  time.Duration
	failAt   int64 // reads covering this offset fail (-1: none)
	calls    atomic.Int64
	running  atomic.Int64
	peak     atomic.Int64
	mu       sync.Mutex
	requests [][2]int64
}

func (f *slowFile) ReadAt(p []byte, off int64) (int, error) {
	f.calls.Add(1)
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		pk := f.peak.Load()
		if n <= pk || f.peak.CompareAndSwap(pk, n) {
			break
		}
	}
	f.mu.Lock()
	f.requests = append(f.requests, [2]int64{off, int64(len(p))})
	f.mu.Unlock()
	time.Sleep(f.latency)
	if f.failAt >= off && f.failAt < off+int64(len(p)) {
		return 0, errors.New("injected failure")
	}
	return bytes.NewReader(f.data).ReadAt(p, off)
}

func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>9)
	}
	return b
}

func TestSchedCoalescesAndBoundsInFlight(t *testing.T) {
	f := &slowFile{data: testData(8 << 20), latency: 5 * time.Millisecond, failAt: -1}
	s := newIOSched(f, schedConfig{inFlight: 3, maxRequest: 1 << 20, prefetch: 64 << 20, gap: 4 << 10, ahead: true}, nil)
	defer s.close()
	// Ten streams of 300 KiB with 1 KiB gaps: merged across the gaps,
	// three to a request of at most 1 MiB.
	const n, stride = 300 << 10, 301 << 10
	var spans []span
	for k := int64(0); k < 10; k++ {
		spans = append(spans, span{off: k * stride, n: n, end: 1})
	}
	s.schedule(0, spans)
	for k := int64(0); k < 10; k++ {
		p := make([]byte, n)
		if err := s.readAt(p, k*stride); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p, f.data[k*stride:][:n]) {
			t.Fatalf("stream %d: wrong bytes", k)
		}
	}
	st := s.stats()
	if st.requests != 4 {
		t.Errorf("%d requests for ten 300 KiB ranges in requests of at most 1 MiB, want 4: %v", st.requests, f.requests)
	}
	for _, r := range f.requests {
		if r[1] > 1<<20 {
			t.Errorf("a request of %d bytes", r[1])
		}
	}
	if p := f.peak.Load(); p > 3 || p < 2 {
		t.Errorf("%d requests in flight at once, want 2..3", p)
	}
	if st.direct != 0 {
		t.Errorf("%d reads outside the schedule", st.direct)
	}
	if s.held != 0 {
		t.Errorf("%d bytes held after every planned byte was read", s.held)
	}
}

// TestSchedReadyEnd checks how far a stream's next piece reaches while
// reading ahead: through the requests that have arrived and the first
// that has not, never into a second one still coming.
func TestSchedReadyEnd(t *testing.T) {
	f := &slowFile{data: testData(4 << 20), latency: 30 * time.Millisecond, failAt: -1}
	s := newIOSched(f, schedConfig{inFlight: 1, maxRequest: 1 << 20, prefetch: 64 << 20, ahead: true}, nil)
	defer s.close()
	// Four requests of 1 MiB; one in flight at a time, so only the first
	// has arrived once it has been read.
	s.schedule(0, []span{{off: 0, n: 4 << 20, end: 1}})
	p := make([]byte, 1024)
	if err := s.readAt(p, 0); err != nil {
		t.Fatal(err)
	}
	const mib = 1 << 20
	for _, c := range []struct{ off, limit, want int64 }{
		{0, 4 * mib, 1 * mib},          // the arrived one, not the next
		{mib / 2, mib, mib},            // within one request: the limit
		{mib, 4 * mib, 2 * mib},        // from the one not arrived: it alone
		{3 * mib, 4 * mib, 4 * mib},    // the last, not arrived: wanted now
		{5 * mib, 6 * mib, 6 * mib},    // outside every request: the limit
		{4*mib - 10, 5 * mib, 4 * mib}, // not past the requests
	} {
		if got := s.readyEnd(c.off, c.limit); got != c.want {
			t.Errorf("readyEnd(%d, %d) = %d, want %d", c.off, c.limit, got, c.want)
		}
	}
	// A file that shows no latency is read as asked.
	l := newIOSched(f, schedConfig{inFlight: 1, maxRequest: 1 << 20, prefetch: 64 << 20}, nil)
	defer l.close()
	l.schedule(0, []span{{off: 0, n: 4 << 20, end: 1}})
	if got := l.readyEnd(0, 4*mib); got != 4*mib {
		t.Errorf("not reading ahead: readyEnd = %d, want the limit", got)
	}
}

// TestSchedHidesLatency reads 16 requests' worth one after another: with
// 8 in flight it waits for about 2 round trips, not 16 (8 allows for a
// loaded machine; under -race only the counts are checked).
func TestSchedHidesLatency(t *testing.T) {
	const lat = 50 * time.Millisecond
	f := &slowFile{data: testData(16 << 20), latency: lat, failAt: -1}
	s := newIOSched(f, schedConfig{inFlight: 8, maxRequest: 1 << 20, prefetch: 64 << 20, gap: 0, ahead: true}, nil)
	defer s.close()
	s.schedule(0, []span{{off: 0, n: 16 << 20, end: 1}})
	start := time.Now()
	p := make([]byte, 64<<10)
	for off := int64(0); off < 16<<20; off += int64(len(p)) {
		if err := s.readAt(p, off); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	if took > 8*lat && !raceEnabled {
		t.Errorf("reading 16 requests took %v, over 8 round trips of %v", took, lat)
	}
	st := s.stats()
	if st.peak != 8 || st.requests != 16 || st.direct != 0 {
		t.Errorf("%v, want 16 requests, 8 in flight at most", st)
	}
	t.Logf("16 requests of 1 MiB at %v each: %v; %v", lat, took, st)
}

func TestSchedFastFileReadsDirectly(t *testing.T) {
	f := &slowFile{data: testData(4 << 20), failAt: -1}
	s := newIOSched(f, schedConfig{inFlight: 8, maxRequest: 1 << 20, prefetch: 64 << 20, gap: 64 << 10}, nil)
	defer s.close()
	s.schedule(0, []span{{off: 0, n: 4 << 20, end: 1}})
	p := make([]byte, 256<<10)
	for off := int64(0); off < 4<<20; off += int64(len(p)) {
		if err := s.readAt(p, off); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p, f.data[off:][:len(p)]) {
			t.Fatal("wrong bytes")
		}
	}
	if st := s.stats(); st.prefetched != 0 || st.requests != 16 {
		t.Errorf("a local file: %v, want 16 direct reads and none ahead", st)
	}
	if len(s.blocks) != 0 || len(s.queue) != 0 {
		t.Errorf("%d blocks, %d queued after every planned byte was read", len(s.blocks), len(s.queue))
	}
}

// TestSchedFailedReadSurfacesWhereNeeded fails one request: reads before
// it succeed, the read needing it fails with its error.
func TestSchedFailedReadSurfacesWhereNeeded(t *testing.T) {
	f := &slowFile{data: testData(4 << 20), latency: time.Millisecond, failAt: 3<<20 + 5}
	s := newIOSched(f, schedConfig{inFlight: 4, maxRequest: 1 << 20, prefetch: 64 << 20, ahead: true}, nil)
	defer s.close()
	s.schedule(0, []span{{off: 0, n: 4 << 20, end: 1}})
	p := make([]byte, 1<<20)
	for k := int64(0); k < 3; k++ {
		if err := s.readAt(p, k<<20); err != nil {
			t.Fatalf("read %d: %v", k, err)
		}
	}
	err := s.readAt(p, 3<<20)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("injected failure")) {
		t.Fatalf("the read of the failed request: %v", err)
	}
}

func TestSchedCloseAndCancelWakeReads(t *testing.T) {
	for _, how := range []string{"close", "cancel"} {
		t.Run(how, func(t *testing.T) {
			f := &slowFile{data: testData(1 << 20), latency: 2 * time.Second, failAt: -1}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := newIOSched(f, schedConfig{inFlight: 2, maxRequest: 1 << 20, prefetch: 4 << 20, ahead: true}, ctx)
			s.schedule(0, []span{{off: 0, n: 1 << 20, end: 1}})
			errc := make(chan error, 1)
			go func() { errc <- s.readAt(make([]byte, 100), 0) }()
			time.Sleep(20 * time.Millisecond)
			if how == "close" {
				s.close()
			} else {
				cancel()
			}
			select {
			case err := <-errc:
				if err == nil {
					t.Fatal("a read returned bytes its request never delivered")
				}
			case <-time.After(time.Second):
				t.Fatal("the read kept waiting")
			}
			s.close()
		})
	}
}

// TestSchedRandomReads checks the bytes of random reads, planned,
// overlapping and unplanned, from many goroutines, prefetching or not.
func TestSchedRandomReads(t *testing.T) {
	data := testData(1 << 20)
	for seed := uint64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		f := &slowFile{data: data, failAt: -1}
		if seed%2 == 0 {
			f.latency = 100 * time.Microsecond
		}
		cfg := schedConfig{inFlight: 1 + rng.IntN(6), maxRequest: int64(4<<10 + rng.IntN(512<<10)),
			prefetch: int64(rng.IntN(2 << 20)), gap: int64(rng.IntN(64 << 10)), ahead: seed%3 == 0}
		s := newIOSched(f, cfg, nil)
		var spans []span
		for range 1 + rng.IntN(30) {
			off := rng.Int64N(int64(len(data)) - 1)
			n := 1 + rng.Int64N(min(int64(len(data))-off, 200<<10))
			a := rng.Float64()
			spans = append(spans, span{off: off, n: n, pos: a, end: a + (1-a)*rng.Float64()})
		}
		s.schedule(int(seed), append([]span(nil), spans...))
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(seed, uint64(g)))
				for range 25 {
					var off, n int64
					if r.IntN(3) > 0 {
						sp := spans[r.IntN(len(spans))]
						off, n = sp.off, sp.n
					} else {
						off = r.Int64N(int64(len(data)) - 1)
						n = 1 + r.Int64N(min(int64(len(data))-off, 100<<10))
					}
					p := make([]byte, n)
					if err := s.readAt(p, off); err != nil {
						errs <- err
						return
					}
					if !bytes.Equal(p, data[off:off+n]) {
						errs <- fmt.Errorf("seed %d: wrong bytes at %d+%d", seed, off, n)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		s.release(-1)
		s.mu.Lock()
		if s.running == 0 && s.held != 0 {
			t.Errorf("seed %d: %d bytes held after release", seed, s.held)
		}
		s.mu.Unlock()
		s.close()
	}
}

// TestSchedModeIsDeclared: whether the scheduler reads ahead is what its
// configuration declares, never what reads' times suggest. Not declared,
// a file whose reads all wait 5 ms or a round trip is read as asked, one
// direct read each, nothing ahead; declared, a file answering at once is
// read ahead from the first read.
func TestSchedModeIsDeclared(t *testing.T) {
	read := func(s *ioSched, n int) {
		t.Helper()
		s.schedule(0, []span{{off: 0, n: 2 << 20, end: 1}})
		p := make([]byte, 64<<10)
		for k := range n {
			if err := s.readAt(p, int64(k)*int64(len(p))); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg := schedConfig{inFlight: 4, maxRequest: 256 << 10, prefetch: 8 << 20}
	for _, lat := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond} {
		s := newIOSched(&slowFile{data: testData(2 << 20), latency: lat, failAt: -1}, cfg, nil)
		read(s, 4)
		s.close()
		if st := s.stats(); st.prefetched != 0 || st.requests != 4 {
			t.Errorf("reads of %v, not declared ahead: %v, want 4 direct reads and none ahead", lat, st)
		}
	}
	cfg.ahead = true
	s := newIOSched(&slowFile{data: testData(2 << 20), failAt: -1}, cfg, nil)
	defer s.close()
	read(s, 2)
	if st := s.stats(); st.prefetched == 0 {
		t.Errorf("declared ahead, a file answering at once: %v, want requests issued ahead", st)
	}
}
