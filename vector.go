package orc

// Vector is a column of values of one type.
type Vector interface {
	// Len returns the number of rows in the vector.
	Len() int
	// IsNull reports whether row i is null.
	IsNull(i int) bool
	// Reset empties the vector, keeping its buffers for reuse.
	Reset()
}

// Nulls is the null mask embedded in every vector.
type Nulls struct {
	// Nulls is empty when no row is null, otherwise one entry per row.
	Nulls []bool
}

// IsNull reports whether row i is null.
func (n *Nulls) IsNull(i int) bool { return len(n.Nulls) > i && n.Nulls[i] }

// nullMask returns n: every vector of this package embeds a Nulls, and so
// has the method (NullsOf).
func (n *Nulls) nullMask() *Nulls { return n }

// NullsOf returns the null mask of v, any vector of this package; nil for
// a Vector of another package.
func NullsOf(v Vector) *Nulls {
	if m, ok := v.(interface{ nullMask() *Nulls }); ok {
		return m.nullMask()
	}
	return nil
}

// HasNulls reports whether any row is null.
func (n *Nulls) HasNulls() bool {
	for _, b := range n.Nulls {
		if b {
			return true
		}
	}
	return false
}

// LongVector holds boolean (0 or 1), tinyint, smallint, int, bigint and date
// (days since 1970-01-01) values.
type LongVector struct {
	Nulls
	Values []int64
}

// Len returns the number of rows.
func (v *LongVector) Len() int { return len(v.Values) }

// Reset empties the vector.
func (v *LongVector) Reset() { v.Nulls.Nulls = v.Nulls.Nulls[:0]; v.Values = v.Values[:0] }

// DoubleVector holds float and double values.
type DoubleVector struct {
	Nulls
	Values []float64
}

// Len returns the number of rows.
func (v *DoubleVector) Len() int { return len(v.Values) }

// Reset empties the vector.
func (v *DoubleVector) Reset() { v.Nulls.Nulls = v.Nulls.Nulls[:0]; v.Values = v.Values[:0] }

// BytesVector holds string, char, varchar and binary values in one buffer.
// Offsets has Len()+1 entries once a row has been added; an empty vector may
// have no offsets at all.
type BytesVector struct {
	Nulls
	Offsets []int
	Data    []byte
}

// Len returns the number of rows.
func (v *BytesVector) Len() int {
	return offsetRows(v.Offsets)
}

// offsetRows returns the rows of a vector whose rows are spans of
// offsets: one offset more than rows, none before the first row.
func offsetRows[T int | int64](offsets []T) int {
	if len(offsets) == 0 {
		return 0
	}
	return len(offsets) - 1
}

// Reset empties the vector.
func (v *BytesVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.Offsets = v.Offsets[:0]
	v.Data = v.Data[:0]
}

// Get returns row i's bytes. They alias the vector's buffer.
func (v *BytesVector) Get(i int) []byte { return v.Data[v.Offsets[i]:v.Offsets[i+1]] }

// String returns row i as a string (a copy).
func (v *BytesVector) String(i int) string { return string(v.Get(i)) }

// Append adds a non-null value.
func (v *BytesVector) Append(b []byte) {
	if len(v.Offsets) == 0 {
		v.Offsets = append(v.Offsets, 0)
	}
	v.Data = append(v.Data, b...)
	v.Offsets = append(v.Offsets, len(v.Data))
	if len(v.Nulls.Nulls) > 0 {
		v.Nulls.Nulls = append(v.Nulls.Nulls, false)
	}
}

// AppendString adds a non-null value.
func (v *BytesVector) AppendString(s string) {
	if len(v.Offsets) == 0 {
		v.Offsets = append(v.Offsets, 0)
	}
	v.Data = append(v.Data, s...)
	v.Offsets = append(v.Offsets, len(v.Data))
	if len(v.Nulls.Nulls) > 0 {
		v.Nulls.Nulls = append(v.Nulls.Nulls, false)
	}
}

// AppendNull adds a null row.
func (v *BytesVector) AppendNull() {
	n := v.Len()
	if len(v.Nulls.Nulls) < n {
		v.Nulls.Nulls = append(v.Nulls.Nulls, make([]bool, n-len(v.Nulls.Nulls))...)
	}
	if len(v.Offsets) == 0 {
		v.Offsets = append(v.Offsets, 0)
	}
	v.Offsets = append(v.Offsets, len(v.Data))
	v.Nulls.Nulls = append(v.Nulls.Nulls, true)
}

