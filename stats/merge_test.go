package stats

import (
	"math"
	"testing"

	"github.com/orcgo/orc"
)

func TestColumnMergeTable(t *testing.T) {
	str := func(n uint64, s *StringStats) Column {
		return Column{Kind: orc.String, NumValues: n, HasNullKnown: true, String: s}
	}
	intc := func(n uint64, s *IntStats) Column {
		return Column{Kind: orc.Int, NumValues: n, HasNullKnown: true, Int: s}
	}
	cases := []struct {
		name string
		a, b Column
		want Column
	}{
		{"ints", intc(2, &IntStats{Min: -1, Max: 5, HasMinMax: true, Sum: 4, HasSum: true}),
			intc(1, &IntStats{Min: 7, Max: 7, HasMinMax: true, Sum: 7, HasSum: true}),
			intc(3, &IntStats{Min: -1, Max: 7, HasMinMax: true, Sum: 11, HasSum: true})},
		{"int sum overflow", intc(1, &IntStats{Min: math.MaxInt64, Max: math.MaxInt64, HasMinMax: true, Sum: math.MaxInt64, HasSum: true}),
			intc(1, &IntStats{Min: 1, Max: 1, HasMinMax: true, Sum: 1, HasSum: true}),
			intc(2, &IntStats{Min: 1, Max: math.MaxInt64, HasMinMax: true})},
		{"empty side is neutral", intc(0, &IntStats{HasSum: true}),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true, Sum: 3, HasSum: true}),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true, Sum: 3, HasSum: true})},
		{"empty side without any typed part is neutral", intc(0, nil),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true}),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true})},
		{"unknown typed part with values wins", intc(4, nil),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true}),
			intc(5, nil)},
		{"unknown bounds with values win", intc(4, &IntStats{Sum: 9, HasSum: true}),
			intc(1, &IntStats{Min: 3, Max: 3, HasMinMax: true, Sum: 3, HasSum: true}),
			intc(5, &IntStats{Sum: 12, HasSum: true})},
		{"has_null: or; known: and",
			Column{Kind: orc.Struct, NumValues: 1, HasNull: true, HasNullKnown: true, BytesOnDisk: 10},
			Column{Kind: orc.Struct, NumValues: 2, HasNull: true, BytesOnDisk: 5},
			Column{Kind: orc.Struct, NumValues: 3, HasNull: true, BytesOnDisk: 15}},
		{"kinds differ", intc(1, &IntStats{Min: 1, Max: 1, HasMinMax: true}),
			str(1, &StringStats{Min: "a", Max: "a", HasMin: true, HasMax: true}),
			Column{Kind: orc.Int, NumValues: 2, HasNullKnown: true}},
		{"strings", str(1, &StringStats{Min: "b", Max: "c", HasMin: true, HasMax: true, Sum: 2, HasSum: true}),
			str(1, &StringStats{Min: "a", Max: "bz", HasMin: true, HasMax: true, Sum: 3, HasSum: true}),
			str(2, &StringStats{Min: "a", Max: "c", HasMin: true, HasMax: true, Sum: 5, HasSum: true})},
		// A lower bound "ab" is below every value of its side, so an exact
		// "ab" on the other side is the true minimum; likewise for maxima.
		{"bound tie: exact min wins (bound first)", str(1, &StringStats{Min: "ab", MinIsLowerBound: true, Max: "zz", MaxIsUpperBound: true, HasMin: true, HasMax: true}),
			str(1, &StringStats{Min: "ab", Max: "zz", HasMin: true, HasMax: true}),
			str(2, &StringStats{Min: "ab", Max: "zz", HasMin: true, HasMax: true})},
		{"bound tie: exact min wins (exact first)", str(1, &StringStats{Min: "ab", Max: "zz", HasMin: true, HasMax: true}),
			str(1, &StringStats{Min: "ab", MinIsLowerBound: true, Max: "zz", MaxIsUpperBound: true, HasMin: true, HasMax: true}),
			str(2, &StringStats{Min: "ab", Max: "zz", HasMin: true, HasMax: true})},
		{"bounds below an exact min stay bounds", str(1, &StringStats{Min: "aa", MinIsLowerBound: true, Max: "zzz", MaxIsUpperBound: true, HasMin: true, HasMax: true}),
			str(1, &StringStats{Min: "ab", Max: "zz", HasMin: true, HasMax: true}),
			str(2, &StringStats{Min: "aa", MinIsLowerBound: true, Max: "zzz", MaxIsUpperBound: true, HasMin: true, HasMax: true})},
		{"writer version 0 strings: bounds unknown", str(2, &StringStats{Sum: 2, HasSum: true}),
			str(1, &StringStats{Min: "a", Max: "a", HasMin: true, HasMax: true, Sum: 1, HasSum: true}),
			str(3, &StringStats{Sum: 3, HasSum: true})},
		{"decimals of different scales",
			Column{Kind: orc.Decimal, NumValues: 1, Decimal: &DecimalStats{Min: dec(12345, 4), Max: dec(12345, 4), HasMinMax: true, Sum: dec(12345, 4), HasSum: true}},
			Column{Kind: orc.Decimal, NumValues: 1, Decimal: &DecimalStats{Min: dec(150, 2), Max: dec(150, 2), HasMinMax: true, Sum: dec(150, 2), HasSum: true}},
			Column{Kind: orc.Decimal, NumValues: 2, Decimal: &DecimalStats{Min: dec(12345, 4), Max: dec(150, 2), HasMinMax: true, Sum: dec(27345, 4), HasSum: true}}},
		{"timestamps",
			Column{Kind: orc.Timestamp, NumValues: 1, Timestamp: &TimestampStats{MinSec: -1, MinNanos: 5, MaxSec: 0, MaxNanos: 1, HasMinMax: true}},
			Column{Kind: orc.Timestamp, NumValues: 1, Timestamp: &TimestampStats{MinSec: -1, MinNanos: 4, MaxSec: 0, MaxNanos: 2, HasMinMax: true}},
			Column{Kind: orc.Timestamp, NumValues: 2, Timestamp: &TimestampStats{MinSec: -1, MinNanos: 4, MaxSec: 0, MaxNanos: 2, HasMinMax: true}}},
		{"legacy timestamps with values make the merge unknown",
			Column{Kind: orc.Timestamp, NumValues: 1, Timestamp: &TimestampStats{}},
			Column{Kind: orc.Timestamp, NumValues: 1, Timestamp: &TimestampStats{MinSec: 1, MaxSec: 2, HasMinMax: true}},
			Column{Kind: orc.Timestamp, NumValues: 2, Timestamp: &TimestampStats{}}},
	}
	for _, tc := range cases {
		a, b := tc.a, tc.b
		bBefore := dump(b)
		a.Merge(&b)
		if !equalColumns(a, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, dump(a), dump(tc.want))
		}
		if dump(b) != bBefore {
			t.Errorf("%s: Merge changed its argument", tc.name)
		}
	}
}

// Merge must not write through typed parts shared with other Columns.
func TestColumnMergeDoesNotShare(t *testing.T) {
	shared := &IntStats{Min: 1, Max: 1, HasMinMax: true, Sum: 1, HasSum: true}
	a := Column{Kind: orc.Int, NumValues: 1, Int: shared}
	b := Column{Kind: orc.Int, NumValues: 1, Int: &IntStats{Min: 9, Max: 9, HasMinMax: true, Sum: 9, HasSum: true}}
	a.Merge(&b)
	if shared.Max != 1 || shared.Sum != 1 || a.Int.Max != 9 {
		t.Errorf("shared stats changed: %+v, merged %+v", *shared, *a.Int)
	}
	a.Merge(nil) // no-op
}
