// Command orc2parquet converts an ORC file to Parquet through Apache Arrow:
//
//	orc2parquet [flags] IN.orc OUT.parquet
//
// Flags may come before, between or after the two files, as the orc
// command takes them; "--" ends them.
//
// Every ORC type except uniontype has a Parquet counterpart (see the
// orcarrow package's mapping); the Arrow schema is stored in the Parquet
// file, so parquet2orc restores char and varchar types. Geometry and
// geography become Parquet's GEOMETRY and GEOGRAPHY logical types, without
// bounding-box statistics (arrow-go writes none). Flags:
//
//	-codec NAME      Parquet codec: none, snappy, gzip, brotli, zstd, lz4 (default zstd)
//	-row-group N     most rows in a row group (default 1048576)
//	-batch N         rows per Arrow record (default 65536)
//	-columns a,b.c   convert only these columns
//	-progress D      print a progress line every D on long runs (default 2s; 0 for none)
//	-overwrite       replace OUT if it exists (without it an existing OUT is an error)
package main

import (
	"io"
	"os"
	"strings"

	"github.com/orcgo/orc/arrow/internal/convert"
)

func main() { convert.Exit("orc2parquet", run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) error {
	c := convert.NewCommand("orc2parquet", "IN.orc OUT.parquet", "Converts an ORC file to Parquet through Apache Arrow.", stderr)
	codec := c.Flags.String("codec", "zstd", "Parquet `codec`: none, snappy, gzip, brotli, zstd, lz4")
	rowGroup := c.Flags.Int64("row-group", 1<<20, "most `rows` in a Parquet row group")
	columns := c.Flags.String("columns", "", "comma-separated `names` of the columns to convert (nested as a.b); all when empty")
	inPath, outPath, err := c.Parse(args)
	if err != nil {
		return err
	}
	opts := convert.ToParquet{Codec: *codec, RowGroup: *rowGroup, BatchSize: c.BatchSize(), Progress: c.Progress()}
	if *columns != "" {
		opts.Columns = strings.Split(*columns, ",")
	}
	if err := opts.Check(); err != nil {
		return err
	}
	return c.Convert(inPath, outPath, "ORC", func(in *os.File, size int64, out *convert.Output) (int64, error) {
		return convert.ORCToParquet(in, size, out, opts)
	})
}
