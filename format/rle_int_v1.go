// Integer run-length encoding version 1 (Hive 0.11; DIRECT and DICTIONARY
// column encodings).
//
// A stream is a sequence of groups, each opened by a control byte c read as a
// signed byte:
//
//	c = 0..127     run:      [c] [d] [base varint]   c+3 values (3..130):
//	                                                  base, base+d, base+2d, ...
//	                                                  d is a signed byte (-128..127)
//	c = -1..-128   literals: [c] [-c varints]         1..128 values
//
// Varints are base-128, least significant group first; in signed streams the
// value is zigzag-encoded first. Examples (spec): 100 sevens = 61 00 07;
// 100 down to 1 = 61 ff 64; 2 3 6 7 11 = fb 02 03 06 07 0b.
//
// Run arithmetic wraps around like the Java reader's: Java's writer computes
// deltas with wrapping subtraction, so a run may step across MaxInt64.

package format

import (
	"encoding/binary"

	"github.com/orcgo/orc"
)

const (
	v1MinRun     = 3
	v1MaxRun     = 130
	v1MaxLiteral = 128
	v1MinDelta   = -128
	v1MaxDelta   = 127
)

// IntRLEv1Decoder reads an integer RLE v1 stream: a group of varints is
// a literal run.
type IntRLEv1Decoder struct {
	intRun
}

// NewIntRLEv1Decoder returns a decoder reading from src; signed streams
// zigzag-decode their varints.
func NewIntRLEv1Decoder(src ChunkSource, signed bool) *IntRLEv1Decoder {
	d := &IntRLEv1Decoder{intRun{signed: signed}}
	d.Reset(src)
	return d
}

func (d *IntRLEv1Decoder) readHeader() error {
	c, err := d.r.ReadByte()
	if err != nil {
		return eofAsCorrupt(err, "integer RLE v1")
	}
	if c >= 0x80 {
		d.left, d.literal = 256-int(c), true
		return nil
	}
	db, err := d.r.ReadByte()
	if err != nil {
		return eofAsCorrupt(err, "integer RLE v1 run")
	}
	u, err := d.r.ReadUvarint()
	if err != nil {
		return err
	}
	d.left, d.literal, d.delta, d.value = int(c)+v1MinRun, false, int64(int8(db)), d.fromVarint(u)
	return nil
}

func (d *IntRLEv1Decoder) fromVarint(u uint64) int64 {
	if d.signed {
		return UnZigzag(u)
	}
	return int64(u)
}

// NextRepeat consumes up to max values of a run with delta 0 (see
// IntDecoder).
func (d *IntRLEv1Decoder) NextRepeat(max int) (int64, int, error) {
	if max <= 0 {
		return 0, 0, nil
	}
	if d.left == 0 {
		if err := d.readHeader(); err != nil {
			return 0, 0, err
		}
	}
	return d.repeat(max)
}

// Next fills all of dst.
func (d *IntRLEv1Decoder) Next(dst []int64) error {
	for len(dst) > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		n := min(d.left, len(dst))
		if d.literal {
			if err := d.readVarints(dst[:n]); err != nil {
				return err
			}
		} else {
			d.step(dst[:n])
		}
		d.left -= n
		dst = dst[n:]
	}
	return nil
}

// readVarints fills dst with varints, decoding in place in the current
// chunk while at least 10 bytes remain there.
func (d *IntRLEv1Decoder) readVarints(dst []int64) error {
	i := 0
	for i < len(dst) {
		b := d.r.Buffered()
		p := 0
		for ; i < len(dst) && len(b)-p >= binary.MaxVarintLen64; i++ {
			u, k := binary.Uvarint(b[p:])
			if k <= 0 {
				return orc.Corruptf("integer RLE v1: varint overflows 64 bits")
			}
			p += k
			dst[i] = d.fromVarint(u)
		}
		d.r.Advance(p)
		if i == len(dst) {
			break
		}
		// Fewer than 10 bytes left in this chunk: one varint the slow way.
		u, err := d.r.ReadUvarint()
		if err != nil {
			return err
		}
		dst[i] = d.fromVarint(u)
		i++
	}
	return nil
}

