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
	"strconv"
	"strings"
	"time"
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
	FuncTerm                      // Func.Term: any term, of any columns (term.go)
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
	switch e.Op {
	case OpLeaf:
		if e.Leaf == nil || e.Leaf.Func != nil {
			return e
		}
		l := *e.Leaf
		fc := f
		l.Func = &fc
		return Expr{Op: OpLeaf, Leaf: &l}
	case OpAnd, OpOr, OpNot:
		kids := make([]Expr, len(e.Children))
		for i, c := range e.Children {
			kids[i] = Apply(f, c)
		}
		return Expr{Op: e.Op, Children: kids}
	}
	return e
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

// boundFunc is a function leaf's function, bound to its column.
type boundFunc struct {
	f     Func
	in    *orc.Schema // the column
	inner *boundLeaf  // the comparison of the function's values
	// Arithmetic with an exact (decimal) result: the constant as a
	// decimal at cScale, the result's scale.
	exact    bool
	c        orc.Int128
	cScale   int
	resScale int
	cf       float64 // the constant as a double (double results)
	// never says why the function cannot prune on any unit, or "".
	never string
}

// maxDecimal is 10^38, the first value a decimal(38) cannot hold.
var maxDecimal = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)

// bindFunc binds a function leaf on its resolved column: the function's
// result type, then the comparison as an inner leaf on that type.
func (b *Bound) bindFunc(bl *boundLeaf, l *Leaf) (*boundLeaf, Op, error) {
	f := *l.Func
	f.Unit = strings.ToLower(f.Unit)
	col := bl.col
	mismatch := func(format string, args ...any) (*boundLeaf, Op, error) {
		return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch,
			Msg: fmt.Sprintf("sarg: %s: %s", l, fmt.Sprintf(format, args...))}
	}
	if l.Other != "" || l.Op.isGeo() {
		return mismatch("%s applies only to a column compared with literals", f.Kind)
	}
	if why := f.check(); why != "" {
		return mismatch("%s", why)
	}
	bf := &boundFunc{f: f, in: col}
	var res *orc.Schema
	isTime := col.Kind == orc.Date || col.Kind == orc.Timestamp
	switch f.Kind {
	case FuncMonth, FuncDay, FuncHour, FuncDateTrunc:
		if col.Kind == orc.TimestampInstant {
			return mismatch("%s of a timestamp with local time zone column depends on a zone the predicate does not give; compare the column with instants instead", f.Kind)
		}
		if !isTime {
			return mismatch("%s needs a date or timestamp column, not %s", f.Kind, withArticle(col.Kind.String()))
		}
		res = &orc.Schema{Kind: orc.Long}
		if f.Kind == FuncDateTrunc {
			res = &orc.Schema{Kind: col.Kind}
		}
	case FuncAbs, FuncAdd, FuncSub, FuncMul, FuncDiv:
		var inMax *big.Int // bound on |unscaled value| of the column
		inScale := 0
		switch col.Kind {
		case orc.Byte, orc.Short, orc.Int, orc.Long:
			bits := map[orc.Kind]uint{orc.Byte: 7, orc.Short: 15, orc.Int: 31, orc.Long: 63}[col.Kind]
			inMax = new(big.Int).Lsh(big.NewInt(1), bits)
		case orc.Decimal:
			p := col.Precision
			if p <= 0 || p > 38 {
				p = 38
			}
			inMax = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
			inScale = col.Scale
		case orc.Float, orc.Double:
		default:
			return mismatch("%s needs a numeric column, not %s", f.Kind, withArticle(col.Kind.String()))
		}
		c := f.Const
		switch {
		case f.Kind == FuncAbs && inMax == nil:
			res = &orc.Schema{Kind: orc.Double}
		case f.Kind == FuncAbs:
			bf.exact, bf.resScale = true, inScale
		case f.Kind == FuncDiv || inMax == nil || c.kind == FloatLit:
			res = &orc.Schema{Kind: orc.Double}
			bf.cf = nearestFloat(c)
			if f.Kind == FuncMul && bf.cf == 0 && inMax == nil {
				bf.never = "x * 0 on a float column is NaN for infinite x, so the statistics' range maps to no interval"
			}
		default:
			bf.exact = true
			if c.kind == IntLit {
				bf.c, bf.cScale = orc.Int128FromInt64(c.i), 0
			} else {
				bf.c, bf.cScale = c.d, int(c.scale)
			}
			cAbs := new(big.Int).Abs(bf.c.Big())
			var bound *big.Int
			if f.Kind == FuncMul {
				bf.resScale = inScale + bf.cScale
				bound = new(big.Int).Mul(inMax, cAbs)
			} else {
				bf.resScale = max(inScale, bf.cScale)
				bound = new(big.Int).Mul(inMax, pow10Big(bf.resScale-inScale))
				bound.Add(bound, new(big.Int).Mul(cAbs, pow10Big(bf.resScale-bf.cScale)))
			}
			if bf.resScale > 38 || bound.Cmp(maxDecimal) > 0 {
				return mismatch("%s %s %s could exceed the 38 digits of a decimal; a float constant (such as %s) computes in double precision instead",
					withArticle(col.Kind.String()), f.Kind, f.Const, strconv.FormatFloat(nearestFloat(f.Const), 'e', -1, 64))
			}
		}
		if bf.exact {
			res = &orc.Schema{Kind: orc.Decimal, Precision: 38, Scale: bf.resScale}
		}
	case FuncLength:
		switch col.Kind {
		case orc.String, orc.Varchar, orc.Char, orc.Binary:
		default:
			return mismatch("LENGTH needs a string, varchar, char or binary column, not %s", withArticle(col.Kind.String()))
		}
		res = &orc.Schema{Kind: orc.Long}
		bf.never = "the minimum and maximum of strings bound their order, not their lengths"
	case FuncLower, FuncUpper:
		switch col.Kind {
		case orc.String, orc.Varchar, orc.Char:
		default:
			return mismatch("%s needs a string, varchar or char column, not %s", f.Kind, withArticle(col.Kind.String()))
		}
		res = &orc.Schema{Kind: col.Kind, MaxLength: col.MaxLength}
		bf.never = "byte order is not case order, so the minimum and maximum say nothing of the values' case mappings"
	}
	il := *l
	il.Func = nil
	inner, constant, err := b.bindResolved(&il, res, bl.colID, bl.anc, bl.neg)
	if err != nil {
		if be, ok := err.(*BindError); ok {
			be.Leaf = l.String()
			be.Msg = strings.Replace(be.Msg, il.String(), l.String(), 1)
			be.Column = l.Column
		}
		return nil, 0, err
	}
	if inner == nil {
		return nil, constant, nil
	}
	inner.text = bl.text
	bf.inner = inner
	bl.fn = bf
	bl.op = inner.op
	return bl, 0, nil
}

