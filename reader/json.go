package reader

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// AppendJSONRow appends row i of b as one line of JSON (without a newline)
// in the conventions of Apache ORC's printer: a struct root prints as an
// object with fields in schema order, any other root as a bare value;
// timestamps as "YYYY-MM-DD HH:MM:SS.f" with the fraction's trailing zeros
// trimmed (at least one digit); dates as "YYYY-MM-DD"; binary as an array of
// byte values; maps as arrays of {"key", "value"} objects; unions as
// {"tag", "value"}; decimals as plain numbers at the column's scale; floats
// printed shortest (NaN and infinities as the strings "NaN", "Infinity" and
// "-Infinity", since JSON has no such numbers); geometry and geography as
// their well-known text (a value that is not WKB as "INVALID WKB" and its
// bytes in hex).
func AppendJSONRow(dst []byte, b *orc.Batch, i int) []byte {
	return AppendJSONRowWith(dst, b, i, JSONOptions{})
}

// JSONOptions changes how AppendJSONRowWith prints some types.
type JSONOptions struct {
	// GeometryHex prints geometry and geography values as their WKB bytes
	// in hex ("0101000000...") rather than as well-known text.
	GeometryHex bool
	// Zone, when set, prints timestamps with local time zone (instants)
	// as their wall clock in Zone with its offset (AppendInstant) rather
	// than as the wall clock in UTC without one. Timestamps without zone
	// are wall clocks and print as stored either way.
	Zone *time.Location
}

// AppendJSONRowWith is AppendJSONRow with options.
func AppendJSONRowWith(dst []byte, b *orc.Batch, i int, o JSONOptions) []byte {
	s := b.Schema
	i = b.Row(i)
	if s.Kind == orc.Struct {
		return o.object(dst, s, b.Cols, i)
	}
	return o.value(dst, s, b.Cols[0], i)
}

// AppendJSONValue appends row i of vector v, whose type is t, as JSON.
func AppendJSONValue(dst []byte, t *orc.Schema, v orc.Vector, i int) []byte {
	return JSONOptions{}.value(dst, t, v, i)
}

// AppendValue is AppendJSONValue with options.
func (o JSONOptions) AppendValue(dst []byte, t *orc.Schema, v orc.Vector, i int) []byte {
	return o.value(dst, t, v, i)
}

func (o JSONOptions) value(dst []byte, t *orc.Schema, v orc.Vector, i int) []byte {
	if v.IsNull(i) {
		return append(dst, "null"...)
	}
	switch vec := v.(type) {
	case *orc.LongVector:
		x := vec.Values[i]
		switch t.Kind {
		case orc.Boolean:
			if x != 0 {
				return append(dst, "true"...)
			}
			return append(dst, "false"...)
		case orc.Date:
			dst = append(dst, '"')
			dst = AppendDate(dst, x)
			return append(dst, '"')
		}
		return strconv.AppendInt(dst, x, 10)
	case *orc.DoubleVector:
		return appendJSONFloat(dst, vec.Values[i], t.Kind == orc.Float)
	case *orc.BytesVector:
		if t.Kind.IsGeospatial() {
			return appendJSONGeometry(dst, vec.Get(i), o.GeometryHex)
		}
		if t.Kind == orc.Binary {
			dst = append(dst, '[')
			for j, c := range vec.Get(i) {
				if j > 0 {
					dst = append(dst, ", "...)
				}
				dst = strconv.AppendUint(dst, uint64(c), 10)
			}
			return append(dst, ']')
		}
		return appendJSONBytes(dst, vec.Get(i))
	case *orc.DecimalVector:
		return append(dst, orc.FormatDecimal(vec.Values[i], vec.Scale)...)
	case *orc.TimestampVector:
		dst = append(dst, '"')
		if o.Zone != nil && t.Kind == orc.TimestampInstant {
			dst = AppendInstant(dst, vec.Seconds[i], vec.Nanos[i], o.Zone)
		} else {
			dst = AppendTimestamp(dst, vec.Seconds[i], vec.Nanos[i])
		}
		return append(dst, '"')
	}
	return o.nested(dst, t, v, i)
}

