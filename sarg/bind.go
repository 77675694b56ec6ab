package sarg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// domain is how a bound leaf holds its literals and reads its column.
type domain uint8

const (
	domNone    domain = iota // struct, list, map, union: IS NULL only
	domInt                   // tinyint..bigint and date (days): int64, LongVector
	domBool                  // boolean: int64 0/1, LongVector
	domFloat                 // float, double: float64, DoubleVector
	domBytes                 // string, varchar, char, binary: BytesVector
	domDecimal               // decimal: orc.Int128 at the column's scale, DecimalVector
	domTime                  // timestamp, timestamp with local time zone: TimestampVector
	domGeo                   // geometry, geography: WKB in a BytesVector, geometry predicates only (geo.go, geoshape.go)
)

// boundLeaf is a leaf resolved against a schema, its literals converted
// exactly into the column's domain. op and the value slices may differ from
// the leaf as written (x < 5.5 on an int column is held as x <= 5); orig
// keeps what was written.
type boundLeaf struct {
	orig  *Leaf
	text  string // orig as written, in Parse's form
	col   *orc.Schema
	colID int
	anc   []int // ids of the struct columns between the root and col (the root excluded)
	dom   domain

	op         LeafOp // any LeafOp; LeafNullSafeEquals may hold several values (matches any)
	nullInList bool   // LeafIn: the list held NULL
	nanLit     bool   // a float NaN literal: statistics can't decide
	ints       []int64
	floats     []float64
	strs       []string
	decs       []orc.Int128
	decInts    []int64 // decs as int64, when every one fits (else nil)
	scale      int
	tss        []tsVal
	probes     [][]byte     // bloom filter probes for string, binary and decimal values
	like       *likePattern // LeafLike: the compiled pattern
	geo        geoTest      // a geometry predicate: a box test (geo.go) or a shape test (geoshape.go)
	term       *boundTerm   // a function or term leaf (Leaf.Func): the term and its inner comparison

	// A comparison of two columns (Leaf.Other): the second column.
	col2   *orc.Schema
	col2ID int
	anc2   []int
	scale2 int // decimal scale of col2

	// Large sets for row-level matching (see setLinearMax).
	sortedInts    []int64
	sortedDecInts []int64
	sortedFloats  []float64 // without NaN
	strSet        map[string]struct{}

	// For row evaluation of instants named by a zoned wall clock (see
	// zoneInstants): the polarity of the occurrence decides which instant
	// stands for a bound.
	neg bool
}

// bnode is a node of the bound tree: a constant, AND, OR, NOT, or a leaf
// (index into Bound.leaves).
type bnode struct {
	op   Op
	kids []bnode
	leaf int
}

// Bound is a predicate resolved against a schema: every column name is a
// column id, every literal converted to its column's domain. It is
// immutable and safe for concurrent use.
type Bound struct {
	schema *orc.Schema
	expr   Expr // the normalized predicate as written
	root   bnode
	leaves []*boundLeaf
}

// ErrUnknownColumn is wrapped by Bind's errors for a leaf naming a column
// the schema does not have.
var ErrUnknownColumn = errors.New("sarg: unknown column")

// ErrTypeMismatch is wrapped by Bind's errors for a literal that cannot be
// compared with its column's type (or an operator the type does not allow).
var ErrTypeMismatch = errors.New("sarg: literal does not match the column's type")

// BindError is the error Bind returns for a leaf that does not fit the
// schema: it names the column and wraps ErrUnknownColumn or
// ErrTypeMismatch.
type BindError struct {
	Column string // the column as the leaf names it
	Leaf   string // the leaf as written ("" for an unknown column)
	Err    error  // ErrUnknownColumn or ErrTypeMismatch
	Msg    string
}

// Error returns the message.
func (e *BindError) Error() string { return e.Msg }

// Unwrap returns ErrUnknownColumn or ErrTypeMismatch.
func (e *BindError) Unwrap() error { return e.Err }

