package iceberg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	ice "github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// ScanStats counts the files and rows of a Scan.
type ScanStats struct {
	// FilesPlanned counts the data files iceberg-go's planning kept (by
	// partition summaries, partition values and metrics).
	FilesPlanned int
	// With WithPlanCounts: the live data files of the snapshot, and those
	// planning left out by their partition values (or their manifest's
	// partition summaries) and by their column metrics. FilesConsidered =
	// SkippedByPartition + SkippedByMetrics + FilesPlanned.
	FilesConsidered, SkippedByPartition, SkippedByMetrics int
	FilesOpened                                           int   // data files read with orcgo
	Rows                                                  int64 // rows passed to the callback
	DeleteFilesRead                                       int   // position and equality delete files read (each once a scan)
	RowsDeleted                                           int64 // rows the predicate keeps that delete files remove
	// Read sums orcgo's statistics of the data files' scans: the stripes
	// and row groups their own pruning skipped, the bytes read, the rows
	// decoded. Its FilesConsidered and FilesSkipped are orcgo's, per file
	// (a data file read in parts for its position deletes counts once a
	// part).
	Read reader.ScanStats
}

// Scan reads the rows of tbl's current snapshot that match predicate e
// (orcgo's search argument over the table's current column names): the
// table's manifests rule out files first (IcebergFilter of e, through
// iceberg-go's planning: partition summaries of the manifest list, the
// partition values and the metrics of each file), then each remaining file
// is read by orcgo with e for its own pruning and exact filter, resolving
// columns by field id (ReadSchema). fn gets batches of ToORC(tbl.Schema())
// positionally; a batch is valid until fn returns. Rows that the planned
// position and equality delete files delete are left out (spec.md 10:
// ORC and Parquet delete files; the stripes holding deleted positions are
// read whole, the predicate evaluated after the deletes); deletion vectors
// are refused.
func Scan(ctx context.Context, tbl *table.Table, e sarg.Expr, fn func(*orc.Batch) error, opts ...ScanOption) (ScanStats, error) {
	var st ScanStats
	if fn == nil {
		return st, errors.New("iceberg: Scan needs a callback")
	}
	var cfg scanConfig
	for _, o := range opts {
		o(&cfg)
	}
	filter := IcebergFilter(tbl.Schema(), e)
	plan := append([]table.ScanOption{table.WithRowFilter(filter)}, cfg.plan...)
	scan := tbl.Scan(plan...)
	tasks, err := scan.PlanFiles(ctx)
	if err != nil {
		return st, err
	}
	st.FilesPlanned = len(tasks)
	if cfg.counts {
		if err := countPlan(ctx, tbl, scan.Snapshot(), filter, tasks, &st); err != nil {
			return st, err
		}
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return st, err
	}
	deletes := newDeleteLoader(fs, tbl, tasks)
	for _, task := range tasks {
		if task.File.FileFormat() != ice.OrcFile {
			return st, fmt.Errorf("iceberg: data file %s is %s, not ORC", task.File.FilePath(), task.File.FileFormat())
		}
		dels, err := deletes.forTask(task)
		if err != nil {
			return st, err
		}
		st.FilesOpened++
		n, err := scanFile(ctx, fs, tbl, task.File.FilePath(), e, fn, dels, cfg.read, &st)
		st.Rows += n
		st.DeleteFilesRead = len(deletes.pos) + len(deletes.eq)
		if err != nil {
			return st, fmt.Errorf("iceberg: data file %s: %w", task.File.FilePath(), err)
		}
	}
	return st, nil
}

// ScanOption configures Scan.
type ScanOption func(*scanConfig)

type scanConfig struct {
	plan   []table.ScanOption
	read   []reader.ScanOption
	counts bool
}

// WithPlanCounts has Scan count the files planning left out, and why
// (ScanStats.FilesConsidered, SkippedByPartition, SkippedByMetrics), at
// the cost of reading every manifest of the snapshot, the ones planning
// skipped included.
func WithPlanCounts() ScanOption { return func(c *scanConfig) { c.counts = true } }

// WithSnapshotID reads the table as of snapshot id instead of its current
// snapshot (time travel). Columns are still the current schema's, matched
// by field id, so files written before a rename read right.
func WithSnapshotID(id int64) ScanOption {
	return func(c *scanConfig) { c.plan = append(c.plan, table.WithSnapshotID(id)) }
}

// WithSnapshotAsOf reads the table as of the last snapshot committed at or
// before t.
func WithSnapshotAsOf(t time.Time) ScanOption {
	return func(c *scanConfig) { c.plan = append(c.plan, table.WithSnapshotAsOf(t.UnixMilli())) }
}

// WithReaderOptions passes orcgo scan options (batch size, parallelism,
// memory caps, ...) to the reader of each file. Options that choose rows
// (a byte range, a search argument) do not belong here: Scan's predicate
// is the search argument, and position deletes count every row of a file.
func WithReaderOptions(opts ...reader.ScanOption) ScanOption {
	return func(c *scanConfig) { c.read = append(c.read, opts...) }
}

// openORC opens the ORC file at path in fsys and reads its tail. The
// caller closes the file returned; on an error it is closed already.
func openORC(fsys icebergio.IO, path string) (*reader.Reader, io.Closer, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	r, err := reader.Open(f, info.Size())
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, f, nil
}

