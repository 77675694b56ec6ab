package sarg

import (
	"fmt"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// benchBatch returns vectors for i, s, f, d and ts with n rows.
func benchBatch(n int) (ColumnVectors, int) {
	iv := &orc.LongVector{Values: make([]int64, n), Nulls: orc.Nulls{Nulls: make([]bool, n)}}
	fv := &orc.DoubleVector{Values: make([]float64, n)}
	sv := &orc.BytesVector{}
	dv := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
	tv := &orc.TimestampVector{Seconds: make([]int64, n), Nanos: make([]int32, n)}
	for r := 0; r < n; r++ {
		iv.Values[r] = int64(r * 7 % 1000)
		iv.Nulls.Nulls[r] = r%17 == 0
		fv.Values[r] = float64(r%100) / 100
		sv.AppendString(fmt.Sprintf("k%04d", r%300))
		dv.Values[r] = orc.Int128FromInt64(int64(r * 13))
		tv.Seconds[r], tv.Nanos[r] = int64(r*1000), int32(r)
	}
	return ColumnVectors{1: iv, 4: fv, 6: sv, 10: dv, 12: tv}, n
}

// BenchmarkMatch filters batches of 1,024 rows; SetBytes counts one byte
// per row, so MB/s reads as millions of rows per second.
func BenchmarkMatch(b *testing.B) {
	cols, n := benchBatch(1024)
	var big []Literal
	for k := 0; k < 50; k++ {
		big = append(big, String(fmt.Sprintf("k%04d", k*6)))
	}
	for _, tc := range []struct {
		name string
		e    Expr
	}{
		{"int_eq", MustParse("i = 700")},
		{"int_between", MustParse("i BETWEEN 100 AND 500")},
		{"double_lt", MustParse("f < 0.5")},
		{"string_eq", MustParse("s = 'k0150'")},
		{"string_in3", MustParse("s IN ('k0001', 'k0100', 'k0200')")},
		{"string_in50", In("s", big...)},
		{"decimal_le", MustParse("d <= 100.00")},
		{"timestamp_between", MustParse("ts BETWEEN TIMESTAMP '1970-01-01 00:01:00' AND TIMESTAMP '1970-01-01 00:10:00'")},
		{"tree", MustParse("(i BETWEEN 10 AND 500 OR s IN ('k0001', 'k0002')) AND NOT f < 0.5")},
		{"term_arith", MustParse("i - d > 0 AND (i + 1) * 2 > 10")},
		{"term_double", MustParse("f * 2 + i / 3 > 50")},
		{"term_cols", MustParse("LENGTH(s) > i % 7 OR YEAR(ts) = YEAR(ts)")},
		{"func_leaf", MustParse("i + 1 < 5")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			bound := MustBind(tc.e, testSchema)
			m := bound.NewMatcher()
			dst := make([]bool, n)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, err = m.Match(cols, n, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEvaluate(b *testing.B) {
	c1, c2, c3 := 25, 26, 27
	s1 := &stats.Column{Kind: orc.String, NumValues: 100, HasNullKnown: true, String: &stats.StringStats{Min: "a", Max: "b", HasMin: true, HasMax: true}}
	i2 := &stats.Column{Kind: orc.Int, NumValues: 100, HasNullKnown: true, Int: &stats.IntStats{Min: 0, Max: 10, HasMinMax: true}}
	i3 := &stats.Column{Kind: orc.Int, NumValues: 100, HasNullKnown: true, HasNull: true, Int: &stats.IntStats{Min: 150, Max: 300, HasMinMax: true}}
	var src Source = MapSource{Columns: map[int]*stats.Column{c1: s1, c2: i2, c3: i3}}
	bound := MustBind(MustParse("c1 = '619sdc' OR c2 = 100 AND c3 = 200"), testSchema)
	b.ReportAllocs()
	want := No // c1 excludes '619sdc', c3 excludes 200
	for b.Loop() {
		if bound.Evaluate(src) != want {
			b.Fatal("wrong value")
		}
	}
}

// lineitemBatch returns n rows of lineitem-like columns: q, p, dc
// decimal(15,2) (quantity 1..50, price, discount 0.00..0.10), sd date,
// x double; random, so that comparisons go either way unpredictably.
func lineitemBatch(n int) (*orc.Schema, ColumnVectors) {
	s := orc.MustParseSchema("struct<q:decimal(15,2),p:decimal(15,2),dc:decimal(15,2),sd:date,x:double,y:double>")
	q := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
	p := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
	dc := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: 2}
	sd := &orc.LongVector{Values: make([]int64, n)}
	x := &orc.DoubleVector{Values: make([]float64, n)}
	y := &orc.DoubleVector{Values: make([]float64, n)}
	r := uint64(12345)
	next := func(m uint64) int64 {
		r = r*6364136223846793005 + 1442695040888963407
		return int64((r >> 33) % m)
	}
	for i := range n {
		qty := 1 + next(50)
		q.Values[i] = orc.Int128FromInt64(qty * 100)
		p.Values[i] = orc.Int128FromInt64(qty * (90000 + next(110000)))
		dc.Values[i] = orc.Int128FromInt64(next(11))
		sd.Values[i] = 8000 + next(2500)
		x.Values[i], y.Values[i] = float64(next(1000))/10, float64(next(1000))/10
	}
	return s, ColumnVectors{1: q, 2: p, 3: dc, 4: sd, 5: x, 6: y}
}

// BenchmarkMatchLineitem filters batches of 4,096 lineitem-like rows by
// the compound expressions the bench's exact-filter benchmark uses;
// SetBytes counts one byte per row (MB/s reads as millions of rows per
// second). The cases with term leaves over decimals also run as
// "NAME_general", with the kernels off (term_kernel.go), for a comparison
// in one process.
func BenchmarkMatchLineitem(b *testing.B) {
	const n = 4096
	schema, cols := lineitemBatch(n)
	for _, tc := range []struct{ name, where string }{
		{"price_vs_qty", "p * (1 - dc) > q * 1000"},
		{"revenue_and_date", "p * (1 - dc) > 50000 AND sd >= DATE '1995-01-01'"},
		{"x_minus_y", "p - q * 1500 > 0"},
		{"col_lit_and_or", "dc >= 0.05 AND (q < 24 OR sd < DATE '1994-01-01')"},
		{"double_x_minus_y", "x - y > 0"},
		{"double_arith", "x * (1 - y) > 50 AND x + y < 150"},
	} {
		bound := MustBind(MustParse(tc.where), schema)
		for _, general := range []bool{false, true} {
			name := tc.name
			if general {
				if bound.leaves[0].term == nil || bound.leaves[0].term.kern == nil {
					continue
				}
				name += "_general"
			}
			b.Run(name, func(b *testing.B) {
				m := bound.NewMatcher()
				dst := make([]bool, n)
				kernelOff = general
				defer func() { kernelOff = false }()
				b.SetBytes(n)
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if dst, err = m.Match(cols, n, dst); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEvaluateLineitem decides the lineitem predicates of
// BenchmarkMatchLineitem on one unit's statistics, as the reader does for
// each row group: the term leaves' intervals from decimal and date
// statistics (decimals written with fewer digits than the scale, as
// statistics strings often are).
func BenchmarkEvaluateLineitem(b *testing.B) {
	schema, _ := lineitemBatch(1)
	dec := func(lo, hi int64, scale int) *stats.Column {
		return &stats.Column{Kind: orc.Decimal, NumValues: 10000, HasNullKnown: true, Decimal: &stats.DecimalStats{
			Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(lo), Scale: scale},
			Max: stats.DecimalValue{Unscaled: orc.Int128FromInt64(hi), Scale: scale}, HasMinMax: true}}
	}
	src := MapSource{Columns: map[int]*stats.Column{
		1: dec(1, 50, 0),
		2: dec(9010, 10494950, 2),
		3: dec(0, 1, 1),
		4: {Kind: orc.Date, NumValues: 10000, HasNullKnown: true, Date: &stats.DateStats{Min: 8000, Max: 10499, HasMinMax: true}},
		5: {Kind: orc.Double, NumValues: 10000, HasNullKnown: true, Double: &stats.DoubleStats{Min: 0, Max: 99.9, HasMinMax: true}},
		6: {Kind: orc.Double, NumValues: 10000, HasNullKnown: true, Double: &stats.DoubleStats{Min: 0, Max: 99.9, HasMinMax: true}},
	}}
	for _, tc := range []struct{ name, where string }{
		{"price_vs_qty", "p * (1 - dc) > q * 1000"},
		{"revenue_and_date", "p * (1 - dc) > 50000 AND sd >= DATE '1995-01-01'"},
		{"x_minus_y", "p - q * 1500 > 0"},
		{"col_lit_and_or", "dc >= 0.05 AND (q < 24 OR sd < DATE '1994-01-01')"},
		{"double_arith", "x * (1 - y) > 50 AND x + y < 150"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			bound := MustBind(MustParse(tc.where), schema)
			want := bound.Evaluate(src)
			b.ReportAllocs()
			for b.Loop() {
				if bound.Evaluate(src) != want {
					b.Fatal("changed")
				}
			}
		})
	}
}
