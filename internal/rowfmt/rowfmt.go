// Package rowfmt prints rows as the orc command's cat and scan do (their
// --format): JSON lines, CSV, TSV or an aligned table. It is the orc
// command's, shared with the programs beside it (orc-iceberg) so that
// their rows print alike.
//
// Timestamps with local time zone (instants) print in Options.Zone with
// their offset, in every format; timestamps without zone are wall clocks
// and print as stored.
package rowfmt

import (
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
)

// The formats, as --format names them.
const (
	JSON  = "json"  // JSON lines (reader.AppendJSONRowWith)
	CSV   = "csv"   // RFC 4180, with a header line
	TSV   = "tsv"   // tab-separated, with a header line, NULL as \N
	Table = "table" // aligned columns for a terminal
)

// Options shape printed rows.
type Options struct {
	// Format is JSON, CSV, TSV or Table; "" is JSON.
	Format string
	// Zone is the zone instants print in; nil is UTC.
	Zone *time.Location
	// WKBHex prints geometry as WKB in hex, not WKT, in JSON.
	WKBHex bool
	// Columns are the --columns asked: CSV, TSV and Table print a nested
	// field asked by its path (a.b) as a column of that name.
	Columns []string
}

// FormatUsage and ZoneUsage describe --format and --timezone in a
// command's help.
const (
	FormatUsage = "output: json (JSON lines), csv, tsv (with a header line) or table (aligned columns,\nwidths from the first 100 rows); in csv, tsv and table a nested field asked with --columns a.b\nis a column named a.b, a struct column JSON text"
	ZoneUsage   = "the zone timestamps with local time zone are printed in, with their offset (IANA name,\nor Local); timestamps without zone are wall clocks and print as stored"
)

// ParseOptions checks a --format and a --timezone (an IANA name, Local,
// or "" for UTC) and returns them as Options.
func ParseOptions(format, zone string) (Options, error) {
	o := Options{Format: strings.ToLower(format), Zone: time.UTC}
	switch o.Format {
	case JSON, CSV, TSV, Table:
	default:
		return o, fmt.Errorf("--format %q: want json, csv, tsv or table", format)
	}
	if zone != "" && zone != "UTC" {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			return o, fmt.Errorf("--timezone %q: not a time zone name (such as Europe/Paris, or Local)", zone)
		}
		o.Zone = loc
	}
	return o, nil
}

// Formatter turns rows into text. A Formatter is single-goroutine.
type Formatter interface {
	// Add appends the text ready after row i of b (b.Row(i) of its
	// vectors) and returns how many rows that text ends: a table holds its first rows until it knows
	// the widths of its columns, and CSV and TSV put their header line
	// before the first row.
	Add(dst []byte, b *orc.Batch, i int) ([]byte, int)
	// Flush appends the text of the rows held (and CSV's and TSV's
	// header when no row was added) and returns how many rows it ends.
	Flush(dst []byte) ([]byte, int)
}

// New returns the formatter of o for rows of schema s (the batches given
// to Add have s).
func New(o Options, s *orc.Schema) Formatter {
	zone := o.Zone
	if zone == nil {
		zone = time.UTC
	}
	switch o.Format {
	case CSV, TSV:
		return &delimitedFormat{zone: zone, cols: flatColumns(s, o.Columns), tsv: o.Format == TSV}
	case Table:
		return &tableFormat{zone: zone, cols: flatColumns(s, o.Columns)}
	}
	return &jsonFormat{opts: reader.JSONOptions{GeometryHex: o.WKBHex, Zone: zone}}
}

// columnsOf returns the printed columns of rows of schema s: a struct's
// fields, or the one value of another type.
func columnsOf(s *orc.Schema) ([]string, []*orc.Schema) {
	if s.Kind == orc.Struct {
		return s.FieldNames, s.Children
	}
	return []string{"value"}, []*orc.Schema{s}
}

// flatColumn is a column of csv, tsv and table output: a top-level column,
// or a field of a struct column asked by its path (--columns loc.lat),
// named by that path.
type flatColumn struct {
	name string
	t    *orc.Schema
	path []int // the column's index, then the field index at each level below
}

