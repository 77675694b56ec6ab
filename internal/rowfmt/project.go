package rowfmt

import "github.com/orcgo/orc"

// Field is one field of a struct to print, by its index: whole (Sub nil),
// or only some of its own fields (Sub, for a struct named by deeper
// paths such as --columns loc.lat).
type Field struct {
	Index int
	Sub   []Field
}

// ProjectSchema returns the struct type s cut to fields.
func ProjectSchema(s *orc.Schema, fields []Field) *orc.Schema {
	out := &orc.Schema{Kind: orc.Struct}
	for _, f := range fields {
		c := s.Children[f.Index]
		if f.Sub != nil {
			c = ProjectSchema(c, f.Sub)
		}
		out.Children = append(out.Children, c)
		out.FieldNames = append(out.FieldNames, s.FieldNames[f.Index])
	}
	return out
}

// ProjectVector returns v, or for a field cut to some of its fields a
// struct vector holding only those (sharing v's).
func ProjectVector(v orc.Vector, f Field) orc.Vector {
	if f.Sub == nil {
		return v
	}
	sv := v.(*orc.StructVector)
	out := &orc.StructVector{Nulls: sv.Nulls, N: sv.N}
	for _, k := range f.Sub {
		out.Fields = append(out.Fields, ProjectVector(sv.Fields[k.Index], k))
	}
	return out
}

// Project makes view show fields of b, sharing its vectors; view's schema
// is made at the first call (ProjectSchema) and kept.
func Project(view, b *orc.Batch, fields []Field) {
	if view.Schema == nil {
		view.Schema = ProjectSchema(b.Schema, fields)
	}
	view.NumRows = b.NumRows
	view.Selected = b.Selected
	view.Cols = view.Cols[:0]
	for _, f := range fields {
		view.Cols = append(view.Cols, ProjectVector(b.Cols[f.Index], f))
	}
}
