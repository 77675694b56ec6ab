package rowindex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// Streams written by this module's encoders, with row-index positions taken
// every stride values as the writer takes them (OutStream position, then the
// encoder's buffered count): reading any selection of row groups through the
// ranges RunRange gives never leaves them, whatever the data, block size and
// stride.

const (
	simIntV2Signed = iota
	simIntV2Unsigned
	simIntV1Signed
	simByte
	simBool
	simKinds
)

// genValues returns n values made of segments of random shapes: 64-bit
// noise, small values, long repeats, steep and gentle ramps.
func genValues(rng *rand.Rand, kind, n int) []int64 {
	out := make([]int64, 0, n)
	for len(out) < n {
		m := min(n-len(out), 1+rng.IntN(700))
		switch kind {
		case simByte:
			switch rng.IntN(3) {
			case 0:
				for range m {
					out = append(out, int64(int8(rng.Uint32())))
				}
			default:
				v := int64(int8(rng.Uint32()))
				for range m {
					out = append(out, v)
				}
			}
			continue
		case simBool:
			p := []float64{0, 0.5, 1, 0.02}[rng.IntN(4)]
			for range m {
				v := int64(0)
				if rng.Float64() < p {
					v = 1
				}
				out = append(out, v)
			}
			continue
		}
		switch rng.IntN(5) {
		case 0: // noise
			for range m {
				out = append(out, int64(rng.Uint64()))
			}
		case 1: // small
			for range m {
				out = append(out, int64(rng.IntN(16)))
			}
		case 2: // repeats, a few short ones then a long one
			for len(out) < n && m > 0 {
				v := int64(rng.Uint64() >> rng.IntN(64))
				k := min(m, 1+rng.IntN(12))
				if rng.IntN(4) == 0 {
					k = m
				}
				for range k {
					out = append(out, v)
				}
				m -= k
			}
		case 3: // steep ramp
			v := int64(rng.Uint64() >> 8)
			step := int64(1) << (50 + rng.IntN(6))
			for range m {
				out = append(out, v)
				if v > 1<<62 || v < -(1<<62) {
					step = -step
				}
				v += step
			}
		default: // gentle ramp
			v := int64(rng.IntN(1 << 20))
			for range m {
				out = append(out, v)
				v += int64(rng.IntN(3))
			}
		}
	}
	return out
}

