package ingest

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/orcgo/orc/internal/units"
	"io"
	"strconv"
	"strings"
)

// csvSource reads rows of a flat struct from CSV.
type csvSource struct {
	cr *csv.Reader
	bb *bufio.Reader // cr's buffer, which a new cr takes on (renew)
	br *boundedReader
	// lineBase and offBase are the lines and bytes read by the csv.Readers
	// before cr: its lines and offsets count from there.
	lineBase int
	offBase  int64
	// renewed: cr was replaced after the record read last, whose fields'
	// lines are lines, or all line when lines is nil.
	renewed  bool
	lines    []int
	line     int
	nextLine int // the line the next record starts at, or after (blank lines)
	rb       *rowBuilder
	header   bool
	note     func(msg string) // for notes (columns left out), or nil
	maxLine  int              // the longest record (0: DefaultMaxLine)
	// order maps the CSV columns to the struct's fields when a header
	// named them (nil: in schema order); named marks the fields it names.
	order []int
	named []bool
	// fillMissing: fields the header does not name are null
	// (--fill-missing) rather than an error.
	fillMissing bool
}

func newCSVSource(r io.Reader, rb *rowBuilder, opt *config) *csvSource {
	br := &boundedReader{r: r}
	s := &csvSource{bb: bufio.NewReader(br), br: br, rb: rb, header: opt.header, fillMissing: opt.fillMissing, nextLine: 1, maxLine: opt.maxLine}
	s.cr = s.newCSVReader(opt.delimiter)
	s.bound()
	return s
}

