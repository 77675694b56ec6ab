package statsindex_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// indexScale multiplies the random index tests' rounds: go test ./dataset
// -run TestIndex -index.scale 20 runs thousands of stale-index queries.
var indexScale = flag.Int("index.scale", 1, "rounds of the random index tests, times")

// The random table of the index tests: every indexable kind, a partition
// column, small domains so that predicates hit and miss.
const ixSchema = "struct<a:int,b:string,c:double,d:decimal(10,2),e:date,f:timestamp,g:boolean,h:varchar(5),k:bigint>"

var ixParts = orc.MustParseSchema("struct<p:int>")

var ixWords = []string{"", "ant", "bee", "cat", "dog", "eel", "fox", "zz"}

// ixFile writes one random data file. Each file draws its values from a
// random window of each domain, so that files differ in their ranges.
func ixFile(t testing.TB, r *rand.Rand) []byte {
	t.Helper()
	return ixFileWith(t, r, 0, func() (int, int) { return r.IntN(20), r.IntN(len(ixWords)) })
}

// ixFileAt writes a random data file of at least 20 rows whose numeric
// values start at lo and words at ixWords[wlo].
func ixFileAt(t testing.TB, r *rand.Rand, lo, wlo int) []byte {
	t.Helper()
	return ixFileWith(t, r, 20, func() (int, int) { return lo, wlo })
}

