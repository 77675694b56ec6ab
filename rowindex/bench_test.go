package rowindex

import (
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
)

// BenchmarkPlanStream plans a stream of 1,000 row groups with a random half
// selected; bytes are the stream's.
func BenchmarkPlanStream(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const groups = 1000
	starts := make([]uint64, groups)
	sel := make([]bool, groups)
	for g := range starts {
		starts[g] = uint64(g) * 20000
		sel[g] = rng.IntN(2) == 0
	}
	length := uint64(groups * 20000)
	b.SetBytes(int64(length))
	b.ReportAllocs()
	for b.Loop() {
		PlanStream(length, starts, sel, true, 262144)
	}
}

// BenchmarkGroupStats decodes the statistics of every group of a column of
// 100 groups; bytes are the encoded index's.
func BenchmarkGroupStats(b *testing.B) {
	x := NewIndex(100*10000, 10000)
	ri := rowIndex(100)
	x.SetRowIndex(1, ri)
	t := &orc.Schema{Kind: orc.Long}
	info := stats.WriterInfo{WriterVersion: 9}
	b.SetBytes(int64(protoSize(ri)))
	b.ReportAllocs()
	for b.Loop() {
		for g := range 100 {
			x.GroupStats(1, g, t, info)
		}
	}
}

// BenchmarkBloomCached probes the cached filters of 100 groups.
func BenchmarkBloomCached(b *testing.B) {
	x := NewIndex(100*10000, 10000)
	x.SetBloomFilterIndex(1, bloomIndex(100), BloomSource{Stream: orcpb.Stream_BLOOM_FILTER_UTF8, Type: orc.Long, Encoding: 1})
	b.SetBytes(100)
	b.ReportAllocs()
	for b.Loop() {
		for g := range 100 {
			if f, ok := x.Bloom(1, g); !ok || !f.TestLong(int64(g)) {
				b.Fatal("missing")
			}
		}
	}
}

// BenchmarkSplit cuts a compressed timestamp entry with PRESENT.
func BenchmarkSplit(b *testing.B) {
	layout := Layout(&orc.Schema{Kind: orc.Timestamp}, orcpb.ColumnEncoding_DIRECT_V2, true, true, false)
	pos := make([]uint64, Width(layout))
	b.SetBytes(int64(8 * len(pos)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(pos, layout); err != nil {
			b.Fatal(err)
		}
	}
}
