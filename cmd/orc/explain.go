package main

// scan --explain prints the pruning decisions in one of two forms, both
// built from the text the reader (reader.BatchReader.Explain) and the
// dataset scanner (dataset.Scanner.Explain) record:
//
//   - compact (the default): per file the predicate and its numbered
//     leaves, the file's verdict, and per stripe its verdict, the row
//     groups kept and skipped, which leaves ruled the skipped ones out,
//     and a line per kept run of row groups;
//   - full (--explain=full or --explain-groups): every line the reader
//     recorded, one per row group, and the stripe read plans.
//
// In both, a leaf is printed as the predicate wrote it: the reader keeps
// x >= 5 as NOT (x < 5) and evaluates the inner leaf, so such a leaf's
// text is negated back and its truth values with it (NO becomes YES).
// Lines the parser does not know pass through unchanged, so a reader that
// records more never loses it here.

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/orcgo/orc/sarg"
)

// explainMode is the --explain flag: off, compact or full. It is a boolean
// flag, so --explain alone means compact.
type explainMode string

func (m *explainMode) String() string { return string(*m) }

func (m *explainMode) Set(s string) error {
	switch s {
	case "true", "compact":
		*m = "compact"
	case "false", "":
		*m = ""
	case "full", "groups":
		*m = "full"
	default:
		return fmt.Errorf("%q: want compact or full", s)
	}
	return nil
}

func (m *explainMode) IsBoolFlag() bool { return true }

// leafForms records how the predicate as written uses each leaf: a leaf
// text seen only under NOT is printed negated.
type leafForms struct {
	negated map[string]string // leaf text -> its negated text, for leaves only seen under NOT
}

// newLeafForms walks the normalized predicate (NOT only over leaves).
func newLeafForms(e sarg.Expr) leafForms {
	pos := map[string]bool{}
	neg := map[string]string{}
	var walk func(e sarg.Expr, under bool)
	walk = func(e sarg.Expr, under bool) {
		switch e.Op {
		case sarg.OpLeaf:
			if e.Leaf == nil {
				return
			}
			if under {
				neg[e.Leaf.String()] = sarg.Not(e).String()
			} else {
				pos[e.Leaf.String()] = true
			}
		case sarg.OpNot:
			for _, c := range e.Children {
				walk(c, !under)
			}
		default:
			for _, c := range e.Children {
				walk(c, under)
			}
		}
	}
	walk(sarg.Normalize(e), false)
	for t := range pos {
		delete(neg, t)
	}
	return leafForms{negated: neg}
}

// written returns a leaf's text as written and whether its values are to
// be negated.
func (f leafForms) written(text string) (string, bool) {
	if n, ok := f.negated[text]; ok && !strings.HasPrefix(n, "NOT (") {
		return n, true
	}
	return text, false
}

var truthValues = func() map[string]sarg.TruthValue {
	m := map[string]sarg.TruthValue{}
	for tv := sarg.TruthValue(1); tv <= 7; tv++ {
		m[tv.String()] = tv
	}
	return m
}()

var (
	reLeafLine   = regexp.MustCompile(`^(\s*)leaf (\d+): (.*) -> ([A-Z_]+)$`)
	reGroupLine  = regexp.MustCompile(`^stripe (\d+) group (\d+): (.*) -> ([A-Z_]+): (read|skip)$`)
	reStatsHead  = regexp.MustCompile(`^stripe (\d+) statistics:$`)
	reGroupsHead = regexp.MustCompile(`^stripe (\d+) row groups: effective predicate (.*); (\d+) of (\d+) kept$`)
	rePlanHead   = regexp.MustCompile(`^  stripe (\d+): (\d+) rows`)
	reResult     = regexp.MustCompile(`^  result: ([A-Z_]+) \((read|skip)\)$`)
	reDeferred   = regexp.MustCompile(`^stripe (\d+) deferred columns`)
)

// explainFull prints full explain text with its leaves rewritten the leaves of full explain text as written.
func explainFull(w io.Writer, text string, forms leafForms) {
	var leafNeg []bool // per leaf of the current file: negate its values
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(body, "predicate: ") {
			leafNeg = nil
		}
		if m := reLeafLine.FindStringSubmatch(body); m != nil {
			i, _ := strconv.Atoi(m[2])
			txt, neg := forms.written(m[3])
			for len(leafNeg) <= i {
				leafNeg = append(leafNeg, false)
			}
			leafNeg[i] = neg
			tv := m[4]
			if neg {
				tv = negateTV(tv)
			}
			fmt.Fprintf(w, "%sleaf %s: %s -> %s\n", m[1], m[2], txt, tv)
			continue
		}
		if m := reGroupLine.FindStringSubmatch(body); m != nil {
			vals := strings.Fields(m[3])
			for k, v := range vals {
				name, tv, ok := strings.Cut(v, "=")
				i, err := strconv.Atoi(strings.TrimPrefix(name, "leaf"))
				if ok && err == nil && i < len(leafNeg) && leafNeg[i] {
					vals[k] = name + "=" + negateTV(tv)
				}
			}
			fmt.Fprintf(w, "stripe %s group %s: %s -> %s: %s\n", m[1], m[2], strings.Join(vals, " "), m[4], m[5])
			continue
		}
		io.WriteString(w, line)
	}
}

