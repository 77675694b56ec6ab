package dataset

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// ScanOption configures a Scan.
type ScanOption func(*scanConfig) error

type scanConfig struct {
	columns  []string
	allCols  bool
	where    *sarg.Expr
	filter   bool
	batch    int
	limit    int64
	parallel int
	ahead    int
	fileOpts []reader.ScanOption
	splits   []Split
	explain  bool
	noIndex  bool
	ctx      context.Context // WithContext, or nil
	// lenientFields: Rows leaves a field whose column the table lacks at
	// its zero value (WithLenientFields).
	lenientFields bool
}

// WithLenientFields lets Rows and ReadAll leave a field of the row type
// whose column the table lacks at its zero value in every row. By default
// such a field is an error naming it and the column: a tag that misspells
// a column would otherwise read as a column of zero values. Scan ignores
// it.
func WithLenientFields() ScanOption {
	return func(c *scanConfig) error {
		c.lenientFields = true
		return nil
	}
}

// WithColumns selects columns by name (data or partition columns; nested
// fields with dots). The batches hold them in the order given and nothing
// else: a predicate's other columns are read to filter, not returned.
// Default: every column.
func WithColumns(names ...string) ScanOption {
	return func(c *scanConfig) error {
		c.columns, c.allCols = append([]string(nil), names...), false
		return nil
	}
}

// WithSearchArgument sets the predicate, on the dataset's schema (partition
// columns included): partition leaves rule files out before they are
// opened, the others prune each file as reader.WithSearchArgument does.
func WithSearchArgument(e sarg.Expr) ScanOption {
	return func(c *scanConfig) error {
		c.where = &e
		return nil
	}
}

// WithExactFilter(true), the default, returns only the rows for which the
// predicate is TRUE; WithExactFilter(false) is WithWholeRowGroups.
func WithExactFilter(on bool) ScanOption {
	return func(c *scanConfig) error {
		c.filter = on
		return nil
	}
}

// WithWholeRowGroups returns every row of the row groups (and of the
// partitions' files) that survive pruning, unfiltered: a superset of the
// matching rows, for engines that evaluate the predicate themselves.
func WithWholeRowGroups() ScanOption {
	return func(c *scanConfig) error {
		c.filter = false
		return nil
	}
}

// WithBatchSize sets the most rows a batch holds. Default 1024; 1 to
// reader.MaxBatchSize, the bound of every file's scan.
func WithBatchSize(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > reader.MaxBatchSize {
			return fmt.Errorf("dataset: WithBatchSize(%d): must be 1..%d", n, reader.MaxBatchSize)
		}
		c.batch = n
		return nil
	}
}

// WithLimit stops the scan after n rows. Default: no limit (-1).
func WithLimit(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < -1 {
			return fmt.Errorf("dataset: WithLimit(%d): must be -1 (no limit) or more", n)
		}
		c.limit = n
		return nil
	}
}

// WithParallelism scans up to n files (or splits) at once, each on its own
// goroutine, returning their rows in order. Besides these n files, up to
// WithOpenAhead's n-1 more are open ahead of them. Default 1 (a file
// decodes ahead of the caller by a batch).
func WithParallelism(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > 1024 {
			return fmt.Errorf("dataset: WithParallelism(%d): must be 1..1024", n)
		}
		c.parallel = n
		return nil
	}
}

// WithOpenAhead opens files before their scans start, so that a scan of
// many files on an object store does not pay one round trip (10-50 ms)
// after another: the n-1 files after those being scanned are opened (their
// tails read) at once, each on a goroutine of its own. A file that its
// footer statistics rule out is closed as soon as its tail is read, and
// the scan passes it without waiting; files that partition values rule out
// are never opened. Rows, errors and statistics come out as without it, in
// file order: a file that fails to open fails the scan after all the rows
// of the files before it. At most p+n-1 files are open at once, p being
// WithParallelism's n. 0 and 1 open each file only when its scan starts.
// Default 8; 0 to 1024.
func WithOpenAhead(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 0 || n > 1024 {
			return fmt.Errorf("dataset: WithOpenAhead(%d): must be 0..1024", n)
		}
		c.ahead = n
		return nil
	}
}

