// Package statsindex writes and reads a dataset's statistics index
// (spec.md 7.16): one ORC file beside the data holding every data file's
// footer statistics, so that a scan rules files out without opening them.
// Write, Update and Check build and compare an index of a Source
// (dataset.Dataset.IndexSource); Open and Index.Lookup are what a dataset
// scan (dataset.WithIndex) uses to decide which files to skip; Publish and
// Pointer keep an index on a store without rename.
//
// An Index is safe for concurrent Lookups; the functions that build an
// index read each file's footer on a goroutine of their own and return
// when all are done.
//
// # Format
//
// The index is an ORC file kept beside the data under a name the listing
// skips (FileName, "_"-prefixed). It has one row per data file, sorted
// by the files' partition values and then by path, so that files of one
// partition sit in the same row groups and the index's own row-group
// statistics prune it. Its columns, by position:
//
//	path     string   the file's Name (slash-separated, relative to the root)
//	size     bigint   the file's size when it was indexed
//	version  string   the version the listing reported (File.Version)
//	rows     bigint   the file's row count
//	p0..pk   the partition columns' types: the file's partition values
//	for each indexed column i, in the header's order:
//	  ci_values  bigint  non-null values; NULL: no usable statistics (unknown)
//	  ci_nulls   bigint  null values; NULL: the file did not record has_null
//	  ci_min     T       minimum; NULL when unknown or no value
//	  ci_max     T       maximum; NULL when unknown or no value
//	  and for text columns:
//	  ci_lower   boolean ci_min is a truncated lower bound (every value is above it)
//	  ci_upper   boolean ci_max is a truncated upper bound (every value is below it)
//	  but for geometry columns (layout 3), in place of ci_min and ci_max:
//	  ci_xmin, ci_xmax, ci_ymin, ci_ymax  double  the file's bounding box
//	             (x may wrap: xmin > xmax); all NULL when it has none
//	then, for each indexed column i with a bloom filter (layout 2, BloomColumns):
//	  ci_bloom   binary  an orcpb.BloomFilter of the file's values; NULL: none
//
// The filters come last so that their bytes, most of an index that has
// them, lie at the end of the stripe, apart from what other lookups read.
//
// T is the column's type in the dataset's read schema, except for char and
// varchar, whose bounds are kept as string (writing them as char would pad
// them, which moves a truncated bound). The values mean what the file's
// footer statistics mean after orcgo's trust gates (spec.md 5.7): a bound
// the footer does not support is NULL.
//
// The user metadata key MetadataKey holds a JSON header: the layout
// version, the indexed columns' names and types, and the partition schema.
// A reader that meets another layout version ignores the index.
package statsindex

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/countio"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
	"github.com/orcgo/orc/writer"
)

// FileName is the name under which the index is kept in a dataset's root
// directory. It starts with "_", so listings (dataset.Dir, dataset.FromFS)
// leave it out of the data files.
const FileName = "_orcgo_index.orc"

// MetadataKey is the user metadata key of the index's header.
const MetadataKey = "orcgo.dataset.index"

// indexLayout is the newest layout version this code writes and reads.
//   - 1: the columns listed in the package comment above, without ci_bloom
//     and without geometry columns.
//   - 2: adds ci_bloom for the columns whose header entry says "bloom";
//     written only when some column does, so that an index without bloom
//     filters stays readable by code that knows layout 1 only.
//   - 3: adds geometry columns, with their boxes (geo.go); written only
//     when some column is geometry, so that other indexes stay readable by
//     code that knows layouts 1 and 2 only. Layouts 1 and 2 are read as
//     before: they index no geometry column, so nothing is pruned by one.
const indexLayout = 3

// indexStride is the row index stride of the index file: a row group per
// 1,024 data files, so that a lookup on a partition reads little of a large
// index. Tests lower it (export_test.go) to give small indexes many groups.
var indexStride = 1024

// indexHeader is the JSON header of an index.
type indexHeader struct {
	Layout     int           `json:"layout"`
	Columns    []indexColumn `json:"columns"`
	Partitions string        `json:"partitions,omitempty"` // struct<...>, or empty
	BloomFPP   float64       `json:"bloom_fpp,omitempty"`  // layout 2: the filters' rate
	Schema     string        `json:"schema,omitempty"`     // the dataset's read schema, for readers that cannot learn it
}

type indexColumn struct {
	Name  string   `json:"name"`
	Type  string   `json:"type"`
	Bloom bool     `json:"bloom,omitempty"` // layout 2: ci_bloom holds a filter
	Path  []string `json:"path,omitempty"`  // a struct field: the field names from the top (Name is sarg.Col of them)
}

