package reader

// Bounded streaming reads. A stripe's data streams are not fetched whole:
// each selected stream has a streamFetch holding one piece of it at a time,
// at most the read window (WithReadWindow) unless a single chunk is larger.
// When a run of row groups starts, the executor fetches the first piece of
// every stream the run needs with the plan's coalesced reads, into a
// scratch buffer the scan reuses, and each stream copies its piece into a
// buffer of its own: one of the read window's size for a stream with more to
// read, which later pieces reuse in place, or of the piece's size for a
// stream the read holds whole. (Copying costs far less than the memory a
// buffer shared by several streams would hold until the last moved on.)
// After that each stream's InStream asks its streamFetch (a format.Loader)
// for the bytes after its piece as its decoder consumes them: the next
// window of the stream's planned range, one ReadAt, starting with the part
// of a chunk the old piece already held, which is copied rather than read
// again. A scan so holds about one window per stream, plus one
// decompression block per compressed stream, whatever the stripe size.

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// streamFetch feeds one stream of a stripe to its InStream, a piece at a
// time. It is used by one goroutine at a time (the one decoding its
// column).
type streamFetch struct {
	s    *stripeIO        // the stripe's streams: the scan's scheduler, budget, window and buffers
	plan *streamPlan      // what the scan reads of the stream
	in   *format.InStream // the stream reading from it, once opened

	// The current piece, own[:n], holds stream bytes [start, start+n);
	// own is the buffer (from getBuf, at its capacity), nil for no piece.
	own   []byte
	n     int
	start uint64
}

// piece returns the current piece, or nil.
func (f *streamFetch) piece() []byte {
	if f.own == nil {
		return nil
	}
	return f.own[:f.n]
}

var _ format.Loader = (*streamFetch)(nil)

// plannedEnd returns the furthest end among the planned ranges holding off.
func (f *streamFetch) plannedEnd(off uint64) (uint64, bool) {
	var end uint64
	found := false
	for i := range f.plan.numRanges() {
		r, _ := f.plan.rangeAt(i)
		if r.Start <= off && off < r.End && r.End > end {
			end, found = r.End, true
		}
	}
	return end, found
}

// Load fetches the piece of the stream starting at off: the read window,
// cut at the end of the planned range holding off, and at least n bytes.
func (f *streamFetch) Load(off, n uint64) ([]byte, uint64, error) {
	length := uint64(f.plan.loc.length)
	if off >= length {
		return nil, off, nil
	}
	end := off + max(n, f.s.win)
	if pe, ok := f.plannedEnd(off); !ok {
		f.s.unplanned.Add(1)
	} else if pe < end {
		end = max(pe, off+n)
	}
	end = min(end, length)
	// Reading ahead, a piece stops before a second request still coming:
	// the scheduler fetches the stream's bytes in slices of the stripe's
	// rows, and a window reaching into the next slice would wait for it.
	base := int64(f.plan.loc.offset)
	end = uint64(f.arrived(base+int64(off), base+int64(end), int64(min(off+n, end)-off)) - base)
	size := int64(end - off)
	key := f.plan.key
	// The stream's buffer is reused in place when it is of the size class
	// of the piece: the part of a chunk it already holds moves to its
	// front. A larger one (a coalesced first read it took over) goes back.
	var buf []byte
	reuse := int64(len(f.own)) >= size && int64(len(f.own)) <= bufCap(max(size, int64(f.s.win)))
	if reuse {
		buf = f.own // charged for its capacity already
	} else {
		buf = f.s.bufs.get(size)
		if err := f.s.mem.take(int64(len(buf)), f.what); err != nil {
			f.s.bufs.put(buf)
			return nil, 0, err
		}
	}
	k := 0
	if p := f.piece(); p != nil && off >= f.start && off < f.start+uint64(len(p)) {
		k = copy(buf, p[off-f.start:])
	}
	if !reuse {
		f.drop()
	}
	f.own, f.n, f.start = buf, int(size), off
	if int64(k) < size {
		at := f.plan.loc.offset + int64(off) + int64(k)
		if err := readFull(f.s.io, buf[k:size], at); err != nil {
			f.drop()
			return nil, 0, orc.WithLocation(err, at, f.s.plan.stripe, key.column, key.kind.String())
		}
	}
	return f.piece(), off, nil
}

// arrived returns where a read of the stream's file bytes [from, to)
// stops so as not to wait for a request it can do without (readyEnd),
// reading at least least bytes.
func (f *streamFetch) arrived(from, to, least int64) int64 {
	return max(f.s.io.readyEnd(from, to), from+least)
}