// WithFileOptions adds options to every file's scan (reader.WithReadWindow,
// WithCoalesceGap, WithMaxScanMemory, WithParallelism within a file...).
// Columns, predicate, filter and batch size come from the dataset's
// options.
func WithFileOptions(opts ...reader.ScanOption) ScanOption {
	return func(c *scanConfig) error {
		c.fileOpts = append(c.fileOpts, opts...)
		return nil
	}
}

// WithSplits restricts the scan to the given splits (from Splits, perhaps
// read back from JSON), in their order.
func WithSplits(splits ...Split) ScanOption {
	return func(c *scanConfig) error {
		c.splits = append([]Split(nil), splits...)
		if c.splits == nil {
			c.splits = []Split{}
		}
		return nil
	}
}

// Stats counts a dataset scan's work: the files' reader.ScanStats summed
// (ReadWait left at 0), with FilesConsidered counting the files (or splits)
// of the scan and FilesSkipped those ruled out by partition values or
// footer statistics.
// A file counts once its scan ends, however it ends: all its rows
// returned, an error, or the scan stopped in it (WithLimit, Close), with
// the work done until then. A file whose footer statistics rule it out
// counts when its tail has been read, even ahead of a scan that stops
// before reaching it; a file opened ahead that the scan never reaches is
// closed unread and counts nowhere (its tail read included).
type Stats struct {
	reader.ScanStats
	FilesPrunedByPartition int // of FilesSkipped: ruled out by partition values, never opened
	// FilesOpened counts the files (or splits) whose tails were read and
	// whose scan ended, those their footer statistics ruled out included.
	FilesOpened int
	// IndexUsed reports whether the scan looked files up in the index
	// (WithIndex); FilesPrunedByIndex counts, of FilesSkipped, the files it
	// ruled out without opening them, and FilesNotInIndex the files it
	// could not vouch for (missing from it, changed since, or listed
	// without a version), which were opened.
	IndexUsed          bool
	FilesPrunedByIndex int
	FilesNotInIndex    int
	// IndexWarning says why an index was ignored (unreadable, of another
	// layout), in which case the scan prunes by footers alone; or which
	// of its entries were ignored as impossible (statistics no footer
	// could hold, such as a minimum above the maximum), whose files were
	// opened. Empty when there is nothing to say.
	IndexWarning string
}

// String formats the statistics.
func (s Stats) String() string {
	out := fmt.Sprintf("%s\nfiles: %d opened, %d pruned by partition values", s.ScanStats, s.FilesOpened, s.FilesPrunedByPartition)
	if s.IndexUsed {
		out += fmt.Sprintf(", %d by the index (%d not in it or changed)", s.FilesPrunedByIndex, s.FilesNotInIndex)
	}
	if s.IndexWarning != "" {
		out += "\n" + s.IndexWarning
	}
	return out
}

// unit is one file, or one split of a file, to scan.
type unit struct {
	file     int
	rangeOn  bool
	off, len int64
	where    *sarg.Expr // the predicate with the file's partition values put in, or nil
}

// Scanner returns the rows of a dataset scan, batch by batch. It belongs to
// one goroutine, except Close, which may come from any.
type Scanner struct {
	d        *Dataset
	cfg      scanConfig
	schema   *orc.Schema // the batches' schema
	dataCols []string    // per-file WithColumns (read schema names)
	dataOut  *orc.Schema // per-file batch schema
	partOut  []int       // batch columns after the data: partition column indexes
	// inner is the jobs' batches' schema: the data columns in schema
	// order, then the partition columns; schema orders them as asked, and
	// perm[k] is the inner column of the batches' column k (nil: the same
	// order). swap is Next's scratch for permuting.
	inner *orc.Schema
	perm  []int
	swap  []orc.Vector
	units []unit

	statsMu  sync.Mutex // guards stats: jobs add their files' as they end
	stats    Stats
	returned int64
	err      error
	explain  strings.Builder

	order   chan *job // jobs, in unit order
	cur     *job
	stop    chan struct{}
	closed  atomic.Bool
	once    sync.Once
	wg      sync.WaitGroup
	ctxStop atomic.Pointer[func() bool] // unregisters WithContext's Close
}

// job scans one unit on its own goroutine.
type job struct {
	u    unit
	open *opening // the unit's file opened ahead, or nil: the job opens it
	out  chan result
	free chan *jobBatch
}

type jobBatch struct {
	full *orc.Batch // the dataset's schema
	view *orc.Batch // the file scan's columns, sharing full's
}

