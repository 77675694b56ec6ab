package rowindex

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// Hand-built streams with the largest runs the decoders accept, buffered at
// a position and followed by a repeat run the buffered values spill into:
// the range RunRange gives covers them, Java's 4098 bytes do not.
// Compressed, the position is at the very end of a full chunk (offset in
// chunk = block size), the worst case for the chunk count.
func TestSlopCoversLargestRuns(t *testing.T) {
	runs := map[string][]byte{
		"DIRECT 64-bit":       directRun64(),
		"DELTA 64-bit":        deltaRun64(),
		"PATCHED_BASE 64-bit": patchedRun64(),
	}
	if n := len(runs["PATCHED_BASE 64-bit"]); n != 4356 {
		t.Fatalf("patched run is %d bytes, want 4356", n)
	}
	if n := len(runs["DELTA 64-bit"]); n != 4102 {
		t.Fatalf("delta run is %d bytes, want 4102", n)
	}
	repeat := fixedDeltaRun()
	if len(repeat) != 22 {
		t.Fatalf("repeat run is %d bytes, want 22", len(repeat))
	}
	for name, big := range runs {
		for _, bs := range []int{0, 1, 7, 100, 1000, 4096, 4377, 4378, 4379, 65536} {
			compressed := bs > 0
			// Group 0: filler values, then all of the big run and two of
			// the repeat run's three values. Group 1 starts at the big run
			// with 514 values to skip, and holds the rest. Compressed, the
			// filler fills whole chunks, and group 1's position names the
			// end of the last of them.
			fillerLen := 0
			if compressed {
				fillerLen = bs * ((2 + bs - 1) / bs) // a multiple of bs, at least 2
			}
			filler, fillerValues := shortRepeats(fillerLen)
			plain := slices.Concat(filler, big, repeat, shortRepeats2(50))
			stored := originalChunks(plain, bs)
			pos0 := []uint64{0, 0}
			pos1 := []uint64{uint64(fillerLen), 514}
			if compressed {
				pos0 = []uint64{0, 0, 0}
				pos1 = []uint64{uint64(fillerLen/bs-1) * uint64(bs+3), uint64(bs), 514}
			}
			starts := []uint64{pos0[0], pos1[0]}
			want := decodeAllV2(t, plain)
			n0 := fillerValues + 514
			open := func(win []byte, start uint64) *format.InStream {
				comp, dec := orc.CompressionNone, format.Decompressor(nil)
				if compressed {
					comp = orc.CompressionZlib
					dec, _ = format.NewDecompressor(comp)
				}
				in := format.NewInStream(format.StreamInfo{Name: "DATA", Stripe: -1, Column: -1, Length: uint64(len(stored))},
					win, comp, max(bs, 1), dec)
				in.SetWindow(win, start)
				return in
			}
			// readGroup0 reads group 0 through r.
			readGroup0 := func(r Range) error {
				if r.Start != 0 {
					t.Fatalf("%s bs %d: range %v", name, bs, r)
				}
				in := open(stored[:r.End], 0)
				pp := format.NewPositionProvider(pos0)
				if err := in.Seek(pp); err != nil {
					return err
				}
				d := format.NewIntRLEv2Decoder(in, true)
				k, _ := pp.Next()
				if err := d.Skip(int64(k)); err != nil {
					return err
				}
				got := make([]int64, n0)
				if err := d.Next(got); err != nil {
					return err
				}
				if !slices.Equal(got, want[:n0]) {
					t.Fatalf("%s bs %d: values differ", name, bs)
				}
				return nil
			}
			length := uint64(len(stored))
			si, err := NewStreamIndex(length, entriesOf([][]uint64{pos0, pos1}), []Slot{{orcpb.Stream_DATA, len(pos0)}}, 0, compressed, bs)
			if err != nil {
				t.Fatal(err)
			}
			r, exact := si.RunRange(0, 1)
			if msg := checkRunRange(length, []streamPos{posOf(pos0, compressed), posOf(pos1, compressed)}, compressed, bs, 0, 1, r, exact); msg != "" {
				t.Errorf("%s, block size %d: %s", name, bs, msg)
			}
			if err := readGroup0(r); err != nil {
				t.Errorf("%s, block size %d: reading group 0 through RunRange's %v: %v", name, bs, r, err)
			}
			javaSlop := uint64(2 + 8*512)
			if compressed {
				javaSlop = uint64((2 + (512*8-1)/bs) * (bs + 3))
			}
			err = readGroup0(Range{0, min(length, starts[1]+javaSlop)})
			if err != nil && !errors.Is(err, format.ErrOutsideWindow) {
				t.Errorf("%s, block size %d, Java's slop: %v", name, bs, err)
			}
			if (!compressed || bs == 4096) && err == nil {
				t.Errorf("%s, block size %d: Java's slop was enough, so the case does not test the bound", name, bs)
			}
			// Group 1 seeks into the big run and skips 514 values.
			in := open(stored, 0)
			pp := format.NewPositionProvider(pos1)
			if err := in.Seek(pp); err != nil {
				t.Fatalf("%s bs %d: seek: %v", name, bs, err)
			}
			k, _ := pp.Next()
			d := format.NewIntRLEv2Decoder(in, true)
			if err := d.Skip(int64(k)); err != nil {
				t.Fatal(err)
			}
			v := make([]int64, 1)
			if err := d.Next(v); err != nil || v[0] != want[n0] {
				t.Fatalf("%s bs %d: group 1 starts with %v (%v), want %d", name, bs, v, err, want[n0])
			}
		}
	}
}

