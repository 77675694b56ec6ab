package sarg

// Function leaves: a leaf that compares a function of its column with
// literals, MONTH(ts) = 3, x * 2 < 10, LENGTH(s) > 3 (spec.md 7.17).
//
// A function leaf is bound as two leaves: the function, applied to the
// column's values, and an inner leaf that compares the function's values
// with the literals as if they were a column of the function's result type
// (decimal(38, s), double, bigint, date, timestamp or the column's string
// type). Row by row the function is computed and the inner leaf decides.
//
// Pruning maps the statistics' interval [lo, hi] of the column through the
// function only where the function is proven monotone over it: the image
// of every value in [lo, hi] then lies in [f(lo), f(hi)] (or [f(hi), f(lo)]
// when the function decreases), and the inner leaf is evaluated against
// that interval as if it were the statistics of a column. Where no proof
// holds the interval is dropped: the inner leaf then sees a column with
// values but no minimum and maximum, and can't decide. Null counts carry
// over unchanged, since every function here is NULL exactly when its
// argument is.

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// FuncKind names a function of a column; see Func.
type FuncKind uint8

// The functions a leaf can apply to its column.
const (
	FuncNone      FuncKind = iota // no function: the column itself
	FuncMonth                     // MONTH(x): 1..12, of a date or a timestamp's wall clock
	FuncDay                       // DAY(x): day of the month 1..31
	FuncHour                      // HOUR(x): 0..23 (0 for a date)
	FuncDateTrunc                 // DATE_TRUNC('unit', x): x truncated to the start of its unit
	FuncAdd                       // x + c
	FuncSub                       // x - c
	FuncMul                       // x * c
	FuncDiv                       // x / c (in double precision)
	FuncAbs                       // ABS(x)
	FuncLength                    // LENGTH(x): characters of a string, bytes of a binary
	FuncLower                     // LOWER(x)
	FuncUpper                     // UPPER(x)
	FuncTerm                      // Func.Term: any term, of any columns (see Term)
)

var funcNames = [...]string{"", "MONTH", "DAY", "HOUR", "DATE_TRUNC", "+", "-", "*", "/", "ABS", "LENGTH", "LOWER", "UPPER", "TERM"}

// String returns the function's name as the parser reads it ("MONTH",
// "+").
func (k FuncKind) String() string {
	if int(k) < len(funcNames) {
		return funcNames[k]
	}
	return fmt.Sprintf("FuncKind(%d)", k)
}

// truncUnits are the units of DATE_TRUNC, smallest last.
var truncUnits = []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second"}

// Func is a function applied to a leaf's column before the comparison.
// Build one with Month, Day, Hour, DateTrunc, Plus, Minus, Times, Div,
// Abs, Length, Lower or Upper, and put it on leaves with Apply.
type Func struct {
	Kind FuncKind
	// Unit is DATE_TRUNC's unit, lower case: year, quarter, month, week
	// (weeks start on Monday), day, hour, minute or second.
	Unit string
	// Const is the constant of +, -, * and /: an integer, decimal or
	// (finite) float literal.
	Const Literal
	// Term is the term a FuncTerm leaf compares instead of its column
	// (see TermLeaf); the leaf's Column is the term's first column.
	Term *Term
}

// Month returns MONTH(x).
func Month() Func { return Func{Kind: FuncMonth} }

// Day returns DAY(x), the day of the month.
func Day() Func { return Func{Kind: FuncDay} }

// Hour returns HOUR(x).
func Hour() Func { return Func{Kind: FuncHour} }

// DateTrunc returns DATE_TRUNC(unit, x); see Func.Unit for the units.
func DateTrunc(unit string) Func { return Func{Kind: FuncDateTrunc, Unit: strings.ToLower(unit)} }

// Plus returns x + c.
func Plus(c Literal) Func { return Func{Kind: FuncAdd, Const: c} }

// Minus returns x - c.
func Minus(c Literal) Func { return Func{Kind: FuncSub, Const: c} }

// Times returns x * c.
func Times(c Literal) Func { return Func{Kind: FuncMul, Const: c} }

// Div returns x / c.
func Div(c Literal) Func { return Func{Kind: FuncDiv, Const: c} }

// Abs returns ABS(x).
func Abs() Func { return Func{Kind: FuncAbs} }

// Length returns LENGTH(x).
func Length() Func { return Func{Kind: FuncLength} }

// Lower returns LOWER(x).
func Lower() Func { return Func{Kind: FuncLower} }

// Upper returns UPPER(x).
func Upper() Func { return Func{Kind: FuncUpper} }

