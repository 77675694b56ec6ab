package bloomfilter

import (
	"bytes"
	"errors"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

func u32(v uint32) *uint32 { return &v }

func TestProtoLayout(t *testing.T) {
	// 128 bits, k = 1: AddHash places bit c % 128 with c = h1 + h2.
	// h = 0x00000000_00000045 -> h1 = 0x45 = 69, h2 = 0 -> bit 69, which is
	// word 1 bit 5 -> utf8bitset byte 8 = 0x20.
	// h = 0x00000001_00000002 -> c = 2 + 1 = 3 -> word 0 bit 3 -> byte 0 = 0x08.
	f := newFilter(make([]uint64, 2), 1)
	f.AddHash(0x45)
	f.AddHash(0x0000000100000002)
	pb := f.Proto()
	want := []byte{0x08, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0}
	if !bytes.Equal(pb.Utf8Bitset, want) || pb.GetNumHashFunctions() != 1 || len(pb.Bitset) != 0 {
		t.Fatalf("Proto = %v", pb)
	}
	// Serialized: field 1 varint 1 (08 01), field 3 bytes len 16 (1a 10 ...).
	b, err := proto.Marshal(pb)
	if err != nil {
		t.Fatal(err)
	}
	wantWire := append([]byte{0x08, 0x01, 0x1a, 0x10}, want...)
	if !bytes.Equal(b, wantWire) {
		t.Fatalf("wire % x, want % x", b, wantWire)
	}
}

func TestProtoRoundTrip(t *testing.T) {
	f := New(3000, 0.02)
	for i := int64(0); i < 3000; i++ {
		f.AddLong(i * 7)
		f.AddString(string(rune('a'+i%26)) + "x")
	}
	b, err := proto.Marshal(f.Proto())
	if err != nil {
		t.Fatal(err)
	}
	var pb orcpb.BloomFilter
	if err := proto.Unmarshal(b, &pb); err != nil {
		t.Fatal(err)
	}
	g, err := FromProto(&pb)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumBits() != f.NumBits() || g.NumHashFunctions() != f.NumHashFunctions() {
		t.Fatalf("round trip: %d bits k=%d, want %d bits k=%d", g.NumBits(), g.NumHashFunctions(), f.NumBits(), f.NumHashFunctions())
	}
	for i := range f.words {
		if f.words[i] != g.words[i] {
			t.Fatalf("word %d differs", i)
		}
	}
	for i := int64(0); i < 3000; i++ {
		if !g.TestLong(i * 7) {
			t.Fatalf("decoded filter lost %d", i*7)
		}
	}
	// The legacy field holds the same words.
	legacy := &orcpb.BloomFilter{NumHashFunctions: u32(uint32(f.k)), Bitset: append([]uint64(nil), f.words...)}
	h, err := FromProto(legacy)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.words {
		if f.words[i] != h.words[i] {
			t.Fatalf("legacy word %d differs", i)
		}
	}
	// utf8bitset wins when both are set.
	both := &orcpb.BloomFilter{NumHashFunctions: u32(2), Bitset: []uint64{1}, Utf8Bitset: make([]byte, 16)}
	if g, err := FromProto(both); err != nil || g.NumBits() != 128 {
		t.Fatalf("both fields: %v, %v", g, err)
	}
}

func TestFromProtoErrors(t *testing.T) {
	cases := []struct {
		name string
		pb   *orcpb.BloomFilter
	}{
		{"nil", nil},
		{"no k", &orcpb.BloomFilter{Utf8Bitset: make([]byte, 8)}},
		{"k 0", &orcpb.BloomFilter{NumHashFunctions: u32(0), Utf8Bitset: make([]byte, 8)}},
		{"k too big", &orcpb.BloomFilter{NumHashFunctions: u32(MaxHashFunctions + 1), Utf8Bitset: make([]byte, 8)}},
		{"k 10000 (over1k_bloom legacy)", &orcpb.BloomFilter{NumHashFunctions: u32(10000), Bitset: []uint64{1}}},
		{"empty", &orcpb.BloomFilter{NumHashFunctions: u32(3)}},
		{"empty bytes", &orcpb.BloomFilter{NumHashFunctions: u32(3), Utf8Bitset: []byte{}}},
		{"ragged", &orcpb.BloomFilter{NumHashFunctions: u32(3), Utf8Bitset: make([]byte, 12)}},
		{"huge", &orcpb.BloomFilter{NumHashFunctions: u32(3), Utf8Bitset: make([]byte, MaxBits/8+8)}},
		{"huge legacy", &orcpb.BloomFilter{NumHashFunctions: u32(3), Bitset: make([]uint64, MaxBits/64+1)}},
	}
	for _, tc := range cases {
		f, err := FromProto(tc.pb)
		if err == nil || f != nil {
			t.Errorf("%s: FromProto = %v, %v; want an error", tc.name, f, err)
			continue
		}
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%s: error %v does not wrap orc.ErrCorrupt", tc.name, err)
		}
	}
	// The bounds themselves are accepted.
	if _, err := FromProto(&orcpb.BloomFilter{NumHashFunctions: u32(MaxHashFunctions), Utf8Bitset: make([]byte, 8)}); err != nil {
		t.Errorf("k = MaxHashFunctions rejected: %v", err)
	}
}

// FuzzFromProto decodes arbitrary BloomFilter messages: FromProto must never
// panic, and whatever it accepts must probe, re-encode and decode to the same
// words.
func FuzzFromProto(f *testing.F) {
	seed := New(100, 0.05)
	seed.AddString("seed")
	b, _ := proto.Marshal(seed.Proto())
	f.Add(b)
	b, _ = proto.Marshal(&orcpb.BloomFilter{NumHashFunctions: u32(3), Bitset: []uint64{0xff, 1 << 63}})
	f.Add(b)
	f.Add([]byte{0x08, 0x01, 0x1a, 0x08, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0x08, 0x00})
	f.Add([]byte{0x08, 0x05, 0x1a, 0x03, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		var pb orcpb.BloomFilter
		if proto.Unmarshal(data, &pb) != nil {
			return
		}
		fl, err := FromProto(&pb)
		if err != nil {
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if fl.NumBits() <= 0 || fl.NumBits()%64 != 0 || fl.NumHashFunctions() < 1 {
			t.Fatalf("accepted a filter of %d bits, k=%d", fl.NumBits(), fl.NumHashFunctions())
		}
		_ = fl.TestString("probe")
		_ = fl.TestLong(-1)
		fl.AddDouble(2.5)
		if !fl.TestDouble(2.5) {
			t.Fatal("added value not found")
		}
		again, err := FromProto(fl.Proto())
		if err != nil {
			t.Fatalf("re-decoding our own output: %v", err)
		}
		for i := range fl.words {
			if fl.words[i] != again.words[i] {
				t.Fatalf("word %d changed in the round trip", i)
			}
		}
	})
}
