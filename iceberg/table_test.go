package iceberg

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	_ "modernc.org/sqlite"
)

func eventsSchema() *ice.Schema {
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64, Required: true},
		ice.NestedField{ID: 2, Name: "ts", Type: ice.PrimitiveTypes.TimestampTz},
		ice.NestedField{ID: 3, Name: "cat", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 4, Name: "v", Type: ice.PrimitiveTypes.Float64},
	)
}

// newCatalog is an SQL catalog in an SQLite file, its warehouse beside it.
func newCatalog(t *testing.T) (*sqlcat.Catalog, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "catalog.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	wh := filepath.Join(dir, "warehouse")
	if err := os.MkdirAll(wh, 0o755); err != nil {
		t.Fatal(err)
	}
	cat, err := sqlcat.NewCatalog("test", db, sqlcat.SQLite, ice.Properties{"warehouse": "file://" + wh})
	if err != nil {
		t.Fatal(err)
	}
	return cat, dir
}

func createEvents(t *testing.T, cat catalog.Catalog) table.Identifier {
	t.Helper()
	ctx := context.Background()
	s := eventsSchema()
	spec, err := ice.NewPartitionSpecOpts(
		ice.AddPartitionFieldByName("ts", "ts_day", ice.DayTransform{}, s, nil),
		ice.AddPartitionFieldByName("id", "id_bucket", ice.BucketTransform{NumBuckets: 4}, s, nil),
		ice.AddPartitionFieldByName("cat", "cat_trunc", ice.TruncateTransform{Width: 1}, s, nil),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "events"}
	if _, err := cat.CreateTable(ctx, ident, s, catalog.WithPartitionSpec(&spec)); err != nil {
		t.Fatal(err)
	}
	return ident
}

// eventsBatch holds rows first..first+n-1: id i, ts day i%3 of 2024-01,
// cat "a"/"b" prefixes, v i/2.
func eventsBatch(s *orc.Schema, first, n int) *orc.Batch {
	b := orc.NewBatch(s, n)
	const day0 = 1704067200 // 2024-01-01T00:00:00Z
	for i := first; i < first+n; i++ {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		b.Cols[1].(*orc.TimestampVector).Append(day0+int64(i%3)*86400+int64(i), 0)
		b.Cols[2].(*orc.BytesVector).AppendString([]string{"apple", "avocado", "banana"}[i%3] + fmt.Sprint(i))
		b.Cols[3].(*orc.DoubleVector).Append(float64(i) / 2)
	}
	b.NumRows = n
	return b
}

func writeEvents(t *testing.T, ctx context.Context, tbl *table.Table, first, n int, target int64) []ice.DataFile {
	t.Helper()
	tw, err := NewTableWriter(ctx, tbl, target)
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < n; off += 50 {
		if err := tw.Write(eventsBatch(tw.Schema(), first+off, min(50, n-off))); err != nil {
			t.Fatal(err)
		}
	}
	files, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCommitAndPlan(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	ident := createEvents(t, cat)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	files := writeEvents(t, ctx, tbl, 0, 300, 0)
	// 3 days x 4 buckets x 2 first letters at most; every row of a file in its partition.
	if len(files) < 6 || len(files) > 24 {
		t.Fatalf("%d files", len(files))
	}
	if _, err := Commit(ctx, cat, ident, files, 0); err != nil {
		t.Fatal(err)
	}
	tbl, err = cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != len(files) {
		t.Fatalf("iceberg-go plans %d files, %d were committed", len(tasks), len(files))
	}
	var rows int64
	for _, task := range tasks {
		rows += checkFile(t, tbl, task.File)
	}
	if rows != 300 {
		t.Errorf("%d rows in the planned files", rows)
	}
	// iceberg-go prunes by partition (bucket of id 7) and by metrics.
	pruned, err := tbl.Scan(table.WithRowFilter(ice.EqualTo(ice.Reference("id"), int64(7)))).PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, task := range pruned {
		found = found || fileHasID(t, task.File.FilePath(), 7)
	}
	if !found || len(pruned) >= len(tasks)/2 {
		t.Errorf("id = 7 plans %d of %d files (the one holding it among them: %v)", len(pruned), len(tasks), found)
	}
	none, err := tbl.Scan(table.WithRowFilter(ice.GreaterThan(ice.Reference("id"), int64(300)))).PlanFiles(ctx)
	if err != nil || len(none) != 0 {
		t.Errorf("id > 300 plans %d files (%v): the upper bounds are 299", len(none), err)
	}
}

// checkFile reads a planned file with orcgo and checks its record count,
// its id bounds and that every row's partition values are the file's.
func checkFile(t *testing.T, tbl *table.Table, df ice.DataFile) int64 {
	t.Helper()
	if df.FileFormat() != ice.OrcFile {
		t.Errorf("%s: format %s", df.FilePath(), df.FileFormat())
	}
	path := strings.TrimPrefix(df.FilePath(), "file://")
	r, err := reader.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	part, err := newPartitioner(tbl.Schema(), tbl.Spec())
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := orc.NewBatch(r.Schema(), 1024)
	lo, hi := int64(1<<62), int64(-1)
	var n int64
	for br.Next(b) == nil {
		for i := 0; i < b.NumRows; i++ {
			vals, _, err := part.values(b, i)
			if err != nil {
				t.Fatal(err)
			}
			for id, v := range vals {
				if fmt.Sprint(df.Partition()[id]) != fmt.Sprint(v) {
					t.Errorf("%s: a row's partition field %d is %v, the file's %v", path, id, v, df.Partition()[id])
				}
			}
			id := b.Cols[0].(*orc.LongVector).Values[i]
			lo, hi = min(lo, id), max(hi, id)
			n++
		}
	}
	if df.Count() != n || n == 0 {
		t.Errorf("%s: record count %d, rows %d", path, df.Count(), n)
	}
	gotLo := int64(binary.LittleEndian.Uint64(df.LowerBoundValues()[1]))
	gotHi := int64(binary.LittleEndian.Uint64(df.UpperBoundValues()[1]))
	if gotLo != lo || gotHi != hi {
		t.Errorf("%s: id bounds %d..%d, rows %d..%d", path, gotLo, gotHi, lo, hi)
	}
	return n
}

func fileHasID(t *testing.T, uri string, id int64) bool {
	t.Helper()
	r, err := reader.OpenFile(strings.TrimPrefix(uri, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := orc.NewBatch(r.Schema(), 1024)
	for br.Next(b) == nil {
		for _, v := range b.Cols[0].(*orc.LongVector).Values[:b.NumRows] {
			if v == id {
				return true
			}
		}
	}
	return false
}

// TestConcurrentCommits: four writers commit at once against the SQL
// catalog; every commit lands once.
func TestConcurrentCommits(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	ident := createEvents(t, cat)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	batches := make([][]ice.DataFile, 4)
	for w := range 4 {
		batches[w] = writeEvents(t, ctx, tbl, 1000*w, 40, 0)
	}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = Commit(ctx, cat, ident, batches[w], 20)
		}()
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", w, err)
		}
	}
	tbl, err = cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var rows int64
	for _, task := range tasks {
		seen[task.File.FilePath()]++
		rows += task.File.Count()
	}
	want := 0
	for _, b := range batches {
		want += len(b)
		for _, f := range b {
			if seen[f.FilePath()] != 1 {
				t.Errorf("%s is in the table %d times", f.FilePath(), seen[f.FilePath()])
			}
		}
	}
	if len(tasks) != want || rows != 160 {
		t.Errorf("%d files, %d rows; want %d files, 160 rows", len(tasks), rows, want)
	}
	if n := len(tbl.Metadata().Snapshots()); n != 4 {
		t.Errorf("%d snapshots, want 4", n)
	}
}

