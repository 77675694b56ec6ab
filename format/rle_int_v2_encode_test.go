package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func encodeV2(t testing.TB, vals []int64, signed bool) []byte {
	t.Helper()
	var s sinkBuf
	e := NewIntRLEv2Encoder(&s, signed)
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

// v2Run describes one run of an encoded stream, as scanned by scanV2.
type v2Run struct {
	kind      int // v2ShortRepeat, v2Direct, v2PatchedBase, v2Delta
	n         int
	width     int   // packed width (DELTA: 0 for fixed)
	code      int   // width code as written
	deltaBase int64 // DELTA only
}

// scanV2 walks the runs of a stream the way the spec describes them,
// independently of the decoder.
func scanV2(t testing.TB, enc []byte) []v2Run {
	t.Helper()
	var runs []v2Run
	p := 0
	varint := func() uint64 {
		u, k := binary.Uvarint(enc[p:])
		if k <= 0 {
			t.Fatalf("bad varint at %d", p)
		}
		p += k
		return u
	}
	for p < len(enc) {
		h := enc[p]
		r := v2Run{kind: int(h >> 6)}
		if r.kind == v2ShortRepeat {
			r.n = int(h&7) + 3
			r.width = 8 * (int(h>>3&7) + 1)
			p += 1 + int(h>>3&7) + 1
			runs = append(runs, r)
			continue
		}
		r.code = int(h >> 1 & 31)
		r.n = int(h&1)<<8 | int(enc[p+1]) + 1
		r.width = int(widthFromCode[r.code])
		p += 2
		switch r.kind {
		case v2Direct:
			p += packedLen(r.n, r.width)
		case v2Delta:
			varint()
			r.deltaBase = UnZigzag(varint())
			if r.code == 0 {
				r.width = 0
			} else {
				p += packedLen(r.n-2, r.width)
			}
		default:
			t.Fatalf("PATCHED_BASE run written at %d", p-2)
		}
		runs = append(runs, r)
	}
	if p != len(enc) {
		t.Fatalf("runs end at %d of %d bytes", p, len(enc))
	}
	return runs
}

// checkV2Runs checks the rules our writer keeps.
func checkV2Runs(t testing.TB, enc []byte) []v2Run {
	t.Helper()
	runs := scanV2(t, enc)
	for i, r := range runs {
		if r.n < 1 || r.n > 512 {
			t.Fatalf("run %d: %d values", i, r.n)
		}
		switch r.kind {
		case v2Direct:
			if r.width != closestFixedBits(r.width) {
				t.Fatalf("run %d: DIRECT width %d has no code", i, r.width)
			}
		case v2Delta:
			if r.width == 1 || r.width != 0 && r.width != closestFixedBits(r.width) {
				t.Fatalf("run %d: DELTA width %d", i, r.width)
			}
			if r.width != 0 && r.deltaBase == 0 {
				t.Fatalf("run %d: DELTA base 0 with width %d", i, r.width)
			}
		}
	}
	return runs
}

func TestIntRLEv2EncoderChoices(t *testing.T) {
	type want struct{ kind, n, width int }
	cases := []struct {
		name   string
		vals   []int64
		signed bool
		runs   []want
		enc    []byte // exact bytes, when given
	}{
		{"3 repeats", seq(-3, 0, 3), true, []want{{v2ShortRepeat, 3, 8}}, []byte{0x00, 0x05}},
		{"10 repeats", seq(300, 0, 10), false, []want{{v2ShortRepeat, 10, 16}}, []byte{0x0f, 0x01, 0x2c}},
		{"11 repeats", seq(300, 0, 11), false, []want{{v2Delta, 11, 0}}, []byte{0xc0, 0x0a, 0xac, 0x02, 0x00}},
		{"1000 repeats", seq(-1, 0, 1000), true, []want{{v2Delta, 512, 0}, {v2Delta, 488, 0}},
			[]byte{0xc1, 0xff, 0x01, 0x00, 0xc1, 0xe7, 0x01, 0x00}},
		{"0..511", seq(0, 1, 512), false, []want{{v2Delta, 512, 0}}, []byte{0xc1, 0xff, 0x00, 0x02}},
		{"0..512", seq(0, 1, 513), false, []want{{v2Delta, 512, 0}, {v2Direct, 1, 10}}, nil},
		{"descending by 7", seq(1e9, -7, 300), true, []want{{v2Delta, 300, 0}}, nil},
		{"one value", []int64{5}, false, []want{{v2Direct, 1, 3}}, []byte{0x44, 0x00, 0xa0}},
		{"two values", []int64{5, 6}, false, []want{{v2Direct, 2, 3}}, []byte{0x44, 0x01, 0xb8}},
		// At 4 bits, 4 copies cost 2 bytes packed, no more than cutting.
		{"values then short repeat", []int64{1, 9, 4, 4, 4, 4, 1}, false,
			[]want{{v2Direct, 7, 4}}, []byte{0x46, 0x06, 0x19, 0x44, 0x44, 0x10}},
		// At 4 bits, 8 copies pay for a cut.
		{"values then repeat", append([]int64{1, 9}, seq(4, 0, 8)...), false,
			[]want{{v2Direct, 2, 4}, {v2ShortRepeat, 8, 8}}, []byte{0x46, 0x01, 0x19, 0x05, 0x04}},
		{"wide values then repeat", []int64{1 << 40, 9, 4, 4, 4, 2}, false,
			[]want{{v2Direct, 2, 48}, {v2ShortRepeat, 3, 8}, {v2Direct, 1, 2}}, nil},
		{"repeat then values", []int64{4, 4, 4, 1, 9}, false,
			[]want{{v2ShortRepeat, 3, 8}, {v2Direct, 2, 4}}, nil},
		{"zeros and ones", []int64{0, 1, 1, 0, 1, 0, 0, 1}, false, []want{{v2Direct, 8, 1}}, []byte{0x40, 0x07, 0x69}},
		{"MinInt64 MaxInt64", []int64{math.MinInt64, math.MaxInt64}, true, []want{{v2Direct, 2, 64}}, nil},
		{"range overflows int64", []int64{math.MinInt64, 0, math.MaxInt64}, true, []want{{v2Direct, 3, 64}}, nil},
		// Split into [1] and DELTA 1 2 5 9 20 would take 3+6 bytes.
		{"sorted with duplicates first", []int64{1, 1, 2, 5, 9, 20}, false, []want{{v2Direct, 6, 5}}, nil},
		// Four 7s open the buffer (a repeat run at once), then DELTA 8 9 9
		// 10 ... at 2 bits beats DIRECT at 6 bits.
		{"sorted with duplicates, longer", []int64{7, 7, 7, 7, 8, 9, 9, 10, 11, 11, 12, 13, 14, 14, 15, 16, 17, 18, 18, 19,
			20, 21, 22, 23, 24, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38}, false,
			[]want{{v2ShortRepeat, 4, 8}, {v2Delta, 36, 2}}, nil},
		{"18-bit values", []int64{1 << 17, 5, 200000, 3}, false, []want{{v2Direct, 4, 18}}, nil},
	}
	for _, c := range cases {
		enc := encodeV2(t, c.vals, c.signed)
		runs := checkV2Runs(t, enc)
		if len(runs) != len(c.runs) {
			t.Errorf("%s: %d runs %+v, want %+v", c.name, len(runs), runs, c.runs)
			continue
		}
		for i, r := range runs {
			if w := c.runs[i]; r.kind != w.kind || r.n != w.n || r.width != w.width {
				t.Errorf("%s: run %d = %+v, want %+v", c.name, i, r, w)
			}
		}
		if c.enc != nil && !bytes.Equal(enc, c.enc) {
			t.Errorf("%s: % x, want % x", c.name, enc, c.enc)
		}
		equalInts(t, c.name, decodeV2(t, enc, len(c.vals), c.signed), c.vals)
	}
}

// Random data of a small width stays in DIRECT runs: cutting out every
// three equal values would cost more than it saves.
func TestIntRLEv2EncoderRandomBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	for _, w := range []int{1, 2, 4} {
		vals := make([]int64, 10240)
		for i := range vals {
			vals[i] = int64(rng.IntN(1 << w))
		}
		enc := encodeV2(t, vals, false)
		runs := checkV2Runs(t, enc)
		if max := len(vals)*w/8 + 2*len(vals)/512 + 8; len(enc) > max {
			t.Errorf("width %d: %d bytes in %d runs, want at most %d", w, len(enc), len(runs), max)
		}
		equalInts(t, "random bits", decodeV2(t, enc, len(vals), false), vals)
	}
}

