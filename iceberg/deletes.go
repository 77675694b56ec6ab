package iceberg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	ice "github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// Delete files, as the Iceberg spec (format version 2) defines them.
//
// A position delete file lists (file_path, pos) pairs, columns with the
// reserved field ids 2147483546 and 2147483545: the row at 0-based position
// pos of the data file at file_path is deleted. An optional row column
// after them is not read.
//
// An equality delete file holds some of the table's columns, those its
// manifest entry names in equality_ids: a data row is deleted when its
// values in those columns equal those of any row of the file, a null
// equal to a null (as Apache Iceberg's Java reader compares: floats by
// their bits, every NaN one value, -0.0 not 0.0).
//
// Which delete files apply to a data file is the planner's (iceberg-go's)
// decision: the data file's partition, or every partition for a delete of
// an unpartitioned spec; a position delete when the data file's sequence
// number is at most the delete's, an equality delete when it is below.
// Scan reads those files, ORC ones with orcgo and Parquet ones (which
// iceberg-go writes) with arrow-go, and drops the rows they delete. Deletion vectors (format version 3, Puffin files) are refused.

// Reserved field ids of a position delete file's columns.
const (
	PosDeleteFilePathID = 2147483546
	PosDeletePosID      = 2147483545
)

// posDeleteSchema is the part of a position delete file Scan reads.
var posDeleteSchema = ice.NewSchema(0,
	ice.NestedField{ID: PosDeleteFilePathID, Name: "file_path", Type: ice.PrimitiveTypes.String, Required: true},
	ice.NestedField{ID: PosDeletePosID, Name: "pos", Type: ice.PrimitiveTypes.Int64, Required: true},
)

// posDeleteMapping names the columns of a position delete file written
// without field ids.
var posDeleteMapping = ice.NameMapping{
	{Names: []string{"file_path"}, FieldID: ptr(PosDeleteFilePathID)},
	{Names: []string{"pos"}, FieldID: ptr(PosDeletePosID)},
}

func ptr[T any](v T) *T { return &v }

// fileDeletes is what the delete files of one task remove from its data
// file.
type fileDeletes struct {
	positions []int64      // sorted, without repeats
	eq        []*eqDeletes // one per equality delete file
}

func (d *fileDeletes) empty() bool { return d == nil || len(d.positions)+len(d.eq) == 0 }

// eqDeletes holds the rows of one equality delete file as keys over its
// equality field ids.
type eqDeletes struct {
	ids   []int               // equality field ids, in the file's order
	paths [][]int             // each id's child indexes in the table's schema
	keys  map[string]struct{} // appendKey of each delete row's values
}

// deleteLoader reads the delete files of a scan, each once.
type deleteLoader struct {
	fs     icebergio.IO
	schema *ice.Schema // the table's current schema
	names  ice.NameMapping
	data   map[string]bool               // data file paths the scan reads
	pos    map[string]map[string][]int64 // delete file -> data file -> positions
	eq     map[string]*eqDeletes         // delete file -> its rows
}

func newDeleteLoader(fs icebergio.IO, tbl *table.Table, tasks []table.FileScanTask) *deleteLoader {
	l := &deleteLoader{fs: fs, schema: tbl.Schema(), names: tbl.NameMapping(), data: map[string]bool{},
		pos: map[string]map[string][]int64{}, eq: map[string]*eqDeletes{}}
	for _, t := range tasks {
		l.data[t.File.FilePath()] = true
	}
	return l
}

