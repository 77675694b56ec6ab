package structmap

import (
	"fmt"
	"unsafe"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/civil"
)

// sliceHeader is the memory layout of every Go slice: a pointer to the
// first element, the length and the capacity, counted in elements. Encoders
// read slice fields of any element type through it, and decoders write
// them; TestSliceHeaderLayout checks it against the runtime's.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// ValueError reports a row value that cannot be stored in its column.
type ValueError struct {
	Row   int    // index of the row in the rows given
	Field string // Go path of the field, such as "Order.Items[].Price"
	Msg   string
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("orc: row %d, field %s: %s", e.Row, e.Field, e.Msg)
}

// appendFalse appends k false values to dst.
func appendFalse(dst []bool, k int) []bool {
	n := len(dst)
	if cap(dst)-n < k {
		grown := make([]bool, n, 2*cap(dst)+k)
		copy(grown, dst)
		dst = grown
	}
	dst = dst[:n+k]
	clear(dst[n:])
	return dst
}

// markNulls records the null flags of the k rows just appended after the
// first old rows of a vector with mask m. nulls is nil when none of the k
// rows is null, else it has k entries. The mask stays empty as long as no
// row is null.
func markNulls(m *orc.Nulls, old, k int, nulls []bool) {
	if nulls == nil {
		if len(m.Nulls) > 0 {
			m.Nulls = appendFalse(m.Nulls[:old], k)
		}
		return
	}
	if len(m.Nulls) < old {
		m.Nulls = appendFalse(m.Nulls, old-len(m.Nulls))
	}
	m.Nulls = append(m.Nulls[:old], nulls...)
}

// effectiveNulls returns the null flags of rows [start, start+n) of a
// vector whose own mask is own, given its parent's flags for those rows
// (nil when none is null): nil when no row is null, else n entries, held in
// *scratch when both masks contribute.
func effectiveNulls(scratch *[]bool, parent []bool, own *orc.Nulls, start, n int) ([]bool, error) {
	var mine []bool
	if len(own.Nulls) > 0 {
		if len(own.Nulls) < start+n {
			return nil, orc.Corruptf("null mask has %d entries, need %d", len(own.Nulls), start+n)
		}
		mine = own.Nulls[start : start+n]
		if !anyTrue(mine) {
			mine = nil
		}
	}
	switch {
	case mine == nil:
		return parent, nil
	case parent == nil:
		return mine, nil
	}
	out := (*scratch)[:0]
	for i, p := range parent {
		out = append(out, p || mine[i])
	}
	*scratch = out
	return out, nil
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}

// truncate cuts v back to its first n rows, children included.
func truncate(v orc.Vector, n int) {
	cut := func(m *orc.Nulls) {
		if len(m.Nulls) > n {
			m.Nulls = m.Nulls[:n]
		}
	}
	switch v := v.(type) {
	case *orc.LongVector:
		cut(&v.Nulls)
		v.Values = v.Values[:min(n, len(v.Values))]
	case *orc.DoubleVector:
		cut(&v.Nulls)
		v.Values = v.Values[:min(n, len(v.Values))]
	case *orc.DecimalVector:
		cut(&v.Nulls)
		v.Values = v.Values[:min(n, len(v.Values))]
	case *orc.TimestampVector:
		cut(&v.Nulls)
		v.Seconds = v.Seconds[:min(n, len(v.Seconds))]
		v.Nanos = v.Nanos[:min(n, len(v.Nanos))]
	case *orc.BytesVector:
		cut(&v.Nulls)
		if len(v.Offsets) > n+1 {
			v.Offsets = v.Offsets[:n+1]
			v.Data = v.Data[:v.Offsets[n]]
		}
	case *orc.StructVector:
		cut(&v.Nulls)
		v.N = min(v.N, n)
		for _, f := range v.Fields {
			truncate(f, n)
		}
	case *orc.ListVector:
		cut(&v.Nulls)
		if len(v.Offsets) > n+1 {
			v.Offsets = v.Offsets[:n+1]
		}
		if len(v.Offsets) > 0 {
			truncate(v.Elem, int(v.Offsets[len(v.Offsets)-1]))
		}
	case *orc.MapVector:
		cut(&v.Nulls)
		if len(v.Offsets) > n+1 {
			v.Offsets = v.Offsets[:n+1]
		}
		if len(v.Offsets) > 0 {
			last := int(v.Offsets[len(v.Offsets)-1])
			truncate(v.Keys, last)
			truncate(v.Values, last)
		}
	}
}

// daysFromCivil returns the days from 1970-01-01 to the given date of the
// proleptic Gregorian calendar (internal/civil owns the calendar).
func daysFromCivil(y int64, m, d int) int64 { return civil.Days(y, int64(m), int64(d)) }
