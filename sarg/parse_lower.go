package sarg

// Lowering what the parser reads into leaves: a comparison whose subject
// is a column, or a function of one that spec.md 7.17 knows, compared with
// literals, becomes the leaf of that form (so that it prunes as before);
// two columns of one family make a comparison of two columns; everything
// else becomes a term leaf. IN and BETWEEN over terms are the OR and AND
// of their comparisons, as SQL defines them.

import (
	"fmt"
	"strings"
)

// subject is a term that is a column or a 7.17 function of one.
type subject struct {
	col    string
	f      *Func       // a function leaf's function
	bucket *bucketFunc // YEAR or CAST(... AS DATE), rewritten into ranges
}

// simpleSubject returns t as a subject, if it is one; why is a parse
// error for a column with a constant that no function takes.
func simpleSubject(t Term) (s subject, ok bool, why string) {
	if t.isColumn() {
		return subject{col: t.Column}, true, ""
	}
	switch t.Fn {
	case "YEAR":
		if len(t.Args) == 1 && t.Args[0].isColumn() {
			return subject{col: t.Args[0].Column, bucket: &yearFunc}, true, ""
		}
	case "CAST":
		if t.Param == "date" && len(t.Args) == 1 && t.Args[0].isColumn() {
			return subject{col: t.Args[0].Column, bucket: &castDateFunc}, true, ""
		}
	case "MONTH", "DAY", "HOUR", "ABS", "LENGTH", "LOWER", "UPPER", "DATE_TRUNC":
		if len(t.Args) == 1 && t.Args[0].isColumn() {
			return subject{col: t.Args[0].Column, f: &Func{Kind: funcByName(t.Fn), Unit: t.Param}}, true, ""
		}
	case "NEG":
		if len(t.Args) == 1 && t.Args[0].isColumn() {
			return subject{col: t.Args[0].Column, f: &Func{Kind: FuncMul, Const: Int(-1)}}, true, ""
		}
	case "+", "-", "*", "/":
		return arithSubject(t)
	}
	return subject{}, false, ""
}

// arithSubject returns column op constant (or constant + column, constant
// * column) as a subject.
func arithSubject(t Term) (subject, bool, string) {
	a, b := t.Args[0], t.Args[1]
	if a.isLiteral() && b.isColumn() && (t.Fn == "+" || t.Fn == "*") {
		a, b = b, a
	}
	if !a.isColumn() || !b.isLiteral() {
		return subject{}, false, ""
	}
	f := Func{Kind: map[string]FuncKind{"+": FuncAdd, "-": FuncSub, "*": FuncMul, "/": FuncDiv}[t.Fn], Const: b.Lit}
	if why := f.check(); why != "" {
		return subject{}, false, why
	}
	return subject{col: a.Column, f: &f}, true, ""
}

// funcByName returns the 7.17 function a name calls, or FuncNone.
func funcByName(name string) FuncKind {
	for k, n := range funcNames {
		if k > int(FuncNone) && k <= int(FuncUpper) && strings.EqualFold(n, name) {
			return FuncKind(k)
		}
	}
	return FuncNone
}

// comparison is a comparison operator as Parse reads it: the leaf op
// that decides it and the term function that computes it, negated for >,
// >=, <> and != (x > y is NOT x <= y), and the operator with its sides
// exchanged.
type comparison struct {
	leaf    LeafOp
	fn      string
	negated bool
	flipped string
}

// comparisons holds every comparison operator Parse reads, by its text.
var comparisons = map[string]comparison{
	"=": {LeafEquals, "=", false, "="}, "<=>": {LeafNullSafeEquals, "<=>", false, "<=>"},
	"<": {LeafLessThan, "<", false, ">"}, "<=": {LeafLessThanEquals, "<=", false, ">="},
	">": {LeafLessThanEquals, "<=", true, "<"}, ">=": {LeafLessThan, "<", true, "<="},
	"<>": {LeafEquals, "=", true, "<>"}, "!=": {LeafEquals, "=", true, "!="},
}

// of returns e, the comparison's leaf or term, under NOT when the
// operator is a negated one.
func (c comparison) of(e Expr) Expr {
	if c.negated {
		return Not(e)
	}
	return e
}

// lowerCompare makes the predicate a op b; pos is b's position.
func lowerCompare(a Term, op string, b Term, pos int) (Expr, error) {
	if a.isLiteral() && !b.isLiteral() {
		a, b, op = b, a, comparisons[op].flipped
	}
	c := comparisons[op]
	if b.isLiteral() {
		if b.Lit.IsNull() && op != "<=>" {
			return Expr{}, &ParseError{Pos: pos, Msg: "NULL is only allowed in IN lists and with <=>; write IS NULL or IS NOT NULL"}
		}
		return lowerLiteral(a, b.Lit, pos, func(col string) (Expr, error) { return c.of(leaf(c.leaf, col, b.Lit)), nil })
	}
	if a.isColumn() && b.isColumn() {
		return c.of(colLeaf(c.leaf, a.Column, b.Column)), nil
	}
	return c.of(Holds(Call(c.fn, a, b))), nil
}

// atTerm is the position of a ParseError about the term of a predicate,
// which the parser sets (see atTermPos).
const atTerm = -1

