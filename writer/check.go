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
	bad := func(format string, args ...any) error {
		return fmt.Errorf("orc: Write: column %s (%s): %s", path, t, fmt.Sprintf(format, args...))
	}
	if v == nil {
		return bad("nil vector")
	}
	if v.Len() != n {
		return bad("vector has %d rows, NumRows %d", v.Len(), n)
	}
	nullsOK := func(nulls []bool) error {
		if len(nulls) != 0 && len(nulls) != n {
			return bad("null mask has %d entries for %d rows", len(nulls), n)
		}
		return nil
	}
	// stored reports whether row i's value is written.
	stored := func(nulls []bool, i int) bool {
		return (len(nulls) == 0 || !nulls[i]) && (skip == nil || !skip[i])
	}
	// childSkip returns the skip mask of a child parallel to this vector.
	childSkip := func(nulls []bool) []bool {
		if len(nulls) == 0 {
			return skip
		}
		m := make([]bool, n)
		for i := range m {
			m[i] = !stored(nulls, i)
		}
		return m
	}
	switch t.Kind {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		vec, ok := v.(*orc.LongVector)
		if !ok {
			return bad("want *orc.LongVector, have %T", v)
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		switch t.Kind {
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
		for i, x := range vec.Values[:n] {
			if (x < lo || x > hi) && stored(vec.Nulls.Nulls, i) {
				return bad("row %d: value %d out of range", i, x)
			}
		}
		return nil
	case orc.Float, orc.Double:
		vec, ok := v.(*orc.DoubleVector)
		if !ok {
			return bad("want *orc.DoubleVector, have %T", v)
		}
		return nullsOK(vec.Nulls.Nulls)
	case orc.String, orc.Varchar, orc.Char, orc.Binary, orc.Geometry, orc.Geography:
		vec, ok := v.(*orc.BytesVector)
		if !ok {
			return bad("want *orc.BytesVector, have %T", v)
		}
		if n > 0 {
			prev := vec.Offsets[0]
			if prev < 0 {
				return bad("negative offset")
			}
			for i := 1; i <= n; i++ {
				if vec.Offsets[i] < prev || vec.Offsets[i] > len(vec.Data) {
					return bad("offsets[%d] = %d out of order or past the data (%d bytes)", i, vec.Offsets[i], len(vec.Data))
				}
				prev = vec.Offsets[i]
			}
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		if t.Kind.IsGeospatial() {
			return ck.geometries(vec, n, stored, bad)
		}
		if t.Kind == orc.Binary || ck.allowBadUTF8 || n == 0 || utf8.Valid(vec.Data[vec.Offsets[0]:vec.Offsets[n]]) {
			return nil
		}
		for i := 0; i < n; i++ {
			if stored(vec.Nulls.Nulls, i) && !utf8.Valid(vec.Get(i)) {
				return bad("row %d: value is not valid UTF-8 (%s; WithAllowInvalidUTF8 stores it as given)", i, badUTF8Prefix(vec.Get(i)))
			}
		}
		return nil
	case orc.Decimal:
		vec, ok := v.(*orc.DecimalVector)
		if !ok {
			return bad("want *orc.DecimalVector, have %T", v)
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		if vec.Scale < 0 || vec.Scale > 38 {
			return bad("vector scale %d outside 0..38", vec.Scale)
		}
		limit := orc.Pow10(t.Precision)
		if vec.Scale == t.Scale && t.Precision <= 18 {
			// The limit fits an int64, and so must every value.
			lim := int64(limit.Lo)
			for i, x := range vec.Values[:n] {
				if v := int64(x.Lo); (!x.IsInt64() || v >= lim || v <= -lim) && stored(vec.Nulls.Nulls, i) {
					return bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, t.Scale))
				}
			}
			return nil
		}
		for i, x := range vec.Values[:n] {
			if !stored(vec.Nulls.Nulls, i) {
				continue
			}
			if vec.Scale != t.Scale {
				r, exact, ok := orc.Rescale(x, vec.Scale, t.Scale)
				if ok && !exact {
					return bad("row %d: value %s, of the vector's scale %d, would need rounding to the column's scale %d", i, orc.FormatDecimal(x, vec.Scale), vec.Scale, t.Scale)
				}
				if !ok {
					return bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, vec.Scale))
				}
				x = r
			}
			if x.Cmp(limit) >= 0 || x.Neg().Cmp(limit) >= 0 {
				return bad("row %d: value %s does not fit", i, orc.FormatDecimal(x, t.Scale))
			}
		}
		return nil
	case orc.Timestamp, orc.TimestampInstant:
		vec, ok := v.(*orc.TimestampVector)
		if !ok {
			return bad("want *orc.TimestampVector, have %T", v)
		}
		if len(vec.Nanos) != n {
			return bad("%d nanos for %d rows", len(vec.Nanos), n)
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		for i, ns := range vec.Nanos[:n] {
			if (ns < 0 || ns > 999_999_999) && stored(vec.Nulls.Nulls, i) {
				return bad("row %d: nanoseconds %d outside 0..999999999", i, ns)
			}
		}
		for i, sec := range vec.Seconds[:n] {
			if (sec < MinTimestampSeconds || sec > MaxTimestampSeconds) && stored(vec.Nulls.Nulls, i) {
				return bad("row %d: seconds %d outside %d..%d (milliseconds must fit an int64, as in Java)", i, sec, int64(MinTimestampSeconds), int64(MaxTimestampSeconds))
			}
		}
		return nil
	case orc.Struct:
		vec, ok := v.(*orc.StructVector)
		if !ok {
			return bad("want *orc.StructVector, have %T", v)
		}
		if len(vec.Fields) != len(t.Children) {
			return bad("%d fields, type has %d", len(vec.Fields), len(t.Children))
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		kidSkip := childSkip(vec.Nulls.Nulls)
		for i, c := range t.Children {
			if err := ck.vector(c, vec.Fields[i], n, path+"."+t.FieldNames[i], kidSkip); err != nil {
				return err
			}
		}
		return nil
	case orc.List, orc.Map:
		var offs []int64
		var nulls []bool
		var kids []orc.Vector
		switch vec := v.(type) {
		case *orc.ListVector:
			if t.Kind != orc.List {
				return bad("want *orc.MapVector, have %T", v)
			}
			offs, nulls, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Elem}
		case *orc.MapVector:
			if t.Kind != orc.Map {
				return bad("want *orc.ListVector, have %T", v)
			}
			offs, nulls, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Keys, vec.Values}
		default:
			return bad("unexpected vector %T", v)
		}
		if err := nullsOK(nulls); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if offs[0] < 0 {
			return bad("negative offset")
		}
		for i := 0; i < n; i++ {
			if offs[i+1] < offs[i] {
				return bad("offsets[%d] = %d less than offsets[%d] = %d", i+1, offs[i+1], i, offs[i])
			}
			if len(nulls) > 0 && nulls[i] && offs[i+1] != offs[i] {
				return bad("null row %d owns %d children", i, offs[i+1]-offs[i])
			}
		}
		total := offs[n]
		for i, k := range kids {
			name := []string{"_elem", "_key", "_value"}[i+len(kids)-1] // list: _elem; map: _key, _value
			if k == nil {
				return bad("child %s: nil vector", name)
			}
			if int64(k.Len()) != total {
				return bad("child %s has %d entries, offsets need %d", name, k.Len(), total)
			}
		}
		// Children of rows the writer leaves out are not checked.
		var kidSkip []bool
		if skip != nil {
			kidSkip = make([]bool, total)
			for i := 0; i < n; i++ {
				if skip[i] {
					for j := offs[i]; j < offs[i+1]; j++ {
						kidSkip[j] = true
					}
				}
			}
		}
		for i, k := range kids {
			name := []string{"_elem", "_key", "_value"}[i+len(kids)-1]
			if err := ck.vector(t.Children[i], k, int(total), path+"."+name, kidSkip); err != nil {
				return err
			}
		}
		return nil
	case orc.Union:
		vec, ok := v.(*orc.UnionVector)
		if !ok {
			return bad("want *orc.UnionVector, have %T", v)
		}
		if len(vec.Children) != len(t.Children) {
			return bad("%d variants, type has %d", len(vec.Children), len(t.Children))
		}
		if err := nullsOK(vec.Nulls.Nulls); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if stored(vec.Nulls.Nulls, i) && int(vec.Tags[i]) >= len(t.Children) {
				return bad("row %d has tag %d", i, vec.Tags[i])
			}
		}
		for tag, c := range t.Children {
			kidSkip := make([]bool, n)
			for i := range kidSkip {
				kidSkip[i] = !stored(vec.Nulls.Nulls, i) || int(vec.Tags[i]) != tag
			}
			if err := ck.vector(c, vec.Children[tag], n, fmt.Sprintf("%s._%d", path, tag), kidSkip); err != nil {
				return err
			}
		}
		return nil
	}
	return bad("unsupported type")
}

// badUTF8Prefix quotes the start of an invalid value, at most 16 bytes,
// for an error message.
func badUTF8Prefix(b []byte) string {
	if len(b) > 16 {
		return strconv.QuoteToASCII(string(b[:16])) + "..."
	}
	return strconv.QuoteToASCII(string(b))
}
