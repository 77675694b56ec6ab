package sarg

// Comparisons of two columns: a < b, a <= b, a = b, a <=> b (and through
// NOT a > b, a >= b, a <> b; a BETWEEN b AND c is b <= a AND a <= c).
//
// Both columns must be of one type family: integers (tinyint..bigint),
// floats (float, double), decimals (any precision and scale), dates,
// timestamps, timestamps with local time zone, strings (string and
// varchar; char only with char of the same length), binary, or booleans;
// or one an integer and the other a decimal, compared by value exactly as
// SQL compares numbers (the integer read as a decimal of scale 0).
// Values compare as they do with literals: numbers by value, floats in the
// order of cmpFloat (NaN above every number, -0.0 = +0.0), strings
// bytewise.
//
// Pruning (spec.md 7.16): the statistics of the two columns over the same
// unit bound each column's non-null values, lo(a) <= a <= hi(a) and
// lo(b) <= b <= hi(b). a < b is impossible on every row where both are
// non-null when lo(a) >= hi(b), and certain when hi(a) < lo(b); similarly
// for the other operators. Rows where either side is null give NULL (or,
// for <=>, TRUE when both are null and FALSE when one is). The two
// columns' values are not paired by the statistics, so nothing finer is
// claimed.

import (
	"fmt"
	"math/big"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

func colLeaf(op LeafOp, a, b string) Expr {
	return Expr{Op: OpLeaf, Leaf: &Leaf{Op: op, Column: a, Other: b}}
}

// EqCol returns a = b for two columns a and b.
func EqCol(a, b string) Expr { return colLeaf(LeafEquals, a, b) }

// NeCol returns a <> b, that is NOT (a = b).
func NeCol(a, b string) Expr { return Not(EqCol(a, b)) }

// NullSafeEqCol returns a <=> b: TRUE when both are null or both equal,
// otherwise FALSE (never NULL).
func NullSafeEqCol(a, b string) Expr { return colLeaf(LeafNullSafeEquals, a, b) }

// LtCol returns a < b for two columns a and b, of one type family
// (integers, floats, decimals, dates, timestamps, strings, ...), or an
// integer and a decimal, which compare by value exactly.
func LtCol(a, b string) Expr { return colLeaf(LeafLessThan, a, b) }

// LeCol returns a <= b.
func LeCol(a, b string) Expr { return colLeaf(LeafLessThanEquals, a, b) }

// GtCol returns a > b, that is NOT (a <= b).
func GtCol(a, b string) Expr { return Not(LeCol(a, b)) }

// GeCol returns a >= b, that is NOT (a < b).
func GeCol(a, b string) Expr { return Not(LtCol(a, b)) }

// family names the type family of a kind for column comparisons; kinds of
// one family compare with each other.
func family(s *orc.Schema) string {
	switch s.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		return "integer"
	case orc.Float, orc.Double:
		return "floating-point"
	case orc.String, orc.Varchar:
		return "string"
	case orc.Char:
		return fmt.Sprintf("char(%d)", s.MaxLength)
	case orc.Decimal:
		return "decimal"
	}
	return s.Kind.String()
}

// numericPair reports whether families fa and fb are integers and
// decimals, which compare by value, exactly, as SQL compares numbers.
func numericPair(fa, fb string) bool {
	return fa == "integer" && fb == "decimal" || fa == "decimal" && fb == "integer"
}

// mixedNumbers reports whether a comparison of two columns compares an
// integer column with a decimal one: both sides are then read as decimals
// (an integer of scale 0).
func (l *boundLeaf) mixedNumbers() bool {
	return l.col2 != nil && family(l.col) != family(l.col2)
}

// numRange is a column's statistics as a range of decimals, for an
// integer or a decimal column.
func numRange(kind orc.Kind, st *stats.Column) rng[stats.DecimalValue] {
	if kind == orc.Decimal {
		return decimalRange(st)
	}
	ir := intRange(kind, st)
	r := rng[stats.DecimalValue]{cmp: cmpDecimal, hasLo: ir.hasLo, hasHi: ir.hasHi}
	r.lo = stats.DecimalValue{Unscaled: orc.Int128FromInt64(ir.lo)}
	r.hi = stats.DecimalValue{Unscaled: orc.Int128FromInt64(ir.hi)}
	return r
}

