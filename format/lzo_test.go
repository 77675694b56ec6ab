package format

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

func TestLZOVectors(t *testing.T) {
	lit300 := make([]byte, 300)
	for i := range lit300 {
		lit300[i] = byte(i * 7)
	}
	tests := []struct {
		name string
		in   []byte
		want []byte
	}{
		{"empty block", []byte{0x11, 0, 0}, nil},
		// First byte 21: four literals, then the end marker.
		{"first literals", []byte{0x15, 'a', 'b', 'c', 'd', 0x11, 0, 0}, []byte("abcd")},
		// 19: two literals (state 2); 0x64 = 01 1 001 00: copy 4 bytes
		// from distance 2, overlapping its own output.
		{"overlapping copy", []byte{0x13, 'a', 'b', 0x64, 0x00, 0x11, 0, 0}, []byte("ababab")},
		// 0x65 also asks for one trailing literal.
		{"trailing literal", []byte{0x13, 'a', 'b', 0x65, 0x00, 'z', 0x11, 0, 0}, []byte("abababz")},
		// Long literal run: 0000 0000, then 15 + 255 + 27 = 297, plus 3.
		{"long literals", append(append([]byte{0x00, 0x00, 0x1b}, lit300...), 0x11, 0, 0), lit300},
		// State 1 after one literal: 0000 DDSS H is a 2-byte copy at 1+D+4H.
		{"two-byte copy", []byte{0x12, 'x', 0x00, 0x00, 0x11, 0, 0}, []byte("xxx")},
		// 001 00000 with extension 5: length 2 + 31 + 5 = 38 from distance
		// 1 + (4>>2) = 2.
		{"extended copy", []byte{0x13, 'a', 'b', 0x20, 0x05, 0x04, 0x00, 0x11, 0, 0}, []byte(strings.Repeat("ab", 20))},
		// 1 11 000 00 = copy 8 bytes from distance 1.
		{"8-byte copy", []byte{0x12, 'q', 0xe0, 0x00, 0x11, 0, 0}, []byte("qqqqqqqqq")},
	}
	d := lzoDecompressor{}
	for _, tc := range tests {
		got, err := d.Decompress(nil, tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLZOCorrupt(t *testing.T) {
	zeros := make([]byte, 100)
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty input", nil},
		{"no end marker", []byte{0x12, 'a'}},
		{"literals past the end", []byte{0x12}},
		{"long literals past the end", []byte{0x05, 1, 2}},
		{"distance before the start", []byte{0x12, 'a', 0x64, 0x05, 0x11, 0, 0}},
		{"far distance before the start", []byte{0x10, 0x01, 0x04, 0x00, 0x11, 0, 0}},
		{"copy from empty output", []byte{0x40, 0x00, 0x11, 0, 0}},
		{"data after the end", []byte{0x11, 0, 0, 0}},
		{"length extension never ends", append([]byte{0x00}, zeros...)},
		{"end marker cut", []byte{0x11, 0x00}},
		{"copy operand missing", []byte{0x12, 'a', 0x64}},
		{"two-byte copy operand missing", []byte{0x12, 'a', 0x00}},
	}
	d := lzoDecompressor{}
	for _, tc := range tests {
		if _, err := d.Decompress(nil, tc.in); !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", tc.name, err)
		}
	}
	// The limit holds for literals and copies alike.
	in := []byte{0x13, 'a', 'b', 0x20, 0x05, 0x04, 0x00, 0x11, 0, 0} // 40 bytes out
	if _, err := d.DecompressLimit(nil, in, 39); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("copy over the limit: error %v, want ErrCorrupt", err)
	}
	if out, err := d.DecompressLimit(nil, in, 40); err != nil || len(out) != 40 {
		t.Errorf("copy at the limit: %d bytes, %v", len(out), err)
	}
	if _, err := d.DecompressLimit(nil, []byte{0x15, 'a', 'b', 'c', 'd', 0x11, 0, 0}, 3); !errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("literals over the limit: error %v, want ErrCorrupt", err)
	}
}

