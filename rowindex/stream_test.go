package rowindex

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
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

// The slop's worst case, which bounds every range RunRange gives (see
// checkRunRange), against Java's (2 + (512*8-1)/blockSize) chunks.
func TestSlop(t *testing.T) {
	tests := []struct {
		compressed bool
		blockSize  int
		want       uint64
	}{
		{false, 0, 4378},
		{false, 262144, 4378},
		{true, 262144, 2 * 262147},   // Java gives the same
		{true, 65536, 2 * 65539},     // Java gives the same
		{true, 4379, 2 * 4382},       // one chunk past u holds S
		{true, 4378, 2 * 4381},       // exactly
		{true, 4377, 3 * 4380},       // one byte short: a third chunk
		{true, 4096, 3 * 4099},       // Java: 2 chunks, too few for S > 4096
		{true, 1000, (1 + 5) * 1003}, // ceil(4378/1000) = 5
		{true, 100, (1 + 44) * 103},
		{true, 1, (1 + 4378) * 4},
		{true, 0, 0},
		{true, -5, 0},
	}
	for _, tt := range tests {
		if got := slop(tt.compressed, tt.blockSize); got != tt.want {
			t.Errorf("slop(%v, %d) = %d, want %d", tt.compressed, tt.blockSize, got, tt.want)
		}
	}
}

// slop is the most bytes past the start of the next row group that a run of
// groups may need when nothing about the chunks is known but that they are
// full (see plan.go): maxBufferedBytes uncompressed; compressed, chunk c
// whole and then enough full chunks to hold maxBufferedBytes past an offset
// that may be the block size, each at most blockSize + 3 bytes on disk. A
// compressed block size below 1 gives 0, no bound.
func slop(compressed bool, blockSize int) uint64 {
	if !compressed {
		return maxBufferedBytes
	}
	if blockSize < 1 {
		return 0
	}
	bs := uint64(blockSize)
	return (1 + (maxBufferedBytes+bs-1)/bs) * (bs + chunkHeaderSize)
}

// worstEnd is where a run whose next group b starts at starts[b] ends at
// most: that start plus the slop, clamped to the stream, and compressed no
// further than the (1 + ceil(maxBufferedBytes/bs))-th distinct group start
// after it (group starts are chunk starts, and chunks are contiguous).
func worstEnd(length uint64, starts []uint64, b int, compressed bool, bs int) uint64 {
	end := length
	if e := starts[b] + slop(compressed, bs); e >= starts[b] && e < length {
		end = e
	}
	if compressed {
		chunks := int(1 + (maxBufferedBytes+uint64(bs)-1)/uint64(bs))
		seen, last := 0, starts[b]
		for _, st := range starts[b+1:] {
			if st > last {
				last = st
				if seen++; seen == chunks {
					end = min(end, st)
					break
				}
			}
		}
	}
	return end
}

// streamPos is one stream's numbers in one row group's entry: the place
// (byte offset, or chunk header offset compressed), the offset inside the
// decompressed chunk (compressed only), then the decoder's numbers (none
// for raw bytes, values to skip for RLE, bytes and bits to skip for
// boolean RLE).
type streamPos struct {
	place, inner uint64
	rest         []uint64
}

// posOf reads a stream's numbers from its part of an entry.
func posOf(p []uint64, compressed bool) streamPos {
	sp := streamPos{place: p[0], rest: p[1:]}
	if compressed {
		sp.inner, sp.rest = p[1], p[2:]
	}
	return sp
}

// aligned reports whether the groups before this position end exactly at
// it: every number after the place is zero.
func (p streamPos) aligned() bool {
	return p.inner == 0 && !slices.ContainsFunc(p.rest, func(v uint64) bool { return v != 0 })
}