// Option configures building an index.
type Option func(*indexConfig) error

type indexConfig struct {
	columns  []string
	all      bool
	parallel int
	bloom    []string // BloomColumns
	fpp      float64  // BloomFPP
}

// defaultIndexConfig is the configuration before options.
func defaultIndexConfig() indexConfig {
	return indexConfig{all: true, parallel: 8, fpp: DefaultBloomFPP}
}

// indexSpec is what an index holds: its columns, which have bloom filters,
// and the filters' rate.
type indexSpec struct {
	schema *orc.Schema // the dataset's read schema, recorded in the header
	paths  [][]string  // per column: nil for a top-level one, else the field names of a struct field
	names  []string
	types  []*orc.Schema
	bloom  []bool
	fpp    float64
}

func (sp indexSpec) hasBloom() bool { return slices.Contains(sp.bloom, true) }

// Columns indexes the named columns of the read schema: top-level ones,
// or struct fields by their dotted paths (a.b, a.`odd.name`). Default:
// every top-level column of a type with a minimum and maximum (booleans,
// integers, float, double, decimal, text, date, timestamps) or a bounding
// box (geometry).
func Columns(names ...string) Option {
	return func(c *indexConfig) error {
		if len(names) == 0 {
			return errors.New("dataset: index Columns: no column named")
		}
		c.columns, c.all = slices.Clone(names), false
		return nil
	}
}

// Parallelism reads up to n files' tails at once while building.
// Default 8; 1 to 1024.
func Parallelism(n int) Option {
	return func(c *indexConfig) error {
		if n < 1 || n > 1024 {
			return fmt.Errorf("dataset: index Parallelism(%d): must be 1..1024", n)
		}
		c.parallel = n
		return nil
	}
}

// indexable reports whether a column type can be indexed.
func indexable(t *orc.Schema) bool {
	switch t.Kind {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal,
		orc.String, orc.Varchar, orc.Char, orc.Date, orc.Timestamp, orc.TimestampInstant, orc.Geometry:
		return true
	}
	return false
}

// hasGeometry reports whether some indexed column is geometry (layout 3).
func hasGeometry(types []*orc.Schema) bool {
	return slices.ContainsFunc(types, func(t *orc.Schema) bool { return t.Kind == orc.Geometry })
}

// isText reports whether a kind keeps string bounds.
func isText(k orc.Kind) bool { return k == orc.String || k == orc.Varchar || k == orc.Char }

// boundType is the type of an indexed column's ci_min and ci_max.
func boundType(t *orc.Schema) *orc.Schema {
	if t.Kind == orc.Varchar || t.Kind == orc.Char {
		return &orc.Schema{Kind: orc.String}
	}
	return t.Copy()
}

// Info describes an index.
type Info struct {
	Files      int      // data files indexed
	Columns    []string // indexed columns
	Partitions string   // the partition schema, or ""
	Schema     string   // the read schema of the dataset indexed, or "" (older indexes)
	Bytes      int64    // size of the index file
	Read       int      // footers read to build it
}

// indexLayoutSchema returns the index file's schema for a header. bloom
// (nil: none) says which columns have a ci_bloom.
func indexLayoutSchema(cols []*orc.Schema, bloom []bool, parts *orc.Schema) *orc.Schema {
	s := &orc.Schema{Kind: orc.Struct}
	add := func(name string, t *orc.Schema) {
		s.FieldNames = append(s.FieldNames, name)
		s.Children = append(s.Children, t)
	}
	str := func() *orc.Schema { return &orc.Schema{Kind: orc.String} }
	long := func() *orc.Schema { return &orc.Schema{Kind: orc.Long} }
	add("path", str())
	add("size", long())
	add("version", str())
	add("rows", long())
	if parts != nil {
		for j, c := range parts.Children {
			add(fmt.Sprintf("p%d", j), c.Copy())
		}
	}
	for i, c := range cols {
		add(fmt.Sprintf("c%d_values", i), long())
		add(fmt.Sprintf("c%d_nulls", i), long())
		if c.Kind == orc.Geometry {
			for _, b := range geoBoxCols {
				add(fmt.Sprintf("c%d_%s", i, b), &orc.Schema{Kind: orc.Double})
			}
			continue
		}
		add(fmt.Sprintf("c%d_min", i), boundType(c))
		add(fmt.Sprintf("c%d_max", i), boundType(c))
		if isText(c.Kind) {
			add(fmt.Sprintf("c%d_lower", i), &orc.Schema{Kind: orc.Boolean})
			add(fmt.Sprintf("c%d_upper", i), &orc.Schema{Kind: orc.Boolean})
		}
	}
	for i := range cols {
		if i < len(bloom) && bloom[i] {
			add(fmt.Sprintf("c%d_bloom", i), &orc.Schema{Kind: orc.Binary})
		}
	}
	s.Assign()
	return s
}

