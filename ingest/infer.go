package ingest

// Schema inference without a schema given (orc convert without --schema): the first rows of
// the first input (--infer-rows, at most maxInferBytes) are read, a type
// is chosen for every column, and the rows are then converted from the
// start as usual, so a later row that does not fit is a bad row like any
// other.
//
// CSV: the columns are named by the header (--header) or _col0, _col1, ...
// as Hive names them; each column gets the first of boolean (true/false),
// bigint, decimal(p,s) (digits with a point, p and s the most any value
// needs, up to 38 digits), double, date, timestamp and string that all its
// non-null values read as (a column of nulls only is a string). Without
// --header (or --header=false), a first line of text fields only above
// lines holding numbers in one of those columns is taken as the header,
// and convert says so. A field longer than 4 KiB reads as text (the
// sample is split in place, such fields never copied: csvsample.go), and
// a first line holding one is no header.
//
// JSON: objects are structs of the fields seen in the first rows, in the
// order first seen (as written in the first object that has them); arrays are arrays of their elements' type; numbers
// are bigint, or double when one has a fraction or exponent; strings are
// dates, timestamps or strings as for CSV; true and false are booleans.
// Values of two kinds in one place (a number and a string) cannot be
// inferred: --schema must say.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/orcgo/orc"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxInferBytes bounds what inference holds of the first input.
const maxInferBytes = 64 << 20

// inferSchema infers the schema of a text input of format "csv" or
// "json" from its first rows, and returns a reader that puts those rows
// back in front of the rest.
func inferSchema(src *bufio.Reader, format string, opt *config) (*orc.Schema, *bufio.Reader, error) {
	var buf []byte
	lines := 0
	limit := opt.inferRows
	if opt.header {
		limit++
	}
	for (opt.inferRows == 0 || lines < limit) && len(buf) < maxInferBytes {
		frag, err := src.ReadSlice('\n')
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(frag) > 0 {
			lines++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	// 64 KiB: src has a buffer of its own (and a 1 MiB one here took
	// as much again as the buffer of a conversion's input).
	src = bufio.NewReaderSize(&replayReader{buf: buf, r: src}, 64<<10)
	var s *orc.Schema
	var err error
	if format == "csv" {
		s, err = inferCSV(buf, opt)
	} else {
		s, err = inferJSON(buf, opt)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("inferring the schema from the first %d lines (give --schema): %w", lines, err)
	}
	opt.inferredLines = lines
	s.Assign()
	return s, src, nil
}

// replayReader reads buf, then r. It lets go of buf once it is read, so
// that a sample holding a long line is not kept while the conversion
// reads that line again (io.MultiReader keeps it until read past).
type replayReader struct {
	buf []byte
	r   io.Reader
}

func (rr *replayReader) Read(p []byte) (int, error) {
	if len(rr.buf) == 0 {
		rr.buf = nil
		return rr.r.Read(p)
	}
	n := copy(p, rr.buf)
	rr.buf = rr.buf[n:]
	if len(rr.buf) == 0 {
		rr.buf = nil
	}
	return n, nil
}

// textKinds are the kinds a CSV text or JSON string may read as, tried in
// this order.
var textKinds = []orc.Kind{orc.Boolean, orc.Long, orc.Decimal, orc.Double, orc.Date, orc.Timestamp}

// kindIndex returns the index of k in textKinds.
func kindIndex(k orc.Kind) int {
	for i, x := range textKinds {
		if x == k {
			return i
		}
	}
	return -1
}

// decimalDigits returns the digits of a decimal text before and after its
// point (leading zeros of the whole part left out), or ok false when s is
// not digits with an optional sign and point.
func decimalDigits(s string) (whole, frac int, ok bool) {
	s = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"), "0")
	w, f, _ := strings.Cut(s, ".")
	for _, part := range []string{w, f} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return 0, 0, false
			}
		}
	}
	return len(w), len(f), true
}

// textFits reports whether s reads as a value of kind k.
func textFits(s string, k orc.Kind, opt *config) bool {
	switch k {
	case orc.Boolean:
		return strings.EqualFold(s, "true") || strings.EqualFold(s, "false")
	case orc.Long:
		_, err := strconv.ParseInt(s, 10, 64)
		return err == nil
	case orc.Decimal:
		whole, frac, ok := decimalDigits(s)
		return ok && strings.ContainsAny(s, "0123456789") && whole+frac <= 38
	case orc.Double:
		_, err := strconv.ParseFloat(s, 64)
		return err == nil
	case orc.Date:
		_, _, _, ok := parseYMD(s) // parseDate without its error
		return ok
	case orc.Timestamp:
		if opt.text.tsLayout == "" && len(s) < 19 {
			// Shorter than both default forms (parseTimestamp's and
			// RFC 3339's): no error made for every field that is
			// not a timestamp (82 MB for a CSV line of 100,000).
			return false
		}
		_, _, err := parseTimestampText(s, opt.text.tsLayout, false, time.UTC)
		return err == nil
	}
	return false
}

