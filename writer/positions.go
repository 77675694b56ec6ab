package writer

import (
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// A row-index entry is emitted from format's table of positions
// (format.PositionedStreams): each column writer only says which of its streams
// and encoders is which (streamAt), so the order of the streams and the
// numbers each takes have one owner.

// streamer is a column writer as entry positions see it.
type streamer interface {
	// streamAt returns the column's stream of the given kind and the
	// encoder writing to it (nil for a stream of bytes written as they
	// are), for the kinds format.PositionedStreams lists for the column.
	streamAt(kind orcpb.Stream_Kind) (*format.OutStream, any)
}

// runHolder is an RLE encoder: byte RLE, integer RLE v1 and v2.
type runHolder interface{ Buffered() int }

// appendStream appends the position of stream out, whose encoder enc
// encodes with codec: the stream's place, then what the encoder holds.
func appendStream(dst []uint64, codec format.PosCodec, out *format.OutStream, enc any) []uint64 {
	dst = out.AppendPosition(dst)
	switch codec {
	case format.PosRLE:
		dst = append(dst, uint64(enc.(runHolder).Buffered()))
	case format.PosBool:
		bytes, bits := enc.(*format.BoolRLEEncoder).Buffered()
		dst = append(dst, uint64(bytes), uint64(bits))
	}
	return dst
}

// appendStreams appends the positions of the streams list names, in its
// order, taking each from s.
func appendStreams(dst []uint64, list []format.PositionedStream, s streamer) []uint64 {
	for _, p := range list {
		out, enc := s.streamAt(p.Kind)
		dst = appendStream(dst, p.Codec, out, enc)
	}
	return dst
}

// positions appends the entry of a column stored directly (not as a
// dictionary): PRESENT's position (or notes it, presentPositions), then
// its streams in format.PositionedStreams's order.
func (b *colBase) positions(dst []uint64, s streamer) []uint64 {
	dst = b.presentPositions(dst)
	return appendStreams(dst, format.PositionedStreams(b.node.Kind, false, false), s)
}
