package rowindex

// One stripe's index: the decoded ROW_INDEX of some columns (one entry per
// row group: positions and statistics) and their BLOOM_FILTER_UTF8 filters
// (one per row group), checked against ceil(rows/stride) row groups. The
// stream layouts are in decode.go, the positions' in layout.go.

import (
	"errors"
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
)

// ErrBloomIgnored is wrapped by BloomErr's answer when a column's bloom
// filters were set aside by policy (a legacy stream, an encoding that does
// not promise UTF-8 strings and UTC timestamps, a writer with known bad
// filters) rather than because they are corrupt.
var ErrBloomIgnored = errors.New("rowindex: bloom filters not used")

// BloomSource says where a column's bloom filter index comes from, which
// decides whether its filters may be used (ORC checklist 3.4).
type BloomSource struct {
	// Stream is the kind of the stream the index was read from. Only
	// BLOOM_FILTER_UTF8 is used: legacy BLOOM_FILTER streams hashed strings
	// in the JVM's default charset before HIVE-12055 and timestamps in
	// writer-local time before ORC-135.
	Stream orcpb.Stream_Kind
	// Type is the column's kind.
	Type orc.Kind
	// Encoding is the column's ColumnEncoding.bloom_encoding in the stripe:
	// 0 (or absent) original, 1 UTF-8 strings and UTC timestamps. 1 is
	// usable for every type, 0 for every type but TIMESTAMP (and
	// TIMESTAMP_INSTANT), anything else for none, as Java ORC reads it.
	Encoding uint32
	// Writer identifies the file's writer; C++ ORC 1.6.0-1.6.11 and 1.7.0
	// wrote wrong filters (bloomfilter.TrustFilters).
	Writer stats.WriterInfo
}

// usable returns nil when filters from src may be used, else why not.
func (src BloomSource) usable() error {
	if src.Stream != orcpb.Stream_BLOOM_FILTER_UTF8 {
		return fmt.Errorf("%w: %v stream (only BLOOM_FILTER_UTF8 is used)", ErrBloomIgnored, src.Stream)
	}
	switch {
	case src.Encoding == 1:
	case src.Encoding == 0 && src.Type != orc.Timestamp && src.Type != orc.TimestampInstant:
	case src.Encoding == 0:
		return fmt.Errorf("%w: %v filter with bloom_encoding 0 hashed writer-local time", ErrBloomIgnored, src.Type)
	default:
		return fmt.Errorf("%w: unknown bloom_encoding %d", ErrBloomIgnored, src.Encoding)
	}
	if !bloomfilter.TrustFilters(src.Writer.Writer, src.Writer.SoftwareVersion) {
		return fmt.Errorf("%w: writer %d version %q wrote bad filters (ORC-1024)", ErrBloomIgnored,
			src.Writer.Writer, src.Writer.SoftwareVersion)
	}
	return nil
}

// Index holds, for one stripe, the row index entries and bloom filters of
// the columns the caller gave it, checked against the stripe's row-group
// count. A column whose ROW_INDEX has the wrong number of entries is
// unusable: HasRowIndex reports false and RowIndexErr says why, so that
// pruning treats the column as unindexed (reads every row group) instead of
// failing the read. The same goes for bloom filters.
//
// An Index is not safe for concurrent use: Bloom decodes filters on first use
// and caches them.
type Index struct {
	rows, stride uint64
	groups       uint64 // ceil(rows/stride); 0 when stride is 0
	cols         []column
}

// column is what an Index holds for one column id.
type column struct {
	entries  []*orcpb.RowIndexEntry // nil unless usable
	entryErr error

	blooms   []*orcpb.BloomFilter // nil unless usable
	bloomErr error
	filters  []*bloomfilter.Filter // decoded filters, parallel to blooms
	state    []uint8               // per group: bloomUntried, bloomDecoded, bloomAbsent
}

const (
	bloomUntried = iota
	bloomDecoded
	bloomAbsent
)

// NewIndex returns an empty Index for a stripe of rows rows cut into row
// groups of stride rows (Footer.row_index_stride; 0 means the file has no
// row index).
func NewIndex(rows, stride uint64) *Index {
	x := &Index{rows: rows, stride: stride}
	if stride > 0 {
		x.groups = rows / stride
		if rows%stride != 0 {
			x.groups++
		}
	}
	return x
}