func ixFileWith(t testing.TB, r *rand.Rand, minRows int, window func() (lo, wlo int)) []byte {
	t.Helper()
	s := orc.MustParseSchema(ixSchema)
	n := r.IntN(40)
	if r.IntN(8) == 0 {
		n = 0
	}
	n = max(n, minRows)
	b := orc.NewBatch(s, max(n, 1))
	lo, wlo := window()
	nullP := r.IntN(4) // 0: no nulls
	for range n {
		null := func() bool { return nullP > 0 && r.IntN(8) < nullP }
		a := b.Cols[0].(*orc.LongVector)
		if null() {
			a.AppendNull()
		} else {
			a.Append(int64(lo + r.IntN(6)))
		}
		bs := b.Cols[1].(*orc.BytesVector)
		if null() {
			bs.AppendNull()
		} else {
			bs.AppendString(ixWords[min(wlo+r.IntN(3), len(ixWords)-1)])
		}
		c := b.Cols[2].(*orc.DoubleVector)
		if null() {
			c.AppendNull()
		} else {
			c.Append(float64(lo+r.IntN(6)) / 2)
		}
		d := b.Cols[3].(*orc.DecimalVector)
		d.Scale = 2
		if null() {
			d.AppendNull()
		} else {
			d.Append(orc.Int128FromInt64(int64(lo*100 + r.IntN(600))))
		}
		e := b.Cols[4].(*orc.LongVector)
		if null() {
			e.AppendNull()
		} else {
			e.Append(int64(19000 + lo + r.IntN(6)))
		}
		f := b.Cols[5].(*orc.TimestampVector)
		if null() {
			f.AppendNull()
		} else {
			f.Append(int64(1_700_000_000+(lo+r.IntN(6))*3600), int32(r.IntN(2))*500_000_000)
		}
		g := b.Cols[6].(*orc.LongVector)
		if null() {
			g.AppendNull()
		} else {
			g.Append(int64(r.IntN(2) * (lo % 2)))
		}
		h := b.Cols[7].(*orc.BytesVector)
		if null() {
			h.AppendNull()
		} else {
			h.AppendString(ixWords[min(wlo+r.IntN(2), len(ixWords)-1)])
		}
		k := b.Cols[8].(*orc.LongVector)
		k.Append(int64(lo*10 + r.IntN(10)))
	}
	b.NumRows = n
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(100), writer.WithCompression(orc.CompressionNone))
	if err == nil && n > 0 {
		err = w.Write(b)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ixLiteral is a random literal for a column.
func ixLiteral(r *rand.Rand, col string) sarg.Literal {
	switch col {
	case "a", "p":
		return sarg.Int(int64(r.IntN(30) - 2))
	case "k":
		return sarg.Int(int64(r.IntN(260)))
	case "b", "h":
		return sarg.String(ixWords[r.IntN(len(ixWords))])
	case "c":
		return sarg.Float(float64(r.IntN(60)) / 4)
	case "d":
		return sarg.Decimal(orc.Int128FromInt64(int64(r.IntN(3000))), 2)
	case "e":
		return sarg.Date(int32(19000 + r.IntN(30)))
	case "f":
		return sarg.Timestamp(int64(1_700_000_000+r.IntN(30)*3600), int64(r.IntN(2))*500_000_000)
	case "g":
		return sarg.Bool(r.IntN(2) == 0)
	}
	panic(col)
}

// ixPredicate is a random predicate over the table's columns.
func ixPredicate(r *rand.Rand, depth int) sarg.Expr {
	cols := []string{"a", "b", "c", "d", "e", "f", "g", "h", "k", "p"}
	if depth > 0 && r.IntN(3) > 0 {
		n := 2 + r.IntN(2)
		kids := make([]sarg.Expr, n)
		for i := range kids {
			kids[i] = ixPredicate(r, depth-1)
		}
		switch r.IntN(5) {
		case 0, 1:
			return sarg.And(kids...)
		case 2, 3:
			return sarg.Or(kids...)
		}
		return sarg.Not(sarg.And(kids...))
	}
	if r.IntN(5) == 0 {
		return ixExpression(r)
	}
	c := cols[r.IntN(len(cols))]
	lit := func() sarg.Literal { return ixLiteral(r, c) }
	if (c == "b" || c == "h") && r.IntN(4) == 0 {
		pats := []string{"c%", "%o%", "_e_", "", "%", "do_", "f%x", "z"}
		switch r.IntN(3) {
		case 0:
			return sarg.Like(c, sarg.String(pats[r.IntN(len(pats))]))
		case 1:
			return sarg.NotLike(c, sarg.String(pats[r.IntN(len(pats))]))
		}
		w := ixWords[1+r.IntN(len(ixWords)-1)]
		return sarg.StartsWith(c, sarg.String(w[:1+r.IntN(2)]))
	}
	switch r.IntN(13) {
	case 0:
		return sarg.Eq(c, lit())
	case 1:
		return sarg.Lt(c, lit())
	case 2:
		return sarg.Le(c, lit())
	case 3:
		return sarg.Gt(c, lit())
	case 4:
		return sarg.Ge(c, lit())
	case 5:
		a, b := lit(), lit()
		return sarg.Between(c, a, b)
	case 6:
		return sarg.In(c, lit(), lit(), lit())
	case 7:
		return sarg.IsNull(c)
	case 8:
		return sarg.IsNotNull(c)
	case 9:
		return sarg.Ne(c, lit())
	case 10:
		return sarg.NotIn(c, lit(), lit())
	case 11:
		return sarg.NullSafeEq(c, lit())
	}
	a, b := lit(), lit()
	return sarg.NotBetween(c, a, b)
}

// ixExpression is a random comparison of an expression over the data
// columns: arithmetic of one or two columns, a function of one, a column
// against another; the index must rule files out by the statistics of
// every column it names (issue 52 item 4).
func ixExpression(r *rand.Rand) sarg.Expr {
	forms := []func() string{
		func() string { return fmt.Sprintf("a - k > %d", -r.IntN(250)) },
		func() string { return fmt.Sprintf("k - a * 10 > %d", r.IntN(12)-2) },
		func() string { return fmt.Sprintf("a < k / %d", 1+r.IntN(12)) },
		func() string { return fmt.Sprintf("a * 10 > k - %d", r.IntN(12)) },
		func() string { return fmt.Sprintf("a + c > %d", r.IntN(40)) },
		func() string { return fmt.Sprintf("c * 2 >= %d", r.IntN(30)) },
		func() string { return fmt.Sprintf("d + 1 > %d", r.IntN(30)) },
		func() string { return fmt.Sprintf("ABS(a - %d) <= 2", r.IntN(25)) },
		func() string { return fmt.Sprintf("MONTH(e) = %d", 1+r.IntN(2)) },
		func() string { return fmt.Sprintf("HOUR(f) = %d", r.IntN(24)) },
		func() string { return []string{"a < k", "a >= k", "a = k", "c < a"}[r.IntN(4)] },
	}
	return sarg.MustParse(forms[r.IntN(len(forms))]())
}

// ixStore is an in-memory dataset directory whose files carry versions.
type ixStore struct {
	fsys fstest.MapFS
	gen  int64
	old  bool // some file has an older schema (ixOldFile)
}

func (st *ixStore) put(name string, data []byte) {
	st.gen++
	st.fsys[name] = &fstest.MapFile{Data: data, ModTime: time.Unix(0, st.gen)}
}

func (st *ixStore) dataset(t testing.TB, index []byte) *dataset.Dataset {
	t.Helper()
	files, err := dataset.FromFS(st.fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	opts := []dataset.Option{dataset.WithSchema(orc.MustParseSchema(ixSchema)), dataset.WithPartitioning(ixParts)}
	if index != nil {
		opts = append(opts, dataset.WithIndex("test index", func() (io.ReaderAt, int64, io.Closer, error) {
			return bytes.NewReader(index), int64(len(index)), nil, nil
		}))
	}
	d, err := dataset.New(files, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func randomStore(t testing.TB, r *rand.Rand, nfiles int) *ixStore {
	st := &ixStore{fsys: fstest.MapFS{}}
	withOld := r.IntN(2) == 0 // half the stores have files of an older schema
	for i := range nfiles {
		data := ixFile(t, r)
		if withOld && r.IntN(6) == 0 {
			data, st.old = ixOldFile(t, r), true
		}
		st.put(fmt.Sprintf("p=%d/part-%03d.orc", r.IntN(4), i), data)
	}
	return st
}

// ixOldFile writes a file of an older schema: most columns missing, k an
// int where the read schema has bigint. The index knows nothing of those
// columns in it.
func ixOldFile(t testing.TB, r *rand.Rand) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<a:int,k:int>")
	n := 1 + r.IntN(10)
	b := orc.NewBatch(s, n)
	lo := r.IntN(20)
	for range n {
		b.Cols[0].(*orc.LongVector).Append(int64(lo + r.IntN(6)))
		b.Cols[1].(*orc.LongVector).Append(int64(lo*10 + r.IntN(10)))
	}
	b.NumRows = n
	return dstest.WriteORC(t, s, b)
}

func buildIndex(t testing.TB, d *dataset.Dataset, opts ...statsindex.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := statsindex.Write(d.IndexSource(), &buf, opts...); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var ixIndexable = []string{"a", "b", "c", "d", "e", "f", "g", "h", "k"}

// randomColumns picks a random subset of the indexable columns (nil:
// all of them).
func randomColumns(r *rand.Rand) []string {
	if r.IntN(4) == 0 {
		return nil
	}
	var cols []string
	for _, c := range ixIndexable {
		if r.IntN(2) == 0 {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		cols = []string{"a"}
	}
	return cols
}

// bloomSubset picks some of the indexed columns (nil: all) that bloom
// filters take, or nil.
func bloomSubset(r *rand.Rand, cols []string) []string {
	if cols == nil {
		cols = ixIndexable
	}
	var out []string
	for _, c := range cols {
		if c != "f" && c != "g" && r.IntN(2) == 0 {
			out = append(out, c)
		}
	}
	return out
}

func indexOpts(cols []string) []statsindex.Option {
	if cols == nil {
		return nil
	}
	return []statsindex.Option{statsindex.Columns(cols...)}
}

// compareScans checks that the rows through the index are the rows of a
// scan that ignores it, both filtered exactly, and returns the two scans'
// statistics.
func compareScans(t *testing.T, what string, d *dataset.Dataset, e sarg.Expr) (withIx, without dataset.Stats) {
	t.Helper()
	want, st0 := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithIndexLookup(false))
	got, st1 := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s: %s: %d rows through the index, %d without", what, e, len(got), len(want))
	}
	if st1.IndexWarning != "" {
		t.Fatalf("%s: %s", what, st1.IndexWarning)
	}
	return st1, st0
}

// TestIndexSoundness: for random predicates over random datasets with
// random subsets of columns indexed, the rows through the index are the
// rows of a plain scan; with every column indexed and the index fresh, the
// index rules out exactly the files the footers would, but for files of an
// older schema, whose footers can say more (a missing column is all NULL)
// than the index records (nothing).
func TestIndexSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	datasets, preds := 10**indexScale, 10
	if testing.Short() {
		datasets, preds = 2, 8 // -race -short in CI
	}
	pruned, exact := 0, 0
	for ds := range datasets {
		st := randomStore(t, r, 10+r.IntN(30))
		cols := randomColumns(r)
		d := st.dataset(t, nil)
		d = st.dataset(t, buildIndex(t, d, indexOpts(cols)...))
		for range preds {
			e := ixPredicate(r, 2)
			withIx, without := compareScans(t, fmt.Sprintf("dataset %d (columns %v)", ds, cols), d, e)
			if !withIx.IndexUsed && withIx.FilesPrunedByPartition < withIx.FilesConsidered {
				t.Fatalf("%s: index not used", e)
			}
			if withIx.FilesNotInIndex != 0 {
				t.Fatalf("%s: %d files not in a fresh index", e, withIx.FilesNotInIndex)
			}
			footer := without.FilesSkipped - without.FilesPrunedByPartition
			if withIx.FilesPrunedByIndex > footer {
				t.Fatalf("%s: the index ruled out %d files, the footers %d", e, withIx.FilesPrunedByIndex, footer)
			}
			if cols == nil && !st.old {
				exact++
			}
			if cols == nil && withIx.FilesPrunedByIndex != footer && !st.old {
				t.Fatalf("columns %v, %s: the index ruled out %d files, the footers %d", cols, e, withIx.FilesPrunedByIndex, footer)
			}
			pruned += withIx.FilesPrunedByIndex
		}
	}
	if pruned == 0 {
		t.Fatal("the index never ruled out a file")
	}
	if exact == 0 && !testing.Short() {
		t.Fatal("no query compared the index's decisions with the footers'")
	}
	t.Logf("%d files ruled out by the index; %d queries ruled out what the footers did", pruned, exact)
}

// TestIndexStale rewrites, adds and deletes files between the index build
// and the query, and compares every query with a scan without the index.
func TestIndexStale(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 2))
	rounds := 6 * *indexScale
	if testing.Short() {
		rounds = 1
	}
	checks := 0
	for round := range rounds {
		st := randomStore(t, r, 10+r.IntN(15))
		cols := randomColumns(r)
		opts := indexOpts(cols)
		if round%2 == 1 { // bloom filters for some of the indexed columns
			if bloom := bloomSubset(r, cols); bloom != nil {
				opts = append(opts, statsindex.BloomColumns(bloom...))
			}
		}
		index := buildIndex(t, st.dataset(t, nil), opts...)
		next := 1000
		for step := range 10 {
			names := make([]string, 0, len(st.fsys))
			for n := range st.fsys {
				names = append(names, n)
			}
			switch r.IntN(4) {
			case 0: // rewrite a file in place (new contents, new version)
				if len(names) > 0 {
					st.put(names[r.IntN(len(names))], ixFile(t, r))
				}
			case 1: // a new file
				st.put(fmt.Sprintf("p=%d/part-%03d.orc", r.IntN(4), next), ixFile(t, r))
				next++
			case 2: // delete a file
				if len(names) > 1 {
					delete(st.fsys, names[r.IntN(len(names))])
				}
			case 3: // the same contents written again: a new version
				if len(names) > 0 {
					n := names[r.IntN(len(names))]
					st.put(n, st.fsys[n].Data)
				}
			}
			d := st.dataset(t, index)
			for range 2 {
				e := ixPredicate(r, 2)
				withIx, _ := compareScans(t, fmt.Sprintf("round %d step %d", round, step), d, e)
				if !withIx.IndexUsed && withIx.FilesPrunedByPartition < withIx.FilesConsidered {
					t.Fatalf("%s: index not used", e)
				}
				checks++
			}
		}
	}
	t.Logf("%d queries against stale indexes", checks)
}

