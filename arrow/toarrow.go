package orcarrow

// ORC vectors -> Arrow arrays.
//
// Every converter takes a vector and a selection: sel == nil means every row
// of the vector; otherwise sel lists the rows to take, in order, and -1 stands
// for a null row. Selections come only from unions (a dense union's child
// holds the rows of its variant, packed) and from what lies below them; the
// common path, sel == nil, is where buffers are aliased rather than copied:
// bigint and double values and string and binary bytes. Everything else is
// written into buffers from the allocator, once per batch, never per value.

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
)

// toArrow converts vectors of one ORC type node to Arrow arrays.
type toArrow struct {
	orc      *orc.Schema
	typ      arrow.DataType
	path     string
	children []*toArrow
	copy     bool // copy instead of aliasing (the batch is reused)
}

func newToArrow(path string, s *orc.Schema, t arrow.DataType, copyValues bool) *toArrow {
	c := &toArrow{orc: s, typ: t, path: path, copy: copyValues}
	switch s.Kind {
	case orc.List:
		c.children = []*toArrow{newToArrow(joinPath(path, "item"), s.Children[0], t.(*arrow.ListType).Elem(), copyValues)}
	case orc.Map:
		mt := t.(*arrow.MapType)
		c.children = []*toArrow{
			newToArrow(joinPath(path, "key"), s.Children[0], mt.KeyType(), copyValues),
			newToArrow(joinPath(path, "value"), s.Children[1], mt.ItemType(), copyValues),
		}
	case orc.Struct:
		st := t.(*arrow.StructType)
		for i, ch := range s.Children {
			c.children = append(c.children, newToArrow(joinPath(path, s.FieldNames[i]), ch, st.Field(i).Type, copyValues))
		}
	case orc.Union:
		ut := t.(*arrow.DenseUnionType)
		for i, ch := range s.Children {
			c.children = append(c.children, newToArrow(joinPath(path, ut.Fields()[i].Name), ch, ut.Fields()[i].Type, copyValues))
		}
	}
	return c
}

// share returns a buffer holding b: b itself, or a copy from mem when the
// vectors are reused.
func (c *toArrow) share(mem memory.Allocator, b []byte) *memory.Buffer {
	if !c.copy {
		return memory.NewBufferBytes(b)
	}
	buf := newBuffer(mem, len(b))
	copy(buf.Bytes(), b)
	return buf
}

func (c *toArrow) errorf(format string, args ...any) error {
	return fmt.Errorf("orcarrow: column %q: %s", c.path, fmt.Sprintf(format, args...))
}

// rowCount is the number of rows a selection yields from a vector.
func rowCount(v orc.Vector, sel []int) int {
	if sel == nil {
		return v.Len()
	}
	return len(sel)
}

// newBuffer returns a buffer of n bytes from mem.
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	return b
}

