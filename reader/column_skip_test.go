package reader

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// skipKinds are the columns of skipFile, one per column reader kind (and
// encoding), with nulls in some.
var skipKinds = []struct{ name, typ string }{
	{"bool", "boolean"},
	{"byte", "tinyint"},
	{"int", "bigint"},
	{"int_nulls", "bigint"},
	{"double", "double"},
	{"string_direct", "string"},
	{"string_dict", "string"},
	{"decimal", "decimal(15,2)"},
	{"timestamp", "timestamp"},
	{"list", "array<int>"},
	{"struct", "struct<a:int,b:string>"},
	{"string_fixed", "string"},
	{"list_fixed", "array<int>"},
}

// skipFile writes rows rows of skipKinds' columns in one stripe, without
// compression so that decoding is what is measured.
func skipFile(tb testing.TB, rows int) *Reader {
	tb.Helper()
	var fields []string
	for _, k := range skipKinds {
		fields = append(fields, k.name+":"+k.typ)
	}
	schema := orc.MustParseSchema("struct<" + joinComma(fields) + ">")
	b := orc.NewBatch(schema, rows)
	rng := rand.New(rand.NewPCG(11, 12))
	words := []string{"AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB", "REG AIR"}
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(rng.IntN(2)))
		b.Cols[1].(*orc.LongVector).Values = append(b.Cols[1].(*orc.LongVector).Values, int64(rng.IntN(256)-128))
		b.Cols[2].(*orc.LongVector).Values = append(b.Cols[2].(*orc.LongVector).Values, int64(rng.IntN(200000)))
		iv := b.Cols[3].(*orc.LongVector)
		iv.Values = append(iv.Values, int64(rng.IntN(1<<20)))
		iv.Nulls.Nulls = append(iv.Nulls.Nulls, rng.IntN(10) == 0)
		b.Cols[4].(*orc.DoubleVector).Values = append(b.Cols[4].(*orc.DoubleVector).Values, rng.Float64())
		b.Cols[5].(*orc.BytesVector).AppendString(fmt.Sprintf("%x-%d", rng.Uint64(), rng.IntN(1000)))
		b.Cols[6].(*orc.BytesVector).AppendString(words[rng.IntN(len(words))])
		dv := b.Cols[7].(*orc.DecimalVector)
		dv.Scale = 2
		dv.Values = append(dv.Values, orc.Int128FromInt64((1+rng.Int64N(50))*(90000+rng.Int64N(120000))))
		tv := b.Cols[8].(*orc.TimestampVector)
		tv.Seconds = append(tv.Seconds, 700_000_000+rng.Int64N(200_000_000))
		tv.Nanos = append(tv.Nanos, int32(rng.IntN(1_000_000))*1000)
		lv := b.Cols[9].(*orc.ListVector)
		if len(lv.Offsets) == 0 {
			lv.Offsets = append(lv.Offsets, 0)
		}
		ev := lv.Elem.(*orc.LongVector)
		for range rng.IntN(5) {
			ev.Values = append(ev.Values, int64(rng.IntN(1000)))
		}
		lv.Offsets = append(lv.Offsets, int64(len(ev.Values)))
		sv := b.Cols[10].(*orc.StructVector)
		sv.Nulls.Nulls = append(sv.Nulls.Nulls, i%7 == 3)
		sv.Fields[0].(*orc.LongVector).Values = append(sv.Fields[0].(*orc.LongVector).Values, int64(i))
		sv.Fields[1].(*orc.BytesVector).AppendString(words[i%len(words)] + "x")
		sv.N++
		b.Cols[11].(*orc.BytesVector).AppendString(fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", rng.Uint32(), rng.IntN(1<<16), rng.IntN(1<<16), rng.IntN(1<<16), rng.Int64N(1<<48)))
		fl := b.Cols[12].(*orc.ListVector)
		if len(fl.Offsets) == 0 {
			fl.Offsets = append(fl.Offsets, 0)
		}
		fe := fl.Elem.(*orc.LongVector)
		for range 3 {
			fe.Values = append(fe.Values, int64(rng.IntN(1000)))
		}
		fl.Offsets = append(fl.Offsets, int64(len(fe.Values)))
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithCompression(orc.CompressionNone))
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

// startColumn returns a scan of one column of r whose first row has been
// read (so its stripe is started), with the column's reader and a vector
// for it.
func startColumn(tb testing.TB, r *Reader, name string) (*BatchReader, columnReader, orc.Vector) {
	tb.Helper()
	br, err := r.NewBatchReader(WithColumns(name), WithBatchSize(1))
	if err != nil {
		tb.Fatal(err)
	}
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		tb.Fatal(err)
	}
	return br, br.exec().dec.root.(*structReader).fields[0], b.Cols[0]
}

// Skipping rows leaves every column reader where reading them would: after
// skips of assorted sizes (inside runs, across runs, across row groups),
// the next rows equal those of a scan that read everything.
func TestColumnSkipInStep(t *testing.T) {
	const rows = 30000
	r := skipFile(t, rows)
	for _, k := range skipKinds {
		t.Run(k.name, func(t *testing.T) {
			_, all, av := startColumn(t, r, k.name)
			_, sk, sv := startColumn(t, r, k.name)
			rng := rand.New(rand.NewPCG(13, 14))
			at := 1
			for at < rows {
				n := min([]int{1, 3, 8, 100, 513, 4096, 11000}[rng.IntN(7)], rows-at)
				if err := all.next(av, n, nil); err != nil {
					t.Fatal(err)
				}
				if err := sk.skip(int64(n)); err != nil {
					t.Fatalf("skip %d at row %d: %v", n, at, err)
				}
				at += n
				m := min(1+rng.IntN(40), rows-at)
				if m == 0 {
					break
				}
				if err := all.next(av, m, nil); err != nil {
					t.Fatal(err)
				}
				if err := sk.next(sv, m, nil); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(av, sv) {
					t.Fatalf("rows %d..%d after a skip of %d differ:\n got %+v\nwant %+v", at, at+m, n, sv, av)
				}
				at += m
			}
		})
	}
}

// BenchmarkColumnNextSkip compares decoding a column's rows (next, in
// batches of 4096) with skipping them (skip, in the same steps), per column
// kind, over one uncompressed stripe of 200,000 rows.
func BenchmarkColumnNextSkip(b *testing.B) {
	const rows = 200_000
	r := skipFile(b, rows)
	for _, k := range skipKinds {
		for _, op := range []string{"next", "skip"} {
			b.Run(k.name+"/"+op, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					_, c, v := startColumn(b, r, k.name)
					b.StartTimer()
					for at := 1; at < rows; at += 4096 {
						n := min(4096, rows-at)
						var err error
						if op == "next" {
							err = c.next(v, n, nil)
						} else {
							err = c.skip(int64(n))
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
			})
		}
	}
}