type result struct {
	jb      *jobBatch
	err     error
	stats   *reader.ScanStats // set on the job's last result (already added to the scan's)
	explain string
}

// Scan starts a scan of the dataset. Close it when done.
func (d *Dataset) Scan(opts ...ScanOption) (*Scanner, error) {
	cfg := scanConfig{allCols: true, filter: true, batch: 1024, limit: -1, parallel: 1, ahead: defaultOpenAhead}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.where != nil {
		// Column names as the table spells them (exact, else the one
		// matching ignoring case), for partitions, files and the index.
		e := sarg.ResolveNames(*cfg.where, d.schema)
		cfg.where = &e
	}
	s := &Scanner{d: d, cfg: cfg, stop: make(chan struct{})}
	if err := s.project(); err != nil {
		return nil, err
	}
	if err := s.plan(); err != nil {
		return nil, err
	}
	s.order = make(chan *job, cfg.parallel)
	s.wg.Add(1)
	go s.dispatch()
	if cfg.ctx != nil {
		stop := context.AfterFunc(cfg.ctx, func() { s.Close() })
		s.ctxStop.Store(&stop)
	}
	return s, nil
}

// isPartition reports whether a column path names a partition column, and
// which.
func (s *Scanner) isPartition(p string) (int, bool) {
	if s.d.parts == nil {
		return -1, false
	}
	for i, n := range s.d.parts.FieldNames {
		if p == n || p == sarg.Col(n) {
			return i, true
		}
	}
	return -1, false
}

// project splits the selected columns into data and partition columns and
// builds the batches' schema.
func (s *Scanner) project() error {
	d := s.d
	wantPart := make([]bool, 0)
	if d.parts != nil {
		wantPart = make([]bool, len(d.parts.Children))
	}
	var names []string
	var asked []string // top-level columns in the order asked
	if s.cfg.allCols {
		for _, n := range d.read.FieldNames {
			names = append(names, sarg.Col(n))
		}
		for i := range wantPart {
			wantPart[i] = true
		}
	} else {
		for _, n := range s.cfg.columns {
			if i, ok := s.isPartition(n); ok {
				wantPart[i] = true
				if !slices.Contains(asked, d.parts.FieldNames[i]) {
					asked = append(asked, d.parts.FieldNames[i])
				}
				continue
			}
			// Names match as a predicate's do: exactly, else the one
			// column equal ignoring case.
			exact, node, err := d.read.Resolve(n)
			if err != nil && d.parts != nil {
				if i := slices.IndexFunc(d.parts.FieldNames, func(p string) bool { return strings.EqualFold(p, n) }); i >= 0 {
					wantPart[i] = true
					if !slices.Contains(asked, d.parts.FieldNames[i]) {
						asked = append(asked, d.parts.FieldNames[i])
					}
					continue
				}
			}
			if err != nil {
				if strings.Contains(err.Error(), "several") {
					return fmt.Errorf("dataset: %s", strings.TrimPrefix(err.Error(), "orc: "))
				}
				return fmt.Errorf("dataset: no column %q in %s", n, d.schema)
			}
			n = exact
			if top := topField(d.read, node.ID()); !slices.Contains(asked, top) {
				asked = append(asked, top)
			}
			names = append(names, n)
		}
	}
	if s.cfg.where != nil {
		// The predicate reads its columns from each file without adding
		// them to the batches (reader.WithColumns decides those).
		if _, err := sarg.Bind(*s.cfg.where, d.schema); err != nil {
			return err
		}
	}
	// The files' scans name the columns in schema order, so their batches
	// hold them in that order (reader.WithColumns gives them in the order
	// named); the scan's own order comes from perm below.
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Compare(d.read.Find(a).ID(), d.read.Find(b).ID())
	})
	s.dataCols = names
	// The per-file batches' schema: the read schema cut to names (fields
	// in schema order, subtrees whole).
	sel := make([]bool, d.read.MaxID()+1)
	sel[0] = true
	for _, n := range names {
		node := d.read.Find(n)
		for id := node.ID(); id <= node.MaxID(); id++ {
			sel[id] = true
		}
		markAncestors(d.read, node.ID(), sel)
	}
	s.dataOut = cut(d.read, sel)
	s.dataOut.Assign()
	out := s.dataOut.Copy()
	for i, want := range wantPart {
		if want {
			s.partOut = append(s.partOut, i)
			out.Children = append(out.Children, d.parts.Children[i].Copy())
			out.FieldNames = append(out.FieldNames, d.parts.FieldNames[i])
		}
	}
	out.Assign()
	s.inner, s.schema = out, out
	if !s.cfg.allCols && !slices.Equal(asked, out.FieldNames) {
		// The columns in the order asked.
		ordered := &orc.Schema{Kind: orc.Struct}
		for _, name := range asked {
			i := slices.Index(out.FieldNames, name)
			s.perm = append(s.perm, i)
			ordered.Children = append(ordered.Children, out.Children[i].Copy())
			ordered.FieldNames = append(ordered.FieldNames, name)
		}
		ordered.Assign()
		s.schema = ordered
	}
	return nil
}

