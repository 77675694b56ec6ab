package reader

// The I/O scheduler: the one caller of the file's ReadAt for a scan's
// stripe data, index streams and stripe footers.
//
// When a stripe is planned, the executor hands the scheduler the byte
// ranges its plan will read, each with the span of the stripe's rows that
// reads it (schedule). The scheduler divides the stripe into slices of
// about a quarter of the prefetch bound, cuts the ranges by slice, merges
// the pieces of a slice across gaps into requests of at most the maximum
// request size, and issues them slice by slice: the decoders of all
// columns move through their streams together, row by row, so a slice's
// bytes are wanted together. It keeps up to inFlight requests running,
// each on a goroutine of its own, as long as the bytes fetched and not yet
// read stay within the prefetch bound: while the decoders work through
// one slice, the next three can be on their way.
//
// Decoders never call ReadAt: they call readAt, which copies out of the
// fetched requests, waiting for one still in flight and issuing one not
// started yet at once, whatever the bounds (so a scan never waits on
// its own prefetch limit). A stream asks for its next piece only as far
// as the requests that have arrived reach (readyEnd), so a window never
// waits for a slice the decoder has not reached. Bytes no request covers
// (what no plan foresaw) are read directly, one ReadAt each. A request is
// given back once every planned byte in it has been read as many times as
// planned, or when its stripe ends (release).
//
// Whether the scheduler reads ahead is declared when the scan starts, from
// what the file is and the scan's options (scanConfig.readAhead), and never
// changes: a reader over a network (a LatencyReader, such as httpfile.File)
// or a scan given WithPrefetch(n > 0) reads ahead from its first read; a
// file of this machine, or any other reader, is read as the decoder asks,
// readAt reading straight into the caller's buffer and nothing held ahead.
// Nothing is decided from how long reads took, so two scans of a file
// with the same options make the same requests, however loaded the
// machine or the network. The workers of a parallel scan of a reader that
// is not a file of this machine read through the scheduled requests even
// when not reading ahead (issuing each when the first of them needs it),
// so that between them they make the requests of one serial scan, not one
// per row group and stream: a store answering fast enough to pass for a
// local file still charges per request. A file of this machine (an
// *os.File: Reader.onDisk) charges nothing per read, and a shared request
// costs a copy out of it and the bytes it holds, so there the workers
// read, and their stripes are scheduled, as in a serial scan
// (schedConfig.shared is off; lineitem SF 1 on 2 goroutines: 12,667 reads
// where shared requests made 1,877, the full scan 0.94x the time and 20
// MiB less peak RSS).
//
// A request that fails keeps its error, which the read that needs its
// bytes returns: a scan never fails on a prefetch it does not use, and
// never returns rows past the bytes that failed.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"
)

// Defaults of the scheduler's options, chosen for object stores (a
// round trip of 10-50 ms before the first byte, 50-200 MB/s per request);
// reader.WithMaxReadsInFlight and the options beside it document them.
const (
	defaultInFlight   = 32
	defaultMaxRequest = 4 << 20
	defaultPrefetch   = 32 << 20 // for each goroutine decoding
	maxPrefetchScale  = 4        // ... of at most this many
)

// schedConfig is what the scheduler takes from the scan's options.
type schedConfig struct {
	inFlight   int   // requests running at once
	maxRequest int64 // bytes of one request (a longer range is split)
	prefetch   int64 // bytes fetched ahead of the decoders; 0: none
	// Ranges closer than gap are merged; closer than mergeGap (wider when
	// reading ahead, over a network, unless WithCoalesceGap set it) while
	// the bytes between stay within the waste budget (wasteFitsLocked).
	gap, mergeGap int64
	// ahead says the scan reads ahead (scanConfig.readAhead), fixed for
	// the scan.
	ahead bool
	// shared says several goroutines decode the scan (WithParallelism)
	// of a file that is not on this machine (Reader.onDisk): their reads
	// of scheduled bytes go through the scheduled requests even when not
	// reading ahead, so the workers, each reading its own row groups, make
	// the requests of one serial scan between them. A file on this
	// machine, whose reads cost no request, is read by them as a serial
	// scan reads it.
	shared bool
}

