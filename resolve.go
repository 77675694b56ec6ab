package orc

import (
	"fmt"
	"slices"
	"strings"
)

// Resolve finds the column at a dotted path below a struct (as Find reads
// paths: a name holding a dot in backticks) and returns it with its path
// spelled as in s. Each name matches a field exactly, else the one field
// equal to it ignoring case, the rule predicates follow. It fails, naming
// the path, when no field or several ignoring case match.
func (s *Schema) Resolve(path string) (string, *Schema, error) {
	parts, err := splitPath(path)
	if err != nil {
		return "", nil, err
	}
	n := s
	var exact []string
	for _, p := range parts {
		if n.Kind != Struct {
			return "", nil, fmt.Errorf("orc: no column %q: %s is %s, not a struct", path, strings.Join(exact, "."), n)
		}
		i, ambiguous := n.FieldIndex(p)
		switch {
		case ambiguous:
			return "", nil, fmt.Errorf("orc: column %q: several fields match %q ignoring case in %s", path, p, n)
		case i < 0:
			return "", nil, fmt.Errorf("orc: no column %q in %s", path, s)
		}
		name := n.FieldNames[i]
		if strings.Contains(name, ".") || strings.HasPrefix(name, "`") {
			name = "`" + name + "`"
		}
		exact = append(exact, name)
		n = n.Children[i]
	}
	return strings.Join(exact, "."), n, nil
}

// FieldIndex returns the index of struct s's field called name, matched as
// Resolve matches each name of a path: the field of that exact name, else
// the one field equal to it ignoring case. It returns -1 when no field
// matches, and when several match ignoring case, which ambiguous then
// reports. A schema that is not a struct has no fields.
func (s *Schema) FieldIndex(name string) (i int, ambiguous bool) {
	for i, f := range s.FieldNames {
		if f == name && i < len(s.Children) {
			return i, false
		}
	}
	found := -1
	for i, f := range s.FieldNames {
		if strings.EqualFold(f, name) && i < len(s.Children) {
			if found >= 0 {
				return -1, true
			}
			found = i
		}
	}
	return found, false
}

// Lineage returns the columns from s down to column id: s first, then the
// ancestors of the column below s in order, then the column itself; nil
// when id is not in s's tree. s must have its ids assigned (Assign).
func (s *Schema) Lineage(id int) []*Schema {
	if id < s.ID() || id > s.MaxID() {
		return nil
	}
	line := []*Schema{s}
	for n := s; n.ID() != id; {
		i := slices.IndexFunc(n.Children, func(c *Schema) bool { return id >= c.ID() && id <= c.MaxID() })
		if i < 0 {
			return nil // ids not assigned
		}
		n = n.Children[i]
		line = append(line, n)
	}
	return line
}

// Path returns the path of column id below s, as orc meta names columns:
// struct fields by name, a list's elements _elem, a map's _key and _value,
// a union's variants _0, _1, ...; "" for s itself or an id not below it.
// s must have its ids assigned (Assign).
func (s *Schema) Path(id int) string {
	if id <= s.ID() || id > s.MaxID() {
		return ""
	}
	for i, c := range s.Children {
		if id < c.ID() || id > c.MaxID() {
			continue
		}
		var name string
		switch s.Kind {
		case Struct:
			name = s.FieldNames[i]
		case List:
			name = "_elem"
		case Map:
			name = []string{"_key", "_value"}[min(i, 1)]
		default:
			name = fmt.Sprintf("_%d", i)
		}
		if rest := c.Path(id); rest != "" {
			return name + "." + rest
		}
		return name
	}
	return ""
}
