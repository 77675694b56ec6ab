package reader

// Stream readers lent out by the stripe. A serial scan starts each
// top-level field on a stripe when it first decodes it (without a row
// filter), or each deferred field when it first decodes or skips rows
// after a match (with one, see deferred.go), and, when a batch ends the
// stripe, gives the field's stream readers (its InStreams and decoders)
// back to the scan's streamPool once the field has decoded it, for the
// next field to start with. A stripe of 100,000 columns then holds the
// stream readers of one field at a time, not 100,000 of each (about 400
// bytes a column).

import "github.com/orcgo/orc/format"

// streamPool holds stream readers that columns gave back, for the next
// columns to start with. It is used by one goroutine.
type streamPool struct {
	ins   []*format.InStream
	v2    [2][]*format.IntRLEv2Decoder // by signedness: 0 unsigned, 1 signed
	v1    [2][]*format.IntRLEv1Decoder
	bools []*format.BoolRLEDecoder
	bytes []*format.ByteRLEDecoder
}

// pop removes and returns the last reader of *l, or the zero value when
// it has none.
func pop[T any](l *[]T) (T, bool) {
	var zero T
	n := len(*l)
	if n == 0 {
		return zero, false
	}
	v := (*l)[n-1]
	(*l)[n-1] = zero
	*l = (*l)[:n-1]
	return v, true
}

// decoder is a pooled decoder: Reset(nil) lets go of its source.
type decoder interface {
	comparable
	Reset(src format.ChunkSource)
}

// give appends *d, reset, to *l and clears *d (nothing when it is nil).
func give[T decoder](l *[]T, d *T) {
	var zero T
	if *d != zero {
		(*d).Reset(nil)
		*l = append(*l, *d)
		*d = zero
	}
}

// reuse pops a decoder of *l and sets it reading from src.
func reuse[T decoder](l *[]T, src format.ChunkSource) (T, bool) {
	d, ok := pop(l)
	if ok {
		d.Reset(src)
	}
	return d, ok
}

// putIn gives back *in and clears it.
func (p *streamPool) putIn(in **format.InStream) {
	if *in != nil {
		(*in).SetLoader(nil)
		(*in).Reset(format.StreamInfo{}, nil)
		p.ins = append(p.ins, *in)
		*in = nil
	}
}

// takeIn returns a pooled InStream, or nil.
func (p *streamPool) takeIn() *format.InStream {
	if p == nil {
		return nil
	}
	in, _ := pop(&p.ins)
	return in
}

// putInt gives back *d, an integer decoder that signed says the sign of,
// and clears it.
func (p *streamPool) putInt(d *format.IntDecoder, signed bool) {
	s := 0
	if signed {
		s = 1
	}
	switch v := (*d).(type) {
	case *format.IntRLEv2Decoder:
		v.Reset(nil)
		p.v2[s] = append(p.v2[s], v)
	case *format.IntRLEv1Decoder:
		v.Reset(nil)
		p.v1[s] = append(p.v1[s], v)
	}
	*d = nil
}

// takeInt returns a pooled integer decoder of the version and sign asked
// for, reading from src, or nil.
func (p *streamPool) takeInt(src format.ChunkSource, signed, v2 bool) format.IntDecoder {
	if p == nil {
		return nil
	}
	s := 0
	if signed {
		s = 1
	}
	if v2 {
		if d, ok := reuse(&p.v2[s], src); ok {
			return d
		}
		return nil
	}
	if d, ok := reuse(&p.v1[s], src); ok {
		return d
	}
	return nil
}

// putBool gives back *d and clears it.
func (p *streamPool) putBool(d **format.BoolRLEDecoder) {
	give(&p.bools, d)
}

// bindDecoder points *d at src: the column's own decoder when it has one,
// else one from the pool's list l (nil without a pool), else a new one
// from mk.
func bindDecoder[T decoder](d *T, l *[]T, src format.ChunkSource, mk func(format.ChunkSource) T) {
	var zero T
	if *d != zero {
		(*d).Reset(src)
		return
	}
	if l != nil {
		if r, ok := reuse(l, src); ok {
			*d = r
			return
		}
	}
	*d = mk(src)
}

// putByte gives back *d and clears it.
func (p *streamPool) putByte(d **format.ByteRLEDecoder) {
	give(&p.bytes, d)
}

// bindBool points *d, a boolean decoder, at src (bindDecoder).
func (p *streamPool) bindBool(d **format.BoolRLEDecoder, src format.ChunkSource) {
	var l *[]*format.BoolRLEDecoder
	if p != nil {
		l = &p.bools
	}
	bindDecoder(d, l, src, format.NewBoolRLEDecoder)
}

// bindByte points *d, a byte decoder, at src (bindDecoder).
func (p *streamPool) bindByte(d **format.ByteRLEDecoder, src format.ChunkSource) {
	var l *[]*format.ByteRLEDecoder
	if p != nil {
		l = &p.bytes
	}
	bindDecoder(d, l, src, format.NewByteRLEDecoder)
}

// A releaser gives its stream readers, and its children's, back to a
// pool; it must be started on a stripe again before it reads.
type releaser interface {
	release(p *streamPool)
}

func (p *presence) releasePresence(pool *streamPool) {
	pool.putIn(&p.presentIn)
	pool.putBool(&p.present)
	p.has = false
}

func (c *boolReader) release(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.dataIn)
	p.putBool(&c.data)
}