// indexEntry is one data file's row of the index.
type indexEntry struct {
	path    string
	size    int64
	version string
	rows    int64
	parts   []any           // partition values (EvalRow types), nil for NULL
	cols    []*stats.Column // per indexed column, nil when unknown
	blooms  [][]byte        // per indexed column, a serialized filter or nil
}

// Write reads the footer of every file of src and writes an index of
// them to w (see FileName). Files are read Parallelism at a time. A file
// that fails to open fails the build. It does not close w.
func Write(src *Source, w io.Writer, opts ...Option) (Info, error) {
	cfg := defaultIndexConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return Info{}, err
		}
	}
	read := src.Schema
	var names []string
	var types []*orc.Schema
	var paths [][]string
	if cfg.all {
		for i, c := range read.Children {
			if indexable(c) {
				names = append(names, read.FieldNames[i])
				types = append(types, c)
			}
		}
	} else {
		for _, n := range cfg.columns {
			c := read.Field(n)
			var path []string
			if c == nil {
				// A struct field, named by its dotted path (a.b, a.`odd.name`).
				if f := read.Find(n); f != nil {
					if path = pathOf(read, f); path == nil {
						return Info{}, fmt.Errorf("dataset: index: column %s is inside a list, map or union, which the index does not cover", n)
					}
					c, n = f, sarg.Col(path...)
				}
			}
			if c == nil {
				return Info{}, fmt.Errorf("dataset: index: no column %q in %s", n, read)
			}
			if !indexable(c) {
				return Info{}, fmt.Errorf("dataset: index: column %s has type %s, which has no minimum and maximum or bounding box", n, c)
			}
			if slices.Contains(names, n) {
				return Info{}, fmt.Errorf("dataset: index: column %s named twice", n)
			}
			names = append(names, n)
			types = append(types, c)
			paths = append(paths, path)
		}
	}
	if paths == nil {
		paths = make([][]string, len(names))
	}
	sp := indexSpec{schema: read, paths: paths, names: names, types: types, bloom: make([]bool, len(names)), fpp: cfg.fpp}
	for _, n := range cfg.bloom {
		k := slices.Index(names, n)
		switch {
		case k < 0:
			return Info{}, fmt.Errorf("dataset: index: bloom filter column %s is not an indexed column (%s)", n, strings.Join(names, ", "))
		case paths[k] != nil:
			return Info{}, fmt.Errorf("dataset: index: bloom filter column %s is a struct field; filters are kept for top-level columns", n)
		case !bloomable(types[k]):
			return Info{}, fmt.Errorf("dataset: index: bloom filter column %s has type %s; filters are kept for integer, date, float, double, decimal and text columns", n, types[k])
		case sp.bloom[k]:
			return Info{}, fmt.Errorf("dataset: index: bloom filter column %s named twice", n)
		}
		sp.bloom[k] = true
	}
	return buildIndexOf(w, src, sp, cfg.parallel, 0, len(src.Files))
}

// buildIndexOf reads the footers of files lo..hi-1 of src and writes the
// index of them.
func buildIndexOf(w io.Writer, src *Source, sp indexSpec, parallel, lo, hi int) (Info, error) {
	entries := make([]indexEntry, hi-lo)
	errs := make([]error, hi-lo)
	var wg sync.WaitGroup
	sem := make(chan struct{}, parallel)
	for i := lo; i < hi; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			entries[i-lo], errs[i-lo] = indexFile(src, i, sp)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Info{}, err
		}
	}
	info, err := writeIndexEntries(w, entries, sp, src.Partitions)
	info.Read = len(entries)
	return info, err
}