// DecimalVector holds decimal values as unscaled integers at the column's
// scale: the value of row i is Values[i] / 10^Scale.
type DecimalVector struct {
	Nulls
	Values []Int128
	Scale  int
}

// Len returns the number of rows.
func (v *DecimalVector) Len() int { return len(v.Values) }

// Reset empties the vector.
func (v *DecimalVector) Reset() { v.Nulls.Nulls = v.Nulls.Nulls[:0]; v.Values = v.Values[:0] }

// TimestampVector holds timestamps as seconds since 1970-01-01 00:00:00 UTC
// and nanoseconds 0..999,999,999. For TIMESTAMP columns the pair is the wall
// clock read as if it were UTC (ORC timestamps carry no zone); for
// TIMESTAMP_INSTANT columns it is the instant.
type TimestampVector struct {
	Nulls
	Seconds []int64
	Nanos   []int32
}

// Len returns the number of rows.
func (v *TimestampVector) Len() int { return len(v.Seconds) }

// Reset empties the vector.
func (v *TimestampVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.Seconds = v.Seconds[:0]
	v.Nanos = v.Nanos[:0]
}

// StructVector holds a struct column: one child vector per field, each with
// N rows.
type StructVector struct {
	Nulls
	Fields []Vector
	N      int
}

// Len returns the number of rows.
func (v *StructVector) Len() int { return v.N }

// Reset empties the vector and its fields.
func (v *StructVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.N = 0
	for _, f := range v.Fields {
		f.Reset()
	}
}

// ListVector holds an array column. Row i's elements are Elem entries
// Offsets[i] to Offsets[i+1]; Offsets has Len()+1 entries once a row exists.
type ListVector struct {
	Nulls
	Offsets []int64
	Elem    Vector
}

// Len returns the number of rows.
func (v *ListVector) Len() int {
	return offsetRows(v.Offsets)
}

// Reset empties the vector and its elements.
func (v *ListVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.Offsets = v.Offsets[:0]
	v.Elem.Reset()
}

// MapVector holds a map column. Row i's entries are Keys and Values entries
// Offsets[i] to Offsets[i+1].
type MapVector struct {
	Nulls
	Offsets []int64
	Keys    Vector
	Values  Vector
}

// Len returns the number of rows.
func (v *MapVector) Len() int {
	return offsetRows(v.Offsets)
}

// Reset empties the vector, its keys and values.
func (v *MapVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.Offsets = v.Offsets[:0]
	v.Keys.Reset()
	v.Values.Reset()
}

// UnionVector holds a uniontype column. Row i's value is row i of
// Children[Tags[i]]; the children are parallel to the union (Len rows each),
// and only the slot selected by the tag is meaningful.
type UnionVector struct {
	Nulls
	Tags     []uint8
	Children []Vector
}

// Len returns the number of rows.
func (v *UnionVector) Len() int { return len(v.Tags) }

// Reset empties the vector and its children.
func (v *UnionVector) Reset() {
	v.Nulls.Nulls = v.Nulls.Nulls[:0]
	v.Tags = v.Tags[:0]
	for _, c := range v.Children {
		c.Reset()
	}
}

// vectorType names the vector types of this package: the type values of a
// kind take is vectorTypeOf's answer, which NewVector builds and
// VectorFits checks.
type vectorType uint8

const (
	noVector vectorType = iota // a kind without a vector type
	longs
	doubles
	bytesType
	decimals
	timestamps
	structs
	lists
	maps
	unions
)

// vectorTypeOf returns the vector type values of kind k take.
func vectorTypeOf(k Kind) vectorType {
	switch k {
	case Boolean, Byte, Short, Int, Long, Date:
		return longs
	case Float, Double:
		return doubles
	case String, Binary, Char, Varchar, Geometry, Geography:
		return bytesType
	case Decimal:
		return decimals
	case Timestamp, TimestampInstant:
		return timestamps
	case Struct:
		return structs
	case List:
		return lists
	case Map:
		return maps
	case Union:
		return unions
	}
	return noVector
}

