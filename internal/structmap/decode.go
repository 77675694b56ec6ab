package structmap

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/orcgo/orc"
)

// Decoder fills rows of one struct type from batches of one schema. It
// belongs to one goroutine: it keeps scratch buffers between calls.
type Decoder struct {
	typ    reflect.Type
	schema *orc.Schema
	cols   []colDecoder
}

type colDecoder struct {
	col int // index in the batch's columns or the struct vector's fields
	off uintptr
	dec decoder
}

// decoder stores rows [start, start+n) of a vector at base + i*stride for
// i in 0..n-1. nulls is nil when no parent marks any of those rows null,
// else it has n entries; a null row gets the zero value.
type decoder interface {
	decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error
}

// NewDecoder returns a decoder of batches of schema s, a struct, into rows
// of struct type t. Every field of t must find a column of a type it can
// hold; the error names the field and the column otherwise.
func NewDecoder(t reflect.Type, s *orc.Schema) (*Decoder, error) {
	return NewLenientDecoder(t, s, false)
}

// NewLenientDecoder is NewDecoder, but with missingOK a field whose column
// s lacks is set to its zero value in every row instead of being an error
// (so long as some field of t finds a column).
func NewLenientDecoder(t reflect.Type, s *orc.Schema, missingOK bool) (*Decoder, error) {
	root, err := analyse(t)
	if err != nil {
		return nil, err
	}
	b := &builder{missingOK: missingOK}
	cols, err := b.fields(root, s, "")
	if err != nil {
		return nil, err
	}
	return &Decoder{typ: t, schema: s, cols: cols}, nil
}

// Columns returns the column paths of file schema s that rows of struct
// type t read, in the dotted form of reader.WithColumns ("a", "a.b"), with
// nested structs narrowed to the fields t uses. ok is false when some name
// cannot be written as such a path; the caller should then read every
// column. The error is NewDecoder's.
func Columns(t reflect.Type, s *orc.Schema, missingOK bool) (paths []string, ok bool, err error) {
	root, err := analyse(t)
	if err != nil {
		return nil, false, err
	}
	b := &builder{paths: []string{}, pathsOK: true, missingOK: missingOK}
	if _, err := b.fields(root, s, ""); err != nil {
		return nil, false, err
	}
	return b.paths, b.pathsOK, nil
}

// Decode fills dst with rows start to start+len(dst) of b, whose schema
// must be the decoder's. Strings, byte slices, slices, maps and pointers in
// the rows are newly allocated: they stay valid after b is reused.
func Decode[T any](d *Decoder, b *orc.Batch, start int, dst []T) error {
	if reflect.TypeFor[T]() != d.typ {
		return fmt.Errorf("orc: Decode: rows of %v, decoder for %v", reflect.TypeFor[T](), d.typ)
	}
	if b.Schema != d.schema && (b.Schema == nil || b.Schema.String() != d.schema.String()) {
		return fmt.Errorf("orc: Decode: batch schema %v, decoder schema %s", b.Schema, d.schema)
	}
	if start < 0 || start+len(dst) > b.NumRows {
		return fmt.Errorf("orc: Decode: rows %d..%d of a batch of %d", start, start+len(dst), b.NumRows)
	}
	if len(dst) == 0 {
		return nil
	}
	base := unsafe.Pointer(unsafe.SliceData(dst))
	stride := unsafe.Sizeof(dst[0])
	for _, c := range d.cols {
		if c.col < 0 {
			c.dec.decode(nil, start, len(dst), nil, unsafe.Add(base, c.off), stride)
			continue
		}
		if c.col >= len(b.Cols) {
			return fmt.Errorf("orc: Decode: batch has %d columns", len(b.Cols))
		}
		if err := c.dec.decode(b.Cols[c.col], start, len(dst), nil, unsafe.Add(base, c.off), stride); err != nil {
			return err
		}
	}
	return nil
}