// indexFile reads the footer of file i (and the bloom columns' values)
// and returns its index entry.
func indexFile(src *Source, i int, sp indexSpec) (indexEntry, error) {
	names, types := sp.names, sp.types
	f := src.Files[i]
	if f.Open == nil {
		return indexEntry{}, fmt.Errorf("dataset: %s: no Open function", f.Name)
	}
	r, c, err := f.Open()
	if err != nil {
		return indexEntry{}, err
	}
	if c != nil {
		defer c.Close()
	}
	e := indexEntry{path: f.Name, size: r.Size(), version: f.Version, rows: r.NumRows(), parts: f.Partition}
	e.cols = make([]*stats.Column, len(names))
	fs := r.Schema()
	if src.ByPosition || fs.Kind != orc.Struct || positionalNames(fs) {
		return e, nil // columns are matched by position: record nothing
	}
	fileNames := make([]string, len(names))
	for k, n := range names {
		fc := columnAt(fs, n, sp.paths[k])
		if fc == nil || fc.String() != types[k].String() {
			continue // missing or of another type: unknown
		}
		st, ok := r.Statistics(fc.ID())
		if !ok || st.Kind != fc.Kind {
			continue
		}
		e.cols[k] = &st
		if sp.paths[k] == nil {
			fileNames[k] = fs.FieldNames[slices.Index(fs.Children, fc)]
		}
	}
	if sp.hasBloom() {
		if e.blooms, err = fileBlooms(r, &e, fileNames, types, sp.bloom, sp.fpp); err != nil {
			return indexEntry{}, fmt.Errorf("%s: reading the bloom filter columns: %w", f.Name, err)
		}
	}
	return e, nil
}

// columnAt returns the column of a struct schema that an index column
// names: the top-level field name, or, for a struct field, the field at
// path (exact names, through structs only); nil when there is none.
func columnAt(s *orc.Schema, name string, path []string) *orc.Schema {
	if path == nil {
		if s.Kind != orc.Struct {
			return nil
		}
		return s.Field(name)
	}
	for _, f := range path {
		if s == nil || s.Kind != orc.Struct {
			return nil
		}
		s = s.Field(f)
	}
	return s
}

// pathOf returns the field names from root down to node through structs
// only, or nil when node is not below root that way.
func pathOf(root, node *orc.Schema) []string {
	if root.Kind != orc.Struct {
		return nil
	}
	for i, c := range root.Children {
		if c == node {
			return []string{root.FieldNames[i]}
		}
		if p := pathOf(c, node); p != nil {
			return append([]string{root.FieldNames[i]}, p...)
		}
	}
	return nil
}

// positionalNames reports whether a file's columns are all named _colN,
// which the reader matches by position (spec.md 7.14).
func positionalNames(s *orc.Schema) bool {
	if len(s.FieldNames) == 0 {
		return false
	}
	for _, n := range s.FieldNames {
		if !strings.HasPrefix(n, "_col") {
			return false
		}
		if _, err := strconv.Atoi(n[4:]); err != nil {
			return false
		}
	}
	return true
}

// writeIndexEntries sorts the entries and writes them as an index file.
func writeIndexEntries(w io.Writer, entries []indexEntry, sp indexSpec, parts *orc.Schema) (Info, error) {
	names, types := sp.names, sp.types
	slices.SortFunc(entries, func(a, b indexEntry) int {
		for j := range a.parts {
			if c := cmpPartition(a.parts[j], b.parts[j]); c != 0 {
				return c
			}
		}
		return strings.Compare(a.path, b.path)
	})
	h := indexHeader{Layout: 1}
	if sp.hasBloom() {
		h.Layout, h.BloomFPP = 2, sp.fpp
	}
	if hasGeometry(types) {
		h.Layout = 3
	}
	for k, n := range names {
		h.Columns = append(h.Columns, indexColumn{Name: n, Type: types[k].String(), Bloom: sp.hasBloom() && sp.bloom[k], Path: sp.paths[k]})
	}
	if parts != nil {
		h.Partitions = parts.String()
	}
	if sp.schema != nil {
		h.Schema = sp.schema.String()
	}
	hdr, err := json.Marshal(h)
	if err != nil {
		return Info{}, err
	}
	var bloom []bool
	if sp.hasBloom() {
		bloom = sp.bloom
	}
	schema := indexLayoutSchema(types, bloom, parts)
	cw := &countio.Writer{W: w}
	iw, err := writer.NewWriter(cw, schema, writer.WithCompression(orc.CompressionZstd),
		writer.WithRowIndexStride(indexStride), writer.WithTimeZone(time.UTC))
	if err != nil {
		return Info{}, err
	}
	iw.AddUserMetadata(MetadataKey, hdr)
	const batchRows = 1024
	b := orc.NewBatch(schema, batchRows)
	flush := func() error {
		if b.NumRows == 0 {
			return nil
		}
		err := iw.Write(b)
		b.Reset()
		return err
	}
	for _, e := range entries {
		appendEntry(b, e, types, bloom, parts)
		if b.NumRows == batchRows {
			if err := flush(); err != nil {
				return Info{}, fmt.Errorf("dataset: writing the index: %w", err)
			}
		}
	}
	if err := flush(); err != nil {
		return Info{}, fmt.Errorf("dataset: writing the index: %w", err)
	}
	if err := iw.Close(); err != nil {
		return Info{}, fmt.Errorf("dataset: writing the index: %w", err)
	}
	return Info{Files: len(entries), Columns: slices.Clone(names), Partitions: h.Partitions, Schema: h.Schema, Bytes: cw.N}, nil
}

