package stats

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// ourWriter is the WriterInfo of files our writer produces: writer version 6
// under a non-Java writer id.
var ourWriter = WriterInfo{Writer: 7, WriterVersion: WriterVersionORC135, SoftwareVersion: "orcgo"}

func schema(t *testing.T, s string) *orc.Schema {
	t.Helper()
	sc, err := orc.ParseSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func dec(u int64, scale int) DecimalValue {
	return DecimalValue{Unscaled: orc.Int128FromInt64(u), Scale: scale}
}

type decodeCase struct {
	name string
	typ  string
	info WriterInfo
	pb   *orcpb.ColumnStatistics
	want Column
}

func runDecodeCases(t *testing.T, cases []decodeCase) {
	t.Helper()
	for _, tc := range cases {
		got := FromProto(tc.pb, schema(t, tc.typ), tc.info)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, dump(got), dump(tc.want))
		}
	}
}

// dump prints a Column with its typed parts dereferenced.
func dump(c Column) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{Kind:%v NumValues:%d HasNull:%v HasNullKnown:%v BytesOnDisk:%d",
		c.Kind, c.NumValues, c.HasNull, c.HasNullKnown, c.BytesOnDisk)
	v := reflect.ValueOf(c)
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			fmt.Fprintf(&b, " %s:%+v", v.Type().Field(i).Name, f.Elem().Interface())
		}
	}
	b.WriteString("}")
	return b.String()
}

func TestFromProtoCounts(t *testing.T) {
	runDecodeCases(t, []decodeCase{
		{"nil message", "int", ourWriter, nil,
			Column{Kind: orc.Int, HasNull: true}},
		{"has_null absent (pre Hive 1.1, Trino #4622)", "int", ourWriter,
			&orcpb.ColumnStatistics{NumberOfValues: u64p(0)},
			Column{Kind: orc.Int, HasNull: true}},
		{"has_null false", "struct<a:int>", ourWriter,
			&orcpb.ColumnStatistics{NumberOfValues: u64p(5), HasNull: boolp(false), BytesOnDisk: u64p(99)},
			Column{Kind: orc.Struct, NumValues: 5, HasNullKnown: true, BytesOnDisk: 99}},
		{"has_null true", "uniontype<int,string>", ourWriter,
			&orcpb.ColumnStatistics{NumberOfValues: u64p(5), HasNull: boolp(true)},
			Column{Kind: orc.Union, NumValues: 5, HasNull: true, HasNullKnown: true}},
	})
	// A nil schema gives counts only.
	c := FromProto(&orcpb.ColumnStatistics{NumberOfValues: u64p(3), HasNull: boolp(false),
		IntStatistics: &orcpb.IntegerStatistics{Minimum: i64p(1), Maximum: i64p(2)}}, nil, ourWriter)
	if c.NumValues != 3 || c.Int != nil || !c.HasNullKnown {
		t.Errorf("nil schema: %s", dump(c))
	}
}

func TestFromProtoInt(t *testing.T) {
	base := func(is *orcpb.IntegerStatistics) *orcpb.ColumnStatistics {
		return &orcpb.ColumnStatistics{NumberOfValues: u64p(3), HasNull: boolp(false), IntStatistics: is}
	}
	col := func(s *IntStats) Column {
		return Column{Kind: orc.Long, NumValues: 3, HasNullKnown: true, Int: s}
	}
	runDecodeCases(t, []decodeCase{
		{"full", "bigint", ourWriter, base(&orcpb.IntegerStatistics{Minimum: i64p(-5), Maximum: i64p(9), Sum: i64p(7)}),
			col(&IntStats{Min: -5, Max: 9, HasMinMax: true, Sum: 7, HasSum: true})},
		{"sum absent (overflow)", "bigint", ourWriter, base(&orcpb.IntegerStatistics{Minimum: i64p(math.MinInt64), Maximum: i64p(math.MaxInt64)}),
			col(&IntStats{Min: math.MinInt64, Max: math.MaxInt64, HasMinMax: true})},
		{"max absent", "bigint", ourWriter, base(&orcpb.IntegerStatistics{Minimum: i64p(1), Sum: i64p(7)}),
			col(&IntStats{Sum: 7, HasSum: true})},
		{"min above max", "bigint", ourWriter, base(&orcpb.IntegerStatistics{Minimum: i64p(10), Maximum: i64p(9)}),
			col(nil)},
		{"sub-message of another kind", "bigint", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(3), HasNull: boolp(false),
			StringStatistics: &orcpb.StringStatistics{Minimum: strp("a"), Maximum: strp("b")}},
			col(nil)},
		{"no sub-message", "bigint", ourWriter, base(nil), col(nil)},
	})
}

