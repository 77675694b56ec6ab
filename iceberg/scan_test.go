package iceberg

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

const day0 = 1704067200 // 2024-01-01T00:00:00Z

type event struct {
	id    int64
	ts    int64 // seconds
	cat   string
	v     float64
	vNull bool
}

func eventAt(i int) event {
	return event{id: int64(i), ts: day0 + int64(i/100)*86400 + int64(i%100)*60,
		cat: []string{"apple", "avocado", "banana", "cherry"}[(i/50)%4] + fmt.Sprint(i),
		v:   float64(i%97) / 2, vNull: i%7 == 0}
}

func appendEvents(s *orc.Schema, from, to int) *orc.Batch {
	b := orc.NewBatch(s, to-from)
	for i := from; i < to; i++ {
		e := eventAt(i)
		b.Cols[0].(*orc.LongVector).Append(e.id)
		b.Cols[1].(*orc.TimestampVector).Append(e.ts, 0)
		b.Cols[2].(*orc.BytesVector).AppendString(e.cat)
		if e.vNull {
			b.Cols[3].(*orc.DoubleVector).AppendNull()
		} else {
			b.Cols[3].(*orc.DoubleVector).Append(e.v)
		}
	}
	b.NumRows = to - from
	return b
}

// predicate is a search argument and the same test in Go, SQL's nulls
// included.
type predicate struct {
	name  string
	expr  sarg.Expr
	match func(event) bool
}

func randomPredicate(rng *rand.Rand, n int) predicate {
	k, k2 := int64(rng.IntN(n)), int64(rng.IntN(n))
	lo, hi := min(k, k2), max(k, k2)
	cat := eventAt(int(k)).cat
	x := float64(rng.IntN(50))
	t := eventAt(int(k)).ts
	ps := []predicate{
		{"id = k", sarg.Eq("id", sarg.Int(k)), func(e event) bool { return e.id == k }},
		{"id < k", sarg.Lt("id", sarg.Int(k)), func(e event) bool { return e.id < k }},
		{"id >= k", sarg.Ge("id", sarg.Int(k)), func(e event) bool { return e.id >= k }},
		{"id between", sarg.Between("id", sarg.Int(lo), sarg.Int(hi)), func(e event) bool { return e.id >= lo && e.id <= hi }},
		{"id not between", sarg.NotBetween("id", sarg.Int(lo), sarg.Int(hi)), func(e event) bool { return e.id < lo || e.id > hi }},
		{"cat = c", sarg.Eq("cat", sarg.String(cat)), func(e event) bool { return e.cat == cat }},
		{"cat < b", sarg.Lt("cat", sarg.String("b")), func(e event) bool { return e.cat < "b" }},
		{"cat > c", sarg.Gt("cat", sarg.String(cat)), func(e event) bool { return e.cat > cat }},
		{"cat in", sarg.In("cat", sarg.String(cat), sarg.String("cherry7")), func(e event) bool { return e.cat == cat || e.cat == "cherry7" }},
		{"cat not in", sarg.NotIn("cat", sarg.String(cat)), func(e event) bool { return e.cat != cat }},
		{"ts >= t", sarg.Ge("ts", sarg.Instant(t, 0)), func(e event) bool { return e.ts >= t }},
		{"ts < t", sarg.Lt("ts", sarg.Instant(t, 0)), func(e event) bool { return e.ts < t }},
		{"v <= x", sarg.Le("v", sarg.Float(x)), func(e event) bool { return !e.vNull && e.v <= x }},
		{"v > x", sarg.Gt("v", sarg.Float(x)), func(e event) bool { return !e.vNull && e.v > x }},
		{"v is null", sarg.IsNull("v"), func(e event) bool { return e.vNull }},
		{"v is not null", sarg.IsNotNull("v"), func(e event) bool { return !e.vNull }},
		{"id = k or cat = c", sarg.Or(sarg.Eq("id", sarg.Int(k)), sarg.Eq("cat", sarg.String(cat))),
			func(e event) bool { return e.id == k || e.cat == cat }},
		{"id <> k and id < k2", sarg.And(sarg.Ne("id", sarg.Int(k)), sarg.Lt("id", sarg.Int(k2))),
			func(e event) bool { return e.id != k && e.id < k2 }},
		{"not (id < k and v > x)", sarg.Not(sarg.And(sarg.Lt("id", sarg.Int(k)), sarg.Gt("v", sarg.Float(x)))),
			func(e event) bool { return e.id >= k || (!e.vNull && e.v <= x) }},
		{"cat like", sarg.Like("cat", sarg.String("ban%")), func(e event) bool { return strings.HasPrefix(e.cat, "ban") }},
	}
	return ps[rng.IntN(len(ps))]
}