// appendEntry appends one entry as a row of the index batch.
func appendEntry(b *orc.Batch, e indexEntry, types []*orc.Schema, bloom []bool, parts *orc.Schema) {
	col := 0
	next := func() orc.Vector { v := b.Cols[col]; col++; return v }
	next().(*orc.BytesVector).AppendString(e.path)
	next().(*orc.LongVector).Append(e.size)
	next().(*orc.BytesVector).AppendString(e.version)
	next().(*orc.LongVector).Append(e.rows)
	if parts != nil {
		for j, t := range parts.Children {
			appendValue(next(), t, e.parts[j])
		}
	}
	for k, t := range types {
		if t.Kind == orc.Geometry {
			vals, nulls := next(), next()
			box := [4]orc.Vector{next(), next(), next(), next()}
			st := e.cols[k]
			if st == nil {
				vals.(*orc.LongVector).AppendNull()
				nulls.(*orc.LongVector).AppendNull()
				appendBox(box, nil)
				continue
			}
			appendCounts(vals, nulls, st, e.rows)
			appendBox(box, st)
			continue
		}
		vals, nulls, lo, hi := next(), next(), next(), next()
		var lower, upper orc.Vector
		if isText(t.Kind) {
			lower, upper = next(), next()
		}
		st := e.cols[k]
		if st == nil {
			for _, v := range []orc.Vector{vals, nulls, lo, hi, lower, upper} {
				if v != nil {
					appendValue(v, t, nil)
				}
			}
			continue
		}
		appendCounts(vals, nulls, st, e.rows)
		mn, mx := bounds(t, st)
		appendValue(lo, t, mn)
		appendValue(hi, t, mx)
		if lower != nil {
			var lb, ub bool
			if s := st.String; s != nil {
				lb, ub = s.HasMin && s.MinIsLowerBound, s.HasMax && s.MaxIsUpperBound
			}
			lower.(*orc.LongVector).Append(b2i(lb))
			upper.(*orc.LongVector).Append(b2i(ub))
		}
	}
	for k := range types {
		if k < len(bloom) && bloom[k] {
			bf := next().(*orc.BytesVector)
			if k < len(e.blooms) && e.blooms[k] != nil {
				bf.Append(e.blooms[k])
			} else {
				bf.AppendNull()
			}
		}
	}
	b.NumRows++
}

