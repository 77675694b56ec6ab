// Integer run-length encoding version 2: the encoder. The byte layout of
// each run is given in rle_int_v2.go.
//
// How runs are chosen:
//   - Values are held until 512 are buffered or the kind of data changes.
//   - Equal values in a row become a run of their own (SHORT_REPEAT for
//     3..10 copies, DELTA with width code 0 and delta 0 for 11..512): at once
//     when they open the buffer and there are three; after other values, once
//     cutting the run there saves bytes, that is once the copies would take
//     more room packed at the held values' width (or, when the held values
//     are monotonic, at the width of their deltas) than a repeat run plus
//     the header of the run that follows (Java's writer cuts after three in
//     every case, which turns random 0/1 data into 2-byte runs of 3 values,
//     and sorted keys with duplicates into a 4-byte run per key).
//   - Any other group of values is written as one run, DIRECT or DELTA,
//     whichever is smaller (DIRECT on a tie):
//     DIRECT packs the (zigzag-encoded, if signed) values at the smallest
//     width with a code that fits them (1..24, 26, 28, 30, 32, 40, 48, 56,
//     64: exact widths cost the decoder next to nothing and save up to a
//     quarter of the bytes over byte-aligned ones, which general-purpose
//     codecs do not win back on such data);
//     DELTA is possible when the values are monotonic, their range fits in
//     int64 (so no delta overflows) and either all deltas are equal (width
//     code 0) or the first delta is not 0 (its sign gives the direction);
//     deltas are packed the same way, but never at 1 bit (readers widen a
//     1-bit DELTA code to 2). Monotonic values that open with equal ones are
//     written as a run of those, then a DELTA run from the last of them,
//     when the two are smaller than one DIRECT run.
//   - PATCHED_BASE is never written.
//
// Every run starts at the first held value, so the values Buffered reports
// are exactly the next ones written and open a new run.

package format

import (
	"math"
	"math/bits"
	"sync"
)

// v2MinRoom is the least room for held values an encoder starts with: it
// grows from what the first write needs (a batch's values take a full
// run's room at once), so that the encoder of a wide schema's column
// holding one value a stripe takes 8 bytes for it, not 64.
const v2MinRoom = 1

// IntRLEv2Encoder writes an integer RLE v2 stream.
//
// An encoder takes 112 bytes besides its held values: a writer of a wide
// schema has one a column or more, each holding a value or a few.
type IntRLEv2Encoder struct {
	out Sink

	lits []int64 // room for the held values: grows with them, up to v2MaxRun
	n    int     // values held
	rep  int     // how many of the held values at the end are equal
	or   uint64  // OR of the held values as encoded, for their bit width
	dor  uint64  // OR of the held values' absolute deltas

	sc  *v2EncScratch // while a DIRECT or DELTA run is encoded
	err error

	// rbuf holds a repeat run: at most 13 bytes, those of a DELTA run of
	// equal values (2 of header, a base of up to 10 and a delta of 0).
	// The flags share its word.
	rbuf   [v2MaxRepeatRun]byte
	signed bool
	inc    bool // the held values never decrease
	dec    bool // the held values never increase
}

// v2MaxRepeatRun is the most bytes writeRepeat writes.
const v2MaxRepeatRun = 2 + 10 + 1

// v2EncScratch is what encoding one DIRECT or DELTA run needs: the values or deltas to
// bit-pack and the run's bytes. Encoders take one from v2EncScratchPool for
// each run rather than own one (8 KiB each): a writer of 200 columns has
// some 450 encoders, and 4 MiB of scratch were a good part of its memory
// at small stripe sizes.
type v2EncScratch struct {
	tmp [v2MaxRun]uint64
	buf []byte
}

var v2EncScratchPool = sync.Pool{New: func() any {
	return &v2EncScratch{buf: make([]byte, 0, 2*(2+2*10)+v2MaxRun*8)}
}}

// takeScratch takes a run scratch for e and returns its empty buffer.
func (e *IntRLEv2Encoder) takeScratch() []byte {
	e.sc = v2EncScratchPool.Get().(*v2EncScratch)
	return e.sc.buf[:0]
}

