package sarg

// Normalize returns an equivalent predicate in which NOT appears only
// directly over leaves (De Morgan's laws push it down; NOT NOT p is p),
// nested ANDs and ORs are flattened, and constants are folded in SQL's
// three-valued logic: TRUE AND p is p, FALSE AND p is FALSE, TRUE OR p is
// TRUE, NOT NULL is NULL. The result may be a constant. NOT over a leaf is
// kept as it is: x > 5 stays NOT (x <= 5), since the leaf is what statistics
// are evaluated against.
func Normalize(e Expr) Expr { return fold(pushNot(e, false)) }

func pushNot(e Expr, neg bool) Expr {
	switch e.Op {
	case OpTrue, OpFalse:
		if neg {
			if e.Op == OpTrue {
				return False()
			}
			return True()
		}
		return e
	case OpNull:
		return e
	case OpLeaf:
		if neg {
			return Not(e)
		}
		return e
	case OpNot:
		if len(e.Children) != 1 {
			return NullExpr() // malformed; Bind rejects it before this matters
		}
		return pushNot(e.Children[0], !neg)
	case OpAnd, OpOr:
		op := e.Op
		if neg {
			op = OpAnd + OpOr - op
		}
		kids := make([]Expr, len(e.Children))
		for i, c := range e.Children {
			kids[i] = pushNot(c, neg)
		}
		return Expr{Op: op, Children: kids}
	}
	return e
}

// fold flattens and folds constants bottom-up. NOT appears only over leaves.
func fold(e Expr) Expr {
	if e.Op != OpAnd && e.Op != OpOr {
		return e
	}
	return foldJunction(e, fold, func(op Op, kids []Expr) Expr { return Expr{Op: op, Children: kids} })
}

// foldJunction folds the AND or OR n of a tree (an Expr's or a Bound's):
// each child folded by fold, a child that absorbs (FALSE under AND, TRUE
// under OR) makes n that constant, one that is the identity (TRUE under
// AND, FALSE under OR) vanishes, NULL stays once, and a child of n's own
// op gives its children; node makes a node of the tree.
func foldJunction[N treeNode[N]](n N, fold func(N) N, node func(op Op, kids []N) N) N {
	op := n.treeOp()
	absorb, identity := OpFalse, OpTrue
	if op == OpOr {
		absorb, identity = OpTrue, OpFalse
	}
	var kids []N
	sawNull := false
	var add func(c N) bool
	add = func(c N) bool {
		switch c.treeOp() {
		case absorb:
			return false
		case identity:
		case OpNull:
			if !sawNull {
				sawNull = true
				kids = append(kids, c)
			}
		case op:
			for _, g := range c.treeKids() {
				if !add(g) {
					return false
				}
			}
		default:
			kids = append(kids, c)
		}
		return true
	}
	for _, c := range n.treeKids() {
		if !add(fold(c)) {
			return node(absorb, nil)
		}
	}
	switch len(kids) {
	case 0:
		return node(identity, nil)
	case 1:
		return kids[0]
	}
	return node(op, kids)
}

// CNF returns the predicate normalized and rewritten as an AND of ORs of
// leaves (conjunctive normal form), which lets a reader evaluate each clause
// separately. Distributing OR over AND can multiply the size; when the
// result would have more than maxClauses clauses or a clause more than
// maxClauses leaves, CNF gives up and returns Normalize(e) and false.
func CNF(e Expr, maxClauses int) (Expr, bool) {
	n := Normalize(e)
	clauses, ok := cnf(n, maxClauses)
	if !ok {
		return n, false
	}
	ands := make([]Expr, len(clauses))
	for i, c := range clauses {
		ands[i] = Or(c...)
	}
	return fold(And(ands...)), true
}

// cnf returns the clauses of a normalized predicate, each a list of atoms
// (leaves, NOT leaves, constants).
func cnf(e Expr, limit int) ([][]Expr, bool) {
	switch e.Op {
	case OpAnd:
		var out [][]Expr
		for _, c := range e.Children {
			cs, ok := cnf(c, limit)
			if !ok {
				return nil, false
			}
			out = append(out, cs...)
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	case OpOr:
		out := [][]Expr{nil}
		for _, c := range e.Children {
			cs, ok := cnf(c, limit)
			if !ok || len(out)*len(cs) > limit {
				return nil, false
			}
			var next [][]Expr
			for _, a := range out {
				for _, b := range cs {
					if len(a)+len(b) > limit {
						return nil, false
					}
					clause := make([]Expr, 0, len(a)+len(b))
					clause = append(append(clause, a...), b...)
					next = append(next, clause)
				}
			}
			out = next
		}
		return out, true
	}
	return [][]Expr{{e}}, true
}
