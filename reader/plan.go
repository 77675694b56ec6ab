package reader

// The scan plan of one stripe: what to read, decided from metadata alone.
//
// planStripe is a pure function of the stripe footer, the selected columns,
// the row indexes read so far and the row groups the search argument kept.
// It returns the runs of kept row groups and, for every selected data
// stream, the bytes each run needs: from the start of the run's first group
// to the start of the group after it when that group is aligned (nothing
// carried over; rowindex.StreamIndex), with the proven slop otherwise, and
// the whole stream for streams without positions (dictionaries) or when the
// stripe is read without its index. The executor (BatchReader) fetches and
// decodes what the plan says: at a run's start it reads the first window of
// every stream of the run at once (coalesced, the reads of the plan), and
// each stream then fetches the rest of its range a window at a time as its
// decoder consumes it (streamFetch). Nothing decides what to read while
// decoding; bytes past a planned range are read only for writers whose
// chunks break the slop's assumption, and counted (ScanStats.UnplannedReads).

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
)

// stripePlan is what a scan reads of one stripe.
type stripePlan struct {
	stripe int
	rows   int64
	stride int64 // rows per row group; 0 when the stripe is read as one unit
	groups int   // row groups of the stripe (0 without an index)
	kept   int   // row groups kept by the search argument
	// sel is the rows the plan reads (the kept groups' rows); runs are the
	// runs of row groups it touches, in order (a stripe read as one unit
	// has the single run [0, 1)).
	sel  rowSelection
	runs []groupRun
	// seek says that runs not starting at the stripe's first row are
	// reached by seeking with the row index.
	seek    bool
	streams []streamPlan
	// reads are, per run, the coalesced file ranges fetched when the run
	// starts: the first window of each of its eager streams, and at the
	// first run the eager streams read whole. deferredReads are the same
	// for the deferred streams, fetched at the run's first match;
	// deferredStartReads add the deferred streams read whole, for the run
	// where the deferred columns start.
	reads, deferredReads, deferredStartReads [][]ioRange
	// scheduled is the bytes scheduleStripe handed the scheduler for it.
	scheduled int64
	// whyWhole tells why a stripe with pruned groups is read as one unit.
	whyWhole string
	// pending lists the deferred columns whose streams wait for their row
	// indexes, read at the stripe's first match (planDeferred).
	pending []int
}

// streamPlan is what one selected data stream reads.
type streamPlan struct {
	key      streamKey
	loc      streamLoc
	deferred bool  // a column the exact filter reads only for runs with a match
	whole    bool  // no positions: read whole when the column starts
	pending  bool  // a deferred stream whose column's index is not read yet
	noSeek   bool  // a deferred stream read from the stripe's start (its index was unusable)
	slot     int32 // the stream's slot in its column's row index entries, or -1
	// runs holds, per run, the stream-relative bytes the run needs (see
	// runRanges); nil stands for one range, the whole stream, exact (a
	// stream read whole, or a stripe read as one unit: for 100,000
	// columns, 100,000 streams without slices of their own), or for none
	// while the stream is pending.
	runs *runRanges
}

// runRanges is a stream's ranges by run: the bytes each run needs (empty
// when it needs none), and whether each ends exactly where the group
// after the run starts.
type runRanges struct {
	ranges []rowindex.Range
	exact  []bool
}

// numRanges returns how many ranges the stream has (one per run, or one;
// none while it is pending).
func (sp *streamPlan) numRanges() int {
	if sp.runs == nil {
		if sp.pending {
			return 0
		}
		return 1
	}
	return len(sp.runs.ranges)
}

// rangeAt returns the stream's range i, and whether it is exact.
func (sp *streamPlan) rangeAt(i int) (rowindex.Range, bool) {
	if sp.runs == nil {
		return rowindex.Range{Start: 0, End: uint64(sp.loc.length)}, true
	}
	return sp.runs.ranges[i], sp.runs.exact[i]
}

// setRanges gives the stream its ranges by run.
func (sp *streamPlan) setRanges(ranges []rowindex.Range, exact []bool) {
	sp.runs = &runRanges{ranges: ranges, exact: exact}
}