func (*LongVector) vectorType() vectorType      { return longs }
func (*DoubleVector) vectorType() vectorType    { return doubles }
func (*BytesVector) vectorType() vectorType     { return bytesType }
func (*DecimalVector) vectorType() vectorType   { return decimals }
func (*TimestampVector) vectorType() vectorType { return timestamps }
func (*StructVector) vectorType() vectorType    { return structs }
func (*ListVector) vectorType() vectorType      { return lists }
func (*MapVector) vectorType() vectorType       { return maps }
func (*UnionVector) vectorType() vectorType     { return unions }

// VectorFits reports whether v is of the type NewVector makes for values
// of type s. It looks at v itself, not at its children: a nil pointer of
// the right type fits, a nil Vector does not.
func VectorFits(s *Schema, v Vector) bool {
	t, ok := v.(interface{ vectorType() vectorType })
	return ok && t.vectorType() != noVector && t.vectorType() == vectorTypeOf(s.Kind)
}

// NewVector returns an empty vector for values of type s, with room for
// capacity rows; nil for a kind without one.
func NewVector(s *Schema, capacity int) Vector {
	switch vectorTypeOf(s.Kind) {
	case longs:
		return &LongVector{Values: make([]int64, 0, capacity)}
	case doubles:
		return &DoubleVector{Values: make([]float64, 0, capacity)}
	case bytesType:
		return &BytesVector{Offsets: make([]int, 0, capacity+1)}
	case decimals:
		return &DecimalVector{Values: make([]Int128, 0, capacity), Scale: s.Scale}
	case timestamps:
		return &TimestampVector{Seconds: make([]int64, 0, capacity), Nanos: make([]int32, 0, capacity)}
	case structs:
		v := &StructVector{Fields: make([]Vector, len(s.Children))}
		for i, c := range s.Children {
			v.Fields[i] = NewVector(c, capacity)
		}
		return v
	case lists:
		return &ListVector{Offsets: make([]int64, 0, capacity+1), Elem: NewVector(s.Children[0], capacity)}
	case maps:
		return &MapVector{Offsets: make([]int64, 0, capacity+1),
			Keys: NewVector(s.Children[0], capacity), Values: NewVector(s.Children[1], capacity)}
	case unions:
		v := &UnionVector{Tags: make([]uint8, 0, capacity), Children: make([]Vector, len(s.Children))}
		for i, c := range s.Children {
			v.Children[i] = NewVector(c, capacity)
		}
		return v
	}
	return nil
}

// Batch is a set of rows in columnar form. For a struct schema Cols holds one
// vector per top-level field; for any other root type it holds one vector.
// A Batch is reused across calls: readers Reset it and refill its vectors.
type Batch struct {
	Schema  *Schema
	NumRows int
	Cols    []Vector
	// Selected, when not empty, lists the batch's rows by their place in
	// the vectors, in increasing order: row i of the batch is row
	// Selected[i] of every vector in Cols, NumRows is len(Selected), and
	// the vectors' other rows are not rows of the batch. When empty, the
	// batch's rows are the vectors' rows 0 to NumRows-1. Only a reader
	// asked for a selection (reader.WithSelection) fills it, where that
	// saves moving the matching rows together; Row maps a row either way.
	Selected []int32
}

// Row returns where row i of the batch is in its vectors: Selected[i]
// when the batch has a selection, i otherwise.
func (b *Batch) Row(i int) int {
	if len(b.Selected) > 0 {
		return int(b.Selected[i])
	}
	return i
}

// NewBatch returns an empty batch for schema s with room for capacity rows.
func NewBatch(s *Schema, capacity int) *Batch {
	b := &Batch{Schema: s}
	if s.Kind == Struct {
		b.Cols = make([]Vector, len(s.Children))
		for i, c := range s.Children {
			b.Cols[i] = NewVector(c, capacity)
		}
	} else {
		b.Cols = []Vector{NewVector(s, capacity)}
	}
	return b
}

// Reset empties every column and the selection, keeping buffers.
func (b *Batch) Reset() {
	b.NumRows = 0
	b.Selected = b.Selected[:0]
	for _, c := range b.Cols {
		c.Reset()
	}
}

// CapacityBytes returns the memory b's vectors hold: the capacity of each
// of their slices times its element size, nested vectors' included. A
// batch reused across reads keeps what its largest rows grew it to.
func (b *Batch) CapacityBytes() int64 {
	n := 4 * int64(cap(b.Selected))
	for _, v := range b.Cols {
		n += vectorCapacity(v)
	}
	return n
}

