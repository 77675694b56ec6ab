// Command parquet2orc converts a Parquet file to ORC through Apache Arrow:
//
//	parquet2orc [flags] IN.parquet OUT.orc
//
// Flags may come before, between or after the two files, as the orc
// command takes them; "--" ends them.
//
// Parquet's types map to ORC as the orcarrow package documents; a type with
// no ORC counterpart (unsigned 64-bit integers, float16, intervals, ...) is
// an error naming the column, given before any row is written. GEOMETRY and
// GEOGRAPHY columns become ORC geometry and geography with their CRS and edge
// algorithm. Flags:
//
//	-codec NAME         ORC codec: none, zlib, snappy, lz4, zstd (default zstd)
//	-stripe-size BYTES  target stripe size (default: the ORC writer's)
//	-row-index-stride N rows per row group of the row index (default: the writer's)
//	-batch N            rows per Arrow record (default 65536)
//	-progress D         print a progress line every D on long runs (default 2s; 0 for none)
//	-overwrite          replace OUT if it exists (without it an existing OUT is an error)
package main

import (
	"io"
	"os"

	"github.com/orcgo/orc/arrow/internal/convert"
)

func main() { convert.Exit("parquet2orc", run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) error {
	c := convert.NewCommand("parquet2orc", "IN.parquet OUT.orc", "Converts a Parquet file to ORC through Apache Arrow.", stderr)
	codec := c.Flags.String("codec", "zstd", "ORC `codec`: none, zlib, snappy, lz4, zstd")
	stripe := c.Flags.Int64("stripe-size", 0, "target stripe size in `bytes` (0: the ORC writer's default)")
	stride := c.Flags.Int("row-index-stride", 0, "`rows` per row group of the row index (0: the ORC writer's default)")
	inPath, outPath, err := c.Parse(args)
	if err != nil {
		return err
	}
	opts := convert.ToORC{Codec: *codec, StripeSize: *stripe, RowIndexStride: *stride, BatchSize: c.BatchSize(), Progress: c.Progress()}
	if err := opts.Check(); err != nil {
		return err
	}
	return c.Convert(inPath, outPath, "Parquet", func(in *os.File, _ int64, out *convert.Output) (int64, error) {
		return convert.ParquetToORC(in, out, opts)
	})
}
