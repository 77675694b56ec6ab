package reader

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/sarg"
)

var updatePlans = flag.Bool("update-plans", false, "rewrite testdata/plans from the planner's output")

// TestPlanFiles prints the scan plans of Apache's files under a few
// predicates and compares them with testdata/plans (rewrite them with
// -update-plans after checking the difference). Plans are made from
// metadata alone: nothing here decodes a row.
func TestPlanFiles(t *testing.T) {
	examples.Dir(t)
	for _, c := range []struct {
		golden, file, where string
		exact               bool
		cols                []string
	}{
		{"pushdown-between", "TestOrcFile.testPredicatePushdown.orc", "int1 BETWEEN 300000 AND 600000", false, nil},
		{"pushdown-exact", "TestOrcFile.testPredicatePushdown.orc", "int1 BETWEEN 300000 AND 600000", true, nil},
		{"seek-nested", "TestOrcFile.testSeek.orc", "int1 < -2000000000", false, []string{"int1", "middle", "map"}},
		{"demo-key", "demo-12-zlib.orc", "_col0 BETWEEN 300000 AND 300010", true, []string{"_col0", "_col1", "_col5"}},
		{"demo-full", "demo-12-zlib.orc", "", false, []string{"_col0", "_col5"}},
		{"bloom", "over1k_bloom.orc", "_col7 = 'luke nixon'", true, nil},
	} {
		t.Run(c.golden, func(t *testing.T) {
			r := openFile(t, examples.Path(t, c.file))
			// The plans of a local read (ORCGO_PREFETCH=always would plan
			// as over a network: every index in the first read).
			opts := []ScanOption{WithPrefetch(0)}
			if c.where != "" {
				e, err := sarg.Parse(c.where)
				if err != nil {
					t.Fatal(err)
				}
				opts = append(opts, WithSearchArgument(e), WithExactFilter(c.exact))
			}
			if c.cols != nil {
				opts = append(opts, WithColumns(c.cols...))
			}
			br, err := r.NewBatchReader(opts...)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString("file " + c.file + "\n")
			if c.where != "" {
				b.WriteString("where " + c.where + "\n")
			}
			for i := range r.Stripes() {
				pl := br.exec().plan
				_ = pl.mem.set(&pl.buf.held.index, 0, nil)
				ps, err := pl.planStripeAt(i)
				if err != nil {
					t.Fatal(err)
				}
				if ps == nil {
					b.WriteString("stripe " + strconv.Itoa(i) + ": skipped by its statistics\n")
					continue
				}
				p, ix, in := ps.plan, ps.ix, ps.in
				b.WriteString(p.String())
				if len(p.pending) > 0 {
					// As at the stripe's first match.
					if err := br.exec().plan.readIndex(ix, p.pending, false); err != nil {
						t.Fatal(err)
					}
					in.entries = ix.entries
					if _, err := planDeferred(in, p); err != nil {
						t.Fatal(err)
					}
					b.WriteString("at the first match:\n" + p.String())
				}
			}
			st := br.Stats()
			if st.RowsDecoded != 0 {
				t.Errorf("planning decoded %d rows", st.RowsDecoded)
			}
			compareGolden(t, filepath.Join("testdata", "plans", c.golden+".txt"), b.String())
		})
	}
}

