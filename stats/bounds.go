package stats

import (
	"bytes"
	"unicode/utf8"
)

// String statistics longer than MaxStringBytes are stored as bounds (ORC-203,
// Java writer version 8): instead of an exact minimum, a lower_bound that is
// a prefix of it cut at a whole character; instead of an exact maximum, an
// upper_bound made of the same kind of prefix with its last character
// replaced by the next code point. Both bounds are strict: every value is
// greater than the lower bound and less than the upper bound, because the
// lower bound is a proper prefix of the minimum and the upper bound differs
// from the maximum first at a byte where it is greater (UTF-8 byte order is
// code point order).
//
// The next code point skips the surrogates (U+D7FF -> U+E000); when the
// character is U+10FFFF it is dropped and the one before it is incremented
// instead, and so on. A byte that is not valid UTF-8 is incremented as a
// byte (0xFF carries the same way), which keeps the bound correct in byte
// order for text that is not UTF-8.

// MaxStringBytes is the longest string statistic stored exactly.
const MaxStringBytes = 1024

// wholeCharPrefix returns the length of the longest prefix of s of at most
// MaxStringBytes bytes that does not split a UTF-8 character. s must be
// longer than MaxStringBytes. When s is not UTF-8 near the cut, the cut is
// made at MaxStringBytes.
func wholeCharPrefix[T string | []byte](s T) int {
	for cut := MaxStringBytes; cut > MaxStringBytes-utf8.UTFMax; cut-- {
		if utf8.RuneStart(s[cut]) {
			return cut
		}
	}
	return MaxStringBytes
}

// lowerBound returns the lower_bound recorded for a minimum longer than
// MaxStringBytes.
func lowerBound(s string) string { return s[:wholeCharPrefix(s)] }

// upperBound returns the upper_bound recorded for a maximum longer than
// MaxStringBytes, and false when no bound shorter than s exists (every kept
// character is U+10FFFF or byte 0xFF).
func upperBound(s string) (string, bool) {
	p := s[:wholeCharPrefix(s)]
	for len(p) > 0 {
		r, size := utf8.DecodeLastRuneInString(p)
		if r == utf8.RuneError && size <= 1 {
			b := p[len(p)-1]
			p = p[:len(p)-1]
			if b < 0xff {
				return p + string([]byte{b + 1}), true
			}
			continue
		}
		p = p[:len(p)-size]
		next := r + 1
		if next >= 0xD800 && next <= 0xDFFF {
			next = 0xE000
		}
		if next <= utf8.MaxRune {
			return p + string(next), true
		}
	}
	return "", false
}

// An Accumulator keeps string bounds as the file stores them: a minimum or
// maximum longer than MaxStringBytes is kept as its lower or upper bound
// from the start (as Apache ORC's writer does), so that no level (row
// group, stripe, file) copies a long value: a 50 MB field was copied at
// each of the three, and again into each level's statistics message. A
// later value is compared with a bound as with a value; one equal to the
// bound is the exact minimum (maximum), since every value before it is
// strictly above (below) the bound. Values that share a bound's prefix can
// leave the bound where the exact value would have given a closer one;
// the bound stays true.

// KeepLongValues makes the accumulator keep a string minimum or maximum
// longer than MaxStringBytes whole, as Column then reports it (and Proto
// still encodes its bound), instead of its bound. A tool that checks a
// file's bounds against its data needs the exact values; a writer does
// not. Call it before adding values; Reset keeps it.
func (a *Accumulator) KeepLongValues() { a.keepLong = true }

// setMin makes v the minimum, or its lower bound when v is longer than
// MaxStringBytes.
func (a *Accumulator) setMin(v []byte) {
	a.sminBound = len(v) > MaxStringBytes && !a.keepLong
	if a.sminBound {
		v = v[:wholeCharPrefix(v)]
	}
	a.smin = append(a.smin[:0], v...)
}

// setMax makes v the maximum, or its upper bound when v is longer than
// MaxStringBytes and has one (see upperBound; else v is kept whole).
func (a *Accumulator) setMax(v []byte) {
	if len(v) > MaxStringBytes && !a.keepLong {
		// upperBound looks at no byte past MaxStringBytes.
		if ub, ok := upperBound(string(v[:MaxStringBytes+1])); ok {
			a.smax = append(a.smax[:0], ub...)
			a.smaxBound = true
			return
		}
	}
	a.smax = append(a.smax[:0], v...)
	a.smaxBound = false
}

// belowMin reports whether v is a new minimum.
func (a *Accumulator) belowMin(v []byte) bool {
	if a.sminBound {
		return bytes.Compare(v, a.smin) <= 0
	}
	return bytesLess(v, a.smin)
}

// aboveMax reports whether v is a new maximum.
func (a *Accumulator) aboveMax(v []byte) bool {
	if a.smaxBound {
		return bytes.Compare(v, a.smax) >= 0
	}
	return bytesLess(a.smax, v)
}

// mergeBytes merges o's string minimum and maximum into a's (both have
// values); of an equal exact value and bound, the exact value wins.
func (a *Accumulator) mergeBytes(o *Accumulator) {
	if c := bytes.Compare(o.smin, a.smin); c < 0 || c == 0 && a.sminBound && !o.sminBound {
		a.smin = append(a.smin[:0], o.smin...)
		a.sminBound = o.sminBound
	}
	if c := bytes.Compare(o.smax, a.smax); c > 0 || c == 0 && a.smaxBound && !o.smaxBound {
		a.smax = append(a.smax[:0], o.smax...)
		a.smaxBound = o.smaxBound
	}
}