// TestScanMatchesFullScan: over tables with mixed metrics modes and
// partition transforms, Scan returns exactly the rows a full scan filtered
// in Go returns, for random predicates, and says how many files it opened.
func TestScanMatchesFullScan(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	s := eventsSchema()
	daySpec, _ := ice.NewPartitionSpecOpts(
		ice.AddPartitionFieldByName("ts", "ts_day", ice.DayTransform{}, s, nil),
		ice.AddPartitionFieldByName("cat", "cat_trunc", ice.TruncateTransform{Width: 2}, s, nil))
	bucketSpec, _ := ice.NewPartitionSpecOpts(
		ice.AddPartitionFieldByName("id", "id_bucket", ice.BucketTransform{NumBuckets: 3}, s, nil))
	const n = 1200
	tables := []struct {
		name  string
		spec  *ice.PartitionSpec
		props ice.Properties
	}{
		{"by_day", &daySpec, ice.Properties{PropMetricsColumnPrefix + "cat": "truncate(1)", PropMetricsColumnPrefix + "v": "none",
			PropMetricsColumnPrefix + "ts": "counts"}},
		{"by_bucket", &bucketSpec, ice.Properties{PropMetricsDefault: "counts", PropMetricsColumnPrefix + "id": "full",
			PropMetricsColumnPrefix + "cat": "truncate(3)"}},
		{"flat", nil, ice.Properties{PropMetricsDefault: "full"}},
	}
	rng := rand.New(rand.NewPCG(50, 1))
	var planned, opened, total, byPartition, byMetrics int
	for _, tc := range tables {
		opts := []catalog.CreateTableOpt{catalog.WithProperties(tc.props)}
		if tc.spec != nil {
			opts = append(opts, catalog.WithPartitionSpec(tc.spec))
		}
		ident := table.Identifier{"db", tc.name}
		if _, err := cat.CreateTable(ctx, ident, s, opts...); err != nil {
			t.Fatal(err)
		}
		fillTable(t, ctx, cat, ident, n)
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		all, err := tbl.Scan().PlanFiles(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 40; q++ {
			p := randomPredicate(rng, n)
			var got []int64
			st, err := Scan(ctx, tbl, p.expr, func(b *orc.Batch) error {
				got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
				return nil
			}, WithPlanCounts())
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, p.expr, err)
			}
			if st.FilesConsidered != len(all) || st.SkippedByPartition+st.SkippedByMetrics+st.FilesPlanned != len(all) ||
				(tc.spec == nil && st.SkippedByPartition != 0) {
				t.Errorf("%s, %s: plan counts %+v for %d files", tc.name, p.expr, st, len(all))
			}
			byPartition += st.SkippedByPartition
			byMetrics += st.SkippedByMetrics
			var want []int64
			for i := 0; i < n; i++ {
				if p.match(eventAt(i)) {
					want = append(want, int64(i))
				}
			}
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, %s (%s): %d rows, want %d", tc.name, p.name, p.expr, len(got), len(want))
			}
			planned += st.FilesPlanned
			opened += st.FilesOpened
			total += len(all)
		}
	}
	t.Logf("files: %d in the tables over all queries, %d planned, %d opened (%.0f%% skipped by the manifests: %d by partition, %d by metrics)",
		total, planned, opened, 100*float64(total-opened)/float64(total), byPartition, byMetrics)
	if opened >= total || byPartition == 0 || byMetrics == 0 {
		t.Errorf("the manifests skipped %d files by partition and %d by metrics", byPartition, byMetrics)
	}
}

