package main

// The github.com/parquet-go/parquet-go side: rows are written with the
// library's GenericWriter over a struct (its idiomatic, code-generated
// path); queries read pages of the column chunks directly with typed
// values (the "Optimizing Reads" path of its README), with pruning done by
// pqScan.

import (
	"fmt"
	"io"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"

	kzstd "github.com/klauspost/compress/zstd"
)

// pqRow is one lineitem row. Low-cardinality columns are dictionary
// encoded and the sorted key is delta encoded, as a user of the library
// would tag them (its default is PLAIN for every column).
type pqRow struct {
	OrderKey      int64  `parquet:"l_orderkey,delta"`
	PartKey       int64  `parquet:"l_partkey"`
	SuppKey       int64  `parquet:"l_suppkey"`
	LineNumber    int64  `parquet:"l_linenumber,dict"`
	Quantity      int64  `parquet:"l_quantity,decimal(2:15),dict"`
	ExtendedPrice int64  `parquet:"l_extendedprice,decimal(2:15)"`
	Discount      int64  `parquet:"l_discount,decimal(2:15),dict"`
	Tax           int64  `parquet:"l_tax,decimal(2:15),dict"`
	ReturnFlag    string `parquet:"l_returnflag,dict"`
	LineStatus    string `parquet:"l_linestatus,dict"`
	ShipDate      int32  `parquet:"l_shipdate,date,dict"`
	CommitDate    int32  `parquet:"l_commitdate,date,dict"`
	ReceiptDate   int32  `parquet:"l_receiptdate,date,dict"`
	ShipInstruct  string `parquet:"l_shipinstruct,dict"`
	ShipMode      string `parquet:"l_shipmode,dict"`
	Comment       string `parquet:"l_comment"`
	UUID          string `parquet:"l_uuid"`
	TS            int64  `parquet:"l_ts,timestamp(microsecond:local)"`
}

// pqRowDouble is a row of the lineitem-double table: the money columns
// are DOUBLE, tagged as in pqRow.
type pqRowDouble struct {
	OrderKey      int64   `parquet:"l_orderkey,delta"`
	PartKey       int64   `parquet:"l_partkey"`
	SuppKey       int64   `parquet:"l_suppkey"`
	LineNumber    int64   `parquet:"l_linenumber,dict"`
	Quantity      float64 `parquet:"l_quantity,dict"`
	ExtendedPrice float64 `parquet:"l_extendedprice"`
	Discount      float64 `parquet:"l_discount,dict"`
	Tax           float64 `parquet:"l_tax,dict"`
	ReturnFlag    string  `parquet:"l_returnflag,dict"`
	LineStatus    string  `parquet:"l_linestatus,dict"`
	ShipDate      int32   `parquet:"l_shipdate,date,dict"`
	CommitDate    int32   `parquet:"l_commitdate,date,dict"`
	ReceiptDate   int32   `parquet:"l_receiptdate,date,dict"`
	ShipInstruct  string  `parquet:"l_shipinstruct,dict"`
	ShipMode      string  `parquet:"l_shipmode,dict"`
	Comment       string  `parquet:"l_comment"`
	UUID          string  `parquet:"l_uuid"`
	TS            int64   `parquet:"l_ts,timestamp(microsecond:local)"`
}

func pqgoCodec(codec string) (compress.Codec, error) {
	switch codec {
	case "zstd":
		if zstdLevel > 0 {
			return &zstd.Codec{Level: kzstd.EncoderLevelFromZstd(zstdLevel)}, nil
		}
		return &zstd.Codec{}, nil
	case "snappy":
		return &snappy.Codec{}, nil
	}
	return nil, fmt.Errorf("parquet-go: codec %q not benchmarked", codec)
}

// pqgoWriter writes rows of type T, filled from a chunk by fill.
type pqgoWriter[T any] struct {
	w    *parquet.GenericWriter[T]
	rows []T
	fill func(dst *T, c *Chunk, i int)
}

