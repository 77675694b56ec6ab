package format

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func decodeV2(t *testing.T, enc []byte, n int, signed bool) []int64 {
	t.Helper()
	var first []int64
	for si, src := range sources(enc) {
		got := make([]int64, n)
		if err := NewIntRLEv2Decoder(src, signed).Next(got); err != nil {
			t.Fatalf("source %d: %v", si, err)
		}
		if first == nil {
			first = got
		} else {
			equalInts(t, "pieces", got, first)
		}
	}
	return first
}

func TestIntRLEv2SpecExamples(t *testing.T) {
	cases := []struct {
		name string
		enc  []byte
		vals []int64
		ours []byte // what our encoder writes, when it differs
	}{
		{"short repeat", []byte{0x0a, 0x27, 0x10}, seq(10000, 0, 5), nil},
		{"direct", []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef},
			[]int64{23713, 43806, 57005, 48879}, nil},
		{"patched base", []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32,
			0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120,
				2130, 2140, 2150, 2160, 2170, 2180, 2190}, nil},
		// The spec packs the deltas 2 2 4 2 4 2 4 6 at 4 bits; 3 suffice:
		// 010 010 100 010 100 010 100 110 = 0x4a 0x28 0xa6.
		{"delta", []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46},
			[]int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29},
			[]byte{0xc4, 0x09, 0x02, 0x02, 0x4a, 0x28, 0xa6}},
	}
	for _, c := range cases {
		equalInts(t, c.name, decodeV2(t, c.enc, len(c.vals), false), c.vals)
		if c.name == "patched base" {
			// PATCHED_BASE values are not zigzagged in signed streams.
			equalInts(t, c.name+" signed", decodeV2(t, c.enc, len(c.vals), true), c.vals)
			continue
		}
		// Our encoder picks the spec's encodings, at the smallest width.
		want := c.enc
		if c.ours != nil {
			want = c.ours
			equalInts(t, c.name+" (ours)", decodeV2(t, c.ours, len(c.vals), false), c.vals)
		}
		var s sinkBuf
		e := NewIntRLEv2Encoder(&s, false)
		e.WriteValues(c.vals)
		if err := e.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.Bytes(), want) {
			t.Errorf("%s: encode = % x, want % x", c.name, s.Bytes(), want)
		}
	}
}

func TestIntRLEv2ShortRepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for w := 1; w <= 8; w++ {
		for n := 3; n <= 10; n++ {
			u := rng.Uint64() & mask(8*w)
			enc := []byte{byte(w-1)<<3 | byte(n-3)}
			for i := w - 1; i >= 0; i-- {
				enc = append(enc, byte(u>>(8*i)))
			}
			equalInts(t, "unsigned", decodeV2(t, enc, n, false), seq(int64(u), 0, n))
			equalInts(t, "signed", decodeV2(t, enc, n, true), seq(UnZigzag(u), 0, n))
		}
	}
}

// directRun builds a DIRECT run from packed values with the width of code.
func directRun(code int, vals []uint64) []byte {
	n := len(vals)
	h := []byte{0x40 | byte(code)<<1 | byte((n-1)>>8), byte(n - 1)}
	return append(h, packRef(vals, int(widthFromCode[code]))...)
}

// Every one of the 32 width codes, DIRECT, at run lengths around the limits.
func TestIntRLEv2DirectAllWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for code := 0; code < 32; code++ {
		w := int(widthFromCode[code])
		for _, n := range []int{1, 2, 7, 8, 9, 100, 511, 512} {
			vals := make([]uint64, n)
			for i := range vals {
				vals[i] = rng.Uint64() & mask(w)
			}
			vals[rng.IntN(n)] = mask(w)
			// Two runs back to back, the second one short.
			enc := append(directRun(code, vals), directRun(code, vals[:1])...)
			want := make([]int64, 0, n+1)
			wantS := make([]int64, 0, n+1)
			for _, v := range append(vals, vals[0]) {
				want = append(want, int64(v))
				wantS = append(wantS, UnZigzag(v))
			}
			equalInts(t, "unsigned", decodeV2(t, enc, n+1, false), want)
			equalInts(t, "signed", decodeV2(t, enc, n+1, true), wantS)
		}
	}
}