// flatColumns returns the printed columns of rows of schema s: its
// top-level columns, except that a struct column asked only by paths to
// its fields (in asked) gives a column per path, in the order asked; a
// struct asked by its own name stays one column, printed as JSON.
func flatColumns(s *orc.Schema, asked []string) []flatColumn {
	names, types := columnsOf(s)
	var out []flatColumn
	for i, name := range names {
		var deeper []string
		if s.Kind == orc.Struct && types[i].Kind == orc.Struct && !slices.Contains(asked, name) {
			for _, a := range asked {
				if rest, ok := strings.CutPrefix(a, name+"."); ok && !slices.Contains(deeper, rest) {
					deeper = append(deeper, rest)
				}
			}
		}
		var cols []flatColumn
		for _, d := range deeper {
			c, ok := fieldAt(types[i], d, []int{i})
			if !ok {
				cols = nil
				break
			}
			c.name = name + "." + d
			cols = append(cols, c)
		}
		if cols == nil {
			cols = []flatColumn{{name: name, t: types[i], path: []int{i}}}
		}
		out = append(out, cols...)
	}
	return out
}

// fieldAt returns the field of struct type t at dotted path p (below
// path), or false.
func fieldAt(t *orc.Schema, p string, path []int) (flatColumn, bool) {
	for _, n := range strings.Split(p, ".") {
		if t.Kind != orc.Struct {
			return flatColumn{}, false
		}
		k := slices.Index(t.FieldNames, n)
		if k < 0 {
			return flatColumn{}, false
		}
		path = append(path, k)
		t = t.Children[k]
	}
	return flatColumn{t: t, path: path}, true
}

// value returns the column's vector in b and whether row i is null there
// (a null struct above the field makes it null).
func (c flatColumn) value(b *orc.Batch, i int) (orc.Vector, bool) {
	v := b.Cols[c.path[0]]
	for _, k := range c.path[1:] {
		if v.IsNull(i) {
			return v, true
		}
		v = v.(*orc.StructVector).Fields[k]
	}
	return v, v.IsNull(i)
}

type jsonFormat struct {
	opts reader.JSONOptions // geometry as hex or text, instants in --timezone
}

func (f *jsonFormat) Add(dst []byte, b *orc.Batch, i int) ([]byte, int) {
	dst = reader.AppendJSONRowWith(dst, b, i, f.opts)
	return append(dst, '\n'), 1
}

func (f *jsonFormat) Flush(dst []byte) ([]byte, int) { return dst, 0 }

// appendText appends a value as plain text: numbers, dates and timestamps
// as JSON prints them but unquoted, strings as they are, binary as hex,
// and compound values as JSON.
func appendText(dst []byte, t *orc.Schema, v orc.Vector, i int, zone *time.Location) []byte {
	switch vec := v.(type) {
	case *orc.BytesVector:
		if t.Kind == orc.Binary {
			return hex.AppendEncode(dst, vec.Get(i))
		}
		if t.Kind.IsGeospatial() {
			return appendGeometryText(dst, vec.Get(i))
		}
		return append(dst, vec.Get(i)...)
	case *orc.TimestampVector:
		if t.Kind == orc.TimestampInstant {
			return reader.AppendInstant(dst, vec.Seconds[i], vec.Nanos[i], zone)
		}
		return reader.AppendTimestamp(dst, vec.Seconds[i], vec.Nanos[i])
	case *orc.LongVector:
		if t.Kind == orc.Date {
			return reader.AppendDate(dst, vec.Values[i])
		}
	case *orc.DoubleVector:
		x := vec.Values[i]
		switch {
		case math.IsNaN(x):
			return append(dst, "NaN"...)
		case math.IsInf(x, 1):
			return append(dst, "Infinity"...)
		case math.IsInf(x, -1):
			return append(dst, "-Infinity"...)
		}
	}
	return reader.JSONOptions{Zone: zone}.AppendValue(dst, t, v, i)
}

// delimitedFormat prints CSV (RFC 4180: a field holding a comma, quote or
// line break is quoted; NULL is an empty field, an empty string "") or TSV
// (tab, newline and backslash escaped as \t, \n and \\; NULL is \N, as
// Hive and PostgreSQL write it), with a header line.
type delimitedFormat struct {
	zone    *time.Location
	cols    []flatColumn
	tsv     bool
	started bool
	text    []byte
}

func (f *delimitedFormat) header(dst []byte) []byte {
	for c, col := range f.cols {
		dst = f.field(dst, c, []byte(col.name), false)
	}
	return append(dst, '\n')
}

