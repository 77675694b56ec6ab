package main

// orc check FILE decodes every row and recomputes each column's
// statistics from the values, per row group, per stripe and for the file,
// and compares them with the statistics the file records: counts, hasNull,
// min and max, and the sums that are exact (integers, decimals, string and
// binary lengths, children). Double sums are not compared (their rounding
// depends on the order of addition), nor bytesOnDisk.
//
// Bloom filters (BLOOM_FILTER_UTF8 streams of integer, date, float,
// double and string columns, of writers whose filters are trusted) are
// checked to hold every value of their row group: a filter that answers
// "absent" for a value the group holds would make a scan skip its rows.
//
// What a writer is known to have recorded wrongly is not compared: the
// statistics are decoded as the reader decodes them for pruning
// (stats.FromProto), which drops string min/max of writer version 0,
// decimal statistics of the ORC-517 writers and timestamp statistics in the
// writer's local time (before ORC-135). Each dropped kind is reported as a
// note. Timestamps recorded in milliseconds only are compared to the
// millisecond; strings longer than 1024 bytes recorded as bounds are
// checked to bound the values.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/stats"
)

func init() {
	register(command{name: "check", usage: "check FILE|DIR|URL...", run: runCheck,
		desc: "decode every row and verify the statistics (file, stripes, row groups) against the data",
		help: `Exit status 0 when every recorded statistic matches the data, 1 at the first
one that does not (named by stripe, column and row group) or when a row does
not decode. Statistics that old writers are known to record wrongly are not
compared; a note says which.`})
}

// errInconsistent marks a statistic that does not match the data.
var errInconsistent = errors.New("statistics do not match the data")

// checker holds the state of one orc check run.
type checker struct {
	r     *reader.Reader
	ir    *indexReader
	names []string
	nodes []*orc.Schema
	// trusting decodes statistics as if the writer had every fix, to
	// tell what the real decoding dropped.
	trusting stats.WriterInfo
	notes    noteSet
	compared map[string]int // statistics compared, by level
	// noChildren marks list and map columns whose children statistics
	// the file contradicts; noDecimal Hive 0.11 decimals (no scale).
	noChildren, noDecimal map[int]bool
	// filters are the bloom filters of the current stripe by column, and
	// group the row group being added; bloomMiss describes the first
	// value a filter said was absent.
	filters   map[int][]bloomfilter.Probe
	group     int
	bloomMiss string
	blooms    int // bloom filters checked
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return onFile(fs, args, false, stdout, stderr, runCheck, func(path string, r *reader.Reader, ra io.ReaderAt) error {
		return checkFile(path, r, ra, stdout, stderr)
	})
}

// checkFile checks the file at path, read through r and ra, printing its
// verdict on stdout and notes on stderr.
func checkFile(path string, r *reader.Reader, ra io.ReaderAt, stdout, stderr io.Writer) error {
	if r.Size() == 0 {
		_, err := fmt.Fprintf(stdout, "%s: empty file (0 bytes), nothing to check\n", path)
		return err
	}
	ir, err := newIndexReader(r, ra)
	if err != nil {
		return err
	}
	c := &checker{r: r, ir: ir, names: columnNames(r.Schema()), nodes: r.Schema().Columns(),
		notes: noteSet{seen: map[string]bool{}}, compared: map[string]int{}, noChildren: map[int]bool{}, noDecimal: map[int]bool{}}
	c.trusting = ir.winfo
	c.trusting.WriterVersion, c.trusting.Version011 = format.WriterORC14, false
	if err := c.run(); err != nil {
		return inFile(path, err)
	}
	for _, n := range c.notes.list {
		fmt.Fprintf(stderr, "orc check: note: %s\n", n)
	}
	_, err = fmt.Fprintf(stdout, "%s: OK: %s in %s; statistics match the data (%d file, %d stripe, %d row group); %s hold their values\n",
		path, plural(r.NumRows(), "row"), plural(int64(len(r.Stripes())), "stripe"), c.compared["file"], c.compared["stripe"], c.compared["group"], plural(int64(c.blooms), "bloom filter"))
	return err
}

// accs is one accumulator per column id (nil for columns not read).
type accs []*stats.Accumulator

func (c *checker) newAccs(read []bool) accs {
	a := make(accs, len(c.nodes))
	for id, n := range c.nodes {
		if read[id] {
			a[id] = stats.NewAccumulator(n)
			a[id].KeepLongValues() // compared with the file's bounds
		}
	}
	return a
}

