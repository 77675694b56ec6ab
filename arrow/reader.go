package orcarrow

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// Option configures a RecordReader.
type Option func(*config) error

type config struct {
	mem   memory.Allocator
	scan  []reader.ScanOption
	reuse bool
}

// WithAllocator sets the allocator of the Arrow buffers the reader builds
// (validity bitmaps, narrowed integers, offsets, timestamps, decimals); the
// buffers that alias decoded ORC values are Go memory and are not counted.
// Default memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) error {
		if mem == nil {
			return errors.New("orcarrow: WithAllocator: nil allocator")
		}
		c.mem = mem
		return nil
	}
}

// WithReuse makes the reader decode every batch into the same ORC vectors
// and copy their values into each record, instead of decoding into fresh
// vectors that the record aliases. Records are independent either way; with
// reuse the scan allocates only the records' buffers (all from the
// allocator), which is faster when records are released promptly. Default
// false: bigint, double, string and binary values are shared, not copied.
func WithReuse(on bool) Option {
	return func(c *config) error {
		c.reuse = on
		return nil
	}
}

// WithScanOptions passes options to the scan FromReader starts (columns,
// search argument, exact filter, batch size, parallelism). NewRecordReader,
// given a scan already started, refuses it.
func WithScanOptions(opts ...reader.ScanOption) Option {
	return func(c *config) error {
		c.scan = append(c.scan, opts...)
		return nil
	}
}

func newConfig(opts []Option) (*config, error) {
	c := &config{mem: memory.DefaultAllocator}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// RecordReader reads the batches of an ORC scan as Arrow record batches. It
// implements array.RecordReader and belongs to one goroutine.
//
// Memory: every record gets a fresh ORC batch to decode into, and the arrays
// of bigint and double columns and the bytes of string and binary columns
// alias that batch's values; nothing is reused, so a record stays valid and
// unchanged after later calls to Next for as long as the caller holds it
// (Retain it to keep it past the next Next). The other buffers come from the
// allocator (WithAllocator) and are freed when the record is released. With
// WithReuse(true) the batch is reused and every buffer is a copy from the
// allocator instead; records are just as independent.
type RecordReader struct {
	refs   atomic.Int64
	br     *reader.BatchReader
	schema *arrow.Schema
	cols   []*toArrow
	mem    memory.Allocator
	cur    arrow.RecordBatch
	err    error
	done   bool
	reuse  bool
	batch  *orc.Batch // the reused batch (WithReuse)
}

var _ array.RecordReader = (*RecordReader)(nil)

// NewRecordReader returns a reader of the batches of br as Arrow records.
// The scan keeps what br was started with: its columns (the record schema
// is br.Schema() mapped by ArrowSchema), search argument and exact filter.
// Release closes br.
func NewRecordReader(br *reader.BatchReader, opts ...Option) (*RecordReader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if len(c.scan) > 0 {
		return nil, errors.New("orcarrow: NewRecordReader: WithScanOptions needs FromReader; the BatchReader's scan is already set")
	}
	if br == nil {
		return nil, errors.New("orcarrow: NewRecordReader: nil BatchReader")
	}
	return newRecordReader(br, c)
}

// FromReader starts a scan of r with the options of WithScanOptions and
// returns its records. Release closes the scan (not r's file).
func FromReader(r *reader.Reader, opts ...Option) (*RecordReader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errors.New("orcarrow: FromReader: nil Reader")
	}
	br, err := r.NewBatchReader(c.scan...)
	if err != nil {
		return nil, err
	}
	rr, err := newRecordReader(br, c)
	if err != nil {
		br.Close()
		return nil, err
	}
	return rr, nil
}

func newRecordReader(br *reader.BatchReader, c *config) (*RecordReader, error) {
	s := br.Schema()
	as, err := ArrowSchema(s)
	if err != nil {
		return nil, err
	}
	rr := &RecordReader{br: br, schema: as, mem: c.mem, reuse: c.reuse}
	rr.setColumns(s)
	rr.refs.Store(1)
	return rr, nil
}

// Schema returns the schema of the records.
func (rr *RecordReader) Schema() *arrow.Schema { return rr.schema }

