package sarg

import "github.com/orcgo/orc"

// ResolveNames returns e with each column name replaced by the exact path
// of the column of schema it names, field by field: the field whose name
// matches exactly, else the only one that matches ignoring case (the rule
// of reader.RowReader's struct fields). A name that finds no column, or
// several ignoring case and none exactly, is left as written for Bind to
// report. Readers resolve a predicate's names once, so that every later
// step (partition columns, schema evolution, the index) sees the schema's
// own spelling.
func ResolveNames(e Expr, schema *orc.Schema) Expr {
	switch {
	case e.Op == OpLeaf && e.Leaf != nil:
		l := *e.Leaf
		l.Column = resolveName(l.Column, schema)
		if l.Other != "" {
			l.Other = resolveName(l.Other, schema)
		}
		if l.Func != nil && l.Func.Term != nil {
			f := *l.Func
			t := f.Term.mapColumns(func(c string) string { return resolveName(c, schema) })
			f.Term = &t
			l.Func = &f
			return Expr{Op: OpLeaf, Leaf: &l}
		}
		if l.Column == e.Leaf.Column && l.Other == e.Leaf.Other {
			return e
		}
		return Expr{Op: OpLeaf, Leaf: &l}
	case len(e.Children) > 0:
		kids := make([]Expr, len(e.Children))
		for i, c := range e.Children {
			kids[i] = ResolveNames(c, schema)
		}
		return Expr{Op: e.Op, Children: kids}
	}
	return e
}

// resolveName returns the exact path of the column path names, or path.
func resolveName(path string, schema *orc.Schema) string {
	parts, err := splitColumn(path)
	if err != nil {
		return path
	}
	n := schema
	exact := make([]string, len(parts))
	for i, p := range parts {
		if n.Kind != orc.Struct {
			return path
		}
		j, _ := n.FieldIndex(p)
		if j < 0 {
			return path
		}
		exact[i], n = n.FieldNames[j], n.Children[j]
	}
	return Col(exact...)
}
