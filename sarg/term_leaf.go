package sarg

// Term leaves: a leaf that compares a term (Leaf.Func.Kind == FuncTerm)
// with literals, bound as the term and an inner leaf that compares the
// term's values as if they were a column of the term's type, as function
// leaves are (funcleaf.go). Pruning maps every node's interval bottom-up
// from its columns' statistics and lets the inner leaf decide against the
// root's; rows are evaluated a column at a time and then compared by the
// inner leaf; EvalRow computes the term plainly.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// boundTerm is a term leaf's term and comparison.
type boundTerm struct {
	node  *tnode
	inner *boundLeaf
	cols  []int   // the columns the term reads
	name  string  // the function of a function leaf (MONTH), else the term
	nodes int     // the number of nodes
	holds bool    // the leaf is the boolean term = TRUE
	kern  *kernel // the compiled term, or nil
}

// termScratch holds one Matcher's buffers for a term leaf: the values of
// every node, the argument lists, and the vector the comparison reads.
type termScratch struct {
	vecs []tvec
	args [][]*tvec
	out  orc.Vector
	kern *kernScratch
}

// scratch returns buffers for the term's evaluation.
func (bt *boundTerm) scratch() *termScratch {
	sc := &termScratch{vecs: make([]tvec, bt.nodes), args: make([][]*tvec, bt.nodes)}
	bt.node.walk(func(nd *tnode) { sc.args[nd.id] = make([]*tvec, len(nd.kids)) })
	if bt.kern != nil {
		sc.kern = bt.kern.scratch()
	}
	return sc
}

// walk calls f on every node, children first.
func (nd *tnode) walk(f func(*tnode)) {
	for _, k := range nd.kids {
		k.walk(f)
	}
	f(nd)
}

// termColumnID is the id the inner leaf of a term leaf reads its
// statistics under (no column has it).
const termColumnID = -1

// bindTermLeaf binds a leaf whose Func is a term.
func (b *Bound) bindTermLeaf(l *Leaf, t Term, neg bool) (*boundLeaf, Op, error) {
	mismatch := func(err error) (*boundLeaf, Op, error) {
		var be *BindError
		if errors.As(err, &be) {
			return nil, 0, err
		}
		return nil, 0, &BindError{Column: l.Column, Leaf: l.String(), Err: ErrTypeMismatch, Msg: fmt.Sprintf("sarg: %s: %v", l, err)}
	}
	tn, err := b.bindTerm(t, 0)
	if err != nil {
		return mismatch(err)
	}
	res := tn.t.schema()
	if c := tn.casedChar(); c != nil && l.Func.Kind != FuncTerm {
		// LOWER(c) and UPPER(c) of a char column keep the padding, and
		// their literals are padded (7.17).
		c.char, res = false, c.col
	}
	il := *l
	il.Func, il.Column = nil, "_"
	inner, constant, err := b.bindResolved(&il, res, termColumnID, nil, neg)
	if err != nil {
		if be, ok := err.(*BindError); ok {
			be.Msg = strings.Replace(be.Msg, il.String(), l.String(), 1)
			be.Msg = strings.Replace(be.Msg, "column _", "expression "+t.String(), 1)
			be.Leaf, be.Column = l.String(), l.Column
		}
		return nil, 0, err
	}
	if inner == nil {
		return nil, constant, nil
	}
	inner.text = l.String()
	bt := &boundTerm{node: tn, inner: inner, name: t.String()}
	bt.holds = inner.dom == domBool && inner.op == LeafEquals && len(inner.ints) == 1 && inner.ints[0] == 1 && !inner.nullInList
	if l.Func.Kind != FuncTerm {
		bt.name = l.Func.Kind.String()
	}
	tn.walkColumns(func(c *tnode) { bt.cols = append(bt.cols, c.colID) })
	tn.walk(func(nd *tnode) {
		nd.id = bt.nodes
		bt.nodes++
		nd.prepFast()
	})
	slices.Sort(bt.cols)
	bt.cols = slices.Compact(bt.cols)
	bt.kern = compileKernel(bt)
	if len(bt.cols) == 0 {
		// No column: the same value on every row.
		v, err := bt.plain(nil)
		if err != nil {
			return mismatch(err)
		}
		return nil, [...]Op{rowFalse: OpFalse, rowNull: OpNull, rowTrue: OpTrue}[v], nil
	}
	bl := &boundLeaf{orig: l, text: l.String(), col: res, colID: bt.cols[0], dom: domainOf(res.Kind), op: inner.op, neg: neg, term: bt}
	return bl, 0, nil
}

