package stats

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps the package a leaf: inside the module it may import only
// the root package and format (with its protobuf messages), and outside it
// only the standard library.
func TestImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/orcgo/orc":              true,
		"github.com/orcgo/orc/format":       true,
		"github.com/orcgo/orc/format/orcpb": true,
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
			if !std && !allowed[path] {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
