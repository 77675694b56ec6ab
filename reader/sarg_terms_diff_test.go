package reader_test

// The differential test of terms (issue 52): random expression trees of
// depth up to 4 over the generated files' columns (every function and
// operator, nulls, NaN, -0.0, decimals at their precision limits, dates
// before 1582 and after 2038 from the files' generators), written as text
// and parsed, checked by sdCheck: a pruned scan filtered exactly returns
// the rows EvalRow (plain code) selects on the full scan. Runs as the form
// "terms" of TestSargFormsDifferential.

import (
	"fmt"
	"regexp"

	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

func init() {
	sfForms = append(sfForms, sfForm{"terms", sfTerms})
}

// sfTermGen writes terms over one file's columns.
type sfTermGen struct {
	p                         *sdPredGen
	nums, texts, times, bools []int
}

func (g *sfTermGen) pick(xs ...string) string { return xs[g.p.r.IntN(len(xs))] }

func (g *sfTermGen) col(ids []int) string { return g.p.f.paths[ids[g.p.r.IntN(len(ids))]] }

// lit returns a literal near a value of one of the columns ids.
func (g *sfTermGen) lit(ids []int) string {
	id := ids[g.p.r.IntN(len(ids))]
	node := g.p.f.schema.Columns()[id]
	switch x := g.p.anchor(id, node).(type) {
	case int64:
		if node.Kind == orc.Date {
			return sarg.Date(int32(x)).String()
		}
		return sarg.Int(x + int64(g.p.r.IntN(3)) - 1).String()
	case float64:
		return sarg.Float(x).String()
	case stats.DecimalValue:
		return sarg.Decimal(x.Unscaled, x.Scale).String()
	case string:
		return sarg.String(x).String()
	case []byte:
		return sarg.String(string(x)).String()
	case sdTS:
		return sarg.Timestamp(x.Sec, int64(x.Nanos)).String()
	case bool:
		return strings.ToUpper(fmt.Sprint(x))
	}
	return "0"
}

func (g *sfTermGen) num(depth int) string {
	r := g.p.r
	if depth <= 0 || r.IntN(3) == 0 {
		switch r.IntN(4) {
		case 0:
			return g.lit(g.nums)
		case 1:
			return g.pick("0", "-1", "2", "0.5", "1e0", "-0e0", "DOUBLE 'NaN'", "3")
		}
		return g.col(g.nums)
	}
	switch r.IntN(10) {
	case 0, 1, 2:
		return fmt.Sprintf("%s %s %s", g.num(depth-1), g.pick("+", "-", "*", "/", "%"), g.num(depth-1))
	case 3:
		return fmt.Sprintf("(%s %s %s)", g.num(depth-1), g.pick("+", "-"), g.num(depth-1))
	case 4:
		return "-" + g.col(g.nums)
	case 5:
		if len(g.times) > 0 {
			return fmt.Sprintf("%s(%s)", g.pick("YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "DAYOFWEEK"), g.time(depth-1))
		}
	case 6:
		if len(g.texts) > 0 && r.IntN(2) == 0 {
			return fmt.Sprintf("LENGTH(%s)", g.text(depth-1))
		}
		return fmt.Sprintf("ABS(%s)", g.num(depth-1))
	case 7:
		return fmt.Sprintf("CAST(%s AS %s)", g.num(depth-1), g.pick("BIGINT", "INT", "DOUBLE", "DECIMAL(20,4)", "DECIMAL(6,2)"))
	case 8:
		return fmt.Sprintf("MOD(%s, %s)", g.num(depth-1), g.pick("7", "-3", g.col(g.nums)))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.num(depth-1), g.num(depth-1))
}

func (g *sfTermGen) text(depth int) string {
	r := g.p.r
	if depth <= 0 || r.IntN(3) == 0 {
		if r.IntN(3) == 0 {
			return g.lit(g.texts)
		}
		return g.col(g.texts)
	}
	switch r.IntN(6) {
	case 0:
		return fmt.Sprintf("%s(%s)", g.pick("LOWER", "UPPER", "TRIM"), g.text(depth-1))
	case 1:
		return fmt.Sprintf("SUBSTR(%s, %d, %d)", g.text(depth-1), 1+r.IntN(2)*(r.IntN(5)-2), r.IntN(5))
	case 2:
		return fmt.Sprintf("%s || %s", g.text(depth-1), g.text(depth-1))
	case 3:
		if len(g.nums) > 0 {
			return fmt.Sprintf("CAST(%s AS STRING)", g.col(g.nums))
		}
	case 4:
		return fmt.Sprintf("SUBSTR(%s, 1, %d)", g.text(depth-1), 1+r.IntN(3))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.text(depth-1), g.text(depth-1))
}

func (g *sfTermGen) time(depth int) string {
	r := g.p.r
	if depth <= 0 || r.IntN(3) == 0 {
		if r.IntN(3) == 0 {
			return g.lit(g.times)
		}
		return g.col(g.times)
	}
	switch r.IntN(3) {
	case 0:
		return fmt.Sprintf("DATE_TRUNC('%s', %s)", g.pick("year", "quarter", "month", "week", "day", "hour", "minute", "second"), g.time(depth-1))
	case 1:
		return fmt.Sprintf("CAST(%s AS %s)", g.time(depth-1), g.pick("DATE", "TIMESTAMP"))
	}
	return fmt.Sprintf("COALESCE(%s, %s)", g.time(depth-1), g.time(depth-1))
}

// pred returns a comparison of two terms of one family, or another form.
func (g *sfTermGen) pred(depth int) (string, bool) {
	r := g.p.r
	var fams []func(int) string
	if len(g.nums) > 0 {
		fams = append(fams, g.num, g.num)
	}
	if len(g.texts) > 0 {
		fams = append(fams, g.text)
	}
	if len(g.times) > 0 {
		fams = append(fams, g.time)
	}
	if len(fams) == 0 {
		return "", false
	}
	f := fams[r.IntN(len(fams))]
	a, b := f(depth), f(r.IntN(depth+1))
	switch r.IntN(10) {
	case 0:
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", a, g.pick("", "NOT "), b, f(depth-1)), true
	case 1:
		return fmt.Sprintf("%s %sIN (%s, %s)", a, g.pick("", "NOT "), b, f(0)), true
	case 2:
		return fmt.Sprintf("%s IS %sDISTINCT FROM %s", a, g.pick("", "NOT "), b), true
	case 3:
		return fmt.Sprintf("%s IS %sNULL", a, g.pick("", "NOT ")), true
	case 4:
		if len(g.bools) > 0 {
			c := g.col(g.bools)
			return g.pick(c, "NOT "+c, c+" IS TRUE", c+" IS NOT FALSE", c+" IS UNKNOWN"), true
		}
	case 5:
		if len(g.texts) > 0 {
			t := g.text(depth - 1)
			return g.pick(t+" ILIKE 'A%'", t+" LIKE '%a_'", "ENDS_WITH("+t+", 'b')", "REGEXP_LIKE("+t+", '^[a-m]')"), true
		}
	}
	return fmt.Sprintf("%s %s %s", a, g.pick("=", "<>", "<", "<=", ">", ">=", "<=>"), b), true
}

// sfTerms returns a predicate over terms, bound-checked: a mix the types
// refuse (an overflow of 38 digits, a cast the source does not take) is
// not generated.
func sfTerms(p *sdPredGen) (sarg.Expr, bool) {
	g := &sfTermGen{p: p,
		nums:  sfColumns(p, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal),
		texts: sfColumns(p, orc.String, orc.Varchar, orc.Char),
		times: sfColumns(p, orc.Date, orc.Timestamp),
		bools: sfColumns(p, orc.Boolean)}
	for range 8 {
		text, ok := g.pred(1 + p.r.IntN(4))
		if !ok {
			return sarg.Expr{}, false
		}
		e, err := sarg.Parse(text)
		if err != nil {
			if strings.Contains(err.Error(), "division by zero") || strings.Contains(err.Error(), "finite number") {
				continue
			}
			panic(fmt.Sprintf("Parse(%q): %v", text, err))
		}
		// Bound on the file's schema and on one whose integers and floats
		// are widened, as a read schema may be: arithmetic that fits
		// the narrow types may not fit the wide ones.
		if _, err := sarg.Bind(e, p.f.schema); err == nil {
			if _, err := sarg.Bind(e, sfWidened(p.f.schema)); err == nil {
				return e, true
			}
		}
	}
	return sarg.Expr{}, false
}

// sfWidened returns s with every integer type bigint and float double.
func sfWidened(s *orc.Schema) *orc.Schema {
	text := regexp.MustCompile(`\b(tinyint|smallint|int)\b`).ReplaceAllString(s.String(), "bigint")
	text = regexp.MustCompile(`\bfloat\b`).ReplaceAllString(text, "double")
	return orc.MustParseSchema(text)
}
