package ingest

import (
	"fmt"
	"github.com/orcgo/orc"
	"time"
	"unicode/utf8"
)

// rowBuilder appends rows to a batch: to the top-level columns of a
// struct root, or to a root of any other type.
//
// A leaf column of a struct root has no builder of its own: col fills
// one in for it as it is used, from its type and vector, which is all a
// leaf's builder holds. One a column, kept, took 64 bytes a column of a
// CSV line of 100,000 columns while the line was read.
type rowBuilder struct {
	schema *orc.Schema
	vecs   []orc.Vector // the batch's columns
	// kids holds the builders of a struct root's compound columns, nil
	// for its leaves (nil itself when every column is a leaf), or the
	// builder of a root of another type.
	kids []*builder
	leaf builder     // the last leaf's builder col filled in
	env  *builderEnv // its builders'
}

func newRowBuilder(b *orc.Batch, zone *time.Location) *rowBuilder {
	rb := &rowBuilder{schema: b.Schema, vecs: b.Cols, env: &builderEnv{zone: zone}}
	if b.Schema.Kind != orc.Struct {
		rb.kids = []*builder{rb.env.newBuilder(b.Schema, b.Cols[0])}
		return rb
	}
	for i, c := range b.Schema.Children {
		if len(c.Children) == 0 {
			continue
		}
		if rb.kids == nil {
			rb.kids = make([]*builder, len(b.Schema.Children))
		}
		rb.kids[i] = rb.env.newBuilder(c, b.Cols[i])
	}
	return rb
}

// col returns the builder of top-level column i (the root's, 0, when it
// is not a struct). A leaf's is valid until the next call.
func (rb *rowBuilder) col(i int) *builder {
	if rb.kids != nil && rb.kids[i] != nil {
		return rb.kids[i]
	}
	rb.leaf = builder{t: rb.schema.Children[i], vec: rb.vecs[i], builderEnv: rb.env}
	return &rb.leaf
}

// builder appends values of one type-tree node to its vector, keeping the
// vector conventions of package orc: a null mask that is empty or has one
// entry per row, struct fields and union variants parallel to their parent,
// list and map children back to back behind offsets.
//
// A builder is 56 bytes (it was 80 with the text options, time zone and
// decimal limit of its own): what all of a row builder's share is kept
// once (builderEnv), and a struct root's leaves have none kept
// (rowBuilder.col).
type builder struct {
	t    *orc.Schema
	vec  orc.Vector
	kids []*builder
	*builderEnv
}

// builderEnv is what every builder of a row builder has.
type builderEnv struct {
	zone *time.Location // TIMESTAMP: refuse wall clocks the zone skips; instants: the text's zone
	text *textOptions   // --null and --timestamp-format; nil for the defaults
}

// decimalLimits holds 10^p for each decimal precision p, the first value
// too large for it.
var decimalLimits = func() (l [39]orc.Int128) {
	for p := range l {
		l[p] = orc.Pow10(p)
	}
	return l
}()

// limit returns 10^precision of the builder's decimal column, the first
// value too large.
func (b *builder) limit() orc.Int128 {
	p := b.t.Precision
	if p <= 0 || p > 38 {
		p = 38
	}
	return decimalLimits[p]
}

// textOptions are the flags that change how text reads as values.
type textOptions struct {
	null     string // --null: the text of a null
	nullSet  bool
	tsLayout string // --timestamp-format: a Go layout, "" for the default forms
	// truncate cuts varchar(n) and char(n) values to n characters
	// (--truncate) rather than refusing them.
	truncate bool
}

// checkLength refuses a varchar(n) or char(n) value longer than n
// characters, unless --truncate asks for it to be cut.
func (b *builder) checkLength(s string) error {
	if (b.t.Kind != orc.Varchar && b.t.Kind != orc.Char) || b.t.MaxLength <= 0 || (b.text != nil && b.text.truncate) {
		return nil
	}
	if n := utf8.RuneCountInString(s); n > b.t.MaxLength {
		return fmt.Errorf("%q has %d characters, more than %s holds (--truncate cuts such values)", clip(s), n, b.t)
	}
	return nil
}

// isNullText reports whether s is the --null text.
func (b *builder) isNullText(s string) bool {
	return b.text != nil && b.text.nullSet && s == b.text.null
}

// isStringKind reports whether empty text is a value of kind k (with
// --null set, an empty CSV field is then the empty string).
func isStringKind(k orc.Kind) bool {
	return k == orc.String || k == orc.Varchar || k == orc.Char || k == orc.Binary
}

// newBuilder returns a builder of v, of type t, with the default text
// options.
func newBuilder(t *orc.Schema, v orc.Vector, zone *time.Location) *builder {
	return (&builderEnv{zone: zone}).newBuilder(t, v)
}

// newBuilder returns a builder of v, of type t, sharing e.
func (e *builderEnv) newBuilder(t *orc.Schema, v orc.Vector) *builder {
	b := new(builder)
	e.initBuilder(b, t, v)
	return b
}