func TestFromProtoDouble(t *testing.T) {
	base := func(ds *orcpb.DoubleStatistics) *orcpb.ColumnStatistics {
		return &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(true), DoubleStatistics: ds}
	}
	col := func(s *DoubleStats) Column {
		return Column{Kind: orc.Double, NumValues: 2, HasNull: true, HasNullKnown: true, Double: s}
	}
	runDecodeCases(t, []decodeCase{
		{"full", "double", ourWriter, base(&orcpb.DoubleStatistics{Minimum: f64p(-1.5), Maximum: f64p(2), Sum: f64p(0.5)}),
			col(&DoubleStats{Min: -1.5, Max: 2, HasMinMax: true, Sum: 0.5, HasSum: true})},
		{"infinite sum keeps bounds", "double", ourWriter, base(&orcpb.DoubleStatistics{Minimum: f64p(1e308), Maximum: f64p(1e308), Sum: f64p(math.Inf(1))}),
			col(&DoubleStats{Min: 1e308, Max: 1e308, HasMinMax: true, Sum: math.Inf(1), HasSum: true})},
		{"NaN min", "float", ourWriter, base(&orcpb.DoubleStatistics{Minimum: f64p(math.NaN()), Maximum: f64p(2), Sum: f64p(1)}),
			Column{Kind: orc.Float, NumValues: 2, HasNull: true, HasNullKnown: true, Double: &DoubleStats{Sum: 1, HasSum: true}}},
		{"min above max", "double", ourWriter, base(&orcpb.DoubleStatistics{Minimum: f64p(3), Maximum: f64p(2), Sum: f64p(1)}),
			col(nil)},
	})
	// NaN sum: Java's mark of a NaN value; min/max are dropped.
	c := FromProto(base(&orcpb.DoubleStatistics{Minimum: f64p(math.NaN()), Maximum: f64p(math.NaN()), Sum: f64p(math.NaN())}),
		schema(t, "double"), ourWriter)
	if c.Double == nil || c.Double.HasMinMax || !c.Double.HasSum || !math.IsNaN(c.Double.Sum) {
		t.Errorf("NaN sum: %s", dump(c))
	}
	c = FromProto(base(&orcpb.DoubleStatistics{Minimum: f64p(1), Maximum: f64p(2), Sum: f64p(math.NaN())}),
		schema(t, "double"), ourWriter)
	if c.Double == nil || c.Double.HasMinMax {
		t.Errorf("NaN sum with finite bounds: %s", dump(c))
	}
}

