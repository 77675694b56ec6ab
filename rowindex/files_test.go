package rowindex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/stats"
)

// Positions checked against what the ORC checklist (section 3.2) verified
// by decoding these files: stripe 0, entry 1.
func TestVerifiedPositions(t *testing.T) {
	tests := []struct {
		file  string
		col   int
		kind  orc.Kind
		enc   orcpb.ColumnEncoding_Kind
		want  []uint64
		split [][]uint64
	}{
		{"TestOrcFile.testPredicatePushdown.orc", 1, orc.Int, orcpb.ColumnEncoding_DIRECT_V2,
			[]uint64{5, 488}, [][]uint64{{5, 488}}},
		{"TestOrcFile.testPredicatePushdown.orc", 2, orc.String, orcpb.ColumnEncoding_DIRECT_V2,
			[]uint64{3562, 269, 78}, [][]uint64{{3562}, {269, 78}}},
		{"TestOrcFile.testSeek.orc", 1, orc.Boolean, orcpb.ColumnEncoding_DIRECT,
			[]uint64{0, 61, 64, 0}, [][]uint64{{0, 61, 64, 0}}},
		{"TestOrcFile.testSeek.orc", 7, orc.Double, orcpb.ColumnEncoding_DIRECT,
			[]uint64{0, 8000}, [][]uint64{{0, 8000}}},
		{"TestOrcFile.testSeek.orc", 8, orc.Binary, orcpb.ColumnEncoding_DIRECT_V2,
			[]uint64{0, 20000, 0, 514, 488}, [][]uint64{{0, 20000}, {0, 514, 488}}},
		{"TestOrcFile.testSeek.orc", 9, orc.String, orcpb.ColumnEncoding_DICTIONARY_V2,
			[]uint64{0, 766, 234}, [][]uint64{{0, 766, 234}}},
	}
	for _, tt := range tests {
		f := openExample(t, tt.file)
		s := f.stripe(t, 0)
		if k := f.cols[tt.col].Kind; k != tt.kind {
			t.Fatalf("%s column %d is %v, want %v", tt.file, tt.col, k, tt.kind)
		}
		if e := s.encoding(tt.col); e != tt.enc {
			t.Fatalf("%s column %d encoding %v, want %v", tt.file, tt.col, e, tt.enc)
		}
		if s.has(tt.col, orcpb.Stream_PRESENT) {
			t.Fatalf("%s column %d has PRESENT in stripe 0", tt.file, tt.col)
		}
		ri := s.rowIndex(t, tt.col)
		got := ri.Entry[1].GetPositions()
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s column %d entry 1 = %v, want %v", tt.file, tt.col, got, tt.want)
		}
		parts, err := Split(got, s.layout(tt.col))
		if err != nil {
			t.Fatalf("%s column %d: %v", tt.file, tt.col, err)
		}
		if !slices.EqualFunc(parts, tt.split, slices.Equal) {
			t.Errorf("%s column %d split = %v, want %v", tt.file, tt.col, parts, tt.split)
		}
	}
}

