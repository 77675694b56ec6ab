package orcarrow

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// Writer writes Arrow record batches as an ORC file. It belongs to one
// goroutine. The file's schema is ORCSchema of the Arrow schema; field
// metadata restores char and varchar types and ORC attributes.
//
// Write converts each record into ORC vectors the Writer reuses, aliasing
// bigint and double values and string and binary bytes, and hands them to
// the ORC writer, which copies what it keeps: the record may be released as
// soon as Write returns.
type Writer struct {
	w      *writer.Writer
	schema *arrow.Schema
	cols   []*toORC
	batch  *orc.Batch
}

// NewWriter returns a writer of records of the given schema to w, with the
// ORC writer's options (codec, stripe size, row index stride, bloom filters,
// parallelism). Like writer.NewWriter it writes the file header at once;
// Close writes the tail and does not close w.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...writer.Option) (*Writer, error) {
	if schema == nil {
		return nil, errors.New("orcarrow: NewWriter: nil schema")
	}
	orcSchema, err := ORCSchema(schema)
	if err != nil {
		return nil, err
	}
	ow, err := writer.NewWriter(w, orcSchema, opts...)
	if err != nil {
		return nil, err
	}
	wr := &Writer{w: ow, schema: schema, batch: &orc.Batch{Schema: ow.Schema()}}
	_, types := columnTypes(orcSchema)
	for i, f := range schema.Fields() {
		c := newToORC(f.Name, types[i], f)
		wr.cols = append(wr.cols, c)
		wr.batch.Cols = append(wr.batch.Cols, c.vec)
	}
	return wr, nil
}

// Schema returns the Arrow schema records must have.
func (w *Writer) Schema() *arrow.Schema { return w.schema }

// ORCSchema returns the schema of the file being written.
func (w *Writer) ORCSchema() *orc.Schema { return w.w.Schema() }

// Write appends the rows of rec, whose schema must equal the Writer's
// in field names and types (nullability and metadata may differ). A record the
// ORC writer refuses (a value its column cannot store, such as a decimal
// beyond its precision or a string that is not UTF-8) leaves the file as it
// was, as writer.Writer.Write does. Each column must pass array.Validate;
// offsets are trusted as arrow-go trusts them (run array.ValidateFull on
// untrusted input), though a bad one is an error, not a crash.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if rec == nil {
		return errors.New("orcarrow: Write: nil record")
	}
	if err := sameShape(rec.Schema(), w.schema); err != nil {
		return err
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	for i, c := range w.cols {
		col := rec.Column(i)
		if col.Len() != n {
			return c.errorf("column has %d rows, record %d", col.Len(), n)
		}
		if err := array.Validate(col); err != nil {
			return c.errorf("malformed array: %v", err)
		}
		if err := c.safeFill(col, n); err != nil {
			w.unalias()
			return err
		}
	}
	w.batch.NumRows = n
	err := w.w.Write(w.batch)
	w.unalias()
	return err
}

// safeFill fills c from col, turning the panic of an array whose offsets
// array.Validate does not check (ValidateFull would) into an error.
func (c *toORC) safeFill(col arrow.Array, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = c.errorf("malformed array (offsets out of range?): %v", r)
		}
	}()
	return c.fill(col, 0, n, nil)
}

// unalias drops the references the vectors hold into the caller's record.
func (w *Writer) unalias() {
	for _, c := range w.cols {
		c.unalias()
	}
}

func (c *toORC) unalias() {
	switch v := c.vec.(type) {
	case *orc.LongVector:
		v.Values = nil
	case *orc.DoubleVector:
		v.Values = nil
	case *orc.BytesVector:
		v.Data = nil
	}
	for _, ch := range c.children {
		ch.unalias()
	}
}

// AddUserMetadata records a key and value in the file footer.
func (w *Writer) AddUserMetadata(key string, value []byte) error {
	return w.w.AddUserMetadata(key, value)
}

// Close writes the last stripe and the file tail. It does not close the
// underlying io.Writer.
func (w *Writer) Close() error { return w.w.Close() }

// sameShape checks that records of schema got convert as those of want.
func sameShape(got, want *arrow.Schema) error {
	if got.NumFields() != want.NumFields() {
		return fmt.Errorf("orcarrow: Write: record has %d fields, the writer's schema %d", got.NumFields(), want.NumFields())
	}
	for i, f := range want.Fields() {
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("orcarrow: Write: record field %d is %s: %s, the writer's %s: %s", i, g.Name, g.Type, f.Name, f.Type)
		}
	}
	return nil
}
