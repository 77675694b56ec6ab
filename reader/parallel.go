package reader

// Parallel decoding (WithParallelism). The scan's unit of parallel work is
// a chunk: a range of row groups of one stripe, or a whole stripe. Chunks
// are numbered in file order and chunk j goes to worker j mod n, each
// worker with its own BatchReader (column readers, decompressor, buffers).
//
// Each stripe is pruned once, by the first worker to reach it: its stripe
// statistics, footer, row indexes and bloom filters give the kept row
// groups, and a pure function (splitStripe) cuts them into chunks of a few
// row groups when the workers' plans for their chunks read no more than an
// eighth more bytes than one serial plan would. That holds for aligned files
// (orcgo's default, where every row group starts on a chunk boundary of
// every stream and the plans' ranges partition the streams); where the
// positions carry bytes across row groups (Java, C++ and Hive writers) the
// slop of every chunk would be read twice, the test fails at every chunk
// size tried, and the stripe is one chunk, decoded by one worker as a serial
// scan would. Each worker then plans its own share of the stripe (its
// chunks' groups) with planStripe and executes it like a serial scan.
//
// Workers send batches, then an end marker per chunk, through channels of a
// bounded size: a worker runs ahead of the caller by at most about one
// chunk of rows. Next takes chunk j's batches from worker j mod n, so rows
// come out in file order. Batches are handed over by swapping vectors: the
// caller's batch receives the worker's vectors and the worker gets the
// caller's previous ones back, so nothing is copied and each worker cycles
// through a fixed set of batches.