// Monotonic data is written as DELTA when that is smaller.
func TestIntRLEv2EncoderMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	vals := make([]int64, 2048)
	v := int64(1_700_000_000_000)
	for i := range vals {
		vals[i] = v
		v += 1 + int64(rng.IntN(100))
	}
	enc := encodeV2(t, vals, true)
	for i, r := range checkV2Runs(t, enc) {
		if r.kind != v2Delta || r.width != 7 || r.n != 512 {
			t.Fatalf("run %d = %+v, want DELTA of 512 at 7 bits", i, r)
		}
	}
	equalInts(t, "monotonic", decodeV2(t, enc, len(vals), true), vals)
}

func adversarialSets() map[string][]int64 {
	sets := map[string][]int64{}
	ext := []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1, 0, -1, 1}
	var alt, ext2 []int64
	for i := 0; i < 1100; i++ {
		alt = append(alt, int64(i)*(1-2*int64(i&1))) // 0 -1 2 -3 ...
		ext2 = append(ext2, ext[i%len(ext)])
	}
	sets["alternating signs"] = alt
	sets["extremes"] = ext2
	for _, n := range []int{511, 512, 513} {
		for name, f := range map[string]func(i int) int64{
			"repeat MinInt64": func(int) int64 { return math.MinInt64 },
			"repeat MaxInt64": func(int) int64 { return math.MaxInt64 },
			"up to MaxInt64":  func(i int) int64 { return math.MaxInt64 - int64(n-1-i) },
			"down to MinInt64": func(i int) int64 {
				return math.MinInt64 + int64(n-1-i)
			},
			"wide steps":  func(i int) int64 { return math.MinInt64 + int64(i)*(math.MaxInt64/int64(n)*2) },
			"random":      func(i int) int64 { return int64(i*i*7919) ^ int64(i)<<40 },
			"square wave": func(i int) int64 { return int64(i / 10 % 2) },
		} {
			vs := make([]int64, n)
			for i := range vs {
				vs[i] = f(i)
			}
			sets[name+" "+string(rune('0'+n%10))] = vs
		}
	}
	return sets
}

