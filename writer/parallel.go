package writer

// Column-parallel writing (WithParallelism). Compressed streams hand their
// full chunks to a format.Pipeline, whose n workers compress them while
// the fields go on encoding, across Write calls: a stripe's chunks are
// stored, and its row index positions resolved, at its end
// (settlePipeline). The groups below then only encode; without a pipeline
// (blocks under 1 KiB) each group compresses with a compressor of its own.
//
// The root struct's fields are run in one of two ways. Where a field
// may move between goroutines from one Write to the next (a pipeline
// compresses the chunks, or nothing is compressed), the goroutines of a
// fanout.Team, Write's own and helpers kept between Writes, claim the
// fields one at a time, the costliest first (claimFields): whichever
// goroutine is free takes the next, so the work splits evenly however the
// costs move, and a helper waiting for the next Write spins rather than
// sleeps, so a small batch does not pay for waking a thread. A field's
// cost is the time its writes took in the stripe so far (at every row
// group's end), or in the last stripe, or a guess from its types before
// the first has been measured. Otherwise each goroutine compresses with a
// compressor of its own, which the streams of its fields are created
// with: the fields are dealt into groups, the costliest first, each to
// the group with the least cost so far (the lesser of the last two
// stripes' times: a busy machine inflates one stripe's times now and
// then), and each group runs on a goroutine of its own (the first on
// Write's), dealt again only between stripes, when every stream is
// created anew. Either way, Write waits for the fields: their row-group
// starts and ends, where chunks are compressed, and at a stripe's end
// their last chunks and dictionaries, as well as the writes themselves.
// Nothing is shared between fields while they write: each has its own
// encoders, statistics, bloom filters and streams.

import (
	"cmp"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/internal/fanout"
)

// minPipelineBlock is the smallest compression block for which chunks are
// compressed on a pipeline (format.NewPipeline's lower bound).
const minPipelineBlock = 1 << 10

// fieldGroups is the state of column-parallel writing.
type fieldGroups struct {
	comps []format.Compressor // per group; comps[0] is the writer's own
	group []int               // per root field
	runs  []groupRun          // per group, runGroups' results
	cost  []float64           // redeal's scratch

	// nanos and prevNanos are the time each root field spent writing in
	// the stripe and in the one before.
	nanos, prevNanos []int64

	// Where the fields may move between goroutines (a pipeline compresses
	// the chunks, or nothing does), each run's goroutines claim them one
	// at a time in order, the costliest first, rather than by group.
	mobile bool
	order  []int        // the root's fields, costliest first
	next   atomic.Int32 // the next entry of order to claim
	team   *fanout.Team
}

// setupParallel prepares column-parallel writing when it is asked for and
// the root is a struct of at least two fields.
func (w *Writer) setupParallel() error {
	sw, ok := w.root.(*structWriter)
	if !ok || w.cfg.parallel < 2 || len(sw.fields) < 2 {
		return nil
	}
	n := min(w.cfg.parallel, len(sw.fields))
	fg := &fieldGroups{comps: make([]format.Compressor, n), group: make([]int, len(sw.fields)), runs: make([]groupRun, n),
		nanos: make([]int64, len(sw.fields)), prevNanos: make([]int64, len(sw.fields))}
	fg.comps[0] = w.comp
	if w.cfg.compression != orc.CompressionNone && w.cfg.blockSize >= minPipelineBlock {
		// Chunks are compressed by the pipeline's n workers, apart
		// from the encoding, so the groups need no compressors.
		p, err := format.NewPipeline(w.cfg.compression, w.cfg.level, w.cfg.blockSize, n, w.comp)
		if err != nil {
			return err
		}
		w.pipe = p
		for g := 1; g < n; g++ {
			fg.comps[g] = w.comp
		}
	} else if w.cfg.compression != orc.CompressionNone {
		for g := 1; g < n; g++ {
			c, err := format.NewBlockCompressor(w.cfg.compression, w.cfg.level, w.cfg.blockSize)
			if err != nil {
				return err
			}
			fg.comps[g] = c
		}
	}
	fg.mobile = w.pipe != nil || w.cfg.compression == orc.CompressionNone
	fg.order = make([]int, len(sw.fields))
	fg.team = fanout.NewTeam(n)
	w.par = fg
	w.sink = &stripeSink{pool: w.pool}
	w.dealFields()
	return nil
}

// dealFields assigns the root's fields to groups and gives every column
// its group's compressor. Call it only where the columns' streams are
// created next (before resetStripe).
func (w *Writer) dealFields() {
	fg := w.par
	if fg == nil {
		return
	}
	sw := w.root.(*structWriter)
	cost := make([]float64, len(sw.fields))
	timed := true
	for i := range sw.fields {
		cost[i] = float64(fg.nanos[i])
		if fg.prevNanos[i] > 0 {
			// The lesser of the last two stripes' times: on a busy
			// machine a goroutine descheduled for a while makes its
			// fields look costlier than they are, for one stripe.
			cost[i] = float64(min(fg.nanos[i], fg.prevNanos[i]))
		}
		timed = timed && cost[i] > 0
	}
	if !timed {
		for i, f := range sw.fields {
			cost[i] = guessCost(f.base().node)
		}
	}
	fanout.Deal(cost, len(fg.comps), fg.group)
	byCost(fg.order, cost)
	copy(fg.prevNanos, fg.nanos)
	clear(fg.nanos)
}

