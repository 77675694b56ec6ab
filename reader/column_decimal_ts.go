package reader

import (
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// decimalReader reads DECIMAL. Usual form: DATA holds each unscaled value as
// a zigzag varint of up to 128 bits, SECONDARY each value's scale (signed
// RLE); values are rescaled to the column's scale. decimal64 form (file
// version UNSTABLE-PRE-2.0, precision <= 18): DATA is signed RLE v2 of the
// unscaled values at the column's scale, with no SECONDARY.
type decimalReader struct {
	presence
	decimal64 bool

	dataIn, scaleIn *format.InStream
	data            format.ByteReader
	data64          format.IntDecoder
	scales          format.IntDecoder
	buf             []int64
	// bound is the last batch's bound on its values' magnitudes (every
	// |v| < 2^bound, null rows' zeros included), when known: the exact
	// filter takes it (takeBound) for sarg.ColumnBounds. It is computed
	// only with wantBound (a predicate column's reader).
	bound      int
	boundKnown bool
	wantBound  bool
}

// takeBound returns the bound of the batch next read last, if known, and
// forgets it, so that a batch this reader did not decode gets none.
func (c *decimalReader) takeBound() (int, bool) {
	b, ok := c.bound, c.boundKnown
	c.boundKnown = false
	return b, ok
}

func (c *decimalReader) startStripe(ctx *stripeCtx) error {
	v2, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA)
	if err != nil {
		return err
	}
	hasScale := ctx.meta.has(c.id, orcpb.Stream_SECONDARY)
	if c.decimal64 && !hasScale {
		intDecoder(ctx.pool, &c.data64, c.dataIn, true, true)
		c.scales = nil
		return nil
	}
	c.data.Reset(c.dataIn)
	if _, err := ctx.open(&c.scaleIn, c.id, orcpb.Stream_SECONDARY, true); err != nil {
		return err
	}
	intDecoder(ctx.pool, &c.scales, c.scaleIn, true, v2)
	c.data64 = nil
	return nil
}

func (c *decimalReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.DecimalVector)
	vec.Scale = c.node.Scale
	c.boundKnown = false
	return nextValues(&c.presence, &vec.Nulls, &vec.Values, n, parentNulls, c.decode)
}

// decode reads the values of vals' rows.
func (c *decimalReader) decode(vals []orc.Int128) error {
	k := len(vals)
	c.buf = grow(c.buf, k)
	if c.data64 != nil {
		if err := c.data64.Next(c.buf); err != nil {
			return c.wrap(err, "DATA")
		}
		for i, u := range c.buf {
			vals[i] = orc.Int128FromInt64(u)
		}
	} else {
		if c.wantBound {
			bound, err := c.data.ReadVarint128sBound(vals)
			if err != nil {
				return c.wrap(err, "DATA")
			}
			c.bound, c.boundKnown = bound, true
		} else if err := c.data.ReadVarint128s(vals); err != nil {
			return c.wrap(err, "DATA")
		}
		// Writers give every value the column's scale, so SECONDARY is
		// runs of one value: those are checked once, not per value.
		for i := 0; i < k; {
			s, m, err := c.scales.NextRepeat(k - i)
			if err != nil {
				return c.wrap(err, "SECONDARY")
			}
			if m == 0 {
				scales := c.buf[:k-i]
				if err := c.scales.Next(scales); err != nil {
					return c.wrap(err, "SECONDARY")
				}
				for j, s := range scales {
					if err := c.rescale(vals[i+j:i+j+1], s); err != nil {
						return err
					}
				}
				break
			}
			if err := c.rescale(vals[i:i+m], s); err != nil {
				return err
			}
			i += m
		}
	}
	return nil
}

// rescale brings vals, stored at scale s, to the column's scale.
func (c *decimalReader) rescale(vals []orc.Int128, s int64) error {
	want := c.node.Scale
	if int(s) == want {
		return nil
	}
	if s < -100 || s > 100 {
		return c.wrap(orc.Corruptf("decimal scale %d out of range", s), "SECONDARY")
	}
	c.boundKnown = false // the values change
	for i, v := range vals {
		r, _, ok := orc.Rescale(v, int(s), want)
		if !ok {
			return c.wrap(orc.Unsupportedf("decimal value does not fit decimal(%d,%d)", c.node.Precision, want), "DATA")
		}
		vals[i] = r
	}
	return nil
}

func (c *decimalReader) skip(n int64) error {
	k, err := c.skipNulls(n)
	if err != nil {
		return err
	}
	if c.data64 != nil {
		return c.wrap(c.data64.Skip(k), "DATA")
	}
	if err := c.data.SkipVarints(k); err != nil {
		return c.wrap(err, "DATA")
	}
	return c.wrap(c.scales.Skip(k), "SECONDARY")
}

// timestampEpoch2015 is 2015-01-01 00:00:00 UTC in Unix seconds, the base of
// timestamp DATA streams.
const timestampEpoch2015 = 1420070400

