package rowindex

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

func TestSlop(t *testing.T) {
	tests := []struct {
		compressed bool
		blockSize  int
		want       uint64
	}{
		{false, 0, 4378},
		{false, 262144, 4378},
		{true, 262144, 2 * 262147},   // Java gives the same
		{true, 65536, 2 * 65539},     // Java gives the same
		{true, 4379, 2 * 4382},       // one chunk past u holds S
		{true, 4378, 2 * 4381},       // exactly
		{true, 4377, 3 * 4380},       // one byte short: a third chunk
		{true, 4096, 3 * 4099},       // Java: 2 chunks, too few for S > 4096
		{true, 1000, (1 + 5) * 1003}, // ceil(4378/1000) = 5
		{true, 100, (1 + 44) * 103},
		{true, 1, (1 + 4378) * 4},
		{true, 0, 0},
		{true, -5, 0},
	}
	for _, tt := range tests {
		if got := Slop(tt.compressed, tt.blockSize); got != tt.want {
			t.Errorf("Slop(%v, %d) = %d, want %d", tt.compressed, tt.blockSize, got, tt.want)
		}
	}
}

func TestPlanStream(t *testing.T) {
	const S = 4378
	tests := []struct {
		name       string
		length     uint64
		starts     []uint64
		sel        []bool
		compressed bool
		blockSize  int
		want       []Range
	}{
		{"nothing selected", 100000, []uint64{0, 10000, 20000}, []bool{false, false, false}, false, 0, nil},
		{"all", 100000, []uint64{0, 10000, 20000}, []bool{true, true, true}, false, 0, []Range{{0, 100000}}},
		{"first", 100000, []uint64{0, 10000, 20000}, []bool{true, false, false}, false, 0, []Range{{0, 10000 + S}}},
		{"middle", 100000, []uint64{0, 10000, 20000}, []bool{false, true, false}, false, 0, []Range{{10000, 20000 + S}}},
		{"last", 100000, []uint64{0, 10000, 20000}, []bool{false, false, true}, false, 0, []Range{{20000, 100000}}},
		{"two runs", 100000, []uint64{0, 10000, 20000, 30000}, []bool{true, false, true, false}, false, 0,
			[]Range{{0, 10000 + S}, {20000, 30000 + S}}},
		{"slop reaches the next run", 100000, []uint64{0, 1000, 2000, 30000}, []bool{true, false, true, false}, false, 0,
			[]Range{{0, 30000 + S}}},
		{"slop touches the next run", 100000, []uint64{0, 1000, 1000 + S, 30000}, []bool{true, false, true, false}, false, 0,
			[]Range{{0, 30000 + S}}},
		{"slop one short of the next run", 100000, []uint64{0, 1000, 1001 + S, 30000}, []bool{true, false, true, false}, false, 0,
			[]Range{{0, 1000 + S}, {1001 + S, 30000 + S}}},
		{"slop clamped", 5000, []uint64{0, 1000, 2000}, []bool{true, false, false}, false, 0, []Range{{0, 5000}}},
		{"equal starts", 100000, []uint64{0, 500, 500, 500, 9000}, []bool{false, false, true, false, false}, false, 0,
			[]Range{{500, 500 + S}}},
		{"run starting at the stream end", 500, []uint64{0, 500, 500}, []bool{false, false, true}, false, 0, nil},
		{"compressed", 1 << 20, []uint64{0, 0, 65539, 131078}, []bool{false, true, false, false}, true, 65536,
			[]Range{{0, 65539 + 2*65539}}},
		{"empty stream", 0, []uint64{0, 0}, []bool{true, true}, false, 0, nil},
		{"mismatched lengths", 1000, []uint64{0, 10}, []bool{false, true, false}, false, 0, []Range{{0, 1000}}},
		{"decreasing starts", 1000, []uint64{0, 100, 50}, []bool{false, true, false}, false, 0, []Range{{0, 1000}}},
		{"start past the end", 1000, []uint64{0, 1001}, []bool{true, false}, false, 0, []Range{{0, 1000}}},
		{"bad block size", 1000, []uint64{0, 10}, []bool{true, false}, true, 0, []Range{{0, 1000}}},
		{"huge start near MaxUint64", math.MaxUint64, []uint64{0, math.MaxUint64 - 10}, []bool{true, false}, false, 0,
			[]Range{{0, math.MaxUint64}}},
	}
	for _, tt := range tests {
		got := PlanStream(tt.length, tt.starts, tt.sel, tt.compressed, tt.blockSize)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: PlanStream = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMergeRanges(t *testing.T) {
	tests := []struct {
		in   []Range
		gap  uint64
		want []Range
	}{
		{nil, 0, []Range{}},
		{[]Range{{5, 5}}, 0, []Range{}},
		{[]Range{{10, 20}, {0, 5}}, 0, []Range{{0, 5}, {10, 20}}},
		{[]Range{{10, 20}, {0, 10}}, 0, []Range{{0, 20}}},
		{[]Range{{10, 20}, {0, 9}}, 1, []Range{{0, 20}}},
		{[]Range{{10, 20}, {0, 8}}, 1, []Range{{0, 8}, {10, 20}}},
		{[]Range{{0, 100}, {10, 20}, {30, 40}}, 0, []Range{{0, 100}}},
		{[]Range{{30, 40}, {0, 10}, {5, 35}, {50, 50}}, 0, []Range{{0, 40}}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		got := MergeRanges(in, tt.gap)
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("MergeRanges(%v, %d) = %v, want %v", tt.in, tt.gap, got, tt.want)
		}
	}
}

// checkPlanInvariants checks PlanStream's answer: sorted, non-empty,
// non-touching ranges inside the stream; and, for inputs that can be
// planned, exactly the union of [start of a, start of b + slop) over the
// selected runs; for inputs that cannot, the whole stream.
func checkPlanInvariants(t testing.TB, length uint64, starts []uint64, sel []bool, slop uint64, chunks int, got []Range) {
	t.Helper()
	for i, r := range got {
		if r.Start >= r.End || r.End > length {
			t.Fatalf("range %v of a %d-byte stream: %v", r, length, got)
		}
		if i > 0 && got[i-1].End >= r.Start {
			t.Fatalf("ranges not sorted and merged: %v", got)
		}
	}
	anySel := slices.Contains(sel, true)
	if !anySel || length == 0 {
		if len(got) != 0 {
			t.Fatalf("nothing to read, got %v", got)
		}
		return
	}
	valid := len(starts) == len(sel) && slop > 0
	for g := range starts {
		if starts[g] > length || g > 0 && starts[g] < starts[g-1] {
			valid = false
		}
	}
	if !valid {
		if !slices.Equal(got, []Range{{0, length}}) {
			t.Fatalf("unplannable input planned as %v, want the whole stream", got)
		}
		return
	}
	var want []Range
	for a := 0; a < len(sel); a++ {
		if !sel[a] {
			continue
		}
		b := a
		for b < len(sel) && sel[b] {
			b++
		}
		end := length
		if b < len(sel) {
			if e := starts[b] + slop; e >= starts[b] && e < length {
				end = e
			}
			// Compressed: the chunks'-th distinct group start after the
			// next group's start also bounds the run (group starts are
			// chunk starts).
			if chunks > 0 {
				var distinct []uint64
				for _, st := range starts[b+1:] {
					if st > starts[b] && (len(distinct) == 0 || st > distinct[len(distinct)-1]) {
						distinct = append(distinct, st)
					}
				}
				if len(distinct) >= chunks && distinct[chunks-1] < end {
					end = distinct[chunks-1]
				}
			}
		}
		want = append(want, Range{starts[a], end})
		a = b
	}
	want = MergeRanges(want, 0)
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("planned %v, want %v (starts %v, selected %v, slop %d)", got, want, starts, sel, slop)
	}
}

// Random plans satisfy the invariants.
func TestPlanStreamProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		n := rng.IntN(20)
		length := uint64(rng.IntN(200000))
		if rng.IntN(10) == 0 {
			length = math.MaxUint64 - uint64(rng.IntN(10000))
		}
		starts := make([]uint64, n)
		var pos uint64
		for g := range starts {
			if g > 0 {
				pos += uint64(rng.IntN(30000))
			}
			starts[g] = min(pos, length)
		}
		if n > 1 && rng.IntN(20) == 0 {
			starts[rng.IntN(n)] += uint64(rng.IntN(3000)) // may break the order
		}
		sel := make([]bool, n+rng.IntN(20)/19)
		for g := range sel {
			sel[g] = rng.IntN(2) == 0
		}
		compressed := rng.IntN(2) == 0
		bs := 1 + rng.IntN(300000)
		got := PlanStream(length, starts, sel, compressed, bs)
		checkPlanInvariants(t, length, starts, sel, Slop(compressed, bs), planChunks(compressed, bs), got)
	}
}