// topField returns the name of the top-level column of struct root that
// holds column id.
func topField(root *orc.Schema, id int) string {
	for i, c := range root.Children {
		if id >= c.ID() && id <= c.MaxID() {
			return root.FieldNames[i]
		}
	}
	return ""
}

// markAncestors marks the struct columns above column id.
func markAncestors(root *orc.Schema, id int, sel []bool) {
	line := root.Lineage(id)
	for _, n := range line[:max(len(line)-1, 0)] {
		sel[n.ID()] = true
	}
}

// cut returns the schema with the struct fields sel selects.
func cut(n *orc.Schema, sel []bool) *orc.Schema {
	p := &orc.Schema{Kind: n.Kind, Precision: n.Precision, Scale: n.Scale, MaxLength: n.MaxLength, Attributes: n.Attributes}
	for i, c := range n.Children {
		if n.Kind == orc.Struct && !sel[c.ID()] {
			continue
		}
		p.Children = append(p.Children, cut(c, sel))
		if n.Kind == orc.Struct {
			p.FieldNames = append(p.FieldNames, n.FieldNames[i])
		}
	}
	return p
}

// plan lists the units of the scan and rules out those whose partition
// values make the predicate FALSE or NULL.
func (s *Scanner) plan() error {
	d := s.d
	var units []unit
	if s.cfg.splits != nil {
		byName := map[string]int{}
		for i, f := range d.files {
			byName[f.Name] = i
		}
		for _, sp := range s.cfg.splits {
			i, ok := byName[sp.File]
			if !ok {
				return fmt.Errorf("dataset: split of %q: no such file in the dataset", sp.File)
			}
			if sp.Offset < 0 || sp.Length < 0 {
				return fmt.Errorf("dataset: split of %q: offset %d, length %d", sp.File, sp.Offset, sp.Length)
			}
			units = append(units, unit{file: i, rangeOn: true, off: sp.Offset, len: sp.Length})
		}
	} else {
		units = make([]unit, len(d.files))
		for i := range units {
			units[i] = unit{file: i}
		}
	}
	s.units = make([]unit, 0, len(units))
	// Without partition columns every file's predicate is the scan's:
	// one copy serves them all, where each unit held one of its own.
	var shared *sarg.Expr
	for _, u := range units {
		s.stats.FilesConsidered++
		if s.cfg.where != nil && s.d.parts == nil && shared != nil {
			u.where = shared
		} else if s.cfg.where != nil {
			e, err := s.withPartitionValues(*s.cfg.where, d.values[u.file])
			if err != nil {
				return err
			}
			switch e.Op {
			case sarg.OpFalse, sarg.OpNull:
				s.stats.FilesSkipped++
				s.stats.FilesPrunedByPartition++
				if s.cfg.explain {
					fmt.Fprintf(&s.explain, "%s: ruled out by its partition values\n", d.files[u.file].Name)
				}
				continue
			case sarg.OpTrue:
			default:
				u.where = &e
				if s.d.parts == nil {
					shared = u.where
				}
			}
		}
		s.units = append(s.units, u)
	}
	s.indexLookup()
	return nil
}

