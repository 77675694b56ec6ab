package reader

// Parallel decoding (WithParallelism(n)). The scan's unit of parallel work
// is a chunk: a range of row groups of one stripe, or a whole stripe.
// Chunks are claimed in file order, one at a time, by n decoders: n-1
// workers, each a goroutine with an executor of its own (column readers,
// decompressor, buffers), and the goroutine calling Next, with the owner
// executor. A worker claims the next chunk as soon as it has a batch to
// decode into, and hands its batches over in the chunk's queue slot. The
// caller returns the chunks' batches in claim order: a chunk it claimed
// itself it decodes straight into the caller's batch when the chunk's turn
// comes, and when the chunk whose turn it is has no batch ready (its worker
// is still decoding), the caller claims the next unclaimed chunk and
// decodes it ahead, into batches of its own, rather than wait. With two
// decoders that keeps both cores busy, and the rows the caller decodes
// never move between cores.
//
// Each stripe is pruned once, by the first decoder to reach it: its stripe
// statistics, footer, row indexes and bloom filters give the kept row
// groups, and a pure function (splitStripe) cuts them into chunks of a few
// row groups when the chunks' plans, each read on its own, read no more
// than an eighth more bytes than one serial plan would. That holds for
// aligned files (orcgo's default, where every row group starts on a chunk
// boundary of every stream and the plans' ranges partition the streams);
// where the positions carry bytes across row groups (Java, C++ and Hive
// writers) the slop of every chunk would be read twice, the test fails at
// every chunk size tried, and the stripe is one chunk, decoded by one
// decoder as a serial scan would. A decoder executes its chunk's plan like
// a serial scan.
//
// A scan that the statistics leave at most one stripe starts no worker
// until the caller claims a unit of that stripe with another after it: a
// narrow range or a lookup that keeps one unit decodes it on the caller,
// without making workers that would find nothing to do.
//
// Batches are handed over by swapping vectors: the caller's batch receives
// the worker's vectors and the worker gets the caller's previous ones back,
// so nothing is copied and each worker cycles through a fixed set of
// batches. A stripe's shared state (its row indexes, the scheduler's
// requests) is let go once every chunk of it and of the stripes before it
// is decoded.

import (
	"io"
	"strconv"
	"sync"

	"github.com/orcgo/orc"
)

// chunkRows is the fewest rows a chunk of row groups holds: with the
// default 10,000-row stride a chunk is one row group.
const chunkRows = 8192

// A chunk's start costs each of its streams a seek and a first read, and
// a worker decodes a chunk ahead of the caller: a narrow scan's chunks hold
// more rows (chunkRowsFor), up to maxChunkScale times chunkRows, so that a
// chunk decodes about chunkBytes into its vectors. A scan of lineitem's 16
// columns keeps chunks of one row group (10,000 rows); its projection of
// two decimals and a date, chunks of 4, and of two doubles and a date, 6.
const chunkBytes = 2 << 20

// maxChunkScale bounds chunkRowsFor's scale.
const maxChunkScale = 8

// chunkRowsFor returns the fewest rows a chunk holds in a scan of the
// columns selected (by column id); fixed > 0 (a test's) is the answer.
func chunkRowsFor(cols []*orc.Schema, selected []bool, fixed int) int {
	if fixed > 0 {
		return fixed
	}
	width := 0
	for id, sel := range selected {
		if sel && id < len(cols) {
			width += valueBytes(cols[id].Kind)
		}
	}
	if width == 0 {
		return chunkRows
	}
	scale := min(max(chunkBytes/(chunkRows*width), 1), maxChunkScale)
	return chunkRows * scale
}

// valueBytes is about the bytes a value of kind takes in a batch's
// vectors, its null flag included (text and bytes counted at 16).
func valueBytes(k orc.Kind) int {
	switch k {
	case orc.Boolean, orc.Byte:
		return 2
	case orc.Decimal, orc.Timestamp, orc.TimestampInstant:
		return 17
	case orc.String, orc.Binary, orc.Varchar, orc.Char, orc.Geometry, orc.Geography:
		return 25
	default: // integers, floats, dates; a container's offsets or tags
		return 9
	}
}

