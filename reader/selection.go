package reader

import (
	"unsafe"

	"github.com/orcgo/orc/rowindex"
)

// rowSelection says which rows of a unit (a stripe, or a batch) a scan
// reads: runs of selected rows, in order, disjoint and never adjacent,
// within rows [0, n). Group pruning produces a stripe's selection
// (selectGroups), the plan reads the row groups it touches (groupRuns), and
// the exact filter's matches of a batch are one (selectMask), which late
// materialisation decodes run by run, skipping the rows between. Its
// operations are pure.
type rowSelection struct {
	n    int64
	runs []rowRun
}

// rowRun is the selected rows [start, end).
type rowRun struct {
	start, end int64
}

// selectAll selects all n rows.
func selectAll(n int64) rowSelection {
	if n <= 0 {
		return rowSelection{}
	}
	return rowSelection{n: n, runs: []rowRun{{0, n}}}
}

// selectGroups selects the rows of the kept row groups of a unit of rows
// rows with the given stride (nil kept: every row).
func selectGroups(kept []bool, stride, rows int64) rowSelection {
	if kept == nil || stride <= 0 {
		return selectAll(rows)
	}
	s := rowSelection{n: rows}
	for g := 0; g < len(kept); g++ {
		if kept[g] {
			s = s.with(int64(g)*stride, min(int64(g+1)*stride, rows))
		}
	}
	return s
}

// given reports whether s is a selection at all: the zero rowSelection
// stands for every row of a unit whose size it does not know.
func (s rowSelection) given() bool { return s.n > 0 }

// all reports whether s selects every one of its rows.
func (s rowSelection) all() bool {
	return len(s.runs) == 1 && s.runs[0].start == 0 && s.runs[0].end == s.n
}

// none reports whether s selects no row.
func (s rowSelection) none() bool { return len(s.runs) == 0 }

// within returns the rows of s in [start, end), as a selection of s's rows.
func (s rowSelection) within(start, end int64) rowSelection {
	out := rowSelection{n: s.n}
	for _, r := range s.runs {
		out = out.with(max(r.start, start), min(r.end, end))
	}
	return out
}

// union returns the rows s or o selects, of s's rows; o's runs must all
// lie after s's.
func (s rowSelection) union(o rowSelection) rowSelection {
	out := rowSelection{n: s.n, runs: append([]rowRun(nil), s.runs...)}
	for _, r := range o.runs {
		out = out.with(r.start, r.end)
	}
	return out
}

// groups returns how many row groups of the stride hold a selected row.
func (s rowSelection) groups(stride int64) int {
	n := 0
	for _, r := range s.groupRuns(stride) {
		n += r.end - r.first
	}
	return n
}

// boolBytes returns the bytes of bs, each 0 or 1 (a Go bool's byte).
func boolBytes(bs []bool) []byte {
	if len(bs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&bs[0])), len(bs))
}

// with returns s with rows [start, end) selected too; start must not lie
// before the end of s's last run.
func (s rowSelection) with(start, end int64) rowSelection {
	if end <= start {
		return s
	}
	if k := len(s.runs); k > 0 && s.runs[k-1].end == start {
		s.runs[k-1].end = end
		return s
	}
	s.runs = append(s.runs, rowRun{start, end})
	return s
}

// count returns the selected rows.
func (s rowSelection) count() int64 {
	var n int64
	for _, r := range s.runs {
		n += r.end - r.start
	}
	return n
}

// intersect returns the rows both s and o select.
func (s rowSelection) intersect(o rowSelection) rowSelection {
	out := rowSelection{n: min(s.n, o.n)}
	i, j := 0, 0
	for i < len(s.runs) && j < len(o.runs) {
		a, b := s.runs[i], o.runs[j]
		out = out.with(max(a.start, b.start), min(a.end, b.end))
		if a.end < b.end {
			i++
		} else {
			j++
		}
	}
	return out
}

// split returns the selection of rows [0, at) and that of rows [at, n),
// the second counted from at.
func (s rowSelection) split(at int64) (rowSelection, rowSelection) {
	at = max(0, min(at, s.n))
	head, tail := rowSelection{n: at}, rowSelection{n: s.n - at}
	for _, r := range s.runs {
		head = head.with(r.start, min(r.end, at))
		tail = tail.with(max(r.start, at)-at, r.end-at)
	}
	return head, tail
}

// groupRuns returns the runs of row groups of the given stride that hold a
// selected row.
func (s rowSelection) groupRuns(stride int64) []groupRun {
	var out []groupRun
	for _, r := range s.runs {
		first, end := int(r.start/stride), int((r.end+stride-1)/stride)
		if k := len(out); k > 0 && out[k-1].end >= first {
			out[k-1].end = max(out[k-1].end, end)
			continue
		}
		out = append(out, groupRun{first, end})
	}
	return out
}

// byteRanges returns, for each run of row groups the selection touches
// (groupRuns), the bytes of a stream that run needs, from the stream's
// row index positions, and whether each range ends exactly where the
// group after the run starts.
func (s rowSelection) byteRanges(si *rowindex.StreamIndex, stride int64) ([]rowindex.Range, []bool) {
	runs := s.groupRuns(stride)
	ranges, exact := make([]rowindex.Range, len(runs)), make([]bool, len(runs))
	for i, r := range runs {
		ranges[i], exact[i] = si.RunRange(r.first, r.end)
	}
	return ranges, exact
}
