package reader

// Pruning with a search argument, top down:
//
//  1. File statistics (footer): when the predicate cannot be true for the
//     file, the scan returns no rows and reads nothing more.
//  2. Stripe statistics (metadata section): a stripe that cannot match is
//     skipped without reading a byte of it.
//  3. Row groups: for a surviving stripe, the ROW_INDEX and
//     BLOOM_FILTER_UTF8 streams of the predicate's columns only are read
//     and each row group evaluated. A stripe with no surviving group is
//     skipped; one with all groups surviving is read as one unit.
//  4. Otherwise the row indexes of the other selected columns are read, and
//     the stripe is planned (plan.go): each selected stream is read only over
//     the byte ranges of the runs of surviving groups, exact for aligned
//     groups and with the slop a run that straddles a group boundary needs
//     otherwise. Decoding seeks every column to the first group of each run
//     and decodes nothing else.
//
// A level without statistics, a column without an index, an index that does
// not line up with the stripe, or a bloom filter from a writer that cannot
// be trusted only makes the affected leaves "can't decide" (see package
// sarg): pruning stays correct and prunes as far as the rest allows.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// levelSource serves file or stripe statistics to the predicate.
type levelSource struct {
	r      *Reader
	stripe int // -1 for file level
	cache  map[int]*stats.Column
}

func (s *levelSource) Stats(col int) *stats.Column {
	if c, ok := s.cache[col]; ok {
		return c
	}
	var c stats.Column
	var ok bool
	if s.stripe < 0 {
		c, ok = s.r.Statistics(col)
	} else {
		c, ok = s.r.StripeStatistics(s.stripe, col)
	}
	var p *stats.Column
	if ok {
		p = &c
	}
	if p != nil && !plausible(s.r.tail.Schema, col, p, s.Stats, s.rows()) {
		p = nil
	}
	if s.cache == nil {
		s.cache = map[int]*stats.Column{}
	}
	s.cache[col] = p
	return p
}

// rows is the number of rows of the level.
func (s *levelSource) rows() int64 {
	if s.stripe < 0 {
		return int64(s.r.tail.Footer.GetNumberOfRows())
	}
	return s.r.Stripes()[s.stripe].NumRows
}

func (s *levelSource) Bloom(int) sarg.BloomFilter { return nil }

// plausible reports whether a column's statistics can describe a unit of
// rows rows. Statistics claiming neither values nor nulls are believed
// (ORC-1553: the unit holds no rows of the column) only where that is
// possible: for the root, when the unit has no rows; for a struct field,
// when the struct has no non-null rows in the unit (each non-null struct
// row holds a value or a null of each field). Otherwise the writer
// collected nothing - Java files written with orc.create.index=false
// record a count of 0 at every level - and the statistics are dropped:
// believing them would skip every unit. parent returns the (checked)
// statistics of another column of the same unit.
func plausible(schema *orc.Schema, col int, st *stats.Column, parent func(int) *stats.Column, rows int64) bool {
	if st.NumValues != 0 || st.HasNull || !st.HasNullKnown {
		return true
	}
	if col == 0 {
		return rows == 0
	}
	p := parentOf(schema, col)
	if p == nil || p.Kind != orc.Struct {
		return true // list elements, map entries, union variants may be empty
	}
	ps := parent(p.ID())
	if ps == nil {
		if p.ID() == 0 {
			return rows == 0 // the root's rows are the unit's
		}
		return false // nothing shows that the struct is all null
	}
	return ps.NumValues == 0
}

// parentOf returns the parent of column id, or nil for the root.
func parentOf(schema *orc.Schema, id int) *orc.Schema {
	line := schema.Lineage(id)
	if len(line) < 2 {
		return nil
	}
	return line[len(line)-2]
}

// stripeIndex holds the row indexes and bloom filters read for a stripe.
type stripeIndex struct {
	r       *Reader
	meta    *stripeMeta
	groups  int
	entries map[int][]*orcpb.RowIndexEntry
	// blooms holds each column's BLOOM_FILTER_UTF8 filters, one per group
	// (the zero Bits where a filter does not decode), probed in the
	// stream's decompressed bytes.
	blooms map[int][]bloomfilter.Bits
	// legacy holds the trusted filters of BLOOM_FILTER streams, decoded
	// (nil for a group whose filter may not be probed), for columns
	// without a usable BLOOM_FILTER_UTF8 stream.
	legacy  map[int][]sarg.BloomFilter
	decided []bool // per leaf: it was not YES_NO_NULL in some group
	// byBloom counts the groups bloom filters skipped that min/max kept:
	// the stripe is a lookup, whose kept groups are mostly the filters'
	// false positives.
	byBloom int
}

