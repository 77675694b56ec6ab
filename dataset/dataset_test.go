package dataset_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// tfile is a test file: its bytes, and its rows as the dataset returns them
// (read schema, then partition columns), as JSON.
type tfile struct {
	name string
	data []byte
	rows []string
}

// The read schema; old files lack "note" and have "qty" as int.
const (
	readSchema = dstest.ReadSchema
	oldSchema  = dstest.OldSchema
)

// makeFiles writes a dataset (dstest.MakeFiles).
func makeFiles(t testing.TB, months, regions, rows int) []tfile {
	t.Helper()
	var files []tfile
	for _, f := range dstest.MakeFiles(t, months, regions, rows) {
		files = append(files, tfile{f.Name, f.Data, f.Rows})
	}
	return files
}

// memFiles makes dataset files over the test files, counting opens.
func memFiles(files []tfile, opens *atomic.Int64) []dataset.File {
	byName := map[string][]byte{}
	var names []string
	for _, f := range files {
		byName[f.name] = f.data
		names = append(names, f.name)
	}
	return dataset.FromOpeners(names, func(name string) (io.ReaderAt, int64, io.Closer, error) {
		opens.Add(1)
		d := byName[name]
		return bytes.NewReader(d), int64(len(d)), nil, nil
	})
}

var parts = dstest.Parts

var (
	newDataset = dstest.NewDataset
	scanRows   = dstest.ScanRows
	same       = dstest.Same
)

func allRows(files []tfile) []string {
	var rows []string
	for _, f := range files {
		rows = append(rows, f.rows...)
	}
	return rows
}

func TestScanAll(t *testing.T) {
	files := makeFiles(t, 4, 3, 3000)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	want := allRows(files)
	for _, par := range []int{1, 3} {
		got, st := scanRows(t, d, dataset.WithParallelism(par), dataset.WithBatchSize(700))
		same(t, fmt.Sprintf("parallelism %d", par), got, want)
		if st.FilesConsidered != 12 || st.FilesOpened != 12 || st.RowsReturned != int64(len(want)) {
			t.Fatalf("stats: %+v", st)
		}
	}
	got, _ := scanRows(t, d, dataset.WithLimit(4321), dataset.WithParallelism(2))
	same(t, "limit", got, want[:4321])
}

func TestPartitionPruning(t *testing.T) {
	files := makeFiles(t, 4, 3, 2000)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	e := sarg.And(sarg.Ge("dt", sarg.DateOf(2024, 3, 1)), sarg.Eq("region", sarg.String("us west")))
	opens.Store(0)
	got, st := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	var want []string
	for _, f := range files {
		for _, r := range f.rows {
			if (bytes.Contains([]byte(r), []byte(`"dt": "2024-03`)) || bytes.Contains([]byte(r), []byte(`"dt": "2024-04`))) &&
				bytes.Contains([]byte(r), []byte(`"region": "us west"`)) {
				want = append(want, r)
			}
		}
	}
	same(t, "partition predicate", got, want)
	if opens.Load() != 2 || st.FilesPrunedByPartition != 10 || st.FilesSkipped != 10 {
		t.Fatalf("opened %d files, stats %+v; want 2 opened, 10 pruned by partition", opens.Load(), st)
	}
	// A partition leaf under OR with a data leaf cannot rule files out
	// alone; NOT and NULL partition values behave as SQL says.
	e = sarg.Or(sarg.Eq("region", sarg.String("eu")), sarg.Lt("id", sarg.Int(10)))
	got, _ = scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	want = want[:0]
	for _, f := range files {
		for _, r := range f.rows {
			var row struct {
				ID     int64
				Region string
			}
			json.Unmarshal([]byte(r), &row)
			if row.Region == "eu" || row.ID < 10 {
				want = append(want, r)
			}
		}
	}
	same(t, "partition OR data", got, want)
	// Exact filtering is the default; WithWholeRowGroups returns the
	// surviving files' row groups whole.
	got, _ = scanRows(t, d, dataset.WithSearchArgument(e))
	same(t, "partition OR data, default options", got, want)
	point := sarg.Eq("id", sarg.Int(1500))
	exact, _ := scanRows(t, d, dataset.WithSearchArgument(point))
	whole, _ := scanRows(t, d, dataset.WithSearchArgument(point), dataset.WithWholeRowGroups())
	if len(exact) == 0 || len(whole) <= len(exact) {
		t.Fatalf("id = 1500: %d rows by default, %d with WithWholeRowGroups; want some, and more whole", len(exact), len(whole))
	}
}