// negateTV returns the name of the negation of the truth value named s.
func negateTV(s string) string {
	if tv, ok := truthValues[s]; ok {
		return tv.Not().String()
	}
	return s
}

// explainStripe is what the explain text says of one stripe.
type explainStripe struct {
	index     int
	statsTV   []string // per leaf, from the stripe statistics (as recorded)
	statsRead bool
	hasStats  bool
	rows      int64
	planned   bool
	groups    []explainGroup
	effective string // the predicate the row groups were pruned with
}

type explainGroup struct {
	leaves []string
	read   bool
}

// explainFile is what the explain text says of one file.
type explainFile struct {
	header    string // a dataset's "NAME:" line, or ""
	predicate string
	leaves    []string // leaf texts as recorded
	fileTV    string
	fileRead  bool
	hasFile   bool
	stripes   []*explainStripe
	byIndex   map[int]*explainStripe
	other     []string // lines not understood, printed as they are
}

func (f *explainFile) stripe(i int) *explainStripe {
	if s, ok := f.byIndex[i]; ok {
		return s
	}
	s := &explainStripe{index: i}
	f.byIndex[i] = s
	f.stripes = append(f.stripes, s)
	return s
}

// explainCompact prints the compact form of explain text.
func explainCompact(w io.Writer, text string, forms leafForms) {
	var p explainParser
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line != "" {
			p.line(line)
		}
	}
	for _, f := range p.files {
		f.print(w, forms)
	}
}

// explainParser gathers the full explanation's lines by file and stripe.
type explainParser struct {
	files []*explainFile
	cur   *explainFile
	// block is the heading of the indented lines that follow: "file",
	// "stats" (a stripe's statistics), "plan" (a stripe's plan), "other"
	// (lines printed as they are) or "" (lines to drop).
	block       string
	blockStripe *explainStripe
}

func (p *explainParser) newFile(header string) {
	p.cur = &explainFile{header: header, byIndex: map[int]*explainStripe{}}
	p.files = append(p.files, p.cur)
}

// line takes one line of the explanation.
func (p *explainParser) line(line string) {
	indented := strings.HasPrefix(line, " ")
	if !indented {
		p.block = ""
	}
	switch {
	case strings.HasPrefix(line, "predicate: "):
		if p.cur == nil || p.cur.predicate != "" {
			p.newFile("")
		}
		p.cur.predicate = strings.TrimPrefix(line, "predicate: ")
		return
	case !indented && strings.HasSuffix(line, ":") && !strings.HasPrefix(line, "stripe ") && line != "file statistics:":
		// A dataset's file heading.
		p.newFile(line)
		return
	}
	if p.cur == nil {
		p.newFile("")
	}
	if indented {
		p.indented(line)
	} else {
		p.heading(line)
	}
}

// indented takes a line of the block under the last heading.
func (p *explainParser) indented(line string) {
	cur := p.cur
	if m := rePlanHead.FindStringSubmatch(line); m != nil && p.block != "" {
		// A stripe's plan: after its row groups, or right after its
		// statistics when it has no row groups.
		i, _ := strconv.Atoi(m[1])
		s := cur.stripe(i)
		s.planned = true
		s.rows, _ = strconv.ParseInt(m[2], 10, 64)
		return
	}
	switch p.block {
	case "file", "stats":
		if m := reLeafLine.FindStringSubmatch(line); m != nil {
			i, _ := strconv.Atoi(m[2])
			for len(cur.leaves) <= i {
				cur.leaves = append(cur.leaves, "")
			}
			cur.leaves[i] = m[3]
			if p.block == "stats" {
				bs := p.blockStripe
				for len(bs.statsTV) <= i {
					bs.statsTV = append(bs.statsTV, "")
				}
				bs.statsTV[i] = m[4]
			}
		} else if m := reResult.FindStringSubmatch(line); m != nil {
			if p.block == "file" {
				cur.hasFile, cur.fileTV, cur.fileRead = true, m[1], m[2] == "read"
			} else {
				p.blockStripe.hasStats, p.blockStripe.statsRead = true, m[2] == "read"
			}
		}
	case "other":
		cur.other = append(cur.other, line)
	}
}

