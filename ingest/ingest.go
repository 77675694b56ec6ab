package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/orcgo/orc"
)

// Format is the form of a text input.
type Format string

// The formats a Reader reads.
const (
	CSV       Format = "csv"
	JSONLines Format = "json"
)

// Options say how text reads as rows. The zero value reads CSV with
// commas, no header, empty fields as nulls, timestamps in the default
// forms and in UTC.
type Options struct {
	// Delimiter separates CSV fields; 0 is a comma.
	Delimiter rune
	// Header says the first CSV line names the columns. Infer may set it
	// when the caller did not decide (HeaderSet false).
	Header bool
	// HeaderSet says the caller decided Header, which Infer then keeps.
	HeaderSet bool
	// FillMissing writes a field the CSV header does not name as nulls
	// instead of failing.
	FillMissing bool
	// Null is the text of a null when NullSet (CSV fields and JSON
	// strings); an empty CSV field is then the empty string in string
	// columns.
	Null    string
	NullSet bool
	// TimestampLayout is a Go time layout timestamps are read with; ""
	// reads the default forms.
	TimestampLayout string
	// Truncate cuts varchar(n) and char(n) values to n characters instead
	// of refusing them.
	Truncate bool
	// Zone is the zone of TIMESTAMP wall clocks and of timestamps that do
	// not name one; nil is UTC.
	Zone *time.Location
	// InferRows is how many rows Infer reads (0: all, up to 64 MiB).
	InferRows int
	// MaxLine bounds one CSV record (a line, or the lines a quoted field
	// joins) and one JSON line, in bytes; 0 is DefaultMaxLine. Longer
	// ones end the input with an error naming their line.
	MaxLine int
	// Note, when not nil, receives notes on the input that are not
	// errors ("line 1: left out 2 columns the schema does not name: ...").
	Note func(msg string)
}

// config is Options as the readers use them.
type config struct {
	delimiter                rune
	header, headerSet        bool
	headerGuessed            bool
	headerAlone              bool
	fillMissing              bool
	text                     textOptions
	zone                     *time.Location
	inferRows, inferredLines int
	note                     func(string)
	maxLine                  int
}

// DefaultMaxLine is the longest CSV record or JSON line read by default:
// 256 MiB.
const DefaultMaxLine = 256 << 20

// lineLimit is the longest record for an Options.MaxLine of n.
func lineLimit(n int) int {
	if n > 0 {
		return n
	}
	return DefaultMaxLine
}

func (o *Options) config() *config {
	c := &config{delimiter: o.Delimiter, header: o.Header, headerSet: o.HeaderSet, fillMissing: o.FillMissing,
		text: textOptions{null: o.Null, nullSet: o.NullSet, tsLayout: o.TimestampLayout, truncate: o.Truncate},
		zone: o.Zone, inferRows: o.InferRows, note: o.Note, maxLine: o.MaxLine}
	if c.delimiter == 0 {
		c.delimiter = ','
	}
	if c.zone == nil {
		c.zone = time.UTC
	}
	return c
}

// Inference is what Infer found.
type Inference struct {
	// Schema is the inferred schema, with its column ids assigned.
	Schema *orc.Schema
	// Lines is how many lines the schema was inferred from.
	Lines int
	// HeaderGuessed says the first CSV line was taken for a header
	// (Options.Header and HeaderSet were false); HeaderAlone that it was
	// the input's only line.
	HeaderGuessed, HeaderAlone bool
}

// Infer infers a schema from the first rows of src (Options.InferRows,
// at most 64 MiB), and returns a reader that reads src from its start
// again. CSV columns are named by the header or _col0, _col1, ... and
// typed as the first of boolean, bigint, decimal(p,s), double, date,
// timestamp and string all their values read as; a first line of text
// above numbers is taken for a header unless Options.HeaderSet. JSON
// objects are structs of the fields seen, in the order first seen.
func Infer(src *bufio.Reader, format Format, opt Options) (Inference, *bufio.Reader, error) {
	c := opt.config()
	s, src, err := inferSchema(src, string(format), c)
	if err != nil {
		return Inference{}, nil, err
	}
	return Inference{Schema: s, Lines: c.inferredLines, HeaderGuessed: c.headerGuessed, HeaderAlone: c.headerAlone}, src, nil
}

// RowError is a row that does not read as the schema: bad CSV or JSON, a
// field count that differs, a value its column cannot hold. The batch is
// as it was before the row, which a caller may skip.
type RowError struct{ Err error }

// Error returns the row's error message.
func (e *RowError) Error() string { return e.Err.Error() }

// Unwrap returns the row's error.
func (e *RowError) Unwrap() error { return e.Err }

// ErrInvalidUTF8 is wrapped by the error of a text that is not UTF-8
// where a string must be.
var ErrInvalidUTF8 = errInvalidUTF8

// Reader appends the rows of a CSV or JSON Lines input to a batch.
type Reader struct {
	next func() (bool, error)
	rb   *rowBuilder
}

// NewReader returns a reader of src's rows into b, whose schema they are
// read as (for CSV, a struct of primitive columns). b's vectors are
// appended to: start with an empty batch, and Reset it after each
// writing.
func NewReader(src io.Reader, format Format, b *orc.Batch, opt Options) *Reader {
	c := opt.config()
	rb := newRowBuilder(b, c.zone)
	text := c.text
	rb.env.text = &text
	r := &Reader{rb: rb}
	if format == CSV {
		s := newCSVSource(src, rb, c)
		s.note = c.note
		r.next = s.next
	} else {
		br, ok := src.(*bufio.Reader)
		if !ok {
			br = bufio.NewReader(src)
		}
		s := newJSONSource(br, rb)
		s.maxLine = c.maxLine
		r.next = s.next
	}
	return r
}

// Next appends one row to the batch and reports whether there was one:
// false with a nil error at the end of the input. A row that does not
// read is a *RowError (the batch unchanged); reading may go on after it.
// Any other error ends the input.
func (r *Reader) Next() (bool, error) { return r.next() }

// Rows returns the number of rows in the batch.
func (r *Reader) Rows() int { return r.rb.rows() }

// ErrorBudget is how many bad rows may be skipped, across inputs.
type ErrorBudget struct {
	// Max is the most rows skipped; 0 skips none.
	Max int
	// Skipped counts the rows skipped so far.
	Skipped int
}

// Skip reports whether err is a bad row to skip within the budget, and
// counts it. Past the budget it returns the error that ends the input.
func (b *ErrorBudget) Skip(err error) (bool, error) {
	var re *RowError
	if !errors.As(err, &re) || b.Max <= 0 {
		return false, err
	}
	if b.Skipped >= b.Max {
		return false, fmt.Errorf("more than %d bad rows (--max-errors), the last: %w", b.Max, re.Err)
	}
	b.Skipped++
	return true, nil
}

// Clip shortens a value quoted in a message: a field of 10,000 digits is
// named by its first 40 bytes and its length.
func Clip(s string) string { return clip(s) }
