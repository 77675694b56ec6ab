package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/iceberg"
	"github.com/orcgo/orc/ingest"
	"github.com/orcgo/orc/reader"
)

var appendCmd = command{name: "append",
	usage: "append --catalog CATALOG NS.TABLE [--format csv|json|orc] [--header] [--delimiter C] [--null S] [--timezone Z] [--target-file-size BYTES] IN.csv|IN.jsonl|IN.orc|-...",
	desc:  "write CSV, JSON lines or ORC files as ORC data files of a table, committed in one snapshot",
	run:   runAppend}

// appendOptions are append's flags but the catalog's.
type appendOptions struct {
	format    string
	in        ingest.Options
	batchSize int
}

func runAppend(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("append", flag.ContinueOnError)
	cf := addCatalogFlags(fs)
	format := fs.String("format", "", "the inputs' format, csv, json (JSON lines) or orc (default: by extension: .csv, .json/.jsonl/.ndjson, .orc)")
	header := fs.Bool("header", false, "CSV inputs start with a header line naming the columns (matched to the table's by name)")
	delim := fs.String("delimiter", ",", "the CSV field delimiter, one character")
	null := fs.String("null", "", "the text of a null in CSV and JSON strings (default: an empty CSV field)")
	zone := fs.String("timezone", "UTC", "the zone of timestamps that name none in CSV and JSON inputs")
	target := fs.Int64("target-file-size", iceberg.DefaultTargetFileSize, "bytes at which a data file is finished and another started")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return errUsage
	}
	opt := appendOptions{format: strings.ToLower(*format), batchSize: 1024}
	r := []rune(*delim)
	if len(r) != 1 {
		return usageErr("--delimiter %q: one character", *delim)
	}
	opt.in.Delimiter = r[0]
	opt.in.Header, opt.in.HeaderSet = *header, true
	opt.in.FillMissing = *header
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "null" {
			opt.in.Null, opt.in.NullSet = *null, true
		}
	})
	if opt.in.Zone, err = time.LoadLocation(*zone); err != nil {
		return usageErr("--timezone %q: not a time zone name", *zone)
	}
	if *target <= 0 {
		return usageErr("--target-file-size %d: must be positive", *target)
	}
	ins := pos[1:]
	for _, in := range ins {
		if _, err := inputFormat(opt.format, in); err != nil {
			return usageErr("%v", err)
		}
	}
	cat, ident, tbl, err := tableArgs(ctx, cf, pos[:1])
	if err != nil {
		return err
	}
	defer cat.close()
	tw, err := iceberg.NewTableWriter(ctx, tbl, *target)
	if err != nil {
		return err
	}
	var rows int64
	for _, in := range ins {
		n, err := appendInput(e, tw, in, opt)
		rows += n
		if err != nil {
			tw.Abort()
			return fmt.Errorf("%s: %w (nothing was committed)", in, err)
		}
	}
	files, err := tw.Close()
	if err != nil {
		tw.Abort()
		return fmt.Errorf("%w (nothing was committed)", err)
	}
	out, err := iceberg.Commit(ctx, cat, ident, files, 0)
	if err != nil {
		return fmt.Errorf("committing %d data files to %s: %w (the files are left in the table's data directory, in no snapshot)",
			len(files), strings.Join(ident, "."), err)
	}
	fmt.Fprintf(e.stdout, "%s: appended %d rows in %d data files, snapshot %d\n", strings.Join(ident, "."), rows, len(files),
		out.CurrentSnapshot().SnapshotID)
	return nil
}

// inputFormat picks csv, json or orc from --format or from the input's
// extension (ingest.InputFormat).
func inputFormat(format, in string) (string, error) { return ingest.InputFormat(format, in) }

// appendInput writes the rows of one input to tw and returns how many.
func appendInput(e env, tw *iceberg.TableWriter, in string, opt appendOptions) (int64, error) {
	format, _ := inputFormat(opt.format, in)
	var src io.Reader = e.stdin
	if in != "-" {
		f, err := os.Open(in)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		if format == "orc" {
			return appendORC(tw, f, opt)
		}
		src = f
	} else if format == "orc" {
		return 0, errors.New("an ORC input must be a file, not standard input")
	}
	b := orc.NewBatch(tw.Schema(), 0) // the reader appends: vectors grow with the rows
	in2 := opt.in
	in2.Note = func(msg string) { fmt.Fprintf(e.stderr, "orc iceberg append: %s: %s\n", in, msg) }
	rd := ingest.NewReader(bufio.NewReaderSize(src, 1<<16), ingest.Format(format), b, in2)
	var rows int64
	for {
		ok, err := rd.Next()
		if err != nil {
			return rows, err
		}
		if ok {
			b.NumRows++
		}
		if b.NumRows == opt.batchSize || (!ok && b.NumRows > 0) {
			if err := tw.Write(b); err != nil {
				return rows, fmt.Errorf("near row %d: %w", rows+int64(b.NumRows), err)
			}
			rows += int64(b.NumRows)
			b.Reset()
		}
		if !ok {
			return rows, nil
		}
	}
}

// appendORC writes the rows of an ORC file to tw, its columns matched to
// the table's by name (those it lacks are null).
func appendORC(tw *iceberg.TableWriter, f *os.File, opt appendOptions) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	r, err := reader.Open(f, st.Size())
	if err != nil {
		return 0, err
	}
	var rows int64
	err = r.EachBatch(func(b *orc.Batch) error {
		if err := tw.Write(b); err != nil {
			return err
		}
		rows += int64(b.NumRows)
		return nil
	}, reader.WithReadSchema(tw.Schema()))
	return rows, err
}
