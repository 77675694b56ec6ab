package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/stats"
)

func init() {
	register(command{name: "meta", usage: "meta FILE|DIR|URL... [--json] [--no-stripes] [--rowindex COLS]", run: runMeta,
		desc: "print the schema, stripes, streams, encodings and statistics",
		help: `--json prints one JSON object with camelCase keys and enums by name (for
several files or a directory, a JSON array of them, one per file read)
(compression "ZSTD", calendar "PROLEPTIC_GREGORIAN", stream kind "ROW_INDEX",
encoding "DIRECT_V2", writerVersion "ORC_135"); keys are only ever added.
--rowindex a,b.c (names as the Columns list prints them, or ids) adds, per
stripe, each row group's index entry: statistics, stream positions and a
bloom filter summary (hash functions, bits set of bits).`})
}

// The JSON of "orc meta --json" is one object; its keys are camelCase
// throughout and every enum is printed by its name. The keys, in order
// (optional ones, left out when absent, marked ?):
//
//	file, size, rows, version ("0.12"), writerVersion (ORIGINAL, HIVE_8732,
//	HIVE_4243, HIVE_12055, HIVE_13083, ORC_101, ORC_135, ORC_517, ORC_203,
//	ORC_14, FUTURE(n)), writer ("ORC Java", ...), softwareVersion?,
//	compression (NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD, BROTLI),
//	compressionBlockSize, rowIndexStride, calendar (UNKNOWN_CALENDAR,
//	JULIAN_GREGORIAN, PROLEPTIC_GREGORIAN), schema,
//	columns: [{id, name, kind (boolean, int, struct, ... as in the type
//	  syntax), type (one level deep: compound children as struct<...>,
//	  array<...>, map<...>, uniontype<...>; the whole type is schema),
//	  encrypted?, statistics?}],
//	stripes?: [{index, offset, indexLength, dataLength, footerLength, rows,
//	  writerTimezone?, streams: [{column, kind (PRESENT, DATA, LENGTH,
//	  ROW_INDEX, BLOOM_FILTER_UTF8, ...), offset, length}],
//	  encodings: [{column, kind (DIRECT, DICTIONARY, DIRECT_V2,
//	  DICTIONARY_V2), dictionarySize?, bloomEncoding?}],
//	  statistics?: [{column, ...statistics}],
//	  rowIndex? (with --rowindex): [{column, name, note? ("no row index",
//	    "encrypted column"), entries: [{group, firstRow, rows, statistics?,
//	    positions: [numbers], bloomFilter?: {hashFunctions, bits, bitsSet,
//	    falsePositive (bitsSet/bits to the power hashFunctions), note?,
//	    stream (BLOOM_FILTER_UTF8, BLOOM_FILTER), layout? ("legacy",
//	    "early" for BLOOM_FILTER), expectedEntries?, fpp? (early)}}]}]}],
//	userMetadata?: [{key, value}].
//
// Statistics objects hold count, then where known hasNull, min or
// lowerBound (a truncated string minimum), max or upperBound, sum,
// totalLength (strings, binary), trueCount (booleans), minChildren,
// maxChildren, totalChildren (lists, maps), boundingBox ({xmin, xmax, ymin,
// ymax, zmin?, zmax?, mmin?, mmax?}) and geometryTypes (["POINT",
// "LINESTRING Z", ...]) for geometry, bytesOnDisk. Integers are JSON
// numbers; decimals are JSON numbers in their exact text; dates
// ("2024-03-10") and timestamps ("2024-03-10 01:30:00.5") are strings;
// non-finite doubles are the strings "NaN", "+Inf" and "-Inf". The empty
// file (0 bytes) gives {file, size: 0, rows: 0, empty: true}.
//
// Keys are only ever added, never renamed or removed
// (TestMetaJSONKeys).

type metaColumn struct {
	ID         int        `json:"id"`
	Name       string     `json:"name"`
	Kind       string     `json:"kind"`
	Type       string     `json:"type"`
	Encrypted  bool       `json:"encrypted,omitempty"`
	Statistics *metaStats `json:"statistics,omitempty"`
}

