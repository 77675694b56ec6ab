package sarg

import (
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/orcgo/orc"
)

// Exact conversion of numeric literals into a column's domain.
//
// A literal is turned into an exact rational number (or ±infinity), then
// located in the column's domain (integers, or decimals of the column's
// scale): floor is the largest domain value <= the
// literal, ceil the smallest >= it. A comparison is rewritten on these so
// that it selects exactly the same rows: x < 5.5 on an integer column is
// x <= 5, x = 5.5 matches no value, 10^40 on a decimal(38,0) column is
// above every value.

// numVal is a numeric literal: an exact rational, or an infinity (inf = ±1).
type numVal struct {
	r   *big.Rat
	inf int
}

// conv is a literal located in a domain.
type conv[T any] struct {
	exact    bool // the literal is a domain value: floor == ceil == literal
	floor    T
	hasFloor bool // false when the literal is below every domain value
	ceil     T
	hasCeil  bool // false when the literal is above every domain value
}

// numOf converts an int, float or decimal literal; ok is false for other
// kinds and for NaN. A float parsed from text is the exact value of that
// text (1152921504606846976e0 is 2^60, 1e-1 is 1/10); a float built with
// Float is the shortest decimal that reads back as the same double (1/10
// for 0.1), not the binary fraction nearest to it.
func numOf(l Literal) (numVal, bool) {
	switch l.kind {
	case IntLit:
		return numVal{r: new(big.Rat).SetInt64(l.i)}, true
	case FloatLit:
		switch {
		case math.IsNaN(l.f):
			return numVal{}, false
		case math.IsInf(l.f, 1):
			return numVal{inf: 1}, true
		case math.IsInf(l.f, -1):
			return numVal{inf: -1}, true
		}
		text := l.exact
		if text == "" {
			text = strconv.FormatFloat(l.f, 'g', -1, 64)
		}
		r, ok := new(big.Rat).SetString(text)
		if !ok {
			return numVal{}, false
		}
		return numVal{r: r}, true
	case DecimalLit:
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(l.scale)), nil)
		return numVal{r: new(big.Rat).SetFrac(l.d.Big(), d)}, true
	}
	return numVal{}, false
}

var (
	bigMinInt64  = big.NewInt(math.MinInt64)
	bigMaxInt64  = big.NewInt(math.MaxInt64)
	maxInt128    = orc.Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}
	minInt128    = orc.Int128{Hi: math.MinInt64, Lo: 0}
	bigMaxInt128 = maxInt128.Big()
	bigMinInt128 = minInt128.Big()
)

// floorCeil returns floor and ceil of r as big integers.
func floorCeil(r *big.Rat) (fl, ce *big.Int) {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int)) // Euclidean: m >= 0 since Denom > 0
	if m.Sign() == 0 {
		return q, q
	}
	return q, new(big.Int).Add(q, big.NewInt(1))
}

// intConv locates v among integers in [lo, hi] (as big.Ints), handing back
// big.Ints that the caller narrows.
func bigIntConv(v numVal, lo, hi *big.Int) conv[*big.Int] {
	switch v.inf {
	case 1:
		return conv[*big.Int]{floor: hi, hasFloor: true}
	case -1:
		return conv[*big.Int]{ceil: lo, hasCeil: true}
	}
	fl, ce := floorCeil(v.r)
	c := conv[*big.Int]{exact: fl.Cmp(ce) == 0 && fl.Cmp(lo) >= 0 && fl.Cmp(hi) <= 0}
	switch {
	case fl.Cmp(lo) < 0:
	case fl.Cmp(hi) > 0:
		c.floor, c.hasFloor = hi, true
	default:
		c.floor, c.hasFloor = fl, true
	}
	switch {
	case ce.Cmp(hi) > 0:
	case ce.Cmp(lo) < 0:
		c.ceil, c.hasCeil = lo, true
	default:
		c.ceil, c.hasCeil = ce, true
	}
	return c
}

func int64Conv(v numVal) conv[int64] {
	b := bigIntConv(v, bigMinInt64, bigMaxInt64)
	c := conv[int64]{exact: b.exact, hasFloor: b.hasFloor, hasCeil: b.hasCeil}
	if b.hasFloor {
		c.floor = b.floor.Int64()
	}
	if b.hasCeil {
		c.ceil = b.ceil.Int64()
	}
	return c
}

