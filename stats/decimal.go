package stats

import (
	"math/big"

	"github.com/orcgo/orc"
)

// Decimal helpers. Statistics hold decimals as (unscaled, scale) pairs;
// values of one column normally share the column's scale, but values decoded
// from files may keep the scale they were written with (see FromProto), so
// comparison and addition accept mixed scales.

// maxDecimalDigits is the most digits a decimal statistic may have; a sum
// beyond it is left out, as Java does (HiveDecimal holds 38 digits).
const maxDecimalDigits = 38

var pow38 = orc.Pow10(maxDecimalDigits)

// fitsDecimal reports whether |v| < 10^38.
func fitsDecimal(v orc.Int128) bool {
	if v.Sign() < 0 {
		v = v.Neg()
		if v.Sign() < 0 { // the minimum Int128 has no positive counterpart
			return false
		}
	}
	return v.Cmp(pow38) < 0
}

// scaleUp returns v at a scale to >= from, and false on overflow.
func scaleUp(v orc.Int128, from, to int) (orc.Int128, bool) {
	if from == to {
		return v, true
	}
	r, _, ok := orc.Rescale(v, from, to)
	return r, ok
}

// cmpDecimal compares the numbers d and e, returning -1, 0 or +1. Their
// scales may differ.
func cmpDecimal(d, e DecimalValue) int {
	if d.Scale == e.Scale {
		return d.Unscaled.Cmp(e.Unscaled)
	}
	s := max(d.Scale, e.Scale)
	if a, ok := scaleUp(d.Unscaled, d.Scale, s); ok {
		if b, ok := scaleUp(e.Unscaled, e.Scale, s); ok {
			return a.Cmp(b)
		}
	}
	return bigScaled(d, s).Cmp(bigScaled(e, s))
}

func bigScaled(d DecimalValue, s int) *big.Int {
	b := d.Unscaled.Big()
	if s > d.Scale {
		b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-d.Scale)), nil))
	}
	return b
}

// decimalString returns d in the canonical form ORC statistics use
// ("-1000.5", "0", "5.5").
func decimalString(d DecimalValue) string { return orc.CanonicalDecimal(d.Unscaled, d.Scale) }

// addDecimal returns d+e at the larger of the two scales, and false when the
// sum does not fit in 38 digits.
func addDecimal(d, e DecimalValue) (DecimalValue, bool) {
	s := max(d.Scale, e.Scale)
	a, ok1 := scaleUp(d.Unscaled, d.Scale, s)
	b, ok2 := scaleUp(e.Unscaled, e.Scale, s)
	if !ok1 || !ok2 {
		return DecimalValue{}, false
	}
	r, overflow := a.Add(b)
	if overflow || !fitsDecimal(r) {
		return DecimalValue{}, false
	}
	return DecimalValue{Unscaled: r, Scale: s}, true
}

// parseStatDecimal reads a decimal statistic and brings it to the column's
// scale when that is exact and fits; otherwise it keeps the written scale
// with trailing zeros removed. It reports false for text that is not a
// decimal or whose scale exceeds 38.
func parseStatDecimal(s string, colScale int) (DecimalValue, bool) {
	v, scale, err := orc.ParseDecimal(s)
	if err != nil {
		return DecimalValue{}, false
	}
	if v.Sign() == 0 {
		return DecimalValue{Scale: colScale}, true
	}
	// A non-zero Int128 has at most 39 digits, so at most 38 trailing zeros
	// can be dropped: a larger scale can never come down to 38. Checking
	// this first also bounds the work below.
	if scale > 2*maxDecimalDigits+1 {
		return DecimalValue{}, false
	}
	if scale > colScale {
		if r, exact, ok := orc.Rescale(v, scale, colScale); exact && ok {
			return DecimalValue{Unscaled: r, Scale: colScale}, true
		}
		// Keep the digits; drop only trailing zeros.
		for scale > colScale {
			r, exact, ok := orc.Rescale(v, scale, scale-1)
			if !exact || !ok {
				break
			}
			v, scale = r, scale-1
		}
	} else if scale < colScale {
		if r, ok := scaleUp(v, scale, colScale); ok {
			return DecimalValue{Unscaled: r, Scale: colScale}, true
		}
	}
	if scale > maxDecimalDigits {
		return DecimalValue{}, false
	}
	return DecimalValue{Unscaled: v, Scale: scale}, true
}
