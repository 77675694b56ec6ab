package stats

import "unicode/utf8"

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
func wholeCharPrefix(s string) int {
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
