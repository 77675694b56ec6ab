package reader_test

// Differential tests of the predicate forms beyond ORC's search argument
// (LIKE, STARTS_WITH, ...): on the generated files of sarg_diff_test.go,
// a pruned scan filtered exactly must return the rows of a full scan
// filtered by EvalRow, and a pruned scan alone whole row groups holding
// every match (sdCheck). The forms have a generator of their own, so that
// the seeds of sdRegressions keep building the predicates they were found
// with. ORCGO_SARG_SEED fixes the base seed, ORCGO_FORMS_CASE=file:pred
// reruns one case.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// sfForm is one new predicate form: its name and a generator of a leaf
// on file f, or ok false when the file has no column for it.
type sfForm struct {
	name string
	leaf func(p *sdPredGen) (sarg.Expr, bool)
}

var sfForms = []sfForm{
	{"like", sfLike},
	{"columns", sfCols},
}

// sfColumns returns the ids of f's columns of the given kinds.
func sfColumns(p *sdPredGen, kinds ...orc.Kind) []int {
	var out []int
	for _, id := range p.cols {
		k := p.f.schema.Columns()[id].Kind
		for _, want := range kinds {
			if k == want {
				out = append(out, id)
			}
		}
	}
	return out
}

// sfEscape escapes the LIKE wildcards and backslashes of s.
func sfEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)
	return r.Replace(s)
}

