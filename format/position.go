package format

// Row-index positions. A RowIndexEntry's positions field is one flat list of
// uint64s: for each stream of the column, in a fixed order, the stream's
// place (one number uncompressed: byte offset; two compressed: chunk header
// offset, offset in the decompressed chunk), then what the decoder on top of
// it needs (values already buffered in the current run, bits used in the
// current byte). The readers of a column take their numbers from one
// PositionProvider in that order.

import (
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// PositionProvider hands out the positions of one row-index entry in order.
// Each stream of a column consumes its share when it seeks (InStream.Seek:
// one number uncompressed, two compressed), then each decoder on top of it
// takes its own (values to skip in a run, bits consumed in a byte).
type PositionProvider struct {
	pos  []uint64
	next int
}

// NewPositionProvider returns a provider over pos. It keeps pos, which must
// not change while the provider is in use.
func NewPositionProvider(pos []uint64) *PositionProvider {
	return &PositionProvider{pos: pos}
}

// Reset starts over with another entry's positions.
func (p *PositionProvider) Reset(pos []uint64) {
	p.pos = pos
	p.next = 0
}

// Next returns the next position. A row-index entry with too few positions
// for its column's streams gives an error wrapping orc.ErrCorrupt.
func (p *PositionProvider) Next() (uint64, error) {
	if p.next >= len(p.pos) {
		return 0, orc.Corruptf("row index entry has only %d positions, stream needs more", len(p.pos))
	}
	v := p.pos[p.next]
	p.next++
	return v, nil
}

// Remaining returns how many positions have not been consumed.
func (p *PositionProvider) Remaining() int { return len(p.pos) - p.next }

// The order of a column's streams in its row-index entries is one table,
// PositionedStreams: the writer emits each entry by walking it (asking each
// stream for its place and each encoder for what it holds), rowindex.Layout
// derives the numbers each stream takes from it and documents it
// (rowindex/layout.go), and a reader seeks each stream in the same walk.

// PosCodec is how a stream's values are encoded, as far as positions go:
// it fixes the numbers that follow the stream's place in an entry.
type PosCodec uint8

const (
	// PosRaw is a stream of bytes read as they are (float and double
	// DATA, string and binary DATA, decimal DATA): the place alone.
	PosRaw PosCodec = iota + 1
	// PosRLE is byte RLE or integer RLE v1/v2: the place, then the values
	// of the run that come before the row group.
	PosRLE
	// PosBool is boolean RLE (PRESENT, boolean DATA): the place, the bytes
	// of the byte-RLE run before the group, then the bits of the next
	// byte already used (0..7).
	PosBool
)

// Numbers returns how many position numbers a stream of codec c takes in
// an entry: its place (1 number uncompressed; 2 compressed: the chunk's
// offset and the offset in the decompressed chunk), then 0, 1 or 2 for the
// decoder. It is 0 for an unknown codec.
func (c PosCodec) Numbers(compressed bool) int {
	n := 0
	switch c {
	case PosRaw:
		n = 1
	case PosRLE:
		n = 2
	case PosBool:
		n = 3
	default:
		return 0
	}
	if compressed {
		n++
	}
	return n
}

// PositionedStream is one stream with positions in a row-index entry: its
// kind and its codec.
type PositionedStream struct {
	Kind  orcpb.Stream_Kind
	Codec PosCodec
}

// PresentPositions is the PRESENT stream's share of an entry. It comes
// first, and only in the entries of a stripe that has a PRESENT stream for
// the column.
var PresentPositions = PositionedStream{orcpb.Stream_PRESENT, PosBool}

// The streams after PRESENT, by type and encoding; shared, never modified.
var (
	posBool       = []PositionedStream{{orcpb.Stream_DATA, PosBool}}
	posDataRLE    = []PositionedStream{{orcpb.Stream_DATA, PosRLE}}
	posDataRaw    = []PositionedStream{{orcpb.Stream_DATA, PosRaw}}
	posDataLength = []PositionedStream{{orcpb.Stream_DATA, PosRaw}, {orcpb.Stream_LENGTH, PosRLE}}
	posDataScale  = []PositionedStream{{orcpb.Stream_DATA, PosRaw}, {orcpb.Stream_SECONDARY, PosRLE}}
	posDataNanos  = []PositionedStream{{orcpb.Stream_DATA, PosRLE}, {orcpb.Stream_SECONDARY, PosRLE}}
	posLength     = []PositionedStream{{orcpb.Stream_LENGTH, PosRLE}}
	posNone       = []PositionedStream{}
)

// PositionedStreams returns, in entry order, the streams after PRESENT
// whose positions make up a row-index entry of a column of kind k.
// dictionary says the column is dictionary-encoded (DICTIONARY or
// DICTIONARY_V2; see IsDictionary); it matters only for STRING, CHAR,
// VARCHAR, GEOMETRY and GEOGRAPHY, whose dictionary's LENGTH and
// DICTIONARY_DATA are read whole and have no positions. decimal64 says a
// DECIMAL column is stored as RLE v2 unscaled longs with no SECONDARY
// stream (file version UNSTABLE-PRE-2.0, precision <= 18). STRUCT and
// unknown kinds have none. The slice is shared: callers must not modify
// it.
func PositionedStreams(k orc.Kind, dictionary, decimal64 bool) []PositionedStream {
	switch k {
	case orc.Boolean:
		return posBool
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date, orc.Union:
		return posDataRLE // a union's DATA is its tags
	case orc.Float, orc.Double:
		return posDataRaw
	case orc.String, orc.Char, orc.Varchar, orc.Geometry, orc.Geography:
		// Geometry is written direct, but readers (Apache C++) accept it
		// as a dictionary too.
		if dictionary {
			return posDataRLE
		}
		return posDataLength
	case orc.Binary:
		return posDataLength
	case orc.Decimal:
		if decimal64 {
			return posDataRLE
		}
		return posDataScale
	case orc.Timestamp, orc.TimestampInstant:
		return posDataNanos
	case orc.List, orc.Map:
		return posLength
	}
	return posNone
}

// IsDictionary reports whether enc is a dictionary encoding, as
// PositionedStreams's dictionary argument wants.
func IsDictionary(enc orcpb.ColumnEncoding_Kind) bool {
	return enc == orcpb.ColumnEncoding_DICTIONARY || enc == orcpb.ColumnEncoding_DICTIONARY_V2
}