// Groups returns the number of row groups of the stripe, ceil(rows/stride),
// or 0 when the stride is 0.
func (x *Index) Groups() int {
	if x.groups > uint64(maxInt) {
		return maxInt
	}
	return int(x.groups)
}

const maxInt = int(^uint(0) >> 1)

// col returns the column record for id c, growing the table; nil for c < 0.
func (x *Index) col(c int) *column {
	if c < 0 {
		return nil
	}
	if c >= len(x.cols) {
		x.cols = append(x.cols, make([]column, c+1-len(x.cols))...)
	}
	return &x.cols[c]
}

// get returns the column record for id c, or nil.
func (x *Index) get(c int) *column {
	if c < 0 || c >= len(x.cols) {
		return nil
	}
	return &x.cols[c]
}

// SetRowIndex records column col's row index. One with a number of entries
// other than Groups(), or any row index when the stride is 0, is set aside:
// HasRowIndex(col) then reports false and RowIndexErr(col) says why. A nil
// ri forgets what was recorded. A negative col is ignored.
func (x *Index) SetRowIndex(col int, ri *orcpb.RowIndex) {
	c := x.col(col)
	if c == nil {
		return
	}
	c.entries, c.entryErr = nil, nil
	if ri == nil {
		return
	}
	n := uint64(len(ri.GetEntry()))
	switch {
	case x.stride == 0:
		c.entryErr = &orc.CorruptError{Offset: -1, Stripe: -1, Column: col, Stream: "ROW_INDEX",
			Msg: fmt.Sprintf("row index of %d entries in a file whose row_index_stride is 0", n)}
	case n != x.groups:
		c.entryErr = &orc.CorruptError{Offset: -1, Stripe: -1, Column: col, Stream: "ROW_INDEX",
			Msg: fmt.Sprintf("row index has %d entries, a stripe of %d rows in groups of %d has %d", n, x.rows, x.stride, x.groups)}
	default:
		c.entries = ri.GetEntry()
		if c.entries == nil {
			c.entries = []*orcpb.RowIndexEntry{}
		}
	}
}

// HasRowIndex reports whether column col has a usable row index.
func (x *Index) HasRowIndex(col int) bool {
	c := x.get(col)
	return c != nil && c.entries != nil
}

// RowIndexErr returns why column col's row index was set aside (an error
// wrapping orc.ErrCorrupt), or nil when it is usable or was never given.
func (x *Index) RowIndexErr(col int) error {
	if c := x.get(col); c != nil {
		return c.entryErr
	}
	return nil
}

// Entries returns column col's row index entries, one per row group, or nil
// when the column has no usable row index. The caller must not modify them.
func (x *Index) Entries(col int) []*orcpb.RowIndexEntry {
	if c := x.get(col); c != nil {
		return c.entries
	}
	return nil
}

// CheckPositions reports whether every entry of column col but the first
// (which means the streams' start whatever it holds; see Layout) holds the
// number of positions layout needs, with an error wrapping orc.ErrCorrupt
// naming the first that does not. A column without a usable row index gives
// an error too. Pruning needs only statistics; seeking needs this to hold for
// every column read.
func (x *Index) CheckPositions(col int, layout []Slot) error {
	if err := checkLayout(layout); err != nil {
		return err
	}
	c := x.get(col)
	if c == nil || c.entries == nil {
		return fmt.Errorf("rowindex: column %d has no usable row index", col)
	}
	w := Width(layout)
	for g, e := range c.entries {
		if n := len(e.GetPositions()); n != w && g > 0 {
			return &orc.CorruptError{Offset: -1, Stripe: -1, Column: col, Stream: "ROW_INDEX",
				Msg: fmt.Sprintf("row index entry %d has %d positions, the column's streams (%s) take %d", g, n, layoutString(layout), w)}
		}
	}
	return nil
}

