package testutil

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// Plain values. A row of a batch becomes a tree of these:
//
//	null                        nil
//	boolean                     bool
//	tinyint .. bigint, date     int64
//	float, double               float64
//	string, char, varchar, bin  string
//	decimal                     Dec (at the column's scale)
//	timestamp(_instant)         TS
//	struct, array               []any
//	map                         []KV
//	uniontype                   U

// Dec is a decimal value: Unscaled / 10^Scale.
type Dec struct {
	Unscaled orc.Int128
	Scale    int
}

// TS is a timestamp as seconds since 1970 and nanoseconds.
type TS struct {
	Sec   int64
	Nanos int32
}

// KV is one map entry.
type KV struct{ K, V any }

// U is a union value: the variant's tag and its value.
type U struct {
	Tag uint8
	V   any
}

// Rows returns every row of b as a plain value (for a struct schema, the
// row's fields as []any). With written set, the values are what a writer
// must store: char padded to its length, varchar truncated, floats rounded
// to 32 bits, decimals rescaled to the column's scale; without it they are
// taken as they are, as a reader's batch should already be.
func Rows(s *orc.Schema, b *orc.Batch, written bool) []any {
	out := make([]any, b.NumRows)
	for i := range out {
		if s.Kind == orc.Struct {
			row := make([]any, len(s.Children))
			for f, c := range s.Children {
				row[f] = Value(c, b.Cols[f], i, written)
			}
			out[i] = row
		} else {
			out[i] = Value(s, b.Cols[0], i, written)
		}
	}
	return out
}

// Value returns row i of v, a vector of type t, as a plain value (see Rows
// for written).
func Value(t *orc.Schema, v orc.Vector, i int, written bool) any {
	if v.IsNull(i) {
		return nil
	}
	switch t.Kind {
	case orc.Boolean:
		return v.(*orc.LongVector).Values[i] != 0
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		return v.(*orc.LongVector).Values[i]
	case orc.Float:
		x := v.(*orc.DoubleVector).Values[i]
		if written {
			x = float64(float32(x))
		}
		return x
	case orc.Double:
		return v.(*orc.DoubleVector).Values[i]
	case orc.String, orc.Binary, orc.Geometry, orc.Geography:
		return string(v.(*orc.BytesVector).Get(i))
	case orc.Varchar, orc.Char:
		s := string(v.(*orc.BytesVector).Get(i))
		if written {
			s = FitText(t, s)
		}
		return s
	case orc.Decimal:
		dv := v.(*orc.DecimalVector)
		d := Dec{Unscaled: dv.Values[i], Scale: dv.Scale}
		if written && d.Scale != t.Scale {
			r, exact, ok := orc.Rescale(d.Unscaled, d.Scale, t.Scale)
			if !exact || !ok {
				panic(fmt.Sprintf("testutil: decimal %v does not rescale to %d", d, t.Scale))
			}
			d = Dec{Unscaled: r, Scale: t.Scale}
		}
		return d
	case orc.Timestamp, orc.TimestampInstant:
		tv := v.(*orc.TimestampVector)
		return TS{Sec: tv.Seconds[i], Nanos: tv.Nanos[i]}
	case orc.Struct:
		sv := v.(*orc.StructVector)
		out := make([]any, len(t.Children))
		for f, c := range t.Children {
			out[f] = Value(c, sv.Fields[f], i, written)
		}
		return out
	case orc.List:
		lv := v.(*orc.ListVector)
		out := []any{}
		for j := lv.Offsets[i]; j < lv.Offsets[i+1]; j++ {
			out = append(out, Value(t.Children[0], lv.Elem, int(j), written))
		}
		return out
	case orc.Map:
		mv := v.(*orc.MapVector)
		out := []KV{}
		for j := mv.Offsets[i]; j < mv.Offsets[i+1]; j++ {
			out = append(out, KV{Value(t.Children[0], mv.Keys, int(j), written), Value(t.Children[1], mv.Values, int(j), written)})
		}
		return out
	case orc.Union:
		uv := v.(*orc.UnionVector)
		tag := uv.Tags[i]
		return U{Tag: tag, V: Value(t.Children[tag], uv.Children[tag], i, written)}
	}
	panic("testutil: no value for " + t.Kind.String())
}

// FitText applies char(n) padding and varchar(n) truncation to s, counting
// characters as UTF-8 decoding does.
func FitText(t *orc.Schema, s string) string {
	n := utf8.RuneCountInString(s)
	if n > t.MaxLength {
		cut, k := 0, 0
		for k < t.MaxLength {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
			k++
		}
		s, n = s[:cut], t.MaxLength
	}
	if t.Kind == orc.Char && n < t.MaxLength {
		s += strings.Repeat(" ", t.MaxLength-n)
	}
	return s
}

