package structmap

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

type address struct {
	Street string `orc:"street"`
	Zip    *int32 `orc:"zip"`
}

// rich exercises every mapping. Values made by randomRich are already in
// the form a read gives back (UTC times, dates at midnight, decimals at
// their column's scale, nil for empty slices and maps), so that a round
// trip must reproduce them exactly.
type rich struct {
	B      bool
	I8     int8
	I16    int16
	I32    int32
	I64    int64
	I      int
	U8     uint8
	U16    uint16
	U32    uint32
	U64    uint64
	F32    float32
	F64    float64
	S      string `orc:"s"`
	Raw    []byte
	TS     time.Time
	Day    time.Time `orc:"day,date"`
	Inst   time.Time `orc:"inst,instant"`
	Price  Decimal   `orc:"price,decimal(12,3)"`
	PS     *string
	PI     *int64
	PT     *time.Time
	PD     *Decimal `orc:"pd,decimal(20,5)"`
	Addr   address
	PAddr  *address
	Tags   []string
	Addrs  []address
	PAddrs []*address
	Scores map[string]float64
	Nested map[int32][]*address
	Matrix [][]int16
	PList  *[]int32
	Flags  map[bool]uint16
	Big    map[uint64]Decimal `orc:"big,decimal(38,0)"`
}

func pick[T any](r *rand.Rand, v T) *T {
	if r.IntN(3) == 0 {
		return nil
	}
	return &v
}

func randString(r *rand.Rand) string {
	const chars = "abcxyz é€😀"
	var b strings.Builder
	for range r.IntN(12) {
		rs := []rune(chars)
		b.WriteRune(rs[r.IntN(len(rs))])
	}
	return b.String()
}

func randAddress(r *rand.Rand) address {
	var zip *int32
	if r.IntN(2) == 0 {
		z := r.Int32()
		zip = &z
	}
	return address{Street: randString(r), Zip: zip}
}

func randTime(r *rand.Rand) time.Time {
	return time.Unix(r.Int64N(1<<36)-1<<35, r.Int64N(1e9)).UTC()
}

func randDecimal(r *rand.Rand, digits, scale int) Decimal {
	lim := int64(1)
	for range min(digits, 18) {
		lim *= 10
	}
	v := r.Int64N(lim)
	if r.IntN(2) == 0 {
		v = -v
	}
	return Decimal{Unscaled: orc.Int128FromInt64(v), Scale: scale}
}

func randRich(r *rand.Rand) rich {
	x := rich{
		B: r.IntN(2) == 0, I8: int8(r.Int()), I16: int16(r.Int()), I32: r.Int32() - 1<<30, I64: int64(r.Uint64()),
		I: int(int64(r.Uint64())), U8: uint8(r.Uint32()), U16: uint16(r.Uint32()), U32: r.Uint32(),
		U64: r.Uint64N(math.MaxInt64), F32: float32(r.NormFloat64()), F64: r.NormFloat64() * 1e10,
		S: randString(r), TS: randTime(r),
		Day:   time.Unix((r.Int64N(200000)-100000)*86400, 0).UTC(),
		Inst:  randTime(r),
		Price: randDecimal(r, 12, 3),
		PS:    pick(r, randString(r)), PI: pick(r, int64(r.Uint64())), PT: pick(r, randTime(r)),
		PD:   pick(r, randDecimal(r, 20, 5)),
		Addr: randAddress(r), PAddr: pick(r, randAddress(r)),
	}
	if n := r.IntN(5); n > 0 {
		x.Raw = make([]byte, n)
		for i := range x.Raw {
			x.Raw[i] = byte(r.Uint32())
		}
	}
	for range r.IntN(4) {
		x.Tags = append(x.Tags, randString(r))
	}
	for range r.IntN(3) {
		x.Addrs = append(x.Addrs, randAddress(r))
	}
	for range r.IntN(3) {
		x.PAddrs = append(x.PAddrs, pick(r, randAddress(r)))
	}
	if n := r.IntN(4); n > 0 {
		x.Scores = map[string]float64{}
		for range n {
			x.Scores[randString(r)] = r.Float64()
		}
	}
	if n := r.IntN(3); n > 0 {
		x.Nested = map[int32][]*address{}
		for range n {
			var l []*address
			for range r.IntN(3) {
				l = append(l, pick(r, randAddress(r)))
			}
			x.Nested[r.Int32N(100)] = l
		}
	}
	for range r.IntN(3) {
		var row []int16
		for range r.IntN(3) {
			row = append(row, int16(r.Int()))
		}
		x.Matrix = append(x.Matrix, row)
	}
	if r.IntN(2) == 0 {
		var l []int32
		for range r.IntN(3) {
			l = append(l, r.Int32())
		}
		x.PList = &l
	}
	if r.IntN(2) == 0 {
		x.Flags = map[bool]uint16{r.IntN(2) == 0: uint16(r.Uint32())}
	}
	if r.IntN(2) == 0 {
		x.Big = map[uint64]Decimal{r.Uint64N(1 << 62): randDecimal(r, 18, 0)}
	}
	return x
}

