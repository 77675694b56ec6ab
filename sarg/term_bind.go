package sarg

// Binding and evaluating terms: a bound term is a tree of tnodes, each a
// column, a literal or a function (fnImpl) of its children. A function
// family declares in one type how it computes a batch of rows, how it maps
// its arguments' intervals to its own, and how it computes one row plainly
// (the reference evaluation).

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// fnImpl is one bound function.
type fnImpl interface {
	// eval computes rows 0..n-1 from the arguments' values into out,
	// whose slices it may reuse (grow) but never alias to an argument's
	// unless it never grows them. Unless the function is nullAware, a row
	// where an argument is null is null (and eval need not compute it).
	eval(args []*tvec, n int, out *tvec) error
	// ival maps the arguments' intervals to one holding every value the
	// function can take on them (nulls included): a sound
	// over-approximation, anyIval when nothing is known.
	ival(args []ival) ival
	// plain computes one row from plain values (nil is NULL; see
	// plainOfColumn for the types).
	plain(args []any) (any, error)
}

// nullAware marks functions that decide null rows themselves (COALESCE,
// <=>).
type nullAware interface{ handlesNulls() }

// tnode is a bound term.
type tnode struct {
	id    int // the node's index in its term, for scratch buffers
	t     ttype
	fn    fnImpl
	kids  []*tnode
	col   *orc.Schema // a column term
	colID int
	anc   []int
	char  bool // a char column: values without their padding
	lit   any  // a literal term's plain value
	text  string
	// fast says the node's intervals may be computed in int64 (see
	// ival64Of); lit64 is a fast literal's value at the node's scale.
	fast  bool
	lit64 int64
}

// maxTermDepth bounds the nesting of terms.
const maxTermDepth = 200

// termError is a term that does not type-check.
type termError struct{ msg string }

func (e *termError) Error() string { return e.msg }

func termErrorf(format string, args ...any) error {
	return &termError{msg: fmt.Sprintf(format, args...)}
}

// bindTerm binds t against b's schema.
func (b *Bound) bindTerm(t Term, depth int) (*tnode, error) {
	if depth > maxTermDepth {
		return nil, termErrorf("expression nested deeper than %d", maxTermDepth)
	}
	if t.isColumn() {
		col, anc, err := b.resolve(t.Column)
		if err != nil {
			return nil, err
		}
		tt, ok := typeOfColumn(col)
		if !ok {
			return nil, termErrorf("%s column %s cannot be used in an expression", col.Kind, canonicalColumn(t.Column))
		}
		return &tnode{t: tt, col: col, colID: col.ID(), anc: anc, char: col.Kind == orc.Char, text: t.String()}, nil
	}
	if t.isLiteral() {
		return bindLiteralTerm(t)
	}
	kids := make([]*tnode, len(t.Args))
	for i, a := range t.Args {
		k, err := b.bindTerm(a, depth+1)
		if err != nil {
			return nil, err
		}
		kids[i] = k
	}
	binder, ok := termFuncs[t.Fn]
	if !ok {
		return nil, termErrorf("unknown function %s", t.Fn)
	}
	fn, tt, kids, err := binder(t, kids)
	if err != nil {
		return nil, err
	}
	return &tnode{t: tt, fn: fn, kids: kids, text: t.String()}, nil
}

// fnBinder checks a function's arguments, coercing them where needed, and
// returns the bound function and its result type.
type fnBinder func(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error)

// termFuncs is filled by the families' init functions.
var termFuncs = map[string]fnBinder{}

// registerFuncs makes bind the binder of every function a family's table
// names.
func registerFuncs[V any](family map[string]V, bind fnBinder) {
	for name := range family {
		termFuncs[name] = bind
	}
}

// bindLiteralTerm binds a literal: its type and plain value.
func bindLiteralTerm(t Term) (*tnode, error) {
	l := t.Lit
	n := &tnode{text: t.String()}
	switch l.kind {
	case IntLit:
		n.t, n.lit = exactType(tkInt, 0, new(big.Int).Abs(big.NewInt(l.i))), ratOf(l.i)
	case DecimalLit:
		v, _ := numOf(l)
		n.t, n.lit = exactType(tkDec, int(l.scale), new(big.Int).Abs(l.d.Big())), v.r
	case FloatLit:
		n.t, n.lit = ttype{k: tkDouble}, nearestFloat(l)
	case StringLit:
		n.t, n.lit = ttype{k: tkStr}, l.s
	case BytesLit:
		n.t, n.lit = ttype{k: tkBin}, l.s
	case DateLit:
		n.t, n.lit = ttype{k: tkDate}, l.i
	case TimestampLit:
		if l.loc != nil {
			return nil, termErrorf("a timestamp with a zone (%s) in an expression: compare the column with it directly", l)
		}
		n.t, n.lit = ttype{k: tkTs}, tsVal{l.i, l.nanos}
	case InstantLit:
		n.t, n.lit = ttype{k: tkInstant}, tsVal{l.i, l.nanos}
	case BoolLit:
		n.t, n.lit = ttype{k: tkBool}, l.i != 0
	default:
		return nil, termErrorf("NULL cannot stand in an expression (write IS NULL, or COALESCE)")
	}
	return n, nil
}

