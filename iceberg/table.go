package iceberg

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// DefaultTargetFileSize is the size at which a TableWriter starts a new
// data file, Iceberg's write.target-file-size-bytes default (512 MiB).
const DefaultTargetFileSize = 512 << 20

// DefaultMaxOpenFiles is how many data files a TableWriter keeps open at
// once unless SetMaxOpenFiles says otherwise. Each open file holds an orcgo
// writer and up to a stripe of encoded data, so rows spread over many
// partitions would otherwise cost memory in proportion to the partitions
// (10,000 partitions written at once took 820 MB).
const DefaultMaxOpenFiles = 100

// TableWriter writes batches of a table's ORC schema (ToORC of its current
// schema) into ORC data files under the table's location: one open file per
// partition of the table's spec, each rolled over once its size reaches
// the target (so a file exceeds it by at most one stripe). Close returns
// the data files, with metrics and partition values, for Commit. It does
// not commit: files from several writers can go into one commit.
// A TableWriter is single-goroutine.
type TableWriter struct {
	tbl    *table.Table
	fs     icebergio.WriteFileIO
	loc    table.LocationProvider
	schema *ice.Schema
	orcSch *orc.Schema
	spec   ice.PartitionSpec
	part   *partitioner
	cfg    *MetricsConfig
	target int64
	opts   []writer.Option
	open   map[string]*openFile
	lru    *list.List // of *openFile, the one written least recently at the back
	max    int        // open files at most
	done   []ice.DataFile
	err    error
	paths  []string // every data file created, for Abort
}

type openFile struct {
	path   string
	f      icebergio.FileWriter
	w      *Writer
	values map[int]any
	key    string        // its partition's key in TableWriter.open
	elem   *list.Element // its place in TableWriter.lru
}

// NewTableWriter starts writing to tbl. target is the file size to roll
// at (0: DefaultTargetFileSize); opts are orcgo writer options.
func NewTableWriter(ctx context.Context, tbl *table.Table, target int64, opts ...writer.Option) (*TableWriter, error) {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	wfs, ok := fs.(icebergio.WriteFileIO)
	if !ok {
		return nil, errors.New("iceberg: the table's file IO cannot write files")
	}
	loc, err := tbl.LocationProvider()
	if err != nil {
		return nil, err
	}
	s := tbl.Schema()
	o, err := ToORC(s)
	if err != nil {
		return nil, err
	}
	part, err := newPartitioner(s, tbl.Spec())
	if err != nil {
		return nil, err
	}
	cfg, err := NewMetricsConfig(s, tbl.Properties())
	if err != nil {
		return nil, err
	}
	if target <= 0 {
		target = DefaultTargetFileSize
	}
	return &TableWriter{tbl: tbl, fs: wfs, loc: loc, schema: s, orcSch: o, spec: tbl.Spec(), part: part,
		cfg: cfg, target: target, opts: opts, open: map[string]*openFile{}, lru: list.New(), max: DefaultMaxOpenFiles}, nil
}

// SetMaxOpenFiles sets how many data files tw keeps open at once (one per
// partition being written; DefaultMaxOpenFiles unless set). When a row
// needs a file for one more partition, the file written least recently is
// finished first: memory stays bounded however many partitions the rows
// fall into, at the cost of more, smaller files when rows are not clustered
// by partition. n must be at least 1; it applies from the next Write.
func (tw *TableWriter) SetMaxOpenFiles(n int) error {
	if n < 1 {
		return fmt.Errorf("iceberg: at most %d open files: need at least 1", n)
	}
	tw.max = n
	return nil
}

// Schema returns the ORC schema that batches given to Write must have.
func (tw *TableWriter) Schema() *orc.Schema { return tw.orcSch }