func (a accs) merge(o accs) {
	for id := range a {
		if a[id] != nil && o[id] != nil {
			a[id].Merge(o[id])
		}
	}
}

func (c *checker) run() error {
	r := c.r
	// Encrypted columns are not decoded, so not checked.
	read := make([]bool, len(c.nodes))
	for id := range c.nodes {
		read[id] = !r.IsEncrypted(id)
		if !read[id] {
			c.notes.add("column %d (%s) is encrypted: not checked", id, c.names[id])
		}
	}
	c.findDistrusted()
	file := c.newAccs(read)
	anyIndex := false
	for si, s := range r.Stripes() {
		stripe, indexed, err := c.checkStripe(si, s, read)
		if err != nil {
			return err
		}
		anyIndex = anyIndex || indexed
		file.merge(stripe)
	}
	if c.uncollected("file", anyIndex, r.NumRows(), r.Statistics) {
		return nil
	}
	for id, a := range file {
		if a == nil {
			continue
		}
		st, ok := r.Statistics(id)
		if !ok {
			continue
		}
		if err := c.compare(fmt.Sprintf("file statistics, column %d (%s)", id, c.names[id]), "file", id, st, a.Column()); err != nil {
			return err
		}
	}
	return nil
}

// checkStripe decodes stripe si, compares each row group's statistics and
// bloom filters and then the stripe's statistics with what its rows give,
// and returns the stripe's accumulators and whether it has a row index.
func (c *checker) checkStripe(si int, s reader.StripeInfo, read []bool) (accs, bool, error) {
	r := c.r
	stripe := c.newAccs(read)
	groupStats, err := c.stripeGroupStats(si, read)
	if err != nil {
		return nil, false, err
	}
	if err := c.loadFilters(si, read); err != nil {
		return nil, false, err
	}
	row, err := c.scanStripe(si, s, read, stripe, groupStats)
	if err != nil {
		return nil, false, err
	}
	if row != s.NumRows {
		return nil, false, fmt.Errorf("%w: stripe %d: %d rows decoded, the footer says %d", errInconsistent, si, row, s.NumRows)
	}
	if r.HasStripeStatistics() && !c.uncollected("stripe", len(groupStats) > 0, row, func(id int) (stats.Column, bool) { return r.StripeStatistics(si, id) }) {
		for id, a := range stripe {
			if a == nil {
				continue
			}
			st, ok := r.StripeStatistics(si, id)
			if !ok {
				continue
			}
			if err := c.compare(fmt.Sprintf("stripe %d, column %d (%s)", si, id, c.names[id]), "stripe", id, st, a.Column()); err != nil {
				return nil, false, err
			}
		}
	}
	return stripe, len(groupStats) > 0, nil
}

// stripeGroupStats returns the row-group statistics of stripe si's read
// columns, by column; nil for a file without a row index.
func (c *checker) stripeGroupStats(si int, read []bool) (map[int][]*stats.Column, error) {
	if c.r.RowIndexStride() <= 0 {
		return nil, nil
	}
	d, err := c.r.StripeDetail(si)
	if err != nil {
		return nil, err
	}
	groupStats := map[int][]*stats.Column{}
	for id := range c.nodes {
		if !read[id] {
			continue
		}
		gs, err := c.ir.groupStats(si, d, id)
		if err != nil {
			return nil, err
		}
		if gs != nil {
			groupStats[id] = gs
		}
	}
	return groupStats, nil
}

