// Package stats holds ORC column statistics: the decoded, typed view that
// pruning reads (Column), conversion from and to the protobuf messages stored
// in files, and the accumulators the writer feeds value by value.
//
// Statistics exist at three levels: per row group (in the row index), per
// stripe (in the metadata section) and per file (in the footer). A stripe's
// statistics are the merge of its row groups', the file's the merge of its
// stripes'.
package stats

import "github.com/orcgo/orc"

// Column is the statistics of one column at one level. The typed part that
// matches Kind is nil when the file did not record it or when it cannot be
// trusted; pruning must then treat the bounds as unknown.
type Column struct {
	Kind         orc.Kind // kind of the column
	NumValues    uint64   // non-null values at this level (rows under a null parent do not count)
	HasNull      bool     // some value at this level is null
	HasNullKnown bool     // false when the file did not record has_null (old writers)
	BytesOnDisk  uint64   // stream bytes of the column; stripe and file level only, 0 if unknown

	Int        *IntStats        // byte, short, int, long
	Double     *DoubleStats     // float, double
	String     *StringStats     // string, char, varchar
	Bool       *BoolStats       // boolean
	Decimal    *DecimalStats    // decimal
	Date       *DateStats       // date
	Timestamp  *TimestampStats  // timestamp, timestamp with local time zone
	Binary     *BinaryStats     // binary
	Collection *CollectionStats // list, map
	Geo        *GeoStats        // geometry, geography
}

// IntStats is the range and sum of integer values.
type IntStats struct {
	Min, Max  int64
	HasMinMax bool // false when no value was seen or the file left them out
	Sum       int64
	HasSum    bool // false when the sum overflowed or was not recorded
}

// DoubleStats is the range and sum of float and double values. Min and Max
// never hold NaN; when a NaN was seen HasMinMax is false and Sum is NaN.
type DoubleStats struct {
	Min, Max  float64
	HasMinMax bool
	Sum       float64
	HasSum    bool
}

// StringStats is the range and total length of text values in UTF-8 byte
// order. When a bound came from a value longer than 1,024 bytes it is
// truncated: MinIsLowerBound means every value is strictly greater than Min
// (Min is a prefix lower bound); MaxIsUpperBound means every value is
// strictly less than Max.
type StringStats struct {
	Min, Max        string
	HasMin, HasMax  bool
	MinIsLowerBound bool
	MaxIsUpperBound bool
	Sum             int64 // total bytes
	HasSum          bool
}

// BoolStats counts true values; false values are NumValues - TrueCount.
type BoolStats struct {
	TrueCount uint64
}

// DecimalValue is a decimal number: Unscaled / 10^Scale.
type DecimalValue struct {
	Unscaled orc.Int128
	Scale    int
}

// DecimalStats is the range and sum of decimal values, compared as numbers.
type DecimalStats struct {
	Min, Max  DecimalValue
	HasMinMax bool
	Sum       DecimalValue
	HasSum    bool // false when the sum exceeded 38 digits or was not recorded
}

// DateStats is the range of dates in days since 1970-01-01.
type DateStats struct {
	Min, Max  int32
	HasMinMax bool
}

// TimestampStats is the range of timestamps as seconds since 1970-01-01 and
// nanoseconds 0..999,999,999, in the same domain as orc.TimestampVector: the
// wall clock read as UTC for TIMESTAMP, the instant for TIMESTAMP_INSTANT.
// When a file recorded only milliseconds, Max is widened to the end of its
// millisecond.
type TimestampStats struct {
	MinSec    int64
	MinNanos  int32
	MaxSec    int64
	MaxNanos  int32
	HasMinMax bool
}

// BinaryStats holds the total number of bytes.
type BinaryStats struct {
	Sum    int64
	HasSum bool
}

// CollectionStats describes the number of children of list and map values.
type CollectionStats struct {
	MinChildren, MaxChildren, TotalChildren uint64
	HasMinMax                               bool
}
