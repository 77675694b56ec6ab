package sarg

// Parsing terms, and the predicates that start with one: a comparison,
// [NOT] IN, [NOT] BETWEEN, IS ..., [NOT] [I]LIKE, or a boolean term alone.
// Each form has its own function; lowerCompare and its siblings
// (parse_lower.go) turn what they read into leaves.

import (
	"slices"
	"strings"
)

// parseTermPredicate reads a predicate that starts with a term.
func (p *parser) parseTermPredicate(depth int) (Expr, error) {
	pos := p.tok.pos
	t, err := p.parseTerm(depth, "a column, a literal, NOT or \"(\"")
	if err != nil {
		return Expr{}, err
	}
	e, err := p.parseAfterTerm(t, pos, depth)
	return e, atTermPos(err, pos)
}

// atTermPos places an error about the predicate's term at pos.
func atTermPos(err error, pos int) error {
	if pe, ok := err.(*ParseError); ok && pe.Pos == atTerm {
		pe.Pos = pos
	}
	return err
}

// atTermContinuation reports whether the current token continues a
// predicate after a term.
func (p *parser) atTermContinuation() bool {
	return p.isComparisonOp() || p.tok.is("IS") || p.tok.is("NOT") || p.tok.is("IN") || p.tok.is("BETWEEN") ||
		p.tok.is("LIKE") || p.tok.is("ILIKE")
}

// parseAfterTerm reads what follows the term t of a predicate.
func (p *parser) parseAfterTerm(t Term, pos, depth int) (Expr, error) {
	switch {
	case p.isComparisonOp():
		op, r, rpos, err := p.binary(func() (Term, error) { return p.parseTerm(depth, "a literal") })
		if err != nil {
			return Expr{}, err
		}
		return lowerCompare(t, op, r, rpos)
	case p.tok.is("IS"):
		return p.parseIs(t, depth)
	case p.tok.is("NOT"), p.tok.is("IN"), p.tok.is("BETWEEN"), p.tok.is("LIKE"), p.tok.is("ILIKE"):
		return p.parseNegatable(t, depth)
	case t.isLiteral():
		return Expr{}, p.errorf(p.tok.pos, "expected a comparison operator after a literal, found %s", p.tok.describe())
	case t.isColumn():
		return Holds(t), nil
	}
	if _, cmp := termInfix[t.Fn]; cmp && termInfix[t.Fn] == 1 {
		return Holds(t), nil
	}
	return lowerCompare(t, "=", LitTerm(Bool(true)), pos) // a boolean term alone is t = TRUE
}

// parseNegatable reads [NOT] IN, [NOT] BETWEEN and [NOT] [I]LIKE.
func (p *parser) parseNegatable(t Term, depth int) (Expr, error) {
	negate := false
	if p.tok.is("NOT") {
		negate = true
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
		if !p.tok.is("IN") && !p.tok.is("BETWEEN") && !p.tok.is("LIKE") && !p.tok.is("ILIKE") {
			return Expr{}, p.errorf(p.tok.pos, "expected IN, BETWEEN or LIKE after NOT (or ILIKE), found %s", p.tok.describe())
		}
	}
	kw := strings.ToUpper(p.tok.text)
	kwPos := p.tok.pos
	if err := p.advance(); err != nil {
		return Expr{}, err
	}
	var e Expr
	var err error
	switch kw {
	case "IN":
		e, err = p.parseIn(t, depth)
	case "BETWEEN":
		e, err = p.parseBetween(t, depth)
	default:
		e, err = p.parseLikeTerm(t, kw == "ILIKE", kwPos)
	}
	if err != nil {
		return Expr{}, err
	}
	if negate {
		e = Not(e)
	}
	return e, nil
}