// writeRun writes b, the run built in the scratch's buffer, and gives the
// scratch back.
func (e *IntRLEv2Encoder) writeRun(b []byte) {
	_, e.err = e.out.Write(b)
	e.sc.buf = b[:0]
	v2EncScratchPool.Put(e.sc)
	e.sc = nil
}

// NewIntRLEv2Encoder returns an encoder writing to out; signed streams
// zigzag-encode their values.
func NewIntRLEv2Encoder(out Sink, signed bool) *IntRLEv2Encoder {
	return &IntRLEv2Encoder{out: out, signed: signed, inc: true, dec: true}
}

// Reset drops held values and the sticky error, and writes to out next.
func (e *IntRLEv2Encoder) Reset(out Sink) {
	e.out, e.n, e.rep, e.or, e.err = out, 0, 0, 0, nil
	e.inc, e.dec, e.dor = true, true, 0
}

// Buffered returns how many written values are not yet in the sink; they
// start the next run.
func (e *IntRLEv2Encoder) Buffered() int { return e.n }

// Write adds one value. After a sink error every call returns that error.
func (e *IntRLEv2Encoder) Write(v int64) error {
	e.write(v)
	return e.err
}

// WriteValues adds vs in order.
func (e *IntRLEv2Encoder) WriteValues(vs []int64) error {
	// Never more than the held values and vs are held at once, so the
	// loop below needs no room it does not have.
	if len(e.lits) < v2MaxRun {
		e.grow(e.n + len(vs))
	}
	for i := 0; i < len(vs); i++ {
		// The common cases inline, short of a full run, where write
		// does the same: values unlike the one before them after values
		// that do not end in a repeat (rep 1: no repeat run to end or
		// cut, and rep stays 1), and a value equal to all held ones.
		v := vs[i]
		if n := e.n; n > 0 && n < v2MaxRun-1 {
			last := e.lits[n-1]
			rep := e.rep
			switch {
			case v != last && (rep == 1 || rep < n || n < v2ShortRepeatMin):
				// No run of repeats to end here (that needs all held
				// values equal, at least v2ShortRepeatMin of them), so
				// the repeat count starts again and the values go on
				// as literals.
				e.rep = 1
				i = e.literals(vs, i, n, last) - 1
				continue
			case v == last && rep == n:
				// Another copy of the value every held one is:
				// nothing to cut, and the OR and deltas stand.
				e.lits[n] = v
				e.n, e.rep = n+1, n+1
				continue
			case v == last && rep == 1:
				// A second copy after other values: too short a
				// repeat to weigh against the run (write checks from
				// v2ShortRepeatMin), and the OR and deltas stand.
				e.lits[n] = v
				e.n, e.rep = n+1, 2
				continue
			}
		}
		e.write(v)
	}
	return e.err
}

// literals adds vs[i:] while each value differs from the one before it and
// the run stays short of full, and returns the index of the first value it
// did not add. vs[i] differs from last, the last of the n held values
// (0 < n < v2MaxRun-1), and e.rep is 1. The run's state stays in locals
// for the stretch: through e, every store of a value made the compiler
// load the fields again.
func (e *IntRLEv2Encoder) literals(vs []int64, i, n int, last int64) int {
	seg := vs[i:min(len(vs), i+v2MaxRun-1-n)]
	dst := e.lits[n : n+len(seg)]
	dst = dst[:len(seg)] // the same length, which spares the loop its bounds checks
	inc, dec, dor, or := e.inc, e.dec, e.dor, e.or
	k := 0
	// While the held values stay monotonic, their deltas count too.
	// Each stretch is a function of its own, for the signed and the
	// unsigned encoding apart: with everything in one loop the compiler
	// kept the loop's values on the stack, at 60 instructions a value.
	if inc || dec {
		var kd, ko uint64
		if e.signed {
			k, last, inc, dec, kd, ko = monotonicSigned(seg, dst, last, inc, dec)
		} else {
			k, last, inc, dec, kd, ko = monotonicUnsigned(seg, dst, last, inc, dec)
		}
		dor |= kd
		or |= ko
	}
	// Neither direction: until a run is written only the OR counts (the
	// deltas' width matters to DELTA runs and repeatPays only while the
	// values are monotonic), which random values reach within a few.
	if k < len(seg) && !inc && !dec {
		var j int
		var ko uint64
		if e.signed {
			j, ko = unorderedSigned(seg[k:], dst[k:], last)
		} else {
			j, ko = unorderedUnsigned(seg[k:], dst[k:], last)
		}
		k += j
		or |= ko
	}
	e.n = n + k
	e.inc, e.dec, e.dor, e.or = inc, dec, dor, or
	return i + k
}

