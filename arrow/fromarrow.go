package orcarrow

// Arrow arrays -> ORC vectors.
//
// A converter fills one reusable ORC vector from an Arrow array: the rows
// lo..hi-1 of the array, or, when sel is not nil, the rows sel lists (-1 for
// a null placeholder). Selections arise below dense unions, whose ORC
// variants must be parallel to the union, and below lists whose null rows
// still own elements (Arrow allows that, ORC does not). Without a selection,
// bigint and double values and string and binary bytes are aliased: the ORC
// writer copies what it keeps, so the vectors never outlive the call.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/orcgo/orc"
)

// toORC converts Arrow arrays of one field to vectors of one ORC node,
// reusing its buffers from batch to batch.
type toORC struct {
	orc      *orc.Schema
	typ      arrow.DataType
	path     string
	children []*toORC
	vec      orc.Vector

	nulls []bool
	i64   []int64
	f64   []float64
	offs  []int
	data  []byte
	dec   []orc.Int128
	nanos []int32
	loffs []int64
	tags  []uint8
	sel   []int   // list and map children
	sels  [][]int // union variants
}

func newToORC(path string, s *orc.Schema, f arrow.Field) *toORC {
	c := &toORC{orc: s, typ: f.Type, path: path}
	switch t := f.Type.(type) {
	case *arrow.MapType:
		k := newToORC(joinPath(path, "key"), s.Children[0], t.KeyField())
		v := newToORC(joinPath(path, "value"), s.Children[1], t.ItemField())
		c.children = []*toORC{k, v}
		c.vec = &orc.MapVector{Keys: k.vec, Values: v.vec}
	case *arrow.ListType:
		e := newToORC(joinPath(path, t.ElemField().Name), s.Children[0], t.ElemField())
		c.children = []*toORC{e}
		c.vec = &orc.ListVector{Elem: e.vec}
	case *arrow.LargeListType:
		e := newToORC(joinPath(path, t.ElemField().Name), s.Children[0], t.ElemField())
		c.children = []*toORC{e}
		c.vec = &orc.ListVector{Elem: e.vec}
	case *arrow.StructType:
		sv := &orc.StructVector{}
		for i, cf := range t.Fields() {
			ch := newToORC(joinPath(path, cf.Name), s.Children[i], cf)
			c.children = append(c.children, ch)
			sv.Fields = append(sv.Fields, ch.vec)
		}
		c.vec = sv
	case arrow.UnionType:
		uv := &orc.UnionVector{}
		for i, cf := range t.Fields() {
			ch := newToORC(joinPath(path, cf.Name), s.Children[i], cf)
			c.children = append(c.children, ch)
			uv.Children = append(uv.Children, ch.vec)
		}
		c.sels = make([][]int, len(c.children))
		c.vec = uv
	default:
		c.vec = orc.NewVector(s, 0)
	}
	return c
}

func (c *toORC) errorf(format string, args ...any) error {
	return fmt.Errorf("orcarrow: field %q: %s", c.path, fmt.Sprintf(format, args...))
}

// grow returns s resliced to n entries, reallocating only when it is short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// nullMask returns the ORC null mask of the rows, or nil when none is null.
func (c *toORC) nullMask(arr arrow.Array, lo, n int, sel []int) []bool {
	hasPlaceholder := false
	for _, r := range sel {
		if r < 0 {
			hasPlaceholder = true
			break
		}
	}
	if arr.NullN() == 0 && !hasPlaceholder {
		return nil
	}
	bm := arr.NullBitmapBytes()
	off := arr.Data().Offset()
	c.nulls = grow(c.nulls, n)
	some := false
	for i := range n {
		r := selRow(sel, lo, i)
		null := r < 0 || (bm != nil && !bitutil.BitIsSet(bm, off+r))
		c.nulls[i] = null
		some = some || null
	}
	if !some {
		return nil
	}
	return c.nulls
}

