package sarg

import (
	"fmt"
	"slices"
	"strings"
)

// Op is the kind of an Expr node.
type Op uint8

// The node kinds. The zero Expr is the constant TRUE: no predicate, every
// row matches.
const (
	OpTrue  Op = iota // constant TRUE
	OpFalse           // constant FALSE
	OpNull            // constant NULL (unknown for every row)
	OpAnd             // all children TRUE
	OpOr              // some child TRUE
	OpNot             // negation of its one child
	OpLeaf            // a comparison of one column with literals
)

// LeafOp is the comparison of a leaf. Greater-than, not-equal, NOT IN,
// NOT BETWEEN and IS NOT NULL are written as NOT over a leaf.
type LeafOp uint8

// The leaf comparisons (ORC's PredicateLeaf operators).
const (
	LeafEquals         LeafOp = iota // col = v (NULL when col is null)
	LeafNullSafeEquals               // col <=> v (never NULL; NULL <=> NULL is TRUE)
	LeafLessThan                     // col < v
	LeafLessThanEquals               // col <= v
	LeafIn                           // col IN (v1, v2, ...)
	LeafBetween                      // lo <= col AND col <= hi
	LeafIsNull                       // col IS NULL
	LeafLike                         // col LIKE pattern [ESCAPE c] (not an ORC operator; see Like)
	LeafIntersectsBox                // ST_INTERSECTS_BOX(col, xmin, ymin, xmax, ymax) (see IntersectsBox)
	LeafWithinBox                    // ST_WITHIN_BOX(col, xmin, ymin, xmax, ymax) (see WithinBox)
	LeafIntersects                   // ST_INTERSECTS(col, 'WKT'): the geometry meets the literal's (see Intersects)
	LeafContains                     // ST_CONTAINS(col, 'WKT'): the geometry contains the literal's (see Contains)
	LeafWithin                       // ST_WITHIN(col, 'WKT'): the literal's geometry contains the column's (see Within)
)

var leafOpNames = [...]string{"EQUALS", "NULL_SAFE_EQUALS", "LESS_THAN", "LESS_THAN_EQUALS", "IN", "BETWEEN", "IS_NULL", "LIKE",
	"ST_INTERSECTS_BOX", "ST_WITHIN_BOX", "ST_INTERSECTS", "ST_CONTAINS", "ST_WITHIN"}

// String returns ORC's name for the operator, such as "LESS_THAN_EQUALS".
func (o LeafOp) String() string {
	if int(o) < len(leafOpNames) {
		return leafOpNames[o]
	}
	return fmt.Sprintf("LeafOp(%d)", o)
}

// Leaf is a comparison of one column with literals.
type Leaf struct {
	Op LeafOp
	// Column names the column: struct field names joined by dots, with
	// backticks around a name that is not a plain identifier ("a.b",
	// "a.`odd.name`"; a backtick inside backticks is doubled). See Col.
	Column string
	// Literals holds one literal for LeafEquals, LeafNullSafeEquals,
	// LeafLessThan and LeafLessThanEquals, two (lo, hi) for LeafBetween, any
	// number for LeafIn, none for LeafIsNull, and two for LeafLike (the
	// pattern, a string or bytes literal, and the escape character, a
	// string of at most one character). The box predicates hold four
	// numbers (xmin, ymin, xmax, ymax); LeafIntersects, LeafContains and
	// LeafWithin one string, the well-known text of a geometry.
	Literals []Literal
	// Other, when set, names a second column that takes the literal's
	// place: the leaf compares two columns (Column op Other) and has no
	// literals. Only EQUALS, NULL_SAFE_EQUALS, LESS_THAN and
	// LESS_THAN_EQUALS compare columns; see LtCol.
	Other string
	// Func, when set, is a function of the column that the leaf compares
	// instead of the column itself: MONTH(ts) = 3, x + 1 < 5 (see Apply).
	Func *Func
}

// Expr is a predicate: a tree of AND, OR and NOT over leaves and constants.
// Build one with the functions And, Or, Not, Eq, Lt, ... or with Parse.
// Expr values are immutable once built; functions that transform them return
// new trees.
type Expr struct {
	Op       Op
	Children []Expr // AND and OR: two or more children; NOT: one
	Leaf     *Leaf  // for OpLeaf
}

// True returns the constant TRUE.
func True() Expr { return Expr{Op: OpTrue} }