// Bind resolves e against schema, whose root must be a struct.
//
// The predicate is normalized first (NOT pushed down to the leaves, see
// Normalize). Each column path is looked up field by field; an unknown
// column is an error naming it. Each literal must be comparable with its
// column, and is converted to the column's domain only when the conversion
// keeps the predicate's meaning exactly:
//
//   - integer, float and decimal literals compare by exact numeric value
//     with integer and decimal columns; a literal that is not a value of the
//     column's domain is rewritten (x < 5.5 on an integer column is x <= 5,
//     x = 5.5 matches no row, x <=> 5.5 is FALSE). A float literal's value
//     is the shortest decimal that reads back as the same float (1e-1 is
//     0.1). On float and double columns comparisons happen in double
//     precision, as in SQL engines: the literal is rounded to the nearest
//     double. NaN is allowed only on float and double columns, where
//     values are ordered with NaN equal to itself and above every number
//     and -0.0 equal to +0.0 (Hive's and Spark's order; since x > c is
//     NOT (x <= c), an order in which NaN fails every comparison could not
//     be kept).
//   - string and bytes literals compare bytewise with string, varchar, char
//     and binary columns; on a char(n) column the literal is padded with
//     spaces to n characters, as the stored values are.
//   - dates compare with date and timestamp columns (a date is its
//     midnight); a string literal on a date or timestamp column is read as a
//     date or timestamp when it is one.
//   - on a timestamp column (wall clock) a timestamp literal's wall clock is
//     compared, whatever zone it was written in; instants are refused.
//   - on a timestamp with local time zone column (instants) an instant
//     literal compares directly; a wall clock needs the zone it was written
//     in, and names the instants at which that zone's clocks showed it
//     (none in a DST gap, two in an overlap): = and IN match any of them,
//     and a bound takes the earliest instant when it is a lower bound of the
//     rows selected and the latest when it is an upper bound, so that no
//     reading of the wall clock selects a row the predicate leaves out. In a
//     gap both are the transition instant.
//   - booleans compare with boolean columns (FALSE < TRUE).
//   - struct, list, map and union columns allow only IS NULL.
//
// NULL is allowed only in IN lists and with <=> (where it means IS NULL).
func Bind(e Expr, schema *orc.Schema) (*Bound, error) {
	if schema == nil || schema.Kind != orc.Struct {
		return nil, fmt.Errorf("sarg: the schema's root must be a struct")
	}
	if err := validate(e, 0); err != nil {
		return nil, err
	}
	n := Normalize(e)
	b := &Bound{schema: schema, expr: n}
	keys := map[string]int{}
	root, err := b.bindNode(n, false, keys)
	if err != nil {
		return nil, err
	}
	b.root = foldB(root)
	return b, nil
}

// MustBind is Bind that panics on error, for tests and constants.
func MustBind(e Expr, schema *orc.Schema) *Bound {
	b, err := Bind(e, schema)
	if err != nil {
		panic(err)
	}
	return b
}

const maxExprDepth = 10000