// monotonicSigned adds seg's values to dst (as long) while each differs
// from the one before it (last at first) and they keep a direction left
// in inc or dec; it returns how many it added, the last value, the
// directions left, and the OR of the added values' absolute deltas and of
// their zigzag encodings. The value that ends both directions is not
// added.
func monotonicSigned(seg, dst []int64, last int64, inc, dec bool) (k int, _ int64, _, _ bool, dor, or uint64) {
	dst = dst[:len(seg)]
	for ; k < len(seg); k++ {
		v := seg[k]
		if v == last {
			break
		}
		d := v - last // not 0
		if d > 0 {
			dec = false
			if !inc {
				break
			}
		} else {
			inc = false
			if !dec {
				break
			}
			d = -d // MinInt64 stays negative, as in noteDelta
		}
		dor |= uint64(d)
		or |= uint64(v<<1) ^ uint64(v>>63)
		dst[k] = v
		last = v
	}
	return k, last, inc, dec, dor, or
}

// monotonicUnsigned is monotonicSigned for values stored as they are.
// Kept out of literals as monotonicSigned is (too large to inline):
// inlined there, it cost the fixed-delta benchmark 27% more instructions.
//
//go:noinline
func monotonicUnsigned(seg, dst []int64, last int64, inc, dec bool) (k int, _ int64, _, _ bool, dor, or uint64) {
	dst = dst[:len(seg)]
	for ; k < len(seg); k++ {
		v := seg[k]
		if v == last {
			break
		}
		d := v - last // not 0
		if d > 0 {
			dec = false
			if !inc {
				break
			}
		} else {
			inc = false
			if !dec {
				break
			}
			d = -d // MinInt64 stays negative, as in noteDelta
		}
		dor |= uint64(d)
		or |= uint64(v)
		dst[k] = v
		last = v
	}
	return k, last, inc, dec, dor, or
}

// unorderedSigned adds seg's values to dst while each differs from the
// one before it (last at first), and returns how many it added and the OR
// of their zigzag encodings.
func unorderedSigned(seg, dst []int64, last int64) (k int, or uint64) {
	dst = dst[:len(seg)]
	for ; k < len(seg); k++ {
		v := seg[k]
		if v == last {
			break
		}
		or |= uint64(v<<1) ^ uint64(v>>63)
		dst[k] = v
		last = v
	}
	return k, or
}

// unorderedUnsigned is unorderedSigned for values stored as they are.
func unorderedUnsigned(seg, dst []int64, last int64) (k int, or uint64) {
	dst = dst[:len(seg)]
	for ; k < len(seg); k++ {
		v := seg[k]
		if v == last {
			break
		}
		or |= uint64(v)
		dst[k] = v
		last = v
	}
	return k, or
}

func (e *IntRLEv2Encoder) write(v int64) {
	if e.n == len(e.lits) {
		e.grow(e.n + 1)
	}
	if e.n > 0 && v == e.lits[e.n-1] {
		e.rep++
	} else {
		if e.rep == e.n && e.n >= v2ShortRepeatMin {
			e.writeRepeat()
		}
		e.rep = 1
		if e.n > 0 {
			e.noteDelta(v - e.lits[e.n-1])
		}
	}
	e.lits[e.n] = v
	e.n++
	u := e.encoded(v)
	e.or |= u
	if e.rep >= v2ShortRepeatMin && e.rep < e.n && e.repeatPays(u) {
		e.writeVariable(e.n - e.rep)
	}
	if e.n == v2MaxRun {
		if e.rep == e.n {
			e.writeRepeat()
		} else {
			e.writeVariable(e.n)
		}
	}
}