// False returns the constant FALSE.
func False() Expr { return Expr{Op: OpFalse} }

// NullExpr returns the constant NULL (unknown for every row).
func NullExpr() Expr { return Expr{Op: OpNull} }

// And returns the conjunction of es. With no arguments it is TRUE, with one
// it is that argument.
func And(es ...Expr) Expr { return junction(OpAnd, OpTrue, es) }

// Or returns the disjunction of es. With no arguments it is FALSE, with one
// it is that argument.
func Or(es ...Expr) Expr { return junction(OpOr, OpFalse, es) }

func junction(op, empty Op, es []Expr) Expr {
	switch len(es) {
	case 0:
		return Expr{Op: empty}
	case 1:
		return es[0]
	}
	return Expr{Op: op, Children: append([]Expr(nil), es...)}
}

// Not returns the negation of e.
func Not(e Expr) Expr { return Expr{Op: OpNot, Children: []Expr{e}} }

func leaf(op LeafOp, col string, lits ...Literal) Expr {
	return Expr{Op: OpLeaf, Leaf: &Leaf{Op: op, Column: col, Literals: lits}}
}

// Eq returns col = v.
func Eq(col string, v Literal) Expr { return leaf(LeafEquals, col, v) }

// NullSafeEq returns col <=> v: TRUE when both are null or both equal,
// otherwise FALSE (never NULL).
func NullSafeEq(col string, v Literal) Expr { return leaf(LeafNullSafeEquals, col, v) }

// Ne returns col <> v, that is NOT (col = v).
func Ne(col string, v Literal) Expr { return Not(Eq(col, v)) }

// Lt returns col < v.
func Lt(col string, v Literal) Expr { return leaf(LeafLessThan, col, v) }

// Le returns col <= v.
func Le(col string, v Literal) Expr { return leaf(LeafLessThanEquals, col, v) }

// Gt returns col > v, that is NOT (col <= v).
func Gt(col string, v Literal) Expr { return Not(Le(col, v)) }

// Ge returns col >= v, that is NOT (col < v).
func Ge(col string, v Literal) Expr { return Not(Lt(col, v)) }

// In returns col IN (vs...). A NULL among vs makes a non-matching row
// NULL instead of FALSE; an empty list matches no row.
func In(col string, vs ...Literal) Expr {
	return leaf(LeafIn, col, append([]Literal(nil), vs...)...)
}

// NotIn returns col NOT IN (vs...), that is NOT (col IN (vs...)).
func NotIn(col string, vs ...Literal) Expr { return Not(In(col, vs...)) }

// Between returns col BETWEEN lo AND hi (both ends included).
func Between(col string, lo, hi Literal) Expr { return leaf(LeafBetween, col, lo, hi) }

// NotBetween returns col NOT BETWEEN lo AND hi, that is
// NOT (col BETWEEN lo AND hi).
func NotBetween(col string, lo, hi Literal) Expr { return Not(Between(col, lo, hi)) }

// IsNull returns col IS NULL.
func IsNull(col string) Expr { return leaf(LeafIsNull, col) }

// IsNotNull returns col IS NOT NULL, that is NOT (col IS NULL).
func IsNotNull(col string) Expr { return Not(IsNull(col)) }

// Col joins struct field names into a column path for the builders, quoting
// each name that is not a plain identifier: Col("a", "b.c") is "a.`b.c`".
func Col(names ...string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(quoteIdent(n))
	}
	return b.String()
}

// Equal reports whether two trees are the same, node by node, with equal
// literals (see Literal.Equal).
func (e Expr) Equal(o Expr) bool {
	if e.Op != o.Op || len(e.Children) != len(o.Children) {
		return false
	}
	if e.Op == OpLeaf {
		if e.Leaf == nil || o.Leaf == nil {
			return e.Leaf == o.Leaf
		}
		if !e.Leaf.equal(o.Leaf) {
			return false
		}
	}
	for i := range e.Children {
		if !e.Children[i].Equal(o.Children[i]) {
			return false
		}
	}
	return true
}

func (l *Leaf) equal(o *Leaf) bool {
	if l.Op != o.Op || canonicalColumn(l.Column) != canonicalColumn(o.Column) || len(l.Literals) != len(o.Literals) ||
		(l.Other == "") != (o.Other == "") || l.Other != "" && canonicalColumn(l.Other) != canonicalColumn(o.Other) ||
		!l.Func.equal(o.Func) {
		return false
	}
	for i := range l.Literals {
		if !l.Literals[i].Equal(o.Literals[i]) {
			return false
		}
	}
	return true
}