// metaStats is one column's statistics, in the key order of the JSON.
type metaStats struct {
	Column        *int   `json:"column,omitempty"` // in stripe statistics
	Count         uint64 `json:"count"`
	HasNull       *bool  `json:"hasNull,omitempty"`
	Min           any    `json:"min,omitempty"`
	LowerBound    any    `json:"lowerBound,omitempty"`
	Max           any    `json:"max,omitempty"`
	UpperBound    any    `json:"upperBound,omitempty"`
	Sum           any    `json:"sum,omitempty"`
	TotalLength   any    `json:"totalLength,omitempty"`
	TrueCount     any    `json:"trueCount,omitempty"`
	MinChildren   any    `json:"minChildren,omitempty"`
	MaxChildren   any    `json:"maxChildren,omitempty"`
	TotalChildren any    `json:"totalChildren,omitempty"`
	BoundingBox   any    `json:"boundingBox,omitempty"`
	GeometryTypes any    `json:"geometryTypes,omitempty"`
	BytesOnDisk   any    `json:"bytesOnDisk,omitempty"`
}

type metaStream struct {
	Column int    `json:"column"`
	Kind   string `json:"kind"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

type metaEncoding struct {
	Column         int    `json:"column"`
	Kind           string `json:"kind"`
	DictionarySize int    `json:"dictionarySize,omitempty"`
	BloomEncoding  int    `json:"bloomEncoding,omitempty"`
}

// metaStripe is one stripe's entry. Its streams, encodings and statistics
// (100,000 each in a file of 100,000 columns) are written out one at a
// time from footer and stats, never held as a list.
type metaStripe struct {
	Index          int            `json:"index"`
	Offset         int64          `json:"offset"`
	IndexLength    int64          `json:"indexLength"`
	DataLength     int64          `json:"dataLength"`
	FooterLength   int64          `json:"footerLength"`
	Rows           int64          `json:"rows"`
	WriterTimezone string         `json:"writerTimezone,omitempty"`
	RowIndex       []metaRowIndex `json:"rowIndex,omitempty"` // after streams, encodings and statistics

	footer *reader.StripeFooter
	// stats yields each column's stripe statistics; nil when the file has
	// none.
	stats func(yield func(id int, st *metaStats) error) error
}

type metaItem struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// metaFile is the head of the output. Its columns (one per column id) are
// written out one at a time, never held as a list.
type metaFile struct {
	File            string     `json:"file"`
	Size            int64      `json:"size"`
	Rows            int64      `json:"rows"`
	Version         string     `json:"version"`
	WriterVersion   string     `json:"writerVersion"`
	Writer          string     `json:"writer"`
	SoftwareVersion string     `json:"softwareVersion,omitempty"`
	Compression     string     `json:"compression"`
	BlockSize       int        `json:"compressionBlockSize"`
	RowIndexStride  int        `json:"rowIndexStride"`
	Calendar        string     `json:"calendar"`
	Schema          string     `json:"schema,omitempty"` // written apart (writeMetaJSON)
	UserMetadata    []metaItem `json:"-"`                // after the columns and stripes
}

func calendarName(c int) string {
	return orcpb.CalendarKind(c).String()
}

func runMeta(args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("meta", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addNetFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	noStripes := fs.Bool("no-stripes", false, "leave out per-stripe details")
	rowIndexCols := fs.String("rowindex", "", "print the row index of these columns (names as meta prints them, or ids, comma-separated):\nper stripe and row group the statistics, stream positions and bloom filter summary")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return errUsage
	}
	if *noStripes && *rowIndexCols != "" {
		return fmt.Errorf("%w: --rowindex prints per stripe: leave out --no-stripes", errUsage)
	}
	if len(pos) > 1 || isTable(pos[0]) {
		if *asJSON {
			return metaJSONArray(fs, pos, stdout, stderr)
		}
		return forEachFile(fs, pos, "meta", false, stdout, stderr, runMeta)
	}
	defer func() { err = fileFailure(pos[0], err) }()
	r, ra, closeFn, err := openORCAt(pos[0])
	if err != nil {
		return err
	}
	defer closeFn()
	if r.Size() == 0 {
		// Hive's empty file: no tail, so no version, writer or schema.
		if *asJSON {
			name, _ := json.Marshal(pos[0])
			_, err := fmt.Fprintf(stdout, "{\n  \"file\": %s,\n  \"size\": 0,\n  \"rows\": 0,\n  \"empty\": true\n}\n", name)
			return err
		}
		_, err := fmt.Fprintf(stdout, "File: %s: empty file (0 bytes), no rows\n", pos[0])
		return err
	}
	m := metaHead(r, pos[0])
	var ir *indexReader
	var indexCols []int
	if *rowIndexCols != "" && r.Size() > 0 {
		if indexCols, err = resolveColumns(*rowIndexCols, r.Schema()); err != nil {
			return err
		}
		if ir, err = newIndexReader(r, ra); err != nil {
			return err
		}
	}
	// Columns and stripes are produced one at a time and written out as
	// they come: a file of many columns or many stripes is not held in
	// memory as one document.
	columns := metaColumns(r)
	stripes := metaStripes(r, ir, indexCols)
	if *noStripes {
		stripes = func(func(*metaStripe) error) error { return nil }
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	if *asJSON {
		if err := writeMetaJSON(bw, &m, columns, stripes); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := printMeta(bw, &m, columns, stripes); err != nil {
		return err
	}
	return bw.Flush()
}

// metaHead returns the file-level facts of meta's output.
func metaHead(r *reader.Reader, name string) metaFile {
	m := metaFile{File: name, Size: r.Size(), Rows: r.NumRows(), Version: r.Version().String(),
		WriterVersion: r.WriterVersion().String(), Writer: r.Writer().String(),
		SoftwareVersion: r.SoftwareVersion(), Compression: r.Compression().String(),
		BlockSize: r.CompressionBlockSize(), RowIndexStride: r.RowIndexStride(), Calendar: calendarName(int(r.Calendar())),
		Schema: r.Schema().String()}
	for _, it := range r.UserMetadata() {
		v := string(it.Value)
		if !utf8.Valid(it.Value) {
			v = fmt.Sprintf("%x", it.Value)
		}
		m.UserMetadata = append(m.UserMetadata, metaItem{Key: it.Key, Value: v})
	}
	return m
}

// metaColumns yields the file's columns one at a time, in id order.
func metaColumns(r *reader.Reader) func(yield func(mc *metaColumn) error) error {
	return func(yield func(mc *metaColumn) error) error {
		return eachColumn(r.Schema(), func(node *orc.Schema, name string) error {
			mc := metaColumn{ID: node.ID(), Name: name, Kind: node.Kind.String(), Type: node.StringDepth(1), Encrypted: r.IsEncrypted(node.ID())}
			if st, ok := r.Statistics(node.ID()); ok {
				mc.Statistics = statsJSON(st)
			}
			return yield(&mc)
		})
	}
}

// metaStripes yields the file's stripes one at a time, each with the row
// index of indexCols when ir is not nil.
func metaStripes(r *reader.Reader, ir *indexReader, indexCols []int) func(yield func(ms *metaStripe) error) error {
	ncols := r.Schema().MaxID() + 1
	return func(yield func(ms *metaStripe) error) error {
		for i := range r.Stripes() {
			d, err := r.ReadStripeFooter(i)
			if err != nil {
				return err
			}
			ms := metaStripe{Index: d.Index, Offset: d.Offset, IndexLength: d.IndexLength, DataLength: d.DataLength,
				FooterLength: d.FooterLength, Rows: d.NumRows, WriterTimezone: d.WriterTimezone, footer: d}
			if r.HasStripeStatistics() {
				ms.stats = func(yield func(id int, st *metaStats) error) error {
					for id := range ncols {
						st, _ := r.StripeStatistics(i, id)
						js := statsJSON(st)
						js.Column = &id
						if err := yield(id, js); err != nil {
							return err
						}
					}
					return nil
				}
			}
			if ir != nil {
				if ms.RowIndex, err = ir.rowIndex(i, d, indexCols); err != nil {
					return err
				}
			}
			if err := yield(&ms); err != nil {
				return err
			}
		}
		return nil
	}
}

// metaJSONArray prints the JSON of several files (or a directory's) as one
// JSON array, each file's object an element, so that the output parses as
// one document; a file that fails adds no element (its error goes to
// stderr, and the command fails).
func metaJSONArray(fs *flag.FlagSet, pos []string, stdout, stderr io.Writer) error {
	ds := &docSep{w: stdout}
	if _, err := io.WriteString(stdout, "[\n"); err != nil {
		return err
	}
	err := forEachFile(fs, pos, "meta", false, io.Discard, stderr, func(args []string, _, stderr io.Writer) error {
		if ds.n > 0 {
			ds.pending = ",\n"
		}
		defer func() { ds.pending = "" }()
		return runMeta(args, ds, stderr)
	})
	if _, werr := io.WriteString(stdout, "]\n"); err == nil {
		err = werr
	}
	return err
}

// docSep writes to w, writing pending first when the first bytes come: a
// separator before a document that may turn out empty.
type docSep struct {
	w       io.Writer
	pending string
	n       int64 // bytes written
}

func (d *docSep) Write(p []byte) (int, error) {
	if len(p) > 0 && d.pending != "" {
		if _, err := io.WriteString(d.w, d.pending); err != nil {
			return 0, err
		}
		d.pending = ""
	}
	n, err := d.w.Write(p)
	d.n += int64(n)
	return n, err
}

// jsonOut writes one indented JSON document piecewise, as one
// json.Encoder with SetIndent("", "  ") writes the whole: values are
// marshalled one at a time at their depth's prefix, and arrays written
// element by element.
type jsonOut struct {
	w   io.Writer
	err error
	buf bytes.Buffer  // one value's JSON, reused
	enc *json.Encoder // into buf
}

// marshal returns v's JSON at indent prefix, valid until the next call.
func (j *jsonOut) marshal(v any, prefix string) ([]byte, error) {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
	}
	j.buf.Reset()
	j.enc.SetIndent(prefix, "  ")
	if err := j.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")), nil
}

func (j *jsonOut) raw(s string) {
	if j.err == nil {
		_, j.err = io.WriteString(j.w, s)
	}
}

// stringValue writes s as a JSON string, as the encoder writes it, a
// piece of at most 32 KiB at a time (escaping is per character, so the
// pieces, cut between characters, escape as the whole does).
func (j *jsonOut) stringValue(s string) {
	j.raw(`"`)
	for len(s) > 0 && j.err == nil {
		n := min(len(s), 32<<10)
		for k := n; k > 0 && k < len(s); k-- {
			if utf8.RuneStart(s[k]) {
				n = k // else only continuation bytes: invalid, escaped byte by byte
				break
			}
		}
		b, err := j.marshal(s[:n], "")
		if err != nil {
			j.err = err
			return
		}
		_, j.err = j.w.Write(b[1 : len(b)-1])
		s = s[n:]
	}
	j.raw(`"`)
}