// Hand-built streams with the largest runs the decoders accept, buffered at
// a position and followed by a repeat run the buffered values spill into:
// the slop covers them, Java's 4098 bytes do not. Compressed, the position
// is at the very end of a full chunk (offset in chunk = block size), the
// worst case for the chunk count.
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
			// readGroup0 reads group 0 through the range planned with slop.
			readGroup0 := func(slop uint64) error {
				ranges := planStream(uint64(len(stored)), starts, []bool{true, false}, slop, 0)
				if len(ranges) != 1 || ranges[0].Start != 0 {
					t.Fatalf("%s bs %d: ranges %v", name, bs, ranges)
				}
				in := open(stored[:ranges[0].End], 0)
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
			if err := readGroup0(Slop(compressed, bs)); err != nil {
				t.Errorf("%s, block size %d: reading group 0 through the planned range: %v", name, bs, err)
			}
			javaSlop := uint64(2 + 8*512)
			if compressed {
				javaSlop = uint64((2 + (512*8-1)/bs) * (bs + 3))
			}
			err := readGroup0(javaSlop)
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

// planChunks is how many chunks PlanStream allows a run's end to need.
func planChunks(compressed bool, bs int) int {
	if !compressed || bs < 1 {
		return 0
	}
	return int(1 + (maxBufferedBytes+uint64(bs)-1)/uint64(bs))
}

// TestPlanStreamRuns checks the unmerged plan against the merged one on
// random streams: each run's range (the one with the largest End holding
// the run's first start) is the merged plan's range for that run alone,
// and merging the runs' ranges gives PlanStreamAt's result.
func TestPlanStreamRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		n := 1 + rng.IntN(30)
		length := uint64(1 + rng.IntN(400000))
		starts := make([]uint64, n)
		offsets := make([]uint64, n)
		var pos uint64
		bs := 1 + rng.IntN(100000)
		for g := range starts {
			if g > 0 {
				pos += uint64(rng.IntN(30000))
			}
			starts[g] = min(pos, length)
			offsets[g] = uint64(rng.IntN(bs + 1))
		}
		sel := make([]bool, n)
		for g := range sel {
			sel[g] = rng.IntN(3) == 0
		}
		compressed := rng.IntN(2) == 0
		merged := PlanStreamAt(length, starts, offsets, sel, compressed, bs)
		runs := PlanStreamRuns(length, starts, offsets, sel, compressed, bs)
		if got := MergeRanges(append([]Range(nil), runs...), 0); !slices.Equal(got, merged) {
			t.Fatalf("merged runs %v, want %v (starts %v sel %v)", got, merged, starts, sel)
		}
		for a := 0; a < n; a++ {
			if !sel[a] || a > 0 && sel[a-1] {
				continue
			}
			one := make([]bool, n)
			for g := a; g < n && sel[g]; g++ {
				one[g] = true
			}
			alone := PlanStreamAt(length, starts, offsets, one, compressed, bs)
			if len(alone) == 0 {
				continue
			}
			var best *Range
			for i := range runs {
				if r := &runs[i]; r.Start <= starts[a] && starts[a] < r.End && (best == nil || r.End > best.End) {
					best = r
				}
			}
			if best == nil || best.Start > alone[0].Start || best.End < alone[0].End {
				t.Fatalf("run at group %d: chosen range %v does not cover %v (runs %v)", a, best, alone, runs)
			}
		}
	}
}
