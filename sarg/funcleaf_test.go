package sarg

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

func TestFuncParseRoundTrip(t *testing.T) {
	for _, src := range []string{
		"MONTH(ts) = 3",
		"DAY(d) BETWEEN 1 AND 10",
		"HOUR(ts) IN (1, 2)",
		"DATE_TRUNC('month', ts) = TIMESTAMP '2024-03-01 00:00:00'",
		"x + 5 < 3",
		"x - -5 >= 3",
		"x * 2.5 <> 3",
		"x / 2 <= 3",
		"ABS(x) > 4",
		"LENGTH(s) = 3",
		"LOWER(s) LIKE 'ab%'",
		"UPPER(s) IS NOT NULL",
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := e.String(); got != src {
			t.Errorf("Parse(%q).String() = %q", src, got)
		}
		back, err := Parse(e.String())
		if err != nil || !back.Equal(e) {
			t.Errorf("%s: reparse %v, equal %v", src, err, back.Equal(e))
		}
	}
}

// randFuncLeaf returns a random function leaf over the random units'
// columns, with literals of the function's result type near its values.
func randFuncLeaf(r *rand.Rand, k FuncKind) (Expr, FuncKind) {
	var f Func
	var col string
	var lit func() Literal
	small := func(lo, hi int) func() Literal { return func() Literal { return Int(int64(lo + r.IntN(hi-lo+1))) } }
	arith := func() Literal {
		switch r.IntN(5) {
		case 0:
			return Decimal(orc.Int128FromInt64(int64(r.IntN(41)-20)), 1)
		case 1:
			return Float([]float64{0.5, -0.5, 2, -2, 0, 1e300}[r.IntN(6)])
		}
		return Int(int64(r.IntN(7) - 3))
	}
	switch k {
	case FuncMonth, FuncDay, FuncHour:
		f = Func{Kind: k}
		col = []string{"dt", "ts"}[r.IntN(2)]
		lit = map[FuncKind]func() Literal{FuncMonth: small(0, 13), FuncDay: small(0, 32), FuncHour: small(-1, 24)}[k]
	case FuncDateTrunc:
		f = DateTrunc(truncUnits[r.IntN(len(truncUnits))])
		col = []string{"dt", "ts"}[r.IntN(2)]
		kind := testSchema.Find(col).Kind
		lit = func() Literal {
			l := funcLiteral(r, kind)
			if r.IntN(2) == 0 && l.kind == TimestampLit {
				l = Timestamp(truncSeconds(l.i, f.Unit), 0)
			}
			return l
		}
	case FuncAdd, FuncSub, FuncMul, FuncDiv, FuncAbs:
		f = Func{Kind: k}
		if k != FuncAbs {
			f.Const = arith()
			for k == FuncDiv && constSign(f.Const) == 0 {
				f.Const = arith()
			}
			if f.Const.kind == FloatLit && f.Const.f == 1e300 && k != FuncMul {
				f.Const = Float(0.25)
			}
		}
		col = []string{"i", "by", "d", "f"}[r.IntN(4)]
		exact := col != "f" && k != FuncDiv && f.Const.kind != FloatLit
		lit = func() Literal {
			if r.IntN(3) == 0 {
				if exact {
					return randLiteral(r, orc.Decimal)
				}
				return randLiteral(r, orc.Double)
			}
			if exact {
				return funcLiteral(r, orc.Decimal)
			}
			return funcLiteral(r, orc.Double)
		}
	case FuncLength:
		f = Length()
		col = []string{"s", "c", "b"}[r.IntN(3)]
		lit = small(-1, 6)
	default:
		f = Func{Kind: k}
		col = []string{"s", "c"}[r.IntN(2)]
		lit = func() Literal {
			return String([]string{"", "a", "A", "ab", "AB", "é", "É", "\xff", "a b", "A B  "}[r.IntN(10)])
		}
	}
	var e Expr
	switch r.IntN(7) {
	case 0:
		e = Eq(col, lit())
	case 1:
		e = NullSafeEq(col, lit())
	case 2:
		e = Lt(col, lit())
	case 3:
		e = Le(col, lit())
	case 4:
		e = In(col, lit(), lit())
	case 5:
		e = Between(col, lit(), lit())
	default:
		e = IsNull(col)
	}
	if r.IntN(3) == 0 {
		e = Not(e)
	}
	return Apply(f, e), f.Kind
}