func randRows(seed uint64, n int) []rich {
	r := rand.New(rand.NewPCG(seed, 7))
	rows := make([]rich, n)
	for i := range rows {
		rows[i] = randRich(r)
	}
	return rows
}

// TestRoundTrip encodes random rows in random chunks into one batch and
// decodes them back in other random chunks.
func TestRoundTrip(t *testing.T) {
	typ := reflect.TypeFor[rich]()
	for seed := range uint64(20) {
		rows := randRows(seed, 1+int(seed*37%300))
		enc, err := NewEncoder(typ)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(enc.Schema(), 16)
		r := rand.New(rand.NewPCG(seed, 99))
		for done := 0; done < len(rows); {
			k := min(len(rows)-done, 1+r.IntN(50))
			n, err := Encode(enc, b, rows[done:done+k])
			if err != nil || n != k {
				t.Fatalf("seed %d: Encode = %d, %v", seed, n, err)
			}
			done += k
		}
		if b.NumRows != len(rows) {
			t.Fatalf("seed %d: batch has %d rows, want %d", seed, b.NumRows, len(rows))
		}
		checkConsistent(t, enc.Schema(), b)
		dec, err := NewDecoder(typ, enc.Schema())
		if err != nil {
			t.Fatal(err)
		}
		got := make([]rich, len(rows))
		for done := 0; done < len(rows); {
			k := min(len(rows)-done, 1+r.IntN(70))
			if err := Decode(dec, b, done, got[done:done+k]); err != nil {
				t.Fatalf("seed %d: Decode: %v", seed, err)
			}
			done += k
		}
		for i := range rows {
			if !reflect.DeepEqual(got[i], rows[i]) {
				t.Fatalf("seed %d row %d:\n got %+v\nwant %+v", seed, i, got[i], rows[i])
			}
		}
	}
}

// checkConsistent checks the vector conventions: lengths, null masks
// empty or full, offsets.
func checkConsistent(t *testing.T, s *orc.Schema, b *orc.Batch) {
	t.Helper()
	var check func(s *orc.Schema, v orc.Vector, n int, path string)
	check = func(s *orc.Schema, v orc.Vector, n int, path string) {
		if v.Len() != n {
			t.Fatalf("%s: %d rows, want %d", path, v.Len(), n)
		}
		if m := orc.NullsOf(v); len(m.Nulls) != 0 && len(m.Nulls) != n {
			t.Fatalf("%s: null mask of %d for %d rows", path, len(m.Nulls), n)
		}
		switch v := v.(type) {
		case *orc.StructVector:
			for i, f := range v.Fields {
				check(s.Children[i], f, n, path+"."+s.FieldNames[i])
			}
		case *orc.ListVector:
			check(s.Children[0], v.Elem, int(v.Offsets[n]), path+"[]")
		case *orc.MapVector:
			check(s.Children[0], v.Keys, int(v.Offsets[n]), path+"[key]")
			check(s.Children[1], v.Values, int(v.Offsets[n]), path+"[value]")
		}
	}
	for i, c := range b.Cols {
		check(s.Children[i], c, b.NumRows, s.FieldNames[i])
	}
}

