package reader

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// planner decides what a scan reads. It evaluates the search argument on
// the stripes' statistics, reads the footers, row indexes and bloom
// filters that pruning needs, plans the row groups that survive and
// issues their reads to the scheduler (ahead of the decoder over a
// network). What it hands a decoder is a plannedStripe; it never decodes
// a row.
type planner struct {
	r         *Reader
	cfg       *scanConfig
	selected  []bool // per file column id
	io        *ioSched
	sarg      *sarg.Bound
	pruneCols []int  // the predicate's columns and the structs above them (pruneColumns)
	deferred  []bool // per file column id: under a field exact filtering decodes late, or nil
	explain   *strings.Builder
	mem       *budget
	buf       buffers
	stats     *ScanStats
	// stripe is the next stripe to consider, ahead the stripes after the
	// current one planned already (planAhead).
	stripe int
	ahead  []*plannedStripe
	// stopAt, when set, is the first stripe whose footer and row indexes
	// the planner does not schedule ahead: a parallel scan's decoders
	// prune the stripe they claim and leave looking ahead to the scan's
	// own planner (parallel.go).
	stopAt int
}

// plannedStripe is the one thing a planner hands a decoder: a stripe (or
// a parallel scan's unit of it) with the row groups to read as runs, the
// byte ranges of every stream they need, and the row indexes the decoder
// seeks by. err is the error planning it met, which its turn returns.
type plannedStripe struct {
	plan *stripePlan
	ix   *stripeIndex
	meta *stripeMeta
	in   planInput
	// index is its row indexes' charge in the memory budget while it is
	// planned ahead; first is set on the plan that starts the stripe
	// (counted in StripesRead), all but a parallel scan's later units.
	index int64
	first bool
	err   error
}

// stripeSource hands a decoder its planned stripes in order: the planner
// of a serial scan, or one claimed unit of a parallel scan (unitSource).
type stripeSource interface {
	// next returns the next planned stripe with rows to read, or io.EOF.
	next() (*plannedStripe, error)
	// done is told when the decoder has finished with a planned stripe.
	done(*plannedStripe)
}

// unitSource is a parallel scan's unit as a stripeSource: its one planned
// stripe, then io.EOF. Its requests are let go by the parallel scan once
// every unit of the stripe is decoded (stripeDone).
type unitSource struct{ ps *plannedStripe }

func (u *unitSource) next() (*plannedStripe, error) {
	ps := u.ps
	if ps == nil {
		return nil, io.EOF
	}
	u.ps = nil
	if ps.err != nil {
		return nil, ps.err
	}
	return ps, nil
}

func (u *unitSource) done(*plannedStripe) {}

// next returns the next stripe with rows to read: one planned ahead, or
// the next the statistics keep, planned now. The stripes after it are
// planned ahead when the scan reads ahead, before the caller waits for
// this one's first bytes.
func (pl *planner) next() (*plannedStripe, error) {
	stripes := len(pl.r.tail.Footer.GetStripes())
	for {
		if len(pl.ahead) > 0 {
			a := pl.ahead[0]
			pl.ahead = pl.ahead[1:]
			if a.err != nil {
				return nil, a.err
			}
			// The stripe before lets go of its indexes: those held are
			// this stripe's and those of the stripes planned after it.
			held := a.index
			for _, b := range pl.ahead {
				held += b.index
			}
			_ = pl.mem.set(&pl.buf.held.index, held, nil)
			pl.planAhead()
			return a, nil
		}
		if pl.stripe >= stripes {
			pl.io.release(-1)
			return nil, io.EOF
		}
		i := pl.stripe
		pl.stripe++
		if !pl.inRange(i) {
			continue
		}
		pl.stats.StripesConsidered++
		if err := pl.mem.set(&pl.buf.held.index, 0, nil); err != nil {
			return nil, err
		}
		ps, err := pl.planStripeAt(i)
		if err != nil {
			return nil, err
		}
		if ps == nil {
			continue
		}
		if len(ps.plan.runs) == 0 {
			pl.stats.StripesSkipped++
			continue
		}
		pl.planAhead()
		return ps, nil
	}
}