// Apply returns e with f applied to the column of every leaf: Apply(Month(),
// Eq("ts", Int(3))) is MONTH(ts) = 3, Apply(Plus(Int(1)), Lt("x", Int(5)))
// is x + 1 < 5. Leaves that already have a function, compare two columns
// or are geometry tests are left as they are (Bind refuses a function on
// the latter two).
func Apply(f Func, e Expr) Expr {
	return mapLeaves(e, func(e Expr) Expr {
		if e.Leaf == nil || e.Leaf.Func != nil {
			return e
		}
		l := *e.Leaf
		fc := f
		l.Func = &fc
		return Expr{Op: OpLeaf, Leaf: &l}
	})
}

func (f *Func) equal(o *Func) bool {
	if f == nil || o == nil {
		return f == o || f != nil && f.Kind == FuncNone || o != nil && o.Kind == FuncNone
	}
	if (f.Term == nil) != (o.Term == nil) || f.Term != nil && !f.Term.Equal(*o.Term) {
		return false
	}
	return f.Kind == o.Kind && strings.EqualFold(f.Unit, o.Unit) && f.Const.Equal(o.Const)
}

// appendSubject writes the column, or the function of it, as Parse reads
// it.
func (f *Func) appendSubject(b []byte, col string) []byte {
	if f == nil || f.Kind == FuncNone {
		return append(b, col...)
	}
	switch f.Kind {
	case FuncTerm:
		if f.Term == nil {
			return append(b, "<nil term>"...)
		}
		return f.Term.appendArg(b, 1, false)
	case FuncAdd, FuncSub, FuncMul, FuncDiv:
		b = append(b, col...)
		b = append(b, ' ')
		b = append(b, f.Kind.String()...)
		b = append(b, ' ')
		return f.Const.appendText(b)
	case FuncDateTrunc:
		b = append(b, "DATE_TRUNC("...)
		b = appendQuoted(b, strings.ToLower(f.Unit))
		b = append(b, ", "...)
	default:
		b = append(b, f.Kind.String()...)
		b = append(b, '(')
	}
	b = append(b, col...)
	return append(b, ')')
}

// check returns why f is malformed, or "".
func (f *Func) check() string {
	switch f.Kind {
	case FuncNone, FuncMonth, FuncDay, FuncHour, FuncAbs, FuncLength, FuncLower, FuncUpper:
	case FuncTerm:
		if f.Term == nil {
			return "a term leaf without its term"
		}
	case FuncDateTrunc:
		for _, u := range truncUnits {
			if strings.EqualFold(u, f.Unit) {
				return ""
			}
		}
		return fmt.Sprintf("DATE_TRUNC unit %q is not one of %s", f.Unit, strings.Join(truncUnits, ", "))
	case FuncAdd, FuncSub, FuncMul, FuncDiv:
		c := f.Const
		switch c.kind {
		case IntLit:
		case DecimalLit:
			if c.scale < 0 || c.scale > 38 {
				return "the constant's decimal scale must be 0..38"
			}
		case FloatLit:
			if math.IsNaN(c.f) || math.IsInf(c.f, 0) {
				return fmt.Sprintf("the constant of %s must be a finite number, not %s", f.Kind, c)
			}
		default:
			return fmt.Sprintf("the constant of %s must be a number, not %s literal", f.Kind, withArticle(c.kind.String()))
		}
		if f.Kind == FuncDiv && constSign(c) == 0 {
			return "division by zero"
		}
	default:
		return fmt.Sprintf("unknown function %d", f.Kind)
	}
	return ""
}

// constSign returns the sign of a numeric literal.
func constSign(c Literal) int {
	switch c.kind {
	case IntLit:
		return cmpOrdered(c.i, 0)
	case DecimalLit:
		return c.d.Sign()
	case FloatLit:
		return cmpOrdered(c.f, 0)
	}
	return 0
}

// Function leaves bind as term leaves (term_leaf.go): the function is the
// term's root over the column, and its family (term_time.go,
// term_arith.go, term_str.go) computes it, maps its interval and says why
// it cannot prune. The comparison's literals keep the result type's rules
// (7.2).

// funcAsTerm returns the term a function leaf applies to its column.
func funcAsTerm(l *Leaf) Term {
	f, col := l.Func, ColTerm(l.Column)
	switch f.Kind {
	case FuncDateTrunc:
		return TruncTerm(f.Unit, col)
	case FuncAdd, FuncSub, FuncMul, FuncDiv:
		return Call(f.Kind.String(), col, LitTerm(f.Const))
	}
	return Call(f.Kind.String(), col)
}