import (
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
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

type parItem struct {
	b   *orc.Batch
	end bool // the worker's current chunk is finished
	eof bool // no chunk is left in the file
	err error
}

type parWorker struct {
	br    *executor
	out   chan parItem
	free  chan *orc.Batch
	depth int // the batches it may make (it has made made)
	made  int
}

// newInner makes an executor of the scan for a worker or the planner: a
// serial one sharing the owner's memory budget and I/O scheduler, with no
// batch charged (newExecutor charges one; workers charge theirs).
func (p *parallel) newInner() (*executor, error) {
	cfg := p.owner.cfg
	cfg.parallel = 1
	br, err := p.owner.r.newExecutor(cfg, p.owner.mem, p.owner.io)
	if err != nil {
		return nil, err
	}
	_ = p.owner.mem.set(&br.buf.held.vectors, 0, nil)
	return br, nil
}

// batch returns a batch for worker pw to decode into: a free one, or a new
// one while it has made fewer than its depth (a selective scan, which
// returns a few batches, never makes the rest), or, once it has made them
// all, the next the caller gives back; false when the scan stops first.
func (p *parallel) batch(pw *parWorker) (*orc.Batch, bool) {
	select {
	case b := <-pw.free:
		return b, true
	default:
	}
	if pw.made < pw.depth {
		pw.made++
		if b, ok := p.batches.Get().(*orc.Batch); ok {
			b.Schema = pw.br.schema
			return b, true
		}
		// Its vectors grow as rows are decoded into them: a selective
		// scan's batches, which hold a few rows, stay small.
		return orc.NewBatch(pw.br.schema, 0), true
	}
	select {
	case b := <-pw.free:
		return b, true
	case <-p.stop:
		return nil, false
	}
}

type parallel struct {
	owner   *executor
	workers []*parWorker
	stripes int
	cur     int // global number of the chunk being returned
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	err     error

	// planner prunes and schedules the stripes after the one the workers
	// start, over a network, while they decode (prepareAhead); plan
	// serialises its use (and its making, at the first).
	planner *executor
	plan    sync.Mutex
	// Under mu: the newest stripe a worker has started, and whether the
	// planner is busy.
	aheadOf  int
	planning bool

	// batches keeps the workers' batches for the next parallel scan of
	// the same type and batch size (workerBatches).
	batches *sync.Pool

	mu     sync.Mutex
	shared []*sharedStripe // per stripe, dropped once every worker is past it
	stats  []ScanStats     // per worker, as of its last finished stripe, then the planner's
}

// sharedStripe is one stripe's pruning, done once for all workers, and how
// it is cut into chunks.
type sharedStripe struct {
	once   sync.Once
	err    error
	meta   *stripeMeta // nil: the stripe is skipped
	ix     *stripeIndex
	in     planInput // for the whole stripe, with the kept groups
	chunks []groupRun
	k      int   // row groups per chunk; 0: one chunk, the whole stripe
	charge int64 // its row indexes' bytes in the memory budget
	passed atomic.Int32
	// scheduled is the bytes its data's requests were scheduled with.
	scheduled int64
	// claimed: a worker or the planner has asked to prune it; pruned: it
	// is (see prepare).
	claimed, pruned atomic.Bool
}

// part is a worker's share of the stripe it is decoding.
type part struct {
	ss    *sharedStripe
	kept  []bool // its row groups (the kept ones of its chunks); nil: all
	first bool   // it decodes the stripe's first chunk (and counts it read)
}

// newParallel makes owner the coordinator of cfg.parallel workers, each an
// executor of its own sharing owner's memory budget and I/O scheduler.
func (r *Reader) newParallel(owner *executor) (*parallel, error) {
	n := owner.cfg.parallel
	stripes := len(r.tail.Footer.GetStripes())
	p := &parallel{owner: owner, stripes: stripes, stop: make(chan struct{}),
		shared: make([]*sharedStripe, stripes), stats: make([]ScanStats, n+1),
		batches: workerBatches(owner.schema, owner.cfg.batchSize)}
	depth := workerDepth(owner.cfg.batchSize, r.RowIndexStride(), chunkRowsFor(r.cols, owner.selected, owner.cfg.test.chunkRows))
	for w := 0; w < n; w++ {
		inner, err := p.newInner()
		if err == nil {
			err = inner.setupColumns()
		}
		if err != nil {
			p.close()
			return nil, err
		}
		// Each worker holds its batches.
		if err := inner.holdVectors(depth + 1); err != nil {
			p.close()
			return nil, err
		}
		pw := &parWorker{br: inner, out: make(chan parItem, depth), free: make(chan *orc.Batch, depth+1), depth: depth}
		p.workers = append(p.workers, pw)
	}
	for w, pw := range p.workers {
		p.wg.Add(1)
		go p.run(w, pw)
	}
	return p, nil
}

// workerDepth is how many batches a worker may have decoded ahead: a chunk
// of one or a few row groups, and at least 3.
func workerDepth(batch, stride, chunk int) int {
	rows := max(chunk, stride)
	if stride > 0 { // whole row groups
		rows = (rows + stride - 1) / stride * stride
	}
	return min(max((rows+batch-1)/batch+1, 3), 32)
}

// run decodes the worker's chunks in file order.
func (p *parallel) run(w int, pw *parWorker) {
	defer p.wg.Done()
	br := pw.br
	defer func() {
		p.publish(w, br)
		br.releaseBytes()
	}()
	n := len(p.workers)
	seq := 0 // global number of the stripe's first chunk
	for s := 0; s < p.stripes; s++ {
		if !br.inRange(s) {
			continue
		}
		ss := p.prepare(br, s)
		if ss.err != nil {
			if seq%n == w {
				p.send(pw, parItem{err: ss.err})
			}
			return
		}
		if br.io.prefetching() {
			// Over a network the next stripe is pruned and scheduled
			// now, so its bytes follow this one's (an error waits for its
			// turn there).
			p.prepareAhead(s)
		}
		var mine []int
		for c := range ss.chunks {
			if (seq+c)%n == w {
				mine = append(mine, c)
			}
		}
		if len(mine) > 0 && !p.decodeStripe(w, pw, s, ss, mine) {
			return
		}
		seq += len(ss.chunks)
		p.pass(s)
	}
	if seq%n == w {
		p.send(pw, parItem{eof: true})
	}
}

// send hands an item to the caller, or reports false when the scan stops.
func (p *parallel) send(pw *parWorker, it parItem) bool {
	select {
	case pw.out <- it:
		return true
	case <-p.stop:
		return false
	}
}

// decodeStripe decodes worker w's chunks mine of stripe s.
func (p *parallel) decodeStripe(w int, pw *parWorker, s int, ss *sharedStripe, mine []int) bool {
	br := pw.br
	pt := &part{ss: ss, first: mine[0] == 0}
	if ss.k > 0 {
		pt.kept = make([]bool, len(ss.in.kept))
		for _, c := range mine {
			run := ss.chunks[c]
			copy(pt.kept[run.first:run.end], ss.in.kept[run.first:run.end])
		}
	} else {
		pt.kept = ss.in.kept
	}
	br.part = pt
	_ = br.mem.set(&br.buf.held.index, 0, nil) // the deferred columns' indexes of its last stripe
	br.cur.stripe, br.cur.stopAt = s, s+1
	br.cur.plan, br.cur.run, br.cur.remaining = nil, 0, 0
	due := 0 // the chunk of mine whose end marker is due
	for {
		b, ok := p.batch(pw)
		if !ok {
			return false
		}
		err := br.next(b)
		if err == io.EOF {
			pw.free <- b
			break
		}
		if err != nil {
			p.send(pw, parItem{err: err})
			return false
		}
		if ss.k > 0 { // end the chunks before the batch's run
			g := br.cur.plan.runs[br.cur.run-1].first
			for ; due < len(mine) && ss.chunks[mine[due]].end <= g; due++ {
				if !p.send(pw, parItem{end: true}) {
					return false
				}
			}
		}
		if !p.send(pw, parItem{b: b}) {
			return false
		}
	}
	for ; due < len(mine); due++ {
		if !p.send(pw, parItem{end: true}) {
			return false
		}
	}
	p.publish(w, br)
	return true
}

// publish records a worker's statistics for Stats.
func (p *parallel) publish(w int, br *executor) {
	p.mu.Lock()
	p.stats[w] = br.statsNow()
	p.mu.Unlock()
}

// prepare returns stripe s's shared pruning, computing it with br's
// readers when br is the first worker there.
//
// A worker that finds another pruning s prunes the next stripes nobody has
// started meanwhile, up to one per worker ahead of s, rather than wait: a
// selective scan's work is mostly pruning (a lookup's bloom filters), which
// so runs on every worker, not on one while the others wait for it. Only on
// a file whose reads in this scan have all answered at local speed, and
// not before its first read (a store that answered Open from a cache and
// does not say its latency would otherwise have stripes pruned ahead, and
// scheduled, before the scan knows to read ahead): over a network the planner
// prunes ahead instead (prepareAhead), in file order, each stripe's index
// read with the footer before it.
func (p *parallel) prepare(br *executor, s int) *sharedStripe {
	ss := p.slot(s)
	if !ss.claim() && p.owner.cfg.where != nil && br.io.local() {
		for t := s + 1; t < p.stripes && t <= s+len(p.workers) && !ss.pruned.Load(); t++ {
			if ts := p.slot(t); br.inRange(t) && ts.claim() {
				p.prune(br, ts, t)
			}
		}
	}
	p.prune(br, ss, s)
	return ss
}

// slot returns stripe s's shared pruning, made empty at the first ask.
func (p *parallel) slot(s int) *sharedStripe {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.slotLocked(s)
}

func (p *parallel) slotLocked(s int) *sharedStripe {
	ss := p.shared[s]
	if ss == nil {
		ss = &sharedStripe{}
		p.shared[s] = ss
	}
	return ss
}

// claim reports whether the caller is the first to ask to prune the
// stripe (the one that will, unless the planner or a worker calling
// prune without a claim gets there first).
func (ss *sharedStripe) claim() bool { return ss.claimed.CompareAndSwap(false, true) }

// prune prunes stripe s with br's readers unless it is pruned already, or
// waits for whoever is pruning it.
func (p *parallel) prune(br *executor, ss *sharedStripe, s int) {
	ss.once.Do(func() {
		ss.err = br.pruneShared(ss, s, len(p.workers))
		ss.pruned.Store(true)
	})
}

// prepareAhead has the planner prune the stripes after s, on a goroutine
// of its own, as a serial scan plans ahead (planAhead): up to
// maxPlannedAhead stripes with rows to read, or until they have a quarter
// of the prefetch bound scheduled. The workers decode stripe s
// meanwhile, and find the next ones pruned (or wait for the planner to
// finish one) when they get there. A call while the planner is busy does
// nothing: the planner takes the workers' newest stripe when it looks
// for more.
func (p *parallel) prepareAhead(s int) {
	p.mu.Lock()
	p.aheadOf = max(p.aheadOf, s)
	if p.planning {
		p.mu.Unlock()
		return
	}
	p.planning = true
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.plan.Lock()
		defer p.plan.Unlock()
		defer func() {
			p.mu.Lock()
			p.planning = false
			p.mu.Unlock()
		}()
		if p.planner == nil {
			// Made at its first use: a local scan never needs it.
			planner, err := p.newInner()
			if err != nil {
				return // the workers prune the stripes themselves
			}
			p.planner = planner
		}
		for {
			ss, t := p.nextAhead()
			if ss == nil {
				return
			}
			select {
			case <-p.stop:
				return
			default:
			}
			ss.claim()
			p.prune(p.planner, ss, t)
			p.publish(len(p.workers), p.planner)
			if ss.err != nil {
				return
			}
		}
	}()
}

