package dataset_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// TestPredicateForms: LIKE, comparisons of two columns and functions of a
// column, on partition
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
		"YEAR(dt) = 2024 AND qty < 5",
		"CAST(dt AS DATE) = DATE '2024-02-01'",
		"YEAR(dt) <> 2024",
		"MONTH(dt) = 2",
		"DATE_TRUNC('month', dt) IN (DATE '2024-01-01', DATE '2024-03-01') AND qty * 2 > 7",
		"DAY(dt) = 1 AND ABS(qty) <= 2",
		"LENGTH(note) = 2 OR UPPER(region) LIKE 'E%'",
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
		// The partition directories decide these alone (6 files, 2024-01..03).
		if want, ok := map[string]int{"YEAR(dt) <> 2024": 6, "CAST(dt AS DATE) = DATE '2024-02-01'": 4,
			"MONTH(dt) = 2": 4, "DATE_TRUNC('month', dt) IN (DATE '2024-01-01', DATE '2024-03-01') AND qty * 2 > 7": 2}[where]; ok && st.FilesPrunedByPartition != want {
			t.Errorf("%s: %d files pruned by partition, want %d", where, st.FilesPrunedByPartition, want)
		}
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
