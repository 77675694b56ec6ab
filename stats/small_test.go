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
// small fields packed together, then 80 with the sums of integers, true
// values and bytes in one field. At most 64 bytes each now, a decimal's
// scale kept with its other state; a double, text, decimal, timestamp,
// list or map column adds its kind's state.
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
		if per > 64 {
			t.Errorf("%s: an accumulator takes %d bytes, want at most 64", typ, per)
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

// A decimal accumulator's scale, kept with its other state, outlives
// Reset and Merge, and merging another scale makes the statistics unknown.
func TestAccumulatorDecimalScale(t *testing.T) {
	a := NewAccumulator(schema(t, "decimal(10,2)"))
	a.AddDecimal(orc.Int128FromInt64(150))
	a.Reset()
	a.AddDecimal(orc.Int128FromInt64(250))
	if c := a.Column(); c.Decimal == nil || c.Decimal.Min.Scale != 2 || c.Decimal.Sum.Scale != 2 {
		t.Fatalf("after Reset: %+v", c.Decimal)
	}
	empty := NewAccumulator(schema(t, "decimal(10,2)"))
	empty.AddNull()
	empty.Merge(a)
	if c := empty.Column(); c.Decimal == nil || c.Decimal.Max.Scale != 2 || !c.HasNull || c.NumValues != 1 {
		t.Fatalf("merged into an empty one: %+v", c)
	}
	other := NewAccumulator(schema(t, "decimal(10,3)"))
	other.AddDecimal(orc.Int128FromInt64(7))
	other.Merge(a)
	if c := other.Column(); c.Decimal != nil {
		t.Fatalf("scales 3 and 2 merged: %+v", c.Decimal)
	}
}
