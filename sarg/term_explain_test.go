package sarg

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TestTermExplain checks that Explain shows every node's interval and the
// node that decided.
func TestTermExplain(t *testing.T) {
	s := orc.MustParseSchema("struct<x:bigint,y:bigint,d:date>")
	b := MustBind(MustParse("x - y > 0 AND (x + 1) * 2 < 0 AND YEAR(d) = YEAR(d)"), s)
	ints := func(lo, hi int64) *stats.Column {
		return &stats.Column{Kind: orc.Long, NumValues: 10, HasNullKnown: true, Int: &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}}
	}
	src := MapSource{Columns: map[int]*stats.Column{1: ints(0, 10), 2: ints(20, 30),
		3: {Kind: orc.Date, NumValues: 10, HasNull: true, HasNullKnown: true, Date: &stats.DateStats{Min: 19000, Max: 19100, HasMinMax: true}}}}
	got := b.Explain(src)
	for _, want := range []string{
		"leaf 0: x - y <= 0 -> YES\n  x: [0, 10]\n  y: [20, 30]\n  x - y: [-30, -10]\n  decided by: x - y\n",
		"  x + 1: [1, 11]\n  (x + 1) * 2: [2, 22]\n  decided by: (x + 1) * 2\n",
		"  d: [2022-01-08, 2022-04-18] or NULL\n  YEAR(d): [2022, 2022] or NULL\n",
		"  YEAR(d) = YEAR(d): [TRUE, TRUE] or NULL\n  decided by: YEAR(d) = YEAR(d)\n", // one year: equal on every row
		"result: NO (skip)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain lacks %q:\n%s", want, got)
		}
	}
}

// TestTermExplainWrapped: a calendar part whose argument runs from one
// year into the next shows its two pieces, and decides from them.
func TestTermExplainWrapped(t *testing.T) {
	s := orc.MustParseSchema("struct<d:date>")
	src := MapSource{Columns: map[int]*stats.Column{1: {Kind: orc.Date, NumValues: 10, HasNull: true, HasNullKnown: true,
		Date: &stats.DateStats{Min: 18951, Max: 18997, HasMinMax: true}}}} // 2021-11-20 .. 2022-01-05
	for _, c := range []struct{ where, want string }{
		{"QUARTER(d) = 2", "  d: [2021-11-20, 2022-01-05] or NULL\n  QUARTER(d): [4, 4] and [1, 1] or NULL\n  decided by: QUARTER(d)\n"},
		{"QUARTER(d) = 2", "result: NO_NULL (skip)"},
		{"MONTH(d) = 6", "result: NO_NULL (skip)"},
		{"MONTH(d) = 1", "result: YES_NO_NULL (read)"},
		{"DAY(d) = 10", "DAY is monotone only within one month"}, // November to January: not consecutive months
		{"MONTH(d) + 0 = 6", "  MONTH(d): [1, 12] or NULL\n"},    // inside a larger term: the hull
		{"MONTH(d) + 0 = 6", "result: YES_NO_NULL (read)"},
	} {
		got := MustBind(MustParse(c.where), s).Explain(src)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: Explain lacks %q:\n%s", c.where, c.want, got)
		}
	}
}