func pow10Big(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, 0))), nil)
}

// funcSource is a Source whose column colID has the statistics of the
// function's values.
type funcSource struct {
	Source
	colID int
	st    *stats.Column
}

func (s funcSource) Stats(column int) *stats.Column {
	if column == s.colID {
		return s.st
	}
	return s.Source.Stats(column)
}

// Bloom never answers: the filters hold the column's values, not the
// function's.
func (s funcSource) Bloom(int) BloomFilter { return nil }

// evaluateFunc decides a function leaf on one unit.
func (l *boundLeaf) evaluateFunc(src Source) TruthValue {
	v, _ := l.evaluateFuncWhy(src)
	return v
}

// evaluateFuncWhy is evaluateFunc that also says why the interval could
// not be mapped, if it could not.
func (l *boundLeaf) evaluateFuncWhy(src Source) (TruthValue, string) {
	st := src.Stats(l.colID)
	if st == nil || st.Kind != l.col.Kind {
		return YesNoNull, ""
	}
	m := &stats.Column{Kind: l.fn.inner.col.Kind, NumValues: st.NumValues, HasNull: st.HasNull, HasNullKnown: st.HasNullKnown}
	why := l.fn.mapStats(st, m)
	return l.fn.inner.evaluate(funcSource{Source: src, colID: l.colID, st: m}), why
}

