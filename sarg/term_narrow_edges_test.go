package sarg

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TestNarrowEdgesByScale filters rows at the limits of decimal(18, s) for
// every scale 0..18 - ±(10^18 - 1), ±1, 0, nulls - with a decimal(38, s)
// column holding a value beyond int64 in one of the batches, by
// predicates whose results fit in int64 (sums), overflow it (products of
// two 18-digit values) or mix scales (with a decimal(10, 0) column): the
// int64 paths must agree row by row with the 128-bit paths (forceWide)
// and with EvalRow, and Evaluate on statistics made from the rows must
// allow every row's outcome.
func TestNarrowEdgesByScale(t *testing.T) {
	const lim = 999_999_999_999_999_999
	vals := []int64{lim, -lim, 1, -1, 0, lim - 1, -lim + 1, 123456789012345678}
	preds := []string{
		"a + b > 0", "a - b >= a", "a * b > 0", "a * b < c", "a * c <= b * c",
		"-a < b", "ABS(a) - b > 0", "w < a + b", "a * c >= w", "a * 2 > b", "a = b OR a * c > w", "-w < c",
	}
	checked, refused := 0, 0
	for s := 0; s <= 18; s++ {
		schema := orc.MustParseSchema(fmt.Sprintf("struct<a:decimal(18,%d),b:decimal(18,%d),c:decimal(10,0),w:decimal(38,%d)>", s, s, s))
		for _, p := range preds {
			b, err := Bind(MustParse(p), schema)
			if errors.Is(err, ErrTypeMismatch) {
				refused++ // a * b < c at a large scale: c rescaled could exceed 38 digits
				continue
			}
			if err != nil {
				t.Fatalf("scale %d: Bind(%s): %v", s, p, err)
			}
			checked++
			for batch := range 2 {
				cols, rows := edgeBatch(vals, s, batch == 1)
				n := len(rows)
				fast, wide := b.NewMatcher(), b.NewMatcher()
				got, errF := fast.eval3(cols, n)
				got = append([]uint8(nil), got...)
				forceWide = true
				want, errW := wide.eval3(cols, n)
				forceWide = false
				if errF != nil || errW != nil {
					t.Fatalf("scale %d %s: %v / %v", s, p, errF, errW)
				}
				src := edgeStats(cols)
				tv := b.Evaluate(src)
				for i := range n {
					match, known := b.EvalRow(rows[i])
					bit := outcomeBit(match, known)
					ref := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
					if got[i] != ref || want[i] != ref {
						t.Fatalf("scale %d %s row %d %v: int64 path %d, 128-bit path %d, EvalRow %d", s, p, i, rows[i], got[i], want[i], ref)
					}
					if tv&bit == 0 {
						t.Fatalf("scale %d %s: Evaluate says %s but row %d %v is %s", s, p, tv, i, rows[i], bit)
					}
				}
			}
		}
	}
	if checked < 10*refused {
		t.Errorf("%d predicates checked, %d refused by Bind: the test is too weak", checked, refused)
	}
}

// edgeBatch returns every pair of vals as rows of a and b (unscaled at
// scale s), c cycling through small integers, w equal to a, and nulls in
// the last rows; beyond puts 10^20 into one row of w.
func edgeBatch(vals []int64, s int, beyond bool) (ColumnVectors, []map[int]any) {
	n := len(vals)*len(vals) + 3
	a := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: s, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	bv := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: s, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	c := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 0, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	w := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: s, Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	rows := make([]map[int]any, n)
	for i := range n {
		rows[i] = map[int]any{}
		x, y := vals[i%len(vals)], vals[(i/len(vals))%len(vals)]
		a.Values[i], bv.Values[i] = orc.Int128FromInt64(x), orc.Int128FromInt64(y)
		c.Values[i] = orc.Int128FromInt64(int64(i%7) - 3)
		w.Values[i] = a.Values[i]
		if beyond && i == 5 {
			w.Values[i], _ = orc.Int128FromBig(new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil))
		}
		for k, v := range []*orc.DecimalVector{a, bv, c, w} {
			if i >= n-3 && (k == i-(n-3) || k == 3) {
				v.Nulls.Nulls[i] = true // rows with a, b or c null, and w too
				continue
			}
			rows[i][k+1] = stats.DecimalValue{Unscaled: v.Values[i], Scale: v.Scale}
		}
	}
	return ColumnVectors{1: a, 2: bv, 3: c, 4: w}, rows
}

// edgeStats returns each column's exact statistics over its non-null rows.
func edgeStats(cols ColumnVectors) MapSource {
	src := MapSource{Columns: map[int]*stats.Column{}}
	for id, v := range cols {
		d := v.(*orc.DecimalVector)
		st := &stats.Column{Kind: orc.Decimal, HasNullKnown: true, Decimal: &stats.DecimalStats{HasMinMax: true}}
		for i, x := range d.Values {
			if d.Nulls.Nulls[i] {
				st.HasNull = true
				continue
			}
			if st.NumValues == 0 || x.Cmp(st.Decimal.Min.Unscaled) < 0 {
				st.Decimal.Min = stats.DecimalValue{Unscaled: x, Scale: d.Scale}
			}
			if st.NumValues == 0 || x.Cmp(st.Decimal.Max.Unscaled) > 0 {
				st.Decimal.Max = stats.DecimalValue{Unscaled: x, Scale: d.Scale}
			}
			st.NumValues++
		}
		src.Columns[id] = st
	}
	return src
}
