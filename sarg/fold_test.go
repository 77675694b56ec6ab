package sarg

import "testing"

// TestFoldBFlattensLikeFold checks that the bound tree's folding flattens
// an AND under an AND as fold does for expressions: the inner AND's NULL
// joins the outer one's (NULL counts once), whichever tree it is.
func TestFoldBFlattensLikeFold(t *testing.T) {
	leaf := func(i int) bnode { return bnode{op: OpLeaf, leaf: i} }
	null := bnode{op: OpNull}
	inner := bnode{op: OpAnd, kids: []bnode{null, leaf(1)}}
	got := foldB(bnode{op: OpAnd, kids: []bnode{null, leaf(0), inner}})
	if got.op != OpAnd || len(got.kids) != 3 || got.kids[0].op != OpNull || got.kids[1].leaf != 0 || got.kids[2].leaf != 1 {
		t.Errorf("foldB = %+v, want AND(NULL, leaf 0, leaf 1)", got)
	}
	e := fold(And(NullExpr(), Eq("a", Int(1)), And(NullExpr(), Eq("b", Int(2)))))
	if s := e.String(); s != "NULL AND a = 1 AND b = 2" {
		t.Errorf("fold = %s, want NULL AND a = 1 AND b = 2", s)
	}
	// An absorbing child inside the flattened one absorbs the whole.
	got = foldB(bnode{op: OpOr, kids: []bnode{leaf(0), {op: OpOr, kids: []bnode{leaf(1), {op: OpTrue}}}}})
	if got.op != OpTrue {
		t.Errorf("foldB = %+v, want TRUE", got)
	}
}
