package main

// orc meta --rowindex COLS: the row-index entries of the named columns in
// every stripe, each with its statistics, its stream positions and, where
// the column has a bloom filter, a summary of the group's filter.

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/stats"
)

// metaRowIndex is one column's row index in one stripe.
type metaRowIndex struct {
	Column  int              `json:"column"`
	Name    string           `json:"name"`
	Note    string           `json:"note,omitempty"` // why there are no entries
	Entries []metaIndexEntry `json:"entries"`
}

// metaIndexEntry is one row group's entry.
type metaIndexEntry struct {
	Group       int        `json:"group"`
	FirstRow    int64      `json:"firstRow"` // within the stripe
	Rows        int64      `json:"rows"`
	Statistics  *metaStats `json:"statistics,omitempty"`
	Positions   []uint64   `json:"positions"`
	BloomFilter *metaBloom `json:"bloomFilter,omitempty"`
}

// metaBloom summarizes a row group's bloom filter.
type metaBloom struct {
	HashFunctions int     `json:"hashFunctions"`
	Bits          int     `json:"bits"`
	BitsSet       int     `json:"bitsSet"`
	FalsePositive float64 `json:"falsePositive"` // (bitsSet/bits)^hashFunctions
	Note          string  `json:"note,omitempty"`
	// Stream is the filter's stream kind, BLOOM_FILTER_UTF8 or
	// BLOOM_FILTER; Layout, for BLOOM_FILTER, "legacy" or "early" (the
	// early Hive layout: sized by ExpectedEntries and FPP, positions
	// modulo Bits, which may be less than the words hold).
	Stream          string  `json:"stream,omitempty"`
	Layout          string  `json:"layout,omitempty"`
	ExpectedEntries uint64  `json:"expectedEntries,omitempty"`
	FPP             float64 `json:"fpp,omitempty"`
}

