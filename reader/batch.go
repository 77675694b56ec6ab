package reader

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/sarg"
)

// ScanStats counts the work a BatchReader did and what pruning decided.
type ScanStats struct {
	FilesConsidered   int // 1 once the scan starts
	FilesSkipped      int // 1 when file statistics ruled the whole file out
	StripesConsidered int // stripes looked at
	StripesSkipped    int // stripes skipped by stripe statistics or because no row group survived
	// StripesPruned counts the stripes of StripesSkipped that their stripe
	// statistics ruled out (the others had no row group left).
	StripesPruned    int
	GroupsConsidered int // row groups evaluated against the row index
	GroupsSkipped    int // row groups skipped
	// GroupsSkippedByBloom counts the groups of GroupsSkipped that min/max
	// kept and a bloom filter ruled out.
	GroupsSkippedByBloom int
	StripesRead          int // stripes whose data was read
	// ReadCalls counts the scan's requests to the file: ReadAt calls for
	// stripe footers, index streams and data, each a request to an object
	// store (the file's tail, read by Open, is counted in TailReads).
	ReadCalls      int
	BytesRead      int64 // bytes fetched by those calls
	IndexBytesRead int64 // row index and bloom filter bytes the scan used
	// ReadsAhead counts the calls of ReadCalls made ahead of the decoder
	// (prefetched), PeakReadsInFlight the most calls running at once.
	ReadsAhead        int
	PeakReadsInFlight int
	// BytesUnused counts bytes fetched ahead and given back unread (a run
	// the decoder did not finish, a scan stopped early).
	BytesUnused int64
	// ReadWait is how long the scan's decoding waited for the file's bytes:
	// reads it made itself and requests in flight it had to wait for. Over
	// a network a scan that reads far enough ahead keeps it near one
	// round trip per stripe it starts cold; the rest of its time is
	// decoding.
	ReadWait     time.Duration
	TailReads    int   // ReadAt calls Open made for the file's tail
	TailBytes    int64 // bytes they read
	RowsDecoded  int64 // rows decoded
	RowsReturned int64 // rows returned in batches (after exact filtering)
	// UnplannedReads counts reads of bytes the scan plan did not foresee:
	// a stream read on past the planned end of a run of row groups, which
	// only a writer emitting short compression chunks in mid-stream can
	// cause. Files of Apache's writers and of orcgo give 0.
	UnplannedReads int
}

// String formats the statistics on a few lines.
func (s ScanStats) String() string {
	return fmt.Sprintf("files: %d considered, %d skipped\nstripes: %d considered, %d skipped (%d by statistics), %d read\n"+
		"row groups: %d considered, %d skipped (%d by bloom filters)\nreads: %s, %d bytes (%d of index); %d ahead, at most %d in flight, %d bytes unused, waited %v; tail: %s, %d bytes\nrows: %d decoded, %d returned",
		s.FilesConsidered, s.FilesSkipped, s.StripesConsidered, s.StripesSkipped, s.StripesPruned, s.StripesRead,
		s.GroupsConsidered, s.GroupsSkipped, s.GroupsSkippedByBloom, calls(s.ReadCalls), s.BytesRead, s.IndexBytesRead,
		s.ReadsAhead, s.PeakReadsInFlight, s.BytesUnused, s.ReadWait.Round(time.Millisecond), calls(s.TailReads), s.TailBytes, s.RowsDecoded, s.RowsReturned)
}

// calls says "1 call" or "n calls".
func calls(n int) string {
	if n == 1 {
		return "1 call"
	}
	return fmt.Sprintf("%d calls", n)
}

// executor decodes the rows of a file, batch by batch, into reusable
// typed vectors: a serial scan, or one worker of a parallel one.
//
// It executes one stripe plan after another (plan.go): for each stripe it
// prunes with the statistics and row indexes, plans, then for each kept run
// of row groups fetches the run's first pieces, seeks the columns to the
// run's first group and decodes its rows, with the streams fetching the rest
// of their ranges as they go (fetch.go).
type executor struct {
	r        *Reader
	cfg      scanConfig
	selected []bool // per file column id
	root     columnReader
	schema   *orc.Schema // projected schema of the batches
	io       *ioSched    // every read of the scan (shared by parallel workers)

	pred    predicate
	cols    *colGroups // WithColumnParallelism, or nil
	explain *strings.Builder
	// lazy is set when the top-level fields start at their first use in
	// a stripe and give their stream readers back after its last batch
	// (release.go).
	lazy *lazyFields

	cur  cursor
	part *part // a parallel worker's share of the current stripe

	// WithMaxScanMemory: the budget, shared by parallel workers, and the
	// buffers this executor holds in it.
	mem   *budget
	buf   buffers
	stats ScanStats
	end   scanEnd
}

// scanEnd is how an executor's scan ends: done when no rows remain, the
// error it stopped on, and stopped, set by interrupt from any goroutine,
// which next checks between batches.
type scanEnd struct {
	done    bool
	err     error
	stopped atomic.Bool
}

