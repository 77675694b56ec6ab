package reader

// The exact filter's deferred columns. With WithExactFilter, the top-level
// fields that hold no predicate column are neither fetched nor decoded until
// a batch of the current run has a matching row (or root nulls, which the
// filter keeps aligned by decoding): then their first pieces for the run are
// fetched with the plan's deferred reads (with their dictionaries the first
// time in the stripe), they are sought to the run's first group and brought
// to the row the predicate columns are at by skipping the rows before it.
// A run without a match costs them nothing.

// deferred is the state of the deferred fields.
type deferred struct {
	field   []bool // per top-level field of the batch: deferred
	col     []bool // per file column id: under a deferred field
	started bool   // the deferred fields' readers are started on the stripe
	loaded  bool   // ... and positioned in the current run
	// noSeek marks, per field, one that cannot seek in this stripe (a
	// column's row index was unusable): it is brought to a run by skipping
	// rows from at, the stripe row the deferred fields are at.
	noSeek []bool
	at     int64
}

// setupDeferred returns the late fields of exact filtering: those without
// a predicate column, when the root is a struct; nil when there are none.
// cols is the file's column count.
func (d *stripeDecoder) setupDeferred(cols int) *deferred {
	sr, ok := d.root.(*structReader)
	if !ok || d.flt == nil {
		return nil
	}
	def := &deferred{field: make([]bool, len(sr.fields)), col: make([]bool, cols)}
	any := false
	for i, f := range sr.fields {
		if d.flt.top[i] {
			continue
		}
		def.field[i], any = true, true
		var mark func(c columnReader)
		mark = func(c columnReader) {
			def.col[c.columnID()] = true
			for _, k := range children(c) {
				mark(k)
			}
		}
		mark(f)
	}
	if !any {
		return nil
	}
	return def
}

// deferredLoaded reports whether every field is ready for the current run.
func (d *stripeDecoder) deferredLoaded() bool { return d.def == nil || d.def.loaded }

// notLoaded reports whether c is a deferred field not loaded in this run
// (seekColumns leaves it alone).
func (d *stripeDecoder) notLoaded(c columnReader) bool {
	if d.def == nil || d.def.loaded {
		return false
	}
	sr, ok := d.root.(*structReader)
	if !ok {
		return false
	}
	for i, f := range sr.fields {
		if f == c {
			return d.def.field[i]
		}
	}
	return false
}

// setNoSeek marks the late fields that cannot seek in this stripe, from
// the columns planDeferred found without a usable row index.
func (def *deferred) setNoSeek(sr *structReader, noSeek []bool) {
	def.at = 0
	if def.noSeek == nil {
		def.noSeek = make([]bool, len(sr.fields))
	}
	clear(def.noSeek)
	for i, f := range sr.fields {
		if def.field[i] && noSeek != nil {
			def.noSeek[i] = anyColumn(f, noSeek)
		}
	}
}

// positionLate readies the late fields for the current run once the
// planner has fetched their pieces: started, at the stripe's first match
// (first), then sought to the run's first group and brought to the row the
// predicate columns are at.
func (d *stripeDecoder) positionLate(first bool) error {
	def := d.def
	sr := d.root.(*structReader)
	if first {
		def.started = true
		for i, f := range sr.fields {
			if def.field[i] && d.lazyField(i) {
				d.lazy.unstarted[i] = true // started at its first use (release.go)
			} else if def.field[i] {
				if err := f.startStripe(d.fieldCtx(i)); err != nil {
					return err
				}
			}
		}
		d.sio.dropWhole(true)
	}
	def.loaded = true
	k := d.run - 1
	consumed := d.runRows - d.remaining // rows of the run before this batch
	run := d.cur.plan.runs[k]
	target := d.runFirst + consumed
	for i, f := range sr.fields {
		if !def.field[i] || d.unstarted(i) {
			continue
		}
		if def.noSeek != nil && def.noSeek[i] {
			if target > def.at {
				if err := f.skip(target - def.at); err != nil {
					return err
				}
			}
			continue
		}
		if d.seekRun(k) {
			if err := d.seekColumns(d.cur.ix, run.first, f, nil); err != nil {
				return err
			}
		}
		if consumed > 0 {
			if err := f.skip(consumed); err != nil {
				return err
			}
		}
	}
	def.at = target
	return nil
}

// anyColumn reports whether marks is set for a column under c.
func anyColumn(c columnReader, marks []bool) bool {
	if marks[c.columnID()] {
		return true
	}
	for _, k := range children(c) {
		if anyColumn(k, marks) {
			return true
		}
	}
	return false
}
