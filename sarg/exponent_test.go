package sarg

// A number written with an exponent stands for the exact value of its
// text on integer and decimal columns: 1152921504606846976e0 is 2^60,
// although the shortest decimal of the double it rounds to is
// 1152921504606847000.

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

func TestExponentLiteralExactValue(t *testing.T) {
	const two60 = int64(1) << 60
	lid, bid := colID(t, "l"), colID(t, "big")
	long := func(lo, hi int64) *stats.Column {
		c := colStats(orc.Long, 3, false)
		c.Int = &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}
		return c
	}
	dec := func(v int64) *stats.Column {
		c := colStats(orc.Decimal, 3, false)
		d := stats.DecimalValue{Unscaled: orc.Int128FromInt64(v), Scale: 0}
		c.Decimal = &stats.DecimalStats{Min: d, Max: d, HasMinMax: true}
		return c
	}
	for _, tc := range []struct {
		text string
		id   int
		st   *stats.Column
		want TruthValue
	}{
		{"l = 1152921504606846976e0", lid, long(two60, two60), Yes},
		{"l = 1152921504606846976e0", lid, long(1152921504606847000, 1152921504606847000), No},
		{"l = 1152921504606846977e0", lid, long(two60, two60), No},
		{"l IN (1152921504606846976e0)", lid, long(two60, two60), Yes},
		{"l <= 1152921504606846976e0", lid, long(two60+1, two60+1), No},
		{"l < 1152921504606846976.5e0", lid, long(two60+1, two60+1), No},
		{"l <= 1152921504606846976.5e0", lid, long(two60, two60), Yes},
		{"l = -11529215046068469760e-1", lid, long(-two60, -two60), Yes},
		{"big = 1152921504606846976e0", bid, dec(two60), Yes},
		{"big = 1152921504606846976e0", bid, dec(1152921504606847000), No},
		{"l = 1e3", lid, long(1000, 1000), Yes},
		{"l = 1e-1", lid, long(0, 0), No},
	} {
		e, err := Parse(tc.text)
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.text, err)
		}
		if got := evalOne(t, e, tc.id, tc.st); got != tc.want {
			t.Errorf("%s on %v: %s, want %s", tc.text, tc.st, got, tc.want)
		}
		// The text form keeps the exact value.
		e2, err := Parse(e.String())
		if err != nil {
			t.Fatalf("Parse(%s): %v", e, err)
		}
		if got := evalOne(t, e2, tc.id, tc.st); got != tc.want {
			t.Errorf("%s (reparsed as %s) on %v: %s, want %s", tc.text, e, tc.st, got, tc.want)
		}
	}
	// Row-level evaluation, the reference of the exact filter, agrees.
	b := MustBind(MustParse("l = 1152921504606846976e0"), testSchema)
	if m, known := b.EvalRow(map[int]any{lid: two60}); !m || !known {
		t.Errorf("EvalRow(2^60) = %v, %v; want a match", m, known)
	}
	if m, _ := b.EvalRow(map[int]any{lid: int64(1152921504606847000)}); m {
		t.Errorf("EvalRow(1152921504606847000) matched")
	}
	// On a double column the literal is the nearest double, as before.
	fid := colID(t, "f")
	fc := colStats(orc.Double, 3, false)
	fc.Double = &stats.DoubleStats{Min: float64(two60), Max: float64(two60), HasMinMax: true}
	if got := evalOne(t, MustParse("f = 1152921504606846976e0"), fid, fc); got != Yes {
		t.Errorf("double column: %s, want YES", got)
	}
	// An exponent too large to hold exactly is an error, not a silent 0.
	for _, text := range []string{"l = 1e-20000", "l = 1e20000"} {
		if _, err := Parse(text); err == nil {
			t.Errorf("Parse(%s) accepted", text)
		}
	}
}