// mapLeaves returns e with f(l) in place of every leaf l: the AND, OR and
// NOT nodes above the leaves are new, the other nodes kept as they are.
func mapLeaves(e Expr, f func(leaf Expr) Expr) Expr {
	switch e.Op {
	case OpLeaf:
		return f(e)
	case OpAnd, OpOr, OpNot:
		kids := make([]Expr, len(e.Children))
		for i, c := range e.Children {
			kids[i] = mapLeaves(c, f)
		}
		return Expr{Op: e.Op, Children: kids}
	}
	return e
}

// String returns the predicate in the text form Parse reads, with as few
// parentheses as precedence (NOT > AND > OR) allows. NOT over a leaf is
// written in its negated form: x > 5, x <> 5, x NOT IN (...),
// x IS NOT NULL.
func (e Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e Expr) write(b *strings.Builder) {
	writeTree(b, e, func(e Expr, neg bool) (string, bool) {
		switch {
		case e.Leaf == nil:
			return "<nil leaf>", !neg
		case neg && !e.Leaf.hasNegatedForm():
			return "", false
		}
		return e.Leaf.text(neg), true
	})
}

func (e Expr) treeOp() Op       { return e.Op }
func (e Expr) treeKids() []Expr { return e.Children }

// treeNode is a node of a predicate tree as its text form sees it: an
// Expr, or a node of a Bound's tree.
type treeNode[N any] interface {
	treeOp() Op
	treeKids() []N
}

// writeTree writes the tree n in the text form Parse reads, with as few
// parentheses as precedence (NOT > AND > OR) allows. leaf returns a
// leaf's text, or with neg its negated form, false when it has none; NOT
// over a leaf with a negated form is written in that form.
func writeTree[N treeNode[N]](b *strings.Builder, n N, leaf func(n N, neg bool) (string, bool)) {
	kids := n.treeKids()
	switch op := n.treeOp(); op {
	case OpTrue:
		b.WriteString("TRUE")
	case OpFalse:
		b.WriteString("FALSE")
	case OpNull:
		b.WriteString("NULL")
	case OpLeaf:
		s, _ := leaf(n, false)
		b.WriteString(s)
	case OpNot:
		if len(kids) == 1 && kids[0].treeOp() == OpLeaf {
			if s, ok := leaf(kids[0], true); ok {
				b.WriteString(s)
				return
			}
		}
		b.WriteString("NOT (")
		for _, c := range kids {
			writeTree(b, c, leaf)
		}
		b.WriteString(")")
	case OpAnd, OpOr:
		sep := " AND "
		if op == OpOr {
			sep = " OR "
		}
		for i, c := range kids {
			if i > 0 {
				b.WriteString(sep)
			}
			paren := c.treeOp() == OpOr || c.treeOp() == OpAnd && op == OpAnd
			if paren {
				b.WriteByte('(')
			}
			writeTree(b, c, leaf)
			if paren {
				b.WriteByte(')')
			}
		}
	default:
		fmt.Fprintf(b, "<op %d>", op)
	}
}

func (l *Leaf) hasNegatedForm() bool {
	switch l.Op {
	case LeafNullSafeEquals:
		return false
	case LeafEquals, LeafLessThan, LeafLessThanEquals:
		return len(l.Literals) == 1 || l.Other != "" && len(l.Literals) == 0
	case LeafBetween, LeafLike:
		return len(l.Literals) == 2
	}
	return true
}

