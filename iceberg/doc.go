// Package iceberg makes ORC files written by orcgo data files of Apache
// Iceberg tables, and reads such files as the table sees them.
//
// The Iceberg spec's "ORC" section asks three things of a data file, and
// this package does each:
//
//   - every ORC type carries its Iceberg field id in the iceberg.id type
//     attribute, iceberg.required on fields, and iceberg.long-type,
//     iceberg.binary-type, iceberg.length and iceberg.timestamp-unit where
//     the ORC type alone does not tell the Iceberg type (ToORC, FromORC);
//   - readers resolve a table's columns in a file by field id, falling back
//     to the table's name mapping for files without ids (ReadSchema);
//   - the manifest entry of a file holds metrics (counts, sizes and bounds
//     in Iceberg's single-value binary form) under the table's metrics modes
//     (Writer, FileMetrics).
//
// Beyond the data files, TableWriter writes a table's rows (rolled by size,
// fanned out by partition), Commit appends files through an iceberg-go
// catalog, and Scan reads a table pruned by its manifests, then by orcgo
// inside each file, leaving out the rows its position and equality delete
// files delete (spec.md 10). SchemaFromText, ParsePartitionSpec and
// ParseMetricsModes read the text forms the orc-iceberg command
// (cmd/orc-iceberg, run by "orc iceberg") takes.
//
// A Writer is single-goroutine, as orcgo's writer is; the functions are
// safe for concurrent use.
package iceberg