// newData builds array data and gives up the caller's references to bufs
// and children, which the data now holds.
func newData(t arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) *array.Data {
	d := array.NewData(t, n, bufs, children, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	for _, ch := range children {
		ch.Release()
	}
	return d
}

func releaseAll(bufs ...*memory.Buffer) {
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
}

// isNull reports whether selected row r is null under the mask nulls.
func isNull(nulls []bool, r int) bool { return r < 0 || (r < len(nulls) && nulls[r]) }

// validity builds the validity bitmap of a selection from an ORC null mask.
// It returns nil and 0 when no selected row is null.
func validity(mem memory.Allocator, nulls []bool, sel []int, n int) (*memory.Buffer, int) {
	count := 0
	if sel == nil {
		for _, b := range nulls[:min(n, len(nulls))] {
			if b {
				count++
			}
		}
	} else {
		for _, r := range sel {
			if isNull(nulls, r) {
				count++
			}
		}
	}
	if count == 0 {
		return nil, 0
	}
	buf := newBuffer(mem, (n+7)/8)
	bits := buf.Bytes()
	clear(bits)
	for i := range n {
		r := selRow(sel, 0, i)
		if !isNull(nulls, r) {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return buf, count
}

// build converts the selected rows of v.
func (c *toArrow) build(mem memory.Allocator, v orc.Vector, sel []int) (arrow.ArrayData, error) {
	n := rowCount(v, sel)
	switch c.orc.Kind {
	case orc.Boolean:
		lv := v.(*orc.LongVector)
		valid, nulls := validity(mem, lv.Nulls.Nulls, sel, n)
		buf := newBuffer(mem, (n+7)/8)
		bits := buf.Bytes()
		clear(bits)
		for i := range n {
			r := selRow(sel, 0, i)
			if r >= 0 && lv.Values[r] != 0 {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
		return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls), nil
	case orc.Byte:
		return buildNarrow[int8](c, mem, v.(*orc.LongVector), sel, n, math.MinInt8, math.MaxInt8)
	case orc.Short:
		return buildNarrow[int16](c, mem, v.(*orc.LongVector), sel, n, math.MinInt16, math.MaxInt16)
	case orc.Int, orc.Date:
		return buildNarrow[int32](c, mem, v.(*orc.LongVector), sel, n, math.MinInt32, math.MaxInt32)
	case orc.Long:
		lv := v.(*orc.LongVector)
		return buildWide(c, mem, lv.Nulls.Nulls, lv.Values, sel, n), nil
	case orc.Float:
		dv := v.(*orc.DoubleVector)
		valid, nulls := validity(mem, dv.Nulls.Nulls, sel, n)
		buf := newBuffer(mem, n*4)
		out := arrow.Float32Traits.CastFromBytes(buf.Bytes())
		if sel == nil {
			for i, x := range dv.Values[:n] {
				out[i] = float32(x)
			}
		} else {
			for i, r := range sel {
				if r >= 0 {
					out[i] = float32(dv.Values[r])
				} else {
					out[i] = 0
				}
			}
		}
		return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls), nil
	case orc.Double:
		dv := v.(*orc.DoubleVector)
		return buildWide(c, mem, dv.Nulls.Nulls, dv.Values, sel, n), nil
	case orc.String, orc.Char, orc.Varchar, orc.Binary, orc.Geometry, orc.Geography:
		return c.buildBytes(mem, v.(*orc.BytesVector), sel, n)
	case orc.Decimal:
		dv := v.(*orc.DecimalVector)
		valid, nulls := validity(mem, dv.Nulls.Nulls, sel, n)
		buf := newBuffer(mem, n*16)
		out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
		for i := range n {
			r := selRow(sel, 0, i)
			if isNull(dv.Nulls.Nulls, r) {
				out[i] = decimal128.Num{}
				continue
			}
			x := dv.Values[r]
			if dv.Scale != c.orc.Scale { // a batch built by hand may hold another scale
				y, exact, ok := orc.Rescale(x, dv.Scale, c.orc.Scale)
				if !exact || !ok {
					releaseAll(valid, buf)
					return nil, c.errorf("row %d: decimal %s does not fit scale %d", r, orc.FormatDecimal(x, dv.Scale), c.orc.Scale)
				}
				x = y
			}
			out[i] = decimal128.New(x.Hi, x.Lo)
		}
		return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls), nil
	case orc.Timestamp, orc.TimestampInstant:
		tv := v.(*orc.TimestampVector)
		valid, nulls := validity(mem, tv.Nulls.Nulls, sel, n)
		buf := newBuffer(mem, n*8)
		out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
		for i := range n {
			r := selRow(sel, 0, i)
			if isNull(tv.Nulls.Nulls, r) {
				out[i] = 0
				continue
			}
			ns, ok := timestampNanos(tv.Seconds[r], tv.Nanos[r])
			if !ok {
				releaseAll(valid, buf)
				return nil, c.errorf("row %d: timestamp %d s + %d ns is outside timestamp[ns] (years 1677 to 2262)", r, tv.Seconds[r], tv.Nanos[r])
			}
			out[i] = ns
		}
		return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls), nil
	case orc.Struct:
		sv := v.(*orc.StructVector)
		kids := make([]arrow.ArrayData, 0, len(c.children))
		for i, ch := range c.children {
			d, err := ch.build(mem, sv.Fields[i], sel)
			if err != nil {
				releaseData(kids)
				return nil, err
			}
			kids = append(kids, d)
		}
		valid, nulls := validity(mem, sv.Nulls.Nulls, sel, n)
		return newData(c.typ, n, []*memory.Buffer{valid}, kids, nulls), nil
	case orc.List:
		lv := v.(*orc.ListVector)
		valid, offs, nulls, elem, _, err := c.listParts(mem, lv.Nulls.Nulls, lv.Offsets, lv.Elem, sel, n)
		if err != nil {
			return nil, err
		}
		return newData(c.typ, n, []*memory.Buffer{valid, offs}, []arrow.ArrayData{elem}, nulls), nil
	case orc.Map:
		mv := v.(*orc.MapVector)
		valid, offs, nulls, keys, childSel, err := c.listParts(mem, mv.Nulls.Nulls, mv.Offsets, mv.Keys, sel, n)
		if err != nil {
			return nil, err
		}
		if keys.NullN() > 0 {
			releaseAll(valid, offs)
			keys.Release()
			return nil, c.errorf("a map key is null; Arrow map keys cannot be null")
		}
		vals, err := c.children[1].build(mem, mv.Values, childSel)
		if err != nil {
			releaseAll(valid, offs)
			keys.Release()
			return nil, err
		}
		mt := c.typ.(*arrow.MapType)
		entries := newData(mt.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys, vals}, 0)
		return newData(c.typ, n, []*memory.Buffer{valid, offs}, []arrow.ArrayData{entries}, nulls), nil
	case orc.Union:
		return c.buildUnion(mem, v.(*orc.UnionVector), sel, n)
	}
	return nil, c.errorf("ORC kind %v not converted", c.orc.Kind)
}

