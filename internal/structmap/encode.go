package structmap

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"sort"
	"time"
	"unsafe"

	"github.com/orcgo/orc"
)

// Encoder appends rows of one struct type to batches of its schema. It
// belongs to one goroutine: it keeps scratch buffers between calls.
type Encoder struct {
	typ    reflect.Type
	schema *orc.Schema
	cols   []colEncoder
	ptrs   []unsafe.Pointer
}

type colEncoder struct {
	off uintptr
	enc encoder
}

// encoder appends one column's values. The values are at ptrs[i]+off;
// nulls is nil when no row is null, else it marks the null rows (set by a
// nil pointer higher up, in which case the value is a zero value). Errors
// are *ValueError with Row indexing ptrs.
type encoder interface {
	encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error
}

// NewEncoder returns an encoder for struct type t.
func NewEncoder(t reflect.Type) (*Encoder, error) {
	root, err := analyse(t)
	if err != nil {
		return nil, err
	}
	e := &Encoder{typ: t, schema: root.schema}
	for _, f := range root.fields {
		e.cols = append(e.cols, colEncoder{off: f.offset, enc: newEncoder(f.node)})
	}
	return e, nil
}

// Schema returns the schema the encoder writes. Callers must not modify it.
func (e *Encoder) Schema() *orc.Schema { return e.schema }

