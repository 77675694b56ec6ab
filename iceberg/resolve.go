package iceberg

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
)

// ReadSchema resolves a table's schema against one data file's ORC schema
// by Iceberg field id, as the spec asks of readers, and returns the read
// schema to pass to reader.WithReadSchema. The result has the table's
// columns in the table's order and the table's types, each named as the
// column with the same id is named in the file: a renamed column reads from
// its old name, a reordered one from its place, a dropped one not at all,
// and a column the file lacks (added after the file was written) under a
// name the file does not use, so it reads as nulls. Type promotions the
// spec allows (int to long, float to double, decimal precision widening,
// date to timestamp) are orcgo's schema evolution conversions.
//
// A file whose columns carry no AttrID (written by a tool that does not
// know Iceberg) is matched through mapping, the table's name mapping
// (the schema.name-mapping.default property); with neither, ReadSchema
// returns an error. The batches read have the table's columns positionally:
// name them with ToORC(table).
func ReadSchema(table *ice.Schema, file *orc.Schema, mapping ice.NameMapping) (*orc.Schema, error) {
	if table == nil || file == nil || file.Kind != orc.Struct {
		return nil, errors.New("iceberg: ReadSchema needs a table schema and a struct file schema")
	}
	if !hasIDs(file) {
		if len(mapping) == 0 {
			return nil, errors.New("iceberg: the data file's columns carry no iceberg.id and the table has no name mapping")
		}
		file = applyMapping(file, mapping)
	}
	want, err := ToORC(table)
	if err != nil {
		return nil, err
	}
	out, err := resolveStruct("", want, file)
	if err != nil {
		return nil, err
	}
	out.Assign()
	return out, nil
}

func hasIDs(s *orc.Schema) bool {
	found := false
	s.Walk(func(n *orc.Schema) {
		if _, ok := n.Attributes[AttrID]; ok {
			found = true
		}
	})
	return found
}

// resolveStruct returns want (a struct of the table's types) with each
// field renamed to the name its id has among file's fields.
func resolveStruct(path string, want, file *orc.Schema) (*orc.Schema, error) {
	byID := map[int]int{}
	used := map[string]bool{}
	for i, c := range file.Children {
		used[strings.ToLower(file.FieldNames[i])] = true
		if id, ok, err := FieldID(c); err != nil {
			return nil, fmt.Errorf("iceberg: data file column %s%s: %w", path, file.FieldNames[i], err)
		} else if ok {
			byID[id] = i
		}
	}
	out := &orc.Schema{Kind: orc.Struct, Attributes: want.Attributes}
	for i, w := range want.Children {
		id, _, _ := FieldID(w)
		name := want.FieldNames[i]
		j, ok := byID[id]
		if !ok {
			if w.Attributes[AttrRequired] == "true" {
				return nil, fmt.Errorf("iceberg: required column %s%s (id %d) is missing from the data file", path, name, id)
			}
			out.Children = append(out.Children, w)
			out.FieldNames = append(out.FieldNames, unusedName(id, used))
			continue
		}
		c, err := resolveNode(path+name, w, file.Children[j])
		if err != nil {
			return nil, err
		}
		out.Children = append(out.Children, c)
		out.FieldNames = append(out.FieldNames, file.FieldNames[j])
	}
	return out, nil
}

// unusedName is a name for a column the file lacks that no file column has
// (the reader also matches names case-insensitively).
func unusedName(id int, used map[string]bool) string {
	n := "_iceberg_missing_" + strconv.Itoa(id)
	for used[n] {
		n += "_"
	}
	used[n] = true
	return n
}

func resolveNode(path string, want, file *orc.Schema) (*orc.Schema, error) {
	if want.Kind != file.Kind && (!want.Kind.IsPrimitive() || !file.Kind.IsPrimitive()) {
		return nil, fmt.Errorf("iceberg: column %s is %s in the table but %s in the data file", path, want.Kind, file.Kind)
	}
	switch want.Kind {
	case orc.Struct:
		return resolveStruct(path+".", want, file)
	case orc.List, orc.Map:
		out := *want
		out.Children = make([]*orc.Schema, len(want.Children))
		for i, c := range want.Children {
			r, err := resolveNode(path+"."+childName(want.Kind, i), c, file.Children[i])
			if err != nil {
				return nil, err
			}
			out.Children[i] = r
		}
		return &out, nil
	}
	return want, nil
}

// applyMapping returns a copy of file whose nodes carry the field ids that
// the name mapping gives their names; nodes it does not name carry none
// (and so read as missing).
func applyMapping(file *orc.Schema, mapping ice.NameMapping) *orc.Schema {
	out := file.Copy()
	mapFields(out, mapping)
	return out
}

func mapFields(n *orc.Schema, fields []ice.MappedField) {
	find := func(name string) *ice.MappedField {
		for i := range fields {
			for _, m := range fields[i].Names {
				if m == name {
					return &fields[i]
				}
			}
		}
		return nil
	}
	for i, c := range n.Children {
		name := childName(n.Kind, i)
		if n.Kind == orc.Struct {
			name = n.FieldNames[i]
		}
		m := find(name)
		if m == nil {
			continue
		}
		if m.FieldID != nil {
			if c.Attributes == nil {
				c.Attributes = map[string]string{}
			}
			c.Attributes[AttrID] = strconv.Itoa(*m.FieldID)
		}
		mapFields(c, m.Fields)
	}
}

// childName names child i of a list (element) or map (key, value) as
// Iceberg's name mappings and error messages do.
func childName(k orc.Kind, i int) string {
	switch {
	case k == orc.List:
		return "element"
	case k == orc.Map && i == 0:
		return "key"
	case k == orc.Map:
		return "value"
	}
	return strconv.Itoa(i)
}
