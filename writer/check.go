package writer

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// MinTimestampSeconds and MaxTimestampSeconds bound the seconds of a
// timestamp value Write accepts (with nanoseconds 0..999,999,999): the
// range in which seconds × 1000 + nanoseconds / 1,000,000 fits an int64,
// which is what Java's java.sql.Timestamp (milliseconds in a long), and so
// Hive and Spark, can represent, and what the statistics (minimum_utc,
// maximum_utc) and bloom filters (floor milliseconds) store. That is
// about 292 million years either side of 1970.
const (
	MinTimestampSeconds = math.MinInt64 / 1000         // -9,223,372,036,854,775
	MaxTimestampSeconds = (math.MaxInt64 - 999) / 1000 // 9,223,372,036,854,774
)

// errRange reports an integer out of its column type's range.
func errRange(node *orc.Schema, row int, v int64) error {
	if row < 0 {
		return fmt.Errorf("orc: column %d (%s): value %d out of range", node.ID(), node.Kind, v)
	}
	return fmt.Errorf("orc: column %d (%s) row %d: value %d out of range", node.ID(), node.Kind, row, v)
}

func errNanos(node *orc.Schema, row int, ns int32) error {
	return fmt.Errorf("orc: column %d (%s) row %d: nanoseconds %d outside 0..999999999", node.ID(), node.Kind, row, ns)
}

func errTag(node *orc.Schema, row int, tag uint8) error {
	return fmt.Errorf("orc: column %d (%s) row %d: tag %d but the union has %d variants", node.ID(), node, row, tag, len(node.Children))
}

// sameSchema reports whether a and b have the same type string, without
// building the strings (two allocations per Write otherwise): it compares
// what String prints, node by node. A false result may still be the same
// string (different field names that quote alike), which the caller then
// checks with String.
func sameSchema(a, b *orc.Schema) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case orc.Decimal:
		return a.Precision == b.Precision && a.Scale == b.Scale
	case orc.Char, orc.Varchar:
		return a.MaxLength == b.MaxLength
	case orc.Geometry, orc.Geography:
		return a.CRS == b.CRS && a.Edges == b.Edges
	case orc.List, orc.Map, orc.Union, orc.Struct:
		if len(a.Children) != len(b.Children) {
			return false
		}
		for i := range a.Children {
			if a.Kind == orc.Struct && fieldName(a, i) != fieldName(b, i) {
				return false
			}
			if !sameSchema(a.Children[i], b.Children[i]) {
				return false
			}
		}
	}
	return true
}

// fieldName returns the name String prints for field i of a struct.
func fieldName(s *orc.Schema, i int) string {
	if i < len(s.FieldNames) {
		return s.FieldNames[i]
	}
	return ""
}

// checkBatch verifies that b fits the writer's schema and that its vectors
// are consistent and their values in range, so that a bad batch is refused
// before anything is written: a refused batch leaves the writer as it was.
// invalidBatch is a refused batch's error: its message as it is, matching
// orc.ErrInvalidBatch for errors.Is.
type invalidBatch struct{ err error }

func (e invalidBatch) Error() string   { return e.err.Error() }
func (e invalidBatch) Unwrap() []error { return []error{orc.ErrInvalidBatch, e.err} }

