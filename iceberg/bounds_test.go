package iceberg

import (
	"bytes"
	"encoding/hex"
	"math"
	"math/big"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TestTwosComplement: the spec's decimal serialization, big-endian two's
// complement in the fewest bytes, worked out by hand.
func TestTwosComplement(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want string
	}{
		{0, "00"}, {1, "01"}, {127, "7f"}, {128, "0080"}, {255, "00ff"}, {256, "0100"},
		{-1, "ff"}, {-128, "80"}, {-129, "ff7f"}, {-256, "ff00"}, {-255, "ff01"}, {-450, "fe3e"},
		{1000, "03e8"}, {-32768, "8000"}, {-32769, "ff7fff"}, {math.MinInt64, "8000000000000000"},
	} {
		if got := hex.EncodeToString(twosComplement(big.NewInt(tc.v))); got != tc.want {
			t.Errorf("%d: %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestBoundsAgreeWithIcebergGo serializes bounds from statistics and
// compares them with iceberg-go's literals' MarshalBinary.
func TestBoundsAgreeWithIcebergGo(t *testing.T) {
	lit := func(l ice.Literal) string {
		b, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(b)
	}
	for _, tc := range []struct {
		typ    ice.Type
		c      stats.Column
		lo, hi string
	}{
		{ice.PrimitiveTypes.Int32, stats.Column{Int: &stats.IntStats{Min: -7, Max: 1 << 30, HasMinMax: true}},
			lit(ice.NewLiteral(int32(-7))), lit(ice.NewLiteral(int32(1 << 30)))},
		{ice.PrimitiveTypes.Int64, stats.Column{Int: &stats.IntStats{Min: math.MinInt64, Max: 42, HasMinMax: true}},
			lit(ice.NewLiteral(int64(math.MinInt64))), lit(ice.NewLiteral(int64(42)))},
		{ice.PrimitiveTypes.Float32, stats.Column{Double: &stats.DoubleStats{Min: -1.25, Max: 1e10, HasMinMax: true}},
			lit(ice.NewLiteral(float32(-1.25))), lit(ice.NewLiteral(float32(1e10)))},
		{ice.PrimitiveTypes.Float64, stats.Column{Double: &stats.DoubleStats{Min: -1e300, Max: math.Pi, HasMinMax: true}},
			lit(ice.NewLiteral(-1e300)), lit(ice.NewLiteral(math.Pi))},
		{ice.PrimitiveTypes.Date, stats.Column{Date: &stats.DateStats{Min: -3, Max: 19000, HasMinMax: true}},
			lit(ice.NewLiteral(ice.Date(-3))), lit(ice.NewLiteral(ice.Date(19000)))},
		// 1,700,000,000.000001500 s: the lower bound rounds down to ...001 µs, the upper up to ...002 µs.
		{ice.PrimitiveTypes.Timestamp, stats.Column{Timestamp: &stats.TimestampStats{MinSec: 1_700_000_000, MinNanos: 1500,
			MaxSec: 1_700_000_000, MaxNanos: 1500, HasMinMax: true}},
			lit(ice.NewLiteral(ice.Timestamp(1_700_000_000_000_001))), lit(ice.NewLiteral(ice.Timestamp(1_700_000_000_000_002)))},
		{ice.PrimitiveTypes.TimestampTz, stats.Column{Timestamp: &stats.TimestampStats{MinSec: -2, MinNanos: 999_999_999,
			MaxSec: 0, MaxNanos: 0, HasMinMax: true}},
			lit(ice.NewLiteral(ice.Timestamp(-1_000_001))), lit(ice.NewLiteral(ice.Timestamp(0)))},
		{ice.PrimitiveTypes.String, stats.Column{String: &stats.StringStats{Min: "Ähnlich", Max: "zebra", HasMin: true, HasMax: true}},
			lit(ice.NewLiteral("Ähnlich")), lit(ice.NewLiteral("zebra"))},
		{ice.PrimitiveTypes.Bool, stats.Column{NumValues: 3, Bool: &stats.BoolStats{TrueCount: 3}}, "01", "01"},
		{ice.PrimitiveTypes.Bool, stats.Column{NumValues: 3, Bool: &stats.BoolStats{TrueCount: 1}}, "00", "01"},
		// A decimal(9,2) column whose statistics were kept at scale 3:
		// -1.2345 -> -1.235 is rounded down to -1.24, 2.0015 up to 2.01.
		{ice.DecimalTypeOf(9, 2), stats.Column{Decimal: &stats.DecimalStats{
			Min: stats.DecimalValue{Unscaled: orc.Int128FromInt64(-1235), Scale: 3},
			Max: stats.DecimalValue{Unscaled: orc.Int128FromInt64(2001), Scale: 3}, HasMinMax: true}},
			"84", "00c9"},
		{ice.PrimitiveTypes.Int32, stats.Column{Int: &stats.IntStats{Min: 1, Max: 1 << 40, HasMinMax: true}}, "", ""},
	} {
		lo, hi := boundsFromStats(tc.typ, tc.c)
		if hex.EncodeToString(lo) != tc.lo || hex.EncodeToString(hi) != tc.hi {
			t.Errorf("%s: bounds %x %x, want %s %s", tc.typ, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in     string
		n      int
		text   bool
		lo, hi string
		ok     bool
	}{
		{"abcdef", 3, true, "abc", "abd", true},
		{"abc", 3, true, "abc", "abc", true},
		{"ab", 3, true, "ab", "ab", true},
		{"日本語です", 2, true, "日本", "日札", true},
		{"a\U0010FFFF\U0010FFFFz", 3, true, "a\U0010FFFF\U0010FFFF", "b", true},
		{"\U0010FFFF\U0010FFFFz", 2, true, "\U0010FFFF\U0010FFFF", "", false},
		{"a\uD7FFz", 2, true, "a\uD7FF", "a\uE000", true}, // the surrogates are skipped
		{"\x01\x02\x03", 2, false, "\x01\x02", "\x01\x03", true},
		{"\x01\xff\x03", 2, false, "\x01\xff", "\x02", true},
		{"\xff\xff\x03", 2, false, "\xff\xff", "", false},
		{"anything", 0, true, "anything", "anything", true},
	} {
		lo := truncateLower([]byte(tc.in), tc.n, tc.text)
		hi, ok := truncateUpper([]byte(tc.in), tc.n, tc.text)
		if string(lo) != tc.lo || string(hi) != tc.hi || ok != tc.ok {
			t.Errorf("%q cut to %d: %q %q %v, want %q %q %v", tc.in, tc.n, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
		if ok && bytes.Compare(hi, []byte(tc.in)) < 0 {
			t.Errorf("%q: upper bound %q is below it", tc.in, hi)
		}
	}
}

func TestMetricsModes(t *testing.T) {
	for in, want := range map[string]string{"none": "none", "Counts": "counts", "FULL": "full",
		"truncate(16)": "truncate(16)", " truncate(3) ": "truncate(3)"} {
		m, err := ParseMetricsMode(in)
		if err != nil || m.String() != want {
			t.Errorf("%q: %v %v, want %s", in, m, err, want)
		}
	}
	for _, bad := range []string{"", "truncate(0)", "truncate(-1)", "truncate(x)", "truncate(3", "some"} {
		if _, err := ParseMetricsMode(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if (MetricsMode{}).String() != "truncate(16)" {
		t.Error("the zero mode is not truncate(16)")
	}
	// 102 top-level columns, the last a struct: without a default the first
	// 100 keep truncate(16), the rest (and the struct's field) none.
	var fields []ice.NestedField
	for i := 1; i <= 101; i++ {
		fields = append(fields, ice.NestedField{ID: i, Name: "c" + itoa(int64(i)), Type: ice.PrimitiveTypes.Int32})
	}
	fields = append(fields, ice.NestedField{ID: 102, Name: "s", Type: &ice.StructType{FieldList: []ice.NestedField{
		{ID: 103, Name: "x", Type: ice.PrimitiveTypes.Int32}}}})
	s := ice.NewSchema(0, fields...)
	cfg, err := NewMetricsConfig(s, map[string]string{PropMetricsColumnPrefix + "s.x": "full"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]string{1: "truncate(16)", 100: "truncate(16)", 101: "none", 103: "full"} {
		if got := cfg.Mode(id).String(); got != want {
			t.Errorf("field %d: %s, want %s", id, got, want)
		}
	}
	cfg, _ = NewMetricsConfig(s, map[string]string{PropMetricsDefault: "counts"})
	if cfg.Mode(101).String() != "counts" {
		t.Errorf("an explicit default: field 101 is %s", cfg.Mode(101))
	}
	for props, want := range map[string]string{
		PropMetricsColumnPrefix + "nope": "does not have",
		PropMetricsDefault:               "is not none",
		PropMetricsMaxInferred:           "is not a count",
	} {
		if _, err := NewMetricsConfig(s, map[string]string{props: "x"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=x: %v", props, err)
		}
	}
}
