package reader_test

// Benchmarks of predicate pushdown against a full scan, on one generated
// file: rid bigint (sorted, the row number), ukey bigint (a permutation of
// the even numbers below 2N: unsorted and unique, with a bloom filter; an
// odd key lies inside every row group's range and in none), name string
// ("name-<ukey>"), amount double. ZSTD, stripes of 1M rows, the default
// stride of 10,000 rows.
//
// The file has ORCGO_BENCH_ROWS rows (default 10,000,000; 1,000,000 with
// -short) and is written once to the temporary directory
// (orcgo-sarg-bench-N.orc) and reused by later runs. Only -bench builds it.
//
//	go test ./reader/ -run '^$' -bench BenchmarkSarg -benchtime 20x
//
// Besides ns/op each benchmark reports bytes_read/op (stripe data and
// indexes fetched), rows_decoded/op and rows_returned/op; SetBytes is the
// bytes read, so MB/s is the read throughput.

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

const sdBenchVersion = 2 // part of the file name: bump when the layout changes

var sdBench struct {
	once sync.Once
	path string
	rows int
	err  error
}

// sdBenchFile returns the benchmark file, writing it on first use.
func sdBenchFile(b *testing.B) (string, int) {
	b.Helper()
	sdBench.once.Do(func() {
		rows := 10_000_000
		if testing.Short() {
			rows = 1_000_000
		}
		if s := os.Getenv("ORCGO_BENCH_ROWS"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 10_000 {
				sdBench.err = fmt.Errorf("ORCGO_BENCH_ROWS=%q: want a number of at least 10000", s)
				return
			}
			rows = n
		}
		sdBench.rows = rows
		sdBench.path = filepath.Join(os.TempDir(), fmt.Sprintf("orcgo-sarg-bench-v%d-%d.orc", sdBenchVersion, rows))
		if _, err := os.Stat(sdBench.path); err == nil {
			return
		}
		sdBench.err = sdWriteBenchFile(sdBench.path, rows)
	})
	if sdBench.err != nil {
		b.Fatal(sdBench.err)
	}
	return sdBench.path, sdBench.rows
}

// sdBenchKey is the ukey of row i: twice a permutation of 0..rows-1 (an
// affine map modulo rows with a multiplier coprime to it).
func sdBenchKey(i, rows int) int64 {
	m := 2_654_435_761 % uint64(rows)
	for sdGCD(m, uint64(rows)) != 1 {
		m++
	}
	return 2 * int64((uint64(i)*m+12345)%uint64(rows))
}

func sdGCD(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func sdWriteBenchFile(path string, rows int) error {
	tmp := path + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	schema := orc.MustParseSchema("struct<rid:bigint,ukey:bigint,name:string,amount:double>")
	w, err := writer.NewWriter(out, schema, writer.WithStripeRowLimit(1_000_000), writer.WithBloomFilterColumns("ukey"))
	if err != nil {
		out.Close()
		return err
	}
	const chunk = 8192
	bt := orc.NewBatch(schema, chunk)
	var name []byte
	for start := 0; start < rows; start += chunk {
		bt.Reset()
		n := min(chunk, rows-start)
		rid := bt.Cols[0].(*orc.LongVector)
		ukey := bt.Cols[1].(*orc.LongVector)
		names := bt.Cols[2].(*orc.BytesVector)
		amount := bt.Cols[3].(*orc.DoubleVector)
		for i := start; i < start+n; i++ {
			k := sdBenchKey(i, rows)
			rid.Values = append(rid.Values, int64(i))
			ukey.Values = append(ukey.Values, k)
			name = strconv.AppendInt(append(name[:0], "name-"...), k, 10)
			names.Append(name)
			amount.Values = append(amount.Values, float64(k%100_000)/100)
		}
		bt.NumRows = n
		if err := w.Write(bt); err != nil {
			out.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// sdBenchScan runs one scan to the end and returns its statistics.
func sdBenchScan(b *testing.B, r *reader.Reader, bt **orc.Batch, opts ...reader.ScanOption) reader.ScanStats {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		b.Fatal(err)
	}
	if *bt == nil {
		*bt = br.NewBatch()
	}
	for {
		err := br.Next(*bt)
		if err == io.EOF {
			return br.Stats()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSarg(b *testing.B) {
	path, rows := sdBenchFile(b)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	r, err := reader.Open(f, fi.Size())
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name  string
		where func(i int, rng *rand.Rand) *sarg.Expr // nil: full scan
		want  func(s reader.ScanStats) bool
	}{
		{"FullScan", func(int, *rand.Rand) *sarg.Expr { return nil },
			func(s reader.ScanStats) bool { return s.RowsReturned == int64(rows) }},
		{"PointLookupBloom", func(_ int, rng *rand.Rand) *sarg.Expr {
			e := sarg.Eq("ukey", sarg.Int(2*int64(rng.IntN(rows))))
			return &e
		}, func(s reader.ScanStats) bool { return s.RowsReturned == 1 }},
		{"PointLookupAbsent", func(_ int, rng *rand.Rand) *sarg.Expr {
			e := sarg.Eq("ukey", sarg.Int(2*int64(rng.IntN(rows))+1))
			return &e
		}, func(s reader.ScanStats) bool { return s.RowsReturned == 0 }},
		{"SortedRange0.1%", func(_ int, rng *rand.Rand) *sarg.Expr {
			w := rows / 1000
			lo := rng.IntN(rows - w)
			e := sarg.Between("rid", sarg.Int(int64(lo)), sarg.Int(int64(lo+w-1)))
			return &e
		}, func(s reader.ScanStats) bool { return s.RowsReturned == int64(rows/1000) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(7, 8))
			var bt *orc.Batch
			var read, decoded, returned int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var opts []reader.ScanOption
				if e := c.where(i, rng); e != nil {
					opts = append(opts, reader.WithSearchArgument(*e), reader.WithExactFilter(true))
				}
				st := sdBenchScan(b, r, &bt, opts...)
				if !c.want(st) {
					b.Fatalf("unexpected result: %v", st)
				}
				read += st.BytesRead
				decoded += st.RowsDecoded
				returned += st.RowsReturned
			}
			b.StopTimer()
			n := float64(b.N)
			b.SetBytes(read / int64(b.N))
			b.ReportMetric(float64(read)/n, "bytes_read/op")
			b.ReportMetric(float64(decoded)/n, "rows_decoded/op")
			b.ReportMetric(float64(returned)/n, "rows_returned/op")
		})
	}
}
