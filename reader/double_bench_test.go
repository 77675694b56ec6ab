package reader_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// BenchmarkDoubles scans two DOUBLE columns of 1M rows (a discount with 11
// values, a random price; 5% nulls in the price) and a FLOAT, uncompressed
// and with ZSTD; bytes are the values' 8 bytes a row per column.
func BenchmarkDoubles(b *testing.B) {
	s := orc.MustParseSchema("struct<disc:double,price:double,f:float>")
	const n = 1 << 20
	batch := orc.NewBatch(s, n)
	r := rand.New(rand.NewPCG(5, 5))
	disc, price, f := batch.Cols[0].(*orc.DoubleVector), batch.Cols[1].(*orc.DoubleVector), batch.Cols[2].(*orc.DoubleVector)
	for range n {
		disc.Append(float64(r.IntN(11)) / 100)
		if r.IntN(20) == 0 {
			price.AppendNull()
		} else {
			price.Append(r.Float64() * 1e5)
		}
		f.Append(float64(float32(r.Float64())))
	}
	batch.NumRows = n
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		rd, _ := writeOpen(b, s, []*orc.Batch{batch}, writer.WithCompression(codec))
		b.Run(fmt.Sprint(codec), func(b *testing.B) {
			b.SetBytes(3 * 8 * n)
			b.ReportAllocs()
			for b.Loop() {
				br, err := rd.NewBatchReader()
				if err != nil {
					b.Fatal(err)
				}
				out := br.NewBatch()
				rows := 0
				for {
					err := br.Next(out)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					rows += out.NumRows
				}
				if rows != n {
					b.Fatalf("%d rows", rows)
				}
			}
		})
	}
}
