package stats

import (
	"runtime"

	"github.com/orcgo/orc"
	"testing"
)

// An accumulator of integers, dates or booleans keeps no state for the
// other kinds: a writer keeps three a column (row group, stripe, file),
// and a file of 100,000 integer columns held 84 MB of them at 288 bytes
// each, then 112 with the other kinds' state apart, then 96 with the
// small fields packed together. At most 80 bytes each now, the sums of
// integers, true values and bytes in one field; a double, text, decimal,
// timestamp, list or map column adds its kind's state.
func TestSmallAccumulator(t *testing.T) {
	for _, typ := range []string{"int", "bigint", "date", "boolean", "binary", "struct<a:int>"} {
		s := schema(t, typ)
		const n = 1000
		keep := make([]*Accumulator, n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range keep {
			keep[i] = NewAccumulator(s)
		}
		runtime.ReadMemStats(&after)
		per := (after.TotalAlloc - before.TotalAlloc) / n
		if per > 80 {
			t.Errorf("%s: an accumulator takes %d bytes, want at most 80", typ, per)
		}
		keep[0].AddInt(1)
	}
}

// An accumulator of one kind given values of another (a caller's error)
// does not panic, and merging accumulators with and without the state of
// other kinds keeps each one's own.
func TestAccumulatorKindsMixed(t *testing.T) {
	a := NewAccumulator(schema(t, "int"))
	a.AddInt(5)
	a.AddDouble(1.5)
	a.AddBytes([]byte("x"))
	a.AddDecimal(orc.Int128FromInt64(3))
	a.AddTimestamp(10, 0)
	a.AddChildren(2)
	_ = a.Column()
	b := NewAccumulator(schema(t, "string"))
	b.AddBytes([]byte("m"))
	c := NewAccumulator(schema(t, "string"))
	c.Merge(b)
	b.AddBytes([]byte("a"))
	if got := c.Column().String; got == nil || got.Min != "m" || got.Max != "m" {
		t.Fatalf("merged copy changed with its source: %+v", got)
	}
	d := NewAccumulator(schema(t, "int"))
	d.Merge(b) // another kind: no typed statistics, no panic
	if d.Column().Int != nil {
		t.Fatalf("int statistics from a merge of text")
	}
}