// bindCols binds a comparison of two columns.
func (b *Bound) bindCols(bl *boundLeaf, l *Leaf) error {
	col2, anc2, err := b.resolve(l.Other)
	if err != nil {
		return err
	}
	bl.col2, bl.col2ID, bl.anc2 = col2, col2.ID(), anc2
	mismatch := func(why string) error {
		return &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch, Msg: fmt.Sprintf("sarg: %s: %s", l, why)}
	}
	if bl.dom == domNone || domainOf(col2.Kind) == domNone {
		return mismatch("only primitive columns can be compared with each other")
	}
	if fa, fb := family(bl.col), family(col2); fa != fb && !numericPair(fa, fb) {
		return mismatch(fmt.Sprintf("%s column %s and %s column %s are of different families (%s, %s); compare columns of one family",
			withArticle(bl.col.Kind.String()), canonicalColumn(l.Column), withArticle(col2.Kind.String()), canonicalColumn(l.Other), fa, fb))
	}
	if col2.Kind == orc.Decimal {
		bl.scale2 = col2.Scale
	}
	return nil
}

// unitNulls returns a column's statistics in a unit and whether nulls are
// possible (the column's own, or a null struct above it); ok is false when
// the statistics can't be used.
func unitNulls(src Source, id int, kind orc.Kind, anc []int) (st *stats.Column, hasNull, ok bool) {
	st = src.Stats(id)
	if st == nil || st.Kind != kind || !st.HasNullKnown && st.NumValues == 0 {
		return nil, false, false
	}
	hasNull = st.HasNull || !st.HasNullKnown
	for _, a := range anc {
		as := src.Stats(a)
		if as == nil || as.HasNull || !as.HasNullKnown {
			return st, true, true
		}
	}
	return st, hasNull, true
}

// evaluateCols decides a comparison of two columns on one unit.
func (l *boundLeaf) evaluateCols(src Source) TruthValue {
	st1, null1, ok1 := unitNulls(src, l.colID, l.col.Kind, l.anc)
	st2, null2, ok2 := unitNulls(src, l.col2ID, l.col2.Kind, l.anc2)
	if !ok1 || !ok2 {
		return YesNoNull
	}
	if st1.NumValues == 0 && !null1 || st2.NumValues == 0 && !null2 {
		return No // no rows at this level
	}
	if l.colID == l.col2ID {
		return l.selfOutcome(st1.NumValues > 0, null1)
	}
	var v TruthValue
	if st1.NumValues > 0 && st2.NumValues > 0 {
		t, f := l.colsRangeOutcome(st1, st2)
		if t {
			v |= setTrue
		}
		if f {
			v |= setFalse
		}
	}
	if null1 || null2 {
		if l.op == LeafNullSafeEquals {
			v |= setFalse // one side null
			if null1 && null2 {
				v |= setTrue // both null
			}
		} else {
			v |= setNull
		}
	}
	if v == 0 {
		return YesNoNull // cannot happen with consistent statistics
	}
	return v
}

// selfOutcome decides a comparison of a column with itself, which compares
// each row's value with itself: a non-null value (NaN too, which the
// evaluation orders equal to itself) is equal to, and not less than,
// itself; a null gives NULL, or TRUE for <=>, whose sides are null
// together. values and nulls say whether the unit may hold either.
func (l *boundLeaf) selfOutcome(values, nulls bool) TruthValue {
	var v TruthValue
	if values {
		if l.op == LeafLessThan {
			v |= setFalse
		} else {
			v |= setTrue
		}
	}
	if nulls {
		if l.op == LeafNullSafeEquals {
			v |= setTrue
		} else {
			v |= setNull
		}
	}
	return v
}

func (l *boundLeaf) colsRangeOutcome(st1, st2 *stats.Column) (t, f bool) {
	if l.mixedNumbers() {
		r1, r2 := numRange(l.col.Kind, st1), numRange(l.col2.Kind, st2)
		return colsOutcome(&r1, &r2, l.op)
	}
	switch l.dom {
	case domInt:
		r1, r2 := intRange(l.col.Kind, st1), intRange(l.col2.Kind, st2)
		return colsOutcome(&r1, &r2, l.op)
	case domBool:
		r1, r2 := boolRange(st1), boolRange(st2)
		return colsOutcome(&r1, &r2, l.op)
	case domFloat:
		r1, r2 := floatRange(st1), floatRange(st2)
		return colsOutcome(&r1, &r2, l.op)
	case domBytes:
		r1, r2 := stringRange(l.col.Kind, st1), stringRange(l.col2.Kind, st2)
		return colsOutcome(&r1, &r2, l.op)
	case domDecimal:
		r1, r2 := decimalRange(st1), decimalRange(st2)
		return colsOutcome(&r1, &r2, l.op)
	case domTime:
		r1, r2 := timeRange(st1), timeRange(st2)
		return colsOutcome(&r1, &r2, l.op)
	}
	return true, true
}