// heading takes a line that is not indented: a block's heading, a row
// group's line, or a line printed as it is.
func (p *explainParser) heading(line string) {
	cur := p.cur
	if line == "file statistics:" {
		p.block = "file"
		return
	}
	if m := reStatsHead.FindStringSubmatch(line); m != nil {
		i, _ := strconv.Atoi(m[1])
		p.block, p.blockStripe = "stats", cur.stripe(i)
		return
	}
	if m := reGroupLine.FindStringSubmatch(line); m != nil {
		i, _ := strconv.Atoi(m[1])
		s := cur.stripe(i)
		g := explainGroup{read: m[5] == "read"}
		for _, v := range strings.Fields(m[3]) {
			_, tv, _ := strings.Cut(v, "=")
			g.leaves = append(g.leaves, tv)
		}
		s.groups = append(s.groups, g)
		return
	}
	if m := reGroupsHead.FindStringSubmatch(line); m != nil {
		i, _ := strconv.Atoi(m[1])
		cur.stripe(i).effective = m[2]
		p.block = "plan"
		return
	}
	if reDeferred.MatchString(line) {
		p.block = "" // the deferred columns' plan: full form only
		return
	}
	cur.other = append(cur.other, line)
	p.block = "other"
}

// leafText returns leaf i as written, and whether its recorded values are
// negated for printing.
func (f *explainFile) leafText(i int, forms leafForms) (string, bool) {
	if i < len(f.leaves) && f.leaves[i] != "" {
		return forms.written(f.leaves[i])
	}
	return fmt.Sprintf("leaf %d", i), false
}

// tvAsWritten returns leaf i's recorded truth value as written.
func (f *explainFile) tvAsWritten(i int, tv string, forms leafForms) string {
	if _, neg := f.leafText(i, forms); neg {
		return negateTV(tv)
	}
	return tv
}

func (f *explainFile) print(w io.Writer, forms leafForms) {
	if f.header != "" {
		fmt.Fprintln(w, f.header)
	}
	if f.predicate != "" {
		fmt.Fprintf(w, "predicate: %s\n", f.predicate)
	}
	for i := range f.leaves {
		t, _ := f.leafText(i, forms)
		fmt.Fprintf(w, "  leaf %d: %s\n", i, t)
	}
	if f.hasFile {
		if f.fileRead {
			fmt.Fprintf(w, "file: read (statistics: %s)\n", f.fileTV)
		} else {
			fmt.Fprintf(w, "file: skipped by its statistics (%s)\n", f.fileTV)
		}
	}
	pruned, groups, kept := 0, 0, 0
	for _, s := range f.stripes {
		f.printStripe(w, s, forms)
		if s.hasStats && !s.statsRead {
			pruned++
			continue
		}
		groups += len(s.groups)
		for _, g := range s.groups {
			if g.read {
				kept++
			}
		}
	}
	if len(f.stripes) > 1 {
		fmt.Fprintf(w, "total: %d stripes, %d skipped by their statistics; in the others %d row groups, %d kept, %d skipped\n",
			len(f.stripes), pruned, groups, kept, groups-kept)
	}
	for _, l := range f.other {
		fmt.Fprintln(w, l)
	}
}

func (f *explainFile) printStripe(w io.Writer, s *explainStripe, forms leafForms) {
	if s.hasStats && !s.statsRead {
		var why []string
		for i, tv := range s.statsTV {
			v := f.tvAsWritten(i, tv, forms)
			if !truthValues[v].IsNeeded() {
				why = append(why, fmt.Sprintf("leaf %d %s", i, v))
			}
		}
		fmt.Fprintf(w, "stripe %d: skipped by its statistics", s.index)
		if len(why) > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(why, ", "))
		}
		fmt.Fprintln(w)
		return
	}
	rows := ""
	if s.planned {
		rows = fmt.Sprintf("%d rows, ", s.rows)
	}
	if len(s.groups) == 0 {
		fmt.Fprintf(w, "stripe %d: %sread whole (no row groups evaluated)\n", s.index, rows)
		return
	}
	kept, byLeaf := 0, map[int]int{}
	for _, g := range s.groups {
		if g.read {
			kept++
			continue
		}
		for i, tv := range g.leaves {
			if !truthValues[f.tvAsWritten(i, tv, forms)].IsNeeded() {
				byLeaf[i]++
			}
		}
	}
	skipped := len(s.groups) - kept
	groups := "row groups"
	if len(s.groups) == 1 {
		groups = "row group"
	}
	fmt.Fprintf(w, "stripe %d: %s%d %s: %d kept, %d skipped", s.index, rows, len(s.groups), groups, kept, skipped)
	if skipped > 0 && len(byLeaf) > 0 {
		var parts []string
		for i := range len(s.groups[0].leaves) {
			if n := byLeaf[i]; n > 0 {
				parts = append(parts, fmt.Sprintf("leaf %d: %d", i, n))
			}
		}
		fmt.Fprintf(w, " (ruled out by %s)", strings.Join(parts, ", "))
	}
	if s.effective != "" && s.effective != f.predicate {
		fmt.Fprintf(w, "; effective predicate %s", s.effective)
	}
	fmt.Fprintln(w)
	for g := 0; g < len(s.groups); {
		if !s.groups[g].read {
			g++
			continue
		}
		end := g
		for end < len(s.groups) && s.groups[end].read {
			end++
		}
		if end-g == 1 {
			fmt.Fprintf(w, "  read group %d\n", g)
		} else {
			fmt.Fprintf(w, "  read groups %d-%d (%d groups)\n", g, end-1, end-g)
		}
		g = end
	}
}