// planInput is what planStripe decides from.
type planInput struct {
	meta       *stripeMeta
	schema     *orc.Schema
	version    format.FileVersion
	selected   []bool // per file column id
	deferred   []bool // per file column id: read only for runs with a match; nil for none
	compressed bool
	blockSize  int
	stride     int64
	// entries holds the row indexes read for the stripe; sel, when given,
	// the rows of the row groups the search argument kept.
	entries map[int][]*orcpb.RowIndexEntry
	sel     rowSelection
	window  int64 // bytes fetched of a stream at a time
	gap     int64 // coalescing gap
	// streams, when not nil, keeps the stripe's stream indexes for the
	// plans of its chunks (a parallel scan plans each chunk of a stripe
	// on its own, from the same row indexes).
	streams *streamIndexes
	// cols is the schema's nodes by column id (the Reader's), or nil to
	// number them here.
	cols []*orc.Schema
}

// nodes returns the schema's nodes by column id.
func (in *planInput) nodes() []*orc.Schema {
	if in.cols != nil {
		return in.cols
	}
	return in.schema.Columns()
}

// indexNeeded returns the selected columns whose row index a plan for sel
// needs and that entries lacks: every selected column when some group is
// pruned and some kept (runs are reached by seeking), but for the deferred columns, whose
// indexes are read at their first match in the stripe (planDeferred).
func indexNeeded(in planInput) []int {
	if !in.sel.given() || in.sel.all() || in.sel.none() {
		return nil
	}
	var cols []int
	for col, sel := range in.selected {
		if in.deferred != nil && in.deferred[col] {
			continue
		}
		if _, ok := in.entries[col]; sel && !ok {
			if in.meta.has(col, orcpb.Stream_ROW_INDEX) {
				cols = append(cols, col)
			}
		}
	}
	return cols
}

// planStripe plans the reads of one stripe (see the file comment).
func planStripe(in planInput) (*stripePlan, error) {
	m := in.meta
	p := &stripePlan{stripe: m.index, rows: m.info.NumRows}
	if in.sel.given() {
		p.groups = int((p.rows + in.stride - 1) / in.stride)
		p.kept = in.sel.groups(in.stride)
		if p.kept == 0 {
			return p, nil
		}
	}
	ranged := p.selectRows(in)
	cols := in.nodes()
	// The selected columns' data streams, by column in footer order (the
	// stripe's lookup lists them so). A footer may list hundreds of
	// thousands: the plan's entries are allocated at once, and those read
	// whole or in one unit have no ranges of their own (streamPlan.runs).
	dataStream := func(s *stripeStream) bool { return !isIndexStream(s.kind) && s.kind <= orcpb.Stream_SECONDARY }
	nstreams := 0
	for col, sel := range in.selected {
		if sel {
			for _, j := range m.columnStreams(col) {
				if dataStream(&m.list[j]) {
					nstreams++
				}
			}
		}
	}
	p.streams = make([]streamPlan, 0, nstreams)
	var layouts layoutCache
	for col, sel := range in.selected {
		if !sel {
			continue
		}
		kind, _, err := m.encoding(col)
		if err != nil {
			return nil, err
		}
		hasPresent := m.has(col, orcpb.Stream_PRESENT)
		layout := layouts.get(cols[col], kind, hasPresent, in.compressed, isDecimal64(m, cols[col], in.version))
		for _, j := range m.columnStreams(col) {
			if !dataStream(&m.list[j]) {
				continue
			}
			key := m.list[j].key()
			loc, _ := m.stream(key.column, key.kind)
			sp := streamPlan{key: key, loc: loc, deferred: in.deferred != nil && in.deferred[col]}
			slot := -1
			for i, sl := range layout {
				if sl.Kind == key.kind && sl.Count > 0 {
					slot = i
				}
			}
			sp.slot = int32(slot)
			switch {
			case slot < 0:
				// Read whole when the column starts (a dictionary).
				sp.whole = true
			case !ranged:
			case in.entries[col] == nil:
				// A deferred column: planned when its index is read.
				sp.pending = true
			default:
				if err := p.planRanges(&sp, in, layout); err != nil {
					return nil, err
				}
			}
			p.streams = append(p.streams, sp)
		}
	}
	p.planReads(in)
	return p, nil
}

