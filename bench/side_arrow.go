package main

// The github.com/apache/arrow-go/v18 parquet side: the low-level
// parquet/file API with typed column chunk writers and readers (no Arrow
// records in between, which would only add a conversion), with pruning done
// by pqScan.

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

func arrowSchema() (*schema.GroupNode, error) {
	fields := make(schema.FieldList, numCols)
	for i, cd := range columns {
		var (
			n   *schema.PrimitiveNode
			err error
		)
		switch cd.kind {
		case kLong:
			n, err = schema.NewPrimitiveNodeLogical(cd.name, parquet.Repetitions.Required,
				schema.NewIntLogicalType(64, true), parquet.Types.Int64, 0, -1)
		case kDecimal:
			n, err = schema.NewPrimitiveNodeLogical(cd.name, parquet.Repetitions.Required,
				schema.NewDecimalLogicalType(15, 2), parquet.Types.Int64, 0, -1)
		case kDouble:
			n, err = schema.NewPrimitiveNode(cd.name, parquet.Repetitions.Required, parquet.Types.Double, -1, -1)
		case kDate:
			n, err = schema.NewPrimitiveNodeLogical(cd.name, parquet.Repetitions.Required,
				schema.DateLogicalType{}, parquet.Types.Int32, 0, -1)
		case kString:
			n, err = schema.NewPrimitiveNodeLogical(cd.name, parquet.Repetitions.Required,
				schema.StringLogicalType{}, parquet.Types.ByteArray, 0, -1)
		case kTS:
			n, err = schema.NewPrimitiveNodeLogical(cd.name, parquet.Repetitions.Required,
				schema.NewTimestampLogicalType(false, schema.TimeUnitMicros), parquet.Types.Int64, 0, -1)
		}
		if err != nil {
			return nil, err
		}
		fields[i] = n
	}
	return schema.NewGroupNode("lineitem", parquet.Repetitions.Required, fields, -1)
}

type arrowWriter struct {
	fw     *file.Writer
	rg     file.BufferedRowGroupWriter
	rgRows int64
	limit  int64
	i32    []int32
	f64    []float64
	ba     []parquet.ByteArray
}

func newArrowWriter(out io.Writer, codec string, cfg writeConfig) (tableWriter, error) {
	var cc compress.Compression
	switch codec {
	case "zstd":
		cc = compress.Codecs.Zstd
	case "snappy":
		cc = compress.Codecs.Snappy
	default:
		return nil, fmt.Errorf("arrow-go: codec %q not benchmarked", codec)
	}
	sc, err := arrowSchema()
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(cc),
		parquet.WithStats(true),
		parquet.WithPageIndexEnabled(true),
		parquet.WithBloomFilterEnabledFor("l_uuid", true),
		parquet.WithBloomFilterFPPFor("l_uuid", 0.01),
		parquet.WithBloomFilterNDVFor("l_uuid", cfg.rowGroupRows),
		parquet.WithMaxBloomFilterBytes(128<<20),
		parquet.WithMaxRowGroupLength(cfg.rowGroupRows),
	)
	fw, err := file.NewParquetWriterWithError(out, sc, file.WithWriterProps(props))
	if err != nil {
		return nil, err
	}
	return &arrowWriter{fw: fw, limit: cfg.rowGroupRows}, nil
}

func (a *arrowWriter) Write(c *Chunk) error {
	off := 0
	for off < c.N {
		if a.rg == nil {
			rg, err := a.fw.AppendBufferedRowGroupChecked()
			if err != nil {
				return err
			}
			a.rg, a.rgRows = rg, 0
		}
		n := int(min(int64(c.N-off), a.limit-a.rgRows))
		if err := a.writeRange(c, off, off+n); err != nil {
			return err
		}
		off += n
		a.rgRows += int64(n)
		if a.rgRows >= a.limit {
			if err := a.rg.Close(); err != nil {
				return err
			}
			a.rg = nil
		}
	}
	return nil
}