func vectorCapacity(v Vector) int64 {
	switch v := v.(type) {
	case *LongVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Values))
	case *DoubleVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Values))
	case *BytesVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Offsets)) + int64(cap(v.Data))
	case *DecimalVector:
		return int64(cap(v.Nulls.Nulls)) + 16*int64(cap(v.Values))
	case *TimestampVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Seconds)) + 4*int64(cap(v.Nanos))
	case *StructVector:
		n := int64(cap(v.Nulls.Nulls))
		for _, f := range v.Fields {
			n += vectorCapacity(f)
		}
		return n
	case *ListVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Offsets)) + vectorCapacity(v.Elem)
	case *MapVector:
		return int64(cap(v.Nulls.Nulls)) + 8*int64(cap(v.Offsets)) + vectorCapacity(v.Keys) + vectorCapacity(v.Values)
	case *UnionVector:
		n := int64(cap(v.Nulls.Nulls)) + int64(cap(v.Tags))
		for _, c := range v.Children {
			n += vectorCapacity(c)
		}
		return n
	}
	return 0
}

// Col returns the top-level column with the given field name, or nil.
func (b *Batch) Col(name string) Vector {
	if b.Schema == nil || b.Schema.Kind != Struct {
		return nil
	}
	for i, n := range b.Schema.FieldNames {
		if n == name && i < len(b.Cols) {
			return b.Cols[i]
		}
	}
	return nil
}

// Truncate cuts v, and its children, back to its first n rows, keeping its
// buffers. A vector of n rows or fewer is left as it is.
func Truncate(v Vector, n int) {
	if v.Len() <= n {
		return
	}
	if n <= 0 {
		v.Reset()
		return
	}
	cut := func(nulls *Nulls) {
		if len(nulls.Nulls) > n {
			nulls.Nulls = nulls.Nulls[:n]
		}
	}
	switch x := v.(type) {
	case *LongVector:
		x.Values = x.Values[:n]
		cut(&x.Nulls)
	case *DoubleVector:
		x.Values = x.Values[:n]
		cut(&x.Nulls)
	case *DecimalVector:
		x.Values = x.Values[:n]
		cut(&x.Nulls)
	case *TimestampVector:
		x.Seconds, x.Nanos = x.Seconds[:n], x.Nanos[:n]
		cut(&x.Nulls)
	case *BytesVector:
		x.Data = x.Data[:x.Offsets[n]]
		x.Offsets = x.Offsets[:n+1]
		cut(&x.Nulls)
	case *StructVector:
		for _, f := range x.Fields {
			Truncate(f, n)
		}
		x.N = n
		cut(&x.Nulls)
	case *ListVector:
		Truncate(x.Elem, int(x.Offsets[n]))
		x.Offsets = x.Offsets[:n+1]
		cut(&x.Nulls)
	case *MapVector:
		Truncate(x.Keys, int(x.Offsets[n]))
		Truncate(x.Values, int(x.Offsets[n]))
		x.Offsets = x.Offsets[:n+1]
		cut(&x.Nulls)
	case *UnionVector:
		for _, c := range x.Children {
			Truncate(c, n)
		}
		x.Tags = x.Tags[:n]
		cut(&x.Nulls)
	}
}

// Truncate cuts the batch back to its first n rows (see Truncate); a
// batch with a selection keeps its vectors and cuts the selection.
func (b *Batch) Truncate(n int) {
	if n >= b.NumRows {
		return
	}
	if len(b.Selected) > 0 {
		n = max(n, 0)
		b.Selected = b.Selected[:n]
		b.NumRows = n
		return
	}
	for _, c := range b.Cols {
		Truncate(c, n)
	}
	b.NumRows = max(n, 0)
}

// nullAt records row n (the row being appended) as null or not in a mask
// that is empty while no row is null.
func (n *Nulls) nullAt(row int, null bool) {
	switch {
	case null:
		if len(n.Nulls) < row {
			n.Nulls = append(n.Nulls, make([]bool, row-len(n.Nulls))...)
		}
		n.Nulls = append(n.Nulls, true)
	case len(n.Nulls) > 0:
		n.Nulls = append(n.Nulls, false)
	}
}

