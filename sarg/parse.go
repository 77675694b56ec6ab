package sarg

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/orcgo/orc"
)

// ParseError is a syntax error in a predicate's text: the byte offset where
// it was found and what was expected there.
type ParseError struct {
	Pos int    // byte offset into the text
	Msg string // such as `expected a literal, found ")"`
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("sarg: syntax error at byte %d: %s", e.Pos, e.Msg)
}

// MustParse is Parse that panics on error, for constants in programs and
// tests.
func MustParse(text string) Expr {
	e, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return e
}

// maxParseDepth bounds the nesting of parentheses and NOTs, so hostile text
// cannot exhaust the stack.
const maxParseDepth = 200

// Parse reads a predicate in a SQL-like text form:
//
//	c1 = '619sdc' OR c2 = 100 AND c3 = 200
//	ts BETWEEN TIMESTAMP '2024-03-10 01:30:00' AND TIMESTAMP '2024-03-10 03:00:00'
//	s IN ('a', 'b', NULL)  AND  x IS NOT NULL  AND  NOT (y <> 3 OR z >= 2.5)
//
// Precedence is NOT > AND > OR; parentheses group. A comparison compares
// two terms (see Term): columns, literals, arithmetic (+, -, *, /, % or
// MOD, unary minus, parentheses), || and the functions YEAR, QUARTER,
// MONTH, DAY, HOUR, MINUTE, SECOND, DAYOFWEEK, EXTRACT(unit FROM x),
// DATE_TRUNC('unit', x), CAST(x AS type), ABS, LENGTH, LOWER, UPPER,
// SUBSTR, TRIM, COALESCE and REGEXP_LIKE, on either side. The comparisons
// are =, <=> (null-safe equals; IS NOT DISTINCT FROM), <, <=, >, >=, <>
// and != (IS DISTINCT FROM is NOT <=>), [NOT] IN (...), [NOT] BETWEEN lo
// AND hi, IS [NOT] NULL, IS [NOT] TRUE, FALSE or UNKNOWN, [NOT] LIKE
// 'pattern' [ESCAPE 'c'] (see Like), [NOT] ILIKE, STARTS_WITH(column,
// 'prefix') and ENDS_WITH(x, 'suffix'); a boolean column or term alone is
// a predicate. A comparison of a column, or of a function of one that
// spec.md 7.17 lists, with literals is the leaf of that form (YEAR(d) =
// 1995 is d >= DATE '1995-01-01' AND d < DATE '1996-01-01'; x + 1 < 5 a
// function leaf, see Func); two columns of one family compare as a
// comparison of two columns (see LtCol); anything else is a term leaf (see
// TermLeaf). Keywords are case-insensitive.
//
// Columns are field names joined by dots (a.b.c); a name that is not an
// identifier or is a keyword goes in backticks (`odd name`, a backtick
// inside is doubled).
//
// Literals: integers (-3), decimals (12.50, DECIMAL '5'), floats with an
// exponent (1e3, DOUBLE 'NaN', DOUBLE '-Infinity'), strings ('it”s'),
// bytes (X'0aff'), TRUE and FALSE, DATE '2024-01-01', and timestamps:
// TIMESTAMP '2024-03-10 01:30:00.25' is a wall clock,
// TIMESTAMP '2024-03-10 01:30:00 America/New_York' a wall clock in a zone,
// TIMESTAMP '2024-03-10 01:30:00Z' or '...+01:00' an instant. NULL is allowed
// in IN lists and with <=>; elsewhere write IS NULL. TRUE, FALSE and NULL
// alone are constant predicates.
//
// Errors are *ParseError values giving the byte offset.
func Parse(text string) (Expr, error) {
	p := &parser{src: text}
	if err := p.advance(); err != nil {
		return Expr{}, err
	}
	e, err := p.parseOr(0)
	if err != nil {
		return Expr{}, err
	}
	if p.tok.kind != tEOF {
		return Expr{}, p.errorf(p.tok.pos, "expected AND, OR or end of text, found %s", p.tok.describe())
	}
	return e, nil
}

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // plain identifier (may be a keyword)
	tQuoted         // backtick-quoted identifier (never a keyword)
	tNumber         // unsigned number
	tString         // '...' with quotes removed
	tHex            // X'...' decoded
	tPunct          // operators and ( ) , .
)

