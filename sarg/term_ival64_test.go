package sarg

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TestChecked64 checks add64, sub64, mul64 and neg64 against big.Int at
// the limits of int64.
func TestChecked64(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, 10, -10, 1 << 31, -1 << 31, 1<<32 + 1, 3037000499, 3037000500, -3037000500,
		math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1, math.MaxInt64 / 2, math.MinInt64 / 2,
		999_999_999_999_999_999, -999_999_999_999_999_999, 922337203685477580, -922337203685477581}
	ops := []struct {
		name string
		f    func(a, b int64) (int64, bool)
		g    func(z, x, y *big.Int) *big.Int
	}{
		{"add64", add64, (*big.Int).Add},
		{"sub64", sub64, (*big.Int).Sub},
		{"mul64", mul64, (*big.Int).Mul},
	}
	for _, op := range ops {
		for _, a := range vals {
			for _, b := range vals {
				want := op.g(new(big.Int), big.NewInt(a), big.NewInt(b))
				got, ok := op.f(a, b)
				if ok != want.IsInt64() || ok && got != want.Int64() {
					t.Errorf("%s(%d, %d) = %d, %v; want %s (fits: %v)", op.name, a, b, got, ok, want, want.IsInt64())
				}
			}
		}
	}
	for _, a := range vals {
		want := new(big.Int).Neg(big.NewInt(a))
		if got, ok := neg64(a); ok != want.IsInt64() || ok && got != want.Int64() {
			t.Errorf("neg64(%d) = %d, %v; want %s", a, got, ok, want)
		}
	}
}

// TestDecAt64 checks the reading of decimal statistics at a node's scale:
// exact or refused, never rounded.
func TestDecAt64(t *testing.T) {
	dec := func(u int64, s int) stats.DecimalValue {
		return stats.DecimalValue{Unscaled: orc.Int128FromInt64(u), Scale: s}
	}
	huge, _ := orc.Int128FromBig(new(big.Int).Lsh(big.NewInt(1), 64))
	cases := []struct {
		d     stats.DecimalValue
		scale int
		want  int64
		ok    bool
	}{
		{dec(12345, 2), 2, 12345, true},
		{dec(12345, 2), 4, 1234500, true},
		{dec(-12345, 0), 18, 0, false}, // -12345 * 10^18 overflows
		{dec(-9, 0), 18, -9_000_000_000_000_000_000, true},
		{dec(9, 0), 18, 9_000_000_000_000_000_000, true},
		{dec(12300, 4), 2, 123, true},
		{dec(12345, 4), 2, 0, false}, // 1.2345 is no decimal at scale 2
		{dec(-12300, 4), 2, -123, true},
		{dec(math.MaxInt64, 3), 3, math.MaxInt64, true},
		{dec(math.MaxInt64, 3), 4, 0, false},
		{dec(math.MinInt64, 0), 0, math.MinInt64, true},
		{dec(1, 0), 19, 0, false}, // beyond pow10Int64: refused, not wrong
		{dec(5, 38), 0, 0, false},
		{stats.DecimalValue{Unscaled: huge, Scale: 2}, 2, 0, false},
	}
	for _, c := range cases {
		got, ok := decAt64(c.d, c.scale)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("decAt64(%v at %d, %d) = %d, %v; want %d, %v", c.d.Unscaled.Big(), c.d.Scale, c.scale, got, ok, c.want, c.ok)
		}
	}
}