// builder maps nodes to schema nodes, building decoders and, for Columns,
// the projection paths.
type builder struct {
	paths     []string // nil unless collecting
	pathsOK   bool
	missingOK bool // a field without a column reads as its zero value
}

// zeroDecoder sets a field that no column backs to its zero value.
type zeroDecoder struct{ typ reflect.Type }

func (d zeroDecoder) decode(_ orc.Vector, _, n int, _ []bool, base unsafe.Pointer, stride uintptr) error {
	for i := range n {
		reflect.NewAt(d.typ, unsafe.Add(base, uintptr(i)*stride)).Elem().SetZero()
	}
	return nil
}

// findField returns the index of the struct field called name: an exact
// match, else the one match ignoring case; -1 when none, -2 when several
// match ignoring case.
func findField(s *orc.Schema, name string) int {
	for i, n := range s.FieldNames {
		if n == name {
			return i
		}
	}
	found := -1
	for i, n := range s.FieldNames {
		if strings.EqualFold(n, name) {
			if found >= 0 {
				return -2
			}
			found = i
		}
	}
	return found
}

// quotePath returns a field name as one element of a dotted path, and
// false when the name cannot be written in one.
func quotePath(name string) (string, bool) {
	if name == "" || strings.HasPrefix(name, "`") {
		return "", false
	}
	if strings.Contains(name, ".") {
		if strings.Contains(name, "`") {
			return "", false
		}
		return "`" + name + "`", true
	}
	return name, true
}

// ErrNoColumn is what the error of a field whose column the schema lacks
// is (errors.Is), so that callers can point to their lenient option.
var ErrNoColumn = errors.New("orc: a field names no column")

// noColumnError is the error of a field whose column the schema lacks.
type noColumnError struct{ msg string }

func (e *noColumnError) Error() string        { return e.msg }
func (e *noColumnError) Is(target error) bool { return target == ErrNoColumn }

// fields maps the fields of struct node n to the fields of struct schema
// s, whose column path is colPath: names separated by NUL while building,
// so that names holding dots stay whole, and "" for the root.
func (b *builder) fields(n *node, s *orc.Schema, colPath string) ([]colDecoder, error) {
	if s.Kind != orc.Struct {
		return nil, fmt.Errorf("orc: %s (%v) cannot read %s of type %s: not a struct", n.path, n.typ, describeCol(colPath), s)
	}
	var cols []colDecoder
	found := false
	for _, f := range n.fields {
		i := findField(s, f.name)
		switch {
		case i == -1 && b.missingOK:
			cols = append(cols, colDecoder{col: -1, off: f.offset, dec: zeroDecoder{f.node.typ}})
			continue
		case i == -1:
			return nil, &noColumnError{fmt.Sprintf("orc: field %s: no column %q in %s of type %s", f.node.path, f.name, describeCol(colPath), s)}
		case i == -2:
			return nil, fmt.Errorf("orc: field %s: several columns match %q ignoring case in %s of type %s", f.node.path, f.name, describeCol(colPath), s)
		}
		found = true
		name := s.FieldNames[i]
		child := name
		if colPath != "" {
			child = colPath + "\x00" + name
		}
		col := s.Children[i]
		// A projection narrows nested structs to the fields they use.
		inner := f.node
		if inner.kind == kPtr {
			inner = inner.elem
		}
		if b.paths != nil && !(inner.kind == kStruct && col.Kind == orc.Struct) {
			b.addPath(child)
		}
		dec, err := b.decoder(f.node, col, child)
		if err != nil {
			return nil, err
		}
		cols = append(cols, colDecoder{col: i, off: f.offset, dec: dec})
	}
	if !found && len(n.fields) > 0 {
		return nil, fmt.Errorf("orc: %s (%v): none of its fields names a column of %s of type %s", n.path, n.typ, describeCol(colPath), s)
	}
	return cols, nil
}