// parWorker is a worker of a parallel scan: its executor and the batches
// it decodes into.
type parWorker struct {
	br    *executor
	free  freeBatches // batches the caller gave back
	depth int         // the batches it may make (it has made made)
	made  int
	slot  int // its statistics' slot in parallel.stats
}

// chunk is one claimed unit of a parallel scan: chunks [c, c+n) of
// stripe s, in the place of the scan's order it was claimed in.
type chunk struct {
	s, c, n int
	ss      *sharedStripe
	// err is the error pruning stripe s met: the scan ends with it at the
	// chunk's turn.
	err error
	// A worker's chunk: its batches, in order, and the worker they go
	// back to. out is closed when the worker is done with the chunk, with
	// werr set first when decoding failed.
	pw   *parWorker
	out  chan *orc.Batch
	werr error
	// The caller's chunk: the batches it decoded before the chunk's turn,
	// and whether it has decoded every row (done) or failed (werr).
	buf  []*orc.Batch
	done bool
}

type parallel struct {
	// owner is the caller's decoder, and holds what the scan's decoders
	// share: its memory budget, I/O scheduler and options.
	owner   *executor
	workers []*parWorker
	stripes int
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	err     error

	// The caller's side: the chunk it decodes (at its turn or ahead of
	// it), its spare batches and how many it may hold ahead.
	mine  *chunk
	spare []*orc.Batch
	depth int
	// A scan whose statistics leave at most one stripe starts no worker
	// until the caller claims a unit of it with more after it (more): a
	// scan of one unit, such as a narrow range, would pay for their start
	// and decode nothing on them.
	more bool

	// Under claimMu: the next chunk to claim (chunk cc of stripe cs), and
	// whether claiming has ended (no chunk left, or pruning failed).
	claimMu sync.Mutex
	cs, cc  int
	ended   bool

	// look prunes and schedules the stripes after the one the decoders
	// start, over a network, while they decode.
	look *aheadPlanner

	// batches keeps the workers' batches for the next parallel scan of
	// the same type and batch size (workerBatches).
	batches *sync.Pool

	mu    sync.Mutex
	queue []*chunk // claimed chunks not returned yet, in claim order
	// Whether the workers were started (on the caller's goroutine only),
	// and whether the scan was closed (after which none is).
	started, closed bool
	// shared is per stripe, dropped once it and every stripe before it
	// are done (released: the first stripe not dropped).
	shared   []*sharedStripe
	released int
	stats    []ScanStats // per worker, as of its last finished chunk, then the planner's
}

// newParallel makes owner the caller's decoder of a parallel scan and
// starts cfg.parallel-1 workers, each an executor of its own sharing
// owner's memory budget and I/O scheduler.
func (r *Reader) newParallel(owner *executor) (*parallel, error) {
	n := owner.cfg.parallel
	stripes := len(r.tail.Footer.GetStripes())
	p := &parallel{owner: owner, stripes: stripes, stop: make(chan struct{}),
		shared: make([]*sharedStripe, stripes), stats: make([]ScanStats, n),
		batches: workerBatches(owner.dec.schema, owner.cfg.batchSize)}
	p.look = &aheadPlanner{p: p}
	p.depth = unitDepth(owner.cfg.batchSize, r.RowIndexStride(), chunkRowsFor(r.cols, owner.plan.selected, owner.cfg.test.chunkRows))
	if err := owner.dec.setupColumns(r, owner.plan.buf.dec, owner.cfg.colPar); err != nil {
		return nil, err
	}
	// The caller holds its batch and those it decodes ahead.
	if err := owner.holdVectors(p.depth + 1); err != nil {
		return nil, err
	}
	wanted := 0
	for i := 0; i < stripes && wanted < 2; i++ {
		if owner.plan.wantedStripe(i) {
			wanted++
		}
	}
	if wanted < 2 {
		// At most one stripe left by the statistics: its units, if it has
		// more than one, start the workers (startLater).
		return p, nil
	}
	if err := p.startWorkers(); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// startWorkers makes and starts the scan's cfg.parallel-1 workers, once;
// none once the scan is closed.
func (p *parallel) startWorkers() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.closed {
		return nil
	}
	p.started = true
	r := p.owner.plan.r
	for w := 0; w < p.owner.cfg.parallel-1; w++ {
		inner, err := p.newInner()
		if err == nil {
			err = inner.dec.setupColumns(r, inner.plan.buf.dec, inner.cfg.colPar)
		}
		if err == nil {
			// A worker holds a unit of batches, and one more to decode
			// into while the caller takes the last of them.
			err = inner.holdVectors(p.depth + 2)
		}
		if err != nil {
			return err
		}
		p.workers = append(p.workers, &parWorker{br: inner, free: freeBatches{ready: make(chan struct{}, 1)}, depth: p.depth + 1, slot: w})
	}
	for _, pw := range p.workers {
		p.wg.Add(1)
		go p.run(pw)
	}
	return nil
}

