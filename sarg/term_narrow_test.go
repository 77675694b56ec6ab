package sarg

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// narrowSchema holds the columns of the narrow-path test: decimals at
// their precision limits and beyond int64 (w), an integer, doubles.
var narrowSchema = orc.MustParseSchema("struct<a:decimal(18,2),b:decimal(18,4),c:decimal(10,0),i:bigint,w:decimal(38,0),v:decimal(38,10),x:double>")

// narrowValue returns a hard unscaled value for a decimal of precision p:
// zero, ±1, small, near 2^31, 2^53 and 2^63, and the type's limits.
func narrowValue(r *rand.Rand, p int) *big.Int {
	lim := new(big.Int).Sub(pow10Big(p), big.NewInt(1)) // the largest magnitude of the type (pow10Big's value is shared)
	var v *big.Int
	switch r.IntN(10) {
	case 0:
		v = big.NewInt(int64(r.IntN(3)) - 1)
	case 1, 2, 3:
		v = big.NewInt(r.Int64N(200_000) - 100_000)
	case 4:
		v = new(big.Int).Lsh(big.NewInt(1), uint(r.IntN(3)+30))
	case 5:
		v = new(big.Int).Lsh(big.NewInt(1), 53)
	case 6:
		v = new(big.Int).Lsh(big.NewInt(1), 63)
	case 7:
		v = new(big.Int).Set(lim)
	case 8:
		v = new(big.Int).Rsh(lim, uint(r.IntN(8)))
	default:
		v = big.NewInt(r.Int64())
	}
	v.Add(v, big.NewInt(int64(r.IntN(3))-1))
	if r.IntN(2) == 0 {
		v.Neg(v)
	}
	if v.CmpAbs(lim) > 0 {
		v.Set(lim)
		if r.IntN(2) == 0 {
			v.Neg(v)
		}
	}
	return v
}

// Kinds of batches of narrowBatch's decimals.
const (
	smallDecimals = iota // below 10^6: every batch narrow
	int64Decimals        // hard values that fit in int64 (near 2^63 too)
	anyDecimals          // hard values, beyond int64 too
)

// narrowBatch returns n random rows of narrowSchema as vectors and as
// EvalRow's rows; a fifth of the values are null. mode says how large the
// decimals are.
func narrowBatch(r *rand.Rand, n int, mode int) (ColumnVectors, []map[int]any) {
	cols := ColumnVectors{}
	rows := make([]map[int]any, n)
	for i := range rows {
		rows[i] = map[int]any{}
	}
	for _, c := range narrowSchema.Children {
		id := c.ID()
		nulls := make([]bool, n)
		for i := range nulls {
			nulls[i] = r.IntN(5) == 0
		}
		switch c.Kind {
		case orc.Decimal:
			vec := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: c.Scale, Nulls: orc.Nulls{Nulls: nulls}}
			for i := range n {
				u := narrowValue(r, c.Precision)
				switch {
				case mode == smallDecimals:
					u = big.NewInt(r.Int64N(2_000_001) - 1_000_000)
				case mode == int64Decimals && !u.IsInt64():
					u = big.NewInt(math.MaxInt64 - r.Int64N(3))
					if r.IntN(2) == 0 {
						u.Neg(u)
					}
				}
				vec.Values[i], _ = orc.Int128FromBig(u)
				if !nulls[i] {
					rows[i][id] = stats.DecimalValue{Unscaled: vec.Values[i], Scale: c.Scale}
				}
			}
			cols[id] = vec
		case orc.Long:
			vec := &orc.LongVector{Values: make([]int64, n), Nulls: orc.Nulls{Nulls: nulls}}
			for i := range n {
				vec.Values[i] = narrowValue(r, 18).Int64()
				if r.IntN(6) == 0 {
					vec.Values[i] = []int64{math.MaxInt64, -math.MaxInt64, math.MaxInt64 - 1, 0}[r.IntN(4)]
				}
				if mode == anyDecimals && r.IntN(50) == 0 {
					vec.Values[i] = math.MinInt64
				}
				if !nulls[i] {
					rows[i][id] = vec.Values[i]
				}
			}
			cols[id] = vec
		case orc.Double:
			vec := &orc.DoubleVector{Values: make([]float64, n), Nulls: orc.Nulls{Nulls: nulls}}
			for i := range n {
				vec.Values[i] = []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1 << 53, 0.5, -3.25, 1e18}[r.IntN(9)]
				if r.IntN(2) == 0 {
					vec.Values[i] = float64(r.IntN(2000)-1000) / 4
				}
				if !nulls[i] {
					rows[i][id] = vec.Values[i]
				}
			}
			cols[id] = vec
		}
	}
	return cols, rows
}

// narrowGen writes random predicates over narrowSchema that reach the
// narrow paths: decimal arithmetic, rescaling, decimal comparisons of
// terms and of terms with literals, decimals as doubles.
type narrowGen struct{ termGen }

