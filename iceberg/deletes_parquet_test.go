package iceberg

import (
	"context"
	"fmt"
	"iter"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	ice "github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
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
	st, err := Scan(ctx, tbl, sarg.True(), func(b *orc.Batch) error {
		got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.DeleteFilesRead != 3 || st.RowsDeleted != 5 {
		t.Errorf("%d delete files read, %d rows deleted; want 3 and 5", st.DeleteFilesRead, st.RowsDeleted)
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

// TestParquetPositionDeletes: a Parquet position delete file, its columns
// found by field id (named otherwise, as a writer may), takes out exactly
// the rows at its positions, also under a predicate.
func TestParquetPositionDeletes(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "pq_pos"}
	if _, err := cat.CreateTable(ctx, ident, eventsSchema()); err != nil {
		t.Fatal(err)
	}
	fillTable(t, ctx, cat, ident, 100)
	tbl, _ := cat.LoadTable(ctx, ident)
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d files: %v", len(tasks), err)
	}
	data := tasks[0].File.FilePath()
	fsys, _ := tbl.FS(ctx)
	ids := fileIDs(t, fsys, data)
	positions := []int64{0, 5, 6, 99}
	as := arrow.NewSchema([]arrow.Field{
		{Name: "path", Type: arrow.BinaryTypes.String, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"2147483546"})},
		{Name: "position", Type: arrow.PrimitiveTypes.Int64, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"2147483545"})},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer bld.Release()
	for _, p := range positions {
		bld.Field(0).(*array.StringBuilder).Append(data)
		bld.Field(1).(*array.Int64Builder).Append(p)
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	loc, _ := tbl.LocationProvider()
	path := loc.NewDataLocation("pos-deletes.parquet")
	f, err := fsys.(icebergio.WriteFileIO).Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(as, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(strings.TrimPrefix(path, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	df, err := ice.NewDataFileBuilder(tbl.Spec(), ice.EntryContentPosDeletes, path, ice.ParquetFile, nil, nil, nil,
		int64(len(positions)), info.Size())
	if err != nil {
		t.Fatal(err)
	}
	commitDeletes(t, ctx, cat, ident, []ice.DataFile{df.Build()})
	tbl, _ = cat.LoadTable(ctx, ident)
	for _, p := range []predicate{
		{"true", sarg.True(), func(event) bool { return true }},
		{"id < 50", sarg.Lt("id", sarg.Int(50)), func(e event) bool { return e.id < 50 }},
	} {
		var got, want []int64
		st, err := Scan(ctx, tbl, p.expr, func(b *orc.Batch) error {
			got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var deleted int64
		for pos, id := range ids {
			switch {
			case !p.match(eventAt(int(id))):
			case slices.Contains(positions, int64(pos)):
				deleted++
			default:
				want = append(want, id)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", p.name, got, want)
		}
		if st.DeleteFilesRead != 1 || st.RowsDeleted != deleted {
			t.Errorf("%s: %d delete files read, %d rows deleted; want 1 and %d", p.name, st.DeleteFilesRead, st.RowsDeleted, deleted)
		}
	}
}
