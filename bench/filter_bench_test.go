package main

// BenchmarkExactFilter measures what the reader's exact filter of a
// compound expression adds to a full scan of the same columns (issue 52's
// speed target: at most 20%). Every case reads the four columns
// l_quantity, l_extendedprice, l_discount and l_shipdate of the bench's
// lineitem table, serially, in batches of 4096 rows; "none" has no
// predicate, the others filter exactly (their predicates prune no row
// group: the columns are not sorted). Besides ns/op each case reports
// cpu-ns/op, the process's CPU time per scan (garbage collection
// included), which holds up better than wall time on a busy machine.
// Each predicate also runs as "NAME_sel", with reader.WithSelection: the
// batches keep the decoded rows and list the matching ones, as a consumer
// reading rows through Batch.Row would ask. Compare each case with "none":
//
//	cd bench && go test -run '^$' -bench ExactFilter -count 6 | tee new.txt
//	$(go env GOPATH)/bin/benchstat new.txt
//
// The table is written once per row count and table kind to the temporary
// directory (orcgo-filter-bench-...orc) and reused. ORCGO_FILTER_ROWS sets
// its rows (default 1,000,000; 6000000 is SF 1); ORCGO_FILTER_TABLE picks
// lineitem (decimal(15,2) money columns, the default) or lineitem-double.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// filterBenchCases are the predicates measured, by name.
var filterBenchCases = []struct{ name, where string }{
	{"none", ""},
	{"price_vs_qty", "l_extendedprice * (1 - l_discount) > l_quantity * 1000"},
	{"revenue_and_date", "l_extendedprice * (1 - l_discount) > 50000 AND l_shipdate >= DATE '1995-01-01'"},
	{"x_minus_y", "l_extendedprice - l_quantity * 1500 > 0"},
	{"col_lit_and_or", "l_discount >= 0.05 AND (l_quantity < 24 OR l_shipdate < DATE '1994-01-01')"},
}

// filterBenchCase is a case run: its name, predicate and whether the
// scan hands over selections (reader.WithSelection; the "_sel" cases)
// rather than moving the matching rows together.
type filterBenchCase struct {
	name, where string
	selection   bool
}

func BenchmarkExactFilter(b *testing.B) {
	path, rows := filterBenchFile(b)
	cols := colNames([]int{cQuantity, cExtendedPrice, cDiscount, cShipDate})
	var cases []filterBenchCase
	for _, c := range filterBenchCases {
		cases = append(cases, filterBenchCase{c.name, c.where, false})
		if c.where != "" {
			cases = append(cases, filterBenchCase{c.name + "_sel", c.where, true})
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			opts := []reader.ScanOption{reader.WithColumns(cols...), reader.WithBatchSize(4096)}
			if c.where != "" {
				e, err := sarg.Parse(c.where)
				if err != nil {
					b.Fatal(err)
				}
				opts = append(opts, reader.WithSearchArgument(e), reader.WithExactFilter(true))
			}
			if c.selection {
				opts = append(opts, reader.WithSelection())
			}
			b.ReportAllocs()
			var returned int64
			cpu0 := cpuTime()
			for b.Loop() {
				returned = filterBenchScan(b, path, opts)
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(rows), "rows/op")
			b.ReportMetric(float64(returned), "rows_returned/op")
		})
	}
}

// filterBenchScan scans the file with opts and returns the rows returned.
func filterBenchScan(b *testing.B, path string, opts []reader.ScanOption) int64 {
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
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	batch := br.NewBatch()
	var n int64
	for {
		err := br.Next(batch)
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n += int64(batch.NumRows)
	}
}

// filterBenchFile returns the benchmark's table, writing it on first use.
func filterBenchFile(b *testing.B) (string, int64) {
	b.Helper()
	rows := int64(1_000_000)
	if s := os.Getenv("ORCGO_FILTER_ROWS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 10_000 {
			b.Fatalf("ORCGO_FILTER_ROWS=%q: want a number of at least 10000", s)
		}
		rows = n
	}
	table := tableDecimal
	if s := os.Getenv("ORCGO_FILTER_TABLE"); s != "" {
		table = s
	}
	if err := setTable(table); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = setTable(tableDecimal) })
	path := filepath.Join(os.TempDir(), fmt.Sprintf("orcgo-filter-bench-%s-%d.orc", table, rows))
	if _, err := os.Stat(path); err == nil {
		return path, rows
	}
	if err := writeFilterBenchFile(path, rows); err != nil {
		b.Fatal(err)
	}
	return path, rows
}

// writeFilterBenchFile writes the table with the bench's orcgo writer
// (ZSTD) to a temporary file renamed to path when complete.
func writeFilterBenchFile(path string, rows int64) error {
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	cfg := writeConfig{batch: 4096, stripeSize: 64 << 20}
	tw, err := newOrcWriter(bw, "zstd", cfg)
	if err != nil {
		return err
	}
	gen := NewGenerator(rows, 20240601)
	var c Chunk
	for gen.Next(&c, cfg.batch) {
		if err := tw.Write(&c); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
