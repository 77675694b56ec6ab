package sarg

import (
	"math"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TestIssue52Forms checks that every form issue 52 lists parses, binds
// and selects the rows SQL selects, on four rows (the last all NULL), by
// Match and by EvalRow.
func TestIssue52Forms(t *testing.T) {
	ts := func(s string) any {
		l, err := parseTimestamp(s)
		if err != nil {
			t.Fatal(err)
		}
		return TimestampValue{Sec: l.i, Nanos: l.nanos}
	}
	day := func(y int, m, d int) any { return DateOf(y, timeMonth(m), d).Int64() }
	dec := func(u int64) any { return stats.DecimalValue{Unscaled: orc.Int128FromInt64(u), Scale: 2} }
	cols := map[string][]any{
		"i":  {int64(5), int64(1), int64(-7), nil},
		"c2": {int64(3), int64(1), int64(0), nil},
		"c3": {int64(2), int64(3), int64(1), nil},
		"d":  {dec(200), dec(350), dec(100), nil},
		"f":  {2.0, 3.5, math.NaN(), nil},
		"dt": {day(1995, 6, 1), day(1996, 1, 31), day(1995, 3, 15), nil},
		"ts": {ts("1995-06-01 00:00:00"), ts("1996-01-31 12:00:00"), ts("1995-03-14 23:59:59"), nil},
		"s":  {"Ab", "abc", "xyz", nil},
		"c":  {"ab   ", "ab   ", "xyz  ", nil},
		"bo": {true, false, nil, nil},
	}
	u := unit{n: 4, vals: map[int][]any{}}
	for name, vs := range cols {
		u.vals[colID(t, name)] = vs
	}
	for _, c := range []struct{ text, want string }{
		{"1995 = YEAR(dt)", "1010"},
		{"(i + 1) > 4", "1000"},
		{"2 * i > 4", "1000"},
		{"-i > 5", "0010"},
		{"i - c2 > 0", "1000"},
		{"i BETWEEN c2 AND c2 + 1", "0100"},
		{"i IN (c2, 3)", "0100"},
		{"MONTH(dt) + 1 = 7", "1000"},
		{"YEAR(dt) = YEAR(ts)", "1110"},
		{"LOWER(s) = LOWER(c)", "1010"},
		{"LENGTH(s) > c3", "0010"},
		{"YEAR(dt) = 1995.0", "1010"},
		{"c3 = d", "1010"},
		{"c3 = f", "1000"},
		{"dt < ts", "0100"},
		{"c = s", "0010"},
		{"bo", "1000"},
		{"NOT bo", "0100"},
		{"bo IS TRUE", "1000"},
		{"bo IS NOT TRUE", "0111"},
		{"bo IS UNKNOWN", "0011"},
		{"i IS DISTINCT FROM c2", "1010"},
		{"i IS NOT DISTINCT FROM c2", "0101"},
		{"EXTRACT(MONTH FROM dt) = 6", "1000"},
		{"QUARTER(dt) = 1", "0110"},
		{"MINUTE(ts) = 59", "0010"},
		{"SECOND(ts) = 59", "0010"},
		{"DAYOFWEEK(dt) = 5", "1000"},
		{"SUBSTR(s, 2) = 'bc'", "0100"},
		{"TRIM(c) = 'ab'", "1100"},
		{"COALESCE(bo, TRUE)", "1011"},
		{"MOD(i, 3) = 2", "1000"},
		{"i % 3 = -1", "0010"},
		{"s || 'z' = 'xyzz'", "0010"},
		{"s ILIKE 'a%'", "1100"},
		{"ENDS_WITH(s, 'c')", "0100"},
		{"REGEXP_LIKE(s, '^[a-z]+$')", "0110"},
		{"CAST(d AS INT) = 3", "0100"},
		{"CAST(f AS DECIMAL(4,1)) = 3.5", "0100"},
		{"CAST(i AS STRING) = '-7'", "0010"},
		{"CAST(ts AS DATE) = dt", "1100"},
		{"CAST(s AS BIGINT) IS NULL", "1111"},
		{"SUBSTR(s, 2, 9223372036854775807) = 'bc'", "0100"},
		{"SUBSTR(s, -9223372036854775808, 2) = ''", "1110"},
	} {
		e, err := Parse(c.text)
		if err != nil {
			t.Errorf("Parse(%s): %v", c.text, err)
			continue
		}
		b, err := Bind(e, testSchema)
		if err != nil {
			t.Errorf("Bind(%s): %v", c.text, err)
			continue
		}
		got, err := b.Match(vectorsOf(u), u.n, nil)
		if err != nil {
			t.Errorf("%s: Match: %v", c.text, err)
			continue
		}
		var gm, ge []byte
		for i := range u.n {
			gm = append(gm, "01"[b2i(got[i])])
			ok, _ := b.EvalRow(u.row(i))
			ge = append(ge, "01"[b2i(ok)])
		}
		if string(gm) != c.want || string(ge) != c.want {
			t.Errorf("%s (%s): Match selects %s, EvalRow %s, want %s", c.text, e, gm, ge, c.want)
		}
	}
}

func timeMonth(m int) time.Month { return time.Month(m) }
