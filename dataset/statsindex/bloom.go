package statsindex

// Per-file bloom filters in the statistics index (spec.md 7.16).
//
// For the columns named by BloomColumns, each entry holds an ORC
// bloom filter of every non-null value of the column in the file, in the
// binary column ci_bloom: the bytes of an orcpb.BloomFilter message
// (num_hash_functions and utf8bitset), the form of a BLOOM_FILTER_UTF8
// stream's entries, hashed and probed as ORC's are (spec.md 6.3-6.5).
//
// Design note: the filter is rebuilt from the file's values, not merged
// from the file's own row-group filters. Merging would save reading the
// column, but a file has filters only if its writer was told to make them;
// each is sized for one row group, so the union of a file's g filters has
// the bits of g filters at the size of one, and its false-positive rate
// climbs with g (three groups of distinct values at 0.05 give about 0.5);
// and filters from some writers are not trusted (6.6). Rebuilt, the filter
// is sized for the file's distinct values at the index's rate
// (BloomFPP), whoever wrote the file. The cost is one read of the column per file at build and
// update time, and a lookup reads ci_bloom only for the columns that an
// equality, IN or wildcard-free LIKE of the predicate names.

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// DefaultBloomFPP is the false-positive rate of the index's bloom filters
// unless BloomFPP says otherwise: about 6.2 bits per distinct value of a
// file (ORC's own default, 0.01, costs 9.6).
const DefaultBloomFPP = 0.05

// maxDistinctSet is how many distinct hashes a file's filter is sized by
// exactly; past that it is sized by the column's value count.
const maxDistinctSet = 1 << 16

// maxBloomEntries caps the entries a filter is sized for: at the default
// rate about 3.3 MB of bits per file and column. A file with more distinct
// values gets a fuller filter, which prunes less and never wrongly.
const maxBloomEntries = 1 << 22

// BloomColumns keeps a bloom filter of each file's values of the named
// columns in the index (spec.md 7.16), so that an equality or IN on them
// rules out a file whose minimum and maximum do not. The columns must be
// indexed (Columns, or every column by default), top-level and of an
// integer, date, float, double, decimal or text type. Building reads
// those columns of every file, not only its tail. Default none.
func BloomColumns(names ...string) Option {
	return func(c *indexConfig) error {
		if len(names) == 0 {
			return fmt.Errorf("dataset: index BloomColumns: no column named")
		}
		c.bloom = append(c.bloom[:0], names...)
		return nil
	}
}

// BloomFPP sets the false-positive rate the index's bloom filters are
// sized for. Default DefaultBloomFPP (0.05); range 0.0001 to 0.5.
func BloomFPP(p float64) Option {
	return func(c *indexConfig) error {
		if !(p >= 0.0001 && p <= 0.5) {
			return fmt.Errorf("dataset: index BloomFPP(%v): must be 0.0001..0.5", p)
		}
		c.fpp = p
		return nil
	}
}

// bloomable reports whether the index keeps bloom filters for a type.
// Timestamps are left out: their filters hold milliseconds of a wall clock
// or an instant that the values read back would have to be converted to.
func bloomable(t *orc.Schema) bool {
	switch t.Kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date, orc.Float, orc.Double, orc.Decimal,
		orc.String, orc.Varchar, orc.Char:
		return true
	}
	return false
}

// bloomBuilder collects one column's value hashes of one file.
type bloomBuilder struct {
	t        *orc.Schema
	values   uint64 // the column's non-null values, from the statistics
	fpp      float64
	distinct map[uint64]struct{} // until it outgrows maxDistinctSet
	f        *bloomfilter.Filter // once it has
	bad      bool                // a value the filter cannot hold as ORC would
}

func (bb *bloomBuilder) add(h uint64) {
	if bb.f != nil {
		bb.f.AddHash(h)
		return
	}
	bb.distinct[h] = struct{}{}
	if len(bb.distinct) > maxDistinctSet {
		bb.f = bloomfilter.New(int(min(max(bb.values, uint64(len(bb.distinct))), maxBloomEntries)), bb.fpp)
		for d := range bb.distinct {
			bb.f.AddHash(d)
		}
		bb.distinct = nil
	}
}