// TestIndexLookupRowGroups: an index of several row groups (a stride of
// 100 entries, files whose ranges grow with their paths) is pruned by its
// lookup expression, and the files it rules out that way are still exactly
// those the footers rule out, the rows those of a scan without the index.
// Every leaf form the translation knows is drawn (ixPredicate), NOT and
// LIKE included. A file without values or with a column all null has NULL
// bounds, which keep its row group (unknown), so the files here have rows.
func TestIndexLookupRowGroups(t *testing.T) {
	defer statsindex.SetStride(100)()
	r := rand.New(rand.NewPCG(33, 7))
	const nfiles = 200
	preds := 6 * *indexScale
	if testing.Short() {
		preds = 1
	}
	st := &ixStore{fsys: fstest.MapFS{}}
	for i := range nfiles {
		st.put(fmt.Sprintf("p=%d/part-%04d.orc", i*4/nfiles, i), ixFileAt(t, r, i*20/nfiles, i*(len(ixWords)-1)/nfiles))
	}
	d := st.dataset(t, buildIndex(t, st.dataset(t, nil)))
	// Forms whose lookup rules out a whole group: files 0-99 (the first
	// group) hold a in [0, 14] and words up to "eel".
	fixed := []struct {
		where string
		min   int
	}{
		{"b LIKE 'z%'", 100},
		{"STARTS_WITH(b, 'zz')", 100},
		{"a NOT BETWEEN 0 AND 14", 100},
	}
	byGroups := 0
	for k := range preds + len(fixed) {
		var e sarg.Expr
		if k < len(fixed) {
			e = sarg.MustParse(fixed[k].where)
		} else {
			e = ixPredicate(r, 2)
		}
		want, without := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithIndexLookup(false))
		got, withIx, explain := scanAll(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if strings.Join(got, "\n") != strings.Join(want, "\n") || withIx.IndexWarning != "" {
			t.Fatalf("%s: %d rows through the index, %d without %s", e, len(got), len(want), withIx.IndexWarning)
		}
		footer := without.FilesSkipped - without.FilesPrunedByPartition
		if withIx.FilesPrunedByIndex != footer {
			t.Fatalf("%s: the index ruled out %d files, the footers %d", e, withIx.FilesPrunedByIndex, footer)
		}
		if m := groupsLine.FindStringSubmatch(explain); m != nil {
			n, _ := strconv.Atoi(m[1])
			byGroups += n
			if k < len(fixed) && n < fixed[k].min {
				t.Fatalf("%s: %d files ruled out by the index's row groups, want at least %d\n%s", e, n, fixed[k].min, explain[:min(len(explain), 600)])
			}
		} else if withIx.IndexUsed {
			t.Fatalf("%s: explain:\n%s", e, explain)
		}
	}
	if byGroups == 0 {
		t.Fatal("the lookup expression never ruled out a row group of the index")
	}
	t.Logf("%d files ruled out by the index's row groups over %d queries", byGroups, preds)
}

