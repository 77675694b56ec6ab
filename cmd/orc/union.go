package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
)

// Reading several files as one table: the schema they are read through
// (--union-by-name) and the partition columns of their directories.

// fileSchema reads the schema of a dataset file from its tail.
func fileSchema(f dataset.File) (*orc.Schema, error) {
	s, _, err := fileSchemaSize(f)
	return s, err
}

// fileSchemaSize reads the schema of a dataset file from its tail, and
// gives the file's size.
func fileSchemaSize(f dataset.File) (*orc.Schema, int64, error) {
	ra, size, c, err := f.Open()
	if err != nil {
		return nil, 0, err
	}
	if c != nil {
		defer c.Close()
	}
	r, err := reader.Open(ra, size)
	if err != nil {
		return nil, 0, err
	}
	return r.Schema(), size, nil
}

// dataSchema reads the schema of the first of files that is not empty, as
// dataset.New does: a 0-byte file (Hive's) has no schema. When every file
// is empty, it is the first one's (struct<>). Files are taken in Name
// order, as dataset.New takes them; i is the file that gave the schema.
func dataSchema(files []dataset.File) (s *orc.Schema, i int, err error) {
	order := make([]int, len(files))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(files[a].Name, files[b].Name) })
	for _, j := range order {
		fs, size, err := fileSchemaSize(files[j])
		if err != nil {
			return nil, j, err
		}
		if s == nil || size > 0 {
			s, i = fs, j
		}
		if size > 0 {
			break
		}
	}
	return s, i, nil
}

// unionByName merges the schemas of files (struct roots) into one read
// schema: every column of every file, in the order first seen, matched by
// name (exact, else case-insensitive) at every level of nested structs, a
// column of several types widened to one that each file's converts to
// (reader.WithReadSchema's rules). Columns no type can hold are reported
// with the files that disagree.
func unionByName(files []dataset.File, display map[string]string) (*orc.Schema, error) {
	var merged *orc.Schema
	from := map[string]string{} // column path -> file that gave its type
	var conflicts []string
	for _, f := range files {
		s, err := fileSchema(f)
		if err != nil {
			return nil, &fileError{path: display[f.Name], err: err}
		}
		if s.Kind != orc.Struct {
			return nil, &fileError{path: display[f.Name], err: fmt.Errorf("its rows are %s, not a struct of named columns", s)}
		}
		if merged == nil {
			merged = s.Copy()
			notePaths(merged, "", display[f.Name], from)
			continue
		}
		merged = mergeStruct(merged, s, "", display[f.Name], from, &conflicts)
	}
	if len(conflicts) > 0 {
		return nil, fmt.Errorf("--union-by-name: %d column(s) have types no one type can hold:\n  %s", len(conflicts), strings.Join(conflicts, "\n  "))
	}
	merged.Assign()
	return merged, nil
}

// notePaths records file as the source of every column of s below prefix.
func notePaths(s *orc.Schema, prefix, file string, from map[string]string) {
	for i, c := range s.Children {
		p := prefix + s.FieldNames[i]
		if _, ok := from[p]; !ok {
			from[p] = file
		}
		if c.Kind == orc.Struct {
			notePaths(c, p+".", file, from)
		}
	}
}

// mergeStruct adds the fields of b (from file) to struct a.
func mergeStruct(a, b *orc.Schema, prefix, file string, from map[string]string, conflicts *[]string) *orc.Schema {
	out := a.Copy()
	for i, bc := range b.Children {
		name := b.FieldNames[i]
		k, _ := out.FieldIndex(name)
		if k < 0 {
			out.Children = append(out.Children, bc.Copy())
			out.FieldNames = append(out.FieldNames, name)
			notePaths(&orc.Schema{Kind: orc.Struct, Children: []*orc.Schema{bc}, FieldNames: []string{name}}, prefix, file, from)
			continue
		}
		ac := out.Children[k]
		p := prefix + out.FieldNames[k] // named as first seen
		if ac.Kind == orc.Struct && bc.Kind == orc.Struct {
			out.Children[k] = mergeStruct(ac, bc, p+".", file, from, conflicts)
			continue
		}
		w, ok := widen(ac, bc)
		if !ok {
			*conflicts = append(*conflicts, fmt.Sprintf("%s: %s in %s, %s in %s", p, ac, from[p], bc, file))
			continue
		}
		if w.String() != ac.String() {
			from[p] = file // the type is now this file's
		}
		out.Children[k] = w
	}
	return out
}

// intDigits is how many decimal digits an integer kind's values can have;
// intRank orders the integer kinds by width.
var intDigits = map[orc.Kind]int{orc.Byte: 3, orc.Short: 5, orc.Int: 10, orc.Long: 19}

// widen returns a type both a and b convert to by widening (the
// conversions of reader.WithReadSchema), and whether there is one.
func widen(a, b *orc.Schema) (*orc.Schema, bool) {
	if a.String() == b.String() {
		return a, true
	}
	ai, aInt := intDigits[a.Kind]
	bi, bInt := intDigits[b.Kind]
	isFloat := func(k orc.Kind) bool { return k == orc.Float || k == orc.Double }
	isString := func(k orc.Kind) bool { return k == orc.String || k == orc.Varchar || k == orc.Char }
	switch {
	case aInt && bInt:
		if ai >= bi {
			return a, true
		}
		return b, true
	case aInt && isFloat(b.Kind) || bInt && isFloat(a.Kind) || isFloat(a.Kind) && isFloat(b.Kind):
		return &orc.Schema{Kind: orc.Double}, true
	case a.Kind == orc.Decimal && b.Kind == orc.Decimal:
		return decimalFor(max(a.Precision-a.Scale, b.Precision-b.Scale), max(a.Scale, b.Scale))
	case a.Kind == orc.Decimal && bInt:
		return decimalFor(max(a.Precision-a.Scale, bi), a.Scale)
	case b.Kind == orc.Decimal && aInt:
		return decimalFor(max(b.Precision-b.Scale, ai), b.Scale)
	case isString(a.Kind) && isString(b.Kind):
		return &orc.Schema{Kind: orc.String}, true
	case a.Kind == orc.Date && b.Kind == orc.Timestamp:
		return b, true
	case a.Kind == orc.Timestamp && b.Kind == orc.Date:
		return a, true
	}
	return nil, false
}

// decimalFor returns decimal(whole+scale, scale) when it fits ORC's 38
// digits.
func decimalFor(whole, scale int) (*orc.Schema, bool) {
	if whole+scale > 38 {
		return nil, false
	}
	return &orc.Schema{Kind: orc.Decimal, Precision: whole + scale, Scale: scale}, true
}