// TestFuncSoundnessProperty: on random units whose statistics are
// loosened as real files' are, every row's outcome of a function leaf is
// in the set Evaluate returns, and Match agrees with EvalRow (which
// computes the functions its own way: calendars through package time,
// arithmetic with rationals). Each prunable function must prune some unit.
func TestFuncSoundnessProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	iters := 6000
	if testing.Short() {
		iters = 1500
	}
	pruned := map[FuncKind]int{}
	for it := 0; it < iters; it++ {
		e, k := randFuncLeaf(r, FuncKind(1+it%int(FuncUpper)))
		if r.IntN(4) == 0 {
			e2, _ := randFuncLeaf(r, FuncKind(1+r.IntN(int(FuncUpper))))
			e = Or(e, And(e2, randLeaf(r)))
		}
		b, err := Bind(e, testSchema)
		if err != nil {
			if errors.Is(err, ErrTypeMismatch) {
				continue // e.g. a date literal that is not a date
			}
			t.Fatalf("Bind(%s): %v", e, err)
		}
		m := b.NewMatcher()
		for range 4 {
			u := randUnit(r)
			funcValues(r, u)
			src := sourceOf(r, u)
			tv := b.Evaluate(src)
			got3, err := m.eval3(vectorsOf(u), u.n)
			if err != nil {
				t.Fatalf("%s: Match: %v", e, err)
			}
			if !tv.IsNeeded() {
				pruned[k]++
			}
			for i := 0; i < u.n; i++ {
				row := u.row(i)
				match, known := b.EvalRow(row)
				bit := outcomeBit(match, known)
				if tv&bit == 0 {
					t.Fatalf("unsound: %s\nEvaluate says %s but row %v is %s\nexplain:\n%s\nstats: %s", e, tv, row, bit, b.Explain(src), dumpStats(src))
				}
				want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
				if got3[i] != want {
					t.Fatalf("Match disagrees with EvalRow: %s\nrow %v: Match %d, EvalRow %s", e, row, got3[i], bit)
				}
			}
		}
	}
	t.Logf("units pruned per function: %v", pruned)
	for _, k := range []FuncKind{FuncMonth, FuncDay, FuncHour, FuncDateTrunc, FuncAdd, FuncSub, FuncMul, FuncDiv, FuncAbs} {
		if pruned[k] == 0 {
			t.Errorf("%s never pruned a unit: the test is too weak or the mapping never applies", k)
		}
	}
}

// funcBases are wall clocks (seconds read as UTC) where calendar
// functions change value: ends of months and years, a leap day, New York's
// DST changes of 2024, and the epoch.
var funcBases = func() []int64 {
	var out []int64
	for _, s := range []string{"2024-01-31 23:00:00", "2024-02-29 12:00:00", "2023-12-31 22:00:00",
		"2024-03-10 01:30:00", "2024-11-03 01:00:00", "1970-01-01 00:00:00", "1969-12-31 23:30:00", "2024-06-15 10:00:00"} {
		l, err := parseTimestamp(s)
		if err != nil {
			panic(err)
		}
		out = append(out, l.i)
	}
	return out
}()

// funcValues replaces the unit's values of the columns the function leaves
// read with values spread where the functions change: across hours, days,
// months and years for dates and timestamps, wide and extreme numbers.
func funcValues(r *rand.Rand, u unit) {
	base := funcBases[r.IntN(len(funcBases))]
	spread := []int64{60, 3600, 86400, 40 * 86400}[r.IntN(4)]
	for _, col := range []string{"i", "by", "d", "f", "dt", "ts"} {
		id := testSchema.Find(col).ID()
		for i, v := range u.vals[id] {
			if v == nil {
				continue
			}
			switch col {
			case "i":
				u.vals[id][i] = []int64{int64(r.IntN(2001) - 1000), math.MaxInt32, math.MinInt32, int64(r.IntN(11) - 5)}[r.IntN(4)]
			case "by":
				u.vals[id][i] = []int64{127, -128, int64(r.IntN(256) - 128), int64(r.IntN(11) - 5)}[r.IntN(4)]
			case "d":
				u.vals[id][i] = stats.DecimalValue{Unscaled: orc.Int128FromInt64([]int64{9_999_999_999, -9_999_999_999, int64(r.IntN(200001) - 100000)}[r.IntN(3)]), Scale: 2}
			case "f":
				u.vals[id][i] = []float64{math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 0,
					float64(r.IntN(41)-20) / 4, float64(r.IntN(41)-20) / 4, float64(r.IntN(4001)-2000) / 2}[r.IntN(10)]
			case "dt":
				u.vals[id][i] = floorDiv(base+r.Int64N(4*spread)-2*spread, 86400)
			case "ts":
				u.vals[id][i] = TimestampValue{Sec: base + r.Int64N(4*spread) - 2*spread, Nanos: []int32{0, 1, 999_999_999}[r.IntN(3)]}
			}
		}
	}
}