// nextAhead returns the next stripe the planner prunes, and its number,
// or nil when the stripes pruned ahead of the workers' newest reach
// maxPlannedAhead or a quarter of the prefetch bound.
func (p *parallel) nextAhead() (*sharedStripe, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var planned int64
	n := 0
	for t := p.aheadOf + 1; t < p.stripes; t++ {
		if !p.owner.inRange(t) {
			continue
		}
		ss := p.slotLocked(t)
		if !ss.pruned.Load() {
			if ss.claimed.Load() {
				return nil, 0 // a worker is on it
			}
			return ss, t
		}
		if ss.meta != nil {
			n++
			planned += ss.scheduled
		}
		if n >= maxPlannedAhead || planned >= p.owner.io.cfg.prefetch/4 {
			return nil, 0
		}
	}
	return nil, 0
}

// pass records that a worker is done with stripe s; the last one drops
// it (no worker asks for it again).
func (p *parallel) pass(s int) {
	p.mu.Lock()
	if ss := p.shared[s]; ss != nil && int(ss.passed.Add(1)) == len(p.workers) {
		p.shared[s] = nil
		p.owner.io.release(s + 1)
		p.owner.mem.release(ss.charge)
	}
	p.mu.Unlock()
}

// pruneShared prunes stripe s for all n workers and cuts it into chunks.
//
// The row indexes it reads are charged to the stripe (ss.charge) until
// every worker has passed it, not to br.
func (br *executor) pruneShared(ss *sharedStripe, s, n int) (err error) {
	before := br.buf.held.index
	defer func() {
		ss.charge = br.buf.held.index - before
		br.buf.held.index = before
	}()
	br.stats.StripesConsidered++
	meta, ix, in, err := br.pruneStripe(s)
	if err != nil || meta == nil {
		return err
	}
	if in.kept != nil && !anyTrue(in.kept) {
		br.stats.StripesSkipped++
		br.doneWithIndex(s)
		return nil
	}
	ss.meta, ss.ix, ss.in = meta, ix, in
	ss.chunks = []groupRun{{0, 1}}
	scheduled := false
	defer func() {
		if err == nil && !scheduled {
			err = br.scheduleShared(ss, nil, n)
		}
	}()
	if n < 2 || in.stride <= 0 || meta.info.NumRows <= in.stride {
		return nil
	}
	// The trial plans need every eager column's row index.
	tix := ix
	if tix == nil {
		tix = newStripeIndex(br.r, meta)
	}
	tin := in
	tin.entries = tix.entries
	if tin.kept == nil {
		tin.kept = make([]bool, tix.groups)
		for g := range tin.kept {
			tin.kept[g] = true
		}
	}
	k0 := int((max(int64(chunkRowsFor(br.r.cols, br.selected, br.cfg.test.chunkRows)), int64(br.cfg.batchSize)) + in.stride - 1) / in.stride)
	if countTrue(tin.kept) <= n*max(k0, 1) {
		// One chunk (see splitStripe), for one worker: no trial plans,
		// only the row indexes a serial scan's plan would read to seek
		// (the deferred columns' are read at a match, if any).
		if ix != nil {
			if cols := indexNeeded(in); len(cols) > 0 {
				return br.readIndex(ix, cols, false)
			}
		}
		return nil
	}
	// Every selected column's: the deferred columns' too, which each
	// worker would otherwise read for itself to seek to its chunks.
	var cols []int
	for col, sel := range in.selected {
		if sel {
			cols = append(cols, col)
		}
	}
	if !pruned(tin.kept) && br.io.prefetching() {
		// Every group is read: the stripe's data is scheduled now, with
		// the row indexes the chunks seek by, which so come in the same
		// requests.
		var idx []span
		for _, col := range cols {
			if l, ok := meta.stream(col, orcpb.Stream_ROW_INDEX); ok {
				idx = append(idx, span{off: l.offset, n: l.length})
			}
		}
		if err := br.scheduleShared(ss, idx, n); err != nil {
			return err
		}
		scheduled = true
	}
	if err := br.readIndex(tix, cols, false); err != nil {
		return err
	}
	chunks, k, err := splitStripe(tin, n, k0)
	if err != nil || chunks == nil {
		return err
	}
	ss.ix, ss.in, ss.chunks, ss.k = tix, tin, chunks, k
	return nil
}

