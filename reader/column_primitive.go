package reader

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// nextValues is what next does for every column of one value a row: it
// reads the nulls of n rows into nulls, grows *vals to n rows, has decode
// fill the first k of them (k the rows not null), and spreads those to
// their rows. decode's errors are returned as they are.
func nextValues[T any](p *presence, nulls *orc.Nulls, vals *[]T, n int, parentNulls []bool, decode func(vals []T) error) error {
	k, err := p.readNulls(nulls, n, parentNulls)
	if err != nil {
		return err
	}
	*vals = grow(*vals, n)
	if err := decode((*vals)[:k]); err != nil {
		return err
	}
	if k < n {
		spread(*vals, k, nulls.Nulls)
	}
	return nil
}

// boolReader reads BOOLEAN: DATA is boolean RLE.
type boolReader struct {
	presence
	dataIn *format.InStream
	data   *format.BoolRLEDecoder
	buf    []bool
}

func (c *boolReader) startStripe(ctx *stripeCtx) error {
	_, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA)
	if err == nil {
		ctx.pool.bindBool(&c.data, c.dataIn)
	}
	return err
}

func (c *boolReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.LongVector)
	return nextValues(&c.presence, &vec.Nulls, &vec.Values, n, parentNulls, func(vals []int64) error {
		c.buf = grow(c.buf, len(vals))
		if err := c.data.Next(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		vals = vals[:len(c.buf)]
		for i, b := range c.buf {
			var x int64
			if b {
				x = 1
			}
			vals[i] = x
		}
		return nil
	})
}

func (c *boolReader) skip(n int64) error { return c.skipData(c.data, n, 1) }

// byteReader reads TINYINT: DATA is byte RLE of signed bytes.
type byteReader struct {
	presence
	dataIn *format.InStream
	data   *format.ByteRLEDecoder
	buf    []byte
}

func (c *byteReader) startStripe(ctx *stripeCtx) error {
	_, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA)
	if err == nil {
		ctx.pool.bindByte(&c.data, c.dataIn)
	}
	return err
}

func (c *byteReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.LongVector)
	return nextValues(&c.presence, &vec.Nulls, &vec.Values, n, parentNulls, func(vals []int64) error {
		c.buf = grow(c.buf, len(vals))
		if err := c.data.Next(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		for i, b := range c.buf {
			vals[i] = int64(int8(b))
		}
		return nil
	})
}

func (c *byteReader) skip(n int64) error { return c.skipData(c.data, n, 1) }

// intReader reads SMALLINT, INT, BIGINT and DATE: DATA is signed integer RLE.
type intReader struct {
	presence
	dataIn *format.InStream
	data   format.IntDecoder
}

func (c *intReader) startStripe(ctx *stripeCtx) error {
	v2, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA)
	if err != nil {
		return err
	}
	intDecoder(ctx.pool, &c.data, c.dataIn, true, v2)
	return nil
}

func (c *intReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.LongVector)
	return nextValues(&c.presence, &vec.Nulls, &vec.Values, n, parentNulls, func(vals []int64) error {
		return c.wrap(c.data.Next(vals), "DATA")
	})
}

func (c *intReader) skip(n int64) error { return c.skipData(c.data, n, 1) }

// littleEndian says whether this machine stores numbers as ORC's FLOAT and
// DOUBLE streams do, so that their bytes can be a vector's.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// floatReader reads FLOAT (4-byte) and DOUBLE (8-byte) little-endian IEEE 754.
type floatReader struct {
	presence
	is32   bool
	dataIn *format.InStream
	data   format.ByteReader
	buf    []byte
}

func (c *floatReader) startStripe(ctx *stripeCtx) error {
	if _, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA); err != nil {
		return err
	}
	c.data.Reset(c.dataIn)
	return nil
}

func (c *floatReader) width() int {
	if c.is32 {
		return 4
	}
	return 8
}

func (c *floatReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.DoubleVector)
	return nextValues(&c.presence, &vec.Nulls, &vec.Values, n, parentNulls, c.decode)
}

// decode reads the values of vals' rows.
func (c *floatReader) decode(vals []float64) error {
	k := len(vals)
	switch {
	case !c.is32 && littleEndian && k > 0:
		// The stream's bytes are the vector's: one copy, no loop.
		raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vals))), 8*k)
		if err := c.data.ReadFull(raw); err != nil {
			return c.wrap(err, "DATA")
		}
	case c.is32:
		c.buf = grow(c.buf, 4*k)
		if err := c.data.ReadFull(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		if littleEndian && k > 0 {
			for i, v := range unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(c.buf))), k) {
				vals[i] = float64(v)
			}
		} else {
			for i := range vals {
				vals[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(c.buf[4*i:])))
			}
		}
	default:
		c.buf = grow(c.buf, 8*k)
		if err := c.data.ReadFull(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(c.buf[8*i:]))
		}
	}
	return nil
}

func (c *floatReader) skip(n int64) error { return c.skipData(&c.data, n, int64(c.width())) }