// TestMapKeysSorted checks that map entries are written in key order.
func TestMapKeysSorted(t *testing.T) {
	type row struct {
		S map[string]int8
		F map[float64]bool
		I map[int16]string
	}
	rows := []row{{
		S: map[string]int8{"b": 2, "a": 1, "": 0, "é": 4, "c": 3},
		F: map[float64]bool{2.5: true, math.Inf(-1): false, -1: true, math.NaN(): true},
		I: map[int16]string{300: "c", -5: "a", 7: "b"},
	}}
	enc, err := NewEncoder(reflect.TypeFor[row]())
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(enc.Schema(), 1)
	if _, err := Encode(enc, b, rows); err != nil {
		t.Fatal(err)
	}
	keys := b.Cols[0].(*orc.MapVector).Keys.(*orc.BytesVector)
	var got []string
	for i := range keys.Len() {
		got = append(got, keys.String(i))
	}
	if want := []string{"", "a", "b", "c", "é"}; !reflect.DeepEqual(got, want) {
		t.Errorf("string keys %q, want %q", got, want)
	}
	fk := b.Cols[1].(*orc.MapVector).Keys.(*orc.DoubleVector).Values
	if !math.IsNaN(fk[0]) || !reflect.DeepEqual(fk[1:], []float64{math.Inf(-1), -1, 2.5}) {
		t.Errorf("float keys %v, want NaN -Inf -1 2.5", fk)
	}
	if ik := b.Cols[2].(*orc.MapVector).Keys.(*orc.LongVector).Values; !reflect.DeepEqual(ik, []int64{-5, 7, 300}) {
		t.Errorf("int keys %v", ik)
	}
	vals := b.Cols[2].(*orc.MapVector).Values.(*orc.BytesVector)
	if vals.String(0)+vals.String(1)+vals.String(2) != "abc" {
		t.Error("values did not follow their keys")
	}
}

// TestNulls checks the null masks written for nil pointers, including
// fields of a nil struct pointer, and what reads back.
func TestNulls(t *testing.T) {
	type inner struct {
		X int64
		Y *string
		L []int8
	}
	type row struct {
		P  *inner
		Q  *int16
		NS int64
	}
	y := "y"
	q := int16(-3)
	rows := []row{
		{P: &inner{X: 1, Y: &y, L: []int8{1, 2}}, Q: &q, NS: 5},
		{P: nil, Q: nil, NS: 6},
		{P: &inner{X: 2}, Q: &q, NS: 7},
	}
	enc, _ := NewEncoder(reflect.TypeFor[row]())
	b := orc.NewBatch(enc.Schema(), 3)
	if _, err := Encode(enc, b, rows); err != nil {
		t.Fatal(err)
	}
	p := b.Cols[0].(*orc.StructVector)
	if !reflect.DeepEqual(p.Nulls.Nulls, []bool{false, true, false}) {
		t.Errorf("struct nulls %v", p.Nulls.Nulls)
	}
	if got := p.Fields[0].(*orc.LongVector).Nulls.Nulls; !reflect.DeepEqual(got, []bool{false, true, false}) {
		t.Errorf("field of a null struct: nulls %v", got)
	}
	if got := p.Fields[1].(*orc.BytesVector).Nulls.Nulls; !reflect.DeepEqual(got, []bool{false, true, true}) {
		t.Errorf("nil pointer field: nulls %v", got)
	}
	if l := p.Fields[2].(*orc.ListVector); !reflect.DeepEqual(l.Offsets, []int64{0, 2, 2, 2}) {
		t.Errorf("list offsets %v", l.Offsets)
	}
	if got := b.Cols[2].(*orc.LongVector).Nulls.Nulls; len(got) != 0 {
		t.Errorf("non-pointer column has null mask %v", got)
	}
	dec, _ := NewDecoder(reflect.TypeFor[row](), enc.Schema())
	out := make([]row, 3)
	if err := Decode(dec, b, 0, out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, rows) {
		t.Errorf("read %+v, want %+v", out, rows)
	}
}

