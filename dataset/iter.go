package dataset

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"reflect"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/structmap"
	"github.com/orcgo/orc/reader"
)

// WithContext makes the scan stop when ctx is done: the scan closes
// itself (its files' reads and opens ahead stop), and Next returns
// ctx.Err() from then on. Default: no context.
func WithContext(ctx context.Context) ScanOption {
	return func(c *scanConfig) error {
		if ctx == nil {
			return errors.New("dataset: WithContext(nil)")
		}
		c.ctx = ctx
		return nil
	}
}

// All returns an iterator over the scan's batches: one batch, from
// NewBatch, refilled at each step (copy what must outlive the step). It
// stops at the end, or after yielding a nil batch and the error. Breaking
// out of the loop leaves the scan open (Close it), as with
// reader.BatchReader.All.
func (s *Scanner) All() iter.Seq2[*orc.Batch, error] { return reader.Batches(s) }

// Rows scans the dataset into values of struct type T, mapped to columns
// as reader.RowReader maps them (partition columns included; a field
// whose column the table lacks is an error naming both, or with
// WithLenientFields reads as its zero value). It reads only
// the columns T uses unless opts hold a WithColumns, which then replaces
// that selection. The scan starts when the loop does and ends with it;
// each row owns its memory. The iterator stops at the end, or after
// yielding a zero row and the error.
//
//	for t, err := range dataset.Rows[Trade](d, dataset.WithSearchArgument(e)) {
//		if err != nil {
//			return err
//		}
//		// use t
//	}
func Rows[T any](d *Dataset, opts ...ScanOption) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		s, dec, err := rowScan[T](d, opts)
		if err != nil {
			yield(zero, err)
			return
		}
		defer s.Close()
		buf := make([]T, 256)
		for b, err := range s.All() {
			if err != nil {
				yield(zero, err)
				return
			}
			for start := 0; start < b.NumRows; start += len(buf) {
				n := min(len(buf), b.NumRows-start)
				if err := structmap.Decode(dec, b, start, buf[:n]); err != nil {
					yield(zero, err)
					return
				}
				for i := range n {
					if !yield(buf[i], nil) {
						return
					}
				}
			}
		}
	}
}

// ReadAll scans the dataset into a slice of T (see Rows).
func ReadAll[T any](d *Dataset, opts ...ScanOption) ([]T, error) {
	var out []T
	for row, err := range Rows[T](d, opts...) {
		if err != nil {
			return out, err
		}
		out = append(out, row)
	}
	return out, nil
}

// rowScan starts the scan of Rows: T's columns, then opts.
func rowScan[T any](d *Dataset, opts []ScanOption) (*Scanner, *structmap.Decoder, error) {
	t := reflect.TypeFor[T]()
	var cfg scanConfig // only for WithLenientFields; Scan checks the options
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	lenient := cfg.lenientFields
	paths, ok, err := structmap.Columns(t, d.Schema(), lenient)
	if err != nil {
		return nil, nil, strictError(err, lenient)
	}
	var all []ScanOption
	if ok {
		all = append(all, WithColumns(paths...))
	}
	s, err := d.Scan(append(all, opts...)...)
	if err != nil {
		return nil, nil, err
	}
	dec, err := structmap.NewLenientDecoder(t, s.Schema(), lenient)
	if err != nil {
		s.Close()
		return nil, nil, strictError(err, lenient)
	}
	return s, dec, nil
}

// strictError is an error of mapping the row type to the table's columns,
// pointing to WithLenientFields when a field's column is missing.
func strictError(err error, lenient bool) error {
	if !lenient && errors.Is(err, structmap.ErrNoColumn) {
		return fmt.Errorf("dataset: %w (WithLenientFields reads such fields as zero values)", err)
	}
	return fmt.Errorf("dataset: %w", err)
}