// withPartitionValues returns the predicate with every leaf on a partition
// column replaced by its value for a file's partition values (the leaf is
// the same for every row of the file), folded.
func (s *Scanner) withPartitionValues(e sarg.Expr, vals []any) (sarg.Expr, error) {
	if s.d.parts == nil {
		return e, nil
	}
	var walk func(e sarg.Expr) (sarg.Expr, error)
	walk = func(e sarg.Expr) (sarg.Expr, error) {
		switch e.Op {
		case sarg.OpAnd, sarg.OpOr, sarg.OpNot:
			kids := make([]sarg.Expr, len(e.Children))
			for i, c := range e.Children {
				k, err := walk(c)
				if err != nil {
					return e, err
				}
				kids[i] = k
			}
			switch e.Op {
			case sarg.OpAnd:
				return sarg.And(kids...), nil
			case sarg.OpOr:
				return sarg.Or(kids...), nil
			}
			return sarg.Not(kids[0]), nil
		case sarg.OpLeaf:
			i, ok := s.isPartition(e.Leaf.Column)
			j, ok2 := -1, false
			if e.Leaf.Other != "" {
				j, ok2 = s.isPartition(e.Leaf.Other)
				if ok != ok2 {
					return e, fmt.Errorf("dataset: %s compares a partition column with a data column, which is not supported", e.Leaf)
				}
			}
			if !ok {
				return e, nil
			}
			b, err := sarg.Bind(e, s.d.parts)
			if err != nil {
				return e, err
			}
			row := map[int]any{}
			if vals[i] != nil {
				row[s.d.parts.Children[i].ID()] = vals[i]
			}
			if ok2 && vals[j] != nil {
				row[s.d.parts.Children[j].ID()] = vals[j]
			}
			match, known := b.EvalRow(row)
			switch {
			case !known:
				return sarg.NullExpr(), nil
			case match:
				return sarg.True(), nil
			}
			return sarg.False(), nil
		}
		return e, nil
	}
	t, err := walk(e)
	if err != nil {
		return e, err
	}
	return sarg.Normalize(t), nil
}

// dispatch starts the jobs in unit order, at most cfg.parallel at once,
// and the opens of the cfg.ahead-1 units after the next job's (ahead.go).
func (s *Scanner) dispatch() {
	defer s.wg.Done()
	defer close(s.order)
	sem := make(chan struct{}, s.cfg.parallel)
	ahead := max(s.cfg.ahead-1, 0)
	var queue []*opening // the openings of units[i:next], not handed to a job
	defer func() {
		for _, o := range queue {
			o.release()
		}
	}()
	next := 0
	for i, u := range s.units {
		for next = max(next, i); next < len(s.units) && next < i+ahead; next++ {
			queue = append(queue, s.openAhead(s.units[next]))
		}
		select {
		case sem <- struct{}{}:
		case <-s.stop:
			return
		}
		j := &job{u: u, out: make(chan result, 2), free: make(chan *jobBatch, 2)}
		if len(queue) > 0 {
			j.open = queue[0]
		}
		select {
		case s.order <- j:
		case <-s.stop:
			<-sem
			return
		}
		if j.open != nil {
			queue = queue[1:]
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-sem }()
			s.run(j)
		}()
	}
}

// run scans one unit, sending its batches and, last, its statistics.
func (s *Scanner) run(j *job) {
	defer close(j.out)
	send := func(r result) bool {
		select {
		case j.out <- r:
			return true
		case <-s.stop:
			return false
		}
	}
	fail := func(err error) { send(result{err: err}) }
	var of *openFile
	if o := j.open; o != nil {
		<-o.done
		if o.outcome != nil {
			send(*o.outcome) // its statistics were added when it was opened
			return
		}
		of = o.of
	} else {
		var err error
		if of, err = s.d.open(j.u.file); err != nil {
			fail(err)
			return
		}
	}
	defer of.close()
	name := s.d.files[j.u.file].Name
	br, err := of.r.NewBatchReader(s.fileScanOptions(j.u)...)
	if err != nil {
		fail(fmt.Errorf("dataset: %s: %w", name, err))
		return
	}
	defer br.Close()
	// The file's work counts however its scan ends: all rows returned, an
	// error, or the scan stopped (WithLimit, Close).
	defer func() { s.add(br.Stats()) }()
	if err := s.checkSchema(name, br); err != nil {
		fail(err)
		return
	}
	// The job's two batches, made here rather than when the job starts, so
	// that a file that fails or that its footer rules out costs none.
	for range 2 {
		full := orc.NewBatch(s.inner, s.cfg.batch)
		j.free <- &jobBatch{full: full, view: &orc.Batch{Schema: s.dataOut, Cols: full.Cols[:len(s.dataOut.Children)]}}
	}
	vals := s.d.values[j.u.file]
	for {
		var jb *jobBatch
		select {
		case jb = <-j.free:
		case <-s.stop:
			return
		}
		jb.view.Cols = jb.full.Cols[:len(s.dataOut.Children)]
		err := br.Next(jb.view)
		if err == io.EOF {
			st := br.Stats()
			send(result{stats: &st, explain: br.Explain()})
			return
		}
		if err != nil {
			var ce *orc.CorruptError
			if errors.As(err, &ce) && ce.Column > 0 && ce.ColumnPath == "" {
				ce.ColumnPath = of.r.Schema().Path(ce.Column)
			}
			fail(fmt.Errorf("dataset: %s: %w", name, err))
			return
		}
		jb.view.Compact() // a file option's selection (reader.WithSelection)
		n := jb.view.NumRows
		jb.full.NumRows = n
		for k, pi := range s.partOut {
			fillConstant(jb.full.Cols[len(s.dataOut.Children)+k], s.d.parts.Children[pi], vals[pi], n)
		}
		if !send(result{jb: jb}) {
			return
		}
	}
}