// startLater starts the workers of a scan that has none yet once the
// caller has claimed a unit of a stripe with units left after it
// (p.more); the error making them met ends the scan. started is written
// only on the caller's goroutine, which so reads it without the lock.
func (p *parallel) startLater() error {
	if p.started || !p.more {
		return nil
	}
	if err := p.startWorkers(); err != nil {
		return p.end(err)
	}
	return nil
}

// newInner makes an executor of the scan for a worker or the planner: a
// serial one sharing the owner's memory budget and I/O scheduler, with no
// batch charged (newExecutor charges one; workers charge theirs).
func (p *parallel) newInner() (*executor, error) {
	e, err := p.owner.plan.r.newExecutor(p.owner.cfg, p.owner.mem, p.owner.plan.io)
	if err != nil {
		return nil, err
	}
	_ = p.owner.mem.set(&e.vectors, 0, nil)
	return e, nil
}

// unitDepth is how many batches hold a unit of work (unitChunks chunks
// of whole row groups), plus one: at least 3, at most maxDepth.
//
// Each decoder may decode a whole unit ahead, so that neither waits for
// the other: while the caller decodes its own unit at that unit's turn, a
// worker decodes the next one into its batches, and while a worker's unit
// has its turn, the caller decodes its next unit ahead as the worker's
// batches come. With room for half a unit (a chunk, and at most 32
// batches) the caller stood idle for the rest of every worker's unit: 3
// lineitem columns on 2 goroutines took 77 ms where 55 did with room for
// the unit (SF 1, doubles, least of 3-4 paired rounds), the serial scan 88.
func unitDepth(batch, stride, chunk int) int {
	rows := max(chunk, stride)
	if stride > 0 { // whole row groups
		rows = (rows + stride - 1) / stride * stride
	}
	rows *= unitChunks
	return min(max((rows+batch-1)/batch+1, 3), maxDepth)
}

// maxDepth bounds unitDepth where batches are small (a unit of 20,000 rows
// in batches of a few rows): a unit's rows are bounded by chunkBytes, its
// batch count is not.
const maxDepth = 256

// batch returns a batch for worker pw to decode into: a free one, or a new
// one while it has made fewer than its depth (a selective scan, which
// returns a few batches, never makes the rest), or, once it has made them
// all, the next the caller gives back; false when the scan stops first.
func (p *parallel) batch(pw *parWorker) (*orc.Batch, bool) {
	if b := pw.free.pop(); b != nil {
		return b, true
	}
	if pw.made < pw.depth {
		pw.made++
		return p.newBatch(pw.br.dec.schema), true
	}
	for {
		select {
		case <-pw.free.ready:
			if b := pw.free.pop(); b != nil {
				return b, true
			}
		case <-p.stop:
			return nil, false
		}
	}
}

// freeBatches are a worker's batches given back, reused last in, first
// out: the batch a worker decodes into next is the one it last had back,
// whose vectors are likely still in its core's cache, and a worker whose
// caller keeps up cycles through two or three batches rather than all it
// has made. (Reused in turn, every batch's vectors left the cache before
// they came back: copying values into them cost 2.5 to 4 times what it
// costs serially.)
type freeBatches struct {
	mu    sync.Mutex
	stack []*orc.Batch
	ready chan struct{} // a token when a batch was pushed
}