func (g narrowGen) num(depth int) string {
	if depth <= 0 || g.r.IntN(4) == 0 {
		return g.pick("a", "b", "c", "i", "a", "b", "c", "1", "-3", "0", "1000", "0.05", "-2.5", "12345.6789", "999999999999999999", "9223372036854775807")
	}
	switch g.r.IntN(7) {
	case 0, 1, 2:
		return fmt.Sprintf("%s %s %s", g.num(depth-1), g.pick("+", "-", "*", "%"), g.num(depth-1))
	case 3:
		return fmt.Sprintf("(%s %s %s)", g.num(depth-1), g.pick("+", "-", "*"), g.num(depth-1))
	case 4:
		return fmt.Sprintf("-(%s)", g.num(depth-1))
	case 5:
		return fmt.Sprintf("ABS(%s)", g.num(depth-1))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.num(depth-1), g.num(depth-1))
}

func (g narrowGen) pred(depth int) string {
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s %s %s", g.pick("a", "b", "c", "w", "v"), g.pick("=", "<>", "<", "<=", ">", ">="), g.pick("0", "1.5", "-99.99", "99999999999999999999", "-9223372036854775808", "0.0001"))
	case 1:
		return fmt.Sprintf("%s IN (%s)", g.pick("a", "b", "w", "a - b"), g.pick("1, 2", "0, -1.5, 7, 8, 9, 10, 11, 12, 13, 14", "99999999999999999999, 0"))
	case 6:
		lits := []string{"0", "0.01", "-0.01", "1", "-1", "0.0001", "-0.0001", "99999999999999999999"}
		return fmt.Sprintf("%s BETWEEN %s AND %s", g.pick("a", "b", "c", "w", "v"), g.pick(lits...), g.pick(lits...))
	case 2:
		return fmt.Sprintf("%s BETWEEN %s AND %s", g.num(depth), g.num(0), g.num(0))
	case 3:
		return fmt.Sprintf("%s * 1e0 %s %s", g.num(depth), g.pick("<", ">=", "="), g.pick("x", "0.5", "1e18"))
	case 4:
		return fmt.Sprintf("%s %s %s", g.pick("w", "v", "w + 1", "v - a"), g.pick("<", "=", ">="), g.num(depth-1))
	}
	return fmt.Sprintf("%s %s %s", g.num(depth), g.pick("=", "<>", "<", "<=", ">", ">=", "<=>"), g.num(depth))
}

// TestNarrowDecimalDiff checks the 64-bit paths of decimal terms against
// the 128-bit paths (forceWide) and both against EvalRow, row by row, on
// random predicates over hard data: nulls, zeros, decimals at their
// precision limits and beyond int64, values around 2^53 and 2^63, NaN,
// -0.0 and infinities in the doubles they meet.
func TestNarrowDecimalDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 64))
	iters := 200
	if testing.Short() {
		iters = 80
	}
	g := narrowGen{termGen{r}}
	bound, narrowRows, rowsSeen := 0, 0, 0
	for it := range iters {
		text := g.pred(1 + it%3)
		switch r.IntN(4) {
		case 0:
			text = fmt.Sprintf("%s %s %s", text, g.pick("AND", "OR"), g.pred(1))
		case 1:
			text = "NOT (" + text + ")"
		}
		e, err := Parse(text)
		if err != nil {
			continue // a constant division by zero and the like
		}
		b, err := Bind(e, narrowSchema)
		if err != nil {
			if errors.Is(err, ErrTypeMismatch) {
				continue // could exceed 38 digits
			}
			t.Fatalf("Bind(%s): %v", e, err)
		}
		bound++
		fast, wide := b.NewMatcher(), b.NewMatcher()
		for k := range 3 {
			n := 1 + r.IntN(600)
			cols, rows := narrowBatch(r, n, k)
			got, errF := fast.eval3(cols, n)
			got = append([]uint8(nil), got...)
			forceWide = true
			want, errW := wide.eval3(cols, n)
			forceWide = false
			if (errF != nil) != (errW != nil) {
				t.Fatalf("%s: the 64-bit path says %v, the 128-bit path %v", e, errF, errW)
			}
			if errF != nil {
				continue // an overflow both paths report
			}
			for i := range n {
				match, known := b.EvalRow(rows[i])
				ref := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[outcomeBit(match, known)]
				if got[i] != want[i] || got[i] != ref {
					t.Fatalf("%s\nrow %d %v: 64-bit path %d, 128-bit path %d, EvalRow %d", e, i, rows[i], got[i], want[i], ref)
				}
			}
			rowsSeen += n
			if k != anyDecimals {
				narrowRows += n
			}
		}
	}
	t.Logf("%d of %d predicates bound, %d rows compared (%d of them fitting int64)", bound, iters, rowsSeen, narrowRows)
	if bound < iters/3 {
		t.Errorf("only %d of %d predicates bind: the test is too weak", bound, iters)
	}
}

