package main

import (
	"errors"
	"slices"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// --columns gives the columns in the order asked (a nested field's
// top-level column where it is first named), and only those: a predicate's
// other columns filter without being printed. The dataset orders a
// directory's columns itself (dataset.WithColumns); one file's reader
// returns its columns in the file's order, which orderedSource changes.

// orderedSource is a rowSource whose batches hold its columns in another
// order: column k of its batches is column perm[k] of the source's.
type orderedSource struct {
	rowSource
	schema *orc.Schema
	perm   []int
	inner  *orc.Batch // the source's batch over the caller's vectors
}

// orderColumns returns src with its top-level columns in the order cols
// first name them, or src itself when that is their order already.
func orderColumns(src rowSource, cols []string) rowSource {
	s := src.Schema()
	if cols == nil || s.Kind != orc.Struct {
		return src
	}
	rank := func(i int) int {
		q := sarg.Col(s.FieldNames[i])
		for k, c := range cols {
			if c == q || c == s.FieldNames[i] || strings.HasPrefix(c, q+".") {
				return k
			}
		}
		return len(cols)
	}
	perm := make([]int, len(s.Children))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return rank(a) - rank(b) })
	if slices.IsSorted(perm) {
		return src
	}
	ordered := &orc.Schema{Kind: orc.Struct}
	for _, p := range perm {
		ordered.Children = append(ordered.Children, s.Children[p].Copy())
		ordered.FieldNames = append(ordered.FieldNames, s.FieldNames[p])
	}
	ordered.Assign()
	return &orderedSource{rowSource: src, schema: ordered, perm: perm,
		inner: &orc.Batch{Schema: s, Cols: make([]orc.Vector, len(perm))}}
}

func (o *orderedSource) Schema() *orc.Schema { return o.schema }

func (o *orderedSource) NewBatch() *orc.Batch {
	in := o.rowSource.NewBatch()
	b := &orc.Batch{Schema: o.schema, Cols: make([]orc.Vector, len(o.perm))}
	for k, p := range o.perm {
		b.Cols[k] = in.Cols[p]
	}
	return b
}

func (o *orderedSource) Next(b *orc.Batch) error {
	for k, p := range o.perm {
		o.inner.Cols[p] = b.Cols[k]
	}
	err := o.rowSource.Next(o.inner)
	for k, p := range o.perm {
		b.Cols[k] = o.inner.Cols[p]
	}
	b.NumRows = o.inner.NumRows
	return err
}

// spellColumns spells the --columns names cols as schema s does, in
// place (so that what cat and scan print by them sees the same spelling):
// a name matches a column exactly, else the one equal ignoring case, as
// --where's names do. A name that matches no column is left for the
// scan to report; one that matches several ignoring case is an error.
func spellColumns(s *orc.Schema, cols []string) error {
	for i, c := range cols {
		exact, _, err := s.Resolve(c)
		if err == nil {
			cols[i] = exact
		} else if strings.Contains(err.Error(), "several") {
			return errors.New(strings.TrimPrefix(err.Error(), "orc: "))
		}
	}
	return nil
}