// listParts builds what list and map rows share: their validity buffer
// and null count, their offsets buffer, and their first child (a list's
// elements, a map's keys) of the child rows they own, whose selection it
// returns for a map's values.
func (c *toArrow) listParts(mem memory.Allocator, rowNulls []bool, src []int64, first orc.Vector, sel []int, n int) (valid, offs *memory.Buffer, nulls int, child arrow.ArrayData, childSel []int, err error) {
	valid, nulls = validity(mem, rowNulls, sel, n)
	offs, childSel, err = c.listOffsets(mem, src, rowNulls, sel, n, first.Len())
	if err != nil {
		releaseAll(valid)
		return nil, nil, 0, nil, nil, err
	}
	child, err = c.children[0].build(mem, first, childSel)
	if err != nil {
		releaseAll(valid, offs)
		return nil, nil, 0, nil, nil, err
	}
	return valid, offs, nulls, child, childSel, nil
}

func releaseData(ds []arrow.ArrayData) {
	for _, d := range ds {
		d.Release()
	}
}

// timestampNanos returns sec seconds plus nanos nanoseconds as nanoseconds
// since the epoch, reporting false when that overflows an int64.
func timestampNanos(sec int64, nanos int32) (int64, bool) {
	const maxSec = math.MaxInt64 / 1_000_000_000 // 9,223,372,036
	if sec > maxSec || sec < -maxSec-1 {
		return 0, false
	}
	base, add := sec*1e9, int64(nanos)
	if sec < 0 { // (sec+1)·1e9 + (nanos−1e9) keeps the product in range at sec = −maxSec−1
		base, add = (sec+1)*1e9, int64(nanos)-1e9
	}
	r := base + add
	if (add > 0 && r < base) || (add < 0 && r > base) {
		return 0, false
	}
	return r, true
}

// buildNarrow converts int64 values to a narrower Arrow integer, refusing a
// non-null value outside [lo, hi].
func buildNarrow[T int8 | int16 | int32](c *toArrow, mem memory.Allocator, lv *orc.LongVector, sel []int, n int, lo, hi int64) (arrow.ArrayData, error) {
	valid, nulls := validity(mem, lv.Nulls.Nulls, sel, n)
	buf := newBuffer(mem, n*sizeOf[T]())
	out := castSlice[T](buf.Bytes(), n)
	for i := range n {
		r := selRow(sel, 0, i)
		if isNull(lv.Nulls.Nulls, r) {
			out[i] = 0
			continue
		}
		x := lv.Values[r]
		if x < lo || x > hi {
			releaseAll(valid, buf)
			return nil, c.errorf("row %d: value %d does not fit %s", r, x, c.typ)
		}
		out[i] = T(x)
	}
	return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls), nil
}

