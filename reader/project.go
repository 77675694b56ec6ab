package reader

import (
	"slices"

	"github.com/orcgo/orc"
)

// outProjection cuts a scan's batches down to the columns the caller
// named, in the order named. A scan reads the predicate's columns too (to
// prune and filter by them), and its column readers hold the file's
// order; when WithColumns leaves some out or names them in another order,
// the scan decodes into a batch of its own whose vectors are the caller's
// for the named columns and its own for the others, and the caller's batch
// sees only what it asked for, in its order.
// No values are copied: Next wires the caller's vectors into the scan's
// batch before decoding and takes the scan's back after (a parallel scan
// swaps vectors between batches).
type outProjection struct {
	out    *orc.Schema // the caller's batches
	fields []projField // per caller column
	inner  *orc.Batch  // the scan's batch
}

// projField is one caller field: its index among the scan's fields, and
// for a struct the scan holds more fields of, the fields kept (nil: the
// scan's vector is the caller's, whole).
type projField struct {
	in     int
	fields []projField
}

// newOutProjection returns the projection of scan (a scan's batch schema,
// numbered) to the named columns, its top-level fields in the order first
// named, or nil when the scan holds no others and in that order.
func newOutProjection(scan *orc.Schema, columns []string, batchSize int) *outProjection {
	if scan.Kind != orc.Struct {
		return nil
	}
	keep := make([]bool, scan.MaxID()+1)
	keep[0] = true
	var order []int // top-level fields, in the order first named
	for _, name := range columns {
		n := scan.Find(name)
		if n == nil {
			return nil // every name resolved against the file already; be safe
		}
		markWithAncestors(scan, n.ID(), keep)
		for i, c := range scan.Children {
			if n.ID() >= c.ID() && n.ID() <= c.MaxID() && !slices.Contains(order, i) {
				order = append(order, i)
			}
		}
	}
	all := true
	for _, k := range keep {
		all = all && k
	}
	if all && slices.IsSorted(order) {
		return nil
	}
	out, fields := cutStruct(scan, keep, order)
	out.Assign()
	return &outProjection{out: out, fields: fields, inner: orc.NewBatch(scan, batchSize)}
}

// cutStruct copies struct node s without the fields keep leaves out, in
// the order of their indexes in order (nil: s's order).
func cutStruct(s *orc.Schema, keep []bool, order []int) (*orc.Schema, []projField) {
	c := *s
	c.Children, c.FieldNames = nil, nil
	var fields []projField
	if order == nil {
		order = make([]int, len(s.Children))
		for i := range order {
			order[i] = i
		}
	}
	for _, i := range order {
		ch := s.Children[i]
		if !keep[ch.ID()] {
			continue
		}
		whole := true
		for id := ch.ID(); id <= ch.MaxID(); id++ {
			whole = whole && keep[id]
		}
		f := projField{in: i}
		var sub *orc.Schema
		if whole || ch.Kind != orc.Struct {
			sub = ch.Copy()
		} else {
			sub, f.fields = cutStruct(ch, keep, nil)
		}
		c.Children = append(c.Children, sub)
		c.FieldNames = append(c.FieldNames, s.FieldNames[i])
		fields = append(fields, f)
	}
	return &c, fields
}

// before wires the caller's vectors of b into the scan's batch.
func (p *outProjection) before(b *orc.Batch) *orc.Batch {
	wire(p.inner.Cols, b.Cols, p.fields)
	return p.inner
}

// after hands the scan's rows to b: its vectors, and the rows counted.
func (p *outProjection) after(b *orc.Batch) {
	unwire(p.inner.Cols, b.Cols, p.fields)
	b.NumRows = p.inner.NumRows
	b.Selected, p.inner.Selected = p.inner.Selected, b.Selected
	b.Schema = p.out
}

func wire(in, out []orc.Vector, fields []projField) {
	for j, f := range fields {
		if f.fields == nil {
			in[f.in] = out[j]
			continue
		}
		is, os := in[f.in].(*orc.StructVector), out[j].(*orc.StructVector)
		wire(is.Fields, os.Fields, f.fields)
	}
}

func unwire(in, out []orc.Vector, fields []projField) {
	for j, f := range fields {
		if f.fields == nil {
			out[j] = in[f.in]
			continue
		}
		is, os := in[f.in].(*orc.StructVector), out[j].(*orc.StructVector)
		os.Nulls, os.N = is.Nulls, is.N
		unwire(is.Fields, os.Fields, f.fields)
	}
}
