// Package ingest reads CSV and JSON Lines text into batches for the writer:
// it infers a schema from the first rows (Infer, a step of its own), reads
// each row into a batch's vectors (Reader), and reports a row that does
// not read as the schema as a *RowError naming its line and column, so
// that a caller may skip bad rows up to a budget (ErrorBudget) and go on.
// orc convert is a thin shell over it.
//
// # Text forms
//
// CSV follows Apache ORC's csv-import: no header line unless
// Options.Header (whose names then map the columns to the fields, exactly
// or ignoring case), fields separated by Options.Delimiter (comma), double
// quotes for quoting, an empty field (or the Options.Null text) is null,
// and only a flat struct of primitive columns. JSON lines hold one value a
// line, in the conventions orc cat prints (reader.AppendJSONRow): objects
// for structs and maps, arrays for lists, {"tag": n, "value": v} for
// unions, strings for dates, timestamps, decimals given as text and binary
// (base64), well-known text or hex WKB for geometry. Dates are
// YYYY-MM-DD of the proleptic Gregorian calendar; timestamps
// "YYYY-MM-DD hh:mm:ss[.fffffffff]" (a T for the space too), in
// Options.Zone unless they name an offset, or Options.TimestampLayout.
//
// # Messages
//
// Errors name the line (from 1), the column and the value, clipped. They
// name the orc convert flag of the option that changes the outcome, as
// the CLI's users see them: --header (Options.Header), --fill-missing
// (Options.FillMissing), --truncate (Options.Truncate), --schema (give
// the schema instead of inferring it), --max-errors (ErrorBudget).
//
// # Limits
//
// One CSV record or JSON line is at most Options.MaxLine bytes
// (DefaultMaxLine, 256 MiB); inference reads at
// most 64 MiB of the input. A Reader is not safe for concurrent use.
package ingest