// ioSched schedules one scan's reads (see the file comment). Its methods
// are safe for concurrent use by the scan's goroutines.
type ioSched struct {
	r      io.ReaderAt
	cfg    schedConfig
	ctx    context.Context
	cancel context.CancelFunc // ends reads in flight (underContext)

	mu      sync.Mutex
	blocks  []*ioBlock    // scheduled and not given back, by offset
	queue   []*ioBlock    // scheduled and not issued, in issue order
	running int           // requests in flight
	held    int64         // bytes of issued blocks not given back
	stop    chan struct{} // closed by close (isClosed)
	st      schedStats

	// look holds the footers parsed ahead of their stripes' turn, which
	// the scan's planners (a parallel scan's decoders' and its own) share.
	look *lookahead
}

// schedStats counts what the scheduler did.
type schedStats struct {
	requests   int           // ReadAt calls
	bytes      int64         // bytes they read
	prefetched int           // requests issued ahead of a read needing them
	direct     int           // reads of bytes no request covered
	peak       int           // most requests in flight at once
	wasted     int64         // bytes fetched and given back unread
	waited     time.Duration // readers waiting for requests and direct reads
}

// ioBlock is one scheduled request.
type ioBlock struct {
	off, n int64
	tag    int           // the stripe it belongs to
	order  float64       // issue order within its stripe: its slice
	need   int64         // planned bytes not read yet (the sum of parts' left)
	parts  []plannedPart // the planned ranges it holds, by offset
	read   int64         // bytes copied out
	buf    []byte
	issued bool
	done   chan struct{} // closed when the request ends
	err    error
	ended  bool // the request ended (done is closed)
	pins   int  // reads copying out of buf
	gone   bool // given back (buf returned when no read pins it)
	freed  bool // buf returned and its bytes uncharged
}

func newIOSched(r io.ReaderAt, cfg schedConfig, ctx context.Context) *ioSched {
	if cfg.prefetch == 0 {
		cfg.ahead = false
	}
	if cfg.inFlight < 1 {
		cfg.inFlight = 1
	}
	cfg.mergeGap = max(cfg.mergeGap, cfg.gap)
	if cfg.maxRequest < 4<<10 {
		cfg.maxRequest = 4 << 10
	}
	r, cancel := underContext(r, ctx)
	return &ioSched{r: r, cfg: cfg, ctx: ctx, cancel: cancel, stop: make(chan struct{}), look: &lookahead{}}
}

// span is a planned range of the file: bytes [off, off+n) that one stream
// reads, its first byte wanted when the decoder is at pos and its last at
// end (positions run from 0 to 1 through the stripe's rows; a stream read
// whole when its column starts has both at 0).
type span struct {
	off, n   int64
	pos, end float64
	times    int // how many times its bytes are read (0: once)
}

// slicesPerBound is how many slices the bytes of the prefetch bound
// make: a slice is a quarter of it, so while the decoders work through one
// slice the next three can be in flight.
const slicesPerBound = 4

// minPiece is the least a stream's range is cut into when the scheduler
// divides a stripe into slices.
const minPiece = 512 << 10

// plannedPart is a planned range of a request and the reads of its bytes still
// due (its length times the times it is read).
type plannedPart struct {
	off, n, left int64
}

// readLocked counts [off, off+n) as read from b, from the planned parts it
// overlaps.
func (b *ioBlock) readLocked(off, n int64) {
	end := off + n
	i := sort.Search(len(b.parts), func(i int) bool { return b.parts[i].off+b.parts[i].n > off })
	for ; i < len(b.parts) && b.parts[i].off < end; i++ {
		pt := &b.parts[i]
		k := min(min(end, pt.off+pt.n)-max(off, pt.off), pt.left)
		pt.left -= k
		b.need -= k
	}
}