// TestRollBySize: a small target gives several files per partition.
func TestRollBySize(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	s := eventsSchema()
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "flat"}, s)
	if err != nil {
		t.Fatal(err)
	}
	files := writeEvents(t, ctx, tbl, 0, 500, 1)
	if len(files) != 10 { // each batch of 50 rows reaches the 1-byte target
		t.Errorf("%d files, want 10", len(files))
	}
	if _, err := Commit(ctx, cat, table.Identifier{"db", "flat"}, files, 0); err != nil {
		t.Fatal(err)
	}
}

// TestMaxOpenFiles: rows over more partitions than the writer may keep
// open: it never holds more files than allowed, finishing the file written
// least recently, and every row lands in a file of its partition.
func TestMaxOpenFiles(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	s := eventsSchema()
	spec, err := ice.NewPartitionSpecOpts(ice.AddPartitionFieldByName("id", "id_bucket", ice.BucketTransform{NumBuckets: 16}, s, nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "fan"}
	tbl, err := cat.CreateTable(ctx, ident, s, catalog.WithPartitionSpec(&spec))
	if err != nil {
		t.Fatal(err)
	}
	tw, err := NewTableWriter(ctx, tbl, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.SetMaxOpenFiles(0); err == nil {
		t.Error("SetMaxOpenFiles(0) was accepted")
	}
	if err := tw.SetMaxOpenFiles(3); err != nil {
		t.Fatal(err)
	}
	for off := 0; off < 400; off += 20 {
		if err := tw.Write(eventsBatch(tw.Schema(), off, 20)); err != nil {
			t.Fatal(err)
		}
		if len(tw.open) > 3 || tw.lru.Len() != len(tw.open) {
			t.Fatalf("%d files open (%d in the LRU list), at most 3 allowed", len(tw.open), tw.lru.Len())
		}
	}
	files, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) <= 16 {
		t.Errorf("%d files for 16 buckets written 3 at a time", len(files))
	}
	byBucket := map[any]int64{}
	var rows int64
	for _, f := range files {
		byBucket[f.Partition()[1000]] += f.Count()
		rows += f.Count()
	}
	if len(byBucket) != 16 || rows != 400 {
		t.Errorf("%d buckets, %d rows; want 16, 400", len(byBucket), rows)
	}
	if tbl, err = Commit(ctx, cat, ident, files, 0); err != nil {
		t.Fatal(err)
	}
	var got int64
	if _, err := Scan(ctx, tbl, sarg.True(), func(b *orc.Batch) error {
		got += int64(b.NumRows)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got != 400 {
		t.Errorf("scan read %d rows, want 400", got)
	}
}
