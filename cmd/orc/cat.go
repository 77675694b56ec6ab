package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

func init() {
	register(command{name: "cat", usage: "cat FILE|DIR|URL... [--columns a,b.c] [--limit N] [--format json|csv|tsv|table] [--timezone Z] [--parallel N] [--wkb-hex] [--schema S | --union-by-name] [--partitions S]", run: runCat,
		desc: "print the rows as JSON lines, CSV, TSV or a table (FILE may be - for standard input; several files or a directory read as one table)"})
}

// parseFlags parses flags that may come before or after positional args.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequest{fs}
			}
			if strings.HasSuffix(err.Error(), "flag provided but not defined: -where") {
				return nil, fmt.Errorf("%w: orc %s takes no --where: orc scan FILE --where EXPR prints the rows that match, orc count FILE --where EXPR counts them", errUsage, fs.Name())
			}
			return nil, fmt.Errorf("%w: %v", errUsage, flagError(err))
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// reFlagValue matches the flag package's message for a bad value.
var reFlagValue = regexp.MustCompile(`^invalid value ("(?:[^"\\]|\\.)*") for flag -([^:]+): (.*)$`)

// flagError words the flag package's errors as the user typed the flag:
// `invalid value "x" for flag -limit: parse error` is `--limit "x": parse
// error`.
func flagError(err error) error {
	if m := reFlagValue.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("--%s %s: %s", m[2], m[1], m[3])
	}
	return err
}

func openORC(path string) (*reader.Reader, func(), error) {
	r, _, closeFn, err := openORCAt(path)
	return r, closeFn, err
}

// openORCAt is openORC that also returns what the reader reads from, for
// commands that read a file's bytes themselves.
//
// Its errors name the path.
func openORCAt(path string) (*reader.Reader, io.ReaderAt, func(), error) {
	r, ra, closeFn, err := openORCAtPath(path)
	if err != nil {
		name := path
		if path == "-" {
			name = "standard input"
		}
		return nil, nil, nil, inFile(name, err)
	}
	return r, ra, closeFn, nil
}