// selectRows sets the plan's selection and runs of row groups, and reports
// whether it reads ranges of the streams: when groups were pruned and every
// selected column can seek (has its row index, or, deferred, a ROW_INDEX
// stream to read when needed). Otherwise the stripe is read whole, and
// whyWhole says why where a column could not seek.
func (p *stripePlan) selectRows(in planInput) bool {
	m := in.meta
	ranged := in.sel.given() && !in.sel.all()
	if ranged {
		for col, sel := range in.selected {
			_, ok := in.entries[col]
			if in.deferred != nil && in.deferred[col] {
				// Read when needed; a column without a ROW_INDEX stream
				// could never seek.
				ok = m.has(col, orcpb.Stream_ROW_INDEX)
			}
			if sel && !ok {
				ranged = false
				p.whyWhole = fmt.Sprintf("column %d has no usable row index", col)
				break
			}
		}
	}
	if !ranged {
		p.sel = selectAll(p.rows)
		p.runs = []groupRun{{0, 1}}
		return false
	}
	p.stride, p.seek = in.stride, true
	for col, sel := range in.selected {
		if _, ok := in.entries[col]; sel && !ok {
			p.pending = append(p.pending, col) // deferred, seen above
		}
	}
	p.sel = in.sel
	p.runs = p.sel.groupRuns(in.stride)
	return true
}

// layoutCache holds the row index layouts a plan has made: a layout
// depends on the column's kind and encoding only, and a stripe of 100,000
// columns has a few kinds.
type layoutCache map[layoutKey][]rowindex.Slot

type layoutKey struct {
	kind                           orc.Kind
	enc                            orcpb.ColumnEncoding_Kind
	present, compressed, decimal64 bool
}

// get returns rowindex.Layout's result for its arguments, which the
// caller must not modify.
func (c *layoutCache) get(t *orc.Schema, enc orcpb.ColumnEncoding_Kind, hasPresent, compressed, decimal64 bool) []rowindex.Slot {
	if t == nil {
		return rowindex.Layout(t, enc, hasPresent, compressed, decimal64)
	}
	k := layoutKey{t.Kind, enc, hasPresent, compressed, decimal64}
	if l, ok := (*c)[k]; ok {
		return l
	}
	if *c == nil {
		*c = layoutCache{}
	}
	l := rowindex.Layout(t, enc, hasPresent, compressed, decimal64)
	(*c)[k] = l
	return l
}

// planRanges plans stream sp's range for every run from its column's row
// index entries.
func (p *stripePlan) planRanges(sp *streamPlan, in planInput, layout []rowindex.Slot) error {
	col := sp.key.column
	si := in.streams.get(sp.key)
	if si == nil {
		var err error
		si, err = rowindex.NewStreamIndex(uint64(sp.loc.length), in.entries[col], layout, int(sp.slot), in.compressed, in.blockSize)
		if err != nil {
			return orc.WithLocation(err, sp.loc.offset, p.stripe, col, "ROW_INDEX")
		}
		in.streams.put(sp.key, si)
	}
	sp.setRanges(p.sel.byteRanges(si, p.stride))
	return nil
}

// streamIndexes keeps a stripe's stream indexes (rowindex.StreamIndex, read
// only once made) by stream, for the plans of its chunks, which several
// goroutines make. A nil one keeps nothing.
type streamIndexes struct {
	mu sync.Mutex
	m  map[streamKey]*rowindex.StreamIndex
}

// get returns stream k's index, or nil.
func (c *streamIndexes) get(k streamKey) *rowindex.StreamIndex {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

// put keeps stream k's index.
func (c *streamIndexes) put(k streamKey, si *rowindex.StreamIndex) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[streamKey]*rowindex.StreamIndex{}
	}
	c.m[k] = si
}