// redeal deals the fields again by the time each took so far in the
// stripe; Write calls it at every row group's end. Only with a pipeline:
// the groups then have no compressors of their own, so a field may move
// to another goroutine between any two runs, and the guess the first
// stripe starts with lasts one row group rather than the whole stripe.
func (w *Writer) redeal() {
	fg := w.par
	if fg == nil || w.pipe == nil {
		return
	}
	sw := w.root.(*structWriter)
	fg.cost = grow(fg.cost, len(sw.fields))
	for i := range sw.fields {
		n := fg.nanos[i]
		if n <= 0 {
			return
		}
		fg.cost[i] = float64(n)
	}
	fanout.Deal(fg.cost, len(fg.comps), fg.group)
	byCost(fg.order, fg.cost)
}

// byCost fills order with the indexes of cost, the greatest cost first
// (ties in index order).
func byCost(order []int, cost []float64) {
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
}

// guessCost is a field's relative cost before any has been measured.
func guessCost(n *orc.Schema) float64 {
	switch n.Kind {
	case orc.String, orc.Varchar, orc.Char, orc.Binary, orc.Geometry, orc.Geography:
		return 4
	case orc.Decimal, orc.Timestamp, orc.TimestampInstant:
		return 2
	case orc.Struct, orc.List, orc.Map, orc.Union:
		c := 1.0
		for _, k := range n.Children {
			c += guessCost(k)
		}
		return c
	}
	return 1
}

// compFor returns the compressor of column node's streams: the writer's
// own, or with WithParallelism and no pipeline that of the goroutine the
// column's root field is dealt to (dealFields).
func (w *Writer) compFor(node *orc.Schema) format.Compressor {
	fg := w.par
	if fg == nil || w.pipe != nil {
		return w.comp
	}
	fields, id := w.schema.Children, node.ID()
	i := sort.Search(len(fields), func(i int) bool { return fields[i].MaxID() >= id })
	if i == len(fields) || fields[i].ID() > id {
		return w.comp // the root
	}
	return fg.comps[fg.group[i]]
}

// writeParallel writes rows [start, end) of the root's fields, each group
// on a goroutine of its own (the first on the calling one). Each field's
// goroutine also starts its row group first and ends it after, as told:
// ending the runs and chunks at a group's start is where much of the
// compression happens, and a field's columns do not share anything with
// other fields'. The root struct's own part is done here, before and
// after. It returns the error of the first failing field in field order.
func (w *Writer) writeParallel(cols []orc.Vector, start, end int, starting, ending bool) error {
	sw := w.root.(*structWriter)
	if starting {
		w.startRowGroup()
		if err := startGroupSelf(sw); err != nil {
			return err
		}
	}
	sw.writeRootSelf(start, end)
	err := w.runGroups(func(f columnWriter, i int) error {
		if starting {
			if err := startGroup(f); err != nil {
				return err
			}
		}
		if err := f.write(cols[i], start, end, nil); err != nil {
			return err
		}
		if ending {
			return endGroup(f)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if ending {
		finishGroupSelf(sw)
	}
	return nil
}

// finishParallel ends the open row group and flushes the encoders of every
// column at a stripe's end, each field on its group's goroutine.
func (w *Writer) finishParallel() error {
	sw := w.root.(*structWriter)
	open, unindexed := w.groupOpen, w.cfg.stride == 0
	err := w.runGroups(func(f columnWriter, _ int) error {
		if open {
			if err := endGroup(f); err != nil {
				return err
			}
		} else if unindexed {
			finishGroup(f)
		}
		return finishStripes(f, false)
	})
	if err != nil {
		return err
	}
	if open || unindexed {
		finishGroupSelf(sw)
	}
	return sw.finishStripe()
}

// groupRun is the outcome of one group's part of runGroups.
type groupRun struct {
	field int // the failing field, if err is set
	err   error
}

// runGroups calls fn for every field of the root, each group's fields in
// order on a goroutine of the team (group 0 on the calling goroutine), or
// claimed in cost order where fields may move (claimFields), and waits for
// all. It adds each field's time to its cost and returns
// the error of the first failing field in field order.
func (w *Writer) runGroups(fn func(f columnWriter, i int) error) error {
	fg := w.par
	sw := w.root.(*structWriter)
	if fg.mobile {
		return w.claimFields(fn)
	}
	run := func(g int) groupRun {
		for i, f := range sw.fields {
			if fg.group[i] != g {
				continue
			}
			t0 := time.Now()
			if err := fn(f, i); err != nil {
				return groupRun{i, err}
			}
			fg.nanos[i] += int64(time.Since(t0)) + 1
		}
		return groupRun{}
	}
	fg.team.Run(func(g int) { fg.runs[g] = run(g) })
	return fg.firstError()
}

// claimFields calls fn for every field of the root on the team's
// goroutines, each claiming the next field of fg.order until none is left,
// and returns the error of the first failing field in field order. Every
// field is written even after one fails, so which error is returned does
// not depend on timing.
func (w *Writer) claimFields(fn func(f columnWriter, i int) error) error {
	fg := w.par
	sw := w.root.(*structWriter)
	fg.next.Store(0)
	fg.team.Run(func(g int) {
		var r groupRun
		for {
			k := int(fg.next.Add(1)) - 1
			if k >= len(fg.order) {
				break
			}
			i := fg.order[k]
			f := sw.fields[i]
			t0 := time.Now()
			if err := fn(f, i); err != nil && (r.err == nil || i < r.field) {
				r = groupRun{i, err}
			}
			fg.nanos[i] += int64(time.Since(t0)) + 1
		}
		fg.runs[g] = r
	})
	return fg.firstError()
}

// firstError returns the error of the first failing field in field order
// among the runs' results, and clears them.
func (fg *fieldGroups) firstError() error {
	var first groupRun
	for g, r := range fg.runs {
		if r.err != nil && (first.err == nil || r.field < first.field) {
			first = r
		}
		fg.runs[g] = groupRun{}
	}
	return first.err
}
