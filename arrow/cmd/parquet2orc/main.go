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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/orcgo/orc/arrow/internal/convert"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "parquet2orc:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("parquet2orc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: parquet2orc [flags] IN.parquet OUT.orc (flags may also follow the files)\n\nConverts a Parquet file to ORC through Apache Arrow.\n\nFlags:")
		fs.PrintDefaults()
	}
	codec := fs.String("codec", "zstd", "ORC `codec`: none, zlib, snappy, lz4, zstd")
	stripe := fs.Int64("stripe-size", 0, "target stripe size in `bytes` (0: the ORC writer's default)")
	stride := fs.Int("row-index-stride", 0, "`rows` per row group of the row index (0: the ORC writer's default)")
	batch := fs.Int("batch", 65536, "`rows` per Arrow record")
	every := fs.Duration("progress", 2*time.Second, "print a progress line every `interval` (0 for none)")
	overwrite := fs.Bool("overwrite", false, "replace OUT if it exists (the output is written beside it and renamed at the end)")
	pos, err := convert.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fs.Usage()
		return errors.New("want two arguments: IN.parquet OUT.orc")
	}
	inPath, outPath := pos[0], pos[1]
	opts := convert.ToORC{Codec: *codec, StripeSize: *stripe, RowIndexStride: *stride,
		BatchSize: *batch, Progress: convert.Progress{W: stderr, Every: *every, Name: "parquet2orc"}}
	if err := opts.Check(); err != nil {
		return err
	}
	in, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil {
		return err
	} else if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (Parquet needs random access)", inPath)
	}
	out, err := convert.CreateOutput(outPath, *overwrite)
	if err != nil {
		return err
	}
	start := time.Now()
	rows, err := convert.ParquetToORC(in, out, opts)
	if err != nil {
		out.Abort()
		return fmt.Errorf("%s: %w", inPath, err)
	}
	if err := out.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "parquet2orc: %d rows from %s to %s in %.1fs\n", rows, inPath, outPath, time.Since(start).Seconds())
	return nil
}
