package stats

// Decoding orcpb.ColumnStatistics (field numbers as stored):
//
//	1 number_of_values  uint64   non-null values at this level
//	2 int_statistics        {1 min sint64, 2 max sint64, 3 sum sint64}
//	3 double_statistics     {1 min double, 2 max double, 3 sum double}
//	4 string_statistics     {1 min, 2 max, 3 sum sint64, 4 lower_bound, 5 upper_bound}
//	5 bucket_statistics     {1 count packed uint64: count[0] = trues}
//	6 decimal_statistics    {1 min, 2 max, 3 sum: decimal strings}
//	7 date_statistics       {1 min sint32, 2 max sint32: days}
//	8 binary_statistics     {1 sum sint64: bytes}
//	9 timestamp_statistics  {1 min, 2 max: legacy writer-local millis;
//	                         3 minimum_utc, 4 maximum_utc sint64: millis;
//	                         5 minimum_nanos, 6 maximum_nanos int32: sub-millisecond nanos + 1}
//	10 has_null        bool     absent in files older than Hive 1.1
//	11 bytes_on_disk   uint64   stripe and file level only
//	12 collection_statistics {1 min_children, 2 max_children, 3 total_children}
//
// Only the sub-message that matches the column's kind is read. What can be
// trusted depends on the writer (ORC checklist section 4); the gates applied
// here are listed on FromProto.

import (
	"math"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// Writer ids stored in Footer.writer, from format (which owns them).
const (
	WriterJava = format.WriterJava // Apache ORC Java (also when the field is absent)
	WriterCpp  = format.WriterCpp  // Apache ORC C++
)

// Writer versions stored in PostScript.writer_version that decide which
// statistics can be trusted, from format (which owns them and the fixes
// each brings). Non-Java writers must write at least WriterVersionORC135.
const (
	// WriterVersionOriginal: string min/max of stripes and files may be
	// wrong (fixed by HIVE-8732).
	WriterVersionOriginal = format.WriterOriginal
	// WriterVersionHIVE8732: string min/max fixed.
	WriterVersionHIVE8732 = format.WriterHive8732
	// WriterVersionORC135: timestamp statistics in UTC fields.
	WriterVersionORC135 = format.WriterORC135
	// WriterVersionORC517: Java decimal64 min/max fixed; Java files with
	// exactly version 6 have wrong decimal min/max for precision <= 18.
	WriterVersionORC517 = format.WriterORC517
	// WriterVersionORC203: long strings recorded as lower/upper bounds.
	WriterVersionORC203 = format.WriterORC203
)

// WriterInfo is what FromProto needs to know about the writer of a file to
// decide which statistics to trust: format.WriterInfo, whose Includes
// answers which fixes the writer has.
type WriterInfo = format.WriterInfo

// WriterInfoFromTail collects the WriterInfo of a file from its PostScript
// and Footer; either may be nil.
func WriterInfoFromTail(ps *orcpb.PostScript, footer *orcpb.Footer) WriterInfo {
	return format.WriterInfoFromTail(ps, footer)
}

// FromProto decodes the statistics of the column t from pb. It never fails:
// what is missing, untrusted or malformed is reported as unknown.
//
//   - pb nil: nothing known (HasNullKnown false). t nil: counts only, with
//     Kind set to orc.Struct (a kind without typed statistics).
//   - has_null absent: HasNullKnown false and HasNull true (Java's reading).
//   - The typed part is nil when the sub-message for t's kind is absent
//     (another kind's sub-message is ignored) and when its values are
//     malformed: minimum above maximum, nanos fields outside 1..1,000,000,
//     decimal text that does not parse, a boolean true count above
//     number_of_values.
//   - Integer, double, date, decimal, timestamp and collection min/max are
//     known only when both were recorded; a sum only when recorded.
//   - Strings: writer version 0 (pre HIVE-8732) -> min/max unknown (sum
//     kept). lower_bound/upper_bound, used when minimum/maximum are absent,
//     set MinIsLowerBound/MaxIsUpperBound.
//   - Doubles: a NaN sum (Java's mark of a NaN value) -> min/max unknown; a
//     NaN min or max likewise.
//   - Decimals: Java writer with writer version exactly 6 and precision
//     1..18 (ORC-517) -> min, max and sum unknown. Values are brought to the
//     column's scale when exact (see parseStatDecimal); a sum beyond 38
//     digits is unknown.
//   - Timestamps: only minimum_utc/maximum_utc are used, and only from
//     writer version 6 (ORC-135) on; the legacy writer-local fields 1/2 mean
//     unknown. Millis are split with floor division, then the nanos fields
//     minus one are added (absent: 0 for the minimum, 999,999 for the
//     maximum, which widens old maxima to the end of their millisecond).
func FromProto(pb *orcpb.ColumnStatistics, t *orc.Schema, info WriterInfo) Column {
	var c Column
	if t != nil {
		c.Kind = t.Kind
	} else {
		c.Kind = orc.Struct // no typed statistics
	}
	if pb == nil {
		c.HasNull = true
		return c
	}
	c.NumValues = pb.GetNumberOfValues()
	c.HasNullKnown = pb.HasNull != nil
	c.HasNull = !c.HasNullKnown || pb.GetHasNull()
	c.BytesOnDisk = pb.GetBytesOnDisk()
	if t == nil {
		return c
	}
	switch t.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		c.Int = decodeInt(pb.IntStatistics)
	case orc.Float, orc.Double:
		c.Double = decodeDouble(pb.DoubleStatistics)
	case orc.String, orc.Char, orc.Varchar:
		c.String = decodeString(pb.StringStatistics, info)
	case orc.Boolean:
		c.Bool = decodeBool(pb.BucketStatistics, c.NumValues)
	case orc.Decimal:
		c.Decimal = decodeDecimal(pb.DecimalStatistics, t, info)
	case orc.Date:
		c.Date = decodeDate(pb.DateStatistics)
	case orc.Timestamp, orc.TimestampInstant:
		c.Timestamp = decodeTimestamp(pb.TimestampStatistics, info)
	case orc.Binary:
		if b := pb.BinaryStatistics; b != nil {
			c.Binary = &BinaryStats{Sum: b.GetSum(), HasSum: b.Sum != nil}
		}
	case orc.List, orc.Map:
		c.Collection = decodeCollection(pb.CollectionStatistics)
	case orc.Geometry, orc.Geography:
		c.Geo = decodeGeo(pb.GeospatialStatistics)
	}
	return c
}

