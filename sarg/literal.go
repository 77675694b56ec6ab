package sarg

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/civil"
)

// LiteralKind is the type of a literal as written in a predicate. Binding
// converts it to the column's domain when that is exact (see Bind).
type LiteralKind uint8

// The literal kinds.
const (
	NullLit      LiteralKind = iota // SQL NULL; only in IN lists and with NullSafeEq (<=>)
	IntLit                          // 64-bit integer
	FloatLit                        // 64-bit IEEE 754 (NaN and infinities allowed)
	StringLit                       // text, compared as UTF-8 bytes
	BytesLit                        // raw bytes
	BoolLit                         // TRUE or FALSE
	DecimalLit                      // unscaled orc.Int128 and a scale
	DateLit                         // days since 1970-01-01 (proleptic Gregorian)
	TimestampLit                    // wall clock (seconds+nanos read as UTC), optionally with the zone it was written in
	InstantLit                      // a point in time: seconds+nanos since 1970-01-01 00:00:00 UTC
)

var literalKindNames = [...]string{"null", "integer", "float", "string", "bytes", "boolean", "decimal", "date", "timestamp", "instant"}

// String names the kind.
func (k LiteralKind) String() string {
	if int(k) < len(literalKindNames) {
		return literalKindNames[k]
	}
	return "literal(" + strconv.Itoa(int(k)) + ")"
}

// Literal is a typed constant of a predicate. Build one with the constructors
// (Int, Float, String, ...). The zero Literal is NULL.
type Literal struct {
	kind  LiteralKind
	i     int64      // int, bool (0/1), date days, timestamp/instant seconds
	f     float64    // float
	s     string     // string and bytes
	d     orc.Int128 // decimal unscaled value
	scale int32      // decimal scale
	nanos int32      // timestamp/instant nanoseconds 0..999,999,999
	loc   *time.Location
	// exact, for a float parsed from text whose exact value differs from
	// the shortest decimal of f (1152921504606846976e0, whose double
	// prints as 1.152921504606847e+18), is that text: it is the value on
	// integer and decimal columns, and what String prints.
	exact string
}

// NullValue returns the NULL literal. It is allowed in IN lists, where it
// turns a non-matching row's FALSE into NULL, and with NullSafeEq, where
// it matches null rows.
func NullValue() Literal { return Literal{} }

// Int returns an integer literal.
func Int(v int64) Literal { return Literal{kind: IntLit, i: v} }

// Float returns a floating-point literal. A NaN literal never lets
// statistics prune (engines disagree on how NaN compares). In row-level
// filtering floats are ordered with NaN equal to itself and above every
// number, and -0.0 equal to +0.0 (see Bind). On integer and decimal
// columns it stands for the shortest decimal that reads back as v (0.1 is
// 1/10); a literal parsed from text with an exponent stands for the exact
// value of its digits instead (spec.md 7.2).
func Float(v float64) Literal { return Literal{kind: FloatLit, f: v} }

// String returns a text literal.
func String(s string) Literal { return Literal{kind: StringLit, s: s} }

// Bytes returns a binary literal (the bytes are copied).
func Bytes(b []byte) Literal { return Literal{kind: BytesLit, s: string(b)} }

// Bool returns a boolean literal.
func Bool(v bool) Literal {
	if v {
		return Literal{kind: BoolLit, i: 1}
	}
	return Literal{kind: BoolLit}
}

// Decimal returns the decimal literal unscaled / 10^scale. The scale is
// kept: 12.50 (1250, scale 2) prints as 12.50. Bind refuses a scale outside
// 0..38.
func Decimal(unscaled orc.Int128, scale int) Literal {
	return Literal{kind: DecimalLit, d: unscaled, scale: int32(min(max(scale, -1), 39))}
}

// ParseDecimalLiteral parses a decimal such as "12.50" or "-3" into a
// decimal literal.
func ParseDecimalLiteral(s string) (Literal, error) {
	v, sc, err := orc.ParseDecimal(s)
	if err != nil {
		return Literal{}, err
	}
	if sc > 38 {
		return Literal{}, fmt.Errorf("sarg: decimal %q has more than 38 fractional digits", s)
	}
	return Decimal(v, sc), nil
}

// Date returns a date literal: days since 1970-01-01.
func Date(days int32) Literal { return Literal{kind: DateLit, i: int64(days)} }

// DateOf returns the date literal for a proleptic Gregorian calendar day.
func DateOf(year int, month time.Month, day int) Literal {
	return Literal{kind: DateLit, i: daysFromCivil(int64(year), int64(month), int64(day))}
}

// Timestamp returns a local (wall clock) timestamp literal: sec and nanos
// are the wall clock read as if it were UTC, as ORC stores TIMESTAMP
// columns. nanos outside 0..999,999,999 is carried into sec.
func Timestamp(sec int64, nanos int64) Literal {
	s, n := normTime(sec, nanos)
	return Literal{kind: TimestampLit, i: s, nanos: n}
}