// forTask returns the deletes of task's data file, reading delete files
// not read yet.
func (l *deleteLoader) forTask(task table.FileScanTask) (*fileDeletes, error) {
	if len(task.DeletionVectorFiles) > 0 {
		return nil, fmt.Errorf("iceberg: data file %s has a deletion vector (%s), which Scan does not read",
			task.File.FilePath(), task.DeletionVectorFiles[0].FilePath())
	}
	d := &fileDeletes{}
	for _, df := range task.DeleteFiles {
		if df.ContentType() != ice.EntryContentPosDeletes {
			return nil, fmt.Errorf("iceberg: delete file %s planned as position deletes has content %v", df.FilePath(), df.ContentType())
		}
		m, err := l.positionFile(df)
		if err != nil {
			return nil, err
		}
		d.positions = append(d.positions, m[task.File.FilePath()]...)
	}
	slices.Sort(d.positions)
	d.positions = slices.Compact(d.positions)
	for _, df := range task.EqualityDeleteFiles {
		if df.ContentType() != ice.EntryContentEqDeletes {
			return nil, fmt.Errorf("iceberg: delete file %s planned as equality deletes has content %v", df.FilePath(), df.ContentType())
		}
		e, err := l.equalityFile(df)
		if err != nil {
			return nil, err
		}
		if len(e.keys) > 0 {
			d.eq = append(d.eq, e)
		}
	}
	return d, nil
}

// eachDeleteBatch calls fn with the rows of delete file df, in batches of
// ToORC(want)'s shape: columns resolved by field id (or through mapping
// for a file without ids). ORC files are read with orcgo, Parquet files
// (what iceberg-go writes) with arrow-go.
func (l *deleteLoader) eachDeleteBatch(df ice.DataFile, want *ice.Schema, mapping ice.NameMapping, fn func(*orc.Batch) error) error {
	var err error
	switch df.FileFormat() {
	case ice.OrcFile:
		err = l.eachORCBatch(df.FilePath(), want, mapping, fn)
	case ice.ParquetFile:
		err = eachParquetBatch(l.fs, df.FilePath(), want, fn)
	default:
		return fmt.Errorf("iceberg: delete file %s is %s; Scan reads ORC and Parquet delete files", df.FilePath(), df.FileFormat())
	}
	if err != nil {
		return fmt.Errorf("iceberg: delete file %s: %w", df.FilePath(), err)
	}
	return nil
}

func (l *deleteLoader) eachORCBatch(path string, want *ice.Schema, mapping ice.NameMapping, fn func(*orc.Batch) error) error {
	r, f, err := openORC(l.fs, path)
	if err != nil {
		return err
	}
	defer f.Close()
	rs, err := ReadSchema(want, r.Schema(), mapping)
	if err != nil {
		return err
	}
	return r.EachBatch(fn, reader.WithReadSchema(rs))
}

// positionFile returns the positions position delete file df deletes, by
// data file, keeping only the data files of the scan.
func (l *deleteLoader) positionFile(df ice.DataFile) (map[string][]int64, error) {
	if m, ok := l.pos[df.FilePath()]; ok {
		return m, nil
	}
	m := map[string][]int64{}
	var row int64
	err := l.eachDeleteBatch(df, posDeleteSchema, posDeleteMapping, func(b *orc.Batch) error {
		paths, pos := b.Cols[0].(*orc.BytesVector), b.Cols[1].(*orc.LongVector)
		for i := 0; i < b.NumRows; i++ {
			if paths.IsNull(i) || pos.IsNull(i) {
				return fmt.Errorf("row %d has a null file_path or pos", row+int64(i))
			}
			if p := pos.Values[i]; p < 0 {
				return fmt.Errorf("row %d deletes position %d", row+int64(i), p)
			}
			if path := paths.Get(i); l.data[string(path)] {
				m[string(path)] = append(m[string(path)], pos.Values[i])
			}
		}
		row += int64(b.NumRows)
		return nil
	})
	if err != nil {
		return nil, err
	}
	l.pos[df.FilePath()] = m
	return m, nil
}

