package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/stats"
)

func init() {
	register(command{name: "meta", usage: "meta FILE [--json] [--no-stripes]", run: runMeta,
		desc: "print the schema, stripes, streams, encodings and statistics"})
}

type metaColumn struct {
	ID         int            `json:"id"`
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Encrypted  bool           `json:"encrypted,omitempty"`
	Statistics map[string]any `json:"statistics,omitempty"`
}

type metaStripe struct {
	reader.StripeInfo
	WriterTimezone string                  `json:"writerTimezone,omitempty"`
	Streams        []reader.StreamDetail   `json:"streams"`
	Encodings      []reader.EncodingDetail `json:"encodings"`
	Statistics     []map[string]any        `json:"statistics,omitempty"`
}

type metaItem struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type metaFile struct {
	File            string       `json:"file"`
	Size            int64        `json:"size"`
	Rows            int64        `json:"rows"`
	Version         string       `json:"version"`
	WriterVersion   uint32       `json:"writerVersion"`
	Writer          string       `json:"writer"`
	SoftwareVersion string       `json:"softwareVersion,omitempty"`
	Compression     string       `json:"compression"`
	BlockSize       int          `json:"compressionBlockSize"`
	RowIndexStride  int          `json:"rowIndexStride"`
	Calendar        int          `json:"calendar"`
	Schema          string       `json:"schema"`
	Columns         []metaColumn `json:"columns"`
	UserMetadata    []metaItem   `json:"userMetadata,omitempty"`
}

