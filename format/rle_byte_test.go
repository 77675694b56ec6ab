package format

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

func encodeBytes(t testing.TB, vals []byte) []byte {
	t.Helper()
	var s sinkBuf
	e := NewByteRLEEncoder(&s)
	for _, v := range vals {
		if err := e.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if e.Buffered() != 0 {
		t.Fatalf("Buffered after Flush = %d", e.Buffered())
	}
	return s.Bytes()
}

func TestByteRLESpecExamples(t *testing.T) {
	cases := []struct {
		vals []byte
		enc  []byte
	}{
		{bytes.Repeat([]byte{0}, 100), []byte{0x61, 0x00}},
		{[]byte{0x44, 0x45}, []byte{0xfe, 0x44, 0x45}},
		// Worked out from the format: 3 is the shortest run, 130 the
		// longest; 128 literals per group.
		{[]byte{7, 7, 7}, []byte{0x00, 0x07}},
		{bytes.Repeat([]byte{9}, 130), []byte{0x7f, 0x09}},
		{bytes.Repeat([]byte{9}, 131), []byte{0x7f, 0x09, 0xff, 0x09}},
		{[]byte{1, 2, 2, 2, 3}, []byte{0xff, 0x01, 0x00, 0x02, 0xff, 0x03}},
		{[]byte{1, 1, 2}, []byte{0xfd, 0x01, 0x01, 0x02}},
	}
	for _, c := range cases {
		if got := encodeBytes(t, c.vals); !bytes.Equal(got, c.enc) {
			t.Errorf("encode %v = % x, want % x", c.vals, got, c.enc)
		}
		for _, src := range sources(c.enc) {
			got := make([]byte, len(c.vals))
			if err := NewByteRLEDecoder(src).Next(got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.vals) {
				t.Errorf("decode % x = %v, want %v", c.enc, got, c.vals)
			}
		}
	}
}

func TestByteRLELiteralGroups(t *testing.T) {
	vals := make([]byte, 300)
	for i := range vals {
		vals[i] = byte(i)
	}
	enc := encodeBytes(t, vals)
	// 128 + 128 + 44 literals.
	if len(enc) != 303 || enc[0] != 0x80 || enc[129] != 0x80 || enc[258] != 0xd4 {
		t.Fatalf("literal groups wrong: len %d, headers %x %x %x", len(enc), enc[0], enc[129], enc[258])
	}
}

// randomBytes mixes runs of every length around the limits with literals.
func randomBytes(rng *rand.Rand, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		switch rng.IntN(3) {
		case 0:
			k := []int{1, 2, 3, 4, 129, 130, 131, 200, 260, 261}[rng.IntN(10)]
			out = append(out, bytes.Repeat([]byte{byte(rng.IntN(4))}, k)...)
		case 1:
			for k := rng.IntN(300); k > 0; k-- {
				out = append(out, byte(rng.Uint32()))
			}
		default:
			for k := rng.IntN(50); k > 0; k-- {
				out = append(out, byte(rng.IntN(2)))
			}
		}
	}
	return out[:n]
}

func TestByteRLERoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 50; iter++ {
		vals := randomBytes(rng, rng.IntN(3000))
		enc := encodeBytes(t, vals)
		for _, src := range sources(enc) {
			d := NewByteRLEDecoder(src)
			got := make([]byte, len(vals))
			// Read in random slices.
			for p := 0; p < len(got); {
				k := min(len(got)-p, rng.IntN(300))
				if err := d.Next(got[p : p+k]); err != nil {
					t.Fatal(err)
				}
				p += k
			}
			if !bytes.Equal(got, vals) {
				t.Fatal("round trip differs")
			}
			if err := d.Next(make([]byte, 1)); !isCorrupt(err) {
				t.Fatalf("reading past the end: %v, want corruption", err)
			}
		}
	}
}

func TestByteRLESkip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := randomBytes(rng, 5000)
	enc := encodeBytes(t, vals)
	for iter := 0; iter < 200; iter++ {
		d := NewByteRLEDecoder(newPieceSource(enc, uint64(iter), 7))
		p := 0
		for p < len(vals) {
			k := min(len(vals)-p, rng.IntN(400))
			if rng.IntN(2) == 0 {
				if err := d.Skip(int64(k)); err != nil {
					t.Fatal(err)
				}
			} else {
				got := make([]byte, k)
				if err := d.Next(got); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, vals[p:p+k]) {
					t.Fatalf("after skipping to %d: values differ", p)
				}
			}
			p += k
		}
		if err := d.Skip(1); !isCorrupt(err) {
			t.Fatalf("skip past the end: %v", err)
		}
	}
}