// addLocked adds the planned range [off, off+n), read times times.
func (b *ioBlock) addLocked(off, n int64, times int) {
	left := n * int64(times)
	b.need += left
	i := sort.Search(len(b.parts), func(i int) bool { return b.parts[i].off >= off })
	if i < len(b.parts) && b.parts[i].off == off && b.parts[i].n == n {
		b.parts[i].left += left
		return
	}
	b.parts = append(b.parts, plannedPart{})
	copy(b.parts[i+1:], b.parts[i:])
	b.parts[i] = plannedPart{off: off, n: n, left: left}
}

// piece is a part of a span, in slice slice of its stripe.
type piece struct {
	off, n int64
	slice  int
	times  int
}

// slicePieces cuts spans into pieces by the k slices of the stripe's rows
// they fall in: the decoder wants slice j's bytes once it has read about j
// k-ths of the rows. A span is cut into at most one piece per slice it
// spans and into pieces of at least least bytes.
func slicePieces(spans []span, k int, least int64) []piece {
	var out []piece
	for _, sp := range spans {
		if sp.n <= 0 {
			continue
		}
		first := min(int(sp.pos*float64(k)), k-1)
		last := min(int(sp.end*float64(k)), k-1)
		m := min(last-first+1, int(max(1, sp.n/least)))
		times := max(sp.times, 1)
		if m <= 1 || sp.end <= sp.pos {
			out = append(out, piece{off: sp.off, n: sp.n, slice: first, times: times})
			continue
		}
		for j := range m {
			a, b := sp.n*int64(j)/int64(m), sp.n*int64(j+1)/int64(m)
			at := sp.pos + (sp.end-sp.pos)*float64(j)/float64(m)
			out = append(out, piece{off: sp.off + a, n: b - a, slice: min(int(at*float64(k)), k-1), times: times})
		}
	}
	return out
}

// schedule adds the requests for the spans of stripe tag. The stripe is
// divided into slices of about a quarter of the prefetch bound (of
// localShared for a parallel scan of a local file; all one slice when
// it fits), the spans cut into pieces by slice (slicePieces), and pieces
// of one slice merged across gaps into requests of at most the maximum
// request size; the requests are issued slice by slice, each in file
// order. Reading ahead so keeps the next slices in flight while the
// decoder works through the current one, and a request's bytes belong to
// streams that read them at about the same time, so it is given back soon
// after it arrives. Bytes already covered by a scheduled request add
// nothing but their need.
//
// It returns the requests it added, in issue order, as "offset+length"
// with their slice when there are several, for explain.
func (s *ioSched) schedule(tag int, spans []span) []string {
	if len(spans) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if isClosed(s.stop) {
		return nil
	}
	var total int64
	for _, sp := range spans {
		total += sp.n
	}
	k := 1
	if bound := s.sliceBoundLocked(); bound > 0 {
		k = int(min((slicesPerBound*total+bound-1)/bound, 1024))
	}
	least, maxRequest := int64(minPiece), s.cfg.maxRequest
	if !s.cfg.ahead && s.cfg.shared {
		// Workers of a parallel scan of a local file: small requests,
		// held for a short while, whose buffers the pools keep reusing.
		least, maxRequest = localPiece, min(maxRequest, localRequest)
	}
	pieces := slicePieces(spans, max(k, 1), least)
	sort.Slice(pieces, func(a, b int) bool { return pieces[a].off < pieces[b].off })
	var added []*ioBlock
	var cur *ioBlock
	var useful int64 // planned bytes in cur
	flush := func() {
		if cur != nil {
			added = append(added, cur)
			cur = nil
		}
	}
	for _, pc := range pieces {
		for pc.n > 0 {
			if b := s.findLocked(pc.off); b != nil {
				// Already scheduled: count the bytes as needed there.
				k := min(pc.n, b.off+b.n-pc.off)
				b.addLocked(pc.off, k, pc.times)
				pc.off, pc.n = pc.off+k, pc.n-k
				continue
			}
			// The piece's part before the next scheduled block.
			n := pc.n
			if nb := s.nextBlockLocked(pc.off); nb != nil && nb.off < pc.off+n {
				n = nb.off - pc.off
			}
			if cur != nil && (pc.off > cur.off+cur.n+s.gap() || pc.off+n-cur.off > maxRequest ||
				pc.off < cur.off+cur.n || int(cur.order) != pc.slice || !s.wasteFitsLocked(cur, useful, pc.off, n)) {
				flush()
			}
			if cur == nil {
				cur = &ioBlock{off: pc.off, tag: tag, order: float64(pc.slice), done: make(chan struct{})}
				n = min(n, maxRequest)
				useful = 0
			}
			useful += n
			cur.n = pc.off + n - cur.off
			cur.addLocked(pc.off, n, pc.times)
			pc.off, pc.n = pc.off+n, pc.n-n
		}
	}
	flush()
	if len(added) == 0 {
		return nil
	}
	s.blocks = append(s.blocks, added...)
	sort.Slice(s.blocks, func(a, b int) bool { return s.blocks[a].off < s.blocks[b].off })
	sort.SliceStable(added, func(a, b int) bool { return added[a].order < added[b].order })
	s.queue = append(s.queue, added...)
	s.pumpLocked()
	return showRequests(added, k > 1)
}

