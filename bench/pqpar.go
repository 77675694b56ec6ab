package main

// The parallel Parquet scan (flag -parallel), written the way a user of a
// Parquet library without parallel reading would write it by hand: worker w
// of n reads row groups w, w+n, w+2n, ... start to finish, each worker with
// its own pqFile view (its own page-index and bloom-filter caches), its own
// column cursors and its own batches, and with the serial scan's pruning
// (rgScan.rowGroup: statistics, bloom filters, page index). The caller takes
// row group r's batches from worker r mod n, so the batches reach the
// consumer (the checksum) in row-group order, as in the serial scan, while
// up to n row groups are read at once.
//
// This is the scheme of orcgo's reader.WithParallelism (reader/parallel.go):
// static assignment, a few decoded batches ahead per worker, results in file
// order on the calling goroutine.

import (
	"errors"
	"sync"
)

// pqBatchesPerWorker is how many batches a worker has: the one it decodes
// into and those decoded ahead, waiting for the caller. orcgo's parallel
// reader holds three per worker plus the one it swaps with the caller.
const pqBatchesPerWorker = 4

// pqBatch is one decoded batch on its way from a worker to the caller.
type pqBatch struct {
	c   Chunk
	sel []bool // rows returned; nil: all of them
	buf []bool // sel's storage
	m   int    // rows returned
}

// pqItem is what a worker sends: a batch, the end of a row group, or an
// error.
type pqItem struct {
	b   *pqBatch
	end bool
	err error
}

// errStopped ends a worker whose caller has stopped listening.
var errStopped = errors.New("bench: parallel scan stopped")

// pqScanParallel runs q like pqScan, over len(files) goroutines. files are
// views of one file, one per worker (they may share what is safe to share,
// not their caches); it uses fewer workers when the file has fewer row
// groups. Every goroutine it starts has ended when it returns.
func pqScanParallel(files []pqFile, q *Query, batch int) (QueryResult, error) {
	out := rowFilter{q: q}
	rows, err := pqParallel(files, q, batch, out.addSelected)
	out.res.RowsDecoded = rows
	return out.res, err
}

// pqParallel is pqScanParallel with the consumer apart: consume receives
// the batches with matches, in row-group order, on the calling goroutine
// (sel nil: every row of c is returned); c and sel are valid until it
// returns. It returns the rows the workers decoded.
func pqParallel(files []pqFile, q *Query, batch int, consume func(c *Chunk, sel []bool, m int)) (int64, error) {
	if len(files) == 0 {
		return 0, errors.New("bench: parallel scan without files")
	}
	groups := files[0].NumRowGroups()
	n := max(1, min(len(files), groups))
	type worker struct {
		s    *rgScan
		out  chan pqItem
		free chan *pqBatch
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	ws := make([]*worker, n)
	for w := range ws {
		wk := &worker{s: newRGScan(files[w], q, batch),
			out: make(chan pqItem, pqBatchesPerWorker), free: make(chan *pqBatch, pqBatchesPerWorker)}
		for range pqBatchesPerWorker {
			wk.free <- new(pqBatch)
		}
		ws[w] = wk
	}
	for w, wk := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer wk.s.closeAll()
			send := func(it pqItem) bool {
				select {
				case wk.out <- it:
					return true
				case <-stop:
					return false
				}
			}
			take := func() *pqBatch {
				select {
				case b := <-wk.free:
					return b
				case <-stop:
					return nil
				}
			}
			b := take()
			if b == nil {
				return
			}
			emit := func(c *Chunk, sel []bool, m int) (*Chunk, error) {
				// c is &b.c; sel is the scan's buffer, reused for its next batch
				if sel == nil {
					b.sel = nil
				} else {
					b.buf = append(b.buf[:0], sel...)
					b.sel = b.buf
				}
				b.m = m
				if !send(pqItem{b: b}) {
					return nil, errStopped
				}
				if b = take(); b == nil {
					return nil, errStopped
				}
				return &b.c, nil
			}
			for rg := w; rg < groups; rg += n {
				if err := wk.s.rowGroup(rg, &b.c, emit); err != nil {
					if err != errStopped {
						send(pqItem{err: err})
					}
					return
				}
				if !send(pqItem{end: true}) {
					return
				}
			}
		}()
	}

	var err error
loop:
	for rg := range groups {
		wk := ws[rg%n]
		for {
			it := <-wk.out
			if it.err != nil {
				err = it.err
				break loop
			}
			if it.end {
				break
			}
			consume(&it.b.c, it.b.sel, it.b.m)
			wk.free <- it.b
		}
	}
	close(stop)
	wg.Wait()
	var rows int64
	for _, wk := range ws {
		rows += wk.s.f.res.RowsDecoded
	}
	return rows, err
}