// colsOutcome returns whether a op b may be TRUE (t) and may be FALSE (f)
// for some a in ra and b in rb, both non-null. Open ends only make the
// claims below more cautious than they could be.
func colsOutcome[T any](ra, rb *rng[T], op LeafOp) (t, f bool) {
	if ra.hasLo && ra.hasHi && ra.cmp(ra.lo, ra.hi) > 0 || rb.hasLo && rb.hasHi && rb.cmp(rb.lo, rb.hi) > 0 {
		return true, true // inverted bounds: don't trust them
	}
	// ge(x, y): every value of x's range >= every value of y's, and so on.
	allGE := func(x, y *rng[T]) bool { return x.hasLo && y.hasHi && x.cmp(x.lo, y.hi) >= 0 }
	allGT := func(x, y *rng[T]) bool { return x.hasLo && y.hasHi && x.cmp(x.lo, y.hi) > 0 }
	switch op {
	case LeafLessThan:
		// a < b is impossible when a >= b throughout, certain when b > a throughout.
		return !allGE(ra, rb), !allGT(rb, ra)
	case LeafLessThanEquals:
		return !allGT(ra, rb), !allGE(rb, ra)
	case LeafEquals, LeafNullSafeEquals:
		t = !allGT(ra, rb) && !allGT(rb, ra)
		f = !(ra.single() && rb.single() && ra.cmp(ra.lo, rb.lo) == 0)
		return t, f
	}
	return true, true
}

// matchCols evaluates a comparison of two columns on the first n rows.
func (l *boundLeaf) matchCols(va, vb orc.Vector, n int, out []uint8) error {
	for _, v := range [2]orc.Vector{va, vb} {
		if v.Len() < n {
			return fmt.Errorf("sarg: a vector of %s has %d rows, need %d", l.text, v.Len(), n)
		}
		if nulls := nullsOf(v); len(nulls) > 0 && len(nulls) < n {
			return fmt.Errorf("sarg: a null mask of %s has %d rows, need %d", l.text, len(nulls), n)
		}
	}
	cmp, err := l.colsCmp(va, vb, n)
	if err != nil {
		return err
	}
	na, nb := nullsOf(va), nullsOf(vb)
	for i := 0; i < n; i++ {
		an, bn := len(na) > 0 && na[i], len(nb) > 0 && nb[i]
		switch {
		case an || bn:
			switch {
			case l.op != LeafNullSafeEquals:
				out[i] = rowNull
			case an && bn:
				out[i] = rowTrue
			default:
				out[i] = rowFalse
			}
			continue
		}
		c := cmp(i)
		switch l.op {
		case LeafLessThan:
			out[i] = t2(c < 0)
		case LeafLessThanEquals:
			out[i] = t2(c <= 0)
		default:
			out[i] = t2(c == 0)
		}
	}
	return nil
}

// bothAs returns a and b as values of type T, ok false unless both are.
func bothAs[T any](a, b any) (x, y T, ok bool) {
	x, ok1 := a.(T)
	y, ok2 := b.(T)
	return x, y, ok1 && ok2
}

// colsCmp returns the comparison of row i of va with row i of vb, after
// checking the vectors fit the columns.
func (l *boundLeaf) colsCmp(va, vb orc.Vector, n int) (func(i int) int, error) {
	bad := func() error {
		return fmt.Errorf("sarg: %s: vectors %T and %T do not fit columns of kinds %s and %s", l.text, va, vb, l.col.Kind, l.col2.Kind)
	}
	if l.mixedNumbers() {
		x, err := decimalsOf(va, l.col, l.scale)
		if err != nil {
			return nil, bad()
		}
		y, err := decimalsOf(vb, l.col2, l.scale2)
		if err != nil {
			return nil, bad()
		}
		return func(i int) int { return cmpDecimal(x(i), y(i)) }, nil
	}
	var cmp func(i int) int
	switch l.dom {
	case domInt, domBool:
		x, y, ok := bothAs[*orc.LongVector](va, vb)
		if !ok {
			return nil, bad()
		}
		cmp = func(i int) int { return cmpOrdered(x.Values[i], y.Values[i]) }
	case domFloat:
		x, y, ok := bothAs[*orc.DoubleVector](va, vb)
		if !ok {
			return nil, bad()
		}
		cmp = func(i int) int { return cmpFloat(x.Values[i], y.Values[i]) }
	case domBytes:
		x, y, ok := bothAs[*orc.BytesVector](va, vb)
		if !ok {
			return nil, bad()
		}
		for _, v := range [2]*orc.BytesVector{x, y} {
			if err := checkOffsets(v, n); err != nil {
				return nil, fmt.Errorf("sarg: %s: %v", l.text, err)
			}
		}
		cmp = func(i int) int {
			return cmpOrdered(string(x.Data[x.Offsets[i]:x.Offsets[i+1]]), string(y.Data[y.Offsets[i]:y.Offsets[i+1]]))
		}
	case domDecimal:
		x, y, ok := bothAs[*orc.DecimalVector](va, vb)
		if !ok {
			return nil, bad()
		}
		if x.Scale != l.scale || y.Scale != l.scale2 {
			return nil, fmt.Errorf("sarg: %s: decimal vectors have scales %d and %d, the columns %d and %d", l.text, x.Scale, y.Scale, l.scale, l.scale2)
		}
		if l.scale == l.scale2 {
			cmp = func(i int) int { return x.Values[i].Cmp(y.Values[i]) }
		} else {
			cmp = func(i int) int {
				return cmpDecimal(stats.DecimalValue{Unscaled: x.Values[i], Scale: l.scale}, stats.DecimalValue{Unscaled: y.Values[i], Scale: l.scale2})
			}
		}
	case domTime:
		x, y, ok := bothAs[*orc.TimestampVector](va, vb)
		if !ok {
			return nil, bad()
		}
		if len(x.Nanos) < n || len(y.Nanos) < n {
			return nil, fmt.Errorf("sarg: a timestamp vector of %s lacks nanoseconds", l.text)
		}
		cmp = func(i int) int { return cmpTS(tsVal{x.Seconds[i], x.Nanos[i]}, tsVal{y.Seconds[i], y.Nanos[i]}) }
	default:
		return nil, bad()
	}
	return cmp, nil
}