// parseIn reads the list of t IN (...).
func (p *parser) parseIn(t Term, depth int) (Expr, error) {
	if err := p.expect(p.tok.punct("("), "expected \"(\" after IN"); err != nil {
		return Expr{}, err
	}
	if p.tok.punct(")") {
		return Expr{}, p.errorf(p.tok.pos, "an IN list needs at least one value (an empty list would match no row)")
	}
	var items []Term
	for !p.tok.punct(")") {
		if len(items) > 0 {
			if err := p.expect(p.tok.punct(","), "expected \",\" or \")\" in the IN list"); err != nil {
				return Expr{}, err
			}
		}
		it, err := p.parseTerm(depth, "a literal")
		if err != nil {
			return Expr{}, err
		}
		items = append(items, it)
	}
	if err := p.advance(); err != nil {
		return Expr{}, err
	}
	return lowerIn(t, items)
}

// parseBetween reads lo AND hi of t BETWEEN lo AND hi.
func (p *parser) parseBetween(t Term, depth int) (Expr, error) {
	loPos := p.tok.pos
	lo, err := p.parseTerm(depth, "a literal")
	if err != nil {
		return Expr{}, err
	}
	if err := p.expect(p.tok.is("AND"), "expected AND in BETWEEN"); err != nil {
		return Expr{}, err
	}
	hiPos := p.tok.pos
	hi, err := p.parseTerm(depth, "a literal")
	if err != nil {
		return Expr{}, err
	}
	return lowerBetween(t, lo, hi, loPos, hiPos)
}

// parseIs reads IS [NOT] NULL, IS [NOT] DISTINCT FROM x and IS [NOT]
// TRUE, FALSE or UNKNOWN.
func (p *parser) parseIs(t Term, depth int) (Expr, error) {
	if err := p.advance(); err != nil { // IS
		return Expr{}, err
	}
	negate := false
	if p.tok.is("NOT") {
		negate = true
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
	}
	kw := p.tok
	var e Expr
	var err error
	switch {
	case kw.is("NULL"), kw.is("UNKNOWN"):
		e, err = lowerIsNull(t), p.advance()
	case kw.is("TRUE"), kw.is("FALSE"):
		if err = p.advance(); err == nil {
			e, err = lowerCompare(t, "<=>", LitTerm(Bool(kw.is("TRUE"))), kw.pos)
		}
	case kw.is("DISTINCT"):
		if err = p.advance(); err != nil {
			return Expr{}, err
		}
		if !p.tok.is("FROM") {
			return Expr{}, p.errorf(p.tok.pos, "expected FROM after IS [NOT] DISTINCT, found %s", p.tok.describe())
		}
		if err = p.advance(); err != nil {
			return Expr{}, err
		}
		rpos := p.tok.pos
		var r Term
		if r, err = p.parseTerm(depth, "a literal"); err == nil {
			e, err = lowerCompare(t, "<=>", r, rpos)
		}
		negate = !negate // IS DISTINCT FROM is NOT <=>
	default:
		return Expr{}, p.errorf(kw.pos, "expected NULL after IS (or NOT NULL, [NOT] DISTINCT FROM, TRUE, FALSE, UNKNOWN), found %s", kw.describe())
	}
	if err != nil {
		return Expr{}, err
	}
	if negate {
		e = Not(e)
	}
	return e, nil
}

// parseLikeTerm reads the pattern and ESCAPE of t [I]LIKE ....
func (p *parser) parseLikeTerm(t Term, ilike bool, kwPos int) (Expr, error) {
	pat, patPos, err := p.parseLiteral()
	if err != nil {
		return Expr{}, err
	}
	if pat.kind != StringLit && pat.kind != BytesLit {
		return Expr{}, p.errorf(patPos, "expected a quoted pattern after LIKE, found %s literal", withArticle(pat.kind.String()))
	}
	esc := DefaultEscape
	escPos := p.tok.pos
	if p.tok.is("ESCAPE") {
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
		escPos = p.tok.pos
		if p.tok.kind != tString {
			return Expr{}, p.errorf(p.tok.pos, "expected a quoted escape character after ESCAPE, found %s", p.tok.describe())
		}
		esc = p.tok.text
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
	}
	if ilike {
		// Case-insensitive: both sides lower-cased, the escape too.
		t = Call("LOWER", t)
		pat.s = string(mapCase(nil, []byte(pat.s), false))
		esc = string(mapCase(nil, []byte(esc), false))
	}
	e, why := lowerLike(t, pat, esc)
	if why != "" {
		return Expr{}, p.errorf(escPos, "%s", why)
	}
	return e, nil
}

