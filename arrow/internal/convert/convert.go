// Package convert converts ORC files to Parquet and back through Arrow
// records: the ORC side with package orcarrow, the Parquet side with
// arrow-go's pqarrow. The commands orc2parquet and parquet2orc are thin
// flag parsers over it.
package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// Progress prints a line to W every Every while a conversion runs (none for
// runs shorter than that). A zero Every or nil W prints nothing.
type Progress struct {
	W     io.Writer
	Every time.Duration
	Name  string // the command, starting each line

	start, last time.Time
}

func (p *Progress) begin() { p.start = time.Now(); p.last = p.start }

func (p *Progress) tick(rows, total int64) {
	if p.W == nil || p.Every <= 0 {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < p.Every {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	pct := ""
	if total > 0 {
		pct = fmt.Sprintf(" of %d (%.1f%%)", total, 100*float64(rows)/float64(total))
	}
	fmt.Fprintf(p.W, "%s: %d rows%s, %.0f rows/s, %.1fs\n", p.Name, rows, pct, float64(rows)/el, el)
}

// ParquetCodecs are the Parquet codec names ORCToParquet accepts.
var ParquetCodecs = map[string]compress.Compression{
	"none": compress.Codecs.Uncompressed, "snappy": compress.Codecs.Snappy, "gzip": compress.Codecs.Gzip,
	"brotli": compress.Codecs.Brotli, "zstd": compress.Codecs.Zstd, "lz4": compress.Codecs.Lz4Raw,
}

// ORCCodecs are the ORC codec names ParquetToORC accepts.
var ORCCodecs = map[string]orc.CompressionKind{
	"none": orc.CompressionNone, "zlib": orc.CompressionZlib, "snappy": orc.CompressionSnappy,
	"lz4": orc.CompressionLZ4, "zstd": orc.CompressionZstd,
}

// ToParquet configures ORCToParquet.
type ToParquet struct {
	Codec     string   // a key of ParquetCodecs
	RowGroup  int64    // most rows in a row group
	BatchSize int      // rows per record
	Columns   []string // ORC columns to convert (all when empty)
	Progress  Progress
}

// Check validates the options.
func (o ToParquet) Check() error {
	if _, ok := ParquetCodecs[strings.ToLower(o.Codec)]; !ok {
		return fmt.Errorf("unknown Parquet codec %q (want one of %s)", o.Codec, names(ParquetCodecs))
	}
	if o.RowGroup <= 0 || o.BatchSize <= 0 {
		return errors.New("row group and batch size must be positive")
	}
	return nil
}

// onlyWriter hides a Close method: pqarrow's FileWriter closes a sink that
// has one, and the caller owns out.
type onlyWriter struct{ io.Writer }

// ORCToParquet converts the ORC file in (of size bytes) to Parquet on out
// and returns the rows written. The Arrow schema is stored in the Parquet
// file, so char and varchar types survive a conversion back.
// It does not close out.
func ORCToParquet(in io.ReaderAt, size int64, out io.Writer, o ToParquet) (int64, error) {
	if err := o.Check(); err != nil {
		return 0, err
	}
	codec := ParquetCodecs[strings.ToLower(o.Codec)]
	r, err := reader.Open(in, size)
	if err != nil {
		return 0, err
	}
	scan := []reader.ScanOption{reader.WithBatchSize(o.BatchSize)}
	if len(o.Columns) > 0 {
		scan = append(scan, reader.WithColumns(o.Columns...))
	}
	rr, err := orcarrow.FromReader(r, orcarrow.WithScanOptions(scan...))
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	if err := parquetCompatible(rr.Schema()); err != nil {
		return 0, err
	}
	ps, geo, err := wrapGeo(rr.Schema())
	if err != nil {
		return 0, err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(codec), parquet.WithMaxRowGroupLength(o.RowGroup),
		parquet.WithStats(true))
	fw, err := pqarrow.NewFileWriter(ps, onlyWriter{out}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return 0, err
	}
	rows, err := copyRecords(rr, geo, ps, nil, func(rec arrow.RecordBatch) error {
		if err := fw.WriteBuffered(rec); err != nil {
			return fmt.Errorf("writing Parquet: %w", err)
		}
		return nil
	}, &o.Progress, r.NumRows())
	if err == nil {
		err = rr.Err()
	}
	if err != nil {
		fw.Close()
		return rows, err
	}
	if err := fw.Close(); err != nil {
		return rows, fmt.Errorf("writing Parquet: %w", err)
	}
	return rows, nil
}

// parquetCompatible refuses what Parquet cannot store (unions), naming the
// field, before any byte is written.
func parquetCompatible(s *arrow.Schema) error {
	var walk func(path string, t arrow.DataType) error
	walk = func(path string, t arrow.DataType) error {
		switch t := t.(type) {
		case arrow.UnionType:
			return fmt.Errorf("column %q is a uniontype, which Parquet cannot store (select other columns with -columns)", path)
		case arrow.NestedType:
			for _, f := range t.Fields() {
				if err := walk(path+"."+f.Name, f.Type); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, f := range s.Fields() {
		if err := walk(f.Name, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// ToORC configures ParquetToORC.
type ToORC struct {
	Codec          string // a key of ORCCodecs
	StripeSize     int64  // bytes; 0 keeps the writer's default
	RowIndexStride int    // rows; 0 keeps the writer's default
	BatchSize      int    // rows per record
	Progress       Progress
}

// Check validates the options.
func (o ToORC) Check() error {
	if _, ok := ORCCodecs[strings.ToLower(o.Codec)]; !ok {
		return fmt.Errorf("unknown ORC codec %q (want one of %s)", o.Codec, names(ORCCodecs))
	}
	if o.BatchSize <= 0 || o.StripeSize < 0 || o.RowIndexStride < 0 {
		return errors.New("batch size must be positive, stripe size and row index stride not negative")
	}
	return nil
}

// ParquetToORC converts the Parquet file in to ORC on out and returns the
// rows written.
// It does not close out.
func ParquetToORC(in parquet.ReaderAtSeeker, out io.Writer, o ToORC) (int64, error) {
	if err := o.Check(); err != nil {
		return 0, err
	}
	codec := ORCCodecs[strings.ToLower(o.Codec)]
	if err := registerWKB(); err != nil {
		return 0, err
	}
	pf, err := file.NewParquetReader(in)
	if err != nil {
		return 0, fmt.Errorf("reading Parquet: %w", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(o.BatchSize)}, memory.DefaultAllocator)
	if err != nil {
		return 0, fmt.Errorf("reading Parquet: %w", err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return 0, fmt.Errorf("reading Parquet: %w", err)
	}
	defer rr.Release()
	opts := []writer.Option{writer.WithCompression(codec)}
	if o.StripeSize > 0 {
		opts = append(opts, writer.WithStripeSize(o.StripeSize))
	}
	if o.RowIndexStride > 0 {
		opts = append(opts, writer.WithRowIndexStride(o.RowIndexStride))
	}
	// the record reader's schema drops the schema-level metadata that marks
	// a non-struct ORC root (orcarrow.MetadataORCRoot); the file's has it
	ws := rr.Schema()
	if full, err := fr.Schema(); err == nil && full.Metadata().Len() > 0 {
		md := full.Metadata()
		ws = arrow.NewSchema(ws.Fields(), &md)
	}
	rs := ws // the records' schema
	ws, geo, err := unwrapGeo(ws)
	if err != nil {
		return 0, err
	}
	w, err := orcarrow.NewWriter(out, ws, opts...)
	if err != nil {
		return 0, err
	}
	check := func(rec arrow.RecordBatch) error {
		if !arrow.TypeEqual(arrow.StructOf(rec.Schema().Fields()...), arrow.StructOf(rs.Fields()...)) {
			return fmt.Errorf("reading Parquet: a record of schema %s, want %s", rec.Schema(), rs)
		}
		return nil
	}
	rows, err := copyRecords(rr, geo, ws, check, w.Write, &o.Progress, pf.NumRows())
	if err != nil {
		return rows, err
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return rows, fmt.Errorf("reading Parquet: %w", err)
	}
	if err := w.Close(); err != nil {
		return rows, err
	}
	return rows, nil
}

// copyRecords writes the records of rr with write and returns how many
// rows it wrote, ticking p after each record towards total. When geo is
// set, each record is first vetted by check (when not nil), then retyped
// to schema ws. It leaves rr's own error to the caller.
func copyRecords(rr interface {
	Next() bool
	RecordBatch() arrow.RecordBatch
}, geo bool, ws *arrow.Schema, check, write func(arrow.RecordBatch) error, p *Progress, total int64) (int64, error) {
	p.begin()
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		n := rec.NumRows()
		if geo {
			if check != nil {
				if err := check(rec); err != nil {
					return rows, err
				}
			}
			rec = retypeRecord(ws, rec)
		}
		err := write(rec)
		if geo {
			rec.Release()
		}
		if err != nil {
			return rows, err
		}
		rows += n
		p.tick(rows, total)
	}
	return rows, nil
}

func names[V any](m map[string]V) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return strings.Join(ks, ", ")
}