// value writes v as it appears at indent prefix.
func (j *jsonOut) value(v any, prefix string) { j.write(v, prefix, "") }

// object writes the fields of the object v at indent prefix, without its
// closing brace, so that more fields can follow.
func (j *jsonOut) object(v any, prefix string) { j.write(v, prefix, "\n"+prefix+"}") }

// write writes v as it appears at indent prefix, less its end when that is
// cut.
func (j *jsonOut) write(v any, prefix, cut string) {
	if j.err != nil {
		return
	}
	b, err := j.marshal(v, prefix)
	if err != nil {
		j.err = err
		return
	}
	_, j.err = j.w.Write(bytes.TrimSuffix(b, []byte(cut)))
	j.shrink()
}

// shrink lets go of buf after a value larger than maxKeptJSON (a file's
// head with the schema of 100,000 columns is a megabyte), so that the
// columns and stripes written after it do not each keep it alive.
func (j *jsonOut) shrink() {
	if j.buf.Cap() > maxKeptJSON {
		j.buf = bytes.Buffer{}
	}
}

// maxKeptJSON is the largest buffer jsonOut keeps between values.
const maxKeptJSON = 64 << 10

// array writes ",\n<prefix>  \"key\": [...]" with the elements each
// yields, at indent prefix+"  " for the key; empty is "[]".
func (j *jsonOut) array(key, prefix string, each func(add func(v any) error) error) {
	if j.err != nil {
		return
	}
	j.raw(",\n" + prefix + "  \"" + key + "\": [")
	n := 0
	inner := prefix + "    "
	err := each(func(v any) error {
		if n == 0 {
			j.raw("\n" + inner)
		} else {
			j.raw(",\n" + inner)
		}
		n++
		j.value(v, inner)
		return j.err
	})
	if j.err == nil {
		j.err = err
	}
	if n > 0 {
		j.raw("\n" + prefix + "  ")
	}
	j.raw("]")
}