// Positions recorded from Buffered let a fresh decoder start there.
func TestByteRLEPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vals := randomBytes(rng, 4000)
	var s sinkBuf
	e := NewByteRLEEncoder(&s)
	type pos struct{ row, off, skip int }
	var ps []pos
	for i, v := range vals {
		if rng.IntN(20) == 0 {
			ps = append(ps, pos{i, s.Len(), e.Buffered()})
		}
		e.Write(v)
	}
	e.Flush()
	enc := s.Bytes()
	d := NewByteRLEDecoder(nil)
	for _, p := range ps {
		d.Reset(newPieceSource(enc[p.off:], uint64(p.row), 5))
		if err := d.Skip(int64(p.skip)); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(vals)-p.row)
		if err := d.Next(got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, vals[p.row:]) {
			t.Fatalf("from row %d (offset %d, skip %d): values differ", p.row, p.off, p.skip)
		}
	}
}

func TestByteRLECorrupt(t *testing.T) {
	for _, enc := range [][]byte{
		{},           // empty
		{0x05},       // run without its value
		{0xfd, 1, 2}, // 3 literals promised, 2 present
	} {
		err := NewByteRLEDecoder(whole(enc)).Next(make([]byte, 3))
		if !isCorrupt(err) {
			t.Errorf("% x: %v, want corruption", enc, err)
		}
	}
	if err := NewByteRLEDecoder(whole(nil)).Skip(-1); !isCorrupt(err) {
		t.Errorf("negative skip: %v", err)
	}
	// A source error passes through unchanged.
	boom := errors.New("boom")
	err := NewByteRLEDecoder(&errSource{data: []byte{0xfd, 1}, err: boom}).Next(make([]byte, 3))
	if !errors.Is(err, boom) || isCorrupt(err) {
		t.Errorf("source error: %v", err)
	}
}

func TestByteRLEEncoderSinkError(t *testing.T) {
	s := &sinkBuf{failAfter: 10}
	e := NewByteRLEEncoder(s)
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = e.Write(byte(i))
	}
	if !errors.Is(err, errSink) {
		t.Fatalf("got %v, want sink error", err)
	}
	if err := e.Write(1); !errors.Is(err, errSink) {
		t.Fatalf("sticky error lost: %v", err)
	}
	if err := e.Flush(); !errors.Is(err, errSink) {
		t.Fatalf("Flush: %v", err)
	}
	var ok sinkBuf
	e.Reset(&ok)
	e.Write(1)
	if err := e.Flush(); err != nil || !bytes.Equal(ok.Bytes(), []byte{0xff, 1}) {
		t.Fatalf("after Reset: %v % x", err, ok.Bytes())
	}
}

func FuzzByteRLEDecode(f *testing.F) {
	f.Add([]byte{0x61, 0x00}, uint16(100))
	f.Add([]byte{0xfe, 0x44, 0x45}, uint16(2))
	f.Add([]byte{0x7f, 0x09, 0xff, 0x09, 0x80}, uint16(200))
	f.Add(encodeBytes(f, randomBytes(rand.New(rand.NewPCG(1, 1)), 700)), uint16(700))
	f.Fuzz(func(t *testing.T, enc []byte, n uint16) {
		want := make([]byte, n)
		errWant := NewByteRLEDecoder(whole(enc)).Next(want)
		if errWant != nil && !isCorrupt(errWant) {
			t.Fatalf("error not corruption: %v", errWant)
		}
		// Pieces, and skipping half, agree with one chunk.
		got := make([]byte, n)
		err := NewByteRLEDecoder(newPieceSource(enc, uint64(n), 7)).Next(got)
		if (err == nil) != (errWant == nil) {
			t.Fatalf("pieces: %v, whole: %v", err, errWant)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatal("pieces decode differently")
		}
		if errWant == nil {
			d := NewByteRLEDecoder(whole(enc))
			if err := d.Skip(int64(n / 2)); err != nil {
				t.Fatal(err)
			}
			rest := make([]byte, int(n)-int(n/2))
			if err := d.Next(rest); err != nil || !bytes.Equal(rest, want[n/2:]) {
				t.Fatalf("skip then read: %v", err)
			}
			// Re-encoding what decoded round-trips.
			re := encodeBytes(t, want)
			back := make([]byte, n)
			if err := NewByteRLEDecoder(whole(re)).Next(back); err != nil || !bytes.Equal(back, want) {
				t.Fatalf("re-encode: %v", err)
			}
		}
	})
}
