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

// colsSchema pairs columns of each family (ids 1..14, clear of the ids
// statsOf treats as a struct and its field).
var colsSchema = orc.MustParseSchema("struct<i:int,j:tinyint,f:double,g:double,s:string,s2:string,c:char(5),c2:char(5)," +
	"d:decimal(10,2),e:decimal(12,4),dt:date,dt2:date,ts:timestamp,ts2:timestamp>")

var colsPairs = [][2]string{{"i", "j"}, {"f", "g"}, {"s", "s2"}, {"c", "c2"}, {"d", "e"}, {"dt", "dt2"}, {"ts", "ts2"}, {"i", "i"}, {"s", "s"},
	{"d", "i"}, {"j", "e"}} // the last two: integers against decimals, by value

// colsValue returns a value for a column of colsSchema; other, when not
// nil, is a value of the paired column that the result often equals.
func colsValue(r *rand.Rand, node *orc.Schema, other any) any {
	// An integer and a decimal column: often the same number, where it is
	// one of both types; else a value of the node's own type.
	if d, ok := other.(stats.DecimalValue); ok && node.Kind != orc.Decimal {
		if v, exact, ok := orc.Rescale(d.Unscaled, d.Scale, 0); exact && ok && v.IsInt64() && r.IntN(3) == 0 {
			return v.Int64()
		}
		other = nil
	}
	if x, ok := other.(int64); ok && node.Kind == orc.Decimal {
		if r.IntN(3) == 0 {
			u, _, _ := orc.Rescale(orc.Int128FromInt64(x), 0, node.Scale)
			return stats.DecimalValue{Unscaled: u, Scale: node.Scale}
		}
		other = nil
	}
	if other != nil && r.IntN(3) == 0 {
		if d, ok := other.(stats.DecimalValue); ok && node.Kind == orc.Decimal {
			v, _, ok := orc.Rescale(d.Unscaled, d.Scale, node.Scale)
			if ok {
				return stats.DecimalValue{Unscaled: v, Scale: node.Scale}
			}
		}
		if x, ok := other.(float64); ok && x == 0 {
			return math.Copysign(0, -math.Copysign(1, x)) // the other zero
		}
		return other
	}
	switch node.Kind {
	case orc.Int, orc.Byte, orc.Date:
		return int64(r.IntN(9) - 4)
	case orc.Double:
		return []float64{-1, math.Copysign(0, -1), 0, 0.5, 1, 2, math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(9)]
	case orc.String:
		return randLikeString(r, 2)
	case orc.Char:
		return padChar([]string{"", "a", "ab", "b", "é", "a b"}[r.IntN(6)], 5)
	case orc.Decimal:
		v := orc.Int128FromInt64(int64(r.IntN(7)-3) * 50)
		u, _, _ := orc.Rescale(v, 2, node.Scale)
		return stats.DecimalValue{Unscaled: u, Scale: node.Scale}
	case orc.Timestamp:
		return TimestampValue{Sec: int64(r.IntN(5) - 2), Nanos: []int32{0, 1, 999_999_999}[r.IntN(3)]}
	}
	panic(node.Kind)
}

func colsVector(node *orc.Schema, vs []any) orc.Vector {
	nulls := make([]bool, len(vs))
	for i, v := range vs {
		nulls[i] = v == nil
	}
	switch node.Kind {
	case orc.Int, orc.Byte, orc.Date:
		x := &orc.LongVector{Nulls: orc.Nulls{Nulls: nulls}, Values: make([]int64, len(vs))}
		for i, v := range vs {
			if v != nil {
				x.Values[i] = v.(int64)
			} else {
				x.Values[i] = 99 // garbage in null slots
			}
		}
		return x
	case orc.Double:
		x := &orc.DoubleVector{Nulls: orc.Nulls{Nulls: nulls}, Values: make([]float64, len(vs))}
		for i, v := range vs {
			if v != nil {
				x.Values[i] = v.(float64)
			}
		}
		return x
	case orc.String, orc.Char:
		x := &orc.BytesVector{}
		for _, v := range vs {
			if v == nil {
				x.AppendNull()
			} else {
				x.AppendString(v.(string))
			}
		}
		return x
	case orc.Decimal:
		x := &orc.DecimalVector{Nulls: orc.Nulls{Nulls: nulls}, Values: make([]orc.Int128, len(vs)), Scale: node.Scale}
		for i, v := range vs {
			if v != nil {
				x.Values[i] = v.(stats.DecimalValue).Unscaled
			}
		}
		return x
	case orc.Timestamp:
		x := &orc.TimestampVector{Nulls: orc.Nulls{Nulls: nulls}, Seconds: make([]int64, len(vs)), Nanos: make([]int32, len(vs))}
		for i, v := range vs {
			if v != nil {
				x.Seconds[i], x.Nanos[i] = v.(TimestampValue).Sec, v.(TimestampValue).Nanos
			}
		}
		return x
	}
	panic(node.Kind)
}

