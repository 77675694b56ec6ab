package reader_test

// The function leaves of spec.md 7.17 (MONTH, DAY, HOUR, DATE_TRUNC,
// arithmetic with a constant, ABS, LENGTH, LOWER, UPPER) as a form of the
// differential test: on the generated files (NaN, nulls, DST wall clocks,
// long strings sharing prefixes, 0xFF bytes, decimals at many scales), a
// pruned scan filtered exactly returns what a full scan filtered by
// EvalRow does.

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

func init() {
	sfForms = append(sfForms, sfForm{"functions", sfFunc})
}

// sfWall returns the wall clock of a date or timestamp row value.
func sfWall(v any) (time.Time, bool) {
	switch x := v.(type) {
	case int64:
		return time.Unix(x*86400, 0).UTC(), true
	case sdTS:
		return time.Unix(x.Sec, int64(x.Nanos)).UTC(), true
	}
	return time.Time{}, false
}

// sfRat returns an integer or decimal row value exactly.
func sfRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case stats.DecimalValue:
		return new(big.Rat).SetFrac(x.Unscaled.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Scale)), nil)), true
	}
	return nil, false
}

// sfFunc returns a comparison of a function of a column with literals
// near the function's values on the file's rows. Functions the column's
// type refuses (arithmetic that could overflow a decimal(38)) are not
// generated.
func sfFunc(p *sdPredGen) (sarg.Expr, bool) { return sfFuncOf(p, sarg.FuncNone) }

