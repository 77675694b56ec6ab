package readat

import (
	"bytes"
	"io"
	"testing"
)

// Reads of an object of 10 bytes whose last 4 are kept as its tail: each
// read's clip, whether the tail answers it, what it copies and what ReadAt
// returns.
func TestReadAt(t *testing.T) {
	obj := []byte("0123456789")
	const size, tailOff = 10, 6
	tail := obj[tailOff:]
	for _, c := range []struct {
		off, n   int
		clipped  int // -1: io.EOF
		fromTail bool
		eof      bool
	}{
		{0, 4, 4, false, false},
		{5, 3, 3, false, false}, // starts before the tail
		{6, 4, 4, true, false},
		{7, 2, 2, true, false},
		{8, 5, 2, true, true}, // cut at the end
		{9, 2, 1, true, true},
		{10, 1, -1, false, true},
		{11, 0, -1, false, true},
		{3, 0, 0, false, false},
	} {
		p := make([]byte, c.n)
		want, err := Clip(p, int64(c.off), size)
		if c.clipped < 0 {
			if err != io.EOF || want != nil {
				t.Errorf("Clip at %d: %d bytes, %v; want io.EOF", c.off, len(want), err)
			}
			continue
		}
		if err != nil || len(want) != c.clipped {
			t.Fatalf("Clip at %d of %d: %d bytes, %v; want %d", c.off, c.n, len(want), err, c.clipped)
		}
		n, ok := FromTail(want, int64(c.off), tailOff, tail)
		if ok != c.fromTail {
			t.Errorf("FromTail at %d of %d: %v, want %v", c.off, c.n, ok, c.fromTail)
		}
		if !ok {
			n = copy(want, obj[c.off:])
		}
		if !bytes.Equal(p[:n], obj[c.off:c.off+n]) {
			t.Errorf("at %d: read %q", c.off, p[:n])
		}
		if _, err := Done(n, p); (err == io.EOF) != c.eof || err != nil && err != io.EOF {
			t.Errorf("Done(%d, %d bytes): %v, want EOF %v", n, len(p), err, c.eof)
		}
	}
	if _, ok := FromTail(make([]byte, 1), 9, 10, nil); ok {
		t.Error("an empty tail answered a read")
	}
}
