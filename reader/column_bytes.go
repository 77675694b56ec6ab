package reader

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// bytesReader reads STRING, VARCHAR, CHAR and BINARY.
//
// DIRECT(_V2): LENGTH holds each value's byte length (unsigned RLE), DATA the
// bytes back to back. DICTIONARY(_V2): DATA holds dictionary ids (unsigned
// RLE), LENGTH the dictionary entries' lengths (dictionary_size of them),
// DICTIONARY_DATA the entries' bytes; the dictionary is loaded whole per
// stripe.
type bytesReader struct {
	presence
	dict bool

	dataIn, lengthIn *format.InStream
	lengths          format.IntDecoder // direct: value lengths
	ids              format.IntDecoder // dictionary: ids
	data             format.ByteReader // direct: value bytes
	lens             []int64
	dataLimit        int64
	dictionary       stripeDictionary

	mem     *budget // WithMaxScanMemory
	memData int64   // bytes held for a batch's values
}

// stripeDictionary is a dictionary-encoded string column's dictionary in
// the current stripe.
type stripeDictionary struct {
	in      *format.InStream // its DICTIONARY_DATA stream
	data    []byte           // the entries, one after another
	offsets []int            // entry i is data[offsets[i]:offsets[i+1]]
	longest int              // longest entry
	mem     int64            // bytes held for it in the memory budget
}

func (c *bytesReader) startStripe(ctx *stripeCtx) error {
	if err := c.startPresence(ctx); err != nil {
		return err
	}
	kind, enc, err := ctx.meta.encoding(c.id)
	if err != nil {
		return err
	}
	v2 := isV2(kind)
	c.mem = ctx.mem
	if err := c.mem.set(&c.dictionary.mem, 0, nil); err != nil {
		return err
	}
	switch kind {
	case orcpb.ColumnEncoding_DIRECT, orcpb.ColumnEncoding_DIRECT_V2:
		c.dict = false
		if _, err := ctx.open(&c.dataIn, c.id, orcpb.Stream_DATA, true); err != nil {
			return err
		}
		if _, err := ctx.open(&c.lengthIn, c.id, orcpb.Stream_LENGTH, true); err != nil {
			return err
		}
		c.data.Reset(c.dataIn)
		intDecoder(ctx.pool, &c.lengths, c.lengthIn, false, v2)
		c.dataLimit = ctx.maxBytes(c.id, orcpb.Stream_DATA)
	case orcpb.ColumnEncoding_DICTIONARY, orcpb.ColumnEncoding_DICTIONARY_V2:
		if c.node.Kind == orc.Binary {
			return ctx.corrupt(c.id, "stripe footer", "binary column has encoding %s", kind)
		}
		c.dict = true
		if _, err := ctx.open(&c.dataIn, c.id, orcpb.Stream_DATA, true); err != nil {
			return err
		}
		intDecoder(ctx.pool, &c.ids, c.dataIn, false, v2)
		if err := c.loadDictionary(ctx, int64(enc.dictSize), v2); err != nil {
			return err
		}
	default:
		return ctx.corrupt(c.id, "stripe footer", "%s column has encoding %s", c.node.Kind, kind)
	}
	return nil
}

func (c *bytesReader) loadDictionary(ctx *stripeCtx, size int64, v2 bool) error {
	if size > ctx.maxValues {
		return ctx.corrupt(c.id, "stripe footer", "dictionary size %d exceeds what the stripe can hold", size)
	}
	// The offsets grow as the LENGTH stream yields entries: a footer's
	// claim of millions of entries costs nothing until they decode.
	c.dictionary.offsets = append(c.dictionary.offsets[:0], 0)
	c.dictionary.data = c.dictionary.data[:0]
	c.dictionary.longest = 0
	if size == 0 {
		return nil
	}
	if _, err := ctx.open(&c.lengthIn, c.id, orcpb.Stream_LENGTH, true); err != nil {
		return err
	}
	dl := intDecoder(ctx.pool, &c.lengths, c.lengthIn, false, v2)
	limit := ctx.maxBytes(c.id, orcpb.Stream_DICTIONARY_DATA)
	var total int64
	for done := int64(0); done < size; {
		m := size - done
		if m > 4096 {
			m = 4096
		}
		c.lens = grow(c.lens, int(m))
		if err := dl.Next(c.lens); err != nil {
			return c.wrap(err, "LENGTH")
		}
		if err := c.mem.set(&c.dictionary.mem, 8*(done+m+1), func() string {
			return fmt.Sprintf("the dictionary offsets of column %d in stripe %d", c.id, ctx.meta.index)
		}); err != nil {
			return err
		}
		for i, l := range c.lens {
			if l < 0 || l > limit-total {
				return ctx.corrupt(c.id, "LENGTH", "dictionary entry %d has length %d (at most %d bytes remain)", done+int64(i), l, limit-total)
			}
			total += l
			c.dictionary.offsets = append(c.dictionary.offsets, int(total))
			c.dictionary.longest = max(c.dictionary.longest, int(l))
		}
		done += m
	}
	if total > ctx.maxDict {
		return fmt.Errorf("%w: column %d's dictionary in stripe %d has %d bytes, over the limit of %d (WithMaxDictionarySize)",
			orc.ErrLimit, c.id, ctx.meta.index, total, ctx.maxDict)
	}
	if err := c.mem.set(&c.dictionary.mem, 8*(size+1)+total, func() string {
		return fmt.Sprintf("the dictionary of column %d in stripe %d", c.id, ctx.meta.index)
	}); err != nil {
		return err
	}
	if _, err := ctx.open(&c.dictionary.in, c.id, orcpb.Stream_DICTIONARY_DATA, total > 0); err != nil {
		return err
	}
	c.dictionary.data = grow(c.dictionary.data, int(total)+dictSlack)
	if total > 0 {
		var br format.ByteReader
		br.Reset(c.dictionary.in)
		if err := br.ReadFull(c.dictionary.data[:total]); err != nil {
			return c.wrap(err, "DICTIONARY_DATA")
		}
	}
	return nil
}