// what names the stream's need for the memory budget.
func (f *streamFetch) what() string {
	return fmt.Sprintf("reading %s of column %d in stripe %d", f.plan.key.kind, f.plan.key.column, f.s.plan.stripe)
}

// reserve makes f.own a buffer of at least n bytes and of n's size class,
// dropping the current piece when it has to replace the buffer.
func (f *streamFetch) reserve(n int64) error {
	if int64(len(f.own)) >= n && int64(len(f.own)) <= bufCap(n) {
		return nil
	}
	f.drop()
	buf := f.s.bufs.get(n)
	if err := f.s.mem.take(int64(len(buf)), f.what); err != nil {
		f.s.bufs.put(buf)
		return err
	}
	f.own = buf
	return nil
}

// copyPiece makes a copy of data, stream bytes from start, the current
// piece, in a buffer of at least room bytes.
func (f *streamFetch) copyPiece(data []byte, start uint64, room int64) error {
	if err := f.reserve(max(int64(len(data)), room)); err != nil {
		return err
	}
	copy(f.own, data)
	f.n, f.start = len(data), start
	return nil
}

// readPiece reads l, file bytes of the stream, into a buffer of its own
// of at least room bytes and makes them the current piece.
func (f *streamFetch) readPiece(l streamLoc, room int64) error {
	if err := f.reserve(max(l.length, room)); err != nil {
		return err
	}
	f.n, f.start = int(l.length), uint64(l.offset-f.plan.loc.offset)
	if err := readFull(f.s.io, f.own[:l.length], l.offset); err != nil {
		f.drop()
		return orc.WithLocation(err, l.offset, f.s.plan.stripe, f.plan.key.column, f.plan.key.kind.String())
	}
	return nil
}

// room returns the buffer a stream's first piece l of run i needs beyond
// its bytes: none when the piece holds all the run needs, else a window
// for the pieces after it.
func (f *streamFetch) room(i int, l streamLoc, window int64) int64 {
	if f.complete(i, l) {
		return 0
	}
	return window
}

// complete reports whether piece l holds all the stream needs in run i.
func (f *streamFetch) complete(i int, l streamLoc) bool {
	if f.plan.whole {
		return true
	}
	r, _ := f.plan.rangeAt(i)
	return int64(r.End-r.Start) == l.length
}

// window points the stream's InStream at the current piece, or at an empty
// window at start when it has none.
func (f *streamFetch) window(start uint64) {
	if f.in == nil {
		return
	}
	p := f.piece()
	if p == nil {
		f.in.SetWindow(nil, start)
		return
	}
	f.in.SetWindow(p, f.start)
}

// drop lets go of the current piece.
func (f *streamFetch) drop() {
	if f.own != nil {
		f.s.mem.release(int64(len(f.own)))
		f.s.bufs.put(f.own)
		f.own = nil
	}
	f.n = 0
}

// runStart returns where run i starts in the stream.
func (f *streamFetch) runStart(i int) uint64 {
	if f.plan.whole || i >= f.plan.numRanges() {
		return 0
	}
	r, _ := f.plan.rangeAt(i)
	return r.Start
}

// stripeIO is the executor's view of one stripe's streams. Their fetches
// are one slice, what they share is here: a stripe of 100,000 columns has
// as many fetches.
type stripeIO struct {
	plan    *stripePlan
	fetches []streamFetch // parallel to plan.streams
	io      *ioSched
	mem     *budget
	win     uint64 // the read window
	bufs    *bufList
	// unplanned counts the pieces its streams read past the planned
	// ranges (streams of columns decoded on several goroutines add to it).
	unplanned atomic.Int32
}

// newStripeIO makes the fetches of a plan's streams.
func (pl *planner) newStripeIO(p *stripePlan) *stripeIO {
	s := &stripeIO{plan: p, fetches: make([]streamFetch, len(p.streams)), io: pl.io, mem: pl.mem, win: uint64(pl.cfg.window), bufs: &pl.buf.bufs}
	for i := range p.streams {
		s.fetches[i] = streamFetch{s: s, plan: &p.streams[i]}
	}
	return s
}

// fetch returns the fetch of column col's stream of kind, or nil when the
// plan does not read it. The plan lists its streams by column, in
// ascending order; of a stream listed twice the last counts.
func (s *stripeIO) fetch(col int, kind orcpb.Stream_Kind) *streamFetch {
	st := s.plan.streams
	i := sort.Search(len(st), func(i int) bool { return st[i].key.column >= col })
	var f *streamFetch
	for ; i < len(st) && st[i].key.column == col; i++ {
		if st[i].key.kind == kind {
			f = &s.fetches[i]
		}
	}
	return f
}