// newStripeIndex returns an empty index of a stripe with a row index
// stride.
func newStripeIndex(r *Reader, meta *stripeMeta) *stripeIndex {
	stride := int64(r.RowIndexStride())
	groups := int((meta.info.NumRows + stride - 1) / stride)
	return &stripeIndex{r: r, meta: meta, groups: groups, entries: map[int][]*orcpb.RowIndexEntry{},
		blooms: map[int][]bloomfilter.Bits{}, legacy: map[int][]sarg.BloomFilter{}}
}

// clone returns a copy of ix that a worker may add entries to (the
// entries themselves are shared and never changed).
func (ix *stripeIndex) clone() *stripeIndex {
	if ix == nil {
		return nil
	}
	c := *ix
	c.entries, c.blooms = maps.Clone(ix.entries), maps.Clone(ix.blooms)
	c.legacy = maps.Clone(ix.legacy)
	return &c
}

// leafDecided reports whether leaf i decided anything in some row group
// (for the effective predicate of explain: a column whose index entries
// carry no statistics has an index, but its leaves can't decide).
func (ix *stripeIndex) leafDecided(i int) bool { return i < len(ix.decided) && ix.decided[i] }

// groupSource serves one row group's statistics and bloom filters.
type groupSource struct {
	ix    *stripeIndex
	group int
}

func (s groupSource) Stats(col int) *stats.Column {
	es, ok := s.ix.entries[col]
	if !ok || s.group >= len(es) || es[s.group].GetStatistics() == nil {
		return nil
	}
	c := stats.FromProto(es[s.group].GetStatistics(), s.ix.r.cols[col], s.ix.r.writerInfo())
	if !plausible(s.ix.r.tail.Schema, col, &c, s.Stats, s.rows()) {
		return nil
	}
	return &c
}

// rows is the number of rows of the group: the stride, less in the
// stripe's last group.
func (s groupSource) rows() int64 {
	stride := int64(s.ix.r.RowIndexStride())
	return min(stride, s.ix.meta.info.NumRows-int64(s.group)*stride)
}

func (s groupSource) Bloom(col int) sarg.BloomFilter {
	if ls, ok := s.ix.legacy[col]; ok {
		if s.group >= len(ls) || ls[s.group] == nil {
			return nil
		}
		return ls[s.group]
	}
	bs, ok := s.ix.blooms[col]
	if !ok || s.group >= len(bs) || !bs[s.group].Valid() {
		return nil // a filter that does not decode is treated as absent
	}
	return &bs[s.group]
}

// minMaxSource is a group's statistics without its bloom filters.
type minMaxSource struct{ groupSource }

func (minMaxSource) Bloom(int) sarg.BloomFilter { return nil }

// bloomUsable reports whether a column's BLOOM_FILTER_UTF8 stream may be
// trusted in this file and stripe.
func (r *Reader) bloomUsable(meta *stripeMeta, col int) bool {
	if !bloomfilter.TrustFilters(r.winfo) {
		return false
	}
	if col >= len(meta.encodings) {
		return false
	}
	be := meta.encodings[col].bloom
	kind := r.cols[col].Kind
	if be > 1 {
		return false
	}
	// Before ORC-135 (encoding 0), timestamps were hashed in the writer's
	// local time: not comparable with our probes.
	if be == 0 && (kind == orc.Timestamp || kind == orc.TimestampInstant) {
		return false
	}
	return true
}

// legacyBloomUsable reports whether a column's BLOOM_FILTER (legacy)
// stream may hold filters worth reading: the file's writer is not one of
// the known-bad ones and the column's kind may be trusted in some layout.
func (r *Reader) legacyBloomUsable(col int) bool {
	if !bloomfilter.TrustFilters(r.winfo) {
		return false
	}
	kind := r.cols[col].Kind
	return bloomfilter.TrustLegacy(kind, r.winfo, false) != bloomfilter.LegacyNo || bloomfilter.TrustLegacy(kind, r.winfo, true) != bloomfilter.LegacyNo
}