func validate(e Expr, depth int) error {
	if depth > maxExprDepth {
		return fmt.Errorf("sarg: predicate nested deeper than %d", maxExprDepth)
	}
	switch e.Op {
	case OpTrue, OpFalse, OpNull:
		return nil
	case OpNot:
		if len(e.Children) != 1 {
			return fmt.Errorf("sarg: NOT needs one operand, has %d", len(e.Children))
		}
	case OpAnd, OpOr:
	case OpLeaf:
		return validateLeaf(e.Leaf)
	default:
		return fmt.Errorf("sarg: unknown node kind %d", e.Op)
	}
	for _, c := range e.Children {
		if err := validate(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// validateLeaf checks one leaf's shape.
func validateLeaf(l *Leaf) error {
	if l == nil {
		return fmt.Errorf("sarg: leaf node without a Leaf")
	}
	if l.Other != "" {
		switch l.Op {
		case LeafEquals, LeafNullSafeEquals, LeafLessThan, LeafLessThanEquals:
		default:
			return fmt.Errorf("sarg: %s cannot compare two columns: %s", l.Op, l)
		}
		if len(l.Literals) != 0 {
			return fmt.Errorf("sarg: a comparison of two columns has no literals: %s", l)
		}
		if l.Func != nil && l.Func.Kind != FuncNone {
			return fmt.Errorf("sarg: a function applies only to a column compared with literals: %s", l)
		}
		return nil
	}
	if l.Func != nil {
		if why := l.Func.check(); why != "" {
			return fmt.Errorf("sarg: %s: %s", l, why)
		}
	}
	want := -1
	switch l.Op {
	case LeafEquals, LeafNullSafeEquals, LeafLessThan, LeafLessThanEquals:
		want = 1
	case LeafBetween:
		want = 2
	case LeafIsNull:
		want = 0
	case LeafLike:
		want = 2
	case LeafIntersectsBox, LeafWithinBox:
		want = 4
	case LeafIntersects, LeafContains, LeafWithin:
		want = 1
	case LeafIn:
	default:
		return fmt.Errorf("sarg: unknown leaf operator %d", l.Op)
	}
	if want >= 0 && len(l.Literals) != want {
		return fmt.Errorf("sarg: %s needs %d literals, has %d: %s", l.Op, want, len(l.Literals), l)
	}
	if l.Op == LeafLike {
		if why := checkLike(l); why != "" {
			return fmt.Errorf("sarg: %s: %s", l, why)
		}
	}
	for _, lit := range l.Literals {
		if lit.IsNull() && l.Op != LeafIn && l.Op != LeafNullSafeEquals {
			return fmt.Errorf("sarg: NULL is only allowed in IN lists and with <=> (write IS NULL): %s", l)
		}
		if lit.kind > InstantLit {
			return fmt.Errorf("sarg: unknown literal kind in %s", l)
		}
		if lit.kind == DecimalLit && (lit.scale < 0 || lit.scale > 38) {
			return fmt.Errorf("sarg: decimal scale must be 0..38: %s", l)
		}
	}
	return nil
}

func (b *Bound) bindNode(e Expr, neg bool, keys map[string]int) (bnode, error) {
	switch e.Op {
	case OpTrue, OpFalse, OpNull:
		return bnode{op: e.Op}, nil
	case OpNot:
		c, err := b.bindNode(e.Children[0], !neg, keys)
		if err != nil {
			return bnode{}, err
		}
		return bnode{op: OpNot, kids: []bnode{c}}, nil
	case OpAnd, OpOr:
		kids := make([]bnode, len(e.Children))
		for i, c := range e.Children {
			k, err := b.bindNode(c, neg, keys)
			if err != nil {
				return bnode{}, err
			}
			kids[i] = k
		}
		return bnode{op: e.Op, kids: kids}, nil
	}
	bl, constant, err := b.bindLeaf(e.Leaf, neg)
	if err != nil {
		return bnode{}, err
	}
	if bl == nil {
		return bnode{op: constant}, nil
	}
	key := bl.key()
	if i, ok := keys[key]; ok {
		return bnode{op: OpLeaf, leaf: i}, nil
	}
	keys[key] = len(b.leaves)
	b.leaves = append(b.leaves, bl)
	return bnode{op: OpLeaf, leaf: len(b.leaves) - 1}, nil
}

// key identifies a bound leaf for sharing: same text, same column, same
// converted values.
func (l *boundLeaf) key() string {
	return fmt.Sprintf("%s|%d|%d|%d|%v|%v|%v|%q|%v|%d|%v|%v|%v", l.text, l.colID, l.col2ID, l.op, l.nullInList,
		l.ints, l.floats, l.strs, l.decs, l.scale, l.tss, l.nanLit, l.neg && l.usesPolarity())
}

func (l *boundLeaf) usesPolarity() bool {
	for _, lit := range l.orig.Literals {
		if lit.kind == TimestampLit && l.col.Kind == orc.TimestampInstant {
			return true
		}
	}
	return false
}

// foldB folds constants in a bound tree, as fold does for expressions.
func foldB(n bnode) bnode {
	switch n.op {
	case OpNot:
		c := foldB(n.kids[0])
		switch c.op {
		case OpTrue:
			return bnode{op: OpFalse}
		case OpFalse:
			return bnode{op: OpTrue}
		case OpNull:
			return c
		}
		return bnode{op: OpNot, kids: []bnode{c}}
	case OpAnd, OpOr:
		return foldJunction(n, foldB, func(op Op, kids []bnode) bnode { return bnode{op: op, kids: kids} })
	}
	return n
}

// resolve finds the column named by path, and the struct columns on the way.
func (b *Bound) resolve(path string) (*orc.Schema, []int, error) {
	parts, err := splitColumn(path)
	if err != nil {
		return nil, nil, err
	}
	n := b.schema
	var anc []int
	for i, p := range parts {
		if n.Kind != orc.Struct {
			return nil, nil, &BindError{Column: path, Err: ErrUnknownColumn, Msg: fmt.Sprintf("sarg: unknown column %q: %s is a %s, not a struct", path, Col(parts[:i]...), n.Kind)}
		}
		if i > 0 {
			anc = append(anc, n.ID())
		}
		j, ambiguous := n.FieldIndex(p)
		if ambiguous {
			return nil, nil, &BindError{Column: path, Err: ErrUnknownColumn, Msg: fmt.Sprintf("sarg: column %q: several fields match %q ignoring case and none exactly", path, p)}
		}
		if j < 0 {
			return nil, nil, &BindError{Column: path, Err: ErrUnknownColumn, Msg: fmt.Sprintf("sarg: unknown column %q", path) + unknownColumnHint(n, parts, i)}
		}
		n = n.Children[j]
	}
	return n, anc, nil
}

func domainOf(k orc.Kind) domain {
	switch k {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		return domInt
	case orc.Boolean:
		return domBool
	case orc.Float, orc.Double:
		return domFloat
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		return domBytes
	case orc.Decimal:
		return domDecimal
	case orc.Timestamp, orc.TimestampInstant:
		return domTime
	case orc.Geometry, orc.Geography:
		return domGeo
	}
	return domNone
}

// bindLeaf binds one leaf occurrence; neg says it sits under a NOT. It
// returns either a bound leaf or, when the leaf's value is the same for
// every row, a constant (OpTrue, OpFalse, OpNull).
func (b *Bound) bindLeaf(l *Leaf, neg bool) (*boundLeaf, Op, error) {
	switch {
	case l.Func != nil && l.Func.Kind == FuncTerm:
		return b.bindTermLeaf(l, *l.Func.Term, neg)
	case l.Func != nil && l.Func.Kind != FuncNone:
		return b.bindFunc(l, neg)
	case l.Other != "":
		if tl, ok := b.colsAsTerm(l); ok {
			return b.bindTermLeaf(tl, *tl.Func.Term, neg)
		}
	}
	col, anc, err := b.resolve(l.Column)
	if err != nil {
		return nil, 0, err
	}
	return b.bindResolved(l, col, col.ID(), anc, neg)
}

// bindResolved binds a leaf on a resolved column (for a function leaf,
// a column of the function's result type standing for the real one, id).
func (b *Bound) bindResolved(l *Leaf, col *orc.Schema, id int, anc []int, neg bool) (*boundLeaf, Op, error) {
	bl := &boundLeaf{orig: l, text: l.String(), col: col, colID: id, anc: anc, dom: domainOf(col.Kind), op: l.Op, neg: neg}
	if col.Kind == orc.Decimal {
		bl.scale = col.Scale
	}
	if l.Op == LeafIsNull {
		return bl, 0, nil
	}
	if l.Op.isGeo() || bl.dom == domGeo {
		return b.bindGeo(bl, l)
	}
	if l.Other != "" {
		if err := b.bindCols(bl, l); err != nil {
			return nil, 0, err
		}
		return bl, 0, nil
	}
	if bl.dom == domNone {
		return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch,
			Msg: fmt.Sprintf("sarg: %s: %s column %s allows only IS NULL", l, col.Kind, canonicalColumn(l.Column))}
	}
	if l.Op == LeafLike {
		if bl.dom != domBytes {
			return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch,
				Msg: fmt.Sprintf("sarg: %s: LIKE needs a string, varchar, char or binary column, not %s", l, withArticle(col.Kind.String()))}
		}
		if err := bindLike(bl, l); err != nil {
			return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch, Msg: fmt.Sprintf("sarg: %s: %v", l, err)}
		}
		return bl, 0, nil
	}
	if l.Op == LeafNullSafeEquals && l.Literals[0].IsNull() {
		bl.op = LeafIsNull // col <=> NULL is col IS NULL
		return bl, 0, nil
	}
	lits := l.Literals
	if l.Op == LeafIn {
		var kept []Literal
		for _, lit := range lits {
			if lit.IsNull() {
				bl.nullInList = true
			} else {
				kept = append(kept, lit)
			}
		}
		lits = kept
	}
	for _, lit := range lits {
		if why := checkComparable(col, lit); why != "" {
			return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch, Msg: fmt.Sprintf("sarg: %s: %s", l, why)}
		}
	}
	constant := bl.convert(l, col, lits, neg)
	if constant != OpLeaf {
		return nil, constant, nil
	}
	bl.prepare()
	return bl, 0, nil
}

