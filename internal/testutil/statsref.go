package testutil

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// A reference implementation of ORC column statistics, written from the
// specification and checklist rather than from package stats, so that
// comparing the two finds mistakes in either:
//
//   - count of non-null values and has_null at the column's level;
//   - integers: min, max, and a sum that is unknown once a running sum
//     leaves int64 (Java's addExact);
//   - doubles: min, max unknown when a NaN was seen or the sum is NaN;
//   - strings: min and max in byte order; past 1,024 bytes a lower bound
//     (whole-character prefix) and an upper bound (that prefix with its last
//     character incremented); sum of lengths; char values padded;
//   - decimals: min, max, sum unknown once a running sum needs more than
//     38 digits; dates: min, max; timestamps: min, max with nanoseconds;
//   - booleans: trues; binary: sum of lengths; lists and maps: min, max and
//     total children; structs and unions: counts only.
//
// Summing in a different order changes a float sum and can change whether
// an integer sum overflows; RefMerge folds the sums of parts the way a
// writer that merges row groups does.

// RefStats computes the statistics of items (values at column t's level,
// nil for nulls) from scratch.
func RefStats(t *orc.Schema, items []any) stats.Column {
	c := stats.Column{Kind: t.Kind, HasNullKnown: true}
	var vals []any
	for _, v := range items {
		if v == nil {
			c.HasNull = true
			continue
		}
		vals = append(vals, v)
	}
	c.NumValues = uint64(len(vals))
	some := len(vals) > 0
	switch t.Kind {
	case orc.Boolean:
		var trues uint64
		for _, v := range vals {
			if v.(bool) {
				trues++
			}
		}
		c.Bool = &stats.BoolStats{TrueCount: trues}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		s := &stats.IntStats{HasSum: true}
		for i, v := range vals {
			x := v.(int64)
			if i == 0 || x < s.Min {
				s.Min = x
			}
			if i == 0 || x > s.Max {
				s.Max = x
			}
			if s.HasSum {
				sum := new(big.Int).Add(big.NewInt(s.Sum), big.NewInt(x))
				if sum.IsInt64() {
					s.Sum = sum.Int64()
				} else {
					s.HasSum, s.Sum = false, 0
				}
			}
		}
		s.HasMinMax = some
		c.Int = s
	case orc.Date:
		s := &stats.DateStats{HasMinMax: some}
		for i, v := range vals {
			x := int32(v.(int64))
			if i == 0 || x < s.Min {
				s.Min = x
			}
			if i == 0 || x > s.Max {
				s.Max = x
			}
		}
		c.Date = s
	case orc.Float, orc.Double:
		s := &stats.DoubleStats{HasSum: true}
		for _, v := range vals {
			s.Sum += v.(float64)
		}
		setDoubleBounds(s, vals)
		c.Double = s
	case orc.String, orc.Varchar, orc.Char:
		s := &stats.StringStats{HasSum: true}
		for i, v := range vals {
			x := v.(string)
			s.Sum += int64(len(x))
			if i == 0 || x < s.Min {
				s.Min = x
			}
			if i == 0 || x > s.Max {
				s.Max = x
			}
		}
		s.HasMin, s.HasMax = some, some
		c.String = s
	case orc.Binary:
		s := &stats.BinaryStats{HasSum: true}
		for _, v := range vals {
			s.Sum += int64(len(v.(string)))
		}
		c.Binary = s
	case orc.Decimal:
		s := &stats.DecimalStats{HasSum: true, HasMinMax: some}
		sum := new(big.Int)
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
		var mn, mx *big.Int
		for _, v := range vals {
			d := v.(Dec)
			if d.Scale != t.Scale {
				panic("testutil: decimal item not at the column's scale")
			}
			x := d.Unscaled.Big()
			if mn == nil || x.Cmp(mn) < 0 {
				mn = x
			}
			if mx == nil || x.Cmp(mx) > 0 {
				mx = x
			}
			if s.HasSum {
				sum.Add(sum, x)
				if new(big.Int).Abs(sum).Cmp(limit) >= 0 {
					s.HasSum = false
				}
			}
		}
		if some {
			s.Min = decOf(mn, t.Scale)
			s.Max = decOf(mx, t.Scale)
		}
		s.Sum = stats.DecimalValue{Scale: t.Scale}
		if s.HasSum {
			s.Sum = decOf(sum, t.Scale)
		}
		c.Decimal = s
	case orc.Timestamp, orc.TimestampInstant:
		s := &stats.TimestampStats{HasMinMax: some}
		for i, v := range vals {
			x := v.(TS)
			if i == 0 || x.Sec < s.MinSec || x.Sec == s.MinSec && x.Nanos < s.MinNanos {
				s.MinSec, s.MinNanos = x.Sec, x.Nanos
			}
			if i == 0 || x.Sec > s.MaxSec || x.Sec == s.MaxSec && x.Nanos > s.MaxNanos {
				s.MaxSec, s.MaxNanos = x.Sec, x.Nanos
			}
		}
		c.Timestamp = s
	case orc.List, orc.Map:
		s := &stats.CollectionStats{HasMinMax: some}
		for i, v := range vals {
			var n uint64
			if t.Kind == orc.List {
				n = uint64(len(v.([]any)))
			} else {
				n = uint64(len(v.([]KV)))
			}
			if i == 0 || n < s.MinChildren {
				s.MinChildren = n
			}
			if i == 0 || n > s.MaxChildren {
				s.MaxChildren = n
			}
			s.TotalChildren += n
		}
		c.Collection = s
	}
	return c
}