func TestIntRLEv2RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for name, vals := range adversarialSets() {
		for _, signed := range []bool{false, true} {
			enc := checkIntCodec(t, rng, vals, signed, newV2Enc, newV2Dec)
			checkV2Runs(t, enc)
			_ = name
		}
	}
	for iter := 0; iter < 40; iter++ {
		signed := iter%2 == 0
		vals := randomInts(rng, rng.IntN(6000), signed)
		enc := checkIntCodec(t, rng, vals, signed, newV2Enc, newV2Dec)
		checkV2Runs(t, enc)
	}
	// The same data through RLE v1.
	for name, vals := range adversarialSets() {
		_ = name
		checkIntCodec(t, rng, vals, true, newV1Enc, newV1Dec)
	}
}

func TestIntRLEv2EncoderSinkError(t *testing.T) {
	s := &sinkBuf{failAfter: 100}
	e := NewIntRLEv2Encoder(s, true)
	rng := rand.New(rand.NewPCG(45, 46))
	err := e.WriteValues(randomInts(rng, 5000, true))
	if err == nil {
		err = e.Flush()
	}
	if err == nil || err != errSink {
		t.Fatalf("got %v, want sink error", err)
	}
	if err := e.Write(1); err != errSink {
		t.Fatalf("sticky error lost: %v", err)
	}
	var ok sinkBuf
	e.Reset(&ok)
	e.Write(7)
	if err := e.Flush(); err != nil || !bytes.Equal(ok.Bytes(), []byte{0x46, 0x00, 0xe0}) {
		t.Fatalf("after Reset: %v % x", err, ok.Bytes())
	}
}

