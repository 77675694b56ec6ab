package sarg

import (
	"math"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

func longs(vals []int64, nulls ...bool) *orc.LongVector {
	return &orc.LongVector{Nulls: orc.Nulls{Nulls: nulls}, Values: vals}
}

func TestMatchBasics(t *testing.T) {
	i, s, f := colID(t, "i"), colID(t, "s"), colID(t, "f")
	sv := &orc.BytesVector{}
	for _, x := range []string{"a", "b", "", "c", "a"} {
		sv.AppendString(x)
	}
	sv.AppendNull()
	cols := ColumnVectors{
		i: longs([]int64{1, 2, 3, 4, 5, 6}, false, false, true, false, false, false),
		s: sv,
		f: &orc.DoubleVector{Values: []float64{math.NaN(), 0, math.Copysign(0, -1), 1, math.Inf(1), 2}},
	}
	for _, tc := range []struct {
		text string
		want string // one character per row: 1 match, 0 not
	}{
		{"i = 2", "010000"},
		{"i <> 2", "100111"}, // the null row (3) is NULL, not TRUE
		{"i IS NULL", "001000"},
		{"i <=> NULL", "001000"},
		{"NOT (i <=> 3)", "111111"},
		{"i IN (1, 5, NULL)", "100010"},
		{"i NOT IN (1, 5, NULL)", "000000"}, // NULL in the list: never TRUE
		{"i NOT IN (1, 5)", "010101"},
		{"i BETWEEN 2 AND 4", "010100"},
		{"i < 2.5", "110000"},
		{"i > 2.5", "000111"},
		{"s = 'a'", "100010"},
		{"s < 'b'", "101010"},
		{"s BETWEEN 'a' AND 'b'", "110010"},
		{"s IN ('b', 'c')", "010100"},
		{"s IS NULL OR i IS NULL", "001001"},
		{"f = 0e+00", "011000"},
		{"f = DOUBLE 'NaN'", "100000"},
		{"f <> DOUBLE 'NaN'", "011111"},
		{"f IN (2, DOUBLE 'NaN')", "100001"},
		{"f < 1", "011000"}, // NaN < 1 is false
		{"NOT f < 1", "100111"},
		{"f >= 1", "100111"}, // NaN sorts above every number
		{"f <= DOUBLE 'NaN'", "111111"},
		{"f < DOUBLE 'NaN'", "011111"},
		{"f BETWEEN 1 AND DOUBLE 'NaN'", "100111"},
		{"f IN (1, DOUBLE 'Infinity')", "000110"},
		{"i = 1 OR s = 'c' AND f > 0.5", "100100"},
		{"TRUE", "111111"},
		{"NULL OR i = 1", "100000"},
	} {
		b := MustBind(MustParse(tc.text), testSchema)
		got, err := b.Match(cols, 6, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		var sb strings.Builder
		for _, m := range got {
			if m {
				sb.WriteByte('1')
			} else {
				sb.WriteByte('0')
			}
		}
		if sb.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.text, sb.String(), tc.want)
		}
	}
}

// Sets above setLinearMax use binary search or a map; they must agree with
// the plain evaluator.
func TestMatchLargeSets(t *testing.T) {
	i, f, s, d, ts := colID(t, "i"), colID(t, "f"), colID(t, "s"), colID(t, "d"), colID(t, "ts")
	const n = 64
	iv := &orc.LongVector{Values: make([]int64, n)}
	fv := &orc.DoubleVector{Values: make([]float64, n)}
	sv := &orc.BytesVector{}
	dv := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
	tv := &orc.TimestampVector{Seconds: make([]int64, n), Nanos: make([]int32, n)}
	for r := 0; r < n; r++ {
		iv.Values[r] = int64(r - 20)
		fv.Values[r] = float64(r-20) / 2
		if r%7 == 0 {
			fv.Values[r] = math.NaN()
		}
		sv.AppendString(strings.Repeat("x", r%13))
		dv.Values[r] = orc.Int128FromInt64(int64(r * 50))
		tv.Seconds[r], tv.Nanos[r] = int64(r%5), int32(r%3)
	}
	cols := ColumnVectors{i: iv, f: fv, s: sv, d: dv, ts: tv}
	var ilits, flits, slits, dlits, tlits []Literal
	for k := -3; k < 30; k += 2 {
		ilits = append(ilits, Int(int64(k)))
		flits = append(flits, Float(float64(k)/2))
		slits = append(slits, String(strings.Repeat("x", k+3)))
		dlits = append(dlits, Decimal(orc.Int128FromInt64(int64(k*100)), 2))
		tlits = append(tlits, Timestamp(int64(k%5), int64(k%3)))
	}
	flits = append(flits, Float(math.NaN()), Float(math.Copysign(0, -1)))
	for _, e := range []Expr{
		In("i", ilits...), NotIn("i", append(ilits, NullValue())...), In("f", flits...),
		NotIn("f", flits...), In("s", slits...), In("d", dlits...), In("ts", tlits...),
		NullSafeEq("i", Int(3)),
	} {
		b := MustBind(e, testSchema)
		got, err := b.NewMatcher().eval3(cols, n)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		hits := 0
		for r := 0; r < n; r++ {
			row := map[int]any{i: iv.Values[r], f: fv.Values[r], s: sv.String(r), d: valueOfDec(dv.Values[r], 2), ts: TimestampValue{tv.Seconds[r], tv.Nanos[r]}}
			m, k := b.EvalRow(row)
			want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[outcomeBit(m, k)]
			if got[r] != want {
				t.Fatalf("%s row %d (%v): Match %d, EvalRow %d", e, r, row, got[r], want)
			}
			if m {
				hits++
			}
		}
		if hits == 0 && !strings.Contains(e.String(), "NOT IN") {
			t.Errorf("%s matches nothing: weak test", e)
		}
	}
}

