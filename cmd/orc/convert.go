package main

// orc convert: CSV, JSON lines or ORC files in, one ORC file out.
//
// CSV follows Apache ORC's csv-import: no header line unless --header
// (whose names then map the columns to the fields), fields separated by
// --delimiter (comma), double quotes for quoting, an empty field (or the
// --null text) is null, and only a flat struct of primitive columns. JSON
// lines follow the conventions "orc cat" prints (reader.AppendJSONRow), so
// that cat's output converts back to the same values.
//
// The output is written to a temporary file next to OUT and renamed over it
// only when every row has been written and the file closed; on any error the
// temporary file is removed and OUT is left as it was.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --timezone works on systems without a zoneinfo database
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/ingest"
	"github.com/orcgo/orc/writer"
)

func init() {
	register(command{name: "convert",
		usage: "convert [--schema 'struct<...>'] [--format csv|json|orc] [--header] [--delimiter C] [--null S]\n" +
			"          [--timestamp-format LAYOUT] [--max-errors N] [--compression zstd] [--stripe-size 64MiB]\n" +
			"          [--stride 10000] [--bloom-columns a,b] [--fpp 0.01] [--timezone UTC] [--batch-size 1024]\n" +
			"          [--metadata key=value] [--overwrite] [-o OUT.orc] IN.csv|IN.jsonl|IN.orc... OUT.orc",
		desc: "write CSV, JSON lines or ORC files (IN may be -) as one ORC file",
		help: `Without --schema the schema is an ORC input's, or inferred from the first
--infer-rows rows of the first input and printed on stderr (summed up when
over 2,000 bytes: orc schema OUT.orc prints it whole) (CSV: boolean,
bigint, decimal(p,s), double, date, timestamp or string per column, named by
--header or _col0, _col1, ...; a first line of text above numbers is taken for
the header, --header=false says it is not; JSON: structs, arrays and those
kinds, numbers widened to double over the sample). A row past the sample
that does not fit is an error saying so: give --schema or more --infer-rows. Booleans read
true/false, 1/0 and yes/no; JSON maps are arrays of {"key": k, "value": v}
objects or objects {"k": v}. Several inputs are written in order into OUT.

Memory: convert holds itself to 64 MiB plus 8 times the inputs' size (when all
are regular files here: not standard input or a URL) by setting the Go runtime's memory
limit to that, less what the process takes outside the runtime; a lower
GOMEMLIMIT in the environment wins. An input whose rows need more than that
still converts, with the collector running more often.`,
		run: runConvert})
}

// convertOptions are the parsed flags of orc convert.
type convertOptions struct {
	schema *orc.Schema
	// in says how text reads as rows: --header, --delimiter, --null,
	// --timestamp-format, --truncate, --timezone, --fill-missing,
	// --infer-rows.
	in         ingest.Options
	batchSize  int
	overwrite  bool
	writerOpts []writer.Option
	metadata   [][2]string // --metadata key=value, in order
	maxErrors  int         // --max-errors
	// headerGuessed is whether inference took the first line for a
	// header, headerAlone whether that line was the input's only one.
	headerGuessed, headerAlone bool
	// inferredLines is how many lines the schema was inferred from (0:
	// it was given).
	inferredLines int
	bloomCols     []string
	// bloomChecked is set once the bloom columns are checked and their
	// option added.
	bloomChecked bool
}

// maxTextLine bounds one line of JSON input and one record of CSV input
// (a line, or the lines a quoted field joins): 256 MiB. A variable for
// tests.
var maxTextLine = 256 << 20

