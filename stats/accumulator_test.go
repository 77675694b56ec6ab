package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// testValue is one row of any kind.
type testValue struct {
	null  bool
	i     int64
	f     float64
	b     []byte
	d     orc.Int128
	sec   int64
	nanos int32
	n     uint64
}

var testTypes = []string{
	"boolean", "tinyint", "bigint", "float", "double", "string", "char(4)", "varchar(10)", "binary",
	"decimal(12,3)", "decimal(38,10)", "date", "timestamp", "timestamp with local time zone",
	"array<int>", "map<int,int>", "struct<a:int>", "uniontype<int,string>",
}

// genValues returns n random rows for a column of kind k. longStrings adds
// ASCII strings around the 1,024-byte truncation limit.
func genValues(r *rand.Rand, k orc.Kind, n int, longStrings bool) []testValue {
	const alphabet = "ab\u00e9\u20ac\U0001F600\U0010FFFF"
	runes := []rune(alphabet)
	vals := make([]testValue, n)
	for i := range vals {
		v := &vals[i]
		if r.IntN(8) == 0 {
			v.null = true
			continue
		}
		switch k {
		case orc.Boolean:
			v.i = int64(r.IntN(2))
		case orc.Byte:
			v.i = int64(int8(r.Uint32()))
		case orc.Short, orc.Int, orc.Long:
			v.i = r.Int64N(1<<41) - 1<<40
		case orc.Float, orc.Double:
			// Quarters of small integers add up exactly in any order.
			v.f = float64(r.IntN(4001)-2000) / 4
			if r.IntN(20) == 0 {
				v.f = math.Copysign(0, -1)
			}
		case orc.String, orc.Char, orc.Varchar, orc.Binary:
			var sb strings.Builder
			if longStrings && r.IntN(6) == 0 {
				sb.WriteString(strings.Repeat(string(rune('a'+r.IntN(3))), 1000+r.IntN(50)))
				for j := r.IntN(60); j > 0; j-- {
					sb.WriteByte(byte('a' + r.IntN(3)))
				}
			} else {
				for j := r.IntN(6); j > 0; j-- {
					sb.WriteRune(runes[r.IntN(len(runes))])
				}
			}
			v.b = []byte(sb.String())
		case orc.Decimal:
			v.d = orc.Int128FromInt64(r.Int64N(2_000_000_000_000) - 1_000_000_000_000)
		case orc.Date:
			v.i = r.Int64N(200_000) - 100_000
		case orc.Timestamp, orc.TimestampInstant:
			v.sec = r.Int64N(8_000_000_000) - 4_000_000_000
			switch r.IntN(3) {
			case 0:
				v.nanos = int32(r.IntN(1_000_000_000))
			case 1:
				v.nanos = int32(r.IntN(1000)) * 1_000_000
			default:
				v.nanos = int32(r.IntN(1000))*1_000_000 + 999_999
			}
		case orc.List, orc.Map:
			v.n = uint64(r.IntN(12))
		}
	}
	return vals
}

// feed adds the rows one by one with the per-value methods.
func feed(a *Accumulator, k orc.Kind, vals []testValue) {
	for _, v := range vals {
		if v.null {
			a.AddNull()
			continue
		}
		switch k {
		case orc.Boolean:
			a.AddBool(v.i != 0)
		case orc.Byte, orc.Short, orc.Int, orc.Long:
			a.AddInt(v.i)
		case orc.Float, orc.Double:
			a.AddDouble(v.f)
		case orc.String, orc.Char, orc.Varchar, orc.Binary:
			a.AddBytes(v.b)
		case orc.Decimal:
			a.AddDecimal(v.d)
		case orc.Date:
			a.AddDate(int32(v.i))
		case orc.Timestamp, orc.TimestampInstant:
			a.AddTimestamp(v.sec, v.nanos)
		case orc.List, orc.Map:
			a.AddChildren(v.n)
		default:
			a.AddValue()
		}
	}
}

