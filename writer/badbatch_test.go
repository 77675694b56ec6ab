package writer_test

// Refused batches: a batch that does not fit the schema, or whose values
// the column types cannot hold, is an ordinary error (no panic), and the
// writer stays as it was: the file equals one written without that batch.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

const badSchema = "struct<ti:tinyint,si:smallint,i:int,da:date,bi:bigint,d:double,s:string,dec:decimal(5,2)," +
	"ts:timestamp,l:array<tinyint>,m:map<string,int>,st:struct<x:tinyint,y:array<int>>,u:uniontype<int,decimal(3,1),tinyint>>"

// goodBatch returns three valid rows of badSchema; row 1 has nulls where
// the types allow, with out-of-range junk in the null slots.
func goodBatch() *orc.Batch {
	s := orc.MustParseSchema(badSchema)
	b := orc.NewBatch(s, 3)
	b.NumRows = 3
	longs := func(i int, vals ...int64) {
		v := b.Cols[i].(*orc.LongVector)
		v.Values = vals
		v.Nulls.Nulls = []bool{false, true, false}
	}
	longs(0, -128, 999, 127)
	longs(1, -32768, 1<<40, 32767)
	longs(2, math.MinInt32, 1<<40, math.MaxInt32)
	longs(3, math.MinInt32, -1<<40, math.MaxInt32)
	longs(4, math.MinInt64, 0, math.MaxInt64)
	b.Cols[5].(*orc.DoubleVector).Values = []float64{1, math.NaN(), math.Copysign(0, -1)}
	sv := b.Cols[6].(*orc.BytesVector)
	sv.AppendString("a")
	sv.AppendString("bb")
	sv.AppendString("")
	dv := b.Cols[7].(*orc.DecimalVector)
	dv.Values = []orc.Int128{orc.Int128FromInt64(99999), orc.Int128FromInt64(1 << 60), orc.Int128FromInt64(-99999)}
	dv.Nulls.Nulls = []bool{false, true, false}
	tv := b.Cols[8].(*orc.TimestampVector)
	tv.Seconds, tv.Nanos = []int64{-5, 0, 1 << 40}, []int32{999_999_999, -7, 0}
	tv.Nulls.Nulls = []bool{false, true, false}
	lv := b.Cols[9].(*orc.ListVector)
	lv.Offsets = []int64{0, 2, 2, 3}
	lv.Elem.(*orc.LongVector).Values = []int64{1, -128, 127}
	lv.Nulls.Nulls = []bool{false, true, false}
	mv := b.Cols[10].(*orc.MapVector)
	mv.Offsets = []int64{0, 1, 1, 1}
	mv.Keys.(*orc.BytesVector).AppendString("k")
	mv.Values.(*orc.LongVector).Values = []int64{5}
	st := b.Cols[11].(*orc.StructVector)
	st.N = 3
	st.Nulls.Nulls = []bool{false, true, false}
	st.Fields[0].(*orc.LongVector).Values = []int64{1, 1000, 2} // junk under the null row
	yl := st.Fields[1].(*orc.ListVector)
	yl.Offsets = []int64{0, 1, 3, 3} // the null struct row's list owns junk elements
	yl.Elem.(*orc.LongVector).Values = []int64{7, 8, 9}
	uv := b.Cols[12].(*orc.UnionVector)
	uv.Tags = []uint8{0, 77, 2} // junk tag in the null row
	uv.Nulls.Nulls = []bool{false, true, false}
	uv.Children[0].(*orc.LongVector).Values = []int64{4, 0, 1 << 40}             // junk where the tag is 2
	uv.Children[1].(*orc.DecimalVector).Values = make([]orc.Int128, 3)           // unused
	uv.Children[1].(*orc.DecimalVector).Values[0] = orc.Int128FromInt64(1 << 50) // junk: tag 0 row
	uv.Children[2].(*orc.LongVector).Values = []int64{1000, 1000, -3}            // junk in rows 0, 1
	return b
}

