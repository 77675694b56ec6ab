package sarg

import (
	"errors"
	"strings"
	"testing"
)

func TestParseBucketFunctions(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"YEAR(d) = 1995", "d >= DATE '1995-01-01' AND d < DATE '1996-01-01'"},
		{"year(d) <> 1995", "NOT (d >= DATE '1995-01-01' AND d < DATE '1996-01-01')"},
		{"YEAR(d) < 1995", "d < DATE '1995-01-01'"},
		{"YEAR(d) <= 1995", "d < DATE '1996-01-01'"},
		{"YEAR(d) > 1995", "d >= DATE '1996-01-01'"},
		{"YEAR(a.d) >= -1", "a.d >= DATE '-0001-01-01'"},
		{"YEAR(d) BETWEEN 1995 AND 1996", "d >= DATE '1995-01-01' AND d < DATE '1997-01-01'"},
		{"YEAR(d) IN (1995, NULL)", "d >= DATE '1995-01-01' AND d < DATE '1996-01-01' OR NULL"},
		{"YEAR(d) <=> 1995", "d IS NOT NULL AND d >= DATE '1995-01-01' AND d < DATE '1996-01-01'"},
		{"YEAR(d) <=> NULL", "d IS NULL"},
		{"YEAR(d) IS NOT NULL", "d IS NOT NULL"},
		{"CAST(ts AS DATE) = DATE '2024-03-10'", "ts >= DATE '2024-03-10' AND ts < DATE '2024-03-11'"},
		{"cast(ts as date) < '2024-03-10'", "ts < DATE '2024-03-10'"},
		{"CAST(ts AS DATE) <= DATE '2024-12-31'", "ts < DATE '2025-01-01'"},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.out {
			t.Errorf("Parse(%q) = %q, want %q", c.in, got, c.out)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"YEAR(d) = '1995'", "compared with integers"},
		{"YEAR(d) LIKE '19%'", "not a string"},
		{"CAST(ts AS DATE) = 5", "compared with dates"},
		{"CAST(ts AS NUMBER) = 5", "CAST to number is not supported"},
		{"CAST(ts DATE) = 5", "expected AS"},
		{"YEAR(d = 5", `expected ")"`},
	} {
		_, err := Parse(c.in)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q) = %v, want a syntax error with %q", c.in, err, c.msg)
		}
	}
	// A year no date has is compared as SQL compares it, not refused: on
	// the year of every date, as a term, FALSE or TRUE on every non-null
	// date and NULL on a null one.
	dt := testSchema.Find("dt").ID()
	for _, c := range []struct {
		in   string
		want bool
	}{{"YEAR(dt) = 2000000", false}, {"YEAR(dt) BETWEEN -637194109 AND 7", false}, {"NOT YEAR(dt) < -2000000", true}} {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		b, err := Bind(e, testSchema)
		if err != nil {
			t.Errorf("Bind(%q): %v", c.in, err)
			continue
		}
		if m, known := b.EvalRow(map[int]any{dt: int64(0)}); m != c.want || !known {
			t.Errorf("%s on 1970-01-01: %v (known %v), want %v", c.in, m, known, c.want)
		}
		if _, known := b.EvalRow(map[int]any{dt: nil}); known {
			t.Errorf("%s on NULL: known, want NULL", c.in)
		}
	}
	// On a timestamp with local time zone column the dates are refused at
	// bind time, as a DATE literal is there.
	if _, err := Bind(MustParse("YEAR(tsi) = 2024"), testSchema); !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("YEAR(tsi) = 2024: %v, want a type mismatch", err)
	}
	if _, err := Bind(MustParse("YEAR(i) = 2024"), testSchema); !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("YEAR(i) = 2024: %v, want a type mismatch", err)
	}
}
