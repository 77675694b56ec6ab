package writer

import (
	"errors"
	"io"
	"reflect"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/structmap"
)

// Decimal is a decimal value of a row struct field: Unscaled / 10^Scale.
// It maps to decimal(38,10) unless the field's tag says
// `orc:"name,decimal(p,s)"`. On write it is rescaled to the column's
// scale; a value that would lose digits or exceed the precision is an
// error. It is orc.DecimalValue (fields Unscaled orc.Int128 and Scale int; make
// one with orc.DecimalOf("12.50")), as is reader.Decimal.
type Decimal = orc.DecimalValue

// rowBatchSize is the number of rows a RowWriter buffers before it encodes
// them into the file.
const rowBatchSize = 1024

// RowWriter writes rows of a struct type T as an ORC file whose schema is
// derived from T. Fields map to columns by their `orc:"name"` tags (the Go
// field name when untagged, `orc:"-"` to skip); tag options choose among
// ORC types: `orc:"day,date"` and `orc:"at,instant"` on time.Time,
// `orc:"price,decimal(10,2)"` on Decimal, `orc:"code,char(3)"` and
// `orc:"name,varchar(40)"` on strings. Pointers are nullable columns;
// slices are arrays ([]byte is binary); maps are maps, their entries
// written in key order. time.Time is written as its UTC wall clock for
// timestamps, as its own calendar date for dates. Unsigned integers use the
// next wider signed type (uint8 smallint, uint16 int, uint32 and uint64
// bigint).
//
// A RowWriter belongs to one goroutine. It buffers up to 1024 rows in a
// batch, which it writes when full and at Close.
type RowWriter[T any] struct {
	w      *Writer
	enc    *structmap.Encoder
	batch  *orc.Batch
	err    error // the first error of the Writer, returned by every later call
	closed bool
}

// NewRowWriter derives the schema from T, which must be a struct type,
// and starts a file with the options of NewWriter. An unsupported field
// type (channel, function, interface, complex, uintptr, array, recursive
// type) or a misplaced tag option is an error naming the field.
func NewRowWriter[T any](w io.Writer, opts ...Option) (*RowWriter[T], error) {
	enc, err := structmap.NewEncoder(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	wr, err := NewWriter(w, enc.Schema(), opts...)
	if err != nil {
		return nil, err
	}
	return &RowWriter[T]{w: wr, enc: enc, batch: orc.NewBatch(wr.Schema(), rowBatchSize)}, nil
}

// Schema returns the file's schema, derived from T.
func (rw *RowWriter[T]) Schema() *orc.Schema { return rw.w.Schema() }

// Write adds rows to the file. A row holding a value its column cannot
// store (a Decimal that does not fit, a uint64 above 2^63-1) stops the
// call: the rows before it are written, it and the rest are not, and the
// error names its index in rows and the field; the writer stays usable.
// Errors of the underlying Writer are sticky: I/O and encoding failures, as
// with Writer.Write, and also a buffered batch the Writer refuses (a
// string field holding invalid UTF-8, a time.Time outside
// MinTimestampSeconds..MaxTimestampSeconds), since that batch holds rows of earlier calls that cannot be
// told apart: every later call returns that first error.
func (rw *RowWriter[T]) Write(rows ...T) error {
	if rw.err != nil {
		return rw.err
	}
	if rw.closed {
		return ErrClosed
	}
	for done := 0; done < len(rows); {
		k := min(len(rows)-done, rowBatchSize-rw.batch.NumRows)
		n, err := structmap.Encode(rw.enc, rw.batch, rows[done:done+k])
		if rw.batch.NumRows == rowBatchSize {
			if ferr := rw.flush(); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			var ve *structmap.ValueError
			if errors.As(err, &ve) {
				ve.Row += done
			}
			return err
		}
		done += n
	}
	return nil
}

// flush writes the buffered rows.
func (rw *RowWriter[T]) flush() error {
	if rw.batch.NumRows == 0 {
		return nil
	}
	if err := rw.w.Write(rw.batch); err != nil {
		rw.err = err
		return err
	}
	rw.batch.Reset()
	return nil
}

// Close writes the buffered rows and the file tail. It does not close the
// io.Writer. After a successful Close, calling it again returns nil; after
// a failed one, or a failed Write, every call returns that first error, as
// Writer does.
func (rw *RowWriter[T]) Close() error {
	if rw.err != nil {
		return rw.err
	}
	if rw.closed {
		return nil
	}
	rw.closed = true
	if err := rw.flush(); err != nil {
		return err
	}
	if err := rw.w.Close(); err != nil {
		rw.err = err
		return err
	}
	return nil
}