// TestNarrowToDouble checks that decimals read as doubles on the 64-bit
// path are the doubles nearest to them (decFloat), around 2^53 where one
// rounding of an exact integer by a power of ten stops being enough.
func TestNarrowToDouble(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 2))
	for _, scale := range []int{0, 1, 2, 4, 10, 18} {
		c := coercion{from: ttype{k: tkDec, prec: 38, scale: scale}, to: ttype{k: tkDouble}}
		const n = 512
		a := &tvec{d: make([]orc.Int128, n)}
		for i := range n {
			v := int64(1)<<(50+r.IntN(13)) + r.Int64N(1<<20) - 1<<19
			if i%3 == 0 {
				v = -v
			}
			a.d[i] = orc.Int128FromInt64(v)
		}
		var out tvec
		if err := c.eval([]*tvec{a}, n, &out); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if want := decFloat(a.d[i], scale); out.f[i] != want {
				t.Fatalf("scale %d: %d reads as %v, the nearest double is %v", scale, a.d[i].Int64(), out.f[i], want)
			}
		}
	}
}

// TestKleene checks kleeneAnd, kleeneOr, negate and trueRows, which turn
// eight rows a step, against min, max, NOT's table and v == rowTrue, on
// every pair of outcomes at every place in a word and on lengths with
// every tail.
func TestKleene(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 52))
	outcomes := []uint8{rowFalse, rowNull, rowTrue}
	notTable := map[uint8]uint8{rowFalse: rowTrue, rowNull: rowNull, rowTrue: rowFalse}
	for n := 0; n <= 40; n++ {
		for trial := 0; trial < 50; trial++ {
			a, b := make([]uint8, n), make([]uint8, n)
			for i := range a {
				a[i], b[i] = outcomes[rng.IntN(3)], outcomes[rng.IntN(3)]
			}
			and, or, not := slices.Clone(a), slices.Clone(a), slices.Clone(a)
			kleeneAnd(and, b)
			kleeneOr(or, b)
			negate(not)
			yes := make([]bool, n)
			trueRows(yes, a)
			for i := range a {
				if and[i] != min(a[i], b[i]) || or[i] != max(a[i], b[i]) {
					t.Fatalf("%d AND %d = %d, OR = %d; want %d and %d", a[i], b[i], and[i], or[i], min(a[i], b[i]), max(a[i], b[i]))
				}
				if not[i] != notTable[a[i]] || notOutcome(a[i]) != notTable[a[i]] || yes[i] != (a[i] == rowTrue) {
					t.Fatalf("NOT %d = %d, TRUE %v", a[i], not[i], yes[i])
				}
			}
		}
	}
}

// TestFusedNotFitting feeds the fused path 128-bit values whose low words
// look small (2^64 + 5, -2^64 + 7): it must see that they do not fit and
// leave them to the 128-bit path, in either argument order.
func TestFusedNotFitting(t *testing.T) {
	wide := []orc.Int128{{Hi: 1, Lo: 5}, {Hi: -2, Lo: 7}, orc.Int128FromInt64(3)}
	for _, op := range []arithOp{opAdd, opSub, opMul} {
		for _, wideFirst := range []bool{true, false} {
			w := &tvec{d: wide}
			lit := &tvec{d: []orc.Int128{orc.Int128FromInt64(1), orc.Int128FromInt64(1), orc.Int128FromInt64(1)}, filled: 3} // a literal's
			args := []*tvec{w, lit}
			if !wideFirst {
				args = []*tvec{lit, w}
			}
			var out tvec
			if err := (decArith{op: op}).eval(args, len(wide), &out); err != nil {
				t.Fatal(err)
			}
			out.widenDec(len(wide))
			for i, x := range wide {
				a, b := x, orc.Int128FromInt64(1)
				if !wideFirst {
					a, b = b, a
				}
				want, _ := plainArith(op, []any{decRat(stats.DecimalValue{Unscaled: a}), decRat(stats.DecimalValue{Unscaled: b})})
				if got := decRat(stats.DecimalValue{Unscaled: out.d[i]}); got.Cmp(want.(*big.Rat)) != 0 {
					t.Errorf("op %d (wide first %v) row %d: %s, want %s", op, wideFirst, i, got.RatString(), want.(*big.Rat).RatString())
				}
			}
		}
	}
}

// TestNarrowLiteralAcrossBatches: a literal's values are broadcast once
// and kept while batches are no longer, so its int64 form, made for a
// shorter batch after a longer one, must be made again for the next
// longer one. It was kept, and the next batch read past its end (a panic
// the reader's random differential found: "slice bounds out of range").
func TestNarrowLiteralAcrossBatches(t *testing.T) {
	nd := &tnode{t: ttype{k: tkDec, scale: 2, prec: 10}, lit: big.NewRat(15, 10)}
	var v tvec
	nd.broadcast(100, &v) // a batch of 100 rows, its literal not read as int64
	nd.broadcast(98, &v)  // a shorter one, which does
	if !v.narrowDec(98) {
		t.Fatal("1.50 does not read as int64")
	}
	nd.broadcast(100, &v)
	if !v.narrowDec(100) || len(v.n64) < 100 {
		t.Fatalf("after a batch of 98 rows, a batch of 100 has the literal's int64 form for %d", len(v.n64))
	}
	for i, x := range v.n64[:100] {
		if x != 150 {
			t.Fatalf("row %d: %d, want 150", i, x)
		}
	}
}
