package reader_test

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// storeServer serves one file over HTTP range requests on 127.0.0.1,
// waiting latency before each response's first byte, as an object store
// does, and counting requests, and the round trips a client waited for:
// the requests that came while none was in flight.
type storeServer struct {
	*httptest.Server
	data     []byte
	latency  time.Duration
	requests atomic.Int64
	mu       sync.Mutex
	inFlight int
	waits    int64
	ranges   []string // every request's Range header, in arrival order
	// Each request's depth: one more than the deepest response finished
	// when it came (the open's first request is 1), so a request that
	// waited for n responses in turn has depth n+1; and of the requests
	// since resetDepths, the depth of each by the first byte it asked.
	finished int64
	depths   map[int64]int64
}

// depthLatency is the latency of the servers whose requests' depths the
// tests count: long enough that a loaded machine issues a round's
// requests before the first of them is answered (at 5 ms, a lookup's 24
// requests of one round came in over 3 rounds' depths while CI's packages
// ran side by side; at 25 ms, over 2 once, while a benchmark ran beside
// CI).
const depthLatency = 60 * time.Millisecond

// resetDepths starts depths again from those of a fresh client.
func (s *storeServer) resetDepths() {
	// Requests of the scan before, still in flight (reads ahead it did
	// not need), would set finished to their depths when they end.
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		n := s.inFlight
		s.mu.Unlock()
		if n == 0 {
			break
		}
	}
	s.mu.Lock()
	s.finished, s.depths = 0, map[int64]int64{}
	s.mu.Unlock()
}

// firstDepthIn returns the depth of the first request since resetDepths
// that asked for bytes from [lo, hi), or 0.
func (s *storeServer) firstDepthIn(lo, hi int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := int64(0)
	for off, d := range s.depths {
		if off >= lo && off < hi && (best == 0 || d < best) {
			best = d
		}
	}
	return best
}

// takeRanges returns the Range headers of the requests since the last
// call, sorted.
func (s *storeServer) takeRanges() []string { return takeSorted(&s.mu, &s.ranges) }

// takeSorted empties the list l, which mu guards, and returns what it held,
// sorted.
func takeSorted(mu *sync.Mutex, l *[]string) []string {
	mu.Lock()
	defer mu.Unlock()
	r := *l
	*l = nil
	slices.Sort(r)
	return r
}

func newStoreServer(t testing.TB, data []byte, latency time.Duration) *storeServer {
	s := &storeServer{data: data, latency: latency}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		if s.inFlight == 0 {
			s.waits++
		}
		s.inFlight++
		s.ranges = append(s.ranges, r.Header.Get("Range"))
		depth := s.finished + 1
		if s.depths != nil {
			var off int64
			if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &off); err == nil {
				s.depths[off] = depth
			}
		}
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.inFlight--
			s.finished = max(s.finished, depth)
			s.mu.Unlock()
		}()
		if debugRanges {
			fmt.Println("range", r.Header.Get("Range"))
		}
		time.Sleep(s.latency)
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f.orc", time.Unix(1e9, 0), bytes.NewReader(s.data))
	}))
	t.Cleanup(s.Close)
	return s
}

// storeTable writes a table made to read like lineitem: a sorted key, a
// few doubles and a random text column with a bloom filter, in several
// stripes.
func storeTable(t testing.TB, rows int) []byte { return storeTableStripes(t, rows, 4) }

