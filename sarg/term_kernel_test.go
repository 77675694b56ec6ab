package sarg

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// kernelSchema is the table of the kernel tests: decimals of 18 digits at
// scale 2 (a, b), at scale 0 (c), of 30 digits (w, whose values may not
// fit in an int64) and a bigint (i).
const kernelSchema = "struct<a:decimal(18,2),b:decimal(18,2),c:decimal(10,0),w:decimal(30,2),i:bigint>"

// kernelPreds are predicates over kernelSchema: comparisons of two terms,
// of a term with literals (=, <, <=, BETWEEN, IN, <=>), rescales, products
// with literals to fold, and forms with no kernel (%, /, IS NULL).
var kernelPreds = []string{
	"a * (1 - b) > c * 1000",
	"a - c * 1500 > 0",
	"a * (1 - b) > 50000",
	"a + b = c",
	"a * 10 * 100 < b",
	"c * 1000 * 1000 * 1000 * 1000 * 1000 * 1000 > a",
	"w - a >= b",
	"w * 2 <= a",
	"-a < b + c",
	"ABS(a - b) <= 3",
	"a - b BETWEEN -5 AND 5",
	"a + c IN (1, 2.5, 300, -7)",
	"a * c <=> b",
	"a + b <=> 7",
	"i * 3 + c > a",
	"i - 5 < 100",
	"i * i > i + 2",
	"w + w > i",
	"i + i < w",
	"w - i > 0",
	"i + i > c",
	"c * c * c > i - c",
	"(a + b) * (a - b) > c * c",
	"a * b > w",
	"a % 7 > 3",
	"a + b IS NULL",
	"NOT (a * 2 > b)",
	// Plain leaves: cmpConstLow where bounds prove the values fit.
	"a < 12.5",
	"a <= -3",
	"b = 0",
	"a BETWEEN -100 AND 100.01",
	"w < 5",
	"w BETWEEN -1 AND 1",
	"c >= 7",
	"a IN (1, 2)",
	"a > 9223372036854775.80",
	"a >= -9223372036854775.80",
	// NOT of < and <= that leaves give themselves (x >= c, x > c).
	"i > 7",
	"i >= -3",
	"i > 9223372036854775807",
	"i >= -9223372036854775808",
	"a >= 5",
	"NOT (a <= -0.01)",
	"a * 2 >= b",
	"NOT (a - b < c)",
	"a + 1 > 0",
	"i * 2 >= 10",
	"a + b >= b + a", // equal sides in every row: NOT x < y is y <= x
	"NOT (a + b <= b + a)",
}

