package iceberg

import (
	"bytes"
	"math"

	"github.com/orcgo/orc"
)

// valueStats is what the Writer keeps of one float, double or binary
// column beyond ORC's statistics: NaN counts, float bounds without NaN,
// and binary bounds, which ORC does not record.
type valueStats struct {
	nans         int64
	fmin, fmax   float64
	hasF         bool
	bmin, bmax   []byte
	hasB, binary bool
}

// collector walks batches and feeds valueStats by ORC column id.
type collector struct {
	cols map[int]*valueStats
}

func newCollector(s *orc.Schema) *collector {
	c := &collector{cols: map[int]*valueStats{}}
	s.Walk(func(n *orc.Schema) {
		switch n.Kind {
		case orc.Float, orc.Double:
			c.cols[n.ID()] = &valueStats{}
		case orc.Binary:
			c.cols[n.ID()] = &valueStats{binary: true}
		}
	})
	return c
}

// add feeds rows 0..NumRows of b.
func (c *collector) add(s *orc.Schema, b *orc.Batch) {
	if len(c.cols) == 0 {
		return
	}
	for i, v := range b.Cols {
		c.walk(s.Children[i], v, 0, b.NumRows, nil)
	}
}

// walk feeds rows lo..hi of v, node n; skip[i-lo] marks rows under a null
// parent, which ORC does not store.
func (c *collector) walk(n *orc.Schema, v orc.Vector, lo, hi int, skip []bool) {
	if hi > v.Len() {
		hi = v.Len()
	}
	if lo >= hi {
		return
	}
	switch v := v.(type) {
	case *orc.DoubleVector:
		if st := c.cols[n.ID()]; st != nil {
			for i := lo; i < hi; i++ {
				if (skip == nil || !skip[i-lo]) && !v.IsNull(i) {
					st.addFloat(v.Values[i])
				}
			}
		}
	case *orc.BytesVector:
		if st := c.cols[n.ID()]; st != nil && st.binary {
			for i := lo; i < hi; i++ {
				if (skip == nil || !skip[i-lo]) && !v.IsNull(i) {
					st.addBytes(v.Get(i))
				}
			}
		}
	case *orc.StructVector:
		inner := nullMask(&v.Nulls, lo, hi, skip)
		for j, f := range v.Fields {
			c.walk(n.Children[j], f, lo, hi, inner)
		}
	case *orc.ListVector:
		eachRange(v.Offsets, &v.Nulls, lo, hi, skip, func(s, e int) {
			c.walk(n.Children[0], v.Elem, s, e, nil)
		})
	case *orc.MapVector:
		eachRange(v.Offsets, &v.Nulls, lo, hi, skip, func(s, e int) {
			c.walk(n.Children[0], v.Keys, s, e, nil)
			c.walk(n.Children[1], v.Values, s, e, nil)
		})
	}
}

// nullMask is skip with the rows that nulls marks null added; nil when
// no row is skipped.
func nullMask(nulls *orc.Nulls, lo, hi int, skip []bool) []bool {
	if !nulls.HasNulls() {
		return skip
	}
	m := make([]bool, hi-lo)
	for i := range m {
		m[i] = nulls.IsNull(lo+i) || (skip != nil && skip[i])
	}
	return m
}

// eachRange calls fn with the child entries of rows lo..hi of a list or
// map: one range when no row among them is null or skipped with entries,
// else one per stored row. Offsets out of order (a batch the writer will
// refuse) are passed over.
func eachRange(off []int64, nulls *orc.Nulls, lo, hi int, skip []bool, fn func(s, e int)) {
	if hi >= len(off) {
		return
	}
	dead := func(i int) bool { return nulls.IsNull(i) || (skip != nil && skip[i-lo]) }
	whole := off[lo] >= 0 && off[hi] >= off[lo]
	for i := lo; i < hi && whole; i++ {
		whole = off[i+1] >= off[i] && (off[i+1] == off[i] || !dead(i))
	}
	if whole {
		fn(int(off[lo]), int(off[hi]))
		return
	}
	for i := lo; i < hi; i++ {
		if !dead(i) && off[i] >= 0 && off[i+1] > off[i] {
			fn(int(off[i]), int(off[i+1]))
		}
	}
}

func (st *valueStats) addFloat(x float64) {
	if math.IsNaN(x) {
		st.nans++
		return
	}
	if !st.hasF {
		st.fmin, st.fmax, st.hasF = x, x, true
		return
	}
	st.fmin, st.fmax = math.Min(st.fmin, x), math.Max(st.fmax, x)
}

func (st *valueStats) addBytes(b []byte) {
	if !st.hasB {
		st.bmin, st.bmax, st.hasB = append([]byte{}, b...), append([]byte{}, b...), true
		return
	}
	if bytes.Compare(b, st.bmin) < 0 {
		st.bmin = append(st.bmin[:0], b...)
	}
	if bytes.Compare(b, st.bmax) > 0 {
		st.bmax = append(st.bmax[:0], b...)
	}
}