// showRequests formats requests as explain prints them: "offset+length",
// with their slice when the stripe has several.
func showRequests(added []*ioBlock, slices bool) []string {
	shown := make([]string, len(added))
	for i, b := range added {
		shown[i] = fmt.Sprintf("%d+%d", b.off, b.n)
		if slices {
			shown[i] += fmt.Sprintf(" (slice %d)", int(b.order))
		}
	}
	return shown
}

// wasteFitsLocked reports whether a request b holding useful planned bytes
// may grow across the gap to n planned bytes at off within the budget of
// bytes fetched that no plan reads: gaps up to the scan's own coalescing
// gap always (what a local scan reads across too), the wider gap of a scan
// reading ahead only while the unplanned bytes of the request stay within
// maxWaste of its planned ones. So a narrow range's or a lookup's few
// ranges in a stripe are not fetched as the whole stripe between them,
// and a full scan's requests, whose ranges touch, are as large as before.
func (s *ioSched) wasteFitsLocked(b *ioBlock, useful, off, n int64) bool {
	gap := off - (b.off + b.n)
	if gap <= s.cfg.gap {
		return true
	}
	waste := b.n - useful + gap
	return waste*maxWasteDen <= (useful+n)*maxWasteNum
}

// maxWasteNum/maxWasteDen is the most a request reading ahead fetches of
// bytes no plan reads across gaps wider than the coalescing gap, against
// the planned bytes it holds: half, so that a scan over a network fetches
// at most about 1.5 times what it needs.
const (
	maxWasteNum = 1
	maxWasteDen = 2
)

// sliceBoundLocked returns the bytes a stripe's slices are cut from (a
// slice is a quarter of them): the prefetch bound when reading ahead, and
// when the workers of a parallel scan read a local file together, a bound
// of localShared for each, so that the requests they wait for are few
// and what they hold is small.
func (s *ioSched) sliceBoundLocked() int64 {
	if !s.cfg.ahead && s.cfg.shared {
		return localShared
	}
	return s.cfg.prefetch
}

// localShared is sliceBoundLocked's bound for the workers of a parallel
// scan of a local file, whose requests are of at most localRequest bytes
// and cut streams into pieces of at least localPiece: what the workers
// hold is a slice or two, a few MiB.
const (
	localShared  = 8 << 20
	localRequest = 4 << 20
	localPiece   = 64 << 10
)

// issuedLocked reports whether a request overlapping [off, off+n) was
// issued.
func (s *ioSched) issuedLocked(off, n int64) bool {
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].off+s.blocks[i].n > off })
	for ; i < len(s.blocks) && s.blocks[i].off < off+n; i++ {
		if s.blocks[i].issued {
			return true
		}
	}
	return false
}

