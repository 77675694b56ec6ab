package orccloud_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
)

// TestTable reads a partitioned table from a prefix: listed in pages,
// partitions discovered, a partition predicate ruling files out unopened;
// then with an index published on the store (statsindex.Publish: the index and
// the pointer naming it), a point query opening one file.
func TestTable(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		defer orccloud.SetListPageSize(2)()
		for d := 0; d < 5; d++ {
			upload(t, s.url(fmt.Sprintf("tbl/day=%d/part-0.orc", d)), int64(d)*10000, 10000)
		}
		upload(t, s.url("tbl/_SUCCESS"), 0, 1) // a marker: left out
		ctx := ctxT(t)
		count := func(d *dataset.Dataset, where string) (int64, dataset.Stats) {
			t.Helper()
			sc, err := d.Scan(dataset.WithSearchArgument(sarg.MustParse(where)))
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			var n int64
			for b, err := range sc.All() {
				if err != nil {
					t.Fatal(err)
				}
				n += int64(b.NumRows)
			}
			return n, sc.Stats()
		}
		d, st, err := orccloud.OpenDataset(ctx, s.url("tbl/"))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Files()) != 5 || st.ListRequests() < 3 {
			t.Fatalf("%d files in %d list requests, want 5 in 3 pages of 2", len(d.Files()), st.ListRequests())
		}
		n, stats := count(d, "day = 3 AND id >= 35000")
		if n != 5000 || stats.FilesPrunedByPartition != 4 || stats.FilesOpened != 1 {
			t.Fatalf("day = 3: %d rows, %d files pruned by partition, %d opened", n, stats.FilesPrunedByPartition, stats.FilesOpened)
		}
		var index bytes.Buffer
		if _, err := statsindex.Write(d.IndexSource(), &index); err != nil {
			t.Fatal(err)
		}
		st.Close()
		st, prefix, err := orccloud.OpenStore(ctx, s.url("tbl/"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := statsindex.Publish(st.PutFunc(ctx, prefix), index.Bytes()); err != nil {
			t.Fatal(err)
		}
		before := s.proxy.count()
		d, st2, err := orccloud.OpenDataset(ctx, s.url("tbl/"))
		if err != nil {
			t.Fatal(err)
		}
		defer st2.Close()
		n, stats = count(d, "id = 42")
		if n != 1 || !stats.IndexUsed || stats.FilesPrunedByIndex != 4 || stats.FilesOpened != 1 {
			t.Fatalf("id = 42 through the index: %d rows, %+v", n, stats)
		}
		t.Logf("%s: a point query through the index: %d requests to the store (%d list pages of 2)", s.name, s.proxy.count()-before, st2.ListRequests())
	})
}

// TestTableIndexObjects: a table prefix of 1,000 files (the issue's
// target; ORC_CLOUD_TABLE_FILES sets another count; 100 in list pages of
// 40 with -short) on S3 with its index published: a point query reads the
// pointer and the index, and no other object, before the one candidate
// file (the target: at most 3 objects).
func TestTableIndexObjects(t *testing.T) {
	files, _ := strconv.Atoi(os.Getenv("ORC_CLOUD_TABLE_FILES"))
	switch {
	case files > 0:
	case testing.Short():
		files = 100
		defer orccloud.SetListPageSize(40)()
	default:
		files = 1000
	}
	s := startS3(t, "orcgo-test")
	ctx := ctxT(t)
	st, prefix, err := orccloud.OpenStore(ctx, s.url("big/"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	data := make([][]byte, files)
	for i := range data {
		data[i] = writeBytes(t, int64(i)*10, 10)
	}
	var wg sync.WaitGroup
	errs := make(chan error, files)
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs <- st.Put(ctx, fmt.Sprintf("%spart-%04d.orc", prefix, i), data[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	d, st1, err := orccloud.OpenDataset(ctx, s.url("big/"))
	if err != nil {
		t.Fatal(err)
	}
	var index bytes.Buffer
	if _, err := statsindex.Write(d.IndexSource(), &index); err != nil {
		t.Fatal(err)
	}
	st1.Close()
	if _, err := statsindex.Publish(st.PutFunc(ctx, prefix), index.Bytes()); err != nil {
		t.Fatal(err)
	}

	// What the query asks of the store, in order: list pages, then GETs.
	var mu sync.Mutex
	var seen []string
	f := func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Query().Has("list-type") || r.URL.Query().Has("prefix") {
			seen = append(seen, "LIST")
		} else {
			seen = append(seen, r.Method+" "+path.Base(r.URL.Path))
		}
		return false
	}
	s.proxy.fail.Store(&f)
	defer s.proxy.fail.Store(nil)
	target := int64(files/2)*10 + 3
	d, st2, err := orccloud.OpenDataset(ctx, s.url("big/"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	sc, err := d.Scan(dataset.WithSearchArgument(sarg.MustParse(fmt.Sprintf("id = %d", target))))
	if err != nil {
		t.Fatal(err)
	}
	var rows int64
	for b, err := range sc.All() {
		if err != nil {
			t.Fatal(err)
		}
		rows += int64(b.NumRows)
	}
	stats := sc.Stats()
	sc.Close()
	if rows != 1 || !stats.IndexUsed || stats.FilesOpened != 1 {
		t.Fatalf("id = %d: %d rows, %+v", target, rows, stats)
	}
	mu.Lock()
	defer mu.Unlock()
	candidate := fmt.Sprintf("part-%04d.orc", files/2)
	objects := map[string]bool{}
	lists, before := 0, 0
	for _, x := range seen {
		if x == "LIST" {
			lists++
			continue
		}
		if strings.HasSuffix(x, " "+candidate) {
			break
		}
		before++
		objects[x[strings.IndexByte(x, ' ')+1:]] = true
	}
	if len(objects) > 3 || objects[candidate] {
		t.Errorf("objects read before the candidate file: %v", objects)
	}
	t.Logf("%d files: %d list requests, then %d requests to %d objects (%v) before the candidate %s; %d requests in all",
		files, lists, before, len(objects), objects, candidate, len(seen))
}