func openFile(t *testing.T, path string) *Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *updatePlans {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-plans to create it)", err)
	}
	if string(want) != got {
		t.Errorf("plan differs from %s (rerun with -update-plans if intended):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestPlanStripeTable checks planStripe on hand-made stripes.
func TestPlanStripeTable(t *testing.T) {
	schema := orc.MustParseSchema("struct<a:bigint,b:string>")
	// Stripe: a DATA 0..3000, b DATA 3000..9000 (direct), b LENGTH
	// 9000..9600, compressed with 1000-byte blocks, 4 groups of 100 rows.
	meta := newStripeMeta(0, StripeInfo{NumRows: 400}, "", 3, []stripeStream{
		{offset: 10, length: 40, column: 1, kind: orcpb.Stream_ROW_INDEX},
		{offset: 50, length: 50, column: 2, kind: orcpb.Stream_ROW_INDEX},
		{offset: 100, length: 3000, column: 1, kind: orcpb.Stream_DATA},
		{offset: 3100, length: 6000, column: 2, kind: orcpb.Stream_DATA},
		{offset: 9100, length: 600, column: 2, kind: orcpb.Stream_LENGTH},
	}, []colEncoding{{kind: orcpb.ColumnEncoding_DIRECT}, {kind: orcpb.ColumnEncoding_DIRECT_V2}, {kind: orcpb.ColumnEncoding_DIRECT_V2}})
	// a: aligned groups at 0, 700, 1500, 2200 (RLE: chunk, inner, skip).
	// b: DATA raw at chunks 0, 1500 (inner 30), 3000, 4500; LENGTH RLE
	// carrying values at group 2.
	entries := map[int][]*orcpb.RowIndexEntry{
		0: rows([]uint64{}, []uint64{}, []uint64{}, []uint64{}),
		1: rows([]uint64{0, 0, 0}, []uint64{700, 0, 0}, []uint64{1500, 0, 0}, []uint64{2200, 0, 0}),
		2: rows([]uint64{0, 0, 0, 0, 0}, []uint64{1500, 30, 100, 0, 0}, []uint64{3000, 0, 200, 10, 4}, []uint64{4500, 0, 300, 0, 0}),
	}
	in := planInput{meta: meta, schema: schema, selected: []bool{true, true, true}, compressed: true, blockSize: 1000,
		stride: 100, entries: entries, sel: selectGroups([]bool{false, true, false, true}, 100, meta.info.NumRows), window: 1 << 20, gap: 0}
	p, err := planStripe(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.runs) != 2 || p.runs[0] != (groupRun{1, 2}) || p.runs[1] != (groupRun{3, 4}) || !p.seek {
		t.Fatalf("runs %v seek %v", p.runs, p.seek)
	}
	want := map[streamKey][]rowindex.Range{
		{1, orcpb.Stream_DATA}:   {{Start: 700, End: 1500}, {Start: 2200, End: 3000}},
		{2, orcpb.Stream_DATA}:   {{Start: 1500, End: 3000}, {Start: 4500, End: 6000}},
		{2, orcpb.Stream_LENGTH}: {{Start: 100, End: 600}, {Start: 300, End: 600}}, // group 2 carries 4378 bytes: five 1000-byte chunks, past the end
	}
	for _, sp := range p.streams {
		w := want[sp.key]
		if sp.numRanges() != len(w) {
			t.Fatalf("%v: %d ranges, want %v", sp.key, sp.numRanges(), w)
		}
		for i := range w {
			if r, _ := sp.rangeAt(i); r != w[i] {
				t.Errorf("%v run %d: %v, want %v", sp.key, i, r, w[i])
			}
		}
	}
	if sp := p.streams[0]; !sp.runs.exact[0] || !sp.runs.exact[1] {
		t.Errorf("aligned column a not exact: %v", sp.runs.exact)
	}
	// Reads: each run's first pieces, coalesced when adjacent.
	if got := p.reads[0]; len(got) != 3 || got[0] != (ioRange{800, 800}) {
		t.Errorf("run 0 reads %v", got)
	}
	// A column without an index makes the stripe one unit.
	lengths := entries[2]
	delete(in.entries, 2)
	if p, _ = planStripe(in); p.seek || len(p.runs) != 1 || !strings.Contains(p.whyWhole, "column 2") {
		t.Errorf("without column 2's index: %+v", p)
	}
	// Every group pruned: nothing to read.
	in.sel = selectGroups([]bool{false, false, false, false}, 100, meta.info.NumRows)
	if p, _ = planStripe(in); len(p.runs) != 0 || len(p.streams) != 0 {
		t.Errorf("all pruned: %+v", p)
	}
	// The deferred column's reads are apart.
	in.entries[2] = lengths
	in.sel = selectGroups([]bool{true, true, false, false}, 100, meta.info.NumRows)
	in.deferred = []bool{false, false, true}
	p, _ = planStripe(in)
	if len(p.reads[0]) != 1 || len(p.deferredReads[0]) != 2 || p.reads[0][0] != (ioRange{100, 1500}) {
		t.Errorf("deferred: reads %v, deferred %v", p.reads, p.deferredReads)
	}
	// A deferred column's index is read at its first match: until then
	// its streams are pending, and planDeferred plans them.
	delete(in.entries, 2)
	p, _ = planStripe(in)
	if len(p.pending) != 1 || p.pending[0] != 2 || len(p.deferredReads[0]) != 0 || len(p.reads[0]) != 1 {
		t.Fatalf("pending deferred column: pending %v, reads %v, deferred %v", p.pending, p.reads, p.deferredReads)
	}
	in.entries[2] = lengths
	noSeek, err := planDeferred(in, p)
	if err != nil || noSeek[2] || len(p.deferredReads[0]) != 2 || len(p.pending) != 0 {
		t.Errorf("planDeferred: %v, noSeek %v, deferred reads %v", err, noSeek, p.deferredReads)
	}
	// An index that turns out unusable: read from the stripe's start.
	delete(in.entries, 2)
	p, _ = planStripe(in)
	noSeek, err = planDeferred(in, p)
	if err != nil || !noSeek[2] || len(p.deferredStartReads[0]) != 1 || len(p.deferredReads[0]) != 0 ||
		p.deferredStartReads[0][0] != (ioRange{3100, 6600}) {
		t.Errorf("planDeferred without the index: %v, noSeek %v, start reads %v, reads %v", err, noSeek, p.deferredStartReads, p.deferredReads)
	}
}

func rows(pos ...[]uint64) []*orcpb.RowIndexEntry {
	out := make([]*orcpb.RowIndexEntry, len(pos))
	for i, p := range pos {
		out[i] = &orcpb.RowIndexEntry{Positions: p}
	}
	return out
}