// storeTableStripes is storeTable in the given number of stripes.
func storeTableStripes(t testing.TB, rows, stripes int) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<k:bigint,price:double,disc:double,qty:int,uuid:string,note:string>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd), writer.WithStripeRowLimit(int64(rows/stripes)),
		writer.WithBloomFilterColumns("uuid"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b := orc.NewBatch(s, 4096)
	for start := 0; start < rows; start += 4096 {
		b.Reset()
		for i := start; i < min(start+4096, rows); i++ {
			b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
			b.Cols[1].(*orc.DoubleVector).Values = append(b.Cols[1].(*orc.DoubleVector).Values, math.Round(rng.Float64()*1e7)/100)
			b.Cols[2].(*orc.DoubleVector).Values = append(b.Cols[2].(*orc.DoubleVector).Values, float64(rng.IntN(11))/100)
			b.Cols[3].(*orc.LongVector).Values = append(b.Cols[3].(*orc.LongVector).Values, int64(1+rng.IntN(50)))
			b.Cols[4].(*orc.BytesVector).AppendString(storeUUID(i))
			b.Cols[5].(*orc.BytesVector).AppendString(strings.Repeat("note ", rng.IntN(8)))
		}
		b.NumRows = len(b.Cols[0].(*orc.LongVector).Values)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// storeUUID is row i's random-looking text key.
func storeUUID(i int) string {
	h := fnv.New64a()
	fmt.Fprint(h, i)
	return fmt.Sprintf("%016x-%d", h.Sum64(), i%1000)
}

// storeScan scans r with opts and returns a digest of every value of
// every row, the row count and the scan's statistics.
func storeScan(t testing.TB, r *reader.Reader, opts ...reader.ScanOption) (uint64, int, reader.ScanStats) {
	t.Helper()
	br, err := r.NewBatchReader(append([]reader.ScanOption{reader.WithBatchSize(4096)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	h := fnv.New64a()
	rows := 0
	b := br.NewBatch()
	for {
		err := br.Next(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			for _, c := range b.Cols {
				switch v := c.(type) {
				case *orc.LongVector:
					fmt.Fprint(h, v.Values[i], ",")
				case *orc.DoubleVector:
					fmt.Fprint(h, v.Values[i], ",")
				case *orc.BytesVector:
					h.Write(v.Get(i))
					h.Write([]byte{0})
				}
			}
		}
		rows += b.NumRows
	}
	return h.Sum64(), rows, br.Stats()
}

// openStore opens the server's file with httpfile.
func openStore(t testing.TB, s *storeServer) *reader.Reader {
	t.Helper()
	f, err := httpfile.Open(context.Background(), s.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(f, f.Size())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestObjectStoreScan scans a file over a loopback server that waits
// 15 ms before each response: every query gives the local file's rows, a
// parallel scan makes at most 1.5 times the requests of a serial one, and
// reading ahead makes the serial scan at least 1.5 times as fast as
// reading one request at a time (about twice on a quiet machine: the
// table's four stripes are small, and decoding is half the time).
func TestObjectStoreScan(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a slow server")
	}
	const rows = 400_000
	data := storeTable(t, rows)
	local, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	srv := newStoreServer(t, data, 15*time.Millisecond)
	r := openStore(t, srv)
	queries := []struct {
		name string
		opts []reader.ScanOption
	}{
		{"all", nil},
		{"projection", []reader.ScanOption{reader.WithColumns("price", "qty")}},
		{"range", []reader.ScanOption{reader.WithSearchArgument(sarg.MustParse("k BETWEEN 250000 AND 250399")), reader.WithExactFilter(true)}},
		{"point", []reader.ScanOption{reader.WithSearchArgument(sarg.MustParse("uuid = '" + storeUUID(123457) + "'")), reader.WithExactFilter(true)}},
	}
	for _, q := range queries {
		want, wantRows, _ := storeScan(t, local, q.opts...)
		var serialReqs int64
		for _, par := range []int{1, 2, 4} {
			opts := append([]reader.ScanOption{reader.WithParallelism(par)}, q.opts...)
			before := srv.requests.Load()
			start := time.Now()
			got, gotRows, st := storeScan(t, r, opts...)
			took := time.Since(start)
			reqs := srv.requests.Load() - before
			if got != want || gotRows != wantRows {
				t.Fatalf("%s, parallelism %d: %d rows (digest %x), the local file gives %d (%x)", q.name, par, gotRows, got, wantRows, want)
			}
			// httpfile answers reads inside the tail it kept at Open
			// (stripe footers, at times) without a request.
			if st.UnplannedReads != 0 || int64(st.ReadCalls) < reqs {
				t.Errorf("%s, parallelism %d: %d unplanned reads; %d reads counted, %d requests served", q.name, par, st.UnplannedReads, st.ReadCalls, reqs)
			}
			if st.ReadWait <= 0 || st.ReadWait > took*time.Duration(par) {
				t.Errorf("%s, parallelism %d: waited %v for reads in a scan of %v", q.name, par, st.ReadWait, took)
			}
			if par == 1 {
				serialReqs = reqs
			} else if reqs*2 > serialReqs*3 {
				t.Errorf("%s: %d requests on %d goroutines, %d serially", q.name, reqs, par, serialReqs)
			}
			t.Logf("%s, parallelism %d: %d rows, %v, %d requests (%d ahead, %d in flight at most), %d bytes", q.name, par, gotRows, took.Round(time.Millisecond), reqs, st.ReadsAhead, st.PeakReadsInFlight, st.BytesRead)
		}
	}
	// One request at a time, nothing ahead, against the defaults: the
	// round trips the scan waits for (requests that start while none is
	// in flight), which decide its time over a network whatever the CPU
	// (shared with other tests) does meanwhile.
	timed := func(opts ...reader.ScanOption) (time.Duration, int64) {
		srv.mu.Lock()
		before := srv.waits
		srv.mu.Unlock()
		start := time.Now()
		storeScan(t, r, opts...)
		took := time.Since(start)
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return took, srv.waits - before
	}
	oneByOne, oneWaits := timed(reader.WithMaxReadsInFlight(1), reader.WithPrefetch(0))
	ahead, aheadWaits := timed()
	t.Logf("full scan: %v and %d round trips one read at a time, %v and %d reading ahead",
		oneByOne.Round(time.Millisecond), oneWaits, ahead.Round(time.Millisecond), aheadWaits)
	if aheadWaits*3 > oneWaits*2 {
		t.Errorf("reading ahead waited for %d round trips, one read at a time %d: not a third fewer", aheadWaits, oneWaits)
	}
}

// countingFile counts the ReadAt calls on an in-memory file.
type countingFile struct {
	r     *bytes.Reader
	calls atomic.Int64
}

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	f.calls.Add(1)
	return f.r.ReadAt(p, off)
}

// TestParallelRequestsWithoutLatency scans a reader in memory, which the
// scan reads as the decoder asks, and a loopback server answering at once,
// which it reads ahead as any reader over a network: the workers of a
// parallel scan read through the scheduled requests in both, so they make
// at most 1.5 times the requests of a serial scan (they made one per row
// group and stream before, 30 times as many), and return its rows.
func TestParallelRequestsWithoutLatency(t *testing.T) {
	if reader.RaceEnabled {
		t.Skip("counts reads; TestParallelRowGroups and TestObjectStoreScan run the parallel scans under the race detector")
	}
	const rows = 400_000
	data := storeTable(t, rows)
	cf := &countingFile{r: bytes.NewReader(data)}
	local, err := reader.Open(cf, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	srv := newStoreServer(t, data, 0)
	remote := openStore(t, srv)
	for _, c := range []struct {
		name  string
		r     *reader.Reader
		count func() int64
	}{
		{"local", local, cf.calls.Load},
		{"http", remote, srv.requests.Load},
	} {
		// A full scan, and an exact filter matching in every row group,
		// whose other columns (deferred) are read for every run: the
		// workers read them through the scheduled requests too (a read
		// per chunk and stream before: 12,000 for lineitem SF 1's Q5).
		for _, where := range []string{"", "disc = 0.05"} {
			var want uint64
			var wantRows int
			var serial int64
			for _, par := range []int{1, 2, 3} {
				opts := []reader.ScanOption{reader.WithParallelism(par)}
				if where != "" {
					opts = append(opts, reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true))
				}
				before := c.count()
				got, n, st := storeScan(t, c.r, opts...)
				calls := c.count() - before
				if where == "" && n != rows || par > 1 && (got != want || n != wantRows) {
					t.Fatalf("%s %q, parallelism %d: %d rows, digest %x; serially %d, %x", c.name, where, par, n, got, wantRows, want)
				}
				t.Logf("%s %q, parallelism %d: %d rows, %d reads (%d counted by the scan)", c.name, where, par, n, calls, st.ReadCalls)
				if par == 1 {
					want, wantRows, serial = got, n, calls
				} else if calls*2 > serial*3 {
					t.Errorf("%s %q: %d reads on %d goroutines, %d serially", c.name, where, calls, par, serial)
				}
			}
		}
	}
}

// TestObjectStorePointLookup counts the requests of a point lookup: the
// tail, and for each stripe whose statistics keep it its footer, one read
// of the predicate column's index, and one read of the data of the groups
// the index keeps.
func TestObjectStorePointLookup(t *testing.T) {
	data := storeTable(t, 100_000)
	srv := newStoreServer(t, data, 5*time.Millisecond)
	before := srv.requests.Load()
	r := openStore(t, srv)
	open := srv.requests.Load() - before
	key := storeUUID(77_777)
	_, rows, st := storeScan(t, r, reader.WithSearchArgument(sarg.MustParse("uuid = '"+key+"'")), reader.WithExactFilter(true))
	if rows != 1 {
		t.Fatalf("%d rows for one key", rows)
	}
	kept := st.StripesConsidered - st.StripesPruned // footers read
	read := st.StripesRead
	if max := kept + kept + 2*read; st.ReadCalls > max {
		t.Errorf("%d reads after the open (%d requests): want at most %d (%d stripes' footers and indexes, %d stripes' data in at most two reads)\n%v",
			st.ReadCalls, open, max, kept, read, st)
	}
	t.Logf("open: %d requests; lookup: %d reads, stats:\n%v", open, st.ReadCalls, st)
}

// TestObjectStoreLookupRoundTrips looks one key up in a file of 12
// stripes over a server 20 ms away: the scan prunes the stripes after the
// first with their footers and indexes already fetched (scheduled with
// the first stripe's index, then all together), so the round trips it
// waits for stay a handful (4-5), where pruning one stripe after another
// waited for an index read per stripe (13 serially, 23 on 2 goroutines,
// whose planner did not share the footers it had read).
func TestObjectStoreLookupRoundTrips(t *testing.T) {
	data := storeTableStripes(t, 120_000, 12)
	srv := newStoreServer(t, data, 20*time.Millisecond)
	r := openStore(t, srv)
	key := storeUUID(100_003)
	for _, p := range []int{1, 2} {
		srv.mu.Lock()
		srv.waits = 0
		srv.mu.Unlock()
		before := srv.requests.Load()
		_, rows, st := storeScan(t, r, reader.WithSearchArgument(sarg.MustParse("uuid = '"+key+"'")), reader.WithExactFilter(true),
			reader.WithParallelism(p))
		srv.mu.Lock()
		waits := srv.waits
		srv.mu.Unlock()
		if rows != 1 {
			t.Fatalf("parallelism %d: %d rows for one key", p, rows)
		}
		t.Logf("parallelism %d: %d round trips waited for, %d requests; %v", p, waits, srv.requests.Load()-before, st)
		if st.StripesConsidered != 12 {
			t.Fatalf("parallelism %d: %d stripes considered, want 12", p, st.StripesConsidered)
		}
		// footer 0; index 0 with the other footers, each with the next
		// stripe's index region (indexes 1-9); the footers of 9-11; the
		// data of the kept groups; the other columns at the match; and
		// one for a late request.
		if waits > 6 {
			t.Errorf("parallelism %d: the lookup waited for %d round trips, want at most 6", p, waits)
		}
		// One request per stripe (its footer and index region together,
		// the last footer read with the tail) and at most two for the
		// kept group's data.
		if n := srv.requests.Load() - before; n > 12+2 {
			t.Errorf("parallelism %d: the lookup made %d requests, want at most 14", p, n)
		}
	}
}

var debugRanges = false

// TestObjectStoreFailureAndStall serves a file whose last stripe's data
// fails, then one whose last stripe's data never comes: the scan returns
// every row before the failed bytes and then the error (never later
// rows); Close from another goroutine returns at once and ends the scan at
// once, whether it reads ahead (the server is 10 ms away) or as the
// decoder asks (WithPrefetch(0)): Close ends the stalled request.
func TestObjectStoreFailureAndStall(t *testing.T) {
	data := storeTable(t, 200_000)
	local, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	last := local.Stripes()[len(local.Stripes())-1]
	bad := last.Offset + last.IndexLength + last.DataLength/2 // inside the last stripe's data
	var stall atomic.Bool
	var latency atomic.Int64
	latency.Store(int64(10 * time.Millisecond))
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(latency.Load()))
		var a, b int64
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err == nil && a <= bad && bad <= b {
			if stall.Load() {
				select {
				case <-release:
				case <-r.Context().Done():
				}
				http.Error(w, "stalled", http.StatusServiceUnavailable)
				return
			}
			http.Error(w, "gone", http.StatusForbidden)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f.orc", time.Unix(1e9, 0), bytes.NewReader(data))
	}))
	defer srv.Close()
	var once sync.Once
	unstall := func() { once.Do(func() { close(release) }) }
	defer unstall() // before srv.Close, which waits for the stalled handlers
	open := func() *reader.Reader {
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		r, err := reader.Open(f, f.Size())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	before := int(local.NumRows() - last.NumRows)
	for _, par := range []int{1, 2} {
		br, err := open().NewBatchReader(reader.WithBatchSize(1000), reader.WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		b := br.NewBatch()
		rows := 0
		var scanErr error
		for {
			if scanErr = br.Next(b); scanErr != nil {
				break
			}
			for i := 0; i < b.NumRows; i++ {
				if got := b.Cols[0].(*orc.LongVector).Values[i]; got != int64(rows+i) {
					t.Fatalf("parallelism %d: row %d has key %d", par, rows+i, got)
				}
			}
			rows += b.NumRows
		}
		br.Close()
		if scanErr == io.EOF || rows < before || rows >= int(local.NumRows()) {
			t.Errorf("parallelism %d: %d rows then %v; want the %d rows before the last stripe or more, then the error", par, rows, scanErr, before)
		}
	}
	// A stalled request: Close returns at once and the scan ends.
	stall.Store(true)
	for _, remote := range []bool{true, false} {
		opts := []reader.ScanOption{reader.WithBatchSize(1000)}
		if !remote {
			opts = append(opts, reader.WithPrefetch(0)) // reading as the decoder asks
		}
		r := open()
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			b := br.NewBatch()
			for {
				if err := br.Next(b); err != nil {
					done <- err
					return
				}
			}
		}()
		time.Sleep(300 * time.Millisecond)
		start := time.Now()
		br.Close()
		if took := time.Since(start); took > time.Second {
			t.Errorf("remote %v: Close took %v", remote, took)
		}
		// Reading as asked too, the scan's read in flight ends at Close:
		// httpfile reads under the scan's context, which Close ends.
		select {
		case err := <-done:
			if err != io.EOF {
				t.Errorf("remote %v: Next after Close: %v, want io.EOF", remote, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("remote %v: the scan did not end after Close", remote)
		}
	}
}

// TestObjectStoreLookupFetchesOnMatch looks up a key by a bloom filter
// that lets many groups through (fpp 0.5) over a slow server: the groups
// the filter keeps without holding the key cost their key column only;
// the other columns are fetched for the one group that matches, where
// for a range scan they come with every kept run (TestObjectStoreScan).
func TestObjectStoreLookupFetchesOnMatch(t *testing.T) {
	s := orc.MustParseSchema("struct<u:string,payload:binary>")
	rng := rand.New(rand.NewPCG(3, 4))
	b := orc.NewBatch(s, 40_000)
	for i := range 40_000 {
		b.Cols[0].(*orc.BytesVector).AppendString(storeUUID(i))
		p := make([]byte, 200) // random: does not compress
		for k := range p {
			p[k] = byte(rng.Uint32())
		}
		b.Cols[1].(*orc.BytesVector).Append(p)
	}
	b.NumRows = 40_000
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(20_000), writer.WithBloomFilterColumns("u"), writer.WithBloomFilterFPP(0.5))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	srv := newStoreServer(t, buf.Bytes(), 10*time.Millisecond)
	r := openStore(t, srv)
	local, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	where := reader.WithSearchArgument(sarg.MustParse("u = '" + storeUUID(5234) + "'"))
	// The payload bytes a scan reads: all columns less the key column
	// alone (no coalescing across gaps, so reads are the plan's).
	payload := func(r *reader.Reader) (int64, int, reader.ScanStats) {
		_, rows, all := storeScan(t, r, where, reader.WithCoalesceGap(1))
		_, _, keys := storeScan(t, r, where, reader.WithCoalesceGap(1), reader.WithColumns("u"))
		return all.BytesRead - keys.BytesRead, rows, all
	}
	want, _, _ := payload(local) // the matching run's payload: a local scan fetches nothing ahead
	got, rows, all := payload(r)
	if rows != 1 {
		t.Fatalf("%d rows for one key", rows)
	}
	kept := all.GroupsConsidered - all.GroupsSkipped
	if all.GroupsSkippedByBloom == 0 || kept < 3 || all.ReadsAhead == 0 {
		t.Fatalf("the filters skipped %d groups and kept %d, %d reads ahead: want some of each", all.GroupsSkippedByBloom, kept, all.ReadsAhead)
	}
	if got > want+64<<10 {
		t.Errorf("the payload of %d kept groups cost %d bytes over the network, %d locally: fetched for runs without a match\n%v", kept, got, want, all)
	}
	t.Logf("%d groups kept; payload bytes read %d (locally %d); %v", kept, got, want, all)
}

// offsetFile records the offsets of the reads of an in-memory file.
type offsetFile struct {
	r    *bytes.Reader
	mu   sync.Mutex
	offs [][2]int64
}

func (f *offsetFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	f.offs = append(f.offs, [2]int64{off, int64(len(p))})
	f.mu.Unlock()
	return f.r.ReadAt(p, off)
}

// TestLastFooterFromTail checks that a scan takes the last stripe's footer
// from the bytes Open read with the tail, serially and in parallel,
// locally and through a server 20 ms away, and reads every other footer.
func TestLastFooterFromTail(t *testing.T) {
	data := storeTableStripes(t, 40_000, 4)
	f := &offsetFile{r: bytes.NewReader(data)}
	r, err := reader.Open(f, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ss := r.Stripes()
	footerAt := func(s reader.StripeInfo) int64 { return s.Offset + s.IndexLength + s.DataLength }
	for _, p := range []int{1, 2} {
		f.mu.Lock()
		f.offs = nil
		f.mu.Unlock()
		if _, rows, _ := storeScan(t, r, reader.WithParallelism(p)); rows != 40_000 {
			t.Fatalf("parallelism %d: %d rows", p, rows)
		}
		read := make([]bool, len(ss))
		for _, o := range f.offs {
			for i, s := range ss {
				if at := footerAt(s); o[0] <= at && at < o[0]+o[1] {
					read[i] = true
				}
			}
		}
		for i := range ss {
			if want := i < len(ss)-1; read[i] != want {
				t.Errorf("parallelism %d: stripe %d footer read: %v, want %v", p, i, read[i], want)
			}
		}
	}
	srv := newStoreServer(t, data, 20*time.Millisecond)
	rs := openStore(t, srv)
	before := srv.requests.Load()
	if _, rows, _ := storeScan(t, rs, reader.WithSearchArgument(sarg.MustParse("k >= 39000")), reader.WithExactFilter(true)); rows != 1000 {
		t.Fatalf("over HTTP: %d rows, want 1000", rows)
	}
	// The last stripe's index region and its kept group's data: its
	// footer is not a request of its own.
	if n := srv.requests.Load() - before; n > 3 {
		t.Errorf("over HTTP: a scan of the last stripe's last group made %d requests, want at most 3", n)
	}
}

// latencyFile answers from memory at once but says its reads wait lat for
// their first byte, as an httpfile.File whose cached tail answers Open.
type latencyFile struct {
	r   io.ReaderAt
	lat time.Duration
}

func (f latencyFile) ReadAt(p []byte, off int64) (int, error) { return f.r.ReadAt(p, off) }
func (f latencyFile) Latency() time.Duration                  { return f.lat }

// Whether a scan reads ahead is declared, never guessed: a file that says
// it is read over a network (LatencyReader) is read ahead from a scan's
// first read whatever latency it reports, though its reads answer at local
// speed, unless the scan passes WithPrefetch(0); any other reader is read
// as the decoder asks unless the scan passes WithPrefetch(n > 0).
func TestReadAheadDeclared(t *testing.T) {
	if os.Getenv("ORCGO_PREFETCH") == "always" {
		t.Skip("every scan reads ahead with ORCGO_PREFETCH=always")
	}
	data := storeTableStripes(t, 40_000, 4)
	for _, tc := range []struct {
		name  string
		r     io.ReaderAt
		opts  []reader.ScanOption
		ahead bool
	}{
		{"latency 0", latencyFile{bytes.NewReader(data), 0}, nil, true},
		{"latency 100µs", latencyFile{bytes.NewReader(data), 100 * time.Microsecond}, nil, true},
		{"latency 20ms", latencyFile{bytes.NewReader(data), 20 * time.Millisecond}, nil, true},
		{"latency 20ms, WithPrefetch(0)", latencyFile{bytes.NewReader(data), 20 * time.Millisecond}, []reader.ScanOption{reader.WithPrefetch(0)}, false},
		{"bytes", bytes.NewReader(data), nil, false},
		{"bytes, WithPrefetch(8 MiB)", bytes.NewReader(data), []reader.ScanOption{reader.WithPrefetch(8 << 20)}, true},
	} {
		r, err := reader.Open(tc.r, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		_, rows, st := storeScan(t, r, tc.opts...)
		if rows != 40_000 {
			t.Fatalf("%s: %d rows", tc.name, rows)
		}
		if got := st.ReadsAhead > 0; got != tc.ahead {
			t.Errorf("%s: %d reads ahead, want reading ahead %v\n%v", tc.name, st.ReadsAhead, tc.ahead, st)
		}
	}
}

// A parallel scan cuts each stripe into chunks by its columns' row
// indexes, which it reads before the stripe's data. Over a network it
// schedules the next stripes' row index reads with the stripe it starts,
// as group pruning does (scheduleIndexAhead), so that its planner does not
// wait a round trip for each stripe's index before scheduling its data.
func TestParallelIndexAhead(t *testing.T) {
	data := storeTableStripes(t, 120_000, 12)
	srv := newStoreServer(t, data, 50*time.Millisecond)
	r := openStore(t, srv)
	_, want, _ := storeScan(t, r, reader.WithColumns("price", "disc"))
	srv.resetDepths() // first waits for the serial scan's reads ahead still in flight
	srv.mu.Lock()
	srv.waits = 0
	srv.mu.Unlock()
	before := srv.requests.Load()
	_, rows, st := storeScan(t, r, reader.WithColumns("price", "disc"), reader.WithParallelism(2))
	srv.mu.Lock()
	waits := srv.waits
	var deepest int64
	for _, d := range srv.depths {
		deepest = max(deepest, d)
	}
	srv.mu.Unlock()
	if rows != want {
		t.Fatalf("%d rows, want %d", rows, want)
	}
	t.Logf("%d round trips waited for, %d requests, the deepest at depth %d; waited %.1f round trips; %v",
		waits, srv.requests.Load()-before, deepest, float64(st.ReadWait)/float64(50*time.Millisecond), st)
	// 12 stripes: 10 round trips waited for when each stripe's index was
	// read at its turn; now the deepest request waits for 2 responses in
	// turn (the tail, the footers). Counted by the server, not timed: the
	// scan's ReadWait, bounded at 8 round trips before, came out at 9.5
	// on a machine loaded to 14 while the server counted 3.
	if deepest == 0 || deepest > 5 {
		t.Errorf("the deepest request waited for %d responses in turn; want at most 4", deepest-1)
	}
}

// A parallel scan without a search argument reads no row index ahead for
// stripes of one row group, which it does not cut into chunks: over a
// network it reads the serial scan's bytes.
func TestParallelOneGroupStripesNoIndex(t *testing.T) {
	data := storeTableStripes(t, 24_000, 12) // 2,000 rows a stripe, under the stride
	srv := newStoreServer(t, data, 5*time.Millisecond)
	r := openStore(t, srv)
	_, want, serial := storeScan(t, r, reader.WithColumns("price", "disc"))
	_, rows, par := storeScan(t, r, reader.WithColumns("price", "disc"), reader.WithParallelism(2))
	if rows != want {
		t.Fatalf("%d rows, want %d", rows, want)
	}
	if par.BytesRead > serial.BytesRead {
		t.Errorf("parallel scan read %d bytes, the serial scan %d\n%v", par.BytesRead, serial.BytesRead, par)
	}
}

// A parallel scan without a search argument needs a stripe's row indexes
// to cut it into chunks, where a serial scan needs none; over a network its
// first chunk's data must not wait for them: the first data request waits
// for as many responses in turn (the tail, the footer) as the serial
// scan's.
func TestParallelFirstDataNoIndexWait(t *testing.T) {
	data := storeTableStripes(t, 400_000, 2) // stripes of 20 row groups, cut into chunks
	srv := newStoreServer(t, data, depthLatency)
	firstData := func(opts ...reader.ScanOption) (int64, int) {
		srv.resetDepths()
		r := openStore(t, srv) // nothing of the file at hand but the tail
		// A small gap, so that reading the stripe's index region whole
		// (bloom filters of uuid, row indexes of every column) is not what
		// coalescing would do anyway.
		_, rows, _ := storeScan(t, r, append([]reader.ScanOption{reader.WithColumns("price", "disc"), reader.WithCoalesceGap(4 << 10)}, opts...)...)
		st := r.Stripes()[0]
		if st.IndexLength <= 4<<10 {
			t.Fatalf("an index region of %d bytes", st.IndexLength)
		}
		start := st.Offset + st.IndexLength
		return srv.firstDepthIn(start, start+st.DataLength), rows
	}
	serial, want := firstData()
	par, rows := firstData(reader.WithParallelism(2))
	if rows != want {
		t.Fatalf("%d rows, want %d", rows, want)
	}
	t.Logf("the first data request's depth: serial %d, parallel %d", serial, par)
	if serial == 0 || par > serial {
		t.Errorf("the parallel scan's first data request waited for %d responses in turn, the serial scan's %d", par-1, serial-1)
	}
}

// A parallel scan over a network without a predicate sends every
// stripe's first data request after no more responses in turn than the
// serial scan does: the scan's planner schedules the next stripes' data
// while the first stripe waits for the row indexes it is cut by, not
// after. It failed when the planner started only once the first stripe
// was cut: the later stripes' data went out a round trip late.
func TestParallelEveryStripeDataFirstRound(t *testing.T) {
	data := storeTableStripes(t, 600_000, 3) // stripes of 20 row groups, cut into chunks
	srv := newStoreServer(t, data, depthLatency)
	depths := func(opts ...reader.ScanOption) ([]int64, int) {
		srv.resetDepths()
		r := openStore(t, srv)
		// A small gap, so that each stripe's index region is not read
		// whole with the footer before it (TestParallelFirstDataNoIndexWait).
		_, rows, _ := storeScan(t, r, append([]reader.ScanOption{reader.WithColumns("price", "disc"), reader.WithCoalesceGap(4 << 10)}, opts...)...)
		var d []int64
		for _, st := range r.Stripes() {
			start := st.Offset + st.IndexLength
			d = append(d, srv.firstDepthIn(start, start+st.DataLength))
		}
		return d, rows
	}
	serial, want := depths()
	if len(serial) < 3 {
		t.Fatalf("%d stripes, want 3", len(serial))
	}
	// A depth may come out one less than the round trips it waited for
	// (the server counts a response finished once its handler returns,
	// which can be after the client has it), so each stripe is held to
	// the serial scan's deepest.
	deepest := slices.Max(serial)
	for _, par := range []int{2, 3} {
		got, rows := depths(reader.WithParallelism(par))
		if rows != want {
			t.Fatalf("%d rows, want %d", rows, want)
		}
		t.Logf("each stripe's first data request's depth: serial %v, %d goroutines %v", serial, par, got)
		for s := range got {
			if slices.Min(serial) == 0 || got[s] == 0 || got[s] > deepest {
				t.Errorf("%d goroutines: stripe %d's first data request waited for %d responses in turn, the serial scan's at most %d", par, s, got[s]-1, deepest-1)
			}
		}
	}
}

// A lookup over a network waits for no more responses in turn when it
// returns every column than when it returns the key alone: the columns
// outside the predicate, decoded only at a match, are not fetched a round
// trip after the key's data (a guard).
func TestLookupLateColumnsSameRound(t *testing.T) {
	data := storeTableStripes(t, 200_000, 2)
	srv := newStoreServer(t, data, depthLatency)
	deepest := func(opts ...reader.ScanOption) (int64, int) {
		srv.resetDepths()
		r := openStore(t, srv)
		_, rows, _ := storeScan(t, r, append([]reader.ScanOption{reader.WithSearchArgument(sarg.MustParse("k = 123457"))}, opts...)...)
		srv.mu.Lock()
		defer srv.mu.Unlock()
		var d int64
		for _, v := range srv.depths {
			d = max(d, v)
		}
		return d, rows
	}
	keyOnly, n1 := deepest(reader.WithColumns("k"))
	all, n2 := deepest()
	if n1 != 1 || n2 != 1 {
		t.Fatalf("%d and %d rows, want 1", n1, n2)
	}
	t.Logf("deepest request: key alone %d, every column %d", keyOnly, all)
	if all > keyOnly {
		t.Errorf("the lookup of every column waited for %d responses in turn, of the key alone %d", all-1, keyOnly-1)
	}
}

// A lookup in a table of 24 columns over a network reads the row group
// of every column in one round trip: 24 streams and more, apart, each a
// request, all in flight at once (WithMaxReadsInFlight's default, 32):
// the tail, the index, then the data. With 16 in flight, the data took
// two rounds.
func TestWideLookupOneDataRound(t *testing.T) {
	var fields []string
	for i := range 23 {
		fields = append(fields, fmt.Sprintf("c%d:%s", i, []string{"bigint", "double", "string"}[i%3]))
	}
	s := orc.MustParseSchema("struct<k:bigint," + strings.Join(fields, ",") + ">")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 60_000
	b := orc.NewBatch(s, 4096)
	for start := 0; start < rows; start += 4096 {
		b.Reset()
		n := min(4096, rows-start)
		for i := range n {
			b.Cols[0].(*orc.LongVector).Append(int64(start + i))
			for c := 1; c < len(b.Cols); c++ {
				switch v := b.Cols[c].(type) {
				case *orc.LongVector:
					v.Append(rng.Int64())
				case *orc.DoubleVector:
					v.Append(rng.Float64())
				case *orc.BytesVector:
					v.AppendString(fmt.Sprintf("%x", rng.Uint64()))
				}
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
	srv := newStoreServer(t, buf.Bytes(), depthLatency)
	deepest := func(opts ...reader.ScanOption) int64 {
		srv.resetDepths()
		r := openStore(t, srv)
		_, rows, _ := storeScan(t, r, append([]reader.ScanOption{reader.WithSearchArgument(sarg.MustParse("k = 31234"))}, opts...)...)
		if rows != 1 {
			t.Fatalf("%d rows, want 1", rows)
		}
		srv.mu.Lock()
		defer srv.mu.Unlock()
		var d int64
		for _, v := range srv.depths {
			d = max(d, v)
		}
		return d
	}
	got, sixteen := deepest(), deepest(reader.WithMaxReadsInFlight(16))
	t.Logf("deepest request: %d, with 16 in flight %d", got, sixteen)
	if got > 3 {
		t.Errorf("the lookup's deepest request waited for %d responses in turn, want 2 (the tail, the index)", got-1)
	}
}
