package sarg

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// setBloom is an exact "bloom filter": it holds exactly what was added.
// Doubles are keyed by bit pattern, so -0.0 and +0.0 differ as in ORC's
// filters.
type setBloom struct {
	longs   map[int64]bool
	doubles map[uint64]bool
	bytes   map[string]bool
}

func newSetBloom() *setBloom {
	return &setBloom{longs: map[int64]bool{}, doubles: map[uint64]bool{}, bytes: map[string]bool{}}
}
func (b *setBloom) TestLong(v int64) bool     { return b.longs[v] }
func (b *setBloom) TestDouble(v float64) bool { return b.doubles[math.Float64bits(v)] }
func (b *setBloom) TestBytes(v []byte) bool   { return b.bytes[string(v)] }

// allBloom says "maybe" to everything.
type allBloom struct{}

func (allBloom) TestLong(int64) bool     { return true }
func (allBloom) TestDouble(float64) bool { return true }
func (allBloom) TestBytes([]byte) bool   { return true }

func colStats(kind orc.Kind, n uint64, hasNull bool) *stats.Column {
	return &stats.Column{Kind: kind, NumValues: n, HasNull: hasNull, HasNullKnown: true}
}

// kindCase maps the abstract values 5 (before), 10 (min), 15 (middle),
// 20 (max), 25 (after) to one column kind's literals and statistics.
type kindCase struct {
	col   string
	kind  orc.Kind
	lit   func(v int64) Literal
	stats func(lo, hi int64, n uint64, hasNull bool) *stats.Column
}

var kindCases = []kindCase{
	{"i", orc.Int, Int, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Int, n, hn)
		c.Int = &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}
		return c
	}},
	{"by", orc.Byte, Int, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Byte, n, hn)
		c.Int = &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}
		return c
	}},
	{"v", orc.Varchar, func(v int64) Literal { return Bytes([]byte(fmt.Sprintf("k%03d", v))) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Varchar, n, hn)
		c.String = &stats.StringStats{Min: fmt.Sprintf("k%03d", lo), Max: fmt.Sprintf("k%03d", hi), HasMin: true, HasMax: true}
		return c
	}},
	{"dt", orc.Date, func(v int64) Literal { return Date(int32(v - 20)) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Date, n, hn)
		c.Date = &stats.DateStats{Min: int32(lo - 20), Max: int32(hi - 20), HasMinMax: true}
		return c
	}},
	{"f", orc.Double, func(v int64) Literal { return Float(float64(v) / 4) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Double, n, hn)
		c.Double = &stats.DoubleStats{Min: float64(lo) / 4, Max: float64(hi) / 4, HasMinMax: true, Sum: 1, HasSum: true}
		return c
	}},
	{"d", orc.Decimal, func(v int64) Literal { return Decimal(orc.Int128FromInt64(v*100+5), 2) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		// Statistics at other scales than the column's (Java trims zeros).
		c := colStats(orc.Decimal, n, hn)
		c.Decimal = &stats.DecimalStats{HasMinMax: true,
			Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(lo*10000 + 500), Scale: 4},
			Max: stats.DecimalValue{Unscaled: orc.Int128FromInt64(hi*10 + 0), Scale: 1}}
		if hi*100+5 != hi*10*10 {
			c.Decimal.Max = stats.DecimalValue{Unscaled: orc.Int128FromInt64(hi*1000 + 50), Scale: 3}
		}
		return c
	}},
	{"s", orc.String, func(v int64) Literal { return String(fmt.Sprintf("k%03d", v)) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.String, n, hn)
		c.String = &stats.StringStats{Min: fmt.Sprintf("k%03d", lo), Max: fmt.Sprintf("k%03d", hi), HasMin: true, HasMax: true}
		return c
	}},
	{"c", orc.Char, func(v int64) Literal { return String(fmt.Sprintf("k%03d", v)) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.Char, n, hn)
		c.String = &stats.StringStats{Min: fmt.Sprintf("k%03d ", lo), Max: fmt.Sprintf("k%03d ", hi), HasMin: true, HasMax: true}
		return c
	}},
	{"ts", orc.Timestamp, func(v int64) Literal { return Timestamp(v*1000-100_000, v*1000) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		// Negative seconds with nanos.
		c := colStats(orc.Timestamp, n, hn)
		c.Timestamp = &stats.TimestampStats{MinSec: lo*1000 - 100_000, MinNanos: int32(lo * 1000), MaxSec: hi*1000 - 100_000, MaxNanos: int32(hi * 1000), HasMinMax: true}
		return c
	}},
	{"tsi", orc.TimestampInstant, func(v int64) Literal { return Instant(1_700_000_000, v) }, func(lo, hi int64, n uint64, hn bool) *stats.Column {
		c := colStats(orc.TimestampInstant, n, hn)
		c.Timestamp = &stats.TimestampStats{MinSec: 1_700_000_000, MinNanos: int32(lo), MaxSec: 1_700_000_000, MaxNanos: int32(hi), HasMinMax: true}
		return c
	}},
}

func withNull(v TruthValue, hasNull bool) TruthValue {
	if hasNull {
		return v | setNull
	}
	return v
}

func evalOne(t *testing.T, e Expr, id int, st *stats.Column) TruthValue {
	t.Helper()
	b, err := Bind(e, testSchema)
	if err != nil {
		t.Fatalf("Bind(%s): %v", e, err)
	}
	return b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: st}})
}