// mapStats sets m's minimum and maximum to the image of st's interval
// when the function is proven monotone over it, else returns why not.
func (bf *boundFunc) mapStats(st *stats.Column, m *stats.Column) string {
	if bf.never != "" {
		return bf.never
	}
	switch bf.f.Kind {
	case FuncMonth, FuncDay, FuncHour:
		lo, hi, ok := dayRange(bf.in.Kind, st)
		if !ok {
			return "the column has no minimum and maximum here"
		}
		y1, m1, d1 := civilFromDays(floorDiv(lo.sec, 86400))
		y2, m2, d2 := civilFromDays(floorDiv(hi.sec, 86400))
		var a, b int64
		switch bf.f.Kind {
		case FuncMonth:
			if y1 != y2 {
				return "MONTH is monotone only within one year, and the minimum and maximum lie in different years"
			}
			a, b = m1, m2
		case FuncDay:
			if y1 != y2 || m1 != m2 {
				return "DAY is monotone only within one month, and the minimum and maximum lie in different months"
			}
			a, b = d1, d2
		default:
			if floorDiv(lo.sec, 86400) != floorDiv(hi.sec, 86400) {
				return "HOUR is monotone only within one day, and the minimum and maximum lie on different days"
			}
			a, b = floorMod(lo.sec, 86400)/3600, floorMod(hi.sec, 86400)/3600
		}
		m.Int = &stats.IntStats{Min: a, Max: b, HasMinMax: true}
	case FuncDateTrunc:
		lo, hi, ok := dayRange(bf.in.Kind, st)
		if !ok {
			return "the column has no minimum and maximum here"
		}
		if bf.in.Kind == orc.Date {
			a, b := truncDays(floorDiv(lo.sec, 86400), bf.f.Unit), truncDays(floorDiv(hi.sec, 86400), bf.f.Unit)
			if a < math.MinInt32 || b > math.MaxInt32 {
				return "the truncated dates do not fit in 32 bits"
			}
			m.Date = &stats.DateStats{Min: int32(a), Max: int32(b), HasMinMax: true}
		} else {
			a, b := truncSeconds(lo.sec, bf.f.Unit), truncSeconds(hi.sec, bf.f.Unit)
			m.Timestamp = &stats.TimestampStats{MinSec: a, MaxSec: b, HasMinMax: true}
		}
	case FuncAbs, FuncAdd, FuncSub, FuncMul, FuncDiv:
		return bf.mapArith(st, m)
	}
	return ""
}

// dayRange returns the trusted bounds of a date (as midnights) or
// timestamp column's values.
func dayRange(kind orc.Kind, st *stats.Column) (lo, hi tsVal, ok bool) {
	if kind == orc.Date {
		r := intRange(kind, st)
		if !r.hasLo || !r.hasHi || r.lo > r.hi {
			return lo, hi, false
		}
		return tsVal{r.lo * 86400, 0}, tsVal{r.hi * 86400, 0}, true
	}
	r := timeRange(st)
	if !r.hasLo || !r.hasHi || cmpTS(r.lo, r.hi) > 0 {
		return lo, hi, false
	}
	return r.lo, r.hi, true
}

// mapArith maps the interval through ABS or arithmetic with a constant.
func (bf *boundFunc) mapArith(st *stats.Column, m *stats.Column) string {
	if !bf.exact {
		lo, hi, ok := bf.floatBounds(st)
		if !ok {
			return "the column has no minimum and maximum here (or a NaN)"
		}
		var a, b float64
		if bf.f.Kind == FuncAbs {
			a, b = absRangeF(lo, hi)
		} else {
			a, b = bf.floatOp(lo), bf.floatOp(hi)
			if a > b {
				a, b = b, a // a negative multiplier or divisor reverses the order
			}
		}
		if math.IsNaN(a) || math.IsNaN(b) {
			return "the mapped bounds are NaN"
		}
		m.Double = &stats.DoubleStats{Min: a, Max: b, HasMinMax: true}
		return ""
	}
	lo, hi, ok := exactBounds(bf.in.Kind, st)
	if !ok {
		return "the column has no minimum and maximum here"
	}
	var a, b *big.Rat
	if bf.f.Kind == FuncAbs {
		a, b = absRangeR(lo, hi)
	} else {
		a, b = bf.ratOp(lo), bf.ratOp(hi)
		if a.Cmp(b) > 0 {
			a, b = b, a
		}
	}
	da, ok1 := ratDecimal(a, bf.resScale)
	db, ok2 := ratDecimal(b, bf.resScale)
	if !ok1 || !ok2 {
		return "the mapped bounds do not fit a decimal(38)"
	}
	m.Decimal = &stats.DecimalStats{Min: da, Max: db, HasMinMax: true}
	return ""
}

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

