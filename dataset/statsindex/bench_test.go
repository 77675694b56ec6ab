package statsindex_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
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

// indexHTTP is a dataset of small files and its index served by a loopback
// server that waits a latency before each response, as an object store.
type indexHTTP struct {
	srv      *httptest.Server
	client   *http.Client
	requests atomic.Int64
	files    []dataset.File
	index    []byte
	opts     []dataset.Option
}

func newIndexHTTP(t testing.TB, n int, latency time.Duration) *indexHTTP {
	t.Helper()
	return serveIndexed(t, latencyFiles(t, n), latency,
		[]dataset.Option{dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>"))})
}

// serveIndexed serves files and their index (of every column).
func serveIndexed(t testing.TB, files []tfile, latency time.Duration, opts []dataset.Option, iopts ...statsindex.Option) *indexHTTP {
	t.Helper()
	data := map[string][]byte{}
	for _, f := range files {
		data["/"+f.name] = f.data
	}
	h := &indexHTTP{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}, opts: opts}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		time.Sleep(latency)
		d, ok := data[r.URL.Path]
		if r.URL.Path == "/"+statsindex.FileName && h.index != nil {
			d, ok = h.index, true
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, r.URL.Path, time.Unix(1e9, 0), bytes.NewReader(d))
	}))
	open := func(name string) dataset.Opener {
		return func() (io.ReaderAt, int64, io.Closer, error) {
			f, err := httpfile.Open(context.Background(), h.srv.URL+"/"+name, httpfile.WithClient(h.client))
			if err != nil {
				return nil, 0, nil, err
			}
			return f, f.Size(), f, nil
		}
	}
	// The listing an object store's LIST returns: names, sizes, ETags.
	for _, f := range files {
		h.files = append(h.files, dataset.File{Name: f.name, Open: open(f.name), Size: int64(len(f.data)), Version: `"v1"`})
	}
	d, err := h.dataset(false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	start := time.Now()
	info, err := statsindex.Write(d.IndexSource(), &buf, append(iopts, statsindex.Parallelism(32))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index of %d files: %d bytes, built over HTTP in %v", info.Files, info.Bytes, time.Since(start).Round(time.Millisecond))
	h.index = buf.Bytes()
	return h
}

func (h *indexHTTP) dataset(withIndex bool) (*dataset.Dataset, error) {
	opts := h.opts
	if withIndex {
		name := h.srv.URL + "/" + statsindex.FileName
		opts = append(opts, dataset.WithIndex(name, func() (io.ReaderAt, int64, io.Closer, error) {
			f, err := httpfile.Open(context.Background(), name, httpfile.WithClient(h.client))
			if err != nil {
				return nil, 0, nil, err
			}
			return f, f.Size(), f, nil
		}))
	}
	return dataset.New(h.files, opts...)
}

// BenchmarkIndexOverHTTP scans 1,000 small files (ORCGO_INDEX_FILES to
// change) served over HTTP by a loopback server that waits 20 ms before
// each response, for the rows of 3 of them: pruned by every file's footer
// (one file after another, and 8 opened ahead, the default) against pruned
// by the dataset's index. Run it alone:
//
//	go test ./dataset -run '^$' -bench IndexOverHTTP -benchtime 1x
func BenchmarkIndexOverHTTP(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("ORCGO_INDEX_FILES")); err == nil && v > 200 {
		n = v
	}
	h := newIndexHTTP(b, n, 20*time.Millisecond)
	defer h.srv.Close()
	for _, c := range []struct {
		name  string
		index bool
		ahead int
	}{{"footers/open-ahead=1", false, 1}, {"footers/open-ahead=8", false, 8}, {"index", true, 8}} {
		b.Run(c.name, func(b *testing.B) {
			d, err := h.dataset(c.index)
			if err != nil {
				b.Fatal(err)
			}
			var reqs int64
			var st dataset.Stats
			for b.Loop() {
				before := h.requests.Load()
				var rows []string
				rows, st, _ = latencyScan(b, d, []dataset.ScanOption{dataset.WithOpenAhead(c.ahead)})
				if len(rows) != 3 || !strings.Contains(rows[0], `"id": 171`) {
					b.Fatalf("rows %v", rows)
				}
				reqs = h.requests.Load() - before
			}
			b.ReportMetric(float64(reqs), "requests/op")
			b.ReportMetric(float64(st.FilesOpened), "files-opened/op")
		})
	}
}