// writeMetaJSON writes m as one indented JSON object: its fields, the
// columns columns yields, the stripes stripes yields as its "stripes"
// array (left out when there are none), then the user metadata.
func writeMetaJSON(w io.Writer, m *metaFile, columns func(yield func(*metaColumn) error) error, stripes func(yield func(*metaStripe) error) error) error {
	j := &jsonOut{w: w}
	// The head without its schema, then the schema, which for a wide
	// file is megabytes, escaped a piece at a time rather than through
	// the encoder's and the indenter's buffers at once.
	head := *m
	head.Schema = ""
	j.object(&head, "")
	j.raw(",\n  \"schema\": ")
	j.stringValue(m.Schema)
	j.array("columns", "", func(add func(v any) error) error {
		return columns(func(mc *metaColumn) error { return add(mc) })
	})
	n := 0
	err := stripes(func(ms *metaStripe) error {
		if n == 0 {
			j.raw(",\n  \"stripes\": [\n    ")
		} else {
			j.raw(",\n    ")
		}
		n++
		const p = "    "
		// rowIndex is the last key: left out of the head, written last.
		ri := ms.RowIndex
		ms.RowIndex = nil
		j.object(ms, p)
		j.array("streams", p, func(add func(v any) error) error {
			for st := range ms.footer.Streams() {
				if err := add(metaStream{Column: st.Column, Kind: st.Kind, Offset: st.Offset, Length: st.Length}); err != nil {
					return err
				}
			}
			return nil
		})
		j.array("encodings", p, func(add func(v any) error) error {
			id := 0
			for e := range ms.footer.Encodings() {
				id++
				if err := add(metaEncoding{Column: id - 1, Kind: e.Kind, DictionarySize: e.DictionarySize, BloomEncoding: e.BloomEncoding}); err != nil {
					return err
				}
			}
			return nil
		})
		if ms.stats != nil {
			j.array("statistics", p, func(add func(v any) error) error {
				return ms.stats(func(_ int, st *metaStats) error { return add(st) })
			})
		}
		if len(ri) > 0 {
			j.raw(",\n" + p + "  \"rowIndex\": ")
			j.value(ri, p+"  ")
		}
		j.raw("\n" + p + "}")
		return j.err
	})
	if j.err == nil && err != nil {
		return err
	}
	if n > 0 {
		j.raw("\n  ]")
	}
	if len(m.UserMetadata) > 0 {
		j.raw(",\n  \"userMetadata\": ")
		j.value(m.UserMetadata, "  ")
	}
	j.raw("\n}\n")
	return j.err
}

