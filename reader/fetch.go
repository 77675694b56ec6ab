package reader

// Bounded streaming reads. A stripe's data streams are not fetched whole:
// each selected stream has a streamFetch holding one piece of it at a time,
// at most the read window (WithReadWindow) unless a single chunk is larger.
// When a run of row groups starts, the executor fetches the first piece of
// every stream the run needs with the plan's coalesced reads, into buffers
// the streams share (sharedBuf, released when the last stream moves off).
// After that each stream's InStream asks its streamFetch (a format.Loader)
// for the bytes after its piece as its decoder consumes them: the next
// window of the stream's planned range, one ReadAt, starting with the part
// of a chunk the old piece already held, which is copied rather than read
// again. A scan so holds about one window per stream, plus one
// decompression block per compressed stream, whatever the stripe size.

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

// ioStats counts the reads of stripe data.
type ioStats struct {
	reads     int
	bytes     int64
	unplanned int // reads of bytes outside the planned ranges
}

func (s *ioStats) add(o ioStats) {
	s.reads += o.reads
	s.bytes += o.bytes
	s.unplanned += o.unplanned
}

// sharedBuf is one coalesced read whose bytes several streams use.
type sharedBuf struct {
	buf  []byte
	refs atomic.Int32
	mem  *budget
}

// release drops one user; the last gives the buffer back.
func (s *sharedBuf) release() {
	if s.refs.Add(-1) == 0 {
		s.mem.release(int64(len(s.buf)))
		putBuf(s.buf)
		s.buf = nil
	}
}

// streamFetch feeds one stream of a stripe to its InStream, a piece at a
// time. It is used by one goroutine at a time (the one decoding its
// column).
type streamFetch struct {
	r      io.ReaderAt
	mem    *budget
	win    uint64 // the read window
	stripe int
	plan   *streamPlan
	in     *format.InStream // the stream reading from it, once opened

	data   []byte     // current piece: stream bytes [start, start+len(data))
	start  uint64     //
	shared *sharedBuf // the buffer data lies in, when shared
	own    []byte     // the buffer data lies in, when its own
	io     ioStats
}

var _ format.Loader = (*streamFetch)(nil)

