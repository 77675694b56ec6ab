// Package orc holds what the writer and reader of orcgo share: the type tree
// of a file (Schema, parsed from Hive's type strings such as
// "struct<id:bigint,tags:array<string>>"), rows in columnar form (Batch and
// its typed vectors), decimals (Int128), compression kinds and the errors
// every package wraps (ErrCorrupt, ErrLimit, ErrUnsupported,
// ErrInvalidBatch).
//
// How the pieces fit: build a Schema, make a Batch for it with NewBatch,
// fill its vectors and set NumRows, and hand it to writer.Writer.Write; the
// reader (reader.Open, then Reader.NewBatchReader) fills the same kind of
// Batch from a file, reusing its vectors from batch to batch. For rows as Go
// structs, writer.RowWriter and reader.RowReader map struct fields to
// columns; package dataset reads many files as one table.
//
// # Vectors
//
// Each ORC type has one vector type: LongVector for boolean (0 or 1),
// tinyint to bigint and date (days since 1970-01-01); DoubleVector for float
// and double; DecimalVector (unscaled Int128 values at the column's scale);
// TimestampVector (seconds and nanoseconds); BytesVector for string, char,
// varchar and binary; StructVector, ListVector, MapVector and UnionVector
// for the nested types. The conventions, shared by reader and writer:
//
//   - Every vector has one entry per row of its parent. Nulls is either empty
//     (no row is null) or has exactly one entry per row, true meaning null.
//     The value slot of a null row exists (Values has an entry for it) and
//     holds an unspecified value: a placeholder, zero when appended with
//     AppendNull.
//   - Struct fields and union variants are parallel to their parent: field i
//     of a struct of n rows has n entries, null where the struct is null.
//   - List and map children hold the elements of all rows back to back; row i
//     owns child entries Offsets[i] to Offsets[i+1]. A null or empty row owns
//     none.
//   - Bytes vectors keep all values in one buffer: row i is
//     Data[Offsets[i]:Offsets[i+1]].
//
// The Append and AppendNull methods keep these invariants; for lists and
// maps, append a row's elements to the children and then call AppendRow.
// Vectors are reused across batches: Reset keeps the capacity, so a reader
// filling the same Batch again allocates nothing in the steady state.
package orc