// addPath records a NUL-separated column path in the dotted form.
func (b *builder) addPath(colPath string) {
	parts := strings.Split(colPath, "\x00")
	for i, p := range parts {
		q, ok := quotePath(p)
		if !ok {
			b.pathsOK = false
			return
		}
		parts[i] = q
	}
	b.paths = append(b.paths, strings.Join(parts, "."))
}

func describeCol(colPath string) string {
	if colPath == "" {
		return "the schema"
	}
	return fmt.Sprintf("column %q", strings.ReplaceAll(colPath, "\x00", "."))
}

// Integer ranges of the ORC integer kinds.
var intRange = map[orc.Kind][2]int64{
	orc.Byte:  {math.MinInt8, math.MaxInt8},
	orc.Short: {math.MinInt16, math.MaxInt16},
	orc.Int:   {math.MinInt32, math.MaxInt32},
	orc.Long:  {math.MinInt64, math.MaxInt64},
}

// decoder builds the decoder of node n for column s at path colPath.
func (b *builder) decoder(n *node, s *orc.Schema, colPath string) (decoder, error) {
	mismatch := func() error {
		return fmt.Errorf("orc: field %s (%v) cannot read column %q of type %s", n.path, n.typ, strings.ReplaceAll(colPath, "\x00", "."), s)
	}
	switch n.kind {
	case kBool:
		if s.Kind != orc.Boolean {
			return nil, mismatch()
		}
		return &boolDecoder{}, nil
	case kInt, kUint:
		r, ok := intRange[s.Kind]
		if !ok {
			return nil, mismatch()
		}
		bits := 8 * int64(n.size)
		lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
		if bits == 64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if n.kind == kUint {
			lo = 0
			if bits < 64 {
				hi = int64(1)<<bits - 1
			}
		}
		d := &intDecoder{size: n.size, unsigned: n.kind == kUint, lo: lo, hi: hi, path: n.path, typ: n.typ}
		d.check = r[0] < lo || r[1] > hi
		return d, nil
	case kFloat32:
		if s.Kind != orc.Float {
			return nil, mismatch()
		}
		return &floatDecoder{is32: true}, nil
	case kFloat64:
		if s.Kind != orc.Float && s.Kind != orc.Double {
			return nil, mismatch()
		}
		return &floatDecoder{}, nil
	case kString:
		switch s.Kind {
		case orc.String, orc.Char, orc.Varchar:
			return &stringDecoder{}, nil
		}
		return nil, mismatch()
	case kBytes:
		switch s.Kind {
		case orc.Binary, orc.String, orc.Char, orc.Varchar:
			return &bytesDecoder{}, nil
		}
		return nil, mismatch()
	case kTime:
		switch s.Kind {
		case orc.Timestamp, orc.TimestampInstant:
			return &timeDecoder{}, nil
		case orc.Date:
			return &timeDecoder{date: true}, nil
		}
		return nil, mismatch()
	case kDecimal:
		if s.Kind != orc.Decimal {
			return nil, mismatch()
		}
		return &decimalDecoder{}, nil
	case kStruct:
		if s.Kind != orc.Struct {
			return nil, mismatch()
		}
		fields, err := b.fields(n, s, colPath)
		if err != nil {
			return nil, err
		}
		return &structDecoder{fields: fields}, nil
	case kPtr:
		elem, err := b.decoder(n.elem, s, colPath)
		if err != nil {
			return nil, err
		}
		return &ptrDecoder{elem: elem, bufType: reflect.SliceOf(n.elem.typ), size: n.elem.size}, nil
	case kSlice:
		if s.Kind != orc.List {
			return nil, mismatch()
		}
		elem, err := b.inside().decoder(n.elem, s.Children[0], colPath+"[]")
		if err != nil {
			return nil, err
		}
		return &sliceDecoder{elem: elem, bufType: reflect.SliceOf(n.elem.typ), size: n.elem.size}, nil
	case kMap:
		if s.Kind != orc.Map {
			return nil, mismatch()
		}
		key, err := b.inside().decoder(n.key, s.Children[0], colPath+"[key]")
		if err != nil {
			return nil, err
		}
		val, err := b.inside().decoder(n.elem, s.Children[1], colPath+"[value]")
		if err != nil {
			return nil, err
		}
		return &mapDecoder{typ: n.typ, key: key, val: val, keyBufType: reflect.SliceOf(n.key.typ),
			valBufType: reflect.SliceOf(n.elem.typ), keySize: n.key.size, valSize: n.elem.size}, nil
	}
	return nil, mismatch()
}

