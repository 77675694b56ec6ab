package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/reader"
)

func findSide(t *testing.T, lib, codec string) *side {
	t.Helper()
	for _, s := range allSides() {
		if s.Lib == lib && s.Codec == codec {
			return s
		}
	}
	t.Fatalf("no side %s/%s", lib, codec)
	return nil
}

// TestParallelScans runs every query on files of several stripes and row
// groups at 1, 2, 3 and 16 goroutines (16: more than there are row groups)
// and checks that the parallel scans return what the serial one and the
// generator do. For parquet-go the pruning must be the serial one: the same
// rows decoded, the same bytes and ReadAt calls.
func TestParallelScans(t *testing.T) {
	const seed = 5
	dir := t.TempDir()
	queries := makeQueries(smokeRows, seed)
	want := expected(t, smokeRows, seed, queries)
	// 3,000-row groups: 7 row groups, the last of 2,000 rows; 256 KiB stripes
	cfg := writeConfig{batch: 1000, rowGroupRows: 3000, stripeSize: 256 << 10}
	for _, lib := range []string{"orcgo", "parquet-go"} {
		s := findSide(t, lib, "zstd")
		path := filepath.Join(dir, s.Lib+"."+s.Ext)
		if _, _, _, err := measureWrite(s, path, smokeRows, seed, cfg); err != nil {
			t.Fatal(err)
		}
		if lib == "orcgo" {
			if n, err := orcStripeRows(path); err != nil || n >= smokeRows/2 {
				t.Fatalf("orcgo file: %d rows per stripe (%v), want several stripes", n, err)
			}
		}
		for _, q := range queries {
			serial, err := measureQuery(s, path, q, 700)
			if err != nil {
				t.Fatalf("%s on %s: %v", q.ID, s.Name(), err)
			}
			if w := want[q.ID]; serial.res.Matched != w.Matched || serial.res.Checksum != w.Checksum {
				t.Fatalf("%s on %s: matched %d checksum %x, want %d %x", q.ID, s.Name(),
					serial.res.Matched, serial.res.Checksum, w.Matched, w.Checksum)
			}
			for _, par := range []int{2, 3, 16} {
				p := *s
				p.Par = par
				m, err := measureQuery(&p, path, q, 700)
				if err != nil {
					t.Fatalf("%s on %s: %v", q.ID, p.Name(), err)
				}
				if m.res.Matched != serial.res.Matched || m.res.Checksum != serial.res.Checksum {
					t.Errorf("%s on %s: matched %d checksum %x, serially %d %x", q.ID, p.Name(),
						m.res.Matched, m.res.Checksum, serial.res.Matched, serial.res.Checksum)
				}
				if m.res.RowsDecoded != serial.res.RowsDecoded {
					t.Errorf("%s on %s: %d rows decoded, serially %d", q.ID, p.Name(), m.res.RowsDecoded, serial.res.RowsDecoded)
				}
				if lib == "parquet-go" && (m.bytes != serial.bytes || m.calls != serial.calls) {
					t.Errorf("%s on %s: read %d bytes in %d calls, serially %d in %d", q.ID, p.Name(),
						m.bytes, m.calls, serial.bytes, serial.calls)
				}
			}
		}
	}
}