// TestOperatorKindLocation checks every operator against every literal
// location, for every kind, with and without nulls, for a range and for a
// single value.
func TestOperatorKindLocation(t *testing.T) {
	const Y, N, YN = Yes, No, YesNo
	locs := []int64{5, 10, 15, 20, 25} // BEFORE, MIN, MIDDLE, MAX, AFTER of [10, 20]
	// Expected values on [10, 20] without nulls, per location.
	rangeWant := map[string][5]TruthValue{
		"=":   {N, YN, YN, YN, N},
		"<=>": {N, YN, YN, YN, N},
		"IN":  {N, YN, YN, YN, N},
		"<":   {N, N, YN, YN, Y},
		"<=":  {N, YN, YN, Y, Y},
	}
	// On [10, 10]: locations BEFORE, MIN(=MAX), AFTER.
	singleWant := map[string][3]TruthValue{
		"=": {N, Y, N}, "<=>": {N, Y, N}, "IN": {N, Y, N}, "<": {N, N, Y}, "<=": {N, Y, Y},
	}
	build := func(op, col string, lit Literal) Expr {
		switch op {
		case "=":
			return Eq(col, lit)
		case "<=>":
			return NullSafeEq(col, lit)
		case "IN":
			return In(col, lit)
		case "<":
			return Lt(col, lit)
		}
		return Le(col, lit)
	}
	nullVariant := func(op string, v TruthValue, hasNull bool) TruthValue {
		if !hasNull {
			return v
		}
		if op == "<=>" {
			return v | setFalse // a null row is FALSE for <=>
		}
		return v | setNull
	}
	for _, kc := range kindCases {
		id := colID(t, kc.col)
		lit := kc.lit
		for _, hasNull := range []bool{false, true} {
			st := kc.stats(10, 20, 100, hasNull)
			single := kc.stats(10, 10, 100, hasNull)
			for op, want := range rangeWant {
				for i, v := range locs {
					e := build(op, kc.col, lit(v))
					w := nullVariant(op, want[i], hasNull)
					if got := evalOne(t, e, id, st); got != w {
						t.Errorf("%s, stats [10,20] nulls=%v, literal at %d: %s, want %s", e, hasNull, v, got, w)
					}
					if got := evalOne(t, Not(e), id, st); got != w.Not() {
						t.Errorf("%s, stats [10,20] nulls=%v: %s, want %s", Not(e), hasNull, got, w.Not())
					}
				}
			}
			for op, want := range singleWant {
				for i, v := range []int64{5, 10, 25} {
					e := build(op, kc.col, lit(v))
					w := nullVariant(op, want[i], hasNull)
					if got := evalOne(t, e, id, single); got != w {
						t.Errorf("%s, stats [10,10] nulls=%v: %s, want %s", e, hasNull, got, w)
					}
				}
			}
			for _, bt := range []struct {
				lo, hi int64
				want   TruthValue
			}{
				{5, 25, Y}, {10, 20, Y}, {5, 10, YN}, {20, 25, YN}, {12, 18, YN}, {5, 8, N}, {21, 25, N}, {25, 5, N}, {15, 15, YN},
			} {
				e := Between(kc.col, lit(bt.lo), lit(bt.hi))
				w := withNull(bt.want, hasNull)
				if got := evalOne(t, e, id, st); got != w {
					t.Errorf("%s, stats [10,20] nulls=%v: %s, want %s", e, hasNull, got, w)
				}
			}
			// IN with several literals: one inside makes it possible.
			e := In(kc.col, lit(5), lit(25), lit(15))
			if got := evalOne(t, e, id, st); got != withNull(YN, hasNull) {
				t.Errorf("%s: %s", e, got)
			}
			e = In(kc.col, lit(5), lit(25))
			if got := evalOne(t, e, id, st); got != withNull(N, hasNull) {
				t.Errorf("%s: %s", e, got)
			}
			// IS NULL with values.
			want := N
			if hasNull {
				want = YN
			}
			if got := evalOne(t, IsNull(kc.col), id, st); got != want {
				t.Errorf("%s IS NULL, nulls=%v: %s, want %s", kc.col, hasNull, got, want)
			}
		}
	}
}

func TestBooleanTrueCounts(t *testing.T) {
	id := colID(t, "bo")
	mk := func(n, trues uint64) *stats.Column {
		c := colStats(orc.Boolean, n, false)
		c.Bool = &stats.BoolStats{TrueCount: trues}
		return c
	}
	for _, tc := range []struct {
		text     string
		n, trues uint64
		want     TruthValue
	}{
		{"bo = TRUE", 10, 10, Yes},
		{"bo = TRUE", 10, 0, No},
		{"bo = TRUE", 10, 3, YesNo},
		{"bo = FALSE", 10, 10, No},
		{"bo = FALSE", 10, 0, Yes},
		{"bo <> TRUE", 10, 10, No},
		{"bo < TRUE", 10, 10, No},
		{"bo < TRUE", 10, 4, YesNo},
		{"bo <= FALSE", 10, 0, Yes},
		{"bo = TRUE", 10, 11, YesNo}, // inconsistent counts: don't trust
	} {
		if got := evalOne(t, MustParse(tc.text), id, mk(tc.n, tc.trues)); got != tc.want {
			t.Errorf("%s with %d/%d true: %s, want %s", tc.text, tc.trues, tc.n, got, tc.want)
		}
	}
	// A bloom filter is never consulted for booleans (Java adds nothing).
	b := MustBind(MustParse("bo = TRUE"), testSchema)
	src := MapSource{Columns: map[int]*stats.Column{id: mk(10, 3)}, Blooms: map[int]BloomFilter{id: newSetBloom()}}
	if got := b.Evaluate(src); got != YesNo {
		t.Errorf("boolean with empty bloom: %s", got)
	}
}