// TestIndexOverHTTP: over HTTP, a point query through the index costs the
// index (one request for a small one) and then only the candidate files,
// and returns the rows the footers return.
func TestIndexOverHTTP(t *testing.T) {
	const n = 200 // latencyScan's rows are in files 17, 100 and 198
	h := newIndexHTTP(t, n, time.Millisecond)
	defer h.srv.Close()
	plain, err := h.dataset(false)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := latencyScan(t, plain, nil)
	d, err := h.dataset(true)
	if err != nil {
		t.Fatal(err)
	}
	before := h.requests.Load()
	rows, st, took := latencyScan(t, d, nil)
	reqs := h.requests.Load() - before
	same(t, "through the index", rows, want)
	if st.FilesPrunedByIndex != n-3 || st.FilesOpened != 3 {
		t.Fatalf("stats: %+v", st)
	}
	// Each candidate file takes one request (its tail holds its few rows).
	if reqs > 3+3 {
		t.Fatalf("%d requests, want at most 3 for the index and 3 for the files", reqs)
	}
	t.Logf("%d requests, %v", reqs, took)
}

// lineitemFiles is a lineitem-like table of months × perMonth files in
// l_shipmonth=YYYY-MM-01 directories, each of 2,500 rows (three row groups
// of 1,000): order keys ascending over the table, ship dates within the
// month, quantities random.
func lineitemFiles(t testing.TB, months, perMonth int) []tfile {
	t.Helper()
	s := orc.MustParseSchema("struct<l_orderkey:bigint,l_quantity:decimal(15,2),l_shipdate:date,l_comment:string>")
	const rows = 2500
	r := rand.New(rand.NewPCG(12575, 1))
	var files []tfile
	key := int64(0)
	for m := range months {
		start := time.Date(1992, time.Month(1+m), 1, 0, 0, 0, 0, time.UTC)
		day0 := start.Unix() / 86400
		days := int64(start.AddDate(0, 1, 0).Sub(start).Hours() / 24)
		for p := range perMonth {
			b := orc.NewBatch(s, rows)
			for i := range rows {
				key++
				b.Cols[0].(*orc.LongVector).Append(key)
				b.Cols[1].(*orc.DecimalVector).Append(orc.Int128FromInt64(int64(100 + r.IntN(4900))))
				b.Cols[2].(*orc.LongVector).Append(day0 + int64(i)*days/rows)
				b.Cols[3].(*orc.BytesVector).AppendString(fmt.Sprintf("c%x", r.Uint32()))
			}
			b.Cols[1].(*orc.DecimalVector).Scale = 2
			b.NumRows = rows
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionZstd), writer.WithRowIndexStride(1000))
			if err == nil {
				err = w.Write(b)
			}
			if err == nil {
				err = w.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, tfile{name: fmt.Sprintf("l_shipmonth=%s/part-%03d.orc", start.Format("2006-01-02"), p), data: buf.Bytes()})
		}
	}
	return files
}

// BenchmarkIndexQueriesOverHTTP: 1,200 lineitem-like files (60 months × 20,
// Hive-partitioned by month) 20 ms away, l_orderkey and l_shipdate
// indexed, l_quantity not; queries on the partition column, on an indexed
// column, on the unindexed one, and Hudi's mixed form, each pruned by the
// footers (8 opened ahead) and through the index. Run it alone:
//
//	go test ./dataset -run '^$' -bench IndexQueriesOverHTTP -benchtime 1x
func BenchmarkIndexQueriesOverHTTP(b *testing.B) {
	files := lineitemFiles(b, 60, 20)
	parts := orc.MustParseSchema("struct<l_shipmonth:date>")
	h := serveIndexed(b, files, 20*time.Millisecond, []dataset.Option{dataset.WithPartitioning(parts)},
		statsindex.Columns("l_orderkey", "l_shipdate"))
	defer h.srv.Close()
	queries := []struct{ name, where string }{
		{"partition", "l_shipmonth = DATE '1994-03-01' AND l_orderkey < 1000000000"},
		{"indexed", "l_orderkey = 1234567"},
		{"unindexed", "l_quantity = 49.99"},
		{"mixed", "l_orderkey = 1234567 OR l_quantity = 49.99 AND l_shipdate = DATE '1995-07-04'"},
		{"mixed-unindexed-side", "l_quantity = 49.99 OR l_orderkey = 1234567"},
	}
	for _, q := range queries {
		e := sarg.MustParse(q.where)
		var want []string
		for _, withIndex := range []bool{false, true} {
			name := q.name + "/footers"
			if withIndex {
				name = q.name + "/index"
			}
			b.Run(name, func(b *testing.B) {
				d, err := h.dataset(withIndex)
				if err != nil {
					b.Fatal(err)
				}
				var reqs int64
				var st dataset.Stats
				var rows []string
				for b.Loop() {
					before := h.requests.Load()
					rows, st, _ = scanAll(b, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
					reqs = h.requests.Load() - before
				}
				if !withIndex {
					want = rows
				} else if strings.Join(rows, "\n") != strings.Join(want, "\n") {
					b.Fatalf("%s: %d rows through the index, %d by the footers", q.where, len(rows), len(want))
				}
				b.ReportMetric(float64(reqs), "requests/op")
				b.ReportMetric(float64(st.FilesOpened), "files-opened/op")
				b.ReportMetric(float64(len(rows)), "rows/op")
			})
		}
	}
}