// TestNormalization covers the values that do not come back identical:
// local times, dates with a clock, decimals at another scale, empty slices
// and maps.
func TestNormalization(t *testing.T) {
	type row struct {
		TS  time.Time `orc:"ts"`
		Day time.Time `orc:"day,date"`
		D   Decimal   `orc:"d,decimal(10,4)"`
		L   []int32
		M   map[string]bool
		B   []byte
	}
	zone := time.FixedZone("east", 10*3600)
	in := []row{{
		TS:  time.Date(2024, 3, 1, 5, 30, 0, 7, zone),
		Day: time.Date(2024, 3, 1, 5, 30, 0, 0, zone), // 2024-02-29 in UTC, but its own date counts
		D:   Decimal{Unscaled: orc.Int128FromInt64(125), Scale: 2},
		L:   []int32{},
		M:   map[string]bool{},
		B:   []byte{},
	}}
	want := row{
		TS:  time.Date(2024, 2, 29, 19, 30, 0, 7, time.UTC),
		Day: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC),
		D:   Decimal{Unscaled: orc.Int128FromInt64(12500), Scale: 4},
	}
	enc, _ := NewEncoder(reflect.TypeFor[row]())
	b := orc.NewBatch(enc.Schema(), 1)
	if _, err := Encode(enc, b, in); err != nil {
		t.Fatal(err)
	}
	dec, _ := NewDecoder(reflect.TypeFor[row](), enc.Schema())
	out := make([]row, 1)
	if err := Decode(dec, b, 0, out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out[0], want) {
		t.Errorf("read %+v\nwant %+v", out[0], want)
	}
	if out[0].TS.Location() != time.UTC {
		t.Errorf("timestamp location %v, want UTC", out[0].TS.Location())
	}
}

