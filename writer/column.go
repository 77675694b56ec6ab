package writer

// Column writers form a tree mirroring the schema. Each encodes its values
// into in-memory streams for the current stripe, keeps statistics at row
// group, stripe and file level, an optional bloom filter per row group, and
// the row index: at the start of every row group it records the position of
// each of its streams.
//
// A column's streams hold values only for rows whose ancestors are not null;
// writers receive the parent's null mask and skip those rows entirely.
//
// PRESENT bits are held back while every value of the stripe so far is
// present (most columns, most stripes): the writer only counts them, and
// notes the count at the start of each row group. A stripe without nulls
// has no PRESENT stream, so nothing is lost; at the first null the held
// bits are written and each row group's PRESENT position is put in front
// of its row index entry.

import (
	"slices"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
	"google.golang.org/protobuf/encoding/protowire"
)

// columnWriter encodes one column of the schema.
type columnWriter interface {
	// write appends rows [start, end) of v. parentNulls, when not nil, has
	// end-start entries (row i at i-start) marking rows whose parent is null.
	write(v orc.Vector, start, end int, parentNulls []bool) error
	// base returns the state shared by all column writers.
	base() *colBase
	// children returns the writers of the column's children: struct
	// fields, list element, map key and value, union variants.
	children() []columnWriter
	// ownStream returns the column's stream i after PRESENT, in writing
	// order, and false past the last (streams.go). The list is given by
	// a method rather than kept in each column writer, whose slice and
	// array of it took 56 bytes.
	ownStream(i int) (encStream, bool)
	// appendPositions appends the positions of the column's streams, in
	// the order the specification fixes, PRESENT first.
	appendPositions(dst []uint64) []uint64
	// endRuns ends the runs of the encoders and the compression chunks of
	// the column's positioned streams (WithAlignedRowGroups), so that the
	// positions recorded next fall on run and chunk starts. Streams whose
	// values are held back (PRESENT before the stripe's first null,
	// dictionary ids) are aligned when they are written.
	endRuns() error
	// finishStripe flushes encoders into the column's streams.
	finishStripe() error
	// appendDataStreams appends the column's data streams to dst in
	// writing order. Into the writer's scratch: a list made for each
	// column at every stripe's end was 32 bytes of garbage a column.
	appendDataStreams(dst []stream) []stream
	// encoding returns the column's encoding in the finished stripe.
	encoding() *orcpb.ColumnEncoding
	// resetStripe prepares for the next stripe.
	resetStripe()
	// estimate adds to h the bytes the column holds for the stripe: its
	// streams (holding.addStream), a dictionary, values held in encoders
	// (at the size they will take).
	estimate(h *holding)
}

// stream is a named output stream of a column.
type stream struct {
	kind orcpb.Stream_Kind
	out  *format.OutStream
}

// colBase is embedded in every column writer.
type colBase struct {
	w    *Writer
	node *orc.Schema

	// pending is the present values not written to PRESENT yet, while
	// the stripe has no null; -1 once it has one, and PRESENT is written
	// (hasNull).
	pending int
	rare    *colRare

	// group, stripe and file are the column's statistics. stripe is nil
	// until the stripe's first row group ends and from the stripe's end
	// (addStripeStats), file until the first stripe ends: a writer of
	// one stripe of one row group keeps one accumulator a column while it
	// writes, and two as it writes the stripe.
	group, stripe, file *stats.Accumulator
	// The column's row index entries are in the writer's table (entry):
	// their positions are pieces of colRare.posBuf, which is kept from
	// stripe to stripe, or all 0 (zeroEntry).
}

// colRare is what a column keeps once it needs it (colBase.rareState):
// for nulls, for a bloom filter and its entries, and for row index
// positions that are not all 0. A writer of a wide
// schema has a column writer a column, mostly without nulls or bloom
// filters; within colBase these took 64 bytes of each.
type colRare struct {
	presentOut *format.OutStream      // nil until the stripe's first null (startPresent)
	present    *format.BoolRLEEncoder // nil until the column's first null, then reused
	bloom      *bloomfilter.Filter    // WithBloomFilterColumns (colBase.bloomFilter)
	nulls      []bool                 // scratch
	longs      []int64                // scratch: an integer column's values in rows with one
	blooms     []*orcpb.BloomFilter   // the stripe's bloom filters so far
	// posBuf holds the positions of the row index entries (rowEntry) that
	// are not all 0: in colRare, as a wide file of a row group a stripe
	// has none (zeroEntry), and its 24 bytes made an integer column's
	// writer 144 bytes, not 128.
	posBuf []uint64
}

