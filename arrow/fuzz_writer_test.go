package orcarrow_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/reader"
)

// fuzzTypes are the column types FuzzWriterMalformed builds arrays of.
var fuzzTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8,
	arrow.PrimitiveTypes.Int32,
	arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Float64,
	arrow.BinaryTypes.String,
	arrow.BinaryTypes.LargeString,
	arrow.BinaryTypes.Binary,
	&arrow.FixedSizeBinaryType{ByteWidth: 3},
	arrow.FixedWidthTypes.Date32,
	arrow.FixedWidthTypes.Date64,
	&arrow.TimestampType{Unit: arrow.Microsecond},
	&arrow.Decimal128Type{Precision: 10, Scale: 2},
	arrow.ListOf(arrow.PrimitiveTypes.Int32),
	arrow.LargeListOf(arrow.BinaryTypes.String),
	arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}),
	arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64),
	arrow.DenseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0, 5}),
	arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0, 5}),
}

// lyingRecord is a record whose column is not of the type its schema
// says (a dictionary array under a string field, say), or has another
// length: what a buggy producer hands over.
type lyingRecord struct {
	arrow.RecordBatch
	col arrow.Array
}

func (r lyingRecord) Column(i int) arrow.Array { return r.col }
func (r lyingRecord) Columns() []arrow.Array   { return []arrow.Array{r.col} }

// fuzzArray builds an array of type t over buffers cut from the fuzzer's
// bytes: lengths, offsets and null counts as given, however they disagree
// with the buffers. It returns nil when arrow-go itself refuses (panics
// on) the data.
func fuzzArray(t arrow.DataType, length, offset, nulls int, flags uint8, bufs [][]byte, depth int) (arr arrow.Array) {
	defer func() {
		if recover() != nil {
			arr = nil
		}
	}()
	buf := func(i int) *memory.Buffer {
		b := bufs[i%len(bufs)]
		if flags&(1<<(i%4)) != 0 && len(b) == 0 {
			return nil // an absent buffer rather than an empty one
		}
		return memory.NewBufferBytes(b)
	}
	validity := buf(0)
	if flags&0x10 != 0 {
		validity = nil // and nulls, if not 0, lies
	}
	var buffers []*memory.Buffer
	var children []arrow.ArrayData
	child := func(ct arrow.DataType, n int) {
		if depth > 2 {
			return
		}
		c := fuzzArray(ct, n, 0, -1, flags>>1, bufs[1:], depth+1)
		if c == nil {
			panic("child")
		}
		children = append(children, c.Data())
	}
	switch tt := t.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType:
		buffers = []*memory.Buffer{validity, buf(1), buf(2)}
	case *arrow.ListType:
		buffers = []*memory.Buffer{validity, buf(1)}
		child(tt.Elem(), length+offset+int(flags&3))
	case *arrow.LargeListType:
		buffers = []*memory.Buffer{validity, buf(1)}
		child(tt.Elem(), length+offset+int(flags&3))
	case *arrow.MapType:
		buffers = []*memory.Buffer{validity, buf(1)}
		child(tt.Elem(), length+offset+int(flags&3))
	case *arrow.StructType:
		buffers = []*memory.Buffer{validity}
		for _, f := range tt.Fields() {
			child(f.Type, length+offset)
		}
	case *arrow.DenseUnionType:
		buffers = []*memory.Buffer{nil, buf(1), buf(2)}
		for _, f := range tt.Fields() {
			child(f.Type, int(flags&7))
		}
	case *arrow.SparseUnionType:
		buffers = []*memory.Buffer{nil, buf(1)}
		for _, f := range tt.Fields() {
			child(f.Type, length+offset)
		}
	default:
		buffers = []*memory.Buffer{validity, buf(1)}
	}
	data := array.NewData(t, length, buffers, children, nulls, offset)
	defer data.Release()
	return array.MakeFromData(data)
}