// TestPrunedEqualsFiltered is the dataset's differential test: for
// predicates over partition columns, evolved columns and columns old files
// lack, a pruned, exactly filtered scan returns the rows of a full scan
// filtered row by row.
func TestPrunedEqualsFiltered(t *testing.T) {
	files := makeFiles(t, 3, 2, 2500)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	full := d.Schema()
	preds := []sarg.Expr{
		sarg.Lt("qty", sarg.Int(3)),
		sarg.IsNull("note"),
		sarg.Eq("note", sarg.String("n3")),
		sarg.Not(sarg.Eq("note", sarg.String("n3"))),
		sarg.And(sarg.Between("id", sarg.Int(3000), sarg.Int(9000)), sarg.Eq("region", sarg.String("eu"))),
		sarg.Or(sarg.Gt("price", sarg.Decimal(orc.Int128FromInt64(99000), 2)), sarg.Eq("dt", sarg.DateOf(2024, 2, 1))),
		sarg.Not(sarg.Or(sarg.IsNull("qty"), sarg.Ge("id", sarg.Int(7000)))),
		sarg.In("region", sarg.String("ap"), sarg.String("us west")),
	}
	all, _ := scanRows(t, d)
	for _, e := range preds {
		b := sarg.MustBind(e, full)
		var want []string
		s, err := d.Scan()
		if err != nil {
			t.Fatal(err)
		}
		batch := s.NewBatch()
		for s.Next(batch) == nil {
			cols := sarg.ColumnVectors{}
			for i, c := range full.Children {
				cols[c.ID()] = batch.Cols[i]
			}
			m, err := b.Match(cols, batch.NumRows, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range batch.NumRows {
				if m[i] {
					want = append(want, string(reader.AppendJSONRow(nil, batch, i)))
				}
			}
		}
		s.Close()
		for _, par := range []int{1, 2} {
			got, _ := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithParallelism(par))
			same(t, fmt.Sprintf("%s, parallelism %d", e, par), got, want)
		}
		if len(all) == len(want) && e.String() != "" {
			t.Logf("%s matches every row", e)
		}
	}
	_, st := scanRows(t, d, dataset.WithSearchArgument(sarg.Eq("note", sarg.String("n3"))))
	if st.FilesSkipped < 3 {
		t.Fatalf("note = 'n3' must rule out the old files, which lack note, by their footers: %+v", st)
	}
}

