package reader_test

import (
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// scanLines returns the JSON rows and statistics of a scan.
func scanLines(t *testing.T, r *reader.Reader, opts ...reader.ScanOption) ([]string, reader.ScanStats) {
	t.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	var out []string
	var line []byte
	for {
		if err := br.Next(b); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			line = reader.AppendJSONRow(line[:0], b, i)
			out = append(out, string(line))
		}
	}
	return out, br.Stats()
}

func TestPredicatePushdownFile(t *testing.T) {
	r := openFile(t, filepath.Join(examples.Dir(t), "TestOrcFile.testPredicatePushdown.orc"))
	where := sarg.MustParse("int1 >= 300000 AND int1 < 600000")
	rows, st := scanLines(t, r, reader.WithSearchArgument(where), reader.WithExactFilter(true), reader.WithExplain())
	if len(rows) != 1000 {
		t.Fatalf("got %d rows, want 1000\n%v", len(rows), st)
	}
	if st.GroupsConsidered != 4 || st.GroupsSkipped != 3 {
		t.Fatalf("groups: %+v", st)
	}
	// Same rows as a full scan filtered exactly.
	all, _ := scanLines(t, r)
	b := sarg.MustBind(where, r.Schema())
	_ = b
	if all[1000] != rows[0] || all[1999] != rows[999] {
		t.Fatalf("first/last rows differ: %s / %s", rows[0], rows[999])
	}
	// With WithWholeRowGroups the surviving group is returned whole.
	rows, _ = scanLines(t, r, reader.WithSearchArgument(sarg.MustParse("int1 = 300300")), reader.WithWholeRowGroups())
	if len(rows) != 1000 || rows[0] != all[1000] {
		t.Fatalf("unfiltered: %d rows", len(rows))
	}
	rows, _ = scanLines(t, r, reader.WithSearchArgument(sarg.MustParse("int1 = 300300")), reader.WithExactFilter(true))
	if len(rows) != 1 || rows[0] != all[1001] {
		t.Fatalf("point: %v", rows)
	}
	// Exact filtering is the default.
	rows, _ = scanLines(t, r, reader.WithSearchArgument(sarg.MustParse("int1 = 300300")))
	if len(rows) != 1 || rows[0] != all[1001] {
		t.Fatalf("point, default options: %d rows", len(rows))
	}
}
