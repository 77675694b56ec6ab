package stats

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Accumulator gathers the statistics of one column while the writer adds its
// values, typically one per row group, merged into one per stripe and one per
// file. It is a concrete type so the per-value calls can be inlined; use the
// method of the column's kind:
//
//	boolean                      AddBool (or AddLongs with 0/1)
//	tinyint smallint int bigint  AddInt, AddLongs
//	float double                 AddDouble, AddDoubles (floats widened)
//	string varchar char binary   AddBytes, AddByteRows (char values padded)
//	geometry geography           AddGeometry (or AddBytes, AddByteRows)
//	decimal                      AddDecimal, AddDecimals (at the column's scale)
//	date                         AddDate, AddLongs
//	timestamp(_instant)          AddTimestamp, AddTimestamps
//	array map                    AddChildren (children of one value)
//	struct uniontype             AddValue
//
// and AddNull for every null at this level (not for rows under a null
// parent, which do not count at all). Calling another kind's method is a
// caller error: it counts the value but leaves the typed statistics
// unspecified. An Accumulator is not safe for concurrent use.
type Accumulator struct {
	count       uint64 // non-null values
	bytesOnDisk uint64

	// integers, dates (min/max only)
	imin, imax int64
	// isum is the sum of integers; of booleans, the count of true
	// values; of strings, binary and geometry values, their bytes. A
	// field of each took 16 bytes more, and an accumulator 96 bytes
	// rather than 80: a writer of a wide schema has one a column or more.
	isum int64

	// The small fields together, after the words: an accumulator
	// takes 64 bytes, not 96 (80 with a decimal's scale beside them).
	kind         orc.Kind
	hasNull      bool
	mismatch     bool // merged with an accumulator of another kind
	keepLong     bool // KeepLongValues
	isumOverflow bool // of integers, dates

	// The state of the other kinds, allocated for those kinds only
	// (NewAccumulator, or the first value of such a kind): a file of
	// 100,000 integer columns keeps three accumulators a column, which at
	// 288 bytes each took 84 MB.
	*more

	// geometry: box and type codes, valid when count > 0 (geo.go)
	g *geoAcc
}

// more is the state of an accumulator of floats, doubles, text,
// decimals, timestamps, lists and maps.
type more struct {
	// floats and doubles; dseen is false until a non-NaN value arrives
	dmin, dmax, dsum float64
	dseen, dnan      bool

	// strings (binary keeps only its bytes, isum); smin/smax are copies kept in
	// reused buffers, of at most MaxStringBytes: a longer minimum is kept
	// as its lower bound, a longer maximum as its upper bound (setMin,
	// setMax), flagged by sminBound/smaxBound
	smin, smax           []byte
	sminBound, smaxBound bool

	// decimals, unscaled at the column's scale; scale is kept by Reset
	// and Merge
	decMin, decMax, decSum orc.Int128
	decSumOverflow         bool
	scale                  int

	// timestamps
	tminSec, tmaxSec int64
	tminNs, tmaxNs   int32

	// lists and maps
	cmin, cmax, ctotal uint64
}

// noMore is what an accumulator without more state reads as.
var noMore more

// needsMore reports whether an accumulator of kind k keeps more state.
func needsMore(k orc.Kind) bool {
	switch k {
	case orc.Float, orc.Double, orc.String, orc.Char, orc.Varchar, orc.Decimal,
		orc.Timestamp, orc.TimestampInstant, orc.List, orc.Map:
		return true
	}
	return false
}

// grow gives a its more state, for a value of a kind that keeps it.
func (a *Accumulator) grow() {
	if a.more == nil {
		a.more = new(more)
	}
}

// view returns a's more state, or an empty one, for reading.
func (a *Accumulator) view() *more {
	if a.more == nil {
		return &noMore
	}
	return a.more
}

// NewAccumulator returns an empty accumulator for the column t.
func NewAccumulator(t *orc.Schema) *Accumulator {
	a := &Accumulator{kind: t.Kind}
	if needsMore(t.Kind) {
		a.more = new(more)
	}
	if t.Kind == orc.Decimal {
		a.more.scale = t.Scale
	}
	return a
}