// prefetch runs the coalesced reads for run i of the eager streams, or of
// the deferred ones, hands each stream its first piece and points the
// opened streams at it. start says the deferred columns start with this
// read (their whole streams are read too).
func (pl *planner) prefetch(s *stripeIO, i int, deferred, start bool) error {
	p := s.plan
	reads := p.reads[i]
	if deferred {
		reads = p.deferredReads[i]
		if start {
			reads = p.deferredStartReads[i]
		}
	}
	// Streams read whole, and those that cannot seek, keep their place.
	keep := func(f *streamFetch) bool { return f.plan.whole || f.plan.noSeek && !start }
	for j := range s.fetches {
		f := &s.fetches[j]
		if f.plan.deferred == deferred && !keep(f) {
			f.drop()
		}
	}
	whole := deferred && start || !deferred && i == 0
	// Reading ahead, the scheduler holds the eager streams' bytes (and
	// is handed the deferred ones' here): each stream copies its piece
	// out, and the gaps between pieces are never read.
	remote := pl.cfg.readAhead
	if remote && deferred {
		// Every piece in one schedule, so all are in flight at once.
		var spans []span
		for j := range s.fetches {
			f := &s.fetches[j]
			if f.plan.deferred && !(f.plan.noSeek && !start) {
				if l, ok := f.plan.firstRead(i, pl.cfg.window, whole); ok {
					spans = append(spans, span{off: l.offset, n: l.length})
				}
			}
		}
		pl.io.scheduleNew(p.stripe, spans)
	}
	// When the scheduler holds the bytes (reading ahead, or the workers of
	// a parallel scan sharing its requests), each stream copies its own
	// piece out: a coalesced read would count the gaps between pieces,
	// which belong to other runs, as read.
	held := remote || pl.io.cfg.shared
	users := make([]*streamFetch, 0, len(s.fetches))
	for _, rg := range reads {
		users = users[:0]
		for j := range s.fetches {
			f := &s.fetches[j]
			if f.plan.deferred != deferred || f.plan.noSeek && !start {
				continue
			}
			if l, ok := f.plan.firstRead(i, pl.cfg.window, whole); ok && l.offset >= rg.offset && l.offset+l.length <= rg.offset+rg.length {
				users = append(users, f)
			}
		}
		if held {
			for _, f := range users {
				l, _ := f.plan.firstRead(i, pl.cfg.window, whole)
				room := f.room(i, l, pl.cfg.window)
				if !f.plan.whole {
					// As Load does: the first piece stops before a second
					// request still coming.
					l.length = f.arrived(l.offset, l.offset+l.length, min(l.length, 1)) - l.offset
				}
				if err := f.readPiece(l, room); err != nil {
					return err
				}
			}
			continue
		}
		if err := pl.readCoalesced(p.stripe, rg, users, i, whole); err != nil {
			return err
		}
	}
	for j := range s.fetches {
		f := &s.fetches[j]
		if f.plan.deferred == deferred && !keep(f) {
			f.window(f.runStart(i))
		}
	}
	return nil
}

// readCoalesced reads rg, one coalesced read of run i's first pieces, for
// the streams users whose pieces it holds, and hands each its piece: one
// stream's piece that is the whole read goes straight into its buffer,
// several are read into the scan's scratch buffer and copied out.
func (pl *planner) readCoalesced(stripe int, rg ioRange, users []*streamFetch, i int, whole bool) error {
	if len(users) == 1 {
		f := users[0]
		l, _ := f.plan.firstRead(i, pl.cfg.window, whole)
		if l.offset == rg.offset && l.length == rg.length {
			return f.readPiece(l, f.room(i, l, pl.cfg.window))
		}
	}
	if int64(len(pl.buf.scratch)) < rg.length {
		n := bufCap(rg.length)
		if err := pl.mem.set(&pl.buf.held.scratch, n, func() string {
			return fmt.Sprintf("reading %s of stripe %d", plural(len(users), "stream"), stripe)
		}); err != nil {
			return err
		}
		putBuf(pl.buf.scratch)
		pl.buf.scratch = getBuf(n)
	}
	buf := pl.buf.scratch[:rg.length]
	if err := readFull(pl.io, buf, rg.offset); err != nil {
		return orc.WithLocation(err, rg.offset, stripe, -1, "")
	}
	for _, f := range users {
		l, _ := f.plan.firstRead(i, pl.cfg.window, whole)
		rel := l.offset - rg.offset
		if err := f.copyPiece(buf[rel:rel+l.length], uint64(l.offset-f.plan.loc.offset), f.room(i, l, pl.cfg.window)); err != nil {
			return err
		}
	}
	return nil
}