// push gives b back.
func (f *freeBatches) push(b *orc.Batch) {
	f.mu.Lock()
	f.stack = append(f.stack, b)
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// pop returns the batch given back last, or nil.
func (f *freeBatches) pop() *orc.Batch {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.stack)
	if n == 0 {
		return nil
	}
	b := f.stack[n-1]
	f.stack[n-1] = nil
	f.stack = f.stack[:n-1]
	return b
}

// newBatch returns a batch of the scan's type: one a scan before kept,
// or a new one whose vectors grow as rows are decoded into them (a
// selective scan's batches, which hold a few rows, stay small).
func (p *parallel) newBatch(schema *orc.Schema) *orc.Batch {
	if b, ok := p.batches.Get().(*orc.Batch); ok {
		b.Schema = schema
		return b
	}
	return orc.NewBatch(schema, 0)
}

// run claims and decodes chunks until none is left or the scan stops. A
// worker claims a chunk only once it has a batch to decode it into.
func (p *parallel) run(pw *parWorker) {
	defer p.wg.Done()
	br := pw.br
	defer func() {
		p.publish(pw.slot, br)
		br.releaseBytes()
	}()
	for {
		b, ok := p.batch(pw)
		if !ok {
			return
		}
		ch := p.claim(br, pw)
		if ch == nil {
			pw.free.push(b)
			return
		}
		if ch.err != nil {
			pw.free.push(b)
			close(ch.out)
			return
		}
		if !p.decodeChunk(pw, ch, b) {
			return
		}
		p.publish(pw.slot, br)
	}
}

// decodeChunk decodes chunk ch into worker pw's batches, starting with b,
// and hands them over; false when the scan stops or decoding fails.
func (p *parallel) decodeChunk(pw *parWorker, ch *chunk, b *orc.Batch) bool {
	br := pw.br
	br.startChunk(ch)
	for {
		if b == nil {
			var ok bool
			if b, ok = p.batch(pw); !ok {
				return false
			}
		}
		err := br.next(b)
		if err == io.EOF {
			pw.free.push(b)
			break
		}
		if err != nil {
			ch.werr = err
			close(ch.out)
			return false
		}
		select {
		case ch.out <- b:
		case <-p.stop:
			return false
		}
		b = nil
	}
	close(ch.out)
	p.chunkDone(ch)
	return true
}

// startChunk has the executor decode chunk ch: its row groups planned
// from the stripe's shared pruning, as the one planned stripe of its
// source. The error planning meets is the chunk's.
func (e *executor) startChunk(ch *chunk) {
	ss := ch.ss
	in := *ss.in
	if ss.k > 0 {
		in.sel = rowSelection{n: ss.in.sel.n}
		for _, run := range ss.chunks[ch.c : ch.c+ch.n] {
			in.sel = in.sel.union(ss.in.sel.within(int64(run.first)*in.stride, int64(run.end)*in.stride))
		}
	}
	ix := ss.ix.clone()
	if ix != nil {
		in.entries = ix.entries
	}
	ps := &plannedStripe{ix: ix, meta: ss.meta, in: in, first: ch.c == 0}
	ps.plan, ps.err = planStripe(in)
	_ = e.mem.set(&e.plan.buf.held.index, 0, nil) // the late columns' indexes of its last chunk
	e.plan.stopAt = ch.s + 1
	e.src = &unitSource{ps: ps}
	e.dec.cur, e.dec.run, e.dec.remaining = nil, 0, 0
}

// unitChunks is how many chunks of a stripe a decoder claims at once, as
// one plan: one start of the stripe's streams and one set of coalesced
// first reads for both. The same for every decoder, so that a scan's
// units, and the reads each makes, do not depend on which decoder claims
// them.
const unitChunks = 2

