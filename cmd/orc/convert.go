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
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --timezone works on systems without a zoneinfo database
	"unicode"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/civil"
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
--infer-rows rows of the first input and printed on stderr (CSV: boolean,
bigint, decimal(p,s), double, date, timestamp or string per column, named by
--header or _col0, _col1, ...; a first line of text above numbers is taken for
the header, --header=false says it is not; JSON: structs, arrays and those
kinds, numbers widened to double over the sample). A row past the sample
that does not fit is an error saying so: give --schema or more --infer-rows. Booleans read
true/false, 1/0 and yes/no; JSON maps are arrays of {"key": k, "value": v}
objects or objects {"k": v}. Several inputs are written in order into OUT.`,
		run: runConvert})
}

// convertOptions are the parsed flags of orc convert.
type convertOptions struct {
	schema     *orc.Schema
	header     bool
	delimiter  rune
	batchSize  int
	zone       *time.Location
	text       textOptions
	overwrite  bool
	writerOpts []writer.Option
	metadata   [][2]string // --metadata key=value, in order
	maxErrors  int         // --max-errors
	inferRows  int         // --infer-rows
	// headerSet is whether --header was given (true or false), and
	// headerGuessed whether inference took the first line for a header.
	headerSet, headerGuessed bool
	// inferredLines is how many lines the schema was inferred from (0:
	// it was given).
	inferredLines int
	bloomCols     []string
	// bloomChecked is set once the bloom columns are checked and their
	// option added.
	bloomChecked bool
	// fillMissing writes a field no input column gives as nulls
	// (--fill-missing) rather than failing.
	fillMissing bool
	// headerAlone: the header guessed is the input's only line.
	headerAlone bool
}

// maxTextLine bounds one line of JSON input and one record of CSV input
// (a line, or the lines a quoted field joins): 256 MiB. A variable for
// tests.
var maxTextLine = 256 << 20

func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addNetFlags(fs)
	schemaText := fs.String("schema", "", "ORC type of the rows, such as 'struct<a:int,b:string>'\n(default: an ORC input's schema, or inferred from the first rows and printed on stderr)")
	formatName := fs.String("format", "", "input format: csv, json or orc (default: from each IN's extension)")
	compression := fs.String("compression", "zstd", "codec: none, zlib, snappy, lz4 or zstd")
	stripeSize := fs.String("stripe-size", "64MiB", "stripe size in bytes; K, M, G suffixes (KiB, MiB, GiB) are binary")
	stride := fs.Int("stride", 10000, "rows per row group (0: no row index)")
	bloomColumns := fs.String("bloom-columns", "", "comma-separated columns that get bloom filters")
	fpp := fs.Float64("fpp", 0.01, "bloom filter false-positive rate")
	timezone := fs.String("timezone", "UTC", "writer time zone (IANA name)")
	header := fs.Bool("header", false, "CSV: the first line names the columns; they are matched to the schema's fields by name\n(a field it does not name is an error, null with --fill-missing; columns that are not fields are left out;\na header that names no field is skipped and the columns taken in schema order). Without it, a first line of text above numbers is taken\nfor a header when the schema is inferred; --header=false reads it as a row")
	maxErrors := fs.Int("max-errors", 0, "skip up to N rows that do not convert, each reported on stderr with its line (0: stop at the first)")
	inferRows := fs.Int("infer-rows", 1000, "without --schema: rows of the first input the schema is inferred from\n(0: the whole input, up to 64 MiB)")
	delimiter := fs.String("delimiter", ",", "CSV: field separator, one character (\\t for tab)")
	batchSize := fs.Int("batch-size", 1024, "rows per batch handed to the writer")
	overwrite := fs.Bool("overwrite", false, "replace OUT if it exists (never an input)")
	truncate := fs.Bool("truncate", false, "cut varchar(n) and char(n) values longer than n characters to n\n(default: such a value is a bad row, as a decimal that would need rounding is)")
	fillMissing := fs.Bool("fill-missing", false, "write a schema field that no input column gives (not in a CSV header,\nnot a column of an ORC input) as nulls (default: an error naming it)")
	o := outFlag(fs)
	var metadata metadataFlag
	fs.Var(&metadata, "metadata", "`key=value` to store in the file's user metadata (repeat for more)")
	nullText := fs.String("null", "", "the text of a null, such as '\\N' or NULL (CSV fields, JSON strings);\nwith it an empty CSV field is an empty string in string columns (default: an empty field is null)")
	tsFormat := fs.String("timestamp-format", "", "the form of timestamps: a Go time layout such as '01/02/2006 15:04:05'\n(default: YYYY-MM-DD HH:MM:SS[.fraction] or RFC 3339 such as 2024-03-10T01:30:00Z;\na text with a zone is an instant, in a timestamp column its wall clock in --timezone)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	ins, out, err := outArgs(pos, *o)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
	}
	var opt convertOptions
	if *schemaText != "" {
		if opt.schema, err = orc.ParseSchema(*schemaText); err != nil {
			return fmt.Errorf("%w: %v", errUsage, userSchemaError("--schema", *schemaText, err))
		}
	}
	formats := make([]string, len(ins))
	for i, in := range ins {
		if formats[i], err = inputFormat(*formatName, in); err != nil {
			return bad("%v", err)
		}
		if in == "-" && i > 0 && slices.Contains(ins[:i], "-") {
			return bad("standard input (-) is given twice")
		}
	}
	if *maxErrors < 0 {
		return bad("--max-errors %d: must be 0 or more", *maxErrors)
	}
	opt.maxErrors = *maxErrors
	if *inferRows < 0 || *inferRows > 1<<20 {
		return bad("--infer-rows %d: must be 0 (all) or 1..%d", *inferRows, 1<<20)
	}
	opt.inferRows = *inferRows
	codec, err := parseCompression(*compression)
	if err != nil {
		return bad("--compression: %v", err)
	}
	size, err := parseSize(*stripeSize)
	if err != nil {
		return bad("--stripe-size: %v", err)
	}
	if opt.zone, err = time.LoadLocation(*timezone); err != nil {
		return bad("--timezone: %v", err)
	}
	if opt.delimiter, err = parseDelimiter(*delimiter); err != nil {
		return bad("--delimiter: %v", err)
	}
	if *batchSize < 1 || *batchSize > 1<<20 {
		return bad("--batch-size %d: must be 1..%d", *batchSize, 1<<20)
	}
	opt.batchSize = *batchSize
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "null" {
			opt.text.nullSet, opt.text.null = true, *nullText
		}
	})
	if *tsFormat != "" {
		ref := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
		if got, err := time.Parse(*tsFormat, ref.Format(*tsFormat)); err != nil || got.Year() != 2006 {
			return bad("--timestamp-format %q: not a Go time layout with a year (2006 or 06), such as '2006-01-02 15:04:05'", *tsFormat)
		}
		opt.text.tsLayout = *tsFormat
	}
	opt.header = *header
	fs.Visit(func(f *flag.Flag) { opt.headerSet = opt.headerSet || f.Name == "header" })
	opt.overwrite = *overwrite
	opt.fillMissing = *fillMissing
	opt.text.truncate = *truncate
	for _, f := range []struct {
		name  string
		value any
		opt   writer.Option
	}{
		{"stripe-size", *stripeSize, writer.WithStripeSize(size)},
		{"stride", *stride, writer.WithRowIndexStride(*stride)},
		{"fpp", *fpp, writer.WithBloomFilterFPP(*fpp)},
		{"timezone", *timezone, writer.WithTimeZone(opt.zone)},
	} {
		if err := checkWriterFlag(f.name, f.value, f.opt); err != nil {
			return err
		}
	}
	opt.writerOpts = []writer.Option{
		writer.WithCompression(codec),
		writer.WithStripeSize(size),
		writer.WithRowIndexStride(*stride),
		writer.WithBloomFilterFPP(*fpp),
		writer.WithTimeZone(opt.zone),
	}
	opt.metadata = metadata
	opt.bloomCols = splitList(*bloomColumns)
	if opt.schema != nil {
		if err := checkBloomColumns(&opt); err != nil {
			return err
		}
	}
	return convertFiles(ins, formats, out, &opt, stdout, stderr)
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

// inputFormat picks csv or json from --format or from the file's extension.
func inputFormat(flagValue, path string) (string, error) {
	switch strings.ToLower(flagValue) {
	case "csv":
		return "csv", nil
	case "json", "jsonl", "ndjson":
		return "json", nil
	case "orc":
		return "orc", nil
	case "":
	default:
		return "", fmt.Errorf("--format %q: want csv, json or orc", flagValue)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv", nil
	case ".json", ".jsonl", ".ndjson":
		return "json", nil
	case ".orc":
		return "orc", nil
	}
	return "", fmt.Errorf("cannot tell the format of %q from its extension (.csv, .json, .jsonl, .ndjson, .orc): use --format", path)
}

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

// rowBuilder appends rows to a batch: one builder per top-level column of a
// struct root, or one for a root of any other type.
type rowBuilder struct {
	schema *orc.Schema
	cols   []*builder
}

func newRowBuilder(b *orc.Batch, zone *time.Location) *rowBuilder {
	rb := &rowBuilder{schema: b.Schema}
	if b.Schema.Kind == orc.Struct {
		for i, c := range b.Schema.Children {
			rb.cols = append(rb.cols, newBuilder(c, b.Cols[i], zone))
		}
	} else {
		rb.cols = []*builder{newBuilder(b.Schema, b.Cols[0], zone)}
	}
	return rb
}

// builder appends values of one type-tree node to its vector, keeping the
// vector conventions of package orc: a null mask that is empty or has one
// entry per row, struct fields and union variants parallel to their parent,
// list and map children back to back behind offsets.
type builder struct {
	t     *orc.Schema
	vec   orc.Vector
	kids  []*builder
	zone  *time.Location // TIMESTAMP: refuse wall clocks the zone skips; instants: the text's zone
	limit orc.Int128     // decimals: 10^precision, the first value too large
	text  *textOptions   // --null and --timestamp-format; nil for the defaults
}

// textOptions are the flags that change how text reads as values.
type textOptions struct {
	null     string // --null: the text of a null
	nullSet  bool
	tsLayout string // --timestamp-format: a Go layout, "" for the default forms
	// truncate cuts varchar(n) and char(n) values to n characters
	// (--truncate) rather than refusing them.
	truncate bool
}

// checkLength refuses a varchar(n) or char(n) value longer than n
// characters, unless --truncate asks for it to be cut.
func (b *builder) checkLength(s string) error {
	if (b.t.Kind != orc.Varchar && b.t.Kind != orc.Char) || b.t.MaxLength <= 0 || (b.text != nil && b.text.truncate) {
		return nil
	}
	if n := utf8.RuneCountInString(s); n > b.t.MaxLength {
		return fmt.Errorf("%q has %d characters, more than %s holds (--truncate cuts such values)", clip(s), n, b.t)
	}
	return nil
}

// setText gives every builder under b the text options.
func (b *builder) setText(o *textOptions) {
	b.text = o
	for _, k := range b.kids {
		k.setText(o)
	}
}

// isNullText reports whether s is the --null text.
func (b *builder) isNullText(s string) bool {
	return b.text != nil && b.text.nullSet && s == b.text.null
}

// isStringKind reports whether empty text is a value of kind k (with
// --null set, an empty CSV field is then the empty string).
func isStringKind(k orc.Kind) bool {
	return k == orc.String || k == orc.Varchar || k == orc.Char || k == orc.Binary
}

func newBuilder(t *orc.Schema, v orc.Vector, zone *time.Location) *builder {
	b := &builder{t: t, vec: v, zone: zone}
	switch vec := v.(type) {
	case *orc.StructVector:
		for i, c := range t.Children {
			b.kids = append(b.kids, newBuilder(c, vec.Fields[i], zone))
		}
	case *orc.ListVector:
		b.kids = []*builder{newBuilder(t.Children[0], vec.Elem, zone)}
	case *orc.MapVector:
		b.kids = []*builder{newBuilder(t.Children[0], vec.Keys, zone), newBuilder(t.Children[1], vec.Values, zone)}
	case *orc.UnionVector:
		for i, c := range t.Children {
			b.kids = append(b.kids, newBuilder(c, vec.Children[i], zone))
		}
	}
	if t.Kind == orc.Decimal {
		p := t.Precision
		if p <= 0 || p > 38 {
			p = 38
		}
		b.limit = orc.Pow10(p)
	}
	return b
}

// setNull marks a new row null in a mask that covers rows rows so far.
func setNull(n *orc.Nulls, rows int) {
	for len(n.Nulls) < rows {
		n.Nulls = append(n.Nulls, false)
	}
	n.Nulls = append(n.Nulls, true)
}

// setValid marks a new row non-null.
func setValid(n *orc.Nulls) {
	if len(n.Nulls) > 0 {
		n.Nulls = append(n.Nulls, false)
	}
}

func startOffsets(offs []int64) []int64 {
	if len(offs) == 0 {
		return append(offs, 0)
	}
	return offs
}

func (b *builder) appendNull() {
	switch v := b.vec.(type) {
	case *orc.LongVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, 0)
	case *orc.DoubleVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, 0)
	case *orc.BytesVector:
		v.AppendNull()
	case *orc.DecimalVector:
		setNull(&v.Nulls, len(v.Values))
		v.Values = append(v.Values, orc.Int128{})
	case *orc.TimestampVector:
		setNull(&v.Nulls, len(v.Seconds))
		v.Seconds = append(v.Seconds, 0)
		v.Nanos = append(v.Nanos, 0)
	case *orc.StructVector:
		setNull(&v.Nulls, v.N)
		for _, k := range b.kids {
			k.appendNull()
		}
		v.N++
	case *orc.ListVector:
		setNull(&v.Nulls, v.Len())
		v.Offsets = startOffsets(v.Offsets)
		v.Offsets = append(v.Offsets, v.Offsets[len(v.Offsets)-1])
	case *orc.MapVector:
		setNull(&v.Nulls, v.Len())
		v.Offsets = startOffsets(v.Offsets)
		v.Offsets = append(v.Offsets, v.Offsets[len(v.Offsets)-1])
	case *orc.UnionVector:
		setNull(&v.Nulls, len(v.Tags))
		v.Tags = append(v.Tags, 0)
		for _, k := range b.kids {
			k.appendNull()
		}
	}
}

func (b *builder) addLong(x int64) {
	v := b.vec.(*orc.LongVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addDouble(x float64) {
	v := b.vec.(*orc.DoubleVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addDecimal(x orc.Int128) {
	v := b.vec.(*orc.DecimalVector)
	setValid(&v.Nulls)
	v.Values = append(v.Values, x)
}

func (b *builder) addTimestamp(sec int64, nanos int32) {
	v := b.vec.(*orc.TimestampVector)
	setValid(&v.Nulls)
	v.Seconds = append(v.Seconds, sec)
	v.Nanos = append(v.Nanos, nanos)
}

// appendText parses s as a value of the builder's primitive type, in the
// text forms of CSV (which JSON shares for dates and timestamps).
func (b *builder) appendText(s string) error {
	switch b.t.Kind {
	case orc.Boolean:
		x, err := parseBool(s)
		if err != nil {
			return err
		}
		if x {
			b.addLong(1)
		} else {
			b.addLong(0)
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		x, err := parseInt(s, b.t.Kind)
		if err != nil {
			return err
		}
		b.addLong(x)
	case orc.Float, orc.Double:
		x, err := parseFloat(s, b.t.Kind)
		if err != nil {
			return err
		}
		b.addDouble(x)
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		if b.t.Kind != orc.Binary && !utf8.ValidString(s) {
			return invalidUTF8(s)
		}
		if err := b.checkLength(s); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(s)
	case orc.Geometry, orc.Geography:
		wkb, err := parseGeometryText(s)
		if err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).Append(wkb)
	case orc.Decimal:
		x, err := parseDecimal(s, b.t, b.limit)
		if err != nil {
			return err
		}
		b.addDecimal(x)
	case orc.Date:
		days, err := parseDate(s)
		if err != nil {
			return err
		}
		b.addLong(days)
	case orc.Timestamp, orc.TimestampInstant:
		layout := ""
		if b.text != nil {
			layout = b.text.tsLayout
		}
		sec, nanos, err := parseTimestampText(s, layout, b.t.Kind == orc.TimestampInstant, b.zone)
		if err != nil {
			return err
		}
		b.addTimestamp(sec, nanos)
	default:
		return fmt.Errorf("a %s cannot be read from text", b.t)
	}
	return nil
}

// clip shortens a value quoted in an error: a field of 10,000 digits is
// named by its start and its length.
func clip(s string) string {
	const keep = 40
	if len(s) <= keep+20 {
		return s
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// errInvalidUTF8 is a text that is not UTF-8 where a string must be.
var errInvalidUTF8 = errors.New("not valid UTF-8")

// invalidUTF8 is the error of a text that is not UTF-8, naming the first
// bad byte (from 1).
func invalidUTF8(s string) error {
	at := 0
	for at < len(s) {
		r, n := utf8.DecodeRuneInString(s[at:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		at += n
	}
	return fmt.Errorf("%w (byte %d, 0x%02x; a string must be UTF-8: use a binary column for other bytes)", errInvalidUTF8, at+1, s[at])
}

var intBits = map[orc.Kind]int{orc.Byte: 8, orc.Short: 16, orc.Int: 32, orc.Long: 64}

// parseInt reads a decimal integer in the range of its column's width.
func parseInt(s string, k orc.Kind) (int64, error) {
	x, err := strconv.ParseInt(s, 10, intBits[k])
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q out of range for %s", clip(s), k)
		}
		return 0, fmt.Errorf("bad %s %q: not an integer", k, clip(s))
	}
	return x, nil
}

// parseFloat reads a float rounded to its column's width; NaN and Infinity
// are accepted, finite values beyond the width's range are not.
func parseFloat(s string, k orc.Kind) (float64, error) {
	bits := 64
	if k == orc.Float {
		bits = 32
	}
	x, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q out of range for %s", clip(s), k)
		}
		return 0, fmt.Errorf("bad %s %q: not a number", k, clip(s))
	}
	return x, nil
}

// parseDecimal reads a decimal exactly and brings it to the column's scale.
// It refuses values whose digits beyond the scale are not zeros (they would
// need rounding) and values of more digits than the precision.
func parseDecimal(s string, t *orc.Schema, limit orc.Int128) (orc.Int128, error) {
	v, scale, err := orc.ParseDecimal(trimDecimal(s))
	if err != nil {
		if _, ferr := strconv.ParseFloat(s, 64); strings.ContainsAny(s, "0123456789") && (ferr == nil || errors.Is(ferr, strconv.ErrRange)) {
			return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
		}
		return orc.Int128{}, fmt.Errorf("bad decimal %q", clip(s))
	}
	r, exact, ok := orc.Rescale(v, scale, t.Scale)
	if !ok {
		return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
	}
	if !exact {
		return orc.Int128{}, fmt.Errorf("decimal %q has more than %d digits after the point (%s would need rounding)", clip(s), t.Scale, t)
	}
	abs := r
	if abs.Sign() < 0 {
		abs = abs.Neg()
	}
	if abs.Cmp(limit) >= 0 {
		return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
	}
	return r, nil
}

// trimDecimal drops the digits of a plain decimal text (no exponent) that
// do not change its value, leading zeros of the integer part and trailing
// zeros of the fraction, so that "99999999999999999999999999999999999999.0"
// (39 digits, more than 128 bits unscaled) parses as the 38-digit value it
// is.
func trimDecimal(s string) string {
	if strings.ContainsAny(s, "eE") {
		return s
	}
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if t := strings.TrimLeft(s, "0"); t != s {
		if t == "" || t[0] == '.' {
			t = "0" + t
		}
		s = t
	}
	return sign + s
}

// parseBool reads true/false, 1/0 and yes/no (any case).
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("bad boolean %q: want true or false, 1 or 0, yes or no", clip(s))
}

// digits reads a non-empty run of ASCII digits (at most 9).
func digits(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseYMD reads "YYYY-MM-DD".
func parseYMD(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || int64(d) > civil.DaysInMonth(int64(y), int64(m)) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// parseDate reads "YYYY-MM-DD" as days since 1970-01-01.
func parseDate(s string) (int64, error) {
	y, m, d, ok := parseYMD(s)
	if !ok {
		return 0, fmt.Errorf("bad date %q: want YYYY-MM-DD", clip(s))
	}
	return civil.Days(int64(y), int64(m), int64(d)), nil
}

// parseTimestamp reads "YYYY-MM-DD HH:MM:SS[.fraction]" (or with a T
// between date and time), the fraction one to nine digits, kept exactly. For
// TIMESTAMP it returns the wall clock read as UTC, refusing wall clocks that
// the writer zone skips (they would read back shifted); for TIMESTAMP WITH
// LOCAL TIME ZONE it returns the instant that wall clock names in zone.
func parseTimestamp(s string, instant bool, zone *time.Location) (int64, int32, error) {
	bad := func() (int64, int32, error) {
		return 0, 0, fmt.Errorf("bad timestamp %q: want YYYY-MM-DD HH:MM:SS[.fraction]", clip(s))
	}
	if len(s) < 19 || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return bad()
	}
	y, mo, d, ok := parseYMD(s[:10])
	if !ok {
		return bad()
	}
	h, ok1 := digits(s[11:13])
	mi, ok2 := digits(s[14:16])
	sec, ok3 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 59 {
		return bad()
	}
	var nanos int
	if len(s) > 19 {
		frac := s[20:]
		if s[19] != '.' || len(frac) == 0 || len(frac) > 9 {
			return bad()
		}
		n, ok := digits(frac)
		if !ok {
			return bad()
		}
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		nanos = n
	}
	if instant || zone != time.UTC {
		t := time.Date(y, time.Month(mo), d, h, mi, sec, nanos, zone)
		if instant {
			return t.Unix(), int32(nanos), nil
		}
		if t.Year() != y || int(t.Month()) != mo || t.Day() != d || t.Hour() != h || t.Minute() != mi {
			return 0, 0, fmt.Errorf("timestamp %q does not exist in time zone %s (a daylight saving gap)", clip(s), zone)
		}
	}
	return civil.Days(int64(y), int64(mo), int64(d))*86400 + int64(h*3600+mi*60+sec), int32(nanos), nil
}

// parseTimestampText reads a timestamp in the form layout gives (a Go
// time layout), or for "" in the default form of parseTimestamp or as RFC
// 3339 ("2024-03-10T01:30:00Z", "2024-03-10T01:30:00.5+05:30"). A text
// with a zone or offset names an instant: a TIMESTAMP column gets its wall
// clock in zone (the writer's, --timezone), as Apache's readers show it.
func parseTimestampText(s, layout string, instant bool, zone *time.Location) (int64, int32, error) {
	if layout == "" {
		sec, nanos, err := parseTimestamp(s, instant, zone)
		if err == nil {
			return sec, nanos, nil
		}
		t, err2 := time.Parse(time.RFC3339Nano, s)
		if err2 != nil {
			if !strings.HasPrefix(err.Error(), "bad timestamp") {
				return 0, 0, err // a well-formed wall clock the zone skips
			}
			return 0, 0, fmt.Errorf("bad timestamp %q: want YYYY-MM-DD HH:MM:SS[.fraction] or RFC 3339 (2024-03-10T01:30:00Z)", clip(s))
		}
		return instantOrWall(t, instant, zone)
	}
	zoned := strings.Contains(layout, "MST") || strings.Contains(layout, "Z07") || strings.Contains(layout, "-07")
	if !zoned {
		if instant {
			t, err := time.ParseInLocation(layout, s, zone)
			if err != nil {
				return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
			}
			return t.Unix(), int32(t.Nanosecond()), nil
		}
		// A wall clock: read in UTC, kept as it is written.
		t, err := time.ParseInLocation(layout, s, time.UTC)
		if err != nil {
			return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
		}
		if zone != time.UTC {
			// Refuse wall clocks the writer zone skips, as the default form does.
			return parseTimestamp(t.Format("2006-01-02 15:04:05.999999999"), false, zone)
		}
		return t.Unix(), int32(t.Nanosecond()), nil
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
	}
	return instantOrWall(t, instant, zone)
}

// instantOrWall returns an instant as itself, or as its wall clock in zone
// (read as UTC) for a TIMESTAMP column.
func instantOrWall(t time.Time, instant bool, zone *time.Location) (int64, int32, error) {
	if instant {
		return t.Unix(), int32(t.Nanosecond()), nil
	}
	w := t.In(zone)
	return civil.Days(int64(w.Year()), int64(w.Month()), int64(w.Day()))*86400 + int64(w.Hour()*3600+w.Minute()*60+w.Second()),
		int32(w.Nanosecond()), nil
}

// csvSource reads rows of a flat struct from CSV.
type csvSource struct {
	cr       *csv.Reader
	br       *boundedReader
	nextLine int // the line the next record starts at, or after (blank lines)
	rb       *rowBuilder
	header   bool
	stderr   io.Writer // for notes, or nil
	name     string    // the input, in notes
	// order maps the CSV columns to the struct's fields when a header
	// named them (nil: in schema order); named marks the fields it names.
	order []int
	named []bool
	// fillMissing: fields the header does not name are null
	// (--fill-missing) rather than an error.
	fillMissing bool
}

func newCSVSource(r io.Reader, rb *rowBuilder, opt *convertOptions) *csvSource {
	br := &boundedReader{r: r}
	cr := csv.NewReader(br)
	cr.Comma = opt.delimiter
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	s := &csvSource{cr: cr, br: br, rb: rb, header: opt.header, fillMissing: opt.fillMissing, nextLine: 1}
	s.bound()
	return s
}

// errRecordTooLong stops a CSV record longer than maxTextLine.
var errRecordTooLong = errors.New("CSV record too long")

// boundedReader fails a Read past limit, so that encoding/csv, which
// gathers a whole record in memory, cannot be made to gather gigabytes.
type boundedReader struct {
	r        io.Reader
	n, limit int64 // bytes read; the offset reading stops at
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.n >= b.limit {
		return 0, errRecordTooLong
	}
	if int64(len(p)) > b.limit-b.n {
		p = p[:b.limit-b.n]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// bound lets the next record be maxTextLine bytes long (and the CSV
// reader's buffer, 4 KiB, be filled past it).
func (s *csvSource) bound() {
	s.br.limit = s.cr.InputOffset() + int64(maxTextLine) + 64<<10
}

// useHeader maps the columns the header names to the struct's fields
// (exactly, else ignoring case). A header naming no field at all is not
// a header of this schema's names and is only skipped; in one naming some
// fields, each once, the columns it names that are not fields are left
// out (and named on stderr).
func (s *csvSource) useHeader(rec []string, line int) error {
	fields := s.rb.schema.FieldNames
	order := make([]int, len(rec))
	named := make([]bool, len(fields))
	matched := 0
	// Two maps, so that matching is linear in the names: exact names, and
	// names under case folding (the last field of a folded name wins, as
	// when they were compared one by one).
	exact := make(map[string]int, len(fields))
	folded := make(map[string]int, len(fields))
	for j, f := range fields {
		exact[f] = j
		folded[foldKey(f)] = j
	}
	for i, h := range rec {
		h = strings.TrimSpace(h)
		order[i] = -1
		if j, ok := exact[h]; ok {
			order[i] = j
		} else if j, ok := folded[foldKey(h)]; ok {
			order[i] = j
		}
		if order[i] >= 0 {
			if named[order[i]] {
				return fmt.Errorf("line %d: the header names field %q twice (--header)", line, fields[order[i]])
			}
			named[order[i]] = true
			matched++
		}
	}
	if matched == 0 {
		return nil
	}
	if !s.fillMissing {
		for j, ok := range named {
			if !ok {
				return fmt.Errorf("line %d: the header names no column for the field %q of %s (its columns: %s); --fill-missing writes such fields as nulls",
					line, fields[j], s.rb.schema, strings.Join(rec, ", "))
			}
		}
	}
	var left []string
	for i, j := range order {
		if j < 0 {
			left = append(left, strconv.Quote(strings.TrimSpace(rec[i])))
		}
	}
	if len(left) > 0 && s.stderr != nil {
		fmt.Fprintf(s.stderr, "orc convert: %s: line %d: left out %s the schema does not name: %s\n", s.name, line, plural(int64(len(left)), "column"), strings.Join(left, ", "))
	}
	s.order, s.named = order, named
	return nil
}

// next appends one row; false at the end of the input. Errors of one
// row are *rowError.
func (s *csvSource) next() (bool, error) {
	for {
		rec, err := s.cr.Read()
		if err == io.EOF {
			return false, nil
		}
		if errors.Is(err, errRecordTooLong) {
			return false, fmt.Errorf("line %d: a CSV record (from this line on) longer than %s (an unclosed quote?)", s.nextLine, formatBytes(int64(maxTextLine)))
		}
		if err == nil && len(rec) > 0 {
			last, _ := s.cr.FieldPos(len(rec) - 1)
			s.nextLine = last + strings.Count(rec[len(rec)-1], "\n") + 1
			s.bound()
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount) {
			return false, &rowError{err}
		}
		if err != nil {
			return false, err
		}
		line, _ := s.cr.FieldPos(0)
		if s.header {
			s.header = false
			if err := s.useHeader(rec, line); err != nil {
				return false, err
			}
			continue
		}
		cols := s.rb.cols
		want, of := len(cols), "the schema has %d columns"
		if s.order != nil {
			want, of = len(s.order), "the header has %d"
		}
		if len(rec) != want {
			return false, &rowError{fmt.Errorf("line %d: %d fields, but "+of, line, len(rec), want)}
		}
		rows := s.rb.rows()
		for i, f := range rec {
			ci := i
			if s.order != nil {
				if ci = s.order[i]; ci < 0 {
					continue // a column the schema does not name
				}
			}
			c := cols[ci]
			if c.isNullText(f) || (f == "" && (c.text == nil || !c.text.nullSet || !isStringKind(c.t.Kind))) {
				c.appendNull()
				continue
			}
			if err := c.appendText(f); err != nil {
				s.rb.truncate(rows)
				line, _ := s.cr.FieldPos(i)
				return false, &rowError{fmt.Errorf("line %d, column %d (%s %s): %w", line, i+1, s.rb.schema.FieldNames[ci], c.t, err)}
			}
		}
		for j, named := range s.named {
			if !named {
				cols[j].appendNull()
			}
		}
		return true, nil
	}
}

// jsonSource reads one JSON value per line; blank lines are skipped.
type jsonSource struct {
	br   *bufio.Reader
	rb   *rowBuilder
	line int
	buf  []byte
}

func newJSONSource(r *bufio.Reader, rb *rowBuilder) *jsonSource {
	return &jsonSource{br: r, rb: rb}
}

func (s *jsonSource) readLine() ([]byte, error) {
	s.buf = s.buf[:0]
	for {
		frag, err := s.br.ReadSlice('\n')
		s.buf = append(s.buf, frag...)
		if len(s.buf) > maxTextLine {
			return nil, fmt.Errorf("line %d: longer than %s", s.line+1, formatBytes(int64(maxTextLine)))
		}
		if err != bufio.ErrBufferFull {
			return s.buf, err
		}
	}
}

// next appends one row; false at the end of the input.
func (s *jsonSource) next() (bool, error) {
	for {
		line, err := s.readLine()
		if err != nil && err != io.EOF {
			return false, err
		}
		if len(line) == 0 && err == io.EOF {
			return false, nil
		}
		s.line++
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			if err == io.EOF {
				return false, nil
			}
			continue
		}
		if !utf8.Valid(text) {
			// encoding/json would turn the bad bytes into U+FFFD, changing
			// the data without a word.
			return false, &rowError{fmt.Errorf("line %d: %w", s.line, invalidUTF8(string(text)))}
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return false, &rowError{fmt.Errorf("line %d, byte %d: bad JSON: %v", s.line, se.Offset, err)}
			}
			return false, &rowError{fmt.Errorf("line %d: bad JSON: %v", s.line, err)}
		}
		if end := dec.InputOffset(); len(bytes.TrimSpace(text[end:])) > 0 {
			at := int64(len(text)-len(bytes.TrimLeft(text[end:], " \t\r"))) + 1
			return false, &rowError{fmt.Errorf("line %d, byte %d: more than one JSON value", s.line, at)}
		}
		if err := s.rb.appendJSON(v); err != nil {
			var pe *pathError
			if errors.As(err, &pe) && pe.path != "" {
				return false, &rowError{fmt.Errorf("line %d, column %q: %w", s.line, pe.path, pe.err)}
			}
			return false, &rowError{fmt.Errorf("line %d: %w", s.line, err)}
		}
		return true, nil
	}
}

// pathError is a bad JSON value and where it sits in the row: "a.b[2].key".
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string {
	if e.path == "" {
		return e.err.Error()
	}
	return fmt.Sprintf("%s: %v", e.path, e.err)
}

func (e *pathError) Unwrap() error { return e.err }

// atPath prefixes the location of err with seg, a field name or "[i]".
func atPath(seg string, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		switch {
		case pe.path == "":
			pe.path = seg
		case strings.HasPrefix(pe.path, "["):
			pe.path = seg + pe.path
		default:
			pe.path = seg + "." + pe.path
		}
		return pe
	}
	return &pathError{path: seg, err: err}
}

// appendJSON appends one row: an object for a struct root, else any value.
func (rb *rowBuilder) appendJSON(v any) error {
	rows := rb.rows()
	var err error
	switch {
	case rb.schema.Kind != orc.Struct:
		err = rb.cols[0].appendJSON(v)
	case v == nil:
		err = errors.New("the row is null; a struct row must be an object")
	default:
		err = appendFields(rb.schema, rb.cols, v)
	}
	if err != nil {
		rb.truncate(rows) // no half-appended row stays in the batch
	}
	return err
}

// rows returns the rows the builder's vectors hold.
func (rb *rowBuilder) rows() int {
	if len(rb.cols) == 0 {
		return 0
	}
	return rb.cols[0].vec.Len()
}

// truncate cuts every column back to n rows.
func (rb *rowBuilder) truncate(n int) {
	for _, c := range rb.cols {
		orc.Truncate(c.vec, n)
	}
}

// appendFields appends an object's fields to the builders of a struct's
// fields: a missing field is null, an unknown one an error.
func appendFields(t *orc.Schema, kids []*builder, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("want an object for %s, have %s", t, jsonKind(v))
	}
	// Every key is a field when as many fields as keys are present: a
	// count, linear in the fields, with the unknown keys looked for only
	// when it falls short.
	present := 0
	for _, name := range t.FieldNames {
		if _, ok := m[name]; ok {
			present++
		}
	}
	if present < len(m) {
		known := make(map[string]bool, len(t.FieldNames))
		for _, name := range t.FieldNames {
			known[name] = true
		}
		var unknown []string
		for k := range m {
			if !known[k] {
				unknown = append(unknown, k)
			}
		}
		slices.Sort(unknown)
		return fmt.Errorf("unknown field %q (the struct has %s)", unknown[0], listSome(t.FieldNames, 20))
	}
	for i, name := range t.FieldNames {
		if err := kids[i].appendJSON(m[name]); err != nil {
			return atPath(name, err)
		}
	}
	return nil
}

// listSome joins the first max names, and says how many more there are.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// foldKey is a string's key under simple case folding: each rune replaced
// by the least rune of its folding orbit, so that two strings have one key
// exactly when strings.EqualFold says they are equal.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// The least rune of an ASCII letter's orbit is its upper case
		// (K's orbit holds k and the Kelvin sign too).
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// numberText returns the text of a JSON number, or of a string standing for
// one.
func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return string(x), true
	case string:
		return x, true
	}
	return "", false
}

// appendJSON appends one value in the conventions of "orc cat".
func (b *builder) appendJSON(v any) error {
	if s, ok := v.(string); v == nil || ok && b.isNullText(s) {
		b.appendNull()
		return nil
	}
	want := func(what string) error {
		return fmt.Errorf("want %s for %s, have %s", what, b.t, jsonKind(v))
	}
	switch b.t.Kind {
	case orc.Boolean:
		switch x := v.(type) {
		case bool:
			if x {
				b.addLong(1)
			} else {
				b.addLong(0)
			}
		case json.Number, string:
			// 1/0 and "yes"/"no" as CSV reads them.
			if err := b.appendText(fmt.Sprint(x)); err != nil {
				return err
			}
		default:
			return want("true or false")
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal:
		s, ok := numberText(v)
		if !ok {
			return want("a number")
		}
		return b.appendText(s)
	case orc.String, orc.Varchar, orc.Char:
		s, ok := v.(string)
		if !ok {
			return want("a string")
		}
		if err := b.checkLength(s); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(s)
	case orc.Binary:
		return b.appendBinary(v)
	case orc.Date, orc.Timestamp, orc.TimestampInstant, orc.Geometry, orc.Geography:
		s, ok := v.(string)
		if !ok {
			return want("a string")
		}
		return b.appendText(s)
	case orc.Struct:
		vec := b.vec.(*orc.StructVector)
		if err := appendFields(b.t, b.kids, v); err != nil {
			return err
		}
		setValid(&vec.Nulls)
		vec.N++
	case orc.List:
		arr, ok := v.([]any)
		if !ok {
			return want("an array")
		}
		vec := b.vec.(*orc.ListVector)
		vec.Offsets = startOffsets(vec.Offsets)
		for i, e := range arr {
			if err := b.kids[0].appendJSON(e); err != nil {
				return atPath("["+strconv.Itoa(i)+"]", err)
			}
		}
		setValid(&vec.Nulls)
		vec.Offsets = append(vec.Offsets, int64(vec.Elem.Len()))
	case orc.Map:
		vec := b.vec.(*orc.MapVector)
		switch x := v.(type) {
		case []any:
			vec.Offsets = startOffsets(vec.Offsets)
			for i, e := range x {
				if err := b.appendEntry(e); err != nil {
					return atPath("["+strconv.Itoa(i)+"]", err)
				}
			}
		case map[string]any:
			// {"k": v, ...}: keys are text (parsed for other key types),
			// taken in key order (an ORC map has no order of its own).
			if !b.kids[0].t.Kind.IsPrimitive() {
				return fmt.Errorf("a JSON object cannot hold the keys of %s: use the array of {\"key\": ..., \"value\": ...} form", b.t)
			}
			vec.Offsets = startOffsets(vec.Offsets)
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if err := b.kids[0].appendMapKey(k); err != nil {
					return atPath(k, err)
				}
				if err := b.kids[1].appendJSON(x[k]); err != nil {
					return atPath(k, err)
				}
			}
		default:
			return want(`an object or an array of {"key": ..., "value": ...} objects`)
		}
		setValid(&vec.Nulls)
		vec.Offsets = append(vec.Offsets, int64(vec.Keys.Len()))
	case orc.Union:
		return b.appendUnion(v)
	default:
		return fmt.Errorf("cannot read %s from JSON", b.t)
	}
	return nil
}

// appendBinary takes an array of byte values, as orc cat prints binary, or
// a string's bytes.
func (b *builder) appendBinary(v any) error {
	vec := b.vec.(*orc.BytesVector)
	switch x := v.(type) {
	case string:
		vec.AppendString(x)
		return nil
	case []any:
		if len(vec.Offsets) == 0 {
			vec.Offsets = append(vec.Offsets, 0)
		}
		for i, e := range x {
			n, ok := e.(json.Number)
			c, err := strconv.ParseUint(string(n), 10, 8)
			if !ok || err != nil {
				vec.Data = vec.Data[:vec.Offsets[len(vec.Offsets)-1]]
				return atPath("["+strconv.Itoa(i)+"]", fmt.Errorf("want a byte value 0..255, have %s", jsonText(e)))
			}
			vec.Data = append(vec.Data, byte(c))
		}
		setValid(&vec.Nulls)
		vec.Offsets = append(vec.Offsets, len(vec.Data))
		return nil
	}
	return fmt.Errorf("want an array of byte values for binary, have %s", jsonKind(v))
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return jsonKind(v)
	}
	return string(b)
}

// appendMapKey appends a JSON object's key as a map key of the builder's
// primitive type.
func (b *builder) appendMapKey(k string) error {
	switch b.t.Kind {
	case orc.String, orc.Varchar, orc.Char:
		if err := b.checkLength(k); err != nil {
			return err
		}
		b.vec.(*orc.BytesVector).AppendString(k)
		return nil
	case orc.Binary:
		return b.appendBinary(k)
	}
	return b.appendText(k)
}

// appendEntry appends one {"key": k, "value": v} map entry.
func (b *builder) appendEntry(e any) error {
	m, ok := e.(map[string]any)
	if !ok {
		return fmt.Errorf(`want a {"key": ..., "value": ...} object, have %s`, jsonKind(e))
	}
	for k := range m {
		if k != "key" && k != "value" {
			return fmt.Errorf(`unknown field %q in a map entry (want "key" and "value")`, k)
		}
	}
	if err := b.kids[0].appendJSON(m["key"]); err != nil {
		return atPath("key", err)
	}
	if err := b.kids[1].appendJSON(m["value"]); err != nil {
		return atPath("value", err)
	}
	return nil
}

// appendUnion appends a {"tag": n, "value": v} object; the other variants
// get a null slot so that all stay parallel to the union.
func (b *builder) appendUnion(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf(`want a {"tag": n, "value": ...} object for %s, have %s`, b.t, jsonKind(v))
	}
	for k := range m {
		if k != "tag" && k != "value" {
			return fmt.Errorf(`unknown field %q in a union (want "tag" and "value")`, k)
		}
	}
	n, ok := m["tag"].(json.Number)
	tag, err := strconv.ParseUint(string(n), 10, 8)
	if !ok || err != nil || int(tag) >= len(b.kids) {
		return fmt.Errorf("want a tag 0..%d for %s, have %s", len(b.kids)-1, b.t, jsonText(m["tag"]))
	}
	if err := b.kids[tag].appendJSON(m["value"]); err != nil {
		return atPath("value", err)
	}
	for i, k := range b.kids {
		if i != int(tag) {
			k.appendNull()
		}
	}
	vec := b.vec.(*orc.UnionVector)
	setValid(&vec.Nulls)
	vec.Tags = append(vec.Tags, uint8(tag))
	return nil
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