// setDoubleBounds sets min and max from the non-NaN values, known only
// when the sum is not NaN (no NaN value, no +Inf meeting -Inf).
func setDoubleBounds(s *stats.DoubleStats, vals []any) {
	seen := false
	for _, v := range vals {
		x := v.(float64)
		switch {
		case math.IsNaN(x):
			s.Sum = math.NaN()
		case !seen:
			s.Min, s.Max, seen = x, x, true
		case x < s.Min:
			s.Min = x
		case x > s.Max:
			s.Max = x
		}
	}
	s.HasMinMax = seen && !math.IsNaN(s.Sum)
	if !s.HasMinMax {
		s.Min, s.Max = 0, 0
	}
}

func decOf(x *big.Int, scale int) stats.DecimalValue {
	v, ok := orc.Int128FromBig(x)
	if !ok {
		panic("testutil: decimal beyond 128 bits")
	}
	return stats.DecimalValue{Unscaled: v, Scale: scale}
}

// RefMerge merges the reference statistics of consecutive parts of a
// column (row groups into a stripe, stripes into a file): counts add, sums
// stay known only if every part's sum is known and the running total of
// the parts' sums stays in range, and float sums add part by part.
func RefMerge(t *orc.Schema, parts []stats.Column, all []any) stats.Column {
	c := RefStats(t, all)
	switch {
	case c.Int != nil:
		var sum int64
		ok := true
		for _, p := range parts {
			if p.NumValues == 0 {
				continue
			}
			if !p.Int.HasSum {
				ok = false
				break
			}
			s := sum + p.Int.Sum
			if (sum >= 0) == (p.Int.Sum >= 0) && (s >= 0) != (sum >= 0) {
				ok = false
				break
			}
			sum = s
		}
		c.Int.Sum, c.Int.HasSum = 0, ok
		if ok {
			c.Int.Sum = sum
		}
	case c.Double != nil:
		var vals []any
		for _, v := range all {
			if v != nil {
				vals = append(vals, v)
			}
		}
		c.Double.Sum = 0
		for _, p := range parts {
			c.Double.Sum += p.Double.Sum
		}
		setDoubleBounds(c.Double, vals)
	case c.Decimal != nil:
		sum := new(big.Int)
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
		ok := true
		for _, p := range parts {
			if p.NumValues == 0 {
				continue
			}
			if !p.Decimal.HasSum {
				ok = false
				break
			}
			sum.Add(sum, p.Decimal.Sum.Unscaled.Big())
			if new(big.Int).Abs(sum).Cmp(limit) >= 0 {
				ok = false
				break
			}
		}
		c.Decimal.HasSum = ok
		c.Decimal.Sum = stats.DecimalValue{Scale: t.Scale}
		if ok {
			c.Decimal.Sum = decOf(sum, t.Scale)
		}
	}
	return c
}