// valuesFromFuzz turns fuzz bytes into values of several shapes.
func valuesFromFuzz(data []byte) []int64 {
	if len(data) == 0 {
		return nil
	}
	mode, data := data[0]%4, data[1:]
	var out []int64
	switch mode {
	case 0: // raw 64-bit values
		for len(data) >= 8 {
			out = append(out, int64(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
	case 1: // walk with signed byte steps, so monotonic stretches appear
		v := int64(0)
		for _, b := range data {
			v += int64(int8(b))
			out = append(out, v)
		}
	case 2: // repeats of a few values including the extremes
		pick := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 40}
		for _, b := range data {
			for k := int(b>>3) + 1; k > 0; k-- {
				out = append(out, pick[int(b&7)%len(pick)])
			}
		}
	default: // small values
		for _, b := range data {
			out = append(out, int64(int8(b)))
		}
	}
	return out
}

func FuzzIntRLEv2RoundTrip(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, true)
	f.Add(append([]byte{1}, bytes.Repeat([]byte{3}, 600)...), false)
	f.Add([]byte{2, 0xff, 0xf9, 0x03, 0x04, 0x13, 0x07}, true)
	f.Add(append([]byte{3}, bytes.Repeat([]byte{0x80, 0x7f}, 300)...), true)
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		vals := valuesFromFuzz(data)
		var s sinkBuf
		e := NewIntRLEv2Encoder(&s, signed)
		// Record a position half way.
		half := len(vals) / 2
		e.WriteValues(vals[:half])
		off, skip := s.Len(), e.Buffered()
		for _, v := range vals[half:] {
			e.Write(v)
		}
		if err := e.Flush(); err != nil {
			t.Fatal(err)
		}
		enc := s.Bytes()
		checkV2Runs(t, enc)
		got := make([]int64, len(vals))
		if err := NewIntRLEv2Decoder(newPieceSource(enc, 1, 7), signed).Next(got); err != nil {
			t.Fatal(err)
		}
		equalInts(t, "round trip", got, vals)
		d := NewIntRLEv2Decoder(whole(enc[off:]), signed)
		if err := d.Skip(int64(skip)); err != nil {
			t.Fatal(err)
		}
		rest := make([]int64, len(vals)-half)
		if err := d.Next(rest); err != nil {
			t.Fatal(err)
		}
		equalInts(t, "from position", rest, vals[half:])
	})
}

// Sorted keys with a few duplicates each (order keys of line items) go in
// DELTA runs at 2 bits a value plus run headers (at most 2.4 bits in all),
// not a short repeat per key (about 8 bits a value).
func TestIntRLEv2EncoderSortedDuplicates(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	var vals []int64
	for key := int64(1_000_000); len(vals) < 100_000; key += 1 + int64(rng.IntN(2)) {
		for k := 1 + rng.IntN(7); k > 0; k-- {
			vals = append(vals, key)
		}
	}
	for _, signed := range []bool{false, true} {
		enc := encodeV2(t, vals, signed)
		checkV2Runs(t, enc)
		if max := len(vals) * 24 / 80; len(enc) > max {
			t.Errorf("signed %v: %d bytes for %d values, want at most %d", signed, len(enc), len(vals), max)
		}
		equalInts(t, "sorted duplicates", decodeV2(t, enc, len(vals), signed), vals)
	}
}

// TestIntRLEv2WriteValuesSameAsWrite checks that WriteValues, with its
// inlined common case, writes the bytes of one Write per value, on the
// adversarial sets and random data, handed over in slices of random
// lengths with Flushes between some of them.
func TestIntRLEv2WriteValuesSameAsWrite(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	sets := adversarialSets()
	for i := range 30 {
		sets[fmt.Sprint("random ", i)] = randomInts(rng, rng.IntN(5000), i%2 == 0)
	}
	for name, vals := range sets {
		for _, signed := range []bool{false, true} {
			one, bulk := &sinkBuf{}, &sinkBuf{}
			e1, e2 := NewIntRLEv2Encoder(one, signed), NewIntRLEv2Encoder(bulk, signed)
			for rest := vals; len(rest) > 0; {
				k := min(len(rest), 1+rng.IntN(700))
				for _, v := range rest[:k] {
					e1.Write(v)
				}
				e2.WriteValues(rest[:k])
				if rng.IntN(8) == 0 {
					e1.Flush()
					e2.Flush()
				}
				rest = rest[k:]
			}
			e1.Flush()
			e2.Flush()
			if !bytes.Equal(one.Bytes(), bulk.Bytes()) {
				t.Fatalf("%s, signed %v: WriteValues wrote %d bytes, Write %d", name, signed, bulk.Len(), one.Len())
			}
		}
	}
}

