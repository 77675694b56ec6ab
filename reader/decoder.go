package reader

import (
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// stripeDecoder decodes the rows of planned stripes into batches: it owns
// the column readers, the position in the stripe's runs of row groups,
// the exact filter and the late (deferred) fields. It never plans: it
// decodes the planned ranges, starting from the first pieces the planner
// fetched for each run, its streams taking the rest of their ranges
// window by window as they reach them (fetch.go). When a batch's first
// match needs the late fields, decode stops and says so, and the executor
// has the planner plan and fetch them (loadLate) before the decoder goes
// on.
type stripeDecoder struct {
	root   columnReader
	schema *orc.Schema // of the batches
	flt    *exactFilter
	def    *deferred
	lazy   *lazyFields
	cols   *colGroups // WithColumnParallelism, or nil
	// The stripe being decoded, its streams' fetches and context, the
	// next run of the plan to start, and of the current run: its first
	// row (in the stripe), its rows, and those left.
	cur       *plannedStripe
	sio       *stripeIO
	ctx       stripeCtx
	run       int
	runFirst  int64
	runRows   int64
	remaining int64
	// held is the decompression blocks' charge in the memory budget.
	held int64
}

// decode reads n rows into b and returns how many rows b keeps. With
// the exact filter it decodes the predicate columns and matches them
// first; when a batch keeps rows (or has root nulls) and the late fields
// are not loaded in this run, it stops there and reports late: the
// executor has them fetched and brought to the batch's first row
// (loadLate), then calls finish for the rest.
func (d *stripeDecoder) decode(b *orc.Batch, n int) (kept int, late bool, err error) {
	sr, ok := d.root.(*structReader)
	if !ok {
		return n, false, d.root.next(b.Cols[0], n, nil)
	}
	// The batch's columns are the root struct's fields.
	f := d.flt
	var nulls orc.Nulls
	if _, err := sr.readNulls(&nulls, n, nil); err != nil {
		return 0, false, err
	}
	var mask []bool
	if len(nulls.Nulls) > 0 {
		mask = nulls.Nulls
	}
	if f == nil {
		return n, false, d.nextFields(b, n, mask, fieldPick{})
	}
	f.mask = mask
	// Exact filtering: predicate columns first.
	if err := d.nextFields(b, n, mask, fieldPick{top: f.top}); err != nil {
		return 0, false, err
	}
	for col, path := range f.paths {
		v := b.Cols[path[0]]
		for _, p := range path[1:] {
			v = v.(*orc.StructVector).Fields[p]
		}
		f.vecs[col] = v
	}
	for _, db := range f.decs {
		if b, ok := db.r.takeBound(); ok {
			f.bounds[db.col] = b
		} else {
			delete(f.bounds, db.col)
		}
	}
	f.matches, f.kept, err = f.matcher.MatchBits(f.vecs, f.bounds, n, f.matches[:0])
	if err != nil {
		return 0, false, err
	}
	if (f.kept > 0 || mask != nil) && !d.deferredLoaded() {
		return 0, true, nil
	}
	kept, err = d.finish(b, n)
	return kept, false, err
}

// finish decodes the rest of a filtered batch of n rows whose predicate
// columns decode has matched: the other fields, all rows or only those
// kept, and returns how many rows b keeps.
func (d *stripeDecoder) finish(b *orc.Batch, n int) (int, error) {
	sr := d.root.(*structReader)
	f := d.flt
	kept, mask := f.kept, f.mask
	if d.def != nil && d.def.loaded {
		d.def.at = d.runFirst + d.runRows - d.remaining + int64(n)
	}
	sel := f.matches
	switch {
	case kept == 0 && mask == nil:
		if d.deferredLoaded() { // keep them in step with the rows
			for i, fr := range sr.fields {
				if !f.top[i] && !d.unstarted(i) { // an unstarted one is brought to its row when it starts
					if err := fr.skip(int64(n)); err != nil {
						return 0, err
					}
					d.doneField(i)
				}
			}
		}
		return 0, nil
	case kept < n && mask == nil && d.def != nil && d.sparse(sel, n, kept):
		// Late materialization: the other fields decode the selected
		// rows only, skipping the rest.
		f.idx = selectionBits(sel, n, f.idx[:0])
		for i, c := range b.Cols {
			if f.top[i] {
				orc.Compact(c, f.idx)
			}
		}
		return kept, d.lateFields(b, n)
	}
	if err := d.nextFields(b, n, mask, fieldPick{top: f.top, not: true}); err != nil {
		return 0, err
	}
	if kept > 0 && kept < n {
		if f.selects {
			b.Selected = selectionBits(sel, n, b.Selected[:0])
			return kept, nil
		}
		f.compact(b.Cols, sel, n, kept)
	}
	return kept, nil
}

// sparse reports whether the selected rows of a batch form few enough runs
// for late materialization, and records them in flt.sel.
//
// Late materialization pays where the rows it does not decode outnumber
// lateSegmentRows for each run it decodes apart: a batch of 94% matches in
// 240 runs would decode nearly every row anyway, 240 times over. The runs
// are counted first, without a store, and built only for a sparse batch.
func (d *stripeDecoder) sparse(sel []uint64, n, kept int) bool {
	if countRunsBitsTo(sel, n, (n-kept)/lateSegmentRows)*lateSegmentRows > n-kept {
		return false
	}
	d.flt.sel = appendBits(d.flt.sel, sel, n)
	return true
}

// lateFields decodes the selected rows of the deferred fields into b, run
// by run (flt.sel), skipping the rows between; n is the batch's rows.
func (d *stripeDecoder) lateFields(b *orc.Batch, n int) error {
	sr := d.root.(*structReader)
	runs := d.flt.sel.runs
	if d.flt.scratch == nil {
		d.flt.scratch = make([]orc.Vector, len(sr.fields))
	}
	for i, f := range sr.fields {
		if d.flt.top[i] {
			continue
		}
		if err := d.startField(i); err != nil {
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
				sc := d.flt.scratch[i]
				if sc == nil {
					sc = orc.NewVector(d.schema.Children[i], 0)
					d.flt.scratch[i] = sc
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
		d.doneField(i)
	}
	return nil
}

// seekRun reports whether run k is reached by seeking: every run but a
// first one starting at the stripe's first row (Java leaves entry 0's
// positions empty in some files, and the streams are there already).
func (d *stripeDecoder) seekRun(k int) bool {
	return d.cur.plan.seek && (k > 0 || d.cur.plan.runs[k].first > 0)
}

// newExactFilter makes the exact filter of a scan whose predicate reads
// cols: where each of them lies in a batch of schema, read by root.
func newExactFilter(m *sarg.Matcher, root columnReader, schema *orc.Schema, cols []int) *exactFilter {
	f := &exactFilter{matcher: m, paths: map[int][]int{}, top: make([]bool, len(schema.Children)),
		vecs: sarg.ColumnVectors{}, bounds: sarg.ColumnBounds{}}
	want := map[int]bool{}
	for _, c := range cols {
		want[c] = true
	}
	var walk func(c columnReader, path []int)
	walk = func(c columnReader, path []int) {
		if want[c.columnID()] {
			f.paths[c.columnID()] = append([]int(nil), path...)
			if dr, ok := c.(*decimalReader); ok {
				dr.wantBound = true
				f.decs = append(f.decs, decBound{c.columnID(), dr})
			}
			if len(path) > 0 {
				f.top[path[0]] = true
			}
		}
		if s, ok := c.(*structReader); ok {
			// One slot for the fields' index, filled in turn: the paths
			// kept are copies (a path a field would have allocated 1.6 MB
			// for 100,000 nested columns).
			path = append(path, 0)
			for i, fr := range s.fields {
				path[len(path)-1] = i
				walk(fr, path)
			}
		}
	}
	walk(root, make([]int, 0, 8))
	return f
}

// startStripe starts the column readers on the stripe in d.ctx: all of
// them, or with the exact filter all but the late fields (started at the
// stripe's first match, positionLate), or each field at its first use
// (release.go).
func (d *stripeDecoder) startStripe() error {
	lz := d.setupLazy()
	if lz != nil {
		d.ctx.pool = &lz.pool
	}
	switch {
	case lz != nil && d.def == nil:
		if err := d.startLazy(lz, &d.ctx); err != nil {
			return err
		}
	case d.def == nil && d.cols == nil:
		if err := d.root.startStripe(&d.ctx); err != nil {
			return err
		}
	default:
		d.dealColumns(d.cur.meta)
		sr := d.root.(*structReader)
		if err := sr.startPresence(&d.ctx); err != nil {
			return err
		}
		for i, f := range sr.fields {
			if d.def == nil || !d.def.field[i] {
				if err := f.startStripe(d.fieldCtx(i)); err != nil {
					return err
				}
			}
		}
	}
	if d.def != nil {
		d.def.started, d.def.loaded = false, false
	}
	d.sio.dropWhole(false)
	return nil
}

// startRun positions the readers at the next run of the plan, whose first
// pieces the planner fetched: the eager columns sought to its first group
// (the late ones wait for a match).
func (d *stripeDecoder) startRun() error {
	p := d.cur.plan
	k := d.run
	run := p.runs[k]
	d.run++
	if d.def != nil {
		d.def.loaded = false
		if d.def.started {
			for j := range d.sio.fetches {
				if f := &d.sio.fetches[j]; f.plan.deferred && !f.plan.whole && !f.plan.noSeek {
					f.drop()
				}
			}
		}
	}
	if d.seekRun(k) {
		if err := d.startFields(); err != nil {
			return err
		}
		if err := d.seekColumns(d.cur.ix, run.first, d.root, d.notLoaded); err != nil {
			return err
		}
	}
	first, end := int64(0), p.rows
	if p.stride > 0 {
		first = int64(run.first) * p.stride
		end = min(end, int64(run.end)*p.stride)
	}
	d.runFirst = first
	d.remaining = end - first
	d.runRows = end - first
	return nil
}

// exactFilter is the state of WithExactFilter: where the predicate's
// columns lie in a batch, and the matcher that evaluates it row by row.
type exactFilter struct {
	matcher *sarg.Matcher
	paths   map[int][]int // predicate column id -> field path in the batch
	top     []bool        // per batch column: holds a predicate column
	matches []uint64      // row i in bit i%64 of matches[i/64]
	vecs    sarg.ColumnVectors
	// The predicate's decimal columns read by a decimalReader, whose
	// bounds on each batch's values go to the matcher (bounds).
	decs   []decBound
	bounds sarg.ColumnBounds
	// Of the batch being decoded: its root nulls, or nil, and how many of
	// its rows match (decode hands them to finish).
	mask []bool
	kept int
	// Late materialization: the selected rows' indexes and runs of the
	// current batch, and per batch field a vector decoding one run at a
	// time.
	idx     []int32
	sel     rowSelection
	scratch []orc.Vector
	// selects hands a batch's matches over as its selection (WithSelection)
	// instead of moving them together, where all its fields are decoded.
	selects bool
}

// decBound is a predicate column read by a decimalReader.
type decBound struct {
	col int
	r   *decimalReader
}

// lateSegmentRows is how many rows of a batch the deferred fields must
// skip for each run of selected rows, at least, for them to decode the
// selected runs one by one rather than the whole batch and compact it:
// decoding a run and skipping the gap before it cost a few calls per
// field, against a value's decoding and copying for every row skipped.
const lateSegmentRows = 16