// Next reads the next record, releasing the previous one (callers that keep
// it Retain it first). It returns false at the end of the scan or on an
// error; Err tells which.
func (rr *RecordReader) Next() bool {
	if rr.cur != nil {
		rr.cur.Release()
		rr.cur = nil
	}
	if rr.done || rr.err != nil {
		return false
	}
	b := rr.batch
	if b == nil || !rr.reuse {
		b = rr.br.NewBatch()
		if rr.reuse {
			rr.batch = b
		}
	}
	if err := rr.br.Next(b); err != nil {
		rr.done = true
		if err != io.EOF {
			rr.err = err
		}
		return false
	}
	b.Compact() // a scan option's selection (reader.WithSelection)
	rec, err := rr.convert(b)
	if err != nil {
		rr.err = err
		return false
	}
	rr.cur = rec
	return true
}

// Convert returns batch b, of ORC schema s, as one Arrow record
// batch with ArrowSchema(s), building buffers with mem (nil means
// memory.DefaultAllocator). b must be consistent as the ORC writer requires
// (an inconsistent one is an error). The record aliases b's bigint and double values
// and string bytes: b must not be reset or refilled while the record is in
// use.
func Convert(s *orc.Schema, b *orc.Batch, mem memory.Allocator) (arrow.RecordBatch, error) {
	as, err := ArrowSchema(s)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rr := &RecordReader{schema: as, mem: mem}
	rr.setColumns(s)
	return rr.safeConvert(b)
}

// safeConvert is convert for batches built by hand, whose offsets or lengths
// may be inconsistent: such a batch is an error, not a crash.
func (rr *RecordReader) safeConvert(b *orc.Batch) (rec arrow.RecordBatch, err error) {
	defer func() {
		if r := recover(); r != nil {
			rec, err = nil, fmt.Errorf("orcarrow: inconsistent batch (vector lengths or offsets): %v", r)
		}
	}()
	return rr.convert(b)
}

func (rr *RecordReader) setColumns(s *orc.Schema) {
	names, types := columnTypes(s)
	for i, t := range types {
		rr.cols = append(rr.cols, newToArrow(names[i], t, rr.schema.Field(i).Type, rr.reuse))
	}
}

func (rr *RecordReader) convert(b *orc.Batch) (arrow.RecordBatch, error) {
	if len(b.Cols) != len(rr.cols) {
		return nil, fmt.Errorf("orcarrow: batch has %d columns, schema %d", len(b.Cols), len(rr.cols))
	}
	arrs := make([]arrow.Array, 0, len(rr.cols))
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	for i, c := range rr.cols {
		if n := b.Cols[i].Len(); n != b.NumRows {
			return nil, c.errorf("vector has %d rows, batch %d", n, b.NumRows)
		}
		d, err := c.build(rr.mem, b.Cols[i], nil)
		if err != nil {
			return nil, err
		}
		arrs = append(arrs, array.MakeFromData(d))
		d.Release()
	}
	return array.NewRecordBatch(rr.schema, arrs, int64(b.NumRows)), nil
}

// RecordBatch returns the record read by the last Next. It is valid until
// the next call to Next or Release unless retained.
func (rr *RecordReader) RecordBatch() arrow.RecordBatch { return rr.cur }

// Record returns RecordBatch().
//
// Deprecated: use RecordBatch (arrow-go renamed Record to RecordBatch).
func (rr *RecordReader) Record() arrow.RecordBatch { return rr.cur }

// Err returns the error that ended the scan, or nil at its end.
func (rr *RecordReader) Err() error { return rr.err }

// Stats returns the scan's work so far (rows and bytes read, row groups
// skipped).
func (rr *RecordReader) Stats() reader.ScanStats { return rr.br.Stats() }

// Retain adds a reference.
func (rr *RecordReader) Retain() { rr.refs.Add(1) }

// Release drops a reference; the last one releases the current record and
// closes the BatchReader.
func (rr *RecordReader) Release() {
	if rr.refs.Add(-1) == 0 {
		if rr.cur != nil {
			rr.cur.Release()
			rr.cur = nil
		}
		rr.done = true
		rr.br.Close()
	}
}
