package sarg

import (
	"math/rand/v2"
	"testing"
)

// TestPartIntervalsSound checks calendar parts' intervals on random ranges
// of dates and wall clocks, most of them short and crossing a period's end
// (where the part wraps around): every value in the range has its part in
// the interval, and where the part wraps around, in one of the two pieces.
// The ranges reach before 1582 and past 2038.
func TestPartIntervalsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 7))
	spans := []int64{1, 60, 3600, 86400, 40 * 86400, 400 * 86400}
	wrapped := map[string]int{}
	for iter := 0; iter < 8000; iter++ {
		date := iter%2 == 0
		lo := rng.Int64N(1<<36) - 1<<35 // seconds, about ±1,000 years around 1970
		hi := lo + rng.Int64N(spans[rng.IntN(len(spans))]+1)
		if date {
			lo, hi = floorDiv(lo, 86400), floorDiv(hi, 86400)
		}
		for name, p := range calParts {
			f := partFn{p: p, date: date}
			a := ival{val: true, bounded: true}
			if date {
				a.lo, a.hi = tval{r: ratOf(lo)}, tval{r: ratOf(hi)}
			} else {
				a.lo, a.hi = tval{ts: tsVal{lo, 0}}, tval{ts: tsVal{hi, 0}}
			}
			whole := f.ival([]ival{a})
			first, second, wraps := f.wrapped(a)
			if wraps {
				wrapped[name]++
			}
			for k := 0; k < 20; k++ {
				v := lo + rng.Int64N(hi-lo+1)
				if k == 0 {
					v = lo
				} else if k == 1 {
					v = hi
				}
				sec := v
				if date {
					sec = v * 86400
				}
				part := f.p.of(sec)
				if date && f.p.lo == 0 {
					part = 0
				}
				in := func(iv ival) bool {
					return !iv.bounded || iv.lo.r.Cmp(ratOf(part)) <= 0 && iv.hi.r.Cmp(ratOf(part)) >= 0
				}
				if !in(whole) {
					t.Fatalf("%s of %d in [%d, %d] (date %v) is %d, outside %v", name, v, lo, hi, date, part, whole.format(ttype{k: tkInt}))
				}
				if wraps && !in(first) && !in(second) {
					t.Fatalf("%s of %d in [%d, %d] (date %v) is %d, in neither %s nor %s", name, v, lo, hi, date, part,
						first.format(ttype{k: tkInt}), second.format(ttype{k: tkInt}))
				}
			}
		}
	}
	for _, name := range []string{"MONTH", "DAY", "HOUR", "QUARTER", "DAYOFWEEK", "MINUTE", "SECOND"} {
		if wrapped[name] < 50 {
			t.Errorf("%s wrapped around on %d ranges only: the test proves little", name, wrapped[name])
		}
	}
	t.Logf("ranges wrapping around, by part: %v", wrapped)
}