func decodeInt(p *orcpb.IntegerStatistics) *IntStats {
	if p == nil {
		return nil
	}
	s := &IntStats{Sum: p.GetSum(), HasSum: p.Sum != nil}
	if p.Minimum != nil && p.Maximum != nil {
		s.Min, s.Max, s.HasMinMax = p.GetMinimum(), p.GetMaximum(), true
		if s.Min > s.Max {
			return nil
		}
	}
	return s
}

func decodeDouble(p *orcpb.DoubleStatistics) *DoubleStats {
	if p == nil {
		return nil
	}
	s := &DoubleStats{Sum: p.GetSum(), HasSum: p.Sum != nil}
	if p.Minimum != nil && p.Maximum != nil && !math.IsNaN(s.Sum) {
		mn, mx := p.GetMinimum(), p.GetMaximum()
		if !math.IsNaN(mn) && !math.IsNaN(mx) {
			if mn > mx {
				return nil
			}
			s.Min, s.Max, s.HasMinMax = mn, mx, true
		}
	}
	return s
}

func decodeString(p *orcpb.StringStatistics, info WriterInfo) *StringStats {
	if p == nil {
		return nil
	}
	s := &StringStats{Sum: p.GetSum(), HasSum: p.Sum != nil}
	if !info.Includes(format.WriterHive8732) {
		return s
	}
	switch {
	case p.Minimum != nil:
		s.Min, s.HasMin = p.GetMinimum(), true
	case p.LowerBound != nil:
		s.Min, s.HasMin, s.MinIsLowerBound = p.GetLowerBound(), true, true
	}
	switch {
	case p.Maximum != nil:
		s.Max, s.HasMax = p.GetMaximum(), true
	case p.UpperBound != nil:
		s.Max, s.HasMax, s.MaxIsUpperBound = p.GetUpperBound(), true, true
	}
	if s.HasMin && s.HasMax && s.Min > s.Max {
		return nil
	}
	return s
}

func decodeBool(p *orcpb.BucketStatistics, numValues uint64) *BoolStats {
	if p == nil {
		return nil
	}
	if len(p.Count) == 0 {
		if numValues == 0 {
			return &BoolStats{}
		}
		return nil
	}
	if p.Count[0] > numValues {
		return nil
	}
	return &BoolStats{TrueCount: p.Count[0]}
}

