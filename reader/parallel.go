package reader

// Parallel stripe decoding. Worker w of n decodes stripes w, w+n, w+2n, ...
// with its own BatchReader (its own column readers, buffers and pruning),
// sending batches through a small channel, then an end-of-stripe marker.
// Next takes stripe s's batches from worker s mod n, so rows come out in
// file order while up to n stripes are fetched and decoded at once. Batches
// are handed over by swapping vectors: the caller's batch receives the
// worker's vectors and the worker gets the caller's previous ones back, so
// nothing is copied and each worker cycles through a fixed set of batches.

import (
	"io"
	"sync"

	"github.com/orcgo/orc"
)

type parItem struct {
	b      *orc.Batch
	stripe int
	end    bool // stripe finished
	err    error
	stats  ScanStats // worker's cumulative statistics, with end markers
}

type parWorker struct {
	br   *BatchReader
	out  chan parItem
	free chan *orc.Batch
}

type parallel struct {
	owner   *BatchReader
	workers []*parWorker
	stripes int
	cur     int // stripe being returned
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	last    []ScanStats
	err     error
}

// batchesPerWorker is how many batches a worker may have decoded ahead.
const batchesPerWorker = 3

func (r *Reader) newParallel(owner *BatchReader, opts []ScanOption) (*BatchReader, error) {
	n := owner.cfg.parallel
	stripes := len(r.tail.Footer.GetStripes())
	if n > stripes {
		n = stripes
	}
	p := &parallel{owner: owner, stripes: stripes, stop: make(chan struct{}), last: make([]ScanStats, n)}
	for w := 0; w < n; w++ {
		inner, err := r.NewBatchReader(append(append([]ScanOption(nil), opts...), WithParallelism(1))...)
		if err != nil {
			return nil, err
		}
		// Workers share the owner's budget, and each holds its batches.
		inner.mem, inner.held.vectors = owner.mem, 0
		if err := inner.holdVectors(batchesPerWorker + 1); err != nil {
			p.close()
			return nil, err
		}
		pw := &parWorker{br: inner, out: make(chan parItem, batchesPerWorker), free: make(chan *orc.Batch, batchesPerWorker+1)}
		for i := 0; i < batchesPerWorker; i++ {
			pw.free <- inner.NewBatch()
		}
		p.workers = append(p.workers, pw)
	}
	for w, pw := range p.workers {
		p.wg.Add(1)
		go p.run(w, pw)
	}
	owner.par = p
	return owner, nil
}

// run decodes the worker's stripes in order.
func (p *parallel) run(w int, pw *parWorker) {
	defer p.wg.Done()
	n := len(p.workers)
	br := pw.br
	send := func(it parItem) bool {
		select {
		case pw.out <- it:
			return true
		case <-p.stop:
			return false
		}
	}
	for s := w; s < p.stripes; s += n {
		br.stripe, br.stopAt = s, s+1
		br.plan, br.run, br.remaining = nil, 0, 0
		for {
			var b *orc.Batch
			select {
			case b = <-pw.free:
			case <-p.stop:
				return
			}
			err := br.Next(b)
			if err == io.EOF {
				pw.free <- b
				break
			}
			if err != nil {
				send(parItem{stripe: s, err: err})
				return
			}
			if !send(parItem{b: b, stripe: s}) {
				return
			}
		}
		if !send(parItem{stripe: s, end: true, stats: br.stats}) {
			return
		}
	}
	br.releaseBytes()
}

// next returns the next batch in file order.
func (p *parallel) next(b *orc.Batch) error {
	if p.err != nil {
		return p.err
	}
	for p.cur < p.stripes {
		w := p.cur % len(p.workers)
		pw := p.workers[w]
		it := <-pw.out
		if it.err != nil {
			p.err = it.err
			p.close()
			return it.err
		}
		if it.end {
			p.last[w] = it.stats
			p.cur++
			continue
		}
		// Swap vectors: the caller gets the worker's, the worker the
		// caller's previous ones.
		b.Cols, it.b.Cols = it.b.Cols, b.Cols
		b.NumRows = it.b.NumRows
		b.Schema = it.b.Schema
		it.b.Reset()
		pw.free <- it.b
		return nil
	}
	p.close()
	p.err = io.EOF
	return io.EOF
}

// close stops the workers and waits for them.
func (p *parallel) close() {
	p.once.Do(func() {
		close(p.stop)
		for _, pw := range p.workers {
			// Drain so no worker stays blocked on a send.
			go func(pw *parWorker) {
				for range pw.out {
				}
			}(pw)
		}
		p.wg.Wait()
		for _, pw := range p.workers {
			close(pw.out)
		}
	})
}

// sum adds up the workers' statistics as of their last finished stripes.
func (p *parallel) sum() ScanStats {
	var t ScanStats
	t.FilesConsidered = 1
	for _, s := range p.last {
		t.FilesSkipped = max(t.FilesSkipped, s.FilesSkipped)
		t.StripesConsidered += s.StripesConsidered
		t.StripesSkipped += s.StripesSkipped
		t.GroupsConsidered += s.GroupsConsidered
		t.GroupsSkipped += s.GroupsSkipped
		t.StripesRead += s.StripesRead
		t.ReadCalls += s.ReadCalls
		t.BytesRead += s.BytesRead
		t.IndexBytesRead += s.IndexBytesRead
		t.RowsDecoded += s.RowsDecoded
		t.RowsReturned += s.RowsReturned
		t.UnplannedReads += s.UnplannedReads
	}
	return t
}

// Close stops a scan early, releasing its goroutines (WithParallelism). It
// is safe to call at any time and more than once; Next then returns io.EOF
// or the scan's error.
func (br *BatchReader) Close() error {
	if br.par != nil {
		br.par.close()
		if br.par.err == nil {
			br.par.err = io.EOF
		}
	}
	br.done = true
	br.releaseBytes()
	return nil
}