// legacyFilters decodes a BLOOM_FILTER stream of col into the filters
// that may be probed (nil where one may not), or returns nil when the
// stream does not decode or has not one filter per row group: unusable
// filters are ignored, never fatal.
func (r *Reader) legacyFilters(data []byte, col, groups int) []sarg.BloomFilter {
	lbs, err := rowindex.DecodeLegacyBloomIndex(data)
	if err != nil || len(lbs) != groups {
		return nil
	}
	out := make([]sarg.BloomFilter, len(lbs))
	for g, lb := range lbs {
		switch bloomfilter.TrustLegacy(r.cols[col].Kind, r.winfo, lb.Early != nil) {
		case bloomfilter.LegacyYes:
			out[g] = lb.Probe()
		case bloomfilter.LegacyASCII:
			out[g] = asciiProbe{lb.Probe()}
		}
	}
	return out
}

// asciiProbe answers only for probes of ASCII bytes, on which the JVM's
// default charsets agree with UTF-8; any other probe may be present.
type asciiProbe struct{ p bloomfilter.Probe }

func (a asciiProbe) TestLong(v int64) bool     { return a.p.TestLong(v) }
func (a asciiProbe) TestDouble(v float64) bool { return a.p.TestDouble(v) }
func (a asciiProbe) TestBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return a.p.TestBytes(b)
}

// readIndex reads and decodes the ROW_INDEX (and, when bloom is set and
// usable, BLOOM_FILTER_UTF8) streams of the given columns into ix, and
// in the same reads the ROW_INDEX streams of the columns of also. Only
// group pruning (bloom set) reads statistics, of cols: the other entries
// are decoded for their positions alone, which seeks need.
func (pl *planner) readIndex(ix *stripeIndex, cols []int, bloom bool, also ...int) error {
	r, meta := pl.r, ix.meta
	wants := r.indexWants(meta, ix.entries, cols, bloom, also)
	if len(wants) == 0 {
		return nil
	}
	locs := make([]streamLoc, len(wants))
	for i, w := range wants {
		locs[i] = w.loc
	}
	var buf stripeBytes
	defer buf.release() // what is kept below is decoded, not referred to
	if err := fetch(pl.io, &buf, locs, pl.io.gap(), meta.index, func(n int64) error {
		return pl.mem.set(&pl.buf.held.index, pl.buf.held.index+n, func() string { return fmt.Sprintf("the row indexes of stripe %d", meta.index) })
	}); err != nil {
		return err
	}
	pl.stats.IndexBytesRead += buf.read
	for _, w := range wants {
		data := buf.slice(w.loc)
		if r.tail.Compression != orc.CompressionNone {
			in := format.NewInStream(format.StreamInfo{Name: w.key.kind.String(), FileOffset: w.loc.offset,
				Stripe: meta.index, Column: w.key.column, Length: uint64(w.loc.length)}, data, r.tail.Compression, r.tail.BlockSize, pl.buf.dec)
			limit := (w.loc.length/3 + 1) * int64(r.tail.BlockSize)
			// The row indexes decoded below copy what they keep, so one
			// buffer serves every one of the scan; bloom filters are
			// probed where they lie, in pl.buf.bloom, until pruneGroups
			// has tested them.
			if w.key.kind == orcpb.Stream_BLOOM_FILTER_UTF8 {
				start := len(pl.buf.bloom)
				out, err := format.AppendAll(pl.buf.bloom, in, limit)
				if err != nil {
					return err
				}
				pl.buf.bloom, data = out, out[start:]
			} else {
				out, err := format.AppendAll(pl.buf.index[:0], in, limit)
				if err != nil {
					return err
				}
				pl.buf.index, data = out, out
			}
		} else if w.key.kind == orcpb.Stream_BLOOM_FILTER_UTF8 {
			start := len(pl.buf.bloom)
			pl.buf.bloom = append(pl.buf.bloom, data...) // buf is given back below
			data = pl.buf.bloom[start:]
		}
		loc := func(err error) error {
			return orc.WithLocation(err, w.loc.offset, meta.index, w.key.column, w.key.kind.String())
		}
		if w.key.kind == orcpb.Stream_ROW_INDEX {
			decode := rowindex.DecodeRowIndexPositions
			if bloom && slices.Contains(cols, w.key.column) {
				decode = rowindex.DecodeRowIndex
			}
			ri, err := decode(data)
			if err != nil {
				return loc(err)
			}
			// An index that does not have one entry per row group is not
			// used: the column counts as unindexed.
			if len(ri.GetEntry()) == ix.groups && (pl.cfg.test.unusableIndex == nil || !pl.cfg.test.unusableIndex(w.key.column)) {
				ix.entries[w.key.column] = ri.GetEntry()
			}
		} else if w.key.kind == orcpb.Stream_BLOOM_FILTER {
			if fs := r.legacyFilters(data, w.key.column, ix.groups); fs != nil {
				ix.legacy[w.key.column] = fs
			}
		} else {
			fs, err := rowindex.DecodeBloomBits(data, make([]bloomfilter.Bits, 0, ix.groups))
			if err != nil {
				continue // unusable filters are ignored, never fatal
			}
			if len(fs) == ix.groups {
				ix.blooms[w.key.column] = fs
			}
		}
	}
	return nil
}