// fileScanOptions returns the options of a unit's file scan.
func (s *Scanner) fileScanOptions(u unit) []reader.ScanOption {
	opts := append([]reader.ScanOption(nil), s.cfg.fileOpts...)
	opts = append(opts, reader.WithReadSchema(s.d.read), reader.WithPositionalMatch(s.d.byPosition),
		reader.WithColumns(s.dataCols...), reader.WithBatchSize(s.cfg.batch))
	if s.cfg.ctx != nil {
		opts = append(opts, reader.WithContext(s.cfg.ctx))
	}
	if u.where != nil {
		opts = append(opts, reader.WithSearchArgument(*u.where), reader.WithExactFilter(s.cfg.filter))
	}
	if u.rangeOn {
		opts = append(opts, reader.WithRange(u.off, u.len))
	}
	if s.cfg.explain {
		opts = append(opts, reader.WithExplain())
	}
	return opts
}

// checkSchema checks that a file scan's batches have the columns the
// scan's batches expect.
func (s *Scanner) checkSchema(name string, br *reader.BatchReader) error {
	if got := br.Schema().String(); got != s.dataOut.String() {
		return fmt.Errorf("dataset: %s: the scan's schema is %s, not %s", name, got, s.dataOut)
	}
	return nil
}

// Schema returns the batches' schema: with WithColumns the columns asked,
// in the order asked (a nested field's top-level column where it is first
// named) and no others; else the data columns in schema order, then the
// partition columns.
func (s *Scanner) Schema() *orc.Schema { return s.schema }

// NewBatch returns a batch for Next.
func (s *Scanner) NewBatch() *orc.Batch { return orc.NewBatch(s.schema, s.cfg.batch) }

// Next fills b with the next rows; io.EOF when none remain. The batch's
// previous vectors go back to the scan for reuse.
func (s *Scanner) Next(b *orc.Batch) error {
	if s.closed.Load() && s.err == nil {
		s.err = s.endErr()
	}
	if s.err != nil {
		return s.err
	}
	if b == nil || len(b.Cols) != len(s.schema.Children) {
		return errors.New("dataset: Next: the batch does not have the scan's schema (make batches with Scanner.NewBatch)")
	}
	for {
		if s.cfg.limit >= 0 && s.returned >= s.cfg.limit {
			s.finish(io.EOF)
			return io.EOF
		}
		if s.cur == nil {
			j, ok := <-s.order
			if !ok {
				s.finish(s.endErr())
				return s.err
			}
			s.cur = j
		}
		r, ok := <-s.cur.out
		if !ok { // the job stopped (Close)
			s.finish(s.endErr())
			return s.err
		}
		if r.err != nil {
			if r.err == io.EOF { // closed while opening
				r.err = s.endErr()
			}
			s.finish(r.err)
			return r.err
		}
		if r.stats != nil {
			if r.explain != "" {
				fmt.Fprintf(&s.explain, "%s:\n%s", s.d.files[s.cur.u.file].Name, r.explain)
			}
			s.cur = nil
			continue
		}
		if s.perm == nil {
			b.Cols, r.jb.full.Cols = r.jb.full.Cols, b.Cols
		} else {
			// The vectors trade places column by column, in the order asked.
			s.swap = append(s.swap[:0], b.Cols...)
			for k, p := range s.perm {
				b.Cols[k] = r.jb.full.Cols[p]
				r.jb.full.Cols[p] = s.swap[k]
			}
		}
		b.NumRows = r.jb.full.NumRows
		b.Schema = s.schema
		s.cur.free <- r.jb
		if s.cfg.limit >= 0 && s.returned+int64(b.NumRows) > s.cfg.limit {
			b.Truncate(int(s.cfg.limit - s.returned))
		}
		s.returned += int64(b.NumRows)
		return nil
	}
}

