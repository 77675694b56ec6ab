package writer

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"maps"

	"github.com/orcgo/orc"
)

// The writer uses the schema given to NewWriter rather than a copy of it:
// a copy took 136 bytes a column (13 MB for a CSV line of 100,000
// columns), and while NewWriter made it the caller's tree and the copy
// were both live, which set the collector's goal for the rest of a
// conversion. What the file depends on is noted instead (schemaNote,
// about 8 bytes a column), and every Write, Close and Reset first
// checks that the tree still says it (Write all but the field names,
// which only the footer holds): a schema changed after NewWriter is an
// error naming the column, never a file whose footer and data disagree
// nor a column writer handed a vector of another type. A tree not numbered from 0 (a subtree, a tree built by hand
// and never numbered) is copied as before.

// schemaNote is what a writer noted of its schema at NewWriter.
type schemaNote struct {
	// nodes holds a node a column id, in pre-order: its kind in the low
	// byte, then a bit set when it has parameters (params), then its
	// number of children.
	nodes []uint64
	// names holds a hash of each struct's field names, struct after
	// struct in column id order (a copy of the names took 16 bytes a
	// column).
	names []uint64
	seed  maphash.Seed
	// params holds, by column id, what decimal, char, varchar and
	// geospatial nodes and nodes with attributes add to their kind.
	params map[int]nodeParams
}

// nodeParams is what a node's type holds beside its kind and children.
type nodeParams struct {
	precision, scale, maxLength int
	crs                         string
	edges                       orc.EdgeAlgorithm
	attrs                       map[string]string
}

// hasParams reports whether n's type records more than its kind and
// children.
func hasParams(n *orc.Schema) bool {
	switch n.Kind {
	case orc.Decimal, orc.Char, orc.Varchar, orc.Geometry, orc.Geography:
		return true
	}
	return len(n.Attributes) > 0
}

// paramsOf returns what n's type records beside its kind and children.
func paramsOf(n *orc.Schema) nodeParams {
	p := nodeParams{attrs: maps.Clone(n.Attributes)}
	switch n.Kind {
	case orc.Decimal:
		p.precision, p.scale = n.Precision, n.Scale
	case orc.Char, orc.Varchar:
		p.maxLength = n.MaxLength
	case orc.Geometry, orc.Geography:
		p.crs, p.edges = n.CRS, n.Edges
	}
	return p
}

// same reports whether n, of the kind noted, has the parameters p.
func (p nodeParams) same(n *orc.Schema) bool {
	switch n.Kind {
	case orc.Decimal:
		if p.precision != n.Precision || p.scale != n.Scale {
			return false
		}
	case orc.Char, orc.Varchar:
		if p.maxLength != n.MaxLength {
			return false
		}
	case orc.Geometry, orc.Geography:
		if p.crs != n.CRS || p.edges != n.Edges {
			return false
		}
	}
	return maps.Equal(p.attrs, n.Attributes)
}

// noteSchema notes s, a valid tree, and reports false when s is not
// numbered in pre-order from 0, its root's id 0 (the writer then copies
// it).
func noteSchema(s *orc.Schema) (*schemaNote, bool) {
	note := &schemaNote{nodes: make([]uint64, 0, s.MaxID()+1), seed: maphash.MakeSeed()}
	if s.ID() != 0 || !note.add(s) || len(note.nodes) != s.MaxID()+1 {
		return nil, false
	}
	return note, true
}

// add notes n and its subtree, reporting false where an id is not the
// next in pre-order.
func (note *schemaNote) add(n *orc.Schema) bool {
	id := len(note.nodes)
	if n.ID() != id {
		return false
	}
	shape := uint64(n.Kind) | uint64(len(n.Children))<<shapeKids
	if hasParams(n) {
		if note.params == nil {
			note.params = make(map[int]nodeParams)
		}
		note.params[id] = paramsOf(n)
		shape |= shapeParams
	}
	note.nodes = append(note.nodes, shape)
	if n.Kind == orc.Struct {
		note.names = append(note.names, note.hashNames(n.FieldNames))
	}
	for _, c := range n.Children {
		if !note.add(c) {
			return false
		}
	}
	return n.MaxID() == len(note.nodes)-1
}

// hashNames returns a hash of names, each taken with its length.
func (note *schemaNote) hashNames(names []string) uint64 {
	var h maphash.Hash
	h.SetSeed(note.seed)
	var n [8]byte
	for _, name := range names {
		binary.LittleEndian.PutUint64(n[:], uint64(len(name)))
		h.Write(n[:])
		h.WriteString(name)
	}
	return h.Sum64()
}

// The parts of a schemaNote.nodes word above the kind's byte.
const (
	shapeParams = 1 << 8 // the node has parameters
	shapeKids   = 9      // the shift of the number of children
)

// checkSchema returns an error when the writer's schema is not what
// NewWriter noted: a node changed, added, removed or replaced since; with
// names, a struct's field names changed too. Write leaves the names out
// (only the footer, which Close writes, holds them): for a Write of one
// row of 10,000 columns, of some 0.9 ms, the check takes 0.09 ms without
// them, 0.27 with.
func (w *Writer) checkSchema(names bool) error {
	if w.note == nil {
		return nil // the writer's own copy
	}
	id, hashes := 0, w.note.names
	if !names {
		hashes = nil
	}
	if what := w.changed(w.schema, &id, &hashes); what != "" {
		return fmt.Errorf("orc: the schema given to NewWriter was changed after it (%s); the writer uses it as it was given, so it must not change while the writer is in use", what)
	}
	return nil
}

// changed compares the subtree n, whose column id is *id, with the note,
// consuming the ids and, unless *names is nil, the hashes of the struct
// field names it covers, and returns what differs, or "".
func (w *Writer) changed(n *orc.Schema, id *int, names *[]uint64) string {
	at := *id
	if at >= len(w.note.nodes) {
		return fmt.Sprintf("a node added after column %d", at-1)
	}
	*id++
	shape := w.note.nodes[at]
	switch {
	case w.cols[at].base().node != n:
		return fmt.Sprintf("column %d is another node", at)
	case n.ID() != at || uint64(n.Kind) != shape&0xff:
		return fmt.Sprintf("column %d was %s, is %s", at, orc.Kind(shape&0xff), n.Kind)
	case uint64(len(n.Children)) != shape>>shapeKids:
		return fmt.Sprintf("column %d had %d children, has %d", at, shape>>shapeKids, len(n.Children))
	}
	if noted := shape&shapeParams != 0; noted || hasParams(n) {
		if p := w.note.params[at]; !noted || !hasParams(n) || !p.same(n) {
			return fmt.Sprintf("column %d's type is %s now", at, n)
		}
	}
	if n.Kind == orc.Struct {
		// As many names as fields, always: Write's checks index them.
		if len(n.FieldNames) != len(n.Children) ||
			*names != nil && (len(*names) == 0 || w.note.hashNames(n.FieldNames) != (*names)[0]) {
			return fmt.Sprintf("column %d's field names are %s now", at, clipNames(n.FieldNames))
		}
		if *names != nil {
			*names = (*names)[1:]
		}
	}
	for _, c := range n.Children {
		if what := w.changed(c, id, names); what != "" {
			return what
		}
	}
	if n.MaxID() != *id-1 {
		return fmt.Sprintf("column %d's subtree was renumbered", at)
	}
	return ""
}

// clipNames lists the first few of names.
func clipNames(names []string) string {
	const most = 5
	if len(names) <= most {
		return fmt.Sprintf("%q", names)
	}
	return fmt.Sprintf("%q and %d more", names[:most], len(names)-most)
}