// Every ROW_INDEX of every example file: the entry count is the stripe's
// row-group count, every entry fits the column's Layout (and NewStreamIndex
// takes every stream's places from it), and the groups' statistics decode
// and add up to the stripe's.
func TestExampleLayouts(t *testing.T) {
	dir := examples.Dir(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".orc") {
			continue
		}
		if testing.Short() && strings.HasPrefix(name, "demo-") {
			continue
		}
		f := openExampleOrSkip(t, name)
		if f == nil {
			continue
		}
		stride := uint64(f.tail.Footer.GetRowIndexStride())
		info := stats.WriterInfoFromTail(f.tail.PostScript, f.tail.Footer)
		compressed := f.compressed()
		for i := range f.stripes() {
			s := f.stripe(t, i)
			groups := 0
			if stride > 0 {
				groups = int((s.rows + stride - 1) / stride)
			}
			for col := range f.cols {
				ri := s.rowIndex(t, col)
				if ri == nil {
					continue
				}
				if stride == 0 || len(ri.GetEntry()) != groups {
					t.Errorf("%s stripe %d column %d: %d entries, stride %d, %d rows", name, i, col, len(ri.GetEntry()), stride, s.rows)
					continue
				}
				layout := s.layout(col)
				for g, e := range ri.GetEntry() {
					if n := len(e.GetPositions()); g > 0 && n != width(layout) {
						t.Errorf("%s stripe %d column %d (%v, %v) entry %d: %d positions for %v", name, i, col, f.cols[col].Kind, s.encoding(col), g, n, layout)
					}
				}
				// Every stream with positions can be planned from.
				for slot, sl := range layout {
					if sl.Count == 0 {
						continue
					}
					if _, err := NewStreamIndex(uint64(len(s.streams[streamKey{col, sl.Kind}])), ri.GetEntry(), layout, slot, compressed, f.tail.BlockSize); err != nil {
						t.Errorf("%s stripe %d column %d %v: %v", name, i, col, sl.Kind, err)
					}
				}
				// The groups' value counts add up to the stripe's.
				var sum uint64
				all := true
				for _, e := range ri.GetEntry() {
					pb := e.GetStatistics()
					sum += stats.FromProto(pb, f.cols[col], info).NumValues
					all = all && pb != nil
				}
				if ss, _ := f.tail.StripeStatistics(i, col); all && ss != nil {
					if want := ss.GetNumberOfValues(); sum != want {
						t.Errorf("%s stripe %d column %d: groups hold %d values, the stripe %d", name, i, col, sum, want)
					}
				}
				checked[f.cols[col].Kind.String()+"/"+s.encoding(col).String()]++
			}
		}
	}
	if len(checked) == 0 {
		t.Fatal("no row index found in the examples")
	}
	t.Logf("row indexes checked by kind/encoding: %v", checked)
}