// scanStripe decodes stripe si into row-group accumulators, comparing each
// group at its end and merging it into stripe, and returns the rows seen.
func (c *checker) scanStripe(si int, s reader.StripeInfo, read []bool, stripe accs, groupStats map[int][]*stats.Column) (int64, error) {
	r := c.r
	stride := int64(r.RowIndexStride())
	br, err := r.NewBatchReader(reader.WithRange(s.Offset, 1), reader.WithBatchSize(1024))
	if err != nil {
		return 0, err
	}
	defer br.Close()
	fields := c.fieldMap(r.Schema(), br.Schema())
	group := c.newAccs(read)
	g := 0
	var row int64 // rows of the stripe seen
	endGroup := func() error {
		if c.bloomMiss != "" {
			return fmt.Errorf("%w: stripe %d, %s", errInconsistent, si, c.bloomMiss)
		}
		if err := c.compareGroup(si, g, group, groupStats); err != nil {
			return err
		}
		stripe.merge(group)
		for _, a := range group {
			if a != nil {
				a.Reset()
			}
		}
		g++
		return nil
	}
	for b, err := range br.All() {
		if err != nil {
			return 0, err
		}
		for from := 0; from < b.NumRows; {
			to := b.NumRows
			if stride > 0 {
				to = int(min(int64(to), int64(from)+(int64(g)+1)*stride-row))
			}
			c.group = g
			c.addRows(group, r.Schema(), fields, b.Schema, rootVector(b), from, to)
			row += int64(to - from)
			from = to
			if stride > 0 && row == (int64(g)+1)*stride {
				if err := endGroup(); err != nil {
					return 0, err
				}
			}
		}
	}
	if row == s.NumRows && (stride == 0 || row > int64(g)*stride || row == 0) {
		if err := endGroup(); err != nil {
			return 0, err
		}
	}
	return row, nil
}

// loadFilters reads the bloom filters of stripe si that check can test:
// BLOOM_FILTER_UTF8 streams of integer, date, float, double and string
// columns (not booleans, binary, decimals or timestamps, whose hashing
// conventions differ between writers), one filter per row group, of
// writers whose filters are trusted.
func (c *checker) loadFilters(si int, read []bool) error {
	c.filters = map[int][]bloomfilter.Probe{}
	r := c.r
	if r.RowIndexStride() == 0 {
		return nil
	}
	if !bloomfilter.TrustFilters(r.WriterInfo()) {
		who := r.Writer().String()
		if v := r.SoftwareVersion(); v != "" {
			who += " " + v
		}
		c.notes.add("bloom filters not checked: the writer (%s) is known to write wrong ones", who)
		return nil
	}
	d, err := r.StripeDetail(si)
	if err != nil {
		return err
	}
	groups := int((d.NumRows + int64(r.RowIndexStride()) - 1) / int64(r.RowIndexStride()))
	for _, st := range d.Streams {
		if st.Kind != "BLOOM_FILTER_UTF8" || st.Column >= len(c.nodes) || !read[st.Column] {
			continue
		}
		switch c.nodes[st.Column].Kind {
		case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date, orc.Float, orc.Double, orc.String, orc.Varchar, orc.Char:
		default:
			continue
		}
		if st.Column < len(d.Encodings) && d.Encodings[st.Column].BloomEncoding > 1 {
			continue
		}
		if err := c.loadUTF8Filters(si, st, groups); err != nil {
			return err
		}
	}
	// Legacy BLOOM_FILTER streams of columns without a UTF-8 one, where
	// their hash is the one a reader probes with (bloomfilter.TrustLegacy);
	// string filters of old writers only for ASCII values.
	for _, st := range d.Streams {
		if st.Kind != "BLOOM_FILTER" || st.Column >= len(c.nodes) || !read[st.Column] || c.filters[st.Column] != nil {
			continue
		}
		if err := c.loadLegacyFilters(si, st, groups); err != nil {
			return err
		}
	}
	return nil
}

// loadUTF8Filters reads the filters of a BLOOM_FILTER_UTF8 stream, one
// for each of the stripe's row groups.
func (c *checker) loadUTF8Filters(si int, st reader.StreamDetail, groups int) error {
	bi, err := decodeStream(c.ir, si, st, rowindex.DecodeBloomFilterIndex)
	if err != nil {
		return err
	}
	pbs := bi.GetBloomFilter()
	if len(pbs) != groups {
		return fmt.Errorf("%w: stripe %d, column %d (%s): %d bloom filters for %d row groups", errInconsistent, si, st.Column, c.names[st.Column], len(pbs), groups)
	}
	fs := make([]bloomfilter.Probe, len(pbs))
	for g, pb := range pbs {
		if fs[g], err = bloomfilter.FromProto(pb); err != nil {
			return fmt.Errorf("stripe %d, column %d, BLOOM_FILTER_UTF8, row group %d: %w", si, st.Column, g, err)
		}
		c.blooms++
	}
	c.filters[st.Column] = fs
	return nil
}

