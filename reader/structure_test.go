package reader

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The package's bounds on its own shape (issue 46): a function longer
// than maxFuncLines is several steps that want names of their own; a
// struct with more than maxFields fields, counted through the structs of
// the package it holds by value, or an unexported type with more than
// maxMethods methods, is several roles in one type.
const (
	maxFuncLines = 80
	maxFields    = 24
	maxMethods   = 30
)

// TestStructure parses the package's non-test files and fails on a
// function longer than maxFuncLines, a struct with more than maxFields
// fields (counting through every field whose type is a struct of the
// package held by value; a pointer counts as one) and an unexported type
// with more than maxMethods methods. It logs the largest of each.
func TestStructure(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]*ast.StructType{}
	methods := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				lines := fset.Position(d.End()).Line - fset.Position(d.Pos()).Line + 1
				if lines > maxFuncLines {
					t.Errorf("%s: %s spans %d lines, over %d", fset.Position(d.Pos()), d.Name.Name, lines, maxFuncLines)
				}
				if d.Recv != nil && len(d.Recv.List) == 1 {
					methods[recvName(d.Recv.List[0].Type)]++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							structs[ts.Name.Name] = st
						}
					}
				}
			}
		}
	}
	type count struct {
		name string
		n    int
	}
	var fields, meths []count
	for name, st := range structs {
		fields = append(fields, count{name, fieldsThrough(st, structs, map[string]bool{name: true})})
	}
	for name, n := range methods {
		meths = append(meths, count{name, n})
	}
	for _, c := range [][]count{fields, meths} {
		sort.Slice(c, func(i, j int) bool { return c[i].n > c[j].n || c[i].n == c[j].n && c[i].name < c[j].name })
	}
	t.Logf("most fields (through structs held by value): %v", fields[:min(5, len(fields))])
	t.Logf("most methods: %v", meths[:min(5, len(meths))])
	for _, c := range fields {
		if c.n > maxFields {
			t.Errorf("struct %s has %d fields counted through those held by value, over %d", c.name, c.n, maxFields)
		}
	}
	for _, c := range meths {
		if c.n > maxMethods && !ast.IsExported(c.name) {
			t.Errorf("type %s has %d methods, over %d", c.name, c.n, maxMethods)
		}
	}
}

// recvName returns the type name of a method's receiver.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// fieldsThrough counts st's fields, counting a field whose type is a
// struct of the package held by value (named, embedded or inline) as that
// struct's fields; a pointer counts as one.
func fieldsThrough(st *ast.StructType, structs map[string]*ast.StructType, seen map[string]bool) int {
	n := 0
	for _, f := range st.Fields.List {
		names := max(len(f.Names), 1)
		switch ty := f.Type.(type) {
		case *ast.StructType:
			n += names * fieldsThrough(ty, structs, seen)
			continue
		case *ast.Ident:
			if inner, ok := structs[ty.Name]; ok && !seen[ty.Name] {
				seen[ty.Name] = true
				n += names * fieldsThrough(inner, structs, seen)
				delete(seen, ty.Name)
				continue
			}
		}
		n += names
	}
	return n
}
