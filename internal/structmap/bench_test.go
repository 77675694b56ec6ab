package structmap

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// benchRow is the 10-field struct of the benchmarks.
type benchRow struct {
	ID     int64     `orc:"id"`
	Qty    int32     `orc:"qty"`
	Flag   bool      `orc:"flag"`
	Price  float64   `orc:"price"`
	Ratio  float32   `orc:"ratio"`
	Name   string    `orc:"name"`
	City   string    `orc:"city"`
	At     time.Time `orc:"at"`
	Amount Decimal   `orc:"amount,decimal(12,2)"`
	Parent *int64    `orc:"parent"`
}

// benchRowBytes approximates the payload of one row, for SetBytes.
const benchRowBytes = 8 + 4 + 1 + 8 + 4 + 14 + 5 + 12 + 16 + 8

func benchRows(n int) []benchRow {
	cities := []string{"Lisbon", "Oslo", "Kyoto", "Lagos", "Lima", "Perth"}
	rows := make([]benchRow, n)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		r := &rows[i]
		r.ID, r.Qty, r.Flag = int64(i), int32(i%1000), i%3 == 0
		r.Price, r.Ratio = float64(i)*0.25, float32(i%100)/100
		r.Name = fmt.Sprintf("customer-%05d", i)
		r.City = cities[i%len(cities)]
		r.At = base.Add(time.Duration(i) * time.Second)
		r.Amount = Decimal{Unscaled: orc.Int128FromInt64(int64(i * 7)), Scale: 2}
		if i%4 != 0 {
			p := int64(i / 2)
			r.Parent = &p
		}
	}
	return rows
}

// handEncode fills a batch from rows the way a batch API user would.
func handEncode(b *orc.Batch, rows []benchRow) {
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

// handDecode copies a batch into rows the way a batch API user would.
func handDecode(b *orc.Batch, dst []benchRow) {
	id, qty, flag := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.LongVector)
	price, ratio := b.Cols[3].(*orc.DoubleVector), b.Cols[4].(*orc.DoubleVector)
	name, city := b.Cols[5].(*orc.BytesVector), b.Cols[6].(*orc.BytesVector)
	at, amount, parent := b.Cols[7].(*orc.TimestampVector), b.Cols[8].(*orc.DecimalVector), b.Cols[9].(*orc.LongVector)
	parents := make([]int64, b.NumRows)
	for i := range b.NumRows {
		r := &dst[i]
		r.ID, r.Qty, r.Flag = id.Values[i], int32(qty.Values[i]), flag.Values[i] != 0
		r.Price, r.Ratio = price.Values[i], float32(ratio.Values[i])
		r.Name, r.City = name.String(i), city.String(i)
		r.At = time.Unix(at.Seconds[i], int64(at.Nanos[i])).UTC()
		r.Amount = Decimal{Unscaled: amount.Values[i], Scale: amount.Scale}
		r.Parent = nil
		if !parent.IsNull(i) {
			parents[i] = parent.Values[i]
			r.Parent = &parents[i]
		}
	}
}

// BenchmarkEncode moves batches of 1024 rows into vectors: "rows" with the
// Encoder, "hand" with code written for the type.
func BenchmarkEncode(b *testing.B) {
	rows := benchRows(1024)
	enc, err := NewEncoder(reflect.TypeFor[benchRow]())
	if err != nil {
		b.Fatal(err)
	}
	batch := orc.NewBatch(enc.Schema(), 1024)
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"rows", func() {
			if _, err := Encode(enc, batch, rows); err != nil {
				b.Fatal(err)
			}
		}},
		{"hand", func() { handEncode(batch, rows) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchRowBytes * 1024)
			b.ReportAllocs()
			for range b.N {
				batch.Reset()
				c.fn()
			}
			b.ReportMetric(1024*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkDecode moves a batch of 1024 rows into structs: "rows" with the
// Decoder, "hand" with code written for the type.
func BenchmarkDecode(b *testing.B) {
	rows := benchRows(1024)
	enc, _ := NewEncoder(reflect.TypeFor[benchRow]())
	batch := orc.NewBatch(enc.Schema(), 1024)
	if _, err := Encode(enc, batch, rows); err != nil {
		b.Fatal(err)
	}
	dec, err := NewDecoder(reflect.TypeFor[benchRow](), enc.Schema())
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]benchRow, 1024)
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"rows", func() {
			if err := Decode(dec, batch, 0, dst); err != nil {
				b.Fatal(err)
			}
		}},
		{"hand", func() { handDecode(batch, dst) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchRowBytes * 1024)
			b.ReportAllocs()
			for range b.N {
				c.fn()
			}
			b.ReportMetric(1024*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