// addVector adds the non-null values of rows [0, n) of v, as ORC's writer
// adds them (spec.md 6.5).
func (bb *bloomBuilder) addVector(v orc.Vector, n int) {
	switch x := v.(type) {
	case *orc.LongVector:
		for i := range n {
			if !x.IsNull(i) {
				bb.add(bloomfilter.HashLong(x.Values[i]))
			}
		}
	case *orc.DoubleVector:
		for i := range n {
			if !x.IsNull(i) {
				bb.add(bloomfilter.HashDouble(x.Values[i]))
			}
		}
	case *orc.BytesVector:
		for i := range n {
			if !x.IsNull(i) {
				bb.add(bloomfilter.HashBytes(x.Get(i)))
			}
		}
	case *orc.DecimalVector:
		if x.Scale != bb.t.Scale {
			bb.bad = true // values at another scale than the column's
			return
		}
		for i := range n {
			if !x.IsNull(i) {
				bb.add(bloomfilter.HashString(orc.CanonicalDecimal(x.Values[i], bb.t.Scale)))
			}
		}
	default:
		bb.bad = true
	}
}

// bytes returns the filter as an orcpb.BloomFilter message, or nil.
func (bb *bloomBuilder) bytes() ([]byte, error) {
	if bb.bad {
		return nil, nil
	}
	f := bb.f
	if f == nil {
		f = bloomfilter.New(max(len(bb.distinct), 1), bb.fpp)
		for d := range bb.distinct {
			f.AddHash(d)
		}
	}
	return proto.Marshal(f.Proto())
}

// fileBlooms builds the filters of the bloom columns of one file: for each
// indexed column k with bloom[k] whose statistics the entry has (cols[k]
// set: the file has the column under the index's type), the serialized
// filter of its values; nil elsewhere. fileNames are the columns' names in
// the file's schema.
func fileBlooms(r *reader.Reader, e *indexEntry, fileNames []string, types []*orc.Schema, bloom []bool, fpp float64) ([][]byte, error) {
	out := make([][]byte, len(types))
	var cols []string
	builders := map[string]*bloomBuilder{}
	order := map[string]int{}
	for k := range types {
		if !bloom[k] || e.cols[k] == nil || fileNames[k] == "" {
			continue
		}
		cols = append(cols, fileNames[k])
		builders[fileNames[k]] = &bloomBuilder{t: types[k], values: e.cols[k].NumValues, fpp: fpp, distinct: map[uint64]struct{}{}}
		order[fileNames[k]] = k
	}
	if len(cols) == 0 {
		return out, nil
	}
	err := r.EachBatch(func(b *orc.Batch) error {
		for _, c := range cols {
			v := b.Col(c)
			if v == nil {
				builders[c].bad = true
				continue
			}
			builders[c].addVector(v, b.NumRows)
		}
		return nil
	}, reader.WithColumns(cols...))
	if err != nil {
		return nil, err
	}
	for c, bb := range builders {
		if out[order[c]], err = bb.bytes(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeBloom decodes an entry's filter; nil when it does not decode (the
// entry is then judged by its statistics alone).
func decodeBloom(data []byte) sarg.BloomFilter {
	var pb orcpb.BloomFilter
	if err := proto.Unmarshal(data, &pb); err != nil {
		return nil
	}
	f, err := bloomfilter.FromProto(&pb)
	if err != nil {
		return nil
	}
	return f
}

// bloomLeafColumns returns the header columns with filters that a leaf
// which may consult a bloom filter (=, <=>, IN, LIKE) names.
func (ix *Index) bloomLeafColumns(e sarg.Expr) []int {
	var out []int
	var walk func(e sarg.Expr)
	walk = func(e sarg.Expr) {
		if e.Op == sarg.OpLeaf && e.Leaf != nil && e.Leaf.Other == "" && e.Leaf.Func == nil {
			switch e.Leaf.Op {
			case sarg.LeafEquals, sarg.LeafNullSafeEquals, sarg.LeafIn, sarg.LeafLike:
				if i, ok := ix.indexed(e.Leaf.Column); ok && ix.hdr.Columns[i].Bloom {
					out = append(out, i)
				}
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(e)
	return out
}