func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addNetFlags(fs)
	cf := addConvertFlags(fs)
	ins, out, err := parseOutArgs(fs, args)
	if err != nil {
		return err
	}
	var opt convertOptions
	if *cf.schema != "" {
		if opt.schema, err = orc.ParseSchema(*cf.schema); err != nil {
			return fmt.Errorf("%w: %v", errUsage, userSchemaError("--schema", *cf.schema, err))
		}
	}
	formats := make([]string, len(ins))
	for i, in := range ins {
		if formats[i], err = inputFormat(*cf.format, in); err != nil {
			return usageError("%v", err)
		}
		if in == "-" && i > 0 && slices.Contains(ins[:i], "-") {
			return usageError("standard input (-) is given twice")
		}
	}
	if err := cf.inputOptions(fs, &opt); err != nil {
		return err
	}
	if err := cf.writerOptions(&opt); err != nil {
		return err
	}
	if opt.schema != nil {
		if err := checkBloomColumns(&opt); err != nil {
			return err
		}
	}
	return convertFiles(ins, formats, out, &opt, stdout, stderr)
}

// usageError is a usage error with a message.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// convertFlags are orc convert's flags but the output's.
type convertFlags struct {
	schema, format, compression, stripeSize, bloomColumns, timezone *string
	delimiter, nullText, tsFormat                                   *string
	stride, maxErrors, inferRows, batchSize                         *int
	fpp                                                             *float64
	header, overwrite, truncate, fillMissing                        *bool
	metadata                                                        metadataFlag
}

// addConvertFlags defines orc convert's flags on fs.
func addConvertFlags(fs *flag.FlagSet) *convertFlags {
	cf := &convertFlags{}
	cf.schema = fs.String("schema", "", "ORC type of the rows, such as 'struct<a:int,b:string>'\n(default: an ORC input's schema, or inferred from the first rows and printed on stderr)")
	cf.format = fs.String("format", "", "input format: csv, json or orc (default: from each IN's extension)")
	cf.compression = fs.String("compression", "zstd", "codec: none, zlib, snappy, lz4 or zstd")
	cf.stripeSize = fs.String("stripe-size", "64MiB", "stripe size in bytes; K, M, G suffixes (KiB, MiB, GiB) are binary")
	cf.stride = fs.Int("stride", 10000, "rows per row group (0: no row index)")
	cf.bloomColumns = fs.String("bloom-columns", "", "comma-separated columns that get bloom filters")
	cf.fpp = fs.Float64("fpp", 0.01, "bloom filter false-positive rate")
	cf.timezone = fs.String("timezone", "UTC", "writer time zone (IANA name)")
	cf.header = fs.Bool("header", false, "CSV: the first line names the columns; they are matched to the schema's fields by name\n(a field it does not name is an error, null with --fill-missing; columns that are not fields are left out;\na header that names no field is skipped and the columns taken in schema order). Without it, a first line of text above numbers is taken\nfor a header when the schema is inferred; --header=false reads it as a row")
	cf.maxErrors = fs.Int("max-errors", 0, "skip up to N rows that do not convert, each reported on stderr with its line (0: stop at the first)")
	cf.inferRows = fs.Int("infer-rows", 1000, "without --schema: rows of the first input the schema is inferred from\n(0: the whole input, up to 64 MiB)")
	cf.delimiter = fs.String("delimiter", ",", "CSV: field separator, one character (\\t for tab)")
	cf.batchSize = fs.Int("batch-size", 1024, "rows per batch handed to the writer")
	cf.overwrite = fs.Bool("overwrite", false, "replace OUT if it exists (never an input)")
	cf.truncate = fs.Bool("truncate", false, "cut varchar(n) and char(n) values longer than n characters to n\n(default: such a value is a bad row, as a decimal that would need rounding is)")
	cf.fillMissing = fs.Bool("fill-missing", false, "write a schema field that no input column gives (not in a CSV header,\nnot a column of an ORC input) as nulls (default: an error naming it)")
	fs.Var(&cf.metadata, "metadata", "`key=value` to store in the file's user metadata (repeat for more)")
	cf.nullText = fs.String("null", "", "the text of a null, such as '\\N' or NULL (CSV fields, JSON strings);\nwith it an empty CSV field is an empty string in string columns (default: an empty field is null)")
	cf.tsFormat = fs.String("timestamp-format", "", "the form of timestamps: a Go time layout such as '01/02/2006 15:04:05'\n(default: YYYY-MM-DD HH:MM:SS[.fraction] or RFC 3339 such as 2024-03-10T01:30:00Z;\na text with a zone is an instant, in a timestamp column its wall clock in --timezone)")
	return cf
}