// TestKernelCompiled checks which terms compile to kernels, and that a
// product with literals after a product with a literal is folded.
func TestKernelCompiled(t *testing.T) {
	schema := orc.MustParseSchema(kernelSchema)
	want := map[string]string{
		"a * (1 - b) > c * 1000": "kernel",
		"a * 10 * 100 < b":       "folded",
		"a % 7 > 3":              "",
		"a + b IS NULL":          "",
		"a * c <=> b":            "",
		"i * i > i + 2":          "kernel",
		"a - c * 1500 > 0":       "kernel",
	}
	for p, w := range want {
		b, err := Bind(MustParse(p), schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		k := b.leaves[0].term.kern
		switch {
		case w == "" && k != nil:
			t.Errorf("%s: compiled to a kernel, want none", p)
		case w != "" && k == nil:
			t.Errorf("%s: no kernel", p)
		case p == "a * (1 - b) > c * 1000":
			// 1 - b at scale 2 is 100 - b; the rescale of c * 1000 (scale 0)
			// to scale 4 folds into the product: c * 10^7.
			if len(k.code) != 3 || k.code[2].op != opMul || k.code[2].b.c != 10_000_000 {
				t.Errorf("%s: code %+v, want three operations ending in c * 10^7", p, k.code)
			}
		case w == "folded":
			// a * 10 * 100 (scale 2) compared with b (scale 2): one product.
			if len(k.code) != 2 || k.code[0].op != opMul || k.code[0].b.c != 1000 {
				t.Errorf("%s: code %+v, want a * 1000 and b read", p, k.code)
			}
		}
	}
}

// TestKernelDiff compares the kernels row by row with the general path
// (int64 where it proves no overflow, else 128 bits), with the 128-bit
// path alone (forceWide) and with EvalRow, on batches that span several
// chunks: values at the limits of int64 and of decimal(18), 0, ±1, nulls
// in every column, and batches where w holds a value beyond int64 in a
// late chunk (the kernel gives up after computing the chunks before it).
func TestKernelDiff(t *testing.T) {
	schema := orc.MustParseSchema(kernelSchema)
	rng := rand.New(rand.NewPCG(52, 1))
	ran, fellBack := 0, 0
	for _, p := range kernelPreds {
		b, err := Bind(MustParse(p), schema)
		if err != nil {
			t.Fatalf("Bind(%s): %v", p, err)
		}
		for trial := range 100 {
			n := []int{0, 1, kernChunk - 1, kernChunk, kernChunk + 1, 3*kernChunk + 17}[trial%6]
			cols, rows := kernelBatch(rng, n, trial)
			got, errK := b.NewMatcher().eval3(cols, n)
			got = append([]uint8(nil), got...)
			kernelOff = true
			gen, errG := b.NewMatcher().eval3(cols, n)
			gen = append([]uint8(nil), gen...)
			forceWide = true
			wide, errW := b.NewMatcher().eval3(cols, n)
			kernelOff, forceWide = false, false
			// With the least bounds the values keep: columns below 2^63 are
			// read by their low words unchecked.
			mb := b.NewMatcher()
			mb.bounds = leastBounds(cols, n)
			bnd, errB := mb.eval3(cols, n)
			bnd = append([]uint8(nil), bnd...)
			// And with NOT negating in a pass of its own, bounds given.
			notFoldOff = true
			mu := b.NewMatcher()
			mu.bounds = mb.bounds
			unf, errU := mu.eval3(cols, n)
			notFoldOff = false
			if errK != nil || errG != nil || errW != nil || errB != nil || errU != nil {
				t.Fatalf("%s: errors %v / %v / %v / %v / %v", p, errK, errG, errW, errB, errU)
			}
			for i := range n {
				if got[i] != gen[i] || got[i] != wide[i] || got[i] != bnd[i] || got[i] != unf[i] {
					t.Fatalf("%s trial %d row %d %v: kernel %d, general path %d, 128-bit path %d, bounded %d, NOT apart %d (bounds %v)",
						p, trial, i, rows[i], got[i], gen[i], wide[i], bnd[i], unf[i], mb.bounds)
				}
				if i%97 == 0 {
					match, known := b.EvalRow(rows[i])
					ref := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[outcomeBit(match, known)]
					if got[i] != ref {
						t.Fatalf("%s trial %d row %d %v: kernel %d, EvalRow %d", p, trial, i, rows[i], got[i], ref)
					}
				}
			}
			if k := b.leaves[0].term; k != nil && k.kern != nil && n > 0 {
				if ok, _ := k.kern.run(cols, nil, n, make([]uint8, n), k.kern.scratch(), false); ok {
					ran++
				} else {
					fellBack++
				}
			}
		}
	}
	if ran < 100 || fellBack < 20 {
		t.Errorf("kernels ran on %d batches and gave up on %d: the test is too weak", ran, fellBack)
	}
}

// leastBounds returns, for each decimal column of cols, the least b with
// every |v| < 2^b over rows 0..n-1, null rows included.
func leastBounds(cols ColumnVectors, n int) ColumnBounds {
	bs := ColumnBounds{}
	for id, v := range cols {
		d, ok := v.(*orc.DecimalVector)
		if !ok {
			continue
		}
		b := 0
		for _, x := range d.Values[:n] {
			b = max(b, new(big.Int).Abs(x.Big()).BitLen())
		}
		bs[id] = b
	}
	return bs
}

// kernelBatch returns n rows of kernelSchema's columns (ids 1 to 5) and
// their EvalRow values. Trials 0-5 hold small values (money), 6-8 values at
// the limits (±(10^18 - 1), ±(2^63 - 1), math.MinInt64 in w and i), 9-11
// small values but one beyond int64 in w (2^63 in trial 10), late in the
// batch, the others
// values whose products and sums lie near 2^63, on either side.
func kernelBatch(rng *rand.Rand, n, trial int) (ColumnVectors, []map[int]any) {
	dec := func(scale int) *orc.DecimalVector {
		return &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: scale, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	}
	a, bv, c, w := dec(2), dec(2), dec(0), dec(2)
	iv := &orc.LongVector{Values: make([]int64, n), Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	limits := []int64{999_999_999_999_999_999, -999_999_999_999_999_999, math.MaxInt64, -math.MaxInt64, math.MinInt64, 0, 1, -1}
	pick := func(limit bool) int64 {
		if limit && rng.IntN(3) == 0 {
			return limits[rng.IntN(len(limits))]
		}
		return rng.Int64N(2_000_001) - 1_000_000
	}
	limit := trial >= 6 && trial <= 8
	// From trial 12: each column's values have one bit length in the batch
	// (a and b 1-59 bits, c 1-33, w and i 1-63), so that products and sums
	// land on both sides of 2^63.
	// In even trials, half of them take one of the top four lengths.
	lens := []int{59, 59, 33, 63, 63}
	for k, l := range lens {
		if trial%2 == 0 && rng.IntN(2) == 0 {
			lens[k] = l - rng.IntN(4)
		} else {
			lens[k] = 1 + rng.IntN(l)
		}
	}
	bitLen := func(k int) int64 {
		l := lens[k]
		v := int64(1)<<(l-1) | rng.Int64N(1<<(l-1))
		if rng.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	rows := make([]map[int]any, n)
	for r := range n {
		for k, d := range []*orc.DecimalVector{a, bv, c, w} {
			v := pick(limit && k == 3)
			if limit && k < 3 && rng.IntN(3) == 0 {
				v = limits[rng.IntN(2)] // decimal(18) and decimal(10) hold at most 18 digits
				if k == 2 {
					v /= 100_000_000
				}
			}
			if trial >= 12 {
				v = bitLen(k)
			}
			d.Values[r] = orc.Int128FromInt64(v)
		}
		iv.Values[r] = pick(limit)
		if trial >= 12 {
			iv.Values[r] = bitLen(4)
		}
		if trial >= 9 && trial < 12 && r == n-n/5-1 {
			w.Values[r], _ = orc.Int128FromBig(new(big.Int).Lsh(big.NewInt(3), 70))
			if trial == 10 {
				w.Values[r] = orc.Int128{Lo: 1 << 63} // 2^63, whose low word read alone is math.MinInt64
			}
		}
		rows[r] = map[int]any{}
		for k, d := range []*orc.DecimalVector{a, bv, c, w} {
			if d.Nulls.Nulls[r] = rng.IntN(16) == 0; !d.Nulls.Nulls[r] {
				rows[r][k+1] = stats.DecimalValue{Unscaled: d.Values[r], Scale: d.Scale}
			}
		}
		if iv.Nulls.Nulls[r] = rng.IntN(16) == 0; !iv.Nulls.Nulls[r] {
			rows[r][5] = iv.Values[r]
		}
	}
	return ColumnVectors{1: a, 2: bv, 3: c, 4: w, 5: iv}, rows
}

// TestKernelNullMasks checks the kernel's null rows when no column, one
// or several columns have a null mask (merged in a buffer of the
// kernel's, never in a column's), over two batches with one Matcher.
func TestKernelNullMasks(t *testing.T) {
	schema := orc.MustParseSchema(kernelSchema)
	b, err := Bind(MustParse("a * (1 - b) > c * 1000"), schema)
	if err != nil {
		t.Fatal(err)
	}
	m := b.NewMatcher()
	for _, mask := range []string{"", "a", "b", "ab", "abc", "c"} {
		n := 2*kernChunk + 3
		cols := ColumnVectors{}
		for k, name := range []string{"a", "b", "c"} {
			d := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
			if name == "c" {
				d.Scale = 0
			}
			for r := range n {
				d.Values[r] = orc.Int128FromInt64(int64(r%5 + k))
			}
			for _, x := range mask {
				if string(x) == name {
					d.Nulls.Nulls = make([]bool, n)
					for r := k; r < n; r += 7 {
						d.Nulls.Nulls[r] = true
					}
				}
			}
			cols[k+1] = d
		}
		before := fmt.Sprint(cols[1].(*orc.DecimalVector).Nulls.Nulls)
		got, err := m.eval3(cols, n)
		if err != nil {
			t.Fatal(err)
		}
		got = append([]uint8(nil), got...)
		kernelOff = true
		want, _ := b.NewMatcher().eval3(cols, n)
		kernelOff = false
		for r := range n {
			if got[r] != want[r] {
				t.Fatalf("nulls in %q: row %d kernel %d, general path %d", mask, r, got[r], want[r])
			}
		}
		if fmt.Sprint(cols[1].(*orc.DecimalVector).Nulls.Nulls) != before {
			t.Fatalf("nulls in %q: the kernel wrote into a column's null mask", mask)
		}
	}
}

// TestWideMag checks the bound kernels read from 128-bit values' low words
// one value at a time: values that do not fit in an int64 (just beyond
// either end, high words other than 0 and -1) must be refused, those
// below 2^62 in magnitude taken (the bound is one bit looser than
// narrowDec's), and for those taken |v| < 2^mag must hold, at every power
// of two and next to it.
func TestWideMag(t *testing.T) {
	var vals []orc.Int128
	for k := 0; k <= 64; k++ {
		p := new(big.Int).Lsh(big.NewInt(1), uint(k))
		for _, d := range []int64{-1, 0, 1} {
			for _, sign := range []int64{1, -1} {
				v := new(big.Int).Add(p, big.NewInt(d))
				v.Mul(v, big.NewInt(sign))
				x, ok := orc.Int128FromBig(v)
				if ok {
					vals = append(vals, x)
				}
			}
		}
	}
	vals = append(vals, orc.Int128{Hi: 1}, orc.Int128{Hi: -2, Lo: math.MaxUint64}, orc.Int128{Hi: math.MaxInt64, Lo: 5}, orc.Int128{})
	r := make([]int64, 1)
	for _, x := range vals {
		hs, acc := wideConst(opAdd, []orc.Int128{x}, 0, r, true)
		mag := wideMag(hs, acc)
		fits, small := x.IsInt64(), new(big.Int).Abs(x.Big()).BitLen() <= 62
		taken := mag <= narrowMax
		if taken && !fits || small && !taken {
			t.Errorf("%s: bound %d, fits in an int64 %v", x.Big(), mag, fits)
			continue
		}
		if taken && new(big.Int).Abs(x.Big()).Cmp(new(big.Int).Lsh(big.NewInt(1), uint(mag))) >= 0 {
			t.Errorf("%s: |v| >= 2^%d", x.Big(), mag)
		}
		if taken && r[0] != x.Int64() {
			t.Errorf("%s: read as %d", x.Big(), r[0])
		}
	}
}

// TestLowLoops compares the unchecked loops that read decimals known to
// fit in an int64 (lowConst, lowRegs, cmpConstLow) with the checked ones
// (wideConst, wideRegs, matchDecLow), for every operator and operand
// order, on values up to the int64 limits.
func TestLowLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 2))
	n := 300
	w := make([]orc.Int128, n)
	v := make([]int64, n)
	for i := range w {
		x := int64(rng.Uint64()) >> rng.IntN(64)
		if i%50 == 0 {
			x = []int64{math.MaxInt64, math.MinInt64, 0, -1, 1, -math.MaxInt64}[i/50]
		}
		w[i] = orc.Int128FromInt64(x)
		v[i] = int64(rng.Uint64()) >> rng.IntN(64)
	}
	for _, c := range []int64{int64(rng.Uint64()) >> 20, math.MinInt64, math.MaxInt64, 0, -1} {
		for _, m := range []int{n, n - 3, 7} { // eight rows a step, then the rest
			for _, op := range []arithOp{opAdd, opSub, opMul} {
				for _, wideFirst := range []bool{true, false} {
					got, want := make([]int64, m), make([]int64, m)
					lowConst(op, w[:m], c, got, wideFirst)
					wideConst(op, w[:m], c, want, wideFirst)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("lowConst(%v, %d, wideFirst %v) on %d rows differs from wideConst", op, c, wideFirst, m)
					}
					lowRegs(op, w[:m], v[:m], got, wideFirst)
					wideRegs(op, w[:m], v[:m], want, wideFirst)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("lowRegs(%v, wideFirst %v) on %d rows differs from wideRegs", op, wideFirst, m)
					}
				}
			}
		}
	}
	for _, op := range []LeafOp{LeafEquals, LeafLessThan, LeafLessThanEquals, LeafBetween} {
		for _, lits := range [][]int64{{w[7].Int64(), w[9].Int64()}, {-5, 5}, {math.MinInt64, math.MaxInt64}, {0, 0}} {
			if op == LeafBetween && lits[0] > lits[1] {
				lits = []int64{lits[1], lits[0]}
			}
			got, want := make([]uint8, n), make([]uint8, n)
			if !cmpConstLow(op, lits, w, got) {
				t.Fatalf("cmpConstLow(%v) did not compare", op)
			}
			if ok, done := matchDecLow(op, lits, w, want); !ok || !done {
				t.Fatalf("matchDecLow(%v): ok %v done %v", op, ok, done)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("cmpConstLow(%v, %v) differs from matchDecLow", op, lits)
			}
		}
	}
}
