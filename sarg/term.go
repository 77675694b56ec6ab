package sarg

// Terms: value expressions over columns, literals, functions and
// arithmetic (spec.md 7.18). A predicate compares terms; whatever the
// forms of 7.17 cover is bound as those forms, and everything else as a
// term leaf: a leaf whose Func is FuncTerm, holding the term it compares
// (x - y > 0) or, for a comparison of two terms (YEAR(a) = YEAR(b)), the
// boolean term itself compared with TRUE.

import (
	"strings"
)

// Term is a value expression: a column, a literal, or a function or
// operator applied to terms. Build one with ColTerm, LitTerm and Call, or
// with Parse.
type Term struct {
	// Fn is the function or operator, upper case: "+", "-", "*", "/",
	// "%", "NEG" (unary minus), "||", "=", "<", "<=", "<=>" (boolean
	// comparisons), "ABS", "YEAR", "QUARTER", "MONTH", "DAY", "HOUR",
	// "MINUTE", "SECOND", "DAYOFWEEK", "DATE_TRUNC", "LENGTH", "LOWER",
	// "UPPER", "SUBSTR", "TRIM", "COALESCE", "CAST", "REGEXP_LIKE"; "" for a
	// column or a literal.
	Fn string
	// Column names the column of a column term (Fn == ""), as Leaf.Column.
	Column string
	// Lit is the value of a literal term (Fn == "" and Column == "").
	Lit Literal
	// Param is CAST's target type ("bigint", "decimal(10,2)", "date", ...)
	// and DATE_TRUNC's unit ("month").
	Param string
	// Args are the function's arguments.
	Args []Term
}

// ColTerm returns the term reading a column.
func ColTerm(col string) Term { return Term{Column: col} }

// LitTerm returns a literal term.
func LitTerm(l Literal) Term { return Term{Lit: l} }

// Call returns fn applied to args: Call("-", ColTerm("x"), ColTerm("y")) is
// x - y. Function names are case-insensitive.
func Call(fn string, args ...Term) Term {
	return Term{Fn: strings.ToUpper(fn), Args: append([]Term(nil), args...)}
}

// CastTerm returns CAST(t AS typ).
func CastTerm(t Term, typ string) Term {
	return Term{Fn: "CAST", Param: strings.ToLower(typ), Args: []Term{t}}
}

// TruncTerm returns DATE_TRUNC(unit, t).
func TruncTerm(unit string, t Term) Term {
	return Term{Fn: "DATE_TRUNC", Param: strings.ToLower(unit), Args: []Term{t}}
}

func (t Term) isColumn() bool  { return t.Fn == "" && t.Column != "" }
func (t Term) isLiteral() bool { return t.Fn == "" && t.Column == "" }

// Equal reports whether two terms are the same tree.
func (t Term) Equal(o Term) bool {
	if t.Fn != o.Fn || !strings.EqualFold(t.Param, o.Param) || len(t.Args) != len(o.Args) {
		return false
	}
	if t.Fn == "" {
		if t.Column != "" || o.Column != "" {
			return canonicalColumn(t.Column) == canonicalColumn(o.Column)
		}
		return t.Lit.Equal(o.Lit)
	}
	for i := range t.Args {
		if !t.Args[i].Equal(o.Args[i]) {
			return false
		}
	}
	return true
}

// columns appends the columns t reads, in order of appearance.
func (t Term) columns(dst []string) []string {
	if t.isColumn() {
		return append(dst, t.Column)
	}
	for _, a := range t.Args {
		dst = a.columns(dst)
	}
	return dst
}

// mapColumns returns t with every column name passed through f.
func (t Term) mapColumns(f func(string) string) Term {
	if t.isColumn() {
		t.Column = f(t.Column)
		return t
	}
	if len(t.Args) == 0 {
		return t
	}
	args := make([]Term, len(t.Args))
	for i, a := range t.Args {
		args[i] = a.mapColumns(f)
	}
	t.Args = args
	return t
}

// Binary operators and their precedence in the text form (higher binds
// tighter); comparisons bind loosest.
var termInfix = map[string]int{"=": 1, "<": 1, "<=": 1, "<=>": 1, "||": 2, "+": 3, "-": 3, "*": 4, "/": 4, "%": 4}

const negPrec = 5

func (t Term) prec() int {
	if p, ok := termInfix[t.Fn]; ok && len(t.Args) == 2 {
		return p
	}
	if t.Fn == "NEG" {
		return negPrec
	}
	if t.isLiteral() && constSign(t.Lit) < 0 {
		return negPrec // -3 reads as NEG over 3 next to a tighter operator
	}
	return 9
}