// eval computes the term on rows 0..n-1 of cols, into sc's buffers.
func (nd *tnode) eval(cols ColumnVectors, n int, sc *termScratch) (*tvec, error) {
	out := &sc.vecs[nd.id]
	switch {
	case nd.col != nil:
		return out, nd.evalColumn(cols, n, out)
	case nd.fn == nil:
		nd.broadcast(n, out)
		return out, nil
	}
	args, err := nd.evalArgs(cols, n, sc)
	if err != nil {
		return nil, err
	}
	return nd.apply(args, n, sc)
}

// apply computes a function node from its arguments' values.
func (nd *tnode) apply(args []*tvec, n int, sc *termScratch) (*tvec, error) {
	out := &sc.vecs[nd.id]
	out.null, out.data = nil, out.data[:0]
	out.resetNarrow()
	if _, ok := nd.fn.(narrowAware); !ok {
		for i, k := range nd.kids {
			if k.t.k == tkDec {
				args[i].widenDec(n)
			}
		}
	}
	if err := nd.fn.eval(args, n, out); err != nil {
		return nil, fmt.Errorf("sarg: %s: %w", nd.text, err)
	}
	if _, ok := nd.fn.(nullAware); !ok {
		out.mergeNulls(n, args)
	}
	return out, nil
}

