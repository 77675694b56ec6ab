package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// TestProtoWireBytes checks one encoding byte by byte, worked out by hand:
//
//	08 03        field 1 number_of_values = 3
//	12 06        field 2 int_statistics, 6 bytes:
//	  08 01        minimum = -1 (zigzag 1)
//	  10 04        maximum = 2 (zigzag 4)
//	  18 06        sum = 3 (zigzag 6)
//	50 01        field 10 has_null = true
//	58 80 01     field 11 bytes_on_disk = 128
func TestProtoWireBytes(t *testing.T) {
	a := NewAccumulator(schema(t, "int"))
	a.AddInt(2)
	a.AddNull()
	a.AddInt(-1)
	a.AddInt(2)
	a.SetBytesOnDisk(128)
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(a.Proto())
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x08, 0x03, 0x12, 0x06, 0x08, 0x01, 0x10, 0x04, 0x18, 0x06, 0x50, 0x01, 0x58, 0x80, 0x01}
	if !bytes.Equal(b, want) {
		t.Fatalf("got % x\nwant % x", b, want)
	}
}

func TestProtoEmptySubMessages(t *testing.T) {
	// With no values every kind still writes its sub-message (Java picks the
	// statistics class from it), and number_of_values and has_null.
	for _, typ := range []string{"tinyint", "smallint", "int", "bigint", "float", "double", "string", "char(3)",
		"varchar(3)", "binary", "boolean", "decimal(10,2)", "date", "timestamp", "timestamp with local time zone",
		"array<int>", "map<int,int>"} {
		a := NewAccumulator(schema(t, typ))
		a.AddNull()
		pb := a.Proto()
		if pb.NumberOfValues == nil || pb.GetNumberOfValues() != 0 || pb.HasNull == nil || !pb.GetHasNull() {
			t.Errorf("%s: counts %v", typ, pb)
		}
		if typedMessage(pb) == nil {
			t.Errorf("%s: no sub-message in %v", typ, pb)
		}
	}
	for _, typ := range []string{"struct<a:int>", "uniontype<int>"} {
		if pb := NewAccumulator(schema(t, typ)).Proto(); typedMessage(pb) != nil {
			t.Errorf("%s: unexpected sub-message", typ)
		}
	}
}

// typedMessage returns the one typed sub-message set, or nil.
func typedMessage(pb *orcpb.ColumnStatistics) proto.Message {
	var found []proto.Message
	if pb.IntStatistics != nil {
		found = append(found, pb.IntStatistics)
	}
	if pb.DoubleStatistics != nil {
		found = append(found, pb.DoubleStatistics)
	}
	if pb.StringStatistics != nil {
		found = append(found, pb.StringStatistics)
	}
	if pb.BucketStatistics != nil {
		found = append(found, pb.BucketStatistics)
	}
	if pb.DecimalStatistics != nil {
		found = append(found, pb.DecimalStatistics)
	}
	if pb.DateStatistics != nil {
		found = append(found, pb.DateStatistics)
	}
	if pb.BinaryStatistics != nil {
		found = append(found, pb.BinaryStatistics)
	}
	if pb.TimestampStatistics != nil {
		found = append(found, pb.TimestampStatistics)
	}
	if pb.CollectionStatistics != nil {
		found = append(found, pb.CollectionStatistics)
	}
	if len(found) != 1 {
		return nil
	}
	return found[0]
}

func TestProtoIntOverflow(t *testing.T) {
	a := NewAccumulator(schema(t, "bigint"))
	a.AddInt(math.MaxInt64)
	a.AddInt(1)
	a.AddInt(-1) // back in range, but Java's addExact already failed
	is := a.Proto().IntStatistics
	if is.Sum != nil || is.GetMinimum() != -1 || is.GetMaximum() != math.MaxInt64 {
		t.Errorf("overflow: %v", is)
	}
	a.Reset()
	a.AddInt(math.MinInt64)
	a.AddInt(-1)
	if is := a.Proto().IntStatistics; is.Sum != nil {
		t.Errorf("negative overflow: %v", is)
	}
	a.Reset()
	a.AddInt(math.MinInt64)
	a.AddInt(math.MaxInt64)
	if is := a.Proto().IntStatistics; is.Sum == nil || is.GetSum() != -1 {
		t.Errorf("no overflow: %v", is)
	}
	// The vector path agrees.
	a.Reset()
	a.AddLongs([]int64{math.MaxInt64, 1, -1}, nil)
	if is := a.Proto().IntStatistics; is.Sum != nil {
		t.Errorf("vector overflow: %v", is)
	}
}