// textColumn tracks which kinds every value of a column read as so far.
type textColumn struct {
	fits        []bool // parallel to textKinds
	seen        bool
	whole, frac int // the most digits a decimal needs before and after its point
}

func newTextColumn() *textColumn {
	c := &textColumn{fits: make([]bool, len(textKinds))}
	for i := range c.fits {
		c.fits[i] = true
	}
	return c
}

func (c *textColumn) add(s string, opt *config) {
	c.seen = true
	for i, k := range textKinds {
		c.fits[i] = c.fits[i] && textFits(s, k, opt)
	}
	if d := kindIndex(orc.Decimal); c.fits[d] {
		whole, frac, _ := decimalDigits(s)
		c.whole, c.frac = max(c.whole, whole), max(c.frac, frac)
		c.fits[d] = c.whole+c.frac <= 38
	}
}

func (c *textColumn) schema() *orc.Schema {
	if c.seen {
		for i, k := range textKinds {
			if c.fits[i] {
				if k == orc.Decimal {
					return &orc.Schema{Kind: k, Precision: max(c.whole+c.frac, 1), Scale: c.frac}
				}
				return &orc.Schema{Kind: k}
			}
		}
	}
	return &orc.Schema{Kind: orc.String}
}

// isNumber reports whether a CSV field reads as a number.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

func inferCSV(buf []byte, opt *config) (*orc.Schema, error) {
	var names []string
	var cols []*textColumn
	var recs [][]string
	// Up to the end, or an error: the last line read may end inside a
	// quoted field.
	splitSample(buf, opt.delimiter, maxSampleField, func(rec []string) bool {
		recs = append(recs, slices.Clone(rec))
		return true
	})
	if !opt.header && !opt.headerSet && looksLikeHeader(recs) {
		opt.header, opt.headerGuessed = true, true
		opt.headerAlone = len(recs) == 1
	}
	first := true
	for _, rec := range recs {
		if first && opt.header {
			first = false
			for i, h := range rec {
				if isLongField(h) {
					return nil, fmt.Errorf("the header's field %d is longer than %d bytes", i+1, maxSampleField)
				}
				names = append(names, strings.TrimSpace(h))
			}
			continue
		}
		first = false
		if cols == nil {
			n := max(len(rec), len(names))
			for range n {
				cols = append(cols, newTextColumn())
			}
		}
		if len(rec) != len(cols) {
			continue // converting reports it
		}
		for i, f := range rec {
			if f == "" || (opt.text.nullSet && f == opt.text.null) {
				continue
			}
			cols[i].add(f, opt)
		}
	}
	if cols == nil {
		for range names {
			cols = append(cols, newTextColumn())
		}
	}
	if len(cols) == 0 {
		return nil, errors.New("no rows")
	}
	s := &orc.Schema{Kind: orc.Struct}
	for i, c := range cols {
		name := fmt.Sprintf("_col%d", i)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		s.FieldNames = append(s.FieldNames, name)
		s.Children = append(s.Children, c.schema())
	}
	return s, nil
}

// looksLikeHeader reports whether the first CSV record is a header: all
// its fields text (none empty, none a number) while, below it, a column
// holds numbers only.
func looksLikeHeader(recs [][]string) bool {
	if len(recs) == 1 {
		// One line alone: a header when its fields are distinct names
		// (text that is not a number), as a file written with a header
		// and no rows has.
		seen := map[string]bool{}
		for _, f := range recs[0] {
			f = strings.ToLower(strings.TrimSpace(f))
			if f == "" || isNumber(f) || seen[f] || strings.ContainsAny(f, " \t") {
				return false
			}
			seen[f] = true
		}
		return true
	}
	if len(recs) < 2 {
		return false
	}
	for _, f := range recs[0] {
		if strings.TrimSpace(f) == "" || isNumber(f) || isLongField(f) {
			return false
		}
	}
	for i := range recs[0] {
		numbers := 0
		for _, rec := range recs[1:] {
			if i >= len(rec) || rec[i] == "" {
				continue
			}
			if !isNumber(rec[i]) {
				numbers = -1
				break
			}
			numbers++
		}
		if numbers > 0 {
			return true
		}
	}
	return false
}

// jsonType is what the values seen at one place of the rows have in
// common.
type jsonType struct {
	kind   string // "", "bool", "number", "string", "array", "object"
	frac   bool   // a number with a fraction or exponent, or beyond bigint, was seen
	text   *textColumn
	elem   *jsonType
	names  []string
	fields map[string]*jsonType
}

