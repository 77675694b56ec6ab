package sarg

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/orcgo/orc"
)

// ColumnVectors maps a column id to the vector holding that column's values
// for the rows of a batch. A nested field's vector must be parallel to the
// top-level rows, null where the field or a struct above it is null.
type ColumnVectors map[int]orc.Vector

// Row outcomes in row-level evaluation. Bit 0 says "not FALSE", bit 1
// "TRUE": the outcomes are ordered, Kleene's AND is the minimum and so
// the bitwise AND, OR the maximum and the bitwise OR, eight rows a word
// with no carry between bytes; NOT swaps the bits and turns them over
// (notOutcome).
const (
	rowFalse uint8 = 0
	rowNull  uint8 = 1
	rowTrue  uint8 = 3
)

// notOutcome returns NOT v: TRUE and FALSE swapped, NULL kept.
func notOutcome(v uint8) uint8 { return ^v>>1&1 | ^v<<1&2 }

// setLinearMax is the largest set searched linearly; larger sets are
// searched by binary search (numbers) or a map (strings).
const setLinearMax = 8

// Matcher filters batches by a bound predicate, row by row, in SQL's
// three-valued logic: a row matches only when the predicate is TRUE. It
// keeps scratch buffers between calls, so it is for one goroutine; make one
// per scan with Bound.NewMatcher.
type Matcher struct {
	b       *Bound
	scratch [][]uint8                   // one buffer per tree depth
	terms   map[*boundTerm]*termScratch // buffers of the term leaves
	bounds  ColumnBounds                // MatchBounded's, during the call
}

// ColumnBounds maps a decimal column's id to a bound on the magnitudes of
// the values its vector holds for the rows of one batch, null rows
// included: every |v| < 2^bound. A decoder knows one from the lengths of
// the varints it read (format.ByteReader.ReadVarint128s); with it,
// MatchBounded reads values below 2^63 by their low words without
// checking each that it fits. A bound that a value breaks gives wrong
// results: pass only bounds the values were decoded with.
type ColumnBounds map[int]int

// NewMatcher returns a Matcher for b.
func (b *Bound) NewMatcher() *Matcher { return &Matcher{b: b} }

// Match is NewMatcher().Match: convenient, but it allocates scratch space
// on every call.
func (b *Bound) Match(cols ColumnVectors, n int, dst []bool) ([]bool, error) {
	return b.NewMatcher().Match(cols, n, dst)
}

// Match evaluates the predicate on rows 0..n-1 of cols and returns dst
// (grown if needed) with dst[i] true iff row i matches. Every column the
// leaves read must be in cols with at least n rows and the vector type of
// its kind; decimal vectors must be at the column's scale.
func (m *Matcher) Match(cols ColumnVectors, n int, dst []bool) ([]bool, error) {
	return m.MatchBounded(cols, nil, n, dst)
}

// MatchBounded is Match with bounds on some decimal columns' values for
// the rows of this batch (see ColumnBounds); a column without one is
// checked as Match checks it.
func (m *Matcher) MatchBounded(cols ColumnVectors, bounds ColumnBounds, n int, dst []bool) ([]bool, error) {
	m.bounds = bounds
	out, err := m.eval3(cols, n)
	m.bounds = nil
	if err != nil {
		return dst[:0], err
	}
	if cap(dst) < n {
		dst = make([]bool, n)
	}
	dst = dst[:n]
	trueRows(dst, out[:n])
	return dst, nil
}

// MatchBits is MatchBounded with the matching rows given as a bitmap,
// row i in bit i%64 of dst[i/64] (the bits past n clear), which it
// returns (grown if needed) with the number of rows matching. A bitmap
// costs a bit a row where a []bool costs a byte, and its words count,
// list and move the rows 64 at a time.
func (m *Matcher) MatchBits(cols ColumnVectors, bounds ColumnBounds, n int, dst []uint64) ([]uint64, int, error) {
	m.bounds = bounds
	out, err := m.eval3(cols, n)
	m.bounds = nil
	if err != nil {
		return dst[:0], 0, err
	}
	words := (n + 63) / 64
	if cap(dst) < words {
		dst = make([]uint64, words)
	}
	dst = dst[:words]
	return dst, trueBits(dst, out[:n]), nil
}

