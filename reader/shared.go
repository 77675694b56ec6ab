package reader

import (
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc/format/orcpb"
)

// A parallel scan prunes each stripe once for all its decoders, in two
// halves. The stage evaluates the stripe's statistics, reads its footer
// (and the row indexes and bloom filters group pruning needs) and, when
// the data's bytes do not depend on how the stripe is cut, schedules them:
// every row group is read and the stripe is cut (with the row indexes the
// cut reads, in the same requests), or it is one chunk that seeks by no
// row index. The cut then reads the row indexes the cut needs, cuts the
// stripe into chunks (splitStripe) and schedules the data the stage did
// not. Over a network, the scan's planner stages the stripes after one a
// decoder prunes before either waits for a row index (aheadPlanner), so
// their data goes out in the same round trip as that stripe's, as a
// serial scan's does.
//
// The row indexes either half reads are charged to the stripe (charge)
// until every chunk of it is decoded, not to the planner reading them.

// sharedStripe is one stripe's pruning, done once for all decoders, and
// how it is cut into chunks.
type sharedStripe struct {
	// staging and cutting run the two halves of its pruning, each once,
	// by whoever gets there first.
	staging, cutting sync.Once
	err              error
	meta             *stripeMeta // nil: the stripe is skipped
	ix               *stripeIndex
	in               *planInput // for the whole stripe, with the kept groups
	chunks           []groupRun
	k                int   // row groups per chunk; 0: one chunk, the whole stripe
	charge           int64 // its row indexes' bytes in the memory budget
	// scheduled is the bytes its data's requests were scheduled with;
	// sched is set when its stage scheduled them.
	scheduled int64
	sched     bool
	// claimed: a decoder or the planner has asked to prune it; ahead: the
	// planner has, staging it ahead; staged and pruned: the halves of its
	// pruning are done.
	claimed, ahead, staged, pruned atomic.Bool
	// left counts the chunks not decoded yet (set when its first chunk is
	// claimed); done is set once none is (under parallel.mu).
	left atomic.Int32
	done bool
}

// claim reports whether the caller is the first to ask to prune the
// stripe (the one that will, unless the planner or a decoder calling
// prune without a claim gets there first).
func (ss *sharedStripe) claim() bool { return ss.claimed.CompareAndSwap(false, true) }

// stage runs the first half of stripe s's pruning for n decoders with
// planner pl unless it has run, or waits for whoever is running it.
func (ss *sharedStripe) stage(pl *planner, s, n int) {
	ss.staging.Do(func() {
		ss.err = ss.stageWith(pl, s, n)
		ss.staged.Store(true)
	})
}

// cut runs the second half, after the first, likewise.
func (ss *sharedStripe) cut(pl *planner, n int) {
	ss.cutting.Do(func() {
		if ss.err == nil && ss.meta != nil {
			ss.err = ss.cutWith(pl, n)
		}
		ss.pruned.Store(true)
	})
}

// stageWith is the stage of stripe s with pl's readers.
func (ss *sharedStripe) stageWith(pl *planner, s, n int) (err error) {
	defer ss.chargeIndex(pl)()
	pl.stats.StripesConsidered++
	meta, ix, in, err := pl.pruneStripe(s)
	if err != nil || meta == nil {
		return err
	}
	if in.sel.given() && in.sel.none() {
		pl.stats.StripesSkipped++
		pl.doneWithIndex(s)
		return nil
	}
	ss.meta, ss.ix, ss.in = meta, ix, &in
	ss.chunks = []groupRun{{0, 1}}
	if !ss.cuts(pl, n) {
		if in.stride <= 0 || meta.info.NumRows <= in.stride || ix == nil || len(indexNeeded(in)) == 0 {
			// One chunk, seeking by no row index: read as it is.
			ss.sched = true
			return ss.schedule(pl, nil, 1)
		}
		return nil
	}
	if in.sel.given() && !in.sel.all() || !pl.cfg.readAhead {
		return nil
	}
	// Every group is read: the stripe's data is scheduled now, with the
	// row indexes the chunks seek by, which so come in the same requests.
	var idx []span
	for _, col := range selectedCols(in.selected) {
		if l, ok := meta.stream(col, orcpb.Stream_ROW_INDEX); ok {
			idx = append(idx, span{off: l.offset, n: l.length})
		}
	}
	// The chunks, each reading the streams read whole, are about as many
	// as the first cut splitStripe tries makes.
	k0 := max(chunkGroups(pl.r, pl.selected, pl.cfg), 1)
	groups := int((meta.info.NumRows + in.stride - 1) / in.stride)
	ss.sched = true
	return ss.schedule(pl, idx, (groups+k0-1)/k0)
}

