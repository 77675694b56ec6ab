package main

import (
	"flag"
	"fmt"
	"io"
	"testing"
)

// BenchmarkWrite writes the bench tables through the orcgo side exactly as
// the benchmark does (ZSTD, 64 MiB stripes, bloom filter on l_uuid, the
// chunk converted into the batch), one 4,096-row chunk per iteration
// (-write-batch sets another size),
// cycling 64 chunks generated beforehand, serially and on two goroutines,
// and parquet-go's writer on the same chunks.
// allocs/op and B/op are per batch; rows/s is the write rate, rows/cpu-s
// the rows per CPU second of the process (all goroutines, garbage
// collection included), which a busy machine disturbs less.
//
//	go test -run '^$' -bench Write -benchmem
func BenchmarkWrite(b *testing.B) {
	for _, table := range []string{tableDecimal, tableDouble} {
		for _, par := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/par=%d", table, par), func(b *testing.B) {
				if err := setTable(table); err != nil {
					b.Fatal(err)
				}
				defer setTable(tableDecimal)
				old := orcWriteParallel
				orcWriteParallel = par
				defer func() { orcWriteParallel = old }()
				benchWriteTable(b, *writeBatch, newOrcWriter)
			})
		}
		// parquet-go's GenericWriter on the same chunks, ZSTD, with row
		// groups of 970,000 rows: what the CLI gives it at SF 1 for both
		// tables, orcgo's rows per 64 MiB stripe (orcStripeRows). Until
		// the eleventh session this was 600,000, which made parquet-go
		// some 4% faster than in the CLI's runs.
		b.Run(table+"/parquet-go", func(b *testing.B) {
			if err := setTable(table); err != nil {
				b.Fatal(err)
			}
			defer setTable(tableDecimal)
			benchWriteTable(b, *writeBatch, newPqgoWriter)
		})
	}
}

func benchWriteTable(b *testing.B, batch int, newWriter func(io.Writer, string, writeConfig) (tableWriter, error)) {
	const nChunks = 64
	gen := NewGenerator(int64(nChunks*batch), 1)
	chunks := make([]*Chunk, nChunks)
	for i := range chunks {
		chunks[i] = new(Chunk)
		gen.Next(chunks[i], batch)
	}
	w, err := newWriter(io.Discard, "zstd", writeConfig{batch: batch, stripeSize: 64 << 20, rowGroupRows: 970_000})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := w.Write(chunks[i%nChunks]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)*float64(batch)/b.Elapsed().Seconds(), "rows/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(batch)/cpu.Seconds(), "rows/cpu-s")
	}
}

// writeBatch is BenchmarkWrite's batch size:
//
//	go test -run '^$' -bench Write -write-batch 16384
var writeBatch = flag.Int("write-batch", 4096, "rows per batch in BenchmarkWrite")

func init() {
	flag.IntVar(&zstdLevel, "write-zstd-level", 0, "ZSTD level of both writers in BenchmarkWrite (0: their defaults)")
}
