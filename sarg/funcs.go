package sarg

// Functions of a column that the parser rewrites into ranges of the column:
// YEAR(x) and CAST(x AS DATE) on date and timestamp columns. Both are
// monotone and map each value v of the function to one interval of the
// column, [lo(v), lo(next v)): YEAR(x) = 1995 is x >= DATE '1995-01-01'
// AND x < DATE '1996-01-01', CAST(x AS DATE) = D is x >= D AND x < D + 1.
// The rewrite holds row by row in three-valued logic (NULL stays NULL), so
// the leaves it makes prune as the equivalent range does and filter
// exactly; on a timestamp column the dates are midnights of the wall clock
// (spec.md 7.5), on a timestamp with local time zone column they are
// refused at bind time, as a DATE literal is there.

import "fmt"

// maxYear bounds the years YEAR(x) is compared with: their dates must be
// days that fit in 32 bits.
const maxYear = 1_000_000

// bucketFunc is a monotone function whose values are consecutive
// intervals of the column: lo(v) is the first date of value v.
type bucketFunc struct {
	name string
	lo   func(v int64) Literal
	// value converts a literal to the function's domain, or says why not.
	value func(l Literal) (int64, string)
}

var (
	yearFunc = bucketFunc{
		name: "YEAR",
		lo:   func(y int64) Literal { return DateOf(int(y), 1, 1) },
		value: func(l Literal) (int64, string) {
			if l.kind != IntLit {
				return 0, fmt.Sprintf("YEAR(...) is compared with integers, not %s literal", withArticle(l.kind.String()))
			}
			if l.i < -maxYear || l.i > maxYear {
				return 0, fmt.Sprintf("year %d is outside -%d..%d", l.i, maxYear, maxYear)
			}
			return l.i, ""
		},
	}
	castDateFunc = bucketFunc{
		name: "CAST(... AS DATE)",
		lo:   func(d int64) Literal { return Literal{kind: DateLit, i: d} },
		value: func(l Literal) (int64, string) {
			if l.kind == StringLit {
				if d, ok := parseDate(l.s); ok {
					return d, ""
				}
			}
			if l.kind != DateLit {
				return 0, fmt.Sprintf("CAST(... AS DATE) is compared with dates, not %s literal", withArticle(l.kind.String()))
			}
			return l.i, ""
		},
	}
)

// rewriteBucket rewrites a comparison parsed on the column as if it were
// the function's value (leaves, NOT, AND as parseComparison makes them)
// into leaves on the column itself.
func rewriteBucket(fn bucketFunc, e Expr) (Expr, string) {
	switch e.Op {
	case OpNot:
		k, why := rewriteBucket(fn, e.Children[0])
		return Not(k), why
	case OpAnd, OpOr:
		kids := make([]Expr, len(e.Children))
		for i, c := range e.Children {
			k, why := rewriteBucket(fn, c)
			if why != "" {
				return e, why
			}
			kids[i] = k
		}
		if e.Op == OpAnd {
			return And(kids...), ""
		}
		return Or(kids...), ""
	case OpLeaf:
	default:
		return e, ""
	}
	l := e.Leaf
	col := l.Column
	if l.Other != "" {
		return e, fmt.Sprintf("%s can only be compared with literals", fn.name)
	}
	if l.Op == LeafIsNull {
		return e, "" // the function is NULL exactly where the column is
	}
	if l.Op == LeafLike {
		return e, fmt.Sprintf("%s is not a string", fn.name)
	}
	vals := make([]int64, len(l.Literals))
	for i, lit := range l.Literals {
		if lit.IsNull() {
			continue
		}
		v, why := fn.value(lit)
		if why != "" {
			return e, why
		}
		if v <= -(1<<31)+1 || v >= 1<<31-2 {
			return e, fmt.Sprintf("%s value %d is out of range", fn.name, v)
		}
		vals[i] = v
	}
	in := func(v int64) Expr { return And(Ge(col, fn.lo(v)), Lt(col, fn.lo(v+1))) }
	switch l.Op {
	case LeafEquals:
		return in(vals[0]), ""
	case LeafNullSafeEquals:
		if l.Literals[0].IsNull() {
			return IsNull(col), ""
		}
		// Never NULL, as <=> is.
		return And(IsNotNull(col), Ge(col, fn.lo(vals[0])), Lt(col, fn.lo(vals[0]+1))), ""
	case LeafLessThan:
		return Lt(col, fn.lo(vals[0])), ""
	case LeafLessThanEquals:
		return Lt(col, fn.lo(vals[0]+1)), ""
	case LeafBetween:
		return And(Ge(col, fn.lo(vals[0])), Lt(col, fn.lo(vals[1]+1))), ""
	case LeafIn:
		var alts []Expr
		for i, lit := range l.Literals {
			if lit.IsNull() {
				alts = append(alts, NullExpr()) // no match is NULL, not FALSE
			} else {
				alts = append(alts, in(vals[i]))
			}
		}
		return Or(alts...), ""
	}
	return e, fmt.Sprintf("%s cannot be used with %s", fn.name, l.Op)
}