func TestMatchErrors(t *testing.T) {
	i, d, s, st := colID(t, "i"), colID(t, "d"), colID(t, "s"), colID(t, "st")
	for _, tc := range []struct {
		text string
		cols ColumnVectors
		want string
	}{
		{"i = 1", ColumnVectors{}, "no vector for column 1 (i)"},
		{"i = 1", ColumnVectors{i: &orc.DoubleVector{Values: make([]float64, 4)}}, "its vector is *orc.DoubleVector"},
		{"i = 1", ColumnVectors{i: longs(make([]int64, 2))}, "has 2 rows, need 4"},
		{"i = 1", ColumnVectors{i: longs(make([]int64, 4), true)}, "null mask"},
		{"d = 1", ColumnVectors{d: &orc.DecimalVector{Values: make([]orc.Int128, 4), Scale: 3}}, "scale 3"},
		{"s = 'a'", ColumnVectors{s: &orc.BytesVector{Offsets: []int{0, 1, 5, 2, 2}, Data: []byte("abc")}}, "bad offsets"},
		{"st IS NULL AND i = 1", ColumnVectors{st: &orc.StructVector{N: 4}}, "no vector for column 1"},
	} {
		_, err := MustBind(MustParse(tc.text), testSchema).Match(tc.cols, 4, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := MustBind(MustParse("i = 1"), testSchema).Match(ColumnVectors{}, -1, nil); err == nil {
		t.Errorf("negative n accepted")
	}
	// Struct IS NULL reads the struct's null mask; a constant needs no column.
	got, err := MustBind(MustParse("st IS NOT NULL"), testSchema).Match(ColumnVectors{st: &orc.StructVector{Nulls: orc.Nulls{Nulls: []bool{true, false}}, N: 2}}, 2, nil)
	if err != nil || got[0] || !got[1] {
		t.Errorf("struct IS NOT NULL: %v %v", got, err)
	}
	if got, err := MustBind(MustParse("i <=> 5.5"), testSchema).Match(nil, 3, make([]bool, 10)); err != nil || len(got) != 3 || got[0] {
		t.Errorf("constant FALSE: %v %v", got, err)
	}
}

func TestMatcherReuseAllocs(t *testing.T) {
	b := MustBind(MustParse("(i BETWEEN 10 AND 500 OR s IN ('a', 'b')) AND NOT f < 0.5"), testSchema)
	cols, n := benchBatch(1024)
	m := b.NewMatcher()
	dst := make([]bool, n)
	allocs := testing.AllocsPerRun(20, func() {
		var err error
		if dst, err = m.Match(cols, n, dst); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Match allocates %.1f times per batch", allocs)
	}
	var src Source = MapSource{Columns: map[int]*stats.Column{1: {Kind: orc.Int, NumValues: 5, HasNullKnown: true, Int: &stats.IntStats{Min: 1, Max: 5, HasMinMax: true}}}}
	allocs = testing.AllocsPerRun(20, func() { b.Evaluate(src) })
	if allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
}

func valueOfDec(v orc.Int128, scale int) any {
	return stats.DecimalValue{Unscaled: v, Scale: scale}
}