// claim returns the next chunk in file order, pruning its stripe with
// br's readers when br is the first decoder there, and queues it for the
// caller; pw is the worker claiming, nil for the caller. It returns nil
// once no chunk is left, and a chunk with err when pruning failed.
func (p *parallel) claim(br *executor, pw *parWorker) *chunk {
	for {
		p.claimMu.Lock()
		if p.ended || p.cs >= p.stripes {
			p.ended = true
			p.claimMu.Unlock()
			return nil
		}
		s := p.cs
		if !br.plan.inRange(s) {
			p.cs, p.cc = s+1, 0
			p.claimMu.Unlock()
			continue
		}
		ss := p.slot(s)
		if ss == nil { // done: every chunk claimed and decoded
			p.cs, p.cc = s+1, 0
			p.claimMu.Unlock()
			continue
		}
		if !ss.pruned.Load() {
			p.claimMu.Unlock()
			p.prepare(br, s)
			continue
		}
		var ch *chunk
		switch {
		case ss.err != nil:
			p.ended = true
			ch = &chunk{s: s, err: ss.err}
		case p.cc < len(ss.chunks):
			if p.cc == 0 {
				ss.left.Store(int32(len(ss.chunks)))
				if br.cfg.readAhead {
					// Over a network the next stripes are pruned and
					// scheduled now, so their bytes follow this one's.
					p.look.start(s)
				}
			}
			n := min(unitChunks, len(ss.chunks)-p.cc)
			ch = &chunk{s: s, c: p.cc, n: n, ss: ss}
			p.cc += n
			if pw == nil && p.cc < len(ss.chunks) {
				p.more = true // read by the caller only
			}
		default:
			p.cs, p.cc = s+1, 0
			if len(ss.chunks) == 0 {
				p.stripeDone(s) // skipped
			}
			p.claimMu.Unlock()
			continue
		}
		if pw != nil {
			ch.pw, ch.out = pw, make(chan *orc.Batch, pw.depth)
		}
		p.mu.Lock()
		p.queue = append(p.queue, ch)
		p.mu.Unlock()
		p.claimMu.Unlock()
		return ch
	}
}

// chunkDone records that chunk ch is decoded; the last of its stripe
// makes the stripe done.
func (p *parallel) chunkDone(ch *chunk) {
	if ch.ss != nil && ch.ss.left.Add(-int32(ch.n)) == 0 {
		p.stripeDone(ch.s)
	}
}

// stripeDone records that every chunk of stripe s is decoded: its row
// indexes are let go, and with every stripe before it done, so are its
// requests and its shared pruning.
func (p *parallel) stripeDone(s int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ss := p.shared[s]
	if ss == nil || ss.done {
		return
	}
	ss.done = true
	p.owner.mem.release(ss.charge)
	from := p.released
	for p.released < p.stripes {
		t := p.released
		if p.owner.plan.inRange(t) {
			if st := p.shared[t]; st == nil || !st.done {
				break
			}
		}
		p.shared[t] = nil
		p.released++
	}
	if p.released > from {
		p.owner.plan.io.release(p.released)
	}
}

// publish records a worker's statistics for Stats.
func (p *parallel) publish(w int, br *executor) {
	p.mu.Lock()
	p.stats[w] = br.statsNow()
	p.mu.Unlock()
}

// prepare prunes stripe s with br's readers unless it is pruned already,
// or waits for whoever is pruning it.
//
// A decoder that finds another pruning s prunes the next stripes nobody
// has started meanwhile, up to one per decoder ahead of s, rather than
// wait: a selective scan's work is mostly pruning (a lookup's bloom
// filters), which so runs on every decoder, not on one while the others
// wait for it. Only in a scan that does not read ahead: one that does (over
// a network) has the planner prune ahead instead (aheadPlanner), in file
// order, each stripe's index read with the footer before it.
func (p *parallel) prepare(br *executor, s int) {
	ss := p.slot(s)
	if ss == nil {
		return // done
	}
	if !ss.claim() && p.owner.cfg.where != nil && !br.cfg.readAhead {
		for t := s + 1; t < p.stripes && t <= s+p.owner.cfg.parallel && !ss.pruned.Load(); t++ {
			if ts := p.slot(t); ts != nil && br.plan.inRange(t) && ts.claim() {
				p.prune(br.plan, ts, t)
			}
		}
	}
	p.prune(br.plan, ss, s)
}