// coveredLocked reports whether scheduled blocks cover [off, off+n).
func (s *ioSched) coveredLocked(off, n int64) bool {
	for end := off + n; off < end; {
		b := s.findLocked(off)
		if b == nil {
			return false
		}
		off = b.off + b.n
	}
	return true
}

// arrived reports whether scheduled requests that have arrived cover
// [off, off+n), so that reading it does not wait.
func (s *ioSched) arrived(off, n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for end := off + n; off < end; {
		b := s.findLocked(off)
		if b == nil || !b.ended || b.err != nil {
			return false
		}
		off = b.off + b.n
	}
	return true
}

// consumeLocked counts [off, off+n) as read from the blocks it overlaps,
// for a read that bypasses them, giving back those with nothing left.
func (s *ioSched) consumeLocked(off, n int64) {
	for end := off + n; off < end; {
		b := s.findLocked(off)
		if b == nil {
			nb := s.nextBlockLocked(off)
			if nb == nil || nb.off >= end {
				return
			}
			b = nb
			off = b.off
		}
		k := min(end, b.off+b.n) - off
		b.readLocked(off, k)
		if b.need == 0 && !b.gone && b.pins == 0 {
			s.dropLocked(b)
		}
		off += k
	}
}

// consume counts [off, off+n) as read, giving back the requests left with
// nothing to read.
func (s *ioSched) consume(off, n int64) {
	s.mu.Lock()
	s.consumeLocked(off, n)
	s.pumpLocked()
	s.mu.Unlock()
}

// scheduleNew schedules the spans that start outside every scheduled
// request (those inside were scheduled with their stripe).
func (s *ioSched) scheduleNew(tag int, spans []span) {
	s.mu.Lock()
	var fresh []span
	for _, sp := range spans {
		if s.findLocked(sp.off) == nil {
			fresh = append(fresh, sp)
		}
	}
	s.mu.Unlock()
	s.schedule(tag, fresh)
}

// findLocked returns the scheduled block holding off, or nil.
func (s *ioSched) findLocked(off int64) *ioBlock {
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].off > off }) - 1
	if i >= 0 && off < s.blocks[i].off+s.blocks[i].n {
		return s.blocks[i]
	}
	return nil
}

// nextBlockLocked returns the first scheduled block starting after off.
func (s *ioSched) nextBlockLocked(off int64) *ioBlock {
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].off > off })
	if i < len(s.blocks) {
		return s.blocks[i]
	}
	return nil
}

// pumpLocked issues queued requests while the bounds allow.
func (s *ioSched) pumpLocked() {
	for len(s.queue) > 0 && s.cfg.ahead && !isClosed(s.stop) && s.running < s.cfg.inFlight {
		b := s.queue[0]
		if s.held > 0 && s.held+b.n > s.cfg.prefetch {
			return
		}
		s.queue = s.queue[1:]
		s.st.prefetched++
		s.issueLocked(b)
	}
}

// issueLocked starts b's request on a goroutine of its own.
func (s *ioSched) issueLocked(b *ioBlock) {
	s.startLocked(b)
	go s.fetch(b)
}

// startLocked counts b's request as started; the caller runs fetch.
func (s *ioSched) startLocked(b *ioBlock) {
	b.issued = true
	s.held += b.n
	s.running++
	s.st.requests++
	s.st.bytes += b.n
	s.st.peak = max(s.st.peak, s.running)
}

// fetch runs b's request.
func (s *ioSched) fetch(b *ioBlock) {
	buf := getBuf(b.n) // here, not under the lock: a new buffer's pages fault in
	err := readFull(s.r, buf, b.off)
	s.mu.Lock()
	b.buf, b.err = buf, err
	b.ended = true
	s.running--
	close(b.done)
	s.freeIdleLocked(b) // given back while in flight

	s.pumpLocked()
	s.mu.Unlock()
}

