package dataset_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// TestPredicateForms: LIKE and comparisons of two columns, on partition
// and data columns (some missing from old files, some of another type
// there), return through a dataset exactly the rows that filtering the
// full read returns.
func TestPredicateForms(t *testing.T) {
	files := makeFiles(t, 3, 2, 1500)
	var opens atomic.Int64
	d := newDataset(t, memFiles(files, &opens))
	full := d.Schema()
	for _, where := range []string{
		"region LIKE 'e%'",
		"region NOT LIKE '%west'",
		"STARTS_WITH(note, 'n3')",
		"note LIKE 'n_'",
		"qty < id",
		"id <= qty OR note LIKE '%1%'",
		"qty <=> qty",
		"id BETWEEN qty AND id",
	} {
		e := sarg.MustParse(where)
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
		got, st := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
		same(t, where, got, want)
		t.Logf("%s: %d rows, %d files pruned by partition", where, len(got), st.FilesPrunedByPartition)
	}
	// A partition column against a data column is refused, not guessed.
	s, err := d.Scan(dataset.WithSearchArgument(sarg.MustParse("note < region")))
	if err == nil {
		b := s.NewBatch()
		err = s.Next(b)
		s.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "partition column with a data column") {
		t.Errorf("note < region: %v, want an error saying it is not supported", err)
	}
}
