package main

// The orcgo side: writer.Writer from typed vectors, reader.BatchReader
// into typed vectors.

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// orcSchemaText returns the ORC schema of the table being run.
func orcSchemaText() string {
	var b strings.Builder
	b.WriteString("struct<")
	for i, cd := range columns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(cd.name)
		b.WriteByte(':')
		switch cd.kind {
		case kLong:
			b.WriteString("bigint")
		case kDecimal:
			b.WriteString("decimal(15,2)")
		case kDouble:
			b.WriteString("double")
		case kDate:
			b.WriteString("date")
		case kString:
			b.WriteString("string")
		case kTS:
			b.WriteString("timestamp")
		}
	}
	b.WriteByte('>')
	return b.String()
}

func orcCodec(codec string) (orc.CompressionKind, error) {
	switch codec {
	case "zstd":
		return orc.CompressionZstd, nil
	case "snappy":
		return orc.CompressionSnappy, nil
	case "none":
		return orc.CompressionNone, nil
	}
	return 0, fmt.Errorf("orcgo: codec %q not benchmarked", codec)
}

type orcWriter struct {
	w *writer.Writer
	b *orc.Batch
}

func newOrcWriter(out io.Writer, codec string, cfg writeConfig) (tableWriter, error) {
	ck, err := orcCodec(codec)
	if err != nil {
		return nil, err
	}
	schema, err := orc.ParseSchema(orcSchemaText())
	if err != nil {
		return nil, err
	}
	opts := []writer.Option{
		writer.WithCompression(ck),
		writer.WithStripeSize(cfg.stripeSize),
		writer.WithRowIndexStride(10000),
		writer.WithBloomFilterColumns("l_uuid"),
		writer.WithBloomFilterFPP(0.01),
		writer.WithParallelism(max(1, orcWriteParallel)),
	}
	if orcBlockSize > 0 {
		opts = append(opts, writer.WithCompressionBlockSize(orcBlockSize))
	}
	if orcLevel > 0 && ck != orc.CompressionSnappy && ck != orc.CompressionNone {
		opts = append(opts, writer.WithCompressionLevel(orcLevel))
	} else if zstdLevel > 0 && ck == orc.CompressionZstd {
		opts = append(opts, writer.WithCompressionLevel(zstdLevel))
	}
	w, err := writer.NewWriter(out, schema, opts...)
	if err != nil {
		return nil, err
	}
	return &orcWriter{w: w, b: orc.NewBatch(schema, cfg.batch)}, nil
}

// Write hands the chunk's buffers to the vectors where the layouts agree
// (bigint, date, string) and converts decimals, doubles and timestamps.
func (o *orcWriter) Write(c *Chunk) error {
	b := o.b
	b.Reset()
	for col := range numCols {
		switch v := b.Cols[col].(type) {
		case *orc.LongVector:
			v.Values = c.I64[col][:c.N]
		case *orc.BytesVector:
			v.Data, v.Offsets = c.Str[col].Data, c.Str[col].Off[:c.N+1]
		case *orc.DecimalVector:
			vals := v.Values[:0]
			for _, x := range c.I64[col][:c.N] {
				vals = append(vals, orc.Int128FromInt64(x))
			}
			v.Values = vals
		case *orc.DoubleVector:
			vals := v.Values[:0]
			for _, x := range c.I64[col][:c.N] {
				vals = append(vals, centsToDouble(x))
			}
			v.Values = vals
		case *orc.TimestampVector:
			sec, ns := v.Seconds[:0], v.Nanos[:0]
			for _, us := range c.I64[col][:c.N] {
				s := us / 1_000_000
				r := us - s*1_000_000
				if r < 0 {
					s--
					r += 1_000_000
				}
				sec = append(sec, s)
				ns = append(ns, int32(r*1000))
			}
			v.Seconds, v.Nanos = sec, ns
		default:
			return fmt.Errorf("orcgo: unexpected vector %T", v)
		}
	}
	b.NumRows = c.N
	err := o.w.Write(b)
	// drop the borrowed buffers so a later Reset cannot touch them
	for col := range numCols {
		switch v := b.Cols[col].(type) {
		case *orc.LongVector:
			v.Values = nil
		case *orc.BytesVector:
			v.Data, v.Offsets = nil, nil
		}
	}
	return err
}

func (o *orcWriter) Close() error { return o.w.Close() }