// unqueueLocked takes b out of the issue queue.
func (s *ioSched) unqueueLocked(b *ioBlock) {
	for i, q := range s.queue {
		if q == b {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			return
		}
	}
}

// gap returns how far apart two ranges may be and still be read as one
// (schedConfig.mergeGap, fixed for the scan).
func (s *ioSched) gap() int64 { return s.cfg.mergeGap }

// ReadAt makes the scheduler an io.ReaderAt for the scan's reads: it
// fills p with the file's bytes at off, from scheduled requests where
// they cover them.
func (s *ioSched) ReadAt(p []byte, off int64) (int, error) {
	if err := s.readAt(p, off); err != nil {
		return 0, err
	}
	return len(p), nil
}

// readAt fills p with the bytes at off (see the file comment). Errors are
// readFull's.
func (s *ioSched) readAt(p []byte, off int64) error {
	for len(p) > 0 {
		s.mu.Lock()
		if isClosed(s.stop) {
			s.mu.Unlock()
			return errSchedClosed
		}
		b := s.findLocked(off)
		if !s.cfg.ahead && !s.cfg.shared && !s.issuedLocked(off, int64(len(p))) {
			// Not reading ahead: one read straight into p, whatever
			// scheduled requests it spans.
			s.consumeLocked(off, int64(len(p)))
			s.st.requests++
			s.st.bytes += int64(len(p))
			s.mu.Unlock()
			return s.direct(p, off)
		}
		if b != nil && !s.coveredLocked(off, int64(len(p))) {
			// Partly scheduled: one read of the whole range serves better
			// than several around the scheduled blocks.
			s.consumeLocked(off, int64(len(p)))
			b = nil
		}
		if b == nil {
			// Not scheduled: read directly up to the next block.
			n := int64(len(p))
			if nb := s.nextBlockLocked(off); nb != nil && nb.off < off+n {
				n = nb.off - off
			}
			s.st.requests++
			s.st.direct++
			s.st.bytes += n
			s.mu.Unlock()
			if err := s.direct(p[:n], off); err != nil {
				return err
			}
			p, off = p[n:], off+n
			continue
		}
		n := min(int64(len(p)), b.off+b.n-off)
		inline := false
		if !b.issued {
			// Wanted now (reading ahead: requests are issued only then):
			// issue it whatever the prefetch bound. Not reading ahead
			// (the workers of a parallel scan of a local file), this
			// goroutine reads it, as it would read directly: a goroutine
			// of its own would add a hand-over to every read.
			s.unqueueLocked(b)
			inline = !s.cfg.ahead
			s.startLocked(b)
			if !inline {
				go s.fetch(b)
			}
		}
		b.pins++
		s.mu.Unlock()
		if inline {
			start := time.Now()
			s.fetch(b)
			s.mu.Lock()
			s.st.waited += time.Since(start)
			s.mu.Unlock()
		}
		if err := s.wait(b); err != nil {
			s.unpin(b, off, 0)
			return err
		}
		if b.err != nil {
			s.unpin(b, off, 0)
			return b.err
		}
		copy(p[:n], b.buf[off-b.off:])
		s.unpin(b, off, n)
		p, off = p[n:], off+n
	}
	return nil
}

// readyEnd returns how far a read from off, of at most limit-off bytes,
// goes without waiting for a request it could do without: reading ahead,
// through the requests that have arrived, and through the first one when
// it has not (its bytes are wanted now), but into no other request still
// coming, nor past the scheduled requests into bytes none covers. Not
// reading ahead, or from bytes no request covers, it is limit.
func (s *ioSched) readyEnd(off, limit int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cfg.ahead {
		return limit
	}
	for first := true; off < limit; first = false {
		b := s.findLocked(off)
		switch {
		case b == nil && first:
			return limit
		case b == nil || !b.ended && !first:
			return off
		}
		off = b.off + b.n
	}
	return limit
}

// errSchedClosed is what reads return once the scan is closed.
var errSchedClosed = errors.New("orc: the scan is closed")