// buildWide converts bigint and double values, which Arrow lays out as ORC
// does: without a selection the values are shared, with one they are
// gathered (0 where a selected row is null).
func buildWide[T int64 | float64](c *toArrow, mem memory.Allocator, nullMask []bool, values []T, sel []int, n int) arrow.ArrayData {
	valid, nulls := validity(mem, nullMask, sel, n)
	var buf *memory.Buffer
	if sel == nil {
		buf = c.share(mem, arrow.GetBytes(values[:n]))
	} else {
		buf = newBuffer(mem, n*8)
		out := castSlice[T](buf.Bytes(), n)
		for i, r := range sel {
			if r >= 0 {
				out[i] = values[r]
			} else {
				out[i] = 0
			}
		}
	}
	return newData(c.typ, n, []*memory.Buffer{valid, buf}, nil, nulls)
}

// buildBytes converts string and binary values. Without a selection the
// bytes are aliased and only the offsets are narrowed to int32.
func (c *toArrow) buildBytes(mem memory.Allocator, bv *orc.BytesVector, sel []int, n int) (arrow.ArrayData, error) {
	valid, nulls := validity(mem, bv.Nulls.Nulls, sel, n)
	offBuf := newBuffer(mem, (n+1)*4)
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	var data *memory.Buffer
	if sel == nil {
		if n == 0 {
			offs[0] = 0
			data = memory.NewBufferBytes(nil)
		} else {
			end := bv.Offsets[n]
			if end > math.MaxInt32 {
				releaseAll(valid, offBuf)
				return nil, c.errorf("a batch holds %d bytes; Arrow strings hold at most 2 GiB: use a smaller batch size", end)
			}
			prev := bv.Offsets[0]
			for i, o := range bv.Offsets[:n+1] {
				if o < prev || o < 0 || o > len(bv.Data) {
					releaseAll(valid, offBuf)
					return nil, c.errorf("row %d: offset %d out of order or past the data (%d bytes)", i, o, len(bv.Data))
				}
				offs[i], prev = int32(o), o
			}
			data = c.share(mem, bv.Data[:end])
		}
	} else {
		total := 0
		for _, r := range sel {
			if !isNull(bv.Nulls.Nulls, r) {
				total += bv.Offsets[r+1] - bv.Offsets[r]
			}
		}
		if total > math.MaxInt32 {
			releaseAll(valid, offBuf)
			return nil, c.errorf("a batch holds %d bytes; Arrow strings hold at most 2 GiB: use a smaller batch size", total)
		}
		data = newBuffer(mem, total)
		out := data.Bytes()[:0]
		offs[0] = 0
		for i, r := range sel {
			if !isNull(bv.Nulls.Nulls, r) {
				out = append(out, bv.Data[bv.Offsets[r]:bv.Offsets[r+1]]...)
			}
			offs[i+1] = int32(len(out))
		}
	}
	if c.orc.Kind == orc.String || c.orc.Kind == orc.Char || c.orc.Kind == orc.Varchar {
		if row := invalidUTF8(data.Bytes(), offs[:n+1]); row >= 0 {
			releaseAll(valid, offBuf, data)
			return nil, c.errorf("row %d: the value is not valid UTF-8, which Arrow strings must be (the file holds other bytes in a string column)", row)
		}
	}
	return newData(c.typ, n, []*memory.Buffer{valid, offBuf, data}, nil, nulls), nil
}

// invalidUTF8 returns the first row whose bytes, data[offs[i]:offs[i+1]],
// are not UTF-8, or -1. Most batches are checked by one utf8.Valid over
// all their bytes and a look at the first byte of each value (valid text
// cut in the middle of a character is invalid on both sides of the cut).
func invalidUTF8(data []byte, offs []int32) int {
	n := len(offs) - 1
	if n <= 0 {
		return -1
	}
	if utf8.Valid(data[offs[0]:offs[n]]) {
		for i := range n {
			if o := offs[i]; o < offs[i+1] && !utf8.RuneStart(data[o]) {
				return i
			}
		}
		return -1
	}
	for i := range n {
		if !utf8.Valid(data[offs[i]:offs[i+1]]) {
			return i
		}
	}
	return -1
}

