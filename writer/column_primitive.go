package writer

import (
	"encoding/binary"
	"math"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// gatherLongs returns the values of rows [start, end) that have one.
func gatherLongs(dst, vals []int64, start, end int, nulls []bool) []int64 {
	if nulls == nil {
		return vals[start:end]
	}
	dst = dst[:0]
	for i := start; i < end; i++ {
		if !nulls[i-start] {
			dst = append(dst, vals[i])
		}
	}
	return dst
}

// boolWriter writes BOOLEAN: DATA is boolean RLE.
type boolWriter struct {
	colBase
	dataOut *format.OutStream
	data    *format.BoolRLEEncoder
}

func (w *Writer) newBoolWriter(node *orc.Schema) *boolWriter {
	c := &boolWriter{colBase: w.newBase(node)}
	c.data = format.NewBoolRLEEncoder((*lazySink)(&c.colBase))
	return c
}

func (c *boolWriter) ownStream(i int) (encStream, bool) {
	return encStream{orcpb.Stream_DATA, 0, &c.dataOut, c.data}, i == 0
}

func (c *boolWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	vec := v.(*orc.LongVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		b := vec.Values[i] != 0
		c.data.Write(b)
		c.group.AddBool(b)
	}
	return nil
}

func (c *boolWriter) encoding() *orcpb.ColumnEncoding { return direct() }

// byteWriter writes TINYINT: DATA is byte RLE.
type byteWriter struct {
	colBase
	dataOut *format.OutStream
	data    *format.ByteRLEEncoder
}

func (w *Writer) newByteWriter(node *orc.Schema) *byteWriter {
	c := &byteWriter{colBase: w.newBase(node)}
	c.data = format.NewByteRLEEncoder((*lazySink)(&c.colBase))
	return c
}

func (c *byteWriter) ownStream(i int) (encStream, bool) {
	return encStream{orcpb.Stream_DATA, 1, &c.dataOut, c.data}, i == 0
}

func (c *byteWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.LongVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		x := vec.Values[i]
		if x < math.MinInt8 || x > math.MaxInt8 {
			return errRange(c.node, i, x)
		}
		c.data.Write(byte(int8(x)))
		c.group.AddInt(x)
		if bf != nil {
			bf.AddLong(x)
		}
	}
	return nil
}

func (c *byteWriter) encoding() *orcpb.ColumnEncoding { return direct() }

// intWriter writes SMALLINT, INT, BIGINT and DATE: DATA is signed RLE v2.
// Its stream is made at its first byte (lazySink), and its encoder at its
// third value in a stripe (or run of row groups): up to two values are
// held in the writer itself (heldInts), which a serial writer encodes, at
// the run's end, with an encoder it lends every such column in turn
// (Writer.lentInts). A wide schema has a column writer a column, most of
// them holding a value or two: with an encoder of its own, 112 bytes and
// its values' room, a column writer took 232 bytes, now 144.
type intWriter struct {
	colBase
	dataOut *format.OutStream
	data    *format.IntRLEv2Encoder // nil until made (ownEncoder)
	held    [heldIntsMax]int64      // values not given to an encoder yet, while data is nil
	nheld   int
}

// heldIntsMax is how many values an intWriter holds without an encoder.
// An RLE v2 encoder writes nothing before its fourth value (a run of
// three equal values, then another), so that the bytes, the positions
// (Buffered) and the size estimate are those of an encoder holding them.
const heldIntsMax = 2

func (w *Writer) newIntWriter(node *orc.Schema) *intWriter {
	return &intWriter{colBase: w.newBase(node)}
}

func (c *intWriter) ownStream(i int) (encStream, bool) {
	var enc runEncoder = (*heldInts)(c)
	if c.data != nil {
		enc = c.data
	}
	return encStream{orcpb.Stream_DATA, 2, &c.dataOut, enc}, i == 0
}

// ownEncoder gives the column an encoder of its own, first encoding the
// values it holds.
func (c *intWriter) ownEncoder() error {
	c.data = format.NewIntRLEv2Encoder((*lazySink)(&c.colBase), true)
	err := c.data.WriteValues(c.held[:c.nheld])
	c.nheld = 0
	return err
}

// heldInts is an intWriter without an encoder of its own, as the
// column's streams see it (ownStream): the encoder of the values it holds.
type heldInts intWriter