// Project cuts a full-schema value down to a projected schema, matching
// struct fields by name; below a non-struct node the value is kept whole.
func Project(full, proj *orc.Schema, v any) any {
	if v == nil || full.Kind != orc.Struct {
		return v
	}
	row := v.([]any)
	out := make([]any, len(proj.Children))
	for i, name := range proj.FieldNames {
		j := indexOf(full.FieldNames, name)
		out[i] = Project(full.Children[j], proj.Children[i], row[j])
	}
	return out
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	panic("testutil: no field " + name)
}

// Diff returns "" when want and got are equal plain values, or where and
// how they differ. Floating point values compare by bits (so -0.0 differs
// from +0.0), except that any NaN equals any NaN.
func Diff(want, got any) string { return diff("", want, got) }

func diff(path string, want, got any) string {
	at := func(format string, args ...any) string {
		p := path
		if p == "" {
			p = "."
		}
		return p + ": " + fmt.Sprintf(format, args...)
	}
	if want == nil || got == nil {
		if want == nil && got == nil {
			return ""
		}
		return at("want %s, got %s", Show(want), Show(got))
	}
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		if !ok {
			return at("want float64 %v, got %T", w, got)
		}
		if math.IsNaN(w) && math.IsNaN(g) || math.Float64bits(w) == math.Float64bits(g) {
			return ""
		}
		return at("want %v (%#x), got %v (%#x)", w, math.Float64bits(w), g, math.Float64bits(g))
	case []any:
		g, ok := got.([]any)
		if !ok {
			return at("want %s, got %s", Show(want), Show(got))
		}
		if len(w) != len(g) {
			return at("want %d items %s, got %d items %s", len(w), Show(want), len(g), Show(got))
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	case []KV:
		g, ok := got.([]KV)
		if !ok || len(w) != len(g) {
			return at("want %s, got %s", Show(want), Show(got))
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s[%d].key", path, i), w[i].K, g[i].K); d != "" {
				return d
			}
			if d := diff(fmt.Sprintf("%s[%d].value", path, i), w[i].V, g[i].V); d != "" {
				return d
			}
		}
		return ""
	case U:
		g, ok := got.(U)
		if !ok || w.Tag != g.Tag {
			return at("want %s, got %s", Show(want), Show(got))
		}
		return diff(fmt.Sprintf("%s<%d>", path, w.Tag), w.V, g.V)
	}
	if want != got {
		return at("want %s, got %s", Show(want), Show(got))
	}
	return ""
}

// Show formats a plain value briefly (long strings shortened).
func Show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 60 {
			return fmt.Sprintf("%q...(%d bytes)", x[:60], len(x))
		}
		return fmt.Sprintf("%q", x)
	case Dec:
		return orc.FormatDecimal(x.Unscaled, x.Scale)
	case TS:
		return fmt.Sprintf("%d.%09d", x.Sec, x.Nanos)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Show(e)
		}
		s := "[" + strings.Join(parts, " ") + "]"
		if len(s) > 300 {
			s = s[:300] + "...]"
		}
		return s
	case []KV:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Show(e.K) + ":" + Show(e.V)
		}
		return "{" + strings.Join(parts, " ") + "}"
	case U:
		return fmt.Sprintf("<%d>%s", x.Tag, Show(x.V))
	}
	return fmt.Sprint(v)
}

// Flat holds, for every column id, the values at that column's level in
// row order: one item per value the column's streams hold, nil for a null,
// rows under a null ancestor left out (they have no item at all). Start
// tells which items belong to which top-level row: row r's items of
// column id are Items[id][Start[id][r]:Start[id][r+1]].
type Flat struct {
	Schema *orc.Schema
	Items  [][]any
	Start  [][]int
}

// Flatten splits rows (as from Rows) into per-column items.
func Flatten(s *orc.Schema, rows []any) *Flat {
	n := s.MaxID() + 1
	f := &Flat{Schema: s, Items: make([][]any, n), Start: make([][]int, n)}
	for _, row := range rows {
		for id := range f.Start {
			f.Start[id] = append(f.Start[id], len(f.Items[id]))
		}
		f.add(s, row)
	}
	for id := range f.Start {
		f.Start[id] = append(f.Start[id], len(f.Items[id]))
	}
	return f
}

func (f *Flat) add(t *orc.Schema, v any) {
	f.Items[t.ID()] = append(f.Items[t.ID()], v)
	if v == nil {
		return
	}
	switch t.Kind {
	case orc.Struct:
		for i, c := range t.Children {
			f.add(c, v.([]any)[i])
		}
	case orc.List:
		for _, e := range v.([]any) {
			f.add(t.Children[0], e)
		}
	case orc.Map:
		for _, e := range v.([]KV) {
			f.add(t.Children[0], e.K)
			f.add(t.Children[1], e.V)
		}
	case orc.Union:
		u := v.(U)
		f.add(t.Children[u.Tag], u.V)
	}
}

// Range returns the items of column id for top-level rows [from, to).
func (f *Flat) Range(id, from, to int) []any {
	return f.Items[id][f.Start[id][from]:f.Start[id][to]]
}