// finish folds the stripe's unplanned reads into st and lets go of every
// piece.
func (s *stripeIO) finish(st *ScanStats) {
	if s == nil {
		return
	}
	st.UnplannedReads += int(s.unplanned.Swap(0))
	for j := range s.fetches {
		s.fetches[j].drop()
	}
}

// dropWhole lets go of the pieces of the streams read whole (dictionaries,
// read when their columns start) of the eager or the deferred columns.
func (s *stripeIO) dropWhole(deferred bool) {
	for j := range s.fetches {
		f := &s.fetches[j]
		if f.plan.whole && f.plan.deferred == deferred {
			f.drop()
		}
	}
}

// plural formats n things.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// bufList keeps the stream buffers a scan has let go of, for its next
// pieces: a stripe's buffers serve the next stripe's streams whatever their
// sizes, instead of lying idle in the pools while new ones are taken. It is
// shared by the goroutines of column-parallel decoding.
type bufList struct {
	mu   sync.Mutex
	bufs [][]byte
}

// keepMin is the smallest buffer a bufList keeps.
const keepMin = 4 << 10

// get returns a buffer of at least n bytes, at its capacity: the smallest
// kept one that is large enough and not much larger, or a new one.
func (l *bufList) get(n int64) []byte {
	l.mu.Lock()
	best := -1
	for i, b := range l.bufs {
		if int64(len(b)) >= n && (best < 0 || len(b) < len(l.bufs[best])) {
			best = i
		}
	}
	if best >= 0 && int64(len(l.bufs[best])) <= 4*bufCap(n) {
		b := l.bufs[best]
		last := len(l.bufs) - 1
		l.bufs[best], l.bufs[last] = l.bufs[last], nil
		l.bufs = l.bufs[:last]
		l.mu.Unlock()
		return b
	}
	l.mu.Unlock()
	b := getBuf(n)
	return b[:cap(b)]
}

// put keeps b for get. A buffer under keepMin bytes is let go instead:
// keeping it costs about what allocating it again does, and a stripe of
// 100,000 columns lets go of as many pieces of a few bytes at its end.
func (l *bufList) put(b []byte) {
	if cap(b) < keepMin {
		return
	}
	l.mu.Lock()
	l.bufs = append(l.bufs, b[:cap(b)])
	l.mu.Unlock()
}

// release gives every kept buffer back to the pools.
func (l *bufList) release() {
	l.mu.Lock()
	for i, b := range l.bufs {
		putBuf(b)
		l.bufs[i] = nil
	}
	l.bufs = l.bufs[:0]
	l.mu.Unlock()
}

// scheduleStripe hands the scheduler the bytes plan p will read: every
// eager stream's range in each run, placed by the rows that need them,
// with the extra spans, and the next stripe's footer, wanted when p's rows are done. The
// deferred columns' ranges are scheduled too once the scan reads ahead (a
// network's round trip costs more than the bytes of a run that turns out
// to have no match) or parallel workers share the requests, unless ix
// shows a lookup (bloom filters skipped groups: most kept runs have no
// match); otherwise they are read when a row matches, if ever.
//
// readers is how many executors read the stripe: parallel workers each
// read the streams read whole (dictionaries), and a request holding them
// is given back once all have.
//
// It returns the requests scheduled, for explain.
func (pl *planner) scheduleStripe(p *stripePlan, ix *stripeIndex, extra []span, readers int) []string {
	if !pl.cfg.readAhead && !pl.io.cfg.shared && pl.explain == nil {
		// A serial scan of a local file reads as its decoders ask: the
		// requests, and the next footer's, would be counted off as they
		// read, never issued (a stripe of 100,000 columns spent 8 MB on
		// them). If the file shows a network's latency now, the next
		// stripe is scheduled.
		return nil
	}
	// The workers of a parallel scan read the deferred columns through
	// the scheduled requests on a local file too (issued only when a
	// match needs them): read one piece at a time, each chunk's runs made
	// a read per stream, 12,000 for lineitem SF 1's 1.4% date range on 2
	// goroutines.
	remote := pl.cfg.readAhead || pl.io.cfg.shared
	// A lookup's kept groups (bloom filters skipped some) are mostly the
	// filters' false positives: its deferred columns are fetched at a
	// match, one round trip, rather than with every kept run.
	lookup := ix != nil && ix.byBloom > 0
	spans := append(make([]span, 0, len(extra)+len(p.streams)), extra...)
	for _, sp := range p.streams {
		switch {
		case sp.deferred && (!remote || lookup) || sp.pending || sp.loc.length == 0:
		case sp.whole:
			spans = append(spans, span{off: sp.loc.offset, n: sp.loc.length, times: readers})
		default:
			// Run i of the plan's runs holds about rows [i, i+1) in
			// len(runs) of the stripe's (runs are pruned groups' gaps).
			for i := range sp.numRanges() {
				r, _ := sp.rangeAt(i)
				runs := float64(sp.numRanges())
				spans = append(spans, span{off: sp.loc.offset + int64(r.Start), n: int64(r.End - r.Start),
					pos: float64(i) / runs, end: float64(i+1) / runs})
			}
		}
	}
	for _, sp := range spans {
		p.scheduled += sp.n
	}
	if len(spans) >= mergeSpansFrom {
		spans = mergeSpans(spans)
	}
	reqs := pl.io.schedule(p.stripe, spans)
	pl.scheduleFooter(p.stripe + 1)
	return reqs
}