// Buffered returns the values held, as an encoder holding them would.
func (h *heldInts) Buffered() int { return h.nheld }

// Reset drops the values held, as an encoder's Reset does.
func (h *heldInts) Reset(format.Sink) { h.nheld = 0 }

// Flush encodes the values held into the column's stream: with the
// encoder the writer lends, unless the columns are written in parallel,
// where the column takes one of its own.
func (h *heldInts) Flush() error {
	c := (*intWriter)(h)
	if c.nheld == 0 {
		return nil
	}
	if c.w.par != nil {
		if err := c.ownEncoder(); err != nil {
			return err
		}
		return c.data.Flush()
	}
	e := c.w.lentInts
	if e == nil {
		e = format.NewIntRLEv2Encoder((*lazySink)(&c.colBase), true)
	} else {
		e.Reset((*lazySink)(&c.colBase))
	}
	err := e.WriteValues(c.held[:c.nheld])
	if err == nil {
		err = e.Flush()
	}
	c.nheld = 0
	e.Reset(nil)
	c.w.lentInts = e
	return err
}

// intRange returns the range of the integer kind k (SMALLINT, INT and
// DATE, or BIGINT).
func intRange(k orc.Kind) (lo, hi int64) {
	switch k {
	case orc.Short:
		return math.MinInt16, math.MaxInt16
	case orc.Int, orc.Date:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func (c *intWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.LongVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	var vals []int64
	if nulls != nil {
		r := c.rare // made by writeNulls
		r.longs = gatherLongs(r.longs, vec.Values, start, end, nulls)
		vals = r.longs
	} else {
		vals = vec.Values[start:end]
	}
	if c.node.Kind != orc.Long {
		lo, hi := intRange(c.node.Kind)
		for _, x := range vals {
			if x < lo || x > hi {
				return errRange(c.node, -1, x)
			}
		}
	}
	if err := c.encode(vals); err != nil {
		return err
	}
	c.group.AddLongs(vals, nil)
	if bf != nil {
		for _, x := range vals {
			bf.AddLong(x)
		}
	}
	return nil
}

// encode gives vals to the column's encoder, or holds them while they
// fit (heldInts).
func (c *intWriter) encode(vals []int64) error {
	if c.data == nil {
		if c.nheld+len(vals) <= heldIntsMax {
			c.nheld += copy(c.held[c.nheld:], vals)
			return nil
		}
		if err := c.ownEncoder(); err != nil {
			return err
		}
	}
	return c.data.WriteValues(vals)
}

func (c *intWriter) encoding() *orcpb.ColumnEncoding { return directV2() }

// floatWriter writes FLOAT (4 bytes) and DOUBLE (8 bytes), little-endian.
type floatWriter struct {
	colBase
	is32    bool
	dataOut *format.OutStream
	buf     []byte
}

func (w *Writer) newFloatWriter(node *orc.Schema) *floatWriter {
	c := &floatWriter{colBase: w.newBase(node), is32: node.Kind == orc.Float}
	return c
}

func (c *floatWriter) ownStream(i int) (encStream, bool) {
	return encStream{orcpb.Stream_DATA, 0, &c.dataOut, nil}, i == 0
}

func (c *floatWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.DoubleVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	if nulls == nil && !c.is32 && bf == nil {
		return c.writeDoubleRun(vec.Values[start:end])
	}
	buf := c.buf[:0]
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		x := vec.Values[i]
		if c.is32 {
			f := float32(x)
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
			x = float64(f)
		} else {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
		}
		c.group.AddDouble(x)
		if bf != nil {
			bf.AddDouble(x)
		}
	}
	c.buf = buf
	_, err := c.firstOut().Write(buf)
	return err
}

// writeDoubleRun is write for DOUBLE values with no nulls and no bloom
// filter: the bytes in one pass, the statistics in another.
func (c *floatWriter) writeDoubleRun(vals []float64) error {
	buf := grow(c.buf, 8*len(vals))
	for i, b := 0, buf; i < len(vals) && len(b) >= 8; i, b = i+1, b[8:] {
		binary.LittleEndian.PutUint64(b, math.Float64bits(vals[i]))
	}
	c.buf = buf
	c.group.AddDoubles(vals, nil)
	_, err := c.firstOut().Write(buf)
	return err
}

func (c *floatWriter) encoding() *orcpb.ColumnEncoding { return direct() }
