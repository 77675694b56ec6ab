package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/orcgo/orc/internal/units"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// csvSource reads rows of a flat struct from CSV.
type csvSource struct {
	// cr reads the records once one needs encoding/csv (readLine), nil
	// before: until then s reads each line itself.
	cr *csv.Reader
	bb *bufio.Reader // cr's buffer, which a new cr takes on (renew)
	br *boundedReader
	// lineBase and offBase are the lines and bytes read before cr (by
	// readLine or by the csv.Readers before it): its lines and offsets
	// count from there. While cr is nil they are all that was read.
	lineBase int
	offBase  int64
	comma    string // the delimiter, as readLine splits lines at it
	long     []byte // a line longer than bb's buffer, gathered (readLine)
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
	s := &csvSource{bb: bufio.NewReader(br), br: br, rb: rb, header: opt.header, fillMissing: opt.fillMissing, nextLine: 1, maxLine: opt.maxLine,
		comma: string(opt.delimiter)}
	if !splitsLines(opt.delimiter) {
		s.cr = s.newCSVReader(opt.delimiter) // which reports the delimiter
	}
	s.bound()
	return s
}

// splitsLines reports whether readLine may split lines at comma: a
// delimiter encoding/csv takes.
func splitsLines(comma rune) bool {
	return comma != 0 && comma != '"' && comma != '\r' && comma != '\n' && utf8.ValidRune(comma) && comma != utf8.RuneError
}

// readLine reads the next record itself when it is one line with no
// quote, as most records are, and a wide table's line of thousands of
// fields is: it returns the record's fields as one string, body, to be
// cut at the delimiter, and fast. encoding/csv would keep the line twice,
// and each field's string, end and position (some 60 bytes a field, and
// as much again while they grow); body is the line once. Such a line
// reads as encoding/csv reads it: "\r\n" ends it as "\n" does, a "\r"
// before the end of the input is dropped, and empty lines are skipped.
// At the first line with a quote, s hands that line and the rest of the
// input to a csv.Reader, cr, which reads every record after (fast is
// false: read the record from cr).
func (s *csvSource) readLine() (body string, fast bool, err error) {
	for {
		raw, quoted, err := s.rawLine()
		if quoted {
			s.toCSV(raw)
			return "", false, nil
		}
		if len(raw) == 0 {
			return "", true, err // io.EOF, or the error that ended the input
		}
		line := raw
		if err == io.EOF {
			err = nil
			line = bytes.TrimSuffix(line, []byte{'\r'})
		}
		s.lineBase++
		s.offBase += int64(len(raw))
		if !bytes.HasSuffix(line, []byte("\r\n")) {
			line = bytes.TrimSuffix(line, []byte{'\n'})
		} else {
			line = line[:len(line)-2]
		}
		if err == nil && len(line) == 0 {
			continue // an empty line
		}
		s.line = s.lineBase
		body = string(line)
		if cap(s.long) > renewAfter {
			s.long = nil // a wide table's line, not kept while it is written
		}
		return body, true, err
	}
}

// toCSV hands raw, the line read last up to a quote, and the rest of the
// input to a csv.Reader, cr, which reads from raw on.
func (s *csvSource) toCSV(raw []byte) {
	again := s.long // raw, when gathered: handed on, not copied
	if len(again) == 0 || &raw[0] != &again[0] {
		again = append([]byte(nil), raw...) // raw is in bb's buffer
	}
	s.long = nil
	s.bb = bufio.NewReader(&replayReader{buf: again, r: s.bb})
	delim, _ := utf8.DecodeRuneInString(s.comma)
	s.cr = s.newCSVReader(delim)
}

// rawLine returns the next line of the input as read, with its "\n"
// (none at the end of the input), valid until the next read; or, quoted,
// its start up to a quote, the rest left unread.
func (s *csvSource) rawLine() (line []byte, quoted bool, err error) {
	line, err = s.bb.ReadSlice('\n')
	quoted = bytes.IndexByte(line, '"') >= 0
	if err != bufio.ErrBufferFull || quoted {
		return line, quoted, err
	}
	s.long = append(s.long[:0], line...)
	for err == bufio.ErrBufferFull && !quoted {
		line, err = s.bb.ReadSlice('\n')
		quoted = bytes.IndexByte(line, '"') >= 0
		s.long = append(s.long, line...)
	}
	return s.long, quoted, err
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
	if s.cr == nil {
		return s.line // readLine's line
	}
	line, _ := s.cr.FieldPos(i)
	return s.lineBase + line
}

// offset returns the offset in the input cr has read to.
func (s *csvSource) offset() int64 {
	if s.cr == nil {
		return s.offBase
	}
	return s.offBase + s.cr.InputOffset()
}

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
		rec, body, fast, err := s.read()
		if err == io.EOF {
			return false, nil
		}
		if errors.Is(err, errRecordTooLong) {
			return false, fmt.Errorf("line %d: a CSV record (from this line on) longer than %s (an unclosed quote?)", s.nextLine, units.Bytes(int64(lineLimit(s.maxLine))))
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
			if fast {
				rec = strings.Split(body, s.comma)
			}
			if err := s.useHeader(rec, line); err != nil {
				return false, err
			}
			continue
		}
		n := len(rec)
		if fast {
			n = strings.Count(body, s.comma) + 1
		}
		err = s.appendRow(rec, body, n)
		return err == nil, err
	}
}

// read reads the next record: by readLine, as body, fast, or else by cr,
// as rec.
func (s *csvSource) read() (rec []string, body string, fast bool, err error) {
	if s.cr == nil {
		body, fast, err = s.readLine()
		if fast {
			if err == nil {
				s.nextLine = s.line + 1
				s.bound()
			}
			return nil, body, true, err
		}
	}
	start := s.offset()
	s.renewed = false
	rec, err = s.cr.Read()
	if err == nil && len(rec) > 0 {
		s.nextLine = s.fieldLine(len(rec)-1) + strings.Count(rec[len(rec)-1], "\n") + 1
		if s.offset()-start > renewAfter {
			s.renew(rec, s.nextLine-1)
		}
		s.bound()
	}
	return rec, "", false, err
}

// appendRow appends the record of n fields, rec or else body cut at the
// delimiter, as a row.
func (s *csvSource) appendRow(rec []string, body string, n int) error {
	want, of := len(s.rb.vecs), "the schema has %d columns"
	if s.order != nil {
		want, of = len(s.order), "the header has %d"
	}
	if n != want {
		return &RowError{fmt.Errorf("line %d: %d fields, but "+of, s.fieldLine(0), n, want)}
	}
	rows := s.rb.rows()
	for i := range n {
		var f string
		if rec != nil {
			f = rec[i]
		} else if j := strings.Index(body, s.comma); j >= 0 {
			f, body = body[:j], body[j+len(s.comma):]
		} else {
			f = body
		}
		ci := i
		if s.order != nil {
			if ci = s.order[i]; ci < 0 {
				continue // a column the schema does not name
			}
		}
		c := s.rb.col(ci)
		if c.isNullText(f) || (f == "" && (c.text == nil || !c.text.nullSet || !isStringKind(c.t.Kind))) {
			c.appendNull()
			continue
		}
		if err := c.appendText(f); err != nil {
			s.rb.truncate(rows)
			return &RowError{fmt.Errorf("line %d, column %d (%s %s): %w", s.fieldLine(i), i+1, s.rb.schema.FieldNames[ci], c.t, err)}
		}
	}
	for j, named := range s.named {
		if !named {
			s.rb.col(j).appendNull()
		}
	}
	return nil
}