// TestValueErrors checks that a bad value stops Encode at its row: the
// rows before it are in the batch, consistent, and the error names the
// row and field.
func TestValueErrors(t *testing.T) {
	type item struct {
		P Decimal `orc:"p,decimal(5,2)"`
	}
	type row struct {
		N     int32
		U     uint64
		Items []item
		M     map[string]*Decimal `orc:"m,decimal(4,1)"`
	}
	good := func(i int) row {
		return row{N: int32(i), U: uint64(i), Items: []item{{P: Decimal{Unscaled: orc.Int128FromInt64(int64(i)), Scale: 2}}},
			M: map[string]*Decimal{"k": {Unscaled: orc.Int128FromInt64(int64(i)), Scale: 0}}}
	}
	tests := []struct {
		name  string
		bad   func(*row)
		field string
		msg   string
	}{
		{"uint64", func(r *row) { r.U = math.MaxUint64 }, "U", "does not fit bigint"},
		{"too many digits", func(r *row) {
			r.Items = append(r.Items, item{P: Decimal{Unscaled: orc.Int128FromInt64(123456), Scale: 2}})
		}, "Items[].P", "more than 5 digits"},
		{"rounding", func(r *row) {
			r.Items[0].P = Decimal{Unscaled: orc.Int128FromInt64(1), Scale: 3}
		}, "Items[].P", "without rounding"},
		{"bad scale", func(r *row) {
			r.Items[0].P = Decimal{Unscaled: orc.Int128FromInt64(1), Scale: -1}
		}, "Items[].P", "scale -1"},
		{"map value", func(r *row) {
			r.M["z"] = &Decimal{Unscaled: orc.Int128FromInt64(99999), Scale: 1}
		}, "M[value]", "more than 4 digits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			enc, err := NewEncoder(reflect.TypeFor[row]())
			if err != nil {
				t.Fatal(err)
			}
			b := orc.NewBatch(enc.Schema(), 8)
			// A first call leaves rows in the batch.
			if _, err := Encode(enc, b, []row{good(100), good(101)}); err != nil {
				t.Fatal(err)
			}
			var rows []row
			for i := range 10 {
				rows = append(rows, good(i))
			}
			tc.bad(&rows[6])
			tc.bad(&rows[8])
			n, err := Encode(enc, b, rows)
			var ve *ValueError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v, want a *ValueError", err)
			}
			if n != 6 || ve.Row != 6 || ve.Field != "row."+tc.field || !strings.Contains(ve.Msg, tc.msg) {
				t.Errorf("n=%d, error %v; want row 6, field %s, %q", n, err, tc.field, tc.msg)
			}
			if b.NumRows != 8 {
				t.Fatalf("batch has %d rows, want 8", b.NumRows)
			}
			checkConsistent(t, enc.Schema(), b)
			dec, _ := NewDecoder(reflect.TypeFor[row](), enc.Schema())
			out := make([]row, 8)
			if err := Decode(dec, b, 0, out); err != nil {
				t.Fatal(err)
			}
			want := append([]row{good(100), good(101)}, rows[:6]...)
			for i := range want {
				if out[i].N != want[i].N || out[i].U != want[i].U || !reflect.DeepEqual(out[i].Items, want[i].Items) || len(out[i].M) != 1 {
					t.Errorf("row %d: %+v, want %+v", i, out[i], want[i])
				}
			}
			// The encoder stays usable.
			if n, err := Encode(enc, b, rows[:3]); n != 3 || err != nil {
				t.Errorf("Encode after an error: %d, %v", n, err)
			}
		})
	}
}

// TestDecodeConversions reads columns of other types than the written ones.
func TestDecodeConversions(t *testing.T) {
	schema := orc.MustParseSchema("struct<small:tinyint,big:bigint,f:float,c:char(3),s:string,d:date,ts:timestamp with local time zone>")
	b := orc.NewBatch(schema, 2)
	b.Cols[0].(*orc.LongVector).Values = []int64{-7, 100}
	b.Cols[1].(*orc.LongVector).Values = []int64{300, 65535}
	b.Cols[2].(*orc.DoubleVector).Values = []float64{1.5, -2}
	for _, s := range []string{"ab ", "xyz"} {
		b.Cols[3].(*orc.BytesVector).AppendString(s)
	}
	b.Cols[4].(*orc.BytesVector).AppendString("bytes")
	b.Cols[4].(*orc.BytesVector).AppendNull()
	b.Cols[5].(*orc.LongVector).Values = []int64{-1, 19000}
	ts := b.Cols[6].(*orc.TimestampVector)
	ts.Seconds, ts.Nanos = []int64{0, 1}, []int32{5, 0}
	b.NumRows = 2

	type wide struct {
		Small int64   `orc:"small"`
		Big   uint16  `orc:"big"`
		F     float64 `orc:"f"`
		C     string  `orc:"c"`
		S     []byte  `orc:"s"`
		D     time.Time
		TS    *time.Time
	}
	dec, err := NewDecoder(reflect.TypeFor[wide](), schema)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]wide, 2)
	if err := Decode(dec, b, 0, out); err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(0, 5).UTC()
	want := []wide{
		{Small: -7, Big: 300, F: 1.5, C: "ab ", S: []byte("bytes"), D: time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), TS: &t0},
		{Small: 100, Big: 65535, F: -2, C: "xyz", D: time.Date(2022, 1, 8, 0, 0, 0, 0, time.UTC)},
	}
	want[1].TS = new(time.Time)
	*want[1].TS = time.Unix(1, 0).UTC()
	if !reflect.DeepEqual(out, want) {
		t.Errorf("read %+v\nwant %+v", out, want)
	}

	// Narrowing is checked per value.
	type narrow struct {
		Big int8 `orc:"big"`
	}
	dec, err = NewDecoder(reflect.TypeFor[narrow](), schema)
	if err != nil {
		t.Fatal(err)
	}
	err = Decode(dec, b, 0, make([]narrow, 2))
	if err == nil || !strings.Contains(err.Error(), "value 300 does not fit int8") || !strings.Contains(err.Error(), "Big") {
		t.Errorf("narrowing error %v", err)
	}
	type unsigned struct {
		Small uint32 `orc:"small"`
	}
	dec, _ = NewDecoder(reflect.TypeFor[unsigned](), schema)
	if err := Decode(dec, b, 0, make([]unsigned, 2)); err == nil || !strings.Contains(err.Error(), "value -7") {
		t.Errorf("negative into unsigned: %v", err)
	}
}

