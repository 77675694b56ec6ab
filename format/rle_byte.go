// Byte run-length encoding: BYTE column DATA, UNION tags, and the layer under
// boolean RLE.
//
// A stream is a sequence of groups, each opened by a control byte c read as a
// signed byte:
//
//	c = 0..127     run:      [c] [v]           c+3 copies of v (3..130 values)
//	c = -1..-128   literals: [c] [v1 .. v(-c)]  -c bytes as they are (1..128)
//
// Examples (spec): 100 zeros = 61 00; the bytes 44 45 = fe 44 45.
//
// A row-index position inside a byte-RLE stream is the stream position of the
// group that holds the value, then the number of values of that group before
// it; the decoder is Reset at the group and Skips that many.

package format

import (
	"encoding/binary"
	"math/bits"

	"github.com/orcgo/orc"
)

const (
	byteMinRun     = 3
	byteMaxRun     = 130
	byteMaxLiteral = 128
)

// runState is what the byte and integer RLE decoders keep of where they
// read and of the run they are in (a group, in byte RLE and RLE v1).
type runState struct {
	r       ByteReader
	left    int  // values left in the current run
	literal bool // the run's values are stored one by one (else repeated, or stepped)
}

// Reset drops the current run and reads from src next.
func (s *runState) Reset(src ChunkSource) {
	s.r.Reset(src)
	s.left = 0
}

// ByteRLEDecoder reads a byte-RLE stream.
type ByteRLEDecoder struct {
	runState
	value byte // a run's byte
}

// NewByteRLEDecoder returns a decoder reading from src.
func NewByteRLEDecoder(src ChunkSource) *ByteRLEDecoder {
	d := &ByteRLEDecoder{}
	d.Reset(src)
	return d
}

// readHeader starts the next group.
func (d *ByteRLEDecoder) readHeader() error {
	c, err := d.r.ReadByte()
	if err != nil {
		return eofAsCorrupt(err, "byte RLE")
	}
	if c < 0x80 {
		v, err := d.r.ReadByte()
		if err != nil {
			return eofAsCorrupt(err, "byte RLE run")
		}
		d.left, d.literal, d.value = int(c)+byteMinRun, false, v
		return nil
	}
	d.left, d.literal = 256-int(c), true
	return nil
}

// Next fills all of dst.
func (d *ByteRLEDecoder) Next(dst []byte) error {
	for len(dst) > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		n := min(d.left, len(dst))
		if d.literal {
			if err := d.r.ReadFull(dst[:n]); err != nil {
				return err
			}
		} else {
			fillBytes(dst[:n], d.value)
		}
		d.left -= n
		dst = dst[n:]
	}
	return nil
}

// Skip discards the next n values.
func (d *ByteRLEDecoder) Skip(n int64) error {
	if n < 0 {
		return orc.Corruptf("byte RLE: negative skip %d", n)
	}
	for n > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return err
			}
		}
		k := min(int64(d.left), n)
		if d.literal {
			if err := d.r.Skip(k); err != nil {
				return err
			}
		}
		d.left -= int(k)
		n -= k
	}
	return nil
}

// skipCountOnes discards the next n values and returns how many one bits
// they hold: runs count by arithmetic, literal bytes are counted where
// they lie in the chunk, eight at a time.
func (d *ByteRLEDecoder) skipCountOnes(n int64) (int64, error) {
	var ones int64
	for n > 0 {
		if d.left == 0 {
			if err := d.readHeader(); err != nil {
				return ones, err
			}
		}
		k := min(int64(d.left), n)
		d.left -= int(k)
		n -= k
		if !d.literal {
			ones += k * int64(bits.OnesCount8(d.value))
			continue
		}
		for k > 0 {
			buf, err := d.r.Available()
			if err != nil {
				return ones, eofAsCorrupt(err, "byte RLE literals")
			}
			buf = buf[:min(int64(len(buf)), k)]
			ones += int64(countOnes(buf))
			d.r.Advance(len(buf))
			k -= int64(len(buf))
		}
	}
	return ones, nil
}

// countOnes returns the number of one bits in b.
func countOnes(b []byte) int {
	c := 0
	for len(b) >= 8 {
		c += bits.OnesCount64(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	for _, x := range b {
		c += bits.OnesCount8(x)
	}
	return c
}

// fillBytes sets every byte of b to v.
func fillBytes(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// ByteRLEEncoder writes a byte-RLE stream. Runs of three or more equal bytes
// become run groups; everything else goes into literal groups.
type ByteRLEEncoder struct {
	out  Sink
	lits [byteMaxLiteral]byte
	n    int // values held; when rep == n >= 3 they are a run of lits[0]
	rep  int // how many of the held values at the end are equal
	hdr  [byteMaxLiteral + 1]byte
	err  error
}

// NewByteRLEEncoder returns an encoder writing to out.
func NewByteRLEEncoder(out Sink) *ByteRLEEncoder { return &ByteRLEEncoder{out: out} }

// Reset drops held values and the sticky error, and writes to out next.
func (e *ByteRLEEncoder) Reset(out Sink) {
	e.out, e.n, e.rep, e.err = out, 0, 0, nil
}

// Buffered returns how many written values are not yet in the sink; they
// start the next group.
func (e *ByteRLEEncoder) Buffered() int { return e.n }

// Write adds one byte. After a sink error every call returns that error.
func (e *ByteRLEEncoder) Write(b byte) error {
	if e.n >= byteMinRun && e.rep == e.n { // holding a run
		if b == e.lits[0] && e.n < byteMaxRun {
			e.n++
			e.rep++
			return e.err
		}
		e.writeRun()
	}
	if e.n > 0 && b == e.lits[e.n-1] {
		e.rep++
	} else {
		e.rep = 1
	}
	e.lits[e.n] = b
	e.n++
	switch {
	case e.rep == byteMinRun:
		if e.n > byteMinRun {
			e.writeLiterals(e.n - byteMinRun)
			e.lits[0], e.n = b, byteMinRun
		}
	case e.n == byteMaxLiteral:
		e.writeLiterals(e.n)
		e.n, e.rep = 0, 0
	}
	return e.err
}

// Flush writes every held value, ending the current group; values written
// after it start a new one, so Flush may be called mid-stream (at aligned
// row-group boundaries) as well as at the end.
func (e *ByteRLEEncoder) Flush() error {
	switch {
	case e.n == 0:
	case e.n >= byteMinRun && e.rep == e.n:
		e.writeRun()
	default:
		e.writeLiterals(e.n)
	}
	e.n, e.rep = 0, 0
	return e.err
}

func (e *ByteRLEEncoder) writeRun() {
	if e.err == nil {
		e.hdr[0], e.hdr[1] = byte(e.n-byteMinRun), e.lits[0]
		_, e.err = e.out.Write(e.hdr[:2])
	}
	e.n, e.rep = 0, 0
}

// writeLiterals writes lits[:k] as one literal group (1 <= k <= 128).
func (e *ByteRLEEncoder) writeLiterals(k int) {
	if e.err == nil {
		e.hdr[0] = byte(-k)
		copy(e.hdr[1:], e.lits[:k])
		_, e.err = e.out.Write(e.hdr[:k+1])
	}
}