func newPqgoWriter(out io.Writer, codec string, cfg writeConfig) (tableWriter, error) {
	cc, err := pqgoCodec(codec)
	if err != nil {
		return nil, err
	}
	opts := []parquet.WriterOption{
		parquet.Compression(cc),
		parquet.MaxRowsPerRowGroup(cfg.rowGroupRows),
		parquet.DataPageStatistics(true),
		parquet.BloomFilters(parquet.SplitBlockFilter(10, "l_uuid")), // 10 bits/value: ~1% FPP
	}
	if tableName == tableDouble {
		return &pqgoWriter[pqRowDouble]{w: parquet.NewGenericWriter[pqRowDouble](out, opts...), fill: fillPqRowDouble}, nil
	}
	return &pqgoWriter[pqRow]{w: parquet.NewGenericWriter[pqRow](out, opts...), fill: fillPqRow}, nil
}

// str returns a string aliasing b (the writer copies what it keeps).
func str(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func fillPqRow(r *pqRow, c *Chunk, i int) {
	*r = pqRow{
		OrderKey:      c.I64[cOrderKey][i],
		PartKey:       c.I64[cPartKey][i],
		SuppKey:       c.I64[cSuppKey][i],
		LineNumber:    c.I64[cLineNumber][i],
		Quantity:      c.I64[cQuantity][i],
		ExtendedPrice: c.I64[cExtendedPrice][i],
		Discount:      c.I64[cDiscount][i],
		Tax:           c.I64[cTax][i],
		ReturnFlag:    str(c.Str[cReturnFlag].At(i)),
		LineStatus:    str(c.Str[cLineStatus].At(i)),
		ShipDate:      int32(c.I64[cShipDate][i]),
		CommitDate:    int32(c.I64[cCommitDate][i]),
		ReceiptDate:   int32(c.I64[cReceiptDate][i]),
		ShipInstruct:  str(c.Str[cShipInstruct].At(i)),
		ShipMode:      str(c.Str[cShipMode].At(i)),
		Comment:       str(c.Str[cComment].At(i)),
		UUID:          str(c.Str[cUUID].At(i)),
		TS:            c.I64[cTS][i],
	}
}

func fillPqRowDouble(r *pqRowDouble, c *Chunk, i int) {
	*r = pqRowDouble{
		OrderKey:      c.I64[cOrderKey][i],
		PartKey:       c.I64[cPartKey][i],
		SuppKey:       c.I64[cSuppKey][i],
		LineNumber:    c.I64[cLineNumber][i],
		Quantity:      centsToDouble(c.I64[cQuantity][i]),
		ExtendedPrice: centsToDouble(c.I64[cExtendedPrice][i]),
		Discount:      centsToDouble(c.I64[cDiscount][i]),
		Tax:           centsToDouble(c.I64[cTax][i]),
		ReturnFlag:    str(c.Str[cReturnFlag].At(i)),
		LineStatus:    str(c.Str[cLineStatus].At(i)),
		ShipDate:      int32(c.I64[cShipDate][i]),
		CommitDate:    int32(c.I64[cCommitDate][i]),
		ReceiptDate:   int32(c.I64[cReceiptDate][i]),
		ShipInstruct:  str(c.Str[cShipInstruct].At(i)),
		ShipMode:      str(c.Str[cShipMode].At(i)),
		Comment:       str(c.Str[cComment].At(i)),
		UUID:          str(c.Str[cUUID].At(i)),
		TS:            c.I64[cTS][i],
	}
}

func (p *pqgoWriter[T]) Write(c *Chunk) error {
	if cap(p.rows) < c.N {
		p.rows = make([]T, c.N)
	}
	rows := p.rows[:c.N]
	for i := range rows {
		p.fill(&rows[i], c, i)
	}
	_, err := p.w.Write(rows)
	return err
}

func (p *pqgoWriter[T]) Close() error { return p.w.Close() }

// pqgoFile adapts a parquet-go File to pqFile.
type pqgoFile struct {
	f      *parquet.File
	leaf   [numCols]int
	rgs    []parquet.RowGroup
	pages  map[[2]int][]pageInfo
	blooms map[[2]int]parquet.BloomFilter
}

func openPqgo(r io.ReaderAt, size int64) (*pqgoFile, error) {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, err
	}
	p := &pqgoFile{f: f, rgs: f.RowGroups(), pages: map[[2]int][]pageInfo{}, blooms: map[[2]int]parquet.BloomFilter{}}
	for i, cd := range columns {
		lc, ok := f.Schema().Lookup(cd.name)
		if !ok {
			return nil, fmt.Errorf("parquet-go: no column %s", cd.name)
		}
		p.leaf[i] = lc.ColumnIndex
	}
	return p, nil
}