// Reset empties the accumulator for the next row group, keeping its kind and
// its buffers.
func (a *Accumulator) Reset() {
	m := a.more
	if m != nil {
		*m = more{smin: m.smin[:0], smax: m.smax[:0], scale: m.scale}
	}
	*a = Accumulator{kind: a.kind, more: m, g: a.g, keepLong: a.keepLong}
}

// AddNull records a null value at this level.
func (a *Accumulator) AddNull() { a.hasNull = true }

// AddNulls records n null values.
func (a *Accumulator) AddNulls(n int) {
	if n > 0 {
		a.hasNull = true
	}
}

// AddValue records a non-null struct or union value.
func (a *Accumulator) AddValue() { a.count++ }

// SetBytesOnDisk records the column's stream bytes, for stripe and file
// statistics.
func (a *Accumulator) SetBytesOnDisk(n uint64) { a.bytesOnDisk = n }

// AddInt records an integer value.
func (a *Accumulator) AddInt(v int64) {
	a.addMinMax(v)
	s := a.isum + v
	if (a.isum >= 0) == (v >= 0) && (s >= 0) != (v >= 0) {
		a.isumOverflow = true
	}
	a.isum = s
}

// AddDate records a date as days since 1970-01-01.
func (a *Accumulator) AddDate(days int32) { a.addMinMax(int64(days)) }

// addMinMax records an integer or a date in the count, minimum and maximum.
func (a *Accumulator) addMinMax(v int64) {
	widen(&a.imin, &a.imax, v, a.count == 0)
	a.count++
}

// widen stretches the range [*lo, *hi] to hold v, or makes it v alone when
// first.
func widen[T int64 | uint64](lo, hi *T, v T, first bool) {
	if first {
		*lo, *hi = v, v
	} else if v < *lo {
		*lo = v
	} else if v > *hi {
		*hi = v
	}
}

// AddBool records a boolean value.
func (a *Accumulator) AddBool(v bool) {
	a.count++
	if v {
		a.isum++
	}
}

// AddDouble records a float or double value. A NaN makes min and max unknown
// and the sum NaN.
func (a *Accumulator) AddDouble(v float64) {
	a.grow()
	a.count++
	a.dsum += v
	switch {
	case v != v:
		a.dnan = true
	case !a.dseen:
		a.dmin, a.dmax, a.dseen = v, v, true
	case v < a.dmin:
		a.dmin = v
	case v > a.dmax:
		a.dmax = v
	}
}

// AddBytes records a string, char (padded), varchar or binary value. The
// bytes are compared unsigned (UTF-8 order for text) and copied only when
// they become the new minimum or maximum.
func (a *Accumulator) AddBytes(v []byte) {
	if a.kind.IsGeospatial() {
		a.AddGeometry(v)
		return
	}
	if a.kind != orc.Binary {
		a.grow()
	}
	switch {
	case a.kind == orc.Binary:
		// Binary statistics have no minimum nor maximum.
	case a.count == 0:
		a.setMin(v)
		a.setMax(v)
	case a.belowMin(v):
		a.setMin(v)
	case a.aboveMax(v):
		a.setMax(v)
	}
	a.count++
	a.isum += int64(len(v))
}

// AddBytesRepeat records n copies of v: AddBytes n times, at the cost of
// one.
func (a *Accumulator) AddBytesRepeat(v []byte, n uint64) {
	if n == 0 {
		return
	}
	a.AddBytes(v)
	a.count += n - 1
	a.isum += int64(n-1) * int64(len(v))
}

// bytesLess reports whether a sorts before b, unsigned. Most values differ
// from the minimum and maximum in their first 8 bytes, or in their first
// byte when shorter (the more so as the bounds spread), which decides
// without calling bytes.Compare.
func bytesLess(a, b []byte) bool {
	if len(a) >= 8 && len(b) >= 8 {
		// The first 8 bytes as big-endian words order as the bytes do.
		if x, y := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b); x != y {
			return x < y
		}
	} else if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] < b[0]
	}
	return bytes.Compare(a, b) < 0
}