// decimalsOf returns row i of an integer or decimal vector v of column c
// as a decimal; scale is the decimal column's.
func decimalsOf(v orc.Vector, c *orc.Schema, scale int) (func(i int) stats.DecimalValue, error) {
	switch x := v.(type) {
	case *orc.LongVector:
		return func(i int) stats.DecimalValue { return stats.DecimalValue{Unscaled: orc.Int128FromInt64(x.Values[i])} }, nil
	case *orc.DecimalVector:
		if x.Scale != scale {
			return nil, fmt.Errorf("decimal vector of scale %d for %s", x.Scale, c)
		}
		return func(i int) stats.DecimalValue { return stats.DecimalValue{Unscaled: x.Values[i], Scale: scale} }, nil
	}
	return nil, fmt.Errorf("%T for %s", v, c)
}

// evalPlainCols evaluates a comparison of two columns on one row, plainly:
// numbers as exact rationals, floats in cmpFloat's order, the rest by
// their natural order.
func (l *boundLeaf) evalPlainCols(a, b any) (uint8, error) {
	if a == nil || b == nil {
		if l.orig.Op != LeafNullSafeEquals {
			return rowNull, nil
		}
		return t2(a == nil && b == nil), nil
	}
	c, err := plainCmpValues(l.col.Kind, a, b)
	if err != nil {
		return 0, fmt.Errorf("sarg: %s: %v", l.text, err)
	}
	switch l.orig.Op {
	case LeafLessThan:
		return t2(c < 0), nil
	case LeafLessThanEquals:
		return t2(c <= 0), nil
	}
	return t2(c == 0), nil
}

// plainCmpValues compares two EvalRow values of one family.
func plainCmpValues(kind orc.Kind, a, b any) (int, error) {
	switch kind {
	case orc.Float, orc.Double:
		if x, y, ok := bothAs[float64](a, b); ok {
			return cmpFloat(x, y), nil
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Decimal:
		rat := func(v any) (*big.Rat, bool) {
			switch t := v.(type) {
			case int64:
				return new(big.Rat).SetInt64(t), true
			case stats.DecimalValue:
				den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)
				return new(big.Rat).SetFrac(t.Unscaled.Big(), den), true
			}
			return nil, false
		}
		x, ok1 := rat(a)
		y, ok2 := rat(b)
		if ok1 && ok2 {
			return x.Cmp(y), nil
		}
	case orc.Boolean:
		if x, y, ok := bothAs[bool](a, b); ok {
			return cmpOrdered(b2i(x), b2i(y)), nil // false < true
		}
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		x, ok1 := textOf(a)
		y, ok2 := textOf(b)
		if ok1 && ok2 {
			return cmpOrdered(x, y), nil
		}
	case orc.Date:
		if x, y, ok := bothAs[int64](a, b); ok {
			return cmpOrdered(x, y), nil
		}
	case orc.Timestamp, orc.TimestampInstant:
		if x, y, ok := bothAs[TimestampValue](a, b); ok {
			return cmpTS(tsVal{x.Sec, x.Nanos}, tsVal{y.Sec, y.Nanos}), nil
		}
	}
	return 0, fmt.Errorf("values %v (%T) and %v (%T) for %s columns", a, a, b, b, kind)
}