// decimalConv locates v among decimals of the given scale (unscaled values
// in Int128's range).
func decimalConv(v numVal, scale int) conv[orc.Int128] {
	if v.r != nil {
		m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
		v = numVal{r: new(big.Rat).Mul(v.r, new(big.Rat).SetInt(m))}
	}
	b := bigIntConv(v, bigMinInt128, bigMaxInt128)
	c := conv[orc.Int128]{exact: b.exact, hasFloor: b.hasFloor, hasCeil: b.hasCeil}
	if b.hasFloor {
		c.floor, _ = orc.Int128FromBig(b.floor)
	}
	if b.hasCeil {
		c.ceil, _ = orc.Int128FromBig(b.ceil)
	}
	return c
}

// nearestFloat is the double a numeric literal stands for on a float or
// double column, where comparisons happen in double precision as in SQL
// engines: the literal rounded to the nearest double.
func nearestFloat(l Literal) float64 {
	switch l.kind {
	case IntLit:
		return float64(l.i)
	case DecimalLit:
		v, _ := numOf(l)
		f, _ := v.r.Float64()
		return f
	}
	return l.f
}

// tsVal is a timestamp in the domain of its column: seconds since
// 1970-01-01 and nanoseconds 0..999,999,999 (wall clock read as UTC for
// TIMESTAMP, the instant for TIMESTAMP WITH LOCAL TIME ZONE).
type tsVal struct {
	sec   int64
	nanos int32
}

func cmpTS(a, b tsVal) int {
	switch {
	case a.sec < b.sec:
		return -1
	case a.sec > b.sec:
		return 1
	case a.nanos < b.nanos:
		return -1
	case a.nanos > b.nanos:
		return 1
	}
	return 0
}

// floorMillis is the bloom filter probe value of a timestamp; ok is false
// when the milliseconds overflow an int64.
func (t tsVal) floorMillis() (ms int64, ok bool) {
	if t.sec > math.MaxInt64/1000-1 || t.sec < math.MinInt64/1000+1 {
		return 0, false
	}
	return t.sec*1000 + int64(t.nanos)/1e6, true
}

// daysConv locates a wall-clock timestamp among whole days.
func daysConv(t tsVal) conv[int64] {
	d := floorDiv(t.sec, 86400)
	if floorMod(t.sec, 86400) == 0 && t.nanos == 0 {
		return conv[int64]{exact: true, floor: d, hasFloor: true, ceil: d, hasCeil: true}
	}
	return conv[int64]{floor: d, hasFloor: true, ceil: d + 1, hasCeil: true}
}

// zoneInstants returns the instants at which the clocks of zone loc show the
// wall clock w (seconds read as UTC), in increasing order: one normally, two
// when w falls in an overlap (clocks set back), none when it falls in a gap
// (clocks set forward). For a gap it also returns the transition instant,
// the first instant whose wall clock is later than w.
func zoneInstants(w tsVal, loc *time.Location) (instants []tsVal, gapEnd tsVal) {
	offsetAt := func(sec int64) int64 {
		_, off := time.Unix(sec, 0).In(loc).Zone()
		return int64(off)
	}
	// Every offset in force within two days of w; transitions are further
	// apart than that in every real zone (Samoa's 2011 jump skipped one day).
	var offs []int64
	for d := int64(-2); d <= 2; d++ {
		o := offsetAt(w.sec + d*86400)
		dup := false
		for _, x := range offs {
			dup = dup || x == o
		}
		if !dup {
			offs = append(offs, o)
		}
	}
	var failed int64
	haveFailed := false
	for _, o := range offs {
		i := w.sec - o
		if offsetAt(i) == o {
			instants = append(instants, tsVal{i, w.nanos})
		} else if !haveFailed || i > failed {
			failed, haveFailed = i, true
		}
	}
	for a := 1; a < len(instants); a++ { // insertion sort, at most a few entries
		for b := a; b > 0 && cmpTS(instants[b], instants[b-1]) < 0; b-- {
			instants[b], instants[b-1] = instants[b-1], instants[b]
		}
	}
	if len(instants) == 0 {
		// In a gap, w - (offset before) lands after the transition; the zone
		// period containing it starts at the transition.
		start, _ := time.Unix(failed, 0).In(loc).ZoneBounds()
		gapEnd = tsVal{sec: failed}
		if !start.IsZero() {
			gapEnd = tsVal{sec: start.Unix()}
		}
	}
	return instants, gapEnd
}