// sfLike returns a LIKE, NOT LIKE or STARTS_WITH leaf on a string-like
// column, its pattern built from a value of the column: a prefix cut at
// any byte (inside a character too), wildcards in the middle and at the
// end, escaped wildcards, ESCAPE clauses, and patterns without any
// wildcard.
func sfLike(p *sdPredGen) (sarg.Expr, bool) {
	r := p.r
	ids := sfColumns(p, orc.String, orc.Varchar, orc.Char, orc.Binary)
	if len(ids) == 0 {
		return sarg.Expr{}, false
	}
	id := ids[r.IntN(len(ids))]
	node := p.f.schema.Columns()[id]
	col := p.f.paths[id]
	var s string
	switch a := p.anchor(id, node).(type) {
	case string:
		s = a
	case []byte:
		s = string(a)
	}
	cut := 0
	if len(s) > 0 {
		cut = r.IntN(len(s) + 1)
		if r.IntN(2) == 0 { // back to a character boundary
			for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
	}
	head, tail := s[:cut], s[cut:]
	var pat string
	switch r.IntN(8) {
	case 0:
		pat = sfEscape(head) + "%"
	case 1:
		pat = sfEscape(head) + "_%"
	case 2:
		pat = sfEscape(head) // no wildcard: an equality
	case 3:
		pat = "%" + sfEscape(tail)
	case 4:
		pat = sfEscape(head) + "%" + sfEscape(tail[min(len(tail), 1+r.IntN(3)):])
	case 5:
		pat = sfEscape(head) + strings.Repeat("_", utf8.RuneCountInString(tail))
	case 6:
		pat = []string{"%", "", "_", "%_%", "a%", "%a%", "\xff%", "é%", "%\\%%"}[r.IntN(9)]
	default:
		pat = sfEscape(s)
	}
	lit := sarg.String(pat)
	if node.Kind == orc.Binary && r.IntN(2) == 0 {
		lit = sarg.Bytes([]byte(pat))
	}
	var e sarg.Expr
	switch r.IntN(6) {
	case 0:
		e = sarg.StartsWith(col, sarg.String(head))
	case 1:
		// The same pattern with ! as the escape.
		alt := strings.NewReplacer(`\\`, `\`, `\%`, "!%", `\_`, "!_", "!", "!!").Replace(pat)
		e = sarg.LikeEscape(col, sarg.String(alt), "!")
	default:
		e = sarg.Like(col, lit)
	}
	if r.IntN(3) == 0 {
		e = sarg.Not(e)
	}
	return e, true
}

// sfExpr returns a predicate mixing the form's leaves with ordinary ones.
func sfExpr(p *sdPredGen, form sfForm, depth int) (sarg.Expr, bool) {
	r := p.r
	if depth <= 0 || r.IntN(5) < 3 {
		if r.IntN(4) == 0 {
			return p.leaf(), false
		}
		return form.leaf(p)
	}
	kids := make([]sarg.Expr, 2)
	any := false
	for i := range kids {
		e, ok := sfExpr(p, form, depth-1)
		if !ok {
			e = p.leaf()
		}
		kids[i] = e
		any = any || ok
	}
	switch r.IntN(3) {
	case 0:
		return sarg.Or(kids...), any
	case 1:
		return sarg.Not(sarg.And(kids...)), any
	}
	return sarg.And(kids...), any
}

// sfCase returns predicate j of form on file f (ok false when the file has
// no column for the form), through the text form half the time.
func sfCase(f *sdFile, form sfForm, j uint64) (sarg.Expr, sdRead, bool, error) {
	if f.pg == nil {
		f.pg = newPredGen(f)
	}
	p := f.pg
	p.r = rand.New(rand.NewPCG(f.seed^0xf0f0, j+1<<40))
	e, ok := sfExpr(p, form, 2)
	if !ok {
		return e, sdRead{}, false, nil
	}
	if p.r.IntN(2) == 0 {
		text := e.String()
		parsed, err := sarg.Parse(text)
		if err != nil {
			return e, sdRead{}, true, fmt.Errorf("Parse(%q) of a printed predicate: %v", text, err)
		}
		if !parsed.Equal(e) {
			return e, sdRead{}, true, fmt.Errorf("Parse(%q) reads back %s", text, parsed)
		}
		e = parsed
	}
	return e, p.readOpts(), true, nil
}

// TestSargFormsDifferential runs the differential check on every new form.
func TestSargFormsDifferential(t *testing.T) {
	t.Parallel()
	files, preds := 6, 24
	if testing.Short() {
		files, preds = 4, 20
	}
	if *sdLong || os.Getenv("ORCGO_SARG_LONG") != "" {
		files, preds = 2000, 100
	}
	base := sdBaseSeed(t)
	var one struct{ file, pred uint64 }
	if c := os.Getenv("ORCGO_FORMS_CASE"); c != "" {
		if _, err := fmt.Sscanf(c, "%d:%d", &one.file, &one.pred); err != nil {
			t.Fatalf("ORCGO_FORMS_CASE=%q: want file:pred", c)
		}
	}
	t.Logf("base seed %d (ORCGO_SARG_SEED=%d reruns this run): %d files x %d predicates per form", base, base, files, preds)
	start := time.Now()
	totals := make([]sdTotals, len(sfForms))
	failures := 0
	for i := range files {
		seed := base + uint64(i)
		if one.file != 0 {
			seed = one.file
		}
		f := sdBuild(t, seed)
		for k, form := range sfForms {
			for j := range uint64(preds) {
				if one.file != 0 && j != one.pred {
					continue
				}
				e, o, ok, err := sfCase(f, form, j)
				if err != nil {
					t.Errorf("%s: file seed %d pred %d: %v", form.name, f.seed, j, err)
					failures++
					continue
				}
				if !ok {
					continue
				}
				out, msg := sdCheck(f, e, o)
				if msg != "" {
					failures++
					t.Errorf("MISMATCH %s: file seed %d pred %d (rerun: ORCGO_FORMS_CASE=%d:%d)\nfile: %s\nschema: %s\npredicate: %s\nread: %+v\n%s\nexplain:\n%s",
						form.name, f.seed, j, f.seed, j, f.desc, f.schema, e, o, msg, sdExplain(f, e))
					continue
				}
				totals[k].add(out)
			}
		}
		if failures >= 5 {
			t.Fatalf("stopping after %d mismatches", failures)
		}
		if one.file != 0 {
			break
		}
	}
	for k, form := range sfForms {
		t.Logf("%s: %s", form.name, &totals[k])
		if totals[k].pairs == 0 && !testing.Short() && one.file == 0 {
			t.Errorf("%s: no file had a column for the form", form.name)
		}
	}
	t.Logf("in %v", time.Since(start).Round(time.Millisecond))
}

// sfSortedFile writes a file whose string column s is sorted: long values
// sharing a prefix (their statistics truncated), 0xFF bytes and
// multi-byte characters, 40 row groups of 250 rows.
func sfSortedFile(t *testing.T) *sdFile {
	t.Helper()
	schema := orc.MustParseSchema("struct<rid:bigint,s:string>")
	var vals []string
	long := strings.Repeat("é", 520) // 1,040 bytes
	for i := range 10000 {
		var v string
		switch i % 4 {
		case 0:
			v = fmt.Sprintf("k%05d", i)
		case 1:
			v = long + fmt.Sprintf("%05d", i)
		case 2:
			v = fmt.Sprintf("日%05d\xff\xff", i)
		default:
			v = fmt.Sprintf("\xff%05d", i)
		}
		vals = append(vals, v)
	}
	slices.Sort(vals)
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(250), writer.WithAllowInvalidUTF8(true))
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(schema, len(vals))
	for i, v := range vals {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		bv := b.Cols[1].(*orc.BytesVector)
		if len(bv.Offsets) == 0 {
			bv.Offsets = append(bv.Offsets, 0)
		}
		bv.Data = append(bv.Data, v...)
		bv.Offsets = append(bv.Offsets, len(bv.Data))
	}
	b.NumRows = len(vals)
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return sdOpen(t, buf.Bytes(), "sorted strings")
}

// TestSargLikeSkipsAsRange: on a sorted column a prefix LIKE skips the
// row groups the equivalent range skips, and returns the same rows.
func TestSargLikeSkipsAsRange(t *testing.T) {
	f := sfSortedFile(t)
	long := strings.Repeat("é", 520)
	for _, c := range []struct{ like, rng string }{
		{"s LIKE 'k01%'", "s >= 'k01' AND s < 'k02'"},
		{"STARTS_WITH(s, '" + long + "0012')", "s >= '" + long + "0012' AND s < '" + long + "0013'"},
		{"s LIKE '日0%'", "s >= '日0' AND s < '日1'"},
		{"s LIKE X'ff303125'", "s >= X'ff3031' AND s < X'ff3032'"},
		{"s LIKE X'ff25'", "s >= X'ff'"},
		{"s NOT LIKE 'k%'", "s < 'k' OR s >= 'l'"},
	} {
		var skipped [2]int
		var rows [2]int
		for i, where := range []string{c.like, c.rng} {
			e := sarg.MustParse(where)
			out, msg := sdCheck(f, e, sdRead{batch: 1024})
			if msg != "" {
				t.Fatalf("%s: %s", where, msg)
			}
			skipped[i], rows[i] = out.skipped, out.matched
		}
		if skipped[0] != skipped[1] || rows[0] != rows[1] {
			t.Errorf("%s skips %d row groups and matches %d rows; %s skips %d and matches %d",
				c.like, skipped[0], rows[0], c.rng, skipped[1], rows[1])
		}
		if skipped[0] == 0 {
			t.Errorf("%s skips nothing", c.like)
		}
		t.Logf("%s: %d rows, %d of %d row groups skipped", c.like, rows[0], skipped[0], f.nGroup)
	}
}

// sfFamily is the type family of a column for comparisons of two columns
// (as sarg defines them), or "" for columns that compare with none.
func sfFamily(n *orc.Schema) string {
	switch n.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		return "int"
	case orc.Float, orc.Double:
		return "float"
	case orc.String, orc.Varchar:
		return "string"
	case orc.Char:
		return fmt.Sprintf("char%d", n.MaxLength)
	case orc.Struct, orc.List, orc.Map, orc.Union:
		return ""
	}
	return n.Kind.String()
}

// sfCols returns a comparison of two columns of one family (often a
// column with itself, or a nested field with a top-level column).
func sfCols(p *sdPredGen) (sarg.Expr, bool) {
	r := p.r
	byFam := map[string][]int{}
	var fams []string
	for _, id := range p.cols {
		f := sfFamily(p.f.schema.Columns()[id])
		if f == "" {
			continue
		}
		if len(byFam[f]) == 0 {
			fams = append(fams, f)
		}
		byFam[f] = append(byFam[f], id)
	}
	if len(fams) == 0 {
		return sarg.Expr{}, false
	}
	ids := byFam[fams[r.IntN(len(fams))]]
	a, b := ids[r.IntN(len(ids))], ids[r.IntN(len(ids))]
	ca, cb := p.f.paths[a], p.f.paths[b]
	var e sarg.Expr
	switch r.IntN(9) {
	case 0:
		e = sarg.EqCol(ca, cb)
	case 1:
		e = sarg.NeCol(ca, cb)
	case 2:
		e = sarg.NullSafeEqCol(ca, cb)
	case 3, 4:
		e = sarg.LtCol(ca, cb)
	case 5:
		e = sarg.LeCol(ca, cb)
	case 6:
		e = sarg.GtCol(ca, cb)
	case 7:
		e = sarg.GeCol(ca, cb)
	default:
		c := ids[r.IntN(len(ids))]
		e = sarg.And(sarg.GeCol(ca, cb), sarg.LeCol(ca, p.f.paths[c]))
	}
	if r.IntN(4) == 0 {
		e = sarg.Not(e)
	}
	return e, true
}

// TestSargColsClustered: on a table written clustered, where b follows a
// closely (as l_receiptdate follows l_commitdate), a < b and its kin skip
// the row groups the statistics rule out and return exactly the rows of a
// full scan.
func TestSargColsClustered(t *testing.T) {
	schema := orc.MustParseSchema("struct<rid:bigint,a:date,b:date,x:double,y:double,s:string,u:string,ls:string,lu:string>")
	r := rand.New(rand.NewPCG(9, 99))
	const n = 20000
	b := orc.NewBatch(schema, n)
	long := strings.Repeat("z", 1100)
	for i := range n {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		a := int64(i / 20)
		d := a + int64(r.IntN(30)) // b after a: a < b mostly...
		if (i/1000)%4 == 1 {
			d = a - 100 - int64(r.IntN(30)) // ...but in some stretches well before it
		}
		null := r.IntN(50) == 0
		for c, v := range []int64{a, d} {
			lv := b.Cols[1+c].(*orc.LongVector)
			lv.Values = append(lv.Values, v)
			lv.Nulls.Nulls = append(lv.Nulls.Nulls, null && c == 1)
		}
		x, y := float64(a), float64(d)
		if (i/1000)%7 == 3 && r.IntN(100) == 0 {
			y = math.NaN()
		}
		for c, v := range []float64{x, y} {
			dv := b.Cols[3+c].(*orc.DoubleVector)
			dv.Values = append(dv.Values, v)
			dv.Nulls.Nulls = append(dv.Nulls.Nulls, false)
		}
		for c, v := range []string{fmt.Sprintf("k%06d", a), fmt.Sprintf("k%06d", d), fmt.Sprintf("%s%06d", long, a), fmt.Sprintf("%s%06d", long, d)} {
			bv := b.Cols[5+c].(*orc.BytesVector)
			bv.AppendString(v)
		}
	}
	b.NumRows = n
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(500), writer.WithStripeRowLimit(5000))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := sdOpen(t, buf.Bytes(), "clustered")
	for _, where := range []string{"a < b", "a >= b", "x < y", "s < u", "ls < lu", "a = b", "b BETWEEN a AND a"} {
		out, msg := sdCheck(f, sarg.MustParse(where), sdRead{batch: 1024})
		if msg != "" {
			t.Fatalf("%s: %s", where, msg)
		}
		t.Logf("%s: %d rows; %d of %d row groups hold no match, %d of them skipped", where, out.matched, out.skippable, f.nGroup, out.skipped)
		// ls and lu share 1,100 bytes: their statistics, truncated to 1,024,
		// cannot tell them apart, and nothing may be skipped on them.
		if out.skippable > 0 && out.skipped == 0 && where != "ls < lu" {
			t.Errorf("%s skips nothing of %d row groups without a match", where, out.skippable)
		}
	}
}

// sfFuncValue returns YEAR (year true) or CAST(... AS DATE) of a date or
// timestamp row value, computed directly: the reference the rewritten
// leaves are checked against.
func sfFuncValue(v any, year bool) (int64, bool) {
	var sec int64
	switch x := v.(type) {
	case nil:
		return 0, false
	case int64: // date
		sec = x * 86400
	case sdTS:
		sec = x.Sec
	}
	if year {
		return int64(time.Unix(sec, 0).UTC().Year()), true
	}
	return floorDiv(sec, 86400), true
}

// TestSargFunctionsDifferential: YEAR(x) and CAST(x AS DATE) comparisons on
// the date and timestamp columns of generated files (DST wall clocks,
// dates before 1970 and at the ends of the range), against the functions
// computed row by row.
func TestSargFunctionsDifferential(t *testing.T) {
	t.Parallel()
	files, preds := 12, 20
	if testing.Short() {
		files, preds = 3, 10
	}
	base := sdBaseSeed(t)
	t.Logf("base seed %d (ORCGO_SARG_SEED=%d reruns this run)", base, base)
	var tot sdTotals
	for i := range files {
		f := sdBuild(t, base+uint64(i))
		var ids []int
		for id, path := range f.paths {
			if path != "" && (f.schema.Columns()[id].Kind == orc.Date || f.schema.Columns()[id].Kind == orc.Timestamp) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		pg := newPredGen(f)
		for j := range preds {
			r := rand.New(rand.NewPCG(f.seed^0xfeed, uint64(j)))
			pg.r = r
			id := ids[r.IntN(len(ids))]
			node := f.schema.Columns()[id]
			year := r.IntN(2) == 0
			lit := func() (int64, string) {
				v, _ := sfFuncValue(pg.anchor(id, node), year)
				v += int64(r.IntN(3) - 1)
				if year {
					return v, strconv.FormatInt(v, 10)
				}
				return v, "DATE '" + string(reader.AppendDate(nil, v)) + "'"
			}
			call := "YEAR(" + f.paths[id] + ")"
			if !year {
				call = "CAST(" + f.paths[id] + " AS DATE)"
			}
			a, at := lit()
			b, bt := lit()
			// Each form: its text and its value on a function value (nil: NULL).
			cmp3 := func(ok bool, fv int64, pred func(int64) bool) any {
				if !ok {
					return nil
				}
				return pred(fv)
			}
			forms := []struct {
				text string
				eval func(fv int64, ok bool) any
			}{
				{call + " = " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x == a }) }},
				{call + " <> " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x != a }) }},
				{call + " < " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x < a }) }},
				{call + " <= " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x <= a }) }},
				{call + " > " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x > a }) }},
				{call + " >= " + at, func(fv int64, ok bool) any { return cmp3(ok, fv, func(x int64) bool { return x >= a }) }},
				{call + " <=> " + at, func(fv int64, ok bool) any { return ok && fv == a }},
				{call + " BETWEEN " + at + " AND " + bt, func(fv int64, ok bool) any {
					return cmp3(ok, fv, func(x int64) bool { return a <= x && x <= b })
				}},
				{call + " NOT BETWEEN " + at + " AND " + bt, func(fv int64, ok bool) any {
					return cmp3(ok, fv, func(x int64) bool { return !(a <= x && x <= b) })
				}},
				{call + " IN (" + at + ", " + bt + ")", func(fv int64, ok bool) any {
					return cmp3(ok, fv, func(x int64) bool { return x == a || x == b })
				}},
				{call + " IN (" + at + ", NULL)", func(fv int64, ok bool) any {
					if ok && fv == a {
						return true
					}
					return nil
				}},
				{call + " IS NOT NULL", func(fv int64, ok bool) any { return ok }},
			}
			form := forms[r.IntN(len(forms))]
			e, err := sarg.Parse(form.text)
			if err != nil {
				t.Fatalf("Parse(%q): %v", form.text, err)
			}
			var want []int
			for row := range f.rows {
				fv, ok := sfFuncValue(f.rows[row][id], year)
				if form.eval(fv, ok) == true {
					want = append(want, row)
				}
			}
			out, msg := sdCheckRows(f, e, pg.readOpts(), want)
			if msg != "" {
				t.Fatalf("MISMATCH file seed %d: %s (as %s)\nfile: %s\n%s", f.seed, form.text, e, f.desc, msg)
			}
			tot.add(out)
		}
	}
	t.Logf("YEAR and CAST(... AS DATE): %s", &tot)
}

// TestSargYearSkipsAsRange: YEAR(d) = 1995 skips the row groups that the
// equivalent date range skips.
func TestSargYearSkipsAsRange(t *testing.T) {
	schema := orc.MustParseSchema("struct<rid:bigint,d:date,ts:timestamp>")
	const n = 20000
	b := orc.NewBatch(schema, n)
	start := sarg.DateOf(1992, 1, 1).Int64()
	for i := range n {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		day := start + int64(i)*2557/n // 1992..1998, sorted
		dv := b.Cols[1].(*orc.LongVector)
		dv.Values = append(dv.Values, day)
		dv.Nulls.Nulls = append(dv.Nulls.Nulls, i%97 == 0)
		tv := b.Cols[2].(*orc.TimestampVector)
		tv.Seconds = append(tv.Seconds, day*86400+int64(i%86400))
		tv.Nanos = append(tv.Nanos, 0)
		tv.Nulls.Nulls = append(tv.Nulls.Nulls, false)
	}
	b.NumRows = n
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(500))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := sdOpen(t, buf.Bytes(), "dates 1992-1998")
	for _, c := range []struct{ fn, rng string }{
		{"YEAR(d) = 1995", "d BETWEEN DATE '1995-01-01' AND DATE '1995-12-31'"},
		{"YEAR(ts) = 1995", "ts >= DATE '1995-01-01' AND ts < DATE '1996-01-01'"},
		{"CAST(ts AS DATE) = DATE '1996-02-29'", "ts >= TIMESTAMP '1996-02-29 00:00:00' AND ts < TIMESTAMP '1996-03-01 00:00:00'"},
		{"YEAR(d) >= 1997", "d >= DATE '1997-01-01'"},
	} {
		var skipped, rows [2]int
		for i, where := range []string{c.fn, c.rng} {
			out, msg := sdCheck(f, sarg.MustParse(where), sdRead{batch: 1024})
			if msg != "" {
				t.Fatalf("%s: %s", where, msg)
			}
			skipped[i], rows[i] = out.skipped, out.matched
		}
		if skipped != [2]int{skipped[1], skipped[1]} || rows[0] != rows[1] || skipped[0] == 0 {
			t.Errorf("%s skips %d row groups (%d rows); %s skips %d (%d rows)", c.fn, skipped[0], rows[0], c.rng, skipped[1], rows[1])
		}
		t.Logf("%s: %d rows, %d of %d row groups skipped", c.fn, rows[0], skipped[0], f.nGroup)
	}
}

// FuzzSargForms explores (file seed, predicate index) pairs of the new
// forms, as FuzzSargPushdown does for the others:
// go test ./reader -fuzz FuzzSargForms.
func FuzzSargForms(f *testing.F) {
	f.Add(uint64(1), uint64(0), uint8(0))
	f.Add(uint64(2), uint64(5), uint8(1))
	f.Fuzz(func(t *testing.T, file, pred uint64, form uint8) {
		fl := sdBuild(t, file%1e12)
		fm := sfForms[int(form)%len(sfForms)]
		e, o, ok, err := sfCase(fl, fm, pred%1000)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		if _, msg := sdCheck(fl, e, o); msg != "" {
			t.Fatalf("MISMATCH %s: file seed %d pred %d\npredicate: %s\n%s", fm.name, fl.seed, pred%1000, e, msg)
		}
	})
}
