package sarg

import (
	"math"
	"math/big"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// BloomFilter is the probe side of an ORC bloom filter (the
// bloomfilter package's *Filter satisfies it). A false answer means the
// value was never added; true means it may have been.
type BloomFilter interface {
	TestLong(v int64) bool
	TestDouble(v float64) bool
	TestBytes(b []byte) bool
}

// Source supplies the statistics of one unit (a file, a stripe or a row
// group) to Evaluate.
//
// Stats returns the statistics of a column id at the unit's level, or nil
// when there are none; the leaf then can't decide. Their Kind must be the
// kind of the column in the schema the predicate was bound to: a different
// kind (a file written with another type, schema evolution) also means
// "can't decide". For a nested field the struct columns above it are asked
// too, since a null struct makes its fields null without counting in the
// fields' statistics.
//
// Bloom returns the column's bloom filter for the unit, or nil. Only row
// groups have bloom filters, and the caller must hand out only filters it
// trusts (UTF-8 filters, legacy ones where bloomfilter.TrustLegacy allows,
// none from the writers known to be bad).
type Source interface {
	Stats(column int) *stats.Column
	Bloom(column int) BloomFilter
}

// MapSource is a Source backed by maps, for tests and simple callers.
type MapSource struct {
	Columns map[int]*stats.Column
	Blooms  map[int]BloomFilter
}

// Stats returns m.Columns[column].
func (m MapSource) Stats(column int) *stats.Column { return m.Columns[column] }

// Bloom returns m.Blooms[column].
func (m MapSource) Bloom(column int) BloomFilter {
	if bf, ok := m.Blooms[column]; ok {
		return bf
	}
	return nil
}

// Evaluate decides what the predicate can be on the unit whose statistics
// src gives. Skip the unit when the result is not IsNeeded.
func (b *Bound) Evaluate(src Source) TruthValue {
	return kleene(b.root, func(i int) TruthValue { return b.leaves[i].evaluate(src) })
}

// kleene computes the value of the tree n from its leaves' values,
// leaf(i) giving leaf i's, by Kleene's three-valued logic extended to
// the sets of TruthValue; AND stops at No and OR at Yes, which no
// further value changes.
func kleene(n bnode, leaf func(i int) TruthValue) TruthValue {
	switch n.op {
	case OpTrue:
		return Yes
	case OpFalse:
		return No
	case OpNull:
		return Null
	case OpLeaf:
		return leaf(n.leaf)
	case OpNot:
		return kleene(n.kids[0], leaf).Not()
	case OpAnd:
		v := Yes
		for _, k := range n.kids {
			if v = v.And(kleene(k, leaf)); v == No {
				return No
			}
		}
		return v
	case OpOr:
		v := No
		for _, k := range n.kids {
			if v = v.Or(kleene(k, leaf)); v == Yes {
				return Yes
			}
		}
		return v
	}
	return YesNoNull
}

// EvaluateLeaves evaluates every leaf against src, appending the values to
// dst[:0] in Leaves order.
func (b *Bound) EvaluateLeaves(src Source, dst []TruthValue) []TruthValue {
	dst = dst[:0]
	for _, l := range b.leaves {
		dst = append(dst, l.evaluate(src))
	}
	return dst
}

// Combine computes the predicate's value from its leaves' values (as
// EvaluateLeaves returns them); missing values count as YesNoNull.
func (b *Bound) Combine(leafValues []TruthValue) TruthValue {
	return kleene(b.root, func(i int) TruthValue {
		if i < len(leafValues) && leafValues[i] != 0 {
			return leafValues[i] & 7
		}
		return YesNoNull
	})
}

// evaluate decides one leaf against one unit's statistics, in the order
// of ORC's checklist (section 5.2).
func (l *boundLeaf) evaluate(src Source) TruthValue {
	if l.col2 != nil {
		return l.evaluateCols(src)
	}
	if l.term != nil {
		return l.term.evaluate(src)
	}
	st := src.Stats(l.colID)
	if st == nil || st.Kind != l.col.Kind {
		return YesNoNull
	}
	if !st.HasNullKnown && st.NumValues == 0 {
		// Old writers (Hive ACID minor compaction) wrote number_of_values 0
		// and nothing else: neither "no rows" nor "all null" can be trusted.
		return YesNoNull
	}
	hasNull := st.HasNull || !st.HasNullKnown
	if l.geo != nil && mayHoldBadWKB(st) {
		hasNull = true // a value that is not WKB is NULL
	}
	for _, a := range l.anc {
		as := src.Stats(a)
		if as == nil || as.HasNull || !as.HasNullKnown {
			hasNull = true // a null struct above makes this field null
			break
		}
	}
	if st.NumValues == 0 {
		if !hasNull {
			return No // ORC-1553: no rows at all
		}
		// ORC-623: every row is null.
		switch l.op {
		case LeafIsNull:
			return Yes
		case LeafNullSafeEquals:
			return No
		}
		return Null
	}
	if l.op == LeafIsNull {
		if hasNull {
			return YesNo
		}
		return No
	}

	t, f := l.rangeOutcome(st)
	if t && !l.nanLit && (l.op == LeafEquals || l.op == LeafNullSafeEquals || l.op == LeafIn) {
		if bf := src.Bloom(l.colID); bf != nil && !l.probe(bf) {
			// The filter holds none of the literals: no value matches,
			// and since the unit has values, FALSE is certain. A hit
			// changes nothing: the filter may only take TRUE away, never
			// bring back a FALSE that min/max ruled out (a unit whose
			// values all equal the literal stays YES, so x <> c stays NO).
			t, f = false, true
		}
	}
	var v TruthValue
	if t {
		v |= setTrue
	}
	if f {
		if l.op == LeafIn && l.nullInList {
			v |= setNull // x IN (.., NULL) is NULL, not FALSE, when x matches none
		} else {
			v |= setFalse
		}
	}
	if hasNull {
		if l.op == LeafNullSafeEquals {
			v |= setFalse
		} else {
			v |= setNull
		}
	}
	return v
}

// probe reports whether the bloom filter may hold one of the leaf's values.
func (l *boundLeaf) probe(bf BloomFilter) bool {
	switch l.dom {
	case domInt:
		for _, v := range l.ints {
			if bf.TestLong(v) {
				return true
			}
		}
		return false
	case domFloat:
		for _, v := range l.floats {
			if bf.TestDouble(v) || v == 0 && bf.TestDouble(-v) {
				return true // -0.0 and +0.0 hash differently: probe both
			}
		}
		return false
	case domBytes, domDecimal:
		for _, p := range l.probes {
			if bf.TestBytes(p) {
				return true
			}
		}
		return false
	case domTime:
		for _, v := range l.tss {
			if ms, ok := v.floorMillis(); !ok || bf.TestLong(ms) {
				return true
			}
		}
		return false
	}
	return true // booleans: Java writers add nothing to the filter
}

// rng is what statistics say about a unit's non-null values: all lie
// between lo and hi. A closed end is a value of the unit (a true minimum or
// maximum); an open end is a bound no value reaches (a truncated string);
// a missing end is unbounded. Any value between the ends may occur.
type rng[T any] struct {
	lo, hi         T
	hasLo, hasHi   bool
	loOpen, hiOpen bool
	cmp            func(a, b T) int
}

// existsLT reports whether some value may be < c, and so on.
func (r *rng[T]) existsLT(c T) bool { return !r.hasLo || r.cmp(r.lo, c) < 0 }
func (r *rng[T]) existsGT(c T) bool { return !r.hasHi || r.cmp(r.hi, c) > 0 }
func (r *rng[T]) existsLE(c T) bool {
	if !r.hasLo {
		return true
	}
	x := r.cmp(r.lo, c)
	return x < 0 || x == 0 && !r.loOpen
}
func (r *rng[T]) existsGE(c T) bool {
	if !r.hasHi {
		return true
	}
	x := r.cmp(r.hi, c)
	return x > 0 || x == 0 && !r.hiOpen
}
func (r *rng[T]) existsEQ(c T) bool { return r.existsLE(c) && r.existsGE(c) }

// single reports whether every value equals lo.
func (r *rng[T]) single() bool {
	return r.hasLo && r.hasHi && !r.loOpen && !r.hiOpen && r.cmp(r.lo, r.hi) == 0
}

// outcome returns whether the leaf may be TRUE (t) and may be FALSE (f) on
// some non-null value of the range.
func outcome[T any](r *rng[T], op LeafOp, vals []T) (t, f bool) {
	if r.hasLo && r.hasHi && r.cmp(r.lo, r.hi) > 0 {
		return true, true // inverted bounds: don't trust them
	}
	switch op {
	case LeafEquals, LeafNullSafeEquals, LeafIn:
		for _, c := range vals {
			if r.existsEQ(c) {
				t = true
			}
		}
		f = true
		if r.single() {
			f = true
			for _, c := range vals {
				if r.cmp(r.lo, c) == 0 {
					f = false
				}
			}
		}
		return t, f
	case LeafLessThan:
		return r.existsLT(vals[0]), r.existsGE(vals[0])
	case LeafLessThanEquals:
		return r.existsLE(vals[0]), r.existsGT(vals[0])
	case LeafBetween:
		lo, hi := vals[0], vals[1]
		t = r.cmp(lo, hi) <= 0 && r.existsLE(hi) && r.existsGE(lo)
		f = r.existsLT(lo) || r.existsGT(hi)
		return t, f
	}
	return true, true
}

func cmpOrdered[T int64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rangeOutcome evaluates the leaf against the min/max part of st.
func (l *boundLeaf) rangeOutcome(st *stats.Column) (t, f bool) {
	if l.geo != nil {
		return l.geoOutcome(st)
	}
	switch l.dom {
	case domInt:
		r := intRange(l.col.Kind, st)
		return outcome(&r, l.op, l.ints)
	case domBool:
		r := boolRange(st)
		return outcome(&r, l.op, l.ints)
	case domFloat:
		if l.nanLit {
			return true, true // NaN never prunes
		}
		r := floatRange(st)
		return outcome(&r, l.op, l.floats)
	case domBytes:
		r := stringRange(l.col.Kind, st)
		if l.op == LeafLike {
			return likeOutcome(&r, l.like)
		}
		return outcome(&r, l.op, l.strs)
	case domDecimal:
		r := decimalRange(st)
		// The literals, as decimals at the column's scale. Leaves hold at
		// most a few; larger IN lists pay one allocation here.
		var buf [4]stats.DecimalValue
		vals := buf[:0]
		for _, v := range l.decs {
			vals = append(vals, stats.DecimalValue{Unscaled: v, Scale: l.scale})
		}
		return outcome(&r, l.op, vals)
	case domTime:
		r := timeRange(st)
		return outcome(&r, l.op, l.tss)
	}
	return true, true
}

// The ranges statistics give for each domain; a range without ends is
// unbounded (statistics missing, or not trusted).

func intRange(kind orc.Kind, st *stats.Column) rng[int64] {
	r := rng[int64]{cmp: cmpOrdered[int64]}
	if kind == orc.Date {
		if d := st.Date; d != nil && d.HasMinMax {
			r.lo, r.hi, r.hasLo, r.hasHi = int64(d.Min), int64(d.Max), true, true
		}
	} else if i := st.Int; i != nil && i.HasMinMax {
		r.lo, r.hi, r.hasLo, r.hasHi = i.Min, i.Max, true, true
	}
	return r
}

func boolRange(st *stats.Column) rng[int64] {
	r := rng[int64]{cmp: cmpOrdered[int64]}
	if bs := st.Bool; bs != nil && bs.TrueCount <= st.NumValues {
		r.lo, r.hi, r.hasLo, r.hasHi = 1, 0, true, true
		if bs.TrueCount < st.NumValues {
			r.lo = 0 // some false
		}
		if bs.TrueCount > 0 {
			r.hi = 1 // some true
		}
	}
	return r
}

func floatRange(st *stats.Column) rng[float64] {
	r := rng[float64]{cmp: cmpOrdered[float64]}
	if d := st.Double; d != nil && d.HasMinMax && !math.IsNaN(d.Min) && !math.IsNaN(d.Max) &&
		!(d.HasSum && math.IsNaN(d.Sum)) {
		r.lo, r.hi, r.hasLo, r.hasHi = d.Min, d.Max, true, true
	}
	return r
}

func stringRange(kind orc.Kind, st *stats.Column) rng[string] {
	r := rng[string]{cmp: cmpOrdered[string]}
	if s := st.String; s != nil && kind != orc.Binary {
		r.lo, r.hasLo, r.loOpen = s.Min, s.HasMin, s.MinIsLowerBound
		r.hi, r.hasHi, r.hiOpen = s.Max, s.HasMax, s.MaxIsUpperBound
	}
	return r
}

func decimalRange(st *stats.Column) rng[stats.DecimalValue] {
	r := rng[stats.DecimalValue]{cmp: cmpDecimal}
	if d := st.Decimal; d != nil && d.HasMinMax && okScale(d.Min.Scale) && okScale(d.Max.Scale) {
		r.lo, r.hi, r.hasLo, r.hasHi = d.Min, d.Max, true, true
	}
	return r
}

func timeRange(st *stats.Column) rng[tsVal] {
	r := rng[tsVal]{cmp: cmpTS}
	if ts := st.Timestamp; ts != nil && ts.HasMinMax && okNanos(ts.MinNanos) && okNanos(ts.MaxNanos) {
		r.lo, r.hi = tsVal{ts.MinSec, ts.MinNanos}, tsVal{ts.MaxSec, ts.MaxNanos}
		r.hasLo, r.hasHi = true, true
	}
	return r
}

// cmpFloat is the order of float and double values in row-level
// evaluation: numeric order with -0.0 equal to +0.0, and NaN equal to
// itself and above every number (as in Hive and Spark, and as Java's
// Double.compare). It makes x >= c, written NOT (x < c), true for a NaN x.
func cmpFloat(a, b float64) int {
	switch an, bn := a != a, b != b; {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmpOrdered(a, b)
}

func okScale(s int) bool   { return s >= 0 && s <= 38 }
func okNanos(n int32) bool { return n >= 0 && n <= 999_999_999 }

// cmpDecimal compares two decimals by value, whatever their scales.
func cmpDecimal(a, b stats.DecimalValue) int {
	if a.Scale == b.Scale {
		return a.Unscaled.Cmp(b.Unscaled)
	}
	if a.Scale < b.Scale {
		if x, _, ok := orc.Rescale(a.Unscaled, a.Scale, b.Scale); ok {
			return x.Cmp(b.Unscaled)
		}
	} else if y, _, ok := orc.Rescale(b.Unscaled, b.Scale, a.Scale); ok {
		return a.Unscaled.Cmp(y)
	}
	// Rescaling overflowed 128 bits: compare exactly with big numbers.
	ra := new(big.Rat).SetFrac(a.Unscaled.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.Scale)), nil))
	rb := new(big.Rat).SetFrac(b.Unscaled.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(b.Scale)), nil))
	return ra.Cmp(rb)
}