// mergeSpansFrom is how many spans a stripe's schedule must have for
// mergeSpans to join them: a stripe of 100,000 columns would hand the
// scheduler as many spans, which it cuts into as many pieces and planned
// parts (about 30 MB of bookkeeping).
const mergeSpansFrom = 1024

// mergeSpanMax is the largest span mergeSpans makes: below the scheduler's
// smallest piece (minPiece, localPiece), a merged span is never cut by
// slice, so its bytes are scheduled as its spans' would be.
const mergeSpanMax = 32 << 10

// mergeSpans joins, in place, runs of spans that follow one another in the
// file with the same rows and reads (tiny streams of one run, next to each
// other), up to mergeSpanMax bytes, and returns the spans left.
func mergeSpans(spans []span) []span {
	out := spans[:0]
	for _, sp := range spans {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			if last.off+last.n == sp.off && last.pos == sp.pos && last.end == sp.end && last.times == sp.times &&
				last.n+sp.n <= mergeSpanMax {
				last.n += sp.n
				continue
			}
		}
		out = append(out, sp)
	}
	return out
}

// scheduleFooter schedules the footer of the first stripe from i on that
// the scan reads, tagged with its stripe; over a network, the footers of
// the next footersAhead stripes whose statistics do not rule them out, so
// that each stripe's first read is not a round trip of its own. A
// stripe's index region read whole (wholeIndex) comes in one request with
// the footer of the stripe before, next to it in the file, and when that
// footer is not read, in a request of its own beside the stripe's footer.
func (pl *planner) scheduleFooter(i int) {
	r := pl.r
	stripes := r.tail.Footer.GetStripes()
	limit := 1
	if pl.cfg.readAhead {
		limit = footersAhead
	}
	for ; i < len(stripes) && limit > 0 && (pl.stopAt == 0 || i < pl.stopAt); i++ {
		if !pl.inRange(i) {
			continue
		}
		if pl.parsedAhead(i) {
			limit--
			continue
		}
		if limit > 1 && pl.sarg != nil && r.HasStripeStatistics() && !pl.sarg.Evaluate(&levelSource{r: r, stripe: i}).IsNeeded() {
			continue
		}
		info := stripeInfo(i, stripes[i])
		if info.FooterLength <= 0 || info.FooterLength > r.cfg.maxStripeFooter {
			return
		}
		if ix, ok := pl.wholeIndex(i); ok {
			// Left out when the footer before brought it; a request of its
			// own, given back with its stripe.
			pl.io.scheduleNew(i, []span{ix})
		}
		spans := make([]span, 0, 2)
		if !r.footerAtHand(i) {
			spans = append(spans, span{off: info.Offset + info.IndexLength + info.DataLength, n: info.FooterLength, pos: 1, end: 1})
		}
		tag := i
		if i+1 < len(stripes) && pl.wantedStripe(i+1) {
			if ix, ok := pl.wholeIndex(i + 1); ok {
				spans = append(spans, ix)
				tag = i + 1 // its bytes are wanted until the next stripe's turn
			}
		}
		pl.io.scheduleNew(tag, spans)
		limit--
	}
}

// footersAhead is how many stripe footers a scan reading ahead schedules
// beyond the stripe it plans.
const footersAhead = 8