func (w *Writer) checkBatch(b *orc.Batch) error {
	if b == nil {
		return fmt.Errorf("orc: Write: nil batch")
	}
	if b.Schema == nil {
		return fmt.Errorf("orc: Write: Batch.Schema is nil (make batches with orc.NewBatch(w.Schema(), n)); writer schema %s", w.schema)
	}
	if b.Schema != w.schema && !sameSchema(b.Schema, w.schema) && b.Schema.String() != w.schema.String() {
		return fmt.Errorf("orc: Write: batch schema %s, writer schema %s", b.Schema, w.schema)
	}
	if b.NumRows < 0 {
		return fmt.Errorf("orc: Write: negative NumRows %d", b.NumRows)
	}
	if len(b.Selected) > 0 {
		// Its rows are not its vectors' first NumRows: writing those
		// would write other rows.
		return fmt.Errorf("orc: Write: the batch has a selection (Batch.Selected, %d of its vectors' rows, as reader.WithSelection hands them over); Batch.Compact moves them together first", len(b.Selected))
	}
	ck := checker{allowBadUTF8: w.cfg.allowBadUTF8, unvalidatedWKB: w.cfg.unvalidatedWKB}
	if w.schema.Kind == orc.Struct {
		if len(b.Cols) != len(w.schema.Children) {
			return fmt.Errorf("orc: Write: batch has %d columns, schema %d", len(b.Cols), len(w.schema.Children))
		}
		for i, c := range w.schema.Children {
			if err := ck.vector(c, b.Cols[i], b.NumRows, w.schema.FieldNames[i], nil); err != nil {
				return err
			}
		}
		return nil
	}
	if len(b.Cols) != 1 {
		return fmt.Errorf("orc: Write: batch has %d columns, a %s schema needs 1", len(b.Cols), w.schema.Kind)
	}
	return ck.vector(w.schema, b.Cols[0], b.NumRows, "(root)", nil)
}

// checker holds the options that change what checkBatch accepts.
type checker struct {
	allowBadUTF8   bool // WithAllowInvalidUTF8
	unvalidatedWKB bool // WithUnvalidatedGeometry
}

// vector checks that v holds exactly n rows of type t, recursively (null
// masks empty or n long, list and map children exactly as many as the
// last offset), and that the values the writer will store are in range.
// skip, when not nil, has n entries marking rows whose parent is null (or
// that another union variant holds): their values are unspecified and not
// checked.
func (ck checker) vector(t *orc.Schema, v orc.Vector, n int, path string, skip []bool) error {
	c := vcheck{ck: ck, t: t, n: n, path: path, skip: skip}
	if v == nil {
		return c.bad("nil vector")
	}
	if v.Len() != n {
		return c.bad("vector has %d rows, NumRows %d", v.Len(), n)
	}
	if !orc.VectorFits(t, v) {
		if want := orc.NewVector(t, 0); want != nil {
			return c.bad("want %T, have %T", want, v)
		}
		return c.bad("unsupported type")
	}
	switch vec := v.(type) {
	case *orc.LongVector:
		return c.longs(vec)
	case *orc.DoubleVector:
		return c.nullsOK(vec.Nulls.Nulls)
	case *orc.BytesVector:
		return c.bytes(vec)
	case *orc.DecimalVector:
		return c.decimals(vec)
	case *orc.TimestampVector:
		return c.timestamps(vec)
	case *orc.StructVector:
		return c.structs(vec)
	case *orc.UnionVector:
		return c.unions(vec)
	}
	return c.lists(v)
}

// vcheck is one vector's check: its type, rows, path for messages, and
// the rows whose values are not stored.
type vcheck struct {
	ck   checker
	t    *orc.Schema
	n    int
	path string
	skip []bool
}

// bad returns the error of a refused vector, naming its column.
func (c *vcheck) bad(format string, args ...any) error {
	return fmt.Errorf("orc: Write: column %s (%s): %s", c.path, c.t, fmt.Sprintf(format, args...))
}

// nullsOK checks that a null mask is empty or has a flag per row.
func (c *vcheck) nullsOK(nulls []bool) error {
	if len(nulls) != 0 && len(nulls) != c.n {
		return c.bad("null mask has %d entries for %d rows", len(nulls), c.n)
	}
	return nil
}

// stored reports whether row i's value is written.
func (c *vcheck) stored(nulls []bool, i int) bool {
	return (len(nulls) == 0 || !nulls[i]) && (c.skip == nil || !c.skip[i])
}

// childSkip returns the skip mask of a child parallel to this vector.
func (c *vcheck) childSkip(nulls []bool) []bool {
	if len(nulls) == 0 {
		return c.skip
	}
	m := make([]bool, c.n)
	for i := range m {
		m[i] = !c.stored(nulls, i)
	}
	return m
}

