package format

import (
	"runtime"
	"testing"

	"github.com/orcgo/orc"
)

// allocatedPer returns the bytes fn allocates, divided by n.
func allocatedPer(n int, fn func()) int {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return int(after.TotalAlloc-before.TotalAlloc) / n
}

// TestEncodersStartSmall checks that an integer RLE v2 encoder and an
// output stream holding a few bytes take memory for those bytes, not for
// a full run or block (issue 49 item 10: a writer of 100,000 columns took
// 21 KB a column). Before, the encoder held room for 512 values (4 KiB),
// and a stream a chunk buffer of a whole block and a 4 KiB page.
func TestEncodersStartSmall(t *testing.T) {
	const n = 1000
	sinks := make([]*OutStream, n)
	for i := range sinks {
		sinks[i] = NewOutStream(orc.CompressionNone, 0, nil)
	}
	per := allocatedPer(n, func() {
		for _, s := range sinks {
			e := NewIntRLEv2Encoder(s, true)
			e.WriteValues([]int64{7})
			if err := e.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Logf("integer RLE v2 encoder with one value: %d bytes", per)
	if per > 512 {
		t.Errorf("integer RLE v2 encoder with one value: %d bytes, want at most 512", per)
	}
	for _, kind := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		var c Compressor
		if kind != orc.CompressionNone {
			var err error
			if c, err = NewBlockCompressor(kind, 0, 256<<10); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Compress(nil, make([]byte, 100)); err != nil { // its own state, made once
				t.Fatal(err)
			}
		}
		pool := NewPagePool()
		per := allocatedPer(n, func() {
			for range n {
				s := NewPooledOutStream(kind, 256<<10, c, pool)
				s.Write([]byte("ten bytes!"))
				if err := s.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		})
		t.Logf("%v stream of 10 bytes: %d bytes", kind, per)
		if per > 1536 {
			t.Errorf("%v stream of 10 bytes: %d bytes, want at most 1,536", kind, per)
		}
	}
}
