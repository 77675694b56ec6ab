package dataset_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// The benchmark dataset: a lineitem-like table of 100 months, one file per
// month in a partition directory l_shipmonth=YYYY-MM-01, rows sorted by
// ship date within a file, as an ingestion job writing by month makes it.
const benchMonths, benchRows = 100, 30000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchDataset(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "orcgo-dataset-bench")
		if benchErr != nil {
			return
		}
		s := orc.MustParseSchema("struct<l_orderkey:bigint,l_quantity:decimal(15,2),l_extendedprice:decimal(15,2),l_discount:double,l_shipdate:date,l_comment:string>")
		r := rand.New(rand.NewPCG(1, 1))
		key := int64(0)
		for m := range benchMonths {
			start := time.Date(1992, time.Month(1+m), 1, 0, 0, 0, 0, time.UTC)
			days := int64(start.AddDate(0, 1, 0).Sub(start).Hours() / 24)
			bt := orc.NewBatch(s, benchRows)
			for i := range benchRows {
				key++
				bt.Cols[0].(*orc.LongVector).Values = append(bt.Cols[0].(*orc.LongVector).Values, key)
				bt.Cols[1].(*orc.DecimalVector).Values = append(bt.Cols[1].(*orc.DecimalVector).Values, orc.Int128FromInt64(int64(100+r.IntN(4900))))
				bt.Cols[2].(*orc.DecimalVector).Values = append(bt.Cols[2].(*orc.DecimalVector).Values, orc.Int128FromInt64(int64(90000+r.IntN(10000000))))
				bt.Cols[3].(*orc.DoubleVector).Values = append(bt.Cols[3].(*orc.DoubleVector).Values, float64(r.IntN(11))/100)
				day := start.Unix()/86400 + int64(i)*days/benchRows
				bt.Cols[4].(*orc.LongVector).Values = append(bt.Cols[4].(*orc.LongVector).Values, day)
				bt.Cols[5].(*orc.BytesVector).AppendString(fmt.Sprintf("comment %d about %x", key, r.Uint32()))
			}
			bt.NumRows = benchRows
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
			if err == nil {
				err = w.Write(bt)
			}
			if err == nil {
				err = w.Close()
			}
			if err != nil {
				benchErr = err
				return
			}
			p := filepath.Join(benchDir, "l_shipmonth="+start.Format("2006-01-02"), "part-0.orc")
			if benchErr = os.MkdirAll(filepath.Dir(p), 0o755); benchErr != nil {
				return
			}
			if benchErr = os.WriteFile(p, buf.Bytes(), 0o644); benchErr != nil {
				return
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

// BenchmarkDataset scans the 100-file dataset for the rows shipped in one
// week (a date predicate), pruning by partition directories, by footer
// statistics alone (the same files, no partitioning declared), and not at
// all (full scan, filtered exactly). Metrics: files opened, bytes read and
// rows returned per scan.
//
//	go test ./dataset -run '^$' -bench Dataset -benchtime 10x
func BenchmarkDataset(b *testing.B) {
	dir := benchDataset(b)
	files, err := dataset.Dir(dir)
	if err != nil {
		b.Fatal(err)
	}
	lo, hi := sarg.DateOf(1996, 3, 10), sarg.DateOf(1996, 3, 16)
	week := sarg.Between("l_shipdate", lo, hi)
	parts := orc.MustParseSchema("struct<l_shipmonth:date>")
	cases := []struct {
		name  string
		parts bool
		where *sarg.Expr
	}{
		{"partition-pruned", true, ptr(sarg.And(sarg.Eq("l_shipmonth", sarg.DateOf(1996, 3, 1)), week))},
		{"footer-pruned", false, &week},
		{"full-scan", false, nil},
	}
	for _, c := range cases {
		for _, par := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/files-at-once=%d", c.name, par), func(b *testing.B) {
				var opts []dataset.Option
				if c.parts {
					opts = append(opts, dataset.WithPartitioning(parts))
				}
				d, err := dataset.New(files, opts...)
				if err != nil {
					b.Fatal(err)
				}
				var st dataset.Stats
				var rows int64
				for b.Loop() {
					so := []dataset.ScanOption{dataset.WithParallelism(par), dataset.WithColumns("l_orderkey", "l_extendedprice", "l_shipdate")}
					if c.where != nil {
						so = append(so, dataset.WithSearchArgument(*c.where), dataset.WithExactFilter(true))
					}
					s, err := d.Scan(so...)
					if err != nil {
						b.Fatal(err)
					}
					batch := s.NewBatch()
					rows = 0
					for {
						err := s.Next(batch)
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						if c.where == nil { // the full scan filters by hand
							days := batch.Cols[2].(*orc.LongVector).Values
							for _, v := range days[:batch.NumRows] {
								if v >= lo.Int64() && v <= hi.Int64() {
									rows++
								}
							}
						} else {
							rows += int64(batch.NumRows)
						}
					}
					st = s.Stats()
					s.Close()
				}
				b.ReportMetric(float64(st.FilesOpened), "files/op")
				b.ReportMetric(float64(st.BytesRead), "bytes-read/op")
				b.ReportMetric(float64(rows), "rows/op")
			})
		}
	}
}

// BenchmarkOpenAhead scans 200 small files, each ReadAt 20 ms away as on an
// object store, for the rows of 3 of them (the footers rule out the
// others), opening one file after another (open-ahead=1) and with the
// default WithOpenAhead. Metric: the files opened per scan.
//
//	go test ./dataset -run '^$' -bench OpenAhead -benchtime 3x
func BenchmarkOpenAhead(b *testing.B) {
	const n, latency = 200, 20 * time.Millisecond
	files := latencyFiles(b, n)
	var size int64
	for _, f := range files {
		size += int64(len(f.data))
	}
	st := newStore(files, latency)
	d, err := dataset.New(st.files(files), dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>")))
	if err != nil {
		b.Fatal(err)
	}
	for _, ahead := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("open-ahead=%d", ahead), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			var st dataset.Stats
			for b.Loop() {
				var rows []string
				rows, st, _ = latencyScan(b, d, []dataset.ScanOption{dataset.WithOpenAhead(ahead)})
				if len(rows) != 3 {
					b.Fatalf("%d rows, want 3", len(rows))
				}
			}
			b.ReportMetric(float64(st.FilesOpened), "files/op")
		})
	}
}

func ptr[T any](v T) *T { return &v }
