package writer

import (
	"encoding/binary"
	"math"
	"math/bits"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// decimalWriter writes DECIMAL: DATA holds each unscaled value as a zigzag
// varint, SECONDARY the scale of each value (always the column's scale),
// signed RLE v2.
type decimalWriter struct {
	colBase
	dataOut, scaleOut *format.OutStream
	scales            *format.IntRLEv2Encoder
	limit             orc.Int128 // 10^precision
	buf               []byte
	scaleRun          []int64 // the scale, once per value of a write, for one WriteValues
}

func (w *Writer) newDecimalWriter(node *orc.Schema) *decimalWriter {
	c := &decimalWriter{colBase: w.newBase(node), dataOut: w.newStream(), scaleOut: w.newStream(),
		limit: orc.Pow10(node.Precision)}
	c.scales = format.NewIntRLEv2Encoder(c.scaleOut, true)
	return c
}

func (c *decimalWriter) ownStream(i int) (encStream, bool) {
	switch i {
	case 0:
		return encStream{orcpb.Stream_DATA, 0, &c.dataOut, nil}, true
	case 1:
		return encStream{orcpb.Stream_SECONDARY, 1, &c.scaleOut, c.scales}, true
	}
	return encStream{}, false
}

func (c *decimalWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.DecimalVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	var n int // values written
	var ok bool
	if vec.Scale == c.node.Scale && bf == nil {
		n, ok = c.write64(vec.Values[start:end], nulls)
	}
	if !ok {
		buf := c.buf[:0]
		n = 0
		for i := start; i < end; i++ {
			if nulls != nil && nulls[i-start] {
				continue
			}
			x := vec.Values[i]
			if vec.Scale != c.node.Scale {
				// Exact, and within the precision: checkBatch saw to it.
				x, _, _ = orc.Rescale(x, vec.Scale, c.node.Scale)
			}
			buf = format.AppendVarint128(buf, x)
			n++
			c.group.AddDecimal(x)
			if bf != nil {
				bf.AddString(orc.CanonicalDecimal(x, c.node.Scale))
			}
		}
		c.buf = buf
	}
	if len(c.scaleRun) < n {
		c.scaleRun = make([]int64, n)
		for i := range c.scaleRun {
			c.scaleRun[i] = int64(c.node.Scale)
		}
	}
	if err := c.scales.WriteValues(c.scaleRun[:n]); err != nil {
		return err
	}
	_, err := c.dataOut.Write(c.buf)
	return err
}

// write64 is write's loop for values at the column's scale that all fit an
// int64 unscaled (decimals of up to 18 digits always do), with no bloom
// filter: varints of 64 bits, and the statistics kept in locals and added
// once. It returns the number of values written into c.buf, and false
// (having written nothing) when a value is wider or the statistics
// decline.
func (c *decimalWriter) write64(vals []orc.Int128, nulls []bool) (int, bool) {
	for _, x := range vals {
		if !x.IsInt64() {
			// A null row's value may be anything: the general loop
			// skips it as it should.
			return 0, false
		}
	}
	buf := c.buf[:0]
	mn, mx := int64(math.MaxInt64), int64(math.MinInt64)
	var sumLo uint64
	var sumHi int64
	n := 0
	for i, x := range vals {
		if nulls != nil && nulls[i] {
			continue
		}
		v := int64(x.Lo)
		mn, mx = min(mn, v), max(mx, v)
		var carry uint64
		sumLo, carry = bits.Add64(sumLo, uint64(v), 0)
		sumHi += v>>63 + int64(carry)
		// AppendVarint128 of a value that fits 64 bits: the zigzag's
		// high word is 0.
		buf = binary.AppendUvarint(buf, uint64(v<<1)^uint64(v>>63))
		n++
	}
	if !c.group.AddDecimal64s(mn, mx, orc.Int128{Hi: sumHi, Lo: sumLo}, uint64(n)) {
		return 0, false
	}
	c.buf = buf
	return n, true
}

func (c *decimalWriter) encoding() *orcpb.ColumnEncoding { return directV2() }

// timestampEpoch2015 is 2015-01-01 00:00:00 UTC in Unix seconds.
const timestampEpoch2015 = 1420070400

// timestampWriter writes TIMESTAMP and TIMESTAMP_INSTANT: DATA holds seconds
// since 2015-01-01 00:00:00 in the writer zone (UTC for instants), signed
// RLE v2; SECONDARY the nanoseconds with trailing zeros folded, unsigned
// RLE v2.
type timestampWriter struct {
	colBase
	dataOut, nanoOut  *format.OutStream
	secs, nanos       *format.IntRLEv2Encoder
	zone              *time.Location // nil for UTC
	epoch             int64
	secBatch, nsBatch []int64 // a write's values, for one WriteValues each
}

func (w *Writer) newTimestampWriter(node *orc.Schema) *timestampWriter {
	c := &timestampWriter{colBase: w.newBase(node), dataOut: w.newStream(), nanoOut: w.newStream(), epoch: timestampEpoch2015}
	c.secs = format.NewIntRLEv2Encoder(c.dataOut, true)
	c.nanos = format.NewIntRLEv2Encoder(c.nanoOut, false)
	if node.Kind == orc.Timestamp && w.cfg.zone != time.UTC {
		c.zone = w.cfg.zone
		c.epoch = time.Date(2015, 1, 1, 0, 0, 0, 0, c.zone).Unix()
	}
	return c
}

func (c *timestampWriter) ownStream(i int) (encStream, bool) {
	switch i {
	case 0:
		return encStream{orcpb.Stream_DATA, 3, &c.dataOut, c.secs}, true
	case 1:
		return encStream{orcpb.Stream_SECONDARY, 0, &c.nanoOut, c.nanos}, true
	}
	return encStream{}, false
}

// encodeNanos folds trailing decimal zeros into the low 3 bits.
func encodeNanos(n int64) int64 {
	if n == 0 {
		return 0
	}
	if n%100 != 0 {
		return n << 3
	}
	n /= 100
	z := int64(1)
	for n%10 == 0 && z < 7 {
		n /= 10
		z++
	}
	return n<<3 | z
}

func (c *timestampWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.TimestampVector)
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	if nulls == nil && c.zone == nil {
		return c.writeInstantRun(vec, start, end)
	}
	secs, nss := c.secBatch[:0], c.nsBatch[:0]
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		sec, ns := vec.Seconds[i], vec.Nanos[i]
		if ns < 0 || ns > 999_999_999 {
			return errNanos(c.node, i, ns)
		}
		instant := sec
		if c.zone != nil {
			t := time.Unix(sec, 0).UTC()
			instant = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, c.zone).Unix()
		}
		stored := instant - c.epoch
		// Readers take back one second for negative times with at least a
		// millisecond of fraction (Java's truncating division); match them.
		if instant < 0 && ns > 999_999 {
			stored++
		}
		secs = append(secs, stored)
		nss = append(nss, encodeNanos(int64(ns)))
		// Statistics and bloom filters describe the value readers get
		// back, which is not always the one written: a wall clock in a
		// DST gap names no instant and reads back moved across the gap,
		// and an instant in (-1 s, 0) with a millisecond or more of
		// fraction reads back one second late (the quirk above). Pruning
		// by the written value would skip rows that hold the value read.
		back := stored + c.epoch
		if back < 0 && ns > 999_999 {
			back--
		}
		if c.zone != nil {
			_, off := time.Unix(back, 0).In(c.zone).Zone()
			back += int64(off)
		}
		c.group.AddTimestamp(back, ns)
		if bf != nil {
			bf.AddLong(back*1000 + int64(ns)/1_000_000)
		}
	}
	c.secBatch, c.nsBatch = secs, nss
	if err := c.secs.WriteValues(secs); err != nil {
		return err
	}
	return c.nanos.WriteValues(nss)
}