// splitStripe cuts a stripe's kept row groups into chunks of k row groups
// (chunk c covers groups [c*k, (c+1)*k), less at the end; chunks without a
// kept group are left out), trying k = k0, 2*k0, 4*k0, ... while that
// leaves at least two chunks. It returns the first cut for which the plans
// of the n workers, each planning the chunks dealt to it in turn, read at
// most an eighth more data bytes than the plan of the whole stripe, or nil
// when no cut does or the stripe keeps at most one chunk of k0 groups for
// each worker. Like planStripe it decides from metadata alone.
func splitStripe(in planInput, n, k0 int) ([]groupRun, int, error) {
	whole, err := planStripe(in)
	if err != nil {
		return nil, 0, err
	}
	serial := whole.eagerBytes()
	kept := 0
	for _, k := range in.kept {
		if k {
			kept++
		}
	}
	if kept <= n*max(k0, 1) {
		// A chunk or less for each worker: each would pay the stripe's
		// start (its streams, dictionaries and seeks) for a chunk of
		// rows or none. One worker reads the stripe; the next such
		// stripe goes to the next worker.
		return nil, 0, nil
	}
	for k := max(k0, 1); ; k *= 2 {
		var chunks []groupRun
		for g := 0; g < len(in.kept); g += k {
			e := min(g+k, len(in.kept))
			if anyTrue(in.kept[g:e]) {
				chunks = append(chunks, groupRun{g, e})
			}
		}
		if len(chunks) < 2 {
			return nil, 0, nil
		}
		var total int64
		for w := 0; w < n; w++ {
			win := in
			win.kept = make([]bool, len(in.kept))
			for c := w; c < len(chunks); c += n {
				copy(win.kept[chunks[c].first:chunks[c].end], in.kept[chunks[c].first:chunks[c].end])
			}
			if !anyTrue(win.kept) {
				continue
			}
			p, err := planStripe(win)
			if err != nil {
				return nil, 0, err
			}
			total += p.eagerBytes()
		}
		if total*8 <= serial*9 {
			return chunks, k, nil
		}
	}
}

