package reader

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
)

// mask returns the rows s selects as booleans.
func (s rowSelection) mask() []bool {
	m := make([]bool, s.n)
	for _, r := range s.runs {
		for i := r.start; i < r.end; i++ {
			m[i] = true
		}
	}
	return m
}

// wellFormed reports whether s's runs are in order, non-empty, disjoint,
// not adjacent and within [0, n).
func (s rowSelection) wellFormed() bool {
	var last int64 = -1
	for _, r := range s.runs {
		if r.start >= r.end || r.start <= last || r.end > s.n || r.start < 0 {
			return false
		}
		last = r.end
	}
	return true
}

func randomMask(rng *rand.Rand, n int) []bool {
	m := make([]bool, n)
	p := rng.Float64()
	run := rng.IntN(20) + 1
	for i := 0; i < n; i += run {
		v := rng.Float64() < p
		for k := i; k < min(n, i+run); k++ {
			m[k] = v
		}
		run = rng.IntN(20) + 1
	}
	return m
}

// TestSelectionOps checks every operation against the same operation on
// boolean masks.
func TestSelectionOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 2000; it++ {
		n := rng.IntN(200)
		a, b := randomMask(rng, n), randomMask(rng, n)
		sa, sb := selectMask(a), selectMask(b)
		if !sa.wellFormed() || !slices.Equal(sa.mask(), a) {
			t.Fatalf("selectMask(%v) = %v", a, sa)
		}
		want := make([]bool, n)
		var count int64
		for i := range want {
			want[i] = a[i] && b[i]
			if a[i] {
				count++
			}
		}
		if got := sa.intersect(sb); !got.wellFormed() || !slices.Equal(got.mask(), want) {
			t.Fatalf("intersect of %v and %v = %v", a, b, got)
		}
		if sa.count() != count {
			t.Fatalf("count of %v = %d, want %d", a, sa.count(), count)
		}
		at := int64(rng.IntN(n + 1))
		head, tail := sa.split(at)
		if !head.wellFormed() || !tail.wellFormed() || !slices.Equal(head.mask(), a[:at]) || !slices.Equal(tail.mask(), a[at:]) {
			t.Fatalf("split of %v at %d = %v, %v", a, at, head, tail)
		}
		// Row groups: a group is kept when it holds a selected row.
		stride := int64(1 + rng.IntN(30))
		var runs []groupRun
		for g := int64(0); g*stride < int64(n); g++ {
			if slices.Contains(a[g*stride:min(int64(n), (g+1)*stride)], true) {
				if k := len(runs); k > 0 && runs[k-1].end == int(g) {
					runs[k-1].end++
				} else {
					runs = append(runs, groupRun{int(g), int(g) + 1})
				}
			}
		}
		if got := sa.groupRuns(stride); !slices.Equal(got, runs) {
			t.Fatalf("groupRuns(%d) of %v = %v, want %v", stride, a, got, runs)
		}
		// selectGroups of whole groups gives back their rows.
		kept := make([]bool, (int64(n)+stride-1)/stride)
		for _, r := range runs {
			for g := r.first; g < r.end; g++ {
				kept[g] = true
			}
		}
		sg := selectGroups(kept, stride, int64(n))
		for i := range n {
			if sg.mask()[i] != kept[int64(i)/stride] {
				t.Fatalf("selectGroups(%v, %d) = %v", kept, stride, sg)
			}
		}
		if !sg.wellFormed() || !slices.Equal(sg.groupRuns(stride), runs) {
			t.Fatalf("selectGroups(%v, %d) = %v: runs %v, want %v", kept, stride, sg, sg.groupRuns(stride), runs)
		}
	}
	if s := selectGroups(nil, 10, 25); s.count() != 25 || len(s.runs) != 1 {
		t.Fatalf("selectGroups(nil) = %v", s)
	}
	if s := selectAll(0); s.count() != 0 || len(s.runs) != 0 {
		t.Fatalf("selectAll(0) = %v", s)
	}
}

// TestSelectionByteRanges maps a selection to a stream's bytes through an
// aligned row index: each run of groups reads from its first group's start
// to the next group's.
func TestSelectionByteRanges(t *testing.T) {
	// An uncompressed DATA stream of 5 groups of 100 bytes, positions
	// (offset, run position) per group.
	var entries []*orcpb.RowIndexEntry
	for g := range 5 {
		entries = append(entries, &orcpb.RowIndexEntry{Positions: []uint64{uint64(g * 100), 0}})
	}
	layout := []rowindex.Slot{{Kind: orcpb.Stream_DATA, Count: 2}}
	si, err := rowindex.NewStreamIndex(500, entries, layout, 0, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	sel := selectGroups([]bool{false, true, true, false, true}, 1000, 4500)
	ranges, _ := sel.byteRanges(si, 1000)
	if len(ranges) != 2 || ranges[0].Start != 100 || ranges[1].Start != 400 || ranges[1].End != 500 {
		t.Fatalf("ranges %v for runs %v", ranges, sel.groupRuns(1000))
	}
	if ranges[0].End < 300 {
		t.Fatalf("run [1,3) ends at %d, before group 3's start", ranges[0].End)
	}
}

// TestCountWords checks the word-at-a-time countRuns, countRunsTo (at
// every limit) and countTrue against
// a row-by-row count, on every length up to 40 (the tails and word
// boundaries) and on runs crossing words.
func TestCountWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 52))
	for n := 0; n <= 40; n++ {
		for trial := 0; trial < 200; trial++ {
			mask := make([]bool, n)
			p := rng.IntN(4)
			for i := range mask {
				mask[i] = rng.IntN(4) < p || (i > 0 && mask[i-1] && rng.IntN(3) > 0)
			}
			runs, trues := 0, 0
			for i, m := range mask {
				if m {
					trues++
					if i == 0 || !mask[i-1] {
						runs++
					}
				}
			}
			if got := countRuns(mask); got != runs {
				t.Fatalf("countRuns(%v) = %d, want %d", mask, got, runs)
			}
			for limit := range runs + 2 {
				got := countRunsTo(mask, limit)
				if got > limit != (runs > limit) || runs <= limit && got != runs {
					t.Fatalf("countRunsTo(%v, %d) = %d, %d runs", mask, limit, got, runs)
				}
			}
			if got := countTrue(mask); got != trues {
				t.Fatalf("countTrue(%v) = %d, want %d", mask, got, trues)
			}
		}
	}
}
