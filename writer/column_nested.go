package writer

import (
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// structWriter writes STRUCT: PRESENT only; fields are parallel to the
// struct and skip its null rows.
type structWriter struct {
	colBase
	fields []columnWriter
	mask   []bool
}

func (c *structWriter) children() []columnWriter { return c.fields }

func (c *structWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	vec := v.(*orc.StructVector)
	nulls, k := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	for i := 0; i < k; i++ {
		c.group.AddValue()
	}
	var mask []bool
	if nulls != nil {
		c.mask = append(c.mask[:0], nulls...)
		mask = c.mask
	}
	for i, f := range c.fields {
		if err := f.write(vec.Fields[i], start, end, mask); err != nil {
			return err
		}
	}
	return nil
}

// writeRoot writes a batch's columns as the root struct's fields; the root
// itself is never null.
func (c *structWriter) writeRoot(cols []orc.Vector, start, end int) error {
	c.writeRootSelf(start, end)
	for i, f := range c.fields {
		if err := f.write(cols[i], start, end, nil); err != nil {
			return err
		}
	}
	return nil
}

// writeRootSelf writes the root's own part of rows [start, end): present
// bits (none are null) and the value count.
func (c *structWriter) writeRootSelf(start, end int) {
	c.writeNulls(nil, start, end, nil)
	for i := start; i < end; i++ {
		c.group.AddValue()
	}
}

func (c *structWriter) encoding() *orcpb.ColumnEncoding { return direct() }

// listWriter writes LIST and MAP: LENGTH holds each non-null row's number
// of children (unsigned RLE v2); children hold the elements back to back.
type listWriter struct {
	colBase
	lengthOut *format.OutStream
	lengths   *format.IntRLEv2Encoder
	kids      []columnWriter
	elem      columnWriter // list element, or map key
	value     columnWriter // map value
}

func (c *listWriter) children() []columnWriter { return c.kids }

func (w *Writer) newListWriter(node *orc.Schema) *listWriter {
	c := &listWriter{colBase: w.newBase(node)}
	c.lengths = format.NewIntRLEv2Encoder((*lazySink)(&c.colBase), false)
	return c
}

func (c *listWriter) ownStream(i int) (encStream, bool) {
	return encStream{orcpb.Stream_LENGTH, 1, &c.lengthOut, c.lengths}, i == 0
}

func (c *listWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	var offs []int64
	var nullMask []bool
	var kids []orc.Vector
	switch vec := v.(type) {
	case *orc.ListVector:
		offs, nullMask, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Elem}
	case *orc.MapVector:
		offs, nullMask, kids = vec.Offsets, vec.Nulls.Nulls, []orc.Vector{vec.Keys, vec.Values}
	}
	nulls, _ := c.writeNulls(nullMask, start, end, parentNulls)
	// Children of rows that are null or under a null parent are not
	// written. The batch check ensures null rows own no children, but rows
	// whose parent is null (a null struct, another union variant) hold
	// unspecified values and may own some: write the children in runs
	// that leave those out.
	from := int(offs[start])
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			if offs[i+1] != offs[i] {
				if err := c.writeKids(kids, from, int(offs[i])); err != nil {
					return err
				}
				from = int(offs[i+1])
			}
			continue
		}
		n := offs[i+1] - offs[i]
		if err := c.lengths.Write(n); err != nil {
			return err
		}
		c.group.AddChildren(uint64(n))
		if bf != nil {
			bf.AddLong(n)
		}
	}
	return c.writeKids(kids, from, int(offs[end]))
}

// writeKids writes child entries [from, to).
func (c *listWriter) writeKids(kids []orc.Vector, from, to int) error {
	if from == to {
		return nil
	}
	if err := c.elem.write(kids[0], from, to, nil); err != nil {
		return err
	}
	if c.value != nil {
		return c.value.write(kids[1], from, to, nil)
	}
	return nil
}

func (c *listWriter) encoding() *orcpb.ColumnEncoding { return directV2() }

// unionWriter writes UNION: DATA holds each non-null row's tag (byte RLE);
// variant i gets the rows tagged i.
type unionWriter struct {
	colBase
	dataOut *format.OutStream
	tags    *format.ByteRLEEncoder
	masks   [][]bool
	kids    []columnWriter // the variants
}

func (c *unionWriter) children() []columnWriter { return c.kids }

func (w *Writer) newUnionWriter(node *orc.Schema) *unionWriter {
	c := &unionWriter{colBase: w.newBase(node)}
	c.tags = format.NewByteRLEEncoder((*lazySink)(&c.colBase))
	c.masks = make([][]bool, len(node.Children))
	return c
}

func (c *unionWriter) ownStream(i int) (encStream, bool) {
	return encStream{orcpb.Stream_DATA, 1, &c.dataOut, c.tags}, i == 0
}

func (c *unionWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.UnionVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	for t := range c.masks {
		c.masks[t] = grow(c.masks[t], end-start)
		for i := range c.masks[t] {
			c.masks[t][i] = true
		}
	}
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		t := vec.Tags[i]
		if int(t) >= len(c.kids) {
			return errTag(c.node, i, t)
		}
		c.masks[t][i-start] = false
		if err := c.tags.Write(t); err != nil {
			return err
		}
		c.group.AddValue()
		if bf != nil {
			bf.AddLong(int64(t))
		}
	}
	for t, k := range c.kids {
		if err := k.write(vec.Children[t], start, end, c.masks[t]); err != nil {
			return err
		}
	}
	return nil
}

func (c *unionWriter) encoding() *orcpb.ColumnEncoding { return direct() }