type token struct {
	kind tokKind
	pos  int
	text string // raw text for idents, numbers, punctuation; value for strings
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of text"
	case tString:
		return "string " + strconv.Quote(t.text)
	case tHex:
		return "bytes literal"
	case tQuoted:
		return "`" + t.text + "`"
	}
	return strconv.Quote(t.text)
}

func (t token) is(kw string) bool { return t.kind == tIdent && strings.EqualFold(t.text, kw) }

func (t token) punct(s string) bool { return t.kind == tPunct && t.text == s }

type parser struct {
	src string
	pos int // next byte to lex
	tok token
}

func (p *parser) errorf(pos int, format string, args ...any) error {
	return &ParseError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// advance lexes the next token into p.tok.
// expect consumes the token the grammar requires here, ok telling
// whether the current one is it, or returns an error at the current token
// saying what was expected (format and args) and what was found.
func (p *parser) expect(ok bool, format string, args ...any) error {
	if !ok {
		return p.errorf(p.tok.pos, format+", found %s", append(args, p.tok.describe())...)
	}
	return p.advance()
}

func (p *parser) advance() error {
	s := p.src
	for p.pos < len(s) && (s[p.pos] == ' ' || s[p.pos] == '\t' || s[p.pos] == '\n' || s[p.pos] == '\r') {
		p.pos++
	}
	start := p.pos
	if start >= len(s) {
		p.tok = token{kind: tEOF, pos: start}
		return nil
	}
	c := s[start]
	switch {
	case (c == 'x' || c == 'X') && start+1 < len(s) && s[start+1] == '\'':
		p.pos++
		str, err := p.lexString()
		if err != nil {
			return err
		}
		if len(str)%2 != 0 {
			return p.errorf(start, "bytes literal needs an even number of hex digits")
		}
		b, err := hex.DecodeString(str)
		if err != nil {
			return p.errorf(start, "bytes literal holds a non-hex digit")
		}
		p.tok = token{kind: tHex, pos: start, text: string(b)}
	case isIdentStart(c):
		for p.pos < len(s) && isIdentChar(s[p.pos]) {
			p.pos++
		}
		p.tok = token{kind: tIdent, pos: start, text: s[start:p.pos]}
	case c == '`':
		return p.lexQuoted(start)
	case c >= '0' && c <= '9' || c == '.' && start+1 < len(s) && s[start+1] >= '0' && s[start+1] <= '9':
		return p.lexNumber(start)
	case c == '\'':
		str, err := p.lexString()
		if err != nil {
			return err
		}
		p.tok = token{kind: tString, pos: start, text: str}
	default:
		for _, op := range [...]string{"<=>", "<=", ">=", "<>", "!=", "||", "=", "<", ">", "(", ")", ",", ".", "-", "+", "*", "/", "%"} {
			if strings.HasPrefix(s[start:], op) {
				p.pos += len(op)
				p.tok = token{kind: tPunct, pos: start, text: op}
				return nil
			}
		}
		if c == '"' {
			return p.errorf(start, "unexpected character %q: a string takes single quotes, as 'text' (double quotes are not string quotes)", c)
		}
		return p.errorf(start, "unexpected character %q", c)
	}
	return nil
}

// lexNumber reads an unsigned number starting at start.
func (p *parser) lexNumber(start int) error {
	s := p.src
	for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
		p.pos++
	}
	if p.pos < len(s) && s[p.pos] == '.' {
		p.pos++
		for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
			p.pos++
		}
	}
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E') {
		q := p.pos + 1
		if q < len(s) && (s[q] == '+' || s[q] == '-') {
			q++
		}
		if q >= len(s) || s[q] < '0' || s[q] > '9' {
			return p.errorf(p.pos, "expected exponent digits")
		}
		for q < len(s) && s[q] >= '0' && s[q] <= '9' {
			q++
		}
		p.pos = q
	}
	if p.pos < len(s) && isIdentChar(s[p.pos]) {
		return p.errorf(p.pos, "unexpected %q after a number", s[p.pos])
	}
	p.tok = token{kind: tNumber, pos: start, text: s[start:p.pos]}
	return nil
}