// planReads groups the streams' first windows of each run into reads.
func (p *stripePlan) planReads(in planInput) {
	n := len(p.runs)
	p.reads, p.deferredReads, p.deferredStartReads = make([][]ioRange, n), make([][]ioRange, n), make([][]ioRange, n)
	// The runs' first pieces, gathered in three slices of their most that
	// the runs reuse (coalesceMax copies them).
	ndef := 0
	for _, sp := range p.streams {
		if sp.deferred {
			ndef++
		}
	}
	eager := make([]streamLoc, 0, len(p.streams)-ndef)
	deferred, start := make([]streamLoc, 0, ndef), make([]streamLoc, 0, ndef)
	for i := range p.runs {
		eager, deferred, start = eager[:0], deferred[:0], start[:0]
		for _, sp := range p.streams {
			l, ok := sp.firstRead(i, in.window, true)
			if !ok {
				continue
			}
			switch {
			case !sp.deferred:
				if !sp.whole || i == 0 {
					eager = append(eager, l)
				}
			case sp.whole || sp.noSeek:
				start = append(start, l)
			default:
				deferred = append(deferred, l)
				start = append(start, l)
			}
		}
		// A read holds at most a window's bytes (a scratch buffer takes
		// them before the streams copy their pieces out).
		p.reads[i] = coalesceMax(eager, in.gap, in.window)
		p.deferredReads[i] = coalesceMax(deferred, in.gap, in.window)
		p.deferredStartReads[i] = coalesceMax(start, in.gap, in.window)
	}
}

// planDeferred plans the deferred columns' streams once their row indexes
// are in in.entries (read at the stripe's first match). A column whose index
// could not be used (its entries do not match the stripe's row groups) is
// read from the stripe's start instead: its streams are planned whole and
// noSeek marks it, for the executor to skip rows rather than seek. Like
// planStripe it decides from metadata alone.
func planDeferred(in planInput, p *stripePlan) (noSeek []bool, err error) {
	if len(p.pending) == 0 {
		return nil, nil
	}
	cols := in.nodes()
	noSeek = make([]bool, len(in.selected))
	for _, col := range p.pending {
		noSeek[col] = in.entries[col] == nil
	}
	for i := range p.streams {
		sp := &p.streams[i]
		if !sp.pending {
			continue
		}
		col := sp.key.column
		sp.pending = false
		if noSeek[col] {
			sp.noSeek = true
			ranges, exact := make([]rowindex.Range, len(p.runs)), make([]bool, len(p.runs))
			for i := range ranges {
				ranges[i] = rowindex.Range{Start: 0, End: uint64(sp.loc.length)}
			}
			sp.setRanges(ranges, exact)
			continue
		}
		kind, _, err := in.meta.encoding(col)
		if err != nil {
			return nil, err
		}
		hasPresent := in.meta.has(col, orcpb.Stream_PRESENT)
		layout := rowindex.Layout(cols[col], kind, hasPresent, in.compressed, isDecimal64(in.meta, cols[col], in.version))
		if err := p.planRanges(sp, in, layout); err != nil {
			return nil, err
		}
	}
	p.pending = nil
	p.planReads(in)
	return noSeek, nil
}

// firstRead returns the file bytes the stream reads when run i starts: its
// first window of the run's range, or, when whole is set, the whole stream
// for a stream read whole.
func (sp *streamPlan) firstRead(i int, window int64, whole bool) (streamLoc, bool) {
	if sp.whole {
		return sp.loc, whole && sp.loc.length > 0
	}
	if sp.pending {
		return streamLoc{}, false
	}
	r, _ := sp.rangeAt(i)
	if r.End <= r.Start {
		return streamLoc{}, false
	}
	end := min(r.End, r.Start+uint64(window))
	return streamLoc{offset: sp.loc.offset + int64(r.Start), length: int64(end - r.Start)}, true
}

