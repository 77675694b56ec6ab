package sarg

import (
	"fmt"
	"strings"

	"github.com/orcgo/orc"
)

// format prints a bound tree. Leaves print as written; NOT over a leaf in
// the leaf's negated form.
func (b *Bound) format(n bnode, _ []TruthValue) string {
	var sb strings.Builder
	b.writeNode(&sb, n)
	return sb.String()
}

func (b *Bound) writeNode(sb *strings.Builder, n bnode) {
	writeTree(sb, n, func(n bnode, neg bool) (string, bool) {
		l := b.leaves[n.leaf]
		switch {
		case !neg:
			return l.text, true
		case !l.orig.hasNegatedForm():
			return "", false
		}
		return l.orig.text(true), true
	})
}

func (n bnode) treeOp() Op        { return n.op }
func (n bnode) treeKids() []bnode { return n.kids }

// Effective returns the predicate that pruning effectively applies when
// only the columns for which indexed returns true have statistics: every
// leaf on another column (and NOT over it) can't decide, which for pruning
// is the same as TRUE, so it is replaced by TRUE and simplified away. For
// c1 = '619sdc' OR c2 = 100 AND c3 = 200 with c1 and c3 indexed the result
// is "c1 = '619sdc' OR c3 = 200"; with only c1 indexed it is "TRUE": no
// unit can be skipped.
func (b *Bound) Effective(indexed func(columnID int) bool) string {
	return b.EffectiveFor(func(leaf int) bool {
		l := b.leaves[leaf]
		return indexed(l.colID) && (l.col2 == nil || indexed(l.col2ID))
	})
}

// EffectiveFor is Effective with the decision per leaf (an index into
// Leaves): decided(i) false means leaf i can't decide, as when it evaluated
// to YesNoNull in a unit.
func (b *Bound) EffectiveFor(decided func(leaf int) bool) string {
	n, _ := b.reduce(b.root, decided)
	return b.format(foldB(n), nil)
}

// reduce replaces undecided leaves by TRUE, reporting whether the whole
// subtree became unknown.
func (b *Bound) reduce(n bnode, decided func(int) bool) (bnode, bool) {
	switch n.op {
	case OpLeaf:
		if !decided(n.leaf) {
			return bnode{op: OpTrue}, true
		}
		return n, false
	case OpNot:
		k, unknown := b.reduce(n.kids[0], decided)
		if unknown {
			return bnode{op: OpTrue}, true // NOT of unknown stays unknown
		}
		return bnode{op: OpNot, kids: []bnode{k}}, false
	case OpAnd, OpOr:
		kids := make([]bnode, len(n.kids))
		for i, c := range n.kids {
			kids[i], _ = b.reduce(c, decided)
		}
		return bnode{op: n.op, kids: kids}, false
	}
	return n, false
}

// Explain evaluates the predicate against one unit's statistics and
// describes the decision: one line per leaf with its truth value, the
// effective predicate (leaves that can't decide removed) and the result.
func (b *Bound) Explain(src Source) string {
	vals := b.EvaluateLeaves(src, nil)
	var sb strings.Builder
	for i, l := range b.leaves {
		fmt.Fprintf(&sb, "leaf %d: %s -> %s\n", i, l.text, vals[i])
		if l.geo != nil {
			fmt.Fprintf(&sb, "  %s\n", l.explainBox(src))
		}
		if l.term != nil && l.orig.Func != nil && l.orig.Func.Kind == FuncTerm {
			sb.WriteString(l.term.explain(src, vals[i]))
		}
	}
	for i, l := range b.leaves {
		if why := l.limit(); why != "" {
			fmt.Fprintf(&sb, "leaf %d cannot prune: %s\n", i, why)
		} else if l.term != nil && l.op != LeafIsNull {
			if why := l.term.whyHere(src); why != "" {
				fmt.Fprintf(&sb, "leaf %d cannot prune here: %s\n", i, why)
			}
		}
	}
	eff := b.EffectiveFor(func(i int) bool { return vals[i] != YesNoNull })
	res := b.Combine(vals)
	verdict := "read"
	if !res.IsNeeded() {
		verdict = "skip"
	}
	fmt.Fprintf(&sb, "effective: %s\nresult: %s (%s)\n", eff, res, verdict)
	return sb.String()
}

// limit returns why the leaf can never prune on its own (whatever the
// statistics say it only filters exactly), or "" when it may prune.
func (l *boundLeaf) limit() string {
	binary := l.col.Kind == orc.Binary
	switch {
	case l.op == LeafIsNull:
		return ""
	case l.term != nil:
		return l.term.limit()
	case l.nanLit:
		return "a NaN literal never prunes"
	case l.like != nil && binary:
		return "binary columns have no minimum and maximum, so only a pattern without wildcards prunes (through bloom filters)"
	case l.like != nil && l.like.prefix == "":
		return "the pattern starts with a wildcard, so it has no literal prefix to compare with the minimum and maximum"
	case l.col2 != nil && binary:
		return "binary columns have no minimum and maximum"
	case binary && l.op != LeafEquals && l.op != LeafNullSafeEquals && l.op != LeafIn:
		return "binary columns have no minimum and maximum, and bloom filters only answer equality"
	}
	return ""
}