// lexQuoted reads a backtick-quoted name starting at start.
func (p *parser) lexQuoted(start int) error {
	s := p.src
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(s) {
			return p.errorf(start, "unclosed backtick")
		}
		if s[p.pos] == '`' {
			if p.pos+1 < len(s) && s[p.pos+1] == '`' {
				b.WriteByte('`')
				p.pos += 2
				continue
			}
			p.pos++
			break
		}
		b.WriteByte(s[p.pos])
		p.pos++
	}
	if b.Len() == 0 {
		return p.errorf(start, "empty quoted name")
	}
	p.tok = token{kind: tQuoted, pos: start, text: b.String()}
	return nil
}

// lexString reads a single-quoted string starting at p.pos (” is a quote).
func (p *parser) lexString() (string, error) {
	start := p.pos
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.errorf(start, "unclosed string")
		}
		c := p.src[p.pos]
		p.pos++
		if c == '\'' {
			if p.pos < len(p.src) && p.src[p.pos] == '\'' {
				b.WriteByte('\'')
				p.pos++
				continue
			}
			return b.String(), nil
		}
		b.WriteByte(c)
	}
}

func (p *parser) parseOr(depth int) (Expr, error) {
	return p.parseJunction(depth, "OR", p.parseAnd, Or)
}

func (p *parser) parseAnd(depth int) (Expr, error) {
	return p.parseJunction(depth, "AND", p.parseNot, And)
}

// parseJunction reads one or more parts, each read by part, joined by the
// keyword word (OR, AND), and returns join of them.
func (p *parser) parseJunction(depth int, word string, part func(depth int) (Expr, error), join func(...Expr) Expr) (Expr, error) {
	var parts []Expr
	for {
		e, err := part(depth)
		if err != nil {
			return Expr{}, err
		}
		parts = append(parts, e)
		if !p.tok.is(word) {
			break
		}
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
	}
	return join(parts...), nil
}

func (p *parser) parseNot(depth int) (Expr, error) {
	if depth > maxParseDepth {
		return Expr{}, p.errorf(p.tok.pos, "predicate nested deeper than %d", maxParseDepth)
	}
	if p.tok.is("NOT") {
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
		e, err := p.parseNot(depth + 1)
		if err != nil {
			return Expr{}, err
		}
		return Not(e), nil
	}
	return p.parsePrimary(depth)
}

func (p *parser) parsePrimary(depth int) (Expr, error) {
	t := p.tok
	switch {
	case t.punct("("):
		return p.parseParen(depth)
	case p.geoCallAhead():
		return p.parseGeoCall()
	case (t.is("STARTS_WITH") || t.is("ENDS_WITH")) && p.peekByte() == '(':
		return p.parseCall()
	case t.is("TRUE"), t.is("FALSE"), t.is("NULL"):
		// A constant predicate unless a comparison follows, in which case
		// it is a literal on the left of a comparison.
		save := *p
		if err := p.advance(); err != nil {
			return Expr{}, err
		}
		if !p.atTermContinuation() {
			switch {
			case t.is("TRUE"):
				return True(), nil
			case t.is("FALSE"):
				return False(), nil
			}
			return NullExpr(), nil
		}
		*p = save
	}
	return p.parseTermPredicate(depth)
}

// parseParen reads a predicate in parentheses, or a predicate that starts
// with a term in parentheses: (x + 1) * 2 > 10.
func (p *parser) parseParen(depth int) (Expr, error) {
	save := *p
	t, terr := p.parseTerm(depth, "a term")
	if terr == nil && p.atTermContinuation() {
		e, err := p.parseAfterTerm(t, save.tok.pos, depth)
		return e, atTermPos(err, save.tok.pos)
	}
	*p = save
	e, err := p.parseGroup(depth)
	switch {
	case err != nil && terr != nil && errPos(terr) > errPos(err):
		// Both readings fail: the term's got further, (((x + 1) / 0
		// + y) > 2), so its error is the one that says what is wrong.
		return Expr{}, terr
	case err != nil:
		return Expr{}, err
	case terr != nil && (p.atTermContinuation() || p.atArithmetic()):
		// The parentheses started a term after all, (x + 1) / 0 > 1:
		// the term's own error says what is wrong, not the operator
		// after the group.
		return Expr{}, terr
	}
	return e, nil
}