// StoredString applies the 1,024-byte rule to reference string statistics:
// a longer minimum becomes a lower bound, a longer maximum an upper bound.
func StoredString(s *stats.StringStats) {
	if s == nil {
		return
	}
	if s.HasMin && len(s.Min) > maxStatBytes {
		s.Min, s.MinIsLowerBound = wholePrefix(s.Min), true
	}
	if s.HasMax && len(s.Max) > maxStatBytes {
		if ub, ok := incrementLast(wholePrefix(s.Max)); ok {
			s.Max, s.MaxIsUpperBound = ub, true
		}
	}
}

const maxStatBytes = 1024

// wholePrefix returns the longest prefix of s of at most 1,024 bytes that
// ends on a character boundary.
func wholePrefix(s string) string {
	end := 0
	for i := range s {
		if i > maxStatBytes {
			break
		}
		end = i
	}
	if len(s) <= maxStatBytes {
		end = len(s)
	}
	return s[:end]
}

// incrementLast replaces the last character of p with the next code point
// (skipping surrogates), dropping characters that cannot be incremented.
func incrementLast(p string) (string, bool) {
	rs := []rune(p)
	for len(rs) > 0 {
		last := rs[len(rs)-1]
		rs = rs[:len(rs)-1]
		if last < utf8.MaxRune {
			next := last + 1
			if next >= 0xD800 && next < 0xE000 {
				next = 0xE000
			}
			return string(rs) + string(next), true
		}
	}
	return "", false
}

// StatsDiff returns "" when want and got agree, otherwise what differs.
// With exactSum false, float sums may differ by a relative 1e-9 (order of
// addition). Double min and max compare with == (so -0.0 equals +0.0).
func StatsDiff(want, got stats.Column, exactSum bool) string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	if want.NumValues != got.NumValues {
		add("count %d, got %d", want.NumValues, got.NumValues)
	}
	if want.HasNull != got.HasNull || !got.HasNullKnown {
		add("has_null %v, got %v (known %v)", want.HasNull, got.HasNull, got.HasNullKnown)
	}
	if want.BytesOnDisk != 0 && want.BytesOnDisk != got.BytesOnDisk {
		add("bytes_on_disk %d, got %d", want.BytesOnDisk, got.BytesOnDisk)
	}
	typed := func(name string, w, g any, eq bool) {
		if !eq {
			add("%s %+v, got %+v", name, w, g)
		}
	}
	switch want.Kind {
	case orc.Boolean:
		typed("bool", want.Bool, got.Bool, got.Bool != nil && *want.Bool == *got.Bool)
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		typed("int", want.Int, got.Int, got.Int != nil && *want.Int == *got.Int)
	case orc.Date:
		typed("date", want.Date, got.Date, got.Date != nil && *want.Date == *got.Date)
	case orc.Float, orc.Double:
		w, g := want.Double, got.Double
		eq := g != nil && w.HasMinMax == g.HasMinMax && w.HasSum == g.HasSum &&
			(!w.HasMinMax || w.Min == g.Min && w.Max == g.Max) && sumEq(w.Sum, g.Sum, exactSum)
		typed("double", w, g, eq)
	case orc.String, orc.Varchar, orc.Char:
		typed("string", want.String, got.String, got.String != nil && *want.String == *got.String)
	case orc.Binary:
		typed("binary", want.Binary, got.Binary, got.Binary != nil && *want.Binary == *got.Binary)
	case orc.Decimal:
		w, g := want.Decimal, got.Decimal
		eq := g != nil && w.HasMinMax == g.HasMinMax && w.HasSum == g.HasSum &&
			(!w.HasMinMax || decEq(w.Min, g.Min) && decEq(w.Max, g.Max)) && (!w.HasSum || decEq(w.Sum, g.Sum))
		typed("decimal", w, g, eq)
	case orc.Timestamp, orc.TimestampInstant:
		typed("timestamp", want.Timestamp, got.Timestamp, got.Timestamp != nil && *want.Timestamp == *got.Timestamp)
	case orc.List, orc.Map:
		typed("collection", want.Collection, got.Collection, got.Collection != nil && *want.Collection == *got.Collection)
	}
	return strings.Join(d, "; ")
}

func sumEq(a, b float64, exact bool) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	if exact || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// decEq compares decimals by value, whatever their scales.
func decEq(a, b stats.DecimalValue) bool {
	x := new(big.Int).Mul(a.Unscaled.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(b.Scale)), nil))
	y := new(big.Int).Mul(b.Unscaled.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.Scale)), nil))
	return x.Cmp(y) == 0
}