func TestFromProtoString(t *testing.T) {
	ss := &orcpb.StringStatistics{Minimum: strp("apple"), Maximum: strp("pear"), Sum: i64p(9)}
	base := func(ss *orcpb.StringStatistics) *orcpb.ColumnStatistics {
		return &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false), StringStatistics: ss}
	}
	col := func(k orc.Kind, s *StringStats) Column {
		return Column{Kind: k, NumValues: 2, HasNullKnown: true, String: s}
	}
	full := &StringStats{Min: "apple", Max: "pear", HasMin: true, HasMax: true, Sum: 9, HasSum: true}
	sumOnly := &StringStats{Sum: 9, HasSum: true}
	runDecodeCases(t, []decodeCase{
		{"full", "string", WriterInfo{WriterVersion: 1}, base(ss), col(orc.String, full)},
		{"char", "char(5)", ourWriter, base(ss), col(orc.Char, full)},
		{"varchar", "varchar(5)", ourWriter, base(ss), col(orc.Varchar, full)},
		{"writer version 0 (pre HIVE-8732)", "string", WriterInfo{}, base(ss), col(orc.String, sumOnly)},
		{"file version 0.11", "string", WriterInfo{WriterVersion: 1, Version011: true}, base(ss), col(orc.String, sumOnly)},
		{"bounds (ORC-203)", "string", ourWriter, base(&orcpb.StringStatistics{LowerBound: strp("ab"), UpperBound: strp("ac"), Sum: i64p(3000)}),
			col(orc.String, &StringStats{Min: "ab", Max: "ac", HasMin: true, HasMax: true, MinIsLowerBound: true, MaxIsUpperBound: true, Sum: 3000, HasSum: true})},
		{"exact min wins over a bound", "string", ourWriter, base(&orcpb.StringStatistics{Minimum: strp("abc"), LowerBound: strp("ab"), UpperBound: strp("b")}),
			col(orc.String, &StringStats{Min: "abc", Max: "b", HasMin: true, HasMax: true, MaxIsUpperBound: true})},
		{"min above max", "string", ourWriter, base(&orcpb.StringStatistics{Minimum: strp("z"), Maximum: strp("a")}), col(orc.String, nil)},
		{"binary stats on a string", "string", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			BinaryStatistics: &orcpb.BinaryStatistics{Sum: i64p(4)}}, col(orc.String, nil)},
	})
}

func TestFromProtoBoolBinaryCollection(t *testing.T) {
	runDecodeCases(t, []decodeCase{
		{"bool", "boolean", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(10), HasNull: boolp(false),
			BucketStatistics: &orcpb.BucketStatistics{Count: []uint64{4}}},
			Column{Kind: orc.Boolean, NumValues: 10, HasNullKnown: true, Bool: &BoolStats{TrueCount: 4}}},
		{"bool: more trues than values", "boolean", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(3), HasNull: boolp(false),
			BucketStatistics: &orcpb.BucketStatistics{Count: []uint64{4}}},
			Column{Kind: orc.Boolean, NumValues: 3, HasNullKnown: true}},
		{"bool: empty count list, no values", "boolean", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(0), HasNull: boolp(true),
			BucketStatistics: &orcpb.BucketStatistics{}},
			Column{Kind: orc.Boolean, HasNull: true, HasNullKnown: true, Bool: &BoolStats{}}},
		{"bool: empty count list with values", "boolean", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(true),
			BucketStatistics: &orcpb.BucketStatistics{}},
			Column{Kind: orc.Boolean, NumValues: 2, HasNull: true, HasNullKnown: true}},
		{"binary", "binary", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			BinaryStatistics: &orcpb.BinaryStatistics{Sum: i64p(17)}},
			Column{Kind: orc.Binary, NumValues: 2, HasNullKnown: true, Binary: &BinaryStats{Sum: 17, HasSum: true}}},
		{"list", "array<int>", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			CollectionStatistics: &orcpb.CollectionStatistics{MinChildren: u64p(1), MaxChildren: u64p(4), TotalChildren: u64p(5)}},
			Column{Kind: orc.List, NumValues: 2, HasNullKnown: true, Collection: &CollectionStats{MinChildren: 1, MaxChildren: 4, TotalChildren: 5, HasMinMax: true}}},
		{"map, min above max", "map<int,int>", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			CollectionStatistics: &orcpb.CollectionStatistics{MinChildren: u64p(5), MaxChildren: u64p(4)}},
			Column{Kind: orc.Map, NumValues: 2, HasNullKnown: true}},
		{"date", "date", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			DateStatistics: &orcpb.DateStatistics{Minimum: i32p(-719162), Maximum: i32p(2932896)}},
			Column{Kind: orc.Date, NumValues: 2, HasNullKnown: true, Date: &DateStats{Min: -719162, Max: 2932896, HasMinMax: true}}},
		{"date, min only", "date", ourWriter, &orcpb.ColumnStatistics{NumberOfValues: u64p(2), HasNull: boolp(false),
			DateStatistics: &orcpb.DateStatistics{Minimum: i32p(3)}},
			Column{Kind: orc.Date, NumValues: 2, HasNullKnown: true, Date: &DateStats{}}},
	})
}

