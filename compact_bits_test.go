package orc

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// toBits is keep as CompactBits reads it.
func toBits(keep []bool) []uint64 {
	w := make([]uint64, (len(keep)+63)/64)
	for i, k := range keep {
		if k {
			w[i/64] |= 1 << (i % 64)
		}
	}
	return w
}

// maskRows lists the rows keep selects.
func maskRows(keep []bool) []int32 {
	var rows []int32
	for i, k := range keep {
		if k {
			rows = append(rows, int32(i))
		}
	}
	return rows
}

// randomMask returns a mask of n rows: all kept, none, a kept prefix and
// then random rows, or random rows of a random density.
func randomMask(rng *rand.Rand, n int) []bool {
	keep := make([]bool, n)
	p := rng.Float64()
	prefix := 0
	switch rng.IntN(5) {
	case 0:
		p = 1
	case 1:
		p = 0
	case 2:
		prefix = rng.IntN(n + 1)
	}
	for i := range keep {
		keep[i] = i < prefix || rng.Float64() < p
	}
	return keep
}

// hardInt64 returns a value of a column's hardest cases, or a random one.
func hardInt64(rng *rand.Rand) int64 {
	hard := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1}
	if rng.IntN(2) == 0 {
		return hard[rng.IntN(len(hard))]
	}
	return int64(rng.Uint64())
}

// hardFloat returns NaN (of several payloads), -0.0, infinities, limits,
// or a random value.
func hardFloat(rng *rand.Rand) float64 {
	hard := []float64{math.NaN(), math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff0000000000001),
		math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64}
	if rng.IntN(2) == 0 {
		return hard[rng.IntN(len(hard))]
	}
	return math.Float64frombits(rng.Uint64())
}

// TestCompactBitsMatchesCompact compares CompactBits with Compact of the
// rows selected, value by value (floats by their bits: NaN payloads and
// -0.0), on every flat vector type, with and without nulls, every length
// to 200 (whole words of bits and partial ones), selections dense, empty, full, with a kept prefix, and shorter than
// the vector; a nested vector (the listing fallback) too.
func TestCompactBitsMatchesCompact(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 11))
	for trial := range 4000 {
		n := trial % 201
		vn := n
		if trial%7 == 0 {
			vn += rng.IntN(9) // rows past the mask are dropped
		}
		keep := randomMask(rng, n)
		var nulls []bool
		if rng.IntN(2) == 0 {
			nulls = make([]bool, vn)
			for i := range nulls {
				nulls[i] = rng.IntN(3) == 0
			}
		}
		longs := &LongVector{Values: make([]int64, vn)}
		doubles := &DoubleVector{Values: make([]float64, vn)}
		decs := &DecimalVector{Values: make([]Int128, vn)}
		tss := &TimestampVector{Seconds: make([]int64, vn), Nanos: make([]int32, vn)}
		strs := &BytesVector{Offsets: make([]int, vn+1)}
		for i := range vn {
			longs.Values[i] = hardInt64(rng)
			doubles.Values[i] = hardFloat(rng)
			decs.Values[i] = Int128{Hi: hardInt64(rng), Lo: uint64(hardInt64(rng))}
			tss.Seconds[i], tss.Nanos[i] = hardInt64(rng), int32(rng.Uint32())
			strs.Data = append(strs.Data, make([]byte, rng.IntN(4))...)
			strs.Offsets[i+1] = len(strs.Data)
		}
		st := &StructVector{Fields: []Vector{&LongVector{Values: slices.Clone(longs.Values)}}, N: vn}
		vecs := []Vector{longs, doubles, decs, tss, strs, st}
		for _, v := range vecs {
			switch x := v.(type) {
			case *LongVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			case *DoubleVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			case *DecimalVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			case *TimestampVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			case *BytesVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			case *StructVector:
				x.Nulls.Nulls = slices.Clone(nulls)
			}
		}
		rows := maskRows(keep)
		for _, v := range vecs {
			want, got := cloneVector(v), cloneVector(v)
			Compact(want, rows)
			truncateTo(want, len(rows))
			CompactBits(got, toBits(keep), n)
			if msg := sameVector(want, got); msg != "" {
				t.Fatalf("trial %d, %T of %d rows, mask %v: %s", trial, v, vn, keep, msg)
			}
		}
	}
}

