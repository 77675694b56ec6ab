package bloomfilter

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
)

// Bits over a filter's stored bytes answers every probe as the Filter does,
// for filters of several sizes and hash counts, values added and not.
func TestBitsMatchesFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n   int
		fpp float64
	}{{1, 0.5}, {100, 0.05}, {3000, 0.01}, {10000, 0.01}, {50, 0.3}} {
		f := New(tc.n, tc.fpp)
		for range max(tc.n/2, 1) {
			f.AddLong(rng.Int64N(1000))
			f.AddString(string(rune('a' + rng.IntN(26))))
			f.AddDouble(rng.Float64())
		}
		pb := f.Proto()
		b, err := NewBits(pb.Utf8Bitset, int(pb.GetNumHashFunctions()))
		if err != nil {
			t.Fatal(err)
		}
		if !b.Valid() || b.NumBits() != f.NumBits() || b.NumHashFunctions() != f.NumHashFunctions() {
			t.Fatalf("n=%d: Bits of %d bits k=%d, want %d k=%d", tc.n, b.NumBits(), b.NumHashFunctions(), f.NumBits(), f.NumHashFunctions())
		}
		yes := 0
		for range 20000 {
			h := rng.Uint64()
			got, want := b.TestHash(h), f.TestHash(h)
			if got != want {
				t.Fatalf("n=%d: TestHash(%#x) = %v, Filter says %v", tc.n, h, got, want)
			}
			if got {
				yes++
			}
		}
		for v := int64(0); v < 1000; v++ {
			if b.TestLong(v) != f.TestLong(v) {
				t.Fatalf("n=%d: TestLong(%d) differs", tc.n, v)
			}
		}
		if b.TestString("a") != f.TestString("a") || b.TestBytes([]byte("zz")) != f.TestBytes([]byte("zz")) ||
			b.TestDouble(0.5) != f.TestDouble(0.5) {
			t.Fatalf("n=%d: typed probes differ", tc.n)
		}
		if yes == 0 || yes == 20000 {
			t.Fatalf("n=%d: %d of 20000 random probes may be present: the comparison proves nothing", tc.n, yes)
		}
	}
	var zero Bits
	if zero.Valid() {
		t.Fatal("the zero Bits is valid")
	}
}

// NewBits rejects what FromProto rejects, with an orc.ErrCorrupt error.
func TestNewBitsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		k    int
	}{
		{"k 0", make([]byte, 8), 0},
		{"k too big", make([]byte, 8), MaxHashFunctions + 1},
		{"empty", nil, 3},
		{"ragged", make([]byte, 12), 3},
		{"huge", make([]byte, MaxBits/8+8), 3},
	} {
		b, err := NewBits(tc.b, tc.k)
		if err == nil || b.Valid() {
			t.Errorf("%s: NewBits = %v, %v; want an error", tc.name, b.Valid(), err)
		} else if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%s: error %v does not wrap orc.ErrCorrupt", tc.name, err)
		}
	}
	if _, err := NewBits(make([]byte, 8), MaxHashFunctions); err != nil {
		t.Errorf("k = MaxHashFunctions rejected: %v", err)
	}
}

// Probing never allocates or copies the bits.
func TestBitsNoCopy(t *testing.T) {
	raw := make([]byte, 64)
	b, err := NewBits(raw, 3)
	if err != nil {
		t.Fatal(err)
	}
	if b.TestLong(42) {
		t.Fatal("an empty filter holds 42")
	}
	f := New(10, 0.1)
	f.words = make([]uint64, 8)
	f.numBits, f.magic = 512, ^uint64(0)/512+1
	f.AddLong(42)
	copy(raw, f.Proto().Utf8Bitset)
	if !b.TestLong(42) {
		t.Fatal("Bits does not see its bytes change: it copied them")
	}
	if n := testing.AllocsPerRun(100, func() { b.TestString("x") }); n != 0 {
		t.Fatalf("a probe allocates %v times", n)
	}
}