// Write adds the rows of b. After an error every call returns it.
func (tw *TableWriter) Write(b *orc.Batch) error {
	if tw.err != nil {
		return tw.err
	}
	if b == nil || len(b.Cols) != len(tw.orcSch.Children) {
		return errors.New("iceberg: batch does not have the table's columns")
	}
	if err := checkRows(b); err != nil {
		return err
	}
	if err := checkRequired(tw.schema.Fields(), b.Cols, b.NumRows, nil, ""); err != nil {
		return err
	}
	tw.err = tw.write(b)
	return tw.err
}

func (tw *TableWriter) write(b *orc.Batch) error {
	if len(tw.part.fields) == 0 {
		return tw.writeTo("", nil, b)
	}
	groups := map[string]*orc.Batch{}
	values := map[string]map[int]any{}
	var order []string
	for i := 0; i < b.NumRows; i++ {
		vals, key, err := tw.part.values(b, i)
		if err != nil {
			return err
		}
		g := groups[key]
		if g == nil {
			g = orc.NewBatch(tw.orcSch, 64)
			groups[key], values[key] = g, vals
			order = append(order, key)
		}
		for c, v := range b.Cols {
			if err := appendRow(g.Cols[c], v, i); err != nil {
				return err
			}
		}
		g.NumRows++
	}
	for _, key := range order {
		if err := tw.writeTo(key, values[key], groups[key]); err != nil {
			return err
		}
	}
	return nil
}

// writeTo writes b to the open file of partition key, starting one if
// needed and closing it once it reaches the target size.
func (tw *TableWriter) writeTo(key string, values map[int]any, b *orc.Batch) error {
	of := tw.open[key]
	if of == nil {
		if err := tw.makeRoom(); err != nil {
			return err
		}
		path := tw.loc.NewDataLocation(uuid.NewString() + ".orc")
		f, err := tw.fs.Create(path)
		if err != nil {
			return fmt.Errorf("iceberg: creating data file: %w", err)
		}
		w, err := NewWriter(f, tw.schema, tw.cfg, tw.opts...)
		if err != nil {
			f.Close()
			return err
		}
		tw.paths = append(tw.paths, path)
		of = &openFile{path: path, f: f, w: w, values: values, key: key}
		tw.open[key] = of
		of.elem = tw.lru.PushFront(of)
	}
	tw.lru.MoveToFront(of.elem)
	if err := of.w.Write(b); err != nil {
		return err
	}
	if of.w.BytesWritten() >= tw.target {
		return tw.finish(of)
	}
	return nil
}