// AddDecimal records a decimal value given unscaled at the column's scale.
// The sum becomes unknown once it needs more than 38 digits.
func (a *Accumulator) AddDecimal(v orc.Int128) {
	a.grow()
	if a.count == 0 {
		a.decMin, a.decMax = v, v
	} else if v.Cmp(a.decMin) < 0 {
		a.decMin = v
	} else if v.Cmp(a.decMax) > 0 {
		a.decMax = v
	}
	a.count++
	if !a.decSumOverflow {
		s, of := a.decSum.Add(v)
		if of || !fitsDecimal(s) {
			a.decSumOverflow = true
		}
		a.decSum = s
	}
}

// AddDecimal64s records n decimal values that all fit an int64 unscaled,
// given by their least, greatest and sum, as n calls of AddDecimal would,
// and reports whether it did. It declines (recording nothing) when the
// sum so far is too large for that to be sure: AddDecimal gives up the sum
// when any partial sum needs more than 38 digits, and a partial sum of the
// n values may reach past their total. Under 2^100 so far, with n below
// 2^36, no partial sum can reach 10^38 (about 2^126).
func (a *Accumulator) AddDecimal64s(min, max int64, sum orc.Int128, n uint64) bool {
	a.grow()
	if n == 0 {
		return true
	}
	if n >= 1<<36 {
		return false
	}
	if !a.decSumOverflow {
		if m := a.decSum; m.Hi >= 1<<36 || m.Hi < -(1<<36) {
			return false
		}
	}
	lo, hi := orc.Int128FromInt64(min), orc.Int128FromInt64(max)
	if a.count == 0 {
		a.decMin, a.decMax = lo, hi
	} else {
		if lo.Cmp(a.decMin) < 0 {
			a.decMin = lo
		}
		if hi.Cmp(a.decMax) > 0 {
			a.decMax = hi
		}
	}
	a.count += n
	if !a.decSumOverflow {
		s, of := a.decSum.Add(sum)
		if of || !fitsDecimal(s) {
			a.decSumOverflow = true
		}
		a.decSum = s
	}
	return true
}

// AddTimestamp records a timestamp as seconds since 1970-01-01 and nanos
// 0..999,999,999 (wall clock read as UTC for TIMESTAMP, the instant for
// TIMESTAMP_INSTANT). Nanos outside that range are carried into seconds.
func (a *Accumulator) AddTimestamp(sec int64, nanos int32) {
	a.grow()
	if nanos < 0 || nanos > 999_999_999 {
		carry, n := floorDivMod(int64(nanos), 1_000_000_000)
		sec, nanos = sec+carry, int32(n)
	}
	if a.count == 0 {
		a.tminSec, a.tminNs, a.tmaxSec, a.tmaxNs = sec, nanos, sec, nanos
	} else if cmpTime(sec, nanos, a.tminSec, a.tminNs) < 0 {
		a.tminSec, a.tminNs = sec, nanos
	} else if cmpTime(sec, nanos, a.tmaxSec, a.tmaxNs) > 0 {
		a.tmaxSec, a.tmaxNs = sec, nanos
	}
	a.count++
}

// AddChildren records a list or map value with n children.
func (a *Accumulator) AddChildren(n uint64) {
	a.grow()
	widen(&a.cmin, &a.cmax, n, a.count == 0)
	a.count++
	a.ctotal += n
}

// The vector-wise methods take a run of rows. nulls is either empty (no row
// is null) or parallel to the values, true marking a null at this level.