func (p *pqgoFile) NumRowGroups() int         { return len(p.rgs) }
func (p *pqgoFile) RowGroupRows(rg int) int64 { return p.rgs[rg].NumRows() }
func (p *pqgoFile) chunk(rg, col int) parquet.ColumnChunk {
	return p.rgs[rg].ColumnChunks()[p.leaf[col]]
}

func pqgoStat(col int, lo, hi parquet.Value) Stat {
	if lo.IsNull() || hi.IsNull() {
		return Stat{}
	}
	switch columns[col].kind {
	case kString:
		return Stat{OK: true, SMin: lo.ByteArray(), SMax: hi.ByteArray()}
	case kDate:
		return Stat{OK: true, Min: int64(lo.Int32()), Max: int64(hi.Int32())}
	case kDouble:
		return Stat{OK: true, Min: doubleToCents(lo.Double()), Max: doubleToCents(hi.Double())}
	}
	return Stat{OK: true, Min: lo.Int64(), Max: hi.Int64()}
}

func (p *pqgoFile) ChunkStat(rg, col int) Stat {
	fc, ok := p.chunk(rg, col).(*parquet.FileColumnChunk)
	if !ok {
		return Stat{}
	}
	lo, hi, ok := fc.Bounds()
	if !ok {
		return Stat{}
	}
	return pqgoStat(col, lo, hi)
}

func (p *pqgoFile) Pages(rg, col int) []pageInfo {
	key := [2]int{rg, col}
	if pg, ok := p.pages[key]; ok {
		return pg
	}
	cc := p.chunk(rg, col)
	ci, err1 := cc.ColumnIndex()
	oi, err2 := cc.OffsetIndex()
	var out []pageInfo
	if err1 == nil && err2 == nil && ci != nil && oi != nil && ci.NumPages() == oi.NumPages() {
		rows := p.rgs[rg].NumRows()
		n := oi.NumPages()
		out = make([]pageInfo, n)
		for i := range n {
			first := oi.FirstRowIndex(i)
			end := rows
			if i+1 < n {
				end = oi.FirstRowIndex(i + 1)
			}
			out[i] = pageInfo{First: first, N: end - first}
			if !ci.NullPage(i) {
				out[i].St = pqgoStat(col, ci.MinValue(i), ci.MaxValue(i))
			}
		}
	}
	p.pages[key] = out
	return out
}

func (p *pqgoFile) Bloom(rg, col int, val []byte) (bool, bool) {
	key := [2]int{rg, col}
	bf, ok := p.blooms[key]
	if !ok {
		bf = p.chunk(rg, col).BloomFilter()
		p.blooms[key] = bf
	}
	if bf == nil {
		return true, false
	}
	may, err := bf.Check(parquet.ByteArrayValue(val))
	if err != nil {
		return true, false
	}
	return may, true
}

func (p *pqgoFile) Column(rg, col int, _ readMode) (pqColumn, error) {
	return &pqgoColumn{pages: p.chunk(rg, col).Pages(), kind: columns[col].kind}, nil
}

// pqgoColumn walks the pages of one column chunk.
type pqgoColumn struct {
	pages   parquet.Pages
	kind    colKind
	page    parquet.Page
	start   int64 // row of the page's first value
	off     int   // next value in page
	rows    int   // values in page
	next    int64 // row of the first value of the page after this one
	dict    parquet.Dictionary
	dictI64 []int64
	dictI32 []int32
	dictF64 []float64
	dictB   []byte
	dictOff []uint32
}

func (c *pqgoColumn) release() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
}