// parseGroup reads a predicate in parentheses.
func (p *parser) parseGroup(depth int) (Expr, error) {
	if err := p.advance(); err != nil {
		return Expr{}, err
	}
	e, err := p.parseOr(depth + 1)
	if err != nil {
		return Expr{}, err
	}
	if !p.tok.punct(")") {
		return Expr{}, p.errorf(p.tok.pos, "expected \")\", found %s", p.tok.describe())
	}
	return e, p.advance()
}

// errPos returns where a parse error is, or -1.
func errPos(err error) int {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Pos
	}
	return -1
}

// atArithmetic reports whether the current token is an operator of terms.
func (p *parser) atArithmetic() bool {
	for _, op := range [...]string{"+", "-", "*", "/", "%", "||"} {
		if p.tok.punct(op) {
			return true
		}
	}
	return false
}

func (p *parser) isComparisonOp() bool {
	_, ok := comparisons[p.tok.text]
	return ok && p.tok.kind == tPunct
}

// atColumn reports whether the current token starts a column name.
func (p *parser) atColumn() bool {
	return p.tok.kind == tIdent && !keywords[strings.ToUpper(p.tok.text)] || p.tok.kind == tQuoted
}

// parseColumn reads name { "." name }.
func (p *parser) parseColumn() (string, error) {
	var names []string
	for {
		t := p.tok
		if !(t.kind == tIdent || t.kind == tQuoted) {
			return "", p.errorf(t.pos, "expected a field name, found %s", t.describe())
		}
		names = append(names, t.text)
		if err := p.advance(); err != nil {
			return "", err
		}
		if !p.tok.punct(".") {
			return Col(names...), nil
		}
		if err := p.advance(); err != nil {
			return "", err
		}
	}
}