// equalityFile returns the rows of equality delete file df as keys.
func (l *deleteLoader) equalityFile(df ice.DataFile) (*eqDeletes, error) {
	if e, ok := l.eq[df.FilePath()]; ok {
		return e, nil
	}
	ids := df.EqualityFieldIDs()
	if len(ids) == 0 {
		return nil, fmt.Errorf("iceberg: equality delete file %s names no equality field ids", df.FilePath())
	}
	e := &eqDeletes{ids: ids, keys: map[string]struct{}{}}
	selected := map[int]ice.Void{}
	for _, id := range ids {
		f, ok := l.schema.FindFieldByID(id)
		if !ok {
			return nil, fmt.Errorf("iceberg: equality delete file %s: field id %d is not in the table's schema", df.FilePath(), id)
		}
		if _, ok := f.Type.(ice.PrimitiveType); !ok {
			return nil, fmt.Errorf("iceberg: equality delete file %s: field %s is a %s, not a primitive", df.FilePath(), f.Name, f.Type)
		}
		p, ok := fieldPath(l.schema.AsStruct().FieldList, id)
		if !ok {
			return nil, fmt.Errorf("iceberg: equality delete file %s: field %s is inside a list or map", df.FilePath(), f.Name)
		}
		e.paths = append(e.paths, p)
		selected[id] = ice.Void{}
	}
	proj, err := ice.PruneColumns(l.schema, selected, false)
	if err != nil {
		return nil, fmt.Errorf("iceberg: equality delete file %s: %w", df.FilePath(), err)
	}
	var paths [][]int
	for _, id := range ids {
		p, _ := fieldPath(proj.AsStruct().FieldList, id)
		paths = append(paths, p)
	}
	var key []byte
	err = l.eachDeleteBatch(df, proj, l.names, func(b *orc.Batch) error {
		for i := 0; i < b.NumRows; i++ {
			var err error
			if key, err = appendRowKey(key[:0], b, paths, i); err != nil {
				return err
			}
			e.keys[string(key)] = struct{}{}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	l.eq[df.FilePath()] = e
	return e, nil
}

// appendRowKey appends to dst the key of row i of b over the columns at
// paths (child indexes from the root): equal keys for equal values.
func appendRowKey(dst []byte, b *orc.Batch, paths [][]int, i int) ([]byte, error) {
	for _, p := range paths {
		v, null := b.Cols[p[0]], b.Cols[p[0]].IsNull(i)
		for _, c := range p[1:] {
			s, ok := v.(*orc.StructVector)
			if !ok {
				return nil, errors.New("iceberg: an equality column's path crosses a non-struct")
			}
			v = s.Fields[c]
			null = null || v.IsNull(i)
		}
		var err error
		if dst, err = appendKey(dst, v, i, null); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// appendKey appends row i of primitive vector v (null if null) to a key:
// a tag byte, then the value in fixed width or, for bytes, its length
// first.
func appendKey(dst []byte, v orc.Vector, i int, null bool) ([]byte, error) {
	if null {
		return append(dst, 0), nil
	}
	switch v := v.(type) {
	case *orc.LongVector:
		return binary.LittleEndian.AppendUint64(append(dst, 1), uint64(v.Values[i])), nil
	case *orc.DoubleVector:
		bits := math.Float64bits(v.Values[i])
		if math.IsNaN(v.Values[i]) {
			bits = math.Float64bits(math.NaN())
		}
		return binary.LittleEndian.AppendUint64(append(dst, 2), bits), nil
	case *orc.BytesVector:
		s := v.Get(i)
		return append(binary.AppendUvarint(append(dst, 3), uint64(len(s))), s...), nil
	case *orc.DecimalVector:
		d := binary.LittleEndian.AppendUint64(append(dst, 4), uint64(v.Values[i].Hi))
		return binary.LittleEndian.AppendUint64(d, v.Values[i].Lo), nil
	case *orc.TimestampVector:
		d := binary.LittleEndian.AppendUint64(append(dst, 5), uint64(v.Seconds[i]))
		return binary.LittleEndian.AppendUint32(d, uint32(v.Nanos[i])), nil
	}
	return nil, fmt.Errorf("%w: an equality delete on a %T column", ErrUnsupportedType, v)
}
