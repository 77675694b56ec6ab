package stats

import (
	"cmp"
	"math"

	"github.com/orcgo/orc"
)

// Merge folds the statistics o of the same column into c, so that c describes
// the union of both value sets: row groups merge into a stripe, stripes into
// the file. Counts add; HasNull is true if either has a null; HasNullKnown
// only if both know. A typed part stays known only when both sides know it,
// except that a side with no values contributes nothing (its unknowns do not
// matter). Sums that overflow become unknown. Merge allocates new typed
// parts, so statistics that shared them before are not changed.
//
// Merging statistics of different kinds is a caller error: the counts are
// merged and every typed part of c becomes nil.
func (c *Column) Merge(o *Column) {
	if o == nil {
		return
	}
	ca, cb := c.NumValues, o.NumValues
	c.NumValues += o.NumValues
	c.HasNull = c.HasNull || o.HasNull
	c.HasNullKnown = c.HasNullKnown && o.HasNullKnown
	c.BytesOnDisk += o.BytesOnDisk
	if c.Kind != o.Kind {
		c.Int, c.Double, c.String, c.Bool, c.Decimal = nil, nil, nil, nil, nil
		c.Date, c.Timestamp, c.Binary, c.Collection, c.Geo = nil, nil, nil, nil, nil
		return
	}
	switch c.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		c.Int = mergeTyped(c.Int, ca, o.Int, cb, mergeInt)
	case orc.Float, orc.Double:
		c.Double = mergeTyped(c.Double, ca, o.Double, cb, mergeDouble)
	case orc.String, orc.Char, orc.Varchar:
		c.String = mergeTyped(c.String, ca, o.String, cb, mergeString)
	case orc.Boolean:
		c.Bool = mergeTyped(c.Bool, ca, o.Bool, cb, func(a *BoolStats, _ uint64, b *BoolStats, _ uint64) BoolStats {
			return BoolStats{TrueCount: a.TrueCount + b.TrueCount}
		})
	case orc.Decimal:
		c.Decimal = mergeTyped(c.Decimal, ca, o.Decimal, cb, mergeDecimal)
	case orc.Date:
		c.Date = mergeTyped(c.Date, ca, o.Date, cb, mergeDate)
	case orc.Timestamp, orc.TimestampInstant:
		c.Timestamp = mergeTyped(c.Timestamp, ca, o.Timestamp, cb, mergeTimestamp)
	case orc.Binary:
		c.Binary = mergeTyped(c.Binary, ca, o.Binary, cb, func(a *BinaryStats, ca uint64, b *BinaryStats, cb uint64) BinaryStats {
			sum, ok := mergeSum(a.Sum, a.HasSum, ca, b.Sum, b.HasSum, cb)
			return BinaryStats{Sum: sum, HasSum: ok}
		})
	case orc.List, orc.Map:
		c.Collection = mergeTyped(c.Collection, ca, o.Collection, cb, mergeCollection)
	case orc.Geometry, orc.Geography:
		c.Geo = mergeTyped(c.Geo, ca, o.Geo, cb, mergeGeo)
	}
}

// mergeTyped handles the nil cases, then calls f on copies. A nil part with
// no values is neutral; otherwise nil wins.
func mergeTyped[T any](a *T, ca uint64, b *T, cb uint64, f func(a *T, ca uint64, b *T, cb uint64) T) *T {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		if ca != 0 {
			return nil
		}
		r := *b
		return &r
	case b == nil:
		if cb != 0 {
			return nil
		}
		r := *a
		return &r
	}
	r := f(a, ca, b, cb)
	return &r
}

// pick reports which sides contribute a known value: a side without a known
// value contributes nothing if it has no values and makes the result unknown
// otherwise.
func pick(aKnown bool, ca uint64, bKnown bool, cb uint64) (useA, useB, known bool) {
	useA, useB = aKnown, bKnown
	if (!aKnown && ca != 0) || (!bKnown && cb != 0) {
		return false, false, false
	}
	return useA, useB, useA || useB
}

// mergeSum adds two int64 sums; the result is unknown when a side with
// values has no sum or the addition overflows.
func mergeSum(a int64, aOK bool, ca uint64, b int64, bOK bool, cb uint64) (int64, bool) {
	return mergeKnown(a, aOK, ca, b, bOK, cb, func(a, b int64) (int64, bool) {
		s := a + b
		if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
			return 0, false
		}
		return s, true
	})
}

// mergeKnown merges the values a and b, known or not, of sides with ca and
// cb values (pick), combining two known values with add, whose false makes
// the result unknown.
func mergeKnown[T any](a T, aOK bool, ca uint64, b T, bOK bool, cb uint64, add func(a, b T) (T, bool)) (T, bool) {
	switch useA, useB, ok := pick(aOK, ca, bOK, cb); {
	case useA && useB:
		return add(a, b)
	case useA:
		return a, ok
	case useB:
		return b, ok
	}
	var zero T
	return zero, false
}

// mergeRange merges the ranges [aMin, aMax] and [bMin, bMax], known or
// not, of sides with ca and cb values (pick).
func mergeRange[T cmp.Ordered](aMin, aMax T, aOK bool, ca uint64, bMin, bMax T, bOK bool, cb uint64) (lo, hi T, ok bool) {
	return mergeRangeFunc(aMin, aMax, aOK, ca, bMin, bMax, bOK, cb, func(a, b T) T { return min(a, b) }, func(a, b T) T { return max(a, b) })
}