func decodeDecimal(p *orcpb.DecimalStatistics, t *orc.Schema, info WriterInfo) *DecimalStats {
	if p == nil {
		return nil
	}
	s := &DecimalStats{}
	if p.Minimum != nil && p.Maximum != nil {
		mn, ok1 := parseStatDecimal(p.GetMinimum(), t.Scale)
		mx, ok2 := parseStatDecimal(p.GetMaximum(), t.Scale)
		if !ok1 || !ok2 || cmpDecimal(mn, mx) > 0 {
			return nil
		}
		s.Min, s.Max, s.HasMinMax = mn, mx, true
	}
	if p.Sum != nil {
		sum, ok := parseStatDecimal(p.GetSum(), t.Scale)
		if !ok {
			return nil
		}
		if fitsDecimal(sum.Unscaled) {
			s.Sum, s.HasSum = sum, true
		}
	}
	// ORC-517: Java ORC 1.5.0-1.5.5 (writer version 6) wrote wrong decimal64
	// statistics. Precision 0 is a Hive 0.11 unbounded decimal (38 digits).
	if info.IsJava() && info.Version() == format.WriterORC135 &&
		t.Precision >= 1 && t.Precision <= 18 {
		s.HasMinMax, s.HasSum = false, false
		s.Min, s.Max, s.Sum = DecimalValue{}, DecimalValue{}, DecimalValue{}
	}
	return s
}

func decodeDate(p *orcpb.DateStatistics) *DateStats {
	if p == nil {
		return nil
	}
	s := &DateStats{}
	if p.Minimum != nil && p.Maximum != nil {
		s.Min, s.Max, s.HasMinMax = p.GetMinimum(), p.GetMaximum(), true
		if s.Min > s.Max {
			return nil
		}
	}
	return s
}

const (
	nanosPerMilli   = 1_000_000
	maxSubMilliNano = nanosPerMilli - 1
)

// floorDivMod splits v into q*d + r with 0 <= r < d.
func floorDivMod(v, d int64) (q, r int64) {
	q, r = v/d, v%d
	if r < 0 {
		q--
		r += d
	}
	return q, r
}

// splitMillis turns epoch milliseconds plus sub-millisecond nanos into
// seconds and nanos 0..999,999,999.
func splitMillis(ms int64, subNanos int32) (int64, int32) {
	sec, msRem := floorDivMod(ms, 1000)
	return sec, int32(msRem)*nanosPerMilli + subNanos
}

func decodeTimestamp(p *orcpb.TimestampStatistics, info WriterInfo) *TimestampStats {
	if p == nil {
		return nil
	}
	s := &TimestampStats{}
	minNanos, maxNanos := int32(0), int32(maxSubMilliNano)
	if p.MinimumNanos != nil {
		minNanos = p.GetMinimumNanos() - 1
	}
	if p.MaximumNanos != nil {
		maxNanos = p.GetMaximumNanos() - 1
	}
	if minNanos < 0 || minNanos > maxSubMilliNano || maxNanos < 0 || maxNanos > maxSubMilliNano {
		return nil
	}
	if p.MinimumUtc == nil || p.MaximumUtc == nil || !info.Includes(format.WriterORC135) {
		return s
	}
	s.MinSec, s.MinNanos = splitMillis(p.GetMinimumUtc(), minNanos)
	s.MaxSec, s.MaxNanos = splitMillis(p.GetMaximumUtc(), maxNanos)
	if cmpTime(s.MinSec, s.MinNanos, s.MaxSec, s.MaxNanos) > 0 {
		return nil
	}
	s.HasMinMax = true
	return s
}

// cmpTime compares two (seconds, nanos) instants.
func cmpTime(s1 int64, n1 int32, s2 int64, n2 int32) int {
	switch {
	case s1 < s2:
		return -1
	case s1 > s2:
		return 1
	case n1 < n2:
		return -1
	case n1 > n2:
		return 1
	}
	return 0
}

func decodeCollection(p *orcpb.CollectionStatistics) *CollectionStats {
	if p == nil {
		return nil
	}
	s := &CollectionStats{TotalChildren: p.GetTotalChildren()}
	if p.MinChildren != nil && p.MaxChildren != nil {
		s.MinChildren, s.MaxChildren, s.HasMinMax = p.GetMinChildren(), p.GetMaxChildren(), true
		if s.MinChildren > s.MaxChildren {
			return nil
		}
	}
	return s
}
