// Package orcarrow converts between ORC and Apache Arrow (arrow-go v18): a
// RecordReader that turns an orcgo scan (pruned, projected and exactly
// filtered as the scan options say) into Arrow record batches, and a Writer
// that writes Arrow record batches as an ORC file with the ORC writer's
// options.
//
//	r, err := reader.Open(f, size)
//	if err != nil {
//		return err
//	}
//	rr, err := orcarrow.FromReader(r, orcarrow.WithScanOptions(
//		reader.WithColumns("id", "price"),
//		reader.WithSearchArgument(sarg.MustParse("id < 100"))))
//	if err != nil {
//		return err
//	}
//	defer rr.Release()
//	for rr.Next() {
//		rec := rr.RecordBatch() // valid until the next Next unless retained
//	}
//	if err := rr.Err(); err != nil { // a scan that failed ends Next early
//		return err
//	}
//
//	w, err := orcarrow.NewWriter(out, schema, writer.WithCompression(orc.CompressionZstd))
//	if err != nil {
//		return err
//	}
//	if err := w.Write(rec); err != nil { // any number of records of that schema
//		return err
//	}
//	if err := w.Close(); err != nil { // writes the ORC tail; does not close out
//		return err
//	}
//
// The package lives in its own module (github.com/orcgo/orc/arrow), so the
// library's go.mod never depends on arrow-go. The commands orc2parquet and
// parquet2orc in this module convert files through Arrow with arrow-go's
// pqarrow.
//
// # Type mapping
//
//	ORC                              Arrow (read)                     Arrow accepted on write
//	boolean                          boolean                          boolean
//	tinyint                          int8                             int8
//	smallint                         int16                            int16, uint8
//	int                              int32                            int32, uint16
//	bigint                           int64                            int64, uint32
//	float                            float32                          float32
//	double                           float64                          float64
//	string                           string                           string, large_string
//	char(n), varchar(n)              string, field metadata           string, large_string with
//	                                 orc.type = "char(n)"...          orc.type metadata
//	binary                           binary                           binary, large_binary, fixed_size_binary
//	date                             date32                           date32, date64 (floored to days)
//	timestamp                        timestamp[ns]                    timestamp[s|ms|us|ns], no zone
//	timestamp with local time zone   timestamp[ns, tz=UTC]            timestamp[any unit] with a zone
//	decimal(p,s)                     decimal128(p,s)                  decimal128(p,s), 1 <= p <= 38
//	array<T>                         list<item: T>                    list, large_list
//	map<K,V>                         map<key: K, value: V>            map
//	struct<a:T,...>                  struct<a: T,...>                 struct
//	uniontype<T0,T1,...>             dense_union<0: T0, 1: T1,...>    dense_union, sparse_union
//	                                 type codes 0, 1, ...             (any type codes)
//
// Every Arrow field is nullable, and nulls are carried at every level.
// Strings written to char(n) and varchar(n) are padded and truncated as the
// ORC writer does for every value of those types. The
// ORC attributes of a type (such as Iceberg's field ids) travel as field
// metadata "orc.attribute.<key>". A file whose root is not a struct reads as
// records of one field, "value", marked with schema metadata orc.root; the
// Writer writes such a schema back with that type at the root. Extension
// types are written as their storage type.
//
// Arrow types with no ORC counterpart - uint64, float16, decimal256,
// dictionaries, views, fixed-size lists, durations, intervals, times of day,
// null - are refused by ORCSchema and NewWriter with an error wrapping
// ErrUnsupportedType that names the field ("a.b.item").
//
// What does not fit: Arrow timestamp[ns] holds the years 1677 to 2262, and an
// ORC timestamp outside them is an error naming the column and row (rather
// than a wrong value); Arrow strings must be UTF-8, and an ORC string,
// char or varchar value that is not (other writers store any bytes) is an
// error naming the column and row rather than an array that fails
// ValidateFull; Arrow map keys cannot be null, and a null ORC key is
// an error. Arrow unions have no validity of their own, so ORC's distinction
// between a null union and a union whose selected value is null is lost: on
// read a null union becomes a null in variant 0 (a null value keeps its tag),
// and on write a row whose selected value is null becomes a null union.
//
// # Memory
//
// ORC vectors keep nulls as []bool, integers of every width as int64,
// offsets as int and decimals as (hi, lo) pairs, so most Arrow buffers must
// be built; where the layouts agree the buffers are shared instead: bigint
// and double values and the bytes of string and binary columns, both ways.
// Nothing is allocated per value.
//
// Reading, every record gets a fresh ORC batch to decode into and aliases
// it, so a record never changes after it is returned, even while the scan
// goes on: Retain one to keep it past the next Next, and it stays valid
// after the reader is released. The other buffers come from the allocator
// (WithAllocator) and return to it when the record is released.
// WithReuse(true) trades the sharing for one reused batch: every buffer is
// then copied from the allocator, and the scan allocates about a third less.
// Writing, the
// ORC writer copies what it keeps, so a record may be released as soon as
// Write returns.
//
// # Concurrency
//
// A RecordReader and a Writer each belong to one goroutine; the scan and the
// writer may use more inside (reader.WithParallelism, writer.WithParallelism).
// Records are immutable and may be shared between goroutines.
package orcarrow
