package reader

import "testing"

// getBuf hands out buffers of the length asked for, with a power-of-two
// capacity, and putBuf takes back only such buffers; what comes out of the
// pool is as long as asked, whatever it held before.
func TestBufPool(t *testing.T) {
	for _, n := range []int64{1, 2, 3, 1000, 4096, 4097, 50 << 20} {
		b := getBuf(n)
		if int64(len(b)) != n || cap(b)&(cap(b)-1) != 0 || int64(cap(b)) >= 2*n && n > 1 {
			t.Fatalf("getBuf(%d): len %d cap %d", n, len(b), cap(b))
		}
		for i := range b {
			b[i] = 0xee
		}
		putBuf(b)
		if c := getBuf(n); int64(len(c)) != n {
			t.Fatalf("getBuf(%d) after putBuf: len %d", n, len(c))
		}
	}
	if getBuf(0) != nil {
		t.Fatal("getBuf(0) is not nil")
	}
	putBuf(nil)
	putBuf(make([]byte, 10, 12)) // not a pool buffer: dropped
	if b := getBuf(9); len(b) != 9 || cap(b) != 16 {
		t.Fatalf("getBuf(9): len %d cap %d", len(b), cap(b))
	}
}
