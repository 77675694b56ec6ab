package stats

// Encoding a Column as the orcpb.ColumnStatistics our writer stores (field
// layout in decode.go). The choices follow ORC checklist section 4:
//
//   - number_of_values and has_null always; bytes_on_disk when non-zero.
//   - The sub-message of the column's kind always, even with no values
//     (Java picks the statistics class from the sub-message present), except
//     when the Column cannot state the bounds of the values it counts (typed
//     part nil, or min/max unknown with values present, as after decoding an
//     untrusted file): then the sub-message is left out, so that readers see
//     "no statistics" rather than an empty range they might prune on.
//     Doubles are the exception: Java's own mark for "do not use" is a NaN
//     sum, so that is written instead.
//   - Integers: sum left out when unknown (overflow).
//   - Doubles: min/max left out and sum NaN when a NaN was seen; a zero
//     minimum is written as -0.0 and a zero maximum as +0.0 (Java compares
//     with Double.compareTo, where -0.0 < +0.0).
//   - Strings over MaxStringBytes: lower_bound/upper_bound (bounds.go).
//   - Decimals: canonical strings; sum left out past 38 digits.
//   - Timestamps: minimum_utc/maximum_utc in floor milliseconds, and the
//     sub-millisecond nanos + 1 in minimum_nanos/maximum_nanos only when
//     they differ from the defaults (0 and 999,999).
//   - Booleans: count[0] = trues. Binary: sum. Lists and maps: children.
//   - Geometry and geography: geospatial_statistics always (geo.go).

import (
	"math"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Proto returns the statistics as our writer stores them.
func (c *Column) Proto() *orcpb.ColumnStatistics {
	a := new(scalars)
	pb := &orcpb.ColumnStatistics{
		NumberOfValues: a.u64(c.NumValues),
		HasNull:        a.bool(c.HasNull),
	}
	if c.BytesOnDisk != 0 {
		pb.BytesOnDisk = a.u64(c.BytesOnDisk)
	}
	some := c.NumValues > 0
	switch c.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		if s := c.Int; s != nil && (s.HasMinMax || !some) {
			p := &orcpb.IntegerStatistics{}
			if s.HasMinMax {
				p.Minimum, p.Maximum = a.i64(s.Min), a.i64(s.Max)
			}
			if s.HasSum {
				p.Sum = a.i64(s.Sum)
			}
			pb.IntStatistics = p
		}
	case orc.Float, orc.Double:
		pb.DoubleStatistics = encodeDouble(a, c.Double, some)
	case orc.String, orc.Char, orc.Varchar:
		pb.StringStatistics = encodeString(a, c.String, some)
	case orc.Boolean:
		if s := c.Bool; s != nil {
			pb.BucketStatistics = &orcpb.BucketStatistics{Count: []uint64{s.TrueCount}}
		}
	case orc.Decimal:
		if s := c.Decimal; s != nil && (s.HasMinMax || !some) {
			p := &orcpb.DecimalStatistics{}
			if s.HasMinMax {
				p.Minimum, p.Maximum = a.str(decimalString(s.Min)), a.str(decimalString(s.Max))
			}
			if s.HasSum && fitsDecimal(s.Sum.Unscaled) {
				p.Sum = a.str(decimalString(s.Sum))
			}
			pb.DecimalStatistics = p
		}
	case orc.Date:
		if s := c.Date; s != nil && (s.HasMinMax || !some) {
			p := &orcpb.DateStatistics{}
			if s.HasMinMax {
				p.Minimum, p.Maximum = a.i32(s.Min), a.i32(s.Max)
			}
			pb.DateStatistics = p
		}
	case orc.Timestamp, orc.TimestampInstant:
		pb.TimestampStatistics = encodeTimestamp(a, c.Timestamp, some)
	case orc.Binary:
		if s := c.Binary; s != nil && (s.HasSum || !some) {
			p := &orcpb.BinaryStatistics{}
			if s.HasSum {
				p.Sum = a.i64(s.Sum)
			}
			pb.BinaryStatistics = p
		}
	case orc.Geometry, orc.Geography:
		pb.GeospatialStatistics = encodeGeo(a, c.Geo)
	case orc.List, orc.Map:
		if s := c.Collection; s != nil && (s.HasMinMax || !some) {
			p := &orcpb.CollectionStatistics{TotalChildren: a.u64(s.TotalChildren)}
			if s.HasMinMax {
				p.MinChildren, p.MaxChildren = a.u64(s.MinChildren), a.u64(s.MaxChildren)
			}
			pb.CollectionStatistics = p
		}
	}
	return pb
}

func encodeDouble(a *scalars, s *DoubleStats, some bool) *orcpb.DoubleStatistics {
	p := &orcpb.DoubleStatistics{}
	switch {
	case s == nil && !some:
		p.Sum = a.f64(0)
	case s == nil || (!s.HasMinMax && some) || (s.HasSum && math.IsNaN(s.Sum)):
		// A NaN was seen, or the bounds are unknown: a NaN sum makes Java
		// (and C++, which checks for a non-finite sum) ignore the rest.
		p.Sum = a.f64(math.NaN())
	default:
		if s.HasMinMax {
			mn, mx := s.Min, s.Max
			if mn == 0 {
				mn = math.Copysign(0, -1)
			}
			if mx == 0 {
				mx = 0
			}
			p.Minimum, p.Maximum = a.f64(mn), a.f64(mx)
		}
		if s.HasSum {
			p.Sum = a.f64(s.Sum)
		}
	}
	return p
}

