package sarg

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// termGen writes random terms over testSchema's random columns as text.
type termGen struct{ r *rand.Rand }

func (g termGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// num returns a numeric term.
func (g termGen) num(depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.pick("i", "by", "f", "d", "c2", "st.a", "i", "d", "3", "-2", "0", "1.5", "-0.25", "2e0", "DOUBLE 'NaN'", "-0e0",
			"99999999.99", "2147483647")
	}
	switch g.r.IntN(9) {
	case 0, 1, 2:
		return fmt.Sprintf("%s %s %s", g.num(depth-1), g.pick("+", "-", "*", "/", "%"), g.num(depth-1))
	case 3:
		return fmt.Sprintf("(%s %s %s)", g.num(depth-1), g.pick("+", "-", "*"), g.num(depth-1))
	case 4:
		return fmt.Sprintf("-%s", g.pick("i", "f", "d", "(i - c2)"))
	case 5:
		return fmt.Sprintf("%s(%s)", g.pick("YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "DAYOFWEEK"), g.time(depth-1))
	case 6:
		return fmt.Sprintf("%s(%s)", g.pick("ABS", "LENGTH"), g.pick(g.num(depth-1), g.text(depth-1)))
	case 7:
		return fmt.Sprintf("CAST(%s AS %s)", g.pick(g.num(depth-1), g.text(depth-1)), g.pick("BIGINT", "INT", "TINYINT", "DOUBLE", "DECIMAL(12,3)", "DECIMAL(5,1)"))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.num(depth-1), g.num(depth-1))
}

// text returns a text term.
func (g termGen) text(depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.pick("s", "c", "s", "'a'", "''", "'ab '", "'é'")
	}
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("%s(%s)", g.pick("LOWER", "UPPER", "TRIM"), g.text(depth-1))
	case 1:
		return fmt.Sprintf("SUBSTR(%s, %d, %d)", g.text(depth-1), g.r.IntN(4)-1, g.r.IntN(4))
	case 2:
		return fmt.Sprintf("SUBSTR(%s, 1)", g.text(depth-1))
	case 3:
		return fmt.Sprintf("%s || %s", g.text(depth-1), g.text(depth-1))
	case 4:
		return fmt.Sprintf("CAST(%s AS STRING)", g.pick("i", "d", "dt", "bo"))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.text(depth-1), g.text(depth-1))
}

// time returns a date or timestamp term.
func (g termGen) time(depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.pick("dt", "ts", "DATE '2024-03-01'", "TIMESTAMP '2024-01-31 23:30:00'")
	}
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("DATE_TRUNC('%s', %s)", g.pick(truncUnits...), g.time(depth-1))
	case 1:
		return fmt.Sprintf("CAST(%s AS %s)", g.time(depth-1), g.pick("DATE", "TIMESTAMP"))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.time(depth-1), g.time(depth-1))
}

// pred returns a predicate over terms.
func (g termGen) pred(depth int) string {
	var a, b string
	isText := false
	switch g.r.IntN(4) {
	case 0:
		a, b, isText = g.text(depth), g.text(depth), true
	case 1:
		a, b = g.time(depth), g.time(depth)
	default:
		a, b = g.num(depth), g.num(depth)
	}
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s BETWEEN %s AND %s", a, b, a)
	case 1:
		return fmt.Sprintf("%s IN (%s, %s)", a, b, b)
	case 2:
		return fmt.Sprintf("%s IS %sDISTINCT FROM %s", a, g.pick("", "NOT "), b)
	case 3:
		return fmt.Sprintf("%s IS %sNULL", a, g.pick("", "NOT "))
	case 4:
		if isText {
			return fmt.Sprintf("%s %s '%s'", a, g.pick("LIKE", "ILIKE", "NOT LIKE"), g.pick("a%", "%b", "_", "A%"))
		}
	case 5:
		return g.pick("bo", "NOT bo", "bo IS TRUE", "bo IS NOT FALSE", "REGEXP_LIKE(s, '^a.b')", "ENDS_WITH(s, 'b')")
	}
	return fmt.Sprintf("%s %s %s", a, g.pick("=", "<>", "<", "<=", ">", ">=", "<=>"), b)
}

