package reader

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc"
)

// BatchReader decodes the rows of a file, batch by batch, into reusable
// typed vectors. It belongs to one goroutine, but for Close, which may come
// from any.
//
// It is a handle over the scan it runs: an executor (a serial scan, which
// plans and decodes stripe after stripe), a coordinator of executors
// (WithParallelism) or a schema evolution over one of those
// (WithReadSchema), each built once by NewBatchReader.
type BatchReader struct {
	scan      scanner
	schema    *orc.Schema    // the batches' schema
	proj      *outProjection // the predicate's columns the caller did not name, cut out; or nil
	batchSize int
	ctx       context.Context // WithContext, or nil
	err       error           // the scan's error, returned from then on
	released  bool            // the scan gave back what it held
	// Close may come from another goroutine: it sets closed, which Next
	// checks first, and interrupts the scan; whichever of Close and a
	// running Next holds mu last gives back the scan's buffers.
	mu     sync.Mutex
	closed atomic.Bool
}

// scanner is what a BatchReader runs.
type scanner interface {
	// next fills b with the next rows; io.EOF when none remain.
	next(b *orc.Batch) error
	scanStats() ScanStats
	explainText() string
	// interrupt stops the scan from any goroutine, without waiting: its
	// goroutines end and reads waiting for bytes read ahead return.
	interrupt()
	// release gives back what the scan holds, with mu held: it is over.
	release()
}

var (
	_ scanner = (*executor)(nil)
	_ scanner = (*parallel)(nil)
	_ scanner = (*evolution)(nil)
)

// Schema returns the schema of the batches: the file's (or the read
// schema's), cut to the columns WithColumns names, in the order named (a
// struct's fields in the file's, or the read schema's, order). A search
// argument's columns are read to prune and filter but appear only when
// named.
func (br *BatchReader) Schema() *orc.Schema { return br.schema }

// NewBatch returns a batch shaped for this reader with room for its batch
// size.
func (br *BatchReader) NewBatch() *orc.Batch { return orc.NewBatch(br.schema, br.batchSize) }

// Stats returns the work done so far.
func (br *BatchReader) Stats() ScanStats { return br.scan.scanStats() }

// Explain returns the pruning decisions recorded with WithExplain.
func (br *BatchReader) Explain() string { return br.scan.explainText() }

// Next fills b with the next rows, at most the batch size and never across a
// stripe or row-group run boundary. It returns io.EOF when no rows remain. b
// must come from NewBatch (or have the same schema). The vectors in b.Cols
// may be replaced by others of the same types (a parallel scan hands over
// its workers' vectors), but in place: b.Cols itself stays the caller's
// slice, so a view of a larger slice sees the rows too.
func (br *BatchReader) Next(b *orc.Batch) error {
	if br.closed.Load() {
		return io.EOF
	}
	br.mu.Lock()
	err := br.nextLocked(b)
	br.mu.Unlock()
	if br.closed.Load() {
		br.tryRelease() // Close came meanwhile
	}
	return err
}

// nextLocked is Next with mu held.
func (br *BatchReader) nextLocked(b *orc.Batch) error {
	if br.err != nil {
		return br.err
	}
	if err := br.checkBatch(b); err != nil {
		return err // the caller's mistake: the scan goes on with a good batch
	}
	if br.ctx != nil {
		if err := br.ctx.Err(); err != nil {
			br.err = err
			br.scan.interrupt() // parallel workers stop
			return err
		}
	}
	var err error
	if br.proj != nil {
		err = br.scan.next(br.proj.before(b))
		br.proj.after(b)
	} else {
		err = br.scan.next(b)
	}
	switch {
	case err == nil || err == io.EOF:
	case br.closed.Load():
		err = io.EOF // closed meanwhile: Close stopped the read, or it no longer matters
	default:
		br.err = err
	}
	return err
}

// Close stops a scan early, releasing its goroutines (WithParallelism) and
// buffers. It is safe to call at any time, more than once and from any
// goroutine, and returns at once: a Next running meanwhile returns after
// the batch it is decoding (at once when it waits for bytes the scan reads
// ahead; when the read it waits for ends otherwise) and gives back the
// buffers then, and every Next after Close returns io.EOF.
func (br *BatchReader) Close() error {
	br.closed.Store(true)
	br.scan.interrupt()
	br.tryRelease()
	return nil
}

// tryRelease gives back what the scan holds, unless a Next is running: it
// does so as it returns.
func (br *BatchReader) tryRelease() {
	if br.mu.TryLock() {
		if !br.released {
			br.released = true
			br.scan.release()
		}
		br.mu.Unlock()
	}
}