func TestProtoDouble(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name           string
		values         []float64
		hasMinMax      bool
		min, max       float64
		minNeg, maxNeg bool // sign bits expected on zero bounds
		sumNaN         bool
		sum            float64
	}{
		{"plain", []float64{1.5, -2, 4}, true, -2, 4, true, false, false, 3.5},
		{"+0.0 minimum written as -0.0", []float64{0, 1}, true, 0, 1, true, false, false, 1},
		{"-0.0 maximum written as +0.0", []float64{-1, negZero}, true, -1, 0, true, false, false, -1},
		{"only zeros", []float64{0, negZero, 0}, true, 0, 0, true, false, false, 0},
		{"leading NaN", []float64{math.NaN(), 1, 2}, false, 0, 0, false, false, true, 0},
		{"trailing NaN", []float64{1, 2, math.NaN()}, false, 0, 0, false, false, true, 0},
		{"inf - inf gives a NaN sum", []float64{math.Inf(1), math.Inf(-1)}, false, 0, 0, false, false, true, 0},
		{"infinite sum keeps bounds", []float64{math.MaxFloat64, math.MaxFloat64}, true, math.MaxFloat64, math.MaxFloat64, false, false, false, math.Inf(1)},
	}
	for _, tc := range cases {
		a := NewAccumulator(schema(t, "double"))
		for _, v := range tc.values {
			a.AddDouble(v)
		}
		ds := a.Proto().DoubleStatistics
		if (ds.Minimum != nil) != tc.hasMinMax || (ds.Maximum != nil) != tc.hasMinMax {
			t.Errorf("%s: min/max presence %v", tc.name, ds)
			continue
		}
		if tc.hasMinMax {
			if ds.GetMinimum() != tc.min || ds.GetMaximum() != tc.max {
				t.Errorf("%s: min %v max %v", tc.name, ds.GetMinimum(), ds.GetMaximum())
			}
			if ds.GetMinimum() == 0 && math.Signbit(ds.GetMinimum()) != tc.minNeg {
				t.Errorf("%s: zero minimum has the wrong sign", tc.name)
			}
			if ds.GetMaximum() == 0 && math.Signbit(ds.GetMaximum()) != tc.maxNeg {
				t.Errorf("%s: zero maximum has the wrong sign", tc.name)
			}
		}
		if ds.Sum == nil {
			t.Errorf("%s: sum left out", tc.name)
		} else if tc.sumNaN != math.IsNaN(ds.GetSum()) || (!tc.sumNaN && ds.GetSum() != tc.sum) {
			t.Errorf("%s: sum %v", tc.name, ds.GetSum())
		}
	}
}

func TestProtoString(t *testing.T) {
	long := strings.Repeat("m", 1024)
	cases := []struct {
		name        string
		values      []string
		min, max    string
		lower, upp  string
		wantMinExct bool
		wantMaxExct bool
		sum         int64
	}{
		{"short", []string{"pear", "apple", "fig"}, "apple", "pear", "", "", true, true, 12},
		{"exactly 1024 bytes stays exact", []string{long, long + "", "n"}, long, "n", "", "", true, true, 2049},
		{"1025 bytes becomes bounds", []string{long + "a", long + "b"}, "", "", long, strings.Repeat("m", 1023) + "n", false, false, 2050},
		{"UTF-8 order, not UTF-16", []string{"\uFFFD", "\U0001F600"}, "\uFFFD", "\U0001F600", "", "", true, true, 7},
		{"empty string is a value", []string{"", "b"}, "", "b", "", "", true, true, 1},
	}
	for _, tc := range cases {
		a := NewAccumulator(schema(t, "string"))
		for _, v := range tc.values {
			a.AddBytes([]byte(v))
		}
		ss := a.Proto().StringStatistics
		if (ss.Minimum != nil) != tc.wantMinExct || (ss.LowerBound != nil) == tc.wantMinExct ||
			(ss.Maximum != nil) != tc.wantMaxExct || (ss.UpperBound != nil) == tc.wantMaxExct {
			t.Errorf("%s: fields %v", tc.name, ss)
			continue
		}
		if tc.wantMinExct && ss.GetMinimum() != tc.min || !tc.wantMinExct && ss.GetLowerBound() != tc.lower {
			t.Errorf("%s: minimum %q lower %q", tc.name, tail(ss.GetMinimum()), tail(ss.GetLowerBound()))
		}
		if tc.wantMaxExct && ss.GetMaximum() != tc.max || !tc.wantMaxExct && ss.GetUpperBound() != tc.upp {
			t.Errorf("%s: maximum %q upper %q", tc.name, tail(ss.GetMaximum()), tail(ss.GetUpperBound()))
		}
		if ss.GetSum() != tc.sum {
			t.Errorf("%s: sum %d, want %d", tc.name, ss.GetSum(), tc.sum)
		}
	}
	// A maximum that cannot be bounded by a shorter string is kept whole.
	a := NewAccumulator(schema(t, "string"))
	huge := strings.Repeat("\U0010FFFF", 300)
	a.AddBytes([]byte(huge))
	if ss := a.Proto().StringStatistics; ss.GetMaximum() != huge || ss.UpperBound != nil || ss.LowerBound == nil {
		t.Errorf("all U+10FFFF: %d-byte maximum, upper %v", len(ss.GetMaximum()), ss.UpperBound != nil)
	}
}

