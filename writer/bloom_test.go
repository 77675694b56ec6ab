package writer_test

// Bloom filters: every value written to a bloomed column must probe "maybe"
// in its row group's filter in the BLOOM_FILTER_UTF8 stream, hashed the
// way readers probe (longs for integers, dates, timestamps as floor
// milliseconds; doubles; UTF-8 bytes, char padded; canonical decimal
// strings).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// probe reports whether filter f may contain item v of column type t.
func probe(f *bloomfilter.Filter, t *orc.Schema, v any) bool {
	switch t.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		return f.TestLong(v.(int64))
	case orc.Float, orc.Double:
		return f.TestDouble(v.(float64))
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		return f.TestString(v.(string))
	case orc.Decimal:
		d := v.(testutil.Dec)
		return f.TestString(orc.CanonicalDecimal(d.Unscaled, d.Scale))
	case orc.Timestamp, orc.TimestampInstant:
		ts := v.(testutil.TS)
		return f.TestLong(ts.Sec*1000 + int64(ts.Nanos)/1_000_000)
	}
	panic("probe: " + t.Kind.String())
}

// other returns a value of type t unlikely to be in any column, for
// measuring false positives.
func other(r *rand.Rand, t *orc.Schema) any {
	switch t.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		return int64(r.Uint64())
	case orc.Float, orc.Double:
		return math.Float64frombits(r.Uint64() &^ (1 << 62))
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		return fmt.Sprintf("absent %d", r.Uint64())
	case orc.Decimal:
		return testutil.Dec{Unscaled: orc.Int128FromInt64(int64(r.Uint64() >> 1)), Scale: 3}
	}
	return testutil.TS{Sec: int64(r.Uint64() >> 8), Nanos: 0}
}

func TestBloomFilters(t *testing.T) {
	s := orc.MustParseSchema("struct<ti:tinyint,si:smallint,i:int,bi:bigint,fl:float,do:double,st:string," +
		"vc:varchar(3),ch:char(6),bin:binary,dec:decimal(20,4),da:date,ts:timestamp,tsi:timestamp with local time zone," +
		"n:struct<a:int,b:struct<c:string>>>")
	names := []string{"ti", "si", "i", "bi", "fl", "do", "st", "vc", "ch", "bin", "dec", "da", "ts", "tsi", "n.a", "n.b.c"}
	for seed, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionZlib} {
		t.Run(codec.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 11))
			stride := 300 + 100*seed
			sp := &spec{schema: s, opts: []writer.Option{writer.WithCompression(codec), writer.WithRowIndexStride(stride),
				writer.WithBloomFilterColumns(names...), writer.WithStripeRowLimit(int64(2*stride + 77))}}
			generate(sp, testutil.NewGenerator(r, s), 2500, 400, r)
			f := parseFile(t, write(t, sp))
			flat := testutil.Flatten(s, sp.rows)
			bloomed := map[int]bool{}
			for _, n := range names {
				bloomed[s.Find(n).ID()] = true
			}
			probes, falsePos, tries := 0, 0, 0
			for si, st := range f.stripes {
				groups := (st.rows + stride - 1) / stride
				for _, node := range s.Columns() {
					id := node.ID()
					bi := f.bloomIndex(t, st, id)
					enc := st.footer.GetColumns()[id]
					if !bloomed[id] {
						if bi != nil || enc.GetBloomEncoding() != 0 {
							t.Errorf("stripe %d column %d: bloom filter on a column not asked for", si, id)
						}
						continue
					}
					if bi == nil {
						t.Fatalf("stripe %d column %d (%s): no BLOOM_FILTER_UTF8 stream", si, id, node)
					}
					if enc.GetBloomEncoding() != 1 {
						t.Errorf("stripe %d column %d: bloom_encoding %d, want 1 (UTF8_UTC)", si, id, enc.GetBloomEncoding())
					}
					if len(bi.GetBloomFilter()) != groups {
						t.Fatalf("stripe %d column %d: %d filters for %d row groups", si, id, len(bi.GetBloomFilter()), groups)
					}
					for k, pb := range bi.GetBloomFilter() {
						if len(pb.GetBitset()) != 0 || len(pb.GetUtf8Bitset()) == 0 {
							t.Errorf("stripe %d column %d group %d: filter not in utf8bitset form", si, id, k)
						}
						bf, err := bloomfilter.FromProto(pb)
						if err != nil {
							t.Fatalf("stripe %d column %d group %d: %v", si, id, k, err)
						}
						from, to := st.first+k*stride, min(st.first+(k+1)*stride, st.first+st.rows)
						for _, v := range flat.Range(id, from, to) {
							if v == nil {
								continue
							}
							probes++
							if !probe(bf, node, v) {
								t.Fatalf("stripe %d column %d (%s) group %d: written value %s probes absent",
									si, id, node, k, testutil.Show(v))
							}
						}
						for j := 0; j < 20; j++ {
							tries++
							if probe(bf, node, other(r, node)) {
								falsePos++
							}
						}
					}
				}
			}
			if probes < 1000 {
				t.Errorf("only %d probes", probes)
			}
			// The filters are sized for 1% at a full stride; far fewer
			// values are in most groups, so 5% is a generous ceiling.
			if rate := float64(falsePos) / float64(tries); rate > 0.05 {
				t.Errorf("false positive rate %.3f over %d probes of absent values", rate, tries)
			}
		})
	}
}

// TestBloomFilterSizing checks that filters are sized for a full row group
// at the requested false-positive rate, as Java sizes them: for 10,000 rows
// 95,872 bits and 7 hash functions at 1%, 62,400 bits and 4 at 5%.
func TestBloomFilterSizing(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint>")
	for _, c := range []struct {
		opts    []writer.Option
		bits, k int
	}{
		{nil, 95872, 7},
		{[]writer.Option{writer.WithBloomFilterFPP(0.05)}, 62400, 4},
	} {
		sp := &spec{schema: s, opts: append([]writer.Option{writer.WithBloomFilterColumns("a"), writer.WithRowIndexStride(10000)}, c.opts...)}
		r := rand.New(rand.NewPCG(1, 1))
		generate(sp, testutil.NewGenerator(r, s), 100, 100, r)
		f := parseFile(t, write(t, sp))
		for _, pb := range f.bloomIndex(t, f.stripes[0], 1).GetBloomFilter() {
			bf, err := bloomfilter.FromProto(pb)
			if err != nil {
				t.Fatal(err)
			}
			if bf.NumBits() != c.bits || bf.NumHashFunctions() != c.k {
				t.Errorf("filter of %d bits and %d hash functions, want %d and %d", bf.NumBits(), bf.NumHashFunctions(), c.bits, c.k)
			}
		}
	}
}