// Positions returns the positions of row group group of column col cut per
// stream of layout (Split). Group 0 gives zeros, the start of every stream,
// whatever its entry holds (see Layout). A column without a usable row index,
// a group out of range or an entry whose count is not the layout's Width
// gives an error, wrapping orc.ErrCorrupt in the last case.
func (x *Index) Positions(col, group int, layout []Slot) ([][]uint64, error) {
	c := x.get(col)
	if c == nil || c.entries == nil {
		return nil, fmt.Errorf("rowindex: column %d has no usable row index", col)
	}
	if group < 0 || group >= len(c.entries) {
		return nil, fmt.Errorf("rowindex: row group %d out of range (column %d has %d)", group, col, len(c.entries))
	}
	if err := checkLayout(layout); err != nil {
		return nil, err
	}
	p := c.entries[group].GetPositions()
	if group == 0 {
		p = make([]uint64, Width(layout))
	}
	parts, err := Split(p, layout)
	if err != nil {
		return nil, orc.WithLocation(err, -1, -1, col, "ROW_INDEX")
	}
	return parts, nil
}

// GroupStats returns the statistics of row group group of column col, of
// type t, decoded with stats.FromProto (which sets aside what the writer info
// says cannot be trusted). ok is false when the column has no usable row
// index, the group is out of range, or the entry has no statistics.
func (x *Index) GroupStats(col, group int, t *orc.Schema, info stats.WriterInfo) (s stats.Column, ok bool) {
	c := x.get(col)
	if c == nil || group < 0 || group >= len(c.entries) {
		return stats.Column{}, false
	}
	pb := c.entries[group].GetStatistics()
	if pb == nil {
		return stats.Column{}, false
	}
	return stats.FromProto(pb, t, info), true
}

// SetBloomFilterIndex records column col's bloom filter index, read from the
// stream and under the conditions src describes. It is set aside, with
// BloomErr(col) saying why, when src rules it out (see BloomSource) or when
// it does not hold one filter per row group. An index ruled out by src
// never replaces one recorded before (Java writers list BLOOM_FILTER_UTF8
// after BLOOM_FILTER, others may not). A nil bf
// forgets what was recorded. A negative col is ignored.
func (x *Index) SetBloomFilterIndex(col int, bf *orcpb.BloomFilterIndex, src BloomSource) {
	c := x.col(col)
	if c == nil {
		return
	}
	err := src.usable()
	if bf != nil && err != nil && (c.blooms != nil || c.bloomErr != nil) {
		return // keep what an earlier, usable stream gave
	}
	c.blooms, c.bloomErr, c.filters, c.state = nil, nil, nil, nil
	switch n := uint64(len(bf.GetBloomFilter())); {
	case bf == nil:
	case err != nil:
		c.bloomErr = err
	case n != x.groups:
		c.bloomErr = &orc.CorruptError{Offset: -1, Stripe: -1, Column: col, Stream: src.Stream.String(),
			Msg: fmt.Sprintf("bloom filter index has %d filters, the stripe has %d row groups", n, x.groups)}
	default:
		c.blooms = bf.GetBloomFilter()
		if c.blooms == nil {
			c.blooms = []*orcpb.BloomFilter{}
		}
		c.filters = make([]*bloomfilter.Filter, len(c.blooms))
		c.state = make([]uint8, len(c.blooms))
	}
}

// HasBloom reports whether column col has usable bloom filters (a single
// group's filter may still be absent; see Bloom).
func (x *Index) HasBloom(col int) bool {
	c := x.get(col)
	return c != nil && c.blooms != nil
}

// BloomErr returns why column col's bloom filters were set aside: an error
// wrapping ErrBloomIgnored for policy, orc.ErrCorrupt for a wrong count. It
// is nil when they are usable or were never given.
func (x *Index) BloomErr(col int) error {
	if c := x.get(col); c != nil {
		return c.bloomErr
	}
	return nil
}

// Bloom returns the bloom filter of row group group of column col, decoding
// it on first use. ok is false when the column has no usable bloom filters,
// the group is out of range, or the stored filter does not decode (an
// unusable filter only costs pruning, so it is treated as absent, not as a
// failed read).
func (x *Index) Bloom(col, group int) (f *bloomfilter.Filter, ok bool) {
	c := x.get(col)
	if c == nil || group < 0 || group >= len(c.blooms) {
		return nil, false
	}
	switch c.state[group] {
	case bloomDecoded:
		return c.filters[group], true
	case bloomAbsent:
		return nil, false
	}
	f, err := bloomfilter.FromProto(c.blooms[group])
	if err != nil {
		c.state[group] = bloomAbsent
		return nil, false
	}
	c.filters[group], c.state[group] = f, bloomDecoded
	return f, true
}