// lowerLiteral makes a leaf on subject a with the literal lit, through
// build, which makes the leaf on a column name: the 7.17 form when a is
// a subject, else a term leaf.
func lowerLiteral(a Term, lit Literal, pos int, build func(col string) (Expr, error)) (Expr, error) {
	s, ok, why := simpleSubject(a)
	if why != "" {
		return Expr{}, &ParseError{Pos: atTerm, Msg: why}
	}
	e, err := build("_")
	if err != nil {
		return Expr{}, err
	}
	if !ok {
		return withTerm(e, a), nil
	}
	e, _ = build(s.col)
	switch {
	case s.bucket != nil:
		out, why := rewriteBucket(*s.bucket, e)
		if why == "" {
			return out, nil
		}
		if s.bucket == &yearFunc && (lit.kind == DecimalLit || lit.kind == FloatLit || lit.kind == IntLit) ||
			s.bucket == &castDateFunc && lit.kind == TimestampLit {
			// YEAR(d) = 1995.0 compares numbers, as YEAR(d) < -10^9
			// does (a year no date has: no range of dates to rewrite
			// to, but a comparison SQL takes, FALSE or NULL on every
			// row); CAST(ts AS DATE) < TIMESTAMP '...' a date with a
			// timestamp.
			return withTerm(e, a), nil
		}
		return Expr{}, &ParseError{Pos: pos, Msg: why}
	case s.f != nil:
		return Apply(*s.f, e), nil
	}
	return e, nil
}

// withTerm returns e with the term t in place of the column of its leaves.
func withTerm(e Expr, t Term) Expr {
	return mapLeaves(e, func(e Expr) Expr {
		l := *e.Leaf
		return TermLeaf(l.Op, t, l.Literals...)
	})
}

// lowerIn makes t IN (items...): a leaf with a list of literals, or the
// OR of the comparisons.
func lowerIn(t Term, items []Term) (Expr, error) {
	lits := make([]Literal, 0, len(items))
	for _, it := range items {
		if !it.isLiteral() {
			lits = nil
			break
		}
		lits = append(lits, it.Lit)
	}
	if lits != nil && !t.isLiteral() {
		return lowerLiteral(t, lits[0], 0, func(col string) (Expr, error) { return In(col, lits...), nil })
	}
	alts := make([]Expr, len(items))
	for i, it := range items {
		if it.isLiteral() && it.Lit.IsNull() {
			alts[i] = NullExpr() // x = NULL
			continue
		}
		e, err := lowerCompare(t, "=", it, 0)
		if err != nil {
			return Expr{}, err
		}
		alts[i] = e
	}
	return Or(alts...), nil
}

// lowerBetween makes t BETWEEN lo AND hi: a leaf with two literals, or the
// AND of t >= lo and t <= hi.
func lowerBetween(t, lo, hi Term, loPos, hiPos int) (Expr, error) {
	for _, b := range []struct {
		t   Term
		pos int
	}{{lo, loPos}, {hi, hiPos}} {
		if b.t.isLiteral() && b.t.Lit.IsNull() {
			return Expr{}, &ParseError{Pos: b.pos, Msg: "NULL is not allowed in BETWEEN"}
		}
	}
	if lo.isLiteral() && hi.isLiteral() && !t.isLiteral() {
		return lowerLiteral(t, lo.Lit, loPos, func(col string) (Expr, error) { return Between(col, lo.Lit, hi.Lit), nil })
	}
	ge, err := lowerCompare(t, ">=", lo, loPos)
	if err != nil {
		return Expr{}, err
	}
	le, err := lowerCompare(t, "<=", hi, hiPos)
	if err != nil {
		return Expr{}, err
	}
	return And(ge, le), nil
}

// lowerIsNull makes t IS NULL.
func lowerIsNull(t Term) Expr {
	if s, ok, _ := simpleSubject(t); ok {
		e := IsNull(s.col)
		if s.f != nil {
			e = Apply(*s.f, e)
		}
		return e // YEAR and CAST(... AS DATE) are NULL exactly where the column is
	}
	return TermLeaf(LeafIsNull, t)
}

// lowerLike makes t LIKE pat ESCAPE esc, or says why the pattern is bad.
func lowerLike(t Term, pat Literal, esc string) (Expr, string) {
	e := LikeEscape("_", pat, esc)
	if why := checkLike(e.Leaf); why != "" {
		return Expr{}, why
	}
	s, ok, _ := simpleSubject(t)
	switch {
	case ok && s.bucket != nil:
		return Expr{}, fmt.Sprintf("%s is not a string", s.bucket.name)
	case ok:
		e = LikeEscape(s.col, pat, esc)
		if s.f != nil {
			e = Apply(*s.f, e)
		}
		return e, ""
	}
	return withTerm(e, t), ""
}

// endsWith makes ENDS_WITH(t, suffix): t LIKE '%' followed by the suffix
// with its wildcards escaped.
func endsWith(t Term, suffix Literal) Expr {
	r := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)
	pat := suffix
	pat.s = "%" + r.Replace(suffix.s)
	e, _ := lowerLike(t, pat, DefaultEscape)
	return e
}