func encodeString(a *scalars, s *StringStats, some bool) *orcpb.StringStatistics {
	if s == nil || (some && (!s.HasMin || !s.HasMax)) {
		return nil
	}
	p := &orcpb.StringStatistics{}
	if s.HasMin {
		switch {
		case s.MinIsLowerBound:
			p.LowerBound = a.str(s.Min)
		case len(s.Min) > MaxStringBytes:
			p.LowerBound = a.str(lowerBound(s.Min))
		default:
			p.Minimum = a.str(s.Min)
		}
	}
	if s.HasMax {
		switch {
		case s.MaxIsUpperBound:
			p.UpperBound = a.str(s.Max)
		case len(s.Max) > MaxStringBytes:
			if ub, ok := upperBound(s.Max); ok {
				p.UpperBound = a.str(ub)
			} else {
				// Nothing shorter is greater (the kept prefix is all
				// U+10FFFF): keep the exact maximum, however long.
				p.Maximum = a.str(s.Max)
			}
		default:
			p.Maximum = a.str(s.Max)
		}
	}
	if s.HasSum {
		p.Sum = a.i64(s.Sum)
	}
	return p
}

func encodeTimestamp(a *scalars, s *TimestampStats, some bool) *orcpb.TimestampStatistics {
	if s == nil || (some && !s.HasMinMax) {
		return nil
	}
	p := &orcpb.TimestampStatistics{}
	if !s.HasMinMax {
		return p
	}
	minMs, minSub, ok1 := toMillis(s.MinSec, s.MinNanos)
	maxMs, maxSub, ok2 := toMillis(s.MaxSec, s.MaxNanos)
	if !ok1 || !ok2 {
		if some {
			return nil
		}
		return p
	}
	p.MinimumUtc, p.MaximumUtc = a.i64(minMs), a.i64(maxMs)
	if minSub != 0 {
		p.MinimumNanos = a.i32(minSub + 1)
	}
	if maxSub != maxSubMilliNano {
		p.MaximumNanos = a.i32(maxSub + 1)
	}
	return p
}

// maxMillisSec bounds the seconds whose milliseconds fit in an int64.
const maxMillisSec = math.MaxInt64/1000 - 1

// toMillis splits (sec, nanos) into floor epoch milliseconds and the
// sub-millisecond nanos 0..999,999. It reports false when the milliseconds
// do not fit in an int64. nanos may be outside 0..999,999,999.
func toMillis(sec int64, nanos int32) (ms int64, sub int32, ok bool) {
	carry, n := floorDivMod(int64(nanos), 1_000_000_000)
	sec += carry
	if sec > maxMillisSec || sec < -maxMillisSec {
		return 0, 0, false
	}
	return sec*1000 + n/nanosPerMilli, int32(n % nanosPerMilli), true
}

func u64p(v uint64) *uint64   { return &v }
func i64p(v int64) *int64     { return &v }
func i32p(v int32) *int32     { return &v }
func f64p(v float64) *float64 { return &v }
func boolp(v bool) *bool      { return &v }
func strp(v string) *string   { return &v }

// scalars holds the optional scalar fields of one ColumnStatistics message
// and its sub-message, which protobuf keeps behind pointers: Proto takes
// them from one allocation rather than one each (the writer makes a
// message per column and row group). It falls back to the heap if a kind
// ever needs more than it holds.
type scalars struct {
	u64s            [5]uint64
	i64s            [3]int64
	i32s            [2]int32
	f64s            [3]float64
	bools           [1]bool
	strs            [3]string
	nu, ni, n32, nf int
	nb, ns          int
}

func (a *scalars) u64(v uint64) *uint64   { return take(a.u64s[:], &a.nu, v) }
func (a *scalars) i64(v int64) *int64     { return take(a.i64s[:], &a.ni, v) }
func (a *scalars) i32(v int32) *int32     { return take(a.i32s[:], &a.n32, v) }
func (a *scalars) f64(v float64) *float64 { return take(a.f64s[:], &a.nf, v) }
func (a *scalars) bool(v bool) *bool      { return take(a.bools[:], &a.nb, v) }
func (a *scalars) str(v string) *string   { return take(a.strs[:], &a.ns, v) }

// take stores v in the next free slot of slots (n counts the used ones)
// and returns a pointer to it, or a heap copy when all are used.
func take[T any](slots []T, n *int, v T) *T {
	if *n == len(slots) {
		return newOf(v)
	}
	p := &slots[*n]
	*n++
	*p = v
	return p
}

// newOf returns a pointer to a heap copy of v. (Returning &v from the
// methods above would move v to the heap on every call.)
func newOf[T any](v T) *T {
	p := new(T)
	*p = v
	return p
}