// Skip discards the next n values.
func (d *IntRLEv1Decoder) Skip(n int64) error {
	if n < 0 {
		return orc.Corruptf("integer RLE v1: negative skip %d", n)
	}
	for n > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		k := min(int64(d.left), n)
		if d.literal {
			if err := d.skipVarints(int(k)); err != nil {
				return err
			}
		} else {
			d.value += d.delta * k
		}
		d.left -= int(k)
		n -= k
	}
	return nil
}

// skipVarints discards k varints.
func (d *IntRLEv1Decoder) skipVarints(k int) error {
	return d.r.SkipVarints(int64(k))
}

// IntRLEv1Encoder writes an integer RLE v1 stream. Three or more values with
// a constant delta in -128..127 become runs; the rest literal groups.
type IntRLEv1Encoder struct {
	out    Sink
	signed bool

	lits [v1MaxLiteral]int64
	n    int // literal values held

	runLen   int // values in the held run (0 when none); then n == 0
	runBase  int64
	runLast  int64
	runDelta int64

	buf []byte
	err error
}

// NewIntRLEv1Encoder returns an encoder writing to out; signed streams
// zigzag-encode their varints.
func NewIntRLEv1Encoder(out Sink, signed bool) *IntRLEv1Encoder {
	return &IntRLEv1Encoder{out: out, signed: signed, buf: make([]byte, 0, 2+v1MaxLiteral*binary.MaxVarintLen64)}
}

// Reset drops held values and the sticky error, and writes to out next.
func (e *IntRLEv1Encoder) Reset(out Sink) {
	e.out, e.n, e.runLen, e.err = out, 0, 0, nil
}

// Buffered returns how many written values are not yet in the sink; they
// start the next group.
func (e *IntRLEv1Encoder) Buffered() int { return e.n + e.runLen }

// Write adds one value. After a sink error every call returns that error.
func (e *IntRLEv1Encoder) Write(v int64) error {
	e.write(v)
	return e.err
}

// WriteValues adds vs in order.
func (e *IntRLEv1Encoder) WriteValues(vs []int64) error {
	for _, v := range vs {
		e.write(v)
	}
	return e.err
}

func (e *IntRLEv1Encoder) write(v int64) {
	if e.runLen > 0 {
		if v-e.runLast == e.runDelta && e.runLen < v1MaxRun {
			e.runLen++
			e.runLast = v
			return
		}
		e.writeRun()
	}
	e.lits[e.n] = v
	e.n++
	if e.n >= v1MinRun {
		a, b := e.lits[e.n-3], e.lits[e.n-2]
		d := b - a
		if v-b == d && d >= v1MinDelta && d <= v1MaxDelta {
			if e.n > v1MinRun {
				e.writeLiterals(e.n - v1MinRun)
			}
			e.n = 0
			e.runLen, e.runBase, e.runLast, e.runDelta = v1MinRun, a, v, d
			return
		}
	}
	if e.n == v1MaxLiteral {
		e.writeLiterals(e.n)
		e.n = 0
	}
}

// Flush writes every held value, ending the current run; values written
// after it start a new run (see IntEncoder).
func (e *IntRLEv1Encoder) Flush() error {
	if e.runLen > 0 {
		e.writeRun()
	} else if e.n > 0 {
		e.writeLiterals(e.n)
		e.n = 0
	}
	return e.err
}

func (e *IntRLEv1Encoder) varint(dst []byte, v int64) []byte {
	if e.signed {
		return AppendVarint(dst, v)
	}
	return AppendUvarint(dst, uint64(v))
}

func (e *IntRLEv1Encoder) writeRun() {
	if e.err == nil {
		b := append(e.buf[:0], byte(e.runLen-v1MinRun), byte(int8(e.runDelta)))
		b = e.varint(b, e.runBase)
		_, e.err = e.out.Write(b)
		e.buf = b
	}
	e.runLen = 0
}

// writeLiterals writes lits[:k] as one literal group (1 <= k <= 128).
func (e *IntRLEv1Encoder) writeLiterals(k int) {
	if e.err != nil {
		return
	}
	b := append(e.buf[:0], byte(-k))
	for _, v := range e.lits[:k] {
		b = e.varint(b, v)
	}
	_, e.err = e.out.Write(b)
	e.buf = b
}