// fillTable appends rows 0..n-1 in commits of 100 consecutive rows, so
// that ids and times cluster by file.
func fillTable(t *testing.T, ctx context.Context, cat catalog.Catalog, ident table.Identifier, n int) {
	t.Helper()
	for c := 0; c < n/100; c++ {
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		tw, err := NewTableWriter(ctx, tbl, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.Write(appendEvents(tw.Schema(), c*100, c*100+100)); err != nil {
			t.Fatal(err)
		}
		files, err := tw.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Commit(ctx, cat, ident, files, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRenameColumns(t *testing.T) {
	o, _ := ToORC(evolved())
	rs := o.Copy()
	rs.FieldNames[0] = "b"
	rs.Children[3].FieldNames[0] = "y"
	e := renameColumns(sarg.And(sarg.Eq("bee", sarg.String("q")), sarg.Lt("s.why", sarg.Int(3)), sarg.IsNull("a")), o, rs)
	if got := e.String(); !strings.Contains(got, "b = 'q'") && !strings.Contains(got, "b, 'q'") {
		t.Errorf("renamed: %s", got)
	}
	if got := e.String(); !strings.Contains(got, "s.y") || strings.Contains(got, "why") || strings.Contains(got, "bee") {
		t.Errorf("renamed: %s", got)
	}
}

func TestIcebergFilter(t *testing.T) {
	s := eventsSchema()
	for _, tc := range []struct {
		e    sarg.Expr
		want string
	}{
		{sarg.Like("cat", sarg.String("a%")), "AlwaysTrue"},
		{sarg.Not(sarg.Like("cat", sarg.String("a%"))), "AlwaysTrue"},
		{sarg.Eq("nope", sarg.Int(1)), "AlwaysTrue"},
		{sarg.Eq("id", sarg.String("x")), "AlwaysTrue"},
		{sarg.In("cat", sarg.NullValue()), "AlwaysFalse"},
		{sarg.NotIn("cat", sarg.String("a"), sarg.NullValue()), "AlwaysTrue"},
	} {
		if got := fmt.Sprint(IcebergFilter(s, tc.e)); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s, want %s", tc.e, got, tc.want)
		}
	}
}

// TestScanBadFiles: a committed file that is missing, or whose ids do not
// match the table's types, is an error naming it; never a panic.
func TestScanBadFiles(t *testing.T) {
	ctx := context.Background()
	cat, dir := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "bad"}
	tbl, err := cat.CreateTable(ctx, ident, eventsSchema())
	if err != nil {
		t.Fatal(err)
	}
	// A file of another table whose field 1 is a string.
	other := ice.NewSchema(0, ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.String})
	path := dir + "/other.orc"
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(f, other, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(w.Schema(), 1)
	b.Cols[0].(*orc.BytesVector).AppendString("x")
	b.NumRows = 1
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	mismatched, err := DataFile(tbl.Spec(), "file://"+path, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Commit(ctx, cat, ident, []ice.DataFile{mismatched}, 0); err != nil {
		t.Fatal(err)
	}
	tbl, _ = cat.LoadTable(ctx, ident)
	_, err = Scan(ctx, tbl, sarg.True(), func(*orc.Batch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "other.orc") {
		t.Errorf("a file whose id 1 is a string: %v", err)
	}
	// A missing file, in a table of its own (the file above has bounds of
	// a string under field 1, which iceberg-go's planning cannot decode as
	// a long: a commit of files of another table is the caller's error).
	ident = table.Identifier{"db", "missing"}
	if tbl, err = cat.CreateTable(ctx, ident, eventsSchema()); err != nil {
		t.Fatal(err)
	}
	missing, _ := DataFile(tbl.Spec(), "file://"+dir+"/gone.orc", &Metrics{RecordCount: 1, FileSize: 100}, nil)
	if _, err := Commit(ctx, cat, ident, []ice.DataFile{missing}, 0); err != nil {
		t.Fatal(err)
	}
	tbl, _ = cat.LoadTable(ctx, ident)
	_, err = Scan(ctx, tbl, sarg.Eq("id", sarg.Int(1)), func(*orc.Batch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "gone.orc") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestScanSnapshot: an older snapshot by id reads the rows it had.
func TestScanSnapshot(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "tt"}
	if _, err := cat.CreateTable(ctx, ident, eventsSchema()); err != nil {
		t.Fatal(err)
	}
	fillTable(t, ctx, cat, ident, 100)
	tbl, _ := cat.LoadTable(ctx, ident)
	first := tbl.CurrentSnapshot().SnapshotID
	fillTable(t, ctx, cat, ident, 300) // rows 0..299 again: ids below 50 twice
	tbl, _ = cat.LoadTable(ctx, ident)
	count := func(opts ...ScanOption) int64 {
		st, err := Scan(ctx, tbl, sarg.Lt("id", sarg.Int(50)), func(*orc.Batch) error { return nil }, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return st.Rows
	}
	if got := count(); got != 100 {
		t.Errorf("current: %d rows with id < 50, want 100", got)
	}
	if got := count(WithSnapshotID(first)); got != 50 {
		t.Errorf("first snapshot: %d rows with id < 50, want 50", got)
	}
	if _, err := Scan(ctx, tbl, sarg.True(), func(*orc.Batch) error { return nil }, WithSnapshotID(12345)); err == nil {
		t.Error("an unknown snapshot id was accepted")
	}
}

// TestThousandFilesOneCommit: 1,000 files appended in one commit; a point
// query on the clustered id opens only the file that holds it. With
// ORCGO_ICEBERG_FILES=10000 it checks the 10,000-file target instead (about
// half a minute; not in the suite).
func TestThousandFilesOneCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 files")
	}
	files := 1000
	if s := os.Getenv("ORCGO_ICEBERG_FILES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("ORCGO_ICEBERG_FILES=%q is not a count of files", s)
		}
		files = n
	}
	manyFilesOneCommit(t, files)
}

func manyFilesOneCommit(t *testing.T, files int) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "many"}
	tbl, err := cat.CreateTable(ctx, ident, eventsSchema())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	tw, err := NewTableWriter(ctx, tbl, 1) // every batch closes its file
	if err != nil {
		t.Fatal(err)
	}
	const per = 10
	for f := 0; f < files; f++ {
		if err := tw.Write(appendEvents(tw.Schema(), f*per, f*per+per)); err != nil {
			t.Fatal(err)
		}
	}
	dfs, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(dfs) != files {
		t.Fatalf("%d files written", len(dfs))
	}
	wrote := time.Now()
	if tbl, err = Commit(ctx, cat, ident, dfs, 0); err != nil {
		t.Fatal(err)
	}
	committed := time.Now()
	if n := len(tbl.Metadata().Snapshots()); n != 1 {
		t.Errorf("%d snapshots", n)
	}
	snap := tbl.CurrentSnapshot()
	tableFS, err := tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	manifests, err := snap.Manifests(tableFS)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int64{0, int64(files*per) * 43 / 100, int64(files*per - 1)} {
		var got []int64
		fsys := &countingIO{IO: tableFS, opens: map[string]int{}}
		counted := table.New(ident, tbl.Metadata(), tbl.MetadataLocation(),
			func(context.Context) (icebergio.IO, error) { return fsys, nil }, nil)
		st, err := Scan(ctx, counted, sarg.Eq("id", sarg.Int(k)), func(b *orc.Batch) error {
			got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != k || st.FilesOpened != 1 {
			t.Errorf("id = %d: rows %v, %d of %d files opened", k, got, st.FilesOpened, files)
		}
		checkOpens(t, k, fsys.opens, snap.ManifestList, manifests)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d files: write %v, commit %v, 3 point queries %v; heap obtained from the OS (HeapSys) %d MiB", files,
		wrote.Sub(start), committed.Sub(wrote), time.Since(committed), ms.HeapSys>>20)
}

// countingIO counts the files opened through it.
type countingIO struct {
	icebergio.IO
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingIO) Open(name string) (icebergio.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.IO.Open(name)
}

// checkOpens checks what a point query opened: the manifest list once,
// each manifest at most once, one data file, and nothing else.
func checkOpens(t *testing.T, k int64, opens map[string]int, list string, manifests []ice.ManifestFile) {
	t.Helper()
	var lists, mans, data int
	for path, n := range opens {
		switch {
		case path == list:
			lists += n
		case strings.HasSuffix(path, ".orc"):
			data += n
		default:
			found := false
			for _, m := range manifests {
				found = found || m.FilePath() == path
			}
			if !found || n != 1 {
				t.Errorf("id = %d: %s opened %d times", k, path, n)
			}
			mans += n
		}
	}
	if lists != 1 || mans > len(manifests) || data != 1 {
		t.Errorf("id = %d: manifest list opened %d times, %d of %d manifests, %d data files",
			k, lists, mans, len(manifests), data)
	}
}