var groupsLine = regexp.MustCompile(`index: (\d+) files ruled out by the index's row groups`)

// TestIndexHudiCases runs the eight cases of Hudi's PR #12575 (spec.md
// 7.6): c1 = '619sdc' OR c2 = 100 AND c3 = 200 with each subset of the
// columns indexed. File "unit" is the unit of spec.md 7.6 (c1 in [a, b],
// c2 and c3 in [0, 10]); file "c2c3" has c2 = 100 and c3 = 200 but another
// c1, and must never be ruled out; file "c1" has c1 = '619sdc'.
func TestIndexHudiCases(t *testing.T) {
	s := orc.MustParseSchema("struct<c1:string,c2:int,c3:int>")
	write := func(c1 []string, c2, c3 []int64) []byte {
		b := orc.NewBatch(s, len(c1))
		for i := range c1 {
			b.Cols[0].(*orc.BytesVector).AppendString(c1[i])
			b.Cols[1].(*orc.LongVector).Append(c2[i])
			b.Cols[2].(*orc.LongVector).Append(c3[i])
		}
		b.NumRows = len(c1)
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s)
		if err == nil {
			err = w.Write(b)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	st := &ixStore{fsys: fstest.MapFS{}}
	st.put("unit.orc", write([]string{"a", "b"}, []int64{0, 10}, []int64{0, 10}))
	st.put("c2c3.orc", write([]string{"a", "b"}, []int64{100, 5}, []int64{200, 5}))
	st.put("c1.orc", write([]string{"619sdc", "b"}, []int64{0, 10}, []int64{0, 10}))
	mk := func(index []byte) *dataset.Dataset {
		files, err := dataset.FromFS(st.fsys, ".")
		if err != nil {
			t.Fatal(err)
		}
		opts := []dataset.Option{dataset.WithSchema(s)}
		if index != nil {
			opts = append(opts, dataset.WithIndex("test index", func() (io.ReaderAt, int64, io.Closer, error) {
				return bytes.NewReader(index), int64(len(index)), nil, nil
			}))
		}
		d, err := dataset.New(files, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	e := sarg.MustParse("c1 = '619sdc' OR c2 = 100 AND c3 = 200")
	cases := []struct {
		cols   []string
		pruned int    // files the index rules out: "unit" or none
		lookup string // the lookup expression's columns
	}{
		{[]string{"c1"}, 0, "TRUE"},
		{[]string{"c2"}, 0, "TRUE"},
		{[]string{"c3"}, 0, "TRUE"},
		{[]string{"c2", "c3"}, 0, "TRUE"},
		{[]string{"c1", "c2"}, 1, "(min(c1) IS NULL OR min(c1) <= '619sdc') AND (max(c1) IS NULL OR max(c1) >= '619sdc') OR (min(c2) IS NULL OR min(c2) <= 100) AND (max(c2) IS NULL OR max(c2) >= 100)"},
		{[]string{"c1", "c3"}, 1, "(min(c1) IS NULL OR min(c1) <= '619sdc') AND (max(c1) IS NULL OR max(c1) >= '619sdc') OR (min(c3) IS NULL OR min(c3) <= 200) AND (max(c3) IS NULL OR max(c3) >= 200)"},
		{[]string{"c1", "c2", "c3"}, 1, "(min(c1) IS NULL OR min(c1) <= '619sdc') AND (max(c1) IS NULL OR max(c1) >= '619sdc') OR (min(c2) IS NULL OR min(c2) <= 100) AND (max(c2) IS NULL OR max(c2) >= 100) AND (min(c3) IS NULL OR min(c3) <= 200) AND (max(c3) IS NULL OR max(c3) >= 200)"},
		{[]string{"c3", "c1", "c2"}, 1, "min(c1) IS NULL"},
	}
	for _, c := range cases {
		d := mk(nil)
		d = mk(buildIndex(t, d, statsindex.Columns(c.cols...)))
		withIx, _ := compareScans(t, fmt.Sprint(c.cols), d, e)
		_, _, explain := scanAll(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if withIx.FilesPrunedByIndex != c.pruned {
			t.Fatalf("columns %v: %d files ruled out by the index, want %d\n%s", c.cols, withIx.FilesPrunedByIndex, c.pruned, explain)
		}
		_, lookup, _ := strings.Cut(explain, "index: lookup expression: ")
		lookup, _, _ = strings.Cut(lookup, "\n")
		if c.lookup == "TRUE" && lookup != "TRUE" || !strings.Contains(lookup, c.lookup) {
			t.Fatalf("columns %v: explain:\n%s", c.cols, explain)
		}
		if c.pruned == 1 && strings.Contains(explain, "unit.orc:") {
			t.Fatalf("columns %v: unit.orc was opened:\n%s", c.cols, explain)
		}
	}
}

// TestIndexBroken: an index that fails to read, of another layout or of
// another dataset is ignored with a warning naming the problem, and the
// scan returns what a scan without it returns.
func TestIndexBroken(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 3))
	st := randomStore(t, r, 12)
	good := buildIndex(t, st.dataset(t, nil))
	other := func() []byte {
		var buf bytes.Buffer
		s := orc.MustParseSchema("struct<path:string>")
		w, _ := writer.NewWriter(&buf, s)
		w.AddUserMetadata(statsindex.MetadataKey, []byte(`{"layout":99}`))
		b := orc.NewBatch(s, 1)
		b.Cols[0].(*orc.BytesVector).AppendString("x")
		b.NumRows = 1
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}()
	flipped := bytes.Clone(good)
	for i := len(flipped) / 3; i < len(flipped)/2; i++ {
		flipped[i] ^= 0x5a
	}
	cases := map[string][]byte{
		"empty":     {},
		"garbage":   []byte("not an orc file at all"),
		"truncated": good[:len(good)/2],
		"flipped":   flipped,
		"layout":    other,
	}
	e := sarg.MustParse("a = 7 OR b = 'cat'")
	for name, index := range cases {
		d := st.dataset(t, index)
		want, _ := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithIndexLookup(false))
		s, err := d.Scan(dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		b := s.NewBatch()
		for {
			err := s.Next(b)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = append(got, jsonRows(b)...)
		}
		s.Close()
		same(t, name, got, want)
		stats := s.Stats()
		if name != "flipped" && (stats.IndexWarning == "" || stats.FilesPrunedByIndex != 0) {
			t.Fatalf("%s: no warning: %+v", name, stats)
		}
		t.Logf("%s: %s", name, stats.IndexWarning)
	}
	// No index at all is no warning.
	files, _ := dataset.FromFS(st.fsys, ".")
	d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(ixSchema)), dataset.WithPartitioning(ixParts),
		dataset.WithIndex("test index", func() (io.ReaderAt, int64, io.Closer, error) { return nil, 0, nil, fs.ErrNotExist }))
	if err != nil {
		t.Fatal(err)
	}
	_, stats := scanRows(t, d, dataset.WithSearchArgument(e))
	if stats.IndexWarning != "" || stats.IndexUsed {
		t.Fatalf("missing index: %+v", stats)
	}
}

