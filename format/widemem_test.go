package format

import (
	"math"
	"runtime"
	"testing"
	"unsafe"

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
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
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

// TestFinishedStreamsSmall checks the live heap of streams holding a few
// bytes each at their stripe's end, as the streams of a wide schema's
// columns are (issue 49 item 10): Finish lets go of the chunk buffer, and
// a stream keeps Settle's marks and what only some streams need apart,
// allocated when needed. A zstd stream of 10 bytes, settled before and
// after its bytes came and then finished, held 767 bytes before (a stream
// of 416, a chunk buffer of 256 and its page, with Flush for Finish); 287
// now (a stream of 96, what it stores of 96, and the page).
func TestFinishedStreamsSmall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compress(nil, make([]byte, 100)); err != nil { // its own state, made once
		t.Fatal(err)
	}
	const n = 2000
	pool := NewPagePool()
	keep := make([]*OutStream, n)
	before := liveHeap()
	for i := range keep {
		s := NewPooledOutStream(orc.CompressionZstd, 256<<10, c, pool)
		s.Settle()
		s.Write([]byte("ten bytes!"))
		s.Settle()
		if err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		if got := s.Size(); got != 10+chunkHeaderSize {
			t.Fatalf("finished stream holds %d bytes, want %d", got, 10+chunkHeaderSize)
		}
		keep[i] = s
	}
	per := int(liveHeap()-before) / n
	runtime.KeepAlive(keep)
	t.Logf("a finished zstd stream of 10 bytes: %d live bytes", per)
	if per > 360 {
		t.Errorf("a finished zstd stream of 10 bytes: %d live bytes, want at most 360", per)
	}
}

// liveHeap returns the live heap after a forced collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestRepeatRunInPlace checks that the longest repeat run, a DELTA run of
// equal values with a base of 10 bytes, is built in the encoder's own
// buffer (v2MaxRepeatRun), without allocating, and that an encoder takes
// 112 bytes, as its doc says.
func TestRepeatRunInPlace(t *testing.T) {
	if n := unsafe.Sizeof(IntRLEv2Encoder{}); n != 112 {
		t.Errorf("an IntRLEv2Encoder takes %d bytes, want 112", n)
	}
	s := NewOutStream(orc.CompressionNone, 0, nil)
	e := NewIntRLEv2Encoder(s, true)
	vals := make([]int64, 20)
	for i := range vals {
		vals[i] = math.MinInt64 // zigzag: 2^64-1, a varint of 10 bytes
	}
	e.WriteValues(vals) // the room for the held values
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := s.Bytes(); len(got) != v2MaxRepeatRun {
		t.Fatalf("run of %d bytes %x, want %d", len(got), got, v2MaxRepeatRun)
	}
	if raceEnabled {
		return // the race detector allocates
	}
	allocs := testing.AllocsPerRun(100, func() {
		s.Reset()
		e.Reset(s)
		e.WriteValues(vals)
		e.Flush()
	})
	if allocs != 0 {
		t.Errorf("%v allocations a repeat run, want 0", allocs)
	}
}
