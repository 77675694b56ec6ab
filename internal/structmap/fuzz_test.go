package structmap

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/orcgo/orc"
)

// fuzzRow reads every vector kind with offsets, nulls and nesting.
type fuzzRow struct {
	L  []int16            `orc:"l"`
	M  map[string]*uint8  `orc:"m"`
	S  string             `orc:"s"`
	B  []byte             `orc:"b"`
	P  *struct{ X int32 } `orc:"p"`
	LL [][]string         `orc:"ll"`
	D  Decimal            `orc:"d"`
}

const fuzzSchema = "struct<l:array<bigint>,m:map<string,int>,s:string,b:binary,p:struct<X:int>," +
	"ll:array<array<string>>,d:decimal(10,2)>"

// fuzzBatch builds a batch whose vectors take their lengths, offsets,
// nulls and values from data, consistent or not.
func fuzzBatch(data []byte) (*orc.Batch, int) {
	next := func() int64 {
		if len(data) == 0 {
			return 0
		}
		v, n := binary.Varint(data)
		if n <= 0 {
			v = int64(int8(data[0]))
			data = data[1:]
			return v
		}
		data = data[n:]
		return v
	}
	small := func() int { return int(uint64(next()) % 12) }
	b := orc.NewBatch(orc.MustParseSchema(fuzzSchema), 4)
	rows := small()
	var fill func(v orc.Vector, n int)
	fill = func(v orc.Vector, n int) {
		if m := orc.NullsOf(v); next()%3 == 0 {
			for range n + int(next()%2) {
				m.Nulls = append(m.Nulls, next()%2 == 0)
			}
		}
		offsets := func() []int64 {
			var o []int64
			for range n + 1 + int(next()%2) {
				o = append(o, next())
			}
			return o
		}
		switch v := v.(type) {
		case *orc.LongVector:
			for range n + int(next()%2) {
				v.Values = append(v.Values, next())
			}
		case *orc.DecimalVector:
			for range n {
				v.Values = append(v.Values, orc.Int128FromInt64(next()))
			}
		case *orc.BytesVector:
			for range n + 1 {
				v.Offsets = append(v.Offsets, int(next()))
			}
			for range small() {
				v.Data = append(v.Data, byte(next()))
			}
		case *orc.StructVector:
			v.N = n + int(next()%2)
			for _, f := range v.Fields {
				fill(f, n)
			}
		case *orc.ListVector:
			v.Offsets = offsets()
			fill(v.Elem, small())
		case *orc.MapVector:
			v.Offsets = offsets()
			k := small()
			fill(v.Keys, k)
			fill(v.Values, k)
		}
	}
	for _, c := range b.Cols {
		fill(c, rows)
	}
	b.NumRows = rows
	return b, rows
}

// FuzzDecode decodes batches with arbitrary vectors: decoding may fail but
// must not panic or touch memory outside the vectors (run with -race to
// enable pointer checks).
func FuzzDecode(f *testing.F) {
	// A consistent batch as a seed, and some noise.
	f.Add([]byte{4, 0, 2, 2, 4, 6, 8, 0, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{6, 1, 1, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 2, 0})
	f.Add([]byte{20, 3, 127, 255, 1, 0, 7, 9, 200, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Add([]byte("a fairly long seed of printable bytes to drive every vector kind"))
	dec, err := NewDecoder(reflect.TypeFor[fuzzRow](), orc.MustParseSchema(fuzzSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, rows := fuzzBatch(data)
		dst := make([]fuzzRow, rows)
		_ = Decode(dec, b, 0, dst)
		if rows > 1 {
			_ = Decode(dec, b, 1, dst[1:])
		}
	})
}

// FuzzRoundTrip encodes rows generated from a seed and decodes them back.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, uint16(17))
	}
	typ := reflect.TypeFor[rich]()
	f.Fuzz(func(t *testing.T, seed uint64, n uint16) {
		rows := randRows(seed, int(n%200))
		enc, err := NewEncoder(typ)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(enc.Schema(), len(rows))
		if k, err := Encode(enc, b, rows); err != nil || k != len(rows) {
			t.Fatalf("Encode: %d, %v", k, err)
		}
		dec, err := NewDecoder(typ, enc.Schema())
		if err != nil {
			t.Fatal(err)
		}
		got := make([]rich, len(rows))
		if err := Decode(dec, b, 0, got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatal("round trip changed the rows")
		}
	})
}

type promoted struct {
	A int16 `orc:"a"`
	B string
}

type hiddenBase struct {
	C float32 `orc:"c"`
	d int
}

type hiddenPtr struct{ Z int }

type withPromoted struct {
	Head string `orc:"head"`
	promoted
	*hiddenPtr
	hiddenBase
	Tail []int8 `orc:"tail"`
}

// TestEmbeddedRoundTrip checks that promoted fields of embedded structs,
// exported or not, are read and written at their offsets.
func TestEmbeddedRoundTrip(t *testing.T) {
	typ := reflect.TypeFor[withPromoted]()
	s, err := SchemaOf(typ)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "struct<head:string,a:smallint,B:string,c:float,tail:array<tinyint>>"; got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	rows := []withPromoted{
		{Head: "h1", promoted: promoted{A: -3, B: "b1"}, hiddenBase: hiddenBase{C: 1.5, d: 9}, Tail: []int8{1}},
		{Head: "h2", promoted: promoted{A: 7, B: "b2"}, hiddenBase: hiddenBase{C: -2}},
	}
	enc, _ := NewEncoder(typ)
	b := orc.NewBatch(s, 2)
	if _, err := Encode(enc, b, rows); err != nil {
		t.Fatal(err)
	}
	dec, err := NewDecoder(typ, s)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]withPromoted, 2)
	if err := Decode(dec, b, 0, got); err != nil {
		t.Fatal(err)
	}
	rows[0].d = 0 // unexported: not stored
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("read %+v, want %+v", got, rows)
	}
}