// TestIndexUpdate adds 10 files, rewrites one and deletes two after a
// build: the update reads the 11 new footers only, and gives the index a
// build from scratch gives; check finds the old index stale and the new
// one current.
func TestIndexUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 4))
	st := randomStore(t, r, 20)
	var opens atomic.Int64
	mk := func() *dataset.Dataset {
		files, err := dataset.FromFS(st.fsys, ".")
		if err != nil {
			t.Fatal(err)
		}
		for i := range files {
			open := files[i].Open
			files[i].Open = func() (io.ReaderAt, int64, io.Closer, error) { opens.Add(1); return open() }
		}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(ixSchema)), dataset.WithPartitioning(ixParts))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	old := buildIndex(t, mk(), statsindex.Columns("a", "b", "f", "g", "d"))
	for i := range 10 {
		st.put(fmt.Sprintf("p=%d/new-%02d.orc", r.IntN(4), i), ixFile(t, r))
	}
	st.put("p=1/part-001.orc", ixFile(t, r))
	delete(st.fsys, "p=2/part-002.orc")
	delete(st.fsys, "p=0/part-000.orc")
	d := mk()
	if err := statsindex.Check(d.IndexSource(), bytes.NewReader(old), int64(len(old))); err == nil {
		t.Fatal("check: the old index is current")
	} else {
		t.Logf("check of the old index: %v", err)
	}
	opens.Store(0)
	var buf bytes.Buffer
	info, err := statsindex.Update(d.IndexSource(), bytes.NewReader(old), int64(len(old)), &buf)
	if err != nil {
		t.Fatal(err)
	}
	listed := len(st.fsys)
	if info.Read != 11 || opens.Load() != 11 || info.Files != listed {
		t.Fatalf("update read %d footers (%d opens) for %d files, want 11", info.Read, opens.Load(), info.Files)
	}
	if err := statsindex.Check(d.IndexSource(), bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Fatalf("check of the updated index: %v", err)
	}
	fresh := buildIndex(t, d, statsindex.Columns("a", "b", "f", "g", "d"))
	if got, want := indexJSON(t, buf.Bytes()), indexJSON(t, fresh); got != want {
		t.Fatalf("updated index:\n%s\nbuilt from scratch:\n%s", got, want)
	}
	d = st.dataset(t, buf.Bytes())
	for range 10 {
		withIx, _ := compareScans(t, "updated", d, ixPredicate(r, 2))
		if withIx.FilesNotInIndex != 0 {
			t.Fatalf("%d files not in the updated index", withIx.FilesNotInIndex)
		}
	}
}

