package reader

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/orcgo/orc"
)

// WithContext makes the scan stop when ctx is done: Next checks it before
// each batch and each stripe or run it starts (so before each read), and
// returns ctx.Err() from then on. Parallel workers stop too. Default: no
// context.
func WithContext(ctx context.Context) ScanOption {
	return func(c *scanConfig) error {
		if ctx == nil {
			return fmt.Errorf("orc: WithContext(nil)")
		}
		c.ctx = ctx
		return nil
	}
}

// ctxErr returns the scan context's error, or nil.
func (br *executor) ctxErr() error {
	if br.cfg.ctx == nil {
		return nil
	}
	return br.cfg.ctx.Err()
}

// All returns an iterator over the scan's batches: the same batch, from
// NewBatch, refilled at each step (copy what must outlive the step). It
// stops at the end of the file, or after yielding a nil batch and the
// error; breaking out of the loop leaves the BatchReader open (Close it).
//
//	for b, err := range br.All() {
//		if err != nil {
//			return err
//		}
//		// b.NumRows rows in b.Cols
//	}
func (br *BatchReader) All() iter.Seq2[*orc.Batch, error] { return Batches(br) }

// EachBatch scans the file with opts and calls fn with each batch in
// order: the same batch, refilled at each step (copy what must outlive the
// call). It returns the first error of the scan or of fn (fn's as it is),
// or nil once every batch is done, and closes its BatchReader either way.
// It is NewBatchReader, Close and a loop over All in one call, for a
// caller that needs nothing else of the BatchReader (its Stats, say).
func (r *Reader) EachBatch(fn func(b *orc.Batch) error, opts ...ScanOption) error {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return err
	}
	defer br.Close()
	for b, err := range br.All() {
		if err != nil {
			return err
		}
		if err := fn(b); err != nil {
			return err
		}
	}
	return nil
}

// BatchSource is a scan that fills batches: a BatchReader, or a scan of
// many files (dataset.Scanner).
type BatchSource interface {
	// NewBatch returns a batch the scan can fill.
	NewBatch() *orc.Batch
	// Next fills b with the next rows; io.EOF at the end.
	Next(b *orc.Batch) error
}

// Batches returns an iterator over src's batches, as BatchReader.All
// does: one batch, from NewBatch, refilled at each step; it stops at
// io.EOF, or after yielding a nil batch and the error.
func Batches(src BatchSource) iter.Seq2[*orc.Batch, error] {
	return func(yield func(*orc.Batch, error) bool) {
		b := src.NewBatch()
		for {
			err := src.Next(b)
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(b, nil) {
				return
			}
		}
	}
}

// All returns an iterator over the rows, read a batch at a time. Each row
// owns its memory. It stops at the end, or after yielding a zero row and
// the error.
func (rr *RowReader[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		buf := make([]T, 256)
		for {
			n, err := rr.Read(buf)
			for i := range n {
				if !yield(buf[i], nil) {
					return
				}
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
		}
	}
}

// Close ends the scan (BatchReader.Close).
func (rr *RowReader[T]) Close() error { return rr.br.Close() }

// ReadFile reads every row of the ORC file at path into values of struct
// type T (see RowReader for the mapping), with opts for the scan (a
// predicate with WithExactFilter, say).
func ReadFile[T any](path string, opts ...ScanOption) ([]T, error) {
	r, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rr, err := NewRowReader[T](r, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer rr.Close()
	rows := make([]T, 0, min(r.NumRows(), 1<<16))
	for row, err := range rr.All() {
		if err != nil {
			return rows, fmt.Errorf("%s: %w", path, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}