// The early steps of the checklist, and the known bugs they fix.
func TestNullAndEmptySteps(t *testing.T) {
	id := colID(t, "i")
	ints := func(n uint64, hasNull bool) *stats.Column {
		c := colStats(orc.Int, n, hasNull)
		if n > 0 {
			c.Int = &stats.IntStats{Min: 1, Max: 9, HasMinMax: true}
		} else {
			c.Int = &stats.IntStats{}
		}
		return c
	}
	allNull, empty := ints(0, true), ints(0, false)
	for _, tc := range []struct {
		text             string
		allNull, empty   TruthValue // ORC-623, ORC-1553
		noStats, unknown TruthValue
	}{
		{"i = 5", Null, No, YesNoNull, YesNoNull},
		{"i <> 5", Null, Yes, YesNoNull, YesNoNull},
		{"i < 5", Null, No, YesNoNull, YesNoNull},
		{"i IN (1, NULL)", Null, No, YesNoNull, YesNoNull},
		{"i BETWEEN 1 AND 2", Null, No, YesNoNull, YesNoNull},
		{"i IS NULL", Yes, No, YesNoNull, YesNoNull},
		{"i IS NOT NULL", No, Yes, YesNoNull, YesNoNull},
		{"i <=> 5", No, No, YesNoNull, YesNoNull},
		{"i <=> NULL", Yes, No, YesNoNull, YesNoNull},
		{"NOT (i <=> 5)", Yes, Yes, YesNoNull, YesNoNull},
	} {
		b := MustBind(MustParse(tc.text), testSchema)
		if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: allNull}}); got != tc.allNull {
			t.Errorf("%s, all null: %s, want %s", tc.text, got, tc.allNull)
		}
		if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: empty}}); got != tc.empty {
			t.Errorf("%s, no values: %s, want %s", tc.text, got, tc.empty)
		}
		if got := b.Evaluate(MapSource{}); got != tc.noStats {
			t.Errorf("%s, no statistics: %s, want %s", tc.text, got, tc.noStats)
		}
		// Trino #4622: number_of_values 0 without has_null is not "empty".
		unk := ints(0, false)
		unk.HasNullKnown = false
		if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: unk}}); got != tc.unknown {
			t.Errorf("%s, has_null unknown: %s, want %s", tc.text, got, tc.unknown)
		}
	}
	// has_null unknown with values: nulls may be there.
	c := ints(5, false)
	c.HasNullKnown = false
	if got := evalOne(t, MustParse("i = 100"), id, c); got != NoNull {
		t.Errorf("has_null unknown: %s, want NO_NULL", got)
	}
	// Statistics of another kind (schema evolution): can't decide.
	other := colStats(orc.String, 5, false)
	other.String = &stats.StringStats{Min: "a", Max: "b", HasMin: true, HasMax: true}
	if got := evalOne(t, MustParse("i = 100"), id, other); got != YesNoNull {
		t.Errorf("kind mismatch: %s", got)
	}
	// Issue #1061: the typed part missing means unknown bounds, not empty.
	bare := colStats(orc.Int, 5, false)
	if got := evalOne(t, MustParse("i = 100"), id, bare); got != YesNo {
		t.Errorf("no typed statistics: %s", got)
	}
	// Inverted bounds are not trusted.
	inv := ints(5, false)
	inv.Int.Min, inv.Int.Max = 9, 1
	if got := evalOne(t, MustParse("i = 100"), id, inv); got != YesNo {
		t.Errorf("inverted bounds: %s", got)
	}
}

func TestFloatRules(t *testing.T) {
	id := colID(t, "f")
	dbl := func(lo, hi float64, ok bool, sum float64) *stats.Column {
		c := colStats(orc.Double, 10, false)
		c.Double = &stats.DoubleStats{Min: lo, Max: hi, HasMinMax: ok, Sum: sum, HasSum: true}
		return c
	}
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		text string
		st   *stats.Column
		want TruthValue
	}{
		// A NaN literal never prunes, even where the range would.
		{"f = DOUBLE 'NaN'", dbl(1, 2, true, 3), YesNo},
		{"f < DOUBLE 'NaN'", dbl(1, 2, true, 3), YesNo},
		{"f IN (5, DOUBLE 'NaN')", dbl(1, 2, true, 3), YesNo},
		// NaN among the values: no min/max, or a NaN sum: can't use bounds.
		{"f = 5", dbl(0, 0, false, math.NaN()), YesNo},
		{"f = 5", dbl(1, 2, true, math.NaN()), YesNo},
		{"f = 5", dbl(math.NaN(), 2, true, 3), YesNo},
		{"f = 5", dbl(1, 2, true, 3), No},
		// -0.0 equals +0.0.
		{"f = 0e+00", dbl(negZero, negZero, true, 0), Yes},
		{"f = -0e+00", dbl(0, 0, true, 0), Yes},
		{"f < -0e+00", dbl(0, 5, true, 0), No},
		{"f <= -0e+00", dbl(0, 5, true, 0), YesNo},
		{"f > 0e+00", dbl(negZero, 0, true, 0), No},
		// Infinities are ordinary values.
		{"f < DOUBLE 'Infinity'", dbl(1, 2, true, 3), Yes},
		{"f = DOUBLE '-Infinity'", dbl(1, 2, true, 3), No},
		// Integer and decimal literals on a double column.
		{"f = 1", dbl(1, 1, true, 1), Yes},
		{"f = 1.5", dbl(1, 2, true, 3), YesNo},
		{"f > 2.0", dbl(1, 2, true, 3), No},
	} {
		if got := evalOne(t, MustParse(tc.text), id, tc.st); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Bloom filter: a zero literal probes both zeros.
	b := MustBind(MustParse("f = 0e+00"), testSchema)
	bf := newSetBloom()
	bf.doubles[math.Float64bits(negZero)] = true
	src := MapSource{Columns: map[int]*stats.Column{id: dbl(-1, 1, true, 0)}, Blooms: map[int]BloomFilter{id: bf}}
	if got := b.Evaluate(src); got != YesNo {
		t.Errorf("+0.0 literal with a filter holding -0.0: %s, want YES_NO", got)
	}
	src.Blooms[id] = newSetBloom()
	if got := b.Evaluate(src); got != No {
		t.Errorf("zero literal with an empty filter: %s, want NO", got)
	}
	// Float (32-bit) columns compare the widened values.
	fid := colID(t, "fl")
	fc := colStats(orc.Float, 1, false)
	w := float64(float32(0.1))
	fc.Double = &stats.DoubleStats{Min: w, Max: w, HasMinMax: true, Sum: w, HasSum: true}
	if got := evalOne(t, MustParse("fl = 0.1"), fid, fc); got != No {
		t.Errorf("float column: 0.1 (double) vs float32(0.1): %s, want NO", got)
	}
	if got := evalOne(t, Eq("fl", Float(w)), fid, fc); got != Yes {
		t.Errorf("float column, widened literal: %s, want YES", got)
	}
}