func (c *bytesReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.BytesVector)
	k, err := c.readNulls(&vec.Nulls, n, parentNulls)
	if err != nil {
		return err
	}
	c.lens = grow(c.lens, k)
	vec.Offsets = grow(vec.Offsets, n+1)
	vec.Offsets[0] = 0
	if c.dict {
		if err := c.ids.Next(c.lens); err != nil {
			return c.wrap(err, "DATA")
		}
		return c.copyFromDictionary(vec, n)
	}
	if err := c.lengths.Next(c.lens); err != nil {
		return c.wrap(err, "LENGTH")
	}
	var total int64
	nulls := vec.Nulls.Nulls
	if len(nulls) == 0 {
		// The offsets are the running total.
		out := vec.Offsets[1 : len(c.lens)+1]
		for i, l := range c.lens {
			if l < 0 || l > c.dataLimit-total {
				return c.badLength(l)
			}
			total += l
			out[i] = int(total)
		}
	} else {
		for _, l := range c.lens {
			if l < 0 || l > c.dataLimit-total {
				return c.badLength(l)
			}
			total += l
		}
		j := 0
		off := 0
		for i := 0; i < n; i++ {
			if !nulls[i] {
				off += int(c.lens[j])
				j++
			}
			vec.Offsets[i+1] = off
		}
	}
	if err := c.holdData(total); err != nil {
		return err
	}
	vec.Data = grow(vec.Data, int(total))
	if err := c.data.ReadFull(vec.Data); err != nil {
		return c.wrap(err, "DATA")
	}
	return nil
}

// badLength reports a value length that is negative or longer than what
// the DATA stream can hold.
func (c *bytesReader) badLength(l int64) error {
	return c.wrap(orc.Corruptf("value length %d exceeds the stream's %d bytes", l, c.dataLimit), "LENGTH")
}

func (c *bytesReader) skip(n int64) error {
	k, err := c.skipNulls(n)
	if err != nil {
		return err
	}
	if c.dict {
		return c.wrap(c.ids.Skip(k), "DATA")
	}
	for k > 0 {
		m := min(k, 4096)
		var total int64
		// A run of one length (fixed-width values such as UUIDs) is
		// summed without decoding it.
		l, r, err := c.lengths.NextRepeat(int(m))
		if err != nil {
			return c.wrap(err, "LENGTH")
		}
		if r > 0 {
			if l < 0 || l > c.dataLimit {
				return c.badLength(l)
			}
			total, m = l*int64(r), int64(r) // at most 4096 times the limit
		} else {
			c.lens = grow(c.lens, int(m))
			if err := c.lengths.Next(c.lens); err != nil {
				return c.wrap(err, "LENGTH")
			}
			for _, l := range c.lens {
				if l < 0 || l > c.dataLimit {
					return c.badLength(l)
				}
				total += l
			}
		}
		if err := c.data.Skip(total); err != nil {
			return c.wrap(err, "DATA")
		}
		k -= m
	}
	return nil
}