func indexJSON(t *testing.T, index []byte) string {
	t.Helper()
	ir, err := reader.Open(bytes.NewReader(index), int64(len(index)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := ir.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var rows []string
	b := br.NewBatch()
	for br.Next(b) == nil {
		rows = append(rows, jsonRows(b)...)
	}
	return strings.Join(rows, "\n")
}

// TestIndexMutated scans through indexes with random bytes changed: each
// scan ends without a panic, with rows or with the index ignored. (An
// index whose damage still decodes may lie, as a damaged footer may; with
// the index ignored, the rows are the footers'.)
func TestIndexMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 5))
	st := randomStore(t, r, 8)
	good := buildIndex(t, st.dataset(t, nil), statsindex.Columns("a", "b", "d", "f"))
	e := sarg.MustParse("a = 7 OR b = 'cat' AND d > 3.5 OR f IS NULL")
	want, _ := scanRows(t, st.dataset(t, nil), dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	ignored := 0
	n := 80 * *indexScale
	if testing.Short() {
		n = 20
	}
	for range n {
		bad := bytes.Clone(good)
		for range 1 + r.IntN(4) {
			bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
		}
		d := st.dataset(t, bad)
		s, err := d.Scan(dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		b := s.NewBatch()
		for s.Next(b) == nil {
			got = append(got, jsonRows(b)...)
		}
		s.Close()
		if s.Stats().IndexWarning != "" {
			ignored++
			same(t, "ignored index", got, want)
		}
	}
	t.Logf("%d damaged indexes, %d ignored", n, ignored)
}
