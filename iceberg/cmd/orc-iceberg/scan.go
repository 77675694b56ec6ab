package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/iceberg"
	"github.com/orcgo/orc/internal/rowfmt"
	"github.com/orcgo/orc/internal/units"
	"github.com/orcgo/orc/sarg"
)

var scanCmd = command{name: "scan",
	usage: "scan --catalog CATALOG NS.TABLE [--where EXPR] [--columns a,b] [--stats] [--snapshot ID | --as-of TIME] [--limit N] [--format F] [--timezone Z]",
	desc:  "print a table's rows matching a predicate, opening only the data files its manifests cannot rule out",
	run:   runScan}

// errLimit ends a scan that printed --limit rows.
var errLimit = errors.New("limit reached")

func runScan(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	cf := addCatalogFlags(fs)
	var where onceString
	fs.Var(&where, "where", "the predicate, as orc scan --where takes it (orc scan --help), over the table's column names")
	columns := fs.String("columns", "", "comma-separated columns to print, in that order and no others (nested: a.b)")
	stats := fs.Bool("stats", false, "print on stderr the data files considered, skipped by partition, skipped by metrics, and opened")
	snapshot := fs.String("snapshot", "", "read the table as of this snapshot id (orc iceberg snapshots lists them)")
	asOf := fs.String("as-of", "", "read the table as of this time (RFC 3339, 2024-03-10T12:00:00Z): its last snapshot then")
	limit := fs.Int64("limit", -1, "print at most N rows (-1: all)")
	format := fs.String("format", rowfmt.JSON, rowfmt.FormatUsage)
	zone := fs.String("timezone", "UTC", rowfmt.ZoneUsage)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	out, err := rowfmt.ParseOptions(*format, *zone)
	if err != nil {
		return usageErr("%v", err)
	}
	expr := sarg.True()
	if where.v != "" {
		if expr, err = sarg.Parse(where.v); err != nil {
			return usageErr("--where %q: %v", where.v, err)
		}
	}
	opts, err := snapshotOptions(*snapshot, *asOf)
	if err != nil {
		return err
	}
	if *stats {
		opts = append(opts, iceberg.WithPlanCounts())
	}
	cat, ident, tbl, err := tableArgs(ctx, cf, pos)
	if err != nil {
		return err
	}
	defer cat.close()
	if err := checkSnapshot(tbl, strings.Join(ident, "."), *snapshot, *asOf); err != nil {
		return err
	}
	ts, err := iceberg.ToORC(tbl.Schema())
	if err != nil {
		return err
	}
	if err := checkWhereColumns(expr, ts); err != nil {
		return usageErr("--where %q: %v", where.v, err)
	}
	pr, err := newPrinter(e, ts, *columns, out, *limit)
	if err != nil {
		return err
	}
	st, err := iceberg.Scan(ctx, tbl, expr, pr.print, opts...)
	if errors.Is(err, errLimit) {
		err = nil
	}
	if ferr := pr.flush(); err == nil {
		err = ferr
	}
	if *stats {
		printStats(e, st, pr.rows, *limit)
	}
	return err
}

// snapshotOptions reads --snapshot and --as-of.
func snapshotOptions(snapshot, asOf string) ([]iceberg.ScanOption, error) {
	switch {
	case snapshot != "" && asOf != "":
		return nil, usageErr("--snapshot and --as-of both choose the snapshot: give one")
	case snapshot != "":
		id, err := strconv.ParseInt(snapshot, 10, 64)
		if err != nil {
			return nil, usageErr("--snapshot %q: a snapshot id is a whole number (orc iceberg snapshots lists them)", snapshot)
		}
		return []iceberg.ScanOption{iceberg.WithSnapshotID(id)}, nil
	case asOf != "":
		t, err := time.Parse(time.RFC3339Nano, asOf)
		if err != nil {
			return nil, usageErr("--as-of %q: want a time such as 2024-03-10T12:00:00Z", asOf)
		}
		return []iceberg.ScanOption{iceberg.WithSnapshotAsOf(t)}, nil
	}
	return nil, nil
}

// checkSnapshot refuses a --snapshot the table does not have, or an
// --as-of before its first snapshot, naming the table.
func checkSnapshot(tbl *table.Table, name, snapshot, asOf string) error {
	if id, err := strconv.ParseInt(snapshot, 10, 64); err == nil && tbl.SnapshotByID(id) == nil {
		return fmt.Errorf("table %s has no snapshot %d (orc iceberg snapshots lists them)", name, id)
	}
	if t, err := time.Parse(time.RFC3339Nano, asOf); err == nil {
		for _, s := range tbl.Metadata().Snapshots() {
			if s.TimestampMs <= t.UnixMilli() {
				return nil
			}
		}
		return fmt.Errorf("table %s has no snapshot committed at or before %s (orc iceberg snapshots lists them)", name, asOf)
	}
	return nil
}

// checkWhereColumns refuses a predicate naming a column the table lacks:
// the scan would otherwise fail file by file, or on an empty table never.
func checkWhereColumns(e sarg.Expr, s *orc.Schema) error {
	if e.Leaf != nil {
		for _, c := range []string{e.Leaf.Column, e.Leaf.Other} {
			if c != "" && !hasColumn(s, c) {
				return fmt.Errorf("the table has no column %q (its columns: %s)", c, strings.Join(s.FieldNames, ", "))
			}
		}
	}
	for _, c := range e.Children {
		if err := checkWhereColumns(c, s); err != nil {
			return err
		}
	}
	return nil
}