func TestProtoDecimal(t *testing.T) {
	a := NewAccumulator(schema(t, "decimal(10,2)"))
	for _, v := range []int64{150, -100050, 0, 2500} {
		a.AddDecimal(orc.Int128FromInt64(v))
	}
	ds := a.Proto().DecimalStatistics
	if ds.GetMinimum() != "-1000.5" || ds.GetMaximum() != "25" || ds.GetSum() != "-974" {
		t.Errorf("decimal: %v", ds)
	}
	a = NewAccumulator(schema(t, "decimal(38,0)"))
	a.AddDecimal(orc.Int128FromInt64(0))
	if ds := a.Proto().DecimalStatistics; ds.GetMinimum() != "0" || ds.GetSum() != "0" {
		t.Errorf("zero: %v", ds)
	}
	// 10^38 - 1 fits; adding 1 needs a 39th digit: the sum is left out
	// while min and max stay.
	nines := orc.Pow10(38)
	nines, _ = nines.Add(orc.Int128FromInt64(-1))
	a.Reset()
	a.AddDecimal(nines)
	if ds := a.Proto().DecimalStatistics; ds.GetSum() != strings.Repeat("9", 38) {
		t.Errorf("38 nines: sum %q", ds.GetSum())
	}
	a.AddDecimal(orc.Int128FromInt64(1))
	a.AddDecimal(orc.Int128FromInt64(-5)) // back under 38 digits: stays unknown
	ds = a.Proto().DecimalStatistics
	if ds.Sum != nil || ds.GetMaximum() != strings.Repeat("9", 38) || ds.GetMinimum() != "-5" {
		t.Errorf("sum past 38 digits: %v", ds)
	}
	// Negative side too.
	a.Reset()
	a.AddDecimal(nines.Neg())
	a.AddDecimal(orc.Int128FromInt64(-1))
	if ds := a.Proto().DecimalStatistics; ds.Sum != nil {
		t.Errorf("negative sum past 38 digits: %v", ds)
	}
}

func TestProtoTimestamp(t *testing.T) {
	cases := []struct {
		name             string
		values           [][2]int64 // sec, nanos
		minMs, maxMs     int64
		minNanos, maxNan *int32
	}{
		{"whole millis: only the max nanos (0 past the ms)", [][2]int64{{1, 500_000_000}}, 1500, 1500, nil, i32p(1)},
		{"sub-millisecond nanos", [][2]int64{{1, 500_000_001}, {2, 999_999_999}}, 1500, 2999, i32p(2), nil},
		{"max at 999,999 is the default", [][2]int64{{0, 999_999}}, 0, 0, i32p(1_000_000), nil},
		// 1969-12-31 23:59:59.999000123: floor millis -1, sub-ms 123.
		{"negative with nanos", [][2]int64{{-1, 999_000_123}}, -1, -1, i32p(124), i32p(124)},
		{"before 1970 by more than a second", [][2]int64{{-2, 1}, {-1, 0}}, -2000, -1000, i32p(2), i32p(1)},
	}
	for _, tc := range cases {
		a := NewAccumulator(schema(t, "timestamp"))
		for _, v := range tc.values {
			a.AddTimestamp(v[0], int32(v[1]))
		}
		ts := a.Proto().TimestampStatistics
		if ts.GetMinimumUtc() != tc.minMs || ts.GetMaximumUtc() != tc.maxMs || ts.Minimum != nil || ts.Maximum != nil {
			t.Errorf("%s: %v", tc.name, ts)
		}
		if !eqI32p(ts.MinimumNanos, tc.minNanos) || !eqI32p(ts.MaximumNanos, tc.maxNan) {
			t.Errorf("%s: nanos fields %v", tc.name, ts)
		}
	}
	// Nanos outside 0..999,999,999 are carried into the seconds.
	a := NewAccumulator(schema(t, "timestamp"))
	a.AddTimestamp(5, -1)
	a.AddTimestamp(5, 1_000_000_000)
	c := a.Column()
	if s := c.Timestamp; s.MinSec != 4 || s.MinNanos != 999_999_999 || s.MaxSec != 6 || s.MaxNanos != 0 {
		t.Errorf("carry: %+v", *s)
	}
	// Seconds whose milliseconds overflow int64 cannot be stored.
	a.Reset()
	a.AddTimestamp(math.MaxInt64, 0)
	if pb := a.Proto(); pb.TimestampStatistics != nil {
		t.Errorf("unrepresentable timestamp written: %v", pb.TimestampStatistics)
	}
}