// convert puts the literals into the column's domain (see rewrite) and
// returns OpLeaf, or the value the leaf has on every row.
func (bl *boundLeaf) convert(l *Leaf, col *orc.Schema, lits []Literal, neg bool) Op {
	constant := OpLeaf
	switch bl.dom {
	case domInt:
		if col.Kind == orc.Date {
			constant = bindDates(bl, lits)
		} else {
			convs := make([]conv[int64], len(lits))
			for i, lit := range lits {
				v, _ := numOf(lit)
				convs[i] = int64Conv(v)
			}
			bl.op, bl.ints, constant = rewrite(l.Op, convs)
		}
	case domBool:
		for _, lit := range lits {
			bl.ints = append(bl.ints, lit.i)
		}
	case domFloat:
		for _, lit := range lits {
			f := nearestFloat(lit)
			bl.nanLit = bl.nanLit || math.IsNaN(f)
			bl.floats = append(bl.floats, f)
		}
	case domDecimal:
		convs := make([]conv[orc.Int128], len(lits))
		for i, lit := range lits {
			v, _ := numOf(lit)
			convs[i] = decimalConv(v, col.Scale)
		}
		bl.op, bl.decs, constant = rewrite(l.Op, convs)
		for _, d := range bl.decs {
			bl.probes = append(bl.probes, []byte(orc.CanonicalDecimal(d, col.Scale)))
		}
		bl.decInts = decsAsInts(bl.decs)
	case domBytes:
		for _, lit := range lits {
			s := lit.s
			if col.Kind == orc.Char {
				s = padChar(s, col.MaxLength)
			}
			bl.strs = append(bl.strs, s)
			bl.probes = append(bl.probes, []byte(s))
		}
	case domTime:
		constant = bindTimes(bl, lits, neg)
	}
	return constant
}