// ival64Stats returns random statistics for narrowSchema's columns over
// the batch's rows (min and max of the non-null values; decimals at the
// column's scale or one more): the bounds that hold the rows, so that
// Evaluate must keep every row's outcome.
func ival64Stats(r *rand.Rand, cols ColumnVectors, n int) MapSource {
	src := MapSource{Columns: map[int]*stats.Column{}}
	for _, c := range narrowSchema.Children {
		id := c.ID()
		if r.IntN(10) == 0 {
			continue // no statistics
		}
		st := &stats.Column{Kind: c.Kind, HasNullKnown: true}
		nulls := nullsOf(cols[id])
		for i := range n {
			if len(nulls) > 0 && nulls[i] {
				st.HasNull = true
				continue
			}
			st.NumValues++
		}
		src.Columns[id] = st
		if st.NumValues == 0 {
			continue
		}
		switch v := cols[id].(type) {
		case *orc.DecimalVector:
			var lo, hi *big.Int
			for i := range n {
				if len(nulls) > 0 && nulls[i] {
					continue
				}
				x := v.Values[i].Big()
				if lo == nil || x.Cmp(lo) < 0 {
					lo = x
				}
				if hi == nil || x.Cmp(hi) > 0 {
					hi = x
				}
			}
			scale := c.Scale
			if r.IntN(3) == 0 { // the same values one digit finer
				scale++
				lo = new(big.Int).Mul(lo, big.NewInt(10)) // lo and hi may be one big.Int
				hi = new(big.Int).Mul(hi, big.NewInt(10))
			}
			l, ok1 := orc.Int128FromBig(lo)
			h, ok2 := orc.Int128FromBig(hi)
			st.Decimal = &stats.DecimalStats{Min: stats.DecimalValue{Unscaled: l, Scale: scale},
				Max: stats.DecimalValue{Unscaled: h, Scale: scale}, HasMinMax: ok1 && ok2}
		case *orc.LongVector:
			st.Int = &stats.IntStats{Min: math.MaxInt64, Max: math.MinInt64, HasMinMax: true}
			for i := range n {
				if len(nulls) == 0 || !nulls[i] {
					st.Int.Min, st.Int.Max = min(st.Int.Min, v.Values[i]), max(st.Int.Max, v.Values[i])
				}
			}
		case *orc.DoubleVector:
			st.Double = &stats.DoubleStats{Min: math.Inf(1), Max: math.Inf(-1), HasMinMax: true}
			for i := range n {
				if len(nulls) == 0 || !nulls[i] {
					x := v.Values[i]
					if x != x {
						st.Double.HasMinMax = false
					}
					st.Double.Min, st.Double.Max = min(st.Double.Min, x), max(st.Double.Max, x)
				}
			}
		}
	}
	return src
}

// TestIval64Diff checks the int64 intervals of terms against the rational
// ones node by node, and Evaluate on the two paths, on random predicates
// over narrowSchema and statistics of hard values: decimals at their
// precision limits, around 2^63 and beyond int64, at two scales; products
// and sums that overflow int64 must fall back to the rationals. Each
// row's outcome (EvalRow) must be among the outcomes Evaluate allows.
func TestIval64Diff(t *testing.T) {
	r := rand.New(rand.NewPCG(64, 52))
	iters := 400
	if testing.Short() {
		iters = 100
	}
	g := narrowGen{termGen{r}}
	var fastNodes, fellBack, pruned int
	for it := range iters {
		text := g.pred(1 + it%3)
		if r.IntN(3) == 0 {
			text = fmt.Sprintf("%s %s %s", text, g.pick("AND", "OR"), g.pred(1))
		}
		e, err := Parse(text)
		if err != nil {
			continue
		}
		b, err := Bind(e, narrowSchema)
		if err != nil {
			if errors.Is(err, ErrTypeMismatch) {
				continue
			}
			t.Fatalf("Bind(%s): %v", e, err)
		}
		for k := range 6 {
			n := 1 + r.IntN(6)
			cols, rows := narrowBatch(r, n, k%3)
			src := ival64Stats(r, cols, n)
			for _, l := range b.leaves {
				if l.term == nil {
					continue
				}
				l.term.node.walk(func(nd *tnode) {
					got, ok := nd.ival64Of(src)
					if !nd.fast {
						return
					}
					if !ok {
						fellBack++
						return
					}
					fastNodes++
					want := nd.ivalOf(src)
					if msg := sameIval(got.rat(nd.scale64()), want); msg != "" {
						t.Fatalf("%s: node %s: int64 interval %+v, rational %s: %s\nstats: %s", e, nd.text, got, want.format(nd.t), msg, dumpStats(src))
					}
				})
			}
			tv := b.Evaluate(src)
			forceWide = true
			wide := b.Evaluate(src)
			forceWide = false
			if tv != wide {
				t.Fatalf("%s: Evaluate %s, on the rational path %s\nstats: %s", e, tv, wide, dumpStats(src))
			}
			if !tv.IsNeeded() {
				pruned++
			}
			for i := range n {
				match, known := b.EvalRow(rows[i])
				if bit := outcomeBit(match, known); tv&bit == 0 {
					t.Fatalf("unsound: %s\nEvaluate says %s but row %v is %s\nstats: %s", e, tv, rows[i], bit, dumpStats(src))
				}
			}
		}
	}
	t.Logf("%d node intervals in int64, %d fell back to rationals, %d units pruned", fastNodes, fellBack, pruned)
	if fastNodes < 100 || fellBack < 10 || pruned < 10 {
		t.Errorf("the cases reach the int64 path %d times, fall back %d times and prune %d units: the test is too weak", fastNodes, fellBack, pruned)
	}
}