// TestLZORoundTrip decodes what a simple test encoder makes of many inputs,
// and checks that the encoder used every instruction form.
func TestLZORoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	lzoFormsUsed = [lzoForms]int{}
	d := lzoDecompressor{}
	check := func(name string, src []byte) {
		t.Helper()
		z := lzoTestEncode(nil, src)
		out, err := d.Decompress(nil, z)
		if err != nil {
			t.Fatalf("%s (%d bytes): %v", name, len(src), err)
		}
		if !bytes.Equal(out, src) {
			t.Fatalf("%s (%d bytes): round trip differs", name, len(src))
		}
		if _, err := d.DecompressLimit(nil, z, len(src)-1); len(src) > 0 && !errors.Is(err, orc.ErrCorrupt) {
			t.Fatalf("%s: one byte under the limit: %v", name, err)
		}
	}
	check("empty", nil)
	check("one byte", []byte{9})
	for n := 1; n < 600; n += 37 {
		check("literals only", randBytes(r, n, 256))
	}
	for i := 0; i < 300; i++ {
		n := r.IntN(20000)
		if i%10 == 0 {
			n = 60000 + r.IntN(40000)
		}
		src := randBytes(r, n, 1+r.IntN(6))
		check("small alphabet", src)
		check("text", lzoText(r, n))
		check("far repeats", lzoFarRepeats(r, n))
	}
	check("zeros", make([]byte, 100000))
	for f, n := range lzoFormsUsed {
		if n == 0 {
			t.Errorf("test encoder never used form %d (%s)", f, lzoFormNames[f])
		}
	}
}

func randBytes(r *rand.Rand, n, alphabet int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(alphabet))
	}
	return b
}

func lzoText(r *rand.Rand, n int) []byte {
	words := []string{"lorem ", "ipsum ", "dolor ", "sit ", "amet ", "x", "yz ", "\n"}
	b := make([]byte, 0, n+8)
	for len(b) < n {
		if r.IntN(8) == 0 {
			b = append(b, byte(r.Uint32()))
		}
		b = append(b, words[r.IntN(len(words))]...)
	}
	return b[:n]
}

// lzoFarRepeats is random bytes with blocks copied from far back, to make
// the encoder reach for the long-distance forms.
func lzoFarRepeats(r *rand.Rand, n int) []byte {
	b := randBytes(r, n, 256)
	for i := 0; i < n/500; i++ {
		length := 3 + r.IntN(300)
		dist := 1 + r.IntN(49151)
		at := r.IntN(n)
		if at-dist < 0 || at+length > n {
			continue
		}
		copy(b[at:at+length], b[at-dist:])
	}
	return b
}

// The instruction forms of LZO1X, counted by the test encoder.
const (
	lzoFirstLiterals = iota
	lzoLongLiterals
	lzoShortCopy2 // 0000DDSS after 1..3 literals
	lzoShortCopy3 // 0000DDSS after 4+ literals
	lzoM2         // 01LDDDSS and 1LLDDDSS
	lzoM3         // 001LLLLL
	lzoM4         // 0001HLLL
	lzoExtended   // a length extension
	lzoForms
)

var lzoFormNames = [lzoForms]string{"first literals", "long literals", "2-byte copy", "3-byte copy",
	"short-distance copy", "mid-distance copy", "far copy", "length extension"}

var lzoFormsUsed [lzoForms]int