// appendCounts appends a column's ci_values and ci_nulls from its
// statistics; rows is the file's row count.
func appendCounts(vals, nulls orc.Vector, st *stats.Column, rows int64) {
	vals.(*orc.LongVector).Append(int64(min(st.NumValues, 1<<62)))
	switch {
	case !st.HasNullKnown:
		appendValue(nulls, nil, nil)
	case !st.HasNull:
		nulls.(*orc.LongVector).Append(0)
	default:
		nulls.(*orc.LongVector).Append(max(rows-int64(min(st.NumValues, 1<<62)), 1))
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// bounds returns a column's minimum and maximum from its statistics as
// values for appendValue, nil where the statistics (after the reader's
// checks, spec.md 7.3-7.5) give no usable bound.
func bounds(t *orc.Schema, st *stats.Column) (lo, hi any) {
	switch t.Kind {
	case orc.Boolean:
		if bs := st.Bool; bs != nil && bs.TrueCount <= st.NumValues && st.NumValues > 0 {
			return bs.TrueCount == st.NumValues, bs.TrueCount > 0
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		if s := st.Int; s != nil && s.HasMinMax {
			return s.Min, s.Max
		}
	case orc.Date:
		if s := st.Date; s != nil && s.HasMinMax {
			return int64(s.Min), int64(s.Max)
		}
	case orc.Float, orc.Double:
		if s := st.Double; s != nil && s.HasMinMax && s.Min == s.Min && s.Max == s.Max && !(s.HasSum && s.Sum != s.Sum) {
			return s.Min, s.Max
		}
	case orc.String, orc.Varchar, orc.Char:
		if s := st.String; s != nil {
			if s.HasMin {
				lo = s.Min
			}
			if s.HasMax {
				hi = s.Max
			}
		}
	case orc.Decimal:
		if s := st.Decimal; s != nil && s.HasMinMax {
			a, aok := atScale(s.Min, t)
			b, bok := atScale(s.Max, t)
			if aok && bok {
				return a, b
			}
		}
	case orc.Timestamp, orc.TimestampInstant:
		if s := st.Timestamp; s != nil && s.HasMinMax && okNanos(s.MinNanos) && okNanos(s.MaxNanos) {
			return timestampPair{s.MinSec, s.MinNanos}, timestampPair{s.MaxSec, s.MaxNanos}
		}
	}
	return lo, hi
}

func okNanos(n int32) bool { return n >= 0 && n <= 999_999_999 }

// decimalValue is a decimal partition value.
type decimalValue = stats.DecimalValue

// tsValue is a timestamp partition value.
type tsValue = sarg.TimestampValue

type timestampPair struct {
	sec   int64
	nanos int32
}

// atScale brings a decimal to the column's scale, when that is exact and
// the value fits the column's precision.
func atScale(v stats.DecimalValue, t *orc.Schema) (orc.Int128, bool) {
	if v.Scale < 0 || v.Scale > 38 {
		return orc.Int128{}, false
	}
	r, exact, ok := orc.Rescale(v.Unscaled, v.Scale, t.Scale)
	if !exact || !ok {
		return orc.Int128{}, false
	}
	abs := r
	if abs.Sign() < 0 {
		abs = abs.Neg()
	}
	if t.Precision >= 1 && t.Precision <= 38 && abs.Cmp(orc.Pow10(t.Precision)) >= 0 {
		return orc.Int128{}, false
	}
	return r, true
}

// appendValue appends a value to a vector of type t; nil appends NULL.
// Values: bool, int64 (integers, dates), float64, string, orc.Int128 or
// decimalValue (decimals), timestampPair or sarg.TimestampValue.
func appendValue(v orc.Vector, t *orc.Schema, val any) {
	if val == nil {
		switch x := v.(type) {
		case *orc.LongVector:
			x.AppendNull()
		case *orc.DoubleVector:
			x.AppendNull()
		case *orc.BytesVector:
			x.AppendNull()
		case *orc.DecimalVector:
			if t != nil {
				x.Scale = t.Scale
			}
			x.AppendNull()
		case *orc.TimestampVector:
			x.AppendNull()
		}
		return
	}
	switch x := v.(type) {
	case *orc.LongVector:
		switch w := val.(type) {
		case bool:
			x.Append(b2i(w))
		case int64:
			x.Append(w)
		}
	case *orc.DoubleVector:
		x.Append(val.(float64))
	case *orc.BytesVector:
		x.AppendString(val.(string))
	case *orc.DecimalVector:
		x.Scale = t.Scale
		switch w := val.(type) {
		case orc.Int128:
			x.Append(w)
		case decimalValue:
			x.Append(w.Unscaled)
		}
	case *orc.TimestampVector:
		switch w := val.(type) {
		case timestampPair:
			x.Append(w.sec, w.nanos)
		default:
			tv := val.(tsValue)
			x.Append(tv.Sec, tv.Nanos)
		}
	}
}

// cmpPartition orders partition values: NULL first, then by value.
func cmpPartition(a, b any) int {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		}
		return 1
	}
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case bool:
		y := b.(bool)
		return cmp.Compare(b2i(x), b2i(y))
	case float64:
		return cmp.Compare(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case decimalValue:
		return x.Unscaled.Cmp(b.(decimalValue).Unscaled) // one column, one scale
	case tsValue:
		y := b.(tsValue)
		if c := cmp.Compare(x.Sec, y.Sec); c != 0 {
			return c
		}
		return cmp.Compare(x.Nanos, y.Nanos)
	}
	return 0
}

// WriteFile writes the index of src to the file at path (normally
// filepath.Join(root, FileName)): to a temporary file in the same
// directory first, renamed over path when complete, so that a concurrent
// reader sees the old index or the new one, never a part.
func WriteFile(src *Source, path string, opts ...Option) (Info, error) {
	var buf bytes.Buffer
	info, err := Write(src, &buf, opts...)
	if err != nil {
		return info, err
	}
	return info, replaceFile(path, buf.Bytes())
}
