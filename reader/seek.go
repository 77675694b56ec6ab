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
	"github.com/orcgo/orc/format"
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
	if err := in.Seek(pp); err != nil {
		return err
	}
	d.Reset(in)
	n, err := pp.Next()
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
	if err := in.Seek(pp); err != nil {
		return err
	}
	d.Reset(in)
	n, err := pp.Next()
	if err != nil {
		return err
	}
	return d.Skip(int64(n))
}

// seekInt positions an integer RLE stream: stream position, run values.
func seekInt(in *format.InStream, d format.IntDecoder, pp *format.PositionProvider) error {
	if err := in.Seek(pp); err != nil {
		return err
	}
	d.Reset(in)
	n, err := pp.Next()
	if err != nil {
		return err
	}
	if n > 1<<20 {
		return errPosition("run offset", n)
	}
	return d.Skip(int64(n))
}

// seekRaw positions a raw byte stream read through a ByteReader.
func seekRaw(in *format.InStream, r *format.ByteReader, pp *format.PositionProvider) error {
	if err := in.Seek(pp); err != nil {
		return err
	}
	r.Reset(in)
	return nil
}

func (c *boolReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekBool(c.dataIn, c.data, pp), "DATA")
}

func (c *byteReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekByte(c.dataIn, c.data, pp), "DATA")
}

func (c *intReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekInt(c.dataIn, c.data, pp), "DATA")
}

func (c *floatReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekRaw(c.dataIn, &c.data, pp), "DATA")
}

func (c *bytesReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	if c.dict {
		return c.wrap(seekInt(c.dataIn, c.ids, pp), "DATA")
	}
	if err := seekRaw(c.dataIn, &c.data, pp); err != nil {
		return c.wrap(err, "DATA")
	}
	return c.wrap(seekInt(c.lengthIn, c.lengths, pp), "LENGTH")
}

func (c *decimalReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	if c.data64 != nil {
		return c.wrap(seekInt(c.dataIn, c.data64, pp), "DATA")
	}
	if err := seekRaw(c.dataIn, &c.data, pp); err != nil {
		return c.wrap(err, "DATA")
	}
	return c.wrap(seekInt(c.scaleIn, c.scales, pp), "SECONDARY")
}

func (c *timestampReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	if err := seekInt(c.dataIn, c.secs, pp); err != nil {
		return c.wrap(err, "DATA")
	}
	return c.wrap(seekInt(c.nanoIn, c.nanos, pp), "SECONDARY")
}

func (c *structReader) seek(pp *format.PositionProvider) error { return c.seekPresent(pp) }

func (c *lengthsBase) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekInt(c.lengthIn, c.lengths, pp), "LENGTH")
}

func (c *unionReader) seek(pp *format.PositionProvider) error {
	if err := c.seekPresent(pp); err != nil {
		return err
	}
	return c.wrap(seekByte(c.tagsIn, c.tags, pp), "DATA")
}

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