// grow makes room for n held values (at most v2MaxRun). The room starts
// small and doubles: a writer of 100,000 columns with a value each held
// 4 KiB a column when every encoder owned a full run's room.
func (e *IntRLEv2Encoder) grow(n int) {
	if n <= len(e.lits) {
		return
	}
	size := max(n, 2*len(e.lits), v2MinRoom)
	lits := make([]int64, min(size, v2MaxRun))
	copy(lits, e.lits[:e.n])
	e.lits = lits
}

// Flush writes every held value, ending the current run; values written
// after it start a new run (see IntEncoder).
func (e *IntRLEv2Encoder) Flush() error {
	switch {
	case e.n == 0:
	case e.rep == e.n && e.n >= v2ShortRepeatMin:
		e.writeRepeat()
	default:
		e.writeVariable(e.n)
	}
	return e.err
}

// noteDelta records the difference between a held value and the one
// before it.
func (e *IntRLEv2Encoder) noteDelta(d int64) {
	e.inc = e.inc && d >= 0
	e.dec = e.dec && d <= 0
	if d < 0 {
		d = -d // MinInt64 stays negative: its bit pattern still marks a wide delta
	}
	e.dor |= uint64(d)
}

// repeatPays reports whether the rep copies of u that end the held values
// take more room packed with the values before them than as a run of their
// own plus the 2-byte header of the run that will follow.
func (e *IntRLEv2Encoder) repeatPays(u uint64) bool {
	w := closestFixedBits(bits.Len64(e.or))
	if e.inc || e.dec {
		w = min(w, max(2, closestFixedBits(bits.Len64(e.dor))))
	}
	repeatCost := 1 + max(1, (bits.Len64(u)+7)>>3)
	return e.rep*w >= 8*(2+repeatCost)
}

// encoded returns v as the encoding stores a non-patched value.
func (e *IntRLEv2Encoder) encoded(v int64) uint64 {
	if e.signed {
		return Zigzag(v)
	}
	return uint64(v)
}

// writeRepeat writes the n held values, all equal, as one run.
func (e *IntRLEv2Encoder) writeRepeat() {
	n := e.n
	e.n, e.rep = 0, 0
	e.inc, e.dec, e.dor = true, true, 0
	if e.err != nil {
		return
	}
	e.or = 0
	u := e.encoded(e.lits[0])
	b := e.rbuf[:0]
	if n <= v2ShortRepeatMax {
		w := max(1, (bits.Len64(u)+7)>>3)
		b = append(b, byte(w-1)<<3|byte(n-v2ShortRepeatMin))
		for i := w - 1; i >= 0; i-- {
			b = append(b, byte(u>>(8*i)))
		}
	} else {
		b = append(b, v2Delta<<6|byte((n-1)>>8), byte(n-1))
		b = AppendUvarint(b, u)
		b = append(b, 0) // delta base 0: every value equal
	}
	_, e.err = e.out.Write(b)
}

// writeVariable writes the first k held values as one DIRECT or DELTA run
// and moves the rest to the front.
func (e *IntRLEv2Encoder) writeVariable(k int) {
	if e.err == nil {
		e.writeRun(e.encodeVariable(e.takeScratch(), e.lits[:k]))
	}
	copy(e.lits[:], e.lits[k:e.n])
	e.n -= k
	if e.n == 0 {
		e.rep = 0
	}
	e.or = 0
	e.inc, e.dec, e.dor = true, true, 0
	for i, v := range e.lits[:e.n] {
		e.or |= e.encoded(v)
		if i > 0 && v != e.lits[i-1] {
			e.noteDelta(v - e.lits[i-1])
		}
	}
}