// copyFromDictionary fills vec with the dictionary entries named by the ids
// in c.lens (one per non-null row).
func (c *bytesReader) copyFromDictionary(vec *orc.BytesVector, n int) error {
	ids := c.lens
	offs := c.dictionary.offsets
	dict := c.dictionary.data
	nd := uint64(len(offs) - 1) // offsets has one entry more than the dictionary
	if c.dictionary.longest <= dictSlack {
		return c.copyShortEntries(vec, n)
	}
	total := 0
	for _, id := range ids {
		if uint64(id) >= nd {
			return c.badID(id, nd)
		}
		total += offs[id+1] - offs[id]
	}
	if err := c.holdData(int64(total)); err != nil {
		return err
	}
	// Both buffers have dictSlack spare bytes at the end, so short entries
	// are copied with one fixed-size move instead of a memmove call.
	data := grow(vec.Data, total+dictSlack)
	out := vec.Offsets[:n+1]
	pos := 0
	if nulls := vec.Nulls.Nulls; len(nulls) > 0 {
		j := 0
		for i := 0; i < n; i++ {
			if !nulls[i] {
				id := ids[j]
				j++
				pos = copyEntry(data, pos, dict, offs[id], offs[id+1])
			}
			out[i+1] = pos
		}
	} else {
		for i, id := range ids[:n] {
			pos = copyEntry(data, pos, dict, offs[id], offs[id+1])
			out[i+1] = pos
		}
	}
	vec.Data = data[:total]
	return nil
}

// copyShortEntries is copyFromDictionary for a dictionary whose entries
// are all at most dictSlack bytes long: the output is sized (and charged
// to the memory budget) for the longest entry on every row, at most
// dictSlack bytes a row, so ids are checked and entries copied in one
// pass, one fixed-size move each.
func (c *bytesReader) copyShortEntries(vec *orc.BytesVector, n int) error {
	ids := c.lens
	offs := c.dictionary.offsets
	dict := c.dictionary.data
	nd := uint64(len(offs) - 1)
	if err := c.holdData(int64(len(ids) * c.dictionary.longest)); err != nil {
		return err
	}
	data := grow(vec.Data, len(ids)*c.dictionary.longest+dictSlack)
	out := vec.Offsets[:n+1]
	pos := 0
	if nulls := vec.Nulls.Nulls; len(nulls) > 0 {
		j := 0
		for i := 0; i < n; i++ {
			if !nulls[i] {
				id := ids[j]
				j++
				if uint64(id) >= nd {
					return c.badID(id, nd)
				}
				s := offs[id]
				move32(data[pos:pos+dictSlack], dict[s:s+dictSlack])
				pos += offs[id+1] - s
			}
			out[i+1] = pos
		}
	} else if out = out[1 : len(ids)+1]; c.dictionary.longest <= 8 {
		// Flags and codes (TPC-H's l_returnflag, l_shipmode): one
		// 8-byte move each.
		for i, id := range ids {
			if uint64(id) >= nd {
				return c.badID(id, nd)
			}
			s := offs[id]
			*(*[8]byte)(data[pos : pos+8]) = *(*[8]byte)(dict[s : s+8])
			pos += offs[id+1] - s
			out[i] = pos
		}
	} else {
		for i, id := range ids {
			if uint64(id) >= nd {
				return c.badID(id, nd)
			}
			s := offs[id]
			move32(data[pos:pos+dictSlack], dict[s:s+dictSlack])
			pos += offs[id+1] - s
			out[i] = pos
		}
	}
	vec.Data = data[:pos]
	return nil
}

// badID reports a dictionary id out of range.
func (c *bytesReader) badID(id int64, nd uint64) error {
	return c.wrap(orc.Corruptf("dictionary id %d out of range 0..%d", id, int64(nd)-1), "DATA")
}

// holdData charges a batch's string bytes to the scan's memory budget.
func (c *bytesReader) holdData(n int64) error {
	if c.mem == nil || n <= c.memData {
		return nil
	}
	return c.mem.set(&c.memData, n, func() string { return fmt.Sprintf("a batch of column %d", c.id) })
}

// dictSlack is the spare room after dictionary and output buffers.
const dictSlack = 32

// copyEntry copies dict[s:e] to data[pos:] and returns the new end.
func copyEntry(data []byte, pos int, dict []byte, s, e int) int {
	if e-s <= dictSlack {
		move32(data[pos:pos+dictSlack], dict[s:s+dictSlack])
		return pos + e - s
	}
	return pos + copy(data[pos:], dict[s:e])
}

// move32 copies the 32 bytes of src to dst as two 16-byte moves, which the
// compiler keeps in registers (a 32-byte array copy calls memmove).
func move32(dst, src []byte) {
	*(*[16]byte)(dst[:16]) = *(*[16]byte)(src[:16])
	*(*[16]byte)(dst[16:32]) = *(*[16]byte)(src[16:32])
}