// prepare builds the lookup structures of large IN lists.
func (l *boundLeaf) prepare() {
	if l.op != LeafIn && l.op != LeafNullSafeEquals {
		return
	}
	if len(l.ints) > setLinearMax {
		l.sortedInts = slices.Clone(l.ints)
		slices.Sort(l.sortedInts)
	}
	if len(l.decInts) > setLinearMax {
		l.sortedDecInts = slices.Clone(l.decInts)
		slices.Sort(l.sortedDecInts)
	}
	if len(l.floats) > setLinearMax {
		for _, f := range l.floats {
			if f == f {
				l.sortedFloats = append(l.sortedFloats, f)
			}
		}
		slices.Sort(l.sortedFloats)
	}
	if len(l.strs) > setLinearMax {
		l.strSet = make(map[string]struct{}, len(l.strs))
		for _, s := range l.strs {
			l.strSet[s] = struct{}{}
		}
	}
}

// checkComparable returns why lit cannot be compared with col, or "".
func checkComparable(col *orc.Schema, lit Literal) string {
	k := lit.kind
	switch domainOf(col.Kind) {
	case domInt:
		if col.Kind == orc.Date {
			switch k {
			case DateLit:
				return ""
			case TimestampLit:
				return ""
			case StringLit:
				if _, ok := parseDate(lit.s); ok {
					return ""
				}
				if t, err := parseTimestamp(lit.s); err == nil && t.kind == TimestampLit {
					return ""
				}
				return fmt.Sprintf("string %s is not a date", lit)
			case InstantLit:
				return "an instant cannot be compared with a date column (a date has no zone); write a DATE or a wall-clock TIMESTAMP"
			}
			return fmt.Sprintf("%s literal cannot be compared with a date column", withArticle(k.String()))
		}
		if k == IntLit || k == DecimalLit || k == FloatLit && !math.IsNaN(lit.f) {
			return ""
		}
		if k == FloatLit {
			return "NaN can only be compared with float and double columns"
		}
	case domFloat:
		if k == IntLit || k == DecimalLit || k == FloatLit {
			return ""
		}
	case domDecimal:
		if k == IntLit || k == DecimalLit || k == FloatLit && !math.IsNaN(lit.f) {
			return ""
		}
		if k == FloatLit {
			return "NaN can only be compared with float and double columns"
		}
	case domBool:
		if k == BoolLit {
			return ""
		}
	case domBytes:
		if k == StringLit || k == BytesLit {
			return ""
		}
	case domTime:
		local := col.Kind == orc.Timestamp
		switch k {
		case DateLit:
			if local {
				return ""
			}
			return "a date cannot be compared with a timestamp with local time zone column (it names no instant); write TIMESTAMP '... zone' or an instant"
		case TimestampLit:
			if local || lit.loc != nil {
				return ""
			}
			return "a wall-clock timestamp without a zone cannot be compared with a timestamp with local time zone column; add the zone (TIMESTAMP '2024-03-10 01:30:00 Europe/Paris') or write an instant ('...Z')"
		case InstantLit:
			if !local {
				return ""
			}
			return "an instant cannot be compared with a timestamp column (a wall clock without zone); write a wall-clock TIMESTAMP"
		case StringLit:
			if _, ok := parseDate(lit.s); ok && local {
				return ""
			}
			t, err := parseTimestamp(lit.s)
			if err != nil {
				return fmt.Sprintf("string %s is not a timestamp", lit)
			}
			return checkComparable(col, t)
		}
	}
	return fmt.Sprintf("%s literal cannot be compared with %s column", withArticle(k.String()), withArticle(col.Kind.String()))
}

