package reader

import (
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/structmap"
)

// Decimal is a decimal value of a row struct field: Unscaled / 10^Scale,
// with Scale the column's. It is orc.DecimalValue (fields Unscaled orc.Int128 and
// Scale int), as is writer.Decimal.
type Decimal = orc.DecimalValue

// RowReader reads the rows of a file into values of a struct type T. Each
// field of T reads the column named by its `orc:"name"` tag (the Go field
// name when untagged; an exact match first, else the one column matching
// ignoring case); nested struct fields match struct fields the same way.
// Only the columns T uses are read.
//
// Conversions: an integer field reads any integer column whose values fit
// it (checked per value); float64 reads float and double; string reads
// string, char and varchar; []byte those and binary; time.Time reads
// timestamps (as their wall clock in UTC, or the instant in UTC) and dates
// (midnight UTC); Decimal reads any decimal. A null reads as a nil pointer,
// or as the zero value in a non-pointer field. Empty and null lists, maps
// and binary values read as nil.
//
// A RowReader belongs to one goroutine. The rows it fills own their
// memory: nothing in them is reused by later reads.
type RowReader[T any] struct {
	br    *BatchReader
	dec   *structmap.Decoder
	batch *orc.Batch
	pos   int // next row of batch to hand out
	err   error
}

// NewRowReader starts a scan of the file into rows of T, which must be a
// struct type. It selects T's columns with WithColumns, followed by opts
// (a WithColumns in opts replaces that selection; T's columns must stay in
// it). WithSearchArgument, WithExactFilter and WithBatchSize work as for
// NewBatchReader. A field whose column the file lacks is an error (a tag
// naming no column, a misspelt name), unless WithLenientFields reads it as
// its zero value (and always when no field of a struct finds a column); a
// field whose column's type it cannot hold is an error naming both.
func NewRowReader[T any](r *Reader, opts ...ScanOption) (*RowReader[T], error) {
	t := reflect.TypeFor[T]()
	cfg := defaultScanConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	lenient := cfg.lenientFields
	paths, ok, err := structmap.Columns(t, r.Schema(), lenient)
	if err != nil {
		return nil, fieldsError(err, lenient)
	}
	var all []ScanOption
	if ok {
		all = append(all, WithColumns(paths...))
	}
	all = append(all, opts...)
	br, err := r.NewBatchReader(all...)
	if err != nil {
		return nil, err
	}
	dec, err := structmap.NewLenientDecoder(t, br.Schema(), lenient)
	if err != nil {
		br.Close()
		return nil, fieldsError(err, lenient)
	}
	return &RowReader[T]{br: br, dec: dec, batch: br.NewBatch()}, nil
}

// fieldsError is an error of mapping the row type to the file's columns,
// pointing to WithLenientFields when a field's column is missing.
func fieldsError(err error, lenient bool) error {
	if !lenient && errors.Is(err, structmap.ErrNoColumn) {
		return fmt.Errorf("%w (WithLenientFields reads such fields as zero values)", err)
	}
	return err
}

// Read fills dst with the next rows and returns how many it filled. It
// fills all of dst unless the file ends first; it returns 0 and io.EOF
// when no rows remain. On another error the rows dst[:n] are valid, and
// every later call returns the same error.
func (rr *RowReader[T]) Read(dst []T) (int, error) {
	if rr.err != nil {
		return 0, rr.err
	}
	n := 0
	for n < len(dst) {
		if rr.pos == rr.batch.NumRows {
			if err := rr.br.Next(rr.batch); err != nil {
				rr.err = err
				if err == io.EOF && n > 0 {
					return n, nil
				}
				return n, err
			}
			rr.batch.Compact() // an option's selection (WithSelection)
			rr.pos = 0
		}
		k := min(len(dst)-n, rr.batch.NumRows-rr.pos)
		if err := structmap.Decode(rr.dec, rr.batch, rr.pos, dst[n:n+k]); err != nil {
			rr.err = err
			return n, err
		}
		rr.pos += k
		n += k
	}
	return n, nil
}

// Schema returns the schema of the columns read: the file's, cut to T's
// columns (and a search argument's).
func (rr *RowReader[T]) Schema() *orc.Schema { return rr.br.Schema() }

// Stats returns the scan's work so far, as BatchReader.Stats.
func (rr *RowReader[T]) Stats() ScanStats { return rr.br.Stats() }
