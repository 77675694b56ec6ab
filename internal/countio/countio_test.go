package countio

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCounts(t *testing.T) {
	var buf bytes.Buffer
	w := &Writer{W: &buf}
	io.WriteString(w, "hello, ")
	io.WriteString(w, "world")
	if w.N != 12 || buf.String() != "hello, world" {
		t.Errorf("Writer counted %d for %q", w.N, buf.String())
	}
	r := &Reader{R: iotest.OneByteReader(strings.NewReader("abcdef"))}
	got, err := io.ReadAll(r)
	if err != nil || r.N != 6 || string(got) != "abcdef" {
		t.Errorf("Reader counted %d for %q (%v)", r.N, got, err)
	}
}
