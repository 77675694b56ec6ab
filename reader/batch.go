package reader

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/sarg"
)

// ScanStats counts the work a BatchReader did and what pruning decided.
type ScanStats struct {
	FilesConsidered   int   // 1 once the scan starts
	FilesSkipped      int   // 1 when file statistics ruled the whole file out
	StripesConsidered int   // stripes looked at
	StripesSkipped    int   // stripes skipped by stripe statistics or because no row group survived
	GroupsConsidered  int   // row groups evaluated against the row index
	GroupsSkipped     int   // row groups skipped
	StripesRead       int   // stripes whose data was read
	ReadCalls         int   // ReadAt calls for stripe data and indexes (footers excluded)
	BytesRead         int64 // bytes fetched by those calls
	IndexBytesRead    int64 // of which row index and bloom filter streams
	RowsDecoded       int64 // rows decoded
	RowsReturned      int64 // rows returned in batches (after exact filtering)
	WindowFallbacks   int   // stripes re-read whole because a planned window fell short
}

// String formats the statistics on a few lines.
func (s ScanStats) String() string {
	return fmt.Sprintf("files: %d considered, %d skipped\nstripes: %d considered, %d skipped, %d read\n"+
		"row groups: %d considered, %d skipped\nreads: %d calls, %d bytes (%d of index)\nrows: %d decoded, %d returned",
		s.FilesConsidered, s.FilesSkipped, s.StripesConsidered, s.StripesSkipped, s.StripesRead,
		s.GroupsConsidered, s.GroupsSkipped, s.ReadCalls, s.BytesRead, s.IndexBytesRead, s.RowsDecoded, s.RowsReturned)
}

// BatchReader decodes the rows of a file, batch by batch, into reusable
// typed vectors. It belongs to one goroutine.
type BatchReader struct {
	r        *Reader
	cfg      scanConfig
	selected []bool // per file column id
	root     columnReader
	schema   *orc.Schema // projected schema of the batches
	dec      format.Decompressor

	sarg      *sarg.Bound
	matcher   *sarg.Matcher
	sargPaths map[int][]int // column id -> field path in the batch
	sargTop   []bool        // per batch column: holds a predicate column
	matches   []bool
	colVecs   sarg.ColumnVectors

	// Lazy I/O with exact filtering: the columns of fields without a
	// predicate column are fetched and started only once a batch of the
	// stripe has a match. When row groups were pruned, their windows are
	// fetched run by run: only for the runs that have a match.
	lazy          bool
	predCol       []bool // per file column id: under a field with a predicate column
	otherField    map[columnReader]bool
	othersStarted bool // the deferred columns' readers are started on this stripe
	othersLoaded  bool // ... and positioned in the current run
	pendingLocs   []streamLoc
	bytes2        stripeBytes
	indexBuf      []byte     // decompressed index streams, reused
	cols          *colGroups // WithColumnParallelism, or nil
	streams2      int        // deferred streams of the stripe (for the memory budget)
	explain       *strings.Builder

	stripe    int // next stripe to start
	stopAt    int // parallel workers: stop before this stripe (0: no limit)
	par       *parallel
	runs      []groupRun
	run       int // next run to start
	ix        *stripeIndex
	windowed  bool
	remaining int64 // rows left in the current run
	runRows   int64 // rows of the current run
	bytes     stripeBytes
	ctx       stripeCtx

	// WithMaxScanMemory: the budget (shared by parallel workers) and the
	// bytes this reader holds for fetched streams (with their decompression
	// blocks), deferred streams, row indexes and batch vectors.
	mem                                   *budget
	memFetch, memFetch2, memIndex, memVec int64
	stats                                 ScanStats
	done                                  bool
	err                                   error
}

