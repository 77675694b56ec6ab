package format

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

// pieceSource hands out data in pieces of 1..max bytes, each copied into a
// buffer that the next call overwrites, so a decoder that keeps a chunk past
// NextChunk reads garbage.
type pieceSource struct {
	data []byte
	rng  *rand.Rand
	max  int
	pos  int
	buf  []byte
}

func newPieceSource(data []byte, seed uint64, max int) *pieceSource {
	return &pieceSource{data: data, rng: rand.New(rand.NewPCG(seed, 7)), max: max, buf: make([]byte, max)}
}

func (s *pieceSource) NextChunk() ([]byte, error) {
	if s.pos >= len(s.data) {
		return nil, io.EOF
	}
	n := min(1+s.rng.IntN(s.max), len(s.data)-s.pos)
	for i := range s.buf {
		s.buf[i] = 0xa5
	}
	copy(s.buf, s.data[s.pos:s.pos+n])
	s.pos += n
	return s.buf[:n:n], nil
}

// wholeSource hands out data as one chunk.
type wholeSource struct {
	data []byte
	done bool
}

func (s *wholeSource) NextChunk() ([]byte, error) {
	if s.done || len(s.data) == 0 {
		return nil, io.EOF
	}
	s.done = true
	return s.data, nil
}

func whole(b []byte) *wholeSource { return &wholeSource{data: b} }

// errSource fails with err after handing out data.
type errSource struct {
	data []byte
	err  error
	done bool
}

func (s *errSource) NextChunk() ([]byte, error) {
	if !s.done && len(s.data) > 0 {
		s.done = true
		return s.data, nil
	}
	return nil, s.err
}

// sources returns a whole source and piece sources with several seeds and
// piece sizes up to 7 bytes.
func sources(data []byte) []ChunkSource {
	out := []ChunkSource{whole(data)}
	for seed := uint64(1); seed <= 4; seed++ {
		out = append(out, newPieceSource(data, seed, int(seed%7)+1))
	}
	out = append(out, newPieceSource(data, 99, 7))
	return out
}

func isCorrupt(err error) bool { return errors.Is(err, orc.ErrCorrupt) }

// bitWriter packs values most significant bit first, one bit at a time: a
// plain reference for the packers under test.
type bitWriter struct {
	out  []byte
	nbit int
}

func (w *bitWriter) write(v uint64, width int) {
	for i := width - 1; i >= 0; i-- {
		if w.nbit%8 == 0 {
			w.out = append(w.out, 0)
		}
		if v>>uint(i)&1 != 0 {
			w.out[len(w.out)-1] |= 0x80 >> (w.nbit % 8)
		}
		w.nbit++
	}
}

func packRef(vals []uint64, width int) []byte {
	var w bitWriter
	for _, v := range vals {
		w.write(v, width)
	}
	return w.out
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

func equalInts(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: value %d = %d, want %d", what, i, got[i], want[i])
		}
	}
}

// sinkBuf is a Sink that can be made to fail.
type sinkBuf struct {
	bytes.Buffer
	failAfter int // fail writes once the buffer holds this many bytes (0: never)
}

var errSink = errors.New("sink failed")

func (s *sinkBuf) Write(p []byte) (int, error) {
	if s.failAfter > 0 && s.Len()+len(p) > s.failAfter {
		return 0, errSink
	}
	return s.Buffer.Write(p)
}

func (s *sinkBuf) WriteByte(c byte) error {
	_, err := s.Write([]byte{c})
	return err
}