// termLevels are the binary operators of terms, loosest first: || over
// + and - over *, / and %; each associates to the left.
var termLevels = [...][]string{{"||"}, {"+", "-"}, {"*", "/", "%"}}

// parseTerm reads a term: its binary operators (termLevels) over unary
// minus over atoms. what names what is expected first, for errors.
func (p *parser) parseTerm(depth int, what string) (Term, error) {
	return p.parseLevel(0, depth, what)
}

// parseLevel reads operands joined by the operators of termLevels[level],
// each operand of the next level, or unary below the last.
func (p *parser) parseLevel(level, depth int, what string) (Term, error) {
	operand := func(what string) (Term, error) {
		if level+1 == len(termLevels) {
			return p.parseUnary(depth, what)
		}
		return p.parseLevel(level+1, depth, what)
	}
	left, err := operand(what)
	if err != nil {
		return Term{}, err
	}
	for p.tok.kind == tPunct && slices.Contains(termLevels[level], p.tok.text) {
		op, r, rpos, err := p.binary(func() (Term, error) { return operand("a term") })
		if err != nil {
			return Term{}, err
		}
		if (op == "/" || op == "%") && r.isLiteral() && isZeroLit(r.Lit) {
			return Term{}, p.errorf(rpos, "division by zero")
		}
		left = Call(op, left, r)
	}
	return left, nil
}

// binary consumes the operator at the current token and reads its right
// operand with operand; it returns the operator, the operand and where
// the operand starts.
func (p *parser) binary(operand func() (Term, error)) (op string, r Term, pos int, err error) {
	op = p.tok.text
	if err = p.advance(); err != nil {
		return "", Term{}, 0, err
	}
	pos = p.tok.pos
	r, err = operand()
	return op, r, pos, err
}

// parseUnary reads -t, +t, or an atom; a sign before a number makes a
// negative literal.
func (p *parser) parseUnary(depth int, what string) (Term, error) {
	if !p.tok.punct("-") && !p.tok.punct("+") {
		return p.parseAtom(depth, what)
	}
	if depth > maxParseDepth {
		return Term{}, p.errorf(p.tok.pos, "predicate nested deeper than %d", maxParseDepth)
	}
	sign := p.tok
	save := *p
	if err := p.advance(); err != nil {
		return Term{}, err
	}
	switch {
	case p.tok.kind == tNumber:
		*p = save
		lit, _, err := p.parseLiteral()
		return LitTerm(lit), err
	case p.tok.kind == tString, p.tok.kind == tHex, p.tok.kind == tEOF:
		return Term{}, p.errorf(p.tok.pos, "expected a number after %q, found %s", sign.text, p.tok.describe())
	}
	t, err := p.parseUnary(depth+1, "a term")
	if err != nil || sign.text == "+" {
		return t, err
	}
	return Call("NEG", t), nil
}