// deltaRun builds a DELTA run.
func deltaRun(code int, n int, base uint64, deltaBase int64, deltas []uint64) []byte {
	h := []byte{0xc0 | byte(code)<<1 | byte((n-1)>>8), byte(n - 1)}
	h = AppendUvarint(h, base)
	h = AppendVarint(h, deltaBase)
	if code == 0 {
		return h
	}
	return append(h, packRef(deltas, int(widthFromCode[code]))...)
}

func TestIntRLEv2DeltaAllWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	// Code 0: fixed delta.
	for _, n := range []int{1, 2, 3, 11, 511, 512} {
		for _, db := range []int64{0, 1, -1, 1000, -77777} {
			enc := deltaRun(0, n, Zigzag(-5), db, nil)
			equalInts(t, "fixed signed", decodeV2(t, enc, n, true), seq(-5, db, n))
			enc = deltaRun(0, n, 1<<40, db, nil)
			equalInts(t, "fixed unsigned", decodeV2(t, enc, n, false), seq(1<<40, db, n))
		}
	}
	for code := 1; code < 32; code++ {
		w := int(widthFromCode[code])
		for _, n := range []int{2, 3, 10, 100, 512} {
			for _, down := range []bool{false, true} {
				// Deltas that use the full width once while the total stays in
				// int64: start at the far end of the range.
				deltas := make([]uint64, n-2)
				limit := min(mask(w), uint64(math.MaxInt64)/uint64(n))
				for i := range deltas {
					deltas[i] = rng.Uint64() % (limit + 1)
				}
				if len(deltas) > 0 {
					deltas[0] = min(mask(w), math.MaxInt64/2)
				}
				base, db := int64(math.MinInt64+10), int64(3)
				if down {
					base, db = math.MaxInt64-10, -3
				}
				want := []int64{base, base + db}
				v := base + db
				for _, d := range deltas {
					if down {
						v -= int64(d)
					} else {
						v += int64(d)
					}
					want = append(want, v)
				}
				want = want[:n]
				enc := deltaRun(code, n, Zigzag(base), db, deltas)
				equalInts(t, "delta", decodeV2(t, enc, n, true), want)
			}
		}
	}
	// Delta base 0 with packed deltas reads as increasing (as Java does).
	enc := deltaRun(1, 4, 10, 0, []uint64{1, 2})
	equalInts(t, "zero delta base", decodeV2(t, enc, 4, false), []int64{10, 10, 11, 13})
}

// patchedRun builds a PATCHED_BASE run. entries are (gap, patch) pairs.
func patchedRun(base int64, bw, code int, vals []uint64, pwCode, pgw int, entries [][2]uint64) []byte {
	n := len(vals)
	pw := int(widthFromCode[pwCode])
	h := []byte{0x80 | byte(code)<<1 | byte((n-1)>>8), byte(n - 1),
		byte(bw-1)<<5 | byte(pwCode), byte(pgw-1)<<5 | byte(len(entries))}
	mag := uint64(base)
	if base < 0 {
		mag = uint64(-base) | 1<<(8*bw-1)
	}
	for i := bw - 1; i >= 0; i-- {
		h = append(h, byte(mag>>(8*i)))
	}
	h = append(h, packRef(vals, int(widthFromCode[code]))...)
	es := make([]uint64, len(entries))
	for i, e := range entries {
		es[i] = e[0]<<pw | e[1]
	}
	return append(h, packRef(es, closestFixedBits(pgw+pw))...)
}