// planPart plans a worker's share of stripe i from the shared pruning.
func (br *executor) planPart(i int) (*stripePlan, *stripeIndex, *stripeMeta, planInput, error) {
	pt := br.part
	ss := pt.ss
	in := ss.in
	in.kept = pt.kept
	ix := ss.ix.clone()
	if ix != nil {
		in.entries = ix.entries
	}
	p, err := planStripe(in)
	if err != nil {
		return nil, nil, nil, planInput{}, err
	}
	return p, ix, ss.meta, in, nil
}

// inRange reports whether stripe s lies in the scan's WithRange.
func (br *executor) inRange(s int) bool {
	c := br.cfg
	if !c.rangeOn {
		return true
	}
	off := int64(br.r.tail.Footer.GetStripes()[s].GetOffset())
	return off >= c.rangeOff && off-c.rangeOff < c.rangeLen
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}

// next returns the next batch in file order.
func (p *parallel) next(b *orc.Batch) error {
	if p.err != nil {
		return p.err
	}
	n := len(p.workers)
	for {
		pw := p.workers[p.cur%n]
		it, ok := <-pw.out
		switch {
		case !ok: // closed by Close from another goroutine
			return io.EOF
		case it.err != nil:
			p.err = it.err
			p.close()
			return it.err
		case it.eof:
			p.close()
			p.err = io.EOF
			return io.EOF
		case it.end:
			p.cur++
			continue
		}
		// Swap vectors: the caller gets the worker's, the worker the
		// caller's previous ones. Element by element, so that b.Cols
		// stays the caller's slice: a caller may hold b.Cols as a view of
		// a larger batch (dataset scans append partition columns after
		// the file's), which a swap of the slices would leave stale.
		for i := range b.Cols {
			b.Cols[i], it.b.Cols[i] = it.b.Cols[i], b.Cols[i]
		}
		b.NumRows = it.b.NumRows
		b.Schema = it.b.Schema
		it.b.Reset()
		pw.free <- it.b
		return nil
	}
}

