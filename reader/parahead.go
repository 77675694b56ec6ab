package reader

import "sync"

// aheadPlanner is a parallel scan's own planner over a network. While the
// decoders decode a stripe, it prunes and schedules the stripes after it,
// as a serial scan plans ahead (planAhead): up to maxPlannedAhead stripes
// with rows to read, or until they have a quarter of the prefetch bound
// scheduled. The decoders find those stripes pruned (or wait for the
// planner to finish one) when they get there. In a scan without a search
// argument it first stages every stripe it may (stageFrom), so that their
// data is scheduled before it waits for any stripe's row indexes.
type aheadPlanner struct {
	p *parallel
	// pl is made at its first use: a local scan never needs it. use
	// serialises its use and its making.
	pl  *planner
	use sync.Mutex
	// Under p.mu: the newest stripe a decoder has started, and whether the
	// planner is busy.
	of   int
	busy bool
}

// start has the planner prune the stripes after stripe s on a goroutine
// of its own. A call while it is busy does nothing: it takes the
// decoders' newest stripe when it looks for more.
func (a *aheadPlanner) start(s int) {
	p := a.p
	p.mu.Lock()
	a.of = max(a.of, s)
	if a.busy {
		p.mu.Unlock()
		return
	}
	a.busy = true
	p.mu.Unlock()
	p.wg.Add(1)
	go a.run()
}

// run prunes stripes ahead until next finds none to prune.
func (a *aheadPlanner) run() {
	p := a.p
	defer p.wg.Done()
	a.use.Lock()
	defer a.use.Unlock()
	defer func() {
		p.mu.Lock()
		a.busy = false
		p.mu.Unlock()
	}()
	if a.pl == nil {
		pl, _, err := p.owner.plan.r.newPlanner(p.owner.cfg, p.owner.mem, p.owner.plan.io)
		if err != nil {
			return // the decoders prune the stripes themselves
		}
		pl.deferred = p.owner.plan.deferred
		a.pl = pl
	}
	n := p.owner.cfg.parallel
	for {
		ss, t := a.next()
		if ss == nil {
			return
		}
		select {
		case <-p.stop:
			return
		default:
		}
		ss.claim()
		ss.stage(a.pl, t, n)
		if ss.err == nil {
			a.stageFrom(t)
		}
		ss.cut(a.pl, n)
		a.publish()
		if ss.err != nil {
			return
		}
	}
}

// next returns the next stripe the planner prunes, and its number, or nil
// when the stripes pruned ahead of the decoders' newest reach
// maxPlannedAhead or a quarter of the prefetch bound, or a decoder is
// pruning the next.
func (a *aheadPlanner) next() (*sharedStripe, int) {
	p := a.p
	p.mu.Lock()
	defer p.mu.Unlock()
	t, full := a.walkLocked(func(ss *sharedStripe) bool { return ss.pruned.Load() })
	if full || t >= p.stripes {
		return nil, 0
	}
	ss := p.slotLocked(t)
	if ss.claimed.Load() && !ss.ahead.Load() {
		return nil, 0 // a decoder is on it
	}
	return ss, t
}

// full reports whether the stripes staged ahead of the decoders' newest
// reach next's bounds.
func (a *aheadPlanner) full() bool {
	a.p.mu.Lock()
	defer a.p.mu.Unlock()
	_, full := a.walkLocked(func(ss *sharedStripe) bool { return ss.staged.Load() })
	return full
}

// walkLocked walks the scan's stripes after the decoders' newest while
// done holds for them. It returns the first for which done does not hold
// (the number of stripes when there is none), or true when those walked
// reach the bounds of next.
func (a *aheadPlanner) walkLocked(done func(*sharedStripe) bool) (int, bool) {
	p := a.p
	var planned int64
	n := 0
	for t := max(a.of+1, p.released); t < p.stripes; t++ {
		if !p.owner.plan.inRange(t) {
			continue
		}
		ss := p.slotLocked(t)
		if !done(ss) {
			return t, false
		}
		if ss.meta != nil {
			n++
			if ss.sched || ss.pruned.Load() {
				planned += ss.scheduled
			}
		}
		if n >= maxPlannedAhead || planned >= p.owner.plan.io.cfg.prefetch/4 {
			return t, true
		}
	}
	return p.stripes, false
}

// stageFrom stages, in a scan without a search argument, the stripes
// after stripe t whose footers the planner has parsed ahead, while next's
// bounds allow: their data is scheduled before the planner waits for
// stripe t's row indexes, and goes out with it.
func (a *aheadPlanner) stageFrom(t int) {
	p, pl := a.p, a.pl
	if pl.sarg != nil {
		return
	}
	for u := t + 1; u < p.stripes; u++ {
		if !pl.inRange(u) {
			continue
		}
		if !pl.parsedAhead(u) || a.full() {
			return
		}
		ss := p.slot(u)
		if ss == nil || !ss.claim() {
			return // a decoder is on it
		}
		ss.ahead.Store(true)
		ss.stage(pl, u, p.owner.cfg.parallel)
		if ss.err != nil {
			return
		}
	}
}

// publish records the planner's statistics for Stats.
func (a *aheadPlanner) publish() {
	p := a.p
	p.mu.Lock()
	p.stats[len(p.stats)-1] = *a.pl.stats
	p.mu.Unlock()
}
