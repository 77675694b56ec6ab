package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/rowfmt"
	"github.com/orcgo/orc/sarg"
)

func init() {
	register(command{name: "scan",
		usage: "scan FILE|DIR|URL... [--where EXPR] [--columns a,b] [--explain[=full]] [--stats] [--no-filter] [--limit N] [--format F] [--timezone Z] [--parallel N] [--schema S | --union-by-name] [--partitions S]",
		desc:  "print the rows matching a predicate, reading only the row groups that can hold them",
		help: `--where takes a SQL-like predicate over the columns (nested names a.b.c):
  comparisons   a = 5, a <> 5, a < 5, a <= 5, a > 5, a >= 5, a <=> 5 (null-safe)
  ranges, sets  a BETWEEN 1 AND 9, s IN ('x', 'y'), a NOT IN (1, 2)
  two columns   a < b, a = b, a <=> b, a BETWEEN b AND c (same type family:
                integers, floats, decimals, dates, timestamps, strings)
  dates         YEAR(d) = 1995, CAST(ts AS DATE) = DATE '2024-03-10' (as ranges of d, ts),
                MONTH(ts) = 3, DAY(d), HOUR(ts), DATE_TRUNC('month', ts) = DATE '2024-03-01'
  functions     x + 1 < 5, x - 2.5, x * -2, x / 4 (in double precision), ABS(x),
                LENGTH(s), LOWER(s) = 'ab', UPPER(s) LIKE 'A%' (LENGTH, LOWER, UPPER
                never prune; --explain=full says which leaves could not prune and why)
  nulls         a IS NULL, a IS NOT NULL
  patterns      s LIKE 'ab%' (% any run, _ one character), s NOT LIKE '%x_',
                s LIKE 'a!%%' ESCAPE '!' (default escape \), STARTS_WITH(s, 'ab')
  geometry      ST_INTERSECTS(g, 'POLYGON ((0 0, 4 0, 4 4, 0 0))'): g and the shape
                share a point; ST_CONTAINS(g, 'POINT (1 2)'): g contains it (a
                polygon does not contain its boundary); ST_WITHIN(g, '...'): the
                shape contains g; ST_DISJOINT(g, '...'); the WKT (or
                ST_GEOMFROMTEXT('...')) may come first: ST_CONTAINS('...', g) is
                ST_WITHIN(g, '...'). ST_INTERSECTS_BOX(g, xmin, ymin, xmax, ymax):
                g's envelope meets the box; ST_WITHIN_BOX(...): it lies inside;
                xmin > xmax crosses the antimeridian
  logic         NOT, AND, OR, parentheses (AND binds tighter than OR)
  literals      5, -2.5, 1e3, 'text' ('' for a quote), DATE '2024-03-10',
                TIMESTAMP '2024-03-10 01:30:00'; NULL only in IN lists and with <=>
Rows are kept when the predicate is TRUE (SQL three-valued logic). Without
--where, scan reads every row (as cat does, with --stats and --explain).
--where may be given once: join conditions with AND.
Several files or a directory read as one table: --schema is the read schema
(columns matched by name, missing ones null), or --union-by-name the union of
the files' columns. key=value directories are columns (types inferred, or
given by --partitions), which the predicate prunes before opening a file.
A directory's statistics index (orc index build) rules files out unopened.
A URL ending in / is a dataset on a web server or object store, listed by
its index (HTTP lists no directory): _orcgo_index.pointer or
_orcgo_index.orc there gives the files, the schema and the partitions, so
the scan asks for the index and then only the files it cannot rule out.
Files added or rewritten since the index was written are not seen there:
update the index with the files.`,
		run: runScan})
}

