package format

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

func encodeV1(t testing.TB, vals []int64, signed bool) []byte {
	t.Helper()
	var s sinkBuf
	e := NewIntRLEv1Encoder(&s, signed)
	if err := e.WriteValues(vals); err != nil {
		t.Fatal(err)
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if e.Buffered() != 0 {
		t.Fatalf("Buffered after Flush = %d", e.Buffered())
	}
	return s.Bytes()
}

func seq(from, step int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)*step
	}
	return out
}

func TestIntRLEv1SpecExamples(t *testing.T) {
	cases := []struct {
		name   string
		vals   []int64
		signed bool
		enc    []byte
	}{
		{"100 sevens", seq(7, 0, 100), false, []byte{0x61, 0x00, 0x07}},
		{"100 down to 1", seq(100, -1, 100), false, []byte{0x61, 0xff, 0x64}},
		{"literals", []int64{2, 3, 6, 7, 11}, false, []byte{0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}},
		// Worked out from the format: signed values are zigzagged.
		{"signed literals", []int64{-1, 1, -64}, true, []byte{0xfd, 0x01, 0x02, 0x7f}},
		{"signed run", seq(-2, 127, 3), true, []byte{0x00, 0x7f, 0x03}},
		{"130 then 1", seq(0, 1, 131), false, []byte{0x7f, 0x01, 0x00, 0xff, 0x82, 0x01}},
	}
	for _, c := range cases {
		if got := encodeV1(t, c.vals, c.signed); !bytes.Equal(got, c.enc) {
			t.Errorf("%s: encode = % x, want % x", c.name, got, c.enc)
		}
		for _, src := range sources(c.enc) {
			got := make([]int64, len(c.vals))
			if err := NewIntRLEv1Decoder(src, c.signed).Next(got); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			equalInts(t, c.name, got, c.vals)
		}
	}
}

// randomInts produces runs and noise that exercise every RLE v1 and v2 path:
// repeats of every length near the limits, monotonic stretches, fixed deltas,
// values of every width and the int64 extremes.
func randomInts(rng *rand.Rand, n int, signed bool) []int64 {
	out := make([]int64, 0, n)
	val := func() int64 {
		var v int64
		switch rng.IntN(6) {
		case 0:
			v = int64(rng.IntN(16))
		case 1:
			v = int64(rng.Uint64() >> uint(rng.IntN(64)))
		case 2:
			v = []int64{0, 1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1, -1}[rng.IntN(7)]
		default:
			v = int64(rng.Uint64()) >> uint(rng.IntN(64))
		}
		if !signed && v < 0 && rng.IntN(4) != 0 {
			v = -(v + 1)
		}
		return v
	}
	for len(out) < n {
		k := []int{1, 2, 3, 4, 9, 10, 11, 12, 127, 128, 129, 130, 131, 200, 511, 512, 513, 1000}[rng.IntN(18)]
		switch rng.IntN(6) {
		case 0: // repeat
			v := val()
			for ; k > 0; k-- {
				out = append(out, v)
			}
		case 1: // fixed delta
			v, d := val()>>2, int64(rng.IntN(300)-150)
			if rng.IntN(4) == 0 {
				d = int64(rng.Uint64()) >> uint(8+rng.IntN(56))
			}
			for ; k > 0; k-- {
				out = append(out, v)
				v += d
			}
		case 2: // monotonic with varying steps
			v := val() >> 3
			shift := uint(rng.IntN(60))
			down := rng.IntN(2) == 0
			for ; k > 0; k-- {
				out = append(out, v)
				step := int64(rng.Uint64()>>shift) >> 4
				if down {
					v -= step
				} else {
					v += step
				}
			}
		case 3: // noise of one width
			shift := uint(rng.IntN(64))
			for ; k > 0; k-- {
				v := int64(rng.Uint64() >> shift)
				if signed && rng.IntN(2) == 0 {
					v = -v
				}
				out = append(out, v)
			}
		case 4: // alternating signs and extremes
			for ; k > 0; k-- {
				v := val()
				if k%2 == 0 {
					v = -v
				}
				out = append(out, v)
			}
		default: // small noise with occasional outliers
			for ; k > 0; k-- {
				v := int64(rng.IntN(1000))
				if rng.IntN(40) == 0 {
					v = val()
				}
				out = append(out, v)
			}
		}
	}
	out = out[:n]
	if !signed {
		for i, v := range out {
			if v < 0 && rng.IntN(2) == 0 {
				out[i] = v & math.MaxInt64
			}
		}
	}
	return out
}