// predicate is an executor's search argument: bound to the file, the
// columns group pruning reads the indexes of, and with WithExactFilter the
// row filter and the deferred columns.
type predicate struct {
	sarg      *sarg.Bound
	pruneCols []int       // the predicate's columns and the structs above them (pruneColumns)
	flt       exactFilter // WithExactFilter
	def       *deferred   // exact filtering's deferred columns, or nil
}

// buffers are the bytes an executor holds in the scan's memory budget:
// by slot for row indexes, decompression blocks and batch vectors (stream
// pieces are taken from the budget directly), the scratch of coalesced
// first reads (fetch.go), and the stream buffers it let go of, for the
// next pieces; with them the decompressor its streams share and the
// decompressed index streams, both reused from stripe to stripe.
type buffers struct {
	held    held
	scratch []byte
	bufs    bufList
	dec     format.Decompressor // for index streams and the streams' blocks
	index   []byte              // decompressed index streams
	bloom   []byte              // a stripe's bloom filter streams, while pruneGroups tests them
}

// cursor is where an executor is in its scan: the stripe it reads, that
// stripe's plan, streams and index, the run of row groups it decodes and
// the rows left in it, and the next stripe, planned ahead.
type cursor struct {
	stripe    int              // next stripe to start
	stopAt    int              // parallel workers: stop before this stripe (0: no limit)
	plan      *stripePlan      // the current stripe's plan, or nil
	ahead     []*plannedStripe // the next stripes with rows to read, planned ahead
	pin       planInput        // what the plan was made from
	sio       *stripeIO        // its streams' fetches
	ix        *stripeIndex
	run       int   // next run of the plan to start
	runFirst  int64 // stripe row of the current run's first row
	remaining int64 // rows left in the current run
	runRows   int64 // rows of the current run
	ctx       stripeCtx
}

// exactFilter is the state of WithExactFilter: where the predicate's
// columns lie in a batch, and the matcher that evaluates it row by row.
type exactFilter struct {
	matcher *sarg.Matcher
	paths   map[int][]int // predicate column id -> field path in the batch
	top     []bool        // per batch column: holds a predicate column
	matches []bool
	vecs    sarg.ColumnVectors
	// Late materialization: the selected rows' indexes and runs of the
	// current batch, and per batch field a vector decoding one run at a
	// time.
	idx     []int32
	sel     rowSelection
	scratch []orc.Vector
}

// held is what a BatchReader holds in the scan's memory budget, by slot:
// row indexes, one decompression block per open compressed stream, the
// fixed-width part of its batches, and the scratch buffer of coalesced
// reads. Stream pieces are taken from the budget directly (fetch.go).
type held struct {
	index, decomp, vectors, scratch int64
}

// NewBatchReader starts a scan of the file.
func (r *Reader) NewBatchReader(opts ...ScanOption) (*BatchReader, error) {
	cfg := defaultScanConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	cfg.declareReadAhead(r.remote)
	if cfg.where != nil {
		// Column names as the schema spells them (exact, else the one
		// matching ignoring case), for every later step.
		names := r.tail.Schema
		if cfg.readSchema != nil {
			names = cfg.readSchema
		}
		e := sarg.ResolveNames(*cfg.where, names)
		cfg.where = &e
	}
	// A batch never holds more rows than a stripe: a small file gets
	// small batches (a one-row file of 100,000 columns would otherwise
	// allocate vectors of 1,024 rows for each).
	var most uint64
	for _, s := range r.tail.Footer.GetStripes() {
		most = max(most, s.GetNumberOfRows())
	}
	if len(r.tail.Footer.GetStripes()) > 0 && most < uint64(cfg.batchSize) {
		cfg.batchSize = max(int(most), 1)
	}
	var sc scanner
	var schema *orc.Schema
	var err error
	if cfg.readSchema != nil {
		sc, schema, err = r.newEvolved(cfg)
	} else {
		sc, schema, err = r.newScan(cfg)
	}
	if err != nil {
		return nil, err
	}
	br := &BatchReader{scan: sc, schema: schema, batchSize: cfg.batchSize, ctx: cfg.ctx}
	if !cfg.allCols {
		if br.proj = newOutProjection(schema, cfg.columns, cfg.batchSize); br.proj != nil {
			br.schema = br.proj.out
		}
	}
	return br, nil
}

