package reader_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// BenchmarkScanFile scans the ORC file named by $ORCGO_SCAN_FILE serially
// (such as a lineitem file kept by the bench module's -keep), once with all
// columns (q1) and once with the columns of $ORCGO_SCAN_COLUMNS, comma
// separated (q2; default the bench's Q2 projection). It measures the
// decoding the bench's Q1 and Q2 do without their checksums; without the
// variable it is skipped. With $ORCGO_SCAN_WHERE set, q3 scans q2's
// columns filtered exactly by that predicate, to compare with q2 the
// cost of evaluating it (issue 52: a compound expression should add at
// most 20%).
func BenchmarkScanFile(b *testing.B) {
	path := os.Getenv("ORCGO_SCAN_FILE")
	if path == "" {
		b.Skip("set ORCGO_SCAN_FILE to an ORC file to scan")
	}
	cols := "l_extendedprice,l_discount,l_shipdate"
	if c := os.Getenv("ORCGO_SCAN_COLUMNS"); c != "" {
		cols = c
	}
	for _, q := range []struct {
		name string
		opts []reader.ScanOption
	}{
		{"q1", nil},
		{"q2", []reader.ScanOption{reader.WithColumns(strings.Split(cols, ",")...)}},
		{"q3", []reader.ScanOption{reader.WithColumns(strings.Split(cols, ",")...)}},
	} {
		if q.name == "q3" {
			where := os.Getenv("ORCGO_SCAN_WHERE")
			if where == "" {
				continue
			}
			q.opts = append(q.opts, reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true))
		}
		b.Run(q.name, func(b *testing.B) {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			r, err := reader.Open(f, st.Size())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var rows int64
			for i := 0; i < b.N; i++ {
				br, err := r.NewBatchReader(append([]reader.ScanOption{reader.WithBatchSize(4096)}, q.opts...)...)
				if err != nil {
					b.Fatal(err)
				}
				batch := br.NewBatch()
				for {
					if err := br.Next(batch); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					rows += int64(batch.NumRows)
				}
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