// writeInstantRun is write for a run of values with no nulls and no time
// zone to convert from: each value's stored seconds and nanoseconds in one
// loop, then the statistics over the run at once. The values read back are
// the seconds written, except for the quirk write describes: an instant in
// (-1 s, 0) with a millisecond or more of fraction reads back as 0 s,
// which sends the run through the value-by-value statistics.
func (c *timestampWriter) writeInstantRun(vec *orc.TimestampVector, start, end int) error {
	bf := c.bloomFilter()
	seconds, nanos := vec.Seconds[start:end], vec.Nanos[start:end]
	nanos = nanos[:len(seconds)]
	secs, nss := c.secBatch[:0], c.nsBatch[:0]
	epoch := c.epoch
	quirk := false
	for i, sec := range seconds {
		ns := nanos[i]
		if ns < 0 || ns > 999_999_999 {
			return errNanos(c.node, start+i, ns)
		}
		stored := sec - epoch
		if sec < 0 && ns > 999_999 {
			stored++
			quirk = quirk || sec == -1
		}
		secs = append(secs, stored)
		nss = append(nss, encodeNanos(int64(ns)))
	}
	c.secBatch, c.nsBatch = secs, nss
	if !quirk {
		c.group.AddTimestamps(seconds, nanos, nil)
	}
	if quirk || bf != nil {
		for i, sec := range seconds {
			ns := nanos[i]
			back := sec
			if sec == -1 && ns > 999_999 {
				back = 0
			}
			if quirk {
				c.group.AddTimestamp(back, ns)
			}
			if bf != nil {
				bf.AddLong(back*1000 + int64(ns)/1_000_000)
			}
		}
	}
	if err := c.secs.WriteValues(secs); err != nil {
		return err
	}
	return c.nanos.WriteValues(nss)
}

func (c *timestampWriter) encoding() *orcpb.ColumnEncoding { return directV2() }