// newScan starts a scan in the file's schema: one executor, or with
// WithParallelism a coordinator of several (parallel.go). It returns the
// batches' schema with it.
func (r *Reader) newScan(cfg scanConfig) (scanner, *orc.Schema, error) {
	br, err := r.newExecutor(cfg, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	if cfg.parallel > 1 && !cfg.explain && !br.end.done && len(r.tail.Footer.GetStripes()) > 0 {
		p, err := r.newParallel(br)
		if err != nil {
			return nil, nil, err
		}
		return p, br.schema, nil
	}
	if err := br.setupColumns(); err != nil {
		return nil, nil, err
	}
	return br, br.schema, nil
}

// newExecutor makes the reader that plans and decodes stripes for cfg:
// its column readers, predicate and exact filter, with the file
// statistics evaluated. Parallel workers pass the coordinator's memory
// budget and I/O scheduler, which they share; nil makes new ones.
func (r *Reader) newExecutor(cfg scanConfig, mem *budget, io *ioSched) (*executor, error) {
	if mem == nil {
		mem = &budget{limit: cfg.maxMemory}
	}
	if io == nil {
		io = newIOSched(r.r, cfg.sched(r.onDisk), cfg.ctx)
	}
	br := &executor{r: r, cfg: cfg, mem: mem, io: io}
	if cfg.where != nil {
		b, err := sarg.Bind(*cfg.where, r.tail.Schema)
		if err != nil {
			return nil, err
		}
		br.pred.sarg = b
		if cfg.filter {
			br.pred.flt.matcher = b.NewMatcher()
		}
		if cfg.explain {
			br.explain = &strings.Builder{}
			fmt.Fprintf(br.explain, "predicate: %s\n", b)
		}
	}
	sel, err := r.selectColumns(cfg)
	if err != nil {
		return nil, err
	}
	if br.pred.sarg != nil {
		for _, col := range br.pred.sarg.Columns() {
			if r.IsEncrypted(col) {
				return nil, fmt.Errorf("%w: the search argument uses encrypted column %d", orc.ErrUnsupported, col)
			}
			markWithAncestors(r.tail.Schema, col, sel)
		}
	}
	root, proj, err := r.newColumnReader(r.tail.Schema, sel)
	if err != nil {
		return nil, err
	}
	proj.Assign()
	br.selected, br.root, br.schema = sel, root, proj
	if r.tail.Compression != orc.CompressionNone {
		if br.buf.dec, err = format.NewDecompressor(r.tail.Compression); err != nil {
			return nil, err
		}
	}
	if br.pred.sarg != nil {
		br.locateSargColumns()
		br.setupDeferred()
	}
	if err := br.holdVectors(1); err != nil {
		return nil, err
	}
	br.stats.FilesConsidered = 1
	if br.pred.sarg != nil && r.hasFileStatistics() {
		src := &levelSource{r: r, stripe: -1}
		tv := br.pred.sarg.Evaluate(src)
		if br.explain != nil {
			fmt.Fprintf(br.explain, "file statistics:\n%s", indent(br.pred.sarg.Explain(src)))
		}
		if !tv.IsNeeded() {
			br.stats.FilesSkipped = 1
			br.end.done = true
		}
	}
	return br, nil
}

// indent prefixes every line of s with two spaces.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// markWithAncestors selects column id's subtree and its ancestors.
func markWithAncestors(root *orc.Schema, id int, sel []bool) {
	n := root
	for {
		sel[n.ID()] = true
		if n.ID() == id {
			for i := id; i <= n.MaxID(); i++ {
				sel[i] = true
			}
			return
		}
		var next *orc.Schema
		for _, c := range n.Children {
			if id >= c.ID() && id <= c.MaxID() {
				next = c
			}
		}
		if next == nil {
			return
		}
		n = next
	}
}

// locateSargColumns finds where each predicate column lies in a batch.
func (br *executor) locateSargColumns() {
	br.pred.flt.paths = map[int][]int{}
	br.pred.flt.top = make([]bool, len(br.schema.Children))
	want := map[int]bool{}
	for _, c := range br.pred.sarg.Columns() {
		want[c] = true
	}
	var walk func(c columnReader, path []int)
	walk = func(c columnReader, path []int) {
		if want[c.columnID()] {
			br.pred.flt.paths[c.columnID()] = append([]int(nil), path...)
			if len(path) > 0 {
				br.pred.flt.top[path[0]] = true
			}
		}
		if s, ok := c.(*structReader); ok {
			// One slot for the fields' index, filled in turn: the paths
			// kept are copies (a path a field would have allocated 1.6 MB
			// for 100,000 nested columns).
			path = append(path, 0)
			for i, f := range s.fields {
				path[len(path)-1] = i
				walk(f, path)
			}
		}
	}
	walk(br.root, make([]int, 0, 8))
	br.pred.flt.vecs = sarg.ColumnVectors{}
}

// selectColumns marks the file columns a scan reads: the named subtrees and
// their ancestors, or every column outside encrypted subtrees.
func (r *Reader) selectColumns(cfg scanConfig) ([]bool, error) {
	schema := r.tail.Schema
	sel := make([]bool, schema.MaxID()+1)
	if cfg.allCols {
		for id := range sel {
			sel[id] = !r.IsEncrypted(id)
		}
		sel[0] = true
		return sel, nil
	}
	sel[0] = true
	for _, name := range cfg.columns {
		node := schema.Find(name)
		if node == nil {
			return nil, fmt.Errorf("orc: no column %q in schema %s", name, schema)
		}
		for id := node.ID(); id <= node.MaxID(); id++ {
			if r.IsEncrypted(id) {
				return nil, fmt.Errorf("%w: column %q (id %d) is encrypted", orc.ErrUnsupported, name, id)
			}
		}
		markWithAncestors(schema, node.ID(), sel)
	}
	return sel, nil
}

// NewBatch returns a batch shaped for this executor with room for its
// batch size (a parallel worker's).
func (br *executor) NewBatch() *orc.Batch { return orc.NewBatch(br.schema, br.cfg.batchSize) }

// scanStats returns the work done so far.
func (br *executor) scanStats() ScanStats {
	st := br.statsNow()
	br.addIOStats(&st)
	return st
}

// statsNow returns the statistics with the current stripe's unplanned
// reads, without the scheduler's counts (parallel workers share one).
func (br *executor) statsNow() ScanStats {
	st := br.stats
	if br.cur.sio != nil {
		st.UnplannedReads += int(br.cur.sio.unplanned.Load())
	}
	return st
}

// addIOStats adds the scheduler's and the tail's read counts to st.
func (br *executor) addIOStats(st *ScanStats) {
	io := br.io.stats()
	st.ReadCalls += io.requests
	st.BytesRead += io.bytes
	st.ReadsAhead += io.prefetched
	st.PeakReadsInFlight = max(st.PeakReadsInFlight, io.peak)
	st.BytesUnused += io.wasted
	st.ReadWait += io.waited
	st.TailReads, st.TailBytes = br.r.tailReads, br.r.tailBytes
}

// explainText returns the pruning decisions recorded with WithExplain.
func (br *executor) explainText() string {
	if br.explain == nil {
		return ""
	}
	return br.explain.String()
}

// interrupt stops the scan from any goroutine: next returns at its next
// batch, and reads waiting on the scheduler return at once.
func (br *executor) interrupt() {
	br.end.stopped.Store(true)
	br.io.close()
}

// release gives back what the scan holds; the scan is over.
func (br *executor) release() {
	br.end.done = true
	br.releaseBytes()
}

// next fills b with the next rows (BatchReader.Next), for a serial scan
// or a parallel worker.
func (br *executor) next(b *orc.Batch) error {
	if br.end.err != nil {
		return br.end.err
	}
	for {
		if br.end.stopped.Load() {
			return io.EOF
		}
		if br.cur.remaining == 0 {
			if err := br.ctxErr(); err != nil { // before a run's reads
				br.end.err = err
				return err
			}
		}
		if err := br.ensureRows(); err != nil {
			if err != io.EOF {
				br.end.err = err
			}
			return err
		}
		n := int64(br.cfg.batchSize)
		if n > br.cur.remaining {
			n = br.cur.remaining
		}
		b.Reset()
		if br.lazy != nil {
			br.lazy.last = n == br.cur.remaining && br.cur.run == len(br.cur.plan.runs)
		}
		kept, err := br.decode(b, int(n))
		if err != nil {
			br.end.err = err
			return err
		}
		br.cur.remaining -= n
		br.stats.RowsDecoded += n
		if kept > 0 {
			b.NumRows = kept
			br.stats.RowsReturned += int64(kept)
			return nil
		}
	}
}

// ensureRows makes br.remaining positive, starting runs and stripes.
func (br *executor) ensureRows() error {
	for br.cur.remaining == 0 {
		if br.end.done {
			return io.EOF
		}
		if br.cur.plan != nil && br.cur.run < len(br.cur.plan.runs) {
			if err := br.startRun(); err != nil {
				return err
			}
			continue
		}
		br.finishStripe()
		if len(br.cur.ahead) > 0 {
			a := br.cur.ahead[0]
			br.cur.ahead = br.cur.ahead[1:]
			if err := br.startPlanned(a); err != nil {
				return err
			}
			continue
		}
		if br.cur.stopAt > 0 && br.cur.stripe >= br.cur.stopAt {
			return io.EOF // a parallel worker's stripe is finished
		}
		if br.cur.stripe >= len(br.r.tail.Footer.GetStripes()) {
			br.end.done = true
			br.io.release(-1)
			return io.EOF
		}
		i := br.cur.stripe
		br.cur.stripe++
		if !br.inRange(i) {
			continue
		}
		if err := br.startStripe(i); err != nil {
			return err
		}
	}
	return nil
}

// finishStripe ends the current stripe: its reads are counted and its
// pieces given back (no vector refers to them).
func (br *executor) finishStripe() {
	if br.cur.sio != nil {
		br.cur.sio.finish(&br.stats)
		br.cur.sio = nil
	}
	if br.cur.plan != nil && br.part == nil { // parallel workers' stripes end in pass
		br.io.release(br.cur.plan.stripe + 1)
	}
	br.cur.plan, br.cur.ix, br.cur.ctx.sio = nil, nil, nil
	_ = br.mem.set(&br.buf.held.decomp, 0, nil)
}

// releaseBytes gives back what the scan holds once it is over.
func (br *executor) releaseBytes() {
	br.finishStripe()
	putBuf(br.buf.scratch)
	br.buf.scratch = nil
	br.buf.bufs.release()
	_ = br.mem.set(&br.buf.held.scratch, 0, nil)
}

// startRun positions the readers at the next run of row groups: its first
// pieces fetched, the eager columns sought to its first group (the deferred
// ones wait for a match, loadDeferred).
func (br *executor) startRun() error {
	p := br.cur.plan
	k := br.cur.run
	run := p.runs[k]
	br.cur.run++
	if k > 0 {
		if err := br.prefetch(br.cur.sio, k, false, false); err != nil {
			return err
		}
	}
	if br.pred.def != nil {
		br.pred.def.loaded = false
		if br.pred.def.started {
			for j := range br.cur.sio.fetches {
				if f := &br.cur.sio.fetches[j]; f.plan.deferred && !f.plan.whole && !f.plan.noSeek {
					f.drop()
				}
			}
		}
	}
	if br.seekRun(k) {
		if err := br.startFields(); err != nil {
			return err
		}
		if err := br.seekColumns(br.cur.ix, run.first, br.root, br.notLoaded); err != nil {
			return err
		}
	}
	first, end := int64(0), p.rows
	if p.stride > 0 {
		first = int64(run.first) * p.stride
		end = min(end, int64(run.end)*p.stride)
	}
	br.cur.runFirst = first
	br.cur.remaining = end - first
	br.cur.runRows = end - first
	return nil
}

// seekRun reports whether run k is reached by seeking: every run but a
// first one starting at the stripe's first row (Java leaves entry 0's
// positions empty in some files, and the streams are there already).
func (br *executor) seekRun(k int) bool {
	return br.cur.plan.seek && (k > 0 || br.cur.plan.runs[k].first > 0)
}

// decode reads n rows into b and returns how many rows b keeps.
func (br *executor) decode(b *orc.Batch, n int) (int, error) {
	sr, ok := br.root.(*structReader)
	if !ok {
		return n, br.root.next(b.Cols[0], n, nil)
	}
	// The batch's columns are the root struct's fields.
	var nulls orc.Nulls
	if _, err := sr.readNulls(&nulls, n, nil); err != nil {
		return 0, err
	}
	var mask []bool
	if len(nulls.Nulls) > 0 {
		mask = nulls.Nulls
	}
	if br.pred.flt.matcher == nil {
		return n, br.nextFields(b, n, mask, func(int) bool { return true })
	}
	// Exact filtering: predicate columns first.
	if err := br.nextFields(b, n, mask, func(i int) bool { return br.pred.flt.top[i] }); err != nil {
		return 0, err
	}
	for col, path := range br.pred.flt.paths {
		v := b.Cols[path[0]]
		for _, p := range path[1:] {
			v = v.(*orc.StructVector).Fields[p]
		}
		br.pred.flt.vecs[col] = v
	}
	var err error
	br.pred.flt.matches, err = br.pred.flt.matcher.Match(br.pred.flt.vecs, n, br.pred.flt.matches[:0])
	if err != nil {
		return 0, err
	}
	kept := countTrue(br.pred.flt.matches[:n])
	if (kept > 0 || mask != nil) && !br.deferredLoaded() {
		if err := br.loadDeferred(); err != nil {
			return 0, err
		}
	}
	if br.pred.def != nil && br.pred.def.loaded {
		br.pred.def.at = br.cur.runFirst + br.cur.runRows - br.cur.remaining + int64(n)
	}
	sel := br.pred.flt.matches[:n]
	switch {
	case kept == 0 && mask == nil:
		if br.deferredLoaded() { // keep them in step with the rows
			for i, f := range sr.fields {
				if !br.pred.flt.top[i] && !br.unstarted(i) { // an unstarted one is brought to its row when it starts
					if err := f.skip(int64(n)); err != nil {
						return 0, err
					}
					br.doneField(i)
				}
			}
		}
		return 0, nil
	case kept < n && mask == nil && br.pred.def != nil && br.sparse(sel):
		// Late materialization: the other fields decode the selected
		// rows only, skipping the rest.
		br.pred.flt.idx = selection(sel, br.pred.flt.idx[:0])
		for i, c := range b.Cols {
			if br.pred.flt.top[i] {
				compact(c, sel, br.pred.flt.idx)
			}
		}
		return kept, br.lateFields(b, n)
	}
	if err := br.nextFields(b, n, mask, func(i int) bool { return !br.pred.flt.top[i] }); err != nil {
		return 0, err
	}
	if kept > 0 && kept < n {
		br.pred.flt.idx = selection(sel, br.pred.flt.idx[:0])
		for _, c := range b.Cols {
			compact(c, sel, br.pred.flt.idx)
		}
	}
	return kept, nil
}

// lateSegmentRows is how many rows of a batch a run of selected rows must
// stand for, at least, for the deferred fields to decode the selected runs
// one by one rather than the whole batch and compact it: decoding a run
// and skipping the gap before it cost a few calls per field, against a
// value's decoding and copying for every row of the batch.
const lateSegmentRows = 16

// sparse reports whether the selected rows of a batch form few enough runs
// for late materialization, and records them in flt.sel.
func (br *executor) sparse(sel []bool) bool {
	br.pred.flt.sel = appendMask(br.pred.flt.sel, sel)
	return len(br.pred.flt.sel.runs) <= len(sel)/lateSegmentRows
}

// lateFields decodes the selected rows of the deferred fields into b, run
// by run (flt.sel), skipping the rows between; n is the batch's rows.
func (br *executor) lateFields(b *orc.Batch, n int) error {
	sr := br.root.(*structReader)
	runs := br.pred.flt.sel.runs
	if br.pred.flt.scratch == nil {
		br.pred.flt.scratch = make([]orc.Vector, len(sr.fields))
	}
	for i, f := range sr.fields {
		if br.pred.flt.top[i] {
			continue
		}
		if err := br.startField(i); err != nil {
			return err
		}
		dst := b.Cols[i]
		pos := 0
		for r, run := range runs {
			s, e := int(run.start), int(run.end)
			if s > pos {
				if err := f.skip(int64(s - pos)); err != nil {
					return err
				}
			}
			if r == 0 {
				if err := f.next(dst, e-s, nil); err != nil {
					return err
				}
			} else {
				sc := br.pred.flt.scratch[i]
				if sc == nil {
					sc = orc.NewVector(br.schema.Children[i], 0)
					br.pred.flt.scratch[i] = sc
				}
				sc.Reset()
				if err := f.next(sc, e-s, nil); err != nil {
					return err
				}
				appendRows(dst, sc)
			}
			pos = e
		}
		if pos < n {
			if err := f.skip(int64(n - pos)); err != nil {
				return err
			}
		}
		br.doneField(i)
	}
	return nil
}

// startStripe prunes stripe i and, when it survives, plans it, fetches
// its first run's pieces and starts the column readers.
func (br *executor) startStripe(i int) error {
	if br.part == nil { // a parallel worker's stripes are counted once, in pruneShared
		br.stats.StripesConsidered++
	}
	p, ix, meta, in, err := br.planFor(i)
	if err != nil || p == nil {
		return err
	}
	br.cur.pin = in
	if len(p.runs) == 0 {
		br.stats.StripesSkipped++
		return nil
	}
	br.cur.plan, br.cur.ix, br.cur.run = p, ix, 0
	br.planAhead() // before waiting for this stripe's first bytes
	return br.loadStripe(meta)
}

// plannedStripe is a stripe planned before its turn (planAhead), or the
// error planning it met, which its turn returns.
type plannedStripe struct {
	plan  *stripePlan
	ix    *stripeIndex
	meta  *stripeMeta
	in    planInput
	index int64 // its row indexes' charge in the memory budget
	err   error
}

// Planning ahead stops at maxPlannedAhead stripes, or once the stripes
// planned ahead have a quarter of the prefetch bound scheduled: a full scan plans
// one stripe ahead, a selective one (a lookup, a narrow range reading a
// few row groups of each stripe) several, whose reads are then in flight
// together.
const maxPlannedAhead = 4

// planAhead plans the next stripes with rows to read while the current
// one is decoded, when the scan reads ahead (over a network): their
// footers and row indexes are read and their data scheduled now, so the
// scheduler fetches them behind the current stripe's and the decoder
// never waits for a round trip between stripes. Stripes pruned on the way
// are counted as a serial scan counts them. Parallel workers, and scans
// recording explain (whose stripes are told in order), plan each stripe at
// its turn.
func (br *executor) planAhead() {
	if br.part != nil || br.explain != nil || !br.cfg.readAhead {
		return
	}
	var planned int64
	for _, a := range br.cur.ahead {
		if a.err != nil {
			return
		}
		planned += a.plan.scheduled
	}
	stripes := len(br.r.tail.Footer.GetStripes())
	for len(br.cur.ahead) < maxPlannedAhead && planned < br.io.cfg.prefetch/4 && br.cur.stripe < stripes &&
		(br.cur.stopAt == 0 || br.cur.stripe < br.cur.stopAt) {
		i := br.cur.stripe
		br.cur.stripe++
		if !br.inRange(i) {
			continue
		}
		br.stats.StripesConsidered++
		before := br.buf.held.index
		p, ix, meta, in, err := br.planStripeAt(i)
		if err != nil && len(br.cur.ahead) > 0 && errors.Is(err, orc.ErrLimit) {
			// Its row indexes do not fit beside those planned before it:
			// it is planned at its turn instead.
			br.cur.stripe = i
			br.stats.StripesConsidered--
			_ = br.mem.set(&br.buf.held.index, before, nil)
			return
		}
		if err != nil {
			br.cur.ahead = append(br.cur.ahead, &plannedStripe{err: err})
			return
		}
		if p == nil {
			continue
		}
		if len(p.runs) == 0 {
			br.stats.StripesSkipped++
			_ = br.mem.set(&br.buf.held.index, before, nil)
			continue
		}
		br.cur.ahead = append(br.cur.ahead, &plannedStripe{plan: p, ix: ix, meta: meta, in: in, index: br.buf.held.index - before})
		planned += p.scheduled
	}
}

// startPlanned starts a stripe planned ahead, and plans the ones after.
func (br *executor) startPlanned(a *plannedStripe) error {
	if a.err != nil {
		return a.err
	}
	// The stripe before lets go of its indexes: those held are this
	// stripe's and those of the stripes planned after it.
	held := a.index
	for _, b := range br.cur.ahead {
		held += b.index
	}
	_ = br.mem.set(&br.buf.held.index, held, nil)
	br.cur.pin = a.in
	br.cur.plan, br.cur.ix, br.cur.run = a.plan, a.ix, 0
	br.planAhead() // before waiting for this stripe's first bytes
	return br.loadStripe(a.meta)
}

// planFor prunes stripe i with its statistics and row indexes and plans
// it. It returns a nil plan for a stripe the statistics rule out (counted
// as skipped), and reads nothing but the stripe's footer and the row
// indexes and bloom filters pruning needs. A parallel worker plans its
// share of the stripe instead (planPart).
func (br *executor) planFor(i int) (*stripePlan, *stripeIndex, *stripeMeta, planInput, error) {
	if br.part != nil {
		return br.planPart(i)
	}
	if err := br.mem.set(&br.buf.held.index, 0, nil); err != nil {
		return nil, nil, nil, planInput{}, err
	}
	return br.planStripeAt(i)
}

// planStripeAt is planFor for a serial scan, adding what it reads to the
// row indexes held.
func (br *executor) planStripeAt(i int) (*stripePlan, *stripeIndex, *stripeMeta, planInput, error) {
	meta, ix, in, err := br.pruneStripe(i)
	if err != nil || meta == nil {
		return nil, nil, nil, planInput{}, err
	}
	if cols := indexNeeded(in); len(cols) > 0 {
		if err := br.readIndex(ix, cols, false); err != nil {
			return nil, nil, nil, planInput{}, err
		}
	}
	p, err := planStripe(in)
	if err != nil {
		return nil, nil, nil, planInput{}, err
	}
	if len(p.runs) == 0 {
		br.doneWithIndex(i)
	}
	reqs := br.scheduleStripe(p, ix, nil, 1)
	if br.explain != nil {
		if ix != nil {
			fmt.Fprintf(br.explain, "stripe %d row groups: effective predicate %s; %d of %d kept\n", i,
				br.pred.sarg.EffectiveFor(ix.leafDecided), p.kept, p.groups)
		}
		br.explain.WriteString(indent(p.String()))
		if len(reqs) > 0 {
			mode := "read as the decoder asks (a local file)"
			if br.cfg.readAhead {
				mode = "read ahead, in this order"
			}
			fmt.Fprintf(br.explain, "  I/O schedule: %s, %s: %s\n", plural(len(reqs), "request"), mode, strings.Join(reqs, ", "))
		}
	}
	return p, ix, meta, in, nil
}

// pruneStripe evaluates the search argument on stripe i's statistics and,
// when they do not rule it out (a nil meta, counted as skipped), reads its
// footer and the row indexes and bloom filters of the predicate columns,
// and returns what planStripe decides from, with the row groups kept.
func (br *executor) pruneStripe(i int) (*stripeMeta, *stripeIndex, planInput, error) {
	r := br.r
	if br.pred.sarg != nil && r.HasStripeStatistics() {
		src := &levelSource{r: r, stripe: i}
		tv := br.pred.sarg.Evaluate(src)
		if br.explain != nil {
			fmt.Fprintf(br.explain, "stripe %d statistics:\n%s", i, indent(br.pred.sarg.Explain(src)))
		}
		if !tv.IsNeeded() {
			br.stats.StripesSkipped++
			br.stats.StripesPruned++
			return nil, nil, planInput{}, nil
		}
	}
	if br.cfg.readAhead {
		br.scheduleFooter(i) // with the next ones: in flight together
	}
	meta, err := br.stripeMetaFor(i)
	if err != nil {
		return nil, nil, planInput{}, err
	}
	if br.cfg.readAhead {
		// The footer's read may have shown the network: the next
		// footers come with this stripe's index read.
		br.noteIndexShare(meta)
		br.scheduleFooter(i + 1)
	}
	in := planInput{meta: meta, schema: r.tail.Schema, cols: r.cols, version: r.tail.Version, selected: br.selected,
		compressed: r.tail.Compression != orc.CompressionNone, blockSize: r.tail.BlockSize,
		stride: int64(r.RowIndexStride()), window: br.cfg.window, gap: br.cfg.coalesce}
	if br.pred.def != nil {
		in.deferred = br.pred.def.col
	}
	var ix *stripeIndex
	if br.pred.sarg == nil || meta.info.NumRows > 0 {
		// The next stripes' row indexes, to prune their row groups or to
		// cut a parallel scan's stripes into chunks (it checks indexFirst).
		br.scheduleIndexAhead(i)
	}
	if br.pred.sarg != nil && r.RowIndexStride() > 0 && meta.info.NumRows > 0 {
		if ix, in.kept, err = br.pruneGroups(meta); err != nil {
			return nil, nil, planInput{}, err
		}
		in.entries = ix.entries
	}
	if keep := br.cfg.test.keepGroups; keep != nil && r.RowIndexStride() > 0 && meta.info.NumRows > 0 {
		if ix == nil {
			ix = newStripeIndex(r, meta)
			in.entries = ix.entries
		}
		if in.kept == nil {
			in.kept = make([]bool, ix.groups)
			for g := range in.kept {
				in.kept[g] = true
			}
		}
		for g := range in.kept {
			in.kept[g] = in.kept[g] && keep(i, g)
		}
	}
	return meta, ix, in, nil
}

// loadStripe fetches the plan's first reads and starts the column readers
// on the stripe.
func (br *executor) loadStripe(meta *stripeMeta) error {
	r := br.r
	i := meta.index
	br.cur.sio = br.newStripeIO(br.cur.plan)
	if r.tail.Compression != orc.CompressionNone {
		// One decompression block per compressed stream opened.
		streams := 0
		for _, sp := range br.cur.plan.streams {
			if !sp.deferred {
				streams++
			}
		}
		if err := br.holdDecompression(streams); err != nil {
			return err
		}
	}
	if err := br.prefetch(br.cur.sio, 0, false, false); err != nil {
		return err
	}
	if br.part == nil || br.part.first {
		br.stats.StripesRead++
	}
	zone, err := r.writerZone(meta.zone)
	if err != nil {
		return err
	}
	// Any stream yields at most ~520 values per decompressed byte (boolean
	// RLE runs), and decompression inflates a chunk to at most a block.
	stripeBytes := meta.info.Length()
	if r.tail.Compression != orc.CompressionNone {
		stripeBytes = (stripeBytes/3 + 1) * int64(r.tail.BlockSize)
	}
	br.cur.ctx = stripeCtx{r: r, meta: meta, dec: br.buf.dec, zone: zone, sio: br.cur.sio,
		maxValues: 1024*stripeBytes + 1<<16, maxDict: br.cfg.maxDict, maxNested: br.cfg.maxNested, mem: br.mem}
	if meta.info.NumRows > br.cur.ctx.maxValues {
		return &orc.CorruptError{Offset: meta.info.Offset, Stripe: i, Column: -1, Stream: "footer",
			Msg: fmt.Sprintf("stripe of %d bytes claims %d rows", meta.info.Length(), meta.info.NumRows)}
	}
	lz := br.setupLazy()
	if lz != nil {
		br.cur.ctx.pool = &lz.pool
	}
	if lz != nil && br.pred.def == nil {
		if err := br.startLazy(lz, &br.cur.ctx); err != nil {
			return err
		}
	} else if br.pred.def == nil && br.cols == nil {
		if err := br.root.startStripe(&br.cur.ctx); err != nil {
			return err
		}
	} else {
		br.dealColumns(meta)
		sr := br.root.(*structReader)
		if err := sr.startPresence(&br.cur.ctx); err != nil {
			return err
		}
		for i, f := range sr.fields {
			if br.pred.def == nil || !br.pred.def.field[i] {
				if err := f.startStripe(br.fieldCtx(i)); err != nil {
					return err
				}
			}
		}
	}
	if br.pred.def != nil {
		br.pred.def.started, br.pred.def.loaded = false, false
	}
	br.cur.sio.dropWhole(false)
	return nil
}

// holdDecompression charges one decompression block for each of streams
// more compressed streams of the stripe.
func (br *executor) holdDecompression(streams int) error {
	n := br.buf.held.decomp + int64(streams)*int64(br.r.tail.BlockSize)
	stripe := br.cur.plan.stripe
	return br.mem.set(&br.buf.held.decomp, n, func() string {
		return fmt.Sprintf("decompressing %d streams of stripe %d", streams, stripe)
	})
}

// holdVectors charges the fixed-width part of n batches (up to 16 bytes per
// row and selected column) to the scan's memory budget.
func (br *executor) holdVectors(n int) error {
	cols := 0
	for _, sel := range br.selected {
		if sel {
			cols++
		}
	}
	need := int64(n) * int64(br.cfg.batchSize) * 16 * int64(cols)
	return br.mem.set(&br.buf.held.vectors, need, func() string {
		return fmt.Sprintf("%d batches of %d rows and %d columns", n, br.cfg.batchSize, cols)
	})
}
