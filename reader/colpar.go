package reader

// Column-parallel decoding (WithColumnParallelism). The top-level fields of
// the root struct are dealt into groups at each stripe's start, the costliest
// first, each to the group with the least cost so far (longest processing
// time first). A field's cost is the time it took in the stripes before,
// once every field has been timed, and its stream bytes in the stripe until
// then. Each group has its own decompressor, bound to the field's streams
// when they are opened. For each batch the groups run on a fanout.Team:
// group 0 on the caller, the others on helpers that wait for the next
// batch by spinning a while (100 µs) and then end, so nothing is left
// running between calls for longer, and a batch does not pay for waking a
// thread; a helper not started when the caller is done has its group run
// by the caller.

import (
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/internal/fanout"
)

// colGroups is the state of column-parallel decoding.
type colGroups struct {
	n      int                   // groups wanted (WithColumnParallelism)
	decs   []format.Decompressor // per group; decs[0] is the reader's own
	ctxs   []stripeCtx           // per group: the stripe context with its decompressor
	group  []int                 // per top-level field
	nanos  []int64               // per field: decoding time in this scan
	timing bool                  // measure the fields' time
	team   *fanout.Team
	errs   []fieldErr // per group, the last run's first failure
}

// fieldErr is a group's first failing field and its error.
type fieldErr struct {
	field int
	err   error
}

// setupColumns prepares column-parallel decoding when it is asked for and
// the root is a struct of at least two fields.
func (d *stripeDecoder) setupColumns(r *Reader, dec format.Decompressor, colPar int) error {
	sr, ok := d.root.(*structReader)
	if !ok || colPar < 2 || len(sr.fields) < 2 {
		return nil
	}
	n := min(colPar, len(sr.fields))
	cg := &colGroups{n: n, decs: make([]format.Decompressor, n), ctxs: make([]stripeCtx, n),
		group: make([]int, len(sr.fields)), nanos: make([]int64, len(sr.fields)),
		team: fanout.NewTeam(n), errs: make([]fieldErr, n)}
	cg.decs[0] = dec
	if r.tail.Compression != orc.CompressionNone {
		for g := 1; g < n; g++ {
			gd, err := format.NewDecompressor(r.tail.Compression)
			if err != nil {
				return err
			}
			cg.decs[g] = gd
		}
	}
	d.cols = cg
	return nil
}

// fieldCtx returns the stripe context field i is started with: the
// reader's own for group 0, otherwise a copy with the group's decompressor.
func (d *stripeDecoder) fieldCtx(i int) *stripeCtx {
	cg := d.cols
	if cg == nil || cg.group[i] == 0 {
		return &d.ctx
	}
	g := cg.group[i]
	cg.ctxs[g] = d.ctx
	cg.ctxs[g].dec = cg.decs[g]
	return &cg.ctxs[g]
}

// dealColumns assigns the fields to groups for the stripe meta describes.
func (d *stripeDecoder) dealColumns(meta *stripeMeta) {
	cg := d.cols
	if cg == nil {
		return
	}
	sr := d.root.(*structReader)
	timed := true
	for i := range sr.fields {
		timed = timed && cg.nanos[i] > 0
	}
	cost := make([]float64, len(sr.fields))
	for i, f := range sr.fields {
		if timed {
			cost[i] = float64(cg.nanos[i])
			continue
		}
		lo, hi := f.columnID(), maxColumn(f)
		for col := lo; col <= hi; col++ {
			for _, j := range meta.columnStreams(col) {
				if s := &meta.list[j]; !isIndexStream(s.kind) {
					cost[i] += float64(s.length)
				}
			}
		}
	}
	fanout.Deal(cost, cg.n, cg.group)
	cg.timing = !timed
	if timed {
		// Keep timing so the costs follow the data, weighting recent
		// stripes: halve the totals at each stripe.
		for i := range cg.nanos {
			cg.nanos[i] = max(cg.nanos[i]/2, 1)
		}
		cg.timing = true
	}
}

// maxColumn returns the largest file column id under c.
func maxColumn(c columnReader) int {
	m := c.columnID()
	for _, k := range children(c) {
		m = max(m, maxColumn(k))
	}
	return m
}

// fieldPick says which fields of a batch nextFields decodes: every one
// (top nil), or those whose flag in top is set (or, with not, clear). A
// closure in its place escaped to the goroutines and cost an allocation
// per call, twice a batch with the exact filter.
type fieldPick struct {
	top []bool
	not bool
}

func (p fieldPick) has(i int) bool { return p.top == nil || p.top[i] != p.not }

// nextFields decodes n rows of the fields pick accepts into b, spreading
// the groups over goroutines. It returns the error of the first failing
// field in field order.
func (d *stripeDecoder) nextFields(b *orc.Batch, n int, mask []bool, pick fieldPick) error {
	sr := d.root.(*structReader)
	cg := d.cols
	if cg == nil {
		for i, f := range sr.fields {
			if pick.has(i) {
				if err := d.startField(i); err != nil {
					return err
				}
				if err := f.next(b.Cols[i], n, mask); err != nil {
					return err
				}
				d.doneField(i)
			}
		}
		return nil
	}
	cg.team.Run(func(g int) {
		cg.errs[g] = fieldErr{}
		for i, f := range sr.fields {
			if cg.group[i] != g || !pick.has(i) {
				continue
			}
			var t0 time.Time
			if cg.timing {
				t0 = time.Now()
			}
			if err := f.next(b.Cols[i], n, mask); err != nil {
				cg.errs[g] = fieldErr{i, err}
				return
			}
			if cg.timing {
				cg.nanos[i] += int64(time.Since(t0)) + 1
			}
		}
	})
	var first fieldErr
	for _, e := range cg.errs {
		if e.err != nil && (first.err == nil || e.field < first.field) {
			first = e
		}
	}
	return first.err
}
