package writer_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

func rowSchema[T any](t *testing.T) string {
	t.Helper()
	rw, err := writer.NewRowWriter[T](io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return rw.Schema().String()
}

type rowPoint struct {
	X, Y float64
}

type rowBase struct {
	ID      int64 `orc:"id"`
	Created time.Time
}

type rowDoc struct {
	rowBase                       // promoted: id, Created
	Title    string               `orc:"title,varchar(100)"`
	Lang     string               `orc:"lang,char(2)"`
	Body     []byte               `orc:"body"`
	Pages    uint16               `orc:"pages"`
	Rating   *float32             `orc:"rating"`
	Price    writer.Decimal       `orc:"price,decimal(10,2)"`
	Due      *time.Time           `orc:"due,date"`
	Logged   time.Time            `orc:"logged,instant"`
	Authors  []string             `orc:"authors"`
	Shape    []rowPoint           `orc:"shape"`
	Origin   *rowPoint            `orc:"origin"`
	Meta     map[string][]int32   `orc:"meta"`
	Versions map[uint8]*time.Time `orc:"versions"`
	Internal string               `orc:"-"`
	secret   string               //lint:ignore U1000 unexported: the test checks it is not written
}

// TestRowSchema prints the schema derived from struct types.
func TestRowSchema(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"document", rowSchema[rowDoc](t), "struct<id:bigint,Created:timestamp,title:varchar(100),lang:char(2),body:binary," +
			"pages:int,rating:float,price:decimal(10,2),due:date,logged:timestamp with local time zone," +
			"authors:array<string>,shape:array<struct<X:double,Y:double>>,origin:struct<X:double,Y:double>," +
			"meta:map<string,array<int>>,versions:map<smallint,timestamp>>"},
		{"integers", rowSchema[struct {
			A int8
			B int16
			C int32
			D int64
			E int
			F uint8
			G uint16
			H uint32
			I uint64
			J uint
			K bool
		}](t), "struct<A:tinyint,B:smallint,C:int,D:bigint,E:bigint,F:smallint,G:int,H:bigint,I:bigint,J:bigint,K:boolean>"},
		{"empty", rowSchema[struct{}](t), "struct<>"},
		{"default decimal", rowSchema[struct{ D writer.Decimal }](t), "struct<D:decimal(38,10)>"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, tc.got, tc.want)
		}
	}
}

func TestRowWriterUnsupported(t *testing.T) {
	check := func(name string, err error, want ...string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", name)
			return
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", name, err, w)
			}
		}
	}
	var buf bytes.Buffer
	_, err := writer.NewRowWriter[struct{ C chan int }](&buf)
	check("chan", err, "field C", "chan int", "not supported")
	_, err = writer.NewRowWriter[struct{ F func(int) error }](&buf)
	check("func", err, "field F", "func(int) error")
	_, err = writer.NewRowWriter[struct{ V any }](&buf)
	check("interface", err, "field V", "interface {}")
	_, err = writer.NewRowWriter[struct{ Z complex64 }](&buf)
	check("complex", err, "field Z", "complex64")
	_, err = writer.NewRowWriter[struct{ P uintptr }](&buf)
	check("uintptr", err, "field P", "uintptr")
	_, err = writer.NewRowWriter[struct {
		Inner struct {
			List []map[string]chan bool
		}
	}](&buf)
	check("nested", err, "field Inner.List[][value]", "chan bool")
	_, err = writer.NewRowWriter[struct {
		N int `orc:"n,decimal(5,2)"`
	}](&buf)
	check("misplaced option", err, "field N", "decimal", "Decimal")
	_, err = writer.NewRowWriter[*rowDoc](&buf)
	check("pointer row", err, "not a struct")
	_, err = writer.NewRowWriter[rowDoc](&buf, writer.WithBloomFilterColumns("nope"))
	if err == nil {
		t.Error("a bloom filter on a missing column was accepted")
	}
	if buf.Len() != 0 {
		t.Errorf("failed constructors wrote %d bytes", buf.Len())
	}
}