// TestIntRLEv2EncodeVariableSameAsRef checks the one-pass encodeVariable
// against encodeVariableRef, the straightforward form it replaced (every
// value scanned for the DELTA test, min and max tracked, the DIRECT values
// converted after), on runs of every shape: random, sorted, reversed,
// opening with equal values, constant deltas, wide ranges near overflow.
func TestIntRLEv2EncodeVariableSameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	var sets [][]int64
	for name, vals := range adversarialSets() {
		_ = name
		for len(vals) > 0 {
			k := min(len(vals), 1+rng.IntN(512))
			sets = append(sets, vals[:k])
			vals = vals[k:]
		}
	}
	for range 3000 {
		k := 1 + rng.IntN(512)
		vals := randomInts(rng, k, rng.IntN(2) == 0)
		switch rng.IntN(5) {
		case 0:
			slices.Sort(vals)
		case 1:
			slices.Sort(vals)
			slices.Reverse(vals)
		case 2:
			slices.Sort(vals)
			for i := range min(k, 1+rng.IntN(5)) {
				vals[i] = vals[0]
			}
		case 3:
			d := rng.Int64N(1000) - 500
			for i := range vals {
				vals[i] = vals[0] + int64(i)*d
			}
		}
		sets = append(sets, vals)
	}
	for i, vals := range sets {
		for _, signed := range []bool{false, true} {
			e := NewIntRLEv2Encoder(&sinkBuf{}, signed)
			got := slices.Clone(e.encodeVariable(e.takeScratch(), vals))
			want := e.encodeVariableRef(nil, vals)
			if !bytes.Equal(got, want) {
				t.Fatalf("set %d (%d values, signed %v): % x, want % x", i, len(vals), signed, got[:min(len(got), 16)], want[:min(len(want), 16)])
			}
		}
	}
}

func (e *IntRLEv2Encoder) encodeVariableRef(b []byte, vals []int64) []byte {
	k := len(vals)
	var or uint64
	if e.signed {
		for _, v := range vals {
			or |= Zigzag(v)
		}
	} else {
		for _, v := range vals {
			or |= uint64(v)
		}
	}
	directW := closestFixedBits(bits.Len64(or))
	directSize := 2 + packedLen(k, directW)

	if k >= 2 {
		first := vals[1] - vals[0]
		inc, dec, fixed := true, true, true
		lo, hi := vals[0], vals[0]
		prev := vals[0]
		for _, v := range vals[1:] {
			inc = inc && v >= prev
			dec = dec && v <= prev
			fixed = fixed && v-prev == first
			lo, hi = min(lo, v), max(hi, v)
			prev = v
		}
		// hi-lo wraps negative exactly when the range does not fit int64;
		// when it fits, no delta overflows.
		if hi-lo >= 0 {
			base := e.encoded(vals[0])
			headSize := 2 + uvarintLen(base) + uvarintLen(Zigzag(first))
			switch {
			case fixed:
				if headSize < directSize {
					return e.appendDelta(b, vals, base, first, 0)
				}
			case first != 0 && (inc || dec):
				var absOr uint64 // OR of the packed |deltas|, for their bit length
				for i := 2; i < k; i++ {
					dl := vals[i] - vals[i-1]
					if dl < 0 {
						dl = -dl
					}
					absOr |= uint64(dl)
				}
				w := max(2, closestFixedBits(bits.Len64(absOr)))
				if headSize+packedLen(k-2, w) < directSize {
					return e.appendDelta(b, vals, base, first, w)
				}
			case inc || dec:
				// Opens with equal values (not all: that is fixed). A
				// DELTA run cannot start there (a delta base of 0 leaves
				// the direction open), so try the equal values as their
				// own run and a DELTA run from the last of them. Neither
				// part recurses again: the first is fixed, the second
				// has a first delta other than 0.
				j := 1
				for vals[j] == vals[0] {
					j++
				}
				start := len(b)
				b = e.encodeVariableRef(b, vals[:j-1])
				b = e.encodeVariableRef(b, vals[j-1:])
				if len(b)-start < directSize {
					return b
				}
				b = b[:start]
			}
		}
	}
	zz := e.sc.tmp[:k]
	if e.signed {
		for i, v := range vals {
			zz[i] = Zigzag(v)
		}
	} else {
		for i, v := range vals {
			zz[i] = uint64(v)
		}
	}
	b = append(b, v2Direct<<6|codeFromWidth[directW]<<1|byte((k-1)>>8), byte(k-1))
	return packBits(b, zz, directW)
}
