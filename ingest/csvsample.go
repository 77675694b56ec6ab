package ingest

import (
	"bytes"
	"unicode/utf8"
)

// Splitting the CSV sample schema inference reads (inferCSV) into records
// without copying it.
//
// encoding/csv gathers a record in three copies (the line, the unquoted
// fields, the record's string) besides the sample it reads from: a sample
// holding one 50 MB field took inference to 230 MiB of live heap. The
// sample is in memory already, so splitSample walks it in place, by the
// rules encoding/csv follows with the options the conversion uses (any
// delimiter, fields per record not checked, no lazy quotes, no comments):
//
//   - a record ends at a newline outside quotes; "\r\n" reads as "\n", and
//     a line holding only a newline is skipped;
//   - a field that starts with a quote ends at the quote followed by the
//     delimiter or the end of the line, "" inside it is one quote, and it
//     may hold delimiters and newlines;
//   - a quote inside an unquoted field, a quoted field not closed, or a
//     closing quote followed by anything else is an error, at which the
//     split stops (inference uses the records before it, as it did with
//     encoding/csv; the conversion reports the error).
//
// A field longer than maxSampleField is not made a string: it is given as
// longField, which inference reads as text (TestSplitSampleAgreesWithCSV
// checks the rest against encoding/csv).

// maxSampleField is the longest field splitSample gives as it is.
const maxSampleField = 4 << 10

// longField stands for a field longer than maxSampleField: text that
// reads as no other kind (textFits), with a space, so that no line
// holding it is taken for a header alone.
const longField = "\x00 a field over 4 KiB"

// splitSample calls fn with the fields of each record of buf, in order,
// until fn returns false, the input ends or a record is not valid CSV.
// The fields slice is reused between calls.
func splitSample(buf []byte, comma rune, maxField int, fn func(fields []string) bool) {
	var sep [utf8.UTFMax]byte
	sepb := sep[:utf8.EncodeRune(sep[:], comma)]
	var fields []string
	var scratch []byte
	for len(buf) > 0 {
		line, rest := nextLine(buf)
		if len(line) == 0 {
			buf = rest
			continue // a line holding only a newline
		}
		fields = fields[:0]
		for {
			var f []byte
			var long, ok, end bool
			if len(line) > 0 && line[0] == '"' {
				f, long, line, rest, ok, end = quotedField(line[1:], rest, sepb, maxField, &scratch)
			} else {
				f, long, line, ok, end = plainField(line, sepb, maxField)
			}
			if !ok {
				return
			}
			if long {
				fields = append(fields, longField)
			} else {
				fields = append(fields, string(f))
			}
			if end {
				break
			}
		}
		buf = rest
		if !fn(fields) {
			return
		}
	}
}

// nextLine returns buf's first line without its newline ("\r\n" or "\n";
// a "\r" ending the input is dropped too) and what follows it. A line
// that is empty is one holding only a newline.
func nextLine(buf []byte) (line, rest []byte) {
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		line, rest = buf[:i], buf[i+1:]
	} else {
		line = buf
	}
	return bytes.TrimSuffix(line, []byte("\r")), rest
}

// plainField reads an unquoted field from the start of line: the field
// (long when over maxField bytes), the line after its delimiter, whether
// it is valid (holds no quote) and whether it ended the record.
func plainField(line, sep []byte, maxField int) (f []byte, long bool, after []byte, ok, end bool) {
	i := bytes.Index(line, sep)
	if i < 0 {
		f, end = line, true
	} else {
		f, after = line[:i], line[i+len(sep):]
	}
	if bytes.IndexByte(f, '"') >= 0 {
		return nil, false, nil, false, false
	}
	return f, len(f) > maxField, after, true, end
}

// quotedField reads a quoted field whose opening quote is just before
// line (rest is the input after line): the field's value (long, and not
// gathered, when over maxField bytes), the line and rest after its
// delimiter, whether it is valid and whether it ended the record.
// scratch holds the value, reused between calls.
func quotedField(line, rest, sep []byte, maxField int, scratch *[]byte) (f []byte, long bool, after, restAfter []byte, ok, end bool) {
	val := (*scratch)[:0]
	n := 0 // the value's length
	keep := func(b []byte) {
		n += len(b)
		if n <= maxField {
			val = append(val, b...)
		}
	}
	defer func() { *scratch = val }()
	for {
		i := bytes.IndexByte(line, '"')
		if i < 0 {
			// The field goes on past the end of the line.
			if len(rest) == 0 {
				return nil, false, nil, nil, false, false // not closed
			}
			keep(line)
			keep([]byte("\n"))
			line, rest = nextLine(rest)
			continue
		}
		keep(line[:i])
		line = line[i+1:]
		switch {
		case len(line) > 0 && line[0] == '"':
			keep([]byte(`"`))
			line = line[1:]
		case bytes.HasPrefix(line, sep):
			return val, n > maxField, line[len(sep):], rest, true, false
		case len(line) == 0:
			return val, n > maxField, nil, rest, true, true
		default:
			return nil, false, nil, nil, false, false
		}
	}
}

// isLongField reports whether a sample field stands for a long one.
func isLongField(s string) bool { return s == longField }