// parseAtom reads a literal, a column, a function call or a term in
// parentheses.
func (p *parser) parseAtom(depth int, what string) (Term, error) {
	t := p.tok
	switch {
	case t.punct("("):
		if depth > maxParseDepth {
			return Term{}, p.errorf(t.pos, "predicate nested deeper than %d", maxParseDepth)
		}
		if err := p.advance(); err != nil {
			return Term{}, err
		}
		in, err := p.parseTerm(depth+1, "a term")
		if err != nil {
			return Term{}, err
		}
		if !p.tok.punct(")") {
			return Term{}, p.errorf(p.tok.pos, "expected \")\", found %s", p.tok.describe())
		}
		return in, p.advance()
	case t.kind == tNumber, t.kind == tString, t.kind == tHex, t.is("DATE"), t.is("TIMESTAMP"), t.is("DECIMAL"), t.is("DOUBLE"),
		t.is("TRUE"), t.is("FALSE"), t.is("NULL"):
		lit, _, err := p.parseLiteral()
		return LitTerm(lit), err
	case t.kind == tIdent && p.peekByte() == '(':
		return p.parseFuncTerm(depth)
	case p.atColumn():
		col, err := p.parseColumn()
		return ColTerm(col), err
	}
	return Term{}, p.errorf(t.pos, "expected %s, found %s", what, t.describe())
}

// termFuncNames lists the functions a term may call, for errors.
const termFuncNames = "YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE, SECOND, DAYOFWEEK, EXTRACT, DATE_TRUNC, CAST, ABS, MOD, " +
	"LENGTH, LOWER, UPPER, SUBSTR, TRIM, COALESCE, REGEXP_LIKE; predicates STARTS_WITH, ENDS_WITH, ST_INTERSECTS, ST_CONTAINS, ST_WITHIN, ST_DISJOINT, ST_INTERSECTS_BOX, ST_WITHIN_BOX"

// parseFuncTerm reads a function call in a term.
func (p *parser) parseFuncTerm(depth int) (Term, error) {
	name := p.tok
	fn := strings.ToUpper(name.text)
	switch fn {
	case "SUBSTRING":
		fn = "SUBSTR"
	case "MOD":
		fn = "%"
	}
	if _, ok := termFuncs[fn]; !ok && fn != "CAST" && fn != "EXTRACT" {
		return Term{}, p.errorf(name.pos, "unknown function %s (%s are allowed)", name.describe(), termFuncNames)
	}
	if depth > maxParseDepth {
		return Term{}, p.errorf(name.pos, "predicate nested deeper than %d", maxParseDepth)
	}
	if err := p.advance(); err != nil { // the name
		return Term{}, err
	}
	if err := p.advance(); err != nil { // "("
		return Term{}, err
	}
	switch fn {
	case "CAST":
		return p.parseCast(depth)
	case "EXTRACT":
		return p.parseExtract(depth)
	case "DATE_TRUNC":
		return p.parseTrunc(depth)
	}
	var args []Term
	for {
		a, err := p.parseTerm(depth+1, "an argument")
		if err != nil {
			return Term{}, err
		}
		args = append(args, a)
		if p.tok.punct(")") {
			return Term{Fn: fn, Args: args}, p.advance()
		}
		if err := p.expect(p.tok.punct(","), "expected \")\" or \",\" after an argument of %s", fn); err != nil {
			return Term{}, err
		}
	}
}

// closeCall reads the ")" that ends a call of fn.
func (p *parser) closeCall(fn string, t Term) (Term, error) {
	if !p.tok.punct(")") {
		return Term{}, p.errorf(p.tok.pos, "expected \")\" after the argument of %s, found %s", fn, p.tok.describe())
	}
	return t, p.advance()
}

// parseCast reads x AS type) of CAST.
func (p *parser) parseCast(depth int) (Term, error) {
	x, err := p.parseTerm(depth+1, "a term")
	if err != nil {
		return Term{}, err
	}
	if err := p.expect(p.tok.is("AS"), "expected AS in CAST"); err != nil {
		return Term{}, err
	}
	typPos := p.tok.pos
	typ, err := p.parseTypeName()
	if err != nil {
		return Term{}, err
	}
	if _, ok := castTypes[typ]; !ok && !strings.HasPrefix(typ, "decimal(") {
		return Term{}, p.errorf(typPos, "CAST to %s is not supported (%s are)", typ, castTypeList)
	}
	return p.closeCall("CAST", CastTerm(x, typ))
}