func (c *byteReader) release(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.dataIn)
	p.putByte(&c.data)
}

func (c *intReader) release(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.dataIn)
	p.putInt(&c.data, true)
}

func (c *floatReader) release(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.dataIn)
	c.data.Reset(nil)
}

func (c *structReader) release(p *streamPool) {
	c.releasePresence(p)
	for _, f := range c.fields {
		releaseColumn(f, p)
	}
}

func (c *lengthsBase) releaseLengths(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.lengthIn)
	p.putInt(&c.lengths, false)
}

func (c *listReader) release(p *streamPool) {
	c.releaseLengths(p)
	releaseColumn(c.elem, p)
}

func (c *mapReader) release(p *streamPool) {
	c.releaseLengths(p)
	releaseColumn(c.keys, p)
	releaseColumn(c.values, p)
}

func (c *unionReader) release(p *streamPool) {
	c.releasePresence(p)
	p.putIn(&c.tagsIn)
	p.putByte(&c.tags)
	for _, k := range c.kids {
		releaseColumn(k, p)
	}
}

// releaseColumn gives back c's stream readers when its type can (the
// others keep theirs: strings, decimals and timestamps, whose readers
// hold dictionaries and more).
func releaseColumn(c columnReader, p *streamPool) {
	if r, ok := c.(releaser); ok {
		r.release(p)
	}
}

// lazyFields is the state of the top-level fields started at first use
// (see the file comment).
type lazyFields struct {
	ok        []bool // per top-level field: its whole subtree can give back its readers
	unstarted []bool // per top-level field: not started on the current stripe yet
	last      bool   // the batch being decoded ends the stripe
	pool      streamPool
}

// setupLazy decides, at a stripe's start, whether fields start at first
// use: in a serial scan of a struct root, every field without a row
// filter, the deferred fields with one. It returns nil when they start as
// they did.
func (d *stripeDecoder) setupLazy() *lazyFields {
	sr, ok := d.root.(*structReader)
	if !ok || d.flt != nil && d.def == nil || d.cols != nil {
		return nil
	}
	if d.lazy == nil {
		lz := &lazyFields{ok: make([]bool, len(sr.fields)), unstarted: make([]bool, len(sr.fields))}
		for i, f := range sr.fields {
			lz.ok[i] = releasable(f) && (d.def == nil || d.def.field[i])
		}
		d.lazy = lz
	}
	return d.lazy
}

// lazyField reports whether field i starts at its first use.
func (d *stripeDecoder) lazyField(i int) bool { return d.lazy != nil && d.lazy.ok[i] }

// unstarted reports whether field i waits for its first use in the
// stripe.
func (d *stripeDecoder) unstarted(i int) bool { return d.lazy != nil && d.lazy.unstarted[i] }

// releasable reports whether every reader under c gives back its stream
// readers. Those that do read no stream whole (dictionaries), which a
// stripe fetches when it starts and lets go of once its columns are
// started.
func releasable(c columnReader) bool {
	if _, ok := c.(releaser); !ok {
		return false
	}
	for _, k := range children(c) {
		if !releasable(k) {
			return false
		}
	}
	return true
}

// startLazy starts the root's presence and the fields that cannot wait on
// the stripe; the others wait for their first use (startField).
func (d *stripeDecoder) startLazy(lz *lazyFields, ctx *stripeCtx) error {
	sr := d.root.(*structReader)
	if err := sr.startPresence(ctx); err != nil {
		return err
	}
	for i, f := range sr.fields {
		lz.unstarted[i] = lz.ok[i]
		if !lz.ok[i] {
			if err := f.startStripe(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// startField starts top-level field i on the stripe if it waits for its
// first use; a deferred field is brought to the row the predicate columns
// are at, as positionLate brings those it started.
func (d *stripeDecoder) startField(i int) error {
	lz := d.lazy
	if lz == nil || !lz.unstarted[i] {
		return nil
	}
	lz.unstarted[i] = false
	f := d.root.(*structReader).fields[i]
	if err := f.startStripe(&d.ctx); err != nil {
		return err
	}
	def := d.def
	if def == nil {
		return nil
	}
	consumed := d.runRows - d.remaining // rows of the run before this batch
	if def.noSeek != nil && def.noSeek[i] {
		// Read from the stripe's start.
		if target := d.runFirst + consumed; target > 0 {
			return f.skip(target)
		}
		return nil
	}
	if k := d.run - 1; d.seekRun(k) {
		if err := d.seekColumns(d.cur.ix, d.cur.plan.runs[k].first, f, nil); err != nil {
			return err
		}
	}
	if consumed > 0 {
		return f.skip(consumed)
	}
	return nil
}

// startFields starts every field waiting for its first use (before the
// readers seek), without a row filter; the deferred fields wait (the
// readers' seek leaves them alone).
func (d *stripeDecoder) startFields() error {
	if d.lazy == nil || d.def != nil {
		return nil
	}
	for i := range d.lazy.unstarted {
		if err := d.startField(i); err != nil {
			return err
		}
	}
	return nil
}

// doneField gives back top-level field i's stream readers when the batch
// it decoded ends the stripe.
func (d *stripeDecoder) doneField(i int) {
	if lz := d.lazy; lz != nil && lz.last && lz.ok[i] && !lz.unstarted[i] {
		releaseColumn(d.root.(*structReader).fields[i], &lz.pool)
		lz.unstarted[i] = true
	}
}