func TestDecoderMismatch(t *testing.T) {
	schema := orc.MustParseSchema("struct<a:int,b:struct<c:string,d:array<double>>,Name:string,u:uniontype<int,string>,NAME:int>")
	tests := []struct {
		name string
		typ  reflect.Type
		want []string
	}{
		{"missing", reflect.TypeFor[struct {
			X int `orc:"x"`
		}](), []string{"field X", `no column "x"`}},
		{"nested missing", reflect.TypeFor[struct {
			B struct {
				E int `orc:"e"`
			} `orc:"b"`
		}](), []string{"field B.E", `no column "e"`, `column "b"`}},
		{"type", reflect.TypeFor[struct {
			A string `orc:"a"`
		}](), []string{"field A (string)", `column "a"`, "int"}},
		{"nested type", reflect.TypeFor[struct {
			B struct {
				D []float32 `orc:"d"`
			} `orc:"b"`
		}](), []string{"field B.D[] (float32)", `column "b.d[]"`, "double"}},
		{"union", reflect.TypeFor[struct {
			U int `orc:"u"`
		}](), []string{"field U", "uniontype"}},
		{"ambiguous case", reflect.TypeFor[struct {
			N string `orc:"name"`
		}](), []string{"several columns"}},
		{"float narrowing", reflect.TypeFor[struct {
			D []float32 `orc:"d"`
			B struct {
				D []float32 `orc:"d"`
			} `orc:"b"`
		}](), []string{"D"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewDecoder(tc.typ, schema)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// Exact names win over case-insensitive ones.
	if _, err := NewDecoder(reflect.TypeFor[struct{ Name string }](), schema); err != nil {
		t.Errorf("exact match: %v", err)
	}
}

func TestColumns(t *testing.T) {
	schema := orc.MustParseSchema("struct<id:bigint,`a.b`:int,user:struct<name:string,age:int,tags:array<string>>,extra:string,Mixed:int,items:array<struct<p:int,q:int>>>")
	type user struct {
		Name string   `orc:"name"`
		Tags []string `orc:"tags"`
	}
	type item struct {
		P int32 `orc:"p"`
	}
	type row struct {
		ID    int64  `orc:"id"`
		AB    int32  `orc:"a.b"`
		User  *user  `orc:"user"`
		Mixed int32  `orc:"mixed"`
		Items []item `orc:"items"`
	}
	paths, ok, err := Columns(reflect.TypeFor[row](), schema, false)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	want := []string{"id", "`a.b`", "user.name", "user.tags", "Mixed", "items"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	for _, p := range paths {
		if schema.Find(p) == nil {
			t.Errorf("path %q does not resolve", p)
		}
	}
}