// text writes the leaf, or its negation when neg (only for ops with a
// negated form).
func (l *Leaf) text(neg bool) string {
	if l.Op.isGeo() {
		return l.geoText(neg)
	}
	if l.isHoldsLeaf() {
		return l.holdsText(neg)
	}
	var b []byte
	b = l.Func.appendSubject(b, canonicalColumn(l.Column))
	lit := func(i int) {
		if l.Other != "" {
			b = append(b, canonicalColumn(l.Other)...)
			return
		}
		if i < len(l.Literals) {
			b = l.Literals[i].appendText(b)
		} else {
			b = append(b, '?')
		}
	}
	switch l.Op {
	case LeafEquals, LeafNullSafeEquals, LeafLessThan, LeafLessThanEquals:
		ops := [...][2]string{LeafEquals: {" = ", " <> "}, LeafNullSafeEquals: {" <=> ", ""}, LeafLessThan: {" < ", " >= "}, LeafLessThanEquals: {" <= ", " > "}}
		if neg {
			b = append(b, ops[l.Op][1]...)
		} else {
			b = append(b, ops[l.Op][0]...)
		}
		lit(0)
	case LeafIn:
		if neg {
			b = append(b, " NOT"...)
		}
		b = append(b, " IN ("...)
		for i := range l.Literals {
			if i > 0 {
				b = append(b, ", "...)
			}
			lit(i)
		}
		b = append(b, ')')
	case LeafBetween:
		if neg {
			b = append(b, " NOT"...)
		}
		b = append(b, " BETWEEN "...)
		lit(0)
		b = append(b, " AND "...)
		lit(1)
	case LeafLike:
		if neg {
			b = append(b, " NOT"...)
		}
		b = append(b, " LIKE "...)
		lit(0)
		if len(l.Literals) > 1 && (l.Literals[1].kind != StringLit || l.Literals[1].s != DefaultEscape) {
			b = append(b, " ESCAPE "...)
			lit(1)
		}
	case LeafIsNull:
		if neg {
			b = append(b, " IS NOT NULL"...)
		} else {
			b = append(b, " IS NULL"...)
		}
	default:
		b = append(b, " ?op? "...)
	}
	return string(b)
}

// String returns the leaf in Parse's text form.
func (l *Leaf) String() string { return l.text(false) }

// Columns returns the names of the columns the leaf reads: its Column, the
// Other column it is compared with, and every column of a term it
// compares, each once, in order of appearance.
func (l *Leaf) Columns() []string {
	cols := []string{l.Column}
	if l.Other != "" {
		cols = append(cols, l.Other)
	}
	if l.Func != nil && l.Func.Term != nil {
		cols = l.Func.Term.columns(cols)
	}
	out := cols[:0]
	for i, c := range cols {
		if c != "" && !slices.Contains(cols[:i], c) {
			out = append(out, c)
		}
	}
	return out
}

var keywords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "IN": true, "BETWEEN": true, "IS": true, "NULL": true,
	"TRUE": true, "FALSE": true, "DATE": true, "TIMESTAMP": true, "DECIMAL": true, "DOUBLE": true,
	"LIKE": true,
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func quoteIdent(n string) string {
	plain := n != "" && isIdentStart(n[0]) && !keywords[strings.ToUpper(n)]
	for i := 0; plain && i < len(n); i++ {
		plain = isIdentChar(n[i])
	}
	// A lone X followed by a quote would read as a bytes literal; the name
	// itself is fine since names are never followed by a quote.
	if plain {
		return n
	}
	return "`" + strings.ReplaceAll(n, "`", "``") + "`"
}

// canonicalColumn re-quotes a column path so that Parse reads it back; a
// malformed path is returned as is.
func canonicalColumn(path string) string {
	parts, err := splitColumn(path)
	if err != nil {
		return path
	}
	return Col(parts...)
}

// splitColumn splits a column path into field names, undoing backticks.
func splitColumn(path string) ([]string, error) {
	var parts []string
	i := 0
	for {
		if i >= len(path) {
			return nil, fmt.Errorf("sarg: empty field name in column %q", path)
		}
		var name []byte
		if path[i] == '`' {
			i++
			for {
				if i >= len(path) {
					return nil, fmt.Errorf("sarg: unclosed backtick in column %q", path)
				}
				if path[i] == '`' {
					if i+1 < len(path) && path[i+1] == '`' {
						name = append(name, '`')
						i += 2
						continue
					}
					i++
					break
				}
				name = append(name, path[i])
				i++
			}
		} else {
			for i < len(path) && path[i] != '.' && path[i] != '`' {
				name = append(name, path[i])
				i++
			}
			if len(name) == 0 {
				return nil, fmt.Errorf("sarg: empty field name in column %q", path)
			}
		}
		parts = append(parts, string(name))
		if i == len(path) {
			return parts, nil
		}
		if path[i] != '.' {
			return nil, fmt.Errorf("sarg: expected '.' at byte %d of column %q", i, path)
		}
		i++
	}
}