func TestIntRLEv2PatchedBase(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	// 512 values of 4 bits; patches at 0, 300 (needs a 255-gap entry) and
	// 511 (two of them); base negative in 3 bytes.
	vals := make([]uint64, 512)
	for i := range vals {
		vals[i] = rng.Uint64() & 15
	}
	entries := [][2]uint64{{0, 5}, {255, 0}, {45, 1000}, {211, 77}}
	enc := patchedRun(-100000, 3, 3, vals, 11, 8, entries)
	want := make([]int64, 512)
	for i, v := range vals {
		want[i] = int64(v) - 100000
	}
	want[0] += 5 << 4
	want[300] += 1000 << 4
	want[511] += 77 << 4
	equalInts(t, "patched", decodeV2(t, enc, 512, true), want)

	// Every width code for the values and most for the patch, with the
	// largest base of each base width.
	for code := 0; code < 32; code++ {
		w := int(widthFromCode[code])
		for pwCode := 0; pwCode < 31; pwCode++ {
			pw := int(widthFromCode[pwCode])
			if w+pw > 63 || pw+3 > 64 {
				continue
			}
			bw := 1 + rng.IntN(8)
			base := int64(mask(8*bw - 1))
			if rng.IntN(2) == 0 {
				base = -base
			}
			n := 1 + rng.IntN(512)
			vals := make([]uint64, n)
			for i := range vals {
				vals[i] = rng.Uint64() & mask(w)
			}
			at := rng.IntN(n)
			patch := mask(pw)
			entries := [][2]uint64{{uint64(at), patch}}
			want := make([]int64, n)
			for i, v := range vals {
				if i == at {
					v |= patch << w
				}
				if uint64(v) > roomUp(base) {
					want = nil
					break
				}
				want[i] = base + int64(v)
			}
			if want == nil {
				continue // would overflow; covered by the corruption tests
			}
			// Gap field 3 bits is not enough for at; use 8 bits and 255 steps.
			var es [][2]uint64
			for g := uint64(at); g > 255; g -= 255 {
				es = append(es, [2]uint64{255, 0})
				entries[0][0] -= 255
			}
			es = append(es, entries[0])
			enc := patchedRun(base, bw, code, vals, pwCode, 8, es)
			equalInts(t, "patched widths", decodeV2(t, enc, n, false), want)
		}
	}
}

func TestIntRLEv2Corrupt(t *testing.T) {
	maxBase := AppendUvarint(nil, math.MaxInt64)
	cases := []struct {
		name string
		enc  []byte
		n    int
	}{
		{"empty", nil, 1},
		{"short repeat value cut", []byte{0x0a, 0x27}, 5},
		{"direct header cut", []byte{0x5e}, 4},
		{"direct data cut", []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab}, 4},
		{"delta base cut", []byte{0xc6, 0x09, 0x82}, 10},
		{"delta deltas cut", []byte{0xc6, 0x09, 0x02, 0x02, 0x22}, 10},
		{"delta of 1 value with packed deltas", []byte{0xc2, 0x00, 0x02, 0x02}, 1},
		{"fixed delta overflow", append(append([]byte{0xc0, 0x02}, maxBase...), 0x02), 3},
		{"delta base plus first delta overflows", append(append([]byte{0xc2, 0x02}, maxBase...), 0x02, 0x00), 3},
		{"packed deltas overflow", deltaRun(1, 4, uint64(math.MaxInt64-3), 1, []uint64{1, 3}), 4},
		{"packed deltas overflow downwards", deltaRun(1, 3, 1<<63+1, -1, []uint64{1}), 3},
		{"56-bit deltas adding up past int64", deltaRun(30, 259, 0, 1, repeatU(1<<56-1, 257)), 259},
		{"64-bit delta past int64", deltaRun(31, 3, 0, 1, []uint64{1 << 63}), 3},
		{"patched header cut", []byte{0x8e, 0x13, 0x2b}, 20},
		{"patched gap+patch width over 64", patchedRun(0, 1, 0, []uint64{1}, 31, 1, nil), 1},
		{"patch beyond the run", patchedRun(0, 1, 7, []uint64{1, 2}, 7, 2, [][2]uint64{{2, 1}}), 2},
		{"patch beyond 64 bits", patchedRun(0, 1, 31, []uint64{1, 2}, 0, 1, [][2]uint64{{1, 1}}), 2},
		{"patched base plus value overflows", patchedRun(math.MaxInt64, 8, 0, []uint64{0, 1}, 0, 1, nil), 2},
		{"patched patches cut", patchedRun(0, 1, 7, []uint64{1, 2}, 7, 2, [][2]uint64{{1, 1}})[:7], 2},
		{"varint too long", append([]byte{0xc0, 0x02}, bytes.Repeat([]byte{0xff}, 11)...), 3},
	}
	for _, c := range cases {
		for si, src := range sources(c.enc) {
			err := NewIntRLEv2Decoder(src, false).Next(make([]int64, c.n))
			if !isCorrupt(err) {
				t.Errorf("%s (source %d): %v, want corruption", c.name, si, err)
			}
		}
	}
	if err := NewIntRLEv2Decoder(whole(nil), false).Skip(-1); !isCorrupt(err) {
		t.Errorf("negative skip: %v", err)
	}
	// Skipping a truncated run is corrupt too.
	if err := NewIntRLEv2Decoder(whole([]byte{0x5e, 0x03, 0x5c}), false).Skip(4); !isCorrupt(err) {
		t.Errorf("skip truncated: %v", err)
	}
}