// eval3 evaluates every row to rowFalse, rowNull or rowTrue, into a
// scratch buffer.
func (m *Matcher) eval3(cols ColumnVectors, n int) ([]uint8, error) {
	if n < 0 {
		return nil, fmt.Errorf("sarg: negative row count %d", n)
	}
	out := m.buf(0, n)
	if err := m.evalNode(m.b.root, cols, n, 0, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (m *Matcher) buf(depth, n int) []uint8 {
	for len(m.scratch) <= depth {
		m.scratch = append(m.scratch, nil)
	}
	if cap(m.scratch[depth]) < n {
		m.scratch[depth] = make([]uint8, n)
	}
	return m.scratch[depth][:n]
}

func fill(out []uint8, v uint8) {
	for i := range out {
		out[i] = v
	}
}

// notFoldOff makes NOT negate its leaf's outcomes in a pass of their own,
// so that tests can compare the leaves' own negation with it; it is never
// set outside tests.
var notFoldOff = false

// evalLeaf evaluates leaf node nd on rows 0..n-1 into out; with neg it
// may give NOT of the leaf instead, and reports whether it did.
func (m *Matcher) evalLeaf(nd bnode, cols ColumnVectors, n int, out []uint8, neg bool) (negated bool, err error) {
	l := m.b.leaves[nd.leaf]
	if l.term != nil {
		sc := m.terms[l.term]
		if sc == nil {
			if m.terms == nil {
				m.terms = map[*boundTerm]*termScratch{}
			}
			sc = l.term.scratch()
			m.terms[l.term] = sc
		}
		return l.term.match(cols, m.bounds, n, out, sc, neg)
	}
	v, ok := cols[l.colID]
	if !ok || v == nil {
		return false, fmt.Errorf("sarg: no vector for column %d (%s)", l.colID, canonicalColumn(l.orig.Column))
	}
	if l.col2 != nil {
		v2, ok := cols[l.col2ID]
		if !ok || v2 == nil {
			return false, fmt.Errorf("sarg: no vector for column %d (%s)", l.col2ID, canonicalColumn(l.orig.Other))
		}
		return false, l.matchCols(v, v2, n, out)
	}
	return l.match(v, m.fits(l.colID), neg, n, out)
}

func (m *Matcher) evalNode(nd bnode, cols ColumnVectors, n, depth int, out []uint8) error {
	switch nd.op {
	case OpTrue:
		fill(out, rowTrue)
	case OpFalse:
		fill(out, rowFalse)
	case OpNull:
		fill(out, rowNull)
	case OpLeaf:
		_, err := m.evalLeaf(nd, cols, n, out, false)
		return err
	case OpNot:
		if k := nd.kids[0]; k.op == OpLeaf && !notFoldOff {
			// A comparison negates itself where it can (x >= c for
			// NOT x < c), sparing a pass over the outcomes.
			done, err := m.evalLeaf(k, cols, n, out, true)
			if err != nil || done {
				return err
			}
		} else if err := m.evalNode(nd.kids[0], cols, n, depth, out); err != nil {
			return err
		}
		negate(out)
	case OpAnd, OpOr:
		if err := m.evalNode(nd.kids[0], cols, n, depth, out); err != nil {
			return err
		}
		tmp := m.buf(depth+1, n)
		for _, k := range nd.kids[1:] {
			if err := m.evalNode(k, cols, n, depth+1, tmp); err != nil {
				return err
			}
			if nd.op == OpAnd {
				kleeneAnd(out, tmp)
			} else {
				kleeneOr(out, tmp)
			}
		}
	default:
		return fmt.Errorf("sarg: bad node %d", nd.op)
	}
	return nil
}

// The outcomes fit in a byte's low two bits, so eight rows are turned at
// once in a 64-bit word, with no carry between bytes.
const (
	bytes1 = 0x0101010101010101
	bytes2 = 0x0202020202020202
)

// negate sets out[i] to NOT out[i] (notOutcome), eight rows a step.
func negate(out []uint8) {
	i := 0
	for ; i+8 <= len(out); i += 8 {
		o := at8(out, i)[:]
		x := ^binary.LittleEndian.Uint64(o)
		binary.LittleEndian.PutUint64(o, x>>1&bytes1|x<<1&bytes2)
	}
	for ; i < len(out); i++ {
		out[i] = notOutcome(out[i])
	}
}

// trueRows sets dst[i] to whether out[i] is rowTrue (its bit 1; rowNull
// and rowFalse have it clear), eight rows a step.
func trueRows(dst []bool, out []uint8) {
	if len(out) == 0 {
		return
	}
	d := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(out))
	i := 0
	for ; i+8 <= len(out); i += 8 {
		binary.LittleEndian.PutUint64(at8(d, i)[:], binary.LittleEndian.Uint64(at8(out, i)[:])>>1&bytes1)
	}
	for ; i < len(out); i++ {
		d[i] = out[i] >> 1 & 1
	}
}

// trueBits sets bit i%64 of dst[i/64] to whether out[i] is rowTrue (its
// bit 1), the bits past len(out) clear, and returns how many are set.
// Eight rows a step: their bits 1 gathered into a byte by one multiply
// (true8; row j of the step in bit j, the bytes read in a fixed order,
// so this holds on any machine), eight such bytes making a word.
func trueBits(dst []uint64, out []uint8) int {
	dst = dst[:(len(out)+63)/64]
	whole := len(out) / 64
	kept := 0
	for wi := range whole {
		o := (*[64]uint8)(out[wi*64:])
		w := true8(o[0:8]) | true8(o[8:16])<<8 | true8(o[16:24])<<16 | true8(o[24:32])<<24 |
			true8(o[32:40])<<32 | true8(o[40:48])<<40 | true8(o[48:56])<<48 | true8(o[56:64])<<56
		dst[wi] = w
		kept += bits.OnesCount64(w)
	}
	if whole < len(dst) {
		var w uint64
		for j, v := range out[whole*64:] {
			w |= uint64(v>>1&1) << j
		}
		dst[whole] = w
		kept += bits.OnesCount64(w)
	}
	return kept
}

// true8 returns the 8-bit mask of the TRUE outcomes among eight: their
// bits 1 (at 8j+1 in the word) gathered into the top byte by one
// multiply, whose bits at 7t+6 move row j's to bit 56+j and no two
// products to one place.
func true8(o []uint8) uint64 {
	return binary.LittleEndian.Uint64(o) & bytes2 * 0x0081020408102040 >> 56
}

// kleeneAnd sets out[i] to min(out[i], v[i]), Kleene's AND: the bitwise
// AND of the outcomes, eight rows a step.
func kleeneAnd(out, v []uint8) {
	v = v[:len(out)]
	i := 0
	for ; i+8 <= len(out); i += 8 {
		o := at8(out, i)[:]
		binary.LittleEndian.PutUint64(o, binary.LittleEndian.Uint64(o)&binary.LittleEndian.Uint64(at8(v, i)[:]))
	}
	for ; i < len(out); i++ {
		out[i] &= v[i]
	}
}

// kleeneOr sets out[i] to max(out[i], v[i]), Kleene's OR: the bitwise OR
// of the outcomes, eight rows a step.
func kleeneOr(out, v []uint8) {
	v = v[:len(out)]
	i := 0
	for ; i+8 <= len(out); i += 8 {
		o := at8(out, i)[:]
		binary.LittleEndian.PutUint64(o, binary.LittleEndian.Uint64(o)|binary.LittleEndian.Uint64(at8(v, i)[:]))
	}
	for ; i < len(out); i++ {
		out[i] |= v[i]
	}
}

// nullsOf returns v's null flags (empty when no row is null).
func nullsOf(v orc.Vector) []bool {
	if n := orc.NullsOf(v); n != nil {
		return n.Nulls
	}
	return nil
}

// t2 returns rowTrue or rowFalse, without a branch.
func t2(b bool) uint8 { return b2u8(b) * rowTrue }

// fits reports whether MatchBounded's bounds prove every value of decimal
// column col below 2^63 in magnitude.
func (m *Matcher) fits(col int) bool {
	b, ok := m.bounds[col]
	return ok && b <= narrowMax && !forceWide
}

// match evaluates the leaf on the first n rows of v into out; fits
// promises that v's values, if decimal, fit in an int64. With neg it may
// give NOT of the leaf (for < and <= on integers, and on decimals that
// fit: the comparisons' other sides, the null rows NULL either way), and
// reports whether it did.
func (l *boundLeaf) match(v orc.Vector, fits, neg bool, n int, out []uint8) (negated bool, err error) {
	if v.Len() < n {
		return false, fmt.Errorf("sarg: vector for column %d has %d rows, need %d", l.colID, v.Len(), n)
	}
	nulls := nullsOf(v)
	if len(nulls) > 0 && len(nulls) < n {
		return false, fmt.Errorf("sarg: null mask for column %d has %d rows, need %d", l.colID, len(nulls), n)
	}
	if l.op == LeafIsNull {
		if len(nulls) == 0 {
			fill(out, rowFalse)
			return false, nil
		}
		for i := range out {
			out[i] = t2(nulls[i])
		}
		return false, nil
	}
	neg = neg && (l.op == LeafLessThan || l.op == LeafLessThanEquals)
	if negated, err = l.matchValues(v, fits, neg, n, out); err != nil {
		return false, err
	}
	l.applyNulls(nulls, n, out)
	return negated, nil
}

// applyNulls sets the outcome of null rows (nulls empty: none is) and of
// rows that match no value of an IN list that holds NULL.
func (l *boundLeaf) applyNulls(nulls []bool, n int, out []uint8) {
	if len(nulls) > 0 {
		nullOut := rowNull
		if l.op == LeafNullSafeEquals {
			nullOut = rowFalse
		}
		for i, isNull := range nulls[:n] {
			if isNull {
				out[i] = nullOut
			}
		}
	}
	if l.op == LeafIn && l.nullInList {
		for i, v := range out {
			if v == rowFalse {
				out[i] = rowNull // x IN (.., NULL) is NULL when x matches none
			}
		}
	}
}

// matchNarrowDec evaluates a decimal leaf whose literals fit in int64
// (decInts) on values read as int64 (narrow terms), nulls as match does.
func (l *boundLeaf) matchNarrowDec(vals []int64, nulls []bool, n int, out []uint8) {
	if l.op == LeafIsNull {
		for i := range out[:n] {
			out[i] = t2(len(nulls) > 0 && nulls[i])
		}
		return
	}
	matchOrdered(l.op, l.decInts, l.sortedDecInts, vals[:n], out[:n])
	l.applyNulls(nulls, n, out)
}

// matchValues compares the values of rows 0..n-1 with the literals,
// whatever their nulls (fits, neg and negated as match's, neg only for
// < and <=).
func (l *boundLeaf) matchValues(v orc.Vector, fits, neg bool, n int, out []uint8) (negated bool, err error) {
	bad := func() error {
		return fmt.Errorf("sarg: column %d is %s but its vector is %T", l.colID, l.col.Kind, v)
	}
	switch l.dom {
	case domInt, domBool:
		x, ok := v.(*orc.LongVector)
		if !ok {
			return false, bad()
		}
		if neg {
			notLess(l.op, l.ints, x.Values[:n], out)
			return true, nil
		}
		matchOrdered(l.op, l.ints, l.sortedInts, x.Values[:n], out)
	case domFloat:
		x, ok := v.(*orc.DoubleVector)
		if !ok {
			return false, bad()
		}
		if l.nanLit {
			matchFloatTotal(l.op, l.floats, x.Values[:n], out)
		} else {
			matchOrdered(l.op, l.floats, l.sortedFloats, x.Values[:n], out)
		}
	case domBytes:
		x, ok := v.(*orc.BytesVector)
		if !ok {
			return false, bad()
		}
		if len(x.Offsets) < n+1 {
			return false, fmt.Errorf("sarg: bytes vector for column %d has %d offsets, need %d", l.colID, len(x.Offsets), n+1)
		}
		if err := l.matchBytes(x, n, out); err != nil {
			return false, err
		}
	case domDecimal:
		x, ok := v.(*orc.DecimalVector)
		if !ok {
			return false, bad()
		}
		if x.Scale != l.scale {
			return false, fmt.Errorf("sarg: decimal vector for column %d has scale %d, the column %d", l.colID, x.Scale, l.scale)
		}
		if neg && fits && l.decInts != nil && !forceWide {
			notLessLow(l.op, l.decInts, x.Values[:n], out)
			return true, nil
		}
		l.matchDecimal(x.Values[:n], fits, out)
	case domTime:
		x, ok := v.(*orc.TimestampVector)
		if !ok {
			return false, bad()
		}
		if len(x.Nanos) < n {
			return false, fmt.Errorf("sarg: timestamp vector for column %d has %d nanos, need %d", l.colID, len(x.Nanos), n)
		}
		l.matchTime(x.Seconds[:n], x.Nanos[:n], out)
	case domGeo:
		if err := l.matchGeo(v, n, out); err != nil {
			return false, err
		}
	default:
		return false, bad()
	}
	return false, nil
}

// matchOrdered evaluates a comparison on integers, or on floats with a
// literal that is not NaN. Go's operators give the order of cmpFloat there:
// a NaN value is neither equal to nor less than any number.
// Sets larger than setLinearMax are searched in sorted (vals without NaN,
// sorted).
func matchOrdered[T int64 | float64](op LeafOp, vals, sorted []T, xs []T, out []uint8) {
	out = out[:len(xs)]
	if ints, ok := any(xs).([]int64); ok && cmpConst(op, any(vals).([]int64), ints, out) {
		return
	}
	switch op {
	case LeafEquals:
		c := vals[0]
		for i, x := range xs {
			out[i] = t2(x == c)
		}
	case LeafLessThan:
		c := vals[0]
		for i, x := range xs {
			out[i] = t2(x < c)
		}
	case LeafLessThanEquals:
		c := vals[0]
		for i, x := range xs {
			out[i] = t2(x <= c)
		}
	case LeafBetween:
		lo, hi := vals[0], vals[1]
		for i, x := range xs {
			out[i] = t2(lo <= x && x <= hi)
		}
	case LeafIn, LeafNullSafeEquals:
		if len(vals) <= setLinearMax {
			for i, x := range xs {
				hit := false
				for _, c := range vals {
					hit = hit || x == c
				}
				out[i] = t2(hit)
			}
			return
		}
		for i, x := range xs {
			_, hit := slices.BinarySearch(sorted, x)
			out[i] = t2(hit) // sorted holds no NaN, and a NaN x compares unequal to every number
		}
	}
}

// matchFloatTotal evaluates a comparison with a NaN among the literals, in
// the total order of cmpFloat (NaN above every number and equal to
// itself). Such leaves are rare; this path compares value by value.
func matchFloatTotal(op LeafOp, vals []float64, xs []float64, out []uint8) {
	for i, x := range xs {
		var hit bool
		switch op {
		case LeafEquals:
			hit = cmpFloat(x, vals[0]) == 0
		case LeafLessThan:
			hit = cmpFloat(x, vals[0]) < 0
		case LeafLessThanEquals:
			hit = cmpFloat(x, vals[0]) <= 0
		case LeafBetween:
			hit = cmpFloat(x, vals[0]) >= 0 && cmpFloat(x, vals[1]) <= 0
		case LeafIn, LeafNullSafeEquals:
			for _, c := range vals {
				hit = hit || cmpFloat(x, c) == 0
			}
		}
		out[i] = t2(hit)
	}
}

func (l *boundLeaf) matchBytes(x *orc.BytesVector, n int, out []uint8) error {
	off, data := x.Offsets, x.Data
	for i := 0; i < n; i++ {
		if off[i] < 0 || off[i] > off[i+1] || off[i+1] > len(data) {
			return fmt.Errorf("sarg: bytes vector for column %d has bad offsets at row %d", l.colID, i)
		}
	}
	switch l.op {
	case LeafLike:
		p := l.like
		for i := 0; i < n; i++ {
			out[i] = t2(p.match(string(data[off[i]:off[i+1]])))
		}
	case LeafEquals:
		c := l.strs[0]
		for i := 0; i < n; i++ {
			out[i] = t2(string(data[off[i]:off[i+1]]) == c)
		}
	case LeafLessThan:
		c := l.strs[0]
		for i := 0; i < n; i++ {
			out[i] = t2(string(data[off[i]:off[i+1]]) < c)
		}
	case LeafLessThanEquals:
		c := l.strs[0]
		for i := 0; i < n; i++ {
			out[i] = t2(string(data[off[i]:off[i+1]]) <= c)
		}
	case LeafBetween:
		lo, hi := l.strs[0], l.strs[1]
		for i := 0; i < n; i++ {
			s := data[off[i]:off[i+1]]
			out[i] = t2(lo <= string(s) && string(s) <= hi)
		}
	case LeafIn, LeafNullSafeEquals:
		if len(l.strs) <= setLinearMax {
			for i := 0; i < n; i++ {
				s := data[off[i]:off[i+1]]
				hit := false
				for _, c := range l.strs {
					hit = hit || string(s) == c
				}
				out[i] = t2(hit)
			}
			return nil
		}
		for i := 0; i < n; i++ {
			_, hit := l.strSet[string(data[off[i]:off[i+1]])]
			out[i] = t2(hit)
		}
	}
	return nil
}

// matchDecimal compares decimal values with the literals: blocks whose
// values all fit in int64 as int64 (when the literals do), others in 128
// bits. With fits (the values are known to fit) the values are compared
// by their low words, unchecked (cmpConstLow, for =, <, <= and BETWEEN).
func (l *boundLeaf) matchDecimal(xs []orc.Int128, fits bool, out []uint8) {
	if l.decInts == nil || forceWide {
		l.matchDecimalWide(xs, out)
		return
	}
	if fits && cmpConstLow(l.op, l.decInts, xs, out) {
		return
	}
	if ok, done := matchDecLow(l.op, l.decInts, xs, out); done {
		if !ok {
			l.matchDecimalWide(xs, out)
		}
		return
	}
	var buf [256]int64
	for s := 0; s < len(xs); s += len(buf) {
		e := min(s+len(buf), len(xs))
		if decsFit(buf[:e-s], xs[s:e]) {
			matchOrdered(l.op, l.decInts, l.sortedDecInts, buf[:e-s], out[s:e])
		} else {
			l.matchDecimalWide(xs[s:e], out[s:e])
		}
	}
}

// matchDecLow compares decimals with literals that fit in int64 (lits)
// by their low 64 bits, for =, <, <= and BETWEEN (done false for the
// other operators), checking in the same pass that every value fits
// (ok false when one does not: out is then to be computed again).
func matchDecLow(op LeafOp, lits []int64, xs []orc.Int128, out []uint8) (ok, done bool) {
	out = out[:len(xs)]
	var bad int64
	switch op {
	case LeafEquals:
		c := lits[0]
		for i, x := range xs {
			lo := int64(x.Lo)
			bad |= x.Hi ^ (lo >> 63)
			out[i] = t2(lo == c)
		}
	case LeafLessThan:
		c := lits[0]
		for i, x := range xs {
			lo := int64(x.Lo)
			bad |= x.Hi ^ (lo >> 63)
			out[i] = t2(lo < c)
		}
	case LeafLessThanEquals:
		c := lits[0]
		for i, x := range xs {
			lo := int64(x.Lo)
			bad |= x.Hi ^ (lo >> 63)
			out[i] = t2(lo <= c)
		}
	case LeafBetween:
		a, b := lits[0], lits[1]
		for i, x := range xs {
			lo := int64(x.Lo)
			bad |= x.Hi ^ (lo >> 63)
			out[i] = (b2u8(a <= lo) & b2u8(lo <= b)) * rowTrue
		}
	default:
		return false, false
	}
	return bad == 0, true
}

func (l *boundLeaf) matchDecimalWide(xs []orc.Int128, out []uint8) {
	vals := l.decs
	out = out[:len(xs)]
	switch l.op {
	case LeafEquals:
		c := vals[0]
		for i, x := range xs {
			out[i] = eq128(x, c) * rowTrue
		}
	case LeafLessThan:
		c := vals[0]
		for i, x := range xs {
			out[i] = lt128(x, c) * rowTrue
		}
	case LeafLessThanEquals:
		c := vals[0]
		for i, x := range xs {
			out[i] = (1 - lt128(c, x)) * rowTrue
		}
	case LeafBetween:
		lo, hi := vals[0], vals[1]
		for i, x := range xs {
			out[i] = (1 - lt128(x, lo)) & (1 - lt128(hi, x)) * rowTrue
		}
	case LeafIn, LeafNullSafeEquals:
		for i, x := range xs {
			hit := false
			for _, c := range vals {
				hit = hit || x == c
			}
			out[i] = t2(hit)
		}
	}
}

// lt128 returns 1 when a < b, else 0, without a branch.
func lt128(a, b orc.Int128) uint8 {
	return b2u8(a.Hi < b.Hi) | b2u8(a.Hi == b.Hi)&b2u8(a.Lo < b.Lo)
}

// eq128 returns 1 when a == b, else 0, without a branch.
func eq128(a, b orc.Int128) uint8 { return b2u8(a.Hi == b.Hi) & b2u8(a.Lo == b.Lo) }

func (l *boundLeaf) matchTime(secs []int64, nanos []int32, out []uint8) {
	vals := l.tss
	switch l.op {
	case LeafEquals:
		c := vals[0]
		for i, s := range secs {
			out[i] = t2(s == c.sec && nanos[i] == c.nanos)
		}
	case LeafLessThan:
		c := vals[0]
		for i, s := range secs {
			out[i] = t2(s < c.sec || s == c.sec && nanos[i] < c.nanos)
		}
	case LeafLessThanEquals:
		c := vals[0]
		for i, s := range secs {
			out[i] = t2(s < c.sec || s == c.sec && nanos[i] <= c.nanos)
		}
	case LeafBetween:
		lo, hi := vals[0], vals[1]
		for i, s := range secs {
			v := tsVal{s, nanos[i]}
			out[i] = t2(cmpTS(v, lo) >= 0 && cmpTS(v, hi) <= 0)
		}
	case LeafIn, LeafNullSafeEquals:
		for i, s := range secs {
			hit := false
			for _, c := range vals {
				hit = hit || s == c.sec && nanos[i] == c.nanos
			}
			out[i] = t2(hit)
		}
	}
}