// feedVector adds the rows with the vector-wise methods where one exists.
func feedVector(a *Accumulator, k orc.Kind, vals []testValue) {
	// Without a null the methods get no null slice, as writers pass
	// them, so their no-null loops run too.
	var nulls []bool
	for i, v := range vals {
		if v.null && nulls == nil {
			nulls = make([]bool, len(vals))
		}
		if nulls != nil {
			nulls[i] = v.null
		}
	}
	switch k {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		xs := make([]int64, len(vals))
		for i, v := range vals {
			xs[i] = v.i
		}
		a.AddLongs(xs, nulls)
	case orc.Float, orc.Double:
		xs := make([]float64, len(vals))
		for i, v := range vals {
			xs[i] = v.f
		}
		a.AddDoubles(xs, nulls)
	case orc.String, orc.Char, orc.Varchar, orc.Binary:
		var bv orc.BytesVector
		for _, v := range vals {
			if v.null {
				bv.AppendNull()
			} else {
				bv.Append(v.b)
			}
		}
		a.AddByteRows(bv.Data, bv.Offsets, bv.Nulls.Nulls)
	case orc.Decimal:
		xs := make([]orc.Int128, len(vals))
		for i, v := range vals {
			xs[i] = v.d
		}
		a.AddDecimals(xs, nulls)
	case orc.Timestamp, orc.TimestampInstant:
		secs, nanos := make([]int64, len(vals)), make([]int32, len(vals))
		for i, v := range vals {
			secs[i], nanos[i] = v.sec, v.nanos
		}
		a.AddTimestamps(secs, nanos, nulls)
	default:
		feed(a, k, vals)
	}
}

