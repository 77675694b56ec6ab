package format

// Row-index positions. A RowIndexEntry's positions field is one flat list of
// uint64s: for each stream of the column, in a fixed order, the stream's
// place (one number uncompressed: byte offset; two compressed: chunk header
// offset, offset in the decompressed chunk), then what the decoder on top of
// it needs (values already buffered in the current run, bits used in the
// current byte). The readers of a column take their numbers from one
// PositionProvider in that order.

import "github.com/orcgo/orc"

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
