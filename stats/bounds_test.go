package stats

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStringBounds(t *testing.T) {
	a := strings.Repeat
	cases := []struct {
		name         string
		in           string
		lower, upper string
		noUpper      bool
	}{
		{"1025 ASCII bytes", a("a", 1025), a("a", 1024), a("a", 1023) + "b", false},
		{"1025 bytes, last kept byte 'z'", a("z", 1030), a("z", 1024), a("z", 1023) + "{", false},
		// é is C3 A9 at bytes 1023-1024: cut before it.
		{"2-byte character straddling byte 1024", a("a", 1023) + "é", a("a", 1023), a("a", 1022) + "b", false},
		// € is E2 82 AC at bytes 1022-1024.
		{"3-byte character straddling byte 1024", a("a", 1022) + "€", a("a", 1022), a("a", 1021) + "b", false},
		// € at 1021-1023 ends exactly at the cut; the upper bound increments it.
		{"3-byte character ending at byte 1024", a("a", 1021) + "€x", a("a", 1021) + "€", a("a", 1021) + "\u20ad", false},
		// 😀 (U+1F600, F0 9F 98 80) at bytes 1021-1024.
		{"4-byte character straddling byte 1024", a("a", 1021) + "😀", a("a", 1021), a("a", 1020) + "b", false},
		// U+10FFFF cannot be incremented: drop it, increment the 'a' before.
		{"U+10FFFF carries", a("a", 1020) + "\U0010FFFF" + "zz", a("a", 1020) + "\U0010FFFF", a("a", 1019) + "b", false},
		{"two U+10FFFF carry twice", a("a", 1016) + "\U0010FFFF\U0010FFFF" + "z", a("a", 1016) + "\U0010FFFF\U0010FFFF", a("a", 1015) + "b", false},
		// U+D7FF + 1 would be a surrogate: jump to U+E000.
		{"U+D7FF skips the surrogates", a("a", 1021) + "\uD7FF" + "z", a("a", 1021) + "\uD7FF", a("a", 1021) + "\uE000", false},
		{"U+FFFF grows to 4 bytes", a("a", 1021) + "\uFFFF" + "z", a("a", 1021) + "\uFFFF", a("a", 1021) + "\U00010000", false},
		{"U+007F grows to 2 bytes", a("\x7f", 1025), a("\x7f", 1024), a("\x7f", 1023) + "\u0080", false},
		{"all U+10FFFF: no shorter upper bound", a("\U0010FFFF", 257), a("\U0010FFFF", 256), "", true},
		// Not UTF-8: bytes are incremented as bytes.
		{"invalid byte", a("a", 1023) + "\xc3" + "a", a("a", 1023) + "\xc3", a("a", 1023) + "\xc4", false},
		{"0xFF bytes carry", a("a", 1000) + a("\xff", 30), a("a", 1000) + a("\xff", 24), a("a", 999) + "b", false},
		{"all 0xFF: no shorter upper bound", a("\xff", 1025), a("\xff", 1024), "", true},
	}
	for _, tc := range cases {
		lo := lowerBound(tc.in)
		if lo != tc.lower {
			t.Errorf("%s: lower bound of %d bytes ending %q, want %d ending %q", tc.name, len(lo), tail(lo), len(tc.lower), tail(tc.lower))
		}
		if !(lo < tc.in) || len(lo) > MaxStringBytes {
			t.Errorf("%s: lower bound is not a strict bound of at most 1024 bytes", tc.name)
		}
		up, ok := upperBound(tc.in)
		if ok == tc.noUpper {
			t.Errorf("%s: upperBound ok = %v", tc.name, ok)
			continue
		}
		if !ok {
			continue
		}
		if up != tc.upper {
			t.Errorf("%s: upper bound of %d bytes ending %q, want %d ending %q", tc.name, len(up), tail(up), len(tc.upper), tail(tc.upper))
		}
		if !(up > tc.in) {
			t.Errorf("%s: upper bound is not above the value", tc.name)
		}
		if utf8.ValidString(tc.in) && (!utf8.ValidString(up) || !utf8.ValidString(lo)) {
			t.Errorf("%s: bounds of valid UTF-8 are not valid UTF-8", tc.name)
		}
	}
}

func tail(s string) string {
	if len(s) > 6 {
		return s[len(s)-6:]
	}
	return s
}

// TestStringBoundsRandom checks the bound properties on random long strings
// mixing characters of every UTF-8 length, including the carry cases.
func TestStringBoundsRandom(t *testing.T) {
	r := newRand(11)
	alphabet := []rune{'a', 'z', 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10fffe, 0x10ffff}
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		b.Reset()
		n := 1000 + r.IntN(40)
		for b.Len() < n {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		if len(s) <= MaxStringBytes {
			continue
		}
		lo := lowerBound(s)
		if !(lo < s) || !strings.HasPrefix(s, lo) || len(lo) > MaxStringBytes || len(lo) < MaxStringBytes-3 || !utf8.ValidString(lo) {
			t.Fatalf("bad lower bound for %q", tail(s))
		}
		if up, ok := upperBound(s); ok {
			if !(up > s) || !utf8.ValidString(up) || len(up) > MaxStringBytes+3 {
				t.Fatalf("bad upper bound for %q: %q", tail(s), tail(up))
			}
		}
	}
}