// funcLiteral returns a literal of a function's result type near the
// values funcValues makes.
func funcLiteral(r *rand.Rand, kind orc.Kind) Literal {
	base := funcBases[r.IntN(len(funcBases))] + int64(r.IntN(5)-2)*[]int64{3600, 86400, 40 * 86400}[r.IntN(3)]
	switch kind {
	case orc.Date:
		return Date(int32(floorDiv(base, 86400)))
	case orc.Timestamp:
		return Timestamp(base-floorMod(base, []int64{1, 3600, 86400}[r.IntN(3)]), 0)
	case orc.Decimal:
		return Decimal(orc.Int128FromInt64(int64(r.IntN(400001)-200000)), r.IntN(4))
	}
	return Float(float64(r.IntN(4001)-2000) / 2)
}

// TestFuncPruning checks what each function proves from a unit's
// statistics: pruning where the mapping is proven, none elsewhere.
func TestFuncPruning(t *testing.T) {
	wall := func(s string) int64 {
		l, err := parseTimestamp(s)
		if err != nil {
			t.Fatal(err)
		}
		return l.i
	}
	tsStats := func(lo, hi string) (string, *stats.Column) {
		c := colStats(orc.Timestamp, 10, false)
		c.Timestamp = &stats.TimestampStats{MinSec: wall(lo), MaxSec: wall(hi), MaxNanos: 999_999_999, HasMinMax: true}
		return "ts", c
	}
	dtStats := func(lo, hi string) (string, *stats.Column) {
		c := colStats(orc.Date, 10, false)
		c.Date = &stats.DateStats{Min: int32(wall(lo+" 00:00:00") / 86400), Max: int32(wall(hi+" 00:00:00") / 86400), HasMinMax: true}
		return "dt", c
	}
	intStats := func(lo, hi int64) (string, *stats.Column) {
		c := colStats(orc.Int, 10, false)
		c.Int = &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}
		return "i", c
	}
	fStats := func(lo, hi float64) (string, *stats.Column) {
		c := colStats(orc.Double, 10, false)
		c.Double = &stats.DoubleStats{Min: lo, Max: hi, HasMinMax: true}
		return "f", c
	}
	decStats := func(lo, hi int64) (string, *stats.Column) { // at scale 2
		c := colStats(orc.Decimal, 10, false)
		c.Decimal = &stats.DecimalStats{Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(lo), Scale: 2},
			Max: stats.DecimalValue{Unscaled: orc.Int128FromInt64(hi), Scale: 2}, HasMinMax: true}
		return "d", c
	}
	sStats := func(lo, hi string) (string, *stats.Column) {
		c := colStats(orc.String, 10, false)
		c.String = &stats.StringStats{Min: lo, Max: hi, HasMin: true, HasMax: true}
		return "s", c
	}
	type stat = func() (string, *stats.Column)
	for _, tc := range []struct {
		text string
		st   stat
		want TruthValue
		why  string // in Explain
	}{
		{"MONTH(ts) = 3", func() (string, *stats.Column) { return tsStats("2024-01-05 00:00:00", "2024-02-20 10:00:00") }, No, ""},
		{"MONTH(ts) <= 2", func() (string, *stats.Column) { return tsStats("2024-01-05 00:00:00", "2024-02-20 10:00:00") }, Yes, ""},
		// December to January: MONTH is 12 or 1 (the cycle wraps around).
		{"MONTH(ts) = 3", func() (string, *stats.Column) { return tsStats("2023-12-05 00:00:00", "2024-01-20 10:00:00") }, No, ""},
		{"MONTH(ts) = 3", func() (string, *stats.Column) { return tsStats("2023-11-05 00:00:00", "2024-03-20 10:00:00") }, YesNo, ""},
		{"MONTH(ts) = 12", func() (string, *stats.Column) { return tsStats("2023-12-05 00:00:00", "2024-01-20 10:00:00") }, YesNo, ""},
		{"MONTH(ts) = 3", func() (string, *stats.Column) { return tsStats("2023-12-05 00:00:00", "2025-01-20 10:00:00") }, YesNo, "different years"},
		{"MONTH(ts) = 3", func() (string, *stats.Column) { return tsStats("2023-03-05 00:00:00", "2024-02-20 10:00:00") }, YesNo, "different years"},
		{"MONTH(dt) IN (1, 2)", func() (string, *stats.Column) { return dtStats("2024-03-01", "2024-12-31") }, No, ""},
		{"DAY(dt) BETWEEN 10 AND 20", func() (string, *stats.Column) { return dtStats("2024-02-01", "2024-02-05") }, No, ""},
		{"DAY(dt) BETWEEN 10 AND 20", func() (string, *stats.Column) { return dtStats("2024-01-31", "2024-02-05") }, No, ""},
		{"DAY(dt) BETWEEN 10 AND 20", func() (string, *stats.Column) { return dtStats("2024-01-31", "2024-03-05") }, YesNo, "different months"},
		{"HOUR(ts) < 5", func() (string, *stats.Column) { return tsStats("2024-03-10 06:00:00", "2024-03-10 23:00:00") }, No, ""},
		{"HOUR(ts) < 5", func() (string, *stats.Column) { return tsStats("2024-03-10 06:00:00", "2024-03-11 01:00:00") }, YesNo, ""},
		{"HOUR(ts) = 3", func() (string, *stats.Column) { return tsStats("2024-03-10 06:00:00", "2024-03-11 01:00:00") }, No, ""},
		{"HOUR(ts) < 5", func() (string, *stats.Column) { return tsStats("2024-03-10 06:00:00", "2024-03-12 01:00:00") }, YesNo, "different days"},
		{"HOUR(dt) = 0", func() (string, *stats.Column) { return dtStats("2024-03-10", "2024-03-10") }, Yes, ""},
		{"DATE_TRUNC('month', ts) = TIMESTAMP '2024-03-01 00:00:00'", func() (string, *stats.Column) {
			return tsStats("2024-01-01 00:00:00", "2024-02-29 23:59:59")
		}, No, ""},
		{"DATE_TRUNC('month', ts) = TIMESTAMP '2024-02-01 00:00:00'", func() (string, *stats.Column) {
			return tsStats("2024-02-01 00:00:00", "2024-02-29 23:59:59")
		}, Yes, ""},
		{"DATE_TRUNC('week', dt) = DATE '2024-03-04'", func() (string, *stats.Column) { return dtStats("2024-03-04", "2024-03-10") }, Yes, ""},
		{"DATE_TRUNC('year', dt) < DATE '2024-01-01'", func() (string, *stats.Column) { return dtStats("2024-01-01", "2024-03-10") }, No, ""},
		{"i * -2 > 0", func() (string, *stats.Column) { return intStats(1, 10) }, No, ""},
		{"i * -2 BETWEEN -20 AND -2", func() (string, *stats.Column) { return intStats(1, 10) }, Yes, ""},
		{"i + 5 < 5", func() (string, *stats.Column) { return intStats(-1, 10) }, YesNo, ""},
		{"i + 5 < 5", func() (string, *stats.Column) { return intStats(1, 10) }, No, ""},
		{"i - 2.5 = 0", func() (string, *stats.Column) { return intStats(3, 10) }, No, ""},
		{"i / 2 = 0.5", func() (string, *stats.Column) { return intStats(1, 1) }, Yes, ""},
		{"i / -4 >= 0", func() (string, *stats.Column) { return intStats(1, 8) }, No, ""},
		{"f / -2 > 0", func() (string, *stats.Column) { return fStats(1, 10) }, No, ""},
		{"f * 0 = 0", func() (string, *stats.Column) { return fStats(1, 10) }, Yes, ""},            // no infinity: every f * 0 is 0
		{"f * 0 = 0", func() (string, *stats.Column) { return fStats(1, math.Inf(1)) }, YesNo, ""}, // inf * 0 is NaN
		{"d * 3 > 30", func() (string, *stats.Column) { return decStats(0, 1000) }, No, ""},
		{"d + 0.001 = 5.001", func() (string, *stats.Column) { return decStats(500, 500) }, Yes, ""},
		{"ABS(i) < 3", func() (string, *stats.Column) { return intStats(-10, -5) }, No, ""},
		{"ABS(i) > 9", func() (string, *stats.Column) { return intStats(-10, 5) }, YesNo, ""},
		{"ABS(i) > 10", func() (string, *stats.Column) { return intStats(-10, 5) }, No, ""},
		{"ABS(f) >= 1", func() (string, *stats.Column) { return fStats(-0.5, 0.5) }, No, ""},
		{"LENGTH(s) = 3", func() (string, *stats.Column) { return sStats("a", "b") }, YesNo, "not their lengths"},
		{"LOWER(s) = 'x'", func() (string, *stats.Column) { return sStats("a", "b") }, YesNo, "not case order"},
		{"UPPER(s) IS NULL", func() (string, *stats.Column) { return sStats("a", "b") }, No, ""},
		{"LOWER(c) IS NULL", func() (string, *stats.Column) { return "c", colStats(orc.Char, 10, false) }, No, ""},
		{"UPPER(c) = 'A'", func() (string, *stats.Column) { return "c", colStats(orc.Char, 0, true) }, Null, "not case order"}, // all null
	} {
		e := MustParse(tc.text)
		b, err := Bind(e, testSchema)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		col, st := tc.st()
		src := MapSource{Columns: map[int]*stats.Column{colID(t, col): st}, Blooms: map[int]BloomFilter{colID(t, col): newSetBloom()}}
		if got := b.Evaluate(src); got != tc.want {
			t.Errorf("%s: %s, want %s\n%s", tc.text, got, tc.want, b.Explain(src))
		}
		ex := b.Explain(src)
		if tc.why != "" && !strings.Contains(ex, tc.why) || tc.why == "" && strings.Contains(ex, "cannot prune") {
			t.Errorf("%s: explain should say %q:\n%s", tc.text, tc.why, ex)
		}
	}
}