func (c *pqgoColumn) SeekRow(row int64) error {
	if c.page != nil && row >= c.start+int64(c.off) && row < c.start+int64(c.rows) {
		c.off = int(row - c.start)
		return nil
	}
	c.release()
	c.next = row
	return c.pages.SeekToRow(row)
}

func (c *pqgoColumn) load() error {
	c.release()
	pg, err := c.pages.ReadPage()
	if err != nil {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	c.page, c.start, c.off, c.rows = pg, c.next, 0, int(pg.NumValues())
	c.next += int64(c.rows)
	if d := pg.Dictionary(); d != nil && d != c.dict {
		c.dict = d
		dv := d.Page().Data()
		switch c.kind {
		case kString:
			c.dictB, c.dictOff = dv.ByteArray()
		case kDate:
			c.dictI32 = dv.Int32()
		case kDouble:
			c.dictF64 = dv.Double()
		default:
			c.dictI64 = dv.Int64()
		}
	}
	return nil
}

func (c *pqgoColumn) Read(ch *Chunk, col, n int) error {
	for n > 0 {
		if c.page == nil || c.off >= c.rows {
			if err := c.load(); err != nil {
				return err
			}
			continue
		}
		k := min(n, c.rows-c.off)
		a, b := c.off, c.off+k
		data := c.page.Data()
		indexed := c.page.Dictionary() != nil
		switch c.kind {
		case kString:
			s := &ch.Str[col]
			if indexed {
				for _, ix := range data.Int32()[a:b] {
					s.add(c.dictB[c.dictOff[ix]:c.dictOff[ix+1]])
				}
			} else {
				vb, vo := data.ByteArray()
				base := len(s.Data) - int(vo[a])
				s.Data = append(s.Data, vb[vo[a]:vo[b]]...)
				for _, o := range vo[a+1 : b+1] {
					s.Off = append(s.Off, base+int(o))
				}
			}
		case kDate:
			dst := ch.I64[col]
			if indexed {
				for _, ix := range data.Int32()[a:b] {
					dst = append(dst, int64(c.dictI32[ix]))
				}
			} else {
				for _, v := range data.Int32()[a:b] {
					dst = append(dst, int64(v))
				}
			}
			ch.I64[col] = dst
		case kDouble:
			dst := ch.I64[col]
			if indexed {
				for _, ix := range data.Int32()[a:b] {
					dst = append(dst, doubleToCents(c.dictF64[ix]))
				}
			} else {
				for _, v := range data.Double()[a:b] {
					dst = append(dst, doubleToCents(v))
				}
			}
			ch.I64[col] = dst
		default:
			if indexed {
				dst := ch.I64[col]
				for _, ix := range data.Int32()[a:b] {
					dst = append(dst, c.dictI64[ix])
				}
				ch.I64[col] = dst
			} else {
				ch.I64[col] = append(ch.I64[col], data.Int64()[a:b]...)
			}
		}
		c.off += k
		n -= k
	}
	return nil
}

func (c *pqgoColumn) Close() error {
	c.release()
	return c.pages.Close()
}

// view returns another pqgoFile over the same open file, with caches of its
// own: one for each goroutine of a parallel scan. The parquet.File and its
// row groups are shared; the library caches their page indexes and bloom
// filters with atomic operations, for goroutines that read at once.
func (p *pqgoFile) view() *pqgoFile {
	return &pqgoFile{f: p.f, leaf: p.leaf, rgs: p.rgs, pages: map[[2]int][]pageInfo{}, blooms: map[[2]int]parquet.BloomFilter{}}
}

// queryPqgo runs q on one goroutine (par 1) or on par goroutines that read
// whole row groups each (pqScanParallel).
func queryPqgo(f *countingFile, q *Query, batch, par int) (QueryResult, error) {
	pf, err := openPqgo(f, f.size)
	if err != nil {
		return QueryResult{}, err
	}
	if par <= 1 {
		return pqScan(pf, q, batch)
	}
	files := []pqFile{pf}
	for len(files) < par {
		files = append(files, pf.view())
	}
	return pqScanParallel(files, q, batch)
}
