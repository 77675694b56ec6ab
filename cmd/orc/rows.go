package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"syscall"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/countio"
	"github.com/orcgo/orc/internal/rowfmt"
)

// interrupt is closed when the user asks the command to stop (Ctrl-C,
// SIGTERM): a scan then ends after its current batch and reports what it
// did. main sets it; tests replace it.
var interrupt <-chan struct{} = make(chan struct{})

// errInterrupted ends a command stopped by interrupt; it exits 130, as a
// shell reports a command ended by SIGINT.
type errInterrupted struct{ rows int64 }

func (e errInterrupted) Error() string {
	return "interrupted after " + plural(e.rows, "row")
}

// isClosedOutput reports whether err is the reader of our output going
// away (orc cat big.orc | head): the end of the output, not a failure.
func isClosedOutput(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}

// printRows prints src's rows in the format of o until the scan ends,
// limit rows (limit < 0: no limit) have been printed, the output is closed
// or the user interrupts. show, when not nil, are the fields to print. It
// returns the rows printed and, when the scan failed or was interrupted,
// why; a closed output is a normal end.
func printRows(src rowSource, out io.Writer, limit int64, show []field, o outputOptions) (int64, error) {
	cw := &countio.Writer{W: out}
	shownSchema := src.Schema()
	if show != nil {
		shownSchema = rowfmt.ProjectSchema(shownSchema, show)
	}
	p := &rowPrinter{cw: cw, w: bufio.NewWriterSize(cw, 1<<16), format: newFormatter(o, shownSchema),
		line: make([]byte, 0, rowSizeHint(shownSchema, o.format == "json" || o.format == ""))}
	err := p.print(src, limit, show)
	if err == nil || !isClosedOutput(err) {
		var rows int
		p.line, rows = p.format.Flush(p.line[:0])
		if ferr := p.emit(p.line, rows); err == nil {
			err = ferr
		}
	}
	if ferr := p.w.Flush(); err == nil {
		err = ferr
	}
	var ei errInterrupted
	switch {
	case err != nil && isClosedOutput(err):
		err = nil
		for _, e := range p.ends {
			if e > cw.N {
				p.n--
			}
		}
	case errors.As(err, &ei):
		err = errInterrupted{rows: p.n}
	}
	return p.n, err
}

// rowPrinter is printRows' state: the formatted rows go through w to cw,
// which counts what the output accepted.
type rowPrinter struct {
	cw     *countio.Writer
	w      *bufio.Writer
	format rowfmt.Formatter
	line   []byte
	n      int64 // rows given to w
	held   int64 // rows the formatter holds
	// ends holds the byte offsets where the rows still in w's buffer end,
	// so that a closed output counts only the rows that got out.
	ends    []int64
	written int64 // bytes given to w
}

// emit writes text, which ends rows rows.
func (p *rowPrinter) emit(text []byte, rows int) error {
	p.held -= int64(rows)
	if len(text) == 0 && rows == 0 {
		return nil
	}
	if _, err := p.w.Write(text); err != nil {
		return err
	}
	p.n += int64(rows)
	p.written += int64(len(text))
	for range rows {
		p.ends = append(p.ends, p.written)
	}
	k := 0
	for k < len(p.ends) && p.ends[k] <= p.cw.N {
		k++
	}
	p.ends = p.ends[k:]
	return nil
}

// print formats src's rows (the fields show picks) until limit or the end.
func (p *rowPrinter) print(src rowSource, limit int64, show []field) error {
	b := src.NewBatch()
	view := &orc.Batch{}
	for limit < 0 || p.n+p.held < limit {
		select {
		case <-interrupt:
			return errInterrupted{}
		default:
		}
		if err := src.Next(b); err == io.EOF {
			return nil
		} else if err != nil {
			if errors.Is(err, context.Canceled) && interrupted() {
				return errInterrupted{} // a read ended by Ctrl-C
			}
			return err
		}
		shown := b
		if show != nil {
			selectFields(view, b, show)
			shown = view
		}
		for i := 0; i < b.NumRows && (limit < 0 || p.n+p.held < limit); i++ {
			p.held++
			var rows int
			p.line, rows = p.format.Add(p.line[:0], shown, i)
			if err := p.emit(p.line, rows); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowSizeHint is the fewest bytes a row of schema s prints as, at a byte
// a value (with names and spaces, as JSON lines print them), so that the first
// row's line of a wide schema is not grown by doubling from nothing: a row
// of 100,000 int columns printed 1.2 MB and left 4 MB of copies behind
// it. It is at most 16 MiB.
func rowSizeHint(s *orc.Schema, names bool) int {
	n := 1 // the newline
	var walk func(s *orc.Schema)
	walk = func(s *orc.Schema) {
		if len(s.Children) == 0 {
			n++ // a value
			return
		}
		n += len(s.Children) + 1 // brackets and separators
		if names {
			n += len(s.Children) - 1 // JSON's separators are ", "
		}
		for i, c := range s.Children {
			if names && s.Kind == orc.Struct && i < len(s.FieldNames) {
				n += len(s.FieldNames[i]) + 4 // "name":<space>
			}
			walk(c)
		}
	}
	walk(s)
	return min(n, 16<<20)
}