// indexWant is an index stream readIndex reads.
type indexWant struct {
	key streamKey
	loc streamLoc
}

// indexWants returns the index streams readIndex reads from a stripe: the
// ROW_INDEX streams of cols and also, and when bloom is set the usable
// bloom filter streams of cols, leaving out the columns whose entries
// are in have.
func (r *Reader) indexWants(meta *stripeMeta, have map[int][]*orcpb.RowIndexEntry, cols []int, bloom bool, also []int) []indexWant {
	var wants []indexWant
	seen := map[int]bool{}
	for k, col := range append(append([]int(nil), cols...), also...) {
		if _, done := have[col]; done || seen[col] {
			continue
		}
		seen[col] = true
		key := streamKey{col, orcpb.Stream_ROW_INDEX}
		if loc, ok := meta.stream(key.column, key.kind); ok {
			wants = append(wants, indexWant{key, loc})
		}
		if bloom && k < len(cols) && r.bloomUsable(meta, col) {
			k := streamKey{col, orcpb.Stream_BLOOM_FILTER_UTF8}
			if loc, ok := meta.stream(k.column, k.kind); ok {
				wants = append(wants, indexWant{k, loc})
			} else if k := (streamKey{col, orcpb.Stream_BLOOM_FILTER}); r.legacyBloomUsable(col) {
				if loc, ok := meta.stream(k.column, k.kind); ok {
					wants = append(wants, indexWant{k, loc})
				}
			}
		}
	}
	return wants
}

// scanTestHooks change how a scan works, for the package's tests of its
// fallbacks and of parallel chunks. They are options of one scan, not
// package variables, so that tests setting them can run in parallel.
type scanTestHooks struct {
	// unusableIndex makes the row index of the columns it accepts count
	// as unusable, as one whose entries do not match the stripe.
	unusableIndex func(col int) bool
	// chunkRows, when set, is the fewest rows of a parallel scan's chunk,
	// whatever the columns read (chunkRowsFor).
	chunkRows int
	// keepGroups, when set, prunes the row groups of stripe s it does not
	// keep, as a search argument would (WithKeptGroups).
	keepGroups func(s, g int) bool
}

// groupRun is a run of consecutive surviving row groups [first, end).
type groupRun struct {
	first, end int
}

// pruneColumns returns the columns whose row indexes group pruning reads:
// the predicate's, and the structs above them, whose statistics say where
// a struct has no null row (so its fields' own counts are all there is) or
// none but nulls (so its fields are NULL on every row).
func (pl *planner) pruneColumns() []int {
	if pl.pruneCols != nil || pl.sarg == nil {
		return pl.pruneCols
	}
	seen := map[int]bool{}
	var cols []int
	for _, c := range pl.sarg.Columns() {
		for id := c; id > 0; {
			if !seen[id] {
				seen[id] = true
				cols = append(cols, id)
			}
			p := parentOf(pl.r.tail.Schema, id)
			if p == nil {
				break
			}
			id = p.ID()
		}
	}
	pl.pruneCols = cols
	return cols
}

