package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

func init() {
	register(command{name: "count", usage: "count FILE|DIR|URL... [--where EXPR] [--stats] [--schema S | --union-by-name] [--partitions S]",
		desc: "print the rows of each file (directories recursively) and the total, from the footers (--where: the rows matching)", run: runCount,
		help: `With --where, count prints the rows matching the predicate instead (scan's
grammar; the files of several, and their partition columns, read as one table
as scan reads them), decoding only the predicate's columns of the row groups
that can match. On one file, a stripe whose statistics prove the predicate TRUE
for every row counts all its rows unread, and one whose statistics prove no row
TRUE counts none; --stats says how many rows and stripes each way decided.`})
}

// isURL reports whether a path is an HTTP(S) URL, read with range
// requests, or an object store's URL (stores.go).
func isURL(p string) bool {
	return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") || isStoreURL(p)
}

// openURL opens an ORC file over HTTP or from a store.
func openURL(url string) (*reader.Reader, io.ReaderAt, func(), error) {
	if isStoreURL(url) {
		f, err := openStoreFile(url)
		if err != nil {
			return nil, nil, nil, err
		}
		r, err := reader.Open(f, f.Size())
		if err != nil {
			f.Close()
			return nil, nil, nil, err
		}
		return r, f, func() { f.Close() }, nil
	}
	f, err := openHTTP(url)
	if err != nil {
		return nil, nil, nil, err
	}
	r, err := reader.Open(f, f.Size())
	if err != nil {
		if errors.Is(err, orc.ErrCorrupt) && looksLikeHTML(f) {
			err = errors.New("an HTML page (a directory listing?), not an ORC file: a table's URL ends in / and is read through its index (orc index build DIR)")
		}
		f.Close()
		return nil, nil, nil, err
	}
	return r, f, func() { f.Close() }, nil
}