func runMeta(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("meta", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	noStripes := fs.Bool("no-stripes", false, "leave out per-stripe details")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage
	}
	r, closeFn, err := openORC(pos[0])
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
	m := metaFile{File: pos[0], Size: r.Size(), Rows: r.NumRows(), Version: r.Version().String(),
		WriterVersion: uint32(r.WriterVersion()), Writer: format.WriterName(r.Writer()),
		SoftwareVersion: r.SoftwareVersion(), Compression: r.Compression().String(),
		BlockSize: r.CompressionBlockSize(), RowIndexStride: r.RowIndexStride(), Calendar: r.Calendar(),
		Schema: r.Schema().String()}
	names := columnNames(r.Schema())
	for _, node := range r.Schema().Columns() {
		mc := metaColumn{ID: node.ID(), Name: names[node.ID()], Type: node.String(), Encrypted: r.IsEncrypted(node.ID())}
		if st, ok := r.Statistics(node.ID()); ok {
			mc.Statistics = statsJSON(st)
		}
		m.Columns = append(m.Columns, mc)
	}
	for _, it := range r.UserMetadata() {
		v := string(it.Value)
		if !utf8.Valid(it.Value) {
			v = fmt.Sprintf("%x", it.Value)
		}
		m.UserMetadata = append(m.UserMetadata, metaItem{Key: it.Key, Value: v})
	}
	// Stripes are produced one at a time and written out as they come, so
	// a file of many stripes is not held in memory as one document.
	stripes := func(yield func(ms *metaStripe) error) error {
		if *noStripes {
			return nil
		}
		ncols := r.Schema().MaxID() + 1
		for i := range r.Stripes() {
			d, err := r.StripeDetail(i)
			if err != nil {
				return err
			}
			ms := metaStripe{StripeInfo: d.StripeInfo, WriterTimezone: d.WriterTimezone, Streams: d.Streams, Encodings: d.Encodings}
			if r.HasStripeStatistics() {
				for id := range ncols {
					st, _ := r.StripeStatistics(i, id)
					ms.Statistics = append(ms.Statistics, statsJSON(st))
				}
			}
			if err := yield(&ms); err != nil {
				return err
			}
		}
		return nil
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	if *asJSON {
		if err := writeMetaJSON(bw, &m, stripes); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := printMeta(bw, &m, stripes); err != nil {
		return err
	}
	return bw.Flush()
}

// writeMetaJSON writes m as one indented JSON object, with the stripes
// stripes yields as its "stripes" array (left out when there are none),
// in the key order of metaFile's fields.
func writeMetaJSON(w io.Writer, m *metaFile, stripes func(yield func(*metaStripe) error) error) error {
	head, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	// head ends with the user metadata (if any) and "}"; the stripes go
	// before the user metadata.
	var tail []byte
	if len(m.UserMetadata) > 0 {
		tm, err := json.MarshalIndent(m.UserMetadata, "  ", "  ")
		if err != nil {
			return err
		}
		tail = append(append([]byte(",\n  \"userMetadata\": "), tm...), '\n')
		cut := bytes.LastIndex(head, []byte(",\n  \"userMetadata\": "))
		if cut < 0 {
			return fmt.Errorf("internal error: no userMetadata key in the metadata JSON")
		}
		head = head[:cut]
	} else {
		head = bytes.TrimSuffix(head, []byte("\n}"))
		tail = []byte("\n")
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	n := 0
	err = stripes(func(ms *metaStripe) error {
		b, err := json.MarshalIndent(ms, "    ", "  ")
		if err != nil {
			return err
		}
		sep := ",\n    "
		if n == 0 {
			sep = ",\n  \"stripes\": [\n    "
		}
		n++
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		tail = append([]byte("\n  ]"), tail...)
	}
	_, err = w.Write(append(tail, "}\n"...))
	return err
}

// columnNames gives each column id a dotted name; list elements are
// "_elem", map keys and values "_key" and "_value", union variants "_N".
func columnNames(root *orc.Schema) []string {
	names := make([]string, root.MaxID()+1)
	var walk func(n *orc.Schema, name string)
	walk = func(n *orc.Schema, name string) {
		names[n.ID()] = name
		join := func(s string) string {
			if name == "" {
				return s
			}
			return name + "." + s
		}
		for i, c := range n.Children {
			switch n.Kind {
			case orc.Struct:
				walk(c, join(n.FieldNames[i]))
			case orc.List:
				walk(c, join("_elem"))
			case orc.Map:
				walk(c, join([]string{"_key", "_value"}[i]))
			default:
				walk(c, join(fmt.Sprintf("_%d", i)))
			}
		}
	}
	walk(root, "")
	if names[0] == "" {
		names[0] = "(root)"
	}
	return names
}

func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprint(f)
	}
	return f
}

// statsJSON renders statistics as a JSON object.
func statsJSON(c stats.Column) map[string]any {
	m := map[string]any{"count": c.NumValues}
	if c.HasNullKnown {
		m["hasNull"] = c.HasNull
	}
	if c.BytesOnDisk > 0 {
		m["bytesOnDisk"] = c.BytesOnDisk
	}
	switch {
	case c.Int != nil:
		if c.Int.HasMinMax {
			m["min"], m["max"] = c.Int.Min, c.Int.Max
		}
		if c.Int.HasSum {
			m["sum"] = c.Int.Sum
		}
	case c.Double != nil:
		if c.Double.HasMinMax {
			m["min"], m["max"] = jsonFloat(c.Double.Min), jsonFloat(c.Double.Max)
		}
		if c.Double.HasSum {
			m["sum"] = jsonFloat(c.Double.Sum)
		}
	case c.String != nil:
		if c.String.HasMin {
			k := "min"
			if c.String.MinIsLowerBound {
				k = "lowerBound"
			}
			m[k] = c.String.Min
		}
		if c.String.HasMax {
			k := "max"
			if c.String.MaxIsUpperBound {
				k = "upperBound"
			}
			m[k] = c.String.Max
		}
		if c.String.HasSum {
			m["totalLength"] = c.String.Sum
		}
	case c.Bool != nil:
		m["trueCount"] = c.Bool.TrueCount
	case c.Decimal != nil:
		if c.Decimal.HasMinMax {
			m["min"] = json.Number(orc.CanonicalDecimal(c.Decimal.Min.Unscaled, c.Decimal.Min.Scale))
			m["max"] = json.Number(orc.CanonicalDecimal(c.Decimal.Max.Unscaled, c.Decimal.Max.Scale))
		}
		if c.Decimal.HasSum {
			m["sum"] = json.Number(orc.CanonicalDecimal(c.Decimal.Sum.Unscaled, c.Decimal.Sum.Scale))
		}
	case c.Date != nil:
		if c.Date.HasMinMax {
			m["min"] = string(reader.AppendDate(nil, int64(c.Date.Min)))
			m["max"] = string(reader.AppendDate(nil, int64(c.Date.Max)))
		}
	case c.Timestamp != nil:
		if c.Timestamp.HasMinMax {
			m["min"] = string(reader.AppendTimestamp(nil, c.Timestamp.MinSec, c.Timestamp.MinNanos))
			m["max"] = string(reader.AppendTimestamp(nil, c.Timestamp.MaxSec, c.Timestamp.MaxNanos))
		}
	case c.Binary != nil:
		if c.Binary.HasSum {
			m["totalLength"] = c.Binary.Sum
		}
	case c.Collection != nil:
		if c.Collection.HasMinMax {
			m["minChildren"], m["maxChildren"] = c.Collection.MinChildren, c.Collection.MaxChildren
		}
		m["totalChildren"] = c.Collection.TotalChildren
	}
	return m
}

func statsText(m map[string]any) string {
	order := []string{"count", "hasNull", "min", "lowerBound", "max", "upperBound", "sum", "totalLength",
		"trueCount", "minChildren", "maxChildren", "totalChildren", "bytesOnDisk"}
	var parts []string
	for _, k := range order {
		if v, ok := m[k]; ok {
			s := fmt.Sprint(v)
			if str, ok := v.(string); ok {
				if len(str) > 40 {
					str = str[:40] + "..."
				}
				s = fmt.Sprintf("%q", str)
			}
			parts = append(parts, k+"="+s)
		}
	}
	return strings.Join(parts, " ")
}

func printMeta(w io.Writer, m *metaFile, stripes func(yield func(*metaStripe) error) error) error {
	fmt.Fprintf(w, "File: %s (%d bytes)\n", m.File, m.Size)
	fmt.Fprintf(w, "Format version: %s, writer: %s, writer version %d", m.Version, m.Writer, m.WriterVersion)
	if m.SoftwareVersion != "" {
		fmt.Fprintf(w, ", software %s", m.SoftwareVersion)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Rows: %d\nCompression: %s, block size %d\nRow index stride: %d\n", m.Rows, m.Compression, m.BlockSize, m.RowIndexStride)
	fmt.Fprintf(w, "Schema: %s\n\nColumns:\n", m.Schema)
	for _, c := range m.Columns {
		enc := ""
		if c.Encrypted {
			enc = " (encrypted)"
		}
		fmt.Fprintf(w, "  %3d %-24s %s%s\n", c.ID, c.Name, c.Type, enc)
		if c.Statistics != nil {
			fmt.Fprintf(w, "      %s\n", statsText(c.Statistics))
		}
	}
	err := stripes(func(s *metaStripe) error {
		fmt.Fprintf(w, "\nStripe %d: offset %d, index %d, data %d, footer %d bytes, %d rows", s.Index, s.Offset,
			s.IndexLength, s.DataLength, s.FooterLength, s.NumRows)
		if s.WriterTimezone != "" {
			fmt.Fprintf(w, ", writer zone %s", s.WriterTimezone)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "  Streams:")
		for _, st := range s.Streams {
			fmt.Fprintf(w, "    column %3d %-18s offset %d length %d\n", st.Column, st.Kind, st.Offset, st.Length)
		}
		fmt.Fprintln(w, "  Encodings:")
		for id, e := range s.Encodings {
			fmt.Fprintf(w, "    column %3d %s", id, e.Kind)
			if e.DictionarySize > 0 {
				fmt.Fprintf(w, " dictionary %d", e.DictionarySize)
			}
			if e.BloomEncoding > 0 {
				fmt.Fprintf(w, " bloom encoding %d", e.BloomEncoding)
			}
			fmt.Fprintln(w)
		}
		if len(s.Statistics) > 0 {
			fmt.Fprintln(w, "  Statistics:")
			for id, st := range s.Statistics {
				fmt.Fprintf(w, "    column %3d %s\n", id, statsText(st))
			}
		}
		return nil
	})
	if err != nil {
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
