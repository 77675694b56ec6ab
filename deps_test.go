package orc_test

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// allowed lists, for each package of the module, the module packages its
// non-test files may import. Imports point down: orc <- format <- stats,
// bloomfilter <- rowindex, sarg <- writer, reader <- cmd. writer and reader
// never import each other.
var allowed = map[string][]string{
	"":             {},
	"format":       {"", "format/orcpb"},
	"format/orcpb": {},
	// A test fixture: another library's generated orc.proto.
	"format/orcpb/internal/clash": {},
	"geo":                         {},
	"stats":                       {"", "format", "format/orcpb", "geo"},
	"bloomfilter":                 {"", "format", "format/orcpb"},
	"rowindex":                    {"", "format", "format/orcpb", "stats", "bloomfilter"},
	"sarg":                        {"", "stats", "bloomfilter", "geo", "internal/civil"},
	"writer":                      {"", "format", "format/orcpb", "stats", "bloomfilter", "rowindex", "internal/structmap", "internal/fanout", "internal/tempfile", "geo"},
	"reader":                      {"", "format", "format/orcpb", "stats", "bloomfilter", "rowindex", "sarg", "internal/structmap", "internal/fanout", "geo"},
	"dataset":                     {"", "stats", "sarg", "reader", "dataset/statsindex", "internal/structmap", "internal/localfile"},
	"dataset/statsindex":          {"", "stats", "bloomfilter", "sarg", "reader", "writer", "format/orcpb", "internal/tempfile", "geo", "internal/localfile", "internal/countio"},
	"httpfile":                    {"internal/latency", "internal/readat"},
	"internal/examples":           {""},
	"internal/fanout":             {},
	"internal/tempfile":           {},
	"internal/storegw":            {"internal/helper", "internal/latency", "internal/readat"},
	"internal/latency":            {},
	"internal/readat":             {},
	"internal/localfile":          {},
	"internal/helper":             {},
	"internal/rowfmt":             {"", "reader", "geo"},
	"internal/structmap":          {"", "internal/civil"},
	"internal/civil":              {},
	"internal/units":              {},
	"internal/countio":            {},
	"ingest":                      {"", "geo", "internal/civil", "internal/units"},
	"internal/testutil":           {"", "format", "format/orcpb", "stats"},
	"dataset/internal/dstest":     {"", "writer", "reader", "dataset"},
	"cmd/orc":                     {"", "format", "format/orcpb", "stats", "bloomfilter", "rowindex", "sarg", "reader", "writer", "dataset", "dataset/statsindex", "httpfile", "geo", "internal/tempfile", "internal/civil", "internal/units", "ingest", "internal/storegw", "internal/rowfmt", "internal/helper", "internal/countio", "internal/localfile"},
}

// external lists, for each package, the third-party modules (prefixes) its
// non-test files may import besides the standard library.
var external = map[string][]string{
	"format":                      {"google.golang.org/protobuf/", "github.com/klauspost/compress/", "github.com/pierrec/lz4/v4"},
	"format/orcpb":                {"google.golang.org/protobuf/"},
	"format/orcpb/internal/clash": {"google.golang.org/protobuf/"},
	"reader":                      {"google.golang.org/protobuf/"},
	"writer":                      {"google.golang.org/protobuf/"},
	"rowindex":                    {"google.golang.org/protobuf/"},
	"stats":                       {"google.golang.org/protobuf/"},
	"cmd/orc":                     {"google.golang.org/protobuf/"},
	"dataset/statsindex":          {"google.golang.org/protobuf/"},
	"internal/testutil":           {"google.golang.org/protobuf/"},
}

const module = "github.com/orcgo/orc"

func TestDependencies(t *testing.T) {
	imports := map[string]map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
				return filepath.SkipDir // a nested module (bench/, arrow/): its own rules
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		// A file kept out of every build (//go:build ignore: a program
		// run with go run) is no part of a package.
		if ignored, err := buildIgnored(path); err != nil || ignored {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if pkg == "." {
			pkg = ""
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") && !strings.HasPrefix(p, module) {
				ok := false
				for _, e := range external[pkg] {
					if strings.HasPrefix(p, e) || p == strings.TrimSuffix(e, "/") {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s imports third-party %q, which is not in its allowed list", path, p)
				}
				continue
			}
			if p == module {
				imports[pkg][""] = true
			} else if strings.HasPrefix(p, module+"/") {
				imports[pkg][strings.TrimPrefix(p, module+"/")] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("package %q is not in the dependency table of deps_test.go", pkg)
			continue
		}
		set := map[string]bool{}
		for _, a := range ok {
			set[a] = true
		}
		for im := range imports[pkg] {
			if !set[im] {
				t.Errorf("package %q imports %q, which the layering forbids", pkg, im)
			}
		}
	}
}

// buildIgnored reports whether the file at path has a //go:build line
// naming the ignore tag that no build satisfies.
func buildIgnored(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false, nil
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false, err
		}
		named := false
		expr.Eval(func(tag string) bool { named = named || tag == "ignore"; return true })
		// With ignore unset and every other tag set, nothing builds it.
		return named && !expr.Eval(func(tag string) bool { return tag != "ignore" }), nil
	}
	return false, nil
}
