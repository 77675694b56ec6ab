package httpfile_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// orcFile writes a file of rows rows.
func orcFile(t *testing.T, rows int) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string>")
	b := orc.NewBatch(s, rows)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprintf("name-%d-%d", i, r.IntN(1000)))
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(1000), writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rowsOf scans r and returns the rows as JSON.
func rowsOf(t *testing.T, ra io.ReaderAt, size int64, opts ...reader.ScanOption) ([]string, reader.ScanStats) {
	t.Helper()
	r, err := reader.Open(ra, size)
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var rows []string
	b := br.NewBatch()
	for {
		err := br.Next(b)
		if err == io.EOF {
			return rows, br.Stats()
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.NumRows {
			rows = append(rows, string(reader.AppendJSONRow(nil, b, i)))
		}
	}
}

func serve(t *testing.T, data []byte, h func(w http.ResponseWriter, r *http.Request, n int64) bool) *httptest.Server {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		if h != nil && h(w, r, k) {
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f.orc", time.Unix(1700000000, 0), bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s: %d rows differ from the %d local ones", what, len(got), len(want))
	}
}

func TestRangeReads(t *testing.T) {
	data := orcFile(t, 50000)
	want, _ := rowsOf(t, bytes.NewReader(data), int64(len(data)))
	srv := serve(t, data, nil)
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	if f.Size() != int64(len(data)) {
		t.Fatalf("size %d, want %d", f.Size(), len(data))
	}
	got, _ := rowsOf(t, f, f.Size())
	equal(t, "over HTTP", got, want)
	if n := f.Requests(); n > 12 {
		t.Fatalf("a full scan of a one-stripe file took %d requests", n)
	}
	// A pruned scan reads little.
	before := f.Requests()
	got, st := rowsOf(t, f, f.Size(), reader.WithSearchArgument(sarg.Between("id", sarg.Int(20000), sarg.Int(20010))), reader.WithExactFilter(true))
	if len(got) != 11 || got[0] != want[20000] {
		t.Fatalf("pruned scan: %d rows", len(got))
	}
	t.Logf("pruned scan: %d requests, %d bytes of %d", f.Requests()-before, st.BytesRead, len(data))
	// Reads past the end say io.EOF, as io.ReaderAt asks.
	p := make([]byte, 10)
	if n, err := f.ReadAt(p, f.Size()-4); n != 4 || err != io.EOF {
		t.Fatalf("read over the end: %d, %v", n, err)
	}
}

func TestDroppedConnections(t *testing.T) {
	data := orcFile(t, 30000)
	want, _ := rowsOf(t, bytes.NewReader(data), int64(len(data)))
	// Every third ranged request sends half its bytes, then the server
	// drops the connection; every fifth answers 503.
	srv := serve(t, data, func(w http.ResponseWriter, r *http.Request, n int64) bool {
		if r.Header.Get("Range") == "" {
			return false
		}
		switch {
		case n%5 == 0:
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return true
		case n%3 == 0:
			var first, last int64
			if rng := r.Header.Get("Range"); strings.HasPrefix(rng, "bytes=-") {
				// Open's suffix range: the file's last n bytes.
				var n int64
				fmt.Sscanf(rng, "bytes=-%d", &n)
				first, last = max(int64(len(data))-n, 0), int64(len(data))-1
			} else {
				fmt.Sscanf(rng, "bytes=%d-%d", &first, &last)
			}
			if last-first < 16 {
				return false
			}
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
			w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(data[first : first+(last-first)/2])
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return true
		}
		return false
	})
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithBackoff(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := rowsOf(t, f, f.Size())
	equal(t, "through dropped connections", got, want)
	// With no retries the same server fails with a clear error.
	g, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithRetries(0))
	if err == nil {
		p := make([]byte, 1000)
		for off := int64(0); err == nil && off < g.Size(); off += 1000 {
			_, err = g.ReadAt(p, off)
		}
	}
	if err == nil || !(strings.Contains(err.Error(), "cut short") || strings.Contains(err.Error(), "503")) {
		t.Fatalf("without retries: %v", err)
	}
}

func TestServerIgnoringRange(t *testing.T) {
	data := orcFile(t, 20000)
	want, _ := rowsOf(t, bytes.NewReader(data), int64(len(data)))
	// Open's GET with a suffix range (Range: bytes=-N) is counted apart:
	// the file is larger than Open keeps, so Open takes the size from the
	// 200's headers and closes its body unread.
	var gets, opens atomic.Int64
	srv := serve(t, data, func(w http.ResponseWriter, r *http.Request, _ int64) bool {
		if r.Method == http.MethodGet {
			if strings.HasPrefix(r.Header.Get("Range"), "bytes=-") {
				opens.Add(1)
			} else {
				gets.Add(1)
			}
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(data)
		}
		return true
	})
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := rowsOf(t, f, f.Size())
	equal(t, "from a server ignoring Range", got, want)
	if gets.Load() != 1 {
		t.Fatalf("the whole body was fetched %d times, want once", gets.Load())
	}
	if opens.Load() != 1 || f.Requests() != 2 {
		t.Fatalf("Open sent %d GETs, the File %d requests in all; want 1 and 2", opens.Load(), f.Requests())
	}
	small, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithMaxWholeBody(100))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.ReadAt(make([]byte, 10), 0); err == nil || !strings.Contains(err.Error(), "ignores Range") {
		t.Fatalf("a large file from a server ignoring Range: %v", err)
	}
}

func TestChangedFile(t *testing.T) {
	// Larger than the tail Open keeps (DefaultTailPrefetch), so that the
	// reads at 0 and 10 go to the server.
	data := orcFile(t, 30000)
	var version atomic.Int64
	version.Store(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version.Load()))
		http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	f, err := httpfile.Open(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 10), 0); err != nil {
		t.Fatal(err)
	}
	version.Store(2)
	if _, err := f.ReadAt(make([]byte, 10), 10); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("a file replaced mid-read: %v", err)
	}
	nf := httptest.NewServer(http.NotFoundHandler())
	defer nf.Close()
	if _, err := httpfile.Open(context.Background(), nf.URL+"/x.orc"); err == nil || !strings.Contains(err.Error(), "404") || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := httpfile.Open(context.Background(), nf.URL+"/x.orc", httpfile.WithTailPrefetch(0)); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file, HEAD: %v", err)
	}
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
	}))
	defer forbidden.Close()
	if _, err := httpfile.Open(context.Background(), forbidden.URL+"/x.orc"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused file: %v", err)
	}
}

// Latency is the shortest wait for a response's headers: Open's request
// sets it, and a faster later answer lowers it. reader.Open finds it
// through reader.LatencyReader.
func TestLatency(t *testing.T) {
	data := orcFile(t, 1000)
	var slow atomic.Bool
	slow.Store(true)
	srv := serve(t, data, func(w http.ResponseWriter, r *http.Request, n int64) bool {
		if slow.Load() {
			time.Sleep(30 * time.Millisecond)
		}
		return false
	})
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithTailPrefetch(1024))
	if err != nil {
		t.Fatal(err)
	}
	var _ reader.LatencyReader = f
	if l := f.Latency(); l < 30*time.Millisecond {
		t.Fatalf("latency after a 30 ms answer: %v", l)
	}
	slow.Store(false)
	if _, err := f.ReadAt(make([]byte, 10), 0); err != nil {
		t.Fatal(err)
	}
	if l := f.Latency(); l <= 0 || l >= 30*time.Millisecond {
		t.Fatalf("latency after a fast answer: %v", l)
	}
}