// columnNames gives each column id a dotted name; list elements are
// "_elem", map keys and values "_key" and "_value", union variants "_N".
func columnNames(root *orc.Schema) []string {
	names := make([]string, root.MaxID()+1)
	eachColumn(root, func(n *orc.Schema, name string) error {
		names[n.ID()] = name
		return nil
	})
	return names
}

// eachColumn calls fn with every node of the type tree, in column id
// order, and its name as columnNames gives it, stopping at fn's first
// error; it holds the names of one path, not of every column.
func eachColumn(root *orc.Schema, fn func(n *orc.Schema, name string) error) error {
	var walk func(n *orc.Schema, name string) error
	walk = func(n *orc.Schema, name string) error {
		shown := name
		if n == root && name == "" {
			shown = "(root)"
		}
		if err := fn(n, shown); err != nil {
			return err
		}
		join := func(s string) string {
			if name == "" {
				return s
			}
			return name + "." + s
		}
		for i, c := range n.Children {
			var err error
			switch n.Kind {
			case orc.Struct:
				err = walk(c, join(n.FieldNames[i]))
			case orc.List:
				err = walk(c, join("_elem"))
			case orc.Map:
				err = walk(c, join([]string{"_key", "_value"}[i]))
			default:
				err = walk(c, join(fmt.Sprintf("_%d", i)))
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, "")
}

func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprint(f)
	}
	return f
}

