package sarg

// The values of terms: their types, the typed vectors rows are evaluated
// into (a column at a time), the intervals statistics give them, and the
// plain values of the reference evaluation.

import (
	"fmt"
	"math/big"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// tkind is the kind of a term's values.
type tkind uint8

const (
	tkInt     tkind = iota // integers: int64
	tkDec                  // exact numbers: orc.Int128 at the type's scale
	tkDouble               // float64, NaN above every number
	tkStr                  // text (char values without their padding)
	tkBin                  // bytes
	tkDate                 // days: int64
	tkTs                   // wall clock: seconds and nanoseconds read as UTC
	tkInstant              // instant: seconds and nanoseconds
	tkBool                 // int64 0 or 1
)

var tkindNames = [...]string{"integer", "decimal", "double", "string", "binary", "date", "timestamp", "timestamp with local time zone", "boolean"}

func (k tkind) String() string { return tkindNames[k] }

// ttype is a term's type. Exact numbers (tkInt, tkDec) carry a bound on
// their magnitude: |unscaled value| <= max, and max < 10^prec (max nil:
// 10^prec - 1).
type ttype struct {
	k     tkind
	scale int
	prec  int
	max   *big.Int
}

// maxDecimal is 10^38, the first magnitude a decimal(38) cannot hold.
var maxDecimal = pow10Big(38)

// maxAbs returns the bound on the unscaled values' magnitude.
func (t ttype) maxAbs() *big.Int {
	if t.max != nil {
		return t.max
	}
	return new(big.Int).Sub(pow10Big(t.prec), big.NewInt(1))
}

// exactType returns the exact type of values at scale up to max.
func exactType(k tkind, scale int, max *big.Int) ttype {
	return ttype{k: k, scale: scale, prec: len(max.String()), max: max}
}

// intTypeBits is the type of a column of signed integers of bits+1 bits.
func intTypeBits(bits uint) ttype {
	return exactType(tkInt, 0, new(big.Int).Lsh(big.NewInt(1), bits))
}

func (t ttype) exact() bool   { return t.k == tkInt || t.k == tkDec }
func (t ttype) numeric() bool { return t.exact() || t.k == tkDouble }

func (t ttype) String() string {
	if t.k == tkDec {
		return fmt.Sprintf("decimal(%d,%d)", t.prec, t.scale)
	}
	return t.k.String()
}

// typeOfColumn returns the term type of a column's values.
func typeOfColumn(c *orc.Schema) (ttype, bool) {
	switch c.Kind {
	case orc.Byte:
		return intTypeBits(7), true
	case orc.Short:
		return intTypeBits(15), true
	case orc.Int:
		return intTypeBits(31), true
	case orc.Long:
		return intTypeBits(63), true
	case orc.Decimal:
		p := c.Precision
		if p <= 0 || p > 38 {
			p = 38
		}
		return ttype{k: tkDec, prec: p, scale: c.Scale}, true
	case orc.Float, orc.Double:
		return ttype{k: tkDouble}, true
	case orc.String, orc.Varchar, orc.Char:
		return ttype{k: tkStr}, true
	case orc.Binary:
		return ttype{k: tkBin}, true
	case orc.Date:
		return ttype{k: tkDate}, true
	case orc.Timestamp:
		return ttype{k: tkTs}, true
	case orc.TimestampInstant:
		return ttype{k: tkInstant}, true
	case orc.Boolean:
		return ttype{k: tkBool}, true
	}
	return ttype{}, false
}

// tkindColumns holds the column kind each kind of term values is
// compared as.
var tkindColumns = [...]orc.Kind{tkInt: orc.Long, tkDec: orc.Decimal, tkDouble: orc.Double, tkStr: orc.String, tkBin: orc.Binary,
	tkDate: orc.Date, tkTs: orc.Timestamp, tkInstant: orc.TimestampInstant, tkBool: orc.Boolean}

// schema returns the column type a term's values are compared as.
func (t ttype) schema() *orc.Schema {
	if t.k == tkDec {
		return &orc.Schema{Kind: orc.Decimal, Precision: 38, Scale: t.scale}
	}
	return &orc.Schema{Kind: tkindColumns[t.k]}
}

// tvec holds a term's values for the rows of a batch. Which slices are
// used depends on the kind; text is data[st[i]:en[i]], so that SUBSTR and
// TRIM only move the ends.
type tvec struct {
	null   []bool // nil: no row is null
	i      []int64
	f      []float64
	d      []orc.Int128
	data   []byte
	st, en []int
	sec    []int64
	ns     []int32

	// Buffers kept between batches (the vectors above may be views of a
	// column's vectors, which are never written to).
	nullBuf, mergeBuf []bool
	mergeEn           []int  // a char column's ends without padding
	pick              []int8 // COALESCE: the argument of each row
	filled            int    // a literal: the rows already holding its value

	// Decimals in 64 bits (term_narrow.go): n64 holds the values when
	// narrow, each below 2^mag in magnitude; narrowOnly says d does not
	// hold them, wideOnly that they do not fit.
	n64                          []int64
	mag                          int
	narrow, narrowOnly, wideOnly bool
}

// grow returns s with length n, reusing its array when large enough; the
// values are left as they were.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// setNull makes row i null, starting a mask of n rows (in nullBuf) when
// there is none.
func (v *tvec) setNull(i, n int) {
	if v.null == nil {
		v.nullBuf = grow(v.nullBuf, n)
		clear(v.nullBuf)
		v.null = v.nullBuf
	}
	v.null[i] = true
}

// mergeNulls sets v.null to the union of v's own mask and the masks of
// args, in mergeBuf; input masks are never written to.
func (v *tvec) mergeNulls(n int, args []*tvec) {
	any := v.null != nil
	for _, a := range args {
		any = any || a.null != nil
	}
	if !any {
		return
	}
	m := grow(v.mergeBuf, n)
	if v.null != nil {
		copy(m, v.null[:n])
	} else {
		clear(m)
	}
	for _, a := range args {
		if a.null != nil {
			for i, b := range a.null[:n] {
				m[i] = m[i] || b
			}
		}
	}
	v.mergeBuf, v.null = m, m
}

func (v *tvec) isNull(i int) bool { return v.null != nil && v.null[i] }

// bytesAt returns text value i.
func (v *tvec) bytesAt(i int) []byte { return v.data[v.st[i]:v.en[i]] }

// vector returns the values as an orc.Vector of t's schema, in *cache
// (made on first use, reused after).
func (v *tvec) vector(t ttype, n int, cache *orc.Vector) orc.Vector {
	nulls := orc.Nulls{Nulls: v.null}
	switch t.k {
	case tkInt, tkDate, tkBool:
		x, _ := (*cache).(*orc.LongVector)
		if x == nil {
			x = &orc.LongVector{}
			*cache = x
		}
		x.Nulls, x.Values = nulls, v.i[:n]
	case tkDec:
		x, _ := (*cache).(*orc.DecimalVector)
		if x == nil {
			x = &orc.DecimalVector{}
			*cache = x
		}
		x.Nulls, x.Values, x.Scale = nulls, v.d[:n], t.scale
	case tkDouble:
		x, _ := (*cache).(*orc.DoubleVector)
		if x == nil {
			x = &orc.DoubleVector{}
			*cache = x
		}
		x.Nulls, x.Values = nulls, v.f[:n]
	case tkStr, tkBin:
		x, _ := (*cache).(*orc.BytesVector)
		if x == nil {
			x = &orc.BytesVector{}
			*cache = x
		}
		x.Nulls, x.Offsets, x.Data = nulls, grow(x.Offsets, n+1), x.Data[:0]
		x.Offsets[0] = 0
		for i := 0; i < n; i++ {
			x.Data = append(x.Data, v.bytesAt(i)...)
			x.Offsets[i+1] = len(x.Data)
		}
	default:
		x, _ := (*cache).(*orc.TimestampVector)
		if x == nil {
			x = &orc.TimestampVector{}
			*cache = x
		}
		x.Nulls, x.Seconds, x.Nanos = nulls, v.sec[:n], v.ns[:n]
	}
	return *cache
}

// ival is what a unit's statistics say of a term's values: whether a
// non-null value and whether a null may occur, and when bounded, a lower
// and an upper bound of the non-null values (NaN lies above every bound:
// a double term that may be NaN is unbounded).
type ival struct {
	val, null bool
	bounded   bool
	lo, hi    tval
}

// tval is one bound: r for exact numbers, dates (days) and booleans (0,
// 1), f for doubles, s for text, ts for timestamps.
type tval struct {
	r  *big.Rat
	f  float64
	s  string
	ts tsVal
}

// anyIval is the interval that says nothing.
var anyIval = ival{val: true, null: true}

// strictIval returns what the intervals of a strict function's arguments
// tell of its result, its bounds left to the caller: it may be NULL when
// one argument may be, has a value only where every argument may have
// one, and is bounded only when they all are.
func strictIval(args []ival) ival {
	out := ival{val: true, bounded: true}
	for _, a := range args {
		out.null = out.null || a.null
		out.val = out.val && a.val
		out.bounded = out.bounded && a.bounded
	}
	return out
}

// cmpTval compares two bounds of kind k.
func cmpTval(k tkind, a, b tval) int {
	switch k {
	case tkDouble:
		return cmpFloat(a.f, b.f)
	case tkStr, tkBin:
		return cmpOrdered(a.s, b.s)
	case tkTs, tkInstant:
		return cmpTS(a.ts, b.ts)
	}
	return a.r.Cmp(b.r)
}

// rng returns the interval's bounds as a range for the outcome rules.
func (iv ival) rng(k tkind) rng[tval] {
	return rng[tval]{lo: iv.lo, hi: iv.hi, hasLo: iv.bounded, hasHi: iv.bounded,
		cmp: func(a, b tval) int { return cmpTval(k, a, b) }}
}

// union returns an interval holding the values of both.
func (iv ival) union(k tkind, o ival) ival {
	switch {
	case !iv.val:
		o.null = o.null || iv.null
		return o
	case !o.val:
		iv.null = iv.null || o.null
		return iv
	}
	out := ival{val: true, null: iv.null || o.null, bounded: iv.bounded && o.bounded}
	if out.bounded {
		out.lo, out.hi = iv.lo, iv.hi
		if cmpTval(k, o.lo, out.lo) < 0 {
			out.lo = o.lo
		}
		if cmpTval(k, o.hi, out.hi) > 0 {
			out.hi = o.hi
		}
	}
	return out
}

func ratOf(i int64) *big.Rat { return new(big.Rat).SetInt64(i) }

// stats returns a statistics object of t's schema that describes iv, for
// the comparison a term leaf makes of its values.
func (iv ival) stats(t ttype) *stats.Column {
	m := &stats.Column{Kind: t.schema().Kind, HasNull: iv.null, HasNullKnown: true}
	if iv.val {
		m.NumValues = 2
	}
	if !iv.val || !iv.bounded {
		if t.k == tkBool && iv.val {
			m.Bool = &stats.BoolStats{TrueCount: 1} // some true, some false
		}
		return m
	}
	lo, hi := iv.lo, iv.hi
	switch t.k {
	case tkInt:
		a, ok1 := ratInt64(lo.r, false)
		b, ok2 := ratInt64(hi.r, true)
		m.Int = &stats.IntStats{Min: a, Max: b, HasMinMax: ok1 && ok2}
	case tkBool:
		tc := uint64(1)
		switch {
		case hi.r.Sign() == 0:
			tc = 0
		case lo.r.Sign() > 0:
			tc = 2
		}
		m.Bool = &stats.BoolStats{TrueCount: tc}
	case tkDate:
		a, ok1 := ratInt64(lo.r, false)
		b, ok2 := ratInt64(hi.r, true)
		if ok1 && ok2 && a >= -1<<31 && b < 1<<31 {
			m.Date = &stats.DateStats{Min: int32(a), Max: int32(b), HasMinMax: true}
		}
	case tkDec:
		a, ok1 := ratDecimalFloor(lo.r, t.scale, false)
		b, ok2 := ratDecimalFloor(hi.r, t.scale, true)
		m.Decimal = &stats.DecimalStats{Min: a, Max: b, HasMinMax: ok1 && ok2}
	case tkDouble:
		m.Double = &stats.DoubleStats{Min: lo.f, Max: hi.f, HasMinMax: lo.f == lo.f && hi.f == hi.f}
	case tkStr:
		m.String = &stats.StringStats{Min: lo.s, Max: hi.s, HasMin: true, HasMax: true}
	case tkTs, tkInstant:
		m.Timestamp = &stats.TimestampStats{MinSec: lo.ts.sec, MinNanos: lo.ts.nanos, MaxSec: hi.ts.sec, MaxNanos: hi.ts.nanos, HasMinMax: true}
	}
	return m
}

// ratInt64 rounds r down (or up, when up) to an int64, if it fits.
func ratInt64(r *big.Rat, up bool) (int64, bool) {
	q := new(big.Int)
	if up {
		_, ce := floorCeil(r)
		q = ce
	} else {
		q, _ = floorCeil(r)
	}
	return q.Int64(), q.IsInt64()
}

// ratDecimalFloor rounds r down (or up) to a decimal at scale.
func ratDecimalFloor(r *big.Rat, scale int, up bool) (stats.DecimalValue, bool) {
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10Big(scale)))
	fl, ce := floorCeil(x)
	q := fl
	if up {
		q = ce
	}
	v, ok := orc.Int128FromBig(q)
	return stats.DecimalValue{Unscaled: v, Scale: scale}, ok
}