// simStream writes values with an encoder of kind into a stream of codec
// comp and block size bs, recording a position every stride values.
func simStream(t *testing.T, kind int, values []int64, comp orc.CompressionKind, bs, stride int) ([]byte, [][]uint64) {
	t.Helper()
	var c format.Compressor
	if comp != orc.CompressionNone {
		var err error
		if c, err = format.NewCompressor(comp, 1); err != nil {
			t.Fatal(err)
		}
	}
	out := format.NewOutStream(comp, bs, c)
	var write func(int64) error
	var buffered func([]uint64) []uint64
	var flush func() error
	switch kind {
	case simByte:
		e := format.NewByteRLEEncoder(out)
		write = func(v int64) error { return e.Write(byte(v)) }
		buffered = func(p []uint64) []uint64 { return append(p, uint64(e.Buffered())) }
		flush = e.Flush
	case simBool:
		e := format.NewBoolRLEEncoder(out)
		write = func(v int64) error { return e.Write(v != 0) }
		buffered = func(p []uint64) []uint64 {
			bytes, bits := e.Buffered()
			return append(p, uint64(bytes), uint64(bits))
		}
		flush = e.Flush
	default:
		var e format.IntEncoder
		switch kind {
		case simIntV2Signed:
			e = format.NewIntRLEv2Encoder(out, true)
		case simIntV2Unsigned:
			e = format.NewIntRLEv2Encoder(out, false)
		default:
			e = format.NewIntRLEv1Encoder(out, true)
		}
		write = e.Write
		buffered = func(p []uint64) []uint64 { return append(p, uint64(e.Buffered())) }
		flush = e.Flush
	}
	var positions [][]uint64
	for i, v := range values {
		if i%stride == 0 {
			positions = append(positions, buffered(out.AppendPosition(nil)))
		}
		if err := write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(out.Bytes()), positions
}

// simRead seeks a window of stored to pos and decodes n values.
func simRead(kind int, stored []byte, r Range, comp orc.CompressionKind, dec format.Decompressor, bs int, pos []uint64, n int) ([]int64, error) {
	win := stored[r.Start:r.End]
	in := format.NewInStream(format.StreamInfo{Name: "sim", Stripe: -1, Column: -1, Length: uint64(len(stored))}, win, comp, bs, dec)
	in.SetWindow(win, r.Start)
	pp := format.NewPositionProvider(pos)
	if err := in.Seek(pp); err != nil {
		return nil, err
	}
	out := make([]int64, n)
	switch kind {
	case simByte:
		d := format.NewByteRLEDecoder(in)
		k, _ := pp.Next()
		if err := d.Skip(int64(k)); err != nil {
			return nil, err
		}
		b := make([]byte, n)
		if err := d.Next(b); err != nil {
			return nil, err
		}
		for i, v := range b {
			out[i] = int64(int8(v))
		}
	case simBool:
		d := format.NewBoolRLEDecoder(in)
		k, _ := pp.Next()
		bits, _ := pp.Next()
		if err := d.SeekTo(int64(k), int(bits)); err != nil {
			return nil, err
		}
		b := make([]bool, n)
		if err := d.Next(b); err != nil {
			return nil, err
		}
		for i, v := range b {
			if v {
				out[i] = 1
			}
		}
	default:
		var d format.IntDecoder
		switch kind {
		case simIntV2Signed:
			d = format.NewIntRLEv2Decoder(in, true)
		case simIntV2Unsigned:
			d = format.NewIntRLEv2Decoder(in, false)
		default:
			d = format.NewIntRLEv1Decoder(in, true)
		}
		k, _ := pp.Next()
		if err := d.Skip(int64(k)); err != nil {
			return nil, err
		}
		if err := d.Next(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TestRunRangeOurWriter reads runs of row groups of streams written by our
// encoders (positions taken the writer's way, not aligned) through the
// ranges RunRange gives, and checks each range with checkRunRange.
func TestRunRangeOurWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	iters := 1500
	if testing.Short() {
		iters = 300
	}
	runs, exact, javaOutside := 0, 0, 0
	for range iters {
		kind := rng.IntN(simKinds)
		comp := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy}[rng.IntN(3)]
		bs := []int{16, 64, 100, 1000, 4096, 65536}[rng.IntN(6)]
		stride := []int{1, 7, 100, 511, 512, 513, 1000, 3000}[rng.IntN(8)]
		n := rng.IntN(min(12000, 40*stride+1)) // at most 40 groups
		values := genValues(rng, kind, n)
		stored, positions := simStream(t, kind, values, comp, bs, stride)
		compressed := comp != orc.CompressionNone
		var dec format.Decompressor
		if compressed {
			dec, _ = format.NewDecompressor(comp)
		}
		groups := len(positions)
		length := uint64(len(stored))
		entries := make([]*orcpb.RowIndexEntry, groups)
		pos := make([]streamPos, groups)
		for g, p := range positions {
			entries[g] = &orcpb.RowIndexEntry{Positions: p}
			pos[g] = posOf(p, compressed)
		}
		if groups == 0 {
			continue
		}
		si, err := NewStreamIndex(length, entries, []Slot{{Kind: orcpb.Stream_DATA, Count: len(positions[0])}}, 0, compressed, bs)
		if err != nil {
			t.Fatal(err)
		}
		javaSlop := uint64(2 + 8*512)
		if compressed {
			javaSlop = uint64((2 + (512*8-1)/bs) * (bs + 3))
		}
		for range 4 {
			sel := make([]bool, groups)
			p := rng.Float64()
			for g := range sel {
				sel[g] = rng.Float64() < p
			}
			for _, run := range runsOf(sel) {
				a, b := run[0], run[1]
				where := fmt.Sprintf("kind %d, %v block %d, stride %d: groups %d..%d", kind, comp, bs, stride, a, b-1)
				r, ex := si.RunRange(a, b)
				if msg := checkRunRange(length, pos, compressed, bs, a, b, r, ex); msg != "" {
					t.Fatalf("%s: %s", where, msg)
				}
				first, last := a*stride, min(b*stride, n)
				if b < groups {
					java := Range{pos[a].place, min(length, pos[b].place+javaSlop)}
					if _, err := simRead(kind, stored, java, comp, dec, bs, positions[a], last-first); err != nil {
						javaOutside++
					}
				}
				got, err := simRead(kind, stored, r, comp, dec, bs, positions[a], last-first)
				if errors.Is(err, format.ErrOutsideWindow) {
					t.Fatalf("%s left the range %v: %v", where, r, err)
				}
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if !slices.Equal(got, values[first:last]) {
					t.Fatalf("%s: values differ", where)
				}
				runs++
				if ex {
					exact++
				}
			}
		}
	}
	t.Logf("%d runs read through RunRange's ranges, %d of them exact; with Java's slop %d ran out", runs, exact, javaOutside)
}
