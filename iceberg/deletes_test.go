package iceberg

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// writeDeleteFile writes an ORC delete file of schema s (rows from fill)
// under tbl's data location and returns its manifest entry, of content
// kind, in the partition of values.
func writeDeleteFile(t *testing.T, ctx context.Context, tbl *table.Table, s *ice.Schema, kind ice.ManifestEntryContent,
	values map[int]any, eqIDs []int, fill func(b *orc.Batch)) ice.DataFile {
	t.Helper()
	fsys, err := tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := tbl.LocationProvider()
	if err != nil {
		t.Fatal(err)
	}
	path := loc.NewDataLocation("delete-" + uuid.NewString() + ".orc")
	f, err := fsys.(icebergio.WriteFileIO).Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(f, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(w.Schema(), 16)
	fill(b)
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	bld, err := ice.NewDataFileBuilder(tbl.Spec(), kind, path, ice.OrcFile, values, nil, nil, m.RecordCount, m.FileSize)
	if err != nil {
		t.Fatal(err)
	}
	if eqIDs != nil {
		bld.EqualityFieldIDs(eqIDs)
	}
	return bld.Build()
}

func commitDeletes(t *testing.T, ctx context.Context, cat catalog.Catalog, ident table.Identifier, files []ice.DataFile) {
	t.Helper()
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	tx := tbl.NewTransaction()
	if err := tx.NewRowDelta(nil).AddDeletes(files...).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// fileIDs returns the id column of the data file at path, by position.
func fileIDs(t *testing.T, fsys icebergio.IO, path string) []int64 {
	t.Helper()
	f, err := fsys.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	r, err := reader.Open(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithColumns("id"))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var ids []int64
	b := br.NewBatch()
	for {
		if err := br.Next(b); err == io.EOF {
			return ids
		} else if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
	}
}

// TestScanDeletes: position and equality delete files, in partitioned and
// unpartitioned tables, take out exactly the rows they delete: a random
// tenth of the rows by position, runs of ids and single cat values by
// equality (scoped to their partition), and not the rows appended after
// the equality deletes; for random predicates Scan returns exactly the
// rows left, filtered in Go.
func TestScanDeletes(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	s := eventsSchema()
	daySpec, _ := ice.NewPartitionSpecOpts(
		ice.AddPartitionFieldByName("ts", "ts_day", ice.DayTransform{}, s, nil),
		ice.AddPartitionFieldByName("cat", "cat_trunc", ice.TruncateTransform{Width: 2}, s, nil))
	rng := rand.New(rand.NewPCG(50, 3))
	const n = 600
	for _, tc := range []struct {
		name string
		spec *ice.PartitionSpec
	}{{"flat", nil}, {"by_day", &daySpec}} {
		var opts []catalog.CreateTableOpt
		if tc.spec != nil {
			opts = append(opts, catalog.WithPartitionSpec(tc.spec))
		}
		ident := table.Identifier{"db", "del_" + tc.name}
		if _, err := cat.CreateTable(ctx, ident, s, opts...); err != nil {
			t.Fatal(err)
		}
		fillTable(t, ctx, cat, ident, n)
		deleted, again := deleteSome(t, ctx, cat, ident, rng)
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 30; q++ {
			p := randomPredicate(rng, n)
			if q == 0 {
				p = predicate{"true", sarg.True(), func(event) bool { return true }}
			}
			var got []int64
			if _, err := Scan(ctx, tbl, p.expr, func(b *orc.Batch) error {
				got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
				return nil
			}); err != nil {
				t.Fatalf("%s %s: %v", tc.name, p.expr, err)
			}
			var want []int64
			for i := 0; i < n; i++ {
				if p.match(eventAt(i)) && !deleted[int64(i)] {
					want = append(want, int64(i))
				}
			}
			for _, i := range again {
				if p.match(eventAt(int(i))) {
					want = append(want, i)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, %s (%s): %d rows, want %d", tc.name, p.name, p.expr, len(got), len(want))
			}
		}
	}
}

// deleteSome commits delete files to table ident: position deletes of a
// tenth of each data file's rows (one file per data file, in its
// partition, with a repeat and a row of a file not in the table), then
// equality deletes by id of a run of rows of every third data file (in
// its partition, so an id of another partition in the same file stays)
// and, unpartitioned, by cat of rows 5 and 77; then it appends rows
// 100..104 again. It returns the ids deleted and the ids appended again.
func deleteSome(t *testing.T, ctx context.Context, cat catalog.Catalog, ident table.Identifier, rng *rand.Rand) (map[int64]bool, []int64) {
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	fsys, _ := tbl.FS(ctx)
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deleted := map[int64]bool{}
	var pos, eq []ice.DataFile
	idOnly := ice.NewSchema(0, ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64, Required: true})
	for k, task := range tasks {
		path := task.File.FilePath()
		ids := fileIDs(t, fsys, path)
		var gone []int64
		for p := range ids {
			if rng.IntN(10) == 0 {
				gone = append(gone, int64(p))
				deleted[ids[p]] = true
			}
		}
		pos = append(pos, writeDeleteFile(t, ctx, tbl, posDeleteSchema, ice.EntryContentPosDeletes, task.File.Partition(), nil,
			func(b *orc.Batch) {
				for _, p := range append(gone, gone[:min(1, len(gone))]...) {
					b.Cols[0].(*orc.BytesVector).AppendString(path)
					b.Cols[1].(*orc.LongVector).Append(p)
				}
				b.Cols[0].(*orc.BytesVector).AppendString(path + ".elsewhere")
				b.Cols[1].(*orc.LongVector).Append(0)
				b.NumRows = len(gone) + min(1, len(gone)) + 1
			}))
		if k%3 != 0 || len(ids) < 4 {
			continue
		}
		run := ids[len(ids)/2 : len(ids)/2+3]
		for _, id := range run {
			deleted[id] = true
		}
		eq = append(eq, writeDeleteFile(t, ctx, tbl, idOnly, ice.EntryContentEqDeletes, task.File.Partition(), []int{1},
			func(b *orc.Batch) {
				for _, id := range run {
					b.Cols[0].(*orc.LongVector).Append(id)
				}
				b.NumRows = len(run)
			}))
	}
	if tbl.Spec().IsUnpartitioned() {
		catOnly := ice.NewSchema(0, ice.NestedField{ID: 3, Name: "cat", Type: ice.PrimitiveTypes.String})
		eq = append(eq, writeDeleteFile(t, ctx, tbl, catOnly, ice.EntryContentEqDeletes, nil, []int{3},
			func(b *orc.Batch) {
				b.Cols[0].(*orc.BytesVector).AppendString(eventAt(5).cat)
				b.Cols[0].(*orc.BytesVector).AppendString(eventAt(77).cat)
				b.NumRows = 2
			}))
		deleted[5], deleted[77] = true, true
	}
	commitDeletes(t, ctx, cat, ident, append(pos, eq...))
	// Rows 100..104 again, after the deletes: equality deletes of the
	// same ids do not apply to them.
	tbl, _ = cat.LoadTable(ctx, ident)
	tw, err := NewTableWriter(ctx, tbl, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Write(appendEvents(tw.Schema(), 100, 105)); err != nil {
		t.Fatal(err)
	}
	files, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Commit(ctx, cat, ident, files, 0); err != nil {
		t.Fatal(err)
	}
	return deleted, []int64{100, 101, 102, 103, 104}
}

// TestScanBadDeleteFiles: a delete file that is missing, in Avro, not the
// Parquet file its entry says, or deletes a negative position is an error
// naming it; a deletion vector is refused.
func TestScanBadDeleteFiles(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "bad_deletes"}
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
	negative := writeDeleteFile(t, ctx, tbl, posDeleteSchema, ice.EntryContentPosDeletes, nil, nil, func(b *orc.Batch) {
		b.Cols[0].(*orc.BytesVector).AppendString(data)
		b.Cols[1].(*orc.LongVector).Append(-3)
		b.NumRows = 1
	})
	avro, err := ice.NewDataFileBuilder(tbl.Spec(), ice.EntryContentPosDeletes, negative.FilePath()+".avro",
		ice.AvroFile, nil, nil, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	missing, err := ice.NewDataFileBuilder(tbl.Spec(), ice.EntryContentEqDeletes, data+".gone.orc",
		ice.OrcFile, nil, nil, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	missing.EqualityFieldIDs([]int{1})
	// An ORC file said to be Parquet.
	notParquetB, err := ice.NewDataFileBuilder(tbl.Spec(), ice.EntryContentPosDeletes, negative.FilePath(),
		ice.ParquetFile, nil, nil, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	notParquet := notParquetB.Build()
	for _, tc := range []struct {
		file ice.DataFile
		want string
	}{
		{negative, "deletes position -3"},
		{avro.Build(), "reads ORC and Parquet delete files"},
		{notParquet, "parquet"},
		{missing.Build(), ".gone.orc"},
	} {
		tasks[0].DeleteFiles, tasks[0].EqualityDeleteFiles = nil, nil
		if tc.file.ContentType() == ice.EntryContentEqDeletes {
			tasks[0].EqualityDeleteFiles = []ice.DataFile{tc.file}
		} else {
			tasks[0].DeleteFiles = []ice.DataFile{tc.file}
		}
		fsys, _ := tbl.FS(ctx)
		_, err := newDeleteLoader(fsys, tbl, tasks).forTask(tasks[0])
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file.FilePath()) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", tc.file.FilePath(), err, tc.want)
		}
	}
	tasks[0].DeleteFiles, tasks[0].EqualityDeleteFiles = nil, nil
	tasks[0].DeletionVectorFiles = []ice.DataFile{negative}
	fsys, _ := tbl.FS(ctx)
	if _, err := newDeleteLoader(fsys, tbl, tasks).forTask(tasks[0]); err == nil || !strings.Contains(err.Error(), "deletion vector") {
		t.Errorf("a deletion vector: %v", err)
	}
	// Committed, the negative position fails the scan.
	commitDeletes(t, ctx, cat, ident, []ice.DataFile{negative})
	tbl, _ = cat.LoadTable(ctx, ident)
	if _, err := Scan(ctx, tbl, sarg.True(), func(*orc.Batch) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "deletes position -3") {
		t.Errorf("a negative position: %v", err)
	}
}

// TestPredicateVectors: a predicate on a field inside a struct, evaluated
// after position deletes, sees the field as null where the struct is null,
// whatever the field's own slot holds there.
func TestPredicateVectors(t *testing.T) {
	rs, err := orc.ParseSchema("struct<a:struct<x:bigint>,y:bigint>")
	if err != nil {
		t.Fatal(err)
	}
	x := &orc.LongVector{Values: []int64{1, 1, 0}, Nulls: orc.Nulls{Nulls: []bool{false, false, true}}}
	a := &orc.StructVector{Fields: []orc.Vector{x}, N: 3, Nulls: orc.Nulls{Nulls: []bool{false, true, false}}}
	y := &orc.LongVector{Values: []int64{7, 8, 9}}
	b := &orc.Batch{Schema: rs, NumRows: 3, Cols: []orc.Vector{a, y}}
	bound, err := sarg.Bind(sarg.Or(sarg.Eq("a.x", sarg.Int(1)), sarg.Eq("y", sarg.Int(9))), rs)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := predicateVectors(rs, b, bound.Columns())
	if err != nil {
		t.Fatal(err)
	}
	got, err := bound.Match(cols, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[true false true]" {
		t.Errorf("a.x = 1 or y = 9: %v, want [true false true]", got)
	}
	if !x.IsNull(2) || x.IsNull(1) {
		t.Error("predicateVectors changed the batch's vector")
	}
}

// TestRowKeys: equality keys are equal exactly when the values are, as
// Iceberg compares them: any NaN equals any NaN, -0.0 is not 0.0, a null
// equals a null and nothing else, and string boundaries count.
func TestRowKeys(t *testing.T) {
	rs, err := orc.ParseSchema("struct<d:double,s:string,t:string>")
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(rs, 8)
	d, s, u := b.Cols[0].(*orc.DoubleVector), b.Cols[1].(*orc.BytesVector), b.Cols[2].(*orc.BytesVector)
	rows := []struct {
		d    float64
		null bool
		s, u string
	}{
		{math.NaN(), false, "ab", "c"},
		{math.Float64frombits(0xfff8000000000123), false, "ab", "c"}, // another NaN
		{0, false, "a", "bc"},
		{math.Copysign(0, -1), false, "a", "bc"},
		{0, true, "", ""},
		{0, true, "", ""},
		{0, false, "", ""},
	}
	for _, r := range rows {
		if r.null {
			d.AppendNull()
		} else {
			d.Append(r.d)
		}
		s.AppendString(r.s)
		u.AppendString(r.u)
	}
	b.NumRows = len(rows)
	paths := [][]int{{0}, {1}, {2}}
	keys := make([]string, len(rows))
	for i := range rows {
		k, err := appendRowKey(nil, b, paths, i)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = string(k)
	}
	equal := map[[2]int]bool{{0, 1}: true, {4, 5}: true}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if got := keys[i] == keys[j]; got != equal[[2]int{i, j}] {
				t.Errorf("rows %d and %d: keys equal %v", i, j, got)
			}
		}
	}
}

// TestSplitByDeletes: stripes without deleted positions form parts of
// their own, read with orcgo's pruning; each part's positions count from
// its first row.
func TestSplitByDeletes(t *testing.T) {
	var stripes []reader.StripeInfo
	for i := range 5 {
		stripes = append(stripes, reader.StripeInfo{Index: i, Offset: 3 + 1000*int64(i), DataLength: 1000, NumRows: 100})
	}
	got := splitByDeletes(stripes, &fileDeletes{positions: []int64{150, 160, 399, 400, 1000}})
	want := "[{3 1000 0 false []} {1003 1000 100 true [50 60]} {2003 1000 200 false []} {3003 2000 300 true [99 100]}]"
	var parts []string
	for _, p := range got {
		parts = append(parts, fmt.Sprintf("{%d %d %d %v %v}", p.offset, p.length, p.first, p.dirty, p.deletes.positions))
	}
	if s := "[" + strings.Join(parts, " ") + "]"; s != want {
		t.Errorf("parts %s\nwant  %s", s, want)
	}
}

// TestPositionDeletesByStripe: in a file of many stripes, position deletes
// in two of them leave the rest to orcgo's pruning, and the rows read are
// exactly those left, for random predicates.
func TestPositionDeletesByStripe(t *testing.T) {
	ctx := context.Background()
	cat, _ := newCatalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := table.Identifier{"db", "stripes"}
	tbl, err := cat.CreateTable(ctx, ident, eventsSchema())
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	tw, err := NewTableWriter(ctx, tbl, 0, writer.WithStripeRowLimit(250), writer.WithRowIndexStride(100))
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < n; off += 100 {
		if err := tw.Write(appendEvents(tw.Schema(), off, off+100)); err != nil {
			t.Fatal(err)
		}
	}
	files, err := tw.Close()
	if err != nil || len(files) != 1 {
		t.Fatalf("%d files: %v", len(files), err)
	}
	if _, err := Commit(ctx, cat, ident, files, 0); err != nil {
		t.Fatal(err)
	}
	tbl, _ = cat.LoadTable(ctx, ident)
	data := files[0].FilePath()
	fsys, _ := tbl.FS(ctx)
	ids := fileIDs(t, fsys, data)
	gone := []int64{260, 261, 499, 1500, 1749}
	del := writeDeleteFile(t, ctx, tbl, posDeleteSchema, ice.EntryContentPosDeletes, nil, nil, func(b *orc.Batch) {
		for _, p := range gone {
			b.Cols[0].(*orc.BytesVector).AppendString(data)
			b.Cols[1].(*orc.LongVector).Append(p)
		}
		b.NumRows = len(gone)
	})
	commitDeletes(t, ctx, cat, ident, []ice.DataFile{del})
	tbl, _ = cat.LoadTable(ctx, ident)
	rng := rand.New(rand.NewPCG(50, 4))
	for q := 0; q < 30; q++ {
		p := randomPredicate(rng, n)
		var got, want []int64
		if _, err := Scan(ctx, tbl, p.expr, func(b *orc.Batch) error {
			got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for pos, id := range ids {
			if !slices.Contains(gone, int64(pos)) && p.match(eventAt(int(id))) {
				want = append(want, id)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s (%s): %d rows, want %d", p.name, p.expr, len(got), len(want))
		}
	}
	f, err := fsys.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	r, err := reader.Open(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	parts := splitByDeletes(r.Stripes(), &fileDeletes{positions: gone})
	if len(r.Stripes()) != 8 || len(parts) != 5 {
		t.Errorf("%d stripes in %d parts, want 8 in 5", len(r.Stripes()), len(parts))
	}
}
