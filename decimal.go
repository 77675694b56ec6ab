package orc

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"
)

// Int128 is a signed 128-bit integer in two's complement, used for the
// unscaled values of decimals (38 digits fit with room to spare).
type Int128 struct {
	Hi int64
	Lo uint64
}

// Int128FromInt64 widens v.
func Int128FromInt64(v int64) Int128 { return Int128{Hi: v >> 63, Lo: uint64(v)} }

// IsInt64 reports whether the value fits in an int64.
func (a Int128) IsInt64() bool { return a.Hi == int64(a.Lo)>>63 }

// Int64 returns the low 64 bits as an int64; meaningful when IsInt64.
func (a Int128) Int64() int64 { return int64(a.Lo) }

// Sign returns -1, 0 or +1.
func (a Int128) Sign() int {
	switch {
	case a.Hi < 0:
		return -1
	case a.Hi == 0 && a.Lo == 0:
		return 0
	}
	return 1
}

// Neg returns -a (wrapping for the minimum value).
func (a Int128) Neg() Int128 {
	lo := ^a.Lo + 1
	hi := ^a.Hi
	if lo == 0 {
		hi++
	}
	return Int128{Hi: hi, Lo: lo}
}

// Add returns a+b and whether the sum overflowed 128 bits.
func (a Int128) Add(b Int128) (Int128, bool) {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	hi := a.Hi + b.Hi + int64(carry)
	r := Int128{Hi: hi, Lo: lo}
	// Overflow when both operands have the same sign and the result differs.
	overflow := (a.Hi >= 0) == (b.Hi >= 0) && (r.Hi >= 0) != (a.Hi >= 0)
	return r, overflow
}

// Cmp compares a and b, returning -1, 0 or +1.
func (a Int128) Cmp(b Int128) int {
	if a.Hi != b.Hi {
		if a.Hi < b.Hi {
			return -1
		}
		return 1
	}
	if a.Lo != b.Lo {
		if a.Lo < b.Lo {
			return -1
		}
		return 1
	}
	return 0
}

// MulUint64 returns a*m and whether the product overflowed 128 bits.
func (a Int128) MulUint64(m uint64) (Int128, bool) {
	neg := a.Hi < 0
	x := a
	if neg {
		x = a.Neg()
	}
	hi1, lo := bits.Mul64(x.Lo, m)
	hi2, hiLo := bits.Mul64(uint64(x.Hi), m)
	hi, carry := bits.Add64(hi1, hiLo, 0)
	if hi2 != 0 || carry != 0 || hi>>63 != 0 {
		// |result| >= 2^127; only -2^127 is representable, ignore that edge.
		return Int128{}, true
	}
	r := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		r = r.Neg()
	}
	return r, false
}

// Big returns the value as a big.Int.
func (a Int128) Big() *big.Int {
	b := new(big.Int).SetInt64(a.Hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(a.Lo))
}

var (
	bigTwo127    = new(big.Int).Lsh(big.NewInt(1), 127)
	bigMinus2127 = new(big.Int).Neg(bigTwo127)
	bigMask64    = new(big.Int).SetUint64(^uint64(0))
)

// Int128FromBig converts b, reporting false when it does not fit.
func Int128FromBig(b *big.Int) (Int128, bool) {
	if b.Cmp(bigTwo127) >= 0 || b.Cmp(bigMinus2127) < 0 {
		return Int128{}, false
	}
	lo := new(big.Int).And(b, bigMask64).Uint64()
	hi := new(big.Int).Rsh(b, 64).Int64()
	return Int128{Hi: hi, Lo: lo}, true
}

var pow10u64 = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < 20; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// Pow10 returns 10^n as an Int128 for n in 0..38.
func Pow10(n int) Int128 {
	if n < 19 {
		return Int128{Lo: pow10u64[n]}
	}
	r, _ := Int128{Lo: pow10u64[18]}.MulUint64(1)
	for i := 18; i < n; i++ {
		r, _ = r.MulUint64(10)
	}
	return r
}

// Rescale changes the scale of an unscaled value from one scale to another.
// Going down divides, and reports exact=false when digits were lost; going up
// multiplies, and reports ok=false on overflow.
func Rescale(v Int128, from, to int) (r Int128, exact, ok bool) {
	if from == to {
		return v, true, true
	}
	if to > from {
		r = v
		for i := from; i < to; i++ {
			var of bool
			if r, of = r.MulUint64(10); of {
				return Int128{}, false, false
			}
		}
		return r, true, true
	}
	b := v.Big()
	d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from-to)), nil)
	q, m := new(big.Int).QuoRem(b, d, new(big.Int))
	r, ok = Int128FromBig(q)
	return r, m.Sign() == 0, ok
}