// loadLegacyFilters reads the filters of a BLOOM_FILTER stream that a
// reader would probe (bloomfilter.TrustLegacy), one per row group.
func (c *checker) loadLegacyFilters(si int, st reader.StreamDetail, groups int) error {
	lbs, err := decodeStream(c.ir, si, st, rowindex.DecodeLegacyBloomIndex)
	if err != nil {
		return err
	}
	if len(lbs) != groups {
		return fmt.Errorf("%w: stripe %d, column %d (%s): %d bloom filters for %d row groups", errInconsistent, si, st.Column, c.names[st.Column], len(lbs), groups)
	}
	fs := make([]bloomfilter.Probe, len(lbs))
	any := false
	for g, lb := range lbs {
		switch bloomfilter.TrustLegacy(c.nodes[st.Column].Kind, c.r.WriterInfo(), lb.Early != nil) {
		case bloomfilter.LegacyYes:
			fs[g] = lb.Probe()
		case bloomfilter.LegacyASCII:
			fs[g] = asciiOnly{lb.Probe()}
		default:
			continue
		}
		any = true
		c.blooms++
	}
	if any {
		c.filters[st.Column] = fs
	}
	return nil
}

// asciiOnly checks a legacy string filter only on ASCII values, the only
// ones whose bytes do not depend on the writer's default charset.
type asciiOnly struct{ bloomfilter.Probe }

func (a asciiOnly) TestBytes(b []byte) bool {
	for _, x := range b {
		if x >= 0x80 {
			return true
		}
	}
	return a.Probe.TestBytes(b)
}

// compareGroup compares a row group's statistics, when recorded.
func (c *checker) compareGroup(si, g int, group accs, groupStats map[int][]*stats.Column) error {
	for id, a := range group {
		gs := groupStats[id]
		if a == nil || g >= len(gs) || gs[g] == nil {
			continue
		}
		if err := c.compare(fmt.Sprintf("stripe %d, column %d (%s), row group %d", si, id, c.names[id], g), "group", id, *gs[g], a.Column()); err != nil {
			return err
		}
	}
	return nil
}

// rootVector returns the batch's rows as one vector of the root type.
func rootVector(b *orc.Batch) orc.Vector {
	if b.Schema.Kind != orc.Struct {
		return b.Cols[0]
	}
	return &orc.StructVector{Fields: b.Cols, N: b.NumRows}
}

// fieldMap maps each struct node of the file schema to the indexes of its
// fields in the read schema (-1 for a field not read), by name.
func (c *checker) fieldMap(file, read *orc.Schema) map[*orc.Schema][]int {
	m := map[*orc.Schema][]int{}
	var walk func(f, r *orc.Schema)
	walk = func(f, r *orc.Schema) {
		if f.Kind == orc.Struct {
			// A name the file gives two fields (a damaged or foreign
			// file) is matched in order: the n-th field of that name to
			// the n-th read field of that name. A read field of another
			// kind is not read, so its vector is never taken for the
			// file's type.
			idx := make([]int, len(f.Children))
			used := make([]bool, len(r.Children))
			for i, name := range f.FieldNames {
				idx[i] = -1
				if i >= len(f.Children) {
					continue
				}
				for j, rn := range r.FieldNames {
					if j < len(r.Children) && !used[j] && rn == name {
						used[j] = true
						if r.Children[j].Kind == f.Children[i].Kind {
							idx[i] = j
							walk(f.Children[i], r.Children[j])
						}
						break
					}
				}
			}
			m[f] = idx
			return
		}
		for i := range f.Children {
			if i < len(r.Children) {
				walk(f.Children[i], r.Children[i])
			}
		}
	}
	walk(file, read)
	return m
}

// addRows adds rows [from, to) of v, a vector of the file's column t, to
// the accumulators.
func (c *checker) addRows(a accs, t *orc.Schema, fields map[*orc.Schema][]int, rt *orc.Schema, v orc.Vector, from, to int) {
	acc := a[t.ID()]
	if acc == nil || v == nil {
		return
	}
	switch t.Kind {
	case orc.Struct:
		c.addStructRows(a, t, fields, rt, v.(*orc.StructVector), from, to)
	case orc.List, orc.Map, orc.Union:
		c.addNestedRows(a, t, fields, rt, v, from, to)
	default:
		c.addValues(acc, t, v, from, to)
	}
}