// walkColumns calls f on every column node.
func (nd *tnode) walkColumns(f func(*tnode)) {
	if nd.col != nil {
		f(nd)
	}
	for _, k := range nd.kids {
		k.walkColumns(f)
	}
}

// evaluate decides the leaf on one unit from the term's interval.
func (bt *boundTerm) evaluate(src Source) TruthValue {
	if a, b, ok := bt.wrappedRoot(src); ok {
		return bt.decide(src, a.stats(bt.node.t)) | bt.decide(src, b.stats(bt.node.t))
	}
	var st *stats.Column
	if iv, ok := bt.node.ival64Of(src); ok && !forceWide {
		st = iv.stats(bt.node.t)
	} else {
		st = bt.node.ivalOf(src).stats(bt.node.t)
	}
	return bt.decide(src, st)
}

// decide evaluates the comparison on the root's values summarized by st.
func (bt *boundTerm) decide(src Source, st *stats.Column) TruthValue {
	st.Kind = bt.inner.col.Kind // char(n) for LOWER and UPPER of a char column
	return bt.inner.evaluate(funcSource{Source: src, colID: termColumnID, st: st})
}

// wrappedRoot returns the root's values on the unit as two intervals when
// the root is a calendar part that wraps around between its argument's
// bounds (partFn.wrapped): the comparison may then have the outcomes it
// has on either, and none it has on neither.
func (bt *boundTerm) wrappedRoot(src Source) (ival, ival, bool) {
	f, ok := bt.node.fn.(partFn)
	if !ok {
		return ival{}, ival{}, false
	}
	return f.wrapped(bt.node.kids[0].ivalOf(src))
}

// match evaluates the leaf on rows 0..n-1, in sc's buffers.
func (bt *boundTerm) match(cols ColumnVectors, bounds ColumnBounds, n int, out []uint8, sc *termScratch, neg bool) (negated bool, err error) {
	if bt.kern != nil {
		if ok, negated := bt.kern.run(cols, bounds, n, out[:n], sc.kern, neg); ok {
			return negated, nil
		}
	}
	return false, bt.matchGeneral(cols, n, out, sc)
}

// matchGeneral is match where the term has no kernel, or its kernel
// gave up on the batch.
func (bt *boundTerm) matchGeneral(cols ColumnVectors, n int, out []uint8, sc *termScratch) error {
	var v *tvec
	var err error
	if f, ok := bt.node.fn.(compareFn); ok && bt.holds {
		// A comparison of two terms: its outcomes directly, where it can.
		var args []*tvec
		if args, err = bt.node.evalArgs(cols, n, sc); err != nil {
			return err
		}
		if f.outcomes(args, n, out) {
			return nil
		}
		v, err = bt.node.apply(args, n, sc)
	} else {
		v, err = bt.node.eval(cols, n, sc)
	}
	if err != nil {
		return err
	}
	if bt.node.t.k == tkDec {
		if bt.inner.dom == domDecimal && bt.inner.decInts != nil && v.narrowDec(n) {
			bt.inner.matchNarrowDec(v.n64, v.null, n, out)
			return nil
		}
		v.widenDec(n)
	}
	_, err = bt.inner.match(v.vector(bt.node.t, n, &sc.out), false, false, n, out)
	return err
}

// plain evaluates the leaf on one row.
func (bt *boundTerm) plain(values map[int]any) (uint8, error) {
	v, err := bt.node.plainOf(values)
	if err != nil {
		return 0, err
	}
	rv, err := evalRowValue(bt.node.t, v)
	if err != nil {
		return 0, err
	}
	return bt.inner.evalPlain(rv)
}

// colsAsTerm returns a comparison of two columns of different families as
// a term leaf, when SQL compares them (an integer with a double, a date
// with a timestamp, a char with a string).
func (b *Bound) colsAsTerm(l *Leaf) (*Leaf, bool) {
	c1, _, err1 := b.resolve(l.Column)
	c2, _, err2 := b.resolve(l.Other)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	fa, fb := family(c1), family(c2)
	if fa == fb || numericPair(fa, fb) {
		return nil, false
	}
	t1, ok1 := typeOfColumn(c1)
	t2, ok2 := typeOfColumn(c2)
	if !ok1 || !ok2 {
		return nil, false
	}
	if _, ok := comparable(t1, t2); !ok {
		return nil, false
	}
	op := map[LeafOp]string{LeafEquals: "=", LeafLessThan: "<", LeafLessThanEquals: "<=", LeafNullSafeEquals: "<=>"}[l.Op]
	if op == "" {
		return nil, false
	}
	e := Holds(Call(op, ColTerm(l.Column), ColTerm(l.Other)))
	return e.Leaf, true
}