// badBatches lists batches the writer must refuse, each a good batch with
// one thing broken.
func badBatches() []struct {
	name   string
	break_ func(b *orc.Batch)
} {
	type c = struct {
		name   string
		break_ func(b *orc.Batch)
	}
	long := func(b *orc.Batch, i int) *orc.LongVector { return b.Cols[i].(*orc.LongVector) }
	return []c{
		{"nil batch", nil},
		{"negative rows", func(b *orc.Batch) { b.NumRows = -1 }},
		{"more rows than vectors", func(b *orc.Batch) { b.NumRows = 4 }},
		{"missing column", func(b *orc.Batch) { b.Cols = b.Cols[:5] }},
		{"nil column", func(b *orc.Batch) { b.Cols[3] = nil }},
		{"other schema", func(b *orc.Batch) { b.Schema = orc.MustParseSchema("struct<a:int>") }},
		{"wrong vector type", func(b *orc.Batch) { b.Cols[2] = &orc.DoubleVector{Values: make([]float64, 3)} }},
		{"list for map", func(b *orc.Batch) {
			b.Cols[10] = &orc.ListVector{Offsets: []int64{0, 0, 0, 0}, Elem: &orc.LongVector{}}
		}},
		{"short null mask", func(b *orc.Batch) { long(b, 0).Nulls.Nulls = []bool{false} }},
		{"a selection", func(b *orc.Batch) { b.Selected, b.NumRows = []int32{0, 2}, 2 }},
		{"tinyint 128", func(b *orc.Batch) { long(b, 0).Values[2] = 128 }},
		{"tinyint -129", func(b *orc.Batch) { long(b, 0).Values[0] = -129 }},
		{"smallint 32768", func(b *orc.Batch) { long(b, 1).Values[2] = 32768 }},
		{"int 2^31", func(b *orc.Batch) { long(b, 2).Values[2] = 1 << 31 }},
		{"date -2^31-1", func(b *orc.Batch) { long(b, 3).Values[0] = math.MinInt32 - 1 }},
		{"bytes offsets backwards", func(b *orc.Batch) { b.Cols[6].(*orc.BytesVector).Offsets[2] = 0 }},
		{"bytes offset past data", func(b *orc.Batch) { b.Cols[6].(*orc.BytesVector).Offsets[3] = 99 }},
		{"bytes negative offset", func(b *orc.Batch) { b.Cols[6].(*orc.BytesVector).Offsets[0] = -1 }},
		{"bytes no offsets", func(b *orc.Batch) { b.Cols[6].(*orc.BytesVector).Offsets = nil }},
		{"decimal too wide", func(b *orc.Batch) { b.Cols[7].(*orc.DecimalVector).Values[2] = orc.Int128FromInt64(-100000) }},
		{"decimal inexact rescale", func(b *orc.Batch) {
			v := b.Cols[7].(*orc.DecimalVector)
			v.Scale, v.Values[0] = 3, orc.Int128FromInt64(1234)
		}},
		{"decimal too wide after rescale", func(b *orc.Batch) {
			v := b.Cols[7].(*orc.DecimalVector)
			v.Scale, v.Values[0] = 0, orc.Int128FromInt64(1000)
		}},
		{"decimal scale 39", func(b *orc.Batch) { b.Cols[7].(*orc.DecimalVector).Scale = 39 }},
		{"decimal scale -1", func(b *orc.Batch) { b.Cols[7].(*orc.DecimalVector).Scale = -1 }},
		{"nanos negative", func(b *orc.Batch) { b.Cols[8].(*orc.TimestampVector).Nanos[0] = -1 }},
		{"nanos 1e9", func(b *orc.Batch) { b.Cols[8].(*orc.TimestampVector).Nanos[2] = 1_000_000_000 }},
		{"nanos missing", func(b *orc.Batch) { b.Cols[8].(*orc.TimestampVector).Nanos = []int32{0} }},
		{"list offsets backwards", func(b *orc.Batch) { b.Cols[9].(*orc.ListVector).Offsets[3] = 1 }},
		{"list negative offset", func(b *orc.Batch) { b.Cols[9].(*orc.ListVector).Offsets[0] = -1 }},
		{"null list row owns children", func(b *orc.Batch) {
			v := b.Cols[9].(*orc.ListVector)
			v.Offsets[2] = 3
		}},
		{"list child too short", func(b *orc.Batch) { b.Cols[9].(*orc.ListVector).Offsets[3] = 4 }},
		{"list element out of range", func(b *orc.Batch) { b.Cols[9].(*orc.ListVector).Elem.(*orc.LongVector).Values[2] = 128 }},
		{"map value vector missing", func(b *orc.Batch) { b.Cols[10].(*orc.MapVector).Values = nil }},
		{"struct field count", func(b *orc.Batch) {
			v := b.Cols[11].(*orc.StructVector)
			v.Fields = v.Fields[:1]
		}},
		{"struct N too small", func(b *orc.Batch) { b.Cols[11].(*orc.StructVector).N = 2 }},
		{"struct field out of range", func(b *orc.Batch) { b.Cols[11].(*orc.StructVector).Fields[0].(*orc.LongVector).Values[2] = -200 }},
		{"union tag out of range", func(b *orc.Batch) { b.Cols[12].(*orc.UnionVector).Tags[0] = 3 }},
		{"union variant count", func(b *orc.Batch) {
			v := b.Cols[12].(*orc.UnionVector)
			v.Children = v.Children[:2]
		}},
		{"union variant value out of range", func(b *orc.Batch) { b.Cols[12].(*orc.UnionVector).Children[2].(*orc.LongVector).Values[2] = 300 }},
		{"union decimal too wide", func(b *orc.Batch) {
			v := b.Cols[12].(*orc.UnionVector)
			v.Tags[0] = 1
			v.Children[1].(*orc.DecimalVector).Values[0] = orc.Int128FromInt64(1000)
		}},
	}
}

