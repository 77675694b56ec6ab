package stats

import (
	"math"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// FuzzFromProto decodes arbitrary ColumnStatistics messages as every column
// kind under several writers. FromProto must not panic, what it returns must
// keep the Column invariants, and encoding it again and decoding the result
// must never claim more than the first decoding knew.
func FuzzFromProto(f *testing.F) {
	r := newRand(4)
	for _, typ := range testTypes {
		sc, _ := orc.ParseSchema(typ)
		a := NewAccumulator(sc)
		feed(a, sc.Kind, genValues(r, sc.Kind, 20, true))
		b, _ := proto.Marshal(a.Proto())
		f.Add(b)
	}
	for _, pb := range []*orcpb.ColumnStatistics{
		{NumberOfValues: u64p(1), TimestampStatistics: &orcpb.TimestampStatistics{MinimumUtc: i64p(-1), MaximumUtc: i64p(5), MinimumNanos: i32p(0)}},
		{NumberOfValues: u64p(1), DecimalStatistics: &orcpb.DecimalStatistics{Minimum: strp("1e999"), Maximum: strp("-.")}},
		{NumberOfValues: u64p(1), DoubleStatistics: &orcpb.DoubleStatistics{Minimum: f64p(math.NaN()), Sum: f64p(math.Inf(-1))}},
		{NumberOfValues: u64p(1), StringStatistics: &orcpb.StringStatistics{LowerBound: strp("\xff\xfe"), UpperBound: strp("")}},
		{NumberOfValues: u64p(1), BucketStatistics: &orcpb.BucketStatistics{Count: []uint64{5, 6}}},
	} {
		b, _ := proto.Marshal(pb)
		f.Add(b)
	}
	var schemas []*orc.Schema
	for _, typ := range testTypes {
		sc, err := orc.ParseSchema(typ)
		if err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, sc)
	}
	infos := []WriterInfo{ourWriter, {}, {Writer: WriterJava, WriterVersion: 6}, {WriterVersion: 1, Version011: true}}
	f.Fuzz(func(t *testing.T, data []byte) {
		var pb orcpb.ColumnStatistics
		if proto.Unmarshal(data, &pb) != nil {
			return
		}
		for _, sc := range schemas {
			for _, info := range infos {
				c := FromProto(&pb, sc, info)
				checkInvariants(t, c)
				again := stored(t, c.Proto(), sc)
				checkInvariants(t, again)
				if again.NumValues != c.NumValues || again.HasNull != c.HasNull {
					t.Fatalf("%v: counts changed: %s -> %s", sc, dump(c), dump(again))
				}
				checkNoNewKnowledge(t, c, again)
				m := c
				m.Merge(&again)
				checkInvariants(t, m)
			}
		}
	})
}

func checkInvariants(t *testing.T, c Column) {
	t.Helper()
	bad := func() { t.Fatalf("invariant broken: %s", dump(c)) }
	if s := c.Int; s != nil && s.HasMinMax && s.Min > s.Max {
		bad()
	}
	if s := c.Double; s != nil && s.HasMinMax && (math.IsNaN(s.Min) || math.IsNaN(s.Max) || s.Min > s.Max || (s.HasSum && math.IsNaN(s.Sum))) {
		bad()
	}
	if s := c.String; s != nil && s.HasMin && s.HasMax && s.Min > s.Max {
		bad()
	}
	if s := c.Bool; s != nil && s.TrueCount > c.NumValues {
		bad()
	}
	if s := c.Decimal; s != nil && s.HasMinMax && cmpDecimal(s.Min, s.Max) > 0 {
		bad()
	}
	if s := c.Date; s != nil && s.HasMinMax && s.Min > s.Max {
		bad()
	}
	if s := c.Timestamp; s != nil && s.HasMinMax {
		if s.MinNanos < 0 || s.MinNanos > 999_999_999 || s.MaxNanos < 0 || s.MaxNanos > 999_999_999 ||
			cmpTime(s.MinSec, s.MinNanos, s.MaxSec, s.MaxNanos) > 0 {
			bad()
		}
	}
	if s := c.Collection; s != nil && s.HasMinMax && s.MinChildren > s.MaxChildren {
		bad()
	}
}

// checkNoNewKnowledge fails when b, decoded from a's encoding, states bounds
// a did not have.
func checkNoNewKnowledge(t *testing.T, a, b Column) {
	t.Helper()
	fail := func() { t.Fatalf("re-decoding gained knowledge:\n %s\n-> %s", dump(a), dump(b)) }
	if b.Int != nil && b.Int.HasMinMax && (a.Int == nil || !a.Int.HasMinMax || a.Int.Min != b.Int.Min || a.Int.Max != b.Int.Max) {
		fail()
	}
	if b.Double != nil && b.Double.HasMinMax && (a.Double == nil || !a.Double.HasMinMax || a.Double.Min != b.Double.Min || a.Double.Max != b.Double.Max) {
		fail()
	}
	if b.String != nil && a.String != nil {
		if b.String.HasMin && !(a.String.HasMin && (b.String.Min == a.String.Min || b.String.MinIsLowerBound && b.String.Min < a.String.Min)) {
			fail()
		}
		if b.String.HasMax && !(a.String.HasMax && (b.String.Max == a.String.Max || b.String.MaxIsUpperBound && b.String.Max > a.String.Max)) {
			fail()
		}
	} else if b.String != nil && (b.String.HasMin || b.String.HasMax) {
		fail()
	}
	if b.Decimal != nil && b.Decimal.HasMinMax && (a.Decimal == nil || !a.Decimal.HasMinMax ||
		cmpDecimal(a.Decimal.Min, b.Decimal.Min) != 0 || cmpDecimal(a.Decimal.Max, b.Decimal.Max) != 0) {
		fail()
	}
	if b.Date != nil && b.Date.HasMinMax && (a.Date == nil || *a.Date != *b.Date) {
		fail()
	}
	if b.Timestamp != nil && b.Timestamp.HasMinMax && (a.Timestamp == nil || *a.Timestamp != *b.Timestamp) {
		fail()
	}
	if b.Collection != nil && b.Collection.HasMinMax && (a.Collection == nil || !a.Collection.HasMinMax ||
		a.Collection.MinChildren != b.Collection.MinChildren || a.Collection.MaxChildren != b.Collection.MaxChildren) {
		fail()
	}
}
