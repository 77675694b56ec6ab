package orccloud_test

import (
	"bytes"
	"fmt"
	"testing"

	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// TestTable reads a partitioned table from a prefix: listed in pages,
// partitions discovered, a partition predicate ruling files out unopened;
// then with an index published on the store (PublishIndex: the index and
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
		if _, err := d.WriteIndex(&index); err != nil {
			t.Fatal(err)
		}
		st.Close()
		st, prefix, err := orccloud.OpenStore(ctx, s.url("tbl/"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := dataset.PublishIndex(st.PutFunc(ctx, prefix), index.Bytes()); err != nil {
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