// object appends row i of the fields of struct type t, held in fields, as
// a JSON object.
func (o JSONOptions) object(dst []byte, t *orc.Schema, fields []orc.Vector, i int) []byte {
	dst = append(dst, '{')
	for f, c := range fields {
		if f > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendJSONString(dst, t.FieldNames[f])
		dst = append(dst, ": "...)
		dst = o.value(dst, t.Children[f], c, i)
	}
	return append(dst, '}')
}

// nested is value for a struct, list, map or union (and null for a vector
// of no type JSON has).
func (o JSONOptions) nested(dst []byte, t *orc.Schema, v orc.Vector, i int) []byte {
	switch vec := v.(type) {
	case *orc.StructVector:
		return o.object(dst, t, vec.Fields, i)
	case *orc.ListVector:
		dst = append(dst, '[')
		for j := vec.Offsets[i]; j < vec.Offsets[i+1]; j++ {
			if j > vec.Offsets[i] {
				dst = append(dst, ", "...)
			}
			dst = o.value(dst, t.Children[0], vec.Elem, int(j))
		}
		return append(dst, ']')
	case *orc.MapVector:
		dst = append(dst, '[')
		for j := vec.Offsets[i]; j < vec.Offsets[i+1]; j++ {
			if j > vec.Offsets[i] {
				dst = append(dst, ", "...)
			}
			dst = append(dst, `{"key": `...)
			dst = o.value(dst, t.Children[0], vec.Keys, int(j))
			dst = append(dst, `, "value": `...)
			dst = o.value(dst, t.Children[1], vec.Values, int(j))
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case *orc.UnionVector:
		tag := vec.Tags[i]
		dst = append(dst, `{"tag": `...)
		dst = strconv.AppendUint(dst, uint64(tag), 10)
		dst = append(dst, `, "value": `...)
		dst = o.value(dst, t.Children[tag], vec.Children[tag], i)
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// AppendInstant appends an instant as its wall clock in zone, the
// fraction's trailing zeros trimmed (one digit kept) as AppendTimestamp
// does, and the offset: 2024-03-10 01:30:00.5-05:00, a form a predicate's
// TIMESTAMP literal reads back.
func AppendInstant(dst []byte, sec int64, nanos int32, zone *time.Location) []byte {
	t := time.Unix(sec, int64(nanos)).In(zone)
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
	dst = AppendTimestamp(dst, wall.Unix(), nanos)
	return t.AppendFormat(dst, "-07:00")
}

// AppendDate appends days since 1970-01-01 as "YYYY-MM-DD" in the
// proleptic Gregorian calendar.
func AppendDate(dst []byte, days int64) []byte {
	return time.Unix(days*86400, 0).UTC().AppendFormat(dst, "2006-01-02")
}

// AppendTimestamp appends "YYYY-MM-DD HH:MM:SS.f", the seconds and nanos
// read as UTC, with the fraction's trailing zeros trimmed but at least one
// digit kept.
func AppendTimestamp(dst []byte, sec int64, nanos int32) []byte {
	dst = time.Unix(sec, 0).UTC().AppendFormat(dst, "2006-01-02 15:04:05")
	dst = append(dst, '.')
	var frac [9]byte
	n := nanos
	for k := 8; k >= 0; k-- {
		frac[k] = byte('0' + n%10)
		n /= 10
	}
	end := 9
	for end > 1 && frac[end-1] == '0' {
		end--
	}
	return append(dst, frac[:end]...)
}

func appendJSONFloat(dst []byte, f float64, is32 bool) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	bits := 64
	if is32 {
		bits = 32
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func appendJSONString(dst []byte, s string) []byte { return appendJSONBytes(dst, []byte(s)) }

const hexDigits = "0123456789abcdef"

// appendJSONBytes appends text as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONBytes(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