// inside returns a builder for values inside lists and maps, which a
// projection cannot narrow.
func (b *builder) inside() *builder { return &builder{} }

// checkLen reports a vector too short for rows [start, start+n).
func checkLen(v orc.Vector, start, n int) error {
	if v.Len() < start+n {
		return orc.Corruptf("vector %T has %d rows, need %d", v, v.Len(), start+n)
	}
	return nil
}

// rowsOf returns v as a V that holds rows [start, start+n), and the null
// flags of those rows given their parent's (effectiveNulls).
func rowsOf[V orc.Vector](scratch *[]bool, v orc.Vector, start, n int, parent []bool) (vec V, nulls []bool, err error) {
	vec, ok := v.(V)
	if !ok {
		return vec, nil, vectorError(v, fmt.Sprintf("%T", vec))
	}
	if err := checkLen(v, start, n); err != nil {
		return vec, nil, err
	}
	nulls, err = effectiveNulls(scratch, parent, orc.NullsOf(v), start, n)
	return vec, nulls, err
}

type boolDecoder struct{ scratch []bool }

func (d *boolDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, nulls, err := rowsOf[*orc.LongVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	for i, x := range vec.Values[start : start+n] {
		*(*bool)(unsafe.Add(base, uintptr(i)*stride)) = x != 0 && (nulls == nil || !nulls[i])
	}
	return nil
}

type intDecoder struct {
	size     uintptr
	unsigned bool
	check    bool  // the column's range exceeds the field's
	lo, hi   int64 // the field's range
	path     string
	typ      reflect.Type
	scratch  []bool
}

// storeInts stores vals as T at base + i*stride, zero where nulls says.
func storeInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](vals []int64, nulls []bool, base unsafe.Pointer, stride uintptr) {
	if nulls == nil {
		for i, x := range vals {
			*(*T)(unsafe.Add(base, uintptr(i)*stride)) = T(x)
		}
		return
	}
	for i, x := range vals {
		if nulls[i] {
			x = 0
		}
		*(*T)(unsafe.Add(base, uintptr(i)*stride)) = T(x)
	}
}