// orcStripeRows returns the median rows per stripe of an ORC file, to size
// the Parquet row groups alike. Not the average: with a short last stripe,
// that would give Parquet row groups a seventh smaller than the stripes at
// SF 1, which hold less in memory while they are written.
func orcStripeRows(path string) (int64, error) {
	f, err := openCounting(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r, err := reader.Open(f, f.size)
	if err != nil {
		return 0, err
	}
	st := r.Stripes()
	if len(st) == 0 {
		return 0, fmt.Errorf("orcgo: %s has no stripes", path)
	}
	rows := make([]int64, len(st))
	for i, s := range st {
		rows[i] = s.NumRows
	}
	slices.Sort(rows)
	return rows[len(rows)/2], nil
}

// orcUseSarg passes each query's predicate to the orcgo reader (flag
// -orc-sarg).
var orcUseSarg = true

// orcBlockSize and orcLevel are the orcgo writer's compression block size
// and codec level (flags -orc-block-size, -orc-level; 0 keeps the writer's
// defaults).
var orcBlockSize, orcLevel int

// zstdLevel is the ZSTD level of both orcgo and parquet-go (-zstd-level;
// 0: their defaults).
var zstdLevel int

// orcColumns is how many goroutines the orcgo reader decodes a batch's
// columns on (flag -orc-columns, reader.WithColumnParallelism).
var orcColumns = 1

// orcWindow is the orcgo reader's read window (flag -orc-window,
// reader.WithReadWindow; 0 keeps the default).
var orcWindow int64

// orcWriteParallel is how many goroutines the orcgo writer encodes and
// compresses a batch's columns on (flag -orc-write-parallel,
// writer.WithParallelism).
var orcWriteParallel = 1

// orcView makes a Chunk that views an orcgo batch: bigint, date and string
// vectors are used in place; decimals, doubles and timestamps are converted.
type orcView struct {
	cols []int // batch column i is bench column cols[i]
	dec  [numCols][]int64
	c    Chunk
}

func (v *orcView) view(b *orc.Batch) (*Chunk, error) {
	c := &v.c
	c.N = b.NumRows
	for i, col := range v.cols {
		switch x := b.Cols[i].(type) {
		case *orc.LongVector:
			c.I64[col] = x.Values
		case *orc.BytesVector:
			c.Str[col] = Strs{Data: x.Data, Off: x.Offsets}
			if c.N == 0 {
				c.Str[col].Off = []int{0}
			}
		case *orc.DecimalVector:
			if x.Scale != 2 {
				return nil, fmt.Errorf("orcgo: decimal scale %d", x.Scale)
			}
			d := v.dec[col][:0]
			for _, y := range x.Values {
				d = append(d, y.Int64())
			}
			v.dec[col], c.I64[col] = d, d
		case *orc.DoubleVector:
			d := v.dec[col][:0]
			for _, y := range x.Values {
				d = append(d, doubleToCents(y))
			}
			v.dec[col], c.I64[col] = d, d
		case *orc.TimestampVector:
			d := v.dec[col][:0]
			for j, s := range x.Seconds {
				d = append(d, s*1_000_000+int64(x.Nanos[j])/1000)
			}
			v.dec[col], c.I64[col] = d, d
		default:
			return nil, fmt.Errorf("orcgo: unexpected vector %T", x)
		}
	}
	return c, nil
}

// queryOrc runs q with the orcgo reader decoding up to par stripes at once
// (reader.WithParallelism(par); 1 is a serial scan).
func queryOrc(f *countingFile, q *Query, batch, par int) (QueryResult, error) {
	r, err := reader.Open(f.forOrc(), f.size)
	if err != nil {
		return QueryResult{}, err
	}
	opts := []reader.ScanOption{reader.WithBatchSize(batch), reader.WithParallelism(max(1, par)),
		reader.WithColumnParallelism(max(1, orcColumns))}
	if orcWindow > 0 {
		opts = append(opts, reader.WithReadWindow(orcWindow))
	}
	if len(q.Cols) < numCols {
		opts = append(opts, reader.WithColumns(colNames(q.Cols)...))
	}
	// SARG: the predicate goes to the reader, which skips stripes and row
	// groups with statistics and bloom filters and filters rows exactly,
	// decoding the other columns only for batches with a match. The rows
	// it returns still go through the same exact filter below, which must
	// then keep them all. With -orc-sarg=false orcgo scans the needed columns
	// in full and only that filter runs.
	if q.Pred != nil && orcUseSarg {
		e, err := sarg.Parse(q.SQL)
		if err != nil {
			return QueryResult{}, err
		}
		opts = append(opts, reader.WithSearchArgument(e), reader.WithExactFilter(true))
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return QueryResult{}, err
	}
	defer br.Close()
	b := br.NewBatch()
	var v orcView
	for _, name := range b.Schema.FieldNames {
		found := false
		for col, cd := range columns {
			if cd.name == name {
				v.cols = append(v.cols, col)
				found = true
			}
		}
		if !found {
			return QueryResult{}, fmt.Errorf("orcgo: unexpected column %s", name)
		}
	}
	f2 := rowFilter{q: q}
	for {
		err := br.Next(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			return f2.res, err
		}
		t := time.Now()
		c, err := v.view(b)
		if err != nil {
			return f2.res, err
		}
		f2.add(c)
		f2.res.Consume += time.Since(t)
	}
	// rows decoded by the reader (predicate columns included), not rows
	// returned to us
	f2.res.RowsDecoded = br.Stats().RowsDecoded
	return f2.res, nil
}