// originalChunks frames plain in stored (isOriginal) chunks of bs bytes, or
// returns it as is for bs 0.
func originalChunks(plain []byte, bs int) []byte {
	if bs == 0 {
		return plain
	}
	var out []byte
	for p := plain; len(p) > 0; {
		n := min(bs, len(p))
		out = append(out, byte(n<<1|1), byte(n>>7), byte(n>>15))
		out = append(out, p[:n]...)
		p = p[n:]
	}
	return out
}

// shortRepeats returns n (0 or at least 2) bytes of SHORT_REPEAT runs of
// three 7s, 2 bytes each (one 3-byte run with a 2-byte value when n is
// odd), and how many values they hold.
func shortRepeats(n int) ([]byte, int64) {
	var out []byte
	values := int64(0)
	if n%2 == 1 {
		out = append(out, 0x08, 0, 14) // width 2, 3 copies of zigzag(7)
		n -= 3
		values += 3
	}
	for ; n > 0; n -= 2 {
		out = append(out, 0x00, 14)
		values += 3
	}
	return out, values
}

func shortRepeats2(n int) []byte {
	b, _ := shortRepeats(n)
	return b
}

// directRun64 is a DIRECT run of 512 values packed at 64 bits: 4098 bytes.
func directRun64() []byte {
	out := []byte{0x40 | 31<<1 | 1, 0xff}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 512 {
		out = binary.BigEndian.AppendUint64(out, rng.Uint64())
	}
	return out
}

// deltaRun64 is a DELTA run of 512 values with a 10-byte base, a 10-byte
// delta base and 510 deltas packed at 64 bits: 4102 bytes.
func deltaRun64() []byte {
	out := []byte{0xc0 | 31<<1 | 1, 0xff}
	out = format.AppendVarint(out, -(1<<62)-1) // zigzag 2^63+1: 10 bytes
	out = format.AppendVarint(out, 1<<62)      // zigzag 2^63: 10 bytes
	for i := range 510 {
		d := uint64(0)
		if i == 100 {
			d = 1 << 60
		}
		out = binary.BigEndian.AppendUint64(out, d)
	}
	return out
}

// patchedRun64 is a PATCHED_BASE run of 512 values at 64 bits with an
// 8-byte base and 31 patch entries of 64 bits (gap only): 4356 bytes.
func patchedRun64() []byte {
	out := []byte{0x80 | 31<<1 | 1, 0xff, 7<<5 | 30, 7<<5 | 31} // BW 8, PW 56, PGW 8, PLL 31
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)                   // base 0
	rng := rand.New(rand.NewPCG(7, 8))
	for range 512 {
		out = binary.BigEndian.AppendUint64(out, rng.Uint64()>>1)
	}
	for range 31 {
		out = binary.BigEndian.AppendUint64(out, 1<<56) // gap 1, patch 0
	}
	return out
}

// fixedDeltaRun is a DELTA run of 3 values with width 0 and 10-byte base
// and delta base: 22 bytes.
func fixedDeltaRun() []byte {
	out := []byte{0xc0, 2}
	out = format.AppendVarint(out, -(1<<62)-1)
	return format.AppendVarint(out, 1<<62)
}

// decodeAllV2 decodes a whole signed RLE v2 stream.
func decodeAllV2(t *testing.T, plain []byte) []int64 {
	t.Helper()
	in := format.NewInStream(format.StreamInfo{}, plain, orc.CompressionNone, 0, nil)
	d := format.NewIntRLEv2Decoder(in, true)
	var out []int64
	buf := make([]int64, 1)
	for {
		if err := d.Next(buf); err != nil {
			break
		}
		out = append(out, buf[0])
	}
	if len(out) < 515 {
		t.Fatalf("decoded only %d values", len(out))
	}
	return out
}