func (d *intDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, nulls, err := rowsOf[*orc.LongVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	vals := vec.Values[start : start+n]
	if d.check {
		for i, x := range vals {
			if (x < d.lo || x > d.hi) && (nulls == nil || !nulls[i]) {
				return fmt.Errorf("orc: field %s: value %d does not fit %v", d.path, x, d.typ)
			}
		}
	}
	switch {
	case !d.unsigned && d.size == 1:
		storeInts[int8](vals, nulls, base, stride)
	case !d.unsigned && d.size == 2:
		storeInts[int16](vals, nulls, base, stride)
	case !d.unsigned && d.size == 4:
		storeInts[int32](vals, nulls, base, stride)
	case !d.unsigned:
		storeInts[int64](vals, nulls, base, stride)
	case d.size == 1:
		storeInts[uint8](vals, nulls, base, stride)
	case d.size == 2:
		storeInts[uint16](vals, nulls, base, stride)
	case d.size == 4:
		storeInts[uint32](vals, nulls, base, stride)
	default:
		storeInts[uint64](vals, nulls, base, stride)
	}
	return nil
}

type floatDecoder struct {
	is32    bool
	scratch []bool
}

func (d *floatDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, nulls, err := rowsOf[*orc.DoubleVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	for i, x := range vec.Values[start : start+n] {
		if nulls != nil && nulls[i] {
			x = 0
		}
		p := unsafe.Add(base, uintptr(i)*stride)
		if d.is32 {
			*(*float32)(p) = float32(x)
		} else {
			*(*float64)(p) = x
		}
	}
	return nil
}

// bytesRows returns v as a bytes vector, the span of its data that rows
// [start, start+n) cover, their offsets checked, and the null flags of
// those rows given their parent's (effectiveNulls). When n is 0 it checks
// only v's type.
func bytesRows(scratch *[]bool, v orc.Vector, start, n int, parent []bool) (vec *orc.BytesVector, lo, hi int, nulls []bool, err error) {
	vec, ok := v.(*orc.BytesVector)
	if !ok {
		return nil, 0, 0, nil, vectorError(v, "*orc.BytesVector")
	}
	if n == 0 {
		return vec, 0, 0, nil, nil
	}
	if len(vec.Offsets) < start+n+1 {
		return nil, 0, 0, nil, orc.Corruptf("bytes vector has %d offsets, need %d", len(vec.Offsets), start+n+1)
	}
	lo, hi = vec.Offsets[start], vec.Offsets[start+n]
	if lo < 0 || hi < lo || hi > len(vec.Data) {
		return nil, 0, 0, nil, orc.Corruptf("bytes vector offsets %d..%d outside its %d bytes", lo, hi, len(vec.Data))
	}
	nulls, err = effectiveNulls(scratch, parent, &vec.Nulls, start, n)
	return vec, lo, hi, nulls, err
}

// stringDecoder makes one string of the rows' bytes and gives each row a
// substring of it: one allocation per call instead of one per value.
type stringDecoder struct{ scratch []bool }

func (d *stringDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, lo, hi, nulls, err := bytesRows(&d.scratch, v, start, n, nulls)
	if err != nil || n == 0 {
		return err
	}
	all := string(vec.Data[lo:hi])
	offs := vec.Offsets[start : start+n+1]
	for i := range n {
		a, b := offs[i]-lo, offs[i+1]-lo
		if a < 0 || a > b || b > len(all) {
			return orc.Corruptf("bytes vector offsets out of order at row %d", start+i)
		}
		s := all[a:b]
		if nulls != nil && nulls[i] {
			s = ""
		}
		*(*string)(unsafe.Add(base, uintptr(i)*stride)) = s
	}
	return nil
}

// bytesDecoder copies the rows' bytes into one new buffer and gives each
// row a slice of it, capped so that appending to one row cannot overwrite
// the next.
type bytesDecoder struct{ scratch []bool }

func (d *bytesDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, lo, hi, nulls, err := bytesRows(&d.scratch, v, start, n, nulls)
	if err != nil || n == 0 {
		return err
	}
	var all []byte
	if hi > lo {
		all = append([]byte(nil), vec.Data[lo:hi]...)
	}
	offs := vec.Offsets[start : start+n+1]
	for i := range n {
		a, b := offs[i]-lo, offs[i+1]-lo
		if a < 0 || a > b || b > len(all) {
			return orc.Corruptf("bytes vector offsets out of order at row %d", start+i)
		}
		var s []byte
		if a < b && (nulls == nil || !nulls[i]) {
			s = all[a:b:b]
		}
		*(*[]byte)(unsafe.Add(base, uintptr(i)*stride)) = s
	}
	return nil
}

type decimalDecoder struct{ scratch []bool }

func (d *decimalDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, nulls, err := rowsOf[*orc.DecimalVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	for i, x := range vec.Values[start : start+n] {
		dec := Decimal{Unscaled: x, Scale: vec.Scale}
		if nulls != nil && nulls[i] {
			dec = Decimal{}
		}
		*(*Decimal)(unsafe.Add(base, uintptr(i)*stride)) = dec
	}
	return nil
}

// timeDecoder reads timestamps (seconds and nanoseconds of a wall clock
// read as UTC, or of an instant) and dates (days since 1970-01-01) into
// time.Time values in UTC.
type timeDecoder struct {
	date    bool
	scratch []bool
}

// maxDays keeps days*86400 within an int64.
const maxDays = math.MaxInt64 / 86400

func (d *timeDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	if d.date {
		vec, nulls, err := rowsOf[*orc.LongVector](&d.scratch, v, start, n, nulls)
		if err != nil {
			return err
		}
		for i, days := range vec.Values[start : start+n] {
			var t time.Time
			if nulls == nil || !nulls[i] {
				if days > maxDays || days < -maxDays {
					return orc.Corruptf("date of %d days is out of range", days)
				}
				t = time.Unix(days*86400, 0).UTC()
			}
			*(*time.Time)(unsafe.Add(base, uintptr(i)*stride)) = t
		}
		return nil
	}
	vec, nulls, err := rowsOf[*orc.TimestampVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	if len(vec.Nanos) < start+n {
		return orc.Corruptf("timestamp vector has %d nanoseconds, need %d", len(vec.Nanos), start+n)
	}
	nanos := vec.Nanos[start : start+n]
	for i, sec := range vec.Seconds[start : start+n] {
		var t time.Time
		if nulls == nil || !nulls[i] {
			t = time.Unix(sec, int64(nanos[i])).UTC()
		}
		*(*time.Time)(unsafe.Add(base, uintptr(i)*stride)) = t
	}
	return nil
}

type structDecoder struct {
	fields  []colDecoder
	scratch []bool
}

func (d *structDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, nulls, err := rowsOf[*orc.StructVector](&d.scratch, v, start, n, nulls)
	if err != nil {
		return err
	}
	for _, f := range d.fields {
		if f.col < 0 {
			f.dec.decode(nil, start, n, nil, unsafe.Add(base, f.off), stride)
			continue
		}
		if f.col >= len(vec.Fields) {
			return vectorError(v, fmt.Sprintf("*orc.StructVector with field %d", f.col))
		}
		if err := f.dec.decode(vec.Fields[f.col], start, n, nulls, unsafe.Add(base, f.off), stride); err != nil {
			return err
		}
	}
	return nil
}

// ptrDecoder reads *T: the values of one call go to one new []T, and each
// non-null row points at its element.
type ptrDecoder struct {
	elem    decoder
	bufType reflect.Type // []T
	size    uintptr
	scratch []bool
}

func (d *ptrDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	own := orc.NullsOf(v)
	if own == nil {
		return vectorError(v, "a vector")
	}
	if err := checkLen(v, start, n); err != nil {
		return err
	}
	nulls, err := effectiveNulls(&d.scratch, nulls, own, start, n)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if nulls != nil && !anyFalse(nulls) {
		for i := range n {
			*(*unsafe.Pointer)(unsafe.Add(base, uintptr(i)*stride)) = nil
		}
		return nil
	}
	buf := reflect.MakeSlice(d.bufType, n, n).UnsafePointer()
	if err := d.elem.decode(v, start, n, nulls, buf, d.size); err != nil {
		return err
	}
	for i := range n {
		var p unsafe.Pointer
		if nulls == nil || !nulls[i] {
			p = unsafe.Add(buf, uintptr(i)*d.size)
		}
		*(*unsafe.Pointer)(unsafe.Add(base, uintptr(i)*stride)) = p
	}
	return nil
}

func anyFalse(b []bool) bool {
	for _, x := range b {
		if !x {
			return true
		}
	}
	return false
}

// childRange checks the offsets of rows [start, start+n) of a list or map
// with the given number of children and returns the children they own.
func childRange(offsets []int64, start, n, children int) (lo, hi int, err error) {
	if len(offsets) < start+n+1 {
		return 0, 0, orc.Corruptf("vector has %d offsets, need %d", len(offsets), start+n+1)
	}
	l, h := offsets[start], offsets[start+n]
	if l < 0 || h < l || h > int64(children) {
		return 0, 0, orc.Corruptf("offsets %d..%d outside the %d children", l, h, children)
	}
	return int(l), int(h), nil
}

// sliceDecoder reads []T: the elements of one call go to one new []T, and
// each row gets a capped slice of it.
type sliceDecoder struct {
	elem    decoder
	bufType reflect.Type // []T
	size    uintptr
	scratch []bool
}

func (d *sliceDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, ok := v.(*orc.ListVector)
	if !ok {
		return vectorError(v, "*orc.ListVector")
	}
	if n == 0 {
		return nil
	}
	lo, hi, err := childRange(vec.Offsets, start, n, vec.Elem.Len())
	if err != nil {
		return err
	}
	nulls, err = effectiveNulls(&d.scratch, nulls, &vec.Nulls, start, n)
	if err != nil {
		return err
	}
	var buf unsafe.Pointer
	total := hi - lo
	if total > 0 {
		buf = reflect.MakeSlice(d.bufType, total, total).UnsafePointer()
		if err := d.elem.decode(vec.Elem, lo, total, nil, buf, d.size); err != nil {
			return err
		}
	}
	offs := vec.Offsets[start : start+n+1]
	for i := range n {
		a, b := int(offs[i])-lo, int(offs[i+1])-lo
		if a < 0 || a > b || b > total {
			return orc.Corruptf("list offsets out of order at row %d", start+i)
		}
		h := sliceHeader{}
		if a < b && (nulls == nil || !nulls[i]) {
			h = sliceHeader{data: unsafe.Add(buf, uintptr(a)*d.size), len: b - a, cap: b - a}
		}
		*(*sliceHeader)(unsafe.Add(base, uintptr(i)*stride)) = h
	}
	return nil
}

// mapDecoder reads map[K]V: keys and values are decoded into reused typed
// buffers, then copied into a new map per row.
type mapDecoder struct {
	typ                    reflect.Type
	key, val               decoder
	keyBufType, valBufType reflect.Type
	keySize, valSize       uintptr
	keyBuf, valBuf         reflect.Value
	scratch                []bool
}

func (d *mapDecoder) decode(v orc.Vector, start, n int, nulls []bool, base unsafe.Pointer, stride uintptr) error {
	vec, ok := v.(*orc.MapVector)
	if !ok {
		return vectorError(v, "*orc.MapVector")
	}
	if n == 0 {
		return nil
	}
	lo, hi, err := childRange(vec.Offsets, start, n, min(vec.Keys.Len(), vec.Values.Len()))
	if err != nil {
		return err
	}
	nulls, err = effectiveNulls(&d.scratch, nulls, &vec.Nulls, start, n)
	if err != nil {
		return err
	}
	total := hi - lo
	if total > 0 {
		if !d.keyBuf.IsValid() || d.keyBuf.Len() < total {
			d.keyBuf = reflect.MakeSlice(d.keyBufType, total, total)
			d.valBuf = reflect.MakeSlice(d.valBufType, total, total)
		}
		if err := d.key.decode(vec.Keys, lo, total, nil, d.keyBuf.UnsafePointer(), d.keySize); err != nil {
			return err
		}
		if err := d.val.decode(vec.Values, lo, total, nil, d.valBuf.UnsafePointer(), d.valSize); err != nil {
			return err
		}
	}
	offs := vec.Offsets[start : start+n+1]
	for i := range n {
		a, b := int(offs[i])-lo, int(offs[i+1])-lo
		if a < 0 || a > b || b > total {
			return orc.Corruptf("map offsets out of order at row %d", start+i)
		}
		dst := reflect.NewAt(d.typ, unsafe.Add(base, uintptr(i)*stride)).Elem()
		if a == b || nulls != nil && nulls[i] {
			dst.SetZero()
			continue
		}
		m := reflect.MakeMapWithSize(d.typ, b-a)
		for j := a; j < b; j++ {
			m.SetMapIndex(d.keyBuf.Index(j), d.valBuf.Index(j))
		}
		dst.Set(m)
	}
	if total > 0 {
		// Drop the references the buffers hold until the next call.
		d.keyBuf.Clear()
		d.valBuf.Clear()
	}
	return nil
}