// resolveColumns turns the --rowindex list (column names as orc meta
// prints them, or ids) into column ids.
func resolveColumns(list string, root *orc.Schema) ([]int, error) {
	names := columnNames(root)
	var ids []int
	for _, item := range splitList(list) {
		id := -1
		if n, err := strconv.Atoi(item); err == nil {
			if n < 0 || n > root.MaxID() {
				return nil, fmt.Errorf("%w: --rowindex: column id %d: the file has ids 0..%d", errUsage, n, root.MaxID())
			}
			id = n
		} else {
			for i, name := range names {
				if name == item {
					id = i
				}
			}
			if id < 0 {
				return nil, fmt.Errorf("%w: --rowindex: no column %q (columns: %s)", errUsage, item, strings.Join(names[1:], ", "))
			}
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: --rowindex: no columns given", errUsage)
	}
	return ids, nil
}

// indexReader reads the index streams of a file.
type indexReader struct {
	r     *reader.Reader
	ra    io.ReaderAt
	dec   format.Decompressor
	buf   []byte
	winfo stats.WriterInfo
	names []string
	nodes []*orc.Schema // by column id

	indexOf     *reader.StripeDetail // the stripe indexStream is of
	indexStream map[int]int          // column id -> its ROW_INDEX stream in indexOf
}

func newIndexReader(r *reader.Reader, ra io.ReaderAt) (*indexReader, error) {
	ir := &indexReader{r: r, ra: ra, names: columnNames(r.Schema()), nodes: r.Schema().Columns(),
		winfo: stats.WriterInfoFromTail(r.Tail().PostScript, r.Tail().Footer)}
	if r.Compression() != orc.CompressionNone {
		dec, err := format.NewDecompressor(r.Compression())
		if err != nil {
			return nil, err
		}
		ir.dec = dec
	}
	return ir, nil
}

// maxIndexStream bounds the decompressed bytes of one index stream.
const maxIndexStream = 256 << 20

// stream returns the decompressed bytes of a stream of stripe si. They
// stay valid until the next call.
func (ir *indexReader) stream(si int, st reader.StreamDetail) ([]byte, error) {
	where := fmt.Sprintf("stripe %d, column %d, %s at offset %d", si, st.Column, st.Kind, st.Offset)
	if st.Offset < 0 || st.Length < 0 || st.Length > ir.r.Size() || st.Offset > ir.r.Size()-st.Length {
		return nil, fmt.Errorf("%w: %s: %d bytes past the end of the file", orc.ErrCorrupt, where, st.Length)
	}
	raw := make([]byte, st.Length)
	if _, err := ir.ra.ReadAt(raw, st.Offset); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if ir.dec == nil {
		return raw, nil
	}
	in := format.NewInStream(format.StreamInfo{Name: st.Kind, FileOffset: st.Offset, Stripe: si, Column: st.Column,
		Length: uint64(st.Length)}, raw, ir.r.Compression(), ir.r.CompressionBlockSize(), ir.dec)
	limit := min((st.Length/3+1)*int64(ir.r.CompressionBlockSize()), maxIndexStream)
	var err error
	ir.buf, err = format.AppendAll(ir.buf[:0], in, limit)
	return ir.buf, err
}

// decodeStream reads stream st of stripe si and decodes it with decode;
// a decoding error names the stripe, the column and the stream.
func decodeStream[T any](ir *indexReader, si int, st reader.StreamDetail, decode func([]byte) (T, error)) (T, error) {
	data, err := ir.stream(si, st)
	if err != nil {
		var none T
		return none, err
	}
	v, err := decode(data)
	if err != nil {
		return v, fmt.Errorf("stripe %d, column %d, %s: %w", si, st.Column, st.Kind, err)
	}
	return v, nil
}

// rowIndex returns the row indexes of cols in stripe si.
func (ir *indexReader) rowIndex(si int, d *reader.StripeFooter, cols []int) ([]metaRowIndex, error) {
	// The index and bloom filter streams of cols, in one pass.
	type indexStreams struct{ idx, bloom *reader.StreamDetail }
	found := make(map[int]*indexStreams, len(cols))
	for _, col := range cols {
		found[col] = &indexStreams{}
	}
	for st := range d.Streams() {
		f := found[st.Column]
		if f == nil {
			continue
		}
		switch st := st; st.Kind {
		case "ROW_INDEX":
			f.idx = &st
		case "BLOOM_FILTER_UTF8":
			f.bloom = &st
		case "BLOOM_FILTER":
			if f.bloom == nil {
				f.bloom = &st
			}
		}
	}
	var out []metaRowIndex
	for _, col := range cols {
		mi, err := ir.columnIndex(si, d, col, found[col].idx, found[col].bloom)
		if err != nil {
			return nil, err
		}
		out = append(out, mi)
	}
	return out, nil
}

// columnIndex describes column col's row index in stripe si, idx and
// bloom being its streams (nil where it has none): each entry's positions
// and statistics, with the group's bloom filter.
func (ir *indexReader) columnIndex(si int, d *reader.StripeFooter, col int, idx, bloom *reader.StreamDetail) (metaRowIndex, error) {
	mi := metaRowIndex{Column: col, Name: ir.names[col], Entries: []metaIndexEntry{}}
	switch {
	case ir.r.IsEncrypted(col):
		mi.Note = "encrypted column"
	case idx == nil:
		mi.Note = "no row index"
	}
	if idx == nil {
		return mi, nil
	}
	ri, err := decodeStream(ir, si, *idx, rowindex.DecodeRowIndex)
	if err != nil {
		return mi, err
	}
	var filters []*metaBloom
	if bloom != nil {
		if filters, err = ir.bloomSummaries(si, col, *bloom); err != nil {
			return mi, err
		}
	}
	stride := int64(ir.r.RowIndexStride())
	for g, e := range ri.GetEntry() {
		me := metaIndexEntry{Group: g, Positions: e.GetPositions()}
		if me.Positions == nil {
			me.Positions = []uint64{}
		}
		if stride > 0 {
			me.FirstRow = int64(g) * stride
			me.Rows = max(0, min(stride, d.NumRows-me.FirstRow))
		}
		if e.GetStatistics() != nil {
			me.Statistics = statsJSON(stats.FromProto(e.GetStatistics(), ir.nodes[col], ir.winfo))
		}
		if g < len(filters) {
			me.BloomFilter = filters[g]
		}
		mi.Entries = append(mi.Entries, me)
	}
	return mi, nil
}

// bloomSummaries describes each filter of a bloom filter stream of column
// col in stripe si.
func (ir *indexReader) bloomSummaries(si, col int, bloom reader.StreamDetail) ([]*metaBloom, error) {
	var filters []*metaBloom
	if bloom.Kind == "BLOOM_FILTER" {
		lbs, err := decodeStream(ir, si, bloom, rowindex.DecodeLegacyBloomIndex)
		if err != nil {
			return nil, err
		}
		for _, lb := range lbs {
			filters = append(filters, legacySummary(lb, ir.nodes[col].Kind, ir.r.WriterInfo()))
		}
		return filters, nil
	}
	bi, err := decodeStream(ir, si, bloom, rowindex.DecodeBloomFilterIndex)
	if err != nil {
		return nil, err
	}
	for _, pb := range bi.GetBloomFilter() {
		b := bloomSummary(pb)
		b.Stream = bloom.Kind
		filters = append(filters, b)
	}
	return filters, nil
}

// bloomSummary counts the bits of a stored filter.
func bloomSummary(pb *orcpb.BloomFilter) *metaBloom {
	b := &metaBloom{HashFunctions: int(pb.GetNumHashFunctions())}
	if u := pb.GetUtf8Bitset(); len(u) > 0 {
		b.Bits = len(u) * 8
		for _, x := range u {
			b.BitsSet += bits.OnesCount8(x)
		}
	} else {
		b.Bits = len(pb.GetBitset()) * 64
		for _, x := range pb.GetBitset() {
			b.BitsSet += bits.OnesCount64(x)
		}
	}
	if b.Bits > 0 {
		b.FalsePositive = math.Pow(float64(b.BitsSet)/float64(b.Bits), float64(b.HashFunctions))
		b.FalsePositive = math.Round(b.FalsePositive*1e6) / 1e6
	} else {
		b.Note = "empty filter"
	}
	return b
}

// legacySummary describes a filter of a BLOOM_FILTER stream and whether
// a reader probes it.
func legacySummary(lb rowindex.LegacyBloom, kind orc.Kind, w format.WriterInfo) *metaBloom {
	var words []uint64
	b := &metaBloom{Stream: "BLOOM_FILTER", Layout: "legacy"}
	if e := lb.Early; e != nil {
		b.Layout, b.ExpectedEntries, b.FPP = "early", e.ExpectedEntries(), e.FPP()
		b.HashFunctions, b.Bits, words = e.NumHashFunctions(), e.NumBits(), e.Words()
	} else {
		pb := lb.Filter.Proto()
		b.HashFunctions, b.Bits = lb.Filter.NumHashFunctions(), lb.Filter.NumBits()
		for i := 0; i+8 <= len(pb.Utf8Bitset); i += 8 {
			words = append(words, binary.LittleEndian.Uint64(pb.Utf8Bitset[i:]))
		}
	}
	for _, w := range words {
		b.BitsSet += bits.OnesCount64(w)
	}
	if b.Bits > 0 {
		b.FalsePositive = math.Round(math.Pow(float64(b.BitsSet)/float64(b.Bits), float64(b.HashFunctions))*1e6) / 1e6
	}
	switch bloomfilter.TrustLegacy(kind, w, lb.Early != nil) {
	case bloomfilter.LegacyNo:
		b.Note = "not used for pruning: this type's legacy hash is not the reader's"
	case bloomfilter.LegacyASCII:
		b.Note = "used only for ASCII values (hashed in the writer's default charset)"
	}
	return b
}

// printRowIndex prints a stripe's row indexes as text.
func printRowIndex(w io.Writer, ris []metaRowIndex) {
	for _, mi := range ris {
		fmt.Fprintf(w, "  Row index, column %d %s:", mi.Column, mi.Name)
		if mi.Note != "" {
			fmt.Fprintf(w, " %s", mi.Note)
		}
		fmt.Fprintln(w)
		for _, e := range mi.Entries {
			fmt.Fprintf(w, "    group %d (rows %d..%d):", e.Group, e.FirstRow, e.FirstRow+e.Rows-1)
			if e.Statistics != nil {
				fmt.Fprintf(w, " %s", statsText(e.Statistics))
			}
			pos := make([]string, len(e.Positions))
			for i, p := range e.Positions {
				pos[i] = strconv.FormatUint(p, 10)
			}
			fmt.Fprintf(w, " positions %s\n", strings.Join(pos, ","))
			if b := e.BloomFilter; b != nil {
				fmt.Fprintf(w, "      bloom filter: %d hash functions, %d of %d bits set (false positives ~%.4g)",
					b.HashFunctions, b.BitsSet, b.Bits, b.FalsePositive)
				switch b.Layout {
				case "early":
					fmt.Fprintf(w, "; BLOOM_FILTER, early Hive layout (sized for %d entries at p = %g)", b.ExpectedEntries, b.FPP)
				case "legacy":
					fmt.Fprintf(w, "; BLOOM_FILTER (legacy)")
				}
				if b.Note != "" {
					fmt.Fprintf(w, "; %s", b.Note)
				}
				fmt.Fprintln(w)
			}
		}
	}
}

// groupStats returns the row-group statistics of column col in stripe si
// (nil entries for groups without them), or nil when the column has no
// row index.
func (ir *indexReader) groupStats(si int, d *reader.StripeDetail, col int) ([]*stats.Column, error) {
	if ir.indexOf != d {
		// Each column's ROW_INDEX stream, found once per stripe.
		ir.indexOf, ir.indexStream = d, make(map[int]int)
		for k := range d.Streams {
			if d.Streams[k].Kind == "ROW_INDEX" {
				ir.indexStream[d.Streams[k].Column] = k
			}
		}
	}
	var idx *reader.StreamDetail
	if k, ok := ir.indexStream[col]; ok {
		idx = &d.Streams[k]
	}
	if idx == nil {
		return nil, nil
	}
	ri, err := decodeStream(ir, si, *idx, rowindex.DecodeRowIndex)
	if err != nil {
		return nil, err
	}
	node := ir.nodes[col]
	out := make([]*stats.Column, len(ri.GetEntry()))
	for g, e := range ri.GetEntry() {
		if e.GetStatistics() != nil {
			c := stats.FromProto(e.GetStatistics(), node, ir.winfo)
			out[g] = &c
		}
	}
	return out, nil
}
