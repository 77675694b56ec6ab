package reader_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// TestConformanceSeeking reads every Apache example file with a row index
// keeping only some of its row groups (every other one, and each stripe's
// last), serially and on 2 goroutines, so that the reader seeks by the
// positions of Java's and C++'s writers into the middle of their streams:
// the rows must be the expected file's rows of those groups, and the plan
// must foresee every byte read (ScanStats.UnplannedReads 0).
func TestConformanceSeeking(t *testing.T) {
	dir := examples.Dir(t)
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsn.gz"))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no expected files in %s", dir)
	}
	patterns := []struct {
		name string
		keep func(stripe, group, groups int) bool
	}{
		{"odd groups", func(_, g, _ int) bool { return g%2 == 1 }},
		{"last group", func(_, g, groups int) bool { return g == groups-1 }},
	}
	tried := 0
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsn.gz")
		orcPath := filepath.Join(dir, name+".orc")
		if _, err := os.Stat(orcPath); err != nil {
			continue
		}
		r := openFile(t, orcPath)
		stride := int64(r.RowIndexStride())
		stripes := r.Stripes()
		multi := false
		for _, s := range stripes {
			multi = multi || stride > 0 && s.NumRows > stride
		}
		if !multi || testing.Short() && r.NumRows() > 500_000 {
			continue
		}
		tried++
		groups := func(s int) int { return int((stripes[s].NumRows + stride - 1) / stride) }
		for _, pat := range patterns {
			for _, par := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/%s/%d", name, pat.name, par), func(t *testing.T) {
					keepRow := func(row int64) bool {
						for s, info := range stripes {
							if row < info.NumRows {
								return pat.keep(s, int(row/stride), groups(s))
							}
							row -= info.NumRows
						}
						return false
					}
					sc := expectedRows(t, exp)
					var row int64 // the expected file's next row
					next := func() ([]byte, bool) {
						for sc.Scan() {
							row++
							if keepRow(row - 1) {
								return sc.Bytes(), true
							}
						}
						return nil, false
					}
					br, err := r.NewBatchReader(reader.WithParallelism(par), reader.WithKeptGroups(func(s, g int) bool {
						return pat.keep(s, g, groups(s))
					}))
					if err != nil {
						t.Fatal(err)
					}
					defer br.Close()
					n := int64(0)
					var line []byte
					for b, err := range br.All() {
						if err != nil {
							t.Fatal(err)
						}
						for i := 0; i < b.NumRows; i++ {
							want, ok := next()
							if !ok {
								t.Fatalf("row %d of the groups kept: the expected file has no more", n)
							}
							line = reader.AppendJSONRow(line[:0], b, i)
							if !bytes.Equal(line, want) {
								if msg := examples.RowDiff(r.Schema(), line, want); msg != "" {
									t.Fatalf("file row %d: %s\n got: %s\nwant: %s", row-1, msg, clip(line), clip(want))
								}
							}
							n++
						}
					}
					if want, ok := next(); ok {
						t.Fatalf("read %d rows of the groups kept, the expected file has more: %s", n, clip(want))
					}
					if st := br.Stats(); st.UnplannedReads != 0 {
						t.Errorf("%d reads outside the plan\n%v", st.UnplannedReads, st)
					}
				})
			}
		}
	}
	if tried == 0 {
		t.Fatal("no example file has a stripe of several row groups")
	}
}
