// Integer run-length encodings: what RLE v1 and v2 share.
//
// ORC stores every integer stream (DATA of integer, date and timestamp
// columns, LENGTH, dictionary ids, SECONDARY) with one of two run-length
// encodings chosen by the column encoding: DIRECT and DICTIONARY use RLE v1
// (rle_int_v1.go), DIRECT_V2 and DICTIONARY_V2 use RLE v2 (rle_int_v2.go,
// rle_int_v2_encode.go). A stream is either signed (values zigzag-encoded
// where the encoding stores them as unsigned numbers) or unsigned (lengths,
// dictionary ids, encoded nanoseconds), which the reader knows from the
// stream kind; nothing in the bytes says so.
//
// RLE v2 names a bit width with a 5-bit code:
//
//	code   0..23  24  25  26  27  28  29  30  31
//	width  1..24  26  28  30  32  40  48  56  64
//
// except that in a DELTA header code 0 means width 0 (every delta equals the
// delta base), so DELTA cannot express a width of 1.

package format

import (
	"io"
	"math"

	"github.com/orcgo/orc"
)

// IntDecoder is implemented by the RLE v1 and v2 integer decoders.
type IntDecoder interface {
	// Next fills all of dst. A stream that ends first gives an error
	// wrapping orc.ErrCorrupt.
	Next(dst []int64) error
	// Skip discards the next n values.
	Skip(n int64) error
	// NextRepeat consumes up to max of the next values when they are
	// copies of one value in a run, and returns that value and how many
	// it consumed, without writing them anywhere. It consumes nothing and
	// returns n = 0 when the next value is not in such a run (or max is
	// 0); Next then reads on as if it had not been called.
	NextRepeat(max int) (v int64, n int, err error)
	// Reset drops buffered run state and reads from src next, typically
	// after the stream was seeked to a row-index position.
	Reset(src ChunkSource)
}

// IntEncoder is implemented by the RLE v1 and v2 integer encoders.
type IntEncoder interface {
	// Write adds one value.
	Write(v int64) error
	// WriteValues adds vs in order.
	WriteValues(vs []int64) error
	// Buffered returns how many accepted values are not yet written to the
	// sink. They are the very next values written, at the start of a run,
	// so (sink position, Buffered()) is a row-index position.
	Buffered() int
	// Flush writes every buffered value, ending the current run; values
	// written after it start a new run, so Flush may be called mid-stream
	// (at aligned row-group boundaries) as well as at the end.
	Flush() error
	// Reset drops buffered values and the sticky error, and writes to out
	// next.
	Reset(out Sink)
}

var (
	_ IntDecoder = (*IntRLEv1Decoder)(nil)
	_ IntDecoder = (*IntRLEv2Decoder)(nil)
	_ IntEncoder = (*IntRLEv1Encoder)(nil)
	_ IntEncoder = (*IntRLEv2Encoder)(nil)
)

// widthFromCode maps an RLE v2 5-bit width code to bits (DIRECT and
// PATCHED_BASE meaning: code 0 is one bit).
var widthFromCode = [32]uint8{
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64,
}

// codeFromWidth maps a width that has a code (see widthFromCode) to it; other
// entries are 0xff.
var codeFromWidth = func() (t [65]uint8) {
	for i := range t {
		t[i] = 0xff
	}
	for c, w := range widthFromCode {
		t[w] = uint8(c)
	}
	return t
}()

// intRun is the run state of both integer RLE decoders: a run that is not
// literal holds value, value+delta, ...
type intRun struct {
	runState
	signed bool // zigzag-decode the stream's values
	value  int64
	delta  int64
}

// repeat takes up to max values of the current run when it repeats one
// value (NextRepeat's answer once a run is current), else none.
func (s *intRun) repeat(max int) (int64, int, error) {
	if s.literal || s.delta != 0 {
		return 0, 0, nil
	}
	n := min(s.left, max)
	s.left -= n
	return s.value, n, nil
}

// step fills out with the current run's next values (value, value+delta,
// ...) and moves value past them.
func (s *intRun) step(out []int64) {
	v, dl := s.value, s.delta
	for i := range out {
		out[i] = v
		v += dl
	}
	s.value = v
}

// closestFixedBits rounds n (0 or more) up to the next width that has a
// code (0 gives 1, over 64 gives 64); patch-list entries of PATCHED_BASE
// use it.
func closestFixedBits(n int) int { return int(closestFixed[min(n, 64)]) }

// closestFixed is closestFixedBits as a table, derived from widthFromCode.
var closestFixed = func() (t [65]uint8) {
	w := uint8(64)
	for n := 64; n >= 0; n-- {
		if codeFromWidth[n] != 0xff {
			w = uint8(n)
		}
		t[n] = w
	}
	return t
}()

// alignedWidth rounds a bit count (0..64) up to the widths our writer uses:
// 1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64. Bit counts 0 and 1 give 1.
func alignedWidth(n int) int {
	switch {
	case n <= 1:
		return 1
	case n <= 2:
		return 2
	case n <= 4:
		return 4
	case n <= 8:
		return 8
	}
	return (n + 7) &^ 7
}

// addOverflows reports whether a+b overflows int64.
func addOverflows(a, b int64) bool {
	s := a + b
	return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// roomUp returns how far v may grow before passing MaxInt64, and roomDown
// how far it may shrink before passing MinInt64 (both fit in uint64).
func roomUp(v int64) uint64   { return uint64(math.MaxInt64) - uint64(v) }
func roomDown(v int64) uint64 { return uint64(v) + 1<<63 }

// stepsFit reports whether base + k*delta stays within int64 for k = 0..n-1.
func stepsFit(base, delta int64, n int) bool {
	if n <= 1 || delta == 0 {
		return true
	}
	k := uint64(n - 1)
	if delta > 0 {
		return uint64(delta) <= roomUp(base)/k
	}
	return uint64(0)-uint64(delta) <= roomDown(base)/k
}

// eofAsCorrupt turns the io.EOF of a ByteReader into the corruption of a
// stream that ends early; other errors pass through.
func eofAsCorrupt(err error, what string) error {
	if err == nil {
		return nil
	}
	if err == io.EOF {
		return orc.Corruptf("the stream ends in the middle of a %s", what)
	}
	return err
}