// prune prunes stripe s with decoder planner pl unless it is pruned
// already, or waits for whoever is pruning it. Over a network, once its
// stage has scheduled its data, the scan's planner stages the stripes
// after it while its row indexes come (aheadPlanner.stageFrom).
func (p *parallel) prune(pl *planner, ss *sharedStripe, s int) {
	n := p.owner.cfg.parallel
	ss.stage(pl, s, n)
	if ss.sched && pl.cfg.readAhead {
		p.look.start(s)
	}
	ss.cut(pl, n)
}

// slot returns stripe s's shared pruning, made empty at the first ask, or
// nil once the stripe is done.
func (p *parallel) slot(s int) *sharedStripe {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.slotLocked(s)
}

func (p *parallel) slotLocked(s int) *sharedStripe {
	if s < p.released {
		return nil
	}
	ss := p.shared[s]
	if ss == nil {
		ss = &sharedStripe{}
		p.shared[s] = ss
	}
	return ss
}

// chunkGroups is the fewest row groups a chunk of a parallel scan of the
// selected columns of r holds: chunkRowsFor's rows, and a batch, at least.
func chunkGroups(r *Reader, selected []bool, cfg *scanConfig) int {
	stride := int64(r.RowIndexStride())
	if stride <= 0 {
		return 1
	}
	rows := max(int64(chunkRowsFor(r.cols, selected, cfg.test.chunkRows)), int64(cfg.batchSize))
	return int(max((rows+stride-1)/stride, 1))
}

// splitStripe cuts a stripe's kept row groups into chunks of k row groups
// (chunk c covers groups [c*k, (c+1)*k), less at the end; chunks without a
// kept group are left out), trying k = k0, 2*k0, 4*k0, ... while that
// leaves at least two chunks. It returns the first cut for which the
// chunks' plans, each planned on its own as a decoder plans it, read at
// most an eighth more data bytes than the plan of the whole stripe, or nil
// when no cut does or the stripe keeps at most one chunk of k0 groups for
// each of n decoders. Like planStripe it decides from metadata alone.
func splitStripe(in planInput, n, k0 int) ([]groupRun, int, error) {
	whole, err := planStripe(in)
	if err != nil {
		return nil, 0, err
	}
	serial := whole.eagerBytes()
	if in.sel.groups(in.stride) <= n*max(k0, 1) {
		// A chunk or less for each decoder: each would pay the stripe's
		// start (its streams, dictionaries and seeks) for a chunk of rows
		// or none. The decoder that claims the stripe reads it whole.
		return nil, 0, nil
	}
	groups := int((in.sel.n + in.stride - 1) / in.stride)
	for k := max(k0, 1); ; k *= 2 {
		var chunks []groupRun
		for g := 0; g < groups; g += k {
			e := min(g+k, groups)
			if !in.sel.within(int64(g)*in.stride, int64(e)*in.stride).none() {
				chunks = append(chunks, groupRun{g, e})
			}
		}
		if len(chunks) < 2 {
			return nil, 0, nil
		}
		var total int64
		win := in
		for _, c := range chunks {
			win.sel = in.sel.within(int64(c.first)*in.stride, int64(c.end)*in.stride)
			p, err := planStripe(win)
			if err != nil {
				return nil, 0, err
			}
			total += p.eagerBytes()
			if total*8 > serial*9 {
				break
			}
		}
		if total*8 <= serial*9 {
			return chunks, k, nil
		}
	}
}

// inRange reports whether stripe s lies in the scan's WithRange.
func (pl *planner) inRange(s int) bool {
	sp := pl.cfg.split
	if sp == nil {
		return true
	}
	off := int64(pl.r.tail.Footer.GetStripes()[s].GetOffset())
	return off >= sp.off && off-sp.off < sp.n
}