func (f *delimitedFormat) field(dst []byte, c int, text []byte, null bool) []byte {
	if c > 0 {
		if f.tsv {
			dst = append(dst, '\t')
		} else {
			dst = append(dst, ',')
		}
	}
	if f.tsv {
		if null {
			return append(dst, `\N`...)
		}
		for _, ch := range text {
			switch ch {
			case '\t':
				dst = append(dst, `\t`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\\':
				dst = append(dst, `\\`...)
			default:
				dst = append(dst, ch)
			}
		}
		return dst
	}
	if null {
		return dst
	}
	if len(text) > 0 && !strings.ContainsAny(string(text), ",\"\r\n") {
		return append(dst, text...)
	}
	dst = append(dst, '"')
	for _, ch := range text {
		if ch == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, ch)
	}
	return append(dst, '"')
}

func (f *delimitedFormat) Add(dst []byte, b *orc.Batch, i int) ([]byte, int) {
	i = b.Row(i)
	if !f.started {
		f.started = true
		dst = f.header(dst)
	}
	for c, col := range f.cols {
		v, null := col.value(b, i)
		f.text = f.text[:0]
		if !null {
			f.text = appendText(f.text, col.t, v, i, f.zone)
		}
		dst = f.field(dst, c, f.text, null)
	}
	return append(dst, '\n'), 1
}

func (f *delimitedFormat) Flush(dst []byte) ([]byte, int) {
	if !f.started {
		f.started = true
		dst = f.header(dst)
	}
	return dst, 0
}

// tableFormat prints aligned columns for a terminal: the widths come from
// the header and the first tableSample rows (a wider text later is cut
// with …, a wider number is not), numbers are aligned right, NULL prints
// as null.
type tableFormat struct {
	zone   *time.Location
	cols   []flatColumn
	widths []int
	right  []bool
	held   [][]string // the first rows, until the widths are known
}

// tableSample is how many rows set a table's column widths; tableMaxWidth
// the widest column.
const (
	tableSample   = 100
	tableMaxWidth = 48
)

func (f *tableFormat) Add(dst []byte, b *orc.Batch, i int) ([]byte, int) {
	i = b.Row(i)
	row := make([]string, len(f.cols))
	for c, col := range f.cols {
		v, null := col.value(b, i)
		if null {
			row[c] = "null"
			continue
		}
		t := col.t
		row[c] = strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f {
				return '·'
			}
			return r
		}, string(appendText(nil, t, v, i, f.zone)))
	}
	if f.widths != nil {
		return f.line(dst, row), 1
	}
	f.held = append(f.held, row)
	if len(f.held) < tableSample {
		return dst, 0
	}
	return f.Flush(dst)
}

func (f *tableFormat) Flush(dst []byte) ([]byte, int) {
	if f.widths != nil {
		return dst, 0
	}
	names := make([]string, len(f.cols))
	f.widths = make([]int, len(names))
	f.right = make([]bool, len(names))
	for c, col := range f.cols {
		names[c] = col.name
		f.widths[c] = utf8.RuneCountInString(col.name)
		switch col.t.Kind {
		case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal:
			f.right[c] = true
		}
	}
	for _, row := range f.held {
		for c, s := range row {
			f.widths[c] = max(f.widths[c], utf8.RuneCountInString(s))
		}
	}
	rule := make([]string, len(names))
	for c := range f.widths {
		f.widths[c] = min(max(f.widths[c], 1), tableMaxWidth)
		rule[c] = strings.Repeat("-", f.widths[c])
	}
	dst = f.line(dst, names)
	dst = f.line(dst, rule)
	n := len(f.held)
	for _, row := range f.held {
		dst = f.line(dst, row)
	}
	f.held = nil
	return dst, n
}

// line appends one row of cells, padded to the widths.
func (f *tableFormat) line(dst []byte, row []string) []byte {
	for c, s := range row {
		if c > 0 {
			dst = append(dst, "  "...)
		}
		w := f.widths[c]
		n := utf8.RuneCountInString(s)
		if n > w && !f.right[c] {
			s = string([]rune(s)[:w-1]) + "…"
			n = w
		}
		pad := strings.Repeat(" ", max(w-n, 0))
		if f.right[c] {
			dst = append(dst, pad...)
			dst = append(dst, s...)
		} else if c < len(row)-1 {
			dst = append(dst, s...)
			dst = append(dst, pad...)
		} else {
			dst = append(dst, s...) // no trailing blanks
		}
	}
	return append(dst, '\n')
}

// appendGeometryText appends a WKB value as WKT for CSV, TSV and tables,
// or "INVALID WKB " and its hex when it does not parse.
func appendGeometryText(dst, wkb []byte) []byte {
	out, err := geo.AppendWKT(dst, wkb)
	if err != nil {
		return hex.AppendEncode(append(dst, "INVALID WKB "...), wkb)
	}
	return out
}