// newCSVReader returns a csv.Reader of the rest of s.bb.
func (s *csvSource) newCSVReader(comma rune) *csv.Reader {
	cr := csv.NewReader(s.bb) // reads s.bb itself: it is a bufio.Reader of csv's size
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

// renewAfter is the length of a record past which the csv.Reader is
// replaced (renew) once the record is read. A record this long is a row of
// thousands of fields, which the csv.Reader kept some 60 bytes each of
// (the line twice, each field's string, index and position) until the
// next record: for a line of 100,000 integers, 6 MB while the batch was
// written (at 1 MiB, this line of 590 KB kept them). A new reader's
// buffers grow again for the next such record, which costs little beside
// writing its thousands of values.
const renewAfter = 64 << 10

// renew replaces cr by a new csv.Reader of the same input, so that the
// buffers the old one kept (a long record's line and fields, each as long
// as the record) go before the record's values are copied into the batch.
// The lines of rec's fields are kept for its messages (fieldLine), and
// lastLine is its last line.
func (s *csvSource) renew(rec []string, lastLine int) {
	s.lines = s.lines[:0]
	if first := s.fieldLine(0); first == s.fieldLine(len(rec)-1) {
		// One line, as a wide table's record is: no list of a line a
		// field (for 100,000 fields, 0.8 MB and more as it grew).
		s.lines, s.line = nil, first
	} else {
		for i := range rec {
			s.lines = append(s.lines, s.fieldLine(i))
		}
	}
	s.offBase += s.cr.InputOffset()
	s.lineBase = lastLine
	s.cr = s.newCSVReader(s.cr.Comma)
	s.renewed = true
}

// fieldLine returns the line field i of the record read last starts at.
func (s *csvSource) fieldLine(i int) int {
	if s.renewed {
		if s.lines == nil {
			return s.line
		}
		return s.lines[i]
	}
	line, _ := s.cr.FieldPos(i)
	return s.lineBase + line
}

// offset returns the offset in the input cr has read to.
func (s *csvSource) offset() int64 { return s.offBase + s.cr.InputOffset() }

// errRecordTooLong stops a CSV record longer than Options.MaxLine.
var errRecordTooLong = errors.New("CSV record too long")

// boundedReader fails a Read past limit, so that encoding/csv, which
// gathers a whole record in memory, cannot be made to gather gigabytes.
type boundedReader struct {
	r        io.Reader
	n, limit int64 // bytes read; the offset reading stops at
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.n >= b.limit {
		return 0, errRecordTooLong
	}
	if int64(len(p)) > b.limit-b.n {
		p = p[:b.limit-b.n]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// bound lets the next record be maxLine bytes long (and the CSV
// reader's buffer, 4 KiB, be filled past it).
func (s *csvSource) bound() {
	s.br.limit = s.offset() + int64(lineLimit(s.maxLine)) + 64<<10
}

// useHeader maps the columns the header names to the struct's fields
// (exactly, else ignoring case). A header naming no field at all is not
// a header of this schema's names and is only skipped; in one naming some
// fields, each once, the columns it names that are not fields are left
// out (and named in a note).
func (s *csvSource) useHeader(rec []string, line int) error {
	fields := s.rb.schema.FieldNames
	order := make([]int, len(rec))
	named := make([]bool, len(fields))
	matched := 0
	// Two maps, so that matching is linear in the names: exact names, and
	// names under case folding (the last field of a folded name wins, as
	// when they were compared one by one).
	exact := make(map[string]int, len(fields))
	folded := make(map[string]int, len(fields))
	for j, f := range fields {
		exact[f] = j
		folded[foldKey(f)] = j
	}
	for i, h := range rec {
		h = strings.TrimSpace(h)
		order[i] = -1
		if j, ok := exact[h]; ok {
			order[i] = j
		} else if j, ok := folded[foldKey(h)]; ok {
			order[i] = j
		}
		if order[i] >= 0 {
			if named[order[i]] {
				return fmt.Errorf("line %d: the header names field %q twice (--header)", line, fields[order[i]])
			}
			named[order[i]] = true
			matched++
		}
	}
	if matched == 0 {
		return nil
	}
	if !s.fillMissing {
		for j, ok := range named {
			if !ok {
				return fmt.Errorf("line %d: the header names no column for the field %q of %s (its columns: %s); --fill-missing writes such fields as nulls",
					line, fields[j], s.rb.schema, strings.Join(rec, ", "))
			}
		}
	}
	var left []string
	for i, j := range order {
		if j < 0 {
			left = append(left, strconv.Quote(strings.TrimSpace(rec[i])))
		}
	}
	if len(left) > 0 && s.note != nil {
		s.note(fmt.Sprintf("line %d: left out %s the schema does not name: %s", line, units.Plural(int64(len(left)), "column"), strings.Join(left, ", ")))
	}
	s.order, s.named = order, named
	return nil
}

// next appends one row; false at the end of the input. Errors of one
// row are *RowError.
func (s *csvSource) next() (bool, error) {
	for {
		start := s.offset()
		s.renewed = false
		rec, err := s.cr.Read()
		if err == io.EOF {
			return false, nil
		}
		if errors.Is(err, errRecordTooLong) {
			return false, fmt.Errorf("line %d: a CSV record (from this line on) longer than %s (an unclosed quote?)", s.nextLine, units.Bytes(int64(lineLimit(s.maxLine))))
		}
		if err == nil && len(rec) > 0 {
			s.nextLine = s.fieldLine(len(rec)-1) + strings.Count(rec[len(rec)-1], "\n") + 1
			if s.offset()-start > renewAfter {
				s.renew(rec, s.nextLine-1)
			}
			s.bound()
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount) {
			moved := *pe // its lines counted from the input's start
			moved.StartLine += s.lineBase
			moved.Line += s.lineBase
			return false, &RowError{&moved}
		}
		if err != nil {
			return false, err
		}
		line := s.fieldLine(0)
		if s.header {
			s.header = false
			if err := s.useHeader(rec, line); err != nil {
				return false, err
			}
			continue
		}
		cols := s.rb.cols
		want, of := len(cols), "the schema has %d columns"
		if s.order != nil {
			want, of = len(s.order), "the header has %d"
		}
		if len(rec) != want {
			return false, &RowError{fmt.Errorf("line %d: %d fields, but "+of, line, len(rec), want)}
		}
		rows := s.rb.rows()
		for i, f := range rec {
			ci := i
			if s.order != nil {
				if ci = s.order[i]; ci < 0 {
					continue // a column the schema does not name
				}
			}
			c := cols[ci]
			if c.isNullText(f) || (f == "" && (c.text == nil || !c.text.nullSet || !isStringKind(c.t.Kind))) {
				c.appendNull()
				continue
			}
			if err := c.appendText(f); err != nil {
				s.rb.truncate(rows)
				return false, &RowError{fmt.Errorf("line %d, column %d (%s %s): %w", s.fieldLine(i), i+1, s.rb.schema.FieldNames[ci], c.t, err)}
			}
		}
		for j, named := range s.named {
			if !named {
				cols[j].appendNull()
			}
		}
		return true, nil
	}
}