// floatBounds returns the column's trusted bounds as doubles.
func (bf *boundFunc) floatBounds(st *stats.Column) (lo, hi float64, ok bool) {
	switch bf.in.Kind {
	case orc.Float, orc.Double:
		r := floatRange(st)
		if !r.hasLo || !r.hasHi || r.lo > r.hi {
			return 0, 0, false
		}
		return r.lo, r.hi, true
	}
	a, b, ok := exactBounds(bf.in.Kind, st)
	if !ok {
		return 0, 0, false
	}
	x, _ := a.Float64()
	y, _ := b.Float64()
	return x, y, true
}

// exactBounds returns an integer or decimal column's trusted bounds.
func exactBounds(kind orc.Kind, st *stats.Column) (lo, hi *big.Rat, ok bool) {
	if kind == orc.Decimal {
		r := decimalRange(st)
		if !r.hasLo || !r.hasHi || cmpDecimal(r.lo, r.hi) > 0 {
			return nil, nil, false
		}
		return decRat(r.lo), decRat(r.hi), true
	}
	r := intRange(kind, st)
	if !r.hasLo || !r.hasHi || r.lo > r.hi {
		return nil, nil, false
	}
	return new(big.Rat).SetInt64(r.lo), new(big.Rat).SetInt64(r.hi), true
}