// cloneVector copies a vector of the types the test makes.
func cloneVector(v Vector) Vector {
	switch x := v.(type) {
	case *LongVector:
		return &LongVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, Values: slices.Clone(x.Values)}
	case *DoubleVector:
		return &DoubleVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, Values: slices.Clone(x.Values)}
	case *DecimalVector:
		return &DecimalVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, Values: slices.Clone(x.Values)}
	case *TimestampVector:
		return &TimestampVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, Seconds: slices.Clone(x.Seconds), Nanos: slices.Clone(x.Nanos)}
	case *BytesVector:
		return &BytesVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, Data: slices.Clone(x.Data), Offsets: slices.Clone(x.Offsets)}
	case *StructVector:
		return &StructVector{Nulls: Nulls{slices.Clone(x.Nulls.Nulls)}, N: x.N, Fields: []Vector{cloneVector(x.Fields[0])}}
	}
	panic("unexpected vector")
}

// truncateTo cuts a flat vector compacted by Compact to its k rows:
// Compact of a vector longer than the rows' range keeps len(rows) rows,
// as CompactBits does.
func truncateTo(v Vector, k int) {
	switch x := v.(type) {
	case *LongVector:
		x.Values = x.Values[:k]
	case *DoubleVector:
		x.Values = x.Values[:k]
	case *DecimalVector:
		x.Values = x.Values[:k]
	case *TimestampVector:
		x.Seconds, x.Nanos = x.Seconds[:k], x.Nanos[:k]
	}
	if n := nullsOfVector(v); len(*n) > k {
		*n = (*n)[:k]
	}
}

func nullsOfVector(v Vector) *[]bool {
	switch x := v.(type) {
	case *LongVector:
		return &x.Nulls.Nulls
	case *DoubleVector:
		return &x.Nulls.Nulls
	case *DecimalVector:
		return &x.Nulls.Nulls
	case *TimestampVector:
		return &x.Nulls.Nulls
	case *BytesVector:
		return &x.Nulls.Nulls
	case *StructVector:
		return &x.Nulls.Nulls
	}
	panic("unexpected vector")
}

// sameVector describes the first difference of two vectors, or "".
func sameVector(a, b Vector) string {
	if !slices.Equal(*nullsOfVector(a), *nullsOfVector(b)) {
		return "nulls differ"
	}
	switch x := a.(type) {
	case *LongVector:
		if y := b.(*LongVector); !slices.Equal(x.Values, y.Values) {
			return "values differ"
		}
	case *DoubleVector:
		y := b.(*DoubleVector)
		if len(x.Values) != len(y.Values) {
			return "lengths differ"
		}
		for i := range x.Values {
			if math.Float64bits(x.Values[i]) != math.Float64bits(y.Values[i]) {
				return "values differ"
			}
		}
	case *DecimalVector:
		if y := b.(*DecimalVector); !slices.Equal(x.Values, y.Values) {
			return "values differ"
		}
	case *TimestampVector:
		if y := b.(*TimestampVector); !slices.Equal(x.Seconds, y.Seconds) || !slices.Equal(x.Nanos, y.Nanos) {
			return "values differ"
		}
	case *BytesVector:
		if y := b.(*BytesVector); !slices.Equal(x.Data, y.Data) || !slices.Equal(x.Offsets, y.Offsets) {
			return "values differ"
		}
	case *StructVector:
		y := b.(*StructVector)
		if x.N != y.N {
			return "struct rows differ"
		}
		return sameVector(x.Fields[0], y.Fields[0])
	}
	return ""
}