// expected computes the statistics of vals directly, the slow obvious way.
func expected(k orc.Kind, scale int, vals []testValue) Column {
	c := Column{Kind: k, HasNullKnown: true}
	var nonNull []testValue
	for _, v := range vals {
		if v.null {
			c.HasNull = true
		} else {
			nonNull = append(nonNull, v)
		}
	}
	c.NumValues = uint64(len(nonNull))
	some := len(nonNull) > 0
	switch k {
	case orc.Boolean:
		c.Bool = &BoolStats{}
		for _, v := range nonNull {
			c.Bool.TrueCount += uint64(v.i)
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		s := &IntStats{HasSum: true, HasMinMax: some}
		for i, v := range nonNull {
			if i == 0 || v.i < s.Min {
				s.Min = v.i
			}
			if i == 0 || v.i > s.Max {
				s.Max = v.i
			}
			s.Sum += v.i
		}
		c.Int = s
	case orc.Float, orc.Double:
		s := &DoubleStats{HasSum: true, HasMinMax: some}
		for i, v := range nonNull {
			if i == 0 || v.f < s.Min {
				s.Min = v.f
			}
			if i == 0 || v.f > s.Max {
				s.Max = v.f
			}
			s.Sum += v.f
		}
		c.Double = s
	case orc.String, orc.Char, orc.Varchar:
		s := &StringStats{HasSum: true, HasMin: some, HasMax: some}
		for i, v := range nonNull {
			if i == 0 || string(v.b) < s.Min {
				s.Min = string(v.b)
			}
			if i == 0 || string(v.b) > s.Max {
				s.Max = string(v.b)
			}
			s.Sum += int64(len(v.b))
		}
		c.String = s
	case orc.Binary:
		c.Binary = &BinaryStats{HasSum: true}
		for _, v := range nonNull {
			c.Binary.Sum += int64(len(v.b))
		}
	case orc.Decimal:
		s := &DecimalStats{HasSum: true, HasMinMax: some, Sum: DecimalValue{Scale: scale}}
		for i, v := range nonNull {
			if i == 0 || v.d.Cmp(s.Min.Unscaled) < 0 {
				s.Min = DecimalValue{v.d, scale}
			}
			if i == 0 || v.d.Cmp(s.Max.Unscaled) > 0 {
				s.Max = DecimalValue{v.d, scale}
			}
			s.Sum.Unscaled, _ = s.Sum.Unscaled.Add(v.d)
		}
		c.Decimal = s
	case orc.Date:
		s := &DateStats{HasMinMax: some}
		for i, v := range nonNull {
			if i == 0 || int32(v.i) < s.Min {
				s.Min = int32(v.i)
			}
			if i == 0 || int32(v.i) > s.Max {
				s.Max = int32(v.i)
			}
		}
		c.Date = s
	case orc.Timestamp, orc.TimestampInstant:
		s := &TimestampStats{HasMinMax: some}
		for i, v := range nonNull {
			if i == 0 || v.sec < s.MinSec || v.sec == s.MinSec && v.nanos < s.MinNanos {
				s.MinSec, s.MinNanos = v.sec, v.nanos
			}
			if i == 0 || v.sec > s.MaxSec || v.sec == s.MaxSec && v.nanos > s.MaxNanos {
				s.MaxSec, s.MaxNanos = v.sec, v.nanos
			}
		}
		c.Timestamp = s
	case orc.List, orc.Map:
		s := &CollectionStats{HasMinMax: some}
		for i, v := range nonNull {
			if i == 0 || v.n < s.MinChildren {
				s.MinChildren = v.n
			}
			if i == 0 || v.n > s.MaxChildren {
				s.MaxChildren = v.n
			}
			s.TotalChildren += v.n
		}
		c.Collection = s
	}
	return c
}

func equalColumns(a, b Column) bool { return reflect.DeepEqual(a, b) }

// stored encodes, serializes, parses and decodes, as a file round trip does.
func stored(t *testing.T, pb *orcpb.ColumnStatistics, sc *orc.Schema) Column {
	t.Helper()
	b, err := proto.Marshal(pb)
	if err != nil {
		t.Fatal(err)
	}
	var back orcpb.ColumnStatistics
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return FromProto(&back, sc, ourWriter)
}

// TestAccumulatorMatchesExpected compares per-value and vector-wise
// accumulation with statistics computed directly, and round-trips them
// through the stored form.
func TestAccumulatorMatchesExpected(t *testing.T) {
	r := newRand(1)
	for _, typ := range testTypes {
		sc := schema(t, typ)
		for _, n := range []int{0, 1, 2, 7, 300} {
			vals := genValues(r, sc.Kind, n, false)
			want := expected(sc.Kind, sc.Scale, vals)
			a := NewAccumulator(sc)
			feed(a, sc.Kind, vals)
			if got := a.Column(); !equalColumns(got, want) {
				t.Fatalf("%s n=%d per value:\n got %s\nwant %s", typ, n, dump(got), dump(want))
			}
			v := NewAccumulator(sc)
			feedVector(v, sc.Kind, vals)
			if got := v.Column(); !equalColumns(got, want) {
				t.Fatalf("%s n=%d vector:\n got %s\nwant %s", typ, n, dump(got), dump(want))
			}
			if got := stored(t, a.Proto(), sc); !equalColumns(got, want) {
				t.Fatalf("%s n=%d round trip:\n got %s\nwant %s", typ, n, dump(got), dump(want))
			}
			// Reset makes it as good as new.
			a.Reset()
			if got, fresh := a.Column(), NewAccumulator(sc).Column(); !equalColumns(got, fresh) {
				t.Fatalf("%s: after Reset %s, want %s", typ, dump(got), dump(fresh))
			}
		}
	}
}

// TestMergeEqualsWhole splits random data at random points (empty pieces
// included), merges the pieces in a random order three ways - accumulators,
// Columns, and Columns decoded from the stored form - and checks that each
// gives the statistics of the whole: row groups merge into a stripe exactly.
func TestMergeEqualsWhole(t *testing.T) {
	r := newRand(2)
	for _, typ := range testTypes {
		sc := schema(t, typ)
		for trial := 0; trial < 20; trial++ {
			vals := genValues(r, sc.Kind, r.IntN(400), true)
			whole := NewAccumulator(sc)
			feed(whole, sc.Kind, vals)

			cuts := []int{0, len(vals)}
			for j := r.IntN(6); j > 0; j-- {
				cuts = append(cuts, r.IntN(len(vals)+1))
			}
			sortInts(cuts)
			var accs []*Accumulator
			var cols, decoded []Column
			for j := 0; j+1 < len(cuts); j++ {
				a := NewAccumulator(sc)
				feed(a, sc.Kind, vals[cuts[j]:cuts[j+1]])
				accs = append(accs, a)
				cols = append(cols, a.Column())
				decoded = append(decoded, stored(t, a.Proto(), sc))
			}
			// Merge in a random tree shape.
			for len(accs) > 1 {
				i := r.IntN(len(accs) - 1)
				accs[i].Merge(accs[i+1])
				cols[i].Merge(&cols[i+1])
				decoded[i].Merge(&decoded[i+1])
				accs = append(accs[:i+1], accs[i+2:]...)
				cols = append(cols[:i+1], cols[i+2:]...)
				decoded = append(decoded[:i+1], decoded[i+2:]...)
			}
			want := whole.Column()
			if got := accs[0].Column(); !equalColumns(got, want) {
				t.Fatalf("%s trial %d accumulators:\n got %s\nwant %s", typ, trial, dump(got), dump(want))
			}
			if !equalColumns(cols[0], want) {
				t.Fatalf("%s trial %d columns:\n got %s\nwant %s", typ, trial, dump(cols[0]), dump(want))
			}
			if wantStored := stored(t, whole.Proto(), sc); !equalColumns(decoded[0], wantStored) {
				t.Fatalf("%s trial %d decoded:\n got %s\nwant %s", typ, trial, dump(decoded[0]), dump(wantStored))
			}
		}
	}
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func TestAccumulatorNaN(t *testing.T) {
	a := NewAccumulator(schema(t, "double"))
	a.AddDouble(1)
	b := NewAccumulator(schema(t, "double"))
	b.AddDouble(math.NaN())
	b.AddDouble(5)
	a.Merge(b)
	c := a.Column()
	if c.NumValues != 3 || c.Double.HasMinMax || !math.IsNaN(c.Double.Sum) {
		t.Errorf("merged NaN: %s", dump(c))
	}
	// Column merge: the NaN side has unknown bounds, so the result does too.
	x := NewAccumulator(schema(t, "double"))
	x.AddDouble(1)
	cx, cb := x.Column(), b.Column()
	cx.Merge(&cb)
	if cx.Double.HasMinMax || !math.IsNaN(cx.Double.Sum) {
		t.Errorf("column merge with NaN: %s", dump(cx))
	}
}

func TestAccumulatorMergeMismatch(t *testing.T) {
	a := NewAccumulator(schema(t, "int"))
	a.AddInt(1)
	b := NewAccumulator(schema(t, "string"))
	b.AddBytes([]byte("x"))
	a.Merge(b)
	if c := a.Column(); c.Int != nil || c.NumValues != 2 {
		t.Errorf("kind mismatch: %s", dump(c))
	}
	d1 := NewAccumulator(schema(t, "decimal(10,2)"))
	d2 := NewAccumulator(schema(t, "decimal(10,3)"))
	d1.Merge(d2)
	if c := d1.Column(); c.Decimal != nil {
		t.Errorf("scale mismatch: %s", dump(c))
	}
	a.Merge(nil) // no-op
}

func TestAccumulatorKeepsNoAlias(t *testing.T) {
	a := NewAccumulator(schema(t, "string"))
	buf := []byte("mmm")
	a.AddBytes(buf)
	buf[0] = 'a' // the caller reuses its buffer
	buf = append(buf[:0], "zzz"...)
	a.AddBytes(buf)
	buf[0] = 'b'
	c := a.Column()
	if c.String.Min != "mmm" || c.String.Max != "zzz" {
		t.Errorf("min/max alias the caller's buffer: %q %q", c.String.Min, c.String.Max)
	}
}

func TestAccumulatorAllocs(t *testing.T) {
	s := NewAccumulator(schema(t, "string"))
	vals := [][]byte{[]byte("kiwi"), []byte("apple"), []byte("zucchini"), []byte("banana")}
	for _, v := range vals {
		s.AddBytes(v)
	}
	i := NewAccumulator(schema(t, "bigint"))
	d := NewAccumulator(schema(t, "double"))
	ts := NewAccumulator(schema(t, "timestamp"))
	dc := NewAccumulator(schema(t, "decimal(20,2)"))
	longs := []int64{5, -3, 9}
	n := testing.AllocsPerRun(200, func() {
		s.Reset()
		for _, v := range vals {
			s.AddBytes(v)
		}
		i.AddInt(7)
		i.AddLongs(longs, nil)
		d.AddDouble(1.5)
		ts.AddTimestamp(-5, 7)
		dc.AddDecimal(orc.Int128FromInt64(-9))
	})
	if n != 0 {
		t.Errorf("%v allocations per run of adds", n)
	}
}

func BenchmarkAccumulatorAddInt(b *testing.B) {
	a := NewAccumulator(&orc.Schema{Kind: orc.Long})
	b.SetBytes(8)
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		a.AddInt(i ^ 0x5555)
	}
}

func BenchmarkAccumulatorAddLongs(b *testing.B) {
	a := NewAccumulator(&orc.Schema{Kind: orc.Long})
	vals := make([]int64, 1024)
	for i := range vals {
		vals[i] = int64(i*7919) - 4000
	}
	b.SetBytes(8 * int64(len(vals)))
	b.ReportAllocs()
	for b.Loop() {
		a.AddLongs(vals, nil)
	}
}

func BenchmarkAccumulatorAddDouble(b *testing.B) {
	a := NewAccumulator(&orc.Schema{Kind: orc.Double})
	b.SetBytes(8)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.AddDouble(float64(i&1023) * 0.5)
	}
}

