package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/units"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsonSource reads one JSON value per line; blank lines are skipped.
type jsonSource struct {
	br   *bufio.Reader
	rb   *rowBuilder
	line int
	buf  []byte
	// maxLine is the longest line (0: DefaultMaxLine).
	maxLine int
}

func newJSONSource(r *bufio.Reader, rb *rowBuilder) *jsonSource {
	return &jsonSource{br: r, rb: rb}
}

func (s *jsonSource) readLine() ([]byte, error) {
	s.buf = s.buf[:0]
	for {
		frag, err := s.br.ReadSlice('\n')
		s.buf = append(s.buf, frag...)
		if len(s.buf) > lineLimit(s.maxLine) {
			return nil, fmt.Errorf("line %d: longer than %s", s.line+1, units.Bytes(int64(lineLimit(s.maxLine))))
		}
		if err != bufio.ErrBufferFull {
			return s.buf, err
		}
	}
}

// next appends one row; false at the end of the input.
func (s *jsonSource) next() (bool, error) {
	for {
		line, err := s.readLine()
		if err != nil && err != io.EOF {
			return false, err
		}
		if len(line) == 0 && err == io.EOF {
			return false, nil
		}
		s.line++
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			if err == io.EOF {
				return false, nil
			}
			continue
		}
		if !utf8.Valid(text) {
			// encoding/json would turn the bad bytes into U+FFFD, changing
			// the data without a word.
			return false, &RowError{fmt.Errorf("line %d: %w", s.line, invalidUTF8(string(text)))}
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return false, &RowError{fmt.Errorf("line %d, byte %d: bad JSON: %v", s.line, se.Offset, err)}
			}
			return false, &RowError{fmt.Errorf("line %d: bad JSON: %v", s.line, err)}
		}
		if end := dec.InputOffset(); len(bytes.TrimSpace(text[end:])) > 0 {
			at := int64(len(text)-len(bytes.TrimLeft(text[end:], " \t\r"))) + 1
			return false, &RowError{fmt.Errorf("line %d, byte %d: more than one JSON value", s.line, at)}
		}
		if err := s.rb.appendJSON(v); err != nil {
			var pe *pathError
			if errors.As(err, &pe) && pe.path != "" {
				return false, &RowError{fmt.Errorf("line %d, column %q: %w", s.line, pe.path, pe.err)}
			}
			return false, &RowError{fmt.Errorf("line %d: %w", s.line, err)}
		}
		return true, nil
	}
}

// pathError is a bad JSON value and where it sits in the row: "a.b[2].key".
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string {
	if e.path == "" {
		return e.err.Error()
	}
	return fmt.Sprintf("%s: %v", e.path, e.err)
}

func (e *pathError) Unwrap() error { return e.err }

// atPath prefixes the location of err with seg, a field name or "[i]".
func atPath(seg string, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		switch {
		case pe.path == "":
			pe.path = seg
		case strings.HasPrefix(pe.path, "["):
			pe.path = seg + pe.path
		default:
			pe.path = seg + "." + pe.path
		}
		return pe
	}
	return &pathError{path: seg, err: err}
}

// appendJSON appends one row: an object for a struct root, else any value.
func (rb *rowBuilder) appendJSON(v any) error {
	rows := rb.rows()
	var err error
	switch {
	case rb.schema.Kind != orc.Struct:
		err = rb.col(0).appendJSON(v)
	case v == nil:
		err = errors.New("the row is null; a struct row must be an object")
	default:
		err = appendFields(rb.schema, rb.col, v)
	}
	if err != nil {
		rb.truncate(rows) // no half-appended row stays in the batch
	}
	return err
}

// rows returns the rows the builder's vectors hold.
func (rb *rowBuilder) rows() int {
	if len(rb.vecs) == 0 {
		return 0
	}
	return rb.vecs[0].Len()
}

// truncate cuts every column back to n rows.
func (rb *rowBuilder) truncate(n int) {
	for _, v := range rb.vecs {
		orc.Truncate(v, n)
	}
}