func writeBatches(t *testing.T, s *orc.Schema, batches ...*orc.Batch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(100), writer.WithBloomFilterColumns("i", "s"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			t.Fatalf("good batch refused: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBadBatches checks every refused batch: an error, no panic, and a
// file equal to one written without it.
func TestBadBatches(t *testing.T) {
	s := orc.MustParseSchema(badSchema)
	want := writeBatches(t, s, goodBatch(), goodBatch())
	for _, c := range badBatches() {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			var bad *orc.Batch
			if c.break_ != nil {
				bad = goodBatch()
				c.break_(bad)
			}
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(100), writer.WithBloomFilterColumns("i", "s"))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(goodBatch()); err != nil {
				t.Fatal(err)
			}
			err = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
						t.Errorf("Write panicked: %v", r)
					}
				}()
				return w.Write(bad)
			}()
			if err == nil {
				t.Fatalf("bad batch accepted")
			}
			if !strings.HasPrefix(err.Error(), "orc: ") {
				t.Errorf("error %q lacks the orc: prefix", err)
			}
			if !errors.Is(err, orc.ErrInvalidBatch) {
				t.Errorf("error %q is not orc.ErrInvalidBatch", err)
			}
			t.Logf("%v", err)
			if err := w.Write(goodBatch()); err != nil {
				t.Fatalf("good batch after the bad one: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("the refused batch changed the file")
			}
		})
	}
}

// TestGoodBatchJunk checks that values the writer does not store (null
// slots, rows under null parents, other union variants) are not checked:
// goodBatch has out-of-range junk in all of those.
func TestGoodBatchJunk(t *testing.T) {
	writeBatches(t, orc.MustParseSchema(badSchema), goodBatch())
}
