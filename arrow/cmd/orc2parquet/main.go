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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/orcgo/orc/arrow/internal/convert"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "orc2parquet:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("orc2parquet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: orc2parquet [flags] IN.orc OUT.parquet (flags may also follow the files)\n\nConverts an ORC file to Parquet through Apache Arrow.\n\nFlags:")
		fs.PrintDefaults()
	}
	codec := fs.String("codec", "zstd", "Parquet `codec`: none, snappy, gzip, brotli, zstd, lz4")
	rowGroup := fs.Int64("row-group", 1<<20, "most `rows` in a Parquet row group")
	batch := fs.Int("batch", 65536, "`rows` per Arrow record")
	columns := fs.String("columns", "", "comma-separated `names` of the columns to convert (nested as a.b); all when empty")
	every := fs.Duration("progress", 2*time.Second, "print a progress line every `interval` (0 for none)")
	overwrite := fs.Bool("overwrite", false, "replace OUT if it exists (the output is written beside it and renamed at the end)")
	pos, err := convert.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fs.Usage()
		return errors.New("want two arguments: IN.orc OUT.parquet")
	}
	inPath, outPath := pos[0], pos[1]
	opts := convert.ToParquet{Codec: *codec, RowGroup: *rowGroup, BatchSize: *batch,
		Progress: convert.Progress{W: stderr, Every: *every, Name: "orc2parquet"}}
	if *columns != "" {
		opts.Columns = strings.Split(*columns, ",")
	}
	if err := opts.Check(); err != nil {
		return err
	}
	in, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (ORC needs random access)", inPath)
	}
	out, err := convert.CreateOutput(outPath, *overwrite)
	if err != nil {
		return err
	}
	start := time.Now()
	rows, err := convert.ORCToParquet(in, st.Size(), out, opts)
	if err != nil {
		out.Abort()
		return fmt.Errorf("%s: %w", inPath, err)
	}
	if err := out.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "orc2parquet: %d rows from %s to %s in %.1fs\n", rows, inPath, outPath, time.Since(start).Seconds())
	return nil
}