// peekByte returns the next byte after the current token that is not a
// space, or 0 at the end of the text.
func (p *parser) peekByte() byte {
	for i := p.pos; i < len(p.src); i++ {
		switch c := p.src[i]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// parseCall reads STARTS_WITH(column, 'prefix') or ENDS_WITH(term,
// 'suffix') in predicate position.
func (p *parser) parseCall() (Expr, error) {
	name := p.tok
	if err := p.advance(); err != nil { // the name
		return Expr{}, err
	}
	if err := p.advance(); err != nil { // "("
		return Expr{}, err
	}
	fn := strings.ToUpper(name.text)
	var subj Term
	var err error
	if fn == "STARTS_WITH" {
		if !p.atColumn() {
			return Expr{}, p.errorf(p.tok.pos, "expected a column as the first argument of STARTS_WITH, found %s", p.tok.describe())
		}
		var col string
		col, err = p.parseColumn()
		subj = ColTerm(col)
	} else {
		subj, err = p.parseTerm(0, "a column")
	}
	if err != nil {
		return Expr{}, err
	}
	if err := p.expect(p.tok.punct(","), "expected \",\" after the column of %s", fn); err != nil {
		return Expr{}, err
	}
	lit, litPos, err := p.parseLiteral()
	if err != nil {
		return Expr{}, err
	}
	if lit.kind != StringLit && lit.kind != BytesLit {
		return Expr{}, p.errorf(litPos, "the prefix of %s must be a quoted string, not %s literal", fn, withArticle(lit.kind.String()))
	}
	if !p.tok.punct(")") {
		return Expr{}, p.errorf(p.tok.pos, "expected \")\" after the prefix of %s, found %s", fn, p.tok.describe())
	}
	if fn == "ENDS_WITH" {
		return endsWith(subj, lit), p.advance()
	}
	return StartsWith(subj.Column, lit), p.advance()
}

// parseLiteral reads one literal and returns it with its position.
func (p *parser) parseLiteral() (Literal, int, error) {
	t := p.tok
	pos := t.pos
	adv := func(l Literal) (Literal, int, error) { return l, pos, p.advance() }
	switch {
	case t.is("NULL"):
		return adv(NullValue())
	case t.is("TRUE"):
		return adv(Bool(true))
	case t.is("FALSE"):
		return adv(Bool(false))
	case t.kind == tString:
		return adv(String(t.text))
	case t.kind == tHex:
		return adv(Bytes([]byte(t.text)))
	case t.kind == tNumber:
		return p.number("", pos)
	case t.punct("-"), t.punct("+"):
		sign := t.text
		if err := p.advance(); err != nil {
			return Literal{}, pos, err
		}
		if p.tok.kind != tNumber {
			return Literal{}, pos, p.errorf(p.tok.pos, "expected a number after %q, found %s", sign, p.tok.describe())
		}
		return p.number(sign, pos)
	case t.is("DATE"), t.is("TIMESTAMP"), t.is("DECIMAL"), t.is("DOUBLE"):
		if err := p.advance(); err != nil {
			return Literal{}, pos, err
		}
		s := p.tok
		if s.kind != tString {
			return Literal{}, pos, p.errorf(s.pos, "expected a quoted string after %s, found %s", strings.ToUpper(t.text), s.describe())
		}
		var lit Literal
		switch strings.ToUpper(t.text) {
		case "DATE":
			d, ok := parseDate(s.text)
			if !ok || d < math.MinInt32 || d > math.MaxInt32 {
				return Literal{}, pos, p.errorf(s.pos, "expected a date 'YYYY-MM-DD', found %s", s.describe())
			}
			lit = Date(int32(d))
		case "TIMESTAMP":
			l, err := parseTimestamp(s.text)
			if err != nil {
				return Literal{}, pos, p.errorf(s.pos, "bad timestamp %s: %v", s.describe(), err)
			}
			lit = l
		case "DECIMAL":
			l, err := ParseDecimalLiteral(s.text)
			if err != nil {
				return Literal{}, pos, p.errorf(s.pos, "expected a decimal number, found %s", s.describe())
			}
			lit = l
		case "DOUBLE":
			f, ok := parseDouble(s.text)
			if !ok {
				return Literal{}, pos, p.errorf(s.pos, "expected a floating-point number, NaN or Infinity, found %s", s.describe())
			}
			lit = Float(f)
		}
		return adv(lit)
	}
	return Literal{}, pos, p.errorf(pos, "expected a literal, found %s", t.describe())
}

func parseDouble(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case "nan":
		return math.NaN(), true
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), true
	case "-infinity", "-inf":
		return math.Inf(-1), true
	}
	if s == "" || strings.ContainsAny(s, "_xXpPnN") { // no hex floats, underscores, NaN spellings
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// maxExactExponent bounds the exponent of a float literal, so that its
// exact value (a rational with up to 10^maxExactExponent in it) stays
// small. Doubles lie within 10^±324 anyway.
const maxExactExponent = 1000

// exactText returns text when the exact value it denotes differs from the
// shortest decimal of its double f (the value numOf takes), or "" when
// they are equal (1e3, 2.5e-1). ok is false when the exponent is beyond
// ±maxExactExponent: such a literal rounds to 0 or infinity and cannot be
// held exactly at a bounded cost.
func exactText(text string, f float64) (exact string, ok bool) {
	i := strings.IndexAny(text, "eE")
	exp, err := strconv.Atoi(strings.TrimPrefix(text[i+1:], "+"))
	if err != nil || exp < -maxExactExponent || exp > maxExactExponent {
		return "", false
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return "", false
	}
	short, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if ok && r.Cmp(short) == 0 {
		return "", true
	}
	return text, true
}

// number converts the current number token, with an optional sign.
func (p *parser) number(sign string, pos int) (Literal, int, error) {
	text := p.tok.text
	full := sign + text
	var lit Literal
	switch {
	case strings.ContainsAny(text, "eE"):
		f, err := strconv.ParseFloat(full, 64)
		if err != nil {
			return Literal{}, pos, p.errorf(pos, "float %s out of range", full)
		}
		lit = Float(f)
		exact, ok := exactText(full, f)
		if !ok {
			return Literal{}, pos, p.errorf(pos, "float %s: exponent outside -%d..%d", full, maxExactExponent, maxExactExponent)
		}
		lit.exact = exact
	case strings.Contains(text, "."):
		l, err := ParseDecimalLiteral(full)
		if err != nil {
			return Literal{}, pos, p.errorf(pos, "bad decimal %s: %v", full, err)
		}
		lit = l
	default:
		if v, err := strconv.ParseInt(full, 10, 64); err == nil {
			lit = Int(v)
		} else if d, sc, err := orc.ParseDecimal(full); err == nil {
			lit = Decimal(d, sc)
		} else {
			return Literal{}, pos, p.errorf(pos, "integer %s does not fit in 128 bits", full)
		}
	}
	return lit, pos, p.advance()
}
