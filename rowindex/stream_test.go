package rowindex

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
)

// entriesOf builds one-stream row index entries from positions.
func entriesOf(positions [][]uint64) []*orcpb.RowIndexEntry {
	out := make([]*orcpb.RowIndexEntry, len(positions))
	for g, p := range positions {
		out[g] = &orcpb.RowIndexEntry{Positions: p}
	}
	return out
}

func TestRunRangeCases(t *testing.T) {
	// One compressed RLE stream (3 numbers per position), block 1000, 500
	// bytes long; groups at chunk 0, chunk 100 aligned, chunk 100 offset
	// 40 with values carried, chunk 300 offset 10 skip 0, chunk 400 aligned.
	layout := []Slot{{orcpb.Stream_DATA, 3}}
	entries := entriesOf([][]uint64{{0, 0, 0}, {100, 0, 0}, {100, 40, 5}, {300, 10, 0}, {400, 0, 0}})
	s, err := NewStreamIndex(500, entries, layout, 0, true, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		first, end int
		want       Range
		exact      bool
	}{
		{0, 1, Range{0, 100}, true},    // group 1 is aligned
		{0, 2, Range{0, 500}, false},   // 4378 bytes carried: five full chunks from chunk 100, past the end
		{2, 3, Range{100, 400}, false}, // nothing carried but an inner offset: chunk 300 whole
		{3, 4, Range{300, 400}, true},
		{4, 5, Range{400, 500}, true}, // to the stream's end
		{1, 5, Range{100, 500}, true},
	} {
		got, exact := s.RunRange(c.first, c.end)
		if got != c.want || exact != c.exact {
			t.Errorf("RunRange(%d, %d) = %v %v, want %v %v", c.first, c.end, got, exact, c.want, c.exact)
		}
	}
	for g, want := range []bool{true, true, false, false, true} {
		if s.Aligned(g) != want {
			t.Errorf("Aligned(%d) = %v", g, !want)
		}
	}
	// Boolean with a split byte: chunk 0 whole, bounded by the next start.
	bl := []Slot{{orcpb.Stream_PRESENT, 4}}
	s, _ = NewStreamIndex(900, entriesOf([][]uint64{{0, 0, 0, 0}, {50, 0, 0, 3}, {80, 0, 0, 0}}), bl, 0, true, 1000)
	if got, exact := s.RunRange(0, 1); got != (Range{0, 80}) || exact {
		t.Errorf("split boolean byte: %v %v", got, exact)
	}
	// Uncompressed raw bytes are always exact; RLE carries 4378 bytes.
	raw := []Slot{{orcpb.Stream_DATA, 1}}
	s, _ = NewStreamIndex(9000, entriesOf([][]uint64{{0}, {70}, {7000}}), raw, 0, false, 0)
	if got, exact := s.RunRange(0, 1); got != (Range{0, 70}) || !exact {
		t.Errorf("raw: %v %v", got, exact)
	}
	rle := []Slot{{orcpb.Stream_DATA, 2}}
	s, _ = NewStreamIndex(9000, entriesOf([][]uint64{{0, 0}, {70, 3}, {7000, 0}}), rle, 0, false, 0)
	if got, exact := s.RunRange(0, 1); got != (Range{0, 70 + maxBufferedBytes}) || exact {
		t.Errorf("rle carried: %v %v", got, exact)
	}
	// Starts that go back: the whole stream.
	s, _ = NewStreamIndex(9000, entriesOf([][]uint64{{0, 0}, {70, 0}, {60, 0}}), rle, 0, false, 0)
	if got, _ := s.RunRange(1, 2); got != (Range{0, 9000}) {
		t.Errorf("bad starts: %v", got)
	}
	if _, err := NewStreamIndex(9000, entriesOf([][]uint64{{0, 0}, {70}}), rle, 0, false, 0); !isCorrupt(err) {
		t.Errorf("short entry: %v", err)
	}
}

func isCorrupt(err error) bool { return errors.Is(err, orc.ErrCorrupt) }

// TestRunRangeExamples reads runs of row groups of Apache's files through
// RunRange's ranges alone, and checks they never reach past what
// PlanStreamRuns plans.
func TestRunRangeExamples(t *testing.T) {
	examples.Dir(t)
	rng := rand.New(rand.NewPCG(3, 4))
	runs, exact := 0, 0
	for _, name := range seekFiles {
		f := openExample(t, name)
		compressed := f.compressed()
		for _, i := range stripesToTest(f) {
			s := f.stripe(t, i)
			for _, c := range seqStripe(t, s) {
				groups := len(c.entries)
				for _, st := range c.streams {
					length := uint64(len(st.stored))
					si, err := NewStreamIndex(length, c.entries, c.layout, st.slot, compressed, f.tail.BlockSize)
					if err != nil {
						t.Fatal(err)
					}
					starts, _ := GroupStarts(nil, c.entries, c.layout, st.slot)
					offsets := make([]uint64, groups)
					copy(offsets, si.Offsets)
					for _, sel := range selections(rng, groups) {
						old := PlanStreamRuns(length, starts, offsets, sel, compressed, f.tail.BlockSize)
						for _, run := range runsOf(sel) {
							a, b := run[0], run[1]
							r, ex := si.RunRange(a, b)
							if ex {
								exact++
							}
							if res := readRun(t, f, c, st, []Range{r}, a, b); res != runOK {
								t.Fatalf("%s stripe %d column %d %v: groups %d..%d: %v with %v", name, i, c.col, st.kind, a, b-1, res, r)
							}
							if o := runRange(old, starts[a]); r.Start != starts[a] || o != nil && r.End > o.End {
								t.Fatalf("%s stripe %d column %d %v: groups %d..%d: %v, PlanStreamRuns %v", name, i, c.col, st.kind, a, b-1, r, o)
							}
							runs++
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs of Apache's files read through RunRange, %d of them exact", runs, exact)
}

// runRange returns the range of a run planned by PlanStreamRuns: the one
// reaching furthest among those holding start.
func runRange(ranges []Range, start uint64) *Range {
	var found *Range
	for i := range ranges {
		r := &ranges[i]
		if r.Start <= start && (start < r.End || r.Start == start) && (found == nil || r.End > found.End) {
			found = r
		}
	}
	return found
}