// add adds the statistics of a file whose scan has ended, but for two
// fields: FilesConsidered, which the scanner counts itself (the files it
// never opens included), and ReadWait, a time that files scanned side by
// side spend at once, whose sum would measure nothing (Stats stay the same
// whatever the parallelism and open-ahead).
func (s *Scanner) add(st reader.ScanStats) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.stats.FilesOpened++
	st.FilesConsidered, st.ReadWait = 0, 0
	s.stats.ScanStats.Add(st)
}

// Stats returns the work of the files whose scans have ended so far. It is
// complete once the scan has ended, whatever ended it: Next returning
// io.EOF (WithLimit included) or an error, or Close having returned.
// RowsReturned counts the rows the files returned, before WithLimit.
func (s *Scanner) Stats() Stats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.stats
}

// Explain returns, with WithExplain, the partition decisions and each
// file's pruning decisions.
func (s *Scanner) Explain() string { return s.explain.String() }

// endErr is the error of a scan that ended: the context's when
// WithContext's is done, else io.EOF.
func (s *Scanner) endErr() error {
	if s.cfg.ctx != nil && s.cfg.ctx.Err() != nil {
		return s.cfg.ctx.Err()
	}
	return io.EOF
}

// finish ends the scan with err (io.EOF when done).
func (s *Scanner) finish(err error) {
	s.err = err
	s.Close()
}

// Close stops the scan and closes its files, those opened ahead included;
// it waits for the opens in flight. It is safe from any goroutine and more
// than once.
func (s *Scanner) Close() error {
	s.closed.Store(true)
	s.once.Do(func() {
		if stop := s.ctxStop.Load(); stop != nil {
			(*stop)()
		}
		close(s.stop)
		// Drain, so that no job blocks on a full channel.
		go func() {
			for j := range s.order {
				for range j.out {
				}
			}
		}()
		s.wg.Wait()
	})
	return nil
}

// WithExplain records the pruning decisions (Scanner.Explain).
func WithExplain() ScanOption {
	return func(c *scanConfig) error {
		c.explain = true
		return nil
	}
}

// fillConstant makes v n rows of one partition value (nil: NULL).
func fillConstant(v orc.Vector, t *orc.Schema, val any, n int) {
	v.Reset()
	null := val == nil
	nulls := func(ns *orc.Nulls) {
		if null {
			for range n {
				ns.Nulls = append(ns.Nulls, true)
			}
		}
	}
	switch x := v.(type) {
	case *orc.LongVector:
		var iv int64
		switch w := val.(type) {
		case int64:
			iv = w
		case bool:
			if w {
				iv = 1
			}
		}
		for range n {
			x.Values = append(x.Values, iv)
		}
		nulls(&x.Nulls)
	case *orc.DoubleVector:
		f, _ := val.(float64)
		for range n {
			x.Values = append(x.Values, f)
		}
		nulls(&x.Nulls)
	case *orc.DecimalVector:
		x.Scale = t.Scale
		var dv orc.Int128
		if !null {
			dv = val.(decimalValue).Unscaled
		}
		for range n {
			x.Values = append(x.Values, dv)
		}
		nulls(&x.Nulls)
	case *orc.BytesVector:
		str, _ := val.(string)
		for range n {
			if null {
				x.AppendNull()
			} else {
				x.AppendString(str)
			}
		}
	case *orc.TimestampVector:
		var tv sarg.TimestampValue
		if !null {
			tv = val.(sarg.TimestampValue)
		}
		for range n {
			x.Seconds = append(x.Seconds, tv.Sec)
			x.Nanos = append(x.Nanos, tv.Nanos)
		}
		nulls(&x.Nulls)
	}
}