// hasNull reports whether some value in the stripe is null: PRESENT is
// written.
func (b *colBase) hasNull() bool { return b.pending < 0 }

// rareState returns the column's colRare, making it at the first call.
func (b *colBase) rareState() *colRare {
	if b.rare == nil {
		b.rare = new(colRare)
	}
	return b.rare
}

// bloomFilter returns the column's bloom filter, or nil.
func (b *colBase) bloomFilter() *bloomfilter.Filter {
	if b.rare == nil {
		return nil
	}
	return b.rare.bloom
}

// presentStreamOut returns the stripe's PRESENT stream, or nil before its
// first null.
func (b *colBase) presentStreamOut() *format.OutStream {
	if b.rare == nil {
		return nil
	}
	return b.rare.presentOut
}

// newStream returns a stream compressed with the column's compressor.
func (b *colBase) newStream() *format.OutStream {
	if b.w.pipe != nil {
		return b.w.pipe.NewStream(b.w.pool)
	}
	return format.NewPooledOutStream(b.w.cfg.compression, b.w.cfg.blockSize, b.w.compFor(b.node), b.w.pool)
}

func (w *Writer) newBase(node *orc.Schema) colBase {
	return colBase{w: w, node: node, group: stats.NewAccumulator(node)}
}

// addStripeStats merges the ended stripe's statistics into the file's,
// leaving stripe nil. The first stripe's accumulator becomes the file's
// (merged into an empty one, it would be copied whole): a file of one
// stripe, as one of a wide schema often is, keeps two accumulators a
// column rather than three.
func (b *colBase) addStripeStats() {
	if b.file == nil {
		b.file = b.stripe
	} else {
		b.file.Merge(b.stripe)
	}
	b.stripe = nil
}

// stripeStats returns the stripe's statistics so far, making its
// accumulator at the first call in the stripe.
func (b *colBase) stripeStats() *stats.Accumulator {
	if b.stripe == nil {
		b.stripe = stats.NewAccumulator(b.node)
	}
	return b.stripe
}

// fileStats returns the file's statistics so far.
func (b *colBase) fileStats() *stats.Accumulator {
	if b.file == nil {
		return stats.NewAccumulator(b.node)
	}
	return b.file
}

func (b *colBase) base() *colBase { return b }

// children returns nil: a leaf column has none. The writers of compound
// columns keep theirs; a column writer of a wide schema's leaf spared 24
// bytes.
func (b *colBase) children() []columnWriter { return nil }

// presentPositions appends the PRESENT stream's position, or, while the
// stripe has no null, notes where the row group starts for later.
func (b *colBase) presentPositions(dst []uint64) []uint64 {
	if !b.hasNull() {
		return dst // startGroupSelf notes pending in the entry
	}
	return b.appendPresentPosition(dst)
}

func (b *colBase) appendPresentPosition(dst []uint64) []uint64 {
	return appendStream(dst, format.PresentPositions.Codec, b.rare.presentOut, b.rare.present)
}

// startPresent is called at the stripe's first null: it writes the held
// present bits and puts each row group's PRESENT position in front of its
// row index entry (entry k started at its at), aligning each
// group as endPresentRuns would have. Errors stay in the encoder and stream,
// which return them at the stripe's end.
func (b *colBase) startPresent() {
	// PRESENT's stream and encoder are made here, not with the column: a
	// wide schema's columns mostly have no null, and each took some 800
	// bytes for them.
	r := b.rareState()
	r.presentOut = b.newStream()
	if r.present == nil {
		r.present = format.NewBoolRLEEncoder(r.presentOut)
	} else {
		r.present.Reset(r.presentOut)
	}
	written := 0
	for k := range b.numEntries() {
		e := b.entry(k)
		for ; written < e.at; written++ {
			r.present.Write(true)
		}
		if b.w.cfg.aligned {
			b.alignPresent()
		}
		b.changePos(e, func(dst []uint64) []uint64 {
			dst = b.appendPresentPosition(dst)
			return append(dst, b.entryPos(e)...)
		})
	}
	for ; written < b.pending; written++ {
		r.present.Write(true)
	}
	b.pending = -1 // hasNull
}

// endPresentRuns ends PRESENT's byte run and chunk, once the stripe has a
// PRESENT stream (before, startPresent aligns the held bits).
func (b *colBase) endPresentRuns() error {
	if !b.hasNull() {
		return nil
	}
	return b.alignPresent()
}