// appendFields appends an object's fields to the builders of a struct's
// fields, field i's kid(i): a missing field is null, an unknown one an
// error.
func appendFields(t *orc.Schema, kid func(i int) *builder, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("want an object for %s, have %s", t, jsonKind(v))
	}
	// Every key is a field when as many fields as keys are present: a
	// count, linear in the fields, with the unknown keys looked for only
	// when it falls short.
	present := 0
	for _, name := range t.FieldNames {
		if _, ok := m[name]; ok {
			present++
		}
	}
	if present < len(m) {
		known := make(map[string]bool, len(t.FieldNames))
		for _, name := range t.FieldNames {
			known[name] = true
		}
		var unknown []string
		for k := range m {
			if !known[k] {
				unknown = append(unknown, k)
			}
		}
		slices.Sort(unknown)
		return fmt.Errorf("unknown field %q (the struct has %s)", unknown[0], listSome(t.FieldNames, 20))
	}
	for i, name := range t.FieldNames {
		if err := kid(i).appendJSON(m[name]); err != nil {
			return atPath(name, err)
		}
	}
	return nil
}

// listSome joins the first max names, and says how many more there are.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// foldKey is a string's key under simple case folding: each rune replaced
// by the least rune of its folding orbit, so that two strings have one key
// exactly when strings.EqualFold says they are equal.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// The least rune of an ASCII letter's orbit is its upper case
		// (K's orbit holds k and the Kelvin sign too).
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// numberText returns the text of a JSON number, or of a string standing for
// one.
func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return string(x), true
	case string:
		return x, true
	}
	return "", false
}

// appendJSON appends one value in the conventions of "orc cat".
func (b *builder) appendJSON(v any) error {
	if s, ok := v.(string); v == nil || ok && b.isNullText(s) {
		b.appendNull()
		return nil
	}
	want := func(what string) error {
		return fmt.Errorf("want %s for %s, have %s", what, b.t, jsonKind(v))
	}
	switch b.t.Kind {
	case orc.Boolean:
		return b.appendJSONBool(v, want)
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal:
		s, ok := numberText(v)
		if !ok {
			return want("a number")
		}
		return b.appendText(s)
	case orc.String, orc.Varchar, orc.Char:
		s, ok := v.(string)
		if !ok {
			return want("a string")
		}
		if err := b.checkLength(s); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(s)
	case orc.Binary:
		return b.appendBinary(v)
	case orc.Date, orc.Timestamp, orc.TimestampInstant, orc.Geometry, orc.Geography:
		s, ok := v.(string)
		if !ok {
			return want("a string")
		}
		return b.appendText(s)
	case orc.Struct:
		vec := b.vec.(*orc.StructVector)
		if err := appendFields(b.t, func(i int) *builder { return b.kids[i] }, v); err != nil {
			return err
		}
		setValid(&vec.Nulls)
		vec.N++
	case orc.List:
		return b.appendJSONList(v, want)
	case orc.Map:
		return b.appendJSONMap(v, want)
	case orc.Union:
		return b.appendUnion(v)
	default:
		return fmt.Errorf("cannot read %s from JSON", b.t)
	}
	return nil
}

// appendJSONBool takes true or false, or 1/0 and "yes"/"no" as CSV reads
// them.
func (b *builder) appendJSONBool(v any, want func(string) error) error {
	switch x := v.(type) {
	case bool:
		if x {
			b.addLong(1)
		} else {
			b.addLong(0)
		}
	case json.Number, string:
		if err := b.appendText(fmt.Sprint(x)); err != nil {
			return err
		}
	default:
		return want("true or false")
	}
	return nil
}

// appendJSONList takes an array of the list's elements.
func (b *builder) appendJSONList(v any, want func(string) error) error {
	arr, ok := v.([]any)
	if !ok {
		return want("an array")
	}
	vec := b.vec.(*orc.ListVector)
	vec.Offsets = startOffsets(vec.Offsets)
	for i, e := range arr {
		if err := b.kids[0].appendJSON(e); err != nil {
			return atPath("["+strconv.Itoa(i)+"]", err)
		}
	}
	setValid(&vec.Nulls)
	vec.Offsets = append(vec.Offsets, int64(vec.Elem.Len()))
	return nil
}