func BenchmarkAccumulatorAddBytes(b *testing.B) {
	a := NewAccumulator(&orc.Schema{Kind: orc.String})
	r := newRand(3)
	vals := make([][]byte, 1024)
	total := 0
	for i := range vals {
		vals[i] = []byte(strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(30)))
		total += len(vals[i])
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vals {
			a.AddBytes(v)
		}
	}
}

func BenchmarkAccumulatorAddTimestamp(b *testing.B) {
	a := NewAccumulator(&orc.Schema{Kind: orc.Timestamp})
	b.SetBytes(12)
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		a.AddTimestamp(i&0xffff-30000, int32(i&0xfffff))
	}
}

// TestAddDecimal64sEqualsAddDecimal feeds the same int64-sized decimals to
// one accumulator a value at a time and to another in runs summarised by
// AddDecimal64s (falling back to single values where it declines, as the
// writer does), after starting sums near the point where AddDecimal gives
// the sum up, and compares the statistics.
func TestAddDecimal64sEqualsAddDecimal(t *testing.T) {
	r := newRand(7)
	sc := schema(t, "decimal(38,2)")
	big := orc.Pow10(37)
	edge, _ := orc.Pow10(38).Add(orc.Int128FromInt64(-1500)) // a run of +-1000s may cross 10^38 and come back
	starts := []orc.Int128{{}, {Hi: 1 << 35}, {Hi: 1 << 36}, {Hi: -(1 << 36)}, big, big.Neg(), edge, edge.Neg(), orc.Pow10(38).Neg()}
	declined := 0
	for trial := 0; trial < 400; trial++ {
		one, runs := NewAccumulator(sc), NewAccumulator(sc)
		if k := r.IntN(len(starts) + 1); k < len(starts) {
			one.AddDecimal(starts[k])
			runs.AddDecimal(starts[k])
		}
		for range r.IntN(8) {
			vals := make([]int64, r.IntN(50))
			for i := range vals {
				switch r.IntN(6) {
				case 0:
					vals[i] = math.MaxInt64
				case 1:
					vals[i] = math.MinInt64
				default:
					vals[i] = r.Int64N(2000) - 1000
				}
			}
			mn, mx := int64(math.MaxInt64), int64(math.MinInt64)
			var sum orc.Int128
			for _, v := range vals {
				one.AddDecimal(orc.Int128FromInt64(v))
				mn, mx = min(mn, v), max(mx, v)
				sum, _ = sum.Add(orc.Int128FromInt64(v))
			}
			if !runs.AddDecimal64s(mn, mx, sum, uint64(len(vals))) {
				declined++
				for _, v := range vals {
					runs.AddDecimal(orc.Int128FromInt64(v))
				}
			}
		}
		if got, want := runs.Column(), one.Column(); !equalColumns(got, want) {
			t.Fatalf("trial %d:\n got %s\nwant %s", trial, dump(got), dump(want))
		}
	}
	if declined == 0 {
		t.Error("AddDecimal64s never declined: the large starting sums are not reached")
	}
}

