package iceberg

import (
	"context"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/iceberg/internal/restcatalog"
	"github.com/orcgo/orc/sarg"
)

// newRESTCatalog serves an SQL catalog over the REST protocol on
// 127.0.0.1 and returns iceberg-go's REST client of it, the server and
// the SQL catalog behind it.
func newRESTCatalog(t *testing.T) (*rest.Catalog, *restcatalog.Server, catalog.Catalog) {
	t.Helper()
	sqlCat, _ := newCatalog(t)
	srv := restcatalog.New(sqlCat)
	hs := httptest.NewServer(srv) // listens on 127.0.0.1
	t.Cleanup(hs.Close)
	cat, err := rest.NewCatalog(context.Background(), "rest", hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	return cat, srv, sqlCat
}

// Through iceberg-go's REST client: a table is created, files are
// committed, and Scan plans and reads them, pruned as through the SQL
// catalog.
func TestRESTCatalogCommitAndScan(t *testing.T) {
	ctx := context.Background()
	cat, srv, _ := newRESTCatalog(t)
	ident := createEvents(t, cat)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	files := writeEvents(t, ctx, tbl, 0, 300, 0)
	if tbl, err = Commit(ctx, cat, ident, files, 0); err != nil {
		t.Fatal(err)
	}
	if srv.Commits.Load() != 1 || srv.Conflicts.Load() != 0 {
		t.Errorf("%d commits, %d conflicts", srv.Commits.Load(), srv.Conflicts.Load())
	}
	var ids []int64
	st, err := Scan(ctx, tbl, sarg.Eq("id", sarg.Int(7)), func(b *orc.Batch) error {
		ids = append(ids, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
		return nil
	}, WithPlanCounts())
	if err != nil {
		t.Fatal(err)
	}
	// bucket(4, id) leaves the files of id 7's bucket, one a day or so.
	if len(ids) != 1 || ids[0] != 7 || st.FilesConsidered != len(files) || st.FilesOpened != st.FilesPlanned ||
		st.SkippedByPartition+st.SkippedByMetrics+st.FilesPlanned != len(files) || st.SkippedByPartition < len(files)/2 {
		t.Errorf("id = 7 through REST: %v, %+v (%d files)", ids, st, len(files))
	}
}

// Two writers through the REST catalog: the second one's commit is made
// stale by the first's landing just before it, the server refuses it
// (409), and it is retried on the new metadata. Then 4 writers at once.
// Every file lands once.
func TestRESTCatalogConflictRetried(t *testing.T) {
	ctx := context.Background()
	cat, srv, sqlCat := newRESTCatalog(t)
	ident := createEvents(t, cat)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	first := writeEvents(t, ctx, tbl, 0, 40, 0)
	second := writeEvents(t, ctx, tbl, 1000, 40, 0)
	var once atomic.Bool
	srv.BeforeCommit = func(ctx context.Context, id table.Identifier) {
		if once.CompareAndSwap(false, true) { // the other writer lands first
			if _, err := Commit(ctx, sqlCat, ident, first, 1); err != nil {
				t.Error(err)
			}
		}
	}
	if _, err := Commit(ctx, cat, ident, second, 0); err != nil {
		t.Fatal(err)
	}
	if srv.Conflicts.Load() < 1 || srv.Commits.Load() < 2 {
		t.Errorf("%d commits, %d refused: the stale commit was not refused and retried", srv.Commits.Load(), srv.Conflicts.Load())
	}
	srv.BeforeCommit = nil
	batches := [][]ice.DataFile{first, second}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for w := range 4 {
		b := writeEvents(t, ctx, tbl, 2000+1000*w, 40, 0)
		batches = append(batches, b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = Commit(ctx, cat, ident, b, 20)
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
	for _, task := range tasks {
		seen[task.File.FilePath()]++
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
	if len(tasks) != want || len(tbl.Metadata().Snapshots()) != 6 {
		t.Errorf("%d files (want %d), %d snapshots (want 6)", len(tasks), want, len(tbl.Metadata().Snapshots()))
	}
	var rows int64
	if _, err := Scan(ctx, tbl, sarg.True(), func(b *orc.Batch) error { rows += int64(b.NumRows); return nil }); err != nil || rows != 240 {
		t.Errorf("a full scan through REST: %d rows, want 240 (%v)", rows, err)
	}
}