// need is how many decompressed bytes past the position's chunk start the
// groups before it may still need (uncompressed: past the position):
// nothing when aligned, the split byte and its run header when only bits
// are carried, else the slop's maxBufferedBytes; compressed, the offset in
// the chunk comes on top.
func (p streamPos) need() uint64 {
	var carry uint64
	switch {
	case len(p.rest) == 2 && p.rest[0] == 0 && p.rest[1] != 0:
		carry = 2
	case slices.ContainsFunc(p.rest, func(v uint64) bool { return v != 0 }):
		carry = maxBufferedBytes
	}
	return p.inner + carry
}

// checkRunRange checks what RunRange(a, b) gave, r and exact, for a stream
// of length bytes whose groups' numbers are pos (group 0's ignored, the
// stream's start) against what the positions promise, computed here from
// the numbers alone:
//   - an index that cannot be planned from (places that go back or lie past
//     the stream, a compressed block size below 1) gives the whole stream,
//     not exact;
//   - otherwise the range starts at group a's place; a run to the last
//     group ends at the stream's end, exact;
//   - a run whose next group b is aligned (nothing after the place but
//     zeros) ends exactly at b's place, exact;
//   - otherwise, not exact, it ends no further than the slop allows
//     (worstEnd) and far enough for what the numbers say is carried:
//     uncompressed, exactly the carried bytes past the place; compressed,
//     enough chunks that, full, they hold the chunk offset plus the carried
//     bytes, counting both the distinct group starts inside the range (each
//     a chunk start) and the chunks of at most bs + 3 bytes that fit.
//
// It returns an error message, or "".
func checkRunRange(length uint64, pos []streamPos, compressed bool, bs, a, b int, r Range, exact bool) string {
	n := len(pos)
	starts := make([]uint64, n)
	valid := !compressed || bs >= 1
	for g := 1; g < n; g++ {
		starts[g] = pos[g].place
		if starts[g] > length || starts[g] < starts[g-1] {
			valid = false
		}
	}
	switch {
	case !valid:
		if r != (Range{0, length}) || exact {
			return fmt.Sprintf("unplannable index: %v exact %v, want the whole stream %d, not exact", r, exact, length)
		}
		return ""
	case r.Start != starts[a]:
		return fmt.Sprintf("range %v does not start at group %d's place %d", r, a, starts[a])
	case b >= n:
		if r.End != length || !exact {
			return fmt.Sprintf("run to the last group: %v exact %v, want the end %d, exact", r, exact, length)
		}
		return ""
	case pos[b].aligned():
		if r.End != starts[b] || !exact {
			return fmt.Sprintf("group %d aligned at %d: %v exact %v, want exact to it", b, starts[b], r, exact)
		}
		return ""
	}
	if exact {
		return fmt.Sprintf("group %d not aligned (%+v): %v said exact", b, pos[b], r)
	}
	if w := worstEnd(length, starts, b, compressed, bs); r.End > w || r.End < starts[b] {
		return fmt.Sprintf("range %v outside [%d, %d], the next group's place and the slop", r, starts[b], w)
	}
	need := pos[b].need()
	if !compressed {
		if want := min(length, starts[b]+need); r.End != want {
			return fmt.Sprintf("uncompressed run carrying %d bytes past %d: %v, want end %d", need, starts[b], r, want)
		}
		return ""
	}
	if r.End == length {
		return ""
	}
	ub := uint64(bs)
	if pos[b].inner > ub { // corrupt offset: chunk c may hold nothing
		need = ub + need - pos[b].inner
	}
	distinct, last := uint64(0), starts[b]
	for _, st := range starts[b+1:] {
		if st > last && st <= r.End {
			last = st
			distinct++
		}
	}
	chunks := max(distinct, (r.End-starts[b])/(ub+chunkHeaderSize))
	if want := max(1, (need+ub-1)/ub); chunks < want {
		return fmt.Sprintf("compressed run carrying %d bytes past chunk %d: %v holds %d chunks, want %d", need, starts[b], r, chunks, want)
	}
	return ""
}