// TestBytesLess compares bytesLess with bytes.Compare on strings that
// share prefixes of every length around the 8-byte word it compares first.
func TestBytesLess(t *testing.T) {
	r := newRand(8)
	gen := func() []byte {
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = "ab\x00\xff"[r.IntN(4)]
		}
		return b
	}
	for range 200000 {
		a, b := gen(), gen()
		if r.IntN(2) == 0 {
			b = append(append([]byte{}, a[:r.IntN(len(a)+1)]...), b...)
		}
		if got, want := bytesLess(a, b), bytes.Compare(a, b) < 0; got != want {
			t.Fatalf("bytesLess(%q, %q) = %v, want %v", a, b, got, want)
		}
	}
}

// TestAddBytesRepeat checks AddBytesRepeat against as many AddBytes calls.
func TestAddBytesRepeat(t *testing.T) {
	r := newRand(9)
	sc := schema(t, "string")
	for trial := 0; trial < 200; trial++ {
		one, rep := NewAccumulator(sc), NewAccumulator(sc)
		for range r.IntN(10) {
			v := []byte(strings.Repeat("x", r.IntN(3)) + string(rune('a'+r.IntN(5))))
			n := uint64(r.IntN(4))
			for range n {
				one.AddBytes(v)
			}
			rep.AddBytesRepeat(v, n)
		}
		if got, want := rep.Column(), one.Column(); !equalColumns(got, want) {
			t.Fatalf("trial %d:\n got %s\nwant %s", trial, dump(got), dump(want))
		}
	}
}