func TestRowWriterClose(t *testing.T) {
	var buf bytes.Buffer
	rw, err := writer.NewRowWriter[rowPoint](&buf, writer.WithCompression(orc.CompressionNone))
	if err != nil {
		t.Fatal(err)
	}
	if err := rw.Write(rowPoint{1, 2}, rowPoint{3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := rw.Write(); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	if !bytes.HasPrefix(buf.Bytes(), []byte("ORC")) || size < 20 {
		t.Fatalf("file of %d bytes", size)
	}
	if err := rw.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := rw.Write(rowPoint{}); !errors.Is(err, writer.ErrClosed) {
		t.Errorf("Write after Close: %v", err)
	}
	if buf.Len() != size {
		t.Error("calls after Close wrote bytes")
	}
}

// rowFailWriter fails every write after the first n bytes.
type rowFailWriter struct{ n int }

func (f *rowFailWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestRowWriterIOError(t *testing.T) {
	rw, err := writer.NewRowWriter[rowPoint](&rowFailWriter{n: 3}, writer.WithCompression(orc.CompressionNone),
		writer.WithStripeSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]rowPoint, 50000)
	var first error
	for range 10 {
		if err := rw.Write(rows...); err != nil {
			first = err
			break
		}
	}
	if first == nil {
		first = rw.Close()
	}
	if first == nil || !strings.Contains(first.Error(), "disk full") {
		t.Fatalf("error %v, want disk full", first)
	}
	if err := rw.Write(rowPoint{}); err == nil {
		t.Error("Write after an I/O error succeeded")
	}
}

// benchRow is the 10-field struct of the row benchmarks.
type benchRow struct {
	ID     int64          `orc:"id"`
	Qty    int32          `orc:"qty"`
	Flag   bool           `orc:"flag"`
	Price  float64        `orc:"price"`
	Ratio  float32        `orc:"ratio"`
	Name   string         `orc:"name"`
	City   string         `orc:"city"`
	At     time.Time      `orc:"at"`
	Amount writer.Decimal `orc:"amount,decimal(12,2)"`
	Parent *int64         `orc:"parent"`
}

const benchRows = 100_000

func benchData() []benchRow {
	cities := []string{"Lisbon", "Oslo", "Kyoto", "Lagos", "Lima", "Perth"}
	rows := make([]benchRow, benchRows)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		r := &rows[i]
		r.ID = int64(i)
		r.Qty = int32(i % 1000)
		r.Flag = i%3 == 0
		r.Price = float64(i) * 0.25
		r.Ratio = float32(i%100) / 100
		r.Name = "customer-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		r.City = cities[i%len(cities)]
		r.At = base.Add(time.Duration(i) * time.Second)
		r.Amount = writer.Decimal{Unscaled: orc.Int128FromInt64(int64(i * 7)), Scale: 2}
		if i%4 != 0 {
			p := int64(i / 2)
			r.Parent = &p
		}
	}
	return rows
}

const benchSchema = "struct<id:bigint,qty:int,flag:boolean,price:double,ratio:float,name:string,city:string," +
	"at:timestamp,amount:decimal(12,2),parent:bigint>"

// fillBatch is what batch API users write by hand for benchRow.
func fillBatch(b *orc.Batch, rows []benchRow) {
	b.Reset()
	id, qty, flag := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.LongVector)
	price, ratio := b.Cols[3].(*orc.DoubleVector), b.Cols[4].(*orc.DoubleVector)
	name, city := b.Cols[5].(*orc.BytesVector), b.Cols[6].(*orc.BytesVector)
	at, amount, parent := b.Cols[7].(*orc.TimestampVector), b.Cols[8].(*orc.DecimalVector), b.Cols[9].(*orc.LongVector)
	for i := range rows {
		r := &rows[i]
		id.Values = append(id.Values, r.ID)
		qty.Values = append(qty.Values, int64(r.Qty))
		var f int64
		if r.Flag {
			f = 1
		}
		flag.Values = append(flag.Values, f)
		price.Values = append(price.Values, r.Price)
		ratio.Values = append(ratio.Values, float64(r.Ratio))
		name.AppendString(r.Name)
		city.AppendString(r.City)
		at.Seconds = append(at.Seconds, r.At.Unix())
		at.Nanos = append(at.Nanos, int32(r.At.Nanosecond()))
		amount.Values = append(amount.Values, r.Amount.Unscaled)
		if r.Parent == nil {
			parent.Values = append(parent.Values, 0)
			parent.Nulls.Nulls = append(parent.Nulls.Nulls, true)
		} else {
			parent.Values = append(parent.Values, *r.Parent)
			parent.Nulls.Nulls = append(parent.Nulls.Nulls, false)
		}
	}
	b.NumRows = len(rows)
}

// BenchmarkRowWrite compares writing benchRow values with RowWriter to
// the batch API: "batch-fill" fills batches by hand from the same structs,
// "batch-prefilled" writes batches filled beforehand (the writer's own
// cost). Bytes are the file's; rows/s counts rows.
func BenchmarkRowWrite(b *testing.B) {
	rows := benchData()
	schema := orc.MustParseSchema(benchSchema)
	var buf bytes.Buffer
	report := func(b *testing.B) {
		b.SetBytes(int64(buf.Len()))
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	}
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			buf.Reset()
			rw, err := writer.NewRowWriter[benchRow](&buf)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < len(rows); i += 1000 {
				if err := rw.Write(rows[i : i+1000]...); err != nil {
					b.Fatal(err)
				}
			}
			if err := rw.Close(); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("batch-fill", func(b *testing.B) {
		b.ReportAllocs()
		batch := orc.NewBatch(schema, 1024)
		for range b.N {
			buf.Reset()
			w, err := writer.NewWriter(&buf, schema)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < len(rows); i += 1024 {
				fillBatch(batch, rows[i:min(i+1024, len(rows))])
				if err := w.Write(batch); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("batch-prefilled", func(b *testing.B) {
		b.ReportAllocs()
		var batches []*orc.Batch
		for i := 0; i < len(rows); i += 1024 {
			batch := orc.NewBatch(schema, 1024)
			fillBatch(batch, rows[i:min(i+1024, len(rows))])
			batches = append(batches, batch)
		}
		b.ResetTimer()
		for range b.N {
			buf.Reset()
			w, err := writer.NewWriter(&buf, schema)
			if err != nil {
				b.Fatal(err)
			}
			for _, batch := range batches {
				if err := w.Write(batch); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
}