// encodeVariable appends the run for vals (1..512 values) to b.
func (e *IntRLEv2Encoder) encodeVariable(b []byte, vals []int64) []byte {
	k := len(vals)
	// The values as DIRECT packs them, and their width, in one pass.
	zz := e.sc.tmp[:k]
	var or uint64
	if e.signed {
		for i, v := range vals {
			u := Zigzag(v)
			zz[i] = u
			or |= u
		}
	} else {
		for i, v := range vals {
			zz[i] = uint64(v)
			or |= uint64(v)
		}
	}
	directW := closestFixedBits(bits.Len64(or))
	directSize := 2 + packedLen(k, directW)

	if k >= 2 {
		// DELTA needs monotonic values: the scan stops at the first
		// change of direction, which random data shows within a few.
		first := vals[1] - vals[0]
		inc, dec, fixed := direction(vals, first)
		// Monotonic: the range is between the ends. hi-lo wraps negative
		// exactly when it does not fit int64; when it fits, no delta
		// overflows.
		lo, hi := vals[0], vals[k-1]
		if dec {
			lo, hi = hi, lo
		}
		if (inc || dec) && hi-lo >= 0 {
			base := e.encoded(vals[0])
			headSize := 2 + uvarintLen(base) + uvarintLen(Zigzag(first))
			switch {
			case fixed:
				if headSize < directSize {
					return e.appendDelta(b, vals, base, first, 0)
				}
			case first != 0:
				w := max(2, closestFixedBits(bits.Len64(absDeltaOr(vals[1:]))))
				if headSize+packedLen(k-2, w) < directSize {
					return e.appendDelta(b, vals, base, first, w)
				}
			default:
				// Opens with equal values (not all: that is fixed). A
				// DELTA run cannot start there (a delta base of 0 leaves
				// the direction open), so try the equal values as their
				// own run and a DELTA run from the last of them. Neither
				// part recurses again: the first is fixed, the second
				// has a first delta other than 0.
				j := 1
				for vals[j] == vals[0] {
					j++
				}
				start := len(b)
				b = e.encodeVariable(b, vals[:j-1])
				b = e.encodeVariable(b, vals[j-1:])
				if len(b)-start < directSize {
					return b
				}
				b = b[:start]
				// The two parts packed their values in the scratch.
				for i, v := range vals {
					zz[i] = e.encoded(v)
				}
			}
		}
	}
	b = append(b, v2Direct<<6|codeFromWidth[directW]<<1|byte((k-1)>>8), byte(k-1))
	return packBits(b, zz, directW)
}

// direction reports whether vals (at least 2) never decrease, never
// increase, and all differ by first from the one before, by the least and
// the greatest difference; a difference that overflows makes them neither
// (the values' range then does not fit int64, which rules DELTA out
// whatever the direction). The scan stops at the first change of
// direction, which random data shows within a few. (A function of its own,
// not inlined: inside encodeVariable the loop's state lived on the stack.)
//
//go:noinline
func direction(vals []int64, first int64) (inc, dec, fixed bool) {
	prev := vals[0]
	mind, maxd := int64(math.MaxInt64), int64(math.MinInt64)
	var ovf int64 // negative once a difference overflowed
	for _, v := range vals[1:] {
		d := v - prev
		ovf |= (v ^ prev) & (d ^ v)
		mind, maxd = min(mind, d), max(maxd, d)
		prev = v
		if mind < 0 && maxd > 0 {
			break
		}
	}
	if ovf < 0 {
		return false, false, false
	}
	return mind >= 0, maxd <= 0, mind == first && maxd == first
}

// absDeltaOr returns the OR of the absolute differences between vals[i]
// and vals[i-1] from i = 1 (MinInt64 stays negative, as in noteDelta).
//
//go:noinline
func absDeltaOr(vals []int64) uint64 {
	var or uint64
	for i := 1; i < len(vals); i++ {
		dl := vals[i] - vals[i-1]
		if dl < 0 {
			dl = -dl
		}
		or |= uint64(dl)
	}
	return or
}

// appendDelta appends a DELTA run of vals with packed width w (0: fixed
// delta).
func (e *IntRLEv2Encoder) appendDelta(b []byte, vals []int64, base uint64, first int64, w int) []byte {
	k := len(vals)
	code := byte(0)
	if w > 0 {
		code = codeFromWidth[w]
	}
	b = append(b, v2Delta<<6|code<<1|byte((k-1)>>8), byte(k-1))
	b = AppendUvarint(b, base)
	b = AppendVarint(b, first)
	if w == 0 {
		return b
	}
	ds := e.sc.tmp[:k-2]
	for i := range ds {
		dl := vals[i+2] - vals[i+1]
		if dl < 0 {
			dl = -dl
		}
		ds[i] = uint64(dl)
	}
	return packBits(b, ds, w)
}

// uvarintLen returns the bytes of u as a varint.
func uvarintLen(u uint64) int { return (bits.Len64(u|1) + 6) / 7 }