// rangeBytes returns the bytes the plan reads of data streams.
func (p *stripePlan) rangeBytes() (total int64) {
	for _, sp := range p.streams {
		if sp.whole {
			total += sp.loc.length
			continue
		}
		for i := range sp.numRanges() {
			r, _ := sp.rangeAt(i)
			total += int64(r.End - r.Start)
		}
	}
	return total
}

// eagerBytes returns the bytes the plan reads of the eager (not deferred)
// data streams.
func (p *stripePlan) eagerBytes() (total int64) {
	for _, sp := range p.streams {
		switch {
		case sp.deferred:
		case sp.whole:
			total += sp.loc.length
		default:
			for i := range sp.numRanges() {
				r, _ := sp.rangeAt(i)
				total += int64(r.End - r.Start)
			}
		}
	}
	return total
}

// String prints the plan, one stream a line.
func (p *stripePlan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stripe %d: %d rows", p.stripe, p.rows)
	if p.groups > 0 {
		fmt.Fprintf(&b, ", %d of %d row groups kept", p.kept, p.groups)
	}
	if len(p.runs) == 0 {
		b.WriteString(", nothing to read\n")
		return b.String()
	}
	if !p.seek {
		b.WriteString(", read as one unit")
		if p.whyWhole != "" {
			fmt.Fprintf(&b, " (%s)", p.whyWhole)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("\n  runs:")
		for _, r := range p.runs {
			fmt.Fprintf(&b, " [%d,%d)", r.first, r.end)
		}
		b.WriteString("\n")
	}
	streams := append([]streamPlan(nil), p.streams...)
	sort.SliceStable(streams, func(i, j int) bool { return streams[i].loc.offset < streams[j].loc.offset })
	for _, sp := range streams {
		fmt.Fprintf(&b, "  column %d %s @%d+%d:", sp.key.column, sp.key.kind, sp.loc.offset, sp.loc.length)
		if sp.deferred {
			b.WriteString(" deferred")
		}
		if sp.whole {
			b.WriteString(" whole\n")
			continue
		}
		if sp.pending {
			b.WriteString(" (index read at the first match)\n")
			continue
		}
		for i := range sp.numRanges() {
			r, exact := sp.rangeAt(i)
			mark := "~"
			if exact {
				mark = ""
			}
			fmt.Fprintf(&b, " [%d,%d)%s", r.Start, r.End, mark)
		}
		b.WriteString("\n")
	}
	for i := range p.runs {
		fmt.Fprintf(&b, "  run %d reads:", i)
		for _, r := range p.reads[i] {
			fmt.Fprintf(&b, " %d+%d", r.offset, r.length)
		}
		if len(p.deferredStartReads[i]) > 0 {
			b.WriteString("; on a match:")
			for _, r := range p.deferredReads[i] {
				fmt.Fprintf(&b, " %d+%d", r.offset, r.length)
			}
			if len(p.deferredStartReads[i]) != len(p.deferredReads[i]) {
				b.WriteString(" (first:")
				for _, r := range p.deferredStartReads[i] {
					fmt.Fprintf(&b, " %d+%d", r.offset, r.length)
				}
				b.WriteString(")")
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  data bytes planned: %d of %d\n", p.rangeBytes(), p.selectedBytes())
	return b.String()
}

// selectedBytes returns the bytes of the selected data streams.
func (p *stripePlan) selectedBytes() (total int64) {
	for _, sp := range p.streams {
		total += sp.loc.length
	}
	return total
}

// isDecimal64 reports whether a decimal column is stored as RLE v2 unscaled
// longs (file version UNSTABLE-PRE-2.0, precision <= 18, no SECONDARY).
func isDecimal64(meta *stripeMeta, node *orc.Schema, v format.FileVersion) bool {
	if node.Kind != orc.Decimal || v != format.VersionUnstablePre2 || node.Precision > 18 {
		return false
	}
	return !meta.has(node.ID(), orcpb.Stream_SECONDARY)
}

// countStreams returns how many of the plan's streams are of the late
// fields (deferred) or of the others.
func (p *stripePlan) countStreams(deferred bool) int {
	n := 0
	for _, sp := range p.streams {
		if sp.deferred == deferred {
			n++
		}
	}
	return n
}
