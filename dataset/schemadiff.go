package dataset

import (
	"fmt"
	"slices"

	"github.com/orcgo/orc"
)

// SchemaMismatchError is the error of a dataset without a read schema
// (WithSchema) that meets a file whose schema differs from the first
// file's, which is then the table's: such a file is refused rather than
// read with its other columns left out and the first file's columns it
// lacks read as nulls. A read schema given with WithSchema reads files of
// several schemas (missing columns null, widening conversions).
type SchemaMismatchError struct {
	File        string      // the file that differs (File.Name)
	Schema      *orc.Schema // its schema
	First       string      // the first file, whose schema the table has
	FirstSchema *orc.Schema // the first file's schema
	Difference  string      // the first difference, such as `column "v" is missing`
}

func (e *SchemaMismatchError) Error() string {
	return fmt.Sprintf("dataset: %s: its schema differs from that of %s, the first file: %s (%s against %s); give a read schema (WithSchema) to read files of several schemas",
		e.File, e.First, e.Difference, e.Schema, e.FirstSchema)
}

// schemaDifference describes the first difference between a file's schema
// s and the first file's, want, named first, or returns "" when they are
// the same. With byPosition the top-level names do not count.
func schemaDifference(s, want *orc.Schema, first string, byPosition bool) string {
	if s.String() == want.String() {
		return ""
	}
	if s.Kind != orc.Struct || want.Kind != orc.Struct {
		return fmt.Sprintf("its rows are %s, not %s", s, want)
	}
	if byPosition {
		for i := range min(len(s.Children), len(want.Children)) {
			if a, b := s.Children[i].String(), want.Children[i].String(); a != b {
				return fmt.Sprintf("column %d is %s, not %s", i+1, a, b)
			}
		}
		if len(s.Children) != len(want.Children) {
			return fmt.Sprintf("it has %d columns, not %d", len(s.Children), len(want.Children))
		}
		return ""
	}
	return structDifference(s, want, "", first)
}

// structDifference is schemaDifference of two structs below path prefix.
func structDifference(s, want *orc.Schema, prefix, first string) string {
	for i, name := range want.FieldNames {
		j := slices.Index(s.FieldNames, name)
		if j < 0 {
			return fmt.Sprintf("column %q is missing", prefix+name)
		}
		a, b := s.Children[j], want.Children[i]
		if a.Kind == orc.Struct && b.Kind == orc.Struct {
			if d := structDifference(a, b, prefix+name+".", first); d != "" {
				return d
			}
			continue
		}
		if a.String() != b.String() {
			return fmt.Sprintf("column %q is %s, not %s", prefix+name, a, b)
		}
	}
	for _, name := range s.FieldNames {
		if !slices.Contains(want.FieldNames, name) {
			return fmt.Sprintf("column %q is not in %s", prefix+name, first)
		}
	}
	if s.String() != want.String() {
		return fmt.Sprintf("the column order differs (%s against %s)", s, want)
	}
	return ""
}