// ORC-203: truncated string bounds are exclusive.
func TestTruncatedStringBounds(t *testing.T) {
	id := colID(t, "s")
	mk := func(lowerBound, upperBound bool) *stats.Column {
		c := colStats(orc.String, 10, false)
		c.String = &stats.StringStats{Min: "abc", Max: "abd", HasMin: true, HasMax: true, MinIsLowerBound: lowerBound, MaxIsUpperBound: upperBound}
		return c
	}
	both := mk(true, true)
	for _, tc := range []struct {
		text string
		want TruthValue
	}{
		{"s = 'abc'", No}, {"s = 'abd'", No}, {"s = 'abcz'", YesNo},
		{"s < 'abc'", No}, {"s <= 'abc'", No}, {"s < 'abd'", Yes}, {"s <= 'abd'", Yes},
		{"s > 'abc'", Yes}, {"s >= 'abd'", No}, {"s >= 'abc'", Yes}, {"s > 'abcq'", YesNo},
		{"s BETWEEN 'abc' AND 'abd'", Yes}, {"s IN ('abc', 'abd')", No}, {"s <=> 'abc'", No},
		{"s BETWEEN 'a' AND 'abc'", No}, {"s BETWEEN 'abd' AND 'b'", No},
	} {
		if got := evalOne(t, MustParse(tc.text), id, both); got != tc.want {
			t.Errorf("%s with bounds (abc, abd): %s, want %s", tc.text, got, tc.want)
		}
	}
	// The same literals against exact min/max.
	exact := mk(false, false)
	for _, tc := range []struct {
		text string
		want TruthValue
	}{
		{"s = 'abc'", YesNo}, {"s = 'abd'", YesNo}, {"s < 'abc'", No}, {"s <= 'abd'", Yes}, {"s >= 'abd'", YesNo},
	} {
		if got := evalOne(t, MustParse(tc.text), id, exact); got != tc.want {
			t.Errorf("%s with [abc, abd]: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Only one side known.
	half := colStats(orc.String, 10, false)
	half.String = &stats.StringStats{Min: "m", HasMin: true}
	if got := evalOne(t, MustParse("s < 'b'"), id, half); got != No {
		t.Errorf("min only, s < 'b': %s", got)
	}
	if got := evalOne(t, MustParse("s > 'z'"), id, half); got != YesNo {
		t.Errorf("min only, s > 'z': %s", got)
	}
	// Binary columns have no min/max.
	bid := colID(t, "b")
	bs := colStats(orc.Binary, 10, false)
	bs.Binary = &stats.BinaryStats{Sum: 5, HasSum: true}
	if got := evalOne(t, MustParse("b = X'00'"), bid, bs); got != YesNo {
		t.Errorf("binary: %s", got)
	}
}

// Trino #30187: char literals must be padded before comparing and probing.
func TestCharPadding(t *testing.T) {
	id := colID(t, "c")
	c := colStats(orc.Char, 10, false)
	c.String = &stats.StringStats{Min: "ab   ", Max: "ab   ", HasMin: true, HasMax: true}
	if got := evalOne(t, MustParse("c = 'ab'"), id, c); got != Yes {
		t.Errorf("c = 'ab' on char(5) 'ab   ': %s, want YES", got)
	}
	if got := evalOne(t, MustParse("c < 'ab'"), id, c); got != No {
		t.Errorf("c < 'ab': %s", got)
	}
	b := MustBind(MustParse("c IN ('ab', 'zz')"), testSchema)
	bf := newSetBloom()
	bf.bytes["ab   "] = true
	c.String = &stats.StringStats{Min: "aa   ", Max: "zz   ", HasMin: true, HasMax: true}
	if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: c}, Blooms: map[int]BloomFilter{id: bf}}); got != YesNo {
		t.Errorf("padded bloom probe: %s, want YES_NO", got)
	}
}