// done lets the scheduler drop what it holds of the stripe and those
// before it.
func (pl *planner) done(ps *plannedStripe) { pl.io.release(ps.plan.stripe + 1) }

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
// are counted as a serial scan counts them. Scans recording explain
// (whose stripes are told in order) plan each stripe at its turn.
func (pl *planner) planAhead() {
	if pl.explain != nil || !pl.cfg.readAhead {
		return
	}
	var planned int64
	for _, a := range pl.ahead {
		if a.err != nil {
			return
		}
		planned += a.plan.scheduled
	}
	stripes := len(pl.r.tail.Footer.GetStripes())
	for len(pl.ahead) < maxPlannedAhead && planned < pl.io.cfg.prefetch/4 && pl.stripe < stripes {
		i := pl.stripe
		pl.stripe++
		if !pl.inRange(i) {
			continue
		}
		pl.stats.StripesConsidered++
		before := pl.buf.held.index
		ps, err := pl.planStripeAt(i)
		if err != nil && len(pl.ahead) > 0 && errors.Is(err, orc.ErrLimit) {
			// Its row indexes do not fit beside those planned before it:
			// it is planned at its turn instead.
			pl.stripe = i
			pl.stats.StripesConsidered--
			_ = pl.mem.set(&pl.buf.held.index, before, nil)
			return
		}
		if err != nil {
			pl.ahead = append(pl.ahead, &plannedStripe{err: err})
			return
		}
		if ps == nil {
			continue
		}
		if len(ps.plan.runs) == 0 {
			pl.stats.StripesSkipped++
			_ = pl.mem.set(&pl.buf.held.index, before, nil)
			continue
		}
		ps.index = pl.buf.held.index - before
		pl.ahead = append(pl.ahead, ps)
		planned += ps.plan.scheduled
	}
}

// planStripeAt prunes stripe i with its statistics and row indexes and
// plans it, adding what it reads to the row indexes held. It returns nil
// for a stripe the statistics rule out (counted as skipped), and reads
// nothing but the stripe's footer and the row indexes and bloom filters
// pruning and seeking need.
func (pl *planner) planStripeAt(i int) (*plannedStripe, error) {
	meta, ix, in, err := pl.pruneStripe(i)
	if err != nil || meta == nil {
		return nil, err
	}
	if cols := indexNeeded(in); len(cols) > 0 {
		if err := pl.readIndex(ix, cols, false); err != nil {
			return nil, err
		}
	}
	p, err := planStripe(in)
	if err != nil {
		return nil, err
	}
	if len(p.runs) == 0 {
		pl.doneWithIndex(i)
	}
	reqs := pl.scheduleStripe(p, ix, nil, 1)
	if pl.explain != nil {
		if ix != nil {
			fmt.Fprintf(pl.explain, "stripe %d row groups: effective predicate %s; %d of %d kept\n", i,
				pl.sarg.EffectiveFor(ix.leafDecided), p.kept, p.groups)
		}
		pl.explain.WriteString(indent(p.String()))
		if len(reqs) > 0 {
			mode := "read as the decoder asks (a local file)"
			if pl.cfg.readAhead {
				mode = "read ahead, in this order"
			}
			fmt.Fprintf(pl.explain, "  I/O schedule: %s, %s: %s\n", plural(len(reqs), "request"), mode, strings.Join(reqs, ", "))
		}
	}
	return &plannedStripe{plan: p, ix: ix, meta: meta, in: in, first: true}, nil
}