// inputOptions checks the flags that say how inputs are read and sets
// them in opt.
func (cf *convertFlags) inputOptions(fs *flag.FlagSet, opt *convertOptions) error {
	var err error
	if *cf.maxErrors < 0 {
		return usageError("--max-errors %d: must be 0 or more", *cf.maxErrors)
	}
	opt.maxErrors = *cf.maxErrors
	if *cf.inferRows < 0 || *cf.inferRows > 1<<20 {
		return usageError("--infer-rows %d: must be 0 (all) or 1..%d", *cf.inferRows, 1<<20)
	}
	opt.in.InferRows = *cf.inferRows
	if opt.in.Zone, err = time.LoadLocation(*cf.timezone); err != nil {
		return usageError("--timezone: %v", err)
	}
	if opt.in.Delimiter, err = parseDelimiter(*cf.delimiter); err != nil {
		return usageError("--delimiter: %v", err)
	}
	if *cf.batchSize < 1 || *cf.batchSize > 1<<20 {
		return usageError("--batch-size %d: must be 1..%d", *cf.batchSize, 1<<20)
	}
	opt.batchSize = *cf.batchSize
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "null":
			opt.in.NullSet, opt.in.Null = true, *cf.nullText
		case "header":
			opt.in.HeaderSet = true
		}
	})
	if *cf.tsFormat != "" {
		ref := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
		if got, err := time.Parse(*cf.tsFormat, ref.Format(*cf.tsFormat)); err != nil || got.Year() != 2006 {
			return usageError("--timestamp-format %q: not a Go time layout with a year (2006 or 06), such as '2006-01-02 15:04:05'", *cf.tsFormat)
		}
		opt.in.TimestampLayout = *cf.tsFormat
	}
	opt.in.Header = *cf.header
	opt.overwrite = *cf.overwrite
	opt.in.FillMissing = *cf.fillMissing
	opt.in.Truncate = *cf.truncate
	return nil
}

// writerOptions checks the flags that configure the writer and sets the
// writer options, metadata and bloom filter columns in opt (after
// inputOptions, which reads the zone).
func (cf *convertFlags) writerOptions(opt *convertOptions) error {
	codec, err := parseCompression(*cf.compression)
	if err != nil {
		return usageError("--compression: %v", err)
	}
	size, err := parseSize(*cf.stripeSize)
	if err != nil {
		return usageError("--stripe-size: %v", err)
	}
	for _, f := range []struct {
		name  string
		value any
		opt   writer.Option
	}{
		{"stripe-size", *cf.stripeSize, writer.WithStripeSize(size)},
		{"stride", *cf.stride, writer.WithRowIndexStride(*cf.stride)},
		{"fpp", *cf.fpp, writer.WithBloomFilterFPP(*cf.fpp)},
		{"timezone", *cf.timezone, writer.WithTimeZone(opt.in.Zone)},
	} {
		if err := checkWriterFlag(f.name, f.value, f.opt); err != nil {
			return err
		}
	}
	opt.writerOpts = []writer.Option{
		writer.WithCompression(codec),
		writer.WithStripeSize(size),
		writer.WithRowIndexStride(*cf.stride),
		writer.WithBloomFilterFPP(*cf.fpp),
		writer.WithTimeZone(opt.in.Zone),
	}
	opt.metadata = cf.metadata
	opt.bloomCols = splitList(*cf.bloomColumns)
	return nil
}