// hasColumn reports whether the dotted path p names a column of s (a
// quoted name, `a.b`, is one column).
func hasColumn(s *orc.Schema, p string) bool {
	for _, name := range splitPath(p) {
		k, _ := s.FieldIndex(name)
		if k < 0 {
			return false
		}
		s = s.Children[k]
	}
	return true
}

// splitPath splits a column path at its dots outside backquotes,
// unquoting each name (“ is a backquote inside one).
func splitPath(p string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '`' && quoted && i+1 < len(p) && p[i+1] == '`':
			cur.WriteByte('`')
			i++
		case c == '`':
			quoted = !quoted
		case c == '.' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, cur.String())
}

// printStats prints what a scan did, on stderr, as orc scan --stats
// does: the files the table's manifests left out and the ones opened,
// then orcgo's figures for the files opened (stripes and row groups its
// pruning skipped inside them, reads, rows), then the rows printed.
func printStats(e env, st iceberg.ScanStats, printed, limit int64) {
	fmt.Fprintf(e.stderr, "files: %d considered, %d skipped by partition, %d skipped by metrics, %d opened\n",
		st.FilesConsidered, st.SkippedByPartition, st.SkippedByMetrics, st.FilesOpened)
	if st.DeleteFilesRead > 0 {
		fmt.Fprintf(e.stderr, "delete files: %d read, %d rows deleted\n", st.DeleteFilesRead, st.RowsDeleted)
	}
	if _, rest, ok := strings.Cut(st.Read.String(), "\n"); ok { // orcgo's own files line is per file read
		fmt.Fprintln(e.stderr, rest)
	}
	if limit >= 0 {
		fmt.Fprintf(e.stderr, "printed: %s (--limit %d)\n", units.Plural(printed, "row"), limit)
	} else {
		fmt.Fprintf(e.stderr, "printed: %s\n", units.Plural(printed, "row"))
	}
}

// printer prints a scan's rows (the columns asked) in a rowfmt format.
type printer struct {
	w      *bufio.Writer
	format rowfmt.Formatter
	cols   []colPath // nil: all
	view   orc.Batch
	line   []byte
	rows   int64
	limit  int64
}

// colPath is a column to print: its index, and for a struct cut to some
// fields, those (rowfmt.Field).
type colPath = rowfmt.Field

func newPrinter(e env, s *orc.Schema, columns string, o rowfmt.Options, limit int64) (*printer, error) {
	p := &printer{w: bufio.NewWriterSize(e.stdout, 1<<16), limit: limit}
	shown := s
	if columns != "" {
		names := strings.Split(columns, ",")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		var err error
		if p.cols, err = pickColumns(s, names); err != nil {
			return nil, usageErr("--columns: %v", err)
		}
		shown = rowfmt.ProjectSchema(s, p.cols)
		o.Columns = names
	}
	p.view.Schema = shown
	p.format = rowfmt.New(o, shown)
	return p, nil
}

// print prints the rows of b, until the limit.
func (p *printer) print(b *orc.Batch) error {
	shown := b
	if p.cols != nil {
		rowfmt.Project(&p.view, b, p.cols)
		shown = &p.view
	}
	for i := 0; i < shown.NumRows; i++ {
		if p.limit >= 0 && p.rows >= p.limit {
			return errLimit
		}
		p.line, _ = p.format.Add(p.line[:0], shown, i)
		p.rows++
		if _, err := p.w.Write(p.line); err != nil {
			return err
		}
	}
	if p.limit >= 0 && p.rows >= p.limit {
		return errLimit
	}
	return nil
}

// flush prints what the format holds back and flushes the output.
func (p *printer) flush() error {
	p.line, _ = p.format.Flush(p.line[:0])
	if _, err := p.w.Write(p.line); err != nil {
		return err
	}
	return p.w.Flush()
}

// pickColumns resolves --columns names (dotted paths into structs) to
// the columns of s to print, in the order first named.
func pickColumns(s *orc.Schema, names []string) ([]colPath, error) {
	var order []int
	deeper := map[int][]string{} // field index -> paths below it ("" for the whole field)
	for _, n := range names {
		first, rest, _ := strings.Cut(n, ".")
		k, _ := s.FieldIndex(first)
		if k < 0 || (rest != "" && !hasColumn(s.Children[k], rest)) {
			return nil, fmt.Errorf("the table has no column %q (its columns: %s)", n, strings.Join(s.FieldNames, ", "))
		}
		if _, seen := deeper[k]; !seen {
			order = append(order, k)
		}
		deeper[k] = append(deeper[k], rest)
	}
	var out []colPath
	for _, i := range order {
		c := colPath{Index: i}
		if !slices.Contains(deeper[i], "") {
			sub, err := pickColumns(s.Children[i], deeper[i])
			if err != nil {
				return nil, err
			}
			c.Sub = sub
		}
		out = append(out, c)
	}
	return out, nil
}
