package reader_test

// Predicate pushdown on Apache ORC's example files, the Hudi example of a
// partial index, and the yield of pruning (how much of what can be
// skipped is skipped).
//
// For the example files the expected selections are those Apache ORC makes
// in its own tests: Java's TestOrcFile.testPredicatePushdown and the C++
// TestPredicatePushdown (int1 ranges on TestOrcFile.testPredicatePushdown),
// Hive's orc_split_elimination.q (userid <= N on orc_split_elim: 0, 1, 2,
// 3, 4 and 5 of 5 stripes), TestReader/TestRowReader
// testSkipBadBloomFilters (bloom filters of C++ writers before ORC-1024 are
// not used) and testSargSkipPickupGroupWithoutIndex (files without row
// index statistics are read whole). Every check also compares the rows with
// a full scan filtered by EvalRow.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
	"github.com/orcgo/orc/writer"
)

// sdExample opens an Apache example file and scans it whole.
func sdExample(t *testing.T, name string) *sdFile {
	t.Helper()
	data, err := os.ReadFile(examples.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return sdOpen(t, data, name)
}

// sdExpectGroups checks a predicate on a file: a scan with exact filtering
// returns the full scan's rows for which EvalRow is TRUE, and a scan
// without it returns exactly the rows of the row groups kept (numbered
// over the whole file).
func sdExpectGroups(t *testing.T, f *sdFile, where string, kept []int) {
	t.Helper()
	e, err := sarg.Parse(where)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sarg.Bind(e, f.schema)
	if err != nil {
		t.Fatalf("%s: %s: %v", f.desc, where, err)
	}
	var want, wantKept [][]any
	for i, m := range f.maps {
		if ok, _ := b.EvalRow(m); ok {
			want = append(want, f.rows[i])
			if !slices.Contains(kept, f.groups[i]) {
				t.Errorf("%s: %s: row %d matches but its group %d is not among the expected %v", f.desc, where, i, f.groups[i], kept)
			}
		}
		if slices.Contains(kept, f.groups[i]) {
			wantKept = append(wantKept, f.rows[i])
		}
	}
	for _, batch := range []int{1, 1024} {
		got, _, err := sdRows(f, reader.WithSearchArgument(e), reader.WithExactFilter(true), reader.WithBatchSize(batch))
		if err != nil {
			t.Fatalf("%s: %s: %v", f.desc, where, err)
		}
		if msg := sdSameRows(got, want); msg != "" {
			t.Errorf("%s: %s (exact, batch %d): %s\n%s", f.desc, where, batch, msg, sdExplain(f, e))
		}
	}
	got, st, err := sdRows(f, reader.WithSearchArgument(e), reader.WithWholeRowGroups())
	if err != nil {
		t.Fatalf("%s: %s: %v", f.desc, where, err)
	}
	if msg := sdSameRows(got, wantKept); msg != "" {
		t.Errorf("%s: %s: the scan did not read exactly row groups %v: %s\nstats: %v\n%s", f.desc, where, kept, msg, st, sdExplain(f, e))
	}
}

func TestSargApachePredicatePushdown(t *testing.T) {
	// 3500 rows, int1 = 300*i, one stripe, row groups of 1000 rows.
	f := sdExample(t, "TestOrcFile.testPredicatePushdown.orc")
	for _, c := range []struct {
		where string
		kept  []int
	}{
		{"int1 >= 300000 AND int1 < 600000", []int{1}},
		{"int1 < 0", nil},
		{"int1 < 30000 OR int1 >= 1020000", []int{0, 3}},
		{"int1 < 300000", []int{0}},
		{"int1 = 300300", []int{1}},
		{"int1 BETWEEN 299700 AND 300000", []int{0, 1}},
		{"NOT (int1 BETWEEN 0 AND 899700)", []int{3}},
		{"int1 IN (0, 1049700)", []int{0, 3}},
	} {
		sdExpectGroups(t, f, c.where, c.kept)
	}
}

func TestSargApacheSplitElimination(t *testing.T) {
	// orc_split_elim: 5 stripes of 5000 rows (one row group each) whose
	// userid minimums are 2, 13, 29, 70 and 5 (maximum 100 in all).
	// Hive's orc_split_elimination.q reads 0, 1, 2, 3, 4 and 5 stripes
	// for userid <= 0, 2, 5, 13, 29 and 70.
	cases := []struct {
		where string
		kept  []int
	}{
		{"userid <= 0", nil},
		{"userid <= 2", []int{0}},
		{"userid <= 5", []int{0, 4}},
		{"userid <= 13", []int{0, 1, 4}},
		{"userid <= 29", []int{0, 1, 2, 4}},
		{"userid <= 70", []int{0, 1, 2, 3, 4}},
	}
	f := sdExample(t, "orc_split_elim.orc")
	if n := len(f.r.Stripes()); n != 5 {
		t.Fatalf("orc_split_elim.orc has %d stripes, want 5", n)
	}
	sdCheckMins(t, f, "userid", []int64{2, 13, 29, 70, 5})
	for _, c := range cases {
		sdExpectGroups(t, f, c.where, c.kept)
	}
	// The same rows written by C++ and a newer Java: one stripe of three
	// row groups of 10000 rows: minimums 2 (blocks 1-2), 29 (3-4), 5 (5).
	for _, name := range []string{"orc_split_elim_cpp.orc", "orc_split_elim_new.orc"} {
		f := sdExample(t, name)
		sdCheckMins(t, f, "userid", []int64{2, 29, 5})
		for _, c := range []struct {
			where string
			kept  []int
		}{
			{"userid <= 0", nil},
			{"userid <= 2", []int{0}},
			{"userid <= 5", []int{0, 2}},
			{"userid <= 13", []int{0, 2}},
			{"userid <= 29", []int{0, 1, 2}},
			{"userid <= 70", []int{0, 1, 2}},
			{"userid = 13", []int{0, 2}},
			{"userid = 1", nil},
			{"userid > 100", nil},
			{"userid <= 2 AND string1 = 'zebra'", []int{0}},
		} {
			sdExpectGroups(t, f, c.where, c.kept)
		}
	}
}

// sdCheckMins checks that the minimum of a column in each row group of the
// data (not of the statistics) is as the expectations assume.
func sdCheckMins(t *testing.T, f *sdFile, col string, mins []int64) {
	t.Helper()
	got := make([]int64, f.nGroup)
	for i := range got {
		got[i] = 1 << 62
	}
	id := f.ids[col]
	for i, row := range f.rows {
		if v, ok := row[id].(int64); ok && v < got[f.groups[i]] {
			got[f.groups[i]] = v
		}
	}
	if !slices.Equal(got, mins) {
		t.Fatalf("%s: row group minimums of %s are %v, the expectations assume %v", f.desc, col, got, mins)
	}
}

func TestSargApacheOver1kBloom(t *testing.T) {
	// Two stripes of 1049 rows, one row group each: stripe 0 holds the
	// data, stripe 1 constants (-100, -1000, ..., false) and nulls. The
	// legacy BLOOM_FILTER streams have the early Hive layout; those of
	// the integer and floating-point columns are used, and those of the
	// string column for ASCII values (TestSargApacheOver1kLegacyBloom).
	f := sdExample(t, "over1k_bloom.orc")
	for _, c := range []struct {
		where string
		kept  []int
	}{
		{"_col0 = -100", []int{1}},
		{"_col0 > -100", []int{0}},
		{"_col2 >= 65536", []int{0}},
		{"_col3 = 4294967296", []int{0}},
		{"_col6 = true", []int{0}},
		{"_col7 IS NULL", []int{1}},
		{"_col7 = 'zach zipper'", []int{0}},
		{"_col7 IN ('', 'nobody')", []int{0}},
		{"_col9 > 50", []int{0}},
		{"_col9 IS NOT NULL OR _col0 = -100", []int{0, 1}},
		{"_col1 = -1000 AND _col6 = false", []int{1}},
		{"_col5 < -10", nil},
	} {
		sdExpectGroups(t, f, c.where, c.kept)
	}
}

// TestSargApacheOver1kLegacyBloom: the early-layout BLOOM_FILTER streams
// of over1k_bloom.orc prune equalities on values inside a row group's
// range but absent from it, for integers, doubles and ASCII strings, and
// keep every group holding the value (checked against the full scan).
func TestSargApacheOver1kLegacyBloom(t *testing.T) {
	f := sdExample(t, "over1k_bloom.orc")
	present := map[string]map[any]bool{}
	for _, col := range []string{"_col2", "_col3", "_col5", "_col7"} {
		present[col] = map[any]bool{}
		for i, row := range f.rows {
			if f.groups[i] == 0 && row[f.ids[col]] != nil {
				present[col][row[f.ids[col]]] = true
			}
		}
	}
	skipped := 0
	check := func(col, lit string, v any) {
		t.Helper()
		kept := []int(nil)
		if present[col][v] {
			kept = []int{0}
		} else {
			skipped++
		}
		sdExpectGroups(t, f, col+" = "+lit, kept)
	}
	for v := int64(65536); v <= 65791; v += 17 { // _col2's range in stripe 0
		check("_col2", strconv.FormatInt(v, 10), v)
	}
	for _, v := range []int64{4294967296, 4294967297, 4294967400, 4294967551} {
		check("_col3", strconv.FormatInt(v, 10), v)
	}
	for _, v := range []float64{0.01, 0.02, 10.5, 20.25, 49.85, 33.33} {
		check("_col5", strconv.FormatFloat(v, 'e', -1, 64), v)
	}
	for _, v := range []string{"nobody", "zach zipper", "alice", "bob nixon", "ulysses brown", "yuri"} {
		check("_col7", "'"+v+"'", v)
	}
	// A non-ASCII string is not probed (the writer hashed strings in its
	// default charset): the group is kept.
	sdExpectGroups(t, f, "_col7 = 'abë'", []int{0})
	if skipped == 0 {
		t.Fatal("no absent value was tried")
	}
	t.Logf("%d absent values skipped by the legacy filters", skipped)
}

func TestSargApacheBadBloomFilters(t *testing.T) {
	// C++ writers before ORC-1024 hashed some longs wrongly; their
	// BLOOM_FILTER_UTF8 streams must never prune. A lookup of a value
	// absent from the group but inside its range keeps the group.
	for _, name := range []string{"bad_bloom_filter_1.6.0.orc", "bad_bloom_filter_1.6.11.orc"} {
		f := sdExample(t, name)
		for _, where := range []string{
			"id = 18000000000", "id = 5", "id IN (7, 17999999999)", "name = 'Carol'", "name = 'Mike'",
			"name IN ('Ann', 'Zed')", "id <=> 1000",
		} {
			sdExpectGroups(t, f, where, []int{0})
		}
		sdExpectGroups(t, f, "id = 18000000001", nil) // outside the range: statistics prune
	}
}

func TestSargApacheWithoutIndex(t *testing.T) {
	// testSargSkipPickupGroupWithoutIndex: x = 0..9999 in one stripe. The
	// C++ file has no row index (stride 0); the Java file has a stride but
	// no index, and statistics claiming no values at every level (count 0,
	// has_null false), which must not be believed. Both are read whole.
	for _, name := range []string{
		"TestOrcFile.testSargSkipPickupGroupWithoutIndexCPlusPlus.orc",
		"TestOrcFile.testSargSkipPickupGroupWithoutIndexJava.orc",
	} {
		f := sdExample(t, name)
		if len(f.rows) != 10000 {
			t.Fatalf("%s: %d rows", name, len(f.rows))
		}
		for _, where := range []string{"x >= 100", "x < 100", "x = 5", "y IS NOT NULL", "x BETWEEN 9000 AND 9100 OR y = ''"} {
			sdExpectGroups(t, f, where, []int{0})
		}
	}
}

// ---------------------------------------------------------------------
// The Hudi example: c1 = '619sdc' OR c2 = 100 AND c3 = 200 with each
// subset of the columns indexed.

// sdHudiCases gives, for each subset of {c1, c2, c3} with statistics, the
// predicate pruning effectively applies and the row groups of sdHudiFile
// it keeps. Groups: 0 holds c1 = '619sdc'; 1 a row with c2 = 100 and
// c3 = 200 (the only matches besides group 0); 2 c2 = 100 only; 3
// c3 = 200 only; 4 c2 = 100 and c3 = 200 in different rows; 5..7 none.
var sdHudiCases = []struct {
	indexed   []string
	effective string
	kept      []int
}{
	{nil, "TRUE", []int{0, 1, 2, 3, 4, 5, 6, 7}},
	{[]string{"c1"}, "TRUE", []int{0, 1, 2, 3, 4, 5, 6, 7}},
	{[]string{"c2"}, "TRUE", []int{0, 1, 2, 3, 4, 5, 6, 7}},
	{[]string{"c3"}, "TRUE", []int{0, 1, 2, 3, 4, 5, 6, 7}},
	{[]string{"c2", "c3"}, "TRUE", []int{0, 1, 2, 3, 4, 5, 6, 7}},
	{[]string{"c1", "c2"}, "c1 = '619sdc' OR c2 = 100", []int{0, 1, 2, 4}},
	{[]string{"c1", "c3"}, "c1 = '619sdc' OR c3 = 200", []int{0, 1, 3, 4}},
	{[]string{"c1", "c2", "c3"}, "c1 = '619sdc' OR c2 = 100 AND c3 = 200", []int{0, 1, 4}},
}

const sdHudiWhere = "c1 = '619sdc' OR c2 = 100 AND c3 = 200"

// sdHudiFile writes 8 row groups of 100 rows laid out as sdHudiCases says.
func sdHudiFile(t testing.TB) []byte {
	schema := orc.MustParseSchema("struct<rid:bigint,c1:string,c2:int,c3:int>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(100))
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(schema, 800)
	for i := range 800 {
		g, k := i/100, i%100
		c1, c2, c3 := fmt.Sprintf("v%03d", i), int64(1000+i), int64(2000+i)
		switch {
		case g == 0 && k == 50:
			c1 = "619sdc"
		case g == 1 && k == 10:
			c2, c3 = 100, 200
		case g == 2 && k == 20:
			c2 = 100
		case g == 3 && k == 30:
			c3 = 200
		case g == 4 && k == 40:
			c2 = 100
		case g == 4 && k == 41:
			c3 = 200
		}
		for c, v := range []any{int64(i), c1, c2, c3} {
			sdAppend(schema.Children[c], b.Cols[c], v)
		}
	}
	b.NumRows = 800
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sdStripIndexStats returns a copy of an uncompressed file in which the
// row index entries of the given columns carry no statistics: each entry's
// statistics field (2) is renumbered to an unknown field of the same
// encoded size, which protobuf decoders skip. Nothing moves, so every
// offset and length in the file stays valid.
func sdStripIndexStats(t *testing.T, data []byte, cols ...int) []byte {
	t.Helper()
	out := slices.Clone(data)
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Compression() != orc.CompressionNone {
		t.Fatal("sdStripIndexStats needs an uncompressed file")
	}
	for i := range r.Stripes() {
		d, err := r.StripeDetail(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Streams {
			if s.Kind != "ROW_INDEX" || !slices.Contains(cols, s.Column) {
				continue
			}
			idx := out[s.Offset : s.Offset+s.Length]
			for len(idx) > 0 { // RowIndex: repeated RowIndexEntry entry = 1
				num, typ, n := protowire.ConsumeTag(idx)
				if n < 0 || num != 1 || typ != protowire.BytesType {
					t.Fatalf("unexpected RowIndex field %d/%d", num, typ)
				}
				idx = idx[n:]
				entry, m := protowire.ConsumeBytes(idx)
				if m < 0 {
					t.Fatal("bad RowIndexEntry")
				}
				for len(entry) > 0 {
					num, typ, n := protowire.ConsumeTag(entry)
					if n != 1 {
						t.Fatalf("unexpected RowIndexEntry tag %d/%d", num, typ)
					}
					if num == 2 && typ == protowire.BytesType {
						entry[0] = byte(protowire.EncodeTag(15, protowire.BytesType))
					}
					k := protowire.ConsumeFieldValue(num, typ, entry[n:])
					if k < 0 {
						t.Fatal("bad RowIndexEntry field")
					}
					entry = entry[n+k:]
				}
				idx = idx[m:]
			}
		}
	}
	return out
}

// sdHudiSource is a test-only Source: statistics for the indexed columns
// of one row group of the Hudi layout, nothing for the others.
type sdHudiSource struct {
	f       *sdFile
	group   int
	indexed map[int]bool
}

func (s sdHudiSource) Stats(col int) *stats.Column {
	if !s.indexed[col] {
		return nil
	}
	node := s.f.schema.Columns()[col]
	acc := stats.NewAccumulator(node)
	for i, row := range s.f.rows {
		if s.f.groups[i] != s.group {
			continue
		}
		switch v := row[col].(type) {
		case int64:
			acc.AddInt(v)
		case string:
			acc.AddBytes([]byte(v))
		}
	}
	c := acc.Column()
	return &c
}

func (s sdHudiSource) Bloom(int) sarg.BloomFilter { return nil }

func TestSargHudiPartialIndex(t *testing.T) {
	data := sdHudiFile(t)
	full := sdOpen(t, data, "hudi")
	e := sarg.MustParse(sdHudiWhere)
	b := sarg.MustBind(e, full.schema)
	for _, c := range sdHudiCases {
		name := "indexed " + strings.Join(c.indexed, ",")
		ids := map[int]bool{}
		for _, col := range c.indexed {
			ids[full.ids[col]] = true
		}
		// The effective predicate.
		if got := b.Effective(func(id int) bool { return ids[id] }); got != c.effective {
			t.Errorf("%s: Effective = %q, want %q", name, got, c.effective)
		}
		// Reader level, through a test-only Source.
		var kept []int
		for g := range full.nGroup {
			if b.Evaluate(sdHudiSource{full, g, ids}).IsNeeded() {
				kept = append(kept, g)
			}
		}
		if !slices.Equal(kept, c.kept) {
			t.Errorf("%s: Evaluate keeps groups %v, want %v", name, kept, c.kept)
		}
		// End to end: a real file whose other columns' row index has no
		// statistics (file and stripe statistics stay; the one stripe holds
		// every value, so they prune nothing).
		var strip []int
		for _, col := range []string{"c1", "c2", "c3"} {
			if !slices.Contains(c.indexed, col) {
				strip = append(strip, full.ids[col])
			}
		}
		f := sdOpen(t, sdStripIndexStats(t, data, strip...), name)
		sdExpectGroups(t, f, sdHudiWhere, c.kept)
		br, err := f.r.NewBatchReader(reader.WithSearchArgument(e), reader.WithExplain())
		if err != nil {
			t.Fatal(err)
		}
		bb := br.NewBatch()
		for br.Next(bb) == nil {
		}
		st := br.Stats()
		if st.GroupsConsidered != 8 || st.GroupsSkipped != 8-len(c.kept) {
			t.Errorf("%s: stats %+v, want 8 groups considered, %d skipped", name, st, 8-len(c.kept))
		}
		if c.effective != "TRUE" && !strings.Contains(br.Explain(), c.effective) {
			t.Errorf("%s: explain does not show the effective predicate %q:\n%s", name, c.effective, br.Explain())
		}
	}
}

// ---------------------------------------------------------------------
// Yield

// sdYieldFile writes rows with a sorted key (rid), an unsorted unique key (a
// permutation) with a bloom filter, an unsorted unique string key with a
// bloom filter, and a payload.
func sdYieldFile(t testing.TB, rows, stride int, fpp float64) ([]byte, []int64) {
	schema := orc.MustParseSchema("struct<rid:bigint,ukey:bigint,skey:string,payload:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(stride), writer.WithStripeRowLimit(int64(rows/4)),
		writer.WithBloomFilterColumns("ukey", "skey"), writer.WithBloomFilterFPP(fpp))
	if err != nil {
		t.Fatal(err)
	}
	perm := rand.New(rand.NewPCG(1, 2)).Perm(rows)
	keys := make([]int64, rows)
	const chunk = 10000
	b := orc.NewBatch(schema, chunk)
	for start := 0; start < rows; start += chunk {
		b.Reset()
		n := min(chunk, rows-start)
		for i := start; i < start+n; i++ {
			keys[i] = int64(perm[i])
			for c, v := range []any{int64(i), keys[i], fmt.Sprintf("k%09d", perm[i]), fmt.Sprintf("payload %d", i%97)} {
				sdAppend(schema.Children[c], b.Cols[c], v)
			}
		}
		b.NumRows = n
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), keys
}

// sdYield scans with a predicate whose matching rows are given and
// returns the row groups skipped, those holding no match (skippable) and
// the total, checking the rows as the differential test does.
func sdYield(t *testing.T, f *sdFile, where string, want []int) (skipped, skippable, total int) {
	t.Helper()
	out, msg := sdCheckRows(f, sarg.MustParse(where), sdRead{batch: 1024}, want)
	if msg != "" {
		t.Fatalf("%s: %s", where, msg)
	}
	return out.skipped, out.skippable, f.nGroup
}

func TestSargYield(t *testing.T) {
	rows, stride := 200_000, 1000
	if testing.Short() {
		rows, stride = 50_000, 250 // still about 200 row groups
	}
	const fpp = 0.01
	data, keys := sdYieldFile(t, rows, stride, fpp)
	rowOf := make(map[int64]int, rows)
	for i, k := range keys {
		rowOf[k] = i
	}
	f := sdOpen(t, data, "yield")
	// Sorted key, a 0.1% range: at most the two groups holding it are
	// read.
	r := rand.New(rand.NewPCG(3, 4))
	width := rows / 1000
	for range 5 {
		lo := r.IntN(rows - width)
		var want []int
		for i := lo; i < lo+width; i++ {
			want = append(want, i)
		}
		skipped, skippable, total := sdYield(t, f, fmt.Sprintf("rid BETWEEN %d AND %d", lo, lo+width-1), want)
		if skipped != skippable || float64(skipped) < 0.99*float64(total) {
			t.Errorf("sorted range [%d, %d): skipped %d of %d groups, %d skippable", lo, lo+width, skipped, total, skippable)
		}
		t.Logf("sorted 0.1%% range: skipped %d of %d row groups (%d skippable): yield %.1f%%", skipped, total, skippable,
			100*float64(skipped)/float64(skippable))
	}
	// Unsorted unique keys with bloom filters: a point lookup reads the
	// group holding the key and the false positives of the others.
	lookups := 200
	if testing.Short() {
		lookups = 40
	}
	for _, col := range []string{"ukey", "skey"} {
		fp, others := 0, 0
		for i := range lookups {
			k := int64(r.IntN(2 * rows)) // half present, half absent
			if i%2 == 0 {
				k = keys[r.IntN(rows)]
			}
			where := fmt.Sprintf("ukey = %d", k)
			if col == "skey" {
				where = fmt.Sprintf("skey = 'k%09d'", k)
			}
			var want []int
			if i, ok := rowOf[k]; ok {
				want = []int{i}
			}
			skipped, skippable, total := sdYield(t, f, where, want)
			fp += skippable - skipped
			others += skippable
			if total-skippable > 1 {
				t.Fatalf("%s: %d groups hold the key", where, total-skippable)
			}
		}
		rate := float64(fp) / float64(others)
		t.Logf("%s point lookups: %d false-positive groups of %d without the key: rate %.4f (fpp %v), yield %.2f%%",
			col, fp, others, rate, fpp, 100*(1-rate))
		// The writer sizes filters for the stride at the fpp; allow for
		// chance (the expected count is fpp*others, its deviation small).
		if rate > 2*fpp+0.005 {
			t.Errorf("%s: false-positive rate %.4f above twice the fpp %v", col, rate, fpp)
		}
	}
}