// FuzzWriterMalformed hands the Arrow writer arrays whose buffers, lengths,
// offsets and null counts disagree (offsets past the data, null counts
// that lie, zero-length or absent buffers), and records whose columns are
// not of their schema's type (dictionaries among them). Write may refuse
// them, but must not panic; a record it accepts must read back from the
// file written.
func FuzzWriterMalformed(f *testing.F) {
	i32 := func(v ...int32) []byte { return arrow.Int32Traits.CastToBytes(v) }
	f.Add(uint8(5), int16(3), int16(0), int16(0), uint8(0), []byte{7}, i32(0, 1, 2, 3), []byte("abc"))
	f.Add(uint8(5), int16(3), int16(0), int16(0), uint8(0), []byte{7}, i32(0, 1, 2, 300), []byte("abc"))
	f.Add(uint8(5), int16(3), int16(1), int16(2), uint8(0x10), []byte{}, i32(0, 2, 1, 3, 9), []byte("abcd"))
	f.Add(uint8(13), int16(2), int16(0), int16(0), uint8(0), []byte{3}, i32(0, 1, -5), i32(1, 2, 3))
	f.Add(uint8(3), int16(4), int16(0), int16(1), uint8(0x10), []byte{15}, []byte{1, 2, 3}, []byte{})
	f.Add(uint8(17), int16(2), int16(0), int16(0), uint8(1), []byte{}, []byte{0, 5}, i32(0, 7))
	f.Add(uint8(15), int16(3), int16(0), int16(-1), uint8(0x20), []byte{255}, i32(0, 1, 2, 3), []byte("xyz"))
	f.Add(uint8(5), int16(3), int16(0), int16(0), uint8(0x40), []byte{7}, i32(0, 1, 2), []byte("ab"))
	f.Fuzz(func(t *testing.T, kind uint8, length, offset, nulls int16, flags uint8, b0, b1, b2 []byte) {
		writeMalformed(t, kind, length, offset, nulls, flags, b0, b1, b2)
	})
}

// Outcomes of writeMalformed.
const (
	builtNot  = iota // arrow-go refused to build the array
	refused          // Write returned an error
	readsBack        // Write took it, and the file reads back
)

// writeMalformed is FuzzWriterMalformed's body; it returns what came of
// the input.
func writeMalformed(t *testing.T, kind uint8, length, offset, nulls int16, flags uint8, b0, b1, b2 []byte) int {
	{
		typ := fuzzTypes[int(kind)%len(fuzzTypes)]
		n := int(length) % 300
		if n < 0 {
			n = -n
		}
		off := int(offset) % 64
		if off < 0 {
			off = -off
		}
		col := fuzzArray(typ, n, off, int(nulls), flags, [][]byte{b0, b1, b2}, 0)
		if col == nil {
			return builtNot
		}
		defer col.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: typ, Nullable: true}}, nil)
		var rec arrow.RecordBatch
		switch {
		case flags&0x40 != 0:
			// A dictionary of strings where the schema says string (or
			// whatever typ is): the column is not what the schema says.
			dict, _, err := array.FromJSON(memory.DefaultAllocator, arrow.BinaryTypes.String, bytes.NewReader([]byte(`["x","yy",null]`)))
			if err != nil {
				t.Fatal(err)
			}
			defer dict.Release()
			idx := fuzzArray(arrow.PrimitiveTypes.Int32, n, off, int(nulls), flags, [][]byte{b0, b1, b2}, 0)
			if idx == nil {
				return builtNot
			}
			defer idx.Release()
			var d arrow.Array
			func() {
				defer func() { recover() }()
				d = array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, idx, dict)
			}()
			if d == nil {
				return builtNot
			}
			defer d.Release()
			base := array.NewRecordBatch(schema, []arrow.Array{array.MakeArrayOfNull(memory.DefaultAllocator, typ, n)}, int64(n))
			defer base.Release()
			rec = lyingRecord{RecordBatch: base, col: d}
		case flags&0x20 != 0:
			// A column of another length than the record says.
			base := array.NewRecordBatch(schema, []arrow.Array{array.MakeArrayOfNull(memory.DefaultAllocator, typ, n+1)}, int64(n+1))
			defer base.Release()
			rec = lyingRecord{RecordBatch: base, col: col}
		default:
			rec = array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
			defer rec.Release()
		}
		var out bytes.Buffer
		w, err := orcarrow.NewWriter(&out, schema)
		if err != nil {
			t.Fatalf("NewWriter(%s): %v", typ, err)
		}
		werr := w.Write(rec)
		if werr != nil && werr.Error() == "" {
			t.Fatal("an empty error")
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close after Write (%v): %v", werr, err)
		}
		r, err := reader.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("the file written does not open (Write said %v): %v", werr, err)
		}
		if r.NumRows() != 0 && werr != nil {
			t.Fatalf("a refused record left %d rows: %v", r.NumRows(), werr)
		}
		br, err := r.NewBatchReader()
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		b := br.NewBatch()
		for {
			err := br.Next(b)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("the file written does not read back (%s, %d rows): %v", typ, r.NumRows(), err)
			}
		}
		if werr != nil {
			return refused
		}
		return readsBack
	}
}