// TimestampIn is Timestamp with the zone the wall clock was written in.
// Against a TIMESTAMP column the zone is ignored (wall clock is compared with
// wall clock); against a TIMESTAMP WITH LOCAL TIME ZONE column it says which
// instants the wall clock names.
func TimestampIn(sec int64, nanos int64, zone *time.Location) Literal {
	l := Timestamp(sec, nanos)
	l.loc = zone
	return l
}

// LocalTimestamp returns the local timestamp literal with t's wall clock
// (its year, month, day, hour... in t's location), without a zone.
func LocalTimestamp(t time.Time) Literal {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	days := daysFromCivil(int64(y), int64(mo), int64(d))
	return Timestamp(days*86400+int64(h*3600+mi*60+s), int64(t.Nanosecond()))
}

// Instant returns an instant literal: seconds and nanoseconds since
// 1970-01-01 00:00:00 UTC.
func Instant(sec int64, nanos int64) Literal {
	s, n := normTime(sec, nanos)
	return Literal{kind: InstantLit, i: s, nanos: n}
}

// InstantOf returns the instant literal for t.
func InstantOf(t time.Time) Literal { return Instant(t.Unix(), int64(t.Nanosecond())) }

func normTime(sec, nanos int64) (int64, int32) {
	sec += floorDiv(nanos, 1e9)
	return sec, int32(floorMod(nanos, 1e9))
}

// Kind returns the literal's type.
func (l Literal) Kind() LiteralKind { return l.kind }

// IsNull reports whether the literal is NULL.
func (l Literal) IsNull() bool { return l.kind == NullLit }

// Int64 returns the value of an integer, boolean (0/1) or date (days)
// literal, or the seconds of a timestamp or instant.
func (l Literal) Int64() int64 { return l.i }

// Float64 returns the value of a float literal.
func (l Literal) Float64() float64 { return l.f }

// Str returns the text of a string or bytes literal.
func (l Literal) Str() string { return l.s }

// DecimalValue returns the unscaled value and scale of a decimal literal.
func (l Literal) DecimalValue() (orc.Int128, int) { return l.d, int(l.scale) }

// Nanos returns the nanoseconds of a timestamp or instant literal.
func (l Literal) Nanos() int32 { return l.nanos }

// Zone returns the zone a timestamp literal was written in, or nil.
func (l Literal) Zone() *time.Location { return l.loc }

// Equal reports whether two literals are the same value written the same way
// (kind, value, decimal scale and zone name all equal; NaN equals NaN).
func (l Literal) Equal(o Literal) bool {
	if l.kind != o.kind || l.i != o.i || l.s != o.s || l.d != o.d || l.scale != o.scale || l.nanos != o.nanos || l.exact != o.exact {
		return false
	}
	if math.Float64bits(l.f) != math.Float64bits(o.f) && !(math.IsNaN(l.f) && math.IsNaN(o.f)) {
		return false
	}
	return zoneName(l.loc) == zoneName(o.loc)
}

func zoneName(l *time.Location) string {
	if l == nil {
		return ""
	}
	return l.String()
}

// String returns the literal in the text form Parse reads: 5, 1e+03,
// 12.50, 'text', X'0aff', TRUE, DATE '2024-01-01',
// TIMESTAMP '2024-03-10 01:30:00.5', TIMESTAMP '2024-03-10 01:30:00 Europe/Paris',
// TIMESTAMP '2024-03-10 01:30:00Z' (an instant), NULL.
func (l Literal) String() string { return string(l.appendText(nil)) }

func (l Literal) appendText(b []byte) []byte {
	switch l.kind {
	case NullLit:
		return append(b, "NULL"...)
	case IntLit:
		return strconv.AppendInt(b, l.i, 10)
	case FloatLit:
		switch {
		case math.IsNaN(l.f):
			return append(b, "DOUBLE 'NaN'"...)
		case math.IsInf(l.f, 1):
			return append(b, "DOUBLE 'Infinity'"...)
		case math.IsInf(l.f, -1):
			return append(b, "DOUBLE '-Infinity'"...)
		}
		if l.exact != "" {
			return append(b, l.exact...)
		}
		return strconv.AppendFloat(b, l.f, 'e', -1, 64)
	case StringLit:
		return appendQuoted(b, l.s)
	case BytesLit:
		b = append(b, "X'"...)
		b = hex.AppendEncode(b, []byte(l.s))
		return append(b, '\'')
	case BoolLit:
		if l.i != 0 {
			return append(b, "TRUE"...)
		}
		return append(b, "FALSE"...)
	case DecimalLit:
		s := orc.FormatDecimal(l.d, int(l.scale))
		if l.scale == 0 {
			b = append(b, "DECIMAL '"...)
			b = append(b, s...)
			return append(b, '\'')
		}
		return append(b, s...)
	case DateLit:
		b = append(b, "DATE '"...)
		b = appendDate(b, l.i)
		return append(b, '\'')
	case TimestampLit, InstantLit:
		b = append(b, "TIMESTAMP '"...)
		b = appendDateTime(b, l.i, l.nanos)
		if l.kind == InstantLit {
			b = append(b, 'Z')
		} else if l.loc != nil {
			b = append(b, ' ')
			b = append(b, l.loc.String()...)
		}
		return append(b, '\'')
	}
	return append(b, "?"...)
}

