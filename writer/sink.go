package writer

// Writing stripes out in the background (WithParallelism). Once a stripe's
// streams are flushed, its bytes (index streams, data pages, footer) go to
// the io.Writer from a goroutine of their own while the next stripe
// encodes: on two cores the write of a 64 MiB stripe to a file, some
// 100 ms of copying into the page cache with the other core idle, then
// overlaps the encoding. The data pages are not copied: the streams hand
// them over (format.OutStream.DetachPages) and the goroutine gives them
// back to the page pool as it writes them, where the next stripe's streams
// find them. The small parts (row indexes, bloom filters, the footer) are
// copied into an arena of the job, since they pass through the scratch
// stream.
//
// One stripe is in flight at a time, and the next waits for it when the
// memory of its pages not yet written (their whole arrays: a page is
// partly empty), the open stripe's hold and the pool's free pages together
// pass 1.25 x the stripe size, so a slow io.Writer cannot make the heap
// hold two stripes. The pool counts because a slow write is when it
// fills: the open stripe's streams take new pages where the pool has none
// of the size they want, and the written stripe's pages then come back to
// it while those are in use. For the same reason the pool keeps, for the
// next stripe to start in, only pages that leave it room to grow
// (fitReserve). A failed write is the writer's sticky error from the next call
// on. Close and Reset wait for the write in flight; nothing touches the
// io.Writer after they return. The serial writer (parallelism 1) writes
// each stripe itself, as the single-threaded writers it is compared with
// do.

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/orcgo/orc/format"
)

// stripeSink writes finished stripes on a goroutine of its own.
type stripeSink struct {
	pool *format.PagePool

	collecting bool     // flushStripe is gathering the job: writeRaw appends to it
	job        *sinkJob // the job being gathered
	spare      *sinkJob // the last job written, for reuse

	flight *sinkJob      // the job being written, or nil
	done   chan struct{} // closed when flight has been written (or stopped)
}

// sinkJob is one stripe's bytes in file order.
type sinkJob struct {
	out    io.Writer
	offset int64 // file offset of the first byte
	segs   []segment
	arena  []byte   // copied parts
	pages  [][]byte // DetachPages' scratch
	own    [][]byte // DetachPages' scratch

	left atomic.Int64 // memory of the segments not written yet (segment.holds)
	stop atomic.Bool  // Reset: write nothing more
	err  error        // the failure, readable once done is closed
}

// segment is a page, or (page nil) arena[lo:hi]. full is the page's whole
// array when it came from the pool, to give back once written.
type segment struct {
	page, full []byte
	lo, hi     int
}

// holds is the memory the segment keeps until it is written: the whole
// array of a page from the pool (a page is partly empty), else its bytes.
func (s segment) holds() int64 {
	switch {
	case s.full != nil:
		return int64(cap(s.full))
	case s.page != nil:
		return int64(len(s.page))
	}
	return int64(s.hi - s.lo)
}

// holds is the memory of the job's segments.
func (j *sinkJob) holds() int64 {
	var n int64
	for _, s := range j.segs {
		n += s.holds()
	}
	return n
}

// begin starts gathering a stripe's bytes for out at offset.
func (k *stripeSink) begin(out io.Writer, offset int64) {
	j := k.spare
	k.spare = nil
	if j == nil {
		j = new(sinkJob)
	}
	j.out, j.offset, j.err = out, offset, nil
	j.segs, j.arena = j.segs[:0], j.arena[:0]
	j.left.Store(0)
	j.stop.Store(false)
	k.job, k.collecting = j, true
}

// copyIn adds a copy of b to the job being gathered.
func (k *stripeSink) copyIn(b []byte) {
	j := k.job
	lo := len(j.arena)
	j.arena = append(j.arena, b...)
	j.segs = append(j.segs, segment{lo: lo, hi: len(j.arena)})
}

// detach adds the stored pages of s to the job being gathered.
func (k *stripeSink) detach(s *format.OutStream) error {
	j := k.job
	var err error
	j.pages, j.own, err = s.DetachPages(j.pages[:0], j.own[:0])
	pooled := len(j.own) == len(j.pages)
	for i, pg := range j.pages {
		sg := segment{page: pg}
		if pooled {
			sg.full = j.own[i]
		}
		j.segs = append(j.segs, sg)
	}
	clear(j.pages)
	clear(j.own)
	return err
}

// abandon drops the job being gathered after a failure; its pages go back
// to the pool.
func (k *stripeSink) abandon() {
	if j := k.job; j != nil {
		j.giveBack(k.pool)
		k.job, k.spare = nil, j
	}
	k.collecting = false
}

// launch writes the gathered job on a goroutine of its own. The job before
// it must have been waited for.
func (k *stripeSink) launch() {
	j := k.job
	k.job, k.collecting = nil, false
	j.left.Store(j.holds())
	k.flight, k.done = j, make(chan struct{})
	go k.run(j, k.done)
}

func (k *stripeSink) run(j *sinkJob, done chan struct{}) {
	defer close(done)
	off := j.offset
	for i, s := range j.segs {
		if j.stop.Load() {
			break
		}
		b := s.page
		if b == nil {
			b = j.arena[s.lo:s.hi]
		}
		n, err := j.out.Write(b)
		off += int64(n)
		if err == nil && n < len(b) {
			err = io.ErrShortWrite
		}
		if err != nil {
			j.err = fmt.Errorf("orc: writing at offset %d: %w", off, err)
			break
		}
		j.left.Add(-s.holds())
		if s.full != nil {
			// At once: the next stripe's streams are filling up.
			k.pool.Give(s.full)
		}
		j.segs[i] = segment{}
	}
	j.giveBack(k.pool) // what a failure or stop left
}

// giveBack gives the pool the pages of segments not written and empties
// the job.
func (j *sinkJob) giveBack(pool *format.PagePool) {
	for _, s := range j.segs {
		if s.full != nil {
			pool.Give(s.full)
		}
	}
	clear(j.segs)
	j.segs = j.segs[:0]
}

// busy reports whether a job is in flight and how many of its bytes are
// not written yet.
func (k *stripeSink) busy() (bool, int64) {
	if k.flight == nil {
		return false, 0
	}
	select {
	case <-k.done:
		return false, 0
	default:
		return true, k.flight.left.Load()
	}
}

// failed returns the error of a job that has ended, without waiting.
func (k *stripeSink) failed() error {
	if k.flight == nil {
		return nil
	}
	select {
	case <-k.done:
		return k.wait()
	default:
		return nil
	}
}

// wait waits for the job in flight and returns its error.
func (k *stripeSink) wait() error {
	j := k.flight
	if j == nil {
		return nil
	}
	<-k.done
	k.flight, k.done = nil, nil
	err := j.err
	k.spare = j
	return err
}

// stop makes the job in flight write nothing more and waits for it.
func (k *stripeSink) stop() {
	if k.flight != nil {
		k.flight.stop.Store(true)
		k.wait()
	}
	k.abandon()
}