// bindFunc binds a function leaf.
func (b *Bound) bindFunc(l *Leaf, neg bool) (*boundLeaf, Op, error) {
	mismatch := func(format string, args ...any) (*boundLeaf, Op, error) {
		return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch,
			Msg: fmt.Sprintf("sarg: %s: %s", l, fmt.Sprintf(format, args...))}
	}
	if l.Other != "" || l.Op.isGeo() {
		return mismatch("%s applies only to a column compared with literals", l.Func.Kind)
	}
	if why := l.Func.check(); why != "" {
		return mismatch("%s", why)
	}
	return b.bindTermLeaf(l, funcAsTerm(l), neg)
}

func pow10Big(n int) *big.Int {
	if n = max(n, 0); n < len(pow10Table) {
		return pow10Table[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// pow10Table holds 10^0 .. 10^76, the powers decimal scales and
// precisions ask for (twice 38 where two scales add), made once; callers
// never change them.
var pow10Table = func() []*big.Int {
	t := make([]*big.Int, 77)
	for i := range t {
		t[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return t
}()

// absRangeF is the range of |x| for x in [lo, hi].
func absRangeF(lo, hi float64) (float64, float64) {
	switch {
	case lo >= 0:
		return lo, hi
	case hi <= 0:
		return -hi, -lo
	}
	return 0, max(-lo, hi)
}

// absRangeR is absRangeF on exact values.
func absRangeR(lo, hi *big.Rat) (*big.Rat, *big.Rat) {
	switch {
	case lo.Sign() >= 0:
		return lo, hi
	case hi.Sign() <= 0:
		return new(big.Rat).Neg(hi), new(big.Rat).Neg(lo)
	}
	m := new(big.Rat).Neg(lo)
	if m.Cmp(hi) < 0 {
		m = hi
	}
	return new(big.Rat), m
}

func decRat(d stats.DecimalValue) *big.Rat {
	if d.Unscaled.IsInt64() && d.Scale >= 0 && d.Scale < len(pow10Int64) {
		return new(big.Rat).SetFrac64(d.Unscaled.Int64(), pow10Int64[d.Scale])
	}
	return new(big.Rat).SetFrac(d.Unscaled.Big(), pow10Big(d.Scale))
}

// ratDecimal converts an exact value to a decimal at scale, if it is one
// and fits 128 bits.
func ratDecimal(r *big.Rat, scale int) (stats.DecimalValue, bool) {
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10Big(scale)))
	if !x.IsInt() {
		return stats.DecimalValue{}, false
	}
	v, ok := orc.Int128FromBig(x.Num())
	return stats.DecimalValue{Unscaled: v, Scale: scale}, ok
}

// truncDays truncates a day to the start of its year, quarter, month or
// week (Monday); smaller units leave a date as it is.
func truncDays(d int64, unit string) int64 {
	y, m, _ := civilFromDays(d)
	switch unit {
	case "year":
		return daysFromCivil(y, 1, 1)
	case "quarter":
		return daysFromCivil(y, (m-1)/3*3+1, 1)
	case "month":
		return daysFromCivil(y, m, 1)
	case "week":
		return d - floorMod(d+3, 7) // 1970-01-01 was a Thursday
	}
	return d
}

// truncSeconds truncates a wall clock (seconds read as UTC) to the start
// of its unit.
func truncSeconds(sec int64, unit string) int64 {
	switch unit {
	case "hour":
		return sec - floorMod(sec, 3600)
	case "minute":
		return sec - floorMod(sec, 60)
	case "second":
		return sec
	}
	return truncDays(floorDiv(sec, 86400), unit) * 86400
}

// mul128 returns a*b and whether it overflowed 128 bits.
func mul128(a, b orc.Int128) (orc.Int128, bool) {
	if b.IsInt64() {
		m := uint64(b.Int64())
		if b.Sign() < 0 {
			m = -m
		}
		r, of := a.MulUint64(m)
		if b.Sign() < 0 {
			r = r.Neg()
		}
		return r, of
	}
	r, ok := orc.Int128FromBig(new(big.Int).Mul(a.Big(), b.Big()))
	return r, !ok
}

// mapCase appends s lower-cased (or upper-cased) character by character,
// with Unicode's simple case mappings; invalid bytes are kept as they are.
func mapCase(dst, s []byte, upper bool) []byte {
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size <= 1 {
			dst = append(dst, s[0])
			s = s[1:]
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
		} else {
			r = unicode.ToLower(r)
		}
		dst = utf8.AppendRune(dst, r)
		s = s[size:]
	}
	return dst
}