// Decimals compare numerically whatever the scales.
func TestDecimalScales(t *testing.T) {
	id := colID(t, "d")
	mk := func(lo orc.Int128, loScale int, hi orc.Int128, hiScale int) *stats.Column {
		c := colStats(orc.Decimal, 10, false)
		c.Decimal = &stats.DecimalStats{HasMinMax: true, Min: stats.DecimalValue{Unscaled: lo, Scale: loScale}, Max: stats.DecimalValue{Unscaled: hi, Scale: hiScale}}
		return c
	}
	i := orc.Int128FromInt64
	st := mk(i(125), 1, i(2000), 2) // [12.5, 20.00]
	for _, tc := range []struct {
		text string
		want TruthValue
	}{
		{"d = 12.50", YesNo}, {"d = 12.5", YesNo}, {"d < 12.5", No}, {"d < 12.51", YesNo},
		{"d = 12.49", No}, {"d <= 20", Yes}, {"d > 20.00", No}, {"d = 20.001", No}, {"d < 20.001", Yes},
		{"d BETWEEN 12.5 AND 20", Yes},
	} {
		if got := evalOne(t, MustParse(tc.text), id, st); got != tc.want {
			t.Errorf("%s on [12.5, 20.00]: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Scales far apart: rescaling overflows 128 bits, the big-number path
	// decides.
	bid := colID(t, "big")
	hugeScaled, _ := orc.Int128FromBig(orc.Pow10(37).Big())
	bigSt := colStats(orc.Decimal, 10, false)
	bigSt.Decimal = &stats.DecimalStats{HasMinMax: true,
		Min: stats.DecimalValue{Unscaled: i(1), Scale: 38},      // 1e-38
		Max: stats.DecimalValue{Unscaled: hugeScaled, Scale: 0}} // 1e37
	for _, tc := range []struct {
		text string
		want TruthValue
	}{
		{"big = 0", No}, {"big < 1", YesNo}, {"big > DECIMAL '10000000000000000000000000000000000000'", No},
		{"big = DECIMAL '10000000000000000000000000000000000000'", YesNo},
	} {
		if got := evalOne(t, MustParse(tc.text), bid, bigSt); got != tc.want {
			t.Errorf("%s on [1e-38, 1e37]: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Bloom probe uses the canonical string.
	b := MustBind(MustParse("d = 12.50"), testSchema)
	bf := newSetBloom()
	bf.bytes["12.5"] = true
	if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: st}, Blooms: map[int]BloomFilter{id: bf}}); got != YesNo {
		t.Errorf("decimal bloom probe '12.5': %s", got)
	}
	// Statistics with a scale out of range are not used.
	bad := mk(i(1), 99, i(2), 2)
	if got := evalOne(t, MustParse("d = 100"), id, bad); got != YesNo {
		t.Errorf("bad scale: %s", got)
	}
}

// Timestamps before 1970 with a fraction: (seconds, nanos) pairs with
// floored seconds, never (0, negative nanos).
func TestNegativeTimestamps(t *testing.T) {
	id := colID(t, "ts")
	mk := func(minS int64, minN int32, maxS int64, maxN int32) *stats.Column {
		c := colStats(orc.Timestamp, 10, false)
		c.Timestamp = &stats.TimestampStats{MinSec: minS, MinNanos: minN, MaxSec: maxS, MaxNanos: maxN, HasMinMax: true}
		return c
	}
	half := mk(-1, 500_000_000, -1, 500_000_000) // 1969-12-31 23:59:59.5 only
	for _, tc := range []struct {
		text string
		want TruthValue
	}{
		{"ts = TIMESTAMP '1969-12-31 23:59:59.5'", Yes},
		{"ts < TIMESTAMP '1969-12-31 23:59:59.5'", No},
		{"ts < TIMESTAMP '1969-12-31 23:59:59.500000001'", Yes},
		{"ts > TIMESTAMP '1969-12-31 23:59:59.4'", Yes},
		{"ts < TIMESTAMP '1970-01-01 00:00:00'", Yes},
		{"ts = TIMESTAMP '1969-12-31 23:59:59'", No},
	} {
		if got := evalOne(t, MustParse(tc.text), id, half); got != tc.want {
			t.Errorf("%s on {-0.5 s}: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Bloom probes floor millis: -0.5 s is -500 ms; -1 ns is -1 ms.
	if ms, _ := (tsVal{-1, 500_000_000}).floorMillis(); ms != -500 {
		t.Errorf("floorMillis(-0.5 s) = %d", ms)
	}
	if ms, _ := (tsVal{-1, 999_999_999}).floorMillis(); ms != -1 {
		t.Errorf("floorMillis(-1 ns) = %d", ms)
	}
	if _, ok := (tsVal{math.MaxInt64 / 100, 0}).floorMillis(); ok {
		t.Errorf("floorMillis overflow not reported")
	}
	b := MustBind(MustParse("ts = TIMESTAMP '1969-12-31 23:59:59.5'"), testSchema)
	bf := newSetBloom()
	bf.longs[-500] = true
	src := MapSource{Columns: map[int]*stats.Column{id: mk(-100, 0, 100, 0)}, Blooms: map[int]BloomFilter{id: bf}}
	if got := b.Evaluate(src); got != YesNo {
		t.Errorf("bloom hit on -500 ms: %s", got)
	}
	bf.longs = map[int64]bool{0: true} // what truncating division would probe
	if got := b.Evaluate(src); got != No {
		t.Errorf("bloom without -500 ms: %s", got)
	}
	// Date literals on a timestamp column are midnight.
	if got := evalOne(t, MustParse("ts >= DATE '1970-01-01'"), id, half); got != No {
		t.Errorf("date literal: %s", got)
	}
	// Bad nanos in statistics: not used.
	if got := evalOne(t, MustParse("ts = TIMESTAMP '2000-01-01 00:00:00'"), id, mk(0, -5, 1, 0)); got != YesNo {
		t.Errorf("bad nanos: %s", got)
	}
}

// Nested fields: a null struct makes its fields null without the fields'
// statistics counting it.
func TestNestedNulls(t *testing.T) {
	stID, aID, innerID, xID := 15, 16, 17, 18
	strct := func(n uint64, hasNull bool) *stats.Column { return colStats(orc.Struct, n, hasNull) }
	ints := func(n uint64, hasNull bool) *stats.Column {
		c := colStats(orc.Int, n, hasNull)
		c.Int = &stats.IntStats{Min: 1, Max: 2, HasMinMax: n > 0}
		return c
	}
	for _, tc := range []struct {
		text   string
		parent *stats.Column
		child  *stats.Column
		want   TruthValue
	}{
		{"st.a IS NULL", strct(10, false), ints(10, false), No},
		{"st.a IS NULL", strct(8, true), ints(8, false), YesNo},
		{"st.a IS NULL", nil, ints(8, false), YesNo},
		{"st.a <=> NULL", strct(8, true), ints(8, false), YesNo},
		{"st.a = 1", strct(8, true), ints(8, false), YesNoNull},
		{"st.a = 5", strct(8, true), ints(8, false), NoNull},
		// Every struct null: the field has no values and no nulls of its own.
		{"st.a IS NULL", strct(0, true), ints(0, false), Yes},
		{"st.a IS NOT NULL", strct(0, true), ints(0, false), No},
		{"st.a = 1", strct(0, true), ints(0, false), Null},
		{"st.a <=> 1", strct(0, true), ints(0, false), No},
	} {
		src := MapSource{Columns: map[int]*stats.Column{aID: tc.child}}
		if tc.parent != nil {
			src.Columns[stID] = tc.parent
		}
		b := MustBind(MustParse(tc.text), testSchema)
		if got := b.Evaluate(src); got != tc.want {
			t.Errorf("%s (parent %+v): %s, want %s", tc.text, tc.parent, got, tc.want)
		}
	}
	// Two levels: st.inner.x looks at st and st.inner.
	b := MustBind(MustParse("st.inner.x IS NULL"), testSchema)
	x := colStats(orc.String, 5, false)
	src := MapSource{Columns: map[int]*stats.Column{stID: strct(5, false), innerID: strct(5, true), xID: x}}
	if got := b.Evaluate(src); got != YesNo {
		t.Errorf("grandchild with null parent: %s", got)
	}
	src.Columns[innerID] = strct(5, false)
	if got := b.Evaluate(src); got != No {
		t.Errorf("grandchild, no nulls above: %s", got)
	}
	// IS NULL on a struct column itself.
	b = MustBind(MustParse("st IS NOT NULL"), testSchema)
	if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{stID: strct(0, true)}}); got != No {
		t.Errorf("struct all null: %s", got)
	}
}

func TestBloomFilterRules(t *testing.T) {
	id := colID(t, "i")
	rng := func(lo, hi int64, hasNull bool) *stats.Column {
		c := colStats(orc.Int, 10, hasNull)
		c.Int = &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}
		return c
	}
	has := func(vs ...int64) BloomFilter {
		b := newSetBloom()
		for _, v := range vs {
			b.longs[v] = true
		}
		return b
	}
	for _, tc := range []struct {
		text string
		st   *stats.Column
		bf   BloomFilter
		want TruthValue
	}{
		{"i = 5", rng(1, 9, false), has(4), No},
		{"i = 5", rng(1, 9, true), has(4), NoNull},
		{"i = 5", rng(1, 9, true), has(5), YesNoNull},
		{"i = 5", rng(5, 5, false), has(5), Yes}, // a hit keeps min/max's answer: every value is 5
		{"i <> 5", rng(5, 5, false), has(5), No}, // and so x <> 5 stays NO
		{"i <> 5", rng(1, 9, false), has(4), Yes},
		{"i <=> 5", rng(1, 9, true), has(4), No}, // null-safe: no NULL outcome
		{"i <=> 5", rng(1, 9, true), has(5), YesNo},
		{"i IN (5, 6)", rng(1, 9, false), has(6), YesNo},
		{"i IN (5, 6)", rng(1, 9, false), has(7), No},
		{"i IN (5, NULL)", rng(1, 9, false), has(7), Null},
		{"i IN (5, NULL)", rng(1, 9, false), has(5), YesNull},
		{"i < 5", rng(1, 9, false), has(), YesNo},    // never probed for ranges
		{"i = 50", rng(1, 9, false), allBloom{}, No}, // min/max said NO: no probe
		{"i BETWEEN 5 AND 5", rng(1, 9, false), has(), YesNo},
		{"i = 5.5", rng(1, 9, false), allBloom{}, No}, // rewritten to IN (): nothing to probe
	} {
		b := MustBind(MustParse(tc.text), testSchema)
		src := MapSource{Columns: map[int]*stats.Column{id: tc.st}, Blooms: map[int]BloomFilter{id: tc.bf}}
		if got := b.Evaluate(src); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.text, got, tc.want)
		}
	}
	// Strings and dates probe their bytes and day numbers.
	sid, did := colID(t, "s"), colID(t, "dt")
	s := colStats(orc.String, 10, false)
	s.String = &stats.StringStats{Min: "a", Max: "z", HasMin: true, HasMax: true}
	d := colStats(orc.Date, 10, false)
	d.Date = &stats.DateStats{Min: 0, Max: 100, HasMinMax: true}
	bs, bd := newSetBloom(), newSetBloom()
	bs.bytes["m"] = true
	bd.longs[31] = true
	src := MapSource{Columns: map[int]*stats.Column{sid: s, did: d}, Blooms: map[int]BloomFilter{sid: bs, did: bd}}
	for text, want := range map[string]TruthValue{
		"s = 'm'": YesNo, "s = 'n'": No, "dt = DATE '1970-02-01'": YesNo, "dt = DATE '1970-02-02'": No,
	} {
		if got := MustBind(MustParse(text), testSchema).Evaluate(src); got != want {
			t.Errorf("%s: %s, want %s", text, got, want)
		}
	}
}

// The lesson of Hudi PR 12575, and the example from its description: with
// only some columns indexed, a AND b prunes on the indexed side, a OR b
// only when both sides are indexed.
func TestPartialIndexHudiExample(t *testing.T) {
	b := MustBind(MustParse("c1 = '619sdc' OR c2 = 100 AND c3 = 200"), testSchema)
	c1, c2, c3 := colID(t, "c1"), colID(t, "c2"), colID(t, "c3")
	// A unit whose statistics exclude every literal.
	s1 := colStats(orc.String, 100, false)
	s1.String = &stats.StringStats{Min: "a", Max: "b", HasMin: true, HasMax: true}
	i2 := colStats(orc.Int, 100, false)
	i2.Int = &stats.IntStats{Min: 0, Max: 10, HasMinMax: true}
	i3 := colStats(orc.Int, 100, false)
	i3.Int = &stats.IntStats{Min: 0, Max: 10, HasMinMax: true}
	all := map[int]*stats.Column{c1: s1, c2: i2, c3: i3}
	for _, tc := range []struct {
		indexed   []int
		effective string
		kept      bool
	}{
		{nil, "TRUE", true},
		{[]int{c1}, "TRUE", true},
		{[]int{c2}, "TRUE", true},
		{[]int{c3}, "TRUE", true},
		{[]int{c1, c2}, "c1 = '619sdc' OR c2 = 100", false},
		{[]int{c1, c3}, "c1 = '619sdc' OR c3 = 200", false},
		{[]int{c2, c3}, "TRUE", true},
		{[]int{c1, c2, c3}, "c1 = '619sdc' OR c2 = 100 AND c3 = 200", false},
	} {
		isIndexed := func(id int) bool {
			for _, x := range tc.indexed {
				if x == id {
					return true
				}
			}
			return false
		}
		if got := b.Effective(isIndexed); got != tc.effective {
			t.Errorf("indexed %v: effective %q, want %q", tc.indexed, got, tc.effective)
		}
		src := MapSource{Columns: map[int]*stats.Column{}}
		for _, id := range tc.indexed {
			src.Columns[id] = all[id]
		}
		v := b.Evaluate(src)
		if v.IsNeeded() != tc.kept {
			t.Errorf("indexed %v: %s, kept=%v, want kept=%v", tc.indexed, v, v.IsNeeded(), tc.kept)
		}
		// Explain tells the same story.
		ex := b.Explain(src)
		if !strings.Contains(ex, "effective: "+tc.effective+"\n") {
			t.Errorf("Explain with %v:\n%s", tc.indexed, ex)
		}
	}
	// NOT of unknown stays unknown.
	nb := MustBind(MustParse("NOT (c1 = 'x' AND c2 = 1)"), testSchema)
	if got := nb.Evaluate(MapSource{}); got != YesNoNull {
		t.Errorf("NOT (unknown AND unknown): %s", got)
	}
	if got := nb.Evaluate(MapSource{Columns: map[int]*stats.Column{c2: i2}}); got != YesNoNull {
		t.Errorf("NOT (unknown AND c2 = 1) with c2 in [0, 10]: %s", got)
	}
	if got := nb.Evaluate(MapSource{Columns: map[int]*stats.Column{c1: s1}}); got != Yes {
		t.Errorf("NOT (c1 = 'x' AND unknown) with c1 excluding 'x': %s", got) // c1 <> 'x' holds everywhere
	}
	if got := nb.Effective(func(id int) bool { return id == c1 }); got != "TRUE" {
		t.Errorf("effective of NOT: %s", got)
	}
	if got := nb.Effective(func(id int) bool { return id == c2 }); got != "TRUE" {
		t.Errorf("effective of NOT: %s", got)
	}
	if got := nb.Effective(func(int) bool { return true }); got != "c1 <> 'x' OR c2 <> 1" {
		t.Errorf("effective of NOT, all indexed: %s", got)
	}
	ab := MustBind(MustParse("c1 = 'x' AND c2 = 1"), testSchema)
	if got := ab.Evaluate(MapSource{Columns: map[int]*stats.Column{c2: i2}}); got != YesNoNull {
		t.Errorf("a AND b, b indexed, b possible: %s", got)
	}
	if got := ab.Evaluate(MapSource{Columns: map[int]*stats.Column{c1: s1}}); got != No {
		t.Errorf("a AND b, a indexed and excluded: %s", got)
	}
}

func TestExplain(t *testing.T) {
	b := MustBind(MustParse("c1 = '619sdc' OR c2 = 100 AND c3 = 200"), testSchema)
	i3 := colStats(orc.Int, 100, false)
	i3.Int = &stats.IntStats{Min: 0, Max: 10, HasMinMax: true}
	s1 := colStats(orc.String, 100, false)
	s1.String = &stats.StringStats{Min: "0", Max: "9", HasMin: true, HasMax: true}
	got := b.Explain(MapSource{Columns: map[int]*stats.Column{colID(t, "c1"): s1, colID(t, "c3"): i3}})
	want := "leaf 0: c1 = '619sdc' -> YES_NO\nleaf 1: c2 = 100 -> YES_NO_NULL\nleaf 2: c3 = 200 -> NO\n" +
		"effective: c1 = '619sdc' OR c3 = 200\nresult: YES_NO (read)\n"
	if got != want {
		t.Errorf("Explain:\n%s\nwant\n%s", got, want)
	}
	vals := b.EvaluateLeaves(MapSource{}, nil)
	vals[0], vals[1], vals[2] = No, Yes, No
	if b.Combine(vals) != No || b.Combine(nil) != YesNoNull {
		t.Errorf("Combine")
	}
}

// The lesson of IMPALA-7568 / IMPALA-7559: on a wall-clock column, wall
// clocks compare with wall clocks, so values inside a DST gap or overlap
// of any zone prune exactly as they match, with or without a zone on the
// literal.
func TestWallClockAcrossDST(t *testing.T) {
	id := colID(t, "ts")
	wall := func(s string) tsVal {
		l, err := parseTimestamp(s)
		if err != nil {
			t.Fatal(err)
		}
		return tsVal{l.i, l.nanos}
	}
	mk := func(lo, hi string) *stats.Column {
		a, b := wall(lo), wall(hi)
		c := colStats(orc.Timestamp, 10, false)
		c.Timestamp = &stats.TimestampStats{MinSec: a.sec, MinNanos: a.nanos, MaxSec: b.sec, MaxNanos: b.nanos, HasMinMax: true}
		return c
	}
	// 02:00-03:00 on 2024-03-10 does not exist in New York; 01:00-02:00 on
	// 2024-11-03 happens twice. A TIMESTAMP column can hold such wall clocks.
	for _, zone := range []string{"", " America/New_York"} {
		for _, tc := range []struct {
			text   string
			lo, hi string
			want   TruthValue
		}{
			{"ts BETWEEN TIMESTAMP '2024-03-10 01:30:00%s' AND TIMESTAMP '2024-03-10 03:00:00%s'", "2024-03-10 02:15:00", "2024-03-10 02:45:00", Yes},
			{"ts BETWEEN TIMESTAMP '2024-03-10 01:30:00%s' AND TIMESTAMP '2024-03-10 03:00:00%s'", "2024-03-10 03:00:01", "2024-03-10 04:00:00", No},
			{"ts < TIMESTAMP '2024-03-10 02:30:00%s'", "2024-03-10 02:30:00", "2024-03-10 02:59:00", No},
			{"ts < TIMESTAMP '2024-03-10 02:30:00%s'", "2024-03-10 02:29:59", "2024-03-10 02:59:00", YesNo},
			{"ts = TIMESTAMP '2024-11-03 01:30:00%s'", "2024-11-03 01:30:00", "2024-11-03 01:30:00", Yes},
			{"ts > TIMESTAMP '2024-11-03 01:30:00%s'", "2024-11-03 01:00:00", "2024-11-03 01:30:00", No},
		} {
			text := strings.ReplaceAll(tc.text, "%s", zone)
			if got := evalOne(t, MustParse(text), id, mk(tc.lo, tc.hi)); got != tc.want {
				t.Errorf("%s on [%s, %s]: %s, want %s", text, tc.lo, tc.hi, got, tc.want)
			}
		}
	}
}

// A wall clock with a zone against an instant column: the instants it
// names, earliest for lower bounds, latest for upper bounds.
func TestZonedWallClockOnInstants(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	_ = ny
	one := func(text string) *boundLeaf {
		t.Helper()
		b := MustBind(MustParse(text), testSchema)
		if len(b.leaves) != 1 {
			t.Fatalf("%s: %d leaves", text, len(b.leaves))
		}
		return b.leaves[0]
	}
	utc := func(s string) tsVal {
		l, err := parseTimestamp(s)
		if err != nil {
			t.Fatal(err)
		}
		return tsVal{l.i, l.nanos}
	}
	// Overlap: 01:30 EDT = 05:30Z, 01:30 EST = 06:30Z.
	early, late := utc("2024-11-03 05:30:00"), utc("2024-11-03 06:30:00")
	// Gap: 02:30 does not exist; clocks jump at 07:00Z.
	jump := utc("2024-03-10 07:00:00")
	for _, tc := range []struct {
		text string
		op   LeafOp
		vals []tsVal
	}{
		{"tsi = TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafIn, []tsVal{early, late}},
		{"tsi <=> TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafNullSafeEquals, []tsVal{early, late}},
		{"tsi < TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafLessThan, []tsVal{late}},
		{"tsi >= TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafLessThan, []tsVal{early}},
		{"tsi BETWEEN TIMESTAMP '2024-11-03 01:30:00 America/New_York' AND TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafBetween, []tsVal{early, late}},
		{"tsi NOT BETWEEN TIMESTAMP '2024-11-03 01:30:00 America/New_York' AND TIMESTAMP '2024-11-03 01:30:00 America/New_York'", LeafBetween, []tsVal{late, early}},
		{"tsi = TIMESTAMP '2024-03-10 02:30:00 America/New_York'", LeafIn, nil},
		{"tsi < TIMESTAMP '2024-03-10 02:30:00 America/New_York'", LeafLessThan, []tsVal{jump}},
		{"tsi > TIMESTAMP '2024-03-10 02:30:00 America/New_York'", LeafLessThanEquals, []tsVal{jump}},
		{"tsi = TIMESTAMP '2024-07-01 12:00:00.5 America/New_York'", LeafEquals, []tsVal{{utc("2024-07-01 16:00:00").sec, 500_000_000}}},
		{"tsi = TIMESTAMP '2024-07-01 12:00:00+02:00'", LeafEquals, []tsVal{utc("2024-07-01 10:00:00")}},
		{"tsi = '2024-07-01 12:00:00Z'", LeafEquals, []tsVal{utc("2024-07-01 12:00:00")}},
	} {
		l := one(tc.text)
		if l.op != tc.op || fmt.Sprint(l.tss) != fmt.Sprint(tc.vals) {
			t.Errorf("%s: %s %v, want %s %v", tc.text, l.op, l.tss, tc.op, tc.vals)
		}
	}
	if b := MustBind(MustParse("tsi <=> TIMESTAMP '2024-03-10 02:30:00 America/New_York'"), testSchema); b.String() != "FALSE" {
		t.Errorf("<=> a wall clock in a gap: %s", b)
	}
	// Pruning on an instant column with the overlap literal: a unit holding
	// only the second 01:30 (06:30Z) is kept for =, <= and >= (it shows
	// 01:30), and for > too: > takes the earliest instant (05:30Z) as its
	// lower bound, so no reading of the wall clock loses rows.
	id := colID(t, "tsi")
	c := colStats(orc.TimestampInstant, 1, false)
	c.Timestamp = &stats.TimestampStats{MinSec: late.sec, MaxSec: late.sec, HasMinMax: true}
	for text, want := range map[string]TruthValue{
		"tsi = TIMESTAMP '2024-11-03 01:30:00 America/New_York'":  Yes,
		"tsi <= TIMESTAMP '2024-11-03 01:30:00 America/New_York'": Yes,
		"tsi >= TIMESTAMP '2024-11-03 01:30:00 America/New_York'": Yes,
		"tsi < TIMESTAMP '2024-11-03 01:30:00 America/New_York'":  No,
		"tsi > TIMESTAMP '2024-11-03 01:30:00 America/New_York'":  Yes,
	} {
		if got := evalOne(t, MustParse(text), id, c); got != want {
			t.Errorf("%s on {06:30Z}: %s, want %s", text, got, want)
		}
	}
}
