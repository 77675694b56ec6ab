package statsindex_test

// Helpers shared with the dataset package's tests (dataset_test.go,
// ahead_test.go): the tests here scan datasets through their index.

import (
	"testing"
	"time"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
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

var parts = dstest.Parts

var (
	newDataset = dstest.NewDataset
	scanRows   = dstest.ScanRows
	same       = dstest.Same
)

// scanAll scans to the end and returns the rows, the statistics and the
// pruning decisions; jsonRows returns a batch's rows as JSON.
var (
	scanAll  = dstest.ScanAll
	jsonRows = dstest.JSONRows
)

// latencyFiles writes dstest.LatencyFiles' n files.
func latencyFiles(t testing.TB, n int) []tfile {
	var files []tfile
	for _, f := range dstest.LatencyFiles(t, n) {
		files = append(files, tfile{name: f.Name, data: f.Data, rows: f.Rows})
	}
	return files
}

// latencyScan scans the files a store serves for the ids of three files
// (the footers rule out the others) and returns the wall time.
func latencyScan(t testing.TB, d *dataset.Dataset, ahead []dataset.ScanOption) ([]string, dataset.Stats, time.Duration) {
	t.Helper()
	e := sarg.Or(sarg.Eq("id", sarg.Int(10*17+1)), sarg.Eq("id", sarg.Int(10*100+2)), sarg.Eq("id", sarg.Int(10*198+3)))
	start := time.Now()
	rows, stats, _ := scanAll(t, d, append(ahead, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))...)
	return rows, stats, time.Since(start)
}