// TestParallelScanOrder checks that the parallel scan hands the batches to
// the consumer in row-group order: the l_orderkey values of a full scan, and
// of the rows Q6 returns, come out exactly as the generator made them.
func TestParallelScanOrder(t *testing.T) {
	const seed = 21
	dir := t.TempDir()
	s := findSide(t, "parquet-go", "zstd")
	path := filepath.Join(dir, "pq.parquet")
	cfg := writeConfig{batch: 1000, rowGroupRows: 1500, stripeSize: 64 << 20}
	if _, _, _, err := measureWrite(s, path, smokeRows, seed, cfg); err != nil {
		t.Fatal(err)
	}
	queries := makeQueries(smokeRows, seed)
	for _, id := range []string{"Q1", "Q6"} {
		q := queries[slices.IndexFunc(queries, func(q *Query) bool { return q.ID == id })]
		// the reference: the generated rows the query returns, in order
		var want []int64
		f := rowFilter{q: q}
		g := NewGenerator(smokeRows, seed)
		var c Chunk
		for g.Next(&c, 1000) {
			if q.Pred == nil {
				want = append(want, c.I64[cOrderKey][:c.N]...)
				continue
			}
			sel, _ := f.match(&c)
			for i, ok := range sel {
				if ok {
					want = append(want, c.I64[cOrderKey][i])
				}
			}
		}
		for _, n := range []int{2, 3, 5} {
			cf, err := openCounting(path)
			if err != nil {
				t.Fatal(err)
			}
			pf, err := openPqgo(cf, cf.size)
			if err != nil {
				t.Fatal(err)
			}
			files := []pqFile{pf}
			for len(files) < n {
				files = append(files, pf.view())
			}
			var got []int64
			_, err = pqParallel(files, q, 400, func(c *Chunk, sel []bool, m int) {
				for i, k := range c.I64[cOrderKey][:c.N] {
					if sel == nil || sel[i] {
						got = append(got, k)
					}
				}
			})
			cf.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s on %d goroutines: %d l_orderkey values, not those of the table in order (%d)", id, n, len(got), len(want))
			}
		}
	}
}

// failingFile is a pqFile whose column cursors fail in one row group.
type failingFile struct {
	pqFile
	rg int
}

var errInjected = errors.New("injected failure")

func (f *failingFile) Column(rg, col int, mode readMode) (pqColumn, error) {
	if rg == f.rg {
		return nil, errInjected
	}
	return f.pqFile.Column(rg, col, mode)
}

