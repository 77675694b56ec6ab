package iceberg

import (
	"errors"
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// deleteFilter drops from the batches of one data file the rows its delete
// files delete and, when the reader could not filter, the rows the scan's
// predicate does not keep. Stripes that hold deleted positions are read
// whole, without orcgo's pruning or exact filter, since a row's position
// is only known by counting every row before it (splitByDeletes); the
// predicate is then evaluated here, with the same matcher the reader
// would use.
type deleteFilter struct {
	d       *fileDeletes
	next    int   // d.positions[next] is the first deleted position not yet passed
	pos     int64 // position of the next batch's first row (in the part read)
	matcher *sarg.Matcher
	bound   *sarg.Bound
	schema  *orc.Schema // the read schema, of the batches
	keep    []bool
	key     []byte
	out     *orc.Batch
	deleted int64 // rows the predicate kept that the deletes removed
}

// newDeleteFilter filters batches of read schema rs. Without position
// deletes the reader applies predicate e itself, so the filter does not.
func newDeleteFilter(d *fileDeletes, rs *orc.Schema, e sarg.Expr) (*deleteFilter, error) {
	f := &deleteFilter{d: d, schema: rs, out: orc.NewBatch(rs, 1024)}
	if len(d.positions) > 0 {
		b, err := sarg.Bind(e, rs)
		if err != nil {
			return nil, err
		}
		f.bound, f.matcher = b, b.NewMatcher()
	}
	return f, nil
}

// apply returns the rows of b that are kept: b itself when all are, else a
// batch of its own, valid until the next call.
func (f *deleteFilter) apply(b *orc.Batch) (*orc.Batch, error) {
	n := b.NumRows
	var err error
	if f.matcher != nil {
		cols, err := predicateVectors(f.schema, b, f.bound.Columns())
		if err != nil {
			return nil, err
		}
		if f.keep, err = f.matcher.Match(cols, n, f.keep); err != nil {
			return nil, err
		}
	} else {
		if cap(f.keep) < n {
			f.keep = make([]bool, n)
		}
		f.keep = f.keep[:n]
		for i := range f.keep {
			f.keep[i] = true
		}
	}
	for f.next < len(f.d.positions) && f.d.positions[f.next] < f.pos+int64(n) {
		if i := f.d.positions[f.next] - f.pos; f.keep[i] {
			f.keep[i] = false
			f.deleted++
		}
		f.next++
	}
	f.pos += int64(n)
	for _, e := range f.d.eq {
		for i := 0; i < n; i++ {
			if !f.keep[i] {
				continue
			}
			if f.key, err = appendRowKey(f.key[:0], b, e.paths, i); err != nil {
				return nil, err
			}
			if _, ok := e.keys[string(f.key)]; ok {
				f.keep[i] = false
				f.deleted++
			}
		}
	}
	return f.compact(b)
}

// compact returns the kept rows of b.
func (f *deleteFilter) compact(b *orc.Batch) (*orc.Batch, error) {
	kept := 0
	for _, k := range f.keep[:b.NumRows] {
		if k {
			kept++
		}
	}
	if kept == b.NumRows {
		return b, nil
	}
	f.out.Reset()
	for i, k := range f.keep[:b.NumRows] {
		if !k {
			continue
		}
		for c, v := range b.Cols {
			if err := appendRow(f.out.Cols[c], v, i); err != nil {
				return nil, err
			}
		}
	}
	f.out.NumRows = kept
	return f.out, nil
}

// predicateVectors returns, by column id of read schema rs, the vectors of
// b that the predicate's columns ids lie in, parallel to b's rows and null
// where a struct above them is null, as sarg.Matcher asks.
func predicateVectors(rs *orc.Schema, b *orc.Batch, ids []int) (sarg.ColumnVectors, error) {
	cols := sarg.ColumnVectors{}
	for _, id := range ids {
		v, node, mask, err := vectorOf(rs, b, id)
		if err != nil {
			return nil, err
		}
		if mask != nil {
			if v, err = maskNulls(v, node, mask, b.NumRows); err != nil {
				return nil, err
			}
		}
		cols[id] = v
	}
	return cols, nil
}

// vectorOf finds column id among the struct fields of rs, returning its
// vector in b, its schema node and, when a struct above it has nulls in b,
// which rows those are.
func vectorOf(rs *orc.Schema, b *orc.Batch, id int) (orc.Vector, *orc.Schema, []bool, error) {
	node, vecs := rs, b.Cols
	var mask []bool
	for {
		i := -1
		for j, c := range node.Children {
			if c.ID() <= id && id <= c.MaxID() {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, nil, nil, fmt.Errorf("iceberg: predicate column %d is not in the read schema", id)
		}
		child, v := node.Children[i], vecs[i]
		if child.ID() == id {
			return v, child, mask, nil
		}
		s, ok := v.(*orc.StructVector)
		if !ok {
			return nil, nil, nil, errors.New("iceberg: a predicate on a column inside a list or map cannot be applied to a file with position deletes")
		}
		if s.HasNulls() {
			if mask == nil {
				mask = make([]bool, b.NumRows)
			}
			for r := range mask {
				mask[r] = mask[r] || s.IsNull(r)
			}
		}
		node, vecs = child, s.Fields
	}
}

// maskNulls returns a copy of v (of schema node) with rows null where
// mask is true.
func maskNulls(v orc.Vector, node *orc.Schema, mask []bool, n int) (orc.Vector, error) {
	out := orc.NewVector(node, n)
	for i := 0; i < n; i++ {
		var err error
		if mask[i] {
			err = appendNullOf(out)
		} else {
			err = appendRow(out, v, i)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