// Random indexes of one stream of each kind, aligned groups among them,
// some that cannot be planned from: every run's range is what
// checkRunRange derives from the numbers.
func TestRunRangeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	exact := 0
	for range 20000 {
		c := randomIndex(rng)
		si, err := NewStreamIndex(c.length, c.entries, c.layout, len(c.layout)-1, c.compressed, c.bs)
		if err != nil {
			t.Fatal(err)
		}
		for a := range len(c.pos) {
			for b := a + 1; b <= len(c.pos); b++ {
				r, ex := si.RunRange(a, b)
				if msg := checkRunRange(c.length, c.pos, c.compressed, c.bs, a, b, r, ex); msg != "" {
					t.Fatalf("%s (index %+v)", msg, c)
				}
				if ex {
					exact++
				}
			}
		}
	}
	if exact == 0 {
		t.Fatal("no exact run")
	}
}

// indexCase is one stream's index built by randomIndex.
type indexCase struct {
	length     uint64
	compressed bool
	bs         int
	layout     []Slot
	entries    []*orcpb.RowIndexEntry
	pos        []streamPos
}

// randomIndex builds the index of a raw, RLE or boolean stream, compressed
// or not, with aligned and unaligned groups and, now and then, places that
// go back or lie past the stream.
func randomIndex(rng *rand.Rand) indexCase {
	c := indexCase{compressed: rng.IntN(2) == 0, bs: 1 + rng.IntN(70000)}
	if rng.IntN(3) == 0 {
		c.bs = 1 + rng.IntN(50)
	}
	if c.compressed && rng.IntN(50) == 0 {
		c.bs = -rng.IntN(2)
	}
	decoder := []int{rawCount, rleCount, boolCount}[rng.IntN(3)] - 1
	extra := 0
	if c.compressed {
		extra = 1
	}
	c.layout = []Slot{{Kind: data, Count: 1 + extra + decoder}}
	// A PRESENT slot in front, now and then, that the stream's numbers follow.
	before := 0
	if rng.IntN(4) == 0 {
		before = boolCount + extra
		c.layout = append([]Slot{{Kind: present, Count: before}}, c.layout...)
	}
	n := 1 + rng.IntN(25)
	var place uint64
	for g := range n {
		if g > 0 {
			place += uint64(rng.IntN(30000))
			if c.compressed && rng.IntN(3) == 0 {
				place += uint64(max(c.bs, 1) + 3) // a full chunk
			}
		}
		p := streamPos{place: place}
		if c.compressed {
			switch rng.IntN(4) {
			case 0, 1:
			case 2:
				p.inner = uint64(rng.IntN(max(c.bs, 1) + 1))
			default:
				p.inner = uint64(max(c.bs, 1)) // the writer's buffer exactly full
			}
		}
		p.rest = make([]uint64, decoder)
		for i := range p.rest {
			if rng.IntN(2) == 0 {
				p.rest[i] = uint64(rng.IntN(600))
			}
		}
		c.pos = append(c.pos, p)
	}
	if n > 1 && rng.IntN(20) == 0 {
		c.pos[1+rng.IntN(n-1)].place += uint64(rng.IntN(3000)) // may break the order
	}
	c.length = place + uint64(rng.IntN(20000))
	if rng.IntN(10) == 0 {
		c.length = math.MaxUint64 - uint64(rng.IntN(10000))
	}
	if rng.IntN(20) == 0 && c.length > 0 {
		c.length-- // the last place may lie past the stream
	}
	for g, p := range c.pos {
		nums := make([]uint64, before, before+c.layout[len(c.layout)-1].Count)
		for i := range nums {
			nums[i] = uint64(rng.IntN(1000))
		}
		nums = append(nums, p.place)
		if c.compressed {
			nums = append(nums, p.inner)
		}
		nums = append(nums, p.rest...)
		if g == 0 && rng.IntN(2) == 0 {
			nums = nil // entry 0 means the start whatever it holds
		}
		c.entries = append(c.entries, &orcpb.RowIndexEntry{Positions: nums})
	}
	c.pos[0] = streamPos{rest: make([]uint64, decoder)}
	return c
}