// widen copies integers of any Arrow width into c.i64.
func widen[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](c *toORC, vals []T, lo, n int, sel []int) []int64 {
	c.i64 = grow(c.i64, n)
	if sel == nil {
		for i, x := range vals[lo : lo+n] {
			c.i64[i] = int64(x)
		}
		return c.i64
	}
	for i, r := range sel {
		if r >= 0 {
			c.i64[i] = int64(vals[r])
		} else {
			c.i64[i] = 0
		}
	}
	return c.i64
}

// fill converts rows lo..hi-1 of arr, or the rows of sel, into c.vec.
func (c *toORC) fill(arr arrow.Array, lo, hi int, sel []int) error {
	n := hi - lo
	if sel != nil {
		n = len(sel)
	}
	nulls := c.nullMask(arr, lo, n, sel)
	switch a := arr.(type) {
	case *array.Boolean:
		c.i64 = grow(c.i64, n)
		for i := range n {
			r := selRow(sel, lo, i)
			c.i64[i] = 0
			if r >= 0 && a.Value(r) {
				c.i64[i] = 1
			}
		}
		c.setLong(nulls, c.i64)
	case *array.Int8:
		c.setLong(nulls, widen(c, a.Int8Values(), lo, n, sel))
	case *array.Int16:
		c.setLong(nulls, widen(c, a.Int16Values(), lo, n, sel))
	case *array.Int32:
		c.setLong(nulls, widen(c, a.Int32Values(), lo, n, sel))
	case *array.Uint8:
		c.setLong(nulls, widen(c, a.Uint8Values(), lo, n, sel))
	case *array.Uint16:
		c.setLong(nulls, widen(c, a.Uint16Values(), lo, n, sel))
	case *array.Uint32:
		c.setLong(nulls, widen(c, a.Uint32Values(), lo, n, sel))
	case *array.Int64:
		if sel == nil {
			c.setLong(nulls, a.Int64Values()[lo:hi])
		} else {
			c.setLong(nulls, widen(c, a.Int64Values(), lo, n, sel))
		}
	case *array.Date32:
		c.setLong(nulls, widen(c, a.Date32Values(), lo, n, sel))
	case *array.Date64:
		v := widen(c, a.Date64Values(), lo, n, sel)
		for i := range v {
			v[i] = floorDiv(v[i], 86_400_000)
		}
		c.setLong(nulls, v)
	case *array.Float32:
		c.f64 = grow(c.f64, n)
		vals := a.Float32Values()
		for i := range n {
			r := selRow(sel, lo, i)
			c.f64[i] = 0
			if r >= 0 {
				c.f64[i] = float64(vals[r])
			}
		}
		c.setDouble(nulls, c.f64)
	case *array.Float64:
		vals := a.Float64Values()
		if sel == nil {
			c.setDouble(nulls, vals[lo:hi])
			break
		}
		c.f64 = grow(c.f64, n)
		for i, r := range sel {
			c.f64[i] = 0
			if r >= 0 {
				c.f64[i] = vals[r]
			}
		}
		c.setDouble(nulls, c.f64)
	case *array.String:
		fillBytes(c, a.ValueOffsets(), dataBuffer(a), nulls, a.Len(), lo, hi, sel)
	case *array.LargeString:
		fillBytes(c, a.ValueOffsets(), dataBuffer(a), nulls, a.Len(), lo, hi, sel)
	case *array.Binary:
		fillBytes(c, a.ValueOffsets(), dataBuffer(a), nulls, a.Len(), lo, hi, sel)
	case *array.LargeBinary:
		fillBytes(c, a.ValueOffsets(), dataBuffer(a), nulls, a.Len(), lo, hi, sel)
	case *array.FixedSizeBinary:
		c.fillFixedBinary(a, nulls, lo, n, sel)
	case array.ExtensionArray:
		return c.fill(a.Storage(), lo, hi, sel)
	case *array.Timestamp:
		c.fillTimestamp(a, nulls, lo, n, sel)
	case *array.Decimal128:
		c.dec = grow(c.dec, n)
		vals := a.Values()
		for i := range n {
			r := selRow(sel, lo, i)
			c.dec[i] = orc.Int128{}
			if r >= 0 {
				c.dec[i] = orc.Int128{Hi: vals[r].HighBits(), Lo: vals[r].LowBits()}
			}
		}
		dv := c.vec.(*orc.DecimalVector)
		dv.Nulls.Nulls, dv.Values, dv.Scale = nulls, c.dec, c.orc.Scale
	case *array.Struct:
		sv := c.vec.(*orc.StructVector)
		for i, ch := range c.children {
			if err := ch.fill(a.Field(i), lo, hi, sel); err != nil {
				return err
			}
		}
		sv.Nulls.Nulls, sv.N = nulls, n
	case *array.Map:
		entries, ok := a.ListValues().(*array.Struct)
		if !ok {
			return c.errorf("map entries are not a struct")
		}
		mv := c.vec.(*orc.MapVector)
		clo, chi, csel, err := childRows(c, a, a.Offsets(), entries.Len(), nulls, lo, n, sel)
		if err != nil {
			return err
		}
		if err := c.children[0].fill(entries.Field(0), clo, chi, csel); err != nil {
			return err
		}
		if err := c.children[1].fill(entries.Field(1), clo, chi, csel); err != nil {
			return err
		}
		mv.Nulls.Nulls, mv.Offsets = nulls, c.loffs
	case *array.List:
		return fillList(c, a, a.Offsets(), nulls, lo, n, sel)
	case *array.LargeList:
		return fillList(c, a, a.Offsets(), nulls, lo, n, sel)
	case *array.DenseUnion:
		return c.fillDenseUnion(a, lo, n, sel)
	case *array.SparseUnion:
		return c.fillSparseUnion(a, lo, hi, n, sel)
	default:
		return c.errorf("Arrow type %s has no ORC counterpart", arr.DataType())
	}
	return nil
}

