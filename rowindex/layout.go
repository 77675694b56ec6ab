package rowindex

// The positions of one row-index entry.
//
// # Format
//
// RowIndexEntry.positions (field 1, packed uint64) is one flat list: for each
// stream of the column, in the fixed order below (not the physical order of
// the streams in the stripe), the stream's place at the start of the row
// group, then what the decoder on top of it needs:
//
//	stream place     uncompressed: [byte offset]                  1 number
//	                 compressed:   [chunk header offset,          2 numbers
//	                                offset in decompressed chunk]
//	byte RLE, int RLE v1/v2:  place + [values of the run before the group]
//	boolean RLE:              place + [bytes of the byte-RLE run before the
//	                                   group] + [bits of the next byte used]
//
// so a stream takes, uncompressed/compressed:
//
//	raw bytes (float/double DATA, string/binary DATA, decimal DATA)  1/2
//	byte RLE and integer RLE                                         2/3
//	boolean RLE (PRESENT, boolean DATA)                              3/4
//
// and a column's entry is (format.PositionedStreams holds this table;
// Layout, the writer and the reader all follow it)
//
//	[PRESENT 3/4, only when this stripe has a PRESENT stream for the column]
//	then by type:
//	BOOLEAN                 DATA 3/4
//	BYTE                    DATA 2/3
//	SHORT INT LONG DATE     DATA 2/3
//	FLOAT DOUBLE            DATA 1/2
//	STRING CHAR VARCHAR     direct: DATA 1/2, LENGTH 2/3
//	                        dictionary: DATA 2/3 (the dictionary's LENGTH
//	                        and DICTIONARY_DATA have no positions: they are
//	                        read whole)
//	BINARY                  DATA 1/2, LENGTH 2/3
//	DECIMAL                 DATA 1/2, SECONDARY 2/3
//	                        decimal64 (file version UNSTABLE-PRE-2.0,
//	                        precision <= 18): DATA 2/3
//	TIMESTAMP(_INSTANT)     DATA 2/3, SECONDARY 2/3
//	STRUCT                  nothing
//	LIST MAP                LENGTH 2/3
//	UNION                   DATA 2/3 (the tags)
//
// Writers record PRESENT's numbers for every column and strip them from every
// entry of a stripe in which the column had no nulls (and so no PRESENT
// stream), so whether they are there is decided by the stripe's streams.
//
// Entry 0 is the start of every stream, all zeros, whatever it holds: Java
// ORC never reads it (it starts group 0 at offset 0 and does not seek), and
// its writer leaves it empty for a string column turned from dictionary to
// direct encoding (Apache's TestStringDictionary.testRowIndex.orc).
// NewStreamIndex follows suit.

import (
	"fmt"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// Slot is one stream's share of a row-index entry: the stream and how many
// position numbers it takes.
type Slot struct {
	Kind  orcpb.Stream_Kind
	Count int
}

// Numbers a stream takes when uncompressed; compressed streams take one more.
var (
	rawCount  = format.PosRaw.Numbers(false)  // byte offset
	rleCount  = format.PosRLE.Numbers(false)  // byte offset, values to skip
	boolCount = format.PosBool.Numbers(false) // byte offset, bytes to skip, bits to skip
)

// Layout returns, in order, the streams whose positions make up one entry of
// the row index of a column of type t in a stripe where the column has
// encoding enc: hasPresent says whether the stripe has a PRESENT stream for
// the column, compressed whether the file has a codec, decimal64 whether a
// DECIMAL column is stored as RLE v2 unscaled longs with no SECONDARY stream
// (file version UNSTABLE-PRE-2.0, precision <= 18).
//
// enc matters only for STRING, CHAR and VARCHAR (DICTIONARY and
// DICTIONARY_V2 leave out LENGTH); other kinds have one layout whatever the
// encoding. A nil t gives the PRESENT slot alone (or nothing).
func Layout(t *orc.Schema, enc orcpb.ColumnEncoding_Kind, hasPresent, compressed, decimal64 bool) []Slot {
	out := make([]Slot, 0, 3)
	if hasPresent {
		p := format.PresentPositions
		out = append(out, Slot{Kind: p.Kind, Count: p.Codec.Numbers(compressed)})
	}
	if t == nil {
		return out
	}
	for _, p := range format.PositionedStreams(t.Kind, format.IsDictionary(enc), decimal64) {
		out = append(out, Slot{Kind: p.Kind, Count: p.Codec.Numbers(compressed)})
	}
	return out
}

// width returns how many position numbers an entry with the given layout
// holds.
func width(layout []Slot) int {
	n := 0
	for _, s := range layout {
		n += s.Count
	}
	return n
}

// checkLayout rejects hand-made layouts with negative counts.
func checkLayout(layout []Slot) error {
	for _, s := range layout {
		if s.Count < 0 {
			return fmt.Errorf("rowindex: layout slot %v has a negative count %d", s.Kind, s.Count)
		}
	}
	return nil
}

// layoutString names a layout for error messages: "PRESENT 3 + DATA 2".
func layoutString(layout []Slot) string {
	if len(layout) == 0 {
		return "no streams"
	}
	var b strings.Builder
	for i, s := range layout {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%v %d", s.Kind, s.Count)
	}
	return b.String()
}

// Split cuts one entry's positions into one slice per slot of layout, in
// order. The slices share positions' memory (capped, so appending to one does
// not overwrite the next). An entry with more or fewer numbers than the
// slots take gives an error wrapping orc.ErrCorrupt.
func Split(positions []uint64, layout []Slot) ([][]uint64, error) {
	if err := checkLayout(layout); err != nil {
		return nil, err
	}
	if w := width(layout); len(positions) != w {
		return nil, orc.Corruptf("row index entry has %d positions, the column's streams (%s) take %d",
			len(positions), layoutString(layout), w)
	}
	out := make([][]uint64, len(layout))
	off := 0
	for i, s := range layout {
		out[i] = positions[off : off+s.Count : off+s.Count]
		off += s.Count
	}
	return out, nil
}
