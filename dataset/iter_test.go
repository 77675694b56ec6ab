package dataset_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// TestRowsTyped reads a dataset into structs: data columns, a column old
// files lack (null), partition columns, a field no column backs (zero,
// with WithLenientFields), with a predicate, and compares with the JSON
// rows of a batch scan.
func TestRowsTyped(t *testing.T) {
	files := makeFiles(t, 2, 3, 1500)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	type row struct {
		ID     int64     `orc:"id"`
		Qty    *int64    `orc:"qty"`
		Note   *string   `orc:"note"`
		Dt     time.Time `orc:"dt"`
		Region string    `orc:"region"`
		Extra  int       `orc:"extra"` // no such column
	}
	where := sarg.Or(sarg.Lt("id", sarg.Int(100)), sarg.Eq("region", sarg.String("ap")))
	want, _ := scanRows(t, d, dataset.WithSearchArgument(where))
	got, err := dataset.ReadAll[row](d, dataset.WithLenientFields(), dataset.WithSearchArgument(where), dataset.WithBatchSize(300))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i, g := range got {
		var w struct {
			ID     int64
			Qty    *int64
			Note   *string
			Dt     string
			Region string
		}
		if err := json.Unmarshal([]byte(want[i]), &w); err != nil {
			t.Fatal(err)
		}
		if g.ID != w.ID || g.Region != w.Region || g.Dt.Format("2006-01-02") != w.Dt || g.Extra != 0 ||
			(g.Qty == nil) != (w.Qty == nil) || (g.Qty != nil && *g.Qty != *w.Qty) ||
			(g.Note == nil) != (w.Note == nil) || (g.Note != nil && *g.Note != *w.Note) {
			t.Fatalf("row %d: %+v, want %s", i, g, want[i])
		}
	}
	// Breaking out of the loop ends the scan; an error reaches the loop.
	n := 0
	for _, err := range dataset.Rows[row](d, dataset.WithLenientFields()) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 10 {
			break
		}
	}
	for _, err := range dataset.Rows[row](d, dataset.WithLenientFields(), dataset.WithColumns("nope")) {
		if err == nil {
			t.Fatal("a scan of an unknown column yielded a row")
		}
	}
	type nothing struct {
		A int `orc:"a"`
	}
	if _, err := dataset.ReadAll[nothing](d); err == nil {
		t.Fatal("a row type with no column of the table read rows")
	}
}

// TestScanContext: a scan stops when its context is done, between batches
// or while it waits, and says why.
func TestScanContext(t *testing.T) {
	files := makeFiles(t, 3, 3, 4000)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	for _, par := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s, err := d.Scan(dataset.WithContext(ctx), dataset.WithParallelism(par), dataset.WithBatchSize(500))
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		var last error
		for b, err := range s.All() {
			if err != nil {
				last = err
				break
			}
			if rows += b.NumRows; rows >= 5000 {
				cancel()
			}
		}
		if !errors.Is(last, context.Canceled) {
			t.Fatalf("parallelism %d: the scan ended with %v after %d rows, want context.Canceled", par, last, rows)
		}
		if err := s.Next(s.NewBatch()); !errors.Is(err, context.Canceled) {
			t.Fatalf("parallelism %d: Next after: %v", par, err)
		}
		s.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := d.Scan(dataset.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Next(s.NewBatch()); !errors.Is(err, context.Canceled) {
		t.Fatalf("a scan with a done context: %v", err)
	}
}

// TestPredicateNamesIgnoreCaseDataset: partition and data columns named in
// another case resolve to the table's columns.
func TestPredicateNamesIgnoreCaseDataset(t *testing.T) {
	files := makeFiles(t, 2, 3, 500)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	want, _ := scanRows(t, d, dataset.WithSearchArgument(sarg.MustParse("region = 'eu' AND id < 600")))
	got, st := scanRows(t, d, dataset.WithSearchArgument(sarg.MustParse("REGION = 'eu' AND Id < 600")))
	same(t, "names in another case", got, want)
	if len(want) == 0 || st.FilesPrunedByPartition == 0 {
		t.Fatalf("%d rows, %d files pruned by partition", len(want), st.FilesPrunedByPartition)
	}
}
