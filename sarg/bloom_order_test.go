package sarg

// A bloom filter may only turn "TRUE possible" into "TRUE impossible"; it
// must never bring back a FALSE that min/max already ruled out. On a unit
// whose values all equal c, x <> c and x NOT IN (c, ..) are NO whether or
// not the unit has a filter.

import (
	"strings"
	"testing"

	"github.com/orcgo/orc/stats"
)

func TestBloomKeepsRangeNo(t *testing.T) {
	for _, kc := range kindCases {
		if strings.HasPrefix(kc.col, "bo") {
			continue // booleans have no bloom filters
		}
		id := colID(t, kc.col)
		for _, hasNull := range []bool{false, true} {
			st := kc.stats(10, 10, 5, hasNull) // every value is 10
			for _, tc := range []struct {
				e    Expr
				want TruthValue
			}{
				{Eq(kc.col, kc.lit(10)), Yes},
				{Not(Eq(kc.col, kc.lit(10))), No},
				{In(kc.col, kc.lit(10), kc.lit(25)), Yes},
				{NotIn(kc.col, kc.lit(10), kc.lit(25)), No},
				{NullSafeEq(kc.col, kc.lit(10)), Yes},
			} {
				b, err := Bind(tc.e, testSchema)
				if err != nil {
					t.Fatalf("Bind(%s): %v", tc.e, err)
				}
				want := withNull(tc.want, hasNull)
				if tc.e.Op == OpLeaf && tc.e.Leaf.Op == LeafNullSafeEquals && hasNull {
					want = YesNo
				}
				without := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: st}})
				with := b.Evaluate(MapSource{Columns: map[int]*stats.Column{id: st}, Blooms: map[int]BloomFilter{id: allBloom{}}})
				if without != want || with != want {
					t.Errorf("%s on all-10 (nulls %v): %s without a filter, %s with one; want %s", tc.e, hasNull, without, with, want)
				}
			}
		}
	}
}

// TestBloomMissIsNo checks the other half: a filter that holds none of the
// literals makes TRUE impossible and FALSE certain for the unit's values.
func TestBloomMissIsNo(t *testing.T) {
	id := colID(t, "i")
	st := kindCases[0].stats(10, 20, 5, false)
	src := MapSource{Columns: map[int]*stats.Column{id: st}, Blooms: map[int]BloomFilter{id: newSetBloom()}}
	for text, want := range map[string]TruthValue{
		"i = 15": No, "i <> 15": Yes, "i IN (12, 14)": No, "i NOT IN (12, 14)": Yes, "i <=> 15": No,
	} {
		if got := MustBind(MustParse(text), testSchema).Evaluate(src); got != want {
			t.Errorf("%s with a filter that misses: %s, want %s", text, got, want)
		}
	}
}