// addValues adds rows [from, to) of a primitive column to its
// accumulator, testing each value against the group's bloom filter.
func (c *checker) addValues(acc *stats.Accumulator, t *orc.Schema, v orc.Vector, from, to int) {
	var bf bloomfilter.Probe
	if fs := c.filters[t.ID()]; c.group < len(fs) && c.bloomMiss == "" && fs[c.group] != nil {
		bf = fs[c.group]
	}
	miss := func(val any) {
		c.bloomMiss = fmt.Sprintf("column %d (%s), row group %d: the bloom filter says %v is absent, but the row group holds it",
			t.ID(), c.names[t.ID()], c.group, val)
		bf = nil
	}
	switch t.Kind {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		lv := v.(*orc.LongVector)
		for i := from; i < to; i++ {
			switch {
			case lv.IsNull(i):
				acc.AddNull()
				continue
			case t.Kind == orc.Boolean:
				acc.AddBool(lv.Values[i] != 0)
			case t.Kind == orc.Date:
				acc.AddDate(int32(lv.Values[i]))
			default:
				acc.AddInt(lv.Values[i])
			}
			if bf != nil && !bf.TestLong(lv.Values[i]) {
				miss(lv.Values[i])
			}
		}
	case orc.Float, orc.Double:
		dv := v.(*orc.DoubleVector)
		for i := from; i < to; i++ {
			if dv.IsNull(i) {
				acc.AddNull()
				continue
			}
			acc.AddDouble(dv.Values[i])
			if x := dv.Values[i]; bf != nil && !math.IsNaN(x) && !bf.TestDouble(x) {
				miss(x)
			}
		}
	case orc.String, orc.Varchar, orc.Char, orc.Binary, orc.Geometry, orc.Geography:
		bv := v.(*orc.BytesVector)
		for i := from; i < to; i++ {
			if bv.IsNull(i) {
				acc.AddNull()
				continue
			}
			x := bv.Data[bv.Offsets[i]:bv.Offsets[i+1]]
			acc.AddBytes(x)
			if bf != nil && !bf.TestBytes(x) {
				miss(fmt.Sprintf("%q", x))
			}
		}
	case orc.Decimal:
		dv := v.(*orc.DecimalVector)
		for i := from; i < to; i++ {
			if dv.IsNull(i) {
				acc.AddNull()
				continue
			}
			x := dv.Values[i]
			if dv.Scale != t.Scale {
				x, _, _ = orc.Rescale(x, dv.Scale, t.Scale)
			}
			acc.AddDecimal(x)
		}
	case orc.Timestamp, orc.TimestampInstant:
		tv := v.(*orc.TimestampVector)
		for i := from; i < to; i++ {
			if tv.IsNull(i) {
				acc.AddNull()
			} else {
				acc.AddTimestamp(tv.Seconds[i], tv.Nanos[i])
			}
		}
	}
}

// addStructRows adds rows [from, to) of a struct column and its fields:
// runs of non-null rows go to the fields at once.
func (c *checker) addStructRows(a accs, t *orc.Schema, fields map[*orc.Schema][]int, rt *orc.Schema, sv *orc.StructVector, from, to int) {
	acc := a[t.ID()]
	idx := fields[t]
	for i := from; i < to; {
		if sv.IsNull(i) {
			acc.AddNull()
			i++
			continue
		}
		j := i
		for j < to && !sv.IsNull(j) {
			acc.AddValue()
			j++
		}
		for k, ft := range t.Children {
			if k < len(idx) && idx[k] >= 0 && idx[k] < len(sv.Fields) {
				c.addRows(a, ft, fields, rt.Children[idx[k]], sv.Fields[idx[k]], i, j)
			}
		}
		i = j
	}
}

// addNestedRows adds rows [from, to) of a list, map or union column and
// the children they hold.
func (c *checker) addNestedRows(a accs, t *orc.Schema, fields map[*orc.Schema][]int, rt *orc.Schema, v orc.Vector, from, to int) {
	acc := a[t.ID()]
	for i := from; i < to; i++ {
		if v.IsNull(i) {
			acc.AddNull()
			continue
		}
		switch vec := v.(type) {
		case *orc.ListVector:
			lo, hi := int(vec.Offsets[i]), int(vec.Offsets[i+1])
			acc.AddChildren(uint64(hi - lo))
			c.addRows(a, t.Children[0], fields, rt.Children[0], vec.Elem, lo, hi)
		case *orc.MapVector:
			lo, hi := int(vec.Offsets[i]), int(vec.Offsets[i+1])
			acc.AddChildren(uint64(hi - lo))
			c.addRows(a, t.Children[0], fields, rt.Children[0], vec.Keys, lo, hi)
			c.addRows(a, t.Children[1], fields, rt.Children[1], vec.Values, lo, hi)
		case *orc.UnionVector:
			acc.AddValue()
			tag := int(vec.Tags[i])
			if tag < len(t.Children) && tag < len(vec.Children) {
				c.addRows(a, t.Children[tag], fields, rt.Children[tag], vec.Children[tag], i, i+1)
			}
		}
	}
}