// openExampleOrSkip opens a file the tail reader accepts, or returns nil.
func openExampleOrSkip(t *testing.T, name string) *exFile {
	t.Helper()
	data, err := os.ReadFile(examples.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseExample(name, data)
	if err != nil {
		t.Logf("%s: not read: %v", name, err)
		return nil
	}
	return f
}

// seekFiles are the example files whose every stream is seeked and planned.
var seekFiles = []string{
	"TestOrcFile.testSeek.orc",              // ZLIB 64 KiB, every type, nested
	"TestOrcFile.testPredicatePushdown.orc", // NONE, int + direct string
	"TestOrcFile.testSnappy.orc",            // SNAPPY with 100-byte blocks
	"TestOrcFile.test1.orc",                 // ZLIB, every type
	"TestOrcFile.columnProjection.orc",      // NONE, 5 stripes, stride 1000
	"TestOrcFile.testUnionAndTimestamp.orc", // union, timestamp, decimal, nulls
	"TestStringDictionary.testRowIndex.orc", // direct strings, stride 4096
	"TestVectorOrcFile.testLz4.orc",         // LZ4, 1000-byte blocks
	"TestVectorOrcFile.testZstd.0.12.orc",   // ZSTD, 1000-byte blocks
	"nulls-at-end-snappy.orc",               // trailing nulls
	"orc_index_int_string.orc",              // stride 2000
	"decimal64_v2.orc",                      // decimal64
	"orc-file-11-format.orc",                // Hive 0.11: RLE v1
	"complextypes_iceberg.orc",              // deep nesting
	"TestOrcFile.testDate1900.orc",          // timestamps, dates
	"orc_split_elim.orc",                    // decimal, timestamp
	"over1k_bloom.orc",                      // many types
	"TestOrcFile.testStringAndBinaryStatistics.orc",
}

// stripesToTest returns the stripe indexes of f to decode: all of them,
// or a few spread out in short mode and for long files.
func stripesToTest(f *exFile) []int {
	n := f.stripes()
	limit := 8
	if testing.Short() {
		limit = 3
	}
	if n <= limit {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, limit)
	for i := range out {
		out[i] = i * (n - 1) / (limit - 1)
	}
	return out
}

// Seeking every stream of every column to every row group by the recorded
// positions lands on the value a sequential read finds at the group's first
// row.
func TestSeekExamples(t *testing.T) {
	examples.Dir(t)
	seeks := 0
	for _, name := range seekFiles {
		f := openExample(t, name)
		for _, i := range stripesToTest(f) {
			s := f.stripe(t, i)
			cols := seqStripe(t, s)
			if cols == nil {
				t.Fatalf("%s: no row index", name)
			}
			for _, c := range cols {
				for g := range c.entries {
					parts := c.positions(t, g)
					for _, st := range c.streams {
						in := f.inStream(t, st.stored)
						d, err := st.seek(in, parts[st.slot])
						if err != nil {
							t.Fatalf("%s stripe %d column %d group %d %v: seek %v: %v", name, i, c.col, g, st.kind, parts[st.slot], err)
						}
						n := min(64, st.total()-st.starts[g])
						got, err := st.read(d, n)
						if err != nil {
							t.Fatalf("%s stripe %d column %d group %d %v: read: %v", name, i, c.col, g, st.kind, err)
						}
						if want := st.expected(st.starts[g], n); !slices.Equal(got, want) {
							t.Fatalf("%s stripe %d column %d group %d %v at value %d: seek gives %v, sequential %v",
								name, i, c.col, g, st.kind, st.starts[g], got[:min(8, len(got))], want[:min(8, len(want))])
						}
						seeks++
					}
				}
			}
		}
	}
	t.Logf("%d seeks checked", seeks)
}

// runResult is what reading one run of row groups through a planned window
// gave.
type runResult int

const (
	runOK      runResult = iota
	runOutside           // the read left the window
	runNoRange           // no planned range holds the run's start
)

// readRun reads groups a..b-1 of stream st of column c through the range of
// ranges that holds group a's start, and checks the values.
func readRun(t *testing.T, f *exFile, c *seqColumn, st *seqStream, ranges []Range, a, b int) runResult {
	t.Helper()
	parts := c.positions(t, a)
	start := parts[st.slot][0]
	length := uint64(len(st.stored))
	r := Range{start, start}
	found := false
	for _, x := range ranges {
		if x.Start <= start && start < x.End {
			r, found = x, true
		}
	}
	if !found && start != length {
		return runNoRange
	}
	win := st.stored[r.Start:r.End]
	in := format.NewInStream(format.StreamInfo{Name: st.kind.String(), Stripe: -1, Column: c.col, Length: length},
		win, f.tail.Compression, f.tail.BlockSize, f.decompressor(t))
	in.SetWindow(win, r.Start)
	n := st.starts[b] - st.starts[a]
	d, err := st.seek(in, parts[st.slot])
	var got []int64
	if err == nil {
		got, err = st.read(d, n)
	}
	if errors.Is(err, format.ErrOutsideWindow) {
		return runOutside
	}
	if err != nil {
		t.Fatalf("%s column %d %v groups %d..%d: %v", f.name, c.col, st.kind, a, b-1, err)
	}
	if want := st.expected(st.starts[a], n); !slices.Equal(got, want) {
		t.Fatalf("%s column %d %v groups %d..%d: values differ from a sequential read", f.name, c.col, st.kind, a, b-1)
	}
	return runOK
}

// selections returns row-group selections to try for g groups: each group
// alone, each group left out, and random ones.
func selections(rng *rand.Rand, g int) [][]bool {
	var out [][]bool
	for i := range g {
		one := make([]bool, g)
		one[i] = true
		out = append(out, one)
		if g > 1 {
			all := make([]bool, g)
			for j := range all {
				all[j] = j != i
			}
			out = append(out, all)
		}
	}
	for range 6 {
		p := rng.Float64()
		sel := make([]bool, g)
		for i := range sel {
			sel[i] = rng.Float64() < p
		}
		out = append(out, sel)
	}
	return out
}

// Reading a run of row groups of Apache's files through the range
// RunRange gives for it decodes the run without leaving the range, and the
// range is what checkRunRange derives from the positions: exact where the
// next group is aligned, within the slop otherwise. Reading the runs that
// are not exact without the slop, up to the next group's place, does run
// out of bytes, which shows the check can fail.
func TestRunRangeExamples(t *testing.T) {
	examples.Dir(t)
	var files []*exFile
	for _, name := range seekFiles {
		files = append(files, openExample(t, name))
	}
	n := checkRunRanges(t, files, rand.New(rand.NewPCG(3, 4)))
	if n.noSlopOutside == 0 {
		t.Errorf("no run needed bytes past the next group's start: the test cannot tell a planner without slop from one with it")
	}
	t.Logf("%d runs of Apache's files read through RunRange's ranges (%d of %d stream bytes), %d of them exact; without slop %d ran out, with Java's slop %d",
		n.runs, n.planned, n.whole, n.exact, n.noSlopOutside, n.javaOutside)
}

// The same for files of our writer, which aligns its row groups: the
// uncompressed and the zstd file of writerStreams (fewer rows). All but
// the runs before a split boolean byte are exact.
func TestRunRangeOurFiles(t *testing.T) {
	var files []*exFile
	for _, w := range []struct {
		rows, stride int
		codec        orc.CompressionKind
		stripe       int64
	}{
		{20_000, 1000, orc.CompressionNone, 1 << 30},
		{6000, 300, orc.CompressionZstd, 2100},
	} {
		name := fmt.Sprintf("writer %d rows stride %d %v", w.rows, w.stride, w.codec)
		f, err := parseExample(name, writerFile(t, w.rows, w.stride, w.codec, w.stripe))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	n := checkRunRanges(t, files, rand.New(rand.NewPCG(5, 6)))
	if n.exact == 0 || n.runs-n.exact > n.boolRuns {
		t.Errorf("%d runs, %d exact, %d in boolean streams: runs of other streams not exact in aligned files", n.runs, n.exact, n.boolRuns)
	}
	t.Logf("%d runs of our files read through RunRange's ranges (%d of %d stream bytes), %d of them exact",
		n.runs, n.planned, n.whole, n.exact)
}

// runCounts is what checkRunRanges saw.
type runCounts struct {
	runs, exact, boolRuns      int
	noSlopOutside, javaOutside int
	planned, whole             uint64
}

// checkRunRanges reads selections of row-group runs of every stream of
// files (their stripesToTest) through RunRange's ranges and checks the
// ranges with checkRunRange.
func checkRunRanges(t *testing.T, files []*exFile, rng *rand.Rand) runCounts {
	t.Helper()
	var n runCounts
	for _, f := range files {
		compressed, bs := f.compressed(), f.tail.BlockSize
		javaSlop := uint64(2 + 8*512)
		if compressed {
			javaSlop = uint64((2 + (512*8-1)/bs) * (bs + 3))
		}
		for _, i := range stripesToTest(f) {
			s := f.stripe(t, i)
			cols := seqStripe(t, s)
			if cols == nil {
				t.Fatalf("%s: no row index", f.name)
			}
			for _, c := range cols {
				groups := len(c.entries)
				for _, st := range c.streams {
					length := uint64(len(st.stored))
					si, err := NewStreamIndex(length, c.entries, c.layout, st.slot, compressed, bs)
					if err != nil {
						t.Fatal(err)
					}
					pos := make([]streamPos, groups)
					for g := range pos {
						pos[g] = posOf(c.positions(t, g)[st.slot], compressed)
					}
					for _, sel := range selections(rng, groups) {
						for _, run := range runsOf(sel) {
							a, b := run[0], run[1]
							r, exact := si.RunRange(a, b)
							where := fmt.Sprintf("%s stripe %d column %d %v: groups %d..%d", f.name, i, c.col, st.kind, a, b-1)
							if msg := checkRunRange(length, pos, compressed, bs, a, b, r, exact); msg != "" {
								t.Fatalf("%s: %s", where, msg)
							}
							if res := readRun(t, f, c, st, []Range{r}, a, b); res != runOK {
								t.Fatalf("%s: %v with %v (exact %v)", where, res, r, exact)
							}
							n.runs++
							n.planned += r.End - r.Start
							n.whole += length
							if exact {
								n.exact++
								continue
							}
							if st.codec == codecBool {
								n.boolRuns++
							}
							// Without the slop, and with Java's.
							noSlop := Range{pos[a].place, pos[b].place}
							if readRun(t, f, c, st, []Range{noSlop}, a, b) != runOK {
								n.noSlopOutside++
							}
							java := Range{pos[a].place, min(length, pos[b].place+javaSlop)}
							if readRun(t, f, c, st, []Range{java}, a, b) != runOK {
								n.javaOutside++
							}
						}
					}
				}
			}
		}
	}
	return n
}

func (r runResult) String() string {
	return [...]string{"ok", "read outside the window", "no range holds the run's start"}[r]
}