// checkIntCodec round-trips vals through an encoder and decoder, reading in
// random slices from every kind of source, with skips, and checks positions
// recorded from Buffered.
func checkIntCodec(t *testing.T, rng *rand.Rand, vals []int64, signed bool,
	newEnc func(Sink, bool) IntEncoder, newDec func(ChunkSource, bool) IntDecoder) []byte {
	t.Helper()
	var s sinkBuf
	e := newEnc(&s, signed)
	type pos struct{ row, off, skip int }
	var ps []pos
	for i, v := range vals {
		if rng.IntN(64) == 0 {
			ps = append(ps, pos{i, s.Len(), e.Buffered()})
		}
		if rng.IntN(2) == 0 {
			if err := e.Write(v); err != nil {
				t.Fatal(err)
			}
		} else if err := e.WriteValues(vals[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	enc := s.Bytes()

	for si, src := range sources(enc) {
		d := newDec(src, signed)
		got := make([]int64, len(vals))
		for p := 0; p < len(got); {
			k := min(len(got)-p, rng.IntN(1100))
			if err := d.Next(got[p : p+k]); err != nil {
				t.Fatalf("source %d at %d: %v", si, p, err)
			}
			p += k
		}
		equalInts(t, "round trip", got, vals)
		if err := d.Next(make([]int64, 1)); !isCorrupt(err) {
			t.Fatalf("read past the end: %v", err)
		}
	}
	// Skips mixed with reads.
	d := newDec(newPieceSource(enc, rng.Uint64(), 7), signed)
	for p := 0; p < len(vals); {
		k := min(len(vals)-p, rng.IntN(1100))
		if rng.IntN(2) == 0 {
			if err := d.Skip(int64(k)); err != nil {
				t.Fatal(err)
			}
		} else {
			got := make([]int64, k)
			if err := d.Next(got); err != nil {
				t.Fatal(err)
			}
			equalInts(t, "after skips", got, vals[p:p+k])
		}
		p += k
	}
	if err := d.Skip(1); !isCorrupt(err) {
		t.Fatalf("skip past the end: %v", err)
	}
	// Reset to a recorded position, skip the buffered values, read the rest.
	for _, p := range ps {
		d.Reset(newPieceSource(enc[p.off:], uint64(p.row), 7))
		if err := d.Skip(int64(p.skip)); err != nil {
			t.Fatal(err)
		}
		got := make([]int64, len(vals)-p.row)
		if err := d.Next(got); err != nil {
			t.Fatalf("from row %d: %v", p.row, err)
		}
		equalInts(t, "from a position", got, vals[p.row:])
	}
	return enc
}

func newV1Enc(s Sink, signed bool) IntEncoder        { return NewIntRLEv1Encoder(s, signed) }
func newV1Dec(s ChunkSource, signed bool) IntDecoder { return NewIntRLEv1Decoder(s, signed) }

func TestIntRLEv1RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for iter := 0; iter < 30; iter++ {
		signed := iter%2 == 0
		checkIntCodec(t, rng, randomInts(rng, rng.IntN(4000), signed), signed, newV1Enc, newV1Dec)
	}
	// Java's writer steps runs across MaxInt64 with wrapping deltas; so do we.
	wrap := []int64{math.MaxInt64 - 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for _, signed := range []bool{false, true} {
		enc := checkIntCodec(t, rng, wrap, signed, newV1Enc, newV1Dec)
		if enc[0] != 0x01 || enc[1] != 0x01 {
			t.Fatalf("wrapping run not encoded as a run: % x", enc)
		}
	}
}

func TestIntRLEv1Corrupt(t *testing.T) {
	for _, enc := range [][]byte{
		{},
		{0x00},                   // run without delta
		{0x00, 0x01},             // run without base
		{0x00, 0x01, 0x80},       // base varint cut short
		{0xfe, 0x01},             // 2 literals, 1 present
		{0xfe, 0x01, 0xff, 0xff}, // second varint cut short
		append([]byte{0xff}, bytes.Repeat([]byte{0xff}, 10)...),                    // varint too long
		append([]byte{0x00, 0x00}, append(bytes.Repeat([]byte{0xff}, 9), 0x02)...), // 65-bit varint
	} {
		for _, src := range sources(enc) {
			if err := NewIntRLEv1Decoder(src, true).Next(make([]int64, 3)); !isCorrupt(err) {
				t.Errorf("% x: %v, want corruption", enc, err)
			}
		}
		if err := NewIntRLEv1Decoder(whole(enc), true).Skip(3); !isCorrupt(err) {
			t.Errorf("skip % x: %v, want corruption", enc, err)
		}
	}
	if err := NewIntRLEv1Decoder(whole(nil), false).Skip(-1); !isCorrupt(err) {
		t.Errorf("negative skip: %v", err)
	}
}

func FuzzIntRLEv1Decode(f *testing.F) {
	f.Add([]byte{0x61, 0x00, 0x07}, uint16(100), false)
	f.Add([]byte{0x61, 0xff, 0x64}, uint16(100), false)
	f.Add([]byte{0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}, uint16(5), true)
	rng := rand.New(rand.NewPCG(1, 1))
	f.Add(encodeV1(f, randomInts(rng, 600, true), true), uint16(600), true)
	f.Add(encodeV1(f, randomInts(rng, 600, false), false), uint16(600), false)
	f.Fuzz(func(t *testing.T, enc []byte, n uint16, signed bool) {
		fuzzIntDecoder(t, enc, int(n)%4096, signed, newV1Dec, newV1Enc)
	})
}

// fuzzIntDecoder checks that decoding arbitrary bytes either fails with a
// corruption error or gives values that pieces, skips and re-encoding agree
// with.
func fuzzIntDecoder(t *testing.T, enc []byte, n int, signed bool,
	newDec func(ChunkSource, bool) IntDecoder, newEnc func(Sink, bool) IntEncoder) {
	want := make([]int64, n)
	errWant := newDec(whole(enc), signed).Next(want)
	if errWant != nil && !isCorrupt(errWant) {
		t.Fatalf("error not corruption: %v", errWant)
	}
	got := make([]int64, n)
	d := newDec(newPieceSource(enc, uint64(n), 7), signed)
	var err error
	for p := 0; p < n && err == nil; p += 37 {
		err = d.Next(got[p:min(n, p+37)])
	}
	if (err == nil) != (errWant == nil) {
		t.Fatalf("pieces: %v, whole: %v", err, errWant)
	}
	if errWant != nil {
		return
	}
	equalInts(t, "pieces", got, want)
	for _, k := range []int{1, n / 3, n - 1} {
		if k < 0 || k > n {
			continue
		}
		d := newDec(newPieceSource(enc, uint64(k), 5), signed)
		if err := d.Skip(int64(k)); err != nil {
			t.Fatal(err)
		}
		rest := make([]int64, n-k)
		if err := d.Next(rest); err != nil {
			t.Fatalf("skip %d: %v", k, err)
		}
		equalInts(t, "skip then read", rest, want[k:])
	}
	var s sinkBuf
	e := newEnc(&s, signed)
	e.WriteValues(want)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	back := make([]int64, n)
	if err := newDec(whole(s.Bytes()), signed).Next(back); err != nil {
		t.Fatalf("re-encoded: %v", err)
	}
	equalInts(t, "re-encoded", back, want)
}