// compare checks recorded statistics st of column id against those
// computed from the data, got. where names the place for the error.
func (c *checker) compare(where, level string, id int, st, got stats.Column) error {
	c.compared[level]++
	m := compareCounts(st, got)
	if m == nil {
		m = c.compareTyped(id, st, got)
	}
	if m != nil {
		return fmt.Errorf("%w: %s: %s is %v in the statistics, %v in the data", errInconsistent, where, m.what, m.rec, m.data)
	}
	c.noteDistrusted(level, id, c.nodes[id])
	return nil
}

// mismatch is a statistic that differs from the data's: what, and the
// recorded and computed values as the error shows them.
type mismatch struct {
	what      string
	rec, data any
}

// compareCounts compares the value count and hasNull.
func compareCounts(st, got stats.Column) *mismatch {
	if st.NumValues != got.NumValues {
		return &mismatch{"the value count", st.NumValues, got.NumValues}
	}
	if st.HasNullKnown && st.HasNull != got.HasNull {
		return &mismatch{"hasNull", st.HasNull, got.HasNull}
	}
	return nil
}

// minMax compares a minimum and a maximum, shown by show.
func minMax[T comparable](recMin, recMax, gotMin, gotMax T, show func(T) any) *mismatch {
	if recMin != gotMin {
		return &mismatch{"the minimum", show(recMin), show(gotMin)}
	}
	if recMax != gotMax {
		return &mismatch{"the maximum", show(recMax), show(gotMax)}
	}
	return nil
}

func asIs[T any](v T) any { return v }

// compareTyped compares the statistics of the column's type.
func (c *checker) compareTyped(id int, st, got stats.Column) *mismatch {
	switch {
	case st.Int != nil && got.Int != nil:
		if st.Int.HasMinMax && got.Int.HasMinMax {
			if m := minMax(st.Int.Min, st.Int.Max, got.Int.Min, got.Int.Max, asIs[int64]); m != nil {
				return m
			}
		}
		if st.Int.HasSum && got.Int.HasSum && st.Int.Sum != got.Int.Sum {
			return &mismatch{"the sum", st.Int.Sum, got.Int.Sum}
		}
	case st.Double != nil && got.Double != nil:
		if st.Double.HasMinMax && got.Double.HasMinMax {
			return minMax(st.Double.Min, st.Double.Max, got.Double.Min, got.Double.Max, asIs[float64])
		}
	case st.String != nil && got.String != nil:
		return compareStrings(st.String, got.String)
	case st.Bool != nil && got.Bool != nil:
		if st.Bool.TrueCount != got.Bool.TrueCount {
			return &mismatch{"the count of true values", st.Bool.TrueCount, got.Bool.TrueCount}
		}
	case st.Decimal != nil && got.Decimal != nil && !c.noDecimal[id]:
		return compareDecimals(st.Decimal, got.Decimal)
	case st.Date != nil && got.Date != nil:
		if st.Date.HasMinMax && got.Date.HasMinMax {
			day := func(d int32) any { return string(reader.AppendDate(nil, int64(d))) }
			return minMax(st.Date.Min, st.Date.Max, got.Date.Min, got.Date.Max, day)
		}
	case st.Timestamp != nil && got.Timestamp != nil:
		return compareTimestamps(st.Timestamp, got.Timestamp)
	case st.Geo != nil && got.Geo != nil:
		return compareBoxes(st.Geo, got.Geo)
	case st.Binary != nil && got.Binary != nil:
		if st.Binary.HasSum && got.Binary.HasSum && st.Binary.Sum != got.Binary.Sum {
			return &mismatch{"the total length", st.Binary.Sum, got.Binary.Sum}
		}
	case st.Collection != nil && got.Collection != nil && !c.noChildren[id]:
		return compareCollections(st.Collection, got.Collection)
	}
	return nil
}