// AddLongs records integer, date (days) or boolean (0 false, else true)
// values, by the accumulator's kind.
func (a *Accumulator) AddLongs(values []int64, nulls []bool) {
	if len(nulls) != 0 {
		nulls = nulls[:len(values)]
	}
	switch a.kind {
	case orc.Boolean:
		for i, v := range values {
			if len(nulls) != 0 && nulls[i] {
				a.hasNull = true
				continue
			}
			a.count++
			if v != 0 {
				a.isum++
			}
		}
	case orc.Date:
		for i, v := range values {
			if len(nulls) != 0 && nulls[i] {
				a.hasNull = true
				continue
			}
			a.addMinMax(v)
		}
	default:
		if len(nulls) == 0 && len(values) > 0 {
			a.addIntsNoNulls(values)
			return
		}
		for i, v := range values {
			if nulls[i] {
				a.hasNull = true
				continue
			}
			a.AddInt(v)
		}
	}
}

// addIntsNoNulls is the tight loop for a run without nulls.
func (a *Accumulator) addIntsNoNulls(values []int64) {
	mn, mx, sum := a.imin, a.imax, a.isum
	if a.count == 0 {
		mn, mx = values[0], values[0]
	}
	// An addition overflowed iff the result's sign differs from both
	// operands' signs; or-ing those sign bits keeps the loop branch-free.
	var of int64
	for _, v := range values {
		mn = min(mn, v)
		mx = max(mx, v)
		s := sum + v
		of |= (s ^ sum) & (s ^ v)
		sum = s
	}
	a.imin, a.imax, a.isum = mn, mx, sum
	a.isumOverflow = a.isumOverflow || of < 0
	a.count += uint64(len(values))
}

// AddDoubles records float or double values.
func (a *Accumulator) AddDoubles(values []float64, nulls []bool) {
	if len(nulls) == 0 {
		a.addDoublesNoNulls(values)
		return
	}
	nulls = nulls[:len(values)]
	for i, v := range values {
		if len(nulls) != 0 && nulls[i] {
			a.hasNull = true
			continue
		}
		a.AddDouble(v)
	}
}

// addDoublesNoNulls is AddDouble for each of values, with the state in
// locals: the same comparisons in the same order, and the same sum.
func (a *Accumulator) addDoublesNoNulls(values []float64) {
	a.grow()
	mn, mx, seen, nan, sum := a.dmin, a.dmax, a.dseen, a.dnan, a.dsum
	for _, v := range values {
		sum += v
		switch {
		case v != v:
			nan = true
		case !seen:
			mn, mx, seen = v, v, true
		case v < mn:
			mn = v
		case v > mx:
			mx = v
		}
	}
	a.dmin, a.dmax, a.dseen, a.dnan, a.dsum = mn, mx, seen, nan, sum
	a.count += uint64(len(values))
}

// AddByteRows records the byte values data[offsets[i]:offsets[i+1]] for
// each row i, as orc.BytesVector stores them (len(offsets) = rows + 1).
func (a *Accumulator) AddByteRows(data []byte, offsets []int, nulls []bool) {
	rows := len(offsets) - 1
	if rows <= 0 {
		return
	}
	if len(nulls) == 0 && !a.kind.IsGeospatial() && a.kind != orc.Binary {
		a.addByteRowsNoNulls(data, offsets)
		return
	}
	if len(nulls) != 0 {
		nulls = nulls[:rows]
	}
	for i := 0; i < rows; i++ {
		if len(nulls) != 0 && nulls[i] {
			a.hasNull = true
			continue
		}
		a.AddBytes(data[offsets[i]:offsets[i+1]])
	}
}