// withArticle puts "a" or "an" before a word, as it is said ("an int",
// "a string").
func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// rewrite turns located literals into the leaf that selects the same rows
// (see convert.go). constant is OpLeaf when a leaf remains, else the value
// the leaf has on every row.
func rewrite[T any](op LeafOp, convs []conv[T]) (LeafOp, []T, Op) {
	never := func() (LeafOp, []T, Op) { return LeafIn, nil, OpLeaf } // IN (): FALSE, or NULL on null rows
	switch op {
	case LeafEquals, LeafNullSafeEquals:
		c := convs[0]
		if c.exact {
			return op, []T{c.floor}, OpLeaf
		}
		if op == LeafNullSafeEquals {
			return op, nil, OpFalse
		}
		return never()
	case LeafLessThan, LeafLessThanEquals:
		c := convs[0]
		if c.exact {
			return op, []T{c.floor}, OpLeaf
		}
		if !c.hasFloor {
			return never()
		}
		return LeafLessThanEquals, []T{c.floor}, OpLeaf
	case LeafBetween:
		lo, hi := convs[0], convs[1]
		if !lo.hasCeil || !hi.hasFloor {
			return never()
		}
		return LeafBetween, []T{lo.ceil, hi.floor}, OpLeaf
	case LeafIn:
		var vals []T
		for _, c := range convs {
			if c.exact {
				vals = append(vals, c.floor)
			}
		}
		return LeafIn, vals, OpLeaf
	}
	return op, nil, OpLeaf
}

// bindDates converts date, wall-clock timestamp and string literals to days.
func bindDates(bl *boundLeaf, lits []Literal) Op {
	convs := make([]conv[int64], len(lits))
	for i, lit := range lits {
		lit = stringAsTime(lit)
		switch lit.kind {
		case DateLit:
			convs[i] = conv[int64]{exact: true, floor: lit.i, hasFloor: true, ceil: lit.i, hasCeil: true}
		case TimestampLit:
			convs[i] = daysConv(tsVal{lit.i, lit.nanos})
		}
	}
	var c Op
	bl.op, bl.ints, c = rewrite(bl.orig.Op, convs)
	return c
}

// stringAsTime reads a string literal as a date when it is one, else as a
// timestamp when it is one; other literals are returned as they are.
func stringAsTime(lit Literal) Literal {
	if lit.kind != StringLit {
		return lit
	}
	if d, ok := parseDate(lit.s); ok {
		return Literal{kind: DateLit, i: d}
	}
	if t, err := parseTimestamp(lit.s); err == nil {
		return t
	}
	return lit
}