// TestColsSoundness evaluates random comparisons of two columns on random
// units with loosened statistics: every row's outcome must be among those
// Evaluate allows, and Match must agree with EvalRow.
func TestColsSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 77))
	iters := 20000
	if testing.Short() {
		iters = 4000
	}
	pruned, matched := 0, 0
	ops := []func(a, b string) Expr{EqCol, NeCol, NullSafeEqCol, LtCol, LeCol, GtCol, GeCol}
	for range iters {
		pair := colsPairs[r.IntN(len(colsPairs))]
		if r.IntN(2) == 0 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		e := ops[r.IntN(len(ops))](pair[0], pair[1])
		if r.IntN(4) == 0 {
			e = Not(e)
		}
		b, err := Bind(e, colsSchema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", e, err)
		}
		na, nb := colsSchema.Find(pair[0]), colsSchema.Find(pair[1])
		n := 1 + r.IntN(6)
		u := unit{n: n, vals: map[int][]any{}}
		va, vb := make([]any, n), make([]any, n)
		nullRate := []int{0, 4, 2}[r.IntN(3)]
		for i := range n {
			va[i] = colsValue(r, na, nil)
			vb[i] = colsValue(r, nb, va[i])
			if nullRate > 0 && r.IntN(nullRate) == 0 {
				va[i] = nil
			}
			if nullRate > 0 && r.IntN(nullRate) == 0 {
				vb[i] = nil
			}
		}
		if na == nb {
			vb = va
		}
		u.vals[na.ID()], u.vals[nb.ID()] = va, vb
		src := MapSource{Columns: map[int]*stats.Column{}}
		for _, node := range []*orc.Schema{na, nb} {
			if r.IntN(10) > 0 {
				src.Columns[node.ID()] = statsOf(r, u, node.ID(), node)
			}
		}
		tv := b.Evaluate(src)
		if !tv.IsNeeded() {
			pruned++
		}
		got, err := b.NewMatcher().eval3(ColumnVectors{na.ID(): colsVector(na, va), nb.ID(): colsVector(nb, vb)}, n)
		if err != nil {
			t.Fatalf("%s: Match: %v", e, err)
		}
		for i := range n {
			row := u.row(i)
			match, known := b.EvalRow(row)
			bit := outcomeBit(match, known)
			if match {
				matched++
			}
			if tv&bit == 0 {
				t.Fatalf("unsound: %s on a=%v b=%v: Evaluate says %s but row %d is %s\nstats: %s", e, va, vb, tv, i, bit, dumpStats(src))
			}
			want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
			if got[i] != want {
				t.Fatalf("%s: row %v: Match %d, EvalRow %s", e, row, got[i], bit)
			}
		}
	}
	t.Logf("%d of %d units pruned, %d matching rows", pruned, iters, matched)
	if pruned < iters/20 || matched == 0 {
		t.Errorf("pruned %d units, matched %d rows: the cases are too weak", pruned, matched)
	}
}