// Skip steps over whole runs without decoding them; it must land exactly
// where reading would.
func TestIntRLEv2SkipRuns(t *testing.T) {
	var enc []byte
	var want []int64
	enc = append(enc, 0x0a, 0x27, 0x10)
	want = append(want, seq(10000, 0, 5)...)
	enc = append(enc, directRun(12, []uint64{1, 2, 3, 4000})...)
	want = append(want, 1, 2, 3, 4000)
	enc = append(enc, deltaRun(3, 5, 7, 2, []uint64{1, 15, 0})...)
	want = append(want, 7, 9, 10, 25, 25)
	enc = append(enc, deltaRun(0, 7, 1, -1, nil)...)
	want = append(want, seq(1, -1, 7)...)
	enc = append(enc, patchedRun(-3, 1, 1, []uint64{0, 1, 2, 3}, 2, 2, [][2]uint64{{2, 5}})...)
	want = append(want, -3, -2, -1+5<<2, 0)
	for from := 0; from <= len(want); from++ {
		for _, src := range sources(enc) {
			d := NewIntRLEv2Decoder(src, false)
			if err := d.Skip(int64(from)); err != nil {
				t.Fatal(err)
			}
			got := make([]int64, len(want)-from)
			if err := d.Next(got); err != nil {
				t.Fatal(err)
			}
			equalInts(t, "after skip", got, want[from:])
		}
	}
}

func FuzzIntRLEv2Decode(f *testing.F) {
	f.Add([]byte{0x0a, 0x27, 0x10}, uint16(5), false)
	f.Add([]byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, uint16(4), true)
	f.Add([]byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50,
		0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8}, uint16(20), false)
	f.Add([]byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, uint16(10), false)
	f.Add(deltaRun(0, 512, 0, 3, nil), uint16(512), true)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, signed := range []bool{false, true} {
		vals := randomInts(rng, 1500, signed)
		var s sinkBuf
		e := NewIntRLEv2Encoder(&s, signed)
		e.WriteValues(vals)
		e.Flush()
		f.Add(s.Bytes(), uint16(len(vals)), signed)
	}
	f.Fuzz(func(t *testing.T, enc []byte, n uint16, signed bool) {
		fuzzIntDecoder(t, enc, int(n)%4096, signed, newV2Dec, newV2Enc)
	})
}

func newV2Enc(s Sink, signed bool) IntEncoder        { return NewIntRLEv2Encoder(s, signed) }
func newV2Dec(s ChunkSource, signed bool) IntDecoder { return NewIntRLEv2Decoder(s, signed) }

func repeatU(v uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// A decoder is small until it needs its run buffer: wide files hold one or
// two per column.
func TestIntRLEv2DecoderSize(t *testing.T) {
	if n := unsafe.Sizeof(IntRLEv2Decoder{}); n > 512 {
		t.Fatalf("an IntRLEv2Decoder is %d bytes", n)
	}
}
