package stats

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// TestLongValueKeptAsBounds records one 8 MiB string at row-group level,
// merges it into a stripe and a file accumulator as the writer does, and
// encodes all three: the accumulators keep the value's 1,024-byte bounds,
// never the value (issue 49 item 11: a CSV row with a 50 MB field peaked at
// 15x the field). Before, each level copied the minimum and the maximum,
// and Column copied them again: 101 MB allocated here, 16 KB now.
func TestLongValueKeptAsBounds(t *testing.T) {
	v := []byte(strings.Repeat("q", 8<<20))
	s := schema(t, "string")
	group, stripe, file := NewAccumulator(s), NewAccumulator(s), NewAccumulator(s)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	group.AddBytes(v)
	stripe.Merge(group)
	file.Merge(stripe)
	var lens []int
	for _, a := range []*Accumulator{group, stripe, file} {
		ss := a.Proto().GetStringStatistics()
		lens = append(lens, len(ss.GetLowerBound()), len(ss.GetUpperBound()))
		if ss.Minimum != nil || ss.Maximum != nil {
			t.Errorf("exact minimum or maximum of %d bytes recorded", len(v))
		}
	}
	runtime.ReadMemStats(&after)
	t.Logf("bound lengths %v; %d bytes allocated", lens, after.TotalAlloc-before.TotalAlloc)
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("%d bytes allocated for the statistics of one %d-byte value, want at most 256 KiB", n, len(v))
	}
	for _, n := range lens {
		if n != MaxStringBytes {
			t.Errorf("bound lengths %v, want %d each", lens, MaxStringBytes)
			break
		}
	}
}

// TestBoundsStayTrue feeds values that share long prefixes (so that bounds
// and values tie and interleave) in random row groups, merges them as the
// writer does, and checks each level's minimum and maximum against the
// values: exact ones equal to the least and greatest value, bounds
// strictly below and above every value.
func TestBoundsStayTrue(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 11))
	base := strings.Repeat("m", MaxStringBytes-3)
	s := schema(t, "string")
	for round := range 300 {
		stripe := NewAccumulator(s)
		var lo, hi string
		n := 0
		for range 1 + r.IntN(4) {
			group := NewAccumulator(s)
			for range 1 + r.IntN(6) {
				v := base[:len(base)-r.IntN(3)]
				for j := r.IntN(8); j > 0; j-- {
					v += string(rune('l' + r.IntN(3)))
				}
				if r.IntN(5) == 0 {
					v += strings.Repeat("\u00e9", r.IntN(4))
				}
				group.AddBytes([]byte(v))
				if n == 0 || v < lo {
					lo = v
				}
				if n == 0 || v > hi {
					hi = v
				}
				n++
			}
			checkBounds(t, round, group.Column().String)
			stripe.Merge(group)
		}
		checkBounds(t, round, stripe.Column().String)
		c := stripe.Column().String
		if c.MinIsLowerBound && c.Min >= lo || !c.MinIsLowerBound && c.Min != lo {
			t.Fatalf("round %d: minimum %q (bound %v) for least value %q", round, tail(c.Min), c.MinIsLowerBound, tail(lo))
		}
		if c.MaxIsUpperBound && c.Max <= hi || !c.MaxIsUpperBound && c.Max != hi {
			t.Fatalf("round %d: maximum %q (bound %v) for greatest value %q", round, tail(c.Max), c.MaxIsUpperBound, tail(hi))
		}
	}
}

// checkBounds checks that no minimum or maximum kept is longer than
// MaxStringBytes.
func checkBounds(t *testing.T, round int, s *StringStats) {
	t.Helper()
	if len(s.Min) > MaxStringBytes || len(s.Max) > MaxStringBytes {
		t.Fatalf("round %d: minimum of %d bytes, maximum of %d", round, len(s.Min), len(s.Max))
	}
}

// TestKeepLongValues checks that an accumulator told to keep long values
// reports them exactly (as orc check needs, to compare a file's bounds with
// its data) and still encodes their bounds.
func TestKeepLongValues(t *testing.T) {
	long := strings.Repeat("w", MaxStringBytes+10)
	a := NewAccumulator(schema(t, "string"))
	a.KeepLongValues()
	a.AddBytes([]byte(long + "b"))
	a.AddBytes([]byte(long + "a"))
	b := NewAccumulator(schema(t, "string"))
	b.KeepLongValues()
	b.Merge(a)
	c := b.Column().String
	if c.Min != long+"a" || c.Max != long+"b" || c.MinIsLowerBound || c.MaxIsUpperBound {
		t.Errorf("minimum %q (bound %v), maximum %q (bound %v): want the exact values", tail(c.Min), c.MinIsLowerBound, tail(c.Max), c.MaxIsUpperBound)
	}
	ss := b.Proto().GetStringStatistics()
	if len(ss.GetLowerBound()) != MaxStringBytes || ss.UpperBound == nil || ss.Minimum != nil || ss.Maximum != nil {
		t.Errorf("encoded %v, want 1,024-byte bounds", ss)
	}
}
