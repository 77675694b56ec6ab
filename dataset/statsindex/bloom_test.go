package statsindex_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
)

// bloomStore is a dataset of 40 files whose values are drawn from wide
// domains, so that every file's minimum and maximum span nearly all of
// them and only a bloom filter tells the files apart. It returns the store
// and, per column, a literal held by file 7 only.
func bloomStore(t *testing.T) (*ixStore, map[string]string) {
	t.Helper()
	s := orc.MustParseSchema("struct<u:bigint,s:string,ch:char(6),dec:decimal(12,3),x:double,dt:date,v:varchar(8),i:int,ts:timestamp>")
	r := rand.New(rand.NewPCG(33, 11))
	st := &ixStore{fsys: fstest.MapFS{}}
	lits := map[string]string{}
	for f := range 40 {
		const rows = 30
		b := orc.NewBatch(s, rows)
		for k := range rows {
			// The first and last rows hold the domain's ends, so that
			// every file has the same range.
			u := r.Int64N(1_000_000_000)
			switch k {
			case 0:
				u = 0
			case rows - 1:
				u = 999_999_999
			}
			if f == 7 && k == 5 {
				u = 123_456_789 // held by file 7 only
			} else if u == 123_456_789 {
				u++
			}
			b.Cols[0].(*orc.LongVector).Append(u)
			b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprintf("s%09d", u))
			b.Cols[2].(*orc.BytesVector).AppendString(fmt.Sprintf("%-6s", fmt.Sprintf("%x", u%0xffffff)))
			b.Cols[3].(*orc.DecimalVector).Append(orc.Int128FromInt64(u))
			b.Cols[4].(*orc.DoubleVector).Append(float64(u) / 8)
			b.Cols[5].(*orc.LongVector).Append(u % 100_000)
			b.Cols[6].(*orc.BytesVector).AppendString(fmt.Sprintf("v%07d", u%10_000_000))
			b.Cols[7].(*orc.LongVector).Append(u % 1_000_000_007)
			b.Cols[8].(*orc.TimestampVector).Append(u, 0)
		}
		b.Cols[3].(*orc.DecimalVector).Scale = 3
		b.NumRows = rows
		st.put(fmt.Sprintf("part-%03d.orc", f), dstest.WriteORC(t, s, b))
	}
	const u = 123_456_789
	lits["u"] = fmt.Sprint(u)
	lits["s"] = fmt.Sprintf("'s%09d'", u)
	lits["ch"] = fmt.Sprintf("'%x'", u%0xffffff)
	lits["dec"] = "123456.789"
	lits["x"] = fmt.Sprint(float64(u) / 8)
	lits["v"] = fmt.Sprintf("'v%07d'", u%10_000_000)
	lits["i"] = fmt.Sprint(u)
	return st, lits
}

