package rowindex

import (
	"errors"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
)

// earlyMessage encodes a BloomFilter of the early layout.
func earlyMessage(entries uint64, fpp float64, words []uint64) []byte {
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.VarintType)
	m = protowire.AppendVarint(m, entries)
	m = protowire.AppendTag(m, 2, protowire.Fixed64Type)
	m = protowire.AppendFixed64(m, math.Float64bits(fpp))
	for _, w := range words {
		m = protowire.AppendTag(m, 3, protowire.VarintType)
		m = protowire.AppendVarint(m, w)
	}
	return m
}

func indexOf(msgs ...[]byte) []byte {
	var b []byte
	for _, m := range msgs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	return b
}

func TestDecodeLegacyBloomIndex(t *testing.T) {
	// An early-layout filter for 10,000 entries at p = 0.05: 62,352 bits
	// in 975 words, k = 4 (over1k_bloom.orc's sizes).
	e, err := bloomfilter.NewEarly(make([]uint64, 975), 10000, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if e.NumBits() != 62352 || e.NumHashFunctions() != 4 {
		t.Fatalf("sizes: %d bits, k %d", e.NumBits(), e.NumHashFunctions())
	}
	e.AddLong(-100)
	e.AddDouble(2.5)
	e.AddBytes([]byte("zach"))
	// Today's legacy layout: k and fixed64 words.
	f := bloomfilter.New(1000, 0.05)
	f.AddLong(-100)
	var today []byte
	today = protowire.AppendTag(today, 1, protowire.VarintType)
	today = protowire.AppendVarint(today, uint64(f.NumHashFunctions()))
	for _, w := range wordsOf(f) {
		today = protowire.AppendTag(today, 2, protowire.Fixed64Type)
		today = protowire.AppendFixed64(today, w)
	}
	got, err := DecodeLegacyBloomIndex(indexOf(earlyMessage(10000, 0.05, e.Words()), today))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Early == nil || got[1].Filter == nil {
		t.Fatalf("decoded %+v", got)
	}
	p := got[0].Probe()
	if !p.TestLong(-100) || !p.TestDouble(2.5) || !p.TestBytes([]byte("zach")) {
		t.Error("early filter lost an added value")
	}
	misses := 0
	for v := int64(0); v < 1000; v++ {
		if !p.TestLong(v) {
			misses++
		}
	}
	if misses < 990 {
		t.Errorf("early filter: only %d of 1000 absent values miss", misses)
	}
	// The early hash is not today's: today's probe of -100 into the early
	// words must not be what decides.
	if q := got[1].Probe(); !q.TestLong(-100) || q.TestLong(12345) && q.TestLong(54321) && q.TestLong(999) {
		t.Error("today's legacy filter answers wrongly")
	}
	// Malformed streams are corrupt, named.
	for name, data := range map[string][]byte{
		"truncated":     indexOf(earlyMessage(10000, 0.05, e.Words()))[:50],
		"zero entries":  indexOf(earlyMessage(0, 0.05, e.Words())),
		"fpp 1":         indexOf(earlyMessage(10000, 1, e.Words())),
		"too few words": indexOf(earlyMessage(10000, 0.05, e.Words()[:900])),
		"too many":      indexOf(earlyMessage(10000, 0.05, append(e.Words(), 0))),
		"no k":          indexOf(protowire.AppendFixed64(protowire.AppendTag(nil, 2, protowire.Fixed64Type), 1)),
	} {
		_, err := DecodeLegacyBloomIndex(data)
		if !errors.Is(err, orc.ErrCorrupt) || !strings.Contains(err.Error(), "bloom filter 0") {
			t.Errorf("%s: %v, want a corruption error naming the filter", name, err)
		}
	}
}

// wordsOf returns a filter's words.
func wordsOf(f *bloomfilter.Filter) []uint64 {
	pb := f.Proto()
	w := make([]uint64, len(pb.Utf8Bitset)/8)
	for i := range w {
		for j := 7; j >= 0; j-- {
			w[i] = w[i]<<8 | uint64(pb.Utf8Bitset[8*i+j])
		}
	}
	return w
}
