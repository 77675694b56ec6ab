package orc_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

func TestParseDecimalTrailingZeros(t *testing.T) {
	nines := strings.Repeat("9", 38)
	for _, c := range []struct {
		in    string
		want  string // FormatDecimal of the result
		scale int
	}{
		{"1.50", "1.50", 2}, // fits: the written scale is kept
		{nines + ".0", nines, 0},
		{nines + ".000000000000", nines, 0},
		{"-" + nines + ".00", "-" + nines, 0},
		{"0." + strings.Repeat("0", 45), "0." + strings.Repeat("0", 38), 38},
		{"1." + strings.Repeat("0", 40), "1." + strings.Repeat("0", 38), 38},
	} {
		v, sc, err := orc.ParseDecimal(c.in)
		if err != nil || sc != c.scale || orc.FormatDecimal(v, sc) != c.want {
			t.Errorf("%s: got %s scale %d, %v; want %s scale %d", c.in, orc.FormatDecimal(v, sc), sc, err, c.want, c.scale)
		}
	}
	for _, bad := range []string{nines + "9", nines + "9.0", "1" + nines + ".5"} {
		if _, _, err := orc.ParseDecimal(bad); err == nil {
			t.Errorf("%s: a value over 128 bits parsed", bad)
		}
	}
	// The predicate parser takes such literals, and they bind exactly.
	e, err := sarg.Parse("x = " + nines + ".0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sarg.Bind(e, orc.MustParseSchema("struct<x:decimal(38,0)>")); err != nil {
		t.Fatal(err)
	}
}

func TestDecimalOf(t *testing.T) {
	d, err := orc.DecimalOf("-12.50")
	if err != nil || d.Scale != 2 || d.String() != "-12.50" || d.Unscaled != orc.Int128FromInt64(-1250) {
		t.Fatalf("DecimalOf(-12.50) = %+v, %v", d, err)
	}
	if _, err := orc.DecimalOf("1.2.3"); err == nil {
		t.Fatal("DecimalOf accepted 1.2.3")
	}
}

// TestParseDecimalShort checks ParseDecimal's path for at most 18 digits
// without an exponent against big.Int, on every split of digit strings of
// 0 to 20 digits (both paths, and the edge between them) into integer and
// fractional parts, with and without a sign, and against the bad forms.
func TestParseDecimalShort(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for _, digits := range []string{strings.Repeat("9", n), strings.Repeat("0", n), "1" + strings.Repeat("0", n)} {
			for cut := 0; cut <= len(digits); cut++ {
				for _, sign := range []string{"", "-", "+"} {
					in := sign + digits[:cut] + "." + digits[cut:]
					if digits == "" {
						continue
					}
					want, _ := new(big.Int).SetString(digits, 10)
					if sign == "-" {
						want.Neg(want)
					}
					v, sc, err := orc.ParseDecimal(in)
					if err != nil || sc != len(digits)-cut || v.Big().Cmp(want) != 0 {
						t.Fatalf("%s: got %s scale %d, %v; want %s scale %d", in, v.Big(), sc, err, want, len(digits)-cut)
					}
					if cut == len(digits) { // no fractional digits: also without the point
						if v2, sc2, err := orc.ParseDecimal(sign + digits); err != nil || sc2 != 0 || v2 != v {
							t.Fatalf("%s: got %s scale %d, %v", sign+digits, v2.Big(), sc2, err)
						}
					}
				}
			}
		}
	}
	for _, bad := range []string{"", ".", "-", "+.", "1.2.3", "1a", "a", "--1", "1-", " 1", "1 ", "1e", "0x10"} {
		if _, _, err := orc.ParseDecimal(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