// statsJSON renders statistics for the JSON and text output.
func statsJSON(c stats.Column) *metaStats {
	m := &metaStats{Count: c.NumValues}
	if c.HasNullKnown {
		// A copy: &c.HasNull moved all of c to the heap (21 MB for the
		// 200,000 statistics of a 100,000-column file).
		hasNull := c.HasNull
		m.HasNull = &hasNull
	}
	if c.BytesOnDisk > 0 {
		m.BytesOnDisk = c.BytesOnDisk
	}
	switch {
	case c.Int != nil:
		if c.Int.HasMinMax {
			m.Min, m.Max = c.Int.Min, c.Int.Max
		}
		if c.Int.HasSum {
			m.Sum = c.Int.Sum
		}
	case c.Double != nil:
		if c.Double.HasMinMax {
			m.Min, m.Max = jsonFloat(c.Double.Min), jsonFloat(c.Double.Max)
		}
		if c.Double.HasSum {
			m.Sum = jsonFloat(c.Double.Sum)
		}
	case c.String != nil:
		if c.String.HasMin {
			if c.String.MinIsLowerBound {
				m.LowerBound = c.String.Min
			} else {
				m.Min = c.String.Min
			}
		}
		if c.String.HasMax {
			if c.String.MaxIsUpperBound {
				m.UpperBound = c.String.Max
			} else {
				m.Max = c.String.Max
			}
		}
		if c.String.HasSum {
			m.TotalLength = c.String.Sum
		}
	case c.Bool != nil:
		m.TrueCount = c.Bool.TrueCount
	case c.Decimal != nil:
		if c.Decimal.HasMinMax {
			m.Min = json.Number(orc.CanonicalDecimal(c.Decimal.Min.Unscaled, c.Decimal.Min.Scale))
			m.Max = json.Number(orc.CanonicalDecimal(c.Decimal.Max.Unscaled, c.Decimal.Max.Scale))
		}
		if c.Decimal.HasSum {
			m.Sum = json.Number(orc.CanonicalDecimal(c.Decimal.Sum.Unscaled, c.Decimal.Sum.Scale))
		}
	case c.Date != nil:
		if c.Date.HasMinMax {
			m.Min = string(reader.AppendDate(nil, int64(c.Date.Min)))
			m.Max = string(reader.AppendDate(nil, int64(c.Date.Max)))
		}
	case c.Timestamp != nil:
		if c.Timestamp.HasMinMax {
			m.Min = string(reader.AppendTimestamp(nil, c.Timestamp.MinSec, c.Timestamp.MinNanos))
			m.Max = string(reader.AppendTimestamp(nil, c.Timestamp.MaxSec, c.Timestamp.MaxNanos))
		}
	case c.Binary != nil:
		if c.Binary.HasSum {
			m.TotalLength = c.Binary.Sum
		}
	case c.Collection != nil:
		if c.Collection.HasMinMax {
			m.MinChildren, m.MaxChildren = c.Collection.MinChildren, c.Collection.MaxChildren
		}
		m.TotalChildren = c.Collection.TotalChildren
	case c.Geo != nil:
		m.BoundingBox, m.GeometryTypes = geoStatsJSON(c.Geo)
	}
	return m
}

// statsText renders statistics on one line, key=value.
func statsText(m *metaStats) string { return string(appendStatsText(nil, m)) }

// appendStatsText appends statsText's line to dst.
func appendStatsText(dst []byte, m *metaStats) []byte {
	dst = append(dst, "count="...)
	dst = strconv.AppendUint(dst, m.Count, 10)
	if m.HasNull != nil {
		dst = append(dst, " hasNull="...)
		dst = strconv.AppendBool(dst, *m.HasNull)
	}
	for _, kv := range [...]struct {
		k string
		v any
	}{{"min", m.Min}, {"lowerBound", m.LowerBound}, {"max", m.Max}, {"upperBound", m.UpperBound},
		{"sum", m.Sum}, {"totalLength", m.TotalLength}, {"trueCount", m.TrueCount},
		{"minChildren", m.MinChildren}, {"maxChildren", m.MaxChildren}, {"totalChildren", m.TotalChildren},
		{"boundingBox", geoBoxText(m.BoundingBox)}, {"geometryTypes", geoTypesText(m.GeometryTypes)},
		{"bytesOnDisk", m.BytesOnDisk}} {
		if kv.v == nil {
			continue
		}
		dst = append(append(append(dst, ' '), kv.k...), '=')
		switch v := kv.v.(type) {
		case string:
			if len(v) > 40 {
				v = v[:40] + "..."
			}
			dst = strconv.AppendQuote(dst, v)
		case int64:
			dst = strconv.AppendInt(dst, v, 10)
		case uint64:
			dst = strconv.AppendUint(dst, v, 10)
		default:
			dst = fmt.Append(dst, v)
		}
	}
	return dst
}

