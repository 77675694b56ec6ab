package statsindex_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestIndexMeasure measures the statistics index over HTTP at the scale of
// issue 33: ORCGO_INDEX_MEASURE files (10,000 for "1") of a lineitem-like
// table, Hive-partitioned by month, 600 rows and three row groups each,
// written to a temporary directory and served by a loopback server that
// waits 20 ms before each response, as an object store's first byte. It is
// skipped unless the variable is set, since it takes minutes:
//
//	ORCGO_INDEX_MEASURE=1 go test ./dataset -run TestIndexMeasure -v -timeout 60m
//
// It builds the index over HTTP (timed; its size), publishes it with a
// pointer (PublishIndex), and runs queries on the partition column, an
// indexed column, a column with bloom filters, an unindexed column, and
// Hudi's mixed query with each of the eight subsets of its columns indexed,
// each pruned by the footers and through the index, checking that the rows
// are the same; then it adds 10 files and counts the requests of the
// update.
func TestIndexMeasure(t *testing.T) {
	v := os.Getenv("ORCGO_INDEX_MEASURE")
	if v == "" {
		t.Skip("set ORCGO_INDEX_MEASURE=1 (10,000 files) or a number of files to run")
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 {
		n = 10000
	}
	const latency = 20 * time.Millisecond
	dir := t.TempDir()
	months := max(n/125, 1)
	perMonth := n / months
	n = months * perMonth
	start := time.Now()
	var keys []int64 // a key of file 4321 % n
	partkey := int64(-1)
	writeMeasureFiles(t, dir, months, perMonth, 0, func(file int, key, part int64) {
		if file == 4321%n && keys == nil {
			keys = []int64{key}
			partkey = part
		}
	})
	t.Logf("%d files written in %v", n, time.Since(start).Round(time.Millisecond))

	srv := newLatencyDir(t, dir, latency)
	list := func() []dataset.File { return srv.listing(t) }
	parts := dataset.WithPartitioning(orc.MustParseSchema("struct<l_shipmonth:date>"))
	mk := func(files []dataset.File, index bool) *dataset.Dataset {
		// The schema is given, as a table's metadata would: else the
		// dataset reads the first file's (a request) to learn it.
		opts := []dataset.Option{parts, dataset.WithSchema(orc.MustParseSchema(
			"struct<l_orderkey:bigint,l_partkey:bigint,l_quantity:decimal(15,2),l_shipdate:date,l_comment:string>"))}
		if index {
			opts = append(opts, dataset.WithIndex(statsindex.PointerName, statsindex.Pointer(srv.open)))
		}
		d, err := dataset.New(files, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	files := list()

	// The index of the main queries, built over HTTP.
	mainCols := []statsindex.Option{statsindex.Columns("l_orderkey", "l_partkey", "l_shipdate"),
		statsindex.BloomColumns("l_partkey"), statsindex.Parallelism(32)}
	var buf bytes.Buffer
	before := srv.requests.Load()
	start = time.Now()
	info, err := statsindex.Write(mk(files, false).IndexSource(), &buf, mainCols...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index of %d files (l_orderkey, l_partkey with bloom filters, l_shipdate): %d bytes, built over HTTP in %v with 32 tails in flight, %d requests",
		info.Files, info.Bytes, time.Since(start).Round(time.Millisecond), srv.requests.Load()-before)
	mainIndex := bytes.Clone(buf.Bytes())
	// The same without filters, and of every column, built from the local
	// files under the listing's names and versions.
	for _, o := range [][]statsindex.Option{{statsindex.Columns("l_orderkey", "l_partkey", "l_shipdate")}, nil} {
		buf.Reset()
		start = time.Now()
		info, err := statsindex.Write(mk(srv.localListing(files), false).IndexSource(), &buf, o...)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("index of columns %v: %d bytes (built from local files in %v)", info.Columns, info.Bytes, time.Since(start).Round(time.Millisecond))
	}
	publish := func(index []byte) {
		if _, err := statsindex.Publish(srv.put, index); err != nil {
			t.Fatal(err)
		}
	}
	publish(mainIndex)

	type result struct {
		rows     []string
		took     time.Duration
		reqs     int64
		indexReq int64
		opened   int
	}
	run := func(d *dataset.Dataset, where string, ahead int) result {
		t.Helper()
		e := sarg.MustParse(where)
		before, beforeIx := srv.requests.Load(), srv.indexRequests.Load()
		start := time.Now()
		rows, st := scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true), dataset.WithOpenAhead(ahead))
		if st.IndexWarning != "" {
			t.Fatalf("%s: %s", where, st.IndexWarning)
		}
		return result{rows, time.Since(start), srv.requests.Load() - before, srv.indexRequests.Load() - beforeIx, st.FilesOpened}
	}
	var table []string
	row := func(name, where string, footers, index result) {
		if strings.Join(footers.rows, "\n") != strings.Join(index.rows, "\n") {
			t.Fatalf("%s: %d rows through the index, %d by the footers", where, len(index.rows), len(footers.rows))
		}
		line := fmt.Sprintf("| %s: `%s` | %v, %d requests | %v, %d requests (%d for the index), %d files opened | %d |",
			name, where, footers.took.Round(time.Millisecond), footers.reqs, index.took.Round(time.Millisecond), index.reqs, index.indexReq, index.opened, len(index.rows))
		t.Log(line)
		table = append(table, line)
	}
	plain, indexed := mk(files, false), mk(files, true)
	month := time.Date(1992, time.Month(1+months/2), 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
	point := fmt.Sprintf("l_orderkey = %d", keys[0])
	queries := []struct{ name, where string }{
		{"partition", fmt.Sprintf("l_shipmonth = DATE '%s' AND l_orderkey < 1000000000", month)},
		{"indexed", point},
		{"bloom", fmt.Sprintf("l_partkey = %d", partkey)},
		{"unindexed", "l_quantity = 49.99"},
	}
	for _, q := range queries {
		row(q.name, q.where, run(plain, q.where, 8), run(indexed, q.where, 8))
	}
	// The target: against opening every footer one after another.
	seq := run(plain, point, 1)
	ix := run(indexed, point, 8)
	row("indexed, footers one after another", point, seq, ix)
	t.Logf("point query: %.0fx faster through the index than the footers one after another (%v against %v); %d requests before the candidate files",
		float64(seq.took)/float64(ix.took), ix.took.Round(time.Millisecond), seq.took.Round(time.Millisecond), ix.indexReq)
	// The targets: at most 3 requests before the candidate files,
	// 100 times faster at 10,000 files.
	if ix.indexReq > 3 || ix.opened != 1 {
		t.Errorf("point query: %d requests for the index, %d files opened; want at most 3 and 1", ix.indexReq, ix.opened)
	}
	if n >= 10000 && seq.took < 100*ix.took {
		t.Errorf("point query: only %.0fx faster through the index", float64(seq.took)/float64(ix.took))
	}

	// Hudi's eight cases: c1 = l_orderkey, c2 = l_quantity, c3 =
	// l_shipdate, each subset indexed (l_comment alone for none).
	day := time.Date(1992, time.Month(1+months/3), 4, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
	mixed := fmt.Sprintf("l_orderkey = %d OR l_quantity = 49.99 AND l_shipdate = DATE '%s'", keys[0], day)
	footers := run(plain, mixed, 8)
	for _, cols := range [][]string{{"l_comment"}, {"l_orderkey"}, {"l_quantity"}, {"l_shipdate"},
		{"l_quantity", "l_shipdate"}, {"l_orderkey", "l_quantity"}, {"l_orderkey", "l_shipdate"}, {"l_orderkey", "l_quantity", "l_shipdate"}} {
		buf.Reset()
		if _, err := statsindex.Write(mk(srv.localListing(files), false).IndexSource(), &buf, statsindex.Columns(cols...)); err != nil {
			t.Fatal(err)
		}
		publish(bytes.Clone(buf.Bytes()))
		row("mixed, indexed "+strings.Join(cols, "+"), mixed, footers, run(mk(files, true), mixed, 8))
	}
	publish(mainIndex)

	// Ten files added; the update reads their tails only.
	writeMeasureFiles(t, dir, 1, 10, months, nil)
	files = list()
	before, beforeIx := srv.requests.Load(), srv.indexRequests.Load()
	beforeData := srv.dataRequests()
	start = time.Now()
	ra, size, c, err := statsindex.Pointer(srv.open)()
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	info, err = statsindex.Update(mk(files, false).IndexSource(), ra, size, &buf)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	publish(bytes.Clone(buf.Bytes()))
	data := srv.dataRequests()
	var touched []string
	for p, k := range data {
		if k != beforeData[p] {
			touched = append(touched, fmt.Sprintf("%s (%d)", p, k-beforeData[p]))
		}
	}
	slices.Sort(touched)
	t.Logf("update after adding 10 files: %d footers read, %d requests (%d for the index and its pointer, %d for data files: %s), %v",
		info.Read, srv.requests.Load()-before, srv.indexRequests.Load()-beforeIx, len(touched), strings.Join(touched, ", "), time.Since(start).Round(time.Millisecond))
	if info.Read != 10 || len(touched) != 10 {
		t.Fatalf("the update read %d footers and touched %d files, want 10", info.Read, len(touched))
	}
	t.Log("| Query | Footers (8 ahead) | Index | Rows |\n" + strings.Join(table, "\n"))
}

// writeMeasureFiles writes months × perMonth lineitem-like files under
// dir/l_shipmonth=YYYY-MM-01/, months from firstMonth on: 600 rows each in
// three row groups of 200, order keys ascending over the table, part keys
// random, quantities random, ship dates within the month. seen is called
// with each file's number, first order key and first part key.
func writeMeasureFiles(t *testing.T, dir string, months, perMonth, firstMonth int, seen func(file int, key, part int64)) {
	t.Helper()
	s := orc.MustParseSchema("struct<l_orderkey:bigint,l_partkey:bigint,l_quantity:decimal(15,2),l_shipdate:date,l_comment:string>")
	const rows = 600
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 2)
	for m := range months {
		for p := range perMonth {
			file := (firstMonth+m)*perMonth + p
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				r := rand.New(rand.NewPCG(12575, uint64(file)))
				start := time.Date(1992, time.Month(1+firstMonth+m), 1, 0, 0, 0, 0, time.UTC)
				day0 := start.Unix() / 86400
				days := int64(start.AddDate(0, 1, 0).Sub(start).Hours() / 24)
				b := orc.NewBatch(s, rows)
				key := int64(file)*rows*4 + 1
				var part0 int64
				for i := range rows {
					part := 1 + r.Int64N(2_000_000)
					if i == 0 {
						part0 = part
					}
					b.Cols[0].(*orc.LongVector).Append(key + int64(i)*4)
					b.Cols[1].(*orc.LongVector).Append(part)
					b.Cols[2].(*orc.DecimalVector).Append(orc.Int128FromInt64(int64(100 + r.IntN(4900))))
					b.Cols[3].(*orc.LongVector).Append(day0 + int64(i)*days/rows)
					b.Cols[4].(*orc.BytesVector).AppendString(fmt.Sprintf("c%x", r.Uint32()))
				}
				b.Cols[2].(*orc.DecimalVector).Scale = 2
				b.NumRows = rows
				var buf bytes.Buffer
				w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd), writer.WithRowIndexStride(200))
				if err == nil {
					err = w.Write(b)
				}
				if err == nil {
					err = w.Close()
				}
				path := filepath.Join(dir, "l_shipmonth="+start.Format("2006-01-02"), fmt.Sprintf("part-%05d.orc", file))
				if err == nil {
					err = os.MkdirAll(filepath.Dir(path), 0o755)
				}
				if err == nil {
					err = os.WriteFile(path, buf.Bytes(), 0o644)
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if seen != nil {
					seen(file, key, part0)
				}
			}()
		}
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
}

// latencyDir serves a directory over HTTP, waiting a latency before each
// response, with an ETag per file; PUT stores a file (written aside and
// renamed). It counts requests, those for "_" objects (the index and its
// pointer) apart, and per data file.
type latencyDir struct {
	dir           string
	srv           *httptest.Server
	client        *http.Client
	requests      atomic.Int64
	indexRequests atomic.Int64
	mu            sync.Mutex
	perFile       map[string]int64
}

func newLatencyDir(t *testing.T, dir string, latency time.Duration) *latencyDir {
	ld := &latencyDir{dir: dir, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}, perFile: map[string]int64{}}
	ld.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ld.requests.Add(1)
		name := strings.TrimPrefix(r.URL.Path, "/")
		if strings.HasPrefix(name, "_") {
			ld.indexRequests.Add(1)
		} else {
			ld.mu.Lock()
			ld.perFile[name]++
			ld.mu.Unlock()
		}
		time.Sleep(latency)
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", fileETag(fi))
		http.ServeContent(w, r, name, time.Time{}, f)
	}))
	t.Cleanup(ld.srv.Close)
	return ld
}