// appendJSONMap takes an array of {"key": ..., "value": ...} objects, or
// an object whose keys are the map's keys.
func (b *builder) appendJSONMap(v any, want func(string) error) error {
	vec := b.vec.(*orc.MapVector)
	switch x := v.(type) {
	case []any:
		vec.Offsets = startOffsets(vec.Offsets)
		for i, e := range x {
			if err := b.appendEntry(e); err != nil {
				return atPath("["+strconv.Itoa(i)+"]", err)
			}
		}
	case map[string]any:
		// {"k": v, ...}: keys are text (parsed for other key types),
		// taken in key order (an ORC map has no order of its own).
		if !b.kids[0].t.Kind.IsPrimitive() {
			return fmt.Errorf("a JSON object cannot hold the keys of %s: use the array of {\"key\": ..., \"value\": ...} form", b.t)
		}
		vec.Offsets = startOffsets(vec.Offsets)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := b.kids[0].appendMapKey(k); err != nil {
				return atPath(k, err)
			}
			if err := b.kids[1].appendJSON(x[k]); err != nil {
				return atPath(k, err)
			}
		}
	default:
		return want(`an object or an array of {"key": ..., "value": ...} objects`)
	}
	setValid(&vec.Nulls)
	vec.Offsets = append(vec.Offsets, int64(vec.Keys.Len()))
	return nil
}

// appendBinary takes an array of byte values, as orc cat prints binary, or
// a string's bytes.
func (b *builder) appendBinary(v any) error {
	vec := b.vec.(*orc.BytesVector)
	switch x := v.(type) {
	case string:
		vec.AppendString(x)
		return nil
	case []any:
		if len(vec.Offsets) == 0 {
			vec.Offsets = append(vec.Offsets, 0)
		}
		for i, e := range x {
			n, ok := e.(json.Number)
			c, err := strconv.ParseUint(string(n), 10, 8)
			if !ok || err != nil {
				vec.Data = vec.Data[:vec.Offsets[len(vec.Offsets)-1]]
				return atPath("["+strconv.Itoa(i)+"]", fmt.Errorf("want a byte value 0..255, have %s", jsonText(e)))
			}
			vec.Data = append(vec.Data, byte(c))
		}
		setValid(&vec.Nulls)
		vec.Offsets = append(vec.Offsets, len(vec.Data))
		return nil
	}
	return fmt.Errorf("want an array of byte values for binary, have %s", jsonKind(v))
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return jsonKind(v)
	}
	return string(b)
}

// appendMapKey appends a JSON object's key as a map key of the builder's
// primitive type.
func (b *builder) appendMapKey(k string) error {
	switch b.t.Kind {
	case orc.String, orc.Varchar, orc.Char:
		if err := b.checkLength(k); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(k)
		return nil
	case orc.Binary:
		return b.appendBinary(k)
	}
	return b.appendText(k)
}

// appendEntry appends one {"key": k, "value": v} map entry.
func (b *builder) appendEntry(e any) error {
	m, ok := e.(map[string]any)
	if !ok {
		return fmt.Errorf(`want a {"key": ..., "value": ...} object, have %s`, jsonKind(e))
	}
	for k := range m {
		if k != "key" && k != "value" {
			return fmt.Errorf(`unknown field %q in a map entry (want "key" and "value")`, k)
		}
	}
	if err := b.kids[0].appendJSON(m["key"]); err != nil {
		return atPath("key", err)
	}
	if err := b.kids[1].appendJSON(m["value"]); err != nil {
		return atPath("value", err)
	}
	return nil
}

// appendUnion appends a {"tag": n, "value": v} object; the other variants
// get a null slot so that all stay parallel to the union.
func (b *builder) appendUnion(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf(`want a {"tag": n, "value": ...} object for %s, have %s`, b.t, jsonKind(v))
	}
	for k := range m {
		if k != "tag" && k != "value" {
			return fmt.Errorf(`unknown field %q in a union (want "tag" and "value")`, k)
		}
	}
	n, ok := m["tag"].(json.Number)
	tag, err := strconv.ParseUint(string(n), 10, 8)
	if !ok || err != nil || int(tag) >= len(b.kids) {
		return fmt.Errorf("want a tag 0..%d for %s, have %s", len(b.kids)-1, b.t, jsonText(m["tag"]))
	}
	if err := b.kids[tag].appendJSON(m["value"]); err != nil {
		return atPath("value", err)
	}
	for i, k := range b.kids {
		if i != int(tag) {
			k.appendNull()
		}
	}
	vec := b.vec.(*orc.UnionVector)
	setValid(&vec.Nulls)
	vec.Tags = append(vec.Tags, uint8(tag))
	return nil
}
