package orc_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGodocNamesNoFiles: the documentation users read with go doc (package
// comments and the comments of exported names, their line comments and
// those of exported struct fields, outside internal/ and cmd/) names no
// source file, which readers of the API cannot see.
func TestGodocNamesNoFiles(t *testing.T) {
	file := regexp.MustCompile(`\b[a-z][a-z0-9_]*\.go\b`)
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch {
			case path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"),
				strings.HasPrefix(path, "internal"), strings.HasPrefix(path, "cmd"),
				strings.Contains(path, "/internal"), path == "bench", path == "arrow":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".pb.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil // a generator, not an API
		}
		check := func(cg *ast.CommentGroup, what string) {
			if cg == nil {
				return
			}
			if m := file.FindString(cg.Text()); m != "" {
				t.Errorf("%s: the doc of %s names %s", path, what, m)
			}
		}
		check(f.Doc, "package "+f.Name.Name)
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
					check(d.Doc, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch s := sp.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							check(d.Doc, s.Name.Name)
							check(s.Doc, s.Name.Name)
							checkFields(s, check)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								check(d.Doc, n.Name)
								check(s.Doc, n.Name)
								check(s.Comment, n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	x := recv.List[0].Type
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.IsExported()
		default:
			return false
		}
	}
}

// checkFields checks the comments of an exported struct type's exported
// fields, which go doc shows with the type.
func checkFields(s *ast.TypeSpec, check func(*ast.CommentGroup, string)) {
	st, ok := s.Type.(*ast.StructType)
	if !ok {
		return
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() {
				check(f.Doc, s.Name.Name+"."+n.Name)
				check(f.Comment, s.Name.Name+"."+n.Name)
			}
		}
	}
}