// indexAlso returns the columns whose row indexes group pruning reads
// besides the predicate's: over a network the other selected columns',
// which come in the same read (a plan that seeks needs them, and a round
// trip costs more than their bytes); none on a local file (a stripe whose
// groups are all pruned, most of a lookup's, needs none of them).
func (pl *planner) indexAlso() []int {
	var also []int
	if pl.cfg.readAhead {
		for col, sel := range pl.selected {
			if sel {
				also = append(also, col)
			}
		}
	}
	return also
}

// pruneGroups evaluates the predicate on every row group of a stripe and
// returns the index read for it with the rows of the groups kept.
func (pl *planner) pruneGroups(meta *stripeMeta) (ix *stripeIndex, sel rowSelection, err error) {
	ix = newStripeIndex(pl.r, meta)
	groups := ix.groups
	pl.buf.bloom = pl.buf.bloom[:0]
	if err := pl.readIndex(ix, pl.pruneColumns(), true, pl.indexAlso()...); err != nil {
		return nil, rowSelection{}, err
	}
	// The bloom filters are tested below and never again: the buffer
	// they lie in serves the next stripe's (one that grew past
	// maxBloomBuffer is dropped instead).
	defer func() {
		ix.blooms, ix.legacy = nil, nil
		if cap(pl.buf.bloom) > maxBloomBuffer {
			pl.buf.bloom = nil
		}
	}()
	pl.stats.GroupsConsidered += groups
	var leaves []sarg.TruthValue
	rows, stride := meta.info.NumRows, int64(pl.r.RowIndexStride())
	sel = rowSelection{n: rows}
	n := 0
	for g := 0; g < groups; g++ {
		src := groupSource{ix: ix, group: g}
		leaves = pl.sarg.EvaluateLeaves(src, leaves[:0])
		if ix.decided == nil {
			ix.decided = make([]bool, len(leaves))
		}
		for i, l := range leaves {
			ix.decided[i] = ix.decided[i] || l != sarg.YesNoNull
		}
		tv := pl.sarg.Combine(leaves)
		if tv.IsNeeded() {
			n++
			sel = sel.with(int64(g)*stride, min(int64(g+1)*stride, rows))
		} else if len(ix.blooms) > 0 || len(ix.legacy) > 0 {
			// Would min/max alone have kept it?
			nb := pl.sarg.Combine(pl.sarg.EvaluateLeaves(minMaxSource{src}, nil))
			if nb.IsNeeded() {
				pl.stats.GroupsSkippedByBloom++
				ix.byBloom++
			}
		}
		if pl.explain != nil {
			explainGroup(pl.explain, meta.index, g, leaves, tv)
		}
	}
	pl.stats.GroupsSkipped += groups - n
	return ix, sel, nil
}

// maxBloomBuffer is the largest buffer of decompressed bloom filters an
// executor keeps from one stripe to the next.
const maxBloomBuffer = 16 << 20

// seekColumns positions the readers under root at row group g, skipping
// those for which skip returns true (with their subtrees).
func (d *stripeDecoder) seekColumns(ix *stripeIndex, g int, root columnReader, skip func(columnReader) bool) error {
	var pp format.PositionProvider
	var walk func(c columnReader) error
	walk = func(c columnReader) error {
		if skip != nil && skip(c) {
			return nil
		}
		col := c.columnID()
		entries := ix.entries[col]
		if g >= len(entries) {
			return d.ctx.corrupt(col, "ROW_INDEX", "no row index entry for group %d", g)
		}
		pp.Reset(entries[g].GetPositions())
		if err := c.seek(&pp); err != nil {
			return err
		}
		if pp.Remaining() != 0 {
			return d.ctx.corrupt(col, "ROW_INDEX", "row index entry %d has %d positions too many", g, pp.Remaining())
		}
		for _, k := range children(c) {
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root)
}

// explainGroup records one row group's leaf values and decision.
func explainGroup(explain *strings.Builder, stripe, g int, leaves []sarg.TruthValue, tv sarg.TruthValue) {
	decision := "read"
	if !tv.IsNeeded() {
		decision = "skip"
	}
	var parts []string
	for i, l := range leaves {
		parts = append(parts, fmt.Sprintf("leaf%d=%s", i, l))
	}
	fmt.Fprintf(explain, "stripe %d group %d: %s -> %s: %s\n", stripe, g, strings.Join(parts, " "), tv, decision)
}
