package sarg

// CAST(x AS type), as Hive casts (spec.md 7.18):
//   - to TINYINT, SMALLINT, INT, BIGINT: numbers truncated toward zero,
//     text read as an integer (spaces around allowed), booleans 0 and 1;
//     NULL when the value does not fit (or is NaN or infinite, or the text
//     is no integer).
//   - to DECIMAL(p, s): rounded half away from zero to s digits; NULL when
//     more than p digits remain.
//   - to DOUBLE (FLOAT: that double rounded to float): the nearest double.
//   - to DATE: a timestamp's day, text read as YYYY-MM-DD; to TIMESTAMP:
//     a date's midnight, text read as a wall clock.
//   - to STRING (VARCHAR): text as it is, integers and decimals in
//     decimal notation (decimals with their scale's digits), dates as
//     YYYY-MM-DD, booleans as true and false. Doubles are refused, since
//     engines print them differently.
//   - to BOOLEAN: numbers other than zero are TRUE.
//
// Intervals: every cast between numbers, dates and timestamps is monotone
// (non-decreasing), so [lo, hi] maps to [cast(lo), cast(hi)]; where an end
// does not fit the target the values are unbounded and may be NULL. Casts
// from text and to text keep only the nulls (plus NULL for text that does
// not parse).

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

func init() { termFuncs["CAST"] = bindCast }

// castTypes are the targets of CAST other than decimal(p,s).
var castTypes = map[string]ttype{
	"tinyint": intTypeBits(7), "smallint": intTypeBits(15), "int": intTypeBits(31), "integer": intTypeBits(31),
	"bigint": intTypeBits(63), "double": {k: tkDouble}, "float": {k: tkDouble}, "string": {k: tkStr},
	"date": {k: tkDate}, "timestamp": {k: tkTs}, "boolean": {k: tkBool},
}

const castTypeList = "TINYINT, SMALLINT, INT, BIGINT, DECIMAL(p, s), DOUBLE, FLOAT, STRING, VARCHAR, DATE, TIMESTAMP, BOOLEAN"

var intBits = map[string]uint{"tinyint": 7, "smallint": 15, "int": 31, "integer": 31, "bigint": 63}

// bindCast binds CAST(x AS t.Param).
func bindCast(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 1); err != nil {
		return nil, ttype{}, nil, err
	}
	to, ok := castTypes[t.Param]
	if !ok {
		var p, s int
		if _, err := fmt.Sscanf(t.Param, "decimal(%d,%d)", &p, &s); err != nil || p < 1 || p > 38 || s < 0 || s > p {
			return nil, ttype{}, nil, termErrorf("CAST to %s: not a type CAST takes (%s)", t.Param, castTypeList)
		}
		to = ttype{k: tkDec, prec: p, scale: s}
	}
	from := kids[0].t
	c := castFn{from: from, to: to, float32: t.Param == "float", bits: intBits[t.Param]}
	if !c.allowed() {
		return nil, ttype{}, nil, termErrorf("CAST of %s to %s is not supported: %s", from, strings.ToUpper(t.Param), t)
	}
	return c, to, kids, nil
}

// castFn is one cast.
type castFn struct {
	from, to ttype
	float32  bool
	bits     uint // integer targets: the value must fit bits+1 bits signed
}

func (c castFn) allowed() bool {
	f, t := c.from.k, c.to.k
	switch t {
	case tkInt, tkDec, tkDouble:
		return c.from.numeric() || f == tkStr || f == tkBool && t == tkInt
	case tkStr:
		return c.from.exact() || f == tkStr || f == tkDate || f == tkBool
	case tkDate, tkTs:
		return f == tkDate || f == tkTs || f == tkStr
	case tkBool:
		return c.from.exact() || f == tkBool
	}
	return false
}

// plain casts one plain value (nil: NULL).
func (c castFn) plain(args []any) (any, error) {
	v := args[0]
	switch c.to.k {
	case tkDouble:
		return c.double(v), nil
	case tkInt, tkDec:
		r, ok := c.number(v)
		if !ok {
			return nil, nil
		}
		return c.fromRat(r)
	case tkStr:
		return c.text(v), nil
	case tkDate, tkTs:
		return c.time(v), nil
	}
	r, _ := c.number(v)
	return r != nil && r.Sign() != 0, nil
}