// cutWith is the cut with pl's readers.
func (ss *sharedStripe) cutWith(pl *planner, n int) (err error) {
	defer ss.chargeIndex(pl)()
	if ss.cuts(pl, n) {
		err = ss.split(pl, n)
	} else if !ss.sched {
		// One chunk: no trial plans, only the row indexes a serial
		// scan's plan would read to seek (the deferred columns' are
		// read at a match, if any).
		err = pl.readIndex(ss.ix, indexNeeded(*ss.in), false)
	}
	if err == nil && !ss.sched {
		// Each chunk's decoder reads the streams read whole.
		err = ss.schedule(pl, nil, len(ss.chunks))
	}
	return err
}

// chargeIndex moves the row indexes pl reads from now until the function
// it returns is called from pl's charge to the stripe's.
func (ss *sharedStripe) chargeIndex(pl *planner) func() {
	before := pl.buf.held.index
	return func() {
		ss.charge += pl.buf.held.index - before
		pl.buf.held.index = before
	}
}

// cuts reports whether the stripe, staged, may be cut into chunks for n
// decoders: it holds more than one row group, and more than a chunk of
// them for each decoder (splitStripe).
func (ss *sharedStripe) cuts(pl *planner, n int) bool {
	in := ss.in
	if in.stride <= 0 || ss.meta.info.NumRows <= in.stride {
		return false
	}
	sel := in.sel
	if !sel.given() {
		sel = selectAll(ss.meta.info.NumRows)
	}
	return sel.groups(in.stride) > n*chunkGroups(pl.r, pl.selected, pl.cfg)
}

// split reads every selected column's row index (the deferred columns'
// too, which each decoder would otherwise read for itself to seek to its
// chunks) and cuts the stripe into chunks when splitStripe finds a cut
// that pays.
func (ss *sharedStripe) split(pl *planner, n int) error {
	meta, ix, in := ss.meta, ss.ix, *ss.in
	// The trial plans need every eager column's row index.
	tix := ix
	if tix == nil {
		tix = newStripeIndex(pl.r, meta)
	}
	tin := in
	tin.entries = tix.entries
	tin.streams = &streamIndexes{}
	if !tin.sel.given() {
		tin.sel = selectAll(meta.info.NumRows)
	}
	if err := pl.readIndex(tix, selectedCols(in.selected), false); err != nil {
		return err
	}
	chunks, k, err := splitStripe(tin, n, chunkGroups(pl.r, pl.selected, pl.cfg))
	if err != nil || chunks == nil {
		return err
	}
	ss.ix, ss.in, ss.chunks, ss.k = tix, &tin, chunks, k
	return nil
}

// schedule schedules the stripe's data for the decoders that share it:
// the plan of the whole stripe's kept row groups, which their plans for
// their chunks divide, with the extra spans; readers is how many decoders
// read the streams read whole.
func (ss *sharedStripe) schedule(pl *planner, extra []span, readers int) error {
	p, err := planStripe(*ss.in)
	if err != nil {
		return err
	}
	pl.scheduleStripe(p, ss.ix, extra, readers)
	ss.scheduled = p.scheduled
	return nil
}

// selectedCols returns the ids of the columns selected.
func selectedCols(selected []bool) []int {
	var cols []int
	for col, sel := range selected {
		if sel {
			cols = append(cols, col)
		}
	}
	return cols
}