// scanFile reads one data file with e, as the table sees it, leaving out
// the rows dels deletes and adding their count to deleted.
func scanFile(ctx context.Context, fsys icebergio.IO, tbl *table.Table, path string, e sarg.Expr,
	fn func(*orc.Batch) error, dels *fileDeletes, opts []reader.ScanOption, st *ScanStats) (int64, error) {
	r, f, err := openORC(fsys, path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rs, err := ReadSchema(tbl.Schema(), r.Schema(), tbl.NameMapping())
	if err != nil {
		return 0, err
	}
	ts, err := ToORC(tbl.Schema())
	if err != nil {
		return 0, err
	}
	pred := renameColumns(e, ts, rs)
	base := []reader.ScanOption{reader.WithContext(ctx), reader.WithReadSchema(rs)}
	if dels.empty() || len(dels.positions) == 0 {
		return readPart(r, append(base, opts...), rs, pred, dels, fn, st)
	}
	var n int64
	for _, p := range splitByDeletes(r.Stripes(), dels) {
		all := append(append(base[:len(base):len(base)], reader.WithRange(p.offset, p.length)), opts...)
		k, err := readPart(r, all, rs, pred, p.deletes, fn, st)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// filePart is a run of a data file's stripes, read by one batch reader:
// stripes that hold rows position deletes delete (read whole, since
// positions count every row), or stripes that hold none (read with orcgo's
// pruning and exact filter).
type filePart struct {
	offset, length int64        // bytes from the first stripe's start to the last one's end
	first          int64        // the position of the part's first row in the file
	dirty          bool         // it holds deleted positions
	deletes        *fileDeletes // its positions, counted from first, and the file's equality deletes
}

// splitByDeletes splits a file's stripes into runs that do and do not hold
// a position d deletes, so that only the stripes with deletes lose orcgo's
// pruning. Positions past the last row delete nothing.
func splitByDeletes(stripes []reader.StripeInfo, d *fileDeletes) []filePart {
	var parts []filePart
	var first int64 // the stripe's first row
	next := 0       // d.positions[next] is the first position past the stripes passed
	for _, st := range stripes {
		lo := next
		for next < len(d.positions) && d.positions[next] < first+st.NumRows {
			next++
		}
		dirty := next > lo
		if k := len(parts) - 1; k < 0 || parts[k].dirty != dirty {
			parts = append(parts, filePart{offset: st.Offset, first: first, dirty: dirty, deletes: &fileDeletes{eq: d.eq}})
		}
		p := &parts[len(parts)-1]
		p.length = st.Offset + st.Length() - p.offset
		for _, pos := range d.positions[lo:next] {
			p.deletes.positions = append(p.deletes.positions, pos-p.first)
		}
		first += st.NumRows
	}
	return parts
}

// readPart reads the rows of a batch reader made with opts, leaving out
// those dels deletes, and adds their count and the reader's statistics
// to st.
func readPart(r *reader.Reader, opts []reader.ScanOption, rs *orc.Schema, pred sarg.Expr,
	dels *fileDeletes, fn func(*orc.Batch) error, st *ScanStats) (int64, error) {
	deleted := &st.RowsDeleted
	var filter *deleteFilter
	if !dels.empty() {
		var err error
		if filter, err = newDeleteFilter(dels, rs, pred); err != nil {
			return 0, err
		}
	}
	if filter == nil || filter.matcher == nil {
		opts = append(opts[:len(opts):len(opts)], reader.WithSearchArgument(pred), reader.WithExactFilter(true))
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return 0, err
	}
	defer func() {
		br.Close()
		st.Read.Add(br.Stats())
	}()
	var n int64
	for b, err := range br.All() {
		if err != nil {
			return n, err
		}
		b.Compact() // a reader option's selection (reader.WithSelection)
		out := b
		if filter != nil {
			before := filter.deleted
			out, err = filter.apply(b)
			*deleted += filter.deleted - before
			if err != nil {
				return n, err
			}
		}
		if out.NumRows == 0 {
			continue
		}
		n += int64(out.NumRows)
		if err := fn(out); err != nil {
			return n, err
		}
	}
	return n, nil
}

// renameColumns returns e with each leaf's columns renamed from the table's
// names (in tableSchema, ToORC of the table) to those of read schema rs,
// which has the same shape: the reader's predicate names the read schema's
// columns, and a renamed column keeps its old name there.
func renameColumns(e sarg.Expr, tableSchema, rs *orc.Schema) sarg.Expr {
	names := map[string]string{}
	var walk func(t, r *orc.Schema, tp, rp string)
	walk = func(t, r *orc.Schema, tp, rp string) {
		if t.Kind != orc.Struct || r.Kind != orc.Struct || len(t.Children) != len(r.Children) {
			return
		}
		for i := range t.Children {
			a, b := tp+sarg.Col(t.FieldNames[i]), rp+sarg.Col(r.FieldNames[i])
			names[a] = b
			walk(t.Children[i], r.Children[i], a+".", b+".")
		}
	}
	walk(tableSchema, rs, "", "")
	return renameExpr(e, names)
}

func renameExpr(e sarg.Expr, names map[string]string) sarg.Expr {
	out := e
	if e.Leaf != nil {
		l := *e.Leaf
		if n, ok := names[l.Column]; ok {
			l.Column = n
		}
		if n, ok := names[l.Other]; ok && l.Other != "" {
			l.Other = n
		}
		out.Leaf = &l
	}
	if len(e.Children) > 0 {
		out.Children = make([]sarg.Expr, len(e.Children))
		for i, c := range e.Children {
			out.Children[i] = renameExpr(c, names)
		}
	}
	return out
}