// String returns the term in Parse's text form.
func (t Term) String() string { return string(t.appendText(nil)) }

func (t Term) appendText(b []byte) []byte {
	switch {
	case t.isColumn():
		return append(b, canonicalColumn(t.Column)...)
	case t.isLiteral():
		return t.Lit.appendText(b)
	}
	if p, ok := termInfix[t.Fn]; ok && len(t.Args) == 2 {
		b = t.Args[0].appendArg(b, p, false)
		b = append(b, ' ')
		b = append(b, t.Fn...)
		b = append(b, ' ')
		return t.Args[1].appendArg(b, p, true)
	}
	switch t.Fn {
	case "NEG":
		if len(t.Args) == 1 {
			b = append(b, '-')
			if t.Args[0].isLiteral() {
				// -(3): -3 would read back as the literal -3.
				b = append(b, '(')
				b = t.Args[0].appendText(b)
				return append(b, ')')
			}
			return t.Args[0].appendArg(b, negPrec, true)
		}
	case "CAST":
		if len(t.Args) == 1 {
			b = append(b, "CAST("...)
			b = t.Args[0].appendText(b)
			b = append(b, " AS "...)
			b = append(b, strings.ToUpper(t.Param)...)
			return append(b, ')')
		}
	case "DATE_TRUNC":
		b = append(b, "DATE_TRUNC("...)
		b = appendQuoted(b, strings.ToLower(t.Param))
		for _, a := range t.Args {
			b = append(b, ", "...)
			b = a.appendText(b)
		}
		return append(b, ')')
	}
	b = append(b, t.Fn...)
	b = append(b, '(')
	for i, a := range t.Args {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = a.appendText(b)
	}
	return append(b, ')')
}

// appendArg writes an operand of an operator of precedence p, in
// parentheses when it binds looser (or as loose, on the right: operators
// are left-associative).
func (t Term) appendArg(b []byte, p int, right bool) []byte {
	q := t.prec()
	if q < p || right && q == p || q == p && (p == 1 || p == negPrec) {
		b = append(b, '(')
		b = t.appendText(b)
		return append(b, ')')
	}
	return t.appendText(b)
}

// TermLeaf returns the leaf comparing term t with literals, as op and lits
// say (Eq, Lt, In, ... on a column do for a column): x - y > 0 is
// Not(TermLeaf(LeafLessThanEquals, x - y, Int(0))).
func TermLeaf(op LeafOp, t Term, lits ...Literal) Expr {
	cols := t.columns(nil)
	col := ""
	if len(cols) > 0 {
		col = cols[0]
	}
	tc := t
	return Expr{Op: OpLeaf, Leaf: &Leaf{Op: op, Column: col, Literals: append([]Literal(nil), lits...),
		Func: &Func{Kind: FuncTerm, Term: &tc}}}
}

// Holds returns the predicate that a boolean term is TRUE: a boolean
// column, or a comparison of two terms (Call("=", YEAR(a), YEAR(b))).
func Holds(t Term) Expr {
	if t.isColumn() {
		return Eq(t.Column, Bool(true))
	}
	if _, cmp := termInfix[t.Fn]; !cmp || termInfix[t.Fn] != 1 {
		// Lowered as t = TRUE is, so that its text reads back the same.
		if e, err := lowerCompare(t, "=", LitTerm(Bool(true)), 0); err == nil {
			return e
		}
	}
	return TermLeaf(LeafEquals, t, Bool(true))
}

// isHoldsLeaf reports whether l is Holds of a comparison term.
func (l *Leaf) isHoldsLeaf() bool {
	if l.Func == nil || l.Func.Kind != FuncTerm || l.Func.Term == nil || l.Op != LeafEquals || len(l.Literals) != 1 {
		return false
	}
	_, cmp := termInfix[l.Func.Term.Fn]
	return cmp && termInfix[l.Func.Term.Fn] == 1 && l.Literals[0].kind == BoolLit && l.Literals[0].i == 1
}

// holdsText writes a Holds leaf: the comparison, or its negation.
func (l *Leaf) holdsText(neg bool) string {
	t := *l.Func.Term
	if !neg {
		return t.String()
	}
	op := map[string]string{"=": "<>", "<": ">=", "<=": ">"}[t.Fn]
	if op == "" {
		return "NOT (" + t.String() + ")"
	}
	b := t.Args[0].appendArg(nil, 1, false)
	b = append(b, ' ')
	b = append(b, op...)
	b = append(b, ' ')
	return string(t.Args[1].appendArg(b, 1, true))
}
