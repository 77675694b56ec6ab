package format

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

func encodeBools(t testing.TB, vals []bool) []byte {
	t.Helper()
	var s sinkBuf
	e := NewBoolRLEEncoder(&s)
	for _, v := range vals {
		if err := e.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	return s.Bytes()
}

func parseBools(s string) []bool {
	var out []bool
	for _, c := range s {
		switch c {
		case '1':
			out = append(out, true)
		case '0':
			out = append(out, false)
		}
	}
	return out
}

func TestBoolRLESpecExample(t *testing.T) {
	// Spec: ff 80 is one true followed by seven false values.
	vals := parseBools("10000000")
	if got := encodeBools(t, vals); !bytes.Equal(got, []byte{0xff, 0x80}) {
		t.Fatalf("encode = % x", got)
	}
	cases := []struct {
		vals string
		enc  []byte
	}{
		// Padding bits at the end are zero.
		{"1", []byte{0xff, 0x80}},
		{"101", []byte{0xff, 0xa0}},
		{"10100000 11", []byte{0xfe, 0xa0, 0xc0}},
		// 24 trues: three ff bytes make a run.
		{"11111111 11111111 11111111", []byte{0x00, 0xff}},
	}
	for _, c := range cases {
		vals := parseBools(c.vals)
		if got := encodeBools(t, vals); !bytes.Equal(got, c.enc) {
			t.Errorf("encode %s = % x, want % x", c.vals, got, c.enc)
		}
		for _, src := range sources(c.enc) {
			got := make([]bool, len(vals))
			if err := NewBoolRLEDecoder(src).Next(got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, vals) {
				t.Errorf("decode % x = %v", c.enc, got)
			}
		}
	}
}

func randomBools(rng *rand.Rand, n int) []bool {
	out := make([]bool, 0, n)
	for len(out) < n {
		k := rng.IntN(3000)
		switch rng.IntN(3) {
		case 0: // constant stretch
			v := rng.IntN(2) == 0
			for ; k > 0; k-- {
				out = append(out, v)
			}
		case 1: // random
			for ; k > 0; k-- {
				out = append(out, rng.IntN(2) == 0)
			}
		default: // mostly true
			for ; k > 0; k-- {
				out = append(out, rng.IntN(50) != 0)
			}
		}
	}
	return out[:n]
}

func countTrue(vs []bool) int {
	n := 0
	for _, v := range vs {
		if v {
			n++
		}
	}
	return n
}

func TestBoolRLERoundTripAndSkip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 40; iter++ {
		vals := randomBools(rng, rng.IntN(20000))
		enc := encodeBools(t, vals)
		for si, src := range sources(enc) {
			d := NewBoolRLEDecoder(src)
			p := 0
			for p < len(vals) {
				k := min(len(vals)-p, rng.IntN(3000))
				switch rng.IntN(4) {
				case 0:
					if err := d.Skip(int64(k)); err != nil {
						t.Fatal(err)
					}
				case 1:
					n, err := d.SkipPresent(int64(k))
					if err != nil {
						t.Fatal(err)
					}
					if want := countTrue(vals[p : p+k]); int(n) != want {
						t.Fatalf("SkipPresent(%d) at %d = %d, want %d", k, p, n, want)
					}
				default:
					got := make([]bool, k)
					n, err := d.NextPresent(got)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, vals[p:p+k]) {
						t.Fatalf("source %d: values at %d..%d differ", si, p, p+k)
					}
					if n != countTrue(got) {
						t.Fatalf("NextPresent count %d, want %d", n, countTrue(got))
					}
				}
				p += k
			}
			// Padding bits of the last byte may be read; beyond it is corrupt.
			pad := (8 - len(vals)%8) % 8
			if err := d.Skip(int64(pad)); err != nil {
				t.Fatal(err)
			}
			if err := d.Next(make([]bool, 1)); !isCorrupt(err) {
				t.Fatalf("read past the end: %v", err)
			}
		}
	}
}

// Positions from Buffered (bytes held, bits filled) let a fresh decoder
// start with Reset and SeekTo.
func TestBoolRLEPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	vals := randomBools(rng, 30000)
	var s sinkBuf
	e := NewBoolRLEEncoder(&s)
	type pos struct{ row, off, bytes, bits int }
	var ps []pos
	for i, v := range vals {
		if rng.IntN(300) == 0 {
			nb, bits := e.Buffered()
			ps = append(ps, pos{i, s.Len(), nb, bits})
		}
		e.Write(v)
	}
	e.Flush()
	enc := s.Bytes()
	d := NewBoolRLEDecoder(nil)
	for _, p := range ps {
		d.Reset(newPieceSource(enc[p.off:], uint64(p.row), 6))
		if err := d.SeekTo(int64(p.bytes), p.bits); err != nil {
			t.Fatal(err)
		}
		got := make([]bool, len(vals)-p.row)
		if err := d.Next(got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, vals[p.row:]) {
			t.Fatalf("from row %d: values differ", p.row)
		}
	}
	if err := d.SeekTo(0, 8); !isCorrupt(err) {
		t.Fatalf("SeekTo bits 8: %v", err)
	}
	if err := d.SeekTo(-1, 0); !isCorrupt(err) {
		t.Fatalf("SeekTo -1: %v", err)
	}
}

func TestBoolRLEWriteValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	vals := randomBools(rng, 5000)
	var s sinkBuf
	e := NewBoolRLEEncoder(&s)
	if err := e.WriteValues(vals); err != nil {
		t.Fatal(err)
	}
	e.Flush()
	if !bytes.Equal(s.Bytes(), encodeBools(t, vals)) {
		t.Fatal("WriteValues differs from Write")
	}
}

func FuzzBoolRLEDecode(f *testing.F) {
	f.Add([]byte{0xff, 0x80}, uint16(8), uint16(3))
	f.Add([]byte{0x00, 0xff, 0xfe, 0x12, 0x34}, uint16(40), uint16(17))
	f.Add(encodeBools(f, randomBools(rand.New(rand.NewPCG(1, 1)), 3000)), uint16(3000), uint16(1234))
	f.Fuzz(func(t *testing.T, enc []byte, n, skip uint16) {
		want := make([]bool, n)
		trues, errWant := NewBoolRLEDecoder(whole(enc)).NextPresent(want)
		if errWant != nil && !isCorrupt(errWant) {
			t.Fatalf("error not corruption: %v", errWant)
		}
		got := make([]bool, n)
		err := NewBoolRLEDecoder(newPieceSource(enc, uint64(n), 7)).Next(got)
		if (err == nil) != (errWant == nil) {
			t.Fatalf("pieces: %v, whole: %v", err, errWant)
		}
		if errWant != nil {
			return
		}
		if !slices.Equal(got, want) || trues != countTrue(want) {
			t.Fatal("pieces decode differently")
		}
		k := int(skip) % (int(n) + 1)
		d := NewBoolRLEDecoder(newPieceSource(enc, uint64(skip), 3))
		if err := d.Skip(int64(k)); err != nil {
			t.Fatal(err)
		}
		rest := make([]bool, int(n)-k)
		if err := d.Next(rest); err != nil || !slices.Equal(rest, want[k:]) {
			t.Fatalf("skip %d then read: %v", k, err)
		}
		re := encodeBools(t, want)
		back := make([]bool, n)
		if err := NewBoolRLEDecoder(whole(re)).Next(back); err != nil || !slices.Equal(back, want) {
			t.Fatalf("re-encode: %v", err)
		}
	})
}