// TestTermSoundnessProperty checks random predicates over terms, as
// TestSoundnessAndMatchProperty does for leaves: every row's outcome
// (EvalRow, plain code) is in the set Evaluate returns from the unit's
// statistics, and Match (vectorized) agrees with EvalRow on every row.
func TestTermSoundnessProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	iters := 4000
	if testing.Short() {
		iters = 800
	}
	g := termGen{r}
	pruned, matched, bound := 0, 0, 0
	for it := 0; it < iters; it++ {
		text := g.pred(1 + it%3)
		if r.IntN(3) == 0 {
			text = fmt.Sprintf("%s %s %s", text, g.pick("AND", "OR"), g.pred(1))
		}
		e, err := Parse(text)
		if err != nil && (strings.Contains(err.Error(), "division by zero") || strings.Contains(err.Error(), "finite number")) {
			continue
		}
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if back, err := Parse(e.String()); err != nil || !back.Equal(e) {
			t.Fatalf("Parse(%q) prints %q, which reads back as %v (%v)", text, e, back, err)
		}
		b, err := Bind(e, testSchema)
		if err != nil {
			if errors.Is(err, ErrTypeMismatch) {
				continue // a mix the types refuse
			}
			t.Fatalf("Bind(%s): %v", e, err)
		}
		bound++
		defer func(text string) {
			if x := recover(); x != nil {
				t.Fatalf("panic on %q: %v", text, x)
			}
		}(text)
		m := b.NewMatcher()
		for range 4 {
			u := randUnit(r)
			if r.IntN(2) == 0 {
				funcValues(r, u)
			}
			src := sourceOf(r, u)
			tv := b.Evaluate(src)
			got3, err := m.eval3(vectorsOf(u), u.n)
			if err != nil {
				t.Fatalf("%s: Match: %v", e, err)
			}
			if !tv.IsNeeded() {
				pruned++
			}
			for i := 0; i < u.n; i++ {
				row := u.row(i)
				match, known := b.EvalRow(row)
				bit := outcomeBit(match, known)
				if match {
					matched++
				}
				if tv&bit == 0 {
					t.Fatalf("unsound: %s\nEvaluate says %s but row %v is %s\nexplain:\n%s\nstats: %s", e, tv, row, bit, b.Explain(src), dumpStats(src))
				}
				want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
				if got3[i] != want {
					t.Fatalf("Match disagrees with EvalRow: %s\nrow %v: Match %d, EvalRow %s", e, row, got3[i], bit)
				}
			}
		}
	}
	t.Logf("%d of %d predicates bound; %d units pruned, %d matching rows", bound, iters, pruned, matched)
	if pruned == 0 || matched == 0 || bound < iters/3 {
		t.Errorf("the random cases bind too rarely, never prune or never match: the test is too weak")
	}
}

// FuzzTermEval parses predicates, binds those that fit testSchema and
// checks them as TestTermSoundnessProperty does on units from the seed:
// no panic, Evaluate sound, Match equal to EvalRow.
func FuzzTermEval(f *testing.F) {
	for _, s := range []string{
		"i - c2 > 0", "(i + 1) * 2 > 10 OR -f >= d % 3", "YEAR(dt) = YEAR(ts) AND LENGTH(s) > i",
		"CAST(s AS BIGINT) IS NULL", "SUBSTR(c, -2, 5) || s ILIKE 'A%'", "COALESCE(bo, i > 3)",
		"CAST(f AS DECIMAL(5,2)) BETWEEN d AND d + 1", "DAYOFWEEK(DATE_TRUNC('week', ts)) = 2",
	} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		e, err := Parse(text)
		if err != nil {
			return
		}
		b, err := Bind(e, testSchema)
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(seed, 9))
		u := randUnit(r)
		if r.IntN(2) == 0 {
			funcValues(r, u)
		}
		for _, c := range b.Columns() {
			if _, ok := u.vals[c]; !ok {
				return // a column the random units leave out
			}
		}
		src := sourceOf(r, u)
		tv := b.Evaluate(src)
		_ = b.Explain(src)
		got3, err := b.NewMatcher().eval3(vectorsOf(u), u.n)
		if err != nil {
			t.Fatalf("%s: Match: %v", e, err)
		}
		for i := 0; i < u.n; i++ {
			row := u.row(i)
			match, known := b.EvalRow(row)
			bit := outcomeBit(match, known)
			if tv&bit == 0 {
				t.Fatalf("unsound: %s\nEvaluate says %s but row %v is %s\nexplain:\n%s\nstats: %s", e, tv, row, bit, b.Explain(src), dumpStats(src))
			}
			want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
			if got3[i] != want {
				t.Fatalf("Match disagrees with EvalRow: %s\nrow %v: Match %d, EvalRow %s", e, row, got3[i], bit)
			}
		}
	})
}

// TestTermEmptyUnit: a unit whose statistics for one column of a term
// prove it has no rows (no values, no nulls) is decided the same whatever
// the statistics of the term's other columns say, or whether they are
// there: a dataset index that covers one column of x - y must agree with
// the footer, which covers both.
func TestTermEmptyUnit(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,k:bigint>")
	empty := func(kind orc.Kind) *stats.Column { return &stats.Column{Kind: kind, HasNullKnown: true} }
	some := &stats.Column{Kind: orc.Long, HasNullKnown: true, HasNull: true, NumValues: 5, Int: &stats.IntStats{Min: -3, Max: 900, HasMinMax: true}}
	for _, q := range []string{"a < k / 2", "a - k > -170", "k - a * 10 > 3", "ABS(a - k) <= 2", "NOT (a + k > 4)", "COALESCE(k, a) = 1"} {
		b := MustBind(MustParse(q), s)
		want := b.Evaluate(MapSource{Columns: map[int]*stats.Column{1: empty(orc.Int), 2: empty(orc.Long)}})
		for name, k := range map[string]*stats.Column{"k missing": nil, "k with values": some} {
			cols := map[int]*stats.Column{1: empty(orc.Int)}
			if k != nil {
				cols[2] = k
			}
			if got := b.Evaluate(MapSource{Columns: cols}); got != want {
				t.Errorf("%s, a empty, %s: %v, with both empty %v", q, name, got, want)
			}
		}
	}
}
