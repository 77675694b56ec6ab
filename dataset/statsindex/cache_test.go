package statsindex

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// countingReader counts ReadAt calls.
type countingReader struct {
	r     *bytes.Reader
	calls int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	return c.r.ReadAt(p, off)
}

// TestBlockCache: random reads through the cache return the bytes of the
// underlying reader, EOF where it would, and each block is fetched once.
func TestBlockCache(t *testing.T) {
	defer func(b, w int64) { indexBlock, tailWindow = b, w }(indexBlock, tailWindow)
	indexBlock, tailWindow = 4096, 1000
	r := rand.New(rand.NewPCG(33, 21))
	for _, size := range []int{0, 1, int(tailWindow - 1), int(tailWindow + 5), int(indexBlock), int(3*indexBlock + 777), int(20*indexBlock + 1)} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		under := &countingReader{r: bytes.NewReader(data)}
		c := newBlockCache(under, int64(size))
		for range 150 {
			off := r.Int64N(int64(size) + 10)
			n := r.IntN(1000)
			if r.IntN(10) == 0 {
				n = r.IntN(int(3*indexBlock/2 + 10))
			}
			got := make([]byte, n)
			want := make([]byte, n)
			gn, gerr := c.ReadAt(got, off)
			wn, werr := bytes.NewReader(data).ReadAt(want, off)
			if gn != wn || !bytes.Equal(got[:gn], want[:wn]) || (gerr == nil) != (werr == nil) {
				t.Fatalf("size %d, ReadAt(%d bytes, %d): %d %v, want %d %v", size, n, off, gn, gerr, wn, werr)
			}
			if gerr != nil && gerr != io.EOF {
				t.Fatalf("size %d: error %v", size, gerr)
			}
		}
		blocks := (size-int(tailWindow)+int(indexBlock)-1)/int(indexBlock) + 1
		if under.calls > 150+blocks {
			t.Fatalf("size %d: %d reads below", size, under.calls)
		}
		// Once every block is kept, reads outside the tail window cost nothing.
		if size > int(tailWindow) {
			all := make([]byte, size-int(tailWindow))
			if _, err := c.ReadAt(all, 0); err != nil {
				t.Fatal(err)
			}
			before := under.calls
			for range 50 {
				off := r.Int64N(int64(size) - tailWindow)
				c.ReadAt(make([]byte, min(int64(r.IntN(1000)), int64(size)-tailWindow-off)), off)
			}
			if under.calls != before {
				t.Fatalf("size %d: %d reads below for kept blocks", size, under.calls-before)
			}
		}
	}
}