func openORCAtPath(path string) (*reader.Reader, io.ReaderAt, func(), error) {
	if path == "-" {
		return openBuffered(os.Stdin)
	}
	if isURL(path) {
		return openURL(path)
	}
	f, err := os.Open(path)
	if err != nil {
		if scheme, ok := urlScheme(path); ok && errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil, fmt.Errorf("no such file, and %s:// is not a scheme orc reads (%s)", scheme, knownSchemes)
		}
		return nil, nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	switch mode := st.Mode(); {
	case mode.IsRegular():
	case mode&(os.ModeNamedPipe|os.ModeCharDevice|os.ModeSocket) != 0:
		// A pipe has no size and cannot be read at an offset (its Stat
		// size is 0, which would read as an empty ORC file).
		defer f.Close()
		return openBuffered(f)
	case mode.IsDir():
		f.Close()
		return nil, nil, nil, errors.New("is a directory, not an ORC file")
	default:
		f.Close()
		return nil, nil, nil, fmt.Errorf("not a regular file (mode %s)", mode.Type())
	}
	r, err := reader.Open(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return r, f, func() { f.Close() }, nil
}

// maxPipeInput bounds what openBuffered holds of a pipe.
const maxPipeInput = 2 << 30

// openBuffered reads a stream that cannot be read at offsets (standard
// input, a pipe) into memory, up to maxPipeInput bytes, and opens it.
func openBuffered(in io.Reader) (*reader.Reader, io.ReaderAt, func(), error) {
	data, err := io.ReadAll(io.LimitReader(in, maxPipeInput+1))
	if err != nil {
		return nil, nil, nil, err
	}
	if len(data) > maxPipeInput {
		return nil, nil, nil, fmt.Errorf("more than %d bytes from a pipe; write it to a file first", maxPipeInput)
	}
	ra := bytes.NewReader(data)
	r, err := reader.Open(ra, int64(len(data)))
	if err != nil {
		return nil, nil, nil, err
	}
	return r, ra, func() {}, nil
}

// noteEncrypted tells on stderr which columns a scan of every column
// leaves out because they are encrypted (orcgo reads no encrypted data).
func noteEncrypted(r *reader.Reader, stderr io.Writer, cmd string) {
	// Column ids run in schema order; the names are made only when a
	// column is encrypted (for 100,000 columns they cost megabytes).
	var left []string
	var names []string
	for id := 0; id <= r.Schema().MaxID(); id++ {
		// Name each encrypted subtree once, by its root.
		if r.IsEncrypted(id) && (id == 0 || !r.IsEncrypted(parentID(r.Schema(), id))) {
			if names == nil {
				names = columnNames(r.Schema())
			}
			left = append(left, names[id])
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(stderr, "orc %s: left out %d encrypted column(s), which orcgo cannot decrypt: %s\n", cmd, len(left), strings.Join(left, ", "))
	}
}

// parentID returns the id of column id's parent (0 for the root).
func parentID(root *orc.Schema, id int) int {
	line := root.Lineage(id)
	if len(line) < 2 {
		return root.ID()
	}
	return line[len(line)-2].ID()
}

// checkLimit refuses a --limit below -1 (which, the default, means no
// limit): --limit -3 is a mistake, not "all".
func checkLimit(limit int64) error {
	if limit < -1 {
		return fmt.Errorf("%w: --limit %d: must be 0 or more (or -1 for all)", errUsage, limit)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runCat(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cat", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addNetFlags(fs)
	rf := addRowFlags(fs)
	wkbHex := fs.Bool("wkb-hex", false, "print geometry and geography values as their WKB in hex, not as WKT")
	pos, out, req, err := rf.parse(fs, args)
	if err != nil {
		return err
	}
	out.wkbHex = *wkbHex
	src, closeFn, err := openSource(pos, rf.df, req, stderr, "cat")
	if err != nil {
		return err
	}
	defer closeFn()
	defer src.Close()
	_, err = printRows(src, stdout, req.limit, nil, out)
	return err
}

// rowFlags are the flags cat and scan share: the columns and rows to
// print, the goroutines to decode on, and the dataset's and the output's
// flags.
type rowFlags struct {
	columns  *string
	limit    *int64
	parallel *int
	df       datasetFlags
	of       outputFlags
}

func addRowFlags(fs *flag.FlagSet) *rowFlags {
	return &rowFlags{
		columns:  fs.String("columns", "", "comma-separated columns to print, in that order and no others (nested: a.b;\nnames match as in --where: exactly, else ignoring case)"),
		limit:    fs.Int64("limit", -1, "print at most N rows (-1: all)"),
		parallel: fs.Int("parallel", 1, "decode on N goroutines (several files: N files at once), rows still in order (1..64)"),
		df:       addDatasetFlags(fs),
		of:       addOutputFlags(fs),
	}
}

// parse parses args with fs, which holds f, and checks the flags; it
// returns the inputs named, the output's options and the scan request the
// flags make (its columns, limit and parallelism).
func (f *rowFlags) parse(fs *flag.FlagSet, args []string) (pos []string, out outputOptions, req scanRequest, err error) {
	if pos, err = parseFlags(fs, args); err != nil {
		return nil, out, req, err
	}
	if len(pos) == 0 {
		return nil, out, req, errUsage
	}
	if *f.parallel < 1 || *f.parallel > 64 {
		return nil, out, req, fmt.Errorf("--parallel %d: must be 1..64", *f.parallel)
	}
	if err := checkLimit(*f.limit); err != nil {
		return nil, out, req, err
	}
	if out, err = f.of.parse(); err != nil {
		return nil, out, req, err
	}
	req = scanRequest{parallel: *f.parallel, limit: *f.limit}
	if *f.columns != "" {
		req.columns = splitList(*f.columns)
		out.columns = req.columns
	}
	return pos, out, req, nil
}