// pruneStripe evaluates the search argument on stripe i's statistics and,
// when they do not rule it out (a nil meta, counted as skipped), reads its
// footer and the row indexes and bloom filters of the predicate columns,
// and returns what planStripe decides from, with the row groups kept.
func (pl *planner) pruneStripe(i int) (*stripeMeta, *stripeIndex, planInput, error) {
	r := pl.r
	if pl.sarg != nil && r.HasStripeStatistics() {
		src := &levelSource{r: r, stripe: i}
		tv := pl.sarg.Evaluate(src)
		if pl.explain != nil {
			fmt.Fprintf(pl.explain, "stripe %d statistics:\n%s", i, indent(pl.sarg.Explain(src)))
		}
		if !tv.IsNeeded() {
			pl.stats.StripesSkipped++
			pl.stats.StripesPruned++
			return nil, nil, planInput{}, nil
		}
	}
	if pl.cfg.readAhead {
		pl.scheduleFooter(i) // with the next ones: in flight together
	}
	meta, err := pl.stripeMetaFor(i)
	if err != nil {
		return nil, nil, planInput{}, err
	}
	if pl.cfg.readAhead {
		// The footer's read may have shown the network: the next
		// footers come with this stripe's index read.
		pl.noteIndexShare(meta)
		pl.scheduleFooter(i + 1)
	}
	in := planInput{meta: meta, schema: r.tail.Schema, cols: r.cols, version: r.tail.Version, selected: pl.selected,
		compressed: r.tail.Compression != orc.CompressionNone, blockSize: r.tail.BlockSize,
		stride: int64(r.RowIndexStride()), window: pl.cfg.window, gap: pl.cfg.dataGap(r.onDisk)}
	in.deferred = pl.deferred
	var ix *stripeIndex
	if pl.sarg == nil || meta.info.NumRows > 0 {
		// The next stripes' row indexes, to prune their row groups or to
		// cut a parallel scan's stripes into chunks (it checks indexFirst).
		pl.scheduleIndexAhead(i)
	}
	if pl.sarg != nil && r.RowIndexStride() > 0 && meta.info.NumRows > 0 {
		if ix, in.sel, err = pl.pruneGroups(meta); err != nil {
			return nil, nil, planInput{}, err
		}
		in.entries = ix.entries
	}
	if keep := pl.cfg.test.keepGroups; keep != nil && r.RowIndexStride() > 0 && meta.info.NumRows > 0 {
		if ix == nil {
			ix = newStripeIndex(r, meta)
			in.entries = ix.entries
		}
		hook := rowSelection{n: meta.info.NumRows}
		for g := range ix.groups {
			if keep(i, g) {
				hook = hook.with(int64(g)*in.stride, min(int64(g+1)*in.stride, hook.n))
			}
		}
		if in.sel.given() {
			hook = hook.intersect(in.sel)
		}
		in.sel = hook
	}
	return meta, ix, in, nil
}

// planLate reads the row indexes of the late columns the plan of ps left
// pending and plans their streams (planDeferred), at their first match in
// the stripe: a stripe whose kept row groups hold no matching row never
// reads them. It returns the columns that cannot seek (nil: all can).
func (pl *planner) planLate(ps *plannedStripe) ([]bool, error) {
	p := ps.plan
	if len(p.pending) == 0 {
		return nil, nil
	}
	if err := pl.readIndex(ps.ix, p.pending, false); err != nil {
		return nil, err
	}
	ps.in.entries = ps.ix.entries
	noSeek, err := planDeferred(ps.in, p)
	if err != nil {
		return nil, err
	}
	if pl.explain != nil {
		fmt.Fprintf(pl.explain, "stripe %d deferred columns planned at their first match:\n%s", p.stripe, indent(p.String()))
	}
	return noSeek, nil
}

// releaseBytes gives back the buffers the planner holds once the scan is
// over.
func (pl *planner) releaseBytes() {
	putBuf(pl.buf.scratch)
	pl.buf.scratch = nil
	pl.buf.bufs.release()
	_ = pl.mem.set(&pl.buf.held.scratch, 0, nil)
}