// printMetaStripe prints one stripe of orc meta's text: its place and
// size, streams, encodings, statistics and row index; line is a reused
// buffer.
func printMetaStripe(w io.Writer, s *metaStripe, line *[]byte) error {
	fmt.Fprintf(w, "\nStripe %d: offset %d, index %d, data %d, footer %d bytes, %d rows", s.Index, s.Offset,
		s.IndexLength, s.DataLength, s.FooterLength, s.Rows)
	if s.WriterTimezone != "" {
		fmt.Fprintf(w, ", writer zone %s", s.WriterTimezone)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  Streams:")
	for st := range s.footer.Streams() {
		fmt.Fprintf(w, "    column %3d %-18s offset %d length %d\n", st.Column, st.Kind, st.Offset, st.Length)
	}
	fmt.Fprintln(w, "  Encodings:")
	id := -1
	for e := range s.footer.Encodings() {
		id++
		fmt.Fprintf(w, "    column %3d %s", id, e.Kind)
		if e.DictionarySize > 0 {
			fmt.Fprintf(w, " dictionary %d", e.DictionarySize)
		}
		if e.BloomEncoding > 0 {
			fmt.Fprintf(w, " bloom encoding %d", e.BloomEncoding)
		}
		fmt.Fprintln(w)
	}
	if s.stats != nil {
		n := 0
		err := s.stats(func(id int, st *metaStats) error {
			if n == 0 {
				fmt.Fprintln(w, "  Statistics:")
			}
			n++
			*line = fmt.Appendf((*line)[:0], "    column %3d ", id)
			*line = append(appendStatsText(*line, st), '\n')
			_, err := w.Write(*line)
			return err
		})
		if err != nil {
			return err
		}
	}
	printRowIndex(w, s.RowIndex)
	return nil
}

func printMeta(w io.Writer, m *metaFile, columns func(yield func(*metaColumn) error) error, stripes func(yield func(*metaStripe) error) error) error {
	fmt.Fprintf(w, "File: %s (%d bytes)\n", m.File, m.Size)
	fmt.Fprintf(w, "Format version: %s, writer: %s, writer version %s", m.Version, m.Writer, m.WriterVersion)
	if m.SoftwareVersion != "" {
		fmt.Fprintf(w, ", software %s", m.SoftwareVersion)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Rows: %d\nCompression: %s, block size %d\nRow index stride: %d\nCalendar: %s\n", m.Rows, m.Compression, m.BlockSize, m.RowIndexStride, m.Calendar)
	// The schema of a wide file is megabytes: written as it is, not
	// through fmt's buffer.
	io.WriteString(w, "Schema: ")
	io.WriteString(w, m.Schema)
	io.WriteString(w, "\n\nColumns:\n")
	var line []byte
	err := columns(func(c *metaColumn) error {
		enc := ""
		if c.Encrypted {
			enc = " (encrypted)"
		}
		fmt.Fprintf(w, "  %3d %-24s %s%s\n", c.ID, c.Name, c.Type, enc)
		if c.Statistics != nil {
			line = append(appendStatsText(append(line[:0], "      "...), c.Statistics), '\n')
			_, err := w.Write(line)
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := stripes(func(s *metaStripe) error { return printMetaStripe(w, s, &line) }); err != nil {
		return err
	}
	if len(m.UserMetadata) > 0 {
		fmt.Fprintln(w, "\nUser metadata:")
		for _, it := range m.UserMetadata {
			v := it.Value
			if len(v) > 80 {
				v = v[:80] + fmt.Sprintf("... (%d bytes)", len(it.Value))
			}
			fmt.Fprintf(w, "  %s = %s\n", it.Key, v)
		}
	}
	return nil
}