func TestColsEvaluateCases(t *testing.T) {
	schema := orc.MustParseSchema("struct<a:int,b:int,x:double,y:double>")
	ints := func(lo, hi int64, nulls bool) *stats.Column {
		return &stats.Column{Kind: orc.Int, NumValues: 3, HasNull: nulls, HasNullKnown: true, Int: &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}}
	}
	for _, c := range []struct {
		where string
		a, b  *stats.Column
		want  TruthValue
	}{
		{"a < b", ints(5, 9, false), ints(1, 5, false), No},
		{"a < b", ints(5, 9, false), ints(1, 6, false), YesNo},
		{"a < b", ints(1, 4, false), ints(5, 9, false), Yes},
		{"a < b", ints(1, 4, true), ints(5, 9, false), YesNull},
		{"a <= b", ints(5, 9, false), ints(1, 5, false), YesNo},
		{"a <= b", ints(6, 9, false), ints(1, 5, false), No},
		{"a >= b", ints(6, 9, false), ints(1, 5, false), Yes},
		{"a = b", ints(1, 4, false), ints(5, 9, false), No},
		{"a = b", ints(5, 5, false), ints(5, 5, false), Yes},
		{"a <> b", ints(5, 5, false), ints(5, 5, true), NoNull},
		{"a <=> b", ints(1, 4, true), ints(5, 9, true), YesNo}, // both null on a row: TRUE
		{"a <=> b", ints(1, 4, true), ints(5, 9, false), No},
		{"a BETWEEN b AND b", ints(1, 4, false), ints(5, 9, false), No},
		{"a < b", nil, ints(1, 5, false), YesNoNull},
		{"a < b", &stats.Column{Kind: orc.Int, HasNullKnown: true, HasNull: true}, ints(1, 5, false), Null},
	} {
		b := MustBind(MustParse(c.where), schema)
		src := MapSource{Columns: map[int]*stats.Column{}}
		if c.a != nil {
			src.Columns[1] = c.a
		}
		src.Columns[2] = c.b
		if got := b.Evaluate(src); got != c.want {
			t.Errorf("%s on a %+v b %+v: %s, want %s", c.where, c.a, c.b, got, c.want)
		}
	}
	// A column compared with itself compares each row's value with itself.
	for _, c := range []struct {
		where string
		a     *stats.Column
		want  TruthValue
	}{
		{"a < a", ints(1, 5, false), No},
		{"a < a", ints(1, 5, true), NoNull},
		{"a > a", ints(1, 5, false), No},
		{"a <> a", ints(1, 5, true), NoNull},
		{"a = a", ints(1, 5, false), Yes},
		{"a = a", ints(1, 5, true), YesNull},
		{"a <= a", ints(1, 5, true), YesNull},
		{"a >= a", ints(1, 5, false), Yes},
		{"a <=> a", ints(1, 5, true), Yes}, // a null row is null on both sides
		{"NOT a <=> a", ints(1, 5, true), No},
		{"a BETWEEN a AND a", ints(1, 5, false), Yes},
		{"a < a", &stats.Column{Kind: orc.Int, HasNullKnown: true, HasNull: true}, Null},
		{"a <=> a", &stats.Column{Kind: orc.Int, HasNullKnown: true, HasNull: true}, Yes},
		{"a < a", nil, YesNoNull},
	} {
		b := MustBind(MustParse(c.where), schema)
		src := MapSource{Columns: map[int]*stats.Column{}}
		if c.a != nil {
			src.Columns[1] = c.a
		}
		if got := b.Evaluate(src); got != c.want {
			t.Errorf("%s on a %+v: %s, want %s", c.where, c.a, got, c.want)
		}
	}
	// NaN in statistics decides nothing.
	nan := &stats.Column{Kind: orc.Double, NumValues: 2, HasNullKnown: true, Double: &stats.DoubleStats{Min: 1, Max: 2, HasMinMax: true, HasSum: true, Sum: math.NaN()}}
	low := &stats.Column{Kind: orc.Double, NumValues: 2, HasNullKnown: true, Double: &stats.DoubleStats{Min: -5, Max: -4, HasMinMax: true, HasSum: true, Sum: -9}}
	b := MustBind(MustParse("x < y"), schema)
	if got := b.Evaluate(MapSource{Columns: map[int]*stats.Column{3: low, 4: nan}}); got != YesNo {
		t.Errorf("x < y with a NaN in y: %s, want YES_NO", got)
	}
	// ... but NaN equals itself: x < x is false and x = x true on every row.
	for where, want := range map[string]TruthValue{"x < x": No, "x = x": Yes, "x <> x": No} {
		if got := MustBind(MustParse(where), schema).Evaluate(MapSource{Columns: map[int]*stats.Column{3: nan}}); got != want {
			t.Errorf("%s with a NaN in x: %s, want %s", where, got, want)
		}
	}
}

func TestParseCols(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"a < b", "a < b"},
		{"a > b.c", "a > b.c"},
		{"a <> `odd name`", "a <> `odd name`"},
		{"a != b", "a <> b"},
		{"a <=> b", "a <=> b"},
		{"a >= b", "a >= b"},
		{"a BETWEEN b AND c", "a >= b AND a <= c"},
		{"a NOT BETWEEN 1 AND c", "NOT (a >= 1 AND a <= c)"},
		{"a BETWEEN b AND 5", "a >= b AND a <= 5"},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.out {
			t.Errorf("Parse(%q) prints %q, want %q", c.in, got, c.out)
		}
		back, err := Parse(e.String())
		if err != nil || !back.Equal(e) {
			t.Errorf("Parse(%q) does not read back: %v", e.String(), err)
		}
	}
	if e := MustParse("a < b"); e.Equal(MustParse("a < c")) || e.Equal(MustParse("a < 5")) {
		t.Errorf("Equal ignores the second column")
	}
}

func TestBindCols(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{"d < ts", "different families"}, // decimal and timestamp
		{"i < s", "different families"},
		{"ts = tsi", "different families"},
		{"st < i", "only primitive"},
		{"i < nope", "unknown column"},
	} {
		_, err := Bind(MustParse(c.in), testSchema)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Bind(%s) = %v, want an error with %q", c.in, err, c.err)
		}
	}
	if _, err := Bind(MustParse("i < st.a"), testSchema); err != nil {
		t.Errorf("i < st.a: %v", err)
	}
	b := MustBind(MustParse("i < c2 AND s = c1"), testSchema)
	want := []int{colID(t, "i"), colID(t, "s"), colID(t, "c1"), colID(t, "c2")}
	got := b.Columns()
	if len(got) != 4 {
		t.Fatalf("Columns() = %v, want the ids of i, s, c1, c2 %v", got, want)
	}
	if _, err := Bind(Expr{Op: OpLeaf, Leaf: &Leaf{Op: LeafIn, Column: "i", Other: "c2"}}, testSchema); err == nil || errors.Is(err, ErrTypeMismatch) {
		t.Errorf("IN over two columns: %v, want a malformed-leaf error", err)
	}
}