// longs checks a boolean, integer or date column's values fit its type.
func (c *vcheck) longs(vec *orc.LongVector) error {
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	var lo, hi int64
	switch c.t.Kind {
	case orc.Boolean:
		lo, hi = 0, 1
	case orc.Byte:
		lo, hi = math.MinInt8, math.MaxInt8
	case orc.Short:
		lo, hi = math.MinInt16, math.MaxInt16
	case orc.Int, orc.Date:
		lo, hi = math.MinInt32, math.MaxInt32
	default:
		return nil
	}
	for i, x := range vec.Values[:c.n] {
		if (x < lo || x > hi) && c.stored(vec.Nulls.Nulls, i) {
			return c.bad("row %d: value %d out of range", i, x)
		}
	}
	return nil
}

// bytes checks a text, binary or geospatial column: offsets in order
// within the data, text valid UTF-8, geometries valid WKB.
func (c *vcheck) bytes(vec *orc.BytesVector) error {
	n := c.n
	if n > 0 {
		prev := vec.Offsets[0]
		if prev < 0 {
			return c.bad("negative offset")
		}
		for i := 1; i <= n; i++ {
			if vec.Offsets[i] < prev || vec.Offsets[i] > len(vec.Data) {
				return c.bad("offsets[%d] = %d out of order or past the data (%d bytes)", i, vec.Offsets[i], len(vec.Data))
			}
			prev = vec.Offsets[i]
		}
	}
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	if c.t.Kind.IsGeospatial() {
		return c.ck.geometries(vec, n, c.stored, c.bad)
	}
	if c.t.Kind == orc.Binary || c.ck.allowBadUTF8 || n == 0 || utf8.Valid(vec.Data[vec.Offsets[0]:vec.Offsets[n]]) {
		return nil
	}
	for i := 0; i < n; i++ {
		if c.stored(vec.Nulls.Nulls, i) && !utf8.Valid(vec.Get(i)) {
			return c.bad("row %d: value is not valid UTF-8 (%s; WithAllowInvalidUTF8 stores it as given)", i, badUTF8Prefix(vec.Get(i)))
		}
	}
	return nil
}

// decimals checks that every stored value fits the column's precision at
// its scale, rescaled exactly from the vector's.
func (c *vcheck) decimals(vec *orc.DecimalVector) error {
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	t := c.t
	if vec.Scale < 0 || vec.Scale > 38 {
		return c.bad("vector scale %d outside 0..38", vec.Scale)
	}
	limit := orc.Pow10(t.Precision)
	if vec.Scale == t.Scale && t.Precision <= 18 {
		// The limit fits an int64, and so must every value.
		lim := int64(limit.Lo)
		for i, x := range vec.Values[:c.n] {
			if v := int64(x.Lo); (!x.IsInt64() || v >= lim || v <= -lim) && c.stored(vec.Nulls.Nulls, i) {
				return c.bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, t.Scale))
			}
		}
		return nil
	}
	for i, x := range vec.Values[:c.n] {
		if !c.stored(vec.Nulls.Nulls, i) {
			continue
		}
		if vec.Scale != t.Scale {
			r, exact, ok := orc.Rescale(x, vec.Scale, t.Scale)
			if ok && !exact {
				return c.bad("row %d: value %s, of the vector's scale %d, would need rounding to the column's scale %d", i, orc.FormatDecimal(x, vec.Scale), vec.Scale, t.Scale)
			}
			if !ok {
				return c.bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, vec.Scale))
			}
			x = r
		}
		if x.Cmp(limit) >= 0 || x.Neg().Cmp(limit) >= 0 {
			return c.bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, t.Scale))
		}
	}
	return nil
}

// timestamps checks nanoseconds and seconds are in the ranges ORC stores.
func (c *vcheck) timestamps(vec *orc.TimestampVector) error {
	if len(vec.Nanos) != c.n {
		return c.bad("%d nanos for %d rows", len(vec.Nanos), c.n)
	}
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	for i, ns := range vec.Nanos[:c.n] {
		if (ns < 0 || ns > 999_999_999) && c.stored(vec.Nulls.Nulls, i) {
			return c.bad("row %d: nanoseconds %d outside 0..999999999", i, ns)
		}
	}
	for i, sec := range vec.Seconds[:c.n] {
		if (sec < MinTimestampSeconds || sec > MaxTimestampSeconds) && c.stored(vec.Nulls.Nulls, i) {
			return c.bad("row %d: seconds %d outside %d..%d (milliseconds must fit an int64, as in Java)", i, sec, int64(MinTimestampSeconds), int64(MaxTimestampSeconds))
		}
	}
	return nil
}