// TestFuncBindErrors: functions on columns they do not fit, arithmetic
// that could overflow a decimal(38), and malformed calls are errors that
// name the problem.
func TestFuncBindErrors(t *testing.T) {
	for text, want := range map[string]string{
		"MONTH(tsi) = 3":                "zone the predicate does not give",
		"MONTH(s) = 3":                  "needs a date or timestamp column",
		"LENGTH(i) = 3":                 "LENGTH needs a string",
		"LOWER(b) = 'a'":                "LOWER needs a string, varchar or char column",
		"l * 100000000000000000000 = 0": "could exceed the 38 digits",
		"big + 1 = 0":                   "could exceed the 38 digits",
		"s + 1 = 0":                     "needs a numeric column",
		"MONTH(ts) = 'x'":               "cannot be compared",
	} {
		e, err := Parse(text)
		if err == nil {
			_, err = Bind(e, testSchema)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", text, err, want)
		}
	}
	for text, want := range map[string]string{
		"i / 0 = 1":                        "division by zero",
		"(i + 1) / 0 > 1":                  "division by zero", // not the operator after the parentheses
		"(f + f) / -0e0 % 0 NOT IN (i, f)": "division by zero",
		"(((f + 1) + i) / 0 % COALESCE(i, l) + MOD(i, -3)) <=> 1": "division by zero", // both readings of the parentheses fail
		"i + 'a' = 1":                     "must be a number",
		"DATE_TRUNC('fortnight', ts) = 1": "not one of",
		"f * DOUBLE 'NaN' = 1":            "finite number",
	} {
		if _, err := Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s): %v, want an error with %q", text, err, want)
		}
	}
}