// FormatDecimal writes v / 10^scale in plain notation, with exactly scale
// digits after the point: 12345 at scale 2 is "123.45", -5 at scale 3 is
// "-0.005".
func FormatDecimal(v Int128, scale int) string {
	var s string
	if v.IsInt64() {
		s = fmt.Sprint(v.Int64())
	} else {
		s = v.Big().String()
	}
	if scale <= 0 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// CanonicalDecimal writes v / 10^scale the way ORC statistics and bloom
// filters spell decimals: plain notation with trailing fractional zeros and
// a bare trailing point removed ("1.5", "-1000.5", "0").
func CanonicalDecimal(v Int128, scale int) string {
	s := FormatDecimal(v, scale)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// ParseDecimal reads a decimal in plain notation ("-12.50", "3", ".5") or
// with an exponent ("1.5E3"), returning the unscaled value and its scale
// (the number of fractional digits written, at least 0).
func ParseDecimal(s string) (Int128, int, error) {
	orig := s
	if s == "" {
		return Int128{}, 0, fmt.Errorf("orc: empty decimal")
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		var e int
		if _, err := fmt.Sscanf(s[i+1:], "%d", &e); err != nil || e > 1000 || e < -1000 {
			return Int128{}, 0, fmt.Errorf("orc: bad decimal %q", orig)
		}
		exp = e
		s = s[:i]
	}
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
	}
	if intPart == "" && frac == "" {
		return Int128{}, 0, fmt.Errorf("orc: bad decimal %q", orig)
	}
	for _, part := range [2]string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return Int128{}, 0, fmt.Errorf("orc: bad decimal %q", orig)
			}
		}
	}
	scale := len(frac) - exp
	if exp == 0 && len(intPart)+len(frac) <= 18 {
		// At most 18 digits fit in an int64: no big.Int, whose SetString
		// allocates a reader and words (the reader parses the decimal
		// statistics of every row group a predicate reads this way).
		var u int64
		for _, part := range [2]string{intPart, frac} {
			for i := 0; i < len(part); i++ {
				u = u*10 + int64(part[i]-'0')
			}
		}
		if neg {
			u = -u
		}
		return Int128FromInt64(u), scale, nil
	}
	digits := intPart + frac
	b, ok := new(big.Int).SetString("0"+digits, 10)
	if !ok {
		return Int128{}, 0, fmt.Errorf("orc: bad decimal %q", orig)
	}
	if scale < 0 {
		b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil))
		scale = 0
	}
	if neg {
		b.Neg(b)
	}
	v, ok := Int128FromBig(b)
	if !ok || scale > 38 {
		// Trailing fractional zeros change the written scale, not the
		// value: drop as many as it takes to fit ("…99.0" into 38 digits).
		ten, r := big.NewInt(10), new(big.Int)
		for scale > 0 {
			q, m := new(big.Int).QuoRem(b, ten, r)
			if m.Sign() != 0 {
				break
			}
			b, scale = q, scale-1
			if v, ok = Int128FromBig(b); ok && scale <= 38 {
				break
			}
		}
	}
	if !ok {
		return Int128{}, 0, fmt.Errorf("orc: decimal %q does not fit in 128 bits", orig)
	}
	return v, scale, nil
}

// DecimalValue is a decimal number, Unscaled / 10^Scale: the Go value of
// decimal fields in the row API (writer.RowWriter, reader.RowReader). The
// writer rescales it to its column's scale, refusing values that would lose
// digits or exceed the column's precision; the reader sets Scale to the
// column's scale. Scale must be 0..38.
type DecimalValue struct {
	Unscaled Int128
	Scale    int
}

// String formats the number in plain notation with Scale fractional
// digits, such as "-12.50".
func (d DecimalValue) String() string { return FormatDecimal(d.Unscaled, d.Scale) }

// DecimalOf parses a decimal such as "-12.50" or "1.5E3" (see ParseDecimal).
func DecimalOf(s string) (DecimalValue, error) {
	v, scale, err := ParseDecimal(s)
	if err != nil {
		return DecimalValue{}, err
	}
	return DecimalValue{Unscaled: v, Scale: scale}, nil
}