// close stops the workers and waits for them.
func (p *parallel) close() {
	p.once.Do(func() {
		close(p.stop)
		for _, pw := range p.workers {
			// Drain so no worker stays blocked on a send.
			go func(pw *parWorker) {
				for range pw.out {
				}
			}(pw)
		}
		p.wg.Wait()
		for _, pw := range p.workers {
			close(pw.out)
			p.keepBatches(pw)
		}
	})
}

// keepBatches puts the batches the caller gave back to a worker that has
// stopped into the pool, for the next scan's workers: those that pin no
// more than maxKeptBatch (a scan of long strings lets its batches go).
func (p *parallel) keepBatches(pw *parWorker) {
	for {
		select {
		case b := <-pw.free:
			if b.CapacityBytes() <= maxKeptBatch {
				b.Reset()
				p.batches.Put(b)
			}
		default:
			return
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

// sum adds up the workers' statistics.
func (p *parallel) sum() ScanStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.owner.stats
	t.FilesConsidered = 1
	for _, s := range p.stats {
		t.StripesConsidered += s.StripesConsidered
		t.StripesSkipped += s.StripesSkipped
		t.StripesPruned += s.StripesPruned
		t.GroupsSkippedByBloom += s.GroupsSkippedByBloom
		t.GroupsConsidered += s.GroupsConsidered
		t.GroupsSkipped += s.GroupsSkipped
		t.StripesRead += s.StripesRead
		t.ReadCalls += s.ReadCalls
		t.BytesRead += s.BytesRead
		t.IndexBytesRead += s.IndexBytesRead
		t.RowsDecoded += s.RowsDecoded
		t.RowsReturned += s.RowsReturned
		t.UnplannedReads += s.UnplannedReads
	}
	p.owner.addIOStats(&t)
	return t
}

// scanStats adds up the workers' statistics.
func (p *parallel) scanStats() ScanStats { return p.sum() }

// explainText is empty: a scan recording explain is never parallel.
func (p *parallel) explainText() string { return "" }

// interrupt wakes reads waiting on the scheduler and stops the workers;
// it does not wait for a worker in the middle of a read of the file (close
// does, on its own goroutine).
func (p *parallel) interrupt() {
	p.owner.io.close()
	go p.close()
}

// release gives back what the scan holds; next returns io.EOF from now.
func (p *parallel) release() {
	if p.err == nil {
		p.err = io.EOF
	}
	p.owner.release()
}