// timestampReader reads TIMESTAMP and TIMESTAMP_INSTANT. DATA holds seconds
// since 2015-01-01 00:00:00 in the writer's zone (UTC for instants), signed
// RLE; SECONDARY holds nanoseconds with trailing decimal zeros folded into
// the low 3 bits (unsigned RLE). TIMESTAMP values are turned into the
// writer's wall clock read as UTC.
type timestampReader struct {
	presence
	instant bool

	dataIn, nanoIn *format.InStream
	secs, nanos    format.IntDecoder
	nbuf           []int64

	zone     *time.Location
	base     int64 // 2015-01-01 00:00:00 in the writer zone, Unix seconds
	utc      bool
	zoneFrom int64 // cached zone period [zoneFrom, zoneTo) with offset zoneOff
	zoneTo   int64
	zoneOff  int64
}

func (c *timestampReader) startStripe(ctx *stripeCtx) error {
	v2, err := c.startDirect(ctx, &c.dataIn, orcpb.Stream_DATA)
	if err != nil {
		return err
	}
	if _, err := ctx.open(&c.nanoIn, c.id, orcpb.Stream_SECONDARY, true); err != nil {
		return err
	}
	intDecoder(ctx.pool, &c.secs, c.dataIn, true, v2)
	intDecoder(ctx.pool, &c.nanos, c.nanoIn, false, v2)
	c.zone = ctx.zone
	if c.instant || c.zone == time.UTC {
		c.utc = true
		c.base = timestampEpoch2015
	} else {
		c.utc = false
		c.base = time.Date(2015, 1, 1, 0, 0, 0, 0, c.zone).Unix()
		c.zoneFrom, c.zoneTo = 1, 0 // empty cache
	}
	return nil
}

// offset returns the writer zone's UTC offset at instant sec.
func (c *timestampReader) offset(sec int64) int64 {
	if sec >= c.zoneFrom && sec < c.zoneTo {
		return c.zoneOff
	}
	t := time.Unix(sec, 0).In(c.zone)
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	c.zoneOff = int64(off)
	c.zoneFrom, c.zoneTo = -1<<62, 1<<62
	if !start.IsZero() {
		c.zoneFrom = start.Unix()
	}
	if !end.IsZero() {
		c.zoneTo = end.Unix()
	}
	return c.zoneOff
}

// decodeNanos undoes the SECONDARY encoding: the low 3 bits z say that
// z+1 trailing decimal zeros were removed (none when z is 0).
func decodeNanos(v int64) (int32, bool) {
	// Below 10^9 and times at most 10^8 the product cannot overflow.
	if v < 0 || v>>3 > 999_999_999 {
		return 0, false
	}
	m := uint64(v>>3) * nanosScale[v&7]
	if m > 999_999_999 {
		return 0, false
	}
	return int32(m), true
}

// nanosScale[z] undoes the removal of trailing zeros coded z.
var nanosScale = [8]uint64{1, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000}

// next is written out rather than through nextValues: the shared form
// took 1.7% more instructions on BenchmarkColumnNextSkip/timestamp/next
// (cachegrind, 11.41M against 11.20M an iteration), an alignment NOP the
// assembler put into the per-value loop.
func (c *timestampReader) next(v orc.Vector, n int, parentNulls []bool) error {
	vec := v.(*orc.TimestampVector)
	k, err := c.readNulls(&vec.Nulls, n, parentNulls)
	if err != nil {
		return err
	}
	vec.Seconds = grow(vec.Seconds, n)
	vec.Nanos = grow(vec.Nanos, n)
	if err := c.secs.Next(vec.Seconds[:k]); err != nil {
		return c.wrap(err, "DATA")
	}
	c.nbuf = grow(c.nbuf, k)
	if err := c.nanos.Next(c.nbuf); err != nil {
		return c.wrap(err, "SECONDARY")
	}
	secs, nanos, enc := vec.Seconds[:k], vec.Nanos[:k], c.nbuf[:k]
	for i, e := range enc {
		ns, ok := decodeNanos(e)
		if !ok {
			return c.wrap(orc.Corruptf("timestamp nanoseconds %d out of range", e), "SECONDARY")
		}
		s := secs[i] + c.base
		// Java's heritage: writers stored seconds truncated toward zero for
		// negative times; undo it before any zone adjustment.
		if s < 0 && ns > 999_999 {
			s--
		}
		secs[i] = s
		nanos[i] = ns
	}
	if !c.utc {
		for i, s := range secs {
			secs[i] = s + c.offset(s)
		}
	}
	if k < n {
		spread(vec.Seconds, k, vec.Nulls.Nulls)
		spread(vec.Nanos, k, vec.Nulls.Nulls)
	}
	return nil
}

func (c *timestampReader) skip(n int64) error {
	k, err := c.skipNulls(n)
	if err != nil {
		return err
	}
	if err := c.secs.Skip(k); err != nil {
		return c.wrap(err, "DATA")
	}
	return c.wrap(c.nanos.Skip(k), "SECONDARY")
}