// bindTimes converts literals for timestamp columns.
func bindTimes(bl *boundLeaf, lits []Literal, neg bool) Op {
	instantCol := bl.col.Kind == orc.TimestampInstant
	// Each literal becomes the set of instants (or wall clocks) it names.
	sets := make([][]tsVal, len(lits))
	gaps := make([]tsVal, len(lits))
	for i, lit := range lits {
		lit = stringAsTime(lit)
		switch {
		case lit.kind == DateLit:
			sets[i] = []tsVal{{lit.i * 86400, 0}}
		case lit.kind == TimestampLit && instantCol:
			sets[i], gaps[i] = zoneInstants(tsVal{lit.i, lit.nanos}, lit.loc)
		default:
			sets[i] = []tsVal{{lit.i, lit.nanos}}
		}
	}
	// lower/upper pick the instant standing for literal i as a lower or
	// upper bound of the rows the leaf selects; under NOT the roles swap,
	// since NOT (x < W) selects x >= W.
	pick := func(i int, upper bool) tsVal {
		s := sets[i]
		if len(s) == 0 {
			return gaps[i]
		}
		if upper != neg {
			return s[len(s)-1]
		}
		return s[0]
	}
	switch bl.orig.Op {
	case LeafEquals, LeafNullSafeEquals, LeafIn:
		var all []tsVal
		for _, s := range sets {
			all = append(all, s...)
		}
		switch {
		case bl.orig.Op == LeafIn:
			bl.op = LeafIn
		case len(all) == 0 && bl.orig.Op == LeafNullSafeEquals:
			return OpFalse
		case len(all) == 1:
			bl.op = bl.orig.Op
		case bl.orig.Op == LeafEquals:
			bl.op = LeafIn // several instants (an overlap) or none (a gap)
		default:
			bl.op = LeafNullSafeEquals // matches any of the instants
		}
		bl.tss = all
	case LeafLessThan, LeafLessThanEquals:
		bl.tss = []tsVal{pick(0, true)}
	case LeafBetween:
		bl.tss = []tsVal{pick(0, false), pick(1, true)}
	}
	return OpLeaf
}

// padChar pads s with spaces to n characters, as char(n) values are stored.
// A longer literal loses trailing spaces down to n characters; one that is
// still longer is kept (it equals no stored value).
func padChar(s string, n int) string {
	c := utf8.RuneCountInString(s)
	if c < n {
		return s + strings.Repeat(" ", n-c)
	}
	for c > n && strings.HasSuffix(s, " ") {
		s = s[:len(s)-1]
		c--
	}
	return s
}

// Leaves returns the bound leaves in the order Evaluate, EvaluateLeaves and
// Explain number them.
func (b *Bound) Leaves() []LeafInfo {
	out := make([]LeafInfo, len(b.leaves))
	for i, l := range b.leaves {
		out[i] = LeafInfo{Column: l.colID, Name: canonicalColumn(l.orig.Column), Op: l.orig.Op, Text: l.text, Kind: l.col.Kind}
		if l.col2 != nil {
			out[i].Other, out[i].OtherName = l.col2ID, canonicalColumn(l.orig.Other)
		}
	}
	return out
}

// LeafInfo describes a bound leaf.
type LeafInfo struct {
	Column int      // column id
	Name   string   // column path
	Kind   orc.Kind // column type
	Op     LeafOp   // operator as written
	Text   string   // the leaf as written, such as "c1 = '619sdc'"
	// Other is the id of the second column of a comparison of two
	// columns (a < b), and OtherName its path; 0 and "" otherwise.
	Other     int
	OtherName string
}

// Columns returns the ids of the columns the leaves read, ascending, without
// duplicates.
func (b *Bound) Columns() []int {
	var ids []int
	for _, l := range b.leaves {
		if l.term != nil {
			ids = append(ids, l.term.cols...)
			continue
		}
		ids = append(ids, l.colID)
		if l.col2 != nil {
			ids = append(ids, l.col2ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// Schema returns the schema the predicate was bound to.
func (b *Bound) Schema() *orc.Schema { return b.schema }

// Expr returns the normalized predicate as written (before conversions).
func (b *Bound) Expr() Expr { return b.expr }

// String returns the bound predicate: the normalized predicate with leaves
// that are constant for every row folded away.
func (b *Bound) String() string { return b.format(b.root, nil) }