func eqI32p(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func TestProtoOtherKinds(t *testing.T) {
	a := NewAccumulator(schema(t, "boolean"))
	a.AddLongs([]int64{1, 0, 1, 1, 0}, []bool{false, false, false, true, false})
	if pb := a.Proto(); pb.GetNumberOfValues() != 4 || !pb.GetHasNull() || len(pb.BucketStatistics.Count) != 1 || pb.BucketStatistics.Count[0] != 2 {
		t.Errorf("boolean: %v", pb)
	}
	a = NewAccumulator(schema(t, "binary"))
	a.AddBytes([]byte{0xff, 0})
	a.AddBytes(nil)
	if pb := a.Proto(); pb.BinaryStatistics.GetSum() != 2 || pb.GetNumberOfValues() != 2 {
		t.Errorf("binary: %v", pb)
	}
	a = NewAccumulator(schema(t, "map<string,int>"))
	a.AddChildren(3)
	a.AddChildren(0)
	a.AddNull()
	a.AddChildren(5)
	cs := a.Proto().CollectionStatistics
	if cs.GetMinChildren() != 0 || cs.GetMaxChildren() != 5 || cs.GetTotalChildren() != 8 {
		t.Errorf("map: %v", cs)
	}
	a = NewAccumulator(schema(t, "date"))
	a.AddDate(-3)
	a.AddDate(19000)
	if ds := a.Proto().DateStatistics; ds.GetMinimum() != -3 || ds.GetMaximum() != 19000 {
		t.Errorf("date: %v", ds)
	}
	a = NewAccumulator(schema(t, "date"))
	a.AddLongs([]int64{5, math.MaxInt32 + 1}, nil)
	if pb := a.Proto(); pb.DateStatistics != nil || pb.GetNumberOfValues() != 2 {
		t.Errorf("date beyond int32: %v", pb)
	}
	a = NewAccumulator(schema(t, "struct<a:int>"))
	a.AddValue()
	a.AddNulls(0)
	if pb := a.Proto(); pb.GetHasNull() {
		t.Errorf("AddNulls(0) recorded a null")
	}
	a.AddNulls(2)
	if pb := a.Proto(); pb.GetNumberOfValues() != 1 || !pb.GetHasNull() {
		t.Errorf("struct: %v", pb)
	}
}

// Statistics whose bounds are unknown while values exist (decoded from an
// untrusted file) are written without a sub-message, or for doubles with a
// NaN sum, never as an empty range a reader could prune on.
func TestProtoUnknownBounds(t *testing.T) {
	cases := []Column{
		{Kind: orc.Int, NumValues: 3, Int: &IntStats{Sum: 5, HasSum: true}},
		{Kind: orc.Int, NumValues: 3},
		{Kind: orc.String, NumValues: 3, String: &StringStats{Sum: 5, HasSum: true}},
		{Kind: orc.Decimal, NumValues: 3, Decimal: &DecimalStats{}},
		{Kind: orc.Date, NumValues: 3, Date: &DateStats{}},
		{Kind: orc.Timestamp, NumValues: 3, Timestamp: &TimestampStats{}},
		{Kind: orc.List, NumValues: 3, Collection: &CollectionStats{TotalChildren: 9}},
		{Kind: orc.Boolean, NumValues: 3},
		{Kind: orc.Binary, NumValues: 3, Binary: &BinaryStats{}},
	}
	for _, c := range cases {
		if pb := c.Proto(); typedMessage(pb) != nil {
			t.Errorf("%v with unknown bounds: wrote %v", c.Kind, pb)
		}
	}
	for _, c := range []Column{
		{Kind: orc.Double, NumValues: 3, Double: &DoubleStats{Sum: 1, HasSum: true}},
		{Kind: orc.Double, NumValues: 3},
	} {
		ds := c.Proto().DoubleStatistics
		if ds == nil || ds.Minimum != nil || !math.IsNaN(ds.GetSum()) {
			t.Errorf("double with unknown bounds: %v", ds)
		}
	}
}
