package reader

// Seeking to a row group. Each column's row index entry lists the positions
// of its streams at the group's first row, in an order the specification
// fixes: PRESENT (when the stripe has it) then the type's streams. A column
// reader consumes its numbers from a PositionProvider in that order: for
// each stream the InStream moves to the chunk and offset, the decoder is
// reset, and the values the writer still held in an unfinished run are
// skipped. Children seek to their own entry of the same group: every column
// records its positions at the same top-level rows.

import (
	"fmt"

	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// seekPresent positions the PRESENT stream, if the stripe has one.
func (p *presence) seekPresent(pp *format.PositionProvider) error {
	if !p.has {
		return nil
	}
	return p.wrap(seekBool(p.presentIn, p.present, pp), "PRESENT")
}

// seekBool positions a boolean RLE stream: stream position, byte-RLE run
// values, bits.
func seekBool(in *format.InStream, d *format.BoolRLEDecoder, pp *format.PositionProvider) error {
	n, err := seekRun(in, d, pp)
	if err != nil {
		return err
	}
	bits, err := pp.Next()
	if err != nil {
		return err
	}
	if bits > 7 {
		return errPosition("bit offset", bits)
	}
	return d.SeekTo(int64(n), int(bits))
}

// seekByte positions a byte RLE stream: stream position, run values.
func seekByte(in *format.InStream, d *format.ByteRLEDecoder, pp *format.PositionProvider) error {
	n, err := seekRun(in, d, pp)
	if err != nil {
		return err
	}
	return d.Skip(int64(n))
}

// seekInt positions an integer RLE stream: stream position, run values.
func seekInt(in *format.InStream, d format.IntDecoder, pp *format.PositionProvider) error {
	n, err := seekRun(in, d, pp)
	if err != nil {
		return err
	}
	if n > 1<<20 {
		return errPosition("run offset", n)
	}
	return d.Skip(int64(n))
}

// seekRun seeks in to pp's stream position and points the run decoder d
// at it; it returns the position's next value, the values of the run
// there that come before the row group.
func seekRun(in *format.InStream, d interface{ Reset(format.ChunkSource) }, pp *format.PositionProvider) (uint64, error) {
	if err := in.Seek(pp); err != nil {
		return 0, err
	}
	d.Reset(in)
	return pp.Next()
}

// seekRaw positions a raw byte stream read through a ByteReader.
func seekRaw(in *format.InStream, r *format.ByteReader, pp *format.PositionProvider) error {
	if err := in.Seek(pp); err != nil {
		return err
	}
	r.Reset(in)
	return nil
}

// positioned is a column reader as seeking sees it: for each stream kind
// its row-index entries list, the stream and the decoder reading it.
type positioned interface {
	streamAt(kind orcpb.Stream_Kind) (*format.InStream, any)
}

// seekStreams positions the column's streams at a row group from pp, in
// the order of format.PositionedStreams (the writer's and rowindex's
// table): PRESENT first when the stripe has it, then each stream of the
// type with what its codec takes. dictionary and decimal64 pick the
// encoding's streams.
func (p *presence) seekStreams(c positioned, dictionary, decimal64 bool, pp *format.PositionProvider) error {
	if err := p.seekPresent(pp); err != nil {
		return err
	}
	for _, ps := range format.PositionedStreams(p.node.Kind, dictionary, decimal64) {
		in, dec := c.streamAt(ps.Kind)
		if err := seekStream(in, dec, ps.Codec, pp); err != nil {
			return p.wrap(err, ps.Kind.String())
		}
	}
	return nil
}

// seekStream positions one stream and its decoder as codec says.
func seekStream(in *format.InStream, dec any, codec format.PosCodec, pp *format.PositionProvider) error {
	switch d := dec.(type) {
	case *format.ByteReader:
		if codec == format.PosRaw {
			return seekRaw(in, d, pp)
		}
	case *format.ByteRLEDecoder:
		if codec == format.PosRLE {
			return seekByte(in, d, pp)
		}
	case *format.BoolRLEDecoder:
		if codec == format.PosBool {
			return seekBool(in, d, pp)
		}
	case format.IntDecoder:
		if codec == format.PosRLE {
			return seekInt(in, d, pp)
		}
	}
	return fmt.Errorf("orc: internal error: a %T stream cannot take positions of codec %d", dec, codec)
}

func (c *boolReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *boolReader) streamAt(orcpb.Stream_Kind) (*format.InStream, any) { return c.dataIn, c.data }

func (c *byteReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *byteReader) streamAt(orcpb.Stream_Kind) (*format.InStream, any) { return c.dataIn, c.data }

func (c *intReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *intReader) streamAt(orcpb.Stream_Kind) (*format.InStream, any) { return c.dataIn, c.data }

func (c *floatReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *floatReader) streamAt(orcpb.Stream_Kind) (*format.InStream, any) { return c.dataIn, &c.data }

func (c *bytesReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, c.dict, false, pp)
}

func (c *bytesReader) streamAt(kind orcpb.Stream_Kind) (*format.InStream, any) {
	switch {
	case kind == orcpb.Stream_LENGTH:
		return c.lengthIn, c.lengths
	case c.dict:
		return c.dataIn, c.ids
	}
	return c.dataIn, &c.data
}

func (c *decimalReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, c.data64 != nil, pp)
}

func (c *decimalReader) streamAt(kind orcpb.Stream_Kind) (*format.InStream, any) {
	switch {
	case kind == orcpb.Stream_SECONDARY:
		return c.scaleIn, c.scales
	case c.data64 != nil:
		return c.dataIn, c.data64
	}
	return c.dataIn, &c.data
}

func (c *timestampReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *timestampReader) streamAt(kind orcpb.Stream_Kind) (*format.InStream, any) {
	if kind == orcpb.Stream_SECONDARY {
		return c.nanoIn, c.nanos
	}
	return c.dataIn, c.secs
}

func (c *structReader) seek(pp *format.PositionProvider) error { return c.seekPresent(pp) }

func (c *lengthsBase) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *lengthsBase) streamAt(orcpb.Stream_Kind) (*format.InStream, any) {
	return c.lengthIn, c.lengths
}

func (c *unionReader) seek(pp *format.PositionProvider) error {
	return c.seekStreams(c, false, false, pp)
}

func (c *unionReader) streamAt(orcpb.Stream_Kind) (*format.InStream, any) { return c.tagsIn, c.tags }

// children returns a reader's child readers, for walking the tree.
func children(c columnReader) []columnReader {
	switch r := c.(type) {
	case *structReader:
		return r.fields
	case *listReader:
		return []columnReader{r.elem}
	case *mapReader:
		return []columnReader{r.keys, r.values}
	case *unionReader:
		return r.kids
	}
	return nil
}