// checkRequired returns an error naming the first required field that
// holds a null in rows 0..n-1 of vecs (the fields' vectors), in a row
// where none of the structs holding it (outer, from the top) is null. A
// required field inside a list or map is not checked.
func checkRequired(fields []ice.NestedField, vecs []orc.Vector, n int, outer []orc.Vector, prefix string) error {
	for i, f := range fields {
		if i >= len(vecs) {
			break
		}
		v := vecs[i]
		if f.Required {
			for r := 0; r < n; r++ {
				if v.IsNull(r) && !anyNull(outer, r) {
					return fmt.Errorf("iceberg: required column %s%s is null in row %d of the batch", prefix, f.Name, r+1)
				}
			}
		}
		st, ok1 := f.Type.(*ice.StructType)
		sv, ok2 := v.(*orc.StructVector)
		if ok1 && ok2 {
			if err := checkRequired(st.FieldList, sv.Fields, n, append(outer[:len(outer):len(outer)], sv), prefix+f.Name+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// anyNull reports whether row r is null in any of vs.
func anyNull(vs []orc.Vector, r int) bool {
	for _, v := range vs {
		if v.IsNull(r) {
			return true
		}
	}
	return false
}

// makeRoom finishes the files written least recently until one more
// can be opened.
func (tw *TableWriter) makeRoom() error {
	for len(tw.open) >= tw.max {
		if err := tw.finish(tw.lru.Back().Value.(*openFile)); err != nil {
			return err
		}
	}
	return nil
}

// finish closes of, no longer open, and adds its data file to the done.
func (tw *TableWriter) finish(of *openFile) error {
	delete(tw.open, of.key)
	tw.lru.Remove(of.elem)
	m, err := of.w.Close()
	if cerr := of.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("iceberg: data file %s: %w", of.path, err)
	}
	df, err := DataFile(tw.spec, of.path, m, of.values)
	if err != nil {
		return err
	}
	tw.done = append(tw.done, df)
	return nil
}

// Close finishes every open file and returns all the data files written.
func (tw *TableWriter) Close() ([]ice.DataFile, error) {
	for tw.lru.Len() > 0 {
		if err := tw.finish(tw.lru.Back().Value.(*openFile)); err != nil && tw.err == nil {
			tw.err = err
		}
	}
	if tw.err != nil {
		return nil, tw.err
	}
	return tw.done, nil
}

// Abort ends tw without finishing its files and removes every data file
// it created, finished or not: for a write that failed before its commit,
// so that it leaves no files behind. It returns the first error removing
// them; after it, tw is done.
func (tw *TableWriter) Abort() error {
	for e := tw.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*openFile).f.Close()
	}
	tw.lru.Init()
	clear(tw.open)
	tw.done = nil
	if tw.err == nil {
		tw.err = errors.New("iceberg: the table writer was aborted")
	}
	var first error
	for _, p := range tw.paths {
		if err := tw.fs.Remove(p); err != nil && first == nil {
			first = fmt.Errorf("iceberg: removing data file %s: %w", p, err)
		}
	}
	tw.paths = nil
	return first
}

// DataFile returns the manifest entry of an ORC data file at path with
// metrics m, in partition values (by partition field id) of spec.
func DataFile(spec ice.PartitionSpec, path string, m *Metrics, values map[int]any) (ice.DataFile, error) {
	b, err := ice.NewDataFileBuilder(spec, ice.EntryContentData, path, ice.OrcFile, values, nil, nil,
		m.RecordCount, m.FileSize)
	if err != nil {
		return nil, fmt.Errorf("iceberg: data file %s: %w", path, err)
	}
	b.ColumnSizes(m.ColumnSizes).ValueCounts(m.ValueCounts).NullValueCounts(m.NullCounts).
		NaNValueCounts(m.NaNCounts).LowerBoundValues(m.LowerBounds).UpperBoundValues(m.UpperBounds)
	return b.Build(), nil
}

// Commit appends files to the table ident of cat in one snapshot. When
// another writer committed first (the catalog refuses the commit as
// stale, or the table's metadata moved on while it tried: catalogs differ
// in how they say so), it loads the table again and retries, up to attempts times
// (0: 10) with a growing pause; any other error ends it at once, and
// nothing is committed on error.
func Commit(ctx context.Context, cat catalog.Catalog, ident table.Identifier, files []ice.DataFile, attempts int) (*table.Table, error) {
	if attempts <= 0 {
		attempts = 10
	}
	var err error
	for try := 0; try < attempts; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(try*try) * 10 * time.Millisecond):
			}
		}
		var tbl *table.Table
		tbl, err = cat.LoadTable(ctx, ident)
		if err != nil {
			return nil, err
		}
		tx := tbl.NewTransaction()
		if err = tx.AddDataFiles(ctx, files, nil); err != nil {
			return nil, err
		}
		var out *table.Table
		out, err = tx.Commit(ctx)
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, table.ErrCommitFailed) && !movedOn(ctx, cat, ident, tbl.MetadataLocation()) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("iceberg: commit still refused after %d attempts: %w", attempts, err)
}

// movedOn reports whether the table's metadata is no longer at loc:
// another writer committed.
func movedOn(ctx context.Context, cat catalog.Catalog, ident table.Identifier, loc string) bool {
	tbl, err := cat.LoadTable(ctx, ident)
	return err == nil && tbl.MetadataLocation() != loc
}