func bloomDataset(t *testing.T, st *ixStore, opts ...statsindex.Option) *dataset.Dataset {
	t.Helper()
	files, err := dataset.FromFS(st.fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	s := orc.MustParseSchema("struct<u:bigint,s:string,ch:char(6),dec:decimal(12,3),x:double,dt:date,v:varchar(8),i:int,ts:timestamp>")
	d, err := dataset.New(files, dataset.WithSchema(s))
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		return d
	}
	index := buildIndex(t, d, opts...)
	d, err = dataset.New(files, dataset.WithSchema(s), dataset.WithIndex("test index", bytesOpener(index)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestIndexBloom: with bloom filters kept for a column, an equality or IN
// on it rules out the files whose filters lack the value although their
// ranges hold it; without them the index rules out none; the rows are
// always those of a scan without the index. Every type the filters take is
// tried, char (stored padded) and decimal (hashed as text) among them.
func TestIndexBloom(t *testing.T) {
	st, lits := bloomStore(t)
	bloomCols := []string{"u", "s", "ch", "dec", "x", "v", "i"}
	plain := bloomDataset(t, st, statsindex.Columns("u", "s", "ch", "dec", "x", "dt", "v", "i"))
	withBloom := bloomDataset(t, st, statsindex.Columns("u", "s", "ch", "dec", "x", "dt", "v", "i"),
		statsindex.BloomColumns(bloomCols...))
	for ci, c := range bloomCols {
		forms := []string{
			c + " = " + lits[c],
			c + " IN (" + lits[c] + ", " + lits[c] + ")",
			c + " <=> " + lits[c],
			"NOT (" + c + " = " + lits[c] + ")",
			c + " = " + lits[c] + " OR dt < DATE '1970-01-01'",
		}
		// = and IN on every column, one of the other forms in turn (under
		// -short, one form per column).
		use := []string{forms[0], forms[1], forms[2+ci%3]}
		if testing.Short() {
			use = []string{forms[ci%len(forms)]}
		}
		for _, where := range use {
			e := sarg.MustParse(where)
			want, _ := scanRows(t, plain, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithIndexLookup(false))
			_, p := scanRows(t, plain, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
			rows, b := scanRows(t, withBloom, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
			if strings.Join(rows, "\n") != strings.Join(want, "\n") || b.IndexWarning != "" {
				t.Fatalf("%s: %d rows through the index, %d without %s", where, len(rows), len(want), b.IndexWarning)
			}
			if p.FilesPrunedByIndex > b.FilesPrunedByIndex {
				t.Fatalf("%s: filters ruled out fewer files (%d) than none (%d)", where, b.FilesPrunedByIndex, p.FilesPrunedByIndex)
			}
			if strings.HasPrefix(where, "NOT") {
				if len(rows) != 40*30-1 || b.FilesPrunedByIndex != 0 {
					t.Fatalf("%s: %d rows, %d files ruled out", where, len(rows), b.FilesPrunedByIndex)
				}
				continue
			}
			if len(rows) != 1 {
				t.Fatalf("%s: %d rows, want 1", where, len(rows))
			}
			// 39 files lack the value; at a 5%% rate a few may pass.
			if p.FilesPrunedByIndex != 0 || b.FilesPrunedByIndex < 33 {
				t.Fatalf("%s: %d files ruled out with filters, %d without; want >= 33 and 0", where, b.FilesPrunedByIndex, p.FilesPrunedByIndex)
			}
		}
	}
	// A function of a column compares the function's value, which the
	// filter does not hold: it must not be probed with the literal.
	for _, where := range []string{"u + 1 = 123456790", "ABS(u) = 123456789", "LENGTH(s) = 10 AND s = " + lits["s"]} {
		e := sarg.MustParse(where)
		want, _ := scanRows(t, plain, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithIndexLookup(false))
		got, st := scanRows(t, withBloom, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != 1 || st.IndexWarning != "" {
			t.Fatalf("%s: %d rows through the index, %d without %s", where, len(got), len(want), st.IndexWarning)
		}
	}
	// The filters' rate is kept: at 0.0001 nearly no false positives.
	strict := bloomDataset(t, st, statsindex.Columns("u"), statsindex.BloomColumns("u"), statsindex.BloomFPP(0.0001))
	if b, _ := compareScans(t, "strict", strict, sarg.MustParse("u = "+lits["u"])); b.FilesPrunedByIndex != 39 {
		t.Fatalf("fpp 0.0001: %d files ruled out, want 39", b.FilesPrunedByIndex)
	}
}

// TestIndexBloomOptions: bloom filter columns must be indexed and of a
// type the filters take; an index with filters updates and checks as one
// without.
func TestIndexBloomOptions(t *testing.T) {
	st, _ := bloomStore(t)
	d := bloomDataset(t, st)
	for _, c := range []struct {
		opts []statsindex.Option
		want string
	}{
		{[]statsindex.Option{statsindex.Columns("u"), statsindex.BloomColumns("s")}, "bloom filter column s is not an indexed column"},
		{[]statsindex.Option{statsindex.BloomColumns("ts")}, "bloom filter column ts has type timestamp"},
		{[]statsindex.Option{statsindex.BloomColumns("nope")}, "bloom filter column nope is not an indexed column"},
		{[]statsindex.Option{statsindex.BloomColumns("u", "u")}, "named twice"},
		{[]statsindex.Option{statsindex.BloomFPP(0)}, "index BloomFPP(0)"},
		{[]statsindex.Option{statsindex.BloomColumns()}, "no column named"},
	} {
		var buf bytes.Buffer
		if _, err := statsindex.Write(d.IndexSource(), &buf, c.opts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("error %v, want %q", err, c.want)
		}
	}
	index := buildIndex(t, d, statsindex.BloomColumns("u", "s"))
	info, err := statsindex.ReadInfo(bytes.NewReader(index), int64(len(index)))
	if err != nil || !strings.Contains(strings.Join(info.Columns, ", "), "u bigint (bloom filter, fpp 0.05), s string (bloom filter, fpp 0.05), ch char(6),") {
		t.Fatalf("info %+v, %v", info, err)
	}
	if err := statsindex.Check(d.IndexSource(), bytes.NewReader(index), int64(len(index))); err != nil {
		t.Fatalf("check: %v", err)
	}
	// Rewrite one file with other values: the check names it; the update
	// reads it alone and equals a fresh build.
	st.put("part-003.orc", st.fsys["part-000.orc"].Data)
	d = bloomDataset(t, st)
	if err := statsindex.Check(d.IndexSource(), bytes.NewReader(index), int64(len(index))); err == nil || !strings.Contains(err.Error(), "part-003.orc") {
		t.Fatalf("check after a rewrite: %v", err)
	}
	var up bytes.Buffer
	info, err = statsindex.Update(d.IndexSource(), bytes.NewReader(index), int64(len(index)), &up)
	if err != nil || info.Read != 1 {
		t.Fatalf("update: %+v, %v", info, err)
	}
	fresh := buildIndex(t, d, statsindex.BloomColumns("u", "s"))
	if indexJSON(t, up.Bytes()) != indexJSON(t, fresh) {
		t.Fatal("the updated index differs from a fresh build")
	}
	if _, err := statsindex.Update(d.IndexSource(), bytes.NewReader(index), int64(len(index)), &up, statsindex.BloomColumns("u")); err == nil {
		t.Fatal("Update took BloomColumns")
	}
}

// bytesOpener opens an index held in memory.
func bytesOpener(data []byte) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		return bytes.NewReader(data), int64(len(data)), nil, nil
	}
}

// TestIndexBloomRandom: random datasets and predicates with filters kept
// for random columns: the rows are those of a scan without the index, and
// the index rules out at least the files it rules out without filters.
func TestIndexBloomRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 12))
	datasets, preds := 4**indexScale, 10
	if testing.Short() {
		datasets, preds = 3, 10
	}
	more := 0
	for ds := range datasets {
		st := randomStore(t, r, 10+r.IntN(20))
		var cols []string
		for _, c := range []string{"a", "b", "c", "d", "e", "h", "k"} {
			if r.IntN(2) == 0 {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			cols = []string{"k"}
		}
		d := st.dataset(t, nil)
		plain := st.dataset(t, buildIndex(t, d))
		withBloom := st.dataset(t, buildIndex(t, d, statsindex.BloomColumns(cols...)))
		for k := range preds {
			e := ixPredicate(r, 2)
			if k%2 == 0 { // an equality or IN on a column with filters, ANDed or ORed with more
				c := cols[r.IntN(len(cols))]
				eq := sarg.Eq(c, ixLiteral(r, c))
				if r.IntN(2) == 0 {
					eq = sarg.In(c, ixLiteral(r, c), ixLiteral(r, c))
				}
				switch r.IntN(3) {
				case 0:
					e = eq
				case 1:
					e = sarg.And(eq, e)
				default:
					e = sarg.Or(eq, e)
				}
			}
			b, _ := compareScans(t, fmt.Sprintf("dataset %d (filters %v)", ds, cols), withBloom, e)
			_, p := scanRows(t, plain, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
			if b.FilesPrunedByIndex < p.FilesPrunedByIndex {
				t.Fatalf("%s: filters ruled out %d files, none %d", e, b.FilesPrunedByIndex, p.FilesPrunedByIndex)
			}
			more += b.FilesPrunedByIndex - p.FilesPrunedByIndex
		}
	}
	if more == 0 {
		t.Fatal("the filters never ruled out a file that the ranges kept")
	}
	t.Logf("the filters ruled out %d more files", more)
}

// TestIndexBloomMutated scans through indexes with bloom filters whose
// bytes are changed at random: no panic, and an ignored index gives the
// footers' rows. Most changes break the index's compressed streams; the
// others land in values, filters among them, that still decode.
func TestIndexBloomMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 13))
	st := randomStore(t, r, 8)
	good := buildIndex(t, st.dataset(t, nil), statsindex.Columns("a", "b", "d"), statsindex.BloomColumns("b", "d"))
	e := sarg.MustParse("b IN ('cat', 'dog') OR d = 3.5 OR a = 7")
	want, _ := scanRows(t, st.dataset(t, nil), dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	n := 60 * *indexScale
	if testing.Short() {
		n = 15
	}
	ignored := 0
	for range n {
		bad := bytes.Clone(good)
		for range 1 + r.IntN(4) {
			bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
		}
		got, stats := scanRows(t, st.dataset(t, bad), dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		if stats.IndexWarning != "" {
			ignored++
			same(t, "ignored index", got, want)
		}
	}
	t.Logf("%d damaged indexes, %d ignored", n, ignored)
}
