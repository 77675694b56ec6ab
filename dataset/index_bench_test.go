package dataset_test

import (
	"bytes"
	"context"
	"io"
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
	"github.com/orcgo/orc/httpfile"
)

// indexHTTP is a dataset of small files and its index served by a loopback
// server that waits a latency before each response, as an object store.
type indexHTTP struct {
	srv      *httptest.Server
	client   *http.Client
	requests atomic.Int64
	files    []dataset.File
	index    []byte
}

func newIndexHTTP(t testing.TB, n int, latency time.Duration) *indexHTTP {
	t.Helper()
	files := latencyFiles(t, n)
	data := map[string][]byte{}
	for _, f := range files {
		data["/"+f.name] = f.data
	}
	h := &indexHTTP{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		time.Sleep(latency)
		d, ok := data[r.URL.Path]
		if r.URL.Path == "/"+dataset.IndexFileName && h.index != nil {
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
	info, err := d.WriteIndex(&buf, dataset.IndexParallelism(32))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index of %d files: %d bytes, built over HTTP in %v", info.Files, info.Bytes, time.Since(start).Round(time.Millisecond))
	h.index = buf.Bytes()
	return h
}

func (h *indexHTTP) dataset(withIndex bool) (*dataset.Dataset, error) {
	opts := []dataset.Option{dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>"))}
	if withIndex {
		name := h.srv.URL + "/" + dataset.IndexFileName
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
	h := newIndexHTTP(t, 200, time.Millisecond)
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
	if st.FilesPrunedByIndex != 197 || st.FilesOpened != 3 {
		t.Fatalf("stats: %+v", st)
	}
	// Each candidate file takes one request (its tail holds its few rows).
	if reqs > 3+3 {
		t.Fatalf("%d requests, want at most 3 for the index and 3 for the files", reqs)
	}
	t.Logf("%d requests, %v", reqs, took)
}
