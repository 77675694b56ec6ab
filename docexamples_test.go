package orc_test

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// reErrAssign matches a statement that assigns err.
	reErrAssign = regexp.MustCompile(`(^|[\s,(])err\s*:?=[^=]`)
	// reNextNil matches a loop on Next that ends at any error unseen.
	reNextNil = regexp.MustCompile(`\.Next\([^)]*\)\s*==\s*nil`)
)

// checkExample reports the statements of a Go example that drop an error:
// an err assigned and not looked at by the statement after it, and a loop
// on Next(...) == nil, which stops at a corrupt byte as it stops at the
// end and says nothing.
func checkExample(code string) []string {
	lines := strings.Split(code, "\n")
	var bad []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if reNextNil.MatchString(line) {
			bad = append(bad, "the loop "+strings.TrimSpace(line)+" ends silently at an error")
		}
		if !reErrAssign.MatchString(stripComment(line)) || strings.Contains(line, "err != nil") {
			continue
		}
		// The statement may go on over lines until its brackets close.
		depth, j := 0, i
		for ; j < len(lines); j++ {
			s := stripComment(lines[j])
			depth += strings.Count(s, "(") - strings.Count(s, ")")
			if depth <= 0 {
				break
			}
		}
		next := ""
		for k := j + 1; k < len(lines); k++ {
			if t := strings.TrimSpace(lines[k]); t != "" && !strings.HasPrefix(t, "//") {
				next = t
				break
			}
		}
		looks := regexp.MustCompile(`\berr\b`).MatchString(next) &&
			(!reErrAssign.MatchString(next) || strings.Contains(next, "err != nil"))
		if !looks {
			bad = append(bad, "the error of "+strings.TrimSpace(line)+" is not handled")
		}
	}
	return bad
}

// stripComment drops a line comment (not inside a string: a rough cut that
// suffices for the examples).
func stripComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 && strings.Count(s[:i], `"`)%2 == 0 {
		return s[:i]
	}
	return s
}

// The README's Go examples and the code blocks of the package docs handle
// every error: a user copies them as they are, and an example that drops an
// error teaches a scan that stops at a corrupt byte without a word. The
// README shows the All() form of a scan, as the package docs do.
func TestDocExamplesHandleErrors(t *testing.T) {
	t.Run("README", func(t *testing.T) {
		data, err := os.ReadFile("README.md")
		if err != nil {
			t.Fatal(err)
		}
		blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(data), -1)
		if len(blocks) < 3 {
			t.Fatalf("README.md: %d Go blocks found, want the library's examples", len(blocks))
		}
		all := false
		for _, b := range blocks {
			for _, p := range checkExample(b[1]) {
				t.Errorf("README.md: %s", p)
			}
			all = all || strings.Contains(b[1], "range br.All()")
		}
		if !all {
			t.Errorf("README.md: no example ranges over br.All()")
		}
	})
	t.Run("godoc", func(t *testing.T) {
		fset := token.NewFileSet()
		checked := 0
		err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch {
				case path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"),
					strings.HasPrefix(path, "internal"), strings.HasPrefix(path, "cmd"),
					strings.Contains(path, "/internal"), path == "bench":
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
			var p comment.Parser
			check := func(cg *ast.CommentGroup, what string) {
				if cg == nil {
					return
				}
				for _, b := range p.Parse(cg.Text()).Content {
					if c, ok := b.(*comment.Code); ok {
						checked++
						for _, msg := range checkExample(c.Text) {
							t.Errorf("%s: the doc of %s: %s", path, what, msg)
						}
					}
				}
			}
			check(f.Doc, "package "+f.Name.Name)
			ast.Inspect(f, func(n ast.Node) bool {
				switch d := n.(type) {
				case *ast.FuncDecl:
					if d.Name.IsExported() {
						check(d.Doc, d.Name.Name)
					}
					return false
				case *ast.GenDecl:
					check(d.Doc, "a declaration")
				case *ast.TypeSpec:
					check(d.Doc, d.Name.Name)
				case *ast.ValueSpec:
					check(d.Doc, d.Names[0].Name)
				case *ast.Field:
					check(d.Doc, "a field")
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if checked < 5 {
			t.Errorf("only %d code blocks found in the package docs", checked)
		}
	})
}

// The checker itself: it finds the dropped errors the README had.
func TestCheckExample(t *testing.T) {
	for _, tc := range []struct {
		code string
		bad  int
	}{
		{"w, err := f()\nb := 1\n", 1},
		{"w, err := f()\nif err != nil {\n\treturn err\n}\n", 0},
		{"br, err := r.NewBatchReader(a,\n\tb) // c\nif err != nil {\n\treturn err\n}\n", 0},
		{"br, err := r.NewBatchReader(a,\n\tb)\ndefer br.Close()\n", 1},
		{"for br.Next(batch) == nil { /* */ }\n", 1},
		{"for b, err := range br.All() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n", 0},
		{"e, err := sarg.Parse(\"x = 1\")\n", 1},
		{"if err := w.Close(); err != nil {\n", 0},
		{"err = w.Write(b)\nerr = w.Close()\n", 2},
	} {
		if got := checkExample(tc.code); len(got) != tc.bad {
			t.Errorf("%q: %d problems %q, want %d", tc.code, len(got), got, tc.bad)
		}
	}
}

// The README says how to install the command and where the conformance
// tests' example files come from (issue 48, item 20).
func TestReadmeInstallAndExamples(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"go install github.com/orcgo/orc/cmd/orc@latest",
		"https://github.com/apache/orc/tree/main/examples",
		"ORC_EXAMPLES",
	} {
		if !strings.Contains(string(data), w) {
			t.Errorf("README.md does not say %q", w)
		}
	}
}