// TestParallelScanError checks that an error in any row group ends the
// parallel scan with that error, and that no goroutine outlives it.
func TestParallelScanError(t *testing.T) {
	dir := t.TempDir()
	s := findSide(t, "parquet-go", "zstd")
	path := filepath.Join(dir, "pq.parquet")
	cfg := writeConfig{batch: 1000, rowGroupRows: 2000, stripeSize: 64 << 20}
	if _, _, _, err := measureWrite(s, path, smokeRows, 9, cfg); err != nil {
		t.Fatal(err)
	}
	f, err := openCounting(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := openPqgo(f, f.size)
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRowGroups() != 10 {
		t.Fatalf("%d row groups, want 10", pf.NumRowGroups())
	}
	q := makeQueries(smokeRows, 9)[0] // full scan
	before := runtime.NumGoroutine()
	for _, bad := range []int{0, 1, 5, 9} {
		for _, n := range []int{2, 3} {
			files := make([]pqFile, n)
			for i := range files {
				files[i] = &failingFile{pqFile: pf.view(), rg: bad}
			}
			done := make(chan error, 1)
			go func() {
				_, err := pqScanParallel(files, q, 500)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, errInjected) {
					t.Errorf("row group %d failing, %d goroutines: error %v, want the injected one", bad, n, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("row group %d failing, %d goroutines: the scan hangs", bad, n)
			}
		}
	}
	// the goroutines of finished scans may take a moment to be gone
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after the failed scans, %d before", g, before)
	}
}

// TestHeapSamplerCountsOtherGoroutines checks that the peak heap includes
// what goroutines other than the measuring one allocate, as the parallel
// scans' workers do.
func TestHeapSamplerCountsOtherGoroutines(t *testing.T) {
	const size = 32 << 20
	// Empty the pools earlier tests filled: startHeap's collection only
	// moves their contents to the victim caches, which the collections
	// below free, taking them off the peak (see startHeap).
	runtime.GC()
	runtime.GC()
	h := startHeap(time.Millisecond)
	holdOnAnother(size, 20*time.Millisecond)
	if peak := h.Stop(); peak < size {
		t.Errorf("peak heap %d bytes while another goroutine held %d", peak, size)
	}
}

// fillPool leaves 48 MiB in a sync.Pool, as an earlier measurement's
// buffers would be: a sampler whose baseline counted them would see them
// freed by the collections during its measurement, and as much of the
// measurement's own memory taken off its peak.
func fillPool() {
	var p sync.Pool
	for range 48 {
		b := make([]byte, 1<<20)
		p.Put(&b)
	}
	poolKeep = &p
}

var poolKeep *sync.Pool

// holdOnAnother runs two collections, as a measured query's would run, then
// has another goroutine hold size bytes for d.
func holdOnAnother(size int, d time.Duration) {
	runtime.GC()
	runtime.GC()
	done := make(chan struct{})
	go func() {
		b := make([]byte, size)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		time.Sleep(d)
		runtime.KeepAlive(b)
		close(done)
	}()
	<-done
}

// TestLiveSamplerFindsWhatIsHeld checks that -live-heap's sampler finds a
// buffer another goroutine holds for a while, whatever an earlier
// measurement left in a sync.Pool, and does not count garbage: 64 MiB
// allocated and dropped 1 MiB a millisecond, as a scan makes garbage,
// leaves its peak near zero. (What is allocated while a collection marks
// counts as live for that collection, so 64 MiB allocated at once on a
// busy machine, where marking is slow, could show most of it.)
func TestLiveSamplerFindsWhatIsHeld(t *testing.T) {
	const size = 32 << 20
	l := startLive(2 * time.Millisecond)
	var sink []byte
	for range 64 {
		sink = make([]byte, 1<<20)
		sink[0] = 1
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(sink)
	sink = nil
	time.Sleep(10 * time.Millisecond)
	if peak := l.Stop(); peak > 8<<20 {
		t.Errorf("live peak %d bytes from garbage alone", peak)
	}
	fillPool()
	l = startLive(2 * time.Millisecond)
	holdOnAnother(size, 30*time.Millisecond)
	if peak := l.Stop(); peak < size {
		t.Errorf("live peak %d bytes while another goroutine held %d", peak, size)
	}
}

// chunkedSize decompresses a stored ORC stream chunk by chunk, parsing the
// 3-byte chunk headers itself, and returns its decompressed length: a
// reference for decompressOnly that does not use format.InStream.
func chunkedSize(t *testing.T, b []byte, comp orc.CompressionKind) int64 {
	t.Helper()
	if comp == orc.CompressionNone {
		return int64(len(b))
	}
	dec, err := format.NewDecompressor(comp)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for len(b) > 0 {
		if len(b) < 3 {
			t.Fatalf("%d bytes left, a chunk header is 3", len(b))
		}
		h := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		l, stored := h>>1, h&1 == 1
		if 3+l > len(b) {
			t.Fatalf("chunk of %d bytes with %d left", l, len(b)-3)
		}
		if stored {
			n += int64(l)
		} else {
			out, err := dec.Decompress(nil, b[3:3+l])
			if err != nil {
				t.Fatal(err)
			}
			n += int64(len(out))
		}
		b = b[3+l:]
	}
	return n
}

// TestDecompressOnly checks the decompress-only measurement against the
// file's own accounts: it must visit every data stream (their lengths add
// up to the stripes' data lengths and to the -columns sizes), and what it
// counts as decompressed must be what an independent chunk walk finds. The
// three codecs hold the same rows in one stripe, so they decompress to the
// same bytes.
func TestDecompressOnly(t *testing.T) {
	const seed = 13
	dir := t.TempDir()
	cfg := writeConfig{batch: 1000, stripeSize: 64 << 20}
	q2 := decompScopes[1].cols
	var total []int64
	for _, codec := range []string{"zstd", "snappy", "none"} {
		s := findSide(t, "orcgo", codec)
		path := filepath.Join(dir, codec+".orc")
		if _, _, _, err := measureWrite(s, path, smokeRows, seed, cfg); err != nil {
			t.Fatal(err)
		}
		all, err := decompressOnly(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		part, err := decompressOnly(path, q2)
		if err != nil {
			t.Fatal(err)
		}

		// the reference: the streams as the reader lists them
		f, err := openCounting(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := reader.Open(f, f.size)
		if err != nil {
			t.Fatal(err)
		}
		var dataLen, wantAll, wantPart, partStored int64
		var nData, nPart int
		for i, st := range r.Stripes() {
			dataLen += st.DataLength
			d, err := r.StripeDetail(i)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range d.Streams {
				if x.Offset < st.Offset+st.IndexLength {
					continue
				}
				b := make([]byte, x.Length)
				if _, err := f.ReadAt(b, x.Offset); err != nil {
					t.Fatal(err)
				}
				n := chunkedSize(t, b, r.Compression())
				wantAll += n
				nData++
				if slices.Contains(q2, x.Column-1) {
					wantPart += n
					partStored += x.Length
					nPart++
				}
			}
		}
		f.Close()
		cs, err := orcColumnSizes(path)
		if err != nil {
			t.Fatal(err)
		}
		var colData int64
		for _, x := range cs.Data {
			colData += x
		}

		if all.streams == 0 || all.decompressed <= 0 || part.decompressed <= 0 {
			t.Fatalf("%s: %d streams, %d and %d bytes decompressed", codec, all.streams, all.decompressed, part.decompressed)
		}
		if all.streams != nData || all.stored != dataLen || all.stored != colData {
			t.Errorf("%s: %d streams of %d bytes measured; the file has %d data streams, %d bytes of data (stripes), %d (columns)",
				codec, all.streams, all.stored, nData, dataLen, colData)
		}
		if all.decompressed != wantAll {
			t.Errorf("%s: %d bytes decompressed, the chunks hold %d", codec, all.decompressed, wantAll)
		}
		if part.streams != nPart || part.stored != partStored || part.decompressed != wantPart {
			t.Errorf("%s, Q2 columns: %d streams, %d -> %d bytes; want %d streams, %d -> %d",
				codec, part.streams, part.stored, part.decompressed, nPart, partStored, wantPart)
		}
		if part.stored != cs.Data[cExtendedPrice]+cs.Data[cDiscount]+cs.Data[cShipDate] {
			t.Errorf("%s, Q2 columns: %d bytes stored, the columns have %d", codec, part.stored,
				cs.Data[cExtendedPrice]+cs.Data[cDiscount]+cs.Data[cShipDate])
		}
		if part.decompressed >= all.decompressed {
			t.Errorf("%s: Q2 columns decompress to %d bytes, all columns to %d", codec, part.decompressed, all.decompressed)
		}
		if codec == "none" && all.decompressed != all.stored {
			t.Errorf("none: %d bytes stored but %d counted as decompressed", all.stored, all.decompressed)
		}
		if codec != "none" && all.stored >= all.decompressed {
			t.Errorf("%s: %d bytes stored, %d decompressed: nothing was compressed", codec, all.stored, all.decompressed)
		}
		total = append(total, all.decompressed)
	}
	if total[0] != total[1] || total[0] != total[2] {
		t.Errorf("zstd, snappy and none decompress to %v bytes; the same rows should give the same bytes", total)
	}
}

// TestRunParallel runs the harness with -parallel 1,2 and checks the rows
// of the report: one per library, codec and parallelism (arrow-go serial
// only), the parallel rows agreeing with the serial ones, and a
// decompress-only line for each compressed orcgo file.
func TestRunParallel(t *testing.T) {
	rep, err := run(options{rows: smokeRows, runs: 1, batch: 4096, stripeSize: 256 << 10, rgRows: 3000,
		seed: 3, dir: t.TempDir(), quiet: true, queries: "Q1,Q2,Q5", parallel: []int{1, 2}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// per query: 7 serial rows, orcgo x2 for 3 codecs, parquet-go x2 for 2
	if len(rep.Read) != 3*12 {
		t.Fatalf("report has %d reads, want 36", len(rep.Read))
	}
	serial := map[string]ReadResult{}
	for _, x := range rep.Read {
		if x.Parallel == 1 {
			serial[x.Query+" "+x.Lib+"/"+x.Codec] = x
		}
	}
	var par int
	for _, x := range rep.Read {
		if x.Parallel == 1 {
			continue
		}
		par++
		if x.Lib == "arrow-go" || x.Parallel != 2 || x.Side != fmt.Sprintf("%s/%s x2", x.Lib, x.Codec) {
			t.Errorf("unexpected parallel row %+v", x)
		}
		s := serial[x.Query+" "+x.Lib+"/"+x.Codec]
		if x.Matched != s.Matched || x.Checksum != s.Checksum || x.Checksum == "" {
			t.Errorf("%s %s: matched %d checksum %s, serially %d %s", x.Query, x.Side, x.Matched, x.Checksum, s.Matched, s.Checksum)
		}
	}
	if par != 3*5 {
		t.Errorf("%d parallel rows, want 15", par)
	}
	if len(rep.Decompress) != 4 {
		t.Fatalf("%d decompress-only results, want 4 (zstd and snappy, two scopes each)", len(rep.Decompress))
	}
	for _, x := range rep.Decompress {
		if x.DecompressedBytes <= 0 || x.Seconds <= 0 || x.Ratio <= 0 || x.QuerySeconds <= 0 {
			t.Errorf("decompress-only %+v", x)
		}
		// Q5 reads every column: the all-columns limit is its too.
		if q5, ok := x.AlsoRatios["Q5"]; ok != (x.Query == "Q1") || ok && q5 <= 0 {
			t.Errorf("decompress-only %s %s: Q5 ratio %v (%v)", x.Side, x.Scope, q5, ok)
		}
	}
	var md strings.Builder
	writeMarkdown(&md, rep)
	for _, s := range []string{"| Q5 | parquet-go/zstd x2 |", "- decompress-only: orcgo/zstd all columns", "(Q1 = ", ", Q5 = ", "(Q2 = "} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("the markdown report lacks %q", s)
		}
	}
	if err := writeJSON(io.Discard, rep); err != nil {
		t.Fatal(err)
	}
}

func TestReadSides(t *testing.T) {
	names := func(ss []*side) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name())
		}
		return strings.Join(out, ", ")
	}
	var zstd []*side
	for _, s := range allSides() {
		if s.Codec == "zstd" {
			zstd = append(zstd, s)
		}
	}
	for _, c := range []struct {
		par    []int
		orcPar int
		want   string
	}{
		{nil, 0, "orcgo/zstd, parquet-go/zstd, arrow-go/zstd"},
		{[]int{1, 2}, 0, "orcgo/zstd, parquet-go/zstd, arrow-go/zstd, orcgo/zstd x2, parquet-go/zstd x2"},
		{[]int{2}, 0, "orcgo/zstd x2, parquet-go/zstd x2, arrow-go/zstd"},
		{[]int{1}, 2, "parquet-go/zstd, arrow-go/zstd, orcgo/zstd x2"},
		{[]int{1, 4}, 4, "parquet-go/zstd, arrow-go/zstd, orcgo/zstd x4, parquet-go/zstd x4"},
	} {
		if got := names(readSides(zstd, c.par, c.orcPar)); got != c.want {
			t.Errorf("readSides(%v, orc %d) = %s, want %s", c.par, c.orcPar, got, c.want)
		}
	}
	if got, err := parseParallel("parallel", " 1, 2,2,8"); err != nil || !slices.Equal(got, []int{1, 2, 8}) {
		t.Errorf("parseParallel = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "1,x", "65", "-1"} {
		if _, err := parseParallel("parallel", bad); err == nil {
			t.Errorf("parseParallel(%q) did not fail", bad)
		}
	}
}
