package reader

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// parFile writes rows rows of a few column kinds in stripes of stripeRows,
// with a row index every stride rows, aligned or not.
func parFile(t *testing.T, rows, stripeRows, stride int, aligned bool, opts ...writer.Option) *Reader {
	t.Helper()
	schema := orc.MustParseSchema("struct<id:bigint,s:string,d:decimal(12,2),f:double,tag:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, append([]writer.Option{writer.WithStripeRowLimit(int64(stripeRows)),
		writer.WithRowIndexStride(stride), writer.WithCompression(orc.CompressionZstd), writer.WithAlignedRowGroups(aligned)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(schema, 1000)
	for start := 0; start < rows; start += 1000 {
		b.Reset()
		id := b.Cols[0].(*orc.LongVector)
		s := b.Cols[1].(*orc.BytesVector)
		d := b.Cols[2].(*orc.DecimalVector)
		f := b.Cols[3].(*orc.DoubleVector)
		tag := b.Cols[4].(*orc.BytesVector)
		for i := start; i < start+1000 && i < rows; i++ {
			id.Values = append(id.Values, int64(i))
			s.AppendString(fmt.Sprintf("row %d %x", i, i*7919))
			d.Values = append(d.Values, orc.Int128FromInt64(int64(i*37%100000)))
			f.Values = append(f.Values, float64(i%1000)/8)
			tag.AppendString([]string{"red", "green", "blue"}[i%3])
		}
		b.NumRows = len(id.Values)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An aligned stripe is cut into chunks of row groups whose plans partition
// the serial plan's bytes; an unaligned one stays one chunk (its chunks'
// slop would be read twice), unless its compression chunks are small
// enough for the slop to cost less than an eighth.
func TestSplitStripe(t *testing.T) {
	small := parFile(t, 60000, 30000, 1000, false, writer.WithCompressionBlockSize(4096))
	br, err := small.NewBatchReader(WithChunkRows(chunkRows))
	if err != nil {
		t.Fatal(err)
	}
	ss := &sharedStripe{}
	if err := pruneShared(br.exec().plan, ss, 0, 2); err != nil {
		t.Fatal(err)
	}
	if ss.k == 0 || len(ss.chunks) < 2 {
		t.Fatalf("unaligned stripe of 4 KiB chunks: %d chunks of %d groups, want it split", len(ss.chunks), ss.k)
	}
	for _, aligned := range []bool{true, false} {
		r := parFile(t, 60000, 30000, 1000, aligned)
		br, err := r.NewBatchReader(WithChunkRows(chunkRows))
		if err != nil {
			t.Fatal(err)
		}
		ss := &sharedStripe{}
		if err := pruneShared(br.exec().plan, ss, 0, 2); err != nil {
			t.Fatal(err)
		}
		if !aligned {
			if ss.k != 0 || len(ss.chunks) != 1 {
				t.Fatalf("unaligned stripe: %d chunks of %d groups, want one chunk, the stripe", len(ss.chunks), ss.k)
			}
			continue
		}
		// 8,192 rows at least: 9 groups of 1,000 rows, 4 chunks.
		if ss.k != 9 || len(ss.chunks) != 4 || ss.chunks[3] != (groupRun{27, 30}) {
			t.Fatalf("aligned stripe: chunks %v of %d groups, want 4 of 9", ss.chunks, ss.k)
		}
		whole, err := planStripe(*ss.in)
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for w := 0; w < 2; w++ {
			in := *ss.in
			in.sel = rowSelection{n: ss.in.sel.n}
			for c := w; c < len(ss.chunks); c += 2 {
				in.sel = in.sel.with(int64(ss.chunks[c].first)*in.stride, min(int64(ss.chunks[c].end)*in.stride, in.sel.n))
			}
			p, err := planStripe(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, sp := range p.streams {
				for i := range sp.numRanges() {
					if _, ex := sp.rangeAt(i); !ex && !sp.whole {
						t.Fatalf("worker %d: column %d %s run %d not exact in an aligned file", w, sp.key.column, sp.key.kind, i)
					}
				}
			}
			sum += p.eagerBytes()
		}
		// Dictionaries (tag) are read by both workers.
		var dict int64
		for _, sp := range whole.streams {
			if sp.whole {
				dict += sp.loc.length
			}
		}
		if sum != whole.eagerBytes()+dict {
			t.Fatalf("workers plan %d bytes, the serial plan %d (+%d of dictionaries)", sum, whole.eagerBytes(), dict)
		}
	}
}

// A stripe that keeps at most one chunk of groups for each worker is not
// split: each worker would pay the stripe's start for a chunk or none (the
// 0.1% range of lineitem on 2 goroutines took twice its serial time).
// One group more and it is.
func TestSplitStripeSelective(t *testing.T) {
	r := parFile(t, 60000, 30000, 1000, true)
	for _, c := range []struct {
		where  string
		chunks int
	}{{"id < 18000", 1}, {"id < 19000", 3}} {
		br, err := r.NewBatchReader(WithSearchArgument(sarg.MustParse(c.where)), WithChunkRows(chunkRows))
		if err != nil {
			t.Fatal(err)
		}
		ss := &sharedStripe{}
		if err := pruneShared(br.exec().plan, ss, 0, 2); err != nil {
			t.Fatal(err)
		}
		if len(ss.chunks) != c.chunks {
			t.Errorf("%s: chunks %v of %d groups, want %d", c.where, ss.chunks, ss.k, c.chunks)
		}
		br.Close()
	}
}

// Parallel scans return the serial rows, in order, on aligned and
// unaligned files, with and without a predicate, at several batch sizes
// and worker counts, and count the same pruning.
func TestParallelRowGroups(t *testing.T) {
	for _, aligned := range []bool{true, false} {
		r := parFile(t, 45000, 20000, 1000, aligned)
		for _, where := range []string{"", "id < 3000 OR id BETWEEN 21500 AND 24999 OR id > 44100", "tag = 'red' AND f < 30"} {
			opts := []ScanOption{WithChunkRows(1)}
			if where != "" {
				opts = append(opts, WithSearchArgument(sarg.MustParse(where)), WithExactFilter(true))
			}
			want, wst := parRows(t, r, append(opts, WithBatchSize(700))...)
			for _, n := range []int{2, 3, 5} {
				for _, batch := range []int{1, 333, 1000, 4096} {
					got, st := parRows(t, r, append(opts, WithBatchSize(batch), WithParallelism(n))...)
					if !slices.Equal(got, want) {
						t.Fatalf("aligned %v, %q, %d workers, batch %d: %d rows, want %d in order", aligned, where, n, batch, len(got), len(want))
					}
					if st.StripesConsidered != wst.StripesConsidered || st.StripesSkipped != wst.StripesSkipped ||
						st.StripesRead != wst.StripesRead || st.GroupsConsidered != wst.GroupsConsidered ||
						st.GroupsSkipped != wst.GroupsSkipped || st.RowsReturned != wst.RowsReturned {
						t.Fatalf("aligned %v, %q, %d workers: statistics\n%v\nserial\n%v", aligned, where, n, st, wst)
					}
					if aligned && where == "" && st.RowsDecoded != wst.RowsDecoded {
						t.Fatalf("%d workers decoded %d rows, serial %d", n, st.RowsDecoded, wst.RowsDecoded)
					}
				}
			}
		}
	}
}

// parRows returns the ids a scan returns, with its statistics.
func parRows(t *testing.T, r *Reader, opts ...ScanOption) ([]int64, ScanStats) {
	t.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var ids []int64
	for {
		err := br.Next(b)
		if err == io.EOF {
			return ids, br.Stats()
		}
		if err != nil {
			t.Fatal(err)
		}
		id := b.Cols[0].(*orc.LongVector)
		s := b.Cols[1].(*orc.BytesVector)
		for i := 0; i < b.NumRows; i++ {
			if want := fmt.Sprintf("row %d %x", id.Values[i], id.Values[i]*7919); string(s.Get(i)) != want {
				t.Fatalf("row id %d has s %q", id.Values[i], s.Get(i))
			}
			ids = append(ids, id.Values[i])
		}
	}
}

// A narrow scan's chunks hold more rows: a chunk's start costs each stream
// a seek and a first read, and its batches are small. A scan of every
// column keeps chunks of chunkRows.
func TestChunkRowsNarrow(t *testing.T) {
	r := parFile(t, 200000, 200000, 1000, true)
	for _, c := range []struct {
		cols []string
		k    int // groups per chunk
	}{{nil, 17}, {[]string{"id", "s", "d", "f", "tag"}, 17}, {[]string{"id"}, 66}, {[]string{"d", "f"}, 58}} {
		var opts []ScanOption
		if c.cols != nil {
			opts = append(opts, WithColumns(c.cols...))
		}
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			t.Fatal(err)
		}
		ss := &sharedStripe{}
		if err := pruneShared(br.exec().plan, ss, 0, 2); err != nil {
			t.Fatal(err)
		}
		// 200 groups of 1,000 rows. Every column (94 bytes a row):
		// chunks of 16,384 rows at least, 17 groups; id alone (18 bytes):
		// 65,536 rows, 66 groups; d and f (35 bytes): 57,344, 58 groups.
		if ss.k != c.k {
			t.Errorf("columns %v: chunks %v of %d groups, want %d", c.cols, ss.chunks, ss.k, c.k)
		}
		br.Close()
	}
}

// Group pruning decodes the statistics of the predicate's columns only:
// the row indexes read beside them, and those read to seek, keep their
// positions alone.
func TestIndexStatisticsOnlyForPruning(t *testing.T) {
	r := parFile(t, 30000, 30000, 1000, true)
	br, err := r.NewBatchReader(WithSearchArgument(sarg.MustParse("id < 5000")))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	ex := br.exec()
	meta, err := r.readStripeMeta(r.r, 0)
	if err != nil {
		t.Fatal(err)
	}
	ix := newStripeIndex(r, meta)
	if err := ex.plan.readIndex(ix, []int{1}, true, 2, 3); err != nil {
		t.Fatal(err)
	}
	if err := ex.plan.readIndex(ix, []int{4}, false); err != nil {
		t.Fatal(err)
	}
	for col, stats := range map[int]bool{1: true, 2: false, 3: false, 4: false} {
		es := ix.entries[col]
		if len(es) != 30 {
			t.Fatalf("column %d: %d entries, want 30", col, len(es))
		}
		if got := es[0].GetStatistics() != nil; got != stats || len(es[5].GetPositions()) == 0 {
			t.Errorf("column %d: statistics %v (want %v), %d positions", col, got, stats, len(es[5].GetPositions()))
		}
	}
}

// Group pruning probes the bloom filters in their stream's decompressed
// bytes, in one buffer the executor reuses from stripe to stripe, and
// lets go of them once the stripe's groups are decided.
func TestBloomFiltersProbedInPlace(t *testing.T) {
	r := parFile(t, 30000, 10000, 1000, true, writer.WithBloomFilterColumns("s"))
	br, err := r.NewBatchReader(WithSearchArgument(sarg.MustParse("s = 'row 12345 " + fmt.Sprintf("%x", 12345*7919) + "'")))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	ex := br.exec()
	var first *byte
	for s, want := range []int{0, 1, 0} {
		meta, err := r.readStripeMeta(r.r, s)
		if err != nil {
			t.Fatal(err)
		}
		ix, kept, err := ex.plan.pruneGroups(meta)
		if err != nil {
			t.Fatal(err)
		}
		if got := kept.groups(int64(r.RowIndexStride())); got != want {
			t.Errorf("stripe %d: %d groups kept, want %d", s, got, want)
		}
		if ix.blooms != nil || len(ex.plan.buf.bloom) == 0 {
			t.Errorf("stripe %d: %d columns' filters held after pruning, %d bytes of filters read", s, len(ix.blooms), len(ex.plan.buf.bloom))
		}
		if s == 0 {
			first = &ex.plan.buf.bloom[0]
		} else if &ex.plan.buf.bloom[0] != first {
			t.Errorf("stripe %d: its filters were decompressed into a new buffer", s)
		}
	}
}

// sizedReads records the reads of a reader: how many, and how many were
// larger than a bound.
type sizedReads struct {
	r             io.ReaderAt
	bound         int64
	calls, larger atomic.Int64
}

func (s *sizedReads) ReadAt(p []byte, off int64) (int, error) {
	s.calls.Add(1)
	if int64(len(p)) > s.bound {
		s.larger.Add(1)
	}
	return s.r.ReadAt(p, off)
}

// sizedFile is sizedReads over an *os.File, passing on its Fd: a file of
// this machine to Open.
type sizedFile struct {
	*sizedReads
	f *os.File
}

func (s sizedFile) Fd() uintptr { return s.f.Fd() }

// The workers of a parallel scan of a file on this machine read it as a
// serial scan does, each stream a window at a time straight into its own
// buffer; the same bytes behind a reader that is not a file (a store fast
// enough to pass for local) go through requests the workers share, which
// span several streams' windows.
func TestParallelOnDiskReadsDirectly(t *testing.T) {
	src := parFile(t, 200000, 100000, 1000, true, writer.WithCompressionBlockSize(16<<10))
	data := make([]byte, src.r.(*bytes.Reader).Size())
	if _, err := src.r.ReadAt(data, 0); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "par.orc")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const window = 32 << 10
	want, _ := parRows(t, src, WithBatchSize(1000))
	for _, onDisk := range []bool{true, false} {
		rec := &sizedReads{r: f, bound: window}
		var ra io.ReaderAt = rec
		if onDisk {
			ra = sizedFile{rec, f}
		}
		r, err := Open(ra, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if r.onDisk != onDisk {
			t.Fatalf("Open took a reader with Fd %v for a file on disk: %v", onDisk, r.onDisk)
		}
		rec.calls.Store(0)
		rec.larger.Store(0)
		got, st := parRows(t, r, WithParallelism(2), WithReadWindow(window), WithBatchSize(1000))
		if !slices.Equal(got, want) {
			t.Fatalf("on disk %v: %d rows, want %d in order", onDisk, len(got), len(want))
		}
		calls, larger := rec.calls.Load(), rec.larger.Load()
		t.Logf("on disk %v: %d reads, %d over %d bytes, %d bytes", onDisk, calls, larger, window, st.BytesRead)
		switch {
		case schedPrefetchAlways:
			// Every scan reads ahead through shared requests (CI's
			// ORCGO_PREFETCH=always run): only the rows are compared.
		case onDisk && larger > 0:
			t.Errorf("a parallel scan of a file on disk made %d of its %d reads larger than its %d-byte window", larger, calls, window)
		case !onDisk && larger == 0:
			t.Errorf("a parallel scan of a reader that is no file made none of its %d reads larger than a window: no shared requests", calls)
		}
	}
}

// A parallel scan's workers take their batches from the batches the last
// parallel scan of the same type and batch size left: a selective scan's
// worker made one or two of its own each time, and so allocated half again
// what the serial scan did. The pool is per type and size, and the rows of
// a scan in kept batches are the serial scan's.
func TestParallelKeepsWorkerBatches(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection would empty the pool
	const size = 777                                 // no other test's batch size: a pool of its own
	// Two stripes, each with rows that match: the workers start at once
	// (a scan left one stripe by the statistics starts them only for a
	// second unit, TestParallelStartsWorkersForASecondUnit).
	r := parFile(t, 40000, 20000, 1000, true)
	where := WithSearchArgument(sarg.MustParse("id BETWEEN 5000 AND 6499 OR id BETWEEN 25000 AND 26499"))
	want, _ := parRows(t, r, where, WithExactFilter(true), WithBatchSize(size))
	if len(want) != 3000 {
		t.Fatalf("serial scan: %d rows, want 3000", len(want))
	}
	pool := workerBatches(r.Schema(), size)
	for pool.Get() != nil { // what earlier scans left, if any
	}
	var allocs [3]uint64
	for i := range allocs {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		got, _ := parRows(t, r, where, WithExactFilter(true), WithBatchSize(size), WithParallelism(2))
		runtime.ReadMemStats(&m1)
		allocs[i] = m1.TotalAlloc - m0.TotalAlloc
		if !slices.Equal(got, want) {
			t.Fatalf("scan %d on 2 goroutines: %d rows, want the serial scan's %d", i, len(got), len(want))
		}
	}
	// Logged, not checked: how much the scheduler allocates depends on
	// when reads answer.
	t.Logf("bytes allocated by three parallel scans: %d, %d, %d", allocs[0], allocs[1], allocs[2])
	if raceEnabled {
		// The race detector's sync.Pool drops a quarter of what is put
		// in it, at random: the rows above are what it can check.
		return
	}
	b, ok := pool.Get().(*orc.Batch)
	if !ok {
		t.Fatal("no batch kept after a parallel scan")
	}
	if b.NumRows != 0 || len(b.Cols) != 5 || b.Cols[0].Len() != 0 {
		t.Fatalf("a kept batch is not empty: %d rows, %d columns", b.NumRows, len(b.Cols))
	}
	// A worker's next batch is the kept one, with the scan's schema.
	p := &parallel{batches: pool, stop: make(chan struct{})}
	pw := &parWorker{br: &executor{dec: &stripeDecoder{schema: orc.MustParseSchema(r.Schema().String())}}, free: freeBatches{ready: make(chan struct{}, 1)}, depth: 2}
	pool.Put(b)
	if got, _ := p.batch(pw); got != b || got.Schema != pw.br.dec.schema {
		t.Errorf("the worker made a batch with one kept (same batch %v, its schema %v)", got == b, got.Schema == pw.br.dec.schema)
	}
	other := orc.MustParseSchema("struct<id:bigint,s:string,d:decimal(12,2),f:double,tag:binary>")
	if workerBatches(other, size) == pool || workerBatches(r.Schema(), size+1) == pool {
		t.Error("batches of another type or size share the pool")
	}
}

// keepBatches lets a batch pinning more than maxKeptBatch go.
func TestKeptBatchesBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops what is put in it at random")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	s := orc.MustParseSchema("struct<a:bigint,b:string>")
	pool := workerBatches(s, 555)
	for pool.Get() != nil {
	}
	p := &parallel{batches: pool}
	pw := &parWorker{free: freeBatches{ready: make(chan struct{}, 1)}}
	small, big := orc.NewBatch(s, 100), orc.NewBatch(s, 10)
	big.Cols[1].(*orc.BytesVector).Data = make([]byte, 0, maxKeptBatch+1)
	pw.free.push(small)
	pw.free.push(big)
	p.keepBatches(pw)
	if got := pool.Get(); got != small {
		t.Fatalf("the pool gave %p, want the small batch %p", got, small)
	}
	if got := pool.Get(); got != nil {
		t.Fatal("a batch pinning more than maxKeptBatch was kept")
	}
}

// pruneShared runs both halves of stripe s's pruning for n decoders, as
// the first decoder to reach it does.
func pruneShared(pl *planner, ss *sharedStripe, s, n int) error {
	ss.stage(pl, s, n)
	ss.cut(pl, n)
	return ss.err
}

// A worker reuses the batch it had back last: the one whose vectors it
// wrote most recently.
func TestFreeBatchesLastInFirstOut(t *testing.T) {
	f := freeBatches{ready: make(chan struct{}, 1)}
	s := orc.MustParseSchema("struct<a:bigint>")
	a, b, c := orc.NewBatch(s, 1), orc.NewBatch(s, 1), orc.NewBatch(s, 1)
	f.push(a)
	f.push(b)
	if got := f.pop(); got != b {
		t.Fatal("pop did not return the batch pushed last")
	}
	f.push(c)
	if f.pop() != c || f.pop() != a || f.pop() != nil {
		t.Fatal("pop's order is not last in, first out")
	}
	select {
	case <-f.ready:
	default:
		t.Fatal("no token after a push")
	}
}

// A parallel scan that the statistics leave one stripe starts its workers
// only when the caller claims a unit of it with another after it: a
// narrow range of one unit decodes on the caller alone, with no worker
// made. Rows are the serial scan's either way.
func TestParallelStartsWorkersForASecondUnit(t *testing.T) {
	one := parFile(t, 40000, 40000, 1000, true)
	two := parFile(t, 40000, 20000, 1000, true)
	for _, c := range []struct {
		name    string
		r       *Reader
		where   string
		started bool
	}{
		{"one group of one stripe", one, "id BETWEEN 5000 AND 5999", false},
		{"every group of one stripe", one, "id >= 0", true},
		{"one group of the second stripe", two, "id BETWEEN 25000 AND 25999", false},
		{"both stripes", two, "id BETWEEN 5000 AND 5999 OR id BETWEEN 25000 AND 25999", true},
		{"no predicate, one stripe", one, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []ScanOption
			if c.where != "" {
				opts = append(opts, WithSearchArgument(sarg.MustParse(c.where)), WithExactFilter(true))
			}
			want, _ := parRows(t, c.r, opts...)
			br, err := c.r.NewBatchReader(append(opts, WithParallelism(2))...)
			if err != nil {
				t.Fatal(err)
			}
			defer br.Close()
			var got []int64
			for b, err := range br.All() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d rows on 2 goroutines, want the serial scan's %d", len(got), len(want))
			}
			p, ok := br.scan.(*parallel)
			if !ok {
				t.Fatalf("the scan is a %T, not parallel", br.scan)
			}
			p.mu.Lock()
			started, workers := p.started, len(p.workers)
			p.mu.Unlock()
			if started != c.started || started && workers != 1 || !started && workers != 0 {
				t.Fatalf("workers started: %v (%d made), want %v", started, workers, c.started)
			}
		})
	}
}
