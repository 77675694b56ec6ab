package iceberg

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"
	"unicode/utf8"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc/stats"
)

// Bounds in Iceberg's single-value binary serialization (the spec's
// appendix D): booleans one byte 0 or 1; int and date 4 bytes and long,
// time and timestamps 8 bytes, little-endian; float and double their IEEE
// 754 bits, little-endian; decimal the unscaled value as big-endian two's
// complement in the fewest bytes; string UTF-8 bytes; binary, fixed and
// uuid the bytes themselves.
//
// ORC statistics give the bounds of every type but binary, and of float
// and double only when the column holds no NaN: the Writer keeps those
// (valueStats) while it writes. A bound from ORC is a bound whatever the
// writer: a string bound that ORC cut to 1,024 bytes is still a lower or
// an upper bound, and a timestamp bound is widened to whole microseconds.

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// boundsFromStats returns the serialized lower and upper bounds of a
// column of Iceberg type t from its ORC statistics; nil where unknown.
func boundsFromStats(t ice.Type, c stats.Column) (lo, hi []byte) {
	switch tt := t.(type) {
	case ice.BooleanType:
		if c.Bool == nil || c.NumValues == 0 {
			return nil, nil
		}
		lo, hi = []byte{1}, []byte{0}
		if c.Bool.TrueCount < c.NumValues {
			lo = []byte{0}
		}
		if c.Bool.TrueCount > 0 {
			hi = []byte{1}
		}
		return lo, hi
	case ice.Int32Type:
		if c.Int == nil || !c.Int.HasMinMax || c.Int.Min < math.MinInt32 || c.Int.Max > math.MaxInt32 {
			return nil, nil
		}
		return le32(uint32(int32(c.Int.Min))), le32(uint32(int32(c.Int.Max)))
	case ice.Int64Type, ice.TimeType:
		if c.Int == nil || !c.Int.HasMinMax {
			return nil, nil
		}
		return le64(uint64(c.Int.Min)), le64(uint64(c.Int.Max))
	case ice.Float32Type, ice.Float64Type:
		if c.Double == nil || !c.Double.HasMinMax {
			return nil, nil
		}
		return floatBounds(t, c.Double.Min, c.Double.Max)
	case ice.DateType:
		if c.Date == nil || !c.Date.HasMinMax {
			return nil, nil
		}
		return le32(uint32(c.Date.Min)), le32(uint32(c.Date.Max))
	case ice.TimestampType, ice.TimestampTzType, ice.TimestampNsType, ice.TimestampTzNsType:
		return timestampBounds(t, c.Timestamp)
	case ice.DecimalType:
		return decimalBounds(tt, c.Decimal)
	case ice.StringType:
		if c.String == nil {
			return nil, nil
		}
		if c.String.HasMin {
			lo = []byte(c.String.Min)
		}
		if c.String.HasMax {
			hi = []byte(c.String.Max)
		}
		return lo, hi
	}
	return nil, nil
}

// floatBounds serializes a float or double range. A zero bound is written
// as -0.0 below and +0.0 above, so that both zeros lie within the bounds
// whichever the column held.
func floatBounds(t ice.Type, lo, hi float64) ([]byte, []byte) {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, nil
	}
	if lo == 0 {
		lo = math.Copysign(0, -1)
	}
	if hi == 0 {
		hi = 0
	}
	if _, ok := t.(ice.Float32Type); ok {
		return le32(math.Float32bits(float32(lo))), le32(math.Float32bits(float32(hi)))
	}
	return le64(math.Float64bits(lo)), le64(math.Float64bits(hi))
}

// timestampBounds serializes a timestamp range in microseconds (rounded
// outward) or, for the _ns types, nanoseconds; nil when out of range.
func timestampBounds(t ice.Type, s *stats.TimestampStats) (lo, hi []byte) {
	if s == nil || !s.HasMinMax {
		return nil, nil
	}
	nanos := false
	switch t.(type) {
	case ice.TimestampNsType, ice.TimestampTzNsType:
		nanos = true
	}
	l, ok1 := epochUnits(s.MinSec, s.MinNanos, nanos, false)
	h, ok2 := epochUnits(s.MaxSec, s.MaxNanos, nanos, true)
	if ok1 {
		lo = le64(uint64(l))
	}
	if ok2 {
		hi = le64(uint64(h))
	}
	return lo, hi
}