// Encode appends rows to b, a batch made by orc.NewBatch for e.Schema().
// If a row holds a value its column cannot store, the rows before it are
// appended, it and the rest are not, and the error is a *ValueError naming
// it; Encode returns the number of rows appended.
func Encode[T any](e *Encoder, b *orc.Batch, rows []T) (int, error) {
	if reflect.TypeFor[T]() != e.typ {
		return 0, fmt.Errorf("orc: Encode: rows of %v, encoder for %v", reflect.TypeFor[T](), e.typ)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return e.encodeRows(b, unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Sizeof(rows[0]), len(rows))
}

func (e *Encoder) encodeRows(b *orc.Batch, base unsafe.Pointer, size uintptr, n int) (int, error) {
	if len(b.Cols) != len(e.cols) {
		return 0, fmt.Errorf("orc: Encode: batch has %d columns, row type %v %d", len(b.Cols), e.typ, len(e.cols))
	}
	ptrs := e.ptrs[:0]
	for i := range n {
		ptrs = append(ptrs, unsafe.Add(base, uintptr(i)*size))
	}
	e.ptrs = ptrs
	defer clear(ptrs)
	old := b.NumRows
	var first error
	for n > 0 {
		err := e.encodeCols(b, ptrs[:n])
		if err == nil {
			break
		}
		// Columns before the failing one hold all n rows, later ones
		// none: cut back and encode again the rows before the bad one.
		for _, c := range b.Cols {
			truncate(c, old)
		}
		ve, ok := err.(*ValueError)
		if !ok {
			return 0, err
		}
		first, n = ve, ve.Row
	}
	b.NumRows = old + n
	return n, first
}

func (e *Encoder) encodeCols(b *orc.Batch, ptrs []unsafe.Pointer) error {
	for i, c := range e.cols {
		if err := c.enc.encode(b.Cols[i], ptrs, c.off, nil); err != nil {
			return err
		}
	}
	return nil
}

// newEncoder builds the encoder of a node.
func newEncoder(n *node) encoder {
	switch n.kind {
	case kBool:
		return &boolEncoder{}
	case kInt, kUint:
		return &intEncoder{size: n.size, unsigned: n.kind == kUint, path: n.path}
	case kFloat32, kFloat64:
		return &floatEncoder{is32: n.kind == kFloat32}
	case kString:
		return &bytesEncoder[string]{}
	case kBytes:
		return &bytesEncoder[[]byte]{}
	case kTime:
		return &timeEncoder{date: n.schema.Kind == orc.Date}
	case kDecimal:
		d := &decimalEncoder{precision: n.schema.Precision, scale: n.schema.Scale,
			limit: orc.Pow10(n.schema.Precision), path: n.path}
		if d.precision <= 18 {
			d.limit64 = d.limit.Int64()
		}
		return d
	case kStruct:
		s := &structEncoder{}
		for _, f := range n.fields {
			s.fields = append(s.fields, colEncoder{off: f.offset, enc: newEncoder(f.node)})
		}
		return s
	case kPtr:
		return &ptrEncoder{elem: newEncoder(n.elem), zero: reflect.New(n.elem.typ).UnsafePointer()}
	case kSlice:
		return &sliceEncoder{elem: newEncoder(n.elem), size: n.elem.size}
	case kMap:
		m := &mapEncoder{typ: n.typ, key: newEncoder(n.key), val: newEncoder(n.elem),
			keyBufType: reflect.SliceOf(n.key.typ), valBufType: reflect.SliceOf(n.elem.typ),
			keySize: n.key.size, valSize: n.elem.size}
		m.sorter.cmp = keyCompare(n.key)
		return m
	}
	panic("structmap: unknown node kind") // unreachable: analyse makes only the kinds above
}

// vectorError reports a batch whose vector does not fit the encoder, which
// only a caller passing a batch of another schema can cause.
func vectorError(v orc.Vector, want string) error {
	return fmt.Errorf("orc: Encode: vector %T where %s was expected (batch of another schema?)", v, want)
}

type boolEncoder struct{}

func (*boolEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.LongVector)
	if !ok {
		return vectorError(v, "*orc.LongVector")
	}
	old := len(vec.Values)
	for _, p := range ptrs {
		var x int64
		if *(*bool)(unsafe.Add(p, off)) {
			x = 1
		}
		vec.Values = append(vec.Values, x)
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

type intEncoder struct {
	size     uintptr
	unsigned bool
	path     string
}

// appendInts appends the integers of type T at ptrs[i]+off.
func appendInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](dst []int64, ptrs []unsafe.Pointer, off uintptr) []int64 {
	for _, p := range ptrs {
		dst = append(dst, int64(*(*T)(unsafe.Add(p, off))))
	}
	return dst
}

func (e *intEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.LongVector)
	if !ok {
		return vectorError(v, "*orc.LongVector")
	}
	old := len(vec.Values)
	switch {
	case !e.unsigned && e.size == 1:
		vec.Values = appendInts[int8](vec.Values, ptrs, off)
	case !e.unsigned && e.size == 2:
		vec.Values = appendInts[int16](vec.Values, ptrs, off)
	case !e.unsigned && e.size == 4:
		vec.Values = appendInts[int32](vec.Values, ptrs, off)
	case !e.unsigned:
		vec.Values = appendInts[int64](vec.Values, ptrs, off)
	case e.size == 1:
		vec.Values = appendInts[uint8](vec.Values, ptrs, off)
	case e.size == 2:
		vec.Values = appendInts[uint16](vec.Values, ptrs, off)
	case e.size == 4:
		vec.Values = appendInts[uint32](vec.Values, ptrs, off)
	default:
		for i, p := range ptrs {
			x := *(*uint64)(unsafe.Add(p, off))
			if x > math.MaxInt64 {
				return &ValueError{Row: i, Field: e.path, Msg: fmt.Sprintf("value %d does not fit bigint", x)}
			}
			vec.Values = append(vec.Values, int64(x))
		}
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

type floatEncoder struct{ is32 bool }

func (e *floatEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.DoubleVector)
	if !ok {
		return vectorError(v, "*orc.DoubleVector")
	}
	old := len(vec.Values)
	if e.is32 {
		for _, p := range ptrs {
			vec.Values = append(vec.Values, float64(*(*float32)(unsafe.Add(p, off))))
		}
	} else {
		for _, p := range ptrs {
			vec.Values = append(vec.Values, *(*float64)(unsafe.Add(p, off)))
		}
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

// bytesEncoder encodes fields of type T, string or []byte.
type bytesEncoder[T string | []byte] struct{}

func (*bytesEncoder[T]) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.BytesVector)
	if !ok {
		return vectorError(v, "*orc.BytesVector")
	}
	old := vec.Len()
	if len(vec.Offsets) == 0 {
		vec.Offsets = append(vec.Offsets, 0)
	}
	for _, p := range ptrs {
		vec.Data = append(vec.Data, *(*T)(unsafe.Add(p, off))...)
		vec.Offsets = append(vec.Offsets, len(vec.Data))
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

type timeEncoder struct{ date bool }

func (e *timeEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	if e.date {
		vec, ok := v.(*orc.LongVector)
		if !ok {
			return vectorError(v, "*orc.LongVector")
		}
		old := len(vec.Values)
		for _, p := range ptrs {
			y, m, d := (*time.Time)(unsafe.Add(p, off)).Date()
			vec.Values = append(vec.Values, daysFromCivil(int64(y), int(m), d))
		}
		markNulls(&vec.Nulls, old, len(ptrs), nulls)
		return nil
	}
	vec, ok := v.(*orc.TimestampVector)
	if !ok {
		return vectorError(v, "*orc.TimestampVector")
	}
	old := len(vec.Seconds)
	for _, p := range ptrs {
		t := (*time.Time)(unsafe.Add(p, off))
		vec.Seconds = append(vec.Seconds, t.Unix())
		vec.Nanos = append(vec.Nanos, int32(t.Nanosecond()))
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

type decimalEncoder struct {
	precision, scale int
	limit            orc.Int128 // 10^precision
	limit64          int64      // 10^precision when precision <= 18
	path             string
}

func (e *decimalEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.DecimalVector)
	if !ok {
		return vectorError(v, "*orc.DecimalVector")
	}
	if vec.Scale != e.scale {
		return fmt.Errorf("orc: Encode: decimal vector of scale %d, column scale %d", vec.Scale, e.scale)
	}
	old := len(vec.Values)
	for i, p := range ptrs {
		d := (*Decimal)(unsafe.Add(p, off))
		x := d.Unscaled
		if d.Scale != e.scale {
			if d.Scale < 0 || d.Scale > 38 {
				return &ValueError{Row: i, Field: e.path, Msg: fmt.Sprintf("decimal scale %d outside 0..38", d.Scale)}
			}
			r, exact, ok := orc.Rescale(x, d.Scale, e.scale)
			if !exact || !ok {
				if ok {
					return &ValueError{Row: i, Field: e.path, Msg: fmt.Sprintf("%s, of scale %d, does not fit decimal(%d,%d) without rounding to scale %d",
						orc.FormatDecimal(x, d.Scale), d.Scale, e.precision, e.scale, e.scale)}
				}
				return &ValueError{Row: i, Field: e.path, Msg: fmt.Sprintf("%s does not fit decimal(%d,%d)",
					orc.FormatDecimal(x, d.Scale), e.precision, e.scale)}
			}
			x = r
		}
		if e.precision <= 18 && x.IsInt64() {
			if v := x.Int64(); v < e.limit64 && v > -e.limit64 {
				vec.Values = append(vec.Values, x)
				continue
			}
		}
		if x.Cmp(e.limit) >= 0 || x.Neg().Cmp(e.limit) >= 0 {
			return &ValueError{Row: i, Field: e.path, Msg: fmt.Sprintf("%s has more than %d digits for decimal(%d,%d)",
				orc.FormatDecimal(d.Unscaled, d.Scale), e.precision, e.precision, e.scale)}
		}
		vec.Values = append(vec.Values, x)
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	return nil
}

type structEncoder struct{ fields []colEncoder }

func (e *structEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.StructVector)
	if !ok || len(vec.Fields) != len(e.fields) {
		return vectorError(v, fmt.Sprintf("*orc.StructVector of %d fields", len(e.fields)))
	}
	for i, f := range e.fields {
		if err := f.enc.encode(vec.Fields[i], ptrs, off+f.off, nulls); err != nil {
			return err
		}
	}
	markNulls(&vec.Nulls, vec.N, len(ptrs), nulls)
	vec.N += len(ptrs)
	return nil
}

// ptrEncoder encodes *T: nil pointers are nulls whose slot holds T's zero
// value.
type ptrEncoder struct {
	elem  encoder
	zero  unsafe.Pointer // a T that stays zero
	ptrs  []unsafe.Pointer
	nulls []bool
}

func (e *ptrEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	own, mask, some := e.ptrs[:0], e.nulls[:0], false
	for i, p := range ptrs {
		q := *(*unsafe.Pointer)(unsafe.Add(p, off))
		null := q == nil || nulls != nil && nulls[i]
		if q == nil {
			q = e.zero
		}
		own = append(own, q)
		mask = append(mask, null)
		some = some || null
	}
	e.ptrs, e.nulls = own, mask
	if !some {
		mask = nil
	}
	err := e.elem.encode(v, own, 0, mask)
	clear(own)
	return err
}

// sliceEncoder encodes []T as array<T>.
type sliceEncoder struct {
	elem encoder
	size uintptr // of T
	ptrs []unsafe.Pointer
}

func (e *sliceEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.ListVector)
	if !ok {
		return vectorError(v, "*orc.ListVector")
	}
	old := vec.Len()
	first := lastOffset(&vec.Offsets)
	count := first
	elems := e.ptrs[:0]
	for i, p := range ptrs {
		h := (*sliceHeader)(unsafe.Add(p, off))
		if nulls == nil || !nulls[i] {
			for j := range h.len {
				elems = append(elems, unsafe.Add(h.data, uintptr(j)*e.size))
			}
			count += int64(h.len)
		}
		vec.Offsets = append(vec.Offsets, count)
	}
	e.ptrs = elems
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	err := e.elem.encode(vec.Elem, elems, 0, nil)
	clear(elems)
	return childRow(err, vec.Offsets[old:], first)
}

// lastOffset returns the offset at which the next row of a list or map
// vector starts, giving an empty vector its leading 0 offset first.
func lastOffset(offsets *[]int64) int64 {
	if len(*offsets) == 0 {
		*offsets = append(*offsets, 0)
	}
	return (*offsets)[len(*offsets)-1]
}

// childRow turns a *ValueError whose Row indexes the children appended
// after the first ones into one whose Row indexes the parent rows with the
// given offsets (offsets[i] to offsets[i+1] for row i).
func childRow(err error, offsets []int64, first int64) error {
	ve, ok := err.(*ValueError)
	if !ok {
		return err
	}
	child := first + int64(ve.Row)
	ve.Row = sort.Search(len(offsets)-1, func(r int) bool { return offsets[r+1] > child })
	return ve
}

// mapEncoder encodes map[K]V as map<K,V>, each row's entries in key order
// so that files do not depend on Go's map iteration order. The entries are
// copied into typed buffers, which the key and value encoders then read.
type mapEncoder struct {
	typ                    reflect.Type
	key, val               encoder
	keyBufType, valBufType reflect.Type // []K, []V
	keySize, valSize       uintptr
	keyBuf, valBuf         reflect.Value // current buffers
	used                   int           // entries of the current buffers in use
	it                     reflect.MapIter
	keyPtrs, valPtrs       []unsafe.Pointer
	sorter                 entrySorter
}

func (e *mapEncoder) encode(v orc.Vector, ptrs []unsafe.Pointer, off uintptr, nulls []bool) error {
	vec, ok := v.(*orc.MapVector)
	if !ok {
		return vectorError(v, "*orc.MapVector")
	}
	old := vec.Len()
	first := lastOffset(&vec.Offsets)
	count := first
	e.keyPtrs, e.valPtrs, e.used = e.keyPtrs[:0], e.valPtrs[:0], 0
	for i, p := range ptrs {
		m := reflect.NewAt(e.typ, unsafe.Add(p, off)).Elem()
		if (nulls == nil || !nulls[i]) && m.Len() > 0 {
			start := len(e.keyPtrs)
			e.it.Reset(m)
			for e.it.Next() {
				if !e.keyBuf.IsValid() || e.used == e.keyBuf.Len() {
					// Entries already taken stay in the old buffers, which
					// the pointers keep alive.
					c := 64
					if e.keyBuf.IsValid() {
						c = 2 * e.keyBuf.Len()
					}
					e.keyBuf = reflect.MakeSlice(e.keyBufType, c, c)
					e.valBuf = reflect.MakeSlice(e.valBufType, c, c)
					e.used = 0
				}
				e.keyBuf.Index(e.used).SetIterKey(&e.it)
				e.valBuf.Index(e.used).SetIterValue(&e.it)
				e.keyPtrs = append(e.keyPtrs, unsafe.Add(e.keyBuf.UnsafePointer(), uintptr(e.used)*e.keySize))
				e.valPtrs = append(e.valPtrs, unsafe.Add(e.valBuf.UnsafePointer(), uintptr(e.used)*e.valSize))
				e.used++
			}
			e.it.Reset(reflect.Value{})
			e.sorter.keys, e.sorter.vals = e.keyPtrs[start:], e.valPtrs[start:]
			sort.Sort(&e.sorter)
			count += int64(len(e.keyPtrs) - start)
		}
		vec.Offsets = append(vec.Offsets, count)
	}
	markNulls(&vec.Nulls, old, len(ptrs), nulls)
	err := e.key.encode(vec.Keys, e.keyPtrs, 0, nil)
	if err == nil {
		err = e.val.encode(vec.Values, e.valPtrs, 0, nil)
	}
	clear(e.keyPtrs)
	clear(e.valPtrs)
	e.sorter.keys, e.sorter.vals = nil, nil
	if e.keyBuf.IsValid() {
		e.keyBuf.Clear()
		e.valBuf.Clear()
	}
	return childRow(err, vec.Offsets[old:], first)
}

// entrySorter sorts one map's entries by key.
type entrySorter struct {
	keys, vals []unsafe.Pointer
	cmp        func(a, b unsafe.Pointer) int
}

func (s *entrySorter) Len() int           { return len(s.keys) }
func (s *entrySorter) Less(i, j int) bool { return s.cmp(s.keys[i], s.keys[j]) < 0 }
func (s *entrySorter) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.vals[i], s.vals[j] = s.vals[j], s.vals[i]
}

func compareAt[T cmp.Ordered](a, b unsafe.Pointer) int { return cmp.Compare(*(*T)(a), *(*T)(b)) }

func compareBool(a, b unsafe.Pointer) int {
	x, y := *(*bool)(a), *(*bool)(b)
	switch {
	case x == y:
		return 0
	case y:
		return -1
	}
	return 1
}

// keyCompare returns the order of a map key type: false before true,
// numbers by value (NaN first), strings by bytes.
func keyCompare(k *node) func(a, b unsafe.Pointer) int {
	switch {
	case k.kind == kBool:
		return compareBool
	case k.kind == kInt && k.size == 1:
		return compareAt[int8]
	case k.kind == kInt && k.size == 2:
		return compareAt[int16]
	case k.kind == kInt && k.size == 4:
		return compareAt[int32]
	case k.kind == kInt:
		return compareAt[int64]
	case k.kind == kUint && k.size == 1:
		return compareAt[uint8]
	case k.kind == kUint && k.size == 2:
		return compareAt[uint16]
	case k.kind == kUint && k.size == 4:
		return compareAt[uint32]
	case k.kind == kUint:
		return compareAt[uint64]
	case k.kind == kFloat32:
		return compareAt[float32]
	case k.kind == kFloat64:
		return compareAt[float64]
	}
	return compareAt[string]
}
