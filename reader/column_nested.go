package reader

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// structReader reads STRUCT: only PRESENT; fields are parallel to the struct.
type structReader struct {
	presence
	fields []columnReader
}

func (c *structReader) startStripe(ctx *stripeCtx) error {
	if err := c.startPresence(ctx); err != nil {
		return err
	}
	return startColumns(ctx, c.fields...)
}

// startColumns starts each of cols on the stripe.
func startColumns(ctx *stripeCtx, cols ...columnReader) error {
	for _, c := range cols {
		if err := c.startStripe(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (c *structReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.StructVector)
	if _, err := c.readNulls(&vec.Nulls, n, parentNulls); err != nil {
		return err
	}
	vec.N = n
	var mask []bool
	if len(vec.Nulls.Nulls) > 0 {
		mask = vec.Nulls.Nulls
	}
	for i, f := range c.fields {
		if err := f.next(vec.Fields[i], n, mask); err != nil {
			return err
		}
	}
	return nil
}

func (c *structReader) skip(n int64) error {
	k, err := c.skipNulls(n)
	if err != nil {
		return err
	}
	for _, f := range c.fields {
		if err := f.skip(k); err != nil {
			return err
		}
	}
	return nil
}

// lengthsBase reads the LENGTH stream of lists and maps.
type lengthsBase struct {
	presence
	lengthIn   *format.InStream
	lengths    format.IntDecoder
	lens       []int64
	limit      int64 // children the stripe can hold
	batchLimit int64 // WithMaxNestedValues
	mem        *budget
	memKids    int64 // bytes charged for a batch's children
}

func (c *lengthsBase) startLengths(ctx *stripeCtx) error {
	v2, err := c.startDirect(ctx, &c.lengthIn, orcpb.Stream_LENGTH)
	if err != nil {
		return err
	}
	intDecoder(ctx.pool, &c.lengths, c.lengthIn, false, v2)
	c.limit = ctx.maxValues
	c.batchLimit = ctx.maxNested
	c.mem = ctx.mem
	return nil
}

// readOffsets fills offsets for n rows and returns the number of children.
func (c *lengthsBase) readOffsets(nulls *orc.Nulls, offsets *[]int64, n int, parentNulls []bool) (int64, error) {
	k, err := c.readNulls(nulls, n, parentNulls)
	if err != nil {
		return 0, err
	}
	c.lens = grow(c.lens, k)
	if err := c.lengths.Next(c.lens); err != nil {
		return 0, c.wrap(err, "LENGTH")
	}
	offs := grow(*offsets, n+1)
	offs[0] = 0
	var total int64
	j := 0
	for i := 0; i < n; i++ {
		if len(nulls.Nulls) == 0 || !nulls.Nulls[i] {
			l := c.lens[j]
			j++
			if l < 0 || l > c.limit-total {
				return 0, c.badLength(l)
			}
			total += l
		}
		offs[i+1] = total
	}
	*offsets = offs
	if total > c.batchLimit {
		return 0, fmt.Errorf("%w: %s column %d has %d children in one batch, over the limit of %d (WithMaxNestedValues)",
			orc.ErrLimit, c.node.Kind, c.id, total, c.batchLimit)
	}
	if c.mem != nil && 8*total > c.memKids {
		if err := c.mem.set(&c.memKids, 8*total, func() string {
			return fmt.Sprintf("a batch of %s column %d (%d children)", c.node.Kind, c.id, total)
		}); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// skipLengths reads n rows' lengths and returns the number of children.
func (c *lengthsBase) skipLengths(n int64) (int64, error) {
	k, err := c.skipNulls(n)
	if err != nil {
		return 0, err
	}
	var total int64
	for k > 0 {
		m := min(k, 4096)
		// A run of one length (fixed-size lists) is summed without
		// decoding it.
		l, r, err := c.lengths.NextRepeat(int(m))
		if err != nil {
			return 0, c.wrap(err, "LENGTH")
		}
		if r > 0 {
			if l < 0 || l > (c.limit-total)/int64(r) {
				return 0, c.badLength(l)
			}
			total += l * int64(r)
			k -= int64(r)
			continue
		}
		c.lens = grow(c.lens, int(m))
		if err := c.lengths.Next(c.lens); err != nil {
			return 0, c.wrap(err, "LENGTH")
		}
		for _, l := range c.lens {
			if l < 0 || l > c.limit-total {
				return 0, c.badLength(l)
			}
			total += l
		}
		k -= m
	}
	return total, nil
}

// badLength reports a length that is negative or more than the stripe can
// hold.
func (c *lengthsBase) badLength(l int64) error {
	return c.wrap(orc.Corruptf("%s length %d is negative or more than the stripe can hold", c.node.Kind, l), "LENGTH")
}

// listReader reads LIST: LENGTH per non-null row, then the elements.
type listReader struct {
	lengthsBase
	elem columnReader
}

func (c *listReader) startStripe(ctx *stripeCtx) error {
	if err := c.startLengths(ctx); err != nil {
		return err
	}
	return c.elem.startStripe(ctx)
}

func (c *listReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.ListVector)
	total, err := c.readOffsets(&vec.Nulls, &vec.Offsets, n, parentNulls)
	if err != nil {
		return err
	}
	return c.elem.next(vec.Elem, int(total), nil)
}

func (c *listReader) skip(n int64) error {
	total, err := c.skipLengths(n)
	if err != nil {
		return err
	}
	return c.elem.skip(total)
}

// mapReader reads MAP: LENGTH per non-null row, then keys and values.
type mapReader struct {
	lengthsBase
	keys, values columnReader
}

func (c *mapReader) startStripe(ctx *stripeCtx) error {
	if err := c.startLengths(ctx); err != nil {
		return err
	}
	return startColumns(ctx, c.keys, c.values)
}

func (c *mapReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.MapVector)
	total, err := c.readOffsets(&vec.Nulls, &vec.Offsets, n, parentNulls)
	if err != nil {
		return err
	}
	if err := c.keys.next(vec.Keys, int(total), nil); err != nil {
		return err
	}
	return c.values.next(vec.Values, int(total), nil)
}

func (c *mapReader) skip(n int64) error {
	total, err := c.skipLengths(n)
	if err != nil {
		return err
	}
	if err := c.keys.skip(total); err != nil {
		return err
	}
	return c.values.skip(total)
}

// unionReader reads UNION: DATA holds each non-null row's tag (byte RLE);
// variant i holds the rows tagged i.
type unionReader struct {
	presence
	kids   []columnReader
	tagsIn *format.InStream
	tags   *format.ByteRLEDecoder
	buf    []byte
	masks  [][]bool
	counts []int64 // rows per variant, while skipping
}

func (c *unionReader) startStripe(ctx *stripeCtx) error {
	if err := c.startPresence(ctx); err != nil {
		return err
	}
	if _, err := ctx.open(&c.tagsIn, c.id, orcpb.Stream_DATA, true); err != nil {
		return err
	}
	ctx.pool.bindByte(&c.tags, c.tagsIn)
	return startColumns(ctx, c.kids...)
}

func (c *unionReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.UnionVector)
	// A null row's tag is 0 (spread), and no variant's.
	err := nextValues(&c.presence, &vec.Nulls, &vec.Tags, n, parentNulls, func(tags []byte) error {
		return c.wrap(c.tags.Next(tags), "DATA")
	})
	if err != nil {
		return err
	}
	if len(c.masks) < len(c.kids) {
		c.masks = make([][]bool, len(c.kids))
	}
	for t := range c.kids {
		c.masks[t] = grow(c.masks[t], n)
		for i := range c.masks[t] {
			c.masks[t][i] = true
		}
	}
	for i, t := range vec.Tags[:n] {
		if len(vec.Nulls.Nulls) > 0 && vec.Nulls.Nulls[i] {
			continue
		}
		if int(t) >= len(c.kids) {
			return c.wrap(orc.Corruptf("union tag %d but the type has %d variants", t, len(c.kids)), "DATA")
		}
		c.masks[t][i] = false
	}
	for t, kid := range c.kids {
		if err := kid.next(vec.Children[t], n, c.masks[t]); err != nil {
			return err
		}
	}
	return nil
}

func (c *unionReader) skip(n int64) error {
	k, err := c.skipNulls(n)
	if err != nil {
		return err
	}
	c.counts = grow(c.counts, len(c.kids))
	counts := c.counts
	clear(counts)
	for k > 0 {
		m := k
		if m > 4096 {
			m = 4096
		}
		c.buf = grow(c.buf, int(m))
		if err := c.tags.Next(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		for _, t := range c.buf {
			if int(t) >= len(c.kids) {
				return c.wrap(orc.Corruptf("union tag %d but the type has %d variants", t, len(c.kids)), "DATA")
			}
			counts[t]++
		}
		k -= m
	}
	for t, kid := range c.kids {
		if err := kid.skip(counts[t]); err != nil {
			return err
		}
	}
	return nil
}