// direct reads p at off with one ReadAt, timing it.
func (s *ioSched) direct(p []byte, off int64) error {
	start := time.Now()
	err := readFull(s.r, p, off)
	took := time.Since(start)
	s.mu.Lock()
	s.st.waited += took
	s.pumpLocked()
	s.mu.Unlock()
	return err
}

// wait waits for b's request, the scan's context or Close, adding the
// time it waited to the scan's ReadWait.
func (s *ioSched) wait(b *ioBlock) error {
	select {
	case <-b.done:
		return nil
	default:
	}
	var ctxDone <-chan struct{}
	if s.ctx != nil {
		ctxDone = s.ctx.Done()
	}
	t := time.Now()
	defer func() {
		s.mu.Lock()
		s.st.waited += time.Since(t)
		s.mu.Unlock()
	}()
	select {
	case <-b.done:
		return nil
	case <-ctxDone:
		return s.ctx.Err()
	case <-s.stop:
		return errSchedClosed
	}
}

// unpin ends a read of n bytes at off from b; a block whose planned bytes are
// all read is given back.
func (s *ioSched) unpin(b *ioBlock, off, n int64) {
	s.mu.Lock()
	b.pins--
	b.read += n
	b.readLocked(off, n)
	if b.need == 0 && !b.gone {
		s.dropLocked(b)
	} else {
		s.freeIdleLocked(b)
	}
	s.pumpLocked()
	s.mu.Unlock()
}

// dropLocked gives b back: it leaves the blocks (retireLocked).
func (s *ioSched) dropLocked(b *ioBlock) {
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].off >= b.off })
	for ; i < len(s.blocks) && s.blocks[i].off == b.off; i++ {
		if s.blocks[i] == b {
			s.blocks = append(s.blocks[:i], s.blocks[i+1:]...)
			break
		}
	}
	s.retireLocked(b)
}

// retireLocked marks b given back: a queued request is dropped, and the
// buffer of an issued one goes once no read uses it and its request has
// ended (fetch frees it then).
func (s *ioSched) retireLocked(b *ioBlock) {
	b.gone = true
	if !b.issued {
		s.unqueueLocked(b)
		return
	}
	s.freeIdleLocked(b)
}

// freeIdleLocked frees a given-back block once its request has ended and
// no read uses its buffer.
func (s *ioSched) freeIdleLocked(b *ioBlock) {
	if b.gone && b.ended && b.pins == 0 {
		s.freeLocked(b)
	}
}

// freeLocked returns b's buffer.
func (s *ioSched) freeLocked(b *ioBlock) {
	if !b.issued || b.freed {
		return
	}
	b.freed = true
	if unread := b.n - b.read; unread > 0 && !isClosed(s.stop) {
		s.st.wasted += unread
	}
	if !isClosed(s.stop) {
		putBuf(b.buf) // after Close a late request's buffer is left to the collector
	}
	b.buf = nil
	s.held -= b.n
}

// release gives back every block of stripes before tag (tag < 0: all).
func (s *ioSched) release(tag int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keep []*ioBlock
	for _, b := range s.blocks {
		if tag < 0 || b.tag < tag {
			s.retireLocked(b)
		} else {
			keep = append(keep, b)
		}
	}
	s.blocks = keep
	s.pumpLocked()
}

// close stops the scheduler: queued requests are dropped, reads fail, and
// requests in flight are left to finish on their own.
func (s *ioSched) close() {
	s.release(-1)
	s.mu.Lock()
	if !isClosed(s.stop) {
		s.queue = nil
		close(s.stop)
		s.cancel()
	}
	s.mu.Unlock()
}

// isClosed reports whether channel c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// stats returns the counts so far.
func (s *ioSched) stats() schedStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// String prints the counts for explain.
func (st schedStats) String() string {
	return fmt.Sprintf("%d requests (%d issued ahead, %d outside the schedule), %d bytes, at most %d in flight, %d bytes fetched unread",
		st.requests, st.prefetched, st.direct, st.bytes, st.peak, st.wasted)
}