func (a *arrowWriter) writeRange(c *Chunk, lo, hi int) error {
	for col := range numCols {
		cw, err := a.rg.Column(col)
		if err != nil {
			return err
		}
		switch columns[col].kind {
		case kString:
			s := &c.Str[col]
			a.ba = a.ba[:0]
			for i := lo; i < hi; i++ {
				a.ba = append(a.ba, s.At(i))
			}
			_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(a.ba, nil, nil)
		case kDate:
			a.i32 = a.i32[:0]
			for _, v := range c.I64[col][lo:hi] {
				a.i32 = append(a.i32, int32(v))
			}
			_, err = cw.(*file.Int32ColumnChunkWriter).WriteBatch(a.i32, nil, nil)
		case kDouble:
			a.f64 = a.f64[:0]
			for _, v := range c.I64[col][lo:hi] {
				a.f64 = append(a.f64, centsToDouble(v))
			}
			_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(a.f64, nil, nil)
		default:
			_, err = cw.(*file.Int64ColumnChunkWriter).WriteBatch(c.I64[col][lo:hi], nil, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *arrowWriter) Close() error {
	if a.rg != nil {
		if err := a.rg.Close(); err != nil {
			return err
		}
	}
	return a.fw.Close()
}

// arrowFile adapts arrow-go's file.Reader to pqFile. Two readers share
// the metadata: one reads a whole column chunk with one ReadAt (scans),
// the other streams it page by page through a small buffer, so that
// seeking with the offset index reads only the pages it needs.
type arrowFile struct {
	whole, sparse *file.Reader
	pages         map[[2]int][]pageInfo
	pir           *metadata.PageIndexReader
	bfr           *metadata.BloomFilterReader
}

func openArrow(r *countingFile) (*arrowFile, error) {
	whole, err := file.NewParquetReader(r)
	if err != nil {
		return nil, err
	}
	props := parquet.NewReaderProperties(nil)
	props.BufferedStreamEnabled = true
	sparse, err := file.NewParquetReader(r, file.WithReadProps(props), file.WithMetadata(whole.MetaData()))
	if err != nil {
		return nil, err
	}
	return &arrowFile{whole: whole, sparse: sparse, pages: map[[2]int][]pageInfo{},
		pir: whole.GetPageIndexReader(), bfr: whole.GetBloomFilterReader()}, nil
}

func (a *arrowFile) NumRowGroups() int         { return a.whole.NumRowGroups() }
func (a *arrowFile) RowGroupRows(rg int) int64 { return a.whole.MetaData().RowGroup(rg).NumRows() }

func (a *arrowFile) ChunkStat(rg, col int) Stat {
	cc, err := a.whole.MetaData().RowGroup(rg).ColumnChunk(col)
	if err != nil {
		return Stat{}
	}
	if ok, err := cc.StatsSet(); !ok || err != nil {
		return Stat{}
	}
	st, err := cc.Statistics()
	if err != nil || st == nil || !st.HasMinMax() {
		return Stat{}
	}
	switch s := st.(type) {
	case *metadata.Int64Statistics:
		return Stat{OK: true, Min: s.Min(), Max: s.Max()}
	case *metadata.Int32Statistics:
		return Stat{OK: true, Min: int64(s.Min()), Max: int64(s.Max())}
	case *metadata.Float64Statistics:
		return Stat{OK: true, Min: doubleToCents(s.Min()), Max: doubleToCents(s.Max())}
	case *metadata.ByteArrayStatistics:
		return Stat{OK: true, SMin: s.Min(), SMax: s.Max()}
	}
	return Stat{}
}

func (a *arrowFile) Pages(rg, col int) []pageInfo {
	key := [2]int{rg, col}
	if pg, ok := a.pages[key]; ok {
		return pg
	}
	var out []pageInfo
	defer func() { a.pages[key] = out }()
	rgi, err := a.pir.RowGroup(rg)
	if err != nil || rgi == nil {
		return nil
	}
	ci, err := rgi.GetColumnIndex(col)
	if err != nil || ci == nil {
		return nil
	}
	oi, err := rgi.GetOffsetIndex(col)
	if err != nil || oi == nil {
		return nil
	}
	locs := oi.GetPageLocations()
	nulls := ci.GetNullPages()
	if len(nulls) != len(locs) {
		return nil
	}
	rows := a.RowGroupRows(rg)
	out = make([]pageInfo, len(locs))
	for i, l := range locs {
		end := rows
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		out[i] = pageInfo{First: l.FirstRowIndex, N: end - l.FirstRowIndex}
		if nulls[i] {
			continue
		}
		switch t := ci.(type) {
		case *metadata.TypedColumnIndex[int64]:
			out[i].St = Stat{OK: true, Min: t.MinValues()[i], Max: t.MaxValues()[i]}
		case *metadata.TypedColumnIndex[int32]:
			out[i].St = Stat{OK: true, Min: int64(t.MinValues()[i]), Max: int64(t.MaxValues()[i])}
		case *metadata.TypedColumnIndex[float64]:
			out[i].St = Stat{OK: true, Min: doubleToCents(t.MinValues()[i]), Max: doubleToCents(t.MaxValues()[i])}
		case *metadata.TypedColumnIndex[parquet.ByteArray]:
			out[i].St = Stat{OK: true, SMin: t.MinValues()[i], SMax: t.MaxValues()[i]}
		}
	}
	return out
}

func (a *arrowFile) Bloom(rg, col int, val []byte) (bool, bool) {
	rgb, err := a.bfr.RowGroup(rg)
	if err != nil || rgb == nil {
		return true, false
	}
	bf, err := rgb.GetColumnBloomFilter(col)
	if err != nil || bf == nil {
		return true, false
	}
	return bf.CheckHash(metadata.GetHash(bf.Hasher(), parquet.ByteArray(val))), true
}

func (a *arrowFile) Column(rg, col int, mode readMode) (pqColumn, error) {
	r := a.whole
	if mode == readSparse {
		r = a.sparse
	}
	cr, err := r.RowGroup(rg).Column(col)
	if err != nil {
		return nil, err
	}
	return &arrowColumn{cr: cr, kind: columns[col].kind, pages: a.Pages(rg, col)}, nil
}

// arrowColumn reads one column chunk with the typed ReadBatch calls.
type arrowColumn struct {
	cr    file.ColumnChunkReader
	kind  colKind
	pages []pageInfo // to tell a seek within the current page from one past it
	next  int64      // row of the next value
	i32   []int32
	f64   []float64
	ba    []parquet.ByteArray
}

func pageOf(pages []pageInfo, row int64) int {
	lo, hi := 0, len(pages)
	for lo < hi {
		m := (lo + hi) / 2
		if pages[m].First+pages[m].N <= row {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (c *arrowColumn) SeekRow(row int64) error {
	if row > c.next && c.pages != nil && pageOf(c.pages, row) == pageOf(c.pages, c.next) {
		// same page: skip values rather than re-reading the page
		if _, err := skipValues(c.cr, row-c.next); err != nil {
			return err
		}
		c.next = row
		return nil
	}
	if err := c.cr.SeekToRow(row); err != nil {
		return err
	}
	c.next = row
	return nil
}

func skipValues(cr file.ColumnChunkReader, n int64) (int64, error) {
	switch r := cr.(type) {
	case *file.Int64ColumnChunkReader:
		return r.Skip(n)
	case *file.Int32ColumnChunkReader:
		return r.Skip(n)
	case *file.Float64ColumnChunkReader:
		return r.Skip(n)
	case *file.ByteArrayColumnChunkReader:
		return r.Skip(n)
	}
	return 0, fmt.Errorf("arrow-go: unexpected column reader %T", cr)
}

func (c *arrowColumn) Read(ch *Chunk, col, n int) error {
	got := 0
	for got < n {
		want := int64(n - got)
		var (
			k   int64
			err error
		)
		switch c.kind {
		case kString:
			if cap(c.ba) < n {
				c.ba = make([]parquet.ByteArray, n)
			}
			k, _, err = c.cr.(*file.ByteArrayColumnChunkReader).ReadBatch(want, c.ba[:want], nil, nil)
			s := &ch.Str[col]
			for _, b := range c.ba[:k] {
				s.add(b)
			}
		case kDate:
			if cap(c.i32) < n {
				c.i32 = make([]int32, n)
			}
			k, _, err = c.cr.(*file.Int32ColumnChunkReader).ReadBatch(want, c.i32[:want], nil, nil)
			dst := ch.I64[col]
			for _, v := range c.i32[:k] {
				dst = append(dst, int64(v))
			}
			ch.I64[col] = dst
		case kDouble:
			if cap(c.f64) < n {
				c.f64 = make([]float64, n)
			}
			k, _, err = c.cr.(*file.Float64ColumnChunkReader).ReadBatch(want, c.f64[:want], nil, nil)
			dst := ch.I64[col]
			for _, v := range c.f64[:k] {
				dst = append(dst, doubleToCents(v))
			}
			ch.I64[col] = dst
		default:
			dst := ch.I64[col]
			l := len(dst)
			dst = grow64(dst, int(want))
			k, _, err = c.cr.(*file.Int64ColumnChunkReader).ReadBatch(want, dst[l:l+int(want)], nil, nil)
			ch.I64[col] = dst[:l+int(k)]
		}
		if err != nil {
			return err
		}
		if k == 0 {
			return io.ErrUnexpectedEOF
		}
		got += int(k)
	}
	c.next += int64(n)
	return nil
}

func grow64(s []int64, n int) []int64 {
	if cap(s)-len(s) < n {
		t := make([]int64, len(s), len(s)+n+len(s)/2)
		copy(t, s)
		s = t
	}
	return s[:len(s)+n]
}

func (c *arrowColumn) Close() error { return c.cr.Close() }

// queryArrow runs q on one goroutine; arrow-go is benchmarked serially
// only (par must be 1).
func queryArrow(f *countingFile, q *Query, batch, par int) (QueryResult, error) {
	if par > 1 {
		return QueryResult{}, fmt.Errorf("arrow-go: no parallel scan (asked for %d goroutines)", par)
	}
	af, err := openArrow(f)
	if err != nil {
		return QueryResult{}, err
	}
	// no Close: file.Reader.Close would close the harness's file
	return pqScan(af, q, batch)
}