func (b *colBase) alignPresent() error {
	if err := b.rare.present.FlushBytes(); err != nil {
		return err
	}
	return b.rare.presentOut.Flush()
}

// flushAll ends the runs of encs and then the chunks of outs, in that order
// (an encoder's last run must be in its stream before the chunk ends).
func flushAll(encs []format.IntEncoder, outs ...*format.OutStream) error {
	for _, e := range encs {
		if err := e.Flush(); err != nil {
			return err
		}
	}
	for _, o := range outs {
		if err := o.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// writeNulls writes the PRESENT bits of rows [start, end) that are not
// under a null parent, records nulls in the statistics, and returns the
// rows' combined null mask (nil when no row in the range is null or
// skipped) and how many rows have a value.
func (b *colBase) writeNulls(nulls []bool, start, end int, parentNulls []bool) ([]bool, int) {
	if len(nulls) == 0 && parentNulls == nil {
		if !b.hasNull() {
			b.pending += end - start
			return nil, end - start
		}
		for i := start; i < end; i++ {
			b.rare.present.Write(true)
		}
		return nil, end - start
	}
	r := b.rareState()
	r.nulls = grow(r.nulls, end-start)
	k := 0
	for i := start; i < end; i++ {
		skip := parentNulls != nil && parentNulls[i-start]
		isNull := skip || len(nulls) > 0 && nulls[i]
		r.nulls[i-start] = isNull
		if skip {
			continue
		}
		if isNull {
			if !b.hasNull() {
				b.startPresent()
			}
			r.present.Write(false)
			b.group.AddNull()
		} else {
			if b.hasNull() {
				r.present.Write(true)
			} else {
				b.pending++
			}
			k++
		}
	}
	if k == end-start {
		return nil, k
	}
	return r.nulls[:end-start], k
}

// startGroup records the positions of a new row group, first ending every
// run and chunk when row groups are aligned.
func startGroup(c columnWriter) error {
	if err := startGroupSelf(c); err != nil {
		return err
	}
	for _, k := range c.children() {
		if err := startGroup(k); err != nil {
			return err
		}
	}
	return nil
}

// startGroupSelf is startGroup for c alone, not its descendants.
func startGroupSelf(c columnWriter) error {
	b := c.base()
	if b.w.cfg.aligned {
		if err := c.endRuns(); err != nil {
			return err
		}
	}
	e := rowEntry{at: b.pending}
	if w := b.w; w.par == nil {
		w.posScratch = c.appendPositions(w.posScratch[:0])
		b.setPos(&e, w.posScratch)
	} else {
		r := b.rareState()
		at := len(r.posBuf)
		r.posBuf = c.appendPositions(r.posBuf)
		e.lo, e.hi = int32(at), int32(len(r.posBuf))
	}
	*b.entry(b.numEntries() - 1) = e
	return nil
}

// numEntries returns how many row index entries the column has in the
// stripe: one for each row group started (Writer.startRowGroup).
func (b *colBase) numEntries() int { return b.w.groups }

// entry returns the column's row index entry of the stripe's row group k.
func (b *colBase) entry(k int) *rowEntry {
	return &b.w.rowTable[k*len(b.w.cols)+b.node.ID()]
}

// zeroEntry is rowEntry.lo for an entry of hi positions, all 0, kept in
// no posBuf. A stripe's first row group has such positions in every
// column (without a pipeline, whose positions Settle resolves in place):
// a file of many columns and a row group a stripe kept a posBuf of 32
// bytes a column for them.
const zeroEntry = -1

// zeros are the positions of zeroEntry entries (a column has at most 9).
var zeros [16]uint64

func allZero(pos []uint64) bool {
	for _, p := range pos {
		if p != 0 {
			return false
		}
	}
	return true
}

// rowEntry is a row index entry of the open stripe: its positions (a
// column has at most 9: PRESENT 3, then up to 3 for each of two more
// streams), posBuf[lo:hi], and, once its row group has ended, its
// statistics as proto.Marshal encodes them. A change to the positions
// (PRESENT's put in front, a dictionary column's data positions added)
// appends them anew to posBuf (changePos). While the stripe has no null,
// at is the present values before the group (pending at its start), for
// startPresent. As a message each, allocated with room for 12 positions,
// an entry took 176 bytes, and its statistics' slice 24 more, in files of
// many columns; with its positions as a slice of their own, and a slice
// of its pending counts beside the entries, 88 bytes, now 48.
type rowEntry struct {
	lo, hi int32
	at     int
	stats  []byte
}

// entryPos returns e's positions, not to be changed in place but for a
// writer with a pipeline's (Writer.settlePipeline), which has no
// zeroEntry.
func (b *colBase) entryPos(e *rowEntry) []uint64 {
	if e.lo == zeroEntry {
		return zeros[:e.hi:e.hi]
	}
	return b.rare.posBuf[e.lo:e.hi:e.hi]
}

// changePos makes e's positions those fn appends. A serial writer takes
// them into its scratch first (setPos).
func (b *colBase) changePos(e *rowEntry, fn func(dst []uint64) []uint64) {
	if w := b.w; w.par == nil {
		w.posScratch = fn(w.posScratch[:0])
		b.setPos(e, w.posScratch)
		return
	}
	r := b.rareState()
	at := len(r.posBuf)
	r.posBuf = fn(r.posBuf)
	e.lo, e.hi = int32(at), int32(len(r.posBuf))
}

// setPos makes e's positions pos, which a serial writer took into its
// scratch: when all are 0 (a stripe's first row group, streams still
// empty), the entry notes only how many (zeroEntry); otherwise they are
// appended to posBuf.
func (b *colBase) setPos(e *rowEntry, pos []uint64) {
	if allZero(pos) {
		e.lo, e.hi = zeroEntry, int32(len(pos))
		return
	}
	r := b.rareState()
	e.lo, e.hi = int32(len(r.posBuf)), int32(len(r.posBuf)+len(pos))
	r.posBuf = append(r.posBuf, pos...)
}

// finishGroup closes the current row group's statistics and bloom filter,
// of c and its descendants.
func finishGroup(c columnWriter) {
	finishGroupSelf(c)
	for _, k := range c.children() {
		finishGroup(k)
	}
}

// finishGroupSelf is finishGroup for c alone.
func finishGroupSelf(c columnWriter) {
	b := c.base()
	if n := b.numEntries(); n > 0 {
		// Statistics messages hold numbers and valid UTF-8 bounds only:
		// proto.Marshal does not fail on them.
		switch {
		case b.stripe == nil:
			// The group's accumulator becomes the stripe's, below:
			// its statistics are encoded from it when the index is
			// written, unless a second group changes it first.
			b.entry(n - 1).stats = stripeStatsMark[:0]
		case n == 2 && isStripeStats(b.entry(0)):
			b.entry(0).stats, _ = b.stripe.Marshal()
			fallthrough
		default:
			b.entry(n - 1).stats, _ = b.group.Marshal()
		}
	}
	if b.stripe == nil {
		// The stripe's first row group: its accumulator becomes the
		// stripe's, as merging it into an empty one would copy it. At
		// Close the column writes no more rows and takes no new one: a
		// file of one row group a column held two accumulators a column
		// while it wrote its last stripe.
		b.stripe = b.group
		b.group = nil
		if !b.w.closing {
			b.group = stats.NewAccumulator(b.node)
		}
	} else {
		b.stripe.Merge(b.group)
		b.group.Reset()
	}
	if bf := b.bloomFilter(); bf != nil {
		r := b.rare
		r.blooms = append(r.blooms, bf.Proto())
		bf.Reset()
	}
}

// appendRowIndex appends to out the stripe's row index of the column,
// encoded as proto.Marshal encodes a RowIndex. Its entries hold PRESENT
// positions exactly when the stripe has a PRESENT stream.
func (b *colBase) appendRowIndex(out []byte) []byte {
	for k := range b.numEntries() {
		e := b.entry(k)
		pos := b.entryPos(e)
		np := 0 // the packed positions' bytes
		for _, p := range pos {
			np += protowire.SizeVarint(p)
		}
		n := 0
		if np > 0 {
			n += protowire.SizeTag(rowIndexEntryPositions) + protowire.SizeBytes(np)
		}
		st := e.stats
		if isStripeStats(e) {
			st = b.w.stripeEntryStats(b.stripe)
		}
		if st != nil {
			n += protowire.SizeTag(rowIndexEntryStatistics) + protowire.SizeBytes(len(st))
		}
		out = protowire.AppendTag(out, rowIndexEntry, protowire.BytesType)
		out = protowire.AppendVarint(out, uint64(n))
		if np > 0 {
			out = protowire.AppendTag(out, rowIndexEntryPositions, protowire.BytesType)
			out = protowire.AppendVarint(out, uint64(np))
			for _, p := range pos {
				out = protowire.AppendVarint(out, p)
			}
		}
		if st != nil {
			out = protowire.AppendTag(out, rowIndexEntryStatistics, protowire.BytesType)
			out = protowire.AppendBytes(out, st)
		}
	}
	return out
}

// stripeStatsMark marks the statistics of a row index entry that are the
// stripe's (isStripeStats): a stripe's first row group, while it is the
// only one. A file of many columns and a row group a stripe kept each
// column's encoded twice, an array of 24 to 32 bytes a column more.
var stripeStatsMark [1]byte

// isStripeStats reports whether e's statistics are the stripe's.
func isStripeStats(e *rowEntry) bool {
	return cap(e.stats) == 1 && &e.stats[:1][0] == &stripeStatsMark[0]
}

// stripeEntryStats returns a's statistics encoded as Accumulator.Marshal
// encodes them, in the writer's scratch.
func (w *Writer) stripeEntryStats(a *stats.Accumulator) []byte {
	st, _ := a.AppendProto(w.statsScratch[:0])
	w.statsScratch = st
	if len(st) == 0 {
		st, _ = a.Marshal() // nil or empty, as Marshal has it
	}
	return st
}

// The field numbers of RowIndex.entry, RowIndexEntry.positions (packed)
// and RowIndexEntry.statistics, which rowIndex writes as proto.Marshal
// would.
const (
	rowIndexEntry           protowire.Number = 1
	rowIndexEntryPositions  protowire.Number = 1
	rowIndexEntryStatistics protowire.Number = 2
)

// dropEntries empties the positions of the stripe's row index once it is
// written, keeping the room of posBuf for the next stripe's unless last.
// (The entries are the writer's: Writer.dropRowTable.)
func (b *colBase) dropEntries(last bool) {
	if b.rare == nil {
		return
	}
	if last {
		b.rare.posBuf = nil
		return
	}
	b.rare.posBuf = b.rare.posBuf[:0]
}

// startRowGroup adds a row index entry for every column to the stripe's
// table, which their startGroupSelf fill: on the calling goroutine, before
// the columns start the group (on goroutines of their own with
// WithParallelism, each writing its column's entries only). The table
// holds the stripe's entries by row group and then column id: a column
// writer of a wide schema held a slice of them, 24 bytes, and an array
// of 48 bytes for its one entry.
func (w *Writer) startRowGroup() {
	n := len(w.rowTable)
	w.rowTable = slices.Grow(w.rowTable, len(w.cols))[:n+len(w.cols)]
	clear(w.rowTable[n:])
	w.groups++
}

// dropRowTable empties the stripe's row index table once it is written,
// keeping its room for the next stripe's unless last.
func (w *Writer) dropRowTable(last bool) {
	w.groups = 0
	if last {
		w.rowTable = nil
		return
	}
	clear(w.rowTable) // the statistics
	w.rowTable = w.rowTable[:0]
}

// resetBase prepares the shared state for the next stripe.
func (b *colBase) resetBase() {
	if r := b.rare; r != nil {
		r.presentOut = nil // startPresent makes the next stripe's (see holding.addStream)
		r.blooms = nil
	}
	b.pending = 0
	if b.stripe != nil {
		b.stripe.Reset()
	}
	b.dropEntries(false)
}

// appendPresentStream appends the PRESENT stream to dst when the stripe
// has nulls.
func (b *colBase) appendPresentStream(dst []stream) []stream {
	if !b.hasNull() {
		return dst
	}
	return append(dst, stream{orcpb.Stream_PRESENT, b.rare.presentOut})
}

// held adds to h the bytes held by the PRESENT stream and the given
// streams.
func (b *colBase) held(h *holding, outs ...*format.OutStream) {
	if out := b.presentStreamOut(); out != nil {
		h.addStream(out)
	}
	for _, s := range outs {
		h.addStream(s)
	}
}

func (b *colBase) finishPresent() error {
	out := b.presentStreamOut()
	if out == nil {
		return nil
	}
	if err := b.rare.present.Flush(); err != nil {
		return err
	}
	return out.Finish()
}

func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)[:n]
}

// direct and directV2 return the encodings DIRECT and DIRECT_V2, one
// message each for every column: not to be changed (a column with a bloom
// filter changes a copy). Made for each column, they were 64 bytes of
// garbage a column at every stripe's end.
func direct() *orcpb.ColumnEncoding { return encDirect }

func directV2() *orcpb.ColumnEncoding { return encDirectV2 }

var (
	encDirect   = &orcpb.ColumnEncoding{Kind: orcpb.ColumnEncoding_DIRECT.Enum()}
	encDirectV2 = &orcpb.ColumnEncoding{Kind: orcpb.ColumnEncoding_DIRECT_V2.Enum()}
)