// number reads a value as an exact number (nil, true for NaN and
// infinities, which fit no exact type; ok false for text that is no
// number).
func (c castFn) number(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case *big.Rat:
		return x, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, true // fits no exact type: NULL
		}
		return new(big.Rat).SetFloat64(x), true
	case bool:
		return ratOf(b2i(x)), true
	case string:
		s := strings.TrimSpace(x)
		if c.to.k == tkInt {
			i, err := strconv.ParseInt(s, 10, 64)
			return ratOf(i), err == nil
		}
		r, ok := new(big.Rat).SetString(s)
		return r, ok && !strings.ContainsAny(s, "/xXpP_")
	}
	return nil, false
}

// double converts a value to a double (nil for text that is no number).
func (c castFn) double(v any) any {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case *big.Rat:
		f, _ = x.Float64()
	case string:
		var ok bool
		if f, ok = parseDouble(strings.TrimSpace(x)); !ok {
			return nil
		}
	default:
		return nil
	}
	if c.float32 {
		f = float64(float32(f))
	}
	return f
}

// fromRat converts an exact number to the target (nil when it does not
// fit).
func (c castFn) fromRat(r *big.Rat) (any, error) {
	switch c.to.k {
	case tkInt:
		if r == nil {
			return nil, nil
		}
		q := new(big.Int).Quo(r.Num(), r.Denom()) // toward zero
		lim := new(big.Int).Lsh(big.NewInt(1), c.bits)
		if q.CmpAbs(lim) >= 0 && !(q.Sign() < 0 && q.CmpAbs(lim) == 0) {
			return nil, nil
		}
		return new(big.Rat).SetInt(q), nil
	}
	if r == nil {
		return nil, nil
	}
	q := roundHalfAway(new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10Big(c.to.scale))))
	if q.CmpAbs(pow10Big(c.to.prec)) >= 0 {
		return nil, nil
	}
	return new(big.Rat).SetFrac(q, pow10Big(c.to.scale)), nil
}

// roundHalfAway rounds r to an integer, halves away from zero.
func roundHalfAway(r *big.Rat) *big.Int {
	a := new(big.Rat).Abs(r)
	a.Add(a, big.NewRat(1, 2))
	q := new(big.Int).Quo(a.Num(), a.Denom())
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// text formats a value as CAST(... AS STRING) does.
func (c castFn) text(v any) any {
	switch x := v.(type) {
	case string:
		return x
	case *big.Rat:
		if c.from.k == tkInt {
			return x.Num().String()
		}
		return x.FloatString(c.from.scale)
	case int64:
		return string(appendDate(nil, x))
	case bool:
		return strconv.FormatBool(x)
	}
	return nil
}

// time converts to a date or a timestamp (nil for text that is neither).
func (c castFn) time(v any) any {
	var ts tsVal
	switch x := v.(type) {
	case int64:
		ts = tsVal{x * 86400, 0}
	case tsVal:
		ts = x
	case string:
		s := strings.TrimSpace(x)
		if d, ok := parseDate(s); ok {
			ts = tsVal{d * 86400, 0}
		} else if l, err := parseTimestamp(s); err == nil && l.kind == TimestampLit && l.loc == nil {
			ts = tsVal{l.i, l.nanos}
		} else {
			return nil
		}
	default:
		return nil
	}
	if c.to.k == tkDate {
		d := floorDiv(ts.sec, 86400)
		if d < math.MinInt32 || d > math.MaxInt32 {
			return nil
		}
		return d
	}
	return ts
}

// eval casts rows: common casts over typed slices, the rest row by row
// through plain.
func (c castFn) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	switch {
	case c.to.k == tkDouble && !c.float32 && c.from.k == tkDouble:
		out.f = append(grow(out.f, 0), a.f[:n]...) // a copy: out's arrays are grown
		return nil
	case c.to.k == tkDate && c.from.k == tkTs:
		out.i = grow(out.i, n)
		for i, s := range a.sec[:n] {
			out.i[i] = floorDiv(s, 86400)
		}
		c.dateRange(out, n)
		return nil
	case c.to.k == tkTs && c.from.k == tkDate:
		out.sec, out.ns = grow(out.sec, n), grow(out.ns, n)
		clear(out.ns)
		for i, d := range a.i[:n] {
			out.sec[i] = d * 86400
		}
		return nil
	}
	return c.evalRows(a, n, out)
}

// dateRange makes days beyond 32 bits NULL.
func (c castFn) dateRange(out *tvec, n int) {
	for i, d := range out.i {
		if d < math.MinInt32 || d > math.MaxInt32 {
			out.setNull(i, n)
		}
	}
}