// explain describes the intervals of the term's nodes on the unit, one
// line per node, children before their parent, and which node decided:
// the root, whose interval the comparison is decided against, when it
// rules out TRUE or FALSE.
func (bt *boundTerm) explain(src Source, v TruthValue) string {
	var sb strings.Builder
	var walk func(nd *tnode)
	walk = func(nd *tnode) {
		for _, k := range nd.kids {
			if k.fn != nil || k.col != nil {
				walk(k)
			}
		}
		if _, ok := nd.fn.(coercion); ok {
			return // a promotion has its argument's text
		}
		text := nd.ivalOf(src).format(nd.t)
		if nd == bt.node {
			if a, b, ok := bt.wrappedRoot(src); ok {
				a.null, b.null = false, false
				text = a.format(nd.t) + " and " + b.format(nd.t)
				if bt.node.kids[0].ivalOf(src).null {
					text += " or NULL"
				}
			}
		}
		fmt.Fprintf(&sb, "  %s: %s\n", nd.text, text)
	}
	walk(bt.node)
	if v&setTrue == 0 || v&setFalse == 0 {
		// An outcome ruled out: by the root's interval.
		fmt.Fprintf(&sb, "  decided by: %s\n", bt.node.text)
	}
	return sb.String()
}

// format writes an interval: "[lo, hi]", "any value", "no rows", "NULL",
// with " or NULL" where nulls may occur.
func (iv ival) format(t ttype) string {
	var s string
	switch {
	case !iv.val && !iv.null:
		return "no rows"
	case !iv.val:
		return "NULL"
	case !iv.bounded:
		s = "any value"
	default:
		s = "[" + formatTval(t, iv.lo) + ", " + formatTval(t, iv.hi) + "]"
	}
	if iv.null {
		s += " or NULL"
	}
	return s
}

// formatTval writes one bound of type t.
func formatTval(t ttype, v tval) string {
	switch t.k {
	case tkDouble:
		return Float(v.f).String()
	case tkStr, tkBin:
		return String(v.s).String()
	case tkTs, tkInstant:
		return string(appendDateTime(nil, v.ts.sec, v.ts.nanos))
	case tkDate:
		return string(appendDate(nil, v.r.Num().Int64()))
	case tkBool:
		return strings.ToUpper(fmt.Sprint(v.r.Sign() != 0))
	}
	if v.r.IsInt() {
		return v.r.Num().String()
	}
	return v.r.FloatString(t.scale)
}

// casedChar returns the char column under a LOWER or UPPER root, if that
// is the term.
func (nd *tnode) casedChar() *tnode {
	if f, ok := nd.fn.(textFn); ok && (f.op == txLower || f.op == txUpper) && nd.kids[0].char {
		return nd.kids[0]
	}
	return nil
}

// limit returns why the leaf can never prune, whatever the statistics,
// or "".
func (bt *boundTerm) limit() string {
	if n, ok := bt.node.fn.(interface{ never() string }); ok && n.never() != "" {
		return bt.name + ": " + n.never()
	}
	return bt.inner.limit()
}

// whyHere returns why the root's interval is unbounded on the unit, when
// its function can say, or "".
func (bt *boundTerm) whyHere(src Source) string {
	w, ok := bt.node.fn.(interface{ why(args []ival) string })
	if !ok {
		return ""
	}
	args := make([]ival, len(bt.node.kids))
	for i, k := range bt.node.kids {
		args[i] = k.ivalOf(src)
	}
	return w.why(args)
}

// funcSource is a Source whose column colID has the statistics of a
// term's values.
type funcSource struct {
	Source
	colID int
	st    *stats.Column
}

// Stats returns the term's statistics for colID.
func (s funcSource) Stats(column int) *stats.Column {
	if column == s.colID {
		return s.st
	}
	return s.Source.Stats(column)
}

// Bloom never answers: the filters hold the columns' values, not the
// term's.
func (s funcSource) Bloom(int) BloomFilter { return nil }