func appendQuoted(b []byte, s string) []byte {
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return append(b, '\'')
}

// Calendar arithmetic on the proleptic Gregorian calendar, valid for any
// int64 day count that does not overflow (years far beyond time.Time's
// formatting range).

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil returns days since 1970-01-01 for y-m-d (internal/civil
// owns the calendar).
func daysFromCivil(y, m, d int64) int64 { return civil.Days(y, m, d) }

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) { return civil.Date(z) }

func appendPadded(b []byte, v int64, width int) []byte {
	s := strconv.FormatInt(v, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func appendDate(b []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	b = appendPadded(b, y, 4)
	b = append(b, '-')
	b = appendPadded(b, m, 2)
	b = append(b, '-')
	return appendPadded(b, d, 2)
}

func appendDateTime(b []byte, sec int64, nanos int32) []byte {
	days := floorDiv(sec, 86400)
	s := floorMod(sec, 86400)
	b = appendDate(b, days)
	b = append(b, ' ')
	b = appendPadded(b, s/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, s/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, s%60, 2)
	if nanos != 0 {
		frac := strconv.AppendInt(nil, int64(nanos)+1e9, 10)[1:]
		b = append(b, '.')
		b = append(b, strings.TrimRight(string(frac), "0")...)
	}
	return b
}

// parseDate reads [-]YYYY-MM-DD (four to nine year digits, so that the
// seconds of any time on the day fit in an int64) into days.
func parseDate(s string) (int64, bool) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	i := strings.IndexByte(s, '-')
	if i < 4 || i > 9 || len(s) != i+6 || s[i+3] != '-' {
		return 0, false
	}
	y, ok1 := digits(s[:i])
	m, ok2 := digits(s[i+1 : i+3])
	d, ok3 := digits(s[i+4:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m, neg) {
		return 0, false
	}
	if neg {
		y = -y
	}
	return daysFromCivil(y, m, d), true
}

func digits(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

func daysIn(y, m int64, neg bool) int64 {
	if neg {
		y = -y
	}
	return civil.DaysInMonth(y, m)
}

// parseTimestamp reads "YYYY-MM-DD HH:MM:SS[.fffffffff]" (a 'T' may replace
// the space) followed by nothing (a local timestamp), by 'Z' or an offset
// +hh:mm / -hh:mm (an instant), or by a space and an IANA zone name (a local
// timestamp written in that zone).
func parseTimestamp(s string) (Literal, error) {
	sp := strings.IndexAny(s, " T")
	if sp < 0 {
		return Literal{}, fmt.Errorf("expected 'YYYY-MM-DD HH:MM:SS'")
	}
	days, ok := parseDate(s[:sp])
	if !ok {
		return Literal{}, fmt.Errorf("bad date %q", s[:sp])
	}
	rest := s[sp+1:]
	if len(rest) < 8 || rest[2] != ':' || rest[5] != ':' {
		return Literal{}, fmt.Errorf("bad time %q, expected HH:MM:SS", rest)
	}
	h, ok1 := digits(rest[0:2])
	mi, ok2 := digits(rest[3:5])
	se, ok3 := digits(rest[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || se > 59 {
		return Literal{}, fmt.Errorf("bad time %q", rest[:8])
	}
	rest = rest[8:]
	var nanos int64
	if strings.HasPrefix(rest, ".") {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		frac := rest[1:n]
		if len(frac) == 0 || len(frac) > 9 {
			return Literal{}, fmt.Errorf("fraction of a second needs 1 to 9 digits")
		}
		v, _ := digits(frac)
		for i := len(frac); i < 9; i++ {
			v *= 10
		}
		nanos = v
		rest = rest[n:]
	}
	sec := days*86400 + h*3600 + mi*60 + se
	switch {
	case rest == "":
		return Timestamp(sec, nanos), nil
	case rest == "Z":
		return Instant(sec, nanos), nil
	case rest[0] == '+' || rest[0] == '-':
		if len(rest) != 6 || rest[3] != ':' {
			return Literal{}, fmt.Errorf("bad zone offset %q, expected +hh:mm", rest)
		}
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 18 || om > 59 {
			return Literal{}, fmt.Errorf("bad zone offset %q", rest)
		}
		off := oh*3600 + om*60
		if rest[0] == '-' {
			off = -off
		}
		return Instant(sec-off, nanos), nil
	case rest[0] == ' ':
		name := rest[1:]
		if name == "" || strings.ContainsAny(name, " '") {
			return Literal{}, fmt.Errorf("bad zone name %q", name)
		}
		loc, err := time.LoadLocation(name)
		if err != nil {
			return Literal{}, fmt.Errorf("unknown zone %q", name)
		}
		return TimestampIn(sec, nanos, loc), nil
	}
	return Literal{}, fmt.Errorf("unexpected %q after the time", rest)
}