// appendValue appends x to the values of a vector with null mask n, null
// or not.
func appendValue[T any](n *Nulls, vals *[]T, x T, null bool) {
	n.nullAt(len(*vals), null)
	*vals = append(*vals, x)
}

// appendOffsetRow appends a row to a list or map vector with null mask n:
// a null row owns no children, a non-null one the children up to end.
func appendOffsetRow(n *Nulls, offsets *[]int64, end int64, null bool) {
	if len(*offsets) == 0 {
		*offsets = append(*offsets, 0)
	}
	n.nullAt(len(*offsets)-1, null)
	if null {
		end = (*offsets)[len(*offsets)-1]
	}
	*offsets = append(*offsets, end)
}

// Append adds a non-null value.
func (v *LongVector) Append(x int64) { appendValue(&v.Nulls, &v.Values, x, false) }

// AppendNull adds a null row (with a zero placeholder value).
func (v *LongVector) AppendNull() { appendValue(&v.Nulls, &v.Values, 0, true) }

// Append adds a non-null value.
func (v *DoubleVector) Append(x float64) { appendValue(&v.Nulls, &v.Values, x, false) }

// AppendNull adds a null row (with a zero placeholder value).
func (v *DoubleVector) AppendNull() { appendValue(&v.Nulls, &v.Values, 0, true) }

// Append adds a non-null value, unscaled at the vector's Scale.
func (v *DecimalVector) Append(x Int128) { appendValue(&v.Nulls, &v.Values, x, false) }

// AppendNull adds a null row (with a zero placeholder value).
func (v *DecimalVector) AppendNull() { appendValue(&v.Nulls, &v.Values, Int128{}, true) }

// Append adds a non-null value: seconds since 1970-01-01 00:00:00 UTC and
// nanoseconds 0..999,999,999.
func (v *TimestampVector) Append(sec int64, nanos int32) {
	v.nullAt(len(v.Seconds), false)
	v.Seconds = append(v.Seconds, sec)
	v.Nanos = append(v.Nanos, nanos)
}

// AppendNull adds a null row (with a zero placeholder value).
func (v *TimestampVector) AppendNull() {
	v.nullAt(len(v.Seconds), true)
	v.Seconds = append(v.Seconds, 0)
	v.Nanos = append(v.Nanos, 0)
}

// AppendRow adds a non-null row whose fields the caller has appended to
// each of Fields already.
func (v *StructVector) AppendRow() {
	v.nullAt(v.N, false)
	v.N++
}

// AppendNull adds a null row, appending a null to every field.
func (v *StructVector) AppendNull() {
	v.nullAt(v.N, true)
	v.N++
	for _, f := range v.Fields {
		appendNull(f)
	}
}

// AppendRow adds a non-null row holding the elements appended to Elem since
// the previous row.
func (v *ListVector) AppendRow() { appendOffsetRow(&v.Nulls, &v.Offsets, int64(v.Elem.Len()), false) }

// AppendNull adds a null row (with no elements).
func (v *ListVector) AppendNull() { appendOffsetRow(&v.Nulls, &v.Offsets, 0, true) }

// AppendRow adds a non-null row holding the entries appended to Keys and
// Values since the previous row.
func (v *MapVector) AppendRow() { appendOffsetRow(&v.Nulls, &v.Offsets, int64(v.Keys.Len()), false) }

// AppendNull adds a null row (with no entries).
func (v *MapVector) AppendNull() { appendOffsetRow(&v.Nulls, &v.Offsets, 0, true) }

// AppendRow adds a non-null row of variant tag, whose value the caller has
// appended to Children[tag]; the other variants get a null placeholder.
func (v *UnionVector) AppendRow(tag uint8) {
	v.nullAt(len(v.Tags), false)
	for i, c := range v.Children {
		if i != int(tag) {
			appendNull(c)
		}
	}
	v.Tags = append(v.Tags, tag)
}

// AppendNull adds a null row, with a null placeholder in every variant.
func (v *UnionVector) AppendNull() {
	v.nullAt(len(v.Tags), true)
	for _, c := range v.Children {
		appendNull(c)
	}
	v.Tags = append(v.Tags, 0)
}

// appendNull appends a null row to any vector.
func appendNull(v Vector) {
	if a, ok := v.(interface{ AppendNull() }); ok {
		a.AppendNull()
	}
}