// TestWriterMalformedOutcomes runs FuzzWriterMalformed's body over random
// inputs and checks that it reaches every outcome for every kind of lie:
// a fuzzer whose inputs all stop before Write would test nothing.
func TestWriterMalformedOutcomes(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 5))
	bytesOf := func() []byte {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(r.IntN(4)) // small values: offsets that nearly fit
		}
		return b
	}
	var count [3]int
	var byLie [3][3]int // flags 0x40 (dictionary), 0x20 (length), neither
	for range 600 {
		flags := uint8(r.IntN(256))
		out := writeMalformed(t, uint8(r.IntN(len(fuzzTypes))), int16(r.IntN(20)), int16(r.IntN(4)), int16(r.IntN(6)-1), flags, bytesOf(), bytesOf(), bytesOf())
		count[out]++
		lie := 2
		switch {
		case flags&0x40 != 0:
			lie = 0
		case flags&0x20 != 0:
			lie = 1
		}
		byLie[lie][out]++
	}
	t.Logf("not built %d, refused %d, read back %d; by lie (dictionary, length, none): %v", count[0], count[1], count[2], byLie)
	for lie, c := range byLie {
		if c[refused] == 0 || lie == 2 && c[readsBack] == 0 {
			t.Errorf("lie %d: outcomes %v: the fuzzer does not reach Write's refusals and acceptances", lie, c)
		}
	}
}

// List offsets past the child values (found by FuzzWriterMalformed: an
// offset of 808,464,432 over 2 values made Write gather 808 million
// entries, minutes and gigabytes) are an error, whether or not a null row
// owns elements.
func TestWriterListOffsetsPastChildren(t *testing.T) {
	for _, validity := range [][]byte{{0b01}, {0b11}} {
		child := fuzzArray(arrow.PrimitiveTypes.Int32, 2, 0, 0, 0x10, [][]byte{{}, arrow.Int32Traits.CastToBytes([]int32{1, 2})}, 1)
		if child == nil {
			t.Fatal("the child does not build")
		}
		typ := arrow.ListOf(arrow.PrimitiveTypes.Int32)
		data := array.NewData(typ, 2, []*memory.Buffer{memory.NewBufferBytes(validity),
			memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 808464432, 2}))}, []arrow.ArrayData{child.Data()}, -1, 0)
		col := array.MakeFromData(data)
		schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: typ, Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, 2)
		var out bytes.Buffer
		w, err := orcarrow.NewWriter(&out, schema)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = w.Write(rec)
		if err == nil || !strings.Contains(err.Error(), "list offset 808464432") {
			t.Errorf("validity %b: %v; want an error naming the offset", validity[0], err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Write took %v", d)
		}
		rec.Release()
		col.Release()
		data.Release()
		child.Release()
	}
}