// addByteRowsNoNulls is AddByteRows without nulls. It finds the least and
// greatest of the values by their first 8 bytes as words (prefixWord),
// comparing whole values only where those tie, and sets the bounds from
// them once: most values fall strictly between the two words and cost a
// load and two comparisons. The loop keeps indexes, not slices, so that
// its state stays in registers.
func (a *Accumulator) addByteRowsNoNulls(data []byte, offsets []int) {
	a.grow()
	rows := len(offsets) - 1
	lo, hi := 0, 0
	// The values are capped at the data's length, so that prefixWord
	// reads past a short one only bytes of the run's array, never
	// capacity the caller may be filling meanwhile.
	n := len(data)
	loW := prefixWord(data[offsets[0]:offsets[1]:n])
	hiW := loW
	for i := 1; i < rows; i++ {
		w := prefixWord(data[offsets[i]:offsets[i+1]:n])
		if w > loW && w < hiW {
			continue
		}
		lo, hi, loW, hiW = runBounds(data, offsets, i, w, lo, hi, loW, hiW)
	}
	minV := data[offsets[lo]:offsets[lo+1]]
	maxV := data[offsets[hi]:offsets[hi+1]]
	if a.count == 0 {
		a.setMin(minV)
		a.setMax(maxV)
	} else {
		if a.belowMin(minV) {
			a.setMin(minV)
		}
		if a.aboveMax(maxV) {
			a.setMax(maxV)
		}
	}
	a.count += uint64(rows)
	a.isum += int64(offsets[rows] - offsets[0])
}

// runBounds updates the indexes and words of addByteRowsNoNulls's least
// and greatest values with value i, of word w, which is not strictly
// between them.
//
//go:noinline
func runBounds(data []byte, offsets []int, i int, w uint64, lo, hi int, loW, hiW uint64) (int, int, uint64, uint64) {
	v := data[offsets[i]:offsets[i+1]]
	if w < loW || w == loW && bytes.Compare(v, data[offsets[lo]:offsets[lo+1]]) < 0 {
		lo, loW = i, w
	}
	if w > hiW || w == hiW && bytes.Compare(v, data[offsets[hi]:offsets[hi+1]]) > 0 {
		hi, hiW = i, w
	}
	return lo, hi, loW, hiW
}

// prefixWord returns v's first 8 bytes as a big-endian word, zero bytes
// standing for those past a shorter value's end. Words order as the values
// do where they differ (a value ordering before its extensions); equal
// words leave the order to the bytes past them and the lengths.
func prefixWord(v []byte) uint64 {
	n := len(v)
	if n >= 8 {
		return binary.BigEndian.Uint64(v)
	}
	if cap(v) >= 8 {
		// The bytes past v's end (the next value's, in a vector's
		// array) are masked off.
		return binary.BigEndian.Uint64(v[:8]) & ^(^uint64(0) >> (8 * uint(n)))
	}
	var w uint64
	for i, c := range v {
		w |= uint64(c) << (56 - 8*i)
	}
	return w
}

// AddDecimals records decimal values unscaled at the column's scale.
func (a *Accumulator) AddDecimals(values []orc.Int128, nulls []bool) {
	if len(nulls) != 0 {
		nulls = nulls[:len(values)]
	}
	for i, v := range values {
		if len(nulls) != 0 && nulls[i] {
			a.hasNull = true
			continue
		}
		a.AddDecimal(v)
	}
}

// AddTimestamps records timestamps given as parallel seconds and nanos.
func (a *Accumulator) AddTimestamps(secs []int64, nanos []int32, nulls []bool) {
	nanos = nanos[:len(secs)]
	if len(nulls) == 0 && len(secs) > 0 {
		a.addTimestampsNoNulls(secs, nanos)
		return
	}
	if len(nulls) != 0 {
		nulls = nulls[:len(secs)]
	}
	for i, s := range secs {
		if len(nulls) != 0 && nulls[i] {
			a.hasNull = true
			continue
		}
		a.AddTimestamp(s, nanos[i])
	}
}