// epochUnits converts seconds and nanoseconds to microseconds (rounding
// down, or up when ceil) or nanoseconds; ok is false on overflow.
func epochUnits(sec int64, ns int32, nanos, ceil bool) (int64, bool) {
	per, sub := int64(1_000_000), int64(ns)/1000
	if nanos {
		per, sub = 1_000_000_000, int64(ns)
	} else if ceil && ns%1000 != 0 {
		sub++
	}
	hi, lo := bits.Mul64(uint64(abs64(sec)), uint64(per))
	if hi != 0 || lo > math.MaxInt64/2 {
		return 0, false
	}
	v := int64(lo)
	if sec < 0 {
		v = -v
	}
	return v + sub, true
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// decimalBounds serializes a decimal range at the column's scale; a bound
// recorded at another scale is rescaled (outward when digits would be lost).
func decimalBounds(t ice.DecimalType, d *stats.DecimalStats) (lo, hi []byte) {
	if d == nil || !d.HasMinMax {
		return nil, nil
	}
	return decimalBytes(d.Min, t.Scale(), false), decimalBytes(d.Max, t.Scale(), true)
}

func decimalBytes(v stats.DecimalValue, scale int, ceil bool) []byte {
	u := v.Unscaled.Big()
	if d := scale - v.Scale; d > 0 {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil))
	} else if d < 0 {
		q, m := new(big.Int).DivMod(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-d)), nil), new(big.Int))
		if ceil && m.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		u = q // DivMod is Euclidean: q rounds down
	}
	return twosComplement(u)
}

// twosComplement returns v as big-endian two's complement in the fewest
// bytes.
func twosComplement(v *big.Int) []byte {
	if v.Sign() >= 0 {
		b := v.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// -v - 1 in n bytes, inverted.
	m := new(big.Int).Neg(v)
	m.Sub(m, big.NewInt(1))
	b := m.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	for i := range b {
		b[i] = ^b[i]
	}
	return b
}

// truncateLower cuts a lower bound to n characters (strings) or bytes: a
// prefix is never greater than the value.
func truncateLower(b []byte, n int, text bool) []byte {
	if n <= 0 {
		return b
	}
	if !text {
		if len(b) > n {
			return b[:n]
		}
		return b
	}
	return b[:prefixLen(b, n)]
}

// prefixLen is the byte length of the first n characters of UTF-8 b.
func prefixLen(b []byte, n int) int {
	i := 0
	for c := 0; c < n && i < len(b); c++ {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// truncateUpper cuts an upper bound to n characters or bytes and makes the
// cut value greater than the whole one by incrementing its last character
// (byte), dropping characters that cannot be incremented. ok is false when
// none can: then the column has no upper bound.
func truncateUpper(b []byte, n int, text bool) (out []byte, ok bool) {
	if n <= 0 {
		return b, true
	}
	if !text {
		if len(b) <= n {
			return b, true
		}
		out = append([]byte(nil), b[:n]...)
		for i := len(out) - 1; i >= 0; i-- {
			if out[i] != 0xff {
				out[i]++
				return out[:i+1], true
			}
		}
		return nil, false
	}
	if prefixLen(b, n) == len(b) {
		return b, true
	}
	runes := []rune(string(b[:prefixLen(b, n)]))
	for i := len(runes) - 1; i >= 0; i-- {
		r := runes[i] + 1
		if r >= 0xD800 && r <= 0xDFFF {
			r = 0xE000
		}
		if r <= utf8.MaxRune {
			runes[i] = r
			return []byte(string(runes[:i+1])), true
		}
	}
	return nil, false
}