// compareStrings compares string bounds (truncated ones as bounds) and
// the total length.
func compareStrings(st, got *stats.StringStats) *mismatch {
	if what := checkStringBound(st.Min, st.HasMin, st.MinIsLowerBound, got.Min, got.HasMin, got.MinIsLowerBound, -1, "minimum"); what != "" {
		return &mismatch{what, fmt.Sprintf("%q", st.Min), fmt.Sprintf("%q", got.Min)}
	}
	if what := checkStringBound(st.Max, st.HasMax, st.MaxIsUpperBound, got.Max, got.HasMax, got.MaxIsUpperBound, 1, "maximum"); what != "" {
		return &mismatch{what, fmt.Sprintf("%q", st.Max), fmt.Sprintf("%q", got.Max)}
	}
	if st.HasSum && got.HasSum && st.Sum != got.Sum {
		return &mismatch{"the total length", st.Sum, got.Sum}
	}
	return nil
}

// compareDecimals compares decimal bounds and sums by their canonical
// text, whatever the scale each was recorded at.
func compareDecimals(st, got *stats.DecimalStats) *mismatch {
	dec := func(v stats.DecimalValue) any { return orc.CanonicalDecimal(v.Unscaled, v.Scale) }
	if st.HasMinMax && got.HasMinMax {
		if m := minMax(dec(st.Min), dec(st.Max), dec(got.Min), dec(got.Max), asIs[any]); m != nil {
			return m
		}
	}
	if st.HasSum && got.HasSum && dec(st.Sum) != dec(got.Sum) {
		return &mismatch{"the sum", dec(st.Sum), dec(got.Sum)}
	}
	return nil
}

// compareTimestamps compares timestamp bounds: millisecond statistics (no
// nanos recorded) read as the start (min) or end (max) of their
// millisecond.
func compareTimestamps(s, g *stats.TimestampStats) *mismatch {
	if !s.HasMinMax || !g.HasMinMax {
		return nil
	}
	ts := func(sec int64, ns int32) string { return string(reader.AppendTimestamp(nil, sec, ns)) }
	if !withinMilli(s.MinSec, s.MinNanos, g.MinSec, g.MinNanos) {
		return &mismatch{"the minimum", ts(s.MinSec, s.MinNanos), ts(g.MinSec, g.MinNanos)}
	}
	if !withinMilli(g.MaxSec, g.MaxNanos, s.MaxSec, s.MaxNanos) {
		return &mismatch{"the maximum", ts(s.MaxSec, s.MaxNanos), ts(g.MaxSec, g.MaxNanos)}
	}
	return nil
}

// compareBoxes checks that the file's box holds every coordinate of the
// values (it may be wider: another writer may bound differently).
func compareBoxes(st, got *stats.GeoStats) *mismatch {
	for i, axis := range []string{"x", "y", "z", "m"} {
		sb, gb := &st.Box, &got.Box
		if !sb.AxisKnown(i) || !gb.AxisKnown(i) || gb.AxisEmpty(i) || (i == 0 && sb.Min[0] > sb.Max[0]) {
			continue
		}
		if sb.Min[i] > gb.Min[i] || sb.Max[i] < gb.Max[i] {
			return &mismatch{"the " + axis + " range of the bounding box", fmt.Sprintf("[%g, %g]", sb.Min[i], sb.Max[i]), fmt.Sprintf("[%g, %g]", gb.Min[i], gb.Max[i])}
		}
	}
	return nil
}

// compareCollections compares the child counts of a list or map.
func compareCollections(st, got *stats.CollectionStats) *mismatch {
	if st.HasMinMax && got.HasMinMax {
		if st.MinChildren != got.MinChildren {
			return &mismatch{"the fewest children", st.MinChildren, got.MinChildren}
		}
		if st.MaxChildren != got.MaxChildren {
			return &mismatch{"the most children", st.MaxChildren, got.MaxChildren}
		}
	}
	if st.TotalChildren != got.TotalChildren && (st.TotalChildren != 0 || st.HasMinMax) {
		return &mismatch{"the total children", st.TotalChildren, got.TotalChildren}
	}
	return nil
}

