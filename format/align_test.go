package format

// Aligned boundaries: an encoder flushed in mid-stream, then its OutStream
// flushed, leaves a position of [chunk start, 0] (or [byte offset]) with no
// value held, and decoding from there gives the values written after it.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
)

// The tests below write values in pieces through an encoder over an
// OutStream of block size 1000, ending runs and chunks before each piece,
// and decode from the position recorded at each boundary.

func alignCodecs() []orc.CompressionKind {
	return []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd}
}

func newAlignOut(t *testing.T, kind orc.CompressionKind) (*OutStream, Decompressor) {
	t.Helper()
	var c Compressor
	var dec Decompressor
	if kind != orc.CompressionNone {
		var err error
		if c, err = NewCompressor(kind, 0); err != nil {
			t.Fatal(err)
		}
		dec, _ = NewDecompressor(kind)
	}
	return NewOutStream(kind, 1000, c), dec
}

// checkAligned checks that a position is at a run and chunk start: its
// inner chunk offset (compressed) and every decoder number but the last
// boolean one are 0.
func checkAligned(t *testing.T, kind orc.CompressionKind, pos []uint64, bits int) {
	t.Helper()
	k := 1
	if kind != orc.CompressionNone {
		k = 2
		if pos[1] != 0 {
			t.Fatalf("position %v: offset %d inside the chunk", pos, pos[1])
		}
	}
	rest := pos[k:]
	if bits >= 0 {
		if uint64(bits) != rest[len(rest)-1] {
			t.Fatalf("position %v: %d bits, want %d", pos, rest[len(rest)-1], bits)
		}
		rest = rest[:len(rest)-1]
	}
	for _, v := range rest {
		if v != 0 {
			t.Fatalf("position %v: %d values held", pos, v)
		}
	}
}

func TestAlignedIntEncoders(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, kind := range alignCodecs() {
		for _, v2 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/v2=%v", kind, v2), func(t *testing.T) {
				out, dec := newAlignOut(t, kind)
				var enc IntEncoder = NewIntRLEv1Encoder(out, true)
				if v2 {
					enc = NewIntRLEv2Encoder(out, true)
				}
				var vals []int64
				var positions [][]uint64
				var at []int
				for len(vals) < 20000 {
					if err := enc.Flush(); err != nil {
						t.Fatal(err)
					}
					if err := out.Flush(); err != nil {
						t.Fatal(err)
					}
					pos := append(out.AppendPosition(nil), uint64(enc.Buffered()))
					checkAligned(t, kind, pos, -1)
					positions, at = append(positions, pos), append(at, len(vals))
					n := r.IntN(700)
					base := r.Int64N(1000)
					for i := 0; i < n; i++ {
						var v int64
						switch r.IntN(3) {
						case 0:
							v = base // repeats
						case 1:
							v = base + int64(i) // a run with a delta
						default:
							v = r.Int64N(1 << r.IntN(60))
						}
						vals = append(vals, v)
					}
					if err := enc.WriteValues(vals[len(vals)-n:]); err != nil {
						t.Fatal(err)
					}
				}
				if err := enc.Flush(); err != nil {
					t.Fatal(err)
				}
				out.Flush()
				in := NewInStream(StreamInfo{Name: "DATA"}, out.Bytes(), kind, 1000, dec)
				for i, pos := range positions {
					p := NewPositionProvider(pos)
					if err := in.Seek(p); err != nil {
						t.Fatal(err)
					}
					var d IntDecoder = NewIntRLEv1Decoder(in, true)
					if v2 {
						d = NewIntRLEv2Decoder(in, true)
					}
					got := make([]int64, len(vals)-at[i])
					if err := d.Next(got); err != nil {
						t.Fatalf("from %v: %v", pos, err)
					}
					if !slices.Equal(got, vals[at[i]:]) {
						t.Fatalf("from %v: values differ", pos)
					}
				}
			})
		}
	}
}

func TestAlignedByteAndBoolEncoders(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, kind := range alignCodecs() {
		t.Run(kind.String(), func(t *testing.T) {
			bout, dec := newAlignOut(t, kind)
			lout, _ := newAlignOut(t, kind)
			be := NewByteRLEEncoder(bout)
			le := NewBoolRLEEncoder(lout)
			var bytesIn []byte
			var bools []bool
			var bpos, lpos [][]uint64
			var at []int
			for len(bytesIn) < 20000 {
				if err := be.Flush(); err != nil {
					t.Fatal(err)
				}
				if err := le.FlushBytes(); err != nil {
					t.Fatal(err)
				}
				bout.Flush()
				lout.Flush()
				p := append(bout.AppendPosition(nil), uint64(be.Buffered()))
				checkAligned(t, kind, p, -1)
				nb, bits := le.Buffered()
				q := append(lout.AppendPosition(nil), uint64(nb), uint64(bits))
				// The partial byte stays; its bits are the values since
				// the last multiple of 8.
				checkAligned(t, kind, q, len(bools)%8)
				bpos, lpos, at = append(bpos, p), append(lpos, q), append(at, len(bytesIn))
				n := r.IntN(500)
				run := r.IntN(2) == 0
				for i := 0; i < n; i++ {
					b := byte(r.IntN(256))
					if run {
						b = 7
					}
					bytesIn = append(bytesIn, b)
					be.Write(b)
					v := r.IntN(3) == 0 || run
					bools = append(bools, v)
					le.Write(v)
				}
			}
			be.Flush()
			le.Flush()
			bout.Flush()
			lout.Flush()
			bin := NewInStream(StreamInfo{Name: "DATA"}, bout.Bytes(), kind, 1000, dec)
			lin := NewInStream(StreamInfo{Name: "PRESENT"}, lout.Bytes(), kind, 1000, dec)
			for i := range bpos {
				if err := bin.Seek(NewPositionProvider(bpos[i])); err != nil {
					t.Fatal(err)
				}
				bd := NewByteRLEDecoder(bin)
				got := make([]byte, len(bytesIn)-at[i])
				if err := bd.Next(got); err != nil || !slices.Equal(got, bytesIn[at[i]:]) {
					t.Fatalf("bytes from %v: %v", bpos[i], err)
				}
				pp := NewPositionProvider(lpos[i])
				if err := lin.Seek(pp); err != nil {
					t.Fatal(err)
				}
				ld := NewBoolRLEDecoder(lin)
				nb, _ := pp.Next()
				bits, _ := pp.Next()
				if err := ld.SeekTo(int64(nb), int(bits)); err != nil {
					t.Fatal(err)
				}
				gotb := make([]bool, len(bools)-at[i])
				if err := ld.Next(gotb); err != nil || !slices.Equal(gotb, bools[at[i]:]) {
					t.Fatalf("bools from %v: %v", lpos[i], err)
				}
			}
		})
	}
}