// sameIval says how two intervals differ ("" when they do not).
func sameIval(a, b ival) string {
	switch {
	case a.val != b.val || a.null != b.null:
		return fmt.Sprintf("val/null %v/%v vs %v/%v", a.val, a.null, b.val, b.null)
	case !a.val:
		return ""
	case a.bounded != b.bounded:
		return fmt.Sprintf("bounded %v vs %v", a.bounded, b.bounded)
	case a.bounded && (a.lo.r.Cmp(b.lo.r) != 0 || a.hi.r.Cmp(b.hi.r) != 0):
		return fmt.Sprintf("bounds %s..%s vs %s..%s", a.lo.r.RatString(), a.hi.r.RatString(), b.lo.r.RatString(), b.hi.r.RatString())
	}
	return ""
}

// TestIval64Edges checks pruning at the edges of int64: statistics and
// results that fit exactly, and ones one step beyond, which the rational
// path decides; each case's outcome is known.
func TestIval64Edges(t *testing.T) {
	schema := orc.MustParseSchema("struct<a:decimal(18,0),b:decimal(18,18),c:decimal(18,2),d:decimal(18,4),w:decimal(38,0),i:bigint>")
	const big18 = 999_999_999_999_999_999
	dec := func(lo, hi int64, scale int) *stats.Column {
		return &stats.Column{Kind: orc.Decimal, NumValues: 3, HasNullKnown: true, Decimal: &stats.DecimalStats{
			Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(lo), Scale: scale},
			Max: stats.DecimalValue{Unscaled: orc.Int128FromInt64(hi), Scale: scale}, HasMinMax: true}}
	}
	wide, _ := orc.Int128FromBig(new(big.Int).Lsh(big.NewInt(1), 70))
	src := MapSource{Columns: map[int]*stats.Column{
		1: dec(big18-1, big18, 0),    // a near 10^18
		2: dec(-big18, -big18+1, 18), // b near -1
		3: dec(-500, 700, 2),         // c in -5.00 .. 7.00
		4: dec(12345, 12345, 4),      // d = 1.2345
		5: {Kind: orc.Decimal, NumValues: 2, HasNullKnown: true, HasNull: true, Decimal: &stats.DecimalStats{
			Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(1), Scale: 0},
			Max: stats.DecimalValue{Unscaled: wide, Scale: 0}, HasMinMax: true}}, // w up to 2^70
		6: {Kind: orc.Long, NumValues: 2, HasNullKnown: true, Int: &stats.IntStats{Min: math.MaxInt64 - 1, Max: math.MaxInt64, HasMinMax: true}},
	}}
	cases := []struct {
		pred string
		want TruthValue
		fast bool // decided in int64
	}{
		{"a * 9 > 8999999999999999980", Yes, true},    // a * 9 fits: 8999999999999999982 .. 8999999999999999991
		{"a * 9 > 8999999999999999991", No, true},     // the maximum itself
		{"a * 10 >= 9999999999999999980", Yes, false}, // a * 10 overflows int64: rationals
		{"a + a > 1999999999999999996", YesNo, true},  // 2 * (10^18 - 1) < 2^63 fits
		{"b * a < 0", Yes, false},                     // about -10^36 unscaled at scale 18: rationals
		{"c + d > 8.2345", No, true},                  // mixed scales: at most 7.00 + 1.2345
		{"c + d >= 8.2345", YesNo, true},              // exactly the maximum
		{"c * d < -6.1725", No, true},                 // -5.00 * 1.2345 = -6.172500 is the least
		{"c * d <= -6.1725", YesNo, true},
		{"-c - d < -8.2345", No, true},
		{"ABS(c) - d > 5.7655", No, true}, // |c| <= 7, 7 - 1.2345
		{"-w < 0", YesNull, false},        // w beyond int64: rationals
		{"ABS(w) >= 1", YesNull, false},
		{"i + 1 > 0", Yes, false}, // MaxInt64 + 1 overflows: rationals
		{"i - 1 >= 9223372036854775805", Yes, true},
	}
	for _, c := range cases {
		e, err := Parse(c.pred)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Bind(e, schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", c.pred, err)
		}
		var fast bool
		for _, l := range b.leaves {
			if l.term != nil {
				_, fast = l.term.node.ival64Of(src)
			}
		}
		got := b.Evaluate(src)
		forceWide = true
		wideGot := b.Evaluate(src)
		forceWide = false
		if got != c.want || wideGot != c.want {
			t.Errorf("%s: Evaluate %s (rational path %s), want %s", c.pred, got, wideGot, c.want)
		}
		if fast != c.fast {
			t.Errorf("%s: decided in int64 %v, want %v", c.pred, fast, c.fast)
		}
	}
}