// TestAddDoublesSameAsAddDouble checks the vector-wise double path, with
// and without nulls, against AddDouble value by value on values made to
// be hard for it: NaN first and later, both zeros, infinities.
func TestAddDoublesSameAsAddDouble(t *testing.T) {
	r := newRand(7)
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.SmallestNonzeroFloat64}
	sc := schema(t, "double")
	for round := range 200 {
		n := r.IntN(40)
		vals := make([]float64, n)
		var nulls []bool
		if round%2 == 1 {
			nulls = make([]bool, n)
		}
		for i := range vals {
			vals[i] = float64(r.IntN(200)-100) / 8
			if r.IntN(4) == 0 {
				vals[i] = special[r.IntN(len(special))]
			}
			if nulls != nil {
				nulls[i] = r.IntN(5) == 0
			}
		}
		one, vec := NewAccumulator(sc), NewAccumulator(sc)
		// Both get the values in two calls, so the second starts from
		// a state the first left.
		k := n / 2
		for _, part := range [][2]int{{0, k}, {k, n}} {
			var pn []bool
			if nulls != nil {
				pn = nulls[part[0]:part[1]]
			}
			for i := part[0]; i < part[1]; i++ {
				if nulls != nil && nulls[i] {
					one.AddNull()
					continue
				}
				one.AddDouble(vals[i])
			}
			vec.AddDoubles(vals[part[0]:part[1]], pn)
		}
		if !sameProto(t, one, vec) {
			t.Fatalf("round %d, values %v nulls %v:\nAddDouble  %v\nAddDoubles %v", round, vals, nulls, one.Proto(), vec.Proto())
		}
	}
}