// listOffsets builds the int32 offsets of a list or map selection and the
// selection of its children (nil when all of them are taken as they are).
func (c *toArrow) listOffsets(mem memory.Allocator, src []int64, nulls []bool, sel []int, n, childLen int) (*memory.Buffer, []int, error) {
	buf := newBuffer(mem, (n+1)*4)
	offs := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	if sel == nil {
		if n == 0 {
			offs[0] = 0
			if childLen == 0 {
				return buf, nil, nil
			}
			return buf, []int{}, nil
		}
		if src[n] > math.MaxInt32 {
			buf.Release()
			return nil, nil, c.errorf("a batch holds %d elements; Arrow lists hold at most 2^31-1: use a smaller batch size", src[n])
		}
		prev := src[0]
		for i, o := range src[:n+1] {
			if o < prev || o < 0 || o > int64(childLen) {
				buf.Release()
				return nil, nil, c.errorf("row %d: offset %d out of order or past the %d elements", i, o, childLen)
			}
			offs[i], prev = int32(o), o
		}
		if src[0] == 0 && src[n] == int64(childLen) {
			return buf, nil, nil
		}
		// children beyond the last row's: take exactly the rows' elements
		childSel := make([]int, 0, src[n]-src[0])
		for e := src[0]; e < src[n]; e++ {
			childSel = append(childSel, int(e))
		}
		for i := range offs {
			offs[i] -= int32(src[0])
		}
		return buf, childSel, nil
	}
	total := 0
	for _, r := range sel {
		if !isNull(nulls, r) {
			total += int(src[r+1] - src[r])
		}
	}
	if total > math.MaxInt32 {
		buf.Release()
		return nil, nil, c.errorf("a batch holds %d elements; Arrow lists hold at most 2^31-1: use a smaller batch size", total)
	}
	childSel := make([]int, 0, total)
	offs[0] = 0
	for i, r := range sel {
		if !isNull(nulls, r) {
			for e := src[r]; e < src[r+1]; e++ {
				childSel = append(childSel, int(e))
			}
		}
		offs[i+1] = int32(len(childSel))
	}
	return buf, childSel, nil
}

// buildUnion converts a union, whose ORC variants are parallel to it, to a
// dense union, whose children hold only their own rows. Arrow unions have no
// validity of their own: a null union row becomes a null in variant 0.
func (c *toArrow) buildUnion(mem memory.Allocator, uv *orc.UnionVector, sel []int, n int) (arrow.ArrayData, error) {
	codesBuf := newBuffer(mem, n)
	codes := arrow.Int8Traits.CastFromBytes(codesBuf.Bytes())
	offBuf := newBuffer(mem, n*4)
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	sels := make([][]int, len(c.children))
	for i := range sels {
		sels[i] = []int{}
	}
	for i := range n {
		r := selRow(sel, 0, i)
		t := 0
		if isNull(uv.Nulls.Nulls, r) {
			r = -1
		} else {
			t = int(uv.Tags[r])
			if t >= len(c.children) {
				releaseAll(codesBuf, offBuf)
				return nil, c.errorf("row %d: union tag %d, but the union has %d variants", r, t, len(c.children))
			}
		}
		codes[i] = int8(t)
		offs[i] = int32(len(sels[t]))
		sels[t] = append(sels[t], r)
	}
	kids := make([]arrow.ArrayData, 0, len(c.children))
	for i, ch := range c.children {
		d, err := ch.build(mem, uv.Children[i], sels[i])
		if err != nil {
			releaseData(kids)
			releaseAll(codesBuf, offBuf)
			return nil, err
		}
		kids = append(kids, d)
	}
	return newData(c.typ, n, []*memory.Buffer{nil, codesBuf, offBuf}, kids, 0), nil
}