// addTimestampsNoNulls is AddTimestamps without nulls: the run's least and
// greatest instants in locals, set against the bounds once.
func (a *Accumulator) addTimestampsNoNulls(secs []int64, nanos []int32) {
	a.grow()
	for _, ns := range nanos {
		if ns < 0 || ns > 999_999_999 {
			// Not normalized: AddTimestamp carries them one at a time.
			for i, s := range secs {
				a.AddTimestamp(s, nanos[i])
			}
			return
		}
	}
	loS, loN, hiS, hiN := secs[0], nanos[0], secs[0], nanos[0]
	for i, s := range secs[1:] {
		n := nanos[i+1]
		if s < loS || s == loS && n < loN {
			loS, loN = s, n
		}
		if s > hiS || s == hiS && n > hiN {
			hiS, hiN = s, n
		}
	}
	if a.count == 0 {
		a.tminSec, a.tminNs, a.tmaxSec, a.tmaxNs = loS, loN, hiS, hiN
	} else {
		if cmpTime(loS, loN, a.tminSec, a.tminNs) < 0 {
			a.tminSec, a.tminNs = loS, loN
		}
		if cmpTime(hiS, hiN, a.tmaxSec, a.tmaxNs) > 0 {
			a.tmaxSec, a.tmaxNs = hiS, hiN
		}
	}
	a.count += uint64(len(secs))
}

// Merge folds the values of o, an accumulator of the same column, into a.
// Merging accumulators of different kinds is a caller error that makes
// a's typed statistics unknown.
func (a *Accumulator) Merge(o *Accumulator) {
	if o == nil {
		return
	}
	if o.kind != a.kind || o.view().scale != a.view().scale || o.mismatch {
		a.mismatch = true
	}
	a.hasNull = a.hasNull || o.hasNull
	a.bytesOnDisk += o.bytesOnDisk
	if o.count == 0 {
		return
	}
	if a.count == 0 {
		m, g := a.more, a.g
		hasNull, mismatch, bod := a.hasNull, a.mismatch, a.bytesOnDisk
		kind, scale, keepLong := a.kind, a.view().scale, a.keepLong
		*a = *o
		a.more = m // never o's: each accumulator owns its own
		a.copyMore(o)
		a.keepLong = keepLong
		a.g = g
		a.copyGeo(o)
		a.hasNull, a.mismatch, a.bytesOnDisk = hasNull, mismatch, bod
		a.kind = kind
		if a.more != nil {
			a.more.scale = scale
		}
		return
	}
	a.count += o.count
	// integers and dates
	a.imin, a.imax = min(a.imin, o.imin), max(a.imax, o.imax)
	s := a.isum + o.isum
	if a.isumOverflow || o.isumOverflow || ((a.isum >= 0) == (o.isum >= 0) && (s >= 0) != (a.isum >= 0)) {
		a.isumOverflow = true
	}
	a.isum = s
	if o.more != nil {
		a.grow()
		a.mergeMore(o)
	}
	if a.kind.IsGeospatial() {
		a.mergeGeo(o)
	}
}

// copyMore makes a's more state a copy of o's, in a's own buffers.
func (a *Accumulator) copyMore(o *Accumulator) {
	if o.more == nil {
		if m := a.more; m != nil {
			*m = more{smin: m.smin[:0], smax: m.smax[:0]}
		}
		return
	}
	a.grow()
	m := a.more
	smin, smax := m.smin, m.smax
	*m = *o.more
	m.smin = append(smin[:0], o.smin...)
	m.smax = append(smax[:0], o.smax...)
}

// mergeMore is Merge for the more state of a and o (both have values).
func (a *Accumulator) mergeMore(o *Accumulator) {
	// doubles
	switch {
	case o.dseen && !a.dseen:
		a.dmin, a.dmax, a.dseen = o.dmin, o.dmax, true
	case o.dseen:
		a.dmin, a.dmax = min(a.dmin, o.dmin), max(a.dmax, o.dmax)
	}
	a.dnan = a.dnan || o.dnan
	a.dsum += o.dsum
	// bytes
	a.mergeBytes(o)
	// decimals
	if o.decMin.Cmp(a.decMin) < 0 {
		a.decMin = o.decMin
	}
	if o.decMax.Cmp(a.decMax) > 0 {
		a.decMax = o.decMax
	}
	if a.decSumOverflow || o.decSumOverflow {
		a.decSumOverflow = true
	} else if ds, of := a.decSum.Add(o.decSum); of || !fitsDecimal(ds) {
		a.decSumOverflow = true
	} else {
		a.decSum = ds
	}
	// timestamps
	if cmpTime(o.tminSec, o.tminNs, a.tminSec, a.tminNs) < 0 {
		a.tminSec, a.tminNs = o.tminSec, o.tminNs
	}
	if cmpTime(o.tmaxSec, o.tmaxNs, a.tmaxSec, a.tmaxNs) > 0 {
		a.tmaxSec, a.tmaxNs = o.tmaxSec, o.tmaxNs
	}
	// collections
	a.cmin, a.cmax = min(a.cmin, o.cmin), max(a.cmax, o.cmax)
	a.ctotal += o.ctotal
}

