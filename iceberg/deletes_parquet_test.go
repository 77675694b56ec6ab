package iceberg

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// eqDeleteRecords is one record of the table's columns ids (by
// iceberg-go's Arrow conversion, field ids included) holding rows, each
// a value per column: int64, string or a timestamp in seconds.
func eqDeleteRecords(t *testing.T, s *ice.Schema, ids []int, rows [][]any) iter.Seq2[arrow.RecordBatch, error] {
	t.Helper()
	sel := map[int]ice.Void{}
	for _, id := range ids {
		sel[id] = ice.Void{}
	}
	proj, err := ice.PruneColumns(s, sel, false)
	if err != nil {
		t.Fatal(err)
	}
	as, err := table.SchemaToArrowSchema(proj, nil, true, false)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer bld.Release()
	for _, row := range rows {
		for c, v := range row {
			switch fb := bld.Field(c).(type) {
			case *array.Int64Builder:
				fb.Append(v.(int64))
			case *array.StringBuilder:
				fb.Append(v.(string))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(v.(int64) * 1e6))
			default:
				t.Fatalf("column %d: a %T", c, fb)
			}
		}
	}
	rec := bld.NewRecordBatch()
	return func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) }
}

// TestParquetDeletesFromIcebergGo: equality deletes that iceberg-go writes
// (Parquet, whatever the data files' format) on a long, on a long and a
// string together, and on a timestamp, take out exactly their rows of
// orcgo's ORC data files; a pair that matches on one column only deletes
// nothing.
func TestParquetDeletesFromIcebergGo(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "pq_deletes"}
	s := eventsSchema()
	if _, err := cat.CreateTable(ctx, ident, s); err != nil {
		t.Fatal(err)
	}
	const n = 300
	fillTable(t, ctx, cat, ident, n)
	deletes := []struct {
		ids  []int
		rows [][]any
	}{
		{[]int{1}, [][]any{{int64(3)}, {int64(50)}, {int64(299)}}},
		{[]int{1, 3}, [][]any{{int64(10), eventAt(10).cat}, {int64(11), "wrong"}}},
		{[]int{2}, [][]any{{eventAt(120).ts}}},
	}
	for _, d := range deletes {
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		tx := tbl.NewTransaction()
		if err := tx.CommitEqualityDeletes(ctx, d.ids, eqDeleteRecords(t, s, d.ids, d.rows), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	parquet := 0
	for _, task := range tasks {
		for _, df := range task.EqualityDeleteFiles {
			if df.FileFormat() == ice.ParquetFile {
				parquet++
			}
		}
	}
	if parquet == 0 {
		t.Fatal("iceberg-go's equality deletes are not Parquet files planned with the data")
	}
	var got []int64
	if _, err := Scan(ctx, tbl, sarg.True(), func(b *orc.Batch) error {
		got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i := int64(0); i < n; i++ {
		if !slices.Contains([]int64{3, 50, 299, 10, 120}, i) {
			want = append(want, i)
		}
	}
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%d rows; want %d, all but 3, 10, 50, 120 and 299", len(got), len(want))
	}
}