// evalRows casts row by row.
func (c castFn) evalRows(a *tvec, n int, out *tvec) error {
	out.alloc(c.to, n)
	for i := 0; i < n; i++ {
		if a.isNull(i) {
			if c.to.k == tkStr {
				out.st[i], out.en[i] = len(out.data), len(out.data)
			}
			continue
		}
		r, err := c.plain([]any{plainAt(a, c.from, i)})
		if err != nil {
			return err
		}
		if r == nil {
			out.setNull(i, n)
			if c.to.k == tkStr {
				out.st[i], out.en[i] = len(out.data), len(out.data)
			}
			continue
		}
		if err := out.set(c.to, i, r); err != nil {
			return err
		}
	}
	return nil
}

// alloc sizes v's slices of type t for n rows (their values left as
// they were).
func (v *tvec) alloc(t ttype, n int) {
	switch t.k {
	case tkDec:
		v.d = grow(v.d, n)
	case tkDouble:
		v.f = grow(v.f, n)
	case tkStr, tkBin:
		v.st, v.en = grow(v.st, n), grow(v.en, n)
	case tkTs, tkInstant:
		v.sec, v.ns = grow(v.sec, n), grow(v.ns, n)
	default:
		v.i = grow(v.i, n)
	}
}

// set stores the plain value v in row i (text rows must be set in order).
func (v *tvec) set(t ttype, i int, x any) error {
	switch y := x.(type) {
	case *big.Rat:
		if t.k == tkInt {
			v.i[i], _ = ratInt64(y, false)
			return nil
		}
		d, ok := ratDecimal(y, t.scale)
		if !ok {
			return fmt.Errorf("row %d: %s does not fit a decimal(38, %d)", i, y.RatString(), t.scale)
		}
		v.d[i] = d.Unscaled
	case float64:
		v.f[i] = y
	case string:
		v.st[i] = len(v.data)
		v.data = append(v.data, y...)
		v.en[i] = len(v.data)
	case int64:
		v.i[i] = y
	case tsVal:
		v.sec[i], v.ns[i] = y.sec, y.nanos
	case bool:
		v.i[i] = b2i(y)
	}
	return nil
}

// plainAt returns row i of a vector of type t as a plain value.
func plainAt(a *tvec, t ttype, i int) any {
	switch t.k {
	case tkInt:
		return ratOf(a.i[i])
	case tkDec:
		return new(big.Rat).SetFrac(a.d[i].Big(), pow10Big(t.scale))
	case tkDouble:
		return a.f[i]
	case tkStr, tkBin:
		return string(a.bytesAt(i))
	case tkDate:
		return a.i[i]
	case tkBool:
		return a.i[i] != 0
	}
	return tsVal{a.sec[i], a.ns[i]}
}

func (c castFn) ival(args []ival) ival {
	a := args[0]
	if !a.val || c.from.k == tkStr && c.to.k == tkStr {
		return a
	}
	out := ival{val: true, null: a.null || c.mayFail()}
	monotone := (c.from.numeric() || c.from.k == tkDate || c.from.k == tkTs) && c.to.k != tkStr && c.to.k != tkBool
	if !monotone || !a.bounded {
		return out
	}
	lo, err1 := c.plain([]any{plainOfTval(a.lo, c.from)})
	hi, err2 := c.plain([]any{plainOfTval(a.hi, c.from)})
	if err1 != nil || err2 != nil || lo == nil || hi == nil {
		out.null = true // an end does not fit: some values may not
		return out
	}
	// Both ends fit, and so does every value between them.
	out.bounded, out.lo, out.hi = true, tvalOfPlain(lo), tvalOfPlain(hi)
	return out
}

// mayFail reports whether the cast may turn a value into NULL.
func (c castFn) mayFail() bool {
	switch {
	case c.from.k == tkStr:
		return c.to.k != tkStr
	case c.to.k == tkDouble, c.to.k == tkStr, c.to.k == tkBool, c.to.k == tkTs && c.from.k == tkDate:
		return false
	case c.to.k == tkDec && c.from.exact():
		return c.from.prec-c.from.scale > c.to.prec-c.to.scale
	case c.to.k == tkInt && c.from.k == tkInt:
		return c.from.prec > c.to.prec || c.bits < 63 && c.from.prec >= c.to.prec
	}
	return true
}

// plainOfTval returns a bound as a plain value of type t.
func plainOfTval(v tval, t ttype) any {
	switch t.k {
	case tkDouble:
		return v.f
	case tkDate:
		return v.r.Num().Int64()
	case tkTs, tkInstant:
		return v.ts
	case tkStr, tkBin:
		return v.s
	}
	return v.r
}