// structs checks a struct's fields, each as many rows as the struct.
func (c *vcheck) structs(vec *orc.StructVector) error {
	t := c.t
	if len(vec.Fields) != len(t.Children) {
		return c.bad("%d fields, type has %d", len(vec.Fields), len(t.Children))
	}
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	kidSkip := c.childSkip(vec.Nulls.Nulls)
	for i, k := range t.Children {
		if err := c.ck.vector(k, vec.Fields[i], c.n, c.path+"."+t.FieldNames[i], kidSkip); err != nil {
			return err
		}
	}
	return nil
}

// lists checks a list's or map's offsets, then its children, as many as
// the last offset says.
func (c *vcheck) lists(v orc.Vector) error {
	var offs []int64
	var nulls []bool
	var kids []orc.Vector
	switch vec := v.(type) { // the column's type, as vector checked
	case *orc.ListVector:
		offs, nulls, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Elem}
	case *orc.MapVector:
		offs, nulls, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Keys, vec.Values}
	}
	if err := c.nullsOK(nulls); err != nil {
		return err
	}
	n := c.n
	if n == 0 {
		return nil
	}
	if offs[0] < 0 {
		return c.bad("negative offset")
	}
	for i := 0; i < n; i++ {
		if offs[i+1] < offs[i] {
			return c.bad("offsets[%d] = %d less than offsets[%d] = %d", i+1, offs[i+1], i, offs[i])
		}
		if len(nulls) > 0 && nulls[i] && offs[i+1] != offs[i] {
			return c.bad("null row %d owns %d children", i, offs[i+1]-offs[i])
		}
	}
	total := offs[n]
	names := []string{"_elem", "_key", "_value"}[len(kids)-1:] // list: _elem; map: _key, _value
	for i, k := range kids {
		if k == nil {
			return c.bad("child %s: nil vector", names[i])
		}
		if int64(k.Len()) != total {
			return c.bad("child %s has %d entries, offsets need %d", names[i], k.Len(), total)
		}
	}
	// Children of rows the writer leaves out are not checked.
	var kidSkip []bool
	if c.skip != nil {
		kidSkip = make([]bool, total)
		for i := 0; i < n; i++ {
			if c.skip[i] {
				for j := offs[i]; j < offs[i+1]; j++ {
					kidSkip[j] = true
				}
			}
		}
	}
	for i, k := range kids {
		if err := c.ck.vector(c.t.Children[i], k, int(total), c.path+"."+names[i], kidSkip); err != nil {
			return err
		}
	}
	return nil
}

// unions checks a union's tags, then each variant on the rows it holds.
func (c *vcheck) unions(vec *orc.UnionVector) error {
	t := c.t
	if len(vec.Children) != len(t.Children) {
		return c.bad("%d variants, type has %d", len(vec.Children), len(t.Children))
	}
	if err := c.nullsOK(vec.Nulls.Nulls); err != nil {
		return err
	}
	for i := 0; i < c.n; i++ {
		if c.stored(vec.Nulls.Nulls, i) && int(vec.Tags[i]) >= len(t.Children) {
			return c.bad("row %d has tag %d", i, vec.Tags[i])
		}
	}
	for tag, k := range t.Children {
		kidSkip := make([]bool, c.n)
		for i := range kidSkip {
			kidSkip[i] = !c.stored(vec.Nulls.Nulls, i) || int(vec.Tags[i]) != tag
		}
		if err := c.ck.vector(k, vec.Children[tag], c.n, fmt.Sprintf("%s._%d", c.path, tag), kidSkip); err != nil {
			return err
		}
	}
	return nil
}

// badUTF8Prefix quotes the start of an invalid value, at most 16 bytes,
// for an error message.
func badUTF8Prefix(b []byte) string {
	if len(b) > 16 {
		return strconv.QuoteToASCII(string(b[:16])) + "..."
	}
	return strconv.QuoteToASCII(string(b))
}