func (c *toORC) setLong(nulls []bool, vals []int64) {
	lv := c.vec.(*orc.LongVector)
	lv.Nulls.Nulls, lv.Values = nulls, vals
}

func (c *toORC) setDouble(nulls []bool, vals []float64) {
	dv := c.vec.(*orc.DoubleVector)
	dv.Nulls.Nulls, dv.Values = nulls, vals
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// selRow returns the source row of output row i: sel[i] under a
// selection, else lo+i.
func selRow(sel []int, lo, i int) int {
	if sel != nil {
		return sel[i]
	}
	return lo + i
}

// dataBuffer returns the value bytes of a string or binary array (all of
// them; its offsets index into this).
func dataBuffer(a arrow.Array) []byte {
	bufs := a.Data().Buffers()
	if len(bufs) < 3 || bufs[2] == nil {
		return nil
	}
	return bufs[2].Bytes()
}

// ownOffsets returns the n+1 offsets of a list array's own rows, given all
// the offsets of its data and the data's offset (nil when n is 0).
func ownOffsets[O int32 | int64](all []O, off, n int) []O {
	if n == 0 || len(all) < off+n+1 {
		return nil
	}
	return all[off : off+n+1]
}

// checkListOffsets refuses list or map offsets that go backwards or past
// the child values: array.Validate leaves them to ValidateFull, and
// listRows would otherwise gather, element by element, the ranges they
// claim (an offset of 800 million made a list of 800 million entries).
func checkListOffsets[O int32 | int64](c *toORC, offs []O, childLen int) error {
	for i, o := range offs {
		if o < 0 || int64(o) > int64(childLen) || i > 0 && o < offs[i-1] {
			return c.errorf("malformed array: list offset %d (row %d) out of order or past the %d child values", o, i, childLen)
		}
	}
	return nil
}

// childRows checks the offsets of list or map array a, all the offsets of
// its data, against its childLen child values, and returns the child rows
// the selected rows own (listRows).
func childRows[O int32 | int64](c *toORC, a arrow.Array, all []O, childLen int, nulls []bool, lo, n int, sel []int) (clo, chi int, csel []int, err error) {
	offs := ownOffsets(all, a.Data().Offset(), a.Len())
	if err := checkListOffsets(c, offs, childLen); err != nil {
		return 0, 0, nil, err
	}
	clo, chi, csel = listRows(c, offs, nulls, lo, n, sel)
	return clo, chi, csel, nil
}

// fillList fills the ORC list vector from list array a, whose data has the
// offsets all.
func fillList[O int32 | int64](c *toORC, a array.ListLike, all []O, nulls []bool, lo, n int, sel []int) error {
	clo, chi, csel, err := childRows(c, a, all, a.ListValues().Len(), nulls, lo, n, sel)
	if err != nil {
		return err
	}
	if err := c.children[0].fill(a.ListValues(), clo, chi, csel); err != nil {
		return err
	}
	lv := c.vec.(*orc.ListVector)
	lv.Nulls.Nulls, lv.Offsets = nulls, c.loffs
	return nil
}

// listRows sets c.loffs to the ORC offsets of the selected list rows
// (rebased to 0) and returns the child rows they own: the range clo..chi-1,
// or, when a null row owns elements or a selection is given, the list csel.
func listRows[O int32 | int64](c *toORC, offs []O, nulls []bool, lo, n int, sel []int) (clo, chi int, csel []int) {
	c.loffs = grow(c.loffs, n+1)
	c.loffs[0] = 0
	if n == 0 || len(offs) == 0 {
		clear(c.loffs)
		return 0, 0, nil
	}
	if sel == nil {
		clean := true
		for i := range n {
			if nulls != nil && nulls[i] && offs[lo+i+1] != offs[lo+i] {
				clean = false
				break
			}
		}
		if clean {
			base := offs[lo]
			for i := range n {
				c.loffs[i+1] = int64(offs[lo+i+1] - base)
			}
			return int(base), int(offs[lo+n]), nil
		}
	}
	if c.sel == nil {
		c.sel = make([]int, 0, n)
	}
	c.sel = c.sel[:0]
	for i := range n {
		r := selRow(sel, lo, i)
		if r >= 0 && (nulls == nil || !nulls[i]) {
			for e := offs[r]; e < offs[r+1]; e++ {
				c.sel = append(c.sel, int(e))
			}
		}
		c.loffs[i+1] = int64(len(c.sel))
	}
	return 0, 0, c.sel
}

// fillBytes converts string or binary rows: offsets are rebased to 0 as
// ints, and the bytes are aliased unless a selection forces a gather.
func fillBytes[O int32 | int64](c *toORC, offsets []O, data []byte, nulls []bool, length, lo, hi int, sel []int) {
	bv := c.vec.(*orc.BytesVector)
	bv.Nulls.Nulls = nulls
	n := hi - lo
	if sel != nil {
		n = len(sel)
	}
	c.offs = grow(c.offs, n+1)
	c.offs[0] = 0
	if length == 0 || len(offsets) == 0 {
		clear(c.offs)
		bv.Offsets, bv.Data = c.offs, nil
		return
	}
	if sel == nil {
		base := offsets[lo]
		for i := range n {
			c.offs[i+1] = int(offsets[lo+i+1] - base)
		}
		bv.Offsets, bv.Data = c.offs, data[base:offsets[hi]]
		return
	}
	c.data = c.data[:0]
	for i, r := range sel {
		if r >= 0 && (nulls == nil || !nulls[i]) {
			c.data = append(c.data, data[offsets[r]:offsets[r+1]]...)
		}
		c.offs[i+1] = len(c.data)
	}
	bv.Offsets, bv.Data = c.offs, c.data
}

// fillFixedBinary converts fixed-size binary rows to ORC binary, aliasing
// the bytes unless a selection forces a gather.
func (c *toORC) fillFixedBinary(a *array.FixedSizeBinary, nulls []bool, lo, n int, sel []int) {
	bv := c.vec.(*orc.BytesVector)
	bv.Nulls.Nulls = nulls
	w := a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
	c.offs = grow(c.offs, n+1)
	c.offs[0] = 0
	if sel == nil {
		for i := range n {
			c.offs[i+1] = (i + 1) * w
		}
		if n == 0 {
			bv.Offsets, bv.Data = c.offs, nil
			return
		}
		first := (a.Data().Offset() + lo) * w
		bv.Offsets, bv.Data = c.offs, a.Data().Buffers()[1].Bytes()[first:first+n*w]
		return
	}
	c.data = c.data[:0]
	for i, r := range sel {
		if r >= 0 && (nulls == nil || !nulls[i]) {
			c.data = append(c.data, a.Value(r)...)
		}
		c.offs[i+1] = len(c.data)
	}
	bv.Offsets, bv.Data = c.offs, c.data
}

// fillTimestamp splits Arrow timestamps of any unit into seconds and
// nanoseconds (floored, so nanoseconds are 0..999,999,999 before 1970 too).
func (c *toORC) fillTimestamp(a *array.Timestamp, nulls []bool, lo, n int, sel []int) {
	perSec := int64(1)
	switch a.DataType().(*arrow.TimestampType).Unit {
	case arrow.Millisecond:
		perSec = 1e3
	case arrow.Microsecond:
		perSec = 1e6
	case arrow.Nanosecond:
		perSec = 1e9
	}
	vals := a.TimestampValues()
	c.i64 = grow(c.i64, n)
	c.nanos = grow(c.nanos, n)
	for i := range n {
		r := selRow(sel, lo, i)
		if r < 0 {
			c.i64[i], c.nanos[i] = 0, 0
			continue
		}
		v := int64(vals[r])
		s := floorDiv(v, perSec)
		c.i64[i], c.nanos[i] = s, int32((v-s*perSec)*(1e9/perSec))
	}
	tv := c.vec.(*orc.TimestampVector)
	tv.Nulls.Nulls, tv.Seconds, tv.Nanos = nulls, c.i64, c.nanos
}

// fillDenseUnion converts a dense union: ORC variants are parallel to the
// union, so variant k takes, at each row of tag k, the row the union's offset
// points to, and a null placeholder elsewhere. A row is null in ORC when the
// value its tag selects is null.
func (c *toORC) fillDenseUnion(a *array.DenseUnion, lo, n int, sel []int) error {
	codes, offs := a.RawTypeCodes(), a.RawValueOffsets()
	ids := a.UnionType().ChildIDs()
	c.tags = grow(c.tags, n)
	for k := range c.sels {
		c.sels[k] = grow(c.sels[k], n)
	}
	for i := range n {
		r := selRow(sel, lo, i)
		id := 0
		if r >= 0 {
			id = ids[codes[r]]
		}
		c.tags[i] = uint8(id)
		for k := range c.sels {
			c.sels[k][i] = -1
		}
		if r >= 0 {
			c.sels[id][i] = int(offs[r])
		}
	}
	for k, ch := range c.children {
		if err := ch.fill(a.Field(k), 0, 0, c.sels[k]); err != nil {
			return err
		}
	}
	c.setUnion(n)
	return nil
}

// fillSparseUnion converts a sparse union, whose children are parallel to it
// as ORC's are.
func (c *toORC) fillSparseUnion(a *array.SparseUnion, lo, hi, n int, sel []int) error {
	codes := a.RawTypeCodes()
	ids := a.UnionType().ChildIDs()
	c.tags = grow(c.tags, n)
	for i := range n {
		r := selRow(sel, lo, i)
		c.tags[i] = 0
		if r >= 0 {
			c.tags[i] = uint8(ids[codes[r]])
		}
	}
	for k, ch := range c.children {
		if err := ch.fill(a.Field(k), lo, hi, sel); err != nil {
			return err
		}
	}
	c.setUnion(n)
	return nil
}

// setUnion sets the union vector's tags, and its nulls from the variants.
func (c *toORC) setUnion(n int) {
	uv := c.vec.(*orc.UnionVector)
	uv.Tags = c.tags[:n]
	uv.Nulls.Nulls = nil
	c.nulls = grow(c.nulls, n)
	some := false
	for i := range n {
		null := uv.Children[c.tags[i]].IsNull(i)
		c.nulls[i] = null
		some = some || null
	}
	if some {
		uv.Nulls.Nulls = c.nulls
	}
}