// checkBloomColumns checks --bloom-columns against the schema and adds
// the writer option (once).
func checkBloomColumns(opt *convertOptions) error {
	if len(opt.bloomCols) == 0 || opt.bloomChecked {
		return nil
	}
	for _, c := range opt.bloomCols {
		if opt.schema.Find(c) == nil {
			return fmt.Errorf("%w: --bloom-columns: no column %q in %s", errUsage, c, opt.schema)
		}
	}
	opt.writerOpts = append(opt.writerOpts, writer.WithBloomFilterColumns(opt.bloomCols...))
	opt.bloomChecked = true
	return nil
}

// inputFormat picks csv, json or orc from --format or from the file's
// extension (ingest.InputFormat).
func inputFormat(flagValue, path string) (string, error) { return ingest.InputFormat(flagValue, path) }

func parseCompression(s string) (orc.CompressionKind, error) {
	switch strings.ToLower(s) {
	case "none":
		return orc.CompressionNone, nil
	case "zlib":
		return orc.CompressionZlib, nil
	case "snappy":
		return orc.CompressionSnappy, nil
	case "lz4":
		return orc.CompressionLZ4, nil
	case "zstd":
		return orc.CompressionZstd, nil
	}
	return 0, fmt.Errorf("%q: want none, zlib, snappy, lz4 or zstd", s)
}

// parseSize reads a byte count with an optional binary suffix: "65536",
// "512K", "64MiB", "1gb". K, KB and KiB all mean 1024 (case-insensitive).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%q: want a number of bytes such as 64MiB", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: too large", s)
	}
	var mult int64
	switch strings.ToLower(strings.TrimSpace(t[i:])) {
	case "", "b":
		mult = 1
	case "k", "kb", "kib":
		mult = 1 << 10
	case "m", "mb", "mib":
		mult = 1 << 20
	case "g", "gb", "gib":
		mult = 1 << 30
	default:
		return 0, fmt.Errorf("%q: unknown unit %q (want K, M or G)", s, t[i:])
	}
	if n > (1<<63-1)/mult {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return n * mult, nil
}

// parseDelimiter accepts one character, or \t for a tab.
func parseDelimiter(s string) (rune, error) {
	if s == `\t` || strings.EqualFold(s, "tab") {
		return '\t', nil
	}
	if utf8.RuneCountInString(s) != 1 {
		return 0, fmt.Errorf("%q: want exactly one character", s)
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return 0, fmt.Errorf("%q cannot separate fields", s)
	}
	return r, nil
}

// checkFlatSchema refuses schemas that CSV cannot express.
func checkFlatSchema(s *orc.Schema) error {
	if s.Kind != orc.Struct {
		return fmt.Errorf("CSV input needs a struct of primitive columns, such as struct<a:int,b:string>; the schema is %s (use JSON lines for other shapes)", s)
	}
	for i, c := range s.Children {
		if !c.Kind.IsPrimitive() {
			return fmt.Errorf("CSV input supports only primitive columns: column %q is %s (use JSON lines for nested types)", s.FieldNames[i], c)
		}
	}
	return nil
}

// checkWriterFlag reports a writer option's refusal of a flag's value under
// the flag's name (the option's own message names the Go option).
func checkWriterFlag(name string, value any, opt writer.Option) error {
	_, err := writer.NewWriter(io.Discard, orc.MustParseSchema("struct<>"), opt)
	if err == nil {
		return nil
	}
	msg := err.Error()
	if i := strings.Index(msg, "): "); i >= 0 {
		msg = msg[i+3:]
	}
	return fmt.Errorf("%w: --%s %v: %s", errUsage, name, value, msg)
}

// metadataFlag collects --metadata key=value pairs.
type metadataFlag [][2]string

func (m *metadataFlag) String() string {
	var parts []string
	for _, kv := range *m {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	return strings.Join(parts, ",")
}

func (m *metadataFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return errors.New("want key=value")
	}
	for _, kv := range *m {
		if kv[0] == k {
			return fmt.Errorf("key %q given twice", k)
		}
	}
	*m = append(*m, [2]string{k, v})
	return nil
}