// Column returns the statistics gathered so far.
func (a *Accumulator) Column() Column {
	c := Column{
		Kind:         a.kind,
		NumValues:    a.count,
		HasNull:      a.hasNull,
		HasNullKnown: true,
		BytesOnDisk:  a.bytesOnDisk,
	}
	if a.mismatch {
		return c
	}
	some := a.count > 0
	m := a.view()
	switch a.kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		c.Int = &IntStats{HasMinMax: some, HasSum: !a.isumOverflow}
		if some {
			c.Int.Min, c.Int.Max = a.imin, a.imax
		}
		if c.Int.HasSum {
			c.Int.Sum = a.isum
		}
	case orc.Float, orc.Double:
		s := &DoubleStats{Sum: m.dsum, HasSum: true}
		if m.dseen && !m.dnan && !math.IsNaN(m.dsum) {
			s.Min, s.Max, s.HasMinMax = m.dmin, m.dmax, true
		}
		if m.dnan {
			s.Sum = math.NaN()
		}
		c.Double = s
	case orc.String, orc.Char, orc.Varchar:
		s := &StringStats{Sum: a.isum, HasSum: true}
		if some {
			s.Min, s.Max, s.HasMin, s.HasMax = string(m.smin), string(m.smax), true, true
			s.MinIsLowerBound, s.MaxIsUpperBound = m.sminBound, m.smaxBound
		}
		c.String = s
	case orc.Binary:
		c.Binary = &BinaryStats{Sum: a.isum, HasSum: true}
	case orc.Boolean:
		c.Bool = &BoolStats{TrueCount: uint64(a.isum)}
	case orc.Decimal:
		s := &DecimalStats{HasMinMax: some, HasSum: !m.decSumOverflow}
		if some {
			s.Min = DecimalValue{Unscaled: m.decMin, Scale: m.scale}
			s.Max = DecimalValue{Unscaled: m.decMax, Scale: m.scale}
		}
		s.Sum = DecimalValue{Scale: m.scale}
		if s.HasSum {
			s.Sum.Unscaled = m.decSum
		}
		c.Decimal = s
	case orc.Date:
		s := &DateStats{}
		if some && a.imin >= math.MinInt32 && a.imax <= math.MaxInt32 {
			s.Min, s.Max, s.HasMinMax = int32(a.imin), int32(a.imax), true
		}
		c.Date = s
	case orc.Timestamp, orc.TimestampInstant:
		s := &TimestampStats{}
		_, _, ok1 := toMillis(m.tminSec, m.tminNs)
		_, _, ok2 := toMillis(m.tmaxSec, m.tmaxNs)
		if some && ok1 && ok2 {
			s.MinSec, s.MinNanos, s.MaxSec, s.MaxNanos, s.HasMinMax = m.tminSec, m.tminNs, m.tmaxSec, m.tmaxNs, true
		}
		c.Timestamp = s
	case orc.Geometry, orc.Geography:
		c.Geo = a.geoColumn()
	case orc.List, orc.Map:
		s := &CollectionStats{TotalChildren: m.ctotal}
		if some {
			s.MinChildren, s.MaxChildren, s.HasMinMax = m.cmin, m.cmax, true
		}
		c.Collection = s
	}
	return c
}

// Proto returns the statistics as stored in the file (see Column.Proto).
func (a *Accumulator) Proto() *orcpb.ColumnStatistics {
	c := a.Column()
	return c.Proto()
}
