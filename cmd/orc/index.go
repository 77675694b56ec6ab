package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/internal/localfile"
)

func init() {
	register(command{name: "index",
		usage: "index build|update|check|show DIR [--columns a,b] [--bloom-columns c] [--schema S] [--partitions S]",
		desc:  "build, update, check or show a directory's statistics index, which lets scans rule out files unopened",
		help: `orc index build DIR reads every file's footer and writes DIR/` + statsindex.FileName + `:
one row per file with its size, version (modification time, inode number
and inode change time), row count,
partition values and, per indexed column (--columns, default every column
with a minimum and maximum, and every geometry column), its value and null
counts, minimum and maximum (a geometry column's bounding box), and for the
--bloom-columns (integer, date, float, double, decimal or text
columns among the indexed ones) a bloom filter of the file's values, which
lets an equality or IN rule out files whose range holds the value; building
those reads the columns of every file, not only its footer.
It is written aside and renamed into place. Scans of DIR use it when it is
there (scan --no-index does not): a file whose entry is current and whose
statistics rule it out is not opened; a file added, rewritten or removed
since the build is read as without the index, so an old index only costs
time. orc index update DIR reads the footers of the files added or
rewritten since and drops the entries of files gone, keeping the others
(and the indexed columns). orc index check DIR reads every footer and
reports the first entry that disagrees (exit 1), or that the index is
current. orc index show DIR prints what the index holds; its rows are an
ORC file: orc cat DIR/` + statsindex.FileName + `.`,
		run: runIndex})
}

func runIndex(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fs := flag.NewFlagSet("index", flag.ContinueOnError)
			fs.String("columns", "", "comma-separated columns to index (default: every column with a minimum and maximum)")
			fs.String("bloom-columns", "", "comma-separated indexed columns to keep a bloom filter of each file's values for (build)")
			addDatasetFlags(fs)
			return &helpRequest{fs}
		}
		return errUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	columns := fs.String("columns", "", "comma-separated columns to index (default: every column with a minimum and maximum)")
	bloomCols := fs.String("bloom-columns", "", "comma-separated indexed columns to keep a bloom filter of each file's values for (build)")
	df := addDatasetFlags(fs)
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage
	}
	dir := pos[0]
	if isStoreURL(dir) {
		return storeIndex(sub, dir, df, splitList(*columns), splitList(*bloomCols), stdout, stderr)
	}
	if !isDir(dir) {
		return fmt.Errorf("%s: not a directory", dir)
	}
	path := filepath.Join(dir, statsindex.FileName)
	cols, blooms := splitList(*columns), splitList(*bloomCols)
	switch sub {
	case "build":
		return indexBuild(dir, path, df, cols, blooms, stdout, stderr)
	case "update", "check":
		if len(cols) > 0 || len(blooms) > 0 {
			return fmt.Errorf("%w: %s keeps the index's columns (--columns and --bloom-columns are for build)", errUsage, sub)
		}
		return indexUpdateCheck(sub, dir, path, df, stdout, stderr)
	case "show":
		if len(cols) > 0 || len(blooms) > 0 || *df.schema != "" || *df.partitions != "" {
			return fmt.Errorf("%w: show takes no flags", errUsage)
		}
		return indexShow(path, stdout)
	}
	return fmt.Errorf("%w: unknown index command %q (build, update, check or show)", errUsage, sub)
}

// openIndexed opens the dataset in dir, whose index is being built,
// updated or checked: its files, not the index, say what is there.
func openIndexed(dir string, df datasetFlags, stderr io.Writer) (*dataset.Dataset, error) {
	none := true
	df.noIndex = &none
	d, _, err := openDataset([]string{dir}, df, stderr, "index")
	return d, err
}

// indexBuild writes the index of the dataset in dir to path.
func indexBuild(dir, path string, df datasetFlags, cols, blooms []string, stdout, stderr io.Writer) error {
	start := time.Now()
	d, err := openIndexed(dir, df, stderr)
	if err != nil {
		return err
	}
	var opts []statsindex.Option
	if len(cols) > 0 {
		opts = append(opts, statsindex.Columns(cols...))
	}
	if len(blooms) > 0 {
		opts = append(opts, statsindex.BloomColumns(blooms...))
	}
	info, err := statsindex.WriteFile(d.IndexSource(), path, opts...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d files, columns %s, %d bytes, built in %v\n", path, info.Files,
		strings.Join(info.Columns, ", "), info.Bytes, time.Since(start).Round(time.Millisecond))
	return nil
}

// indexUpdateCheck updates the index at path (sub "update") or checks that
// it is current ("check").
func indexUpdateCheck(sub, dir, path string, df datasetFlags, stdout, stderr io.Writer) error {
	start := time.Now()
	d, err := openIndexed(dir, df, stderr)
	if err != nil {
		return err
	}
	if sub == "update" {
		info, err := statsindex.UpdateFile(d.IndexSource(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d files (%d footers read), columns %s, %d bytes, in %v\n", path, info.Files, info.Read,
			strings.Join(info.Columns, ", "), info.Bytes, time.Since(start).Round(time.Millisecond))
		return nil
	}
	f, fi, err := localfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := statsindex.Check(d.IndexSource(), f, fi.Size()); err != nil {
		if errors.Is(err, statsindex.ErrStale) {
			return fmt.Errorf("%s: %w\n(orc index update %s makes it current)", path, err, dir)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "%s: current (%d files)\n", path, len(d.Files()))
	return nil
}

// indexShow prints what the index at path covers.
func indexShow(path string, stdout io.Writer) error {
	f, fi, err := localfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := statsindex.ReadInfo(f, fi.Size())
	if err != nil {
		return inFile(path, err)
	}
	fmt.Fprintf(stdout, "index: %s\nfiles: %d\nbytes: %d\nbuilt: %s\n", path, info.Files, info.Bytes, fi.ModTime().UTC().Format(time.RFC3339))
	if info.Partitions != "" {
		fmt.Fprintf(stdout, "partitions: %s\n", info.Partitions)
	}
	fmt.Fprintf(stdout, "columns: %s\n", strings.Join(info.Columns, ", "))
	return nil
}
