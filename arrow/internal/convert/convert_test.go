package convert_test

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/arrow/internal/convert"
	"github.com/orcgo/orc/arrow/internal/lineitem"
	"github.com/orcgo/orc/arrow/internal/rowcheck"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// orcSum checksums an ORC file's rows read with the library's batch API.
func orcSum(tb testing.TB, data []byte) (*orc.Schema, *rowcheck.Sum) {
	tb.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithBatchSize(8192))
	if err != nil {
		tb.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var s rowcheck.Sum
	for {
		err := br.Next(b)
		if err == io.EOF {
			return r.Schema(), &s
		}
		if err != nil {
			tb.Fatal(err)
		}
		s.Add(testutil.Rows(r.Schema(), b, false))
	}
}

// parquetSum checksums a Parquet file's rows read with arrow-go's pqarrow,
// reading them as values of ORC schema s.
func parquetSum(tb testing.TB, data []byte, s *orc.Schema) (*arrow.Schema, *rowcheck.Sum) {
	tb.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 10000}, memory.DefaultAllocator)
	if err != nil {
		tb.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer rr.Release()
	var sum rowcheck.Sum
	for rr.Next() {
		rec := rr.RecordBatch()
		for i, c := range rec.Columns() {
			if err := array.ValidateFull(c); err != nil {
				tb.Fatalf("column %d: %v", i, err)
			}
		}
		sum.Add(rowcheck.RecordRows(s, rec))
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		tb.Fatal(err)
	}
	return rr.Schema(), &sum
}

func writeORC(tb testing.TB, s *orc.Schema, batches []*orc.Batch) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// bothWays converts an ORC file to Parquet and back, and checks that the
// three files hold the same rows (checksums) and the ORC schema survives.
func bothWays(t *testing.T, orcData []byte, toPQ convert.ToParquet, toORC convert.ToORC) {
	t.Helper()
	schema, want := orcSum(t, orcData)
	var pq bytes.Buffer
	n, err := convert.ORCToParquet(bytes.NewReader(orcData), int64(len(orcData)), &pq, toPQ)
	if err != nil {
		t.Fatal(err)
	}
	if n != want.Rows {
		t.Fatalf("ORCToParquet wrote %d rows, the file has %d", n, want.Rows)
	}
	_, got := parquetSum(t, pq.Bytes(), schema)
	if got.String() != want.String() {
		t.Fatalf("ORC -> Parquet: ORC %s, Parquet %s", want, got)
	}
	var back bytes.Buffer
	if n, err := convert.ParquetToORC(bytes.NewReader(pq.Bytes()), &back, toORC); err != nil || n != want.Rows {
		t.Fatalf("ParquetToORC: %d rows, %v", n, err)
	}
	schema2, got2 := orcSum(t, back.Bytes())
	if schema2.String() != schema.String() {
		t.Fatalf("schema after ORC -> Parquet -> ORC:\n got %s\nwant %s", schema2, schema)
	}
	if got2.String() != want.String() {
		t.Fatalf("Parquet -> ORC: ORC %s, back %s", want, got2)
	}
	t.Logf("%s; ORC %d bytes, Parquet %d bytes, ORC again %d bytes", want, len(orcData), pq.Len(), back.Len())
}

// TestLineitemBothWays converts a lineitem table ORC -> Parquet -> ORC.
func TestLineitemBothWays(t *testing.T) {
	rows := 300_000
	if testing.Short() {
		rows = 50_000
	}
	g := lineitem.New(1)
	var bs []*orc.Batch
	for left := rows; left > 0; left -= 50_000 {
		bs = append(bs, g.Batch(min(left, 50_000)))
	}
	data := writeORC(t, g.Schema(), bs)
	bothWays(t, data,
		convert.ToParquet{Codec: "zstd", RowGroup: 100_000, BatchSize: 32768},
		convert.ToORC{Codec: "zstd", StripeSize: 8 << 20, BatchSize: 20000})
}