// sfFuncOf is sfFunc with the function's kind chosen (FuncNone: any).
func sfFuncOf(p *sdPredGen, kind sarg.FuncKind) (sarg.Expr, bool) {
	r := p.r
	type cand struct {
		f     sarg.Func
		kinds []orc.Kind
	}
	units := []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second"}
	consts := []sarg.Literal{sarg.Int(int64(r.IntN(7) - 3)), sarg.Int(1 + int64(r.IntN(1000))), sfDec("2.5"),
		sfDec("-0.125"), sarg.Float(0.5), sarg.Float(-3)}
	c := consts[r.IntN(len(consts))]
	nums := []orc.Kind{orc.Byte, orc.Short, orc.Int, orc.Long, orc.Decimal, orc.Float, orc.Double}
	times := []orc.Kind{orc.Date, orc.Timestamp}
	strs := []orc.Kind{orc.String, orc.Varchar, orc.Char}
	cands := []cand{
		{sarg.Month(), times}, {sarg.Day(), times}, {sarg.Hour(), times},
		{sarg.DateTrunc(units[r.IntN(len(units))]), times},
		{sarg.Plus(c), nums}, {sarg.Minus(c), nums}, {sarg.Times(c), nums}, {sarg.Div(c), nums}, {sarg.Abs(), nums},
		{sarg.Length(), append(strs, orc.Binary)}, {sarg.Lower(), strs}, {sarg.Upper(), strs},
	}
	cd := cands[r.IntN(len(cands))]
	if kind != sarg.FuncNone {
		cd = cands[int(kind)-1]
	}
	f := cd.f
	if f.Kind == sarg.FuncDiv && f.Const.Kind() == sarg.IntLit && f.Const.Int64() == 0 {
		f.Const = sarg.Int(7)
	}
	ids := sfColumns(p, cd.kinds...)
	if len(ids) == 0 {
		return sarg.Expr{}, false
	}
	id := ids[r.IntN(len(ids))]
	node := p.f.schema.Columns()[id]
	col := p.f.paths[id]
	// lit returns a literal near the function's value on a row value.
	lit := func() sarg.Literal {
		a := p.anchor(id, node)
		switch f.Kind {
		case sarg.FuncMonth, sarg.FuncDay, sarg.FuncHour:
			t, _ := sfWall(a)
			v := map[sarg.FuncKind]int{sarg.FuncMonth: int(t.Month()), sarg.FuncDay: t.Day(), sarg.FuncHour: t.Hour()}[f.Kind]
			return sarg.Int(int64(v + r.IntN(3) - 1))
		case sarg.FuncDateTrunc:
			t, _ := sfWall(a)
			y, m, d := t.Date()
			switch f.Unit {
			case "year":
				t = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
			case "quarter":
				t = time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
			case "month":
				t = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
			case "week":
				t = time.Date(y, m, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
			case "day":
				t = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
			default:
				t = t.Truncate(map[string]time.Duration{"hour": time.Hour, "minute": time.Minute, "second": time.Second}[f.Unit])
			}
			if r.IntN(4) == 0 {
				t = t.Add(time.Duration(r.IntN(3)-1) * time.Hour * 24)
			}
			if node.Kind == orc.Date {
				return sarg.Date(int32(t.Unix() / 86400))
			}
			return sarg.LocalTimestamp(t)
		case sarg.FuncLength:
			var n int
			switch x := a.(type) {
			case string:
				n = utf8.RuneCountInString(strings.TrimRight(x, " "))
			case []byte:
				n = len(x)
			}
			return sarg.Int(int64(n + r.IntN(3) - 1))
		case sarg.FuncLower, sarg.FuncUpper:
			s, _ := a.(string)
			switch r.IntN(3) {
			case 0:
				s = strings.ToLower(s)
			case 1:
				s = strings.ToUpper(s)
			}
			return sarg.String(s)
		}
		// ABS and arithmetic: the value, about.
		var v float64
		if x, ok := sfRat(a); ok {
			v, _ = x.Float64()
		} else if x, ok := a.(float64); ok {
			v = x
		}
		cf := 0.0
		switch f.Const.Kind() {
		case sarg.IntLit:
			cf = float64(f.Const.Int64())
		case sarg.FloatLit:
			cf = f.Const.Float64()
		case sarg.DecimalLit:
			u, s := f.Const.DecimalValue()
			cf, _ = new(big.Rat).SetFrac(u.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil)).Float64()
		}
		switch f.Kind {
		case sarg.FuncAdd:
			v += cf
		case sarg.FuncSub:
			v -= cf
		case sarg.FuncMul:
			v *= cf
		case sarg.FuncDiv:
			v /= cf
		case sarg.FuncAbs:
			v = math.Abs(v)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || r.IntN(3) == 0 {
			return sarg.Float(v)
		}
		if l, err := sarg.ParseDecimalLiteral(new(big.Rat).SetFloat64(v).FloatString(3)); err == nil {
			return l
		}
		return sarg.Float(v)
	}
	var e sarg.Expr
	switch r.IntN(9) {
	case 0:
		e = sarg.Eq(col, lit())
	case 1:
		e = sarg.NullSafeEq(col, lit())
	case 2:
		e = sarg.Lt(col, lit())
	case 3:
		e = sarg.Le(col, lit())
	case 4:
		e = sarg.In(col, lit(), lit())
	case 5:
		e = sarg.Between(col, lit(), lit())
	case 6:
		e = sarg.IsNull(col)
	case 7:
		if f.Kind == sarg.FuncLower || f.Kind == sarg.FuncUpper {
			s := lit().Str()
			e = sarg.Like(col, sarg.String(sfEscape(s[:r.IntN(len(s)+1)])+"%"))
			break
		}
		e = sarg.Gt(col, lit())
	default:
		e = sarg.Ge(col, lit())
	}
	if r.IntN(3) == 0 {
		e = sarg.Not(e)
	}
	e = sarg.Apply(f, e)
	if _, err := sarg.Bind(e, p.f.schema); err != nil {
		return sarg.Expr{}, false // a literal the result type refuses, or a result that could overflow
	}
	return e, true
}

func sfDec(s string) sarg.Literal {
	l, err := sarg.ParseDecimalLiteral(s)
	if err != nil {
		panic(err)
	}
	return l
}

// TestSargFunctionLeavesDifferential runs single function leaves, kind by
// kind, through the differential check, and reports each kind's pruning
// yield: the share of row groups without a match that were skipped.
// ORCGO_SARG_LONG=1 runs 400 files of 20 predicates per kind instead of
// 2 of 5 (1 of 4 with -short).
func TestSargFunctionLeavesDifferential(t *testing.T) {
	files, preds := 2, 5
	if testing.Short() {
		files, preds = 1, 4
	}
	if *sdLong || os.Getenv("ORCGO_SARG_LONG") != "" {
		files, preds = 400, 20
	}
	base := sdBaseSeed(t)
	t.Logf("base seed %d (ORCGO_SARG_SEED=%d reruns this run)", base, base)
	start := time.Now()
	totals := map[sarg.FuncKind]*sdTotals{}
	checks := 0
	for i := range files {
		f := sdBuild(t, base+uint64(i))
		if f.pg == nil {
			f.pg = newPredGen(f)
		}
		p := f.pg
		for k := sarg.FuncMonth; k <= sarg.FuncUpper; k++ {
			if totals[k] == nil {
				totals[k] = &sdTotals{}
			}
			for j := range preds {
				p.r = rand.New(rand.NewPCG(f.seed^0xfacade, uint64(j)<<8|uint64(k)))
				e, ok := sfFuncOf(p, k)
				if !ok {
					continue
				}
				out, msg := sdCheck(f, e, p.readOpts())
				checks++
				if msg != "" {
					t.Fatalf("MISMATCH %s: file seed %d\nfile: %s\nschema: %s\npredicate: %s\n%s\nexplain:\n%s", k, f.seed, f.desc, f.schema, e, msg, sdExplain(f, e))
				}
				totals[k].add(out)
			}
		}
	}
	for k := sarg.FuncMonth; k <= sarg.FuncUpper; k++ {
		t.Logf("%-10s %s", k, totals[k])
	}
	t.Logf("%d checks, 0 wrong answers, in %v", checks, time.Since(start).Round(time.Millisecond))
}