// mergeRangeFunc is mergeRange for values that lower and upper, which
// return the lower and the upper of two values, order.
func mergeRangeFunc[T any](aMin, aMax T, aOK bool, ca uint64, bMin, bMax T, bOK bool, cb uint64, lower, upper func(a, b T) T) (lo, hi T, ok bool) {
	switch useA, useB, ok := pick(aOK, ca, bOK, cb); {
	case useA && useB:
		return lower(aMin, bMin), upper(aMax, bMax), true
	case useA:
		return aMin, aMax, ok
	case useB:
		return bMin, bMax, ok
	}
	return lo, hi, false
}

func mergeInt(a *IntStats, ca uint64, b *IntStats, cb uint64) IntStats {
	var r IntStats
	r.Min, r.Max, r.HasMinMax = mergeRange(a.Min, a.Max, a.HasMinMax, ca, b.Min, b.Max, b.HasMinMax, cb)
	r.Sum, r.HasSum = mergeSum(a.Sum, a.HasSum, ca, b.Sum, b.HasSum, cb)
	return r
}

func mergeDouble(a *DoubleStats, ca uint64, b *DoubleStats, cb uint64) DoubleStats {
	var r DoubleStats
	// Not mergeRange: math.Max(NaN, +Inf) is +Inf, max(NaN, +Inf) NaN.
	r.Min, r.Max, r.HasMinMax = mergeRangeFunc(a.Min, a.Max, a.HasMinMax, ca, b.Min, b.Max, b.HasMinMax, cb, math.Min, math.Max)
	r.Sum, r.HasSum = mergeKnown(a.Sum, a.HasSum, ca, b.Sum, b.HasSum, cb, func(a, b float64) (float64, bool) { return a + b, true })
	if r.HasSum && math.IsNaN(r.Sum) {
		r.Min, r.Max, r.HasMinMax = 0, 0, false
	}
	return r
}

func mergeString(a *StringStats, ca uint64, b *StringStats, cb uint64) StringStats {
	var r StringStats
	// On a tie the exact value wins: a strict lower bound equal to an exact
	// minimum is below every value of its own side, and likewise above.
	lo, hasMin := mergeKnown(stringBound{a.Min, a.MinIsLowerBound}, a.HasMin, ca, stringBound{b.Min, b.MinIsLowerBound}, b.HasMin, cb,
		func(x, y stringBound) (stringBound, bool) {
			if y.s < x.s || (y.s == x.s && !y.bound) {
				return y, true
			}
			return x, true
		})
	hi, hasMax := mergeKnown(stringBound{a.Max, a.MaxIsUpperBound}, a.HasMax, ca, stringBound{b.Max, b.MaxIsUpperBound}, b.HasMax, cb,
		func(x, y stringBound) (stringBound, bool) {
			if y.s > x.s || (y.s == x.s && !y.bound) {
				return y, true
			}
			return x, true
		})
	// An unknown side comes back as the zero stringBound: "", not a bound.
	r.Min, r.MinIsLowerBound, r.HasMin = lo.s, lo.bound, hasMin
	r.Max, r.MaxIsUpperBound, r.HasMax = hi.s, hi.bound, hasMax
	r.Sum, r.HasSum = mergeSum(a.Sum, a.HasSum, ca, b.Sum, b.HasSum, cb)
	return r
}

// stringBound is a string minimum or maximum, with whether it is only a
// bound (a truncated value) rather than a value of the column.
type stringBound struct {
	s     string
	bound bool
}

func mergeDecimal(a *DecimalStats, ca uint64, b *DecimalStats, cb uint64) DecimalStats {
	var r DecimalStats
	r.Min, r.Max, r.HasMinMax = mergeRangeFunc(a.Min, a.Max, a.HasMinMax, ca, b.Min, b.Max, b.HasMinMax, cb,
		func(x, y DecimalValue) DecimalValue {
			if cmpDecimal(y, x) < 0 {
				return y
			}
			return x
		},
		func(x, y DecimalValue) DecimalValue {
			if cmpDecimal(y, x) > 0 {
				return y
			}
			return x
		})
	r.Sum, r.HasSum = mergeKnown(a.Sum, a.HasSum, ca, b.Sum, b.HasSum, cb, addDecimal)
	return r
}

func mergeDate(a *DateStats, ca uint64, b *DateStats, cb uint64) DateStats {
	var r DateStats
	r.Min, r.Max, r.HasMinMax = mergeRange(a.Min, a.Max, a.HasMinMax, ca, b.Min, b.Max, b.HasMinMax, cb)
	return r
}

func mergeTimestamp(a *TimestampStats, ca uint64, b *TimestampStats, cb uint64) TimestampStats {
	var r TimestampStats
	switch useA, useB, ok := pick(a.HasMinMax, ca, b.HasMinMax, cb); {
	case useA && useB:
		r = *a
		if cmpTime(b.MinSec, b.MinNanos, a.MinSec, a.MinNanos) < 0 {
			r.MinSec, r.MinNanos = b.MinSec, b.MinNanos
		}
		if cmpTime(b.MaxSec, b.MaxNanos, a.MaxSec, a.MaxNanos) > 0 {
			r.MaxSec, r.MaxNanos = b.MaxSec, b.MaxNanos
		}
	case useA:
		r = *a
		r.HasMinMax = ok
	case useB:
		r = *b
		r.HasMinMax = ok
	}
	return r
}

func mergeCollection(a *CollectionStats, ca uint64, b *CollectionStats, cb uint64) CollectionStats {
	r := CollectionStats{TotalChildren: a.TotalChildren + b.TotalChildren}
	r.MinChildren, r.MaxChildren, r.HasMinMax = mergeRange(a.MinChildren, a.MaxChildren, a.HasMinMax, ca, b.MinChildren, b.MaxChildren, b.HasMinMax, cb)
	return r
}