// TestAddByteRowsSameAsAddBytes checks the vector-wise path for text
// without nulls against AddBytes value by value: values from the alphabet
// {0, 1, a, 0xff} of 0 to 19 bytes, so that many share their first 8
// bytes or are prefixes of one another (0 pads a short value's word, and
// "a" must still order before "a\x00"), sliced from one array as a vector
// holds them, the last ones without 8 bytes of room after them, in two
// calls so that the second starts from the bounds the first left.
func TestAddByteRowsSameAsAddBytes(t *testing.T) {
	r := newRand(8)
	alphabet := []byte{0, 1, 'a', 0xff}
	sc := schema(t, "string")
	for round := range 500 {
		n := 1 + r.IntN(40)
		var data []byte
		offs := []int{0}
		for range n {
			for range r.IntN(20) {
				data = append(data, alphabet[r.IntN(len(alphabet))])
			}
			offs = append(offs, len(data))
		}
		data = data[:len(data):len(data)]
		one, vec := NewAccumulator(sc), NewAccumulator(sc)
		k := 1 + r.IntN(n)
		for _, part := range [][2]int{{0, k}, {k, n}} {
			for i := part[0]; i < part[1]; i++ {
				one.AddBytes(data[offs[i]:offs[i+1]])
			}
			vec.AddByteRows(data, offs[part[0]:part[1]+1], nil)
		}
		if !sameProto(t, one, vec) {
			t.Fatalf("round %d, offsets %v data %q:\nAddBytes    %v\nAddByteRows %v", round, offs, data, one.Proto(), vec.Proto())
		}
	}
}

// TestPrefixWord checks that the words of values order as the values do
// wherever the words differ, for values with and without room past their
// end.
func TestPrefixWord(t *testing.T) {
	r := newRand(9)
	alphabet := []byte{0, 1, 'a', 0xfe, 0xff}
	val := func() []byte {
		v := make([]byte, r.IntN(12), 16)
		for i := range v {
			v[i] = alphabet[r.IntN(len(alphabet))]
		}
		for i := len(v); i < cap(v); i++ {
			v[:cap(v)][i] = 0xff // what follows must not count
		}
		if r.IntN(2) == 0 {
			v = v[:len(v):len(v)]
		}
		return v
	}
	for range 20000 {
		x, y := val(), val()
		wx, wy := prefixWord(x), prefixWord(y)
		if c := bytes.Compare(x, y); wx < wy && c >= 0 || wx > wy && c <= 0 {
			t.Fatalf("%q (word %#x) against %q (word %#x): bytes.Compare %d", x, wx, y, wy, c)
		}
	}
}

// TestAddTimestampsSameAsAddTimestamp checks the vector-wise timestamp
// path without nulls against AddTimestamp value by value: seconds from a
// few values (ties decided by the nanoseconds), now and then nanoseconds
// outside 0..999,999,999 that AddTimestamp normalizes, in two calls.
func TestAddTimestampsSameAsAddTimestamp(t *testing.T) {
	r := newRand(10)
	sc := schema(t, "timestamp")
	for round := range 500 {
		n := 1 + r.IntN(30)
		secs := make([]int64, n)
		nanos := make([]int32, n)
		for i := range secs {
			secs[i] = int64(r.IntN(5) - 2)
			nanos[i] = int32(r.IntN(4)) * 250_000_000
			if round%7 == 0 && r.IntN(8) == 0 {
				nanos[i] = int32(r.IntN(3)-1) * 1_500_000_000
			}
		}
		one, vec := NewAccumulator(sc), NewAccumulator(sc)
		k := r.IntN(n + 1)
		for _, part := range [][2]int{{0, k}, {k, n}} {
			for i := part[0]; i < part[1]; i++ {
				one.AddTimestamp(secs[i], nanos[i])
			}
			vec.AddTimestamps(secs[part[0]:part[1]], nanos[part[0]:part[1]], nil)
		}
		if !sameProto(t, one, vec) {
			t.Fatalf("round %d, seconds %v nanos %v:\nAddTimestamp  %v\nAddTimestamps %v", round, secs, nanos, one.Proto(), vec.Proto())
		}
	}
}

// sameProto reports whether two accumulators give the same statistics
// message, byte for byte.
func sameProto(t *testing.T, x, y *Accumulator) bool {
	t.Helper()
	a, err := proto.Marshal(x.Proto())
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(y.Proto())
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(a, b)
}
