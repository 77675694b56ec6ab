package reader

import (
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

// Add adds o's counts to s, field by field, and keeps the larger
// PeakReadsInFlight: the work of several scans (the files of a dataset or
// a table) as one.
func (s *ScanStats) Add(o ScanStats) {
	s.FilesConsidered += o.FilesConsidered
	s.FilesSkipped += o.FilesSkipped
	s.StripesConsidered += o.StripesConsidered
	s.StripesSkipped += o.StripesSkipped
	s.StripesPruned += o.StripesPruned
	s.GroupsConsidered += o.GroupsConsidered
	s.GroupsSkipped += o.GroupsSkipped
	s.GroupsSkippedByBloom += o.GroupsSkippedByBloom
	s.StripesRead += o.StripesRead
	s.ReadCalls += o.ReadCalls
	s.BytesRead += o.BytesRead
	s.IndexBytesRead += o.IndexBytesRead
	s.ReadsAhead += o.ReadsAhead
	s.PeakReadsInFlight = max(s.PeakReadsInFlight, o.PeakReadsInFlight)
	s.BytesUnused += o.BytesUnused
	s.ReadWait += o.ReadWait
	s.TailReads += o.TailReads
	s.TailBytes += o.TailBytes
	s.RowsDecoded += o.RowsDecoded
	s.RowsReturned += o.RowsReturned
	s.UnplannedReads += o.UnplannedReads
}

// calls says "1 call" or "n calls".
func calls(n int) string {
	if n == 1 {
		return "1 call"
	}
	return fmt.Sprintf("%d calls", n)
}

// executor runs a scan, batch by batch, into reusable typed vectors: a
// serial scan, or one decoder of a parallel one. It joins two parts that
// never call each other: a planner, which prunes, plans and issues reads,
// and a stripeDecoder, which decodes the planned stripes it is handed.
// The stripes come from src: the planner itself in a serial scan, one
// claimed unit at a time in a parallel one (parallel.go).
//
// For each planned stripe it fetches the first run's pieces, starts the
// column readers, then for each run of row groups fetches the run's first
// pieces, seeks the columns to the run's first group and decodes its rows,
// with the streams fetching the rest of their ranges as they go
// (fetch.go).
type executor struct {
	cfg   *scanConfig
	plan  *planner
	dec   *stripeDecoder
	src   stripeSource
	mem   *budget // WithMaxScanMemory, shared by a parallel scan's decoders
	stats *ScanStats
	// vectors is the charge of its batches in the memory budget.
	vectors int64
	end     scanEnd
}

// scanEnd is how an executor's scan ends: done when no rows remain, the
// error it stopped on, and stopped, set by interrupt from any goroutine,
// which next checks between batches.
type scanEnd struct {
	done    bool
	err     error
	stopped atomic.Bool
}

// buffers are what a planner holds for the scan: by slot in the memory
// budget, the row indexes it read and the scratch buffer of coalesced
// first reads (fetch.go); the stream buffers the decoder's streams let go
// of, for the next pieces; the decompressor the index streams and the
// decoder's streams share, and the decompressed index streams, reused
// from stripe to stripe.
type buffers struct {
	held    held
	scratch []byte
	bufs    bufList
	dec     format.Decompressor // for index streams and the streams' blocks
	index   []byte              // decompressed index streams
	bloom   []byte              // a stripe's bloom filter streams, while pruneGroups tests them
}

// held is what a planner holds in the scan's memory budget, by slot: row
// indexes and the scratch buffer of coalesced reads. Stream pieces are
// taken from the budget directly (fetch.go); the decoder charges its
// decompression blocks, the executor its batches.
type held struct {
	index, scratch int64
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
	e, err := r.newExecutor(&cfg, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	if cfg.parallel > 1 && !cfg.explain && !e.end.done && len(r.tail.Footer.GetStripes()) > 0 {
		p, err := r.newParallel(e)
		if err != nil {
			return nil, nil, err
		}
		return p, e.dec.schema, nil
	}
	if err := e.dec.setupColumns(r, e.plan.buf.dec, cfg.colPar); err != nil {
		return nil, nil, err
	}
	return e, e.dec.schema, nil
}

// newExecutor makes the planner and decoder of a scan for cfg: the column
// readers, predicate and exact filter, with the file statistics
// evaluated. Parallel decoders pass the coordinator's memory budget and
// I/O scheduler, which they share; nil makes new ones.
func (r *Reader) newExecutor(cfg *scanConfig, mem *budget, io *ioSched) (*executor, error) {
	pl, matcher, err := r.newPlanner(cfg, mem, io)
	if err != nil {
		return nil, err
	}
	root, proj, err := r.newColumnReader(r.tail.Schema, pl.selected)
	if err != nil {
		return nil, err
	}
	proj.Assign()
	d := &stripeDecoder{root: root, schema: proj}
	if matcher != nil {
		d.flt = newExactFilter(matcher, root, proj, pl.sarg.Columns())
		d.flt.selects = cfg.filter.selects()
		if d.def = d.setupDeferred(len(pl.selected)); d.def != nil {
			pl.deferred = d.def.col
		}
	}
	e := &executor{cfg: cfg, plan: pl, dec: d, src: pl, mem: pl.mem, stats: pl.stats}
	if err := e.holdVectors(1); err != nil {
		return nil, err
	}
	if !pl.fileKept() {
		e.stats.FilesSkipped = 1
		e.end.done = true
	}
	return e, nil
}

// newPlanner makes the planner of a scan for cfg, with the columns it
// selects and its search argument bound, and returns the exact filter's
// matcher with it (nil without one). mem and io as newExecutor's.
func (r *Reader) newPlanner(cfg *scanConfig, mem *budget, io *ioSched) (*planner, *sarg.Matcher, error) {
	if mem == nil {
		mem = &budget{limit: cfg.maxMemory}
	}
	if io == nil {
		io = newIOSched(r.r, cfg.sched(r.onDisk), cfg.ctx)
	}
	pl := &planner{r: r, cfg: cfg, io: io, mem: mem, stats: &ScanStats{FilesConsidered: 1}}
	var matcher *sarg.Matcher
	if cfg.where != nil {
		b, err := sarg.Bind(*cfg.where, r.tail.Schema)
		if err != nil {
			return nil, nil, err
		}
		pl.sarg = b
		if cfg.filter.exact() {
			matcher = b.NewMatcher()
		}
		if cfg.explain {
			pl.explain = &strings.Builder{}
			fmt.Fprintf(pl.explain, "predicate: %s\n", b)
		}
	}
	sel, err := r.selectColumns(*cfg)
	if err != nil {
		return nil, nil, err
	}
	if pl.sarg != nil {
		for _, col := range pl.sarg.Columns() {
			if r.IsEncrypted(col) {
				return nil, nil, fmt.Errorf("%w: the search argument uses encrypted column %d", orc.ErrUnsupported, col)
			}
			markWithAncestors(r.tail.Schema, col, sel)
		}
	}
	pl.selected = sel
	if r.tail.Compression != orc.CompressionNone {
		if pl.buf.dec, err = format.NewDecompressor(r.tail.Compression); err != nil {
			return nil, nil, err
		}
	}
	return pl, matcher, nil
}

// fileKept evaluates the search argument on the file's statistics, and
// reports whether the file may hold a matching row.
func (pl *planner) fileKept() bool {
	if pl.sarg == nil || !pl.r.hasFileStatistics() {
		return true
	}
	src := &levelSource{r: pl.r, stripe: -1}
	tv := pl.sarg.Evaluate(src)
	if pl.explain != nil {
		fmt.Fprintf(pl.explain, "file statistics:\n%s", indent(pl.sarg.Explain(src)))
	}
	return tv.IsNeeded()
}

// indent prefixes every line of s with two spaces.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// markWithAncestors selects column id's subtree and its ancestors.
func markWithAncestors(root *orc.Schema, id int, sel []bool) {
	line := root.Lineage(id)
	for _, n := range line {
		sel[n.ID()] = true
	}
	if len(line) > 0 {
		for i := id; i <= line[len(line)-1].MaxID(); i++ {
			sel[i] = true
		}
	}
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
func (e *executor) NewBatch() *orc.Batch { return orc.NewBatch(e.dec.schema, e.cfg.batchSize) }

// scanStats returns the work done so far.
func (e *executor) scanStats() ScanStats {
	st := e.statsNow()
	e.addIOStats(&st)
	return st
}

// statsNow returns the statistics with the current stripe's unplanned
// reads, without the scheduler's counts (parallel workers share one).
func (e *executor) statsNow() ScanStats {
	st := *e.stats
	if e.dec.sio != nil {
		st.UnplannedReads += int(e.dec.sio.unplanned.Load())
	}
	return st
}

// addIOStats adds the scheduler's and the tail's read counts to st.
func (e *executor) addIOStats(st *ScanStats) {
	io := e.plan.io.stats()
	st.Add(ScanStats{ReadCalls: io.requests, BytesRead: io.bytes, ReadsAhead: io.prefetched,
		PeakReadsInFlight: io.peak, BytesUnused: io.wasted, ReadWait: io.waited})
	st.TailReads, st.TailBytes = e.plan.r.tailReads, e.plan.r.tailBytes
}

// explainText returns the pruning decisions recorded with WithExplain.
func (e *executor) explainText() string {
	if e.plan.explain == nil {
		return ""
	}
	return e.plan.explain.String()
}

// interrupt stops the scan from any goroutine: next returns at its next
// batch, and reads waiting on the scheduler return at once.
func (e *executor) interrupt() {
	e.end.stopped.Store(true)
	e.plan.io.close()
}

// release gives back what the scan holds; the scan is over.
func (e *executor) release() {
	e.end.done = true
	e.releaseBytes()
}

// next fills b with the next rows (BatchReader.Next), for a serial scan
// or a parallel worker.
func (e *executor) next(b *orc.Batch) error {
	if e.end.err != nil {
		return e.end.err
	}
	d := e.dec
	for {
		if e.end.stopped.Load() {
			return io.EOF
		}
		if d.remaining == 0 {
			if err := e.ctxErr(); err != nil { // before a run's reads
				e.end.err = err
				return err
			}
		}
		if err := e.ensureRows(); err != nil {
			if err != io.EOF {
				e.end.err = err
			}
			return err
		}
		n := min(int64(e.cfg.batchSize), d.remaining)
		b.Reset()
		if d.lazy != nil {
			d.lazy.last = n == d.remaining && d.run == len(d.cur.plan.runs)
		}
		kept, err := e.decode(b, int(n))
		if err != nil {
			e.end.err = err
			return err
		}
		d.remaining -= n
		e.stats.RowsDecoded += n
		if d.remaining == 0 && d.cur != nil && d.run == len(d.cur.plan.runs) {
			// The batch ends the stripe: its bytes, reads and plan go now,
			// not at the next call, so that what the caller does with the
			// batch (a writer's Write of a wide row) does not find them
			// held too (streams, plans and pieces, about 200 bytes a
			// column).
			e.finishStripe()
		}
		if kept > 0 {
			b.NumRows = kept
			e.stats.RowsReturned += int64(kept)
			return nil
		}
	}
}

// decode has the decoder read n rows into b, and the planner fetch the
// late fields when the decoder stops for them. It returns how many rows b
// keeps.
func (e *executor) decode(b *orc.Batch, n int) (int, error) {
	kept, late, err := e.dec.decode(b, n)
	if err != nil || !late {
		return kept, err
	}
	if err := e.loadLate(); err != nil {
		return 0, err
	}
	return e.dec.finish(b, n)
}

// ensureRows makes the decoder's rows left positive, starting runs and
// stripes.
func (e *executor) ensureRows() error {
	d := e.dec
	for d.remaining == 0 {
		if e.end.done {
			return io.EOF
		}
		if d.cur != nil && d.run < len(d.cur.plan.runs) {
			if err := e.startRun(); err != nil {
				return err
			}
			continue
		}
		e.finishStripe()
		ps, err := e.src.next()
		if err != nil {
			return err
		}
		if err := e.loadStripe(ps); err != nil {
			return err
		}
	}
	return nil
}

// finishStripe ends the current stripe: its reads are counted and its
// pieces given back (no vector refers to them).
func (e *executor) finishStripe() {
	d := e.dec
	if d.sio != nil {
		d.sio.finish(e.stats)
		d.sio = nil
	}
	if d.cur != nil {
		e.src.done(d.cur)
	}
	d.cur, d.ctx.sio = nil, nil
	_ = e.mem.set(&d.held, 0, nil)
}

// releaseBytes gives back what the scan holds once it is over.
func (e *executor) releaseBytes() {
	e.finishStripe()
	e.plan.releaseBytes()
}

// startRun positions the readers at the next run of row groups: its first
// pieces fetched, the eager columns sought to its first group (the late
// ones wait for a match, loadLate).
func (e *executor) startRun() error {
	d := e.dec
	k := d.run
	if k > 0 {
		if err := e.plan.prefetch(d.sio, k, false, false); err != nil {
			return err
		}
	}
	return d.startRun()
}

// loadStripe starts decoding planned stripe ps: it fetches the plan's
// first reads and starts the column readers on the stripe.
func (e *executor) loadStripe(ps *plannedStripe) error {
	r := e.plan.r
	d := e.dec
	d.cur, d.run = ps, 0
	d.sio = e.plan.newStripeIO(ps.plan)
	if r.tail.Compression != orc.CompressionNone {
		// One decompression block per compressed stream opened.
		if err := e.holdDecompression(ps.plan.countStreams(false)); err != nil {
			return err
		}
	}
	if err := e.plan.prefetch(d.sio, 0, false, false); err != nil {
		return err
	}
	if ps.first {
		e.stats.StripesRead++
	}
	zone, err := r.writerZone(ps.meta.zone)
	if err != nil {
		return err
	}
	meta := ps.meta
	// Any stream yields at most ~520 values per decompressed byte (boolean
	// RLE runs), and decompression inflates a chunk to at most a block.
	stripeBytes := meta.info.Length()
	if r.tail.Compression != orc.CompressionNone {
		stripeBytes = (stripeBytes/3 + 1) * int64(r.tail.BlockSize)
	}
	d.ctx = stripeCtx{compression: r.tail.Compression, blockSize: r.tail.BlockSize, meta: meta, dec: e.plan.buf.dec, zone: zone, sio: d.sio,
		maxValues: 1024*stripeBytes + 1<<16, maxDict: e.cfg.maxDict, maxNested: e.cfg.maxNested, mem: e.mem}
	if meta.info.NumRows > d.ctx.maxValues {
		return &orc.CorruptError{Offset: meta.info.Offset, Stripe: meta.index, Column: -1, Stream: "footer",
			Msg: fmt.Sprintf("stripe of %d bytes claims %d rows", meta.info.Length(), meta.info.NumRows)}
	}
	return d.startStripe()
}

// loadLate has the planner fetch the late fields' pieces for the current
// run (planning their streams at their first match in the stripe), and
// the decoder bring them to the row the predicate columns are at.
func (e *executor) loadLate() error {
	d := e.dec
	k := d.run - 1
	if k < 0 {
		return fmt.Errorf("orc: internal error: deferred columns loaded outside a run")
	}
	first := !d.def.started
	if first {
		if e.plan.r.tail.Compression != orc.CompressionNone {
			if err := e.holdDecompression(d.cur.plan.countStreams(true)); err != nil {
				return err
			}
		}
		noSeek, err := e.plan.planLate(d.cur)
		if err != nil {
			return err
		}
		d.def.setNoSeek(d.root.(*structReader), noSeek)
	}
	if err := e.plan.prefetch(d.sio, k, true, first); err != nil {
		return err
	}
	return d.positionLate(first)
}

// holdDecompression charges one decompression block for each of streams
// more compressed streams of the stripe.
func (e *executor) holdDecompression(streams int) error {
	d := e.dec
	n := d.held + int64(streams)*int64(e.plan.r.tail.BlockSize)
	stripe := d.cur.plan.stripe
	return e.mem.set(&d.held, n, func() string {
		return fmt.Sprintf("decompressing %d streams of stripe %d", streams, stripe)
	})
}

// holdVectors charges the fixed-width part of n batches (up to 16 bytes per
// row and selected column) to the scan's memory budget.
func (e *executor) holdVectors(n int) error {
	cols := 0
	for _, sel := range e.plan.selected {
		if sel {
			cols++
		}
	}
	need := int64(n) * int64(e.cfg.batchSize) * 16 * int64(cols)
	return e.mem.set(&e.vectors, need, func() string {
		return fmt.Sprintf("%d batches of %d rows and %d columns", n, e.cfg.batchSize, cols)
	})
}