func (t *jsonType) add(v any, path string, opt *config) error {
	if v == nil {
		return nil
	}
	var kind string
	switch v.(type) {
	case bool:
		kind = "bool"
	case json.Number:
		kind = "number"
	case string:
		kind = "string"
	case []any:
		kind = "array"
	case *jsonObject:
		kind = "object"
	}
	if opt.text.nullSet && kind == "string" && v.(string) == opt.text.null {
		return nil
	}
	if t.kind == "" {
		t.kind = kind
	} else if t.kind != kind {
		where := path
		if where == "" {
			where = "the rows"
		}
		return fmt.Errorf("%s: both %s and %s values", where, t.kind, kind)
	}
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			t.frac = true
		} else if _, err := strconv.ParseInt(string(x), 10, 64); err != nil {
			t.frac = true // an integer beyond bigint
		}
	case string:
		if t.text == nil {
			t.text = newTextColumn()
		}
		t.text.add(x, opt)
	case []any:
		if t.elem == nil {
			t.elem = &jsonType{}
		}
		for _, e := range x {
			if err := t.elem.add(e, path+"[]", opt); err != nil {
				return err
			}
		}
	case *jsonObject:
		if t.fields == nil {
			t.fields = map[string]*jsonType{}
		}
		for i, k := range x.keys {
			if _, ok := t.fields[k]; !ok {
				t.fields[k] = &jsonType{}
				t.names = append(t.names, k)
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			if err := t.fields[k].add(x.vals[i], p, opt); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *jsonType) schema() *orc.Schema {
	switch t.kind {
	case "bool":
		return &orc.Schema{Kind: orc.Boolean}
	case "number":
		if t.frac {
			return &orc.Schema{Kind: orc.Double}
		}
		return &orc.Schema{Kind: orc.Long}
	case "string":
		// JSON strings stay strings unless every one is a date or a
		// timestamp (booleans and numbers are JSON's own).
		switch {
		case t.text != nil && t.text.fits[kindIndex(orc.Date)]:
			return &orc.Schema{Kind: orc.Date}
		case t.text != nil && t.text.fits[kindIndex(orc.Timestamp)]:
			return &orc.Schema{Kind: orc.Timestamp}
		}
		return &orc.Schema{Kind: orc.String}
	case "array":
		e := t.elem
		if e == nil {
			e = &jsonType{}
		}
		return &orc.Schema{Kind: orc.List, Children: []*orc.Schema{e.schema()}}
	case "object":
		s := &orc.Schema{Kind: orc.Struct}
		for _, n := range t.names {
			s.FieldNames = append(s.FieldNames, n)
			s.Children = append(s.Children, t.fields[n].schema())
		}
		return s
	}
	return &orc.Schema{Kind: orc.String}
}

func inferJSON(buf []byte, opt *config) (*orc.Schema, error) {
	root := &jsonType{}
	rows := 0
	var firstErr error // of the first line that does not decode
	for i, line := range bytes.Split(buf, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		v, err := decodeOrdered(dec, 0)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("line %d: %w", i+1, err)
			}
			if i == bytes.Count(buf, []byte("\n")) {
				break // the last line read may be cut short
			}
			continue // converting reports it
		}
		rows++
		if err := root.add(v, "", opt); err != nil {
			return nil, err
		}
	}
	if rows == 0 {
		if firstErr != nil {
			return nil, fmt.Errorf("no rows: %w", firstErr)
		}
		return nil, errors.New("no rows")
	}
	return root.schema(), nil
}

// jsonObject is a JSON object with its keys in the order written (a key
// written twice keeps its first place and its last value, as
// encoding/json keeps the last).
type jsonObject struct {
	keys []string
	vals []any
}

// maxInferDepth bounds the nesting decodeOrdered follows.
const maxInferDepth = 1000

// decodeOrdered decodes one JSON value from dec as encoding/json does into
// an any (numbers as json.Number), except that objects are *jsonObject.
func decodeOrdered(dec *json.Decoder, depth int) (any, error) {
	if depth > maxInferDepth {
		return nil, fmt.Errorf("nested more than %d deep", maxInferDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	case json.Delim('{'):
		obj := &jsonObject{}
		at := map[string]int{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeOrdered(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if i, ok := at[k]; ok {
				obj.vals[i] = v
				continue
			}
			at[k] = len(obj.keys)
			obj.keys = append(obj.keys, k)
			obj.vals = append(obj.vals, v)
		}
		_, err := dec.Token()
		return obj, err
	}
	return tok, nil
}
