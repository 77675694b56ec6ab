package rowindex

import (
	"errors"
	"fmt"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// A sequential decode of every stream of a stripe that has row-index
// positions, and, for each stream, the index of the value (or, for raw byte
// streams, the byte) at which each row group starts, worked out from the
// row counts alone: top-level row groups are rows [g*stride, (g+1)*stride);
// a column's values are its non-null rows (PRESENT); a struct's children have
// a row per non-null struct row, a list's or map's children a row per element
// (LENGTH), a union's child i a row per tag i. Seeking by the recorded
// positions must land exactly there.

// Stream codecs.
const (
	codecBool = iota // boolean RLE; values 0/1
	codecByte        // byte RLE
	codecInt         // integer RLE v1/v2
	codecRaw         // raw bytes; "values" are bytes
)

type seqStream struct {
	slot   int // index in the column's layout
	kind   orcpb.Stream_Kind
	codec  int
	signed bool
	v2     bool
	stored []byte
	ints   []int64 // decoded values (bool, byte, int codecs)
	raw    []byte  // decompressed bytes (raw codec)
	starts []int64 // per group, then the total
}

type seqColumn struct {
	col        int
	layout     []Slot
	entries    []*orcpb.RowIndexEntry // one per row group
	lvl        []int64                // rows at this level before each group, then the total
	presPrefix []int64                // non-null rows among the first i; nil: no PRESENT
	lenPrefix  []int64                // list/map lengths summed over the first i values
	tags       []int64                // union tags
	streams    []*seqStream
}

// positions returns row group g's positions cut per stream of the layout
// (Split). Group 0's are zeros, the start of every stream, whatever its
// entry holds (see Layout).
func (c *seqColumn) positions(t testing.TB, g int) [][]uint64 {
	t.Helper()
	p := c.entries[g].GetPositions()
	if g == 0 {
		p = make([]uint64, width(c.layout))
	}
	parts, err := Split(p, c.layout)
	if err != nil {
		t.Fatalf("column %d group %d: %v", c.col, g, err)
	}
	return parts
}

// nn returns the number of values among the first x rows.
func (c *seqColumn) nn(x int64) int64 {
	if c.presPrefix == nil {
		return x
	}
	return c.presPrefix[x]
}

// seqStripe decodes stripe s in full. It returns nil when the file has no
// row index.
func seqStripe(t testing.TB, s *exStripe) []*seqColumn {
	t.Helper()
	f := s.f
	stride := int64(f.tail.Footer.GetRowIndexStride())
	if stride == 0 || !s.has(0, orcpb.Stream_ROW_INDEX) {
		return nil
	}
	rows := int64(s.rows)
	groups := int((rows + stride - 1) / stride)
	cols := make([]*seqColumn, len(f.cols))
	for id, node := range f.cols {
		c := &seqColumn{col: id, layout: s.layout(id)}
		cols[id] = c
		ri := s.rowIndex(t, id)
		if ri == nil {
			t.Fatalf("%s stripe %d: column %d has no ROW_INDEX", f.name, s.index, id)
		}
		c.entries = ri.GetEntry()
		if len(c.entries) != groups {
			t.Fatalf("%s stripe %d column %d: %d entries for %d groups", f.name, s.index, id, len(c.entries), groups)
		}
		c.lvl = make([]int64, groups+1)
		for g := range c.lvl {
			if p := f.parent[id]; p < 0 {
				c.lvl[g] = min(int64(g)*stride, rows)
			} else {
				c.lvl[g] = cols[p].childRows(cols[p].lvl[g], f.cols[p].Kind, f.childIdx[id])
			}
		}
		total := c.lvl[groups]
		if err := c.decode(t, s, node, total); err != nil {
			t.Fatalf("%s stripe %d column %d (%v): %v", f.name, s.index, id, node.Kind, err)
		}
	}
	return cols
}

// childRows returns the rows a child has for the parent's first x rows.
func (c *seqColumn) childRows(x int64, kind orc.Kind, childIdx int) int64 {
	v := c.nn(x)
	switch kind {
	case orc.List, orc.Map:
		return c.lenPrefix[v]
	case orc.Union:
		n := int64(0)
		for _, tag := range c.tags[:v] {
			if tag == int64(childIdx) {
				n++
			}
		}
		return n
	}
	return v
}

// decode reads column c's streams in full.
func (c *seqColumn) decode(t testing.TB, s *exStripe, node *orc.Schema, total int64) error {
	enc := s.encoding(c.col)
	v2 := enc == orcpb.ColumnEncoding_DIRECT_V2 || enc == orcpb.ColumnEncoding_DICTIONARY_V2
	dict := enc == orcpb.ColumnEncoding_DICTIONARY || enc == orcpb.ColumnEncoding_DICTIONARY_V2
	groups := len(c.lvl) - 1
	for i, slot := range c.layout {
		st := &seqStream{slot: i, kind: slot.Kind, v2: v2, stored: s.streams[streamKey{c.col, slot.Kind}]}
		if st.stored == nil {
			return fmt.Errorf("no %v stream", slot.Kind)
		}
		c.streams = append(c.streams, st)
	}
	byKind := func(k orcpb.Stream_Kind) *seqStream {
		for _, st := range c.streams {
			if st.kind == k {
				return st
			}
		}
		return nil
	}
	if st := byKind(orcpb.Stream_PRESENT); st != nil {
		st.codec = codecBool
		if err := st.decodeAll(t, s.f, total); err != nil {
			return err
		}
		c.presPrefix = prefix(st.ints)
		st.starts = c.lvl
	}
	nv := make([]int64, groups+1) // values before each group
	for g := range nv {
		nv[g] = c.nn(c.lvl[g])
	}
	values := nv[groups]
	// ints decodes stream k as integers, one per value.
	ints := func(k orcpb.Stream_Kind, codec int, signed bool) ([]int64, error) {
		st := byKind(k)
		if st == nil {
			return nil, fmt.Errorf("layout has no %v", k)
		}
		st.codec, st.signed, st.starts = codec, signed, nv
		err := st.decodeAll(t, s.f, values)
		return st.ints, err
	}
	// raw reads stream k's bytes; offsets gives the byte offset of a value.
	raw := func(k orcpb.Stream_Kind, offsets func(b []byte, v int64) int64) error {
		st := byKind(k)
		if st == nil {
			return fmt.Errorf("layout has no %v", k)
		}
		st.codec = codecRaw
		st.raw = s.f.decompress(t, st.stored)
		st.starts = make([]int64, groups+1)
		for g, v := range nv {
			st.starts[g] = offsets(st.raw, v)
		}
		if st.starts[groups] != int64(len(st.raw)) {
			return fmt.Errorf("%v: values end at byte %d of %d", st.kind, st.starts[groups], len(st.raw))
		}
		return nil
	}
	var err error
	switch node.Kind {
	case orc.Boolean:
		_, err = ints(orcpb.Stream_DATA, codecBool, false)
	case orc.Byte:
		_, err = ints(orcpb.Stream_DATA, codecByte, true)
	case orc.Short, orc.Int, orc.Long, orc.Date:
		_, err = ints(orcpb.Stream_DATA, codecInt, true)
	case orc.Float:
		err = raw(orcpb.Stream_DATA, func(_ []byte, v int64) int64 { return 4 * v })
	case orc.Double:
		err = raw(orcpb.Stream_DATA, func(_ []byte, v int64) int64 { return 8 * v })
	case orc.String, orc.Char, orc.Varchar, orc.Binary:
		if dict && node.Kind != orc.Binary {
			_, err = ints(orcpb.Stream_DATA, codecInt, false)
			break
		}
		if _, err = ints(orcpb.Stream_LENGTH, codecInt, false); err != nil {
			break
		}
		lens := prefix(byKind(orcpb.Stream_LENGTH).ints)
		err = raw(orcpb.Stream_DATA, func(_ []byte, v int64) int64 { return lens[v] })
	case orc.Decimal:
		if s.decimal64(c.col) {
			_, err = ints(orcpb.Stream_DATA, codecInt, true)
			break
		}
		var off []int64
		err = raw(orcpb.Stream_DATA, func(b []byte, v int64) int64 {
			if off == nil {
				off = varintOffsets(b)
			}
			if v >= int64(len(off)) {
				return -1
			}
			return off[v]
		})
		if err == nil {
			_, err = ints(orcpb.Stream_SECONDARY, codecInt, true)
		}
	case orc.Timestamp, orc.TimestampInstant:
		if _, err = ints(orcpb.Stream_DATA, codecInt, true); err == nil {
			_, err = ints(orcpb.Stream_SECONDARY, codecInt, false)
		}
	case orc.List, orc.Map:
		var l []int64
		if l, err = ints(orcpb.Stream_LENGTH, codecInt, false); err == nil {
			c.lenPrefix = prefix(l)
		}
	case orc.Union:
		c.tags, err = ints(orcpb.Stream_DATA, codecByte, false)
	}
	for _, st := range c.streams {
		if err == nil && st.starts == nil {
			err = fmt.Errorf("stream %v not decoded", st.kind)
		}
	}
	return err
}

// prefix returns the running sums of v, starting with 0.
func prefix(v []int64) []int64 {
	p := make([]int64, len(v)+1)
	for i, x := range v {
		p[i+1] = p[i] + x
	}
	return p
}

// varintOffsets returns the byte offset of each varint in b, then len(b).
func varintOffsets(b []byte) []int64 {
	out := []int64{0}
	for i, c := range b {
		if c < 0x80 {
			out = append(out, int64(i+1))
		}
	}
	return out
}

// newDecoder returns the decoder for st over src.
func (st *seqStream) newDecoder(src format.ChunkSource) any {
	switch st.codec {
	case codecBool:
		return format.NewBoolRLEDecoder(src)
	case codecByte:
		return format.NewByteRLEDecoder(src)
	case codecInt:
		if st.v2 {
			return format.NewIntRLEv2Decoder(src, st.signed)
		}
		return format.NewIntRLEv1Decoder(src, st.signed)
	}
	return format.NewByteReader(src)
}

// read decodes n values from d, a decoder of newDecoder, as int64s (bytes
// for the raw codec).
func (st *seqStream) read(d any, n int64) ([]int64, error) {
	out := make([]int64, n)
	switch d := d.(type) {
	case *format.BoolRLEDecoder:
		b := make([]bool, n)
		if err := d.Next(b); err != nil {
			return nil, err
		}
		for i, v := range b {
			if v {
				out[i] = 1
			}
		}
	case *format.ByteRLEDecoder:
		b := make([]byte, n)
		if err := d.Next(b); err != nil {
			return nil, err
		}
		for i, v := range b {
			if st.signed {
				out[i] = int64(int8(v))
			} else {
				out[i] = int64(v)
			}
		}
	case format.IntDecoder:
		if err := d.Next(out); err != nil {
			return nil, err
		}
	case *format.ByteReader:
		b := make([]byte, n)
		if err := d.ReadFull(b); err != nil {
			return nil, err
		}
		for i, v := range b {
			out[i] = int64(v)
		}
	default:
		return nil, errors.New("unknown decoder")
	}
	return out, nil
}

// decodeAll decodes n values of the whole stream into st.ints.
func (st *seqStream) decodeAll(t testing.TB, f *exFile, n int64) error {
	v, err := st.read(st.newDecoder(f.inStream(t, st.stored)), n)
	if err != nil {
		return fmt.Errorf("%v: decoding %d values: %w", st.kind, n, err)
	}
	st.ints = v
	return nil
}

// expected returns the n values from index i on.
func (st *seqStream) expected(i, n int64) []int64 {
	if st.codec != codecRaw {
		return st.ints[i : i+n]
	}
	out := make([]int64, n)
	for k := range out {
		out[k] = int64(st.raw[i+int64(k)])
	}
	return out
}

// total returns the stream's value (or byte) count.
func (st *seqStream) total() int64 { return st.starts[len(st.starts)-1] }

// seek positions in by pos (the stream's share of an entry) and returns a
// decoder ready to read the group's first value.
func (st *seqStream) seek(in *format.InStream, pos []uint64) (any, error) {
	pp := format.NewPositionProvider(pos)
	if err := in.Seek(pp); err != nil {
		return nil, err
	}
	d := st.newDecoder(in)
	var err error
	switch d := d.(type) {
	case *format.BoolRLEDecoder:
		var k, bits uint64
		if k, err = pp.Next(); err == nil {
			if bits, err = pp.Next(); err == nil {
				err = d.SeekTo(int64(k), int(bits))
			}
		}
	case *format.ByteRLEDecoder:
		var k uint64
		if k, err = pp.Next(); err == nil {
			err = d.Skip(int64(k))
		}
	case format.IntDecoder:
		var k uint64
		if k, err = pp.Next(); err == nil {
			err = d.Skip(int64(k))
		}
	}
	if err == nil && pp.Remaining() != 0 {
		err = fmt.Errorf("%d positions left over", pp.Remaining())
	}
	return d, err
}