// evalArgs computes the arguments of a function node.
func (nd *tnode) evalArgs(cols ColumnVectors, n int, sc *termScratch) ([]*tvec, error) {
	args := sc.args[nd.id]
	for i, k := range nd.kids {
		a, err := k.eval(cols, n, sc)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	return args, nil
}

// evalColumn reads a column's vector as a term's values, without copying
// (char values get their padding cut off).
func (nd *tnode) evalColumn(cols ColumnVectors, n int, out *tvec) error {
	v, ok := cols[nd.colID]
	if !ok || v == nil {
		return fmt.Errorf("sarg: no vector for column %d (%s)", nd.colID, nd.text)
	}
	if v.Len() < n {
		return fmt.Errorf("sarg: vector for column %d has %d rows, need %d", nd.colID, v.Len(), n)
	}
	nulls := nullsOf(v)
	if len(nulls) > 0 && len(nulls) < n {
		return fmt.Errorf("sarg: null mask for column %d has %d rows, need %d", nd.colID, len(nulls), n)
	}
	out.null = nil
	if len(nulls) > 0 {
		out.null = nulls[:n]
	}
	out.resetNarrow()
	if !nd.fits(v) {
		return fmt.Errorf("sarg: column %d is %s but its vector is %T", nd.colID, nd.col.Kind, v)
	}
	switch x := v.(type) {
	case *orc.LongVector:
		out.i = x.Values[:n]
	case *orc.DoubleVector:
		out.f = x.Values[:n]
	case *orc.DecimalVector:
		if x.Scale != nd.t.scale {
			return fmt.Errorf("sarg: decimal vector for column %d has scale %d, the column %d", nd.colID, x.Scale, nd.t.scale)
		}
		out.d = x.Values[:n]
	case *orc.TimestampVector:
		if len(x.Nanos) < n {
			return fmt.Errorf("sarg: timestamp vector for column %d has %d nanos, need %d", nd.colID, len(x.Nanos), n)
		}
		out.sec, out.ns = x.Seconds[:n], x.Nanos[:n]
	case *orc.BytesVector:
		if err := checkOffsets(x, n); err != nil {
			return fmt.Errorf("sarg: column %d: %w", nd.colID, err)
		}
		out.data, out.st, out.en = x.Data, x.Offsets[:n], x.Offsets[1:n+1]
		if nd.char {
			out.en = grow(out.mergeEn, n) // a buffer of the node's own
			out.mergeEn = out.en
			for i := 0; i < n; i++ {
				e := x.Offsets[i+1]
				for e > x.Offsets[i] && x.Data[e-1] == ' ' {
					e--
				}
				out.en[i] = e
			}
		}
	}
	return nil
}

// fits reports whether v is the vector type of the column's kind.
func (nd *tnode) fits(v orc.Vector) bool {
	switch v.(type) {
	case *orc.LongVector:
		return nd.t.k == tkInt || nd.t.k == tkDate || nd.t.k == tkBool
	case *orc.DoubleVector:
		return nd.t.k == tkDouble
	case *orc.DecimalVector:
		return nd.t.k == tkDec
	case *orc.TimestampVector:
		return nd.t.k == tkTs || nd.t.k == tkInstant
	case *orc.BytesVector:
		return nd.t.k == tkStr || nd.t.k == tkBin
	}
	return false
}

func checkOffsets(x *orc.BytesVector, n int) error {
	if len(x.Offsets) < n+1 {
		return fmt.Errorf("bytes vector has %d offsets, need %d", len(x.Offsets), n+1)
	}
	for i := 0; i < n; i++ {
		if x.Offsets[i] < 0 || x.Offsets[i] > x.Offsets[i+1] || x.Offsets[i+1] > len(x.Data) {
			return fmt.Errorf("bytes vector has bad offsets at row %d", i)
		}
	}
	return nil
}

// broadcast puts a literal's value on n rows of out (once: the rows
// already filled keep it).
func (nd *tnode) broadcast(n int, out *tvec) {
	if out.filled >= n {
		return
	}
	out.filled = n
	out.resetNarrow()
	switch v := nd.lit.(type) {
	case *big.Rat:
		if nd.t.k == tkInt {
			x, _ := ratInt64(v, false)
			out.i = fillN(grow(out.i, n), x)
		} else {
			d, _ := ratDecimal(v, nd.t.scale)
			out.d = fillN(grow(out.d, n), d.Unscaled)
		}
	case float64:
		out.f = fillN(grow(out.f, n), v)
	case string:
		out.data = []byte(v)
		out.st = fillN(grow(out.st, n), 0)
		out.en = fillN(grow(out.en, n), len(v))
	case int64:
		out.i = fillN(grow(out.i, n), v)
	case tsVal:
		out.sec, out.ns = fillN(grow(out.sec, n), v.sec), fillN(grow(out.ns, n), v.nanos)
	case bool:
		out.i = fillN(grow(out.i, n), b2i(v))
	}
}

func fillN[T any](s []T, v T) []T {
	for i := range s {
		s[i] = v
	}
	return s
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ivalOf returns the interval of the term's values on the unit src
// describes.
func (nd *tnode) ivalOf(src Source) ival {
	iv := nd.ivalOf1(src)
	if iv.bounded && nd.t.k == tkDouble && (iv.lo.f != iv.lo.f || iv.hi.f != iv.hi.f) {
		iv.bounded = false // NaN lies above every bound
	}
	return iv
}

func (nd *tnode) ivalOf1(src Source) ival {
	switch {
	case nd.col != nil:
		return nd.columnIval(src)
	case nd.fn == nil:
		v := tvalOfPlain(nd.lit)
		return ival{val: true, bounded: true, lo: v, hi: v}
	}
	args := make([]ival, len(nd.kids))
	for i, k := range nd.kids {
		args[i] = k.ivalOf(src)
		if !args[i].val && !args[i].null {
			// Every row gives each argument a value or NULL: an argument
			// with neither proves the unit has no rows, whatever the
			// statistics of the others say (or lack).
			return ival{}
		}
	}
	return nd.fn.ival(args)
}

// tvalOfPlain returns a plain value as a bound.
func tvalOfPlain(v any) tval {
	switch x := v.(type) {
	case *big.Rat:
		return tval{r: x}
	case float64:
		return tval{f: x}
	case string:
		return tval{s: x}
	case int64:
		return tval{r: ratOf(x)}
	case tsVal:
		return tval{ts: x}
	case bool:
		return tval{r: ratOf(b2i(x))}
	}
	return tval{}
}

// columnIval reads a column's statistics as an interval (see spec.md 7.3
// for the gates).
func (nd *tnode) columnIval(src Source) ival {
	st, hasNull, ok := unitNulls(src, nd.colID, nd.col.Kind, nd.anc)
	if !ok {
		return anyIval
	}
	if st.NumValues == 0 {
		return ival{null: hasNull}
	}
	iv := ival{val: true, null: hasNull}
	switch nd.t.k {
	case tkInt, tkDate, tkBool:
		r := intRange(nd.col.Kind, st)
		if nd.t.k == tkBool {
			r = boolRange(st)
		}
		if r.hasLo && r.hasHi && r.lo <= r.hi {
			iv.bounded, iv.lo, iv.hi = true, tval{r: ratOf(r.lo)}, tval{r: ratOf(r.hi)}
		}
	case tkDec:
		r := decimalRange(st)
		if r.hasLo && r.hasHi && cmpDecimal(r.lo, r.hi) <= 0 {
			iv.bounded, iv.lo, iv.hi = true, tval{r: decRat(r.lo)}, tval{r: decRat(r.hi)}
		}
	case tkDouble:
		r := floatRange(st)
		if r.hasLo && r.hasHi && r.lo <= r.hi {
			iv.bounded, iv.lo, iv.hi = true, tval{f: r.lo}, tval{f: r.hi}
		}
	case tkStr:
		r := stringRange(nd.col.Kind, st)
		if r.hasLo && r.hasHi && r.lo <= r.hi {
			// Truncated bounds are still bounds; a char value without its
			// padding is a prefix of the stored one, so it lies at or below
			// the maximum, but may lie below the minimum.
			iv.bounded, iv.lo, iv.hi = true, tval{s: r.lo}, tval{s: r.hi}
			if nd.char {
				iv.lo = tval{s: ""}
			}
		}
	case tkTs, tkInstant:
		r := timeRange(st)
		if r.hasLo && r.hasHi && cmpTS(r.lo, r.hi) <= 0 {
			iv.bounded, iv.lo, iv.hi = true, tval{ts: r.lo}, tval{ts: r.hi}
		}
	}
	return iv
}

// plainOf computes the term on one row, plainly: values maps column ids
// to EvalRow's values. Plain values: exact numbers *big.Rat, doubles
// float64, text and bytes string, dates int64, timestamps tsVal, booleans
// bool, NULL nil.
func (nd *tnode) plainOf(values map[int]any) (any, error) {
	switch {
	case nd.col != nil:
		return nd.plainColumn(values[nd.colID])
	case nd.fn == nil:
		return nd.lit, nil
	}
	args := make([]any, len(nd.kids))
	hasNull := false
	for i, k := range nd.kids {
		a, err := k.plainOf(values)
		if err != nil {
			return nil, err
		}
		args[i] = a
		hasNull = hasNull || a == nil
	}
	if _, ok := nd.fn.(nullAware); hasNull && !ok {
		return nil, nil
	}
	return nd.fn.plain(args)
}

// plainColumn converts an EvalRow value of the column.
func (nd *tnode) plainColumn(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	wrong := fmt.Errorf("sarg: value %v (%T) for %s column %s", v, v, nd.col.Kind, nd.text)
	switch x := v.(type) {
	case int64:
		switch nd.t.k {
		case tkInt:
			return ratOf(x), nil
		case tkDate:
			return x, nil
		}
	case bool:
		if nd.t.k == tkBool {
			return x, nil
		}
	case float64:
		if nd.t.k == tkDouble {
			return x, nil
		}
	case stats.DecimalValue:
		if nd.t.k == tkDec {
			return decRat(x), nil
		}
	case string:
		if nd.char {
			return strings.TrimRight(x, " "), nil
		}
		if nd.t.k == tkStr || nd.t.k == tkBin {
			return x, nil
		}
	case []byte:
		if nd.t.k == tkStr || nd.t.k == tkBin {
			return string(x), nil
		}
	case TimestampValue:
		if nd.t.k == tkTs || nd.t.k == tkInstant {
			return tsVal{x.Sec, x.Nanos}, nil
		}
	}
	return nil, wrong
}

// evalRowValue converts a plain value of type t to EvalRow's type for
// t's schema, for the comparison of a term leaf.
func evalRowValue(t ttype, v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case *big.Rat:
		if t.k == tkInt {
			i, ok := ratInt64(x, false)
			if !ok || !x.IsInt() {
				return nil, fmt.Errorf("sarg: %s is no bigint", x.RatString())
			}
			return i, nil
		}
		d, ok := ratDecimal(x, t.scale)
		if !ok {
			return nil, fmt.Errorf("sarg: %s is no decimal at scale %d", x.RatString(), t.scale)
		}
		return d, nil
	case tsVal:
		return TimestampValue{Sec: x.sec, Nanos: x.nanos}, nil
	case string:
		if t.k == tkBin {
			return []byte(x), nil
		}
	}
	return v, nil
}

// plainFloat returns an exact or double plain value as a double.
func plainFloat(v any) float64 {
	switch x := v.(type) {
	case *big.Rat:
		f, _ := x.Float64()
		return f
	case float64:
		return x
	}
	return math.NaN()
}