// looksLikeHTML reports whether the bytes at r's start are an HTML page,
// such as a web server's listing of a directory.
func looksLikeHTML(r io.ReaderAt) bool {
	buf := make([]byte, 512)
	n, _ := r.ReadAt(buf, 0)
	head := strings.ToLower(strings.TrimSpace(string(buf[:n])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.HasPrefix(head, "<") && strings.Contains(head, "<a href")
}

// urlOpener is a dataset.Opener for a URL.
func urlOpener(url string) dataset.Opener {
	if isStoreURL(url) {
		return storeOpener(url)
	}
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := openHTTP(url)
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
}

// isMulti reports whether the inputs are a dataset rather than one file:
// several of them, or a directory.
func isMulti(paths []string) bool {
	if len(paths) > 1 {
		return true
	}
	if len(paths) == 1 && isURLDir(paths[0]) {
		return true
	}
	if len(paths) == 1 && !isURL(paths[0]) && paths[0] != "-" {
		if fi, err := os.Stat(paths[0]); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// datasetFiles lists the files of paths (files, directories, URLs). Files
// found in a directory are named by their path below it, so that its
// key=value directories give partition values; with several inputs each
// name is prefixed by its input's position to keep names apart.
func datasetFiles(paths []string, stderr io.Writer, cmd string) ([]dataset.File, map[string]string, error) {
	var files []dataset.File
	display := map[string]string{} // file name -> what to print
	for i, p := range paths {
		var fs []dataset.File
		if isURLDir(p) {
			return nil, nil, fmt.Errorf("%w: %s: a URL ending in / (a dataset listed by its index) must be the only input", errUsage, p)
		}
		if isURL(p) {
			fs = []dataset.File{{Name: p, Open: urlOpener(p)}}
		} else {
			if p == "-" {
				return nil, nil, fmt.Errorf("%w: standard input (-) cannot be one of several inputs", errUsage)
			}
			var list []dataset.File
			var err error
			if isDir(p) {
				list, err = dirFiles(p, stderr, cmd)
			} else {
				list, err = dataset.FromPaths(p)
			}
			if err != nil {
				return nil, nil, inFile(p, err)
			}
			fi, _ := os.Stat(p)
			for _, f := range list {
				shown := p
				if fi != nil && fi.IsDir() {
					shown = filepath.Join(p, filepath.FromSlash(f.Name))
				}
				display[f.Name] = shown
				fs = append(fs, f)
			}
		}
		for _, f := range fs {
			if len(paths) > 1 {
				old := f.Name
				f.Name = fmt.Sprintf("%04d/%s", i, f.Name)
				if d, ok := display[old]; ok {
					display[f.Name] = d
				}
			}
			if _, ok := display[f.Name]; !ok {
				display[f.Name] = f.Name
			}
			files = append(files, f)
		}
	}
	return files, display, nil
}

// datasetFlags are the flags of commands reading several files.
type datasetFlags struct {
	schema, partitions *string
	union              *bool
	noIndex            *bool // set by scan: ignore a directory's statistics index
}

func addDatasetFlags(fs *flag.FlagSet) datasetFlags {
	return datasetFlags{
		schema: fs.String("schema", "", "read schema for several files or a directory, e.g. 'struct<a:bigint,b:string>'\n"+
			"(default: the first file's, and a file of another schema is an error naming it)"),
		partitions: fs.String("partitions", "", "Hive partition columns of a directory's key=value subdirectories, e.g. 'struct<dt:date>'\n"+
			"(default: every key found, typed bigint, date, timestamp or string from its values; none: no partition columns)"),
		union: fs.Bool("union-by-name", false, "read several files through the union of their columns, matched by name and widened\n"+
			"where the files' types differ (default: the first file's schema, which every file must have)"),
	}
}

// set reports whether any flag of several files is set.
func (df datasetFlags) set() bool { return *df.schema != "" || *df.partitions != "" || *df.union }

// openDataset makes a dataset of paths with the flags. display maps its
// files' names to the paths to print.
func openDataset(paths []string, df datasetFlags, stderr io.Writer, cmd string) (d *dataset.Dataset, display map[string]string, err error) {
	var files []dataset.File
	var ud *urlDir
	if len(paths) == 1 && isURLDir(paths[0]) {
		if ud, err = openURLDir(paths[0]); err != nil {
			return nil, nil, err
		}
		files, display = ud.files, ud.display
		if ud.index == nil {
			ud = nil // a store's prefix without an index: its listing alone
		}
	} else if files, display, err = datasetFiles(paths, stderr, cmd); err != nil {
		return nil, nil, err
	}
	defer func() { err = datasetError(err, display) }()
	if len(files) == 0 && *df.schema == "" {
		return nil, nil, fmt.Errorf("%s: no files found (hidden and _-prefixed files are left out)", strings.Join(paths, ", "))
	}
	var opts []dataset.Option
	read, err := readSchemaOf(df, files, display, ud)
	if err != nil {
		return nil, nil, err
	}
	if read != nil {
		opts = append(opts, dataset.WithSchema(read))
	}
	parts, err := partitioningOf(df, files, display, ud, read, stderr, cmd)
	if err != nil {
		return nil, nil, err
	}
	if parts != nil {
		opts = append(opts, dataset.WithPartitioning(parts))
	}
	if len(paths) == 1 && isDir(paths[0]) && (df.noIndex == nil || !*df.noIndex) {
		// A directory's statistics index (orc index build), when it is there.
		opts = append(opts, dataset.WithIndexFile(filepath.Join(paths[0], statsindex.FileName)))
	}
	if ud != nil && (df.noIndex == nil || !*df.noIndex) {
		opts = append(opts, dataset.WithIndex(ud.name, ud.opener()))
	}
	d, err = dataset.New(files, opts...)
	return d, display, err
}

// readSchemaOf returns the read schema the flags or the index give, or
// nil for the dataset's own choice.
func readSchemaOf(df datasetFlags, files []dataset.File, display map[string]string, ud *urlDir) (*orc.Schema, error) {
	switch {
	case *df.schema != "" && *df.union:
		return nil, fmt.Errorf("%w: --schema and --union-by-name both give the read schema: choose one", errUsage)
	case *df.schema != "":
		read, err := orc.ParseSchema(*df.schema)
		if err != nil {
			return nil, userSchemaError("--schema", *df.schema, err)
		}
		return read, nil
	case *df.union:
		return unionByName(files, display)
	case ud != nil && ud.info.Schema != "":
		// The schema the index was built with: no file opened to learn it.
		read, err := orc.ParseSchema(ud.info.Schema)
		if err != nil {
			return nil, fmt.Errorf("%s: the index's schema %q: %w", ud.name, ud.info.Schema, err)
		}
		return read, nil
	}
	return nil, nil
}

// partitioningOf returns the partition columns: the flag's, the index's,
// or those the directories name that are not columns of the files (read,
// when known, else the first file's schema); nil for the dataset's own
// discovery to find none.
func partitioningOf(df datasetFlags, files []dataset.File, display map[string]string, ud *urlDir, read *orc.Schema, stderr io.Writer, cmd string) (*orc.Schema, error) {
	none := &orc.Schema{Kind: orc.Struct}
	switch {
	case *df.partitions == "" && ud != nil && ud.info.Partitions != "":
		s, err := orc.ParseSchema(ud.info.Partitions)
		if err != nil {
			return nil, fmt.Errorf("%s: the index's partitions %q: %w", ud.name, ud.info.Partitions, err)
		}
		return s, nil
	case *df.partitions == "none", *df.partitions == "" && ud != nil:
		// none, or an index built without partition columns.
		return none, nil
	case *df.partitions == "":
		return discoveredPartitions(files, display, read, stderr, cmd)
	}
	s, err := orc.ParseSchema(*df.partitions)
	if err != nil {
		return nil, userSchemaError("--partitions", *df.partitions, err)
	}
	if found := dataset.DiscoverPartitioning(files); found != nil {
		var left []string
		for _, k := range found.FieldNames {
			if j, _ := s.FieldIndex(k); j < 0 {
				left = append(left, strconv.Quote(k))
			}
		}
		if len(left) > 0 {
			fmt.Fprintf(stderr, "orc %s: the directories also name %s, which --partitions leaves out (not columns)\n", cmd, strings.Join(left, ", "))
		}
	}
	return s, nil
}

// discoveredPartitions returns the keys the directories name, but those
// that are also columns of the files (the files' column is read); nil for
// none.
func discoveredPartitions(files []dataset.File, display map[string]string, read *orc.Schema, stderr io.Writer, cmd string) (*orc.Schema, error) {
	parts := dataset.DiscoverPartitioning(files)
	if parts == nil {
		return nil, nil
	}
	if read == nil {
		var i int
		var err error
		if read, i, err = dataSchema(files); err != nil {
			return nil, &fileError{path: display[files[i].Name], err: err}
		}
	}
	kept := &orc.Schema{Kind: orc.Struct}
	for i, c := range parts.Children {
		if j, _ := read.FieldIndex(parts.FieldNames[i]); read.Kind == orc.Struct && j >= 0 {
			fmt.Fprintf(stderr, "orc %s: %q is both a directory key (%s=...) and a column of the files: the column of the files is read\n",
				cmd, parts.FieldNames[i], parts.FieldNames[i])
			continue
		}
		kept.Children = append(kept.Children, c)
		kept.FieldNames = append(kept.FieldNames, parts.FieldNames[i])
	}
	if len(kept.Children) == 0 {
		return nil, nil
	}
	return kept, nil
}

// rowSource is what cat and scan print from: one file's BatchReader or a
// dataset's Scanner.
type rowSource interface {
	Next(*orc.Batch) error
	NewBatch() *orc.Batch
	Schema() *orc.Schema
	Explain() string
	Close() error
	statsText() string
}

type fileSource struct {
	*reader.BatchReader
	path string
	file *orc.Schema // the file's schema, for the column paths of errors
}

func (f fileSource) statsText() string { return f.Stats().String() }

// Next is the reader's, its errors naming the file.
func (f fileSource) Next(b *orc.Batch) error {
	err := f.BatchReader.Next(b)
	if err != nil && err != io.EOF {
		return inFile(f.path, nameColumn(err, f.file))
	}
	return err
}

type datasetSource struct {
	*dataset.Scanner
	display map[string]string
}

func (d datasetSource) statsText() string { return d.Stats().String() }

// Next is the scanner's, its errors naming files by the paths typed.
func (d datasetSource) Next(b *orc.Batch) error {
	return datasetError(d.Scanner.Next(b), d.display)
}

// scanRequest is what cat and scan ask of a source.
type scanRequest struct {
	columns  []string
	where    *sarg.Expr
	filter   bool
	explain  bool
	parallel int
	limit    int64
}

// openSource opens paths (one file, or a dataset) for a scan.
func openSource(paths []string, df datasetFlags, req scanRequest, stderr io.Writer, cmd string) (rowSource, func(), error) {
	if !isMulti(paths) {
		if df.set() {
			return nil, nil, fmt.Errorf("%w: --schema, --partitions and --union-by-name are for several files or a directory", errUsage)
		}
		r, closeFn, err := openORC(paths[0])
		if err != nil {
			return nil, nil, err
		}
		opts := []reader.ScanOption{reader.WithParallelism(req.parallel)}
		if err := spellColumns(r.Schema(), req.columns); err != nil {
			closeFn()
			return nil, nil, inFile(paths[0], err)
		}
		if req.columns != nil {
			opts = append(opts, reader.WithColumns(req.columns...))
		} else {
			noteEncrypted(r, stderr, cmd)
		}
		if req.where != nil {
			opts = append(opts, reader.WithSearchArgument(*req.where), reader.WithExactFilter(req.filter))
		}
		if req.explain {
			opts = append(opts, reader.WithExplain())
		}
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			closeFn()
			return nil, nil, inFile(paths[0], err)
		}
		return orderColumns(fileSource{br, paths[0], r.Schema()}, req.columns), closeFn, nil
	}
	d, display, err := openDataset(paths, df, stderr, cmd)
	if err != nil {
		return nil, nil, err
	}
	if err := spellColumns(d.Schema(), req.columns); err != nil {
		return nil, nil, err
	}
	opts := []dataset.ScanOption{dataset.WithParallelism(req.parallel), dataset.WithLimit(req.limit)}
	if req.columns != nil {
		opts = append(opts, dataset.WithColumns(req.columns...))
	}
	if req.where != nil {
		opts = append(opts, dataset.WithSearchArgument(*req.where), dataset.WithExactFilter(req.filter))
	}
	if req.explain {
		opts = append(opts, dataset.WithExplain())
	}
	s, err := d.Scan(opts...)
	if err != nil {
		return nil, nil, datasetError(err, display)
	}
	return datasetSource{s, display}, func() {}, nil
}

// runCount prints each file's rows from its footer, and the total. A file
// that fails is reported and counted out; the command then fails, after
// the total of the others.
func runCount(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	where := new(string)
	fs.Var(onceFlag{where}, "where", "count the rows matching this predicate (a `string`, as scan takes it)")
	showStats := fs.Bool("stats", false, "with --where on one file: print how many rows and stripes statistics decided and how many were read")
	df := addDatasetFlags(fs)
	addNetFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return errUsage
	}
	if *where != "" {
		if len(pos) == 1 && !isDir(pos[0]) && !strings.HasSuffix(pos[0], "/") && *df.schema == "" && *df.partitions == "" && !*df.union {
			return countWhereFile(pos[0], *where, *showStats, stdout, stderr)
		}
		return countWhere(pos, *where, df, stdout, stderr)
	}
	files, err := expandInputs(pos, stderr, "count")
	if err != nil {
		return err
	}
	var total int64
	counted, failed := 0, 0
	for _, p := range files {
		r, closeFn, err := openORC(p)
		if err != nil {
			fmt.Fprintf(stderr, "orc count: %s\n", err)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%d\t%s\n", r.NumRows(), p)
		total += r.NumRows()
		counted++
		closeFn()
	}
	if counted+failed != 1 {
		fmt.Fprintf(stdout, "%d\ttotal (%d files)\n", total, counted)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %s failed", failed, plural(int64(counted+failed), "file"))
	}
	return nil
}

// countWhereFile prints the rows of one file matching a predicate,
// counting the stripes its statistics decide without reading them
// (reader.Count).
func countWhereFile(path, where string, showStats bool, stdout, stderr io.Writer) (err error) {
	expr, err := sarg.Parse(where)
	if err != nil {
		return userWhereError(where, err)
	}
	defer func() { err = fileFailure(path, err) }()
	r, _, closeFn, err := openORCAt(path)
	if err != nil {
		return err
	}
	defer closeFn()
	var cs reader.CountStats
	if r.Size() > 0 {
		if cs, err = r.Count(expr); err != nil {
			return userWhereError(where, inFile(path, err))
		}
	}
	if _, err := fmt.Fprintf(stdout, "%d\trows matching --where\n", cs.Rows); err != nil {
		return err
	}
	if showStats {
		fmt.Fprintf(stderr, "orc count: %s decided by statistics (%s), %s read and filtered (%s)\n",
			plural(cs.StatsRows, "row"), plural(int64(cs.StripesDecided), "stripe"), plural(cs.ScannedRows, "row"), plural(int64(cs.StripesScanned), "stripe"))
	}
	return nil
}

// countWhere prints the rows of paths matching a predicate.
func countWhere(paths []string, where string, df datasetFlags, stdout, stderr io.Writer) error {
	expr, err := sarg.Parse(where)
	if err != nil {
		return userWhereError(where, err)
	}
	// Only the predicate's columns are decoded.
	var cols []string
	seen := map[string]bool{}
	var walk func(e sarg.Expr)
	walk = func(e sarg.Expr) {
		if e.Leaf != nil && !seen[e.Leaf.Column] {
			seen[e.Leaf.Column] = true
			cols = append(cols, e.Leaf.Column)
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(expr)
	req := scanRequest{where: &expr, filter: true, parallel: 1, limit: -1, columns: cols}
	if len(cols) == 0 {
		req.columns = nil
	}
	src, closeFn, err := openSource(paths, df, req, stderr, "count")
	var be *sarg.BindError
	if err != nil && req.columns != nil && !errors.As(err, &be) {
		// A column the predicate names that the table lacks: let the
		// predicate's binding say so, quoting it.
		req.columns = nil
		src, closeFn, err = openSource(paths, df, req, stderr, "count")
	}
	if err != nil {
		return userWhereError(where, err)
	}
	defer closeFn()
	defer src.Close()
	b := src.NewBatch()
	var n int64
	for {
		select {
		case <-interrupt:
			return errInterrupted{rows: n}
		default:
		}
		if err := src.Next(b); err == io.EOF {
			break
		} else if err != nil {
			return userWhereError(where, err)
		}
		n += int64(b.NumRows)
	}
	_, err = fmt.Fprintf(stdout, "%d\trows matching --where\n", n)
	return err
}