func runScan(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	where := new(string)
	fs.Var(onceFlag{where}, "where", "the predicate, a `string` such as \"a = 5 AND b IN ('x', 'y')\"")
	addNetFlags(fs)
	var explain explainMode
	fs.Var(&explain, "explain", "print the pruning decisions on stderr: per stripe the row groups kept and skipped,\nby which leaf, and the runs read (--explain=full: every row group and the read plans)")
	explainGroups := fs.Bool("explain-groups", false, "print the full pruning decisions on stderr (as --explain=full)")
	showStats := fs.Bool("stats", false, "print scan statistics on stderr")
	noFilter := fs.Bool("no-filter", false, "return whole surviving row groups instead of matching rows")
	rf := addRowFlags(fs)
	rf.df.noIndex = fs.Bool("no-index", false, "ignore a directory's statistics index (orc index build): prune files by their footers")
	pos, out, req, err := rf.parse(fs, args)
	if err != nil {
		return err
	}
	expr := sarg.True()
	if *where != "" {
		if expr, err = sarg.Parse(*where); err != nil {
			return userWhereError(*where, err)
		}
	}
	if *explainGroups {
		explain = "full"
	}
	req.filter, req.explain = !*noFilter, explain != ""
	if *where != "" {
		req.where = &expr
	}
	wanted := req.columns
	br, closeFn, err := openSource(pos, rf.df, req, stderr, "scan")
	if err != nil {
		return userWhereError(*where, err)
	}
	defer closeFn()
	// Print the requested columns only, though the batch also holds the
	// predicate's.
	n, err := printRows(br, stdout, req.limit, printedFields(br.Schema(), wanted), out)
	// However the scan ended (its end, --limit, an error, a closed output,
	// Ctrl-C), it is stopped before its figures are read, so that they
	// count the work of every file it opened.
	br.Close()
	reportScan(br, stderr, expr, explain, *showStats, n, req.limit)
	return userWhereError(*where, err)
}

// reportScan prints what a scan that printed n rows did, on stderr: its
// explanation, a dataset index's warning, its statistics.
func reportScan(br rowSource, stderr io.Writer, expr sarg.Expr, explain explainMode, showStats bool, n, limit int64) {
	switch forms := newLeafForms(expr); explain {
	case "compact":
		explainCompact(stderr, br.Explain(), forms)
	case "full":
		explainFull(stderr, br.Explain(), forms)
	}
	if ds, ok := br.(datasetSource); ok && ds.Stats().IndexWarning != "" {
		fmt.Fprintf(stderr, "orc scan: warning: %s\n", strings.TrimPrefix(ds.Stats().IndexWarning, "dataset: "))
	}
	if !showStats {
		return
	}
	fmt.Fprintln(stderr, br.statsText())
	if limit >= 0 {
		// The scan stops at the batch holding the last row printed.
		fmt.Fprintf(stderr, "printed: %s (--limit %d)\n", plural(n, "row"), limit)
	} else {
		fmt.Fprintf(stderr, "printed: %s\n", plural(n, "row"))
	}
}

// field is one field of a struct to print (rowfmt.Field).
type field = rowfmt.Field

// printedFields returns the fields of s to print: those named in wanted
// (dotted paths; a struct named by its fields' paths keeps only those), or
// nil when wanted is empty: all, the batch as it is (a list of them would
// cost 100,000 entries, and a view as many vectors, for a file of 100,000
// columns). The batch also holds the predicate's columns, which are not
// printed unless named.
func printedFields(s *orc.Schema, wanted []string) []field {
	if len(wanted) == 0 {
		return nil
	}
	if s.Kind != orc.Struct {
		return []field{{Index: 0}}
	}
	var out []field
	for i, name := range s.FieldNames {
		whole, keep := false, false
		var deeper []string
		for _, w := range wanted {
			first, rest, dotted := strings.Cut(w, ".")
			if first != name {
				continue
			}
			keep = true
			if !dotted {
				whole = true
			} else {
				deeper = append(deeper, rest)
			}
		}
		switch {
		case !keep:
		case whole || s.Children[i].Kind != orc.Struct:
			out = append(out, field{Index: i})
		default:
			out = append(out, field{Index: i, Sub: printedFields(s.Children[i], deeper)})
		}
	}
	return out
}

// selectFields makes view show the chosen fields of b, sharing its vectors.
func selectFields(view, b *orc.Batch, fields []field) {
	if b.Schema.Kind != orc.Struct {
		*view = *b
		return
	}
	rowfmt.Project(view, b, fields)
}

// onceFlag is a string flag that may be given once: a second --where
// would otherwise silently replace the first.
type onceFlag struct{ v *string }

func (f onceFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f onceFlag) Set(s string) error {
	if *f.v != "" {
		return fmt.Errorf("given twice (%q, then %q): join the conditions with AND", *f.v, s)
	}
	*f.v = s
	return nil
}