// TestNestedBothWays converts every type Parquet can hold (all but unions),
// with nulls at every level, both ways.
func TestNestedBothWays(t *testing.T) {
	s := orc.MustParseSchema("struct<bo:boolean,ti:tinyint,si:smallint,i:int,bi:bigint,fl:float,do:double," +
		"st:string,vc:varchar(5),ch:char(7),bin:binary,d1:decimal(1,0),d18:decimal(18,6),d38:decimal(38,10)," +
		"da:date,ts:timestamp,tsi:timestamp with local time zone," +
		"s:struct<a:int,b:array<map<string,struct<x:double,y:array<string>>>>>," +
		"l:array<array<struct<p:string,q:decimal(38,38)>>>," +
		"m:map<int,map<string,array<timestamp>>>>")
	for seed := range uint64(3) {
		g := testutil.NewGenerator(rand.New(rand.NewPCG(seed, 3)), s)
		var bs []*orc.Batch
		for range 2 {
			b := g.Batch(500)
			for f, c := range s.Children {
				rowcheck.FitForArrow(c, b.Cols[f])
			}
			bs = append(bs, b)
		}
		bothWays(t, writeORC(t, s, bs),
			convert.ToParquet{Codec: "snappy", RowGroup: 300, BatchSize: 128},
			convert.ToORC{Codec: "lz4", RowIndexStride: 100, BatchSize: 77})
	}
}

// TestBareRootBothWays converts files whose root is not a struct.
func TestBareRootBothWays(t *testing.T) {
	for i, text := range []string{"map<string,array<timestamp>>", "decimal(38,6)"} {
		s := orc.MustParseSchema(text)
		g := testutil.NewGenerator(rand.New(rand.NewPCG(uint64(i), 5)), s)
		b := g.Batch(400)
		rowcheck.FitForArrow(s, b.Cols[0])
		// the generator may make a root all null; make every 7th row null
		// instead (for the map, only rows owning no entries)
		nulls := make([]bool, 400)
		for r := range nulls {
			nulls[r] = r%7 == 0
		}
		switch v := b.Cols[0].(type) {
		case *orc.MapVector:
			for r := range nulls {
				nulls[r] = nulls[r] && v.Offsets[r] == v.Offsets[r+1]
			}
			v.Nulls.Nulls = nulls
		case *orc.DecimalVector:
			v.Nulls.Nulls = nulls
		}
		bothWays(t, writeORC(t, s, []*orc.Batch{b}),
			convert.ToParquet{Codec: "gzip", RowGroup: 100, BatchSize: 64},
			convert.ToORC{Codec: "snappy", BatchSize: 50})
	}
}

// TestErrors checks the refusals: unions, unknown codecs, bad sizes.
func TestErrors(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,u:uniontype<int,string>>")
	b := orc.NewBatch(s, 1)
	b.Cols[0].(*orc.LongVector).Values = []int64{1}
	u := b.Cols[1].(*orc.UnionVector)
	u.Tags = []uint8{0}
	u.Children[0].(*orc.LongVector).Values = []int64{5}
	u.Children[1].(*orc.BytesVector).AppendString("")
	b.NumRows = 1
	data := writeORC(t, s, []*orc.Batch{b})
	var out bytes.Buffer
	_, err := convert.ORCToParquet(bytes.NewReader(data), int64(len(data)), &out, convert.ToParquet{Codec: "zstd", RowGroup: 10, BatchSize: 10})
	if err == nil || !strings.Contains(err.Error(), `"u"`) {
		t.Fatalf("union: got %v", err)
	}
	// selecting the other columns works
	if _, err := convert.ORCToParquet(bytes.NewReader(data), int64(len(data)), &out,
		convert.ToParquet{Codec: "zstd", RowGroup: 10, BatchSize: 10, Columns: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := convert.ORCToParquet(bytes.NewReader(data), int64(len(data)), &out, convert.ToParquet{Codec: "lzma", RowGroup: 10, BatchSize: 10}); err == nil || !strings.Contains(err.Error(), "lzma") {
		t.Fatalf("codec: got %v", err)
	}
	if _, err := convert.ParquetToORC(bytes.NewReader(out.Bytes()), io.Discard, convert.ToORC{Codec: "brotli", BatchSize: 10}); err == nil {
		t.Fatal("ORC brotli accepted")
	}
	if _, err := convert.ParquetToORC(bytes.NewReader([]byte("not parquet at all")), io.Discard, convert.ToORC{Codec: "zstd", BatchSize: 10}); err == nil {
		t.Fatal("garbage accepted")
	}
	if _, err := convert.ORCToParquet(bytes.NewReader([]byte("ORC")), 3, io.Discard, convert.ToParquet{Codec: "zstd", RowGroup: 10, BatchSize: 10}); err == nil {
		t.Fatal("garbage accepted")
	}
}