func TestSplits(t *testing.T) {
	files := makeFiles(t, 2, 3, 4000)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	want := allRows(files)
	splits, err := d.Splits(1) // one stripe each
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 12 {
		t.Fatalf("%d splits of 6 files of 2 stripes, want 12", len(splits))
	}
	big, _ := d.Splits(1 << 40)
	if len(big) != 6 {
		t.Fatalf("%d whole-file splits, want 6", len(big))
	}
	// Serialised and scanned one by one, in order: every row once.
	js, _ := json.Marshal(splits)
	var back []dataset.Split
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	var got []string
	var rows int64
	for _, sp := range back {
		r, _ := scanRows(t, d, dataset.WithSplits(sp))
		got = append(got, r...)
		rows += sp.Rows
	}
	same(t, "splits in order", got, want)
	if rows != int64(len(want)) {
		t.Fatalf("splits count %d rows, want %d", rows, len(want))
	}
	// n workers taking splits i, i+n, ...: every row once.
	const n = 3
	var mu sync.Mutex
	var union []string
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []dataset.Split
			for i := w; i < len(splits); i += n {
				mine = append(mine, splits[i])
			}
			r, _ := scanRows(t, d, dataset.WithSplits(mine...))
			mu.Lock()
			union = append(union, r...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Strings(union)
	sorted := slices.Clone(want)
	sort.Strings(sorted)
	same(t, "splits over workers", union, sorted)
	if _, err := d.Scan(dataset.WithSplits(dataset.Split{File: "nope.orc"})); err == nil {
		t.Fatal("a split of an unknown file was accepted")
	}
}

func TestDirectoryAndClose(t *testing.T) {
	files := makeFiles(t, 2, 2, 1500)
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Markers engines leave beside the data are not data.
	os.WriteFile(filepath.Join(dir, "_SUCCESS"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, ".part.crc"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, "_temporary", "0"), 0o755)
	os.WriteFile(filepath.Join(dir, "_temporary", "0", "junk"), []byte("junk"), 0o644)
	list, err := dataset.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	d := newDataset(t, list)
	got, _ := scanRows(t, d, dataset.WithParallelism(2))
	same(t, "directory", got, allRows(files))

	// Closing a scan midway stops its goroutines.
	before := runtime.NumGoroutine()
	for range 5 {
		s, err := d.Scan(dataset.WithParallelism(3), dataset.WithBatchSize(100))
		if err != nil {
			t.Fatal(err)
		}
		b := s.NewBatch()
		if err := s.Next(b); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Next(b); err != io.EOF {
			t.Fatalf("Next after Close: %v", err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Fatalf("%d goroutines after closing, %d before", g, before)
	}
}

func TestBadInput(t *testing.T) {
	files := makeFiles(t, 1, 2, 100)
	var opens atomic.Int64
	mf := memFiles(files, &opens)
	if _, err := dataset.New(mf, dataset.WithSchema(orc.MustParseSchema("struct<id:string>"))); err != nil {
		t.Fatal(err) // mismatches show when a file is scanned
	}
	d, _ := dataset.New(mf, dataset.WithSchema(orc.MustParseSchema("struct<id:string>")))
	s, _ := d.Scan()
	err := s.Next(s.NewBatch())
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(files[0].name)) || !bytes.Contains([]byte(err.Error()), []byte("column id")) {
		t.Fatalf("a type mismatch must name the file and the column: %v", err)
	}
	s.Close()
	if _, err := dataset.New(mf, dataset.WithPartitioning(orc.MustParseSchema("struct<dt:int>"))); err == nil {
		t.Fatal("a partition value that does not parse was accepted")
	}
	if _, err := dataset.New(mf, dataset.WithSchema(orc.MustParseSchema(readSchema)), dataset.WithPartitioning(orc.MustParseSchema("struct<id:int>"))); err == nil {
		t.Fatal("a partition column named like a data column was accepted")
	}
}

// TestFileSelection passes reader.WithSelection to the files' scans: their
// batches come with selections (the predicate matches about 70% of the
// rows, in many runs), which the dataset resolves before it adds the
// partition columns, so the rows are those of a scan without it. The
// old-schema files go through a read schema, where the reader moves rows
// together itself.
func TestFileSelection(t *testing.T) {
	files := makeFiles(t, 2, 2, 3000)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	where := dataset.WithSearchArgument(sarg.MustParse("qty < 35 AND id % 7 <> 3"))
	want, _ := scanRows(t, d, where, dataset.WithBatchSize(512))
	if len(want) == 0 {
		t.Fatal("no rows match")
	}
	for _, par := range []int{1, 2} {
		got, _ := scanRows(t, d, where, dataset.WithBatchSize(512), dataset.WithParallelism(par),
			dataset.WithFileOptions(reader.WithSelection()))
		same(t, fmt.Sprintf("parallelism %d", par), got, want)
	}
}
