package orc

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCorrupt is wrapped by every error caused by bytes that do not form a
// valid ORC file. Test for it with errors.Is.
var ErrCorrupt = errors.New("orc: corrupt file")

// ErrUnsupported is wrapped by errors about valid files that use a feature
// orcgo does not read (a future version, an encrypted column, an unknown codec).
var ErrUnsupported = errors.New("orc: unsupported feature")

// ErrLimit is wrapped by errors about files, or parts of files, that need
// more than a resource limit allows (the reader's WithMax... options): the
// file may be valid, but reading it was refused to bound memory.
var ErrLimit = errors.New("orc: resource limit exceeded")

// ErrInvalidBatch is wrapped by errors about a Batch the caller handed over
// that does not fit: another schema, vectors of the wrong type or length, a
// row count that does not match, values a column cannot hold. It is the
// caller's mistake, not the file's; test for it with errors.Is.
var ErrInvalidBatch = errors.New("orc: invalid batch")

// CorruptError says what is wrong with a file and where. Fields that do not
// apply are -1 (Offset, Stripe, Column) or empty (Stream). It unwraps to
// ErrCorrupt, and to Err when that is set.
type CorruptError struct {
	Offset int64  // absolute file offset of the bad bytes, or -1
	Stripe int    // stripe index, or -1
	Column int    // column id, or -1
	Stream string // stream or section name, such as "DATA" or "footer"
	Msg    string // what is wrong
	Err    error  // underlying cause, if any
	// ColumnPath is the column's path in the file's schema, such as
	// "loc.lat" (Schema.Path), when the one reporting the error knows it.
	ColumnPath string
}

// Corruptf returns a *CorruptError with no location set.
func Corruptf(format string, args ...any) *CorruptError {
	return &CorruptError{Offset: -1, Stripe: -1, Column: -1, Msg: fmt.Sprintf(format, args...)}
}

func (e *CorruptError) Error() string {
	var b strings.Builder
	b.WriteString("orc: corrupt file: ")
	b.WriteString(e.Msg)
	var where []string
	if e.Offset >= 0 {
		where = append(where, fmt.Sprintf("offset %d", e.Offset))
	}
	if e.Stripe >= 0 {
		where = append(where, fmt.Sprintf("stripe %d", e.Stripe))
	}
	if e.Column >= 0 {
		if e.ColumnPath != "" {
			where = append(where, fmt.Sprintf("column %d %q", e.Column, e.ColumnPath))
		} else {
			where = append(where, fmt.Sprintf("column %d", e.Column))
		}
	}
	if e.Stream != "" {
		where = append(where, e.Stream)
	}
	if len(where) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(where, ", "))
		b.WriteString(")")
	}
	if e.Err != nil && !errors.Is(e.Err, ErrCorrupt) {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns ErrCorrupt and the underlying cause.
func (e *CorruptError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrCorrupt, e.Err}
	}
	return []error{ErrCorrupt}
}

// WithLocation returns err annotated with a location. If err already is a
// *CorruptError, its unset fields are filled in (set fields are kept, since the
// innermost layer knows best); any other error is wrapped in a new
// *CorruptError only if it wraps ErrCorrupt, otherwise returned as is.
// Pass -1 or "" for what is not known.
func WithLocation(err error, offset int64, stripe, column int, stream string) error {
	if err == nil {
		return nil
	}
	var ce *CorruptError
	if errors.As(err, &ce) {
		c := *ce
		if c.Offset < 0 {
			c.Offset = offset
		}
		if c.Stripe < 0 {
			c.Stripe = stripe
		}
		if c.Column < 0 {
			c.Column = column
		}
		if c.Stream == "" {
			c.Stream = stream
		}
		return &c
	}
	return err
}

// Unsupportedf returns an error wrapping ErrUnsupported.
func Unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}