// parseTypeName reads a type name: an identifier, with (p, s) after
// DECIMAL and (n) after VARCHAR.
func (p *parser) parseTypeName() (string, error) {
	if p.tok.kind != tIdent {
		return "", p.errorf(p.tok.pos, "expected a type name, found %s", p.tok.describe())
	}
	name := strings.ToLower(p.tok.text)
	if err := p.advance(); err != nil {
		return "", err
	}
	if !p.tok.punct("(") {
		if name == "decimal" {
			return "decimal(10,0)", nil
		}
		return name, nil
	}
	var nums []string
	for {
		if err := p.advance(); err != nil {
			return "", err
		}
		if p.tok.kind != tNumber || strings.ContainsAny(p.tok.text, ".eE") {
			return "", p.errorf(p.tok.pos, "expected an integer in the type %s(...), found %s", name, p.tok.describe())
		}
		nums = append(nums, p.tok.text)
		if err := p.advance(); err != nil {
			return "", err
		}
		if p.tok.punct(")") {
			break
		}
		if !p.tok.punct(",") {
			return "", p.errorf(p.tok.pos, "expected \",\" or \")\" in the type %s(...), found %s", name, p.tok.describe())
		}
	}
	if err := p.advance(); err != nil {
		return "", err
	}
	if name == "varchar" || name == "char" {
		return "string", nil
	}
	if name == "decimal" && len(nums) == 1 {
		nums = append(nums, "0")
	}
	return name + "(" + strings.Join(nums, ",") + ")", nil
}

// parseExtract reads unit FROM x) of EXTRACT.
func (p *parser) parseExtract(depth int) (Term, error) {
	unit := strings.ToUpper(p.tok.text)
	if unit == "DOW" {
		unit = "DAYOFWEEK"
	}
	if _, ok := calParts[unit]; !ok || p.tok.kind != tIdent {
		return Term{}, p.errorf(p.tok.pos, "expected a unit (YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE, SECOND, DOW) in EXTRACT, found %s", p.tok.describe())
	}
	return p.unitCall(depth, "EXTRACT", "FROM", "expected FROM in EXTRACT", func(x Term) Term { return Call(unit, x) })
}

// unitCall reads the rest of a call of fn after its unit, the current
// token (the caller checked it): the separator sep (a keyword or
// punctuation; what says what was expected), a term x and the closing
// parenthesis, and returns call(x).
func (p *parser) unitCall(depth int, fn, sep, what string, call func(x Term) Term) (Term, error) {
	if err := p.advance(); err != nil {
		return Term{}, err
	}
	if err := p.expect(p.tok.is(sep) || p.tok.punct(sep), "%s", what); err != nil {
		return Term{}, err
	}
	x, err := p.parseTerm(depth+1, "a term")
	if err != nil {
		return Term{}, err
	}
	return p.closeCall(fn, call(x))
}

// parseTrunc reads 'unit', x) of DATE_TRUNC.
func (p *parser) parseTrunc(depth int) (Term, error) {
	if p.tok.kind != tString {
		return Term{}, p.errorf(p.tok.pos, "expected the quoted unit of DATE_TRUNC ('year', 'month', ...), found %s", p.tok.describe())
	}
	unit := strings.ToLower(p.tok.text)
	if why := (&Func{Kind: FuncDateTrunc, Unit: unit}).check(); why != "" {
		return Term{}, p.errorf(p.tok.pos, "%s", why)
	}
	return p.unitCall(depth, "DATE_TRUNC", ",", `expected "," after the unit of DATE_TRUNC`, func(x Term) Term { return TruncTerm(unit, x) })
}

// isZeroLit reports whether l is a numeric literal equal to zero.
func isZeroLit(l Literal) bool {
	switch l.kind {
	case IntLit, DecimalLit:
		return constSign(l) == 0
	case FloatLit:
		return l.f == 0
	}
	return false
}
