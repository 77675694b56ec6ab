package sarg

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zones for the tests, whatever the machine has

	"github.com/orcgo/orc"
)

func TestParseShapes(t *testing.T) {
	tests := []struct {
		in   string
		want Expr
	}{
		{"c1 = '619sdc' OR c2 = 100 AND c3 = 200",
			Or(Eq("c1", String("619sdc")), And(Eq("c2", Int(100)), Eq("c3", Int(200))))},
		{"(c1 = 'a' OR c2 = 1) AND c3 = 2",
			And(Or(Eq("c1", String("a")), Eq("c2", Int(1))), Eq("c3", Int(2)))},
		{"NOT a = 1 AND b = 2", And(Not(Eq("a", Int(1))), Eq("b", Int(2)))},
		{"NOT (a = 1 AND b = 2)", Not(And(Eq("a", Int(1)), Eq("b", Int(2))))},
		{"not not x is null", Not(Not(IsNull("x")))},
		{"x IS NOT NULL", IsNotNull("x")},
		{"x <> 5", Ne("x", Int(5))},
		{"x != 5", Ne("x", Int(5))},
		{"x > 5", Gt("x", Int(5))},
		{"x >= 5", Ge("x", Int(5))},
		{"x < -5", Lt("x", Int(-5))},
		{"x <= +5", Le("x", Int(5))},
		{"5 < x", Gt("x", Int(5))},
		{"5 >= x", Le("x", Int(5))},
		{"'a' = s", Eq("s", String("a"))},
		{"x <=> NULL", NullSafeEq("x", NullValue())},
		{"NULL <=> x", NullSafeEq("x", NullValue())},
		{"x <=> 3", NullSafeEq("x", Int(3))},
		{"s IN ('a', 'b', NULL)", In("s", String("a"), String("b"), NullValue())},
		{"s NOT IN ('a')", NotIn("s", String("a"))},
		{"x BETWEEN 1 AND 2 AND y = 3", And(Between("x", Int(1), Int(2)), Eq("y", Int(3)))},
		{"x NOT BETWEEN 1 AND 2", Not(Between("x", Int(1), Int(2)))},
		{"a.b.c = 1", Eq("a.b.c", Int(1))},
		{"a.`b.c` = 1", Eq("a.`b.c`", Int(1))},
		{"`select` = 1", Eq("`select`", Int(1))},
		{"`and` = 1", Eq("`and`", Int(1))},
		{"`we``ird` = 1", Eq(Col("we`ird"), Int(1))},
		{"d = 12.50", Eq("d", Decimal(orc.Int128FromInt64(1250), 2))},
		{"d = .5", Eq("d", Decimal(orc.Int128FromInt64(5), 1))},
		{"d = DECIMAL '7'", Eq("d", Decimal(orc.Int128FromInt64(7), 0))},
		{"f = 1e3", Eq("f", Float(1000))},
		{"f = -2.5E-1", Eq("f", Float(-0.25))},
		{"f = DOUBLE 'NaN'", Eq("f", Float(math.NaN()))},
		{"f = DOUBLE '-Infinity'", Eq("f", Float(math.Inf(-1)))},
		{"b = X'0aFF'", Eq("b", Bytes([]byte{0x0a, 0xff}))},
		{"x = X''", Eq("x", Bytes(nil))},
		{"t = TRUE", Eq("t", Bool(true))},
		{"s = 'it''s'", Eq("s", String("it's"))},
		{"d = DATE '2024-01-01'", Eq("d", DateOf(2024, 1, 1))},
		{"d = DATE '-0044-03-15'", Eq("d", DateOf(-44, 3, 15))},
		{"ts BETWEEN TIMESTAMP '2024-03-10 01:30:00' AND TIMESTAMP '2024-03-10 03:00:00.000000001'",
			Between("ts", Timestamp(1710034200, 0), Timestamp(1710039600, 1))},
		{"ts = TIMESTAMP '1969-12-31 23:59:59.9'", Eq("ts", Timestamp(-1, 900_000_000))},
		{"ts = TIMESTAMP '2024-03-10 01:30:00Z'", Eq("ts", Instant(1710034200, 0))},
		{"ts = TIMESTAMP '2024-03-10 02:30:00+01:00'", Eq("ts", Instant(1710034200, 0))},
		{"TRUE", True()},
		{"false OR NULL", Or(False(), NullExpr())},
		{"x = 9223372036854775808", Eq("x", Decimal(orc.Int128{Lo: 1 << 63}, 0))},
		{"x = -9223372036854775808", Eq("x", Int(math.MinInt64))},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParseZonedTimestamp(t *testing.T) {
	e := MustParse("ts = TIMESTAMP '2024-03-10 02:30:00 America/New_York'")
	lit := e.Leaf.Literals[0]
	if lit.Kind() != TimestampLit || lit.Zone() == nil || lit.Zone().String() != "America/New_York" || lit.Int64() != 1710037800 {
		t.Fatalf("got %#v", lit)
	}
	if got := e.String(); got != "ts = TIMESTAMP '2024-03-10 02:30:00 America/New_York'" {
		t.Errorf("String() = %q", got)
	}
}

// Canonical texts print back unchanged.
func TestParsePrintRoundTrip(t *testing.T) {
	for _, s := range []string{
		"c1 = '619sdc' OR c2 = 100 AND c3 = 200",
		"(a = 1 OR b = 2) AND (c = 3 OR NOT (d <=> 4))",
		"NOT (a = 1 AND b > 2)",
		"x IS NULL AND y IS NOT NULL",
		"s NOT IN ('a', NULL, X'00ff') OR t NOT BETWEEN DATE '2024-01-01' AND DATE '2024-12-31'",
		"f > 1e+03 AND f <> -0e+00 AND f < DOUBLE 'Infinity' AND g = DOUBLE 'NaN'",
		"d >= 12.50 AND d <= DECIMAL '-3' AND e = -0.001",
		"ts BETWEEN TIMESTAMP '2024-03-10 01:30:00' AND TIMESTAMP '2024-03-10 03:00:00.123'",
		"ts = TIMESTAMP '1969-12-31 23:59:59.999999999Z'",
		"ts < TIMESTAMP '2024-11-03 01:30:00 America/New_York'",
		"a.`b.c`.`d e` = 'x' AND `not` = FALSE",
		"TRUE", "FALSE", "NULL",
		"d = DATE '12345-06-07' OR d = DATE '-0001-01-01'",
	} {
		e, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if got := e.String(); got != s {
			t.Errorf("round trip:\n in  %s\n out %s", s, got)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		pos  int
		want string
	}{
		{"", 0, "expected a column"},
		{"x =", 3, "expected a literal, found end of text"},
		{"x = 5 AND", 9, "expected a column"},
		{"x = 5 y = 3", 6, "expected AND, OR or end of text"},
		{"(x = 5", 6, `expected ")"`},
		{"x = 'abc", 4, "unclosed string"},
		{"x IN (1, 2", 10, `expected "," or ")"`},
		{"x IN 1", 5, `expected "(" after IN`},
		{"x IN ()", 6, "an IN list needs at least one value"},
		{"x NOT IN ( )", 11, "an IN list needs at least one value"},
		{"x BETWEEN 1 OR 2", 12, "expected AND in BETWEEN"},
		{"x IS 5", 5, "expected NULL after IS"},
		{"x NOT GLOB 'a'", 6, "expected IN, BETWEEN or LIKE"},
		{"x = NULL", 4, "NULL is only allowed"},
		{"x < NULL", 4, "NULL is only allowed"},
		{"x BETWEEN NULL AND 3", 10, "NULL is not allowed in BETWEEN"},
		{"x = DATE '2024-02-30'", 9, "expected a date"},
		{"x = DATE 5", 9, "expected a quoted string after DATE"},
		{"x = TIMESTAMP '2024-01-01 25:00:00'", 14, "bad timestamp"},
		{"x = TIMESTAMP '2024-01-01 01:00:00 Nowhere/City'", 14, "unknown zone"},
		{"x = X'abc'", 4, "even number of hex digits"},
		{"x = X'zz'", 4, "non-hex"},
		{"x = 1e", 5, "expected exponent digits"},
		{"x = 12abc", 6, "after a number"},
		{"x = 1e999", 4, "out of range"},
		{"x # 1", 2, "unexpected character"},
		{"`x = 1", 0, "unclosed backtick"},
		{"`` = 1", 0, "empty quoted name"},
		{"a. = 1", 3, "expected a field name"},
		{"5 6", 2, "expected a comparison operator after a literal"},
		{"x = )", 4, "expected a literal"},
		{"x = DOUBLE 'abc'", 11, "expected a floating-point number"},
		{"x = - 'a'", 6, "expected a number after"},
		{"x y", 2, "expected AND, OR or end of text"},
		{"x = 1 AND i + 'a' > 1", 10, "must be a number"},
		{"(i * DOUBLE 'NaN') IN (1, 2)", 0, "finite number"},
		{"NOT", 3, "expected a column"},
		{"x = " + strings.Repeat("9", 50), 4, "does not fit in 128 bits"},
		{strings.Repeat("(", 300) + "x = 1" + strings.Repeat(")", 300), 201, "nested deeper"},
		{strings.Repeat("NOT ", 300) + "x = 1", 804, "nested deeper"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error = %v, want a *ParseError", tc.in, err)
			continue
		}
		if pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.want) {
			t.Errorf("Parse(%q) = at %d %q, want at %d %q", tc.in, pe.Pos, pe.Msg, tc.pos, tc.want)
		}
		if !strings.Contains(err.Error(), "byte") {
			t.Errorf("error text %q does not give the position", err)
		}
	}
}

func TestLiteralTextForms(t *testing.T) {
	for _, tc := range []struct {
		lit  Literal
		want string
	}{
		{Int(-3), "-3"},
		{Float(1000), "1e+03"},
		{Float(math.Copysign(0, -1)), "-0e+00"},
		{Decimal(orc.Int128FromInt64(1250), 2), "12.50"},
		{Decimal(orc.Int128FromInt64(-5), 3), "-0.005"},
		{Decimal(orc.Int128FromInt64(7), 0), "DECIMAL '7'"},
		{String("a'b"), "'a''b'"},
		{Bytes([]byte{0, 0xab}), "X'00ab'"},
		{Bool(false), "FALSE"},
		{Date(0), "DATE '1970-01-01'"},
		{Date(-1), "DATE '1969-12-31'"},
		{Timestamp(-1, 500_000_000), "TIMESTAMP '1969-12-31 23:59:59.5'"},
		{Timestamp(0, -1), "TIMESTAMP '1969-12-31 23:59:59.999999999'"},
		{Instant(86400, 0), "TIMESTAMP '1970-01-02 00:00:00Z'"},
		{TimestampIn(0, 0, time.UTC), "TIMESTAMP '1970-01-01 00:00:00 UTC'"},
		{LocalTimestamp(time.Date(2024, 3, 10, 2, 30, 0, 5, time.FixedZone("X", 3600))), "TIMESTAMP '2024-03-10 02:30:00.000000005'"},
		{NullValue(), "NULL"},
	} {
		if got := tc.lit.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// Calendar conversion agrees with package time where time can format.
func TestCivilDays(t *testing.T) {
	for d := int64(-800000); d <= 800000; d += 997 {
		tm := time.Unix(d*86400, 0).UTC()
		y, m, dd := civilFromDays(d)
		if int64(tm.Year()) != y || int64(tm.Month()) != m || int64(tm.Day()) != dd {
			t.Fatalf("day %d: %d-%d-%d, time says %s", d, y, m, dd, tm)
		}
		if daysFromCivil(y, m, dd) != d {
			t.Fatalf("daysFromCivil(%d-%d-%d) != %d", y, m, dd, d)
		}
		txt := string(appendDate(nil, d))
		back, ok := parseDate(txt)
		if !ok || back != d {
			t.Fatalf("parseDate(%q) = %d, %v; want %d", txt, back, ok, d)
		}
	}
}

// FuzzParse: the parser never panics, and whatever parses prints to text
// that parses to the same tree and prints the same again.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"c1 = '619sdc' OR c2 = 100 AND c3 = 200",
		"ts BETWEEN TIMESTAMP '2024-03-10 01:30:00' AND TIMESTAMP '2024-03-10 03:00:00'",
		"s IN ('a', 'b')", "x IS NULL", "x IS NOT NULL", "NOT (a <> 1 OR b >= 2.5)",
		"a.b.c != 1e3", "`odd name`.x <=> NULL", "d = DATE '2024-01-01' AND b = X'0aff' AND t = TRUE",
		"x NOT BETWEEN -3 AND 12.50", "ts = TIMESTAMP '2024-11-03 01:30:00 America/New_York'",
		"f = DOUBLE 'NaN'", "x IN ()", "5 < x", "((((x = 1))))",
		"(x + 1) * 2 > 10 OR -x >= y % 3", "YEAR(a) = YEAR(b) AND LENGTH(s) > i", "x BETWEEN y AND y + 1",
		"b IS NOT TRUE AND x IS DISTINCT FROM y", "CAST(d AS DECIMAL(10,2)) <> COALESCE(e, 1.5)",
		"EXTRACT(DOW FROM ts) IN (1, 7) AND SUBSTR(s, 2, 3) || 'x' ILIKE 'A%'", "-(3) < x - -2", "REGEXP_LIKE(s, 'a+')",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Pos < 0 || pe.Pos > len(s) {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		text := e.String()
		e2, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but its printed form %q fails: %v", s, text, err)
		}
		if !e2.Equal(e) {
			t.Fatalf("round trip changed the tree:\n in  %q\n out %q\n     %q", s, text, e2.String())
		}
		if e2.String() != text {
			t.Fatalf("printing is not stable: %q then %q", text, e2.String())
		}
		_ = Normalize(e)
	})
}