// lzoTestEncode compresses src into an LZO1X block: a greedy matcher that
// emits every instruction form the format has, for testing the decoder. It
// aims at coverage, not at a good ratio, and is no part of the library
// (orcgo does not write LZO).
func lzoTestEncode(dst, src []byte) []byte {
	out := dst[:0]
	const hashBits = 14
	var table [1 << hashBits]int32 // position+1 of the last 3 bytes with a hash
	hash := func(i int) int {
		v := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16
		return int(v * 2654435761 >> (32 - hashBits))
	}
	ext := func(v int) { // v >= 1
		lzoFormsUsed[lzoExtended]++
		for v > 255 {
			out = append(out, 0)
			v -= 255
		}
		out = append(out, byte(v))
	}
	first := true
	sAt := -1 // index of the byte holding the previous copy's SS bits
	state := 0
	literals := func(lit []byte) {
		n := len(lit)
		switch {
		case n == 0:
			if !first {
				state = 0
			}
			return
		case first && n <= 238:
			lzoFormsUsed[lzoFirstLiterals]++
			out = append(out, byte(17+n))
			state = min(n, 4)
		case !first && n <= 3:
			out[sAt] |= byte(n)
			state = n
		default:
			lzoFormsUsed[lzoLongLiterals]++
			if n-3 <= 15 {
				out = append(out, byte(n-3))
			} else {
				out = append(out, 0)
				ext(n - 3 - 15)
			}
			state = 4
		}
		first = false
		out = append(out, lit...)
	}
	copyOp := func(length, dist int) {
		first = false
		switch {
		case length == 2:
			lzoFormsUsed[lzoShortCopy2]++
			d := dist - 1
			sAt = len(out)
			out = append(out, byte(d&3)<<2, byte(d>>2))
		case length == 3 && state == 4 && dist >= 2049 && dist <= 3072:
			lzoFormsUsed[lzoShortCopy3]++
			d := dist - 2049
			sAt = len(out)
			out = append(out, byte(d&3)<<2, byte(d>>2))
		case length <= 8 && dist <= 2048:
			lzoFormsUsed[lzoM2]++
			d := dist - 1
			sAt = len(out)
			if length <= 4 {
				out = append(out, 0x40|byte(length-3)<<5|byte(d&7)<<2, byte(d>>3))
			} else {
				out = append(out, 0x80|byte(length-5)<<5|byte(d&7)<<2, byte(d>>3))
			}
		case dist <= 16384:
			lzoFormsUsed[lzoM3]++
			if n := length - 2; n <= 31 {
				out = append(out, 0x20|byte(n))
			} else {
				out = append(out, 0x20)
				ext(n - 31)
			}
			sAt = len(out)
			d := dist - 1
			out = append(out, byte(d<<2), byte(d>>6))
		default:
			lzoFormsUsed[lzoM4]++
			d := dist - 16384
			h := byte(d>>14) << 3
			if n := length - 2; n <= 7 {
				out = append(out, 0x10|h|byte(n))
			} else {
				out = append(out, 0x10|h)
				ext(n - 7)
			}
			sAt = len(out)
			d &= 0x3fff
			out = append(out, byte(d<<2), byte(d>>6))
		}
		state = 0
	}

	lit := 0
	i := 0
	for i+3 <= len(src) {
		h := hash(i)
		cand := int(table[h]) - 1
		table[h] = int32(i + 1)
		length, dist := 0, 0
		if cand >= 0 && i-cand <= 49151 && src[cand] == src[i] && src[cand+1] == src[i+1] && src[cand+2] == src[i+2] {
			length, dist = 3, i-cand
			for i+length < len(src) && src[cand+length] == src[i+length] {
				length++
			}
		}
		pending := i - lit
		if length == 0 && pending >= 1 && pending <= 3 {
			// Try a 2-byte copy from close by.
			for d := 1; d <= min(64, i); d++ {
				if src[i-d] == src[i] && src[i-d+1] == src[i+1] {
					length, dist = 2, d
					break
				}
			}
		}
		if length == 0 {
			i++
			continue
		}
		if length > 3 && dist >= 2049 && dist <= 3072 && pending >= 4 {
			length = 3 // use the 3-byte form that exists only after 4+ literals
		}
		literals(src[lit:i])
		copyOp(length, dist)
		i += length
		lit = i
	}
	literals(src[lit:])
	return append(out, 0x11, 0, 0)
}

// FuzzLZORoundTrip decodes what the test encoder makes of arbitrary input,
// and decodes the input itself as a block: that must not panic and may only
// fail with ErrCorrupt.
func FuzzLZORoundTrip(f *testing.F) {
	f.Add([]byte("abcabcabcabcabc"))
	f.Add(make([]byte, 1000))
	f.Add([]byte{0x13, 'a', 'b', 0x64, 0x00, 0x11, 0, 0})
	d := lzoDecompressor{}
	f.Fuzz(func(t *testing.T, src []byte) {
		z := lzoTestEncode(nil, src)
		out, err := d.Decompress(nil, z)
		if err != nil || !bytes.Equal(out, src) {
			t.Fatalf("round trip of %d bytes: %v", len(src), err)
		}
		if _, err := d.DecompressLimit(nil, src, 1<<16); err != nil && !errors.Is(err, orc.ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
	})
}