// NewBatchReader starts a scan of the file.
func (r *Reader) NewBatchReader(opts ...ScanOption) (*BatchReader, error) {
	cfg := defaultScanConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	br := &BatchReader{r: r, cfg: cfg, mem: &budget{limit: cfg.maxMemory}}
	if cfg.where != nil {
		b, err := sarg.Bind(*cfg.where, r.tail.Schema)
		if err != nil {
			return nil, err
		}
		br.sarg = b
		if cfg.filter {
			br.matcher = b.NewMatcher()
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
	if br.sarg != nil {
		for _, col := range br.sarg.Columns() {
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
		if br.dec, err = format.NewDecompressor(r.tail.Compression); err != nil {
			return nil, err
		}
	}
	if br.sarg != nil {
		br.locateSargColumns()
		br.setupLazy()
	}
	if err := br.holdVectors(1); err != nil {
		return nil, err
	}
	if cfg.parallel > 1 && !cfg.explain && len(r.tail.Footer.GetStripes()) > 1 {
		return r.newParallel(br, opts)
	}
	if err := br.setupColumns(); err != nil {
		return nil, err
	}
	br.stats.FilesConsidered = 1
	if br.sarg != nil && len(r.tail.Footer.GetStatistics()) > 0 {
		src := &levelSource{r: r, stripe: -1}
		tv := br.sarg.Evaluate(src)
		if br.explain != nil {
			fmt.Fprintf(br.explain, "file statistics:\n%s", indent(br.sarg.Explain(src)))
		}
		if !tv.IsNeeded() {
			br.stats.FilesSkipped = 1
			br.done = true
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
func (br *BatchReader) locateSargColumns() {
	br.sargPaths = map[int][]int{}
	br.sargTop = make([]bool, len(br.schema.Children))
	want := map[int]bool{}
	for _, c := range br.sarg.Columns() {
		want[c] = true
	}
	var walk func(c columnReader, path []int)
	walk = func(c columnReader, path []int) {
		if want[c.columnID()] {
			br.sargPaths[c.columnID()] = append([]int(nil), path...)
			if len(path) > 0 {
				br.sargTop[path[0]] = true
			}
		}
		if s, ok := c.(*structReader); ok {
			for i, f := range s.fields {
				walk(f, append(path, i))
			}
		}
	}
	walk(br.root, nil)
	br.colVecs = sarg.ColumnVectors{}
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

// Schema returns the schema of the batches: the file's, cut to the selected
// columns (and the search argument's).
func (br *BatchReader) Schema() *orc.Schema { return br.schema }

// NewBatch returns a batch shaped for this reader with room for its batch
// size.
func (br *BatchReader) NewBatch() *orc.Batch { return orc.NewBatch(br.schema, br.cfg.batchSize) }

// Stats returns the work done so far.
func (br *BatchReader) Stats() ScanStats {
	if br.par != nil {
		return br.par.sum()
	}
	return br.stats
}

// Explain returns the pruning decisions recorded with WithExplain.
func (br *BatchReader) Explain() string {
	if br.explain == nil {
		return ""
	}
	return br.explain.String()
}

// Next fills b with the next rows, at most the batch size and never across a
// stripe or row-group run boundary. It returns io.EOF when no rows remain. b
// must come from NewBatch (or have the same schema).
func (br *BatchReader) Next(b *orc.Batch) error {
	if br.err != nil {
		return br.err
	}
	if br.par != nil {
		return br.par.next(b)
	}
	for {
		if err := br.ensureRows(); err != nil {
			if err != io.EOF {
				br.err = err
			}
			return err
		}
		n := int64(br.cfg.batchSize)
		if n > br.remaining {
			n = br.remaining
		}
		b.Reset()
		kept, err := br.decode(b, int(n))
		if err != nil && br.windowed && errors.Is(err, format.ErrOutsideWindow) {
			if err = br.readWhole(); err == nil {
				b.Reset()
				kept, err = br.decode(b, int(n))
			}
		}
		if err != nil {
			br.err = err
			return err
		}
		br.remaining -= n
		br.stats.RowsDecoded += n
		if kept > 0 {
			b.NumRows = kept
			br.stats.RowsReturned += int64(kept)
			return nil
		}
	}
}

// ensureRows makes br.remaining positive, starting runs and stripes.
func (br *BatchReader) ensureRows() error {
	for br.remaining == 0 {
		if br.done {
			return io.EOF
		}
		if br.run < len(br.runs) {
			if err := br.startRun(); err != nil {
				return err
			}
			continue
		}
		if br.stopAt > 0 && br.stripe >= br.stopAt {
			return io.EOF // a parallel worker's stripe is finished
		}
		if br.stripe >= len(br.r.tail.Footer.GetStripes()) {
			br.done = true
			br.releaseBytes()
			return io.EOF
		}
		i := br.stripe
		br.stripe++
		if c := br.cfg; c.rangeOn {
			off := int64(br.r.tail.Footer.GetStripes()[i].GetOffset())
			if off < c.rangeOff || off-c.rangeOff >= c.rangeLen {
				continue
			}
		}
		if err := br.startStripe(i); err != nil {
			return err
		}
	}
	return nil
}

// releaseBytes gives the fetched stripe bytes back to the buffer pool once
// the scan is over: no vector refers to them.
func (br *BatchReader) releaseBytes() {
	br.bytes.release()
	br.bytes2.release()
	br.ctx.bytes, br.ctx.extra = nil, nil
	if err := br.mem.set(&br.memFetch, 0, nil); err == nil {
		_ = br.mem.set(&br.memFetch2, 0, nil)
	}
}

// startRun positions the readers at the next run of row groups.
func (br *BatchReader) startRun() error {
	run := br.runs[br.run]
	br.run++
	info := br.ctx.meta.info
	stride := int64(br.r.RowIndexStride())
	first := int64(run.first) * stride
	end := info.NumRows
	if br.ix != nil {
		if e := int64(run.end) * stride; e < end {
			end = e
		}
	}
	if br.windowed {
		// The deferred columns wait for a match in this run (loadOthers).
		br.othersLoaded = !br.lazy
		if err := br.applyWindowsFor(run.first, br.loadedCol); err != nil {
			return err
		}
		// The first run of a stripe starting at group 0 needs no seek
		// (Java leaves entry 0's positions empty in some files).
		if br.run > 1 || run.first > 0 {
			if err := br.seekColumns(br.ix, run.first, br.root, br.notLoaded); err != nil {
				return err
			}
		}
	}
	br.remaining = end - first
	br.runRows = end - first
	return nil
}

// readWhole is the fallback when a windowed read needs bytes beyond its
// planned window (a writer whose chunks the plan's slop did not cover): it
// fetches the stripe's selected streams whole, seeks back to the current
// run and skips the rows already returned from it.
func (br *BatchReader) readWhole() error {
	done := br.runRows - br.remaining
	run := br.runs[br.run-1]
	ix, runs, nextRun := br.ix, br.runs, br.run
	br.windowed = false
	if err := br.loadStripe(br.ctx.meta); err != nil {
		return err
	}
	if err := br.fetchOthers(); err != nil {
		return err
	}
	br.ix, br.runs, br.run = ix, runs, nextRun
	if run.first > 0 {
		if err := br.seekAll(ix, run.first); err != nil {
			return err
		}
	}
	if done > 0 {
		if err := br.skipRows(done); err != nil {
			return err
		}
	}
	br.stats.WindowFallbacks++
	return nil
}

// skipRows discards n top-level rows of the current stripe.
func (br *BatchReader) skipRows(n int64) error {
	sr, ok := br.root.(*structReader)
	if !ok {
		return br.root.skip(n)
	}
	k, err := sr.skipNulls(n)
	if err != nil {
		return err
	}
	if k != n {
		// Root nulls: skip each field by its own count through next.
		return fmt.Errorf("orc: internal error: cannot re-position a stripe whose root has nulls")
	}
	for _, f := range sr.fields {
		if err := f.skip(n); err != nil {
			return err
		}
	}
	return nil
}

// decode reads n rows into b and returns how many rows b keeps.
func (br *BatchReader) decode(b *orc.Batch, n int) (int, error) {
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
	if br.matcher == nil {
		return n, br.nextFields(b, n, mask, func(int) bool { return true })
	}
	// Exact filtering: predicate columns first.
	if err := br.nextFields(b, n, mask, func(i int) bool { return br.sargTop[i] }); err != nil {
		return 0, err
	}
	for col, path := range br.sargPaths {
		v := b.Cols[path[0]]
		for _, p := range path[1:] {
			v = v.(*orc.StructVector).Fields[p]
		}
		br.colVecs[col] = v
	}
	var err error
	br.matches, err = br.matcher.Match(br.colVecs, n, br.matches[:0])
	if err != nil {
		return 0, err
	}
	kept := countTrue(br.matches[:n])
	if (kept > 0 || mask != nil) && !br.othersLoaded {
		if err := br.loadOthers(); err != nil {
			return 0, err
		}
	}
	if kept == 0 && mask == nil {
		if br.othersLoaded { // keep them in step with the rows
			for i, f := range sr.fields {
				if !br.sargTop[i] {
					if err := f.skip(int64(n)); err != nil {
						return 0, err
					}
				}
			}
		}
	} else if err := br.nextFields(b, n, mask, func(i int) bool { return !br.sargTop[i] }); err != nil {
		return 0, err
	}
	if kept > 0 && kept < n {
		for _, c := range b.Cols {
			compact(c, br.matches[:n])
		}
	}
	return kept, nil
}

// startStripe prunes stripe i and, when it survives, reads its selected
// streams and plans its runs of row groups.
func (br *BatchReader) startStripe(i int) error {
	r := br.r
	br.stats.StripesConsidered++
	br.runs, br.run, br.ix, br.windowed = nil, 0, nil, false
	if err := br.mem.set(&br.memIndex, 0, nil); err != nil {
		return err
	}
	if br.sarg != nil && r.HasStripeStatistics() {
		src := &levelSource{r: r, stripe: i}
		tv := br.sarg.Evaluate(src)
		if br.explain != nil {
			fmt.Fprintf(br.explain, "stripe %d statistics:\n%s", i, indent(br.sarg.Explain(src)))
		}
		if !tv.IsNeeded() {
			br.stats.StripesSkipped++
			return nil
		}
	}
	meta, err := r.readStripeMeta(i)
	if err != nil {
		return err
	}
	br.runs = []groupRun{{0, 1}}
	if br.sarg != nil && r.RowIndexStride() > 0 && meta.info.NumRows > 0 {
		ix, runs, all, err := br.pruneGroups(meta)
		if err != nil {
			return err
		}
		if br.explain != nil {
			fmt.Fprintf(br.explain, "stripe %d row groups: effective predicate %s; %d of %d kept\n", i,
				br.sarg.EffectiveFor(ix.leafDecided), countRuns(runs), ix.groups)
		}
		if len(runs) == 0 {
			br.stats.StripesSkipped++
			br.runs = nil
			return nil
		}
		if !all {
			br.ix, br.runs, br.windowed = ix, runs, true
		}
	}
	return br.loadStripe(meta)
}

func countRuns(runs []groupRun) int {
	n := 0
	for _, r := range runs {
		n += r.end - r.first
	}
	return n
}

// loadStripe fetches the selected streams (whole, or the planned windows)
// and starts the column readers on them.
func (br *BatchReader) loadStripe(meta *stripeMeta) error {
	r := br.r
	i := meta.index
	var locs []streamLoc
	var windows map[streamKey][]rowindex.Range
	if br.windowed {
		var cols []int
		for col, sel := range br.selected {
			if sel {
				cols = append(cols, col)
			}
		}
		if err := br.readIndex(br.ix, cols, false); err != nil {
			return err
		}
		var err error
		if windows, locs, err = br.planWindows(br.ix, br.runs); err != nil {
			if !isMissingIndex(err) {
				return err
			}
			// A selected column lacks a usable index: read the stripe whole.
			br.windowed, br.ix, br.runs, windows, locs = false, nil, []groupRun{{0, 1}}, nil, nil
		}
	}
	if !br.windowed {
		for _, s := range meta.footer.GetStreams() {
			col := int(s.GetColumn())
			if col < len(br.selected) && br.selected[col] && !isIndexStream(s.GetKind()) && s.GetKind() <= orcpb.Stream_SECONDARY {
				locs = append(locs, meta.streams[streamKey{col, s.GetKind()}])
			}
		}
	}
	br.othersLoaded, br.othersStarted, br.pendingLocs, br.streams2 = !br.lazy, !br.lazy, nil, 0
	if br.lazy {
		var pred []streamLoc
		for _, l := range locs {
			key := br.streamAt(meta, l)
			switch _, win := windows[key]; {
			case br.predCol[key.column]:
				pred = append(pred, l)
			case !win:
				// Windows of the deferred columns are fetched run by run.
				br.pendingLocs = append(br.pendingLocs, l)
			}
		}
		locs = pred
	}
	if err := br.mem.set(&br.memFetch2, 0, nil); err != nil {
		return err
	}
	reads, read := br.bytes.reads, br.bytes.read
	if err := r.fetch(&br.bytes, locs, br.cfg.coalesce, i, br.holdFetch(&br.memFetch, len(locs), i)); err != nil {
		return err
	}
	br.stats.StripesRead++
	br.stats.ReadCalls += br.bytes.reads - reads
	br.stats.BytesRead += br.bytes.read - read
	zone, err := r.writerZone(meta.footer.GetWriterTimezone())
	if err != nil {
		return err
	}
	// Any stream yields at most ~520 values per decompressed byte (boolean
	// RLE runs), and decompression inflates a chunk to at most a block.
	stripeBytes := meta.info.Length()
	if r.tail.Compression != orc.CompressionNone {
		stripeBytes = (stripeBytes/3 + 1) * int64(r.tail.BlockSize)
	}
	br.ctx = stripeCtx{r: r, meta: meta, bytes: &br.bytes, dec: br.dec, zone: zone,
		maxValues: 1024*stripeBytes + 1<<16, windows: windows, ins: map[streamKey]*format.InStream{},
		maxDict: br.cfg.maxDict, maxNested: br.cfg.maxNested, mem: br.mem}
	if meta.info.NumRows > br.ctx.maxValues {
		return &orc.CorruptError{Offset: meta.info.Offset, Stripe: i, Column: -1, Stream: "footer",
			Msg: fmt.Sprintf("stripe of %d bytes claims %d rows", meta.info.Length(), meta.info.NumRows)}
	}
	if br.windowed {
		if err := br.groupStarts(meta); err != nil {
			return err
		}
	}
	if !br.lazy && br.cols == nil {
		return br.root.startStripe(&br.ctx)
	}
	br.dealColumns(meta)
	sr := br.root.(*structReader)
	if err := sr.startPresence(&br.ctx); err != nil {
		return err
	}
	for i, f := range sr.fields {
		if !br.lazy || br.sargTop[i] {
			if err := f.startStripe(br.fieldCtx(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// setupLazy decides whether exact filtering may defer the other columns'
// I/O and records which columns are the predicate's.
func (br *BatchReader) setupLazy() {
	sr, ok := br.root.(*structReader)
	if !ok || br.matcher == nil {
		return
	}
	br.predCol = make([]bool, len(br.selected))
	br.otherField = map[columnReader]bool{}
	for i, f := range sr.fields {
		if !br.sargTop[i] {
			br.otherField[f] = true
			br.lazy = true
		}
		var mark func(c columnReader)
		mark = func(c columnReader) {
			br.predCol[c.columnID()] = br.sargTop[i]
			for _, k := range children(c) {
				mark(k)
			}
		}
		mark(f)
	}
	br.predCol[0] = true
}

// loadedCol reports whether the readers of file column col are loaded.
func (br *BatchReader) loadedCol(col int) bool {
	return br.othersLoaded || br.predCol[col]
}

// notLoaded reports whether c is a field whose columns are not loaded yet.
func (br *BatchReader) notLoaded(c columnReader) bool {
	return !br.othersLoaded && br.otherField[c]
}

// streamAt returns the stream that holds l (a fetch location is a whole
// stream or a window inside one).
func (br *BatchReader) streamAt(meta *stripeMeta, l streamLoc) streamKey {
	for k, s := range meta.streams {
		if l.offset >= s.offset && l.offset+l.length <= s.offset+s.length && (s.length > 0 || l.offset == s.offset) {
			return k
		}
	}
	return streamKey{}
}

// fetchOthers reads the deferred columns' bytes the current run needs: on
// the stripe's first match, the streams read whole (and starts the
// readers, leaving them at the stripe's start); when row groups were
// pruned, the windows of the run that are not fetched yet.
func (br *BatchReader) fetchOthers() error {
	if br.othersLoaded {
		return nil
	}
	var locs []streamLoc
	if !br.othersStarted {
		locs = append(locs, br.pendingLocs...)
	}
	if br.windowed && br.run > 0 {
		locs = br.runWindowLocs(locs, br.runs[br.run-1].first)
	}
	if len(locs) > 0 || !br.othersStarted {
		reads, read := br.bytes2.reads, br.bytes2.read
		var err error
		if !br.othersStarted {
			// One decompression block per deferred stream, however many
			// runs' windows of it are fetched.
			br.streams2 = len(br.pendingLocs)
			for key := range br.ctx.windows {
				if !br.predCol[key.column] {
					br.streams2++
				}
			}
			err = br.r.fetch(&br.bytes2, locs, br.cfg.coalesce, br.ctx.meta.index,
				br.holdFetch(&br.memFetch2, br.streams2, br.ctx.meta.index))
		} else {
			err = br.r.fetchMore(&br.bytes2, locs, br.cfg.coalesce, br.ctx.meta.index,
				br.holdFetch(&br.memFetch2, br.streams2, br.ctx.meta.index))
		}
		if err != nil {
			return err
		}
		br.stats.ReadCalls += br.bytes2.reads - reads
		br.stats.BytesRead += br.bytes2.read - read
	}
	br.ctx.extra = &br.bytes2
	br.othersLoaded = true
	if br.othersStarted {
		return nil
	}
	br.othersStarted = true
	sr := br.root.(*structReader)
	for i, f := range sr.fields {
		if !br.sargTop[i] {
			if err := f.startStripe(br.fieldCtx(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// runWindowLocs appends to locs the planned windows of the deferred
// columns that cover row group g and are not fetched yet.
func (br *BatchReader) runWindowLocs(locs []streamLoc, g int) []streamLoc {
	ctx := &br.ctx
	for key, ranges := range ctx.windows {
		if br.predCol[key.column] {
			continue
		}
		if rg := runRange(ranges, ctx.groupStart[key][g]); rg != nil {
			l := streamLoc{offset: ctx.meta.streams[key].offset + int64(rg.Start), length: int64(rg.End - rg.Start)}
			if l.length > 0 && ctx.slice(l) == nil {
				locs = append(locs, l)
			}
		}
	}
	return locs
}

// loadOthers fetches the deferred columns in the middle of a run and brings
// them to the row the predicate columns are at.
func (br *BatchReader) loadOthers() error {
	if err := br.fetchOthers(); err != nil {
		return err
	}
	run := br.runs[br.run-1]
	other := func(col int) bool { return !br.predCol[col] }
	if br.windowed {
		if err := br.applyWindowsFor(run.first, other); err != nil {
			return err
		}
	}
	sr := br.root.(*structReader)
	consumed := br.runRows - br.remaining // rows of the run before this batch
	for i, f := range sr.fields {
		if br.sargTop[i] {
			continue
		}
		if br.windowed && (br.run > 1 || run.first > 0) {
			if err := br.seekColumns(br.ix, run.first, f, nil); err != nil {
				return err
			}
		}
		if consumed > 0 {
			if err := f.skip(consumed); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupStarts records, per windowed stream, the first position of every
// row group, to find the window covering a run.
func (br *BatchReader) groupStarts(meta *stripeMeta) error {
	br.ctx.groupStart = map[streamKey][]uint64{}
	compressed := br.r.tail.Compression != orc.CompressionNone
	cols := br.r.tail.Schema.Columns()
	for key := range br.ctx.windows {
		kind, _, err := meta.encoding(key.column)
		if err != nil {
			return err
		}
		_, hasPresent := meta.streams[streamKey{key.column, orcpb.Stream_PRESENT}]
		node := cols[key.column]
		dec64 := br.isDecimal64(meta, node)
		layout := rowindex.Layout(node, kind, hasPresent, compressed, dec64)
		for slot, s := range layout {
			if s.Kind == key.kind && s.Count > 0 {
				starts, err := rowindex.GroupStarts(nil, br.ix.entries[key.column], layout, slot)
				if err != nil {
					return err
				}
				br.ctx.groupStart[key] = starts
			}
		}
	}
	return nil
}

func (br *BatchReader) isDecimal64(meta *stripeMeta, node *orc.Schema) bool {
	if node.Kind != orc.Decimal || br.r.tail.Version != format.VersionUnstablePre2 || node.Precision > 18 {
		return false
	}
	_, hasScale := meta.streams[streamKey{node.ID(), orcpb.Stream_SECONDARY}]
	return !hasScale
}

// errMissingIndex marks a plan that cannot window a column.
type errMissingIndex struct{ error }

func isMissingIndex(err error) bool {
	_, ok := err.(errMissingIndex)
	return ok
}

// holdVectors charges the fixed-width part of n batches (up to 16 bytes per
// row and selected column) to the scan's memory budget.
func (br *BatchReader) holdVectors(n int) error {
	cols := 0
	for _, sel := range br.selected {
		if sel {
			cols++
		}
	}
	need := int64(n) * int64(br.cfg.batchSize) * 16 * int64(cols)
	return br.mem.set(&br.memVec, need, func() string {
		return fmt.Sprintf("%d batches of %d rows and %d columns", n, br.cfg.batchSize, cols)
	})
}

// holdFetch returns the check fetch makes before reading a stripe's
// streams: their bytes, plus a decompression block for each of them.
func (br *BatchReader) holdFetch(slot *int64, streams, stripe int) func(int64) error {
	return func(n int64) error {
		if br.r.tail.Compression != orc.CompressionNone {
			n += int64(streams) * int64(br.r.tail.BlockSize)
		}
		return br.mem.set(slot, n, func() string { return fmt.Sprintf("reading %d streams of stripe %d", streams, stripe) })
	}
}