func TestFromProtoDecimal(t *testing.T) {
	ds := &orcpb.DecimalStatistics{Minimum: strp("-1000.5"), Maximum: strp("1999.2"), Sum: strp("1998301.099")}
	base := func(ds *orcpb.DecimalStatistics) *orcpb.ColumnStatistics {
		return &orcpb.ColumnStatistics{NumberOfValues: u64p(4000), DecimalStatistics: ds}
	}
	col := func(typ string, s *DecimalStats) Column {
		return Column{Kind: orc.Decimal, NumValues: 4000, HasNull: true, Decimal: s}
	}
	// decimal.orc's file statistics, brought to the column scale 5.
	full := &DecimalStats{Min: dec(-100050000, 5), Max: dec(199920000, 5), HasMinMax: true,
		Sum: dec(199830109900, 5), HasSum: true}
	unknown := &DecimalStats{}
	javaV6 := WriterInfo{Writer: WriterJava, WriterVersion: 6}
	runDecodeCases(t, []decodeCase{
		{"decimal.orc", "decimal(10,5)", WriterInfo{}, base(ds), col("", full)},
		{"ORC-517: Java writer version 6, precision 10", "decimal(10,5)", javaV6, base(ds), col("", unknown)},
		{"ORC-517 boundary: precision 18", "decimal(18,5)", javaV6, base(ds), col("", unknown)},
		{"precision 19 is not affected", "decimal(19,5)", javaV6, base(ds), col("", full)},
		{"C++ writer version 6 is not affected", "decimal(10,5)", WriterInfo{Writer: WriterCpp, WriterVersion: 6}, base(ds), col("", full)},
		{"Java writer version 7 is not affected", "decimal(10,5)", WriterInfo{Writer: WriterJava, WriterVersion: 7}, base(ds), col("", full)},
		{"unparsable minimum", "decimal(10,5)", ourWriter, base(&orcpb.DecimalStatistics{Minimum: strp("1.2.3"), Maximum: strp("2")}), col("", nil)},
		{"unparsable sum", "decimal(10,5)", ourWriter, base(&orcpb.DecimalStatistics{Minimum: strp("1"), Maximum: strp("2"), Sum: strp("x")}), col("", nil)},
		{"min above max", "decimal(10,5)", ourWriter, base(&orcpb.DecimalStatistics{Minimum: strp("2.5"), Maximum: strp("2.25")}), col("", nil)},
		{"more digits than the scale keep their own scale", "decimal(10,2)", ourWriter,
			base(&orcpb.DecimalStatistics{Minimum: strp("1.2345"), Maximum: strp("1.5000"), Sum: strp("2.7345")}),
			col("", &DecimalStats{Min: dec(12345, 4), Max: dec(150, 2), HasMinMax: true, Sum: dec(27345, 4), HasSum: true})},
		{"sum of 39 digits", "decimal(38,0)", ourWriter,
			base(&orcpb.DecimalStatistics{Minimum: strp("1"), Maximum: strp("2"), Sum: strp("100000000000000000000000000000000000000")}),
			col("", &DecimalStats{Min: dec(1, 0), Max: dec(2, 0), HasMinMax: true})},
		{"scale beyond 38 digits", "decimal(10,2)", ourWriter,
			base(&orcpb.DecimalStatistics{Minimum: strp("0." + zeros(80) + "1"), Maximum: strp("2")}), col("", nil)},
		{"huge zero", "decimal(10,2)", ourWriter,
			base(&orcpb.DecimalStatistics{Minimum: strp("0." + zeros(5000)), Maximum: strp("2")}),
			col("", &DecimalStats{Min: dec(0, 2), Max: dec(200, 2), HasMinMax: true})},
		{"exponent form", "decimal(10,2)", ourWriter,
			base(&orcpb.DecimalStatistics{Minimum: strp("1.5E2"), Maximum: strp("2e3")}),
			col("", &DecimalStats{Min: dec(15000, 2), Max: dec(200000, 2), HasMinMax: true})},
	})
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

func TestFromProtoTimestamp(t *testing.T) {
	ts := func(p *orcpb.TimestampStatistics) *orcpb.ColumnStatistics {
		return &orcpb.ColumnStatistics{NumberOfValues: u64p(1), HasNull: boolp(false), TimestampStatistics: p}
	}
	col := func(s *TimestampStats) Column {
		return Column{Kind: orc.Timestamp, NumValues: 1, HasNullKnown: true, Timestamp: s}
	}
	known := func(minSec int64, minNs int32, maxSec int64, maxNs int32) *TimestampStats {
		return &TimestampStats{MinSec: minSec, MinNanos: minNs, MaxSec: maxSec, MaxNanos: maxNs, HasMinMax: true}
	}
	runDecodeCases(t, []decodeCase{
		// orc_split_elim_new.orc: minimum_utc -28800000, maximum_utc
		// -28550000, maximum_nanos 1 (0 ns past the millisecond).
		{"orc_split_elim_new", "timestamp", WriterInfo{WriterVersion: 9},
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(-28800000), MaximumUtc: i64p(-28550000), MaximumNanos: i32p(1)}),
			col(known(-28800, 0, -28550, 0))},
		{"no nanos fields: max widened to the end of its millisecond (ORC-611)", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(1500), MaximumUtc: i64p(1500)}),
			col(known(1, 500_000_000, 1, 500_999_999))},
		// -1 ms is 1969-12-31 23:59:59.999: floor division gives second -1
		// and 999 ms, never (0, -1 ms).
		{"negative millis with nanos", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(-1), MaximumUtc: i64p(-1), MinimumNanos: i32p(124), MaximumNanos: i32p(457)}),
			col(known(-1, 999_000_123, -1, 999_000_456))},
		{"negative millis -1001", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(-1001), MaximumUtc: i64p(0), MinimumNanos: i32p(1_000_000)}),
			col(known(-2, 999_999_999, 0, 999_999))},
		{"instant", "timestamp with local time zone", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0), MaximumUtc: i64p(1000)}),
			Column{Kind: orc.TimestampInstant, NumValues: 1, HasNullKnown: true, Timestamp: known(0, 0, 1, 999_999)}},
		{"legacy fields only (testUnionAndTimestamp)", "timestamp", WriterInfo{WriterVersion: 1},
			ts(&orcpb.TimestampStatistics{Minimum: i64p(28800000), Maximum: i64p(2125164896203)}),
			col(&TimestampStats{})},
		{"UTC fields from a writer before ORC-135", "timestamp", WriterInfo{WriterVersion: 5},
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0), MaximumUtc: i64p(1)}),
			col(&TimestampStats{})},
		{"only the minimum", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0)}), col(&TimestampStats{})},
		{"nanos field 0 (would be -1 ns)", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0), MaximumUtc: i64p(1), MinimumNanos: i32p(0)}), col(nil)},
		{"nanos field past 1,000,000", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0), MaximumUtc: i64p(1), MaximumNanos: i32p(1_000_001)}), col(nil)},
		{"negative nanos field", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(0), MaximumUtc: i64p(1), MaximumNanos: i32p(-7)}), col(nil)},
		{"min after max", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(5), MaximumUtc: i64p(4)}), col(nil)},
		{"extreme millis", "timestamp", ourWriter,
			ts(&orcpb.TimestampStatistics{MinimumUtc: i64p(math.MinInt64), MaximumUtc: i64p(math.MaxInt64)}),
			col(known(math.MinInt64/1000-1, 192_000_000, math.MaxInt64/1000, 807_999_999))},
	})
}

func TestWriterInfoFromTail(t *testing.T) {
	ps := &orcpb.PostScript{Version: []uint32{0, 12}, WriterVersion: u32p(9)}
	f := &orcpb.Footer{Writer: u32p(1), SoftwareVersion: strp("1.7.3")}
	if got, want := WriterInfoFromTail(ps, f), (WriterInfo{Writer: 1, WriterVersion: 9, SoftwareVersion: "1.7.3"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, v := range [][]uint32{nil, {0, 11}} {
		if got := WriterInfoFromTail(&orcpb.PostScript{Version: v, WriterVersion: u32p(1)}, nil); !got.Version011 || got.WriterVersion != 1 {
			t.Errorf("version %v: %+v", v, got)
		}
	}
	if got := WriterInfoFromTail(nil, nil); got != (WriterInfo{}) {
		t.Errorf("nil tail: %+v", got)
	}
}

func u32p(v uint32) *uint32 { return &v }