// next returns the next batch in file order: from the chunk whose turn it
// is, decoding it when the caller claimed it, and claiming and decoding
// the next chunk ahead while a worker's chunk has no batch ready.
func (p *parallel) next(b *orc.Batch) error {
	if p.err != nil {
		return p.err
	}
	for {
		h := p.head()
		if h == nil {
			// No chunk claimed ahead: the next is the caller's.
			if p.mine = p.claim(p.owner, nil); p.mine == nil {
				if p.head() != nil {
					continue // a worker claimed the last chunk meanwhile
				}
				return p.end(io.EOF)
			}
			if p.mine.err == nil {
				p.owner.startChunk(p.mine)
			}
			if err := p.startLater(); err != nil {
				return err
			}
			continue
		}
		if h.err != nil {
			return p.end(h.err)
		}
		if h.pw == nil {
			if done, err := p.fromMine(h, b); !done || err != nil {
				return err
			}
			continue
		}
		var wb *orc.Batch
		ok, got := false, true
		select {
		case wb, ok = <-h.out:
		default:
			// The worker is still on it: decode ahead rather than wait.
			if got = !p.ahead(); got {
				select {
				case wb, ok = <-h.out:
				case <-p.stop:
					return p.end(io.EOF)
				}
			}
		}
		switch {
		case !got:
		case ok:
			p.take(b, wb, h.pw)
			return nil
		default: // the worker is done with h
			if err := p.pop(h); err != nil {
				return err
			}
		}
	}
}

// fromMine fills b from the caller's own chunk h at its turn: the batches
// decoded ahead first, then straight from the decoder. It reports done
// when h has no rows left (h is dequeued), else b's rows or the error.
func (p *parallel) fromMine(h *chunk, b *orc.Batch) (bool, error) {
	if len(h.buf) > 0 {
		ob := h.buf[0]
		h.buf = h.buf[1:]
		swapVectors(b, ob)
		p.spare = append(p.spare, ob)
		return false, nil
	}
	if h.werr != nil {
		return false, p.end(h.werr)
	}
	if !h.done {
		err := p.owner.next(b)
		if err == nil {
			return false, nil
		}
		if err != io.EOF {
			return false, p.end(err)
		}
		if p.owner.end.stopped.Load() {
			return false, p.end(io.EOF) // interrupted: not the chunk's end
		}
	}
	p.mine = nil
	return true, p.pop(h)
}

// ahead has the caller decode ahead while the chunk whose turn it is is
// not ready: it claims the next chunk if it has none, or decodes a batch
// more of its own. It reports false when there is nothing to do (no chunk
// left to claim, or the caller's chunk decoded or its batches held).
func (p *parallel) ahead() bool {
	m := p.mine
	if m == nil {
		if p.mine = p.claim(p.owner, nil); p.mine == nil {
			return false
		}
		if p.mine.err == nil {
			p.owner.startChunk(p.mine)
		}
		return true
	}
	if m.err != nil || m.done || m.werr != nil || len(m.buf) >= p.depth {
		return false
	}
	var ob *orc.Batch
	if n := len(p.spare); n > 0 {
		ob, p.spare = p.spare[n-1], p.spare[:n-1]
	} else {
		ob = p.newBatch(p.owner.dec.schema)
	}
	err := p.owner.next(ob)
	switch {
	case err == nil:
		m.buf = append(m.buf, ob)
		return true
	case err == io.EOF && !p.owner.end.stopped.Load():
		m.done = true
	case err == io.EOF:
		return false
	default:
		m.werr = err
	}
	p.spare = append(p.spare, ob)
	return true
}

// head returns the chunk whose turn it is, or nil when none is claimed.
func (p *parallel) head() *chunk {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		return nil
	}
	return p.queue[0]
}

// pop dequeues chunk h, whose rows are all returned, or returns the
// error its worker met.
func (p *parallel) pop(h *chunk) error {
	if h.werr != nil {
		return p.end(h.werr)
	}
	p.mu.Lock()
	p.queue[0] = nil
	p.queue = p.queue[1:]
	p.mu.Unlock()
	if h.pw == nil {
		p.chunkDone(h)
	}
	return nil
}

// take gives the caller's batch b worker batch wb's rows, and wb, with
// b's vectors, back to worker pw.
func (p *parallel) take(b, wb *orc.Batch, pw *parWorker) {
	swapVectors(b, wb)
	pw.free.push(wb)
}