// initBuilder makes b a builder of v, of type t, sharing e. The builders
// of a compound's children are made in one array: for a CSV line of
// 100,000 columns, one builder a column at 56 bytes, not 64 and a
// pointer's growing slice.
func (e *builderEnv) initBuilder(b *builder, t *orc.Schema, v orc.Vector) {
	*b = builder{t: t, vec: v, builderEnv: e}
	var kids []orc.Vector
	switch vec := v.(type) {
	case *orc.StructVector:
		kids = vec.Fields
	case *orc.ListVector:
		kids = []orc.Vector{vec.Elem}
	case *orc.MapVector:
		kids = []orc.Vector{vec.Keys, vec.Values}
	case *orc.UnionVector:
		kids = vec.Children
	default:
		return
	}
	arr := make([]builder, len(t.Children))
	b.kids = make([]*builder, len(t.Children))
	for i, c := range t.Children {
		e.initBuilder(&arr[i], c, kids[i])
		b.kids[i] = &arr[i]
	}
}

// setNull marks a new row null in a mask that covers rows rows so far.
func setNull(n *orc.Nulls, rows int) {
	for len(n.Nulls) < rows {
		n.Nulls = append(n.Nulls, false)
	}
	n.Nulls = append(n.Nulls, true)
}

// setValid marks a new row non-null.
func setValid(n *orc.Nulls) {
	if len(n.Nulls) > 0 {
		n.Nulls = append(n.Nulls, false)
	}
}

func startOffsets(offs []int64) []int64 {
	if len(offs) == 0 {
		return append(offs, 0)
	}
	return offs
}

func (b *builder) appendNull() {
	switch v := b.vec.(type) {
	case *orc.LongVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, 0)
	case *orc.DoubleVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, 0)
	case *orc.BytesVector:
		v.AppendNull()
	case *orc.DecimalVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, orc.Int128{})
	case *orc.TimestampVector:
		setNull(&v.Nulls, len(v.Seconds))
		v.Seconds = append(v.Seconds, 0)
		v.Nanos = append(v.Nanos, 0)
	case *orc.StructVector:
		setNull(&v.Nulls, v.N)
		for _, k := range b.kids {
			k.appendNull()
		}
		v.N++
	case *orc.ListVector:
		setNull(&v.Nulls, v.Len())
		v.Offsets = startOffsets(v.Offsets)
		v.Offsets = append(v.Offsets, v.Offsets[len(v.Offsets)-1])
	case *orc.MapVector:
		setNull(&v.Nulls, v.Len())
		v.Offsets = startOffsets(v.Offsets)
		v.Offsets = append(v.Offsets, v.Offsets[len(v.Offsets)-1])
	case *orc.UnionVector:
		setNull(&v.Nulls, len(v.Tags))
		v.Tags = append(v.Tags, 0)
		for _, k := range b.kids {
			k.appendNull()
		}
	}
}

func (b *builder) addLong(x int64) {
	v := b.vec.(*orc.LongVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addDouble(x float64) {
	v := b.vec.(*orc.DoubleVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addDecimal(x orc.Int128) {
	v := b.vec.(*orc.DecimalVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addTimestamp(sec int64, nanos int32) {
	v := b.vec.(*orc.TimestampVector)
	setValid(&v.Nulls)
	v.Seconds = append(v.Seconds, sec)
	v.Nanos = append(v.Nanos, nanos)
}

// appendText parses s as a value of the builder's primitive type, in the
// text forms of CSV (which JSON shares for dates and timestamps).
func (b *builder) appendText(s string) error {
	switch b.t.Kind {
	case orc.Boolean:
		x, err := parseBool(s)
		if err != nil {
			return err
		}
		if x {
			b.addLong(1)
		} else {
			b.addLong(0)
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		x, err := parseInt(s, b.t.Kind)
		if err != nil {
			return err
		}
		b.addLong(x)
	case orc.Float, orc.Double:
		x, err := parseFloat(s, b.t.Kind)
		if err != nil {
			return err
		}
		b.addDouble(x)
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		if b.t.Kind != orc.Binary && !utf8.ValidString(s) {
			return invalidUTF8(s)
		}
		if err := b.checkLength(s); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(s)
	case orc.Geometry, orc.Geography:
		wkb, err := parseGeometryText(s)
		if err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).Append(wkb)
	case orc.Decimal:
		x, err := parseDecimal(s, b.t, b.limit())
		if err != nil {
			return err
		}
		b.addDecimal(x)
	case orc.Date:
		days, err := parseDate(s)
		if err != nil {
			return err
		}
		b.addLong(days)
	case orc.Timestamp, orc.TimestampInstant:
		layout := ""
		if b.text != nil {
			layout = b.text.tsLayout
		}
		sec, nanos, err := parseTimestampText(s, layout, b.t.Kind == orc.TimestampInstant, b.zone)
		if err != nil {
			return err
		}
		b.addTimestamp(sec, nanos)
	default:
		return fmt.Errorf("a %s cannot be read from text", b.t)
	}
	return nil
}
