package reader

// The exact filter's deferred columns. With WithExactFilter, the top-level
// fields that hold no predicate column are neither fetched nor decoded until
// a batch of the current run has a matching row (or root nulls, which the
// filter keeps aligned by decoding): then their first pieces for the run are
// fetched with the plan's deferred reads (with their dictionaries the first
// time in the stripe), they are sought to the run's first group and brought
// to the row the predicate columns are at by skipping the rows before it.
// A run without a match costs them nothing.

import (
	"fmt"

	"github.com/orcgo/orc"
)

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

// setupDeferred decides whether exact filtering may defer fields: those
// without a predicate column, when the root is a struct.
func (br *executor) setupDeferred() {
	sr, ok := br.root.(*structReader)
	if !ok || br.pred.flt.matcher == nil {
		return
	}
	d := &deferred{field: make([]bool, len(sr.fields)), col: make([]bool, len(br.selected))}
	any := false
	for i, f := range sr.fields {
		if br.pred.flt.top[i] {
			continue
		}
		d.field[i], any = true, true
		var mark func(c columnReader)
		mark = func(c columnReader) {
			d.col[c.columnID()] = true
			for _, k := range children(c) {
				mark(k)
			}
		}
		mark(f)
	}
	if any {
		br.pred.def = d
	}
}

// deferredLoaded reports whether every field is ready for the current run.
func (br *executor) deferredLoaded() bool { return br.pred.def == nil || br.pred.def.loaded }

// notLoaded reports whether c is a deferred field not loaded in this run
// (seekColumns leaves it alone).
func (br *executor) notLoaded(c columnReader) bool {
	if br.pred.def == nil || br.pred.def.loaded {
		return false
	}
	sr, ok := br.root.(*structReader)
	if !ok {
		return false
	}
	for i, f := range sr.fields {
		if f == c {
			return br.pred.def.field[i]
		}
	}
	return false
}

// loadDeferred fetches the deferred fields' pieces for the current run and
// brings them to the row the predicate columns are at.
func (br *executor) loadDeferred() error {
	d := br.pred.def
	k := br.cur.run - 1
	if k < 0 {
		return fmt.Errorf("orc: internal error: deferred columns loaded outside a run")
	}
	first := !d.started
	if first && br.r.tail.Compression != orc.CompressionNone {
		streams := 0
		for _, sp := range br.cur.plan.streams {
			if sp.deferred {
				streams++
			}
		}
		if err := br.holdDecompression(streams); err != nil {
			return err
		}
	}
	sr := br.root.(*structReader)
	if first {
		d.at = 0
		clear(d.noSeek)
		if err := br.planDeferredColumns(sr); err != nil {
			return err
		}
	}
	if err := br.prefetch(br.cur.sio, k, true, first); err != nil {
		return err
	}
	if first {
		d.started = true
		for i, f := range sr.fields {
			if d.field[i] && br.lazyField(i) {
				br.lazy.unstarted[i] = true // started at its first use (release.go)
			} else if d.field[i] {
				if err := f.startStripe(br.fieldCtx(i)); err != nil {
					return err
				}
			}
		}
		br.cur.sio.dropWhole(true)
	}
	d.loaded = true
	consumed := br.cur.runRows - br.cur.remaining // rows of the run before this batch
	run := br.cur.plan.runs[k]
	target := br.cur.runFirst + consumed
	for i, f := range sr.fields {
		if !d.field[i] || br.unstarted(i) {
			continue
		}
		if d.noSeek != nil && d.noSeek[i] {
			if target > d.at {
				if err := f.skip(target - d.at); err != nil {
					return err
				}
			}
			continue
		}
		if br.seekRun(k) {
			if err := br.seekColumns(br.cur.ix, run.first, f, nil); err != nil {
				return err
			}
		}
		if consumed > 0 {
			if err := f.skip(consumed); err != nil {
				return err
			}
		}
	}
	d.at = target
	return nil
}

// planDeferredColumns reads the row indexes of the deferred columns the
// stripe's plan left pending and plans their streams (planDeferred), at
// their first match in the stripe: a stripe whose kept row groups hold no
// matching row never reads them.
func (br *executor) planDeferredColumns(sr *structReader) error {
	p := br.cur.plan
	if len(p.pending) == 0 {
		return nil
	}
	if err := br.readIndex(br.cur.ix, p.pending, false); err != nil {
		return err
	}
	br.cur.pin.entries = br.cur.ix.entries
	noSeek, err := planDeferred(br.cur.pin, p)
	if err != nil {
		return err
	}
	d := br.pred.def
	if d.noSeek == nil {
		d.noSeek = make([]bool, len(sr.fields))
	}
	for i, f := range sr.fields {
		if d.field[i] {
			d.noSeek[i] = anyColumn(f, noSeek)
		}
	}
	if br.explain != nil {
		fmt.Fprintf(br.explain, "stripe %d deferred columns planned at their first match:\n%s", p.stripe, indent(p.String()))
	}
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