// swapVectors gives b the rows of o, and o b's vectors, reset. Element by
// element, so that b.Cols stays the caller's slice: a caller may hold
// b.Cols as a view of a larger batch (dataset scans append partition
// columns after the file's), which a swap of the slices would leave stale.
func swapVectors(b, o *orc.Batch) {
	for i := range b.Cols {
		b.Cols[i], o.Cols[i] = o.Cols[i], b.Cols[i]
	}
	b.NumRows = o.NumRows
	b.Selected, o.Selected = o.Selected, b.Selected
	b.Schema = o.Schema
	o.Reset()
}

// end ends the scan with err (io.EOF at the end of the rows): the workers
// stop, and next returns err from now.
func (p *parallel) end(err error) error {
	p.err = err
	p.close()
	return err
}

// close stops the workers and waits for them.
func (p *parallel) close() {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		close(p.stop)
		p.mu.Unlock()
		p.wg.Wait()
		for _, pw := range p.workers {
			p.keepBatches(pw)
		}
	})
}

// keepBatches puts the batches the caller gave back to a worker that has
// stopped into the pool, for the next scan's workers: those that pin no
// more than maxKeptBatch (a scan of long strings lets its batches go).
func (p *parallel) keepBatches(pw *parWorker) {
	for b := pw.free.pop(); b != nil; b = pw.free.pop() {
		if b.CapacityBytes() <= maxKeptBatch {
			b.Reset()
			p.batches.Put(b)
		}
	}
}

// maxKeptBatch is the most memory a kept batch may pin: some 16 times a
// 4,096-row batch of lineitem's 16 columns.
const maxKeptBatch = 16 << 20

// The batches of parallel scans' workers, kept for the next scans by
// their type and batch size. A worker makes its batches as it first needs
// them; without these, each scan made them anew, and a selective scan,
// whose worker makes one or two batches that grow to a full batch's rows,
// allocated half again what the serial scan did (4.4 against 3.0 MB for a
// 0.1% range of lineitem at SF 1, most of it those vectors) and took
// 1.14x its time. A sync.Pool lets them go when the heap is collected
// twice without a scan taking them.
var (
	batchPoolsMu sync.Mutex
	batchPools   = map[string]*sync.Pool{}
)

// maxBatchPools bounds the kinds of batch kept: a process scanning files
// of many schemas starts again past it rather than keep a pool for each.
const maxBatchPools = 64

// workerBatches returns the pool of batches of type s and the batch size.
func workerBatches(s *orc.Schema, size int) *sync.Pool {
	key := strconv.Itoa(size) + " " + s.String()
	batchPoolsMu.Lock()
	defer batchPoolsMu.Unlock()
	p := batchPools[key]
	if p == nil {
		if len(batchPools) >= maxBatchPools {
			clear(batchPools)
		}
		p = new(sync.Pool)
		batchPools[key] = p
	}
	return p
}

// sum adds up the decoders' statistics: the scan is one file, and the
// scheduler's and the tail's reads are counted once, from the owner.
func (p *parallel) sum() ScanStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.owner.statsNow()
	file := t.FilesSkipped
	for _, s := range p.stats {
		t.Add(s)
	}
	t.FilesConsidered, t.FilesSkipped = 1, file
	p.owner.addIOStats(&t)
	return t
}

// scanStats adds up the decoders' statistics.
func (p *parallel) scanStats() ScanStats { return p.sum() }

// explainText is empty: a scan recording explain is never parallel.
func (p *parallel) explainText() string { return "" }

// interrupt wakes reads waiting on the scheduler and stops the decoders;
// it does not wait for a worker in the middle of a read of the file (close
// does, on its own goroutine).
func (p *parallel) interrupt() {
	p.owner.interrupt()
	go p.close()
}

// release gives back what the scan holds; next returns io.EOF from now.
// The caller's spare batches go to the pool as the workers' do.
func (p *parallel) release() {
	if p.err == nil {
		p.err = io.EOF
	}
	if m := p.mine; m != nil {
		p.spare = append(p.spare, m.buf...)
		m.buf = nil
	}
	for _, b := range p.spare {
		if b.CapacityBytes() <= maxKeptBatch {
			b.Reset()
			p.batches.Put(b)
		}
	}
	p.spare = nil
	p.owner.release()
}