// findDistrusted finds the statistics of the file that contradict
// themselves or cannot match the values as read, and notes them:
//   - a list or map whose file statistics count more children than its
//     first child column has values, with no null among them (Java writers
//     fed by Iceberg recorded 1024 children for every collection);
//   - decimals of Hive 0.11, which have no precision and scale: the
//     reader reads them at scale 6, rounding what the statistics keep.
func (c *checker) findDistrusted() {
	for id, t := range c.nodes {
		switch t.Kind {
		case orc.List, orc.Map:
			st, ok := c.r.Statistics(id)
			ch, ok2 := c.r.Statistics(t.Children[0].ID())
			if ok && ok2 && st.Collection != nil && ch.HasNullKnown && !ch.HasNull && st.Collection.TotalChildren > ch.NumValues {
				c.noChildren[id] = true
				c.notes.add("column %d (%s): children statistics not compared: the file records %d children but %d values in %s",
					id, c.names[id], st.Collection.TotalChildren, ch.NumValues, c.names[t.Children[0].ID()])
			}
		case orc.Decimal:
			if pt, err := c.r.Tail().Type(id); err == nil && pt != nil && pt.GetPrecision() == 0 {
				c.noDecimal[id] = true
				c.notes.add("column %d (%s): decimal statistics not compared: a Hive 0.11 decimal without a scale, read at scale %d",
					id, c.names[id], t.Scale)
			}
		}
	}
}

// uncollected reports whether the statistics of a unit (a stripe or the
// file) of rows > 0 rows without a row index are all empty, as Java
// writers recorded them when they wrote no row index, and notes it.
func (c *checker) uncollected(level string, indexed bool, rows int64, get func(id int) (stats.Column, bool)) bool {
	if rows == 0 || indexed {
		return false
	}
	for id := range c.nodes {
		if st, ok := get(id); ok && st.NumValues != 0 {
			return false
		}
	}
	c.notes.add("the %s statistics are empty (count 0) where there is no row index: not collected by the writer, not compared", level)
	return true
}

// noteSet holds notes once each, in the order first added.
type noteSet struct {
	seen map[string]bool
	list []string
}

func (n *noteSet) add(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !n.seen[s] {
		n.seen[s] = true
		n.list = append(n.list, s)
	}
}

// noteDistrusted notes, once per column, statistics the decoding dropped
// because the file's writer is known to have recorded them wrongly.
func (c *checker) noteDistrusted(level string, id int, t *orc.Schema) {
	if level != "file" {
		return
	}
	pb, err := c.r.Tail().Statistics(id)
	if err != nil || pb == nil {
		return
	}
	real := stats.FromProto(pb, t, c.ir.winfo)
	all := stats.FromProto(pb, t, c.trusting)
	dropped := (all.String != nil && (all.String.HasMin || all.String.HasMax) && (real.String == nil || (!real.String.HasMin && !real.String.HasMax))) ||
		(all.Decimal != nil && all.Decimal.HasMinMax && (real.Decimal == nil || !real.Decimal.HasMinMax)) ||
		(all.Timestamp != nil && all.Timestamp.HasMinMax && (real.Timestamp == nil || !real.Timestamp.HasMinMax))
	if dropped {
		c.notes.add("column %d (%s): %s min/max not compared: the writer (%s, writer version %s, file version %s) is known to record them wrongly",
			id, c.names[id], t.Kind, c.r.Writer().String(), c.r.WriterVersion(), c.r.Version())
	}
}

// withinMilli reports whether lo <= hi and hi is in lo's millisecond or
// the same instant: recorded millisecond statistics may round a minimum
// down and a maximum up within their millisecond.
func withinMilli(loSec int64, loNs int32, hiSec int64, hiNs int32) bool {
	lo := loSec*1e9 + int64(loNs)
	hi := hiSec*1e9 + int64(hiNs)
	return lo <= hi && hi-lo < 1e6
}

// checkStringBound compares a recorded string minimum (dir -1) or maximum
// (dir 1) with the one computed; either may be a truncated bound. It
// returns what differs ("the minimum", "the lower bound", ...), or "".
func checkStringBound(rec string, hasRec, recBound bool, got string, hasGot, gotBound bool, dir int, name string) string {
	if !hasRec || !hasGot {
		return ""
	}
	bound := "lower bound"
	if dir > 0 {
		bound = "upper bound"
	}
	switch {
	case !recBound && !gotBound:
		if rec != got {
			return "the " + name
		}
	case recBound && !gotBound:
		// The recorded bound must not cut into the values: a lower bound
		// above the minimum or an upper bound below the maximum.
		if strings.Compare(rec, got) == -dir {
			return "the " + bound
		}
	case !recBound && gotBound:
		// got bounds the exact value, which rec should be.
		if strings.Compare(got, rec) == -dir {
			return "the " + name + " (against the data's " + bound + ")"
		}
	}
	return ""
}