func fileETag(fi os.FileInfo) string {
	return fmt.Sprintf(`"%x-%x"`, fi.ModTime().UnixNano(), fi.Size())
}

func (ld *latencyDir) open(name string) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := httpfile.Open(context.Background(), ld.srv.URL+"/"+name, httpfile.WithClient(ld.client))
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
}

func (ld *latencyDir) put(name string, data []byte) error {
	tmp := filepath.Join(ld.dir, ".put-"+name)
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(ld.dir, name))
}

// listing is what an object store's LIST would give: every data file's
// name, size and ETag, each opened over HTTP.
func (ld *latencyDir) listing(t *testing.T) []dataset.File {
	t.Helper()
	local, err := dataset.Dir(ld.dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []dataset.File
	for _, f := range local {
		fi, err := os.Stat(filepath.Join(ld.dir, filepath.FromSlash(f.Name)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, dataset.File{Name: f.Name, Open: ld.open(f.Name), Size: fi.Size(), Version: fileETag(fi)})
	}
	return files
}

// localListing is the listing with each file opened locally, to build an
// index quickly under the same names, sizes and versions.
func (ld *latencyDir) localListing(files []dataset.File) []dataset.File {
	out := slices.Clone(files)
	for i := range out {
		p := filepath.Join(ld.dir, filepath.FromSlash(out[i].Name))
		out[i].Open = func() (io.ReaderAt, int64, io.Closer, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, 0, nil, err
			}
			fi, err := f.Stat()
			if err != nil {
				f.Close()
				return nil, 0, nil, err
			}
			return f, fi.Size(), f, nil
		}
	}
	return out
}

func (ld *latencyDir) dataRequests() map[string]int64 {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	return maps.Clone(ld.perFile)
}