// plannedEnd returns the furthest end among the planned ranges holding off.
func (f *streamFetch) plannedEnd(off uint64) (uint64, bool) {
	var end uint64
	found := false
	for _, r := range f.plan.ranges {
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
	end := off + max(n, f.win)
	if pe, ok := f.plannedEnd(off); !ok {
		f.io.unplanned++
	} else if pe < end {
		end = max(pe, off+n)
	}
	end = min(end, length)
	size := int64(end - off)
	key := f.plan.key
	if err := f.mem.take(size, func() string {
		return fmt.Sprintf("reading %s of column %d in stripe %d", key.kind, key.column, f.stripe)
	}); err != nil {
		return nil, 0, err
	}
	buf := getBuf(size)
	k := 0
	if f.data != nil && off >= f.start && off < f.start+uint64(len(f.data)) {
		k = copy(buf, f.data[off-f.start:])
	}
	if int64(k) < size {
		at := f.plan.loc.offset + int64(off) + int64(k)
		if err := readFull(f.r, buf[k:], at); err != nil {
			f.mem.release(size)
			putBuf(buf)
			return nil, 0, orc.WithLocation(err, at, f.stripe, key.column, key.kind.String())
		}
		f.io.reads++
		f.io.bytes += size - int64(k)
	}
	f.drop()
	f.own, f.data, f.start = buf, buf, off
	return buf, off, nil
}

// setPiece makes data, stream bytes from start lying in sb, the current
// piece.
func (f *streamFetch) setPiece(sb *sharedBuf, data []byte, start uint64) {
	f.drop()
	sb.refs.Add(1)
	f.shared, f.data, f.start = sb, data, start
}

// window points the stream's InStream at the current piece, or at an empty
// window at start when it has none.
func (f *streamFetch) window(start uint64) {
	if f.in == nil {
		return
	}
	if f.data == nil {
		f.in.SetWindow(nil, start)
		return
	}
	f.in.SetWindow(f.data, f.start)
}

// drop lets go of the current piece.
func (f *streamFetch) drop() {
	if f.shared != nil {
		f.shared.release()
		f.shared = nil
	}
	if f.own != nil {
		f.mem.release(int64(len(f.own)))
		putBuf(f.own)
		f.own = nil
	}
	f.data = nil
}

// runStart returns where run i starts in the stream.
func (f *streamFetch) runStart(i int) uint64 {
	if f.plan.whole || i >= len(f.plan.ranges) {
		return 0
	}
	return f.plan.ranges[i].Start
}

// stripeIO is the executor's view of one stripe's streams.
type stripeIO struct {
	plan    *stripePlan
	fetches []*streamFetch // parallel to plan.streams
	byKey   map[streamKey]*streamFetch
	io      ioStats // the coalesced reads
}

// newStripeIO makes the fetches of a plan's streams.
func (br *BatchReader) newStripeIO(p *stripePlan) *stripeIO {
	s := &stripeIO{plan: p, fetches: make([]*streamFetch, len(p.streams)), byKey: make(map[streamKey]*streamFetch, len(p.streams))}
	for i := range p.streams {
		f := &streamFetch{r: br.r.r, mem: br.mem, win: uint64(br.cfg.window), stripe: p.stripe, plan: &p.streams[i]}
		s.fetches[i] = f
		s.byKey[f.plan.key] = f
	}
	return s
}

// prefetch runs the coalesced reads for run i of the eager streams, or of
// the deferred ones, hands each stream its first piece and points the
// opened streams at it. start says the deferred columns start with this
// read (their whole streams are read too).
func (br *BatchReader) prefetch(s *stripeIO, i int, deferred, start bool) error {
	p := s.plan
	reads := p.reads[i]
	if deferred {
		reads = p.deferredReads[i]
		if start {
			reads = p.deferredStartReads[i]
		}
	}
	for _, f := range s.fetches {
		if f.plan.deferred == deferred && !f.plan.whole {
			f.drop()
		}
	}
	whole := deferred && start || !deferred && i == 0
	var users []*streamFetch
	for _, rg := range reads {
		users = users[:0]
		for _, f := range s.fetches {
			if f.plan.deferred != deferred {
				continue
			}
			if l, ok := f.plan.firstRead(i, br.cfg.window, whole); ok && l.offset >= rg.offset && l.offset+l.length <= rg.offset+rg.length {
				users = append(users, f)
			}
		}
		if err := br.mem.take(rg.length, func() string {
			return fmt.Sprintf("reading %s of stripe %d", plural(len(users), "stream"), p.stripe)
		}); err != nil {
			return err
		}
		sb := &sharedBuf{buf: getBuf(rg.length), mem: br.mem}
		sb.refs.Store(1)
		if err := readFull(br.r.r, sb.buf, rg.offset); err != nil {
			sb.release()
			return orc.WithLocation(err, rg.offset, p.stripe, -1, "")
		}
		s.io.reads++
		s.io.bytes += rg.length
		for _, f := range users {
			l, _ := f.plan.firstRead(i, br.cfg.window, whole)
			rel := l.offset - rg.offset
			f.setPiece(sb, sb.buf[rel:rel+l.length], uint64(l.offset-f.plan.loc.offset))
		}
		sb.release()
	}
	for _, f := range s.fetches {
		if f.plan.deferred == deferred && !f.plan.whole {
			f.window(f.runStart(i))
		}
	}
	return nil
}

// finish folds the stripe's read counts into st and lets go of every piece.
func (s *stripeIO) finish(st *ScanStats) {
	if s == nil {
		return
	}
	t := s.counts()
	st.ReadCalls += t.reads
	st.BytesRead += t.bytes
	st.UnplannedReads += t.unplanned
	for _, f := range s.fetches {
		f.drop()
		f.io = ioStats{}
	}
	s.io = ioStats{}
}

// counts returns the reads made for the stripe so far.
func (s *stripeIO) counts() ioStats {
	t := s.io
	for _, f := range s.fetches {
		t.add(f.io)
	}
	return t
}

// dropWhole lets go of the pieces of the streams read whole (dictionaries,
// read when their columns start) of the eager or the deferred columns.
func (s *stripeIO) dropWhole(deferred bool) {
	for _, f := range s.fetches {
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