func decRat(d stats.DecimalValue) *big.Rat {
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

// ratOp computes x op c exactly (+, -, *).
func (bf *boundFunc) ratOp(x *big.Rat) *big.Rat {
	c := new(big.Rat).SetFrac(bf.c.Big(), pow10Big(bf.cScale))
	switch bf.f.Kind {
	case FuncAdd:
		return c.Add(x, c)
	case FuncSub:
		return c.Sub(x, c)
	}
	return c.Mul(x, c)
}

// floatOp computes x op c in double precision.
func (bf *boundFunc) floatOp(x float64) float64 {
	switch bf.f.Kind {
	case FuncAdd:
		return x + bf.cf
	case FuncSub:
		return x - bf.cf
	case FuncMul:
		return x * bf.cf
	case FuncDiv:
		return x / bf.cf
	case FuncAbs:
		return math.Abs(x)
	}
	return math.NaN()
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

// apply computes the function on the first n rows of v into a new vector
// of the result type; null rows stay null.
func (bf *boundFunc) apply(v orc.Vector, n int, text string) (orc.Vector, error) {
	if v.Len() < n {
		return nil, fmt.Errorf("sarg: %s: the vector has %d rows, need %d", text, v.Len(), n)
	}
	nulls := nullsOf(v)
	if len(nulls) > 0 && len(nulls) < n {
		return nil, fmt.Errorf("sarg: %s: the null mask has %d rows, need %d", text, len(nulls), n)
	}
	isNull := func(i int) bool { return len(nulls) > 0 && nulls[i] }
	var outNulls []bool
	if len(nulls) > 0 {
		outNulls = append([]bool(nil), nulls[:n]...)
	}
	bad := func() (orc.Vector, error) {
		return nil, fmt.Errorf("sarg: %s: column is %s but its vector is %T", text, bf.in.Kind, v)
	}
	// Values of the column, as the kinds below read them.
	var (
		longs []int64
		secs  []int64
		decs  []orc.Int128
		dbls  []float64
		bytes *orc.BytesVector
	)
	switch x := v.(type) {
	case *orc.LongVector:
		longs = x.Values
		if bf.in.Kind == orc.Date {
			secs = make([]int64, n)
			for i := 0; i < n; i++ {
				secs[i] = x.Values[i] * 86400
			}
		}
	case *orc.TimestampVector:
		secs = x.Seconds
	case *orc.DecimalVector:
		if x.Scale != bf.in.Scale {
			return nil, fmt.Errorf("sarg: %s: decimal vector has scale %d, the column %d", text, x.Scale, bf.in.Scale)
		}
		decs = x.Values
	case *orc.DoubleVector:
		dbls = x.Values
	case *orc.BytesVector:
		if len(x.Offsets) < n+1 {
			return nil, fmt.Errorf("sarg: %s: bytes vector has %d offsets, need %d", text, len(x.Offsets), n+1)
		}
		for i := 0; i < n; i++ {
			if x.Offsets[i] < 0 || x.Offsets[i] > x.Offsets[i+1] || x.Offsets[i+1] > len(x.Data) {
				return nil, fmt.Errorf("sarg: %s: bytes vector has bad offsets at row %d", text, i)
			}
		}
		bytes = x
	default:
		return bad()
	}
	switch bf.f.Kind {
	case FuncMonth, FuncDay, FuncHour:
		if secs == nil {
			return bad()
		}
		out := &orc.LongVector{Values: make([]int64, n)}
		out.Nulls.Nulls = outNulls
		for i := 0; i < n; i++ {
			if isNull(i) {
				continue
			}
			_, m, d := civilFromDays(floorDiv(secs[i], 86400))
			switch bf.f.Kind {
			case FuncMonth:
				out.Values[i] = m
			case FuncDay:
				out.Values[i] = d
			default:
				out.Values[i] = floorMod(secs[i], 86400) / 3600
			}
		}
		return out, nil
	case FuncDateTrunc:
		if secs == nil {
			return bad()
		}
		if bf.in.Kind == orc.Date {
			out := &orc.LongVector{Values: make([]int64, n)}
			out.Nulls.Nulls = outNulls
			for i := 0; i < n; i++ {
				if !isNull(i) {
					out.Values[i] = truncDays(longs[i], bf.f.Unit)
				}
			}
			return out, nil
		}
		out := &orc.TimestampVector{Seconds: make([]int64, n), Nanos: make([]int32, n)}
		out.Nulls.Nulls = outNulls
		for i := 0; i < n; i++ {
			if !isNull(i) {
				out.Seconds[i] = truncSeconds(secs[i], bf.f.Unit)
			}
		}
		return out, nil
	case FuncLength:
		if bytes == nil {
			return bad()
		}
		out := &orc.LongVector{Values: make([]int64, n)}
		out.Nulls.Nulls = outNulls
		for i := 0; i < n; i++ {
			if !isNull(i) {
				out.Values[i] = bf.length(bytes.Data[bytes.Offsets[i]:bytes.Offsets[i+1]])
			}
		}
		return out, nil
	case FuncLower, FuncUpper:
		if bytes == nil {
			return bad()
		}
		out := &orc.BytesVector{Offsets: make([]int, 1, n+1)}
		for i := 0; i < n; i++ {
			if !isNull(i) {
				out.Data = mapCase(out.Data, bytes.Data[bytes.Offsets[i]:bytes.Offsets[i+1]], bf.f.Kind == FuncUpper)
			}
			out.Offsets = append(out.Offsets, len(out.Data))
		}
		out.Nulls.Nulls = outNulls
		return out, nil
	}
	// ABS and arithmetic.
	if !bf.exact {
		out := &orc.DoubleVector{Values: make([]float64, n)}
		out.Nulls.Nulls = outNulls
		for i := 0; i < n; i++ {
			if isNull(i) {
				continue
			}
			var x float64
			switch {
			case dbls != nil:
				x = dbls[i]
			case longs != nil:
				x = float64(longs[i])
			case decs != nil:
				f, err := strconv.ParseFloat(orc.FormatDecimal(decs[i], bf.in.Scale), 64)
				if err != nil && !math.IsInf(f, 0) {
					return nil, fmt.Errorf("sarg: %s: decimal %s as a double: %v", text, orc.FormatDecimal(decs[i], bf.in.Scale), err)
				}
				x = f
			default:
				return bad()
			}
			out.Values[i] = bf.floatOp(x)
		}
		return out, nil
	}
	out := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: bf.resScale}
	out.Nulls.Nulls = outNulls
	inScale := 0
	if bf.in.Kind == orc.Decimal {
		inScale = bf.in.Scale
	}
	c := bf.c
	if bf.f.Kind == FuncAdd || bf.f.Kind == FuncSub {
		var ok bool
		if c, _, ok = orc.Rescale(bf.c, bf.cScale, bf.resScale); !ok {
			return nil, fmt.Errorf("sarg: %s: the constant overflows at scale %d", text, bf.resScale)
		}
		if bf.f.Kind == FuncSub {
			c = c.Neg()
		}
	}
	for i := 0; i < n; i++ {
		if isNull(i) {
			continue
		}
		var x orc.Int128
		switch {
		case longs != nil:
			x = orc.Int128FromInt64(longs[i])
		case decs != nil:
			x = decs[i]
		default:
			return bad()
		}
		var r orc.Int128
		overflow := false
		switch bf.f.Kind {
		case FuncAbs:
			r = x
			if x.Sign() < 0 {
				r = x.Neg()
			}
		case FuncMul:
			r, overflow = mul128(x, c)
		default:
			var ok bool
			if x, _, ok = orc.Rescale(x, inScale, bf.resScale); !ok {
				overflow = true
				break
			}
			r, overflow = x.Add(c)
		}
		if overflow {
			// Bind proved this cannot happen for values of the column's type.
			return nil, fmt.Errorf("sarg: %s: row %d overflows a decimal(38, %d)", text, i, bf.resScale)
		}
		out.Values[i] = r
	}
	return out, nil
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

// length counts a value's characters: UTF-8 sequences on string kinds (an
// invalid byte counts as one, char's trailing spaces not at all), bytes on
// binary.
func (bf *boundFunc) length(b []byte) int64 {
	switch bf.in.Kind {
	case orc.Binary:
		return int64(len(b))
	case orc.Char:
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	return int64(utf8.RuneCount(b))
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

// plain computes the function on one EvalRow value, plainly: calendars
// through package time, arithmetic with exact rationals. It returns the
// value in EvalRow's type for the result kind.
func (bf *boundFunc) plain(v any) (any, error) {
	wrong := func() (any, error) {
		return nil, fmt.Errorf("sarg: value %v (%T) for %s of %s column", v, v, bf.f.Kind, bf.in.Kind)
	}
	var t time.Time
	switch bf.in.Kind {
	case orc.Date:
		d, ok := v.(int64)
		if !ok {
			return wrong()
		}
		t = time.Unix(d*86400, 0).UTC()
	case orc.Timestamp:
		tv, ok := v.(TimestampValue)
		if !ok {
			return wrong()
		}
		t = time.Unix(tv.Sec, 0).UTC()
	}
	switch bf.f.Kind {
	case FuncMonth:
		return int64(t.Month()), nil
	case FuncDay:
		return int64(t.Day()), nil
	case FuncHour:
		return int64(t.Hour()), nil
	case FuncDateTrunc:
		y, m, d := t.Date()
		var u time.Time
		switch bf.f.Unit {
		case "year":
			u = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		case "quarter":
			u = time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
		case "month":
			u = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
		case "week":
			u = time.Date(y, m, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
		case "day":
			u = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		case "hour":
			u = time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC)
		case "minute":
			u = time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, time.UTC)
		default:
			u = t
		}
		if bf.in.Kind == orc.Date {
			return u.Unix() / 86400, nil
		}
		return TimestampValue{Sec: u.Unix()}, nil
	case FuncLength, FuncLower, FuncUpper:
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case []byte:
			s = string(x)
		default:
			return wrong()
		}
		switch bf.f.Kind {
		case FuncLength:
			if bf.in.Kind == orc.Binary {
				return int64(len(s)), nil
			}
			if bf.in.Kind == orc.Char {
				s = strings.TrimRight(s, " ")
			}
			return int64(utf8.RuneCountInString(s)), nil
		case FuncLower:
			return string(mapCase(nil, []byte(s), false)), nil
		}
		return string(mapCase(nil, []byte(s), true)), nil
	}
	// ABS and arithmetic.
	var x *big.Rat
	switch t := v.(type) {
	case int64:
		x = new(big.Rat).SetInt64(t)
	case stats.DecimalValue:
		x = decRat(t)
	case float64:
		if bf.exact {
			return wrong()
		}
		if bf.f.Kind == FuncAbs {
			return math.Abs(t), nil
		}
		return bf.floatOp(t), nil
	default:
		return wrong()
	}
	if !bf.exact {
		f, _ := x.Float64()
		return bf.floatOp(f), nil
	}
	var r *big.Rat
	if bf.f.Kind == FuncAbs {
		r = new(big.Rat).Abs(x)
	} else {
		r = bf.ratOp(x)
	}
	d, ok := ratDecimal(r, bf.resScale)
	if !ok {
		return nil, fmt.Errorf("sarg: %s of %v does not fit a decimal(38, %d)", bf.f.Kind, v, bf.resScale)
	}
	return d, nil
}
