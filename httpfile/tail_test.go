package httpfile_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// reqLog records the requests a server saw, as "METHOD Range [If-Range]".
type reqLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *reqLog) add(r *http.Request) {
	s := r.Method + " " + r.Header.Get("Range")
	if ir := r.Header.Get("If-Range"); ir != "" {
		s += " If-Range:" + ir
	}
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *reqLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// logged serves data as serve does, recording each request.
func logged(t *testing.T, data []byte) (*httptest.Server, *reqLog) {
	t.Helper()
	var log reqLog
	srv := serve(t, data, func(_ http.ResponseWriter, r *http.Request, _ int64) bool {
		log.add(r)
		return false
	})
	return srv, &log
}

// tailOf returns the length of data's ORC tail (metadata, footer,
// postscript and its length byte).
func tailOf(t *testing.T, data []byte) int64 {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return int64(len(data)) - tail.MetadataStart
}

func TestOpenOneRequest(t *testing.T) {
	data := orcFile(t, 50000)
	size := int64(len(data))
	if size <= httpfile.DefaultTailPrefetch || tailOf(t, data) > 16<<10 {
		t.Fatalf("the test wants a file larger than the prefetch with a tail under 16 KiB: %d bytes, tail %d", size, tailOf(t, data))
	}
	want, _ := rowsOf(t, bytes.NewReader(data), size)
	srv, log := logged(t, data)
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	if f.Size() != size {
		t.Fatalf("size %d, want %d", f.Size(), size)
	}
	if got := log.get(); !slices.Equal(got, []string{"GET bytes=-65536"}) {
		t.Fatalf("Open sent %q", got)
	}
	// The tail read reader.Open makes (format.DefaultTailRead) is served
	// from memory.
	p := make([]byte, format.DefaultTailRead)
	if n, err := f.ReadAt(p, size-int64(len(p))); n != len(p) || err != nil {
		t.Fatalf("ReadAt of the last 16 KiB: %d, %v", n, err)
	}
	if !bytes.Equal(p, data[size-int64(len(p)):]) {
		t.Fatal("the last 16 KiB differ")
	}
	if f.Requests() != 1 || f.CachedReads() != 1 {
		t.Fatalf("Open and a ReadAt of the last 16 KiB: %d requests, %d cached reads; want 1 and 1", f.Requests(), f.CachedReads())
	}
	t.Logf("Open + ReadAt(last 16 KiB): %d request(s)", f.Requests())
	// The kept bytes are copied out: scribbling on p changes nothing.
	clear(p)
	if _, err := f.ReadAt(p, size-int64(len(p))); err != nil || !bytes.Equal(p, data[size-int64(len(p)):]) {
		t.Fatalf("the tail changed after its reader scribbled on a copy: %v", err)
	}
	// A read over the end, inside the tail.
	if n, err := f.ReadAt(make([]byte, 10), size-4); n != 4 || err != io.EOF {
		t.Fatalf("read over the end: %d, %v", n, err)
	}
	// The whole of reader.Open needs no further request.
	if _, err := reader.Open(f, f.Size()); err != nil {
		t.Fatal(err)
	}
	if f.Requests() != 1 {
		t.Fatalf("Open and reader.Open: %d requests, want 1", f.Requests())
	}
	// A read partly inside the tail goes to the network, with If-Range.
	start := size - httpfile.DefaultTailPrefetch - 10
	q := make([]byte, 20)
	if _, err := f.ReadAt(q, start); err != nil || !bytes.Equal(q, data[start:start+20]) {
		t.Fatalf("a read across the tail's start: %v", err)
	}
	wantReq := fmt.Sprintf(`GET bytes=%d-%d If-Range:"v1"`, start, start+19)
	if got := log.get(); f.Requests() != 2 || got[len(got)-1] != wantReq {
		t.Fatalf("a read across the tail's start: %d requests, last %q, want %q", f.Requests(), got[len(got)-1], wantReq)
	}
	got, _ := rowsOf(t, f, f.Size())
	equal(t, "over HTTP with the tail kept", got, want)
}

// bigTailFile writes a file of many small stripes, uncompressed, so that its
// tail is larger than DefaultTailPrefetch.
func bigTailFile(t *testing.T) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string>")
	const rows = 20000
	b := orc.NewBatch(s, rows)
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprintf("name-%d", i))
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithStripeRowLimit(10), writer.WithCompression(orc.CompressionNone))
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

func TestTailLargerThanPrefetch(t *testing.T) {
	t.Run("tail over 64 KiB", func(t *testing.T) {
		data := bigTailFile(t)
		size := int64(len(data))
		if tl := tailOf(t, data); tl <= httpfile.DefaultTailPrefetch {
			t.Fatalf("the file's tail is %d bytes, want more than %d", tl, httpfile.DefaultTailPrefetch)
		}
		want, _ := rowsOf(t, bytes.NewReader(data), size)
		srv, log := logged(t, data)
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reader.Open(f, f.Size()); err != nil {
			t.Fatal(err)
		}
		// The first 16 KiB from memory, the rest of the tail from the
		// server: it starts before the kept bytes.
		if f.Requests() != 2 || f.CachedReads() != 1 {
			t.Fatalf("reader.Open: %d requests, %d cached reads; want 2 and 1 (%q)", f.Requests(), f.CachedReads(), log.get())
		}
		got, _ := rowsOf(t, f, f.Size())
		equal(t, "a file with a large tail", got, want)
	})
	t.Run("prefetch under 16 KiB", func(t *testing.T) {
		data := orcFile(t, 50000)
		want, _ := rowsOf(t, bytes.NewReader(data), int64(len(data)))
		srv, log := logged(t, data)
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithTailPrefetch(1024))
		if err != nil {
			t.Fatal(err)
		}
		if got := log.get(); !slices.Equal(got, []string{"GET bytes=-1024"}) {
			t.Fatalf("Open sent %q", got)
		}
		if _, err := reader.Open(f, f.Size()); err != nil {
			t.Fatal(err)
		}
		if f.Requests() != 2 || f.CachedReads() != 0 {
			t.Fatalf("reader.Open: %d requests, %d cached reads; want 2 and 0", f.Requests(), f.CachedReads())
		}
		got, _ := rowsOf(t, f, f.Size())
		equal(t, "a 1 KiB prefetch", got, want)
	})
}

func TestTailPrefetchOption(t *testing.T) {
	data := orcFile(t, 30000)
	srv, log := logged(t, data)
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithTailPrefetch(0))
	if err != nil {
		t.Fatal(err)
	}
	if got := log.get(); !slices.Equal(got, []string{"HEAD "}) || f.Size() != int64(len(data)) {
		t.Fatalf("WithTailPrefetch(0): Open sent %q, size %d", got, f.Size())
	}
	p := make([]byte, 16<<10)
	if _, err := f.ReadAt(p, f.Size()-int64(len(p))); err != nil || !bytes.Equal(p, data[len(data)-len(p):]) {
		t.Fatalf("ReadAt of the tail: %v", err)
	}
	if f.Requests() != 2 || f.CachedReads() != 0 {
		t.Fatalf("WithTailPrefetch(0), Open and a tail read: %d requests, %d cached; want 2 and 0", f.Requests(), f.CachedReads())
	}
	for _, n := range []int64{-1, 256<<20 + 1} {
		if _, err := httpfile.Open(context.Background(), srv.URL, httpfile.WithTailPrefetch(n)); err == nil || !strings.Contains(err.Error(), "WithTailPrefetch") {
			t.Errorf("WithTailPrefetch(%d): %v", n, err)
		}
	}
}

func TestSmallFile(t *testing.T) {
	data := orcFile(t, 1000)
	size := len(data)
	if size >= httpfile.DefaultTailPrefetch {
		t.Fatalf("the file is %d bytes, want less than the prefetch", size)
	}
	want, _ := rowsOf(t, bytes.NewReader(data), int64(size))
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
	}{
		{"ServeContent", func(w http.ResponseWriter, r *http.Request) {
			http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(data))
		}},
		{"206 of the whole file", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", size-1, size))
			w.Header().Set("Content-Length", fmt.Sprint(size))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(data)
		}},
		{"200 with a length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(size))
			w.Write(data)
		}},
		{"200 chunked", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			w.Write(data)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
			if err != nil {
				t.Fatal(err)
			}
			if f.Size() != int64(size) {
				t.Fatalf("size %d, want %d", f.Size(), size)
			}
			got, _ := rowsOf(t, f, f.Size())
			equal(t, tc.name, got, want)
			if f.Requests() != 1 || f.CachedReads() == 0 {
				t.Fatalf("Open and a full scan: %d requests, %d cached reads; want 1 request", f.Requests(), f.CachedReads())
			}
		})
	}
}

// endless answers a GET with a 200 whose body does not end (declaring the
// length declared, if not empty), until the client hangs up or limit bytes are
// written; it reports on sent whether the client hung up. A HEAD gets
// headLength as its Content-Length.
func endless(declared, headLength string, limit int64, sent chan<- bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.Header().Set("Content-Length", headLength)
			return
		}
		if declared != "" {
			w.Header().Set("Content-Length", declared)
		}
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 32<<10)
		for n := int64(0); n < limit; n += int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				sent <- true
				return
			}
		}
		sent <- false
	}
}

func TestLargeBodyNotRead(t *testing.T) {
	const tib = int64(1) << 40
	const limit = 256 << 20
	hungUp := func(t *testing.T, sent <-chan bool) {
		t.Helper()
		select {
		case h := <-sent:
			if !h {
				t.Fatalf("the client read all %d bytes of a body it should have closed", limit)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the server is still sending")
		}
	}
	t.Run("with a length", func(t *testing.T) {
		sent := make(chan bool, 2)
		srv := httptest.NewServer(endless(fmt.Sprint(tib), "", limit, sent))
		defer srv.Close()
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
		if err != nil {
			t.Fatal(err)
		}
		if f.Size() != tib || f.Requests() != 1 {
			t.Fatalf("size %d after %d requests, want %d after 1", f.Size(), f.Requests(), tib)
		}
		hungUp(t, sent)
		// As before: a server ignoring Range with a file over
		// WithMaxWholeBody fails the read.
		if _, err := f.ReadAt(make([]byte, 10), 0); err == nil || !strings.Contains(err.Error(), "ignores Range") {
			t.Fatalf("a large file from a server ignoring Range: %v", err)
		}
		hungUp(t, sent)
	})
	t.Run("chunked", func(t *testing.T) {
		sent := make(chan bool, 1)
		srv := httptest.NewServer(endless("", fmt.Sprint(tib), limit, sent))
		defer srv.Close()
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
		if err != nil {
			t.Fatal(err)
		}
		if f.Size() != tib || f.Requests() != 2 {
			t.Fatalf("size %d after %d requests, want %d after 2 (a GET, then a HEAD)", f.Size(), f.Requests(), tib)
		}
		hungUp(t, sent)
	})
	t.Run("over WithMaxWholeBody", func(t *testing.T) {
		data := orcFile(t, 1000)
		var log reqLog
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			log.add(r)
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.Write(data)
		}))
		defer srv.Close()
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithMaxWholeBody(1000))
		if err != nil {
			t.Fatal(err)
		}
		if f.Size() != int64(len(data)) || f.Requests() != 1 {
			t.Fatalf("size %d after %d requests, want %d after 1", f.Size(), f.Requests(), len(data))
		}
		if _, err := f.ReadAt(make([]byte, 10), 0); err == nil || !strings.Contains(err.Error(), "ignores Range") {
			t.Fatalf("a file over WithMaxWholeBody from a server ignoring Range: %v (%q)", err, log.get())
		}
	})
}

func TestEmptyFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		h        http.HandlerFunc
		requests int64
	}{
		// Go's own file server answers 206 with "bytes 0--1/0".
		{"ServeContent", func(w http.ResponseWriter, r *http.Request) {
			http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(nil))
		}, 1},
		{"416 bytes */0", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Range", "bytes */0")
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		}, 1},
		{"416 without Content-Range", func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodHead {
				w.Header().Set("Content-Length", "0")
				return
			}
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		}, 2},
		// An empty 200 to the suffix range is confirmed by a HEAD
		// (TestEmptyAnswerToRange: a server may send it for a file that
		// is not empty).
		{"200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "0")
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
			if err != nil {
				t.Fatal(err)
			}
			if f.Size() != 0 || f.Requests() != tc.requests {
				t.Fatalf("size %d after %d requests, want 0 after %d", f.Size(), f.Requests(), tc.requests)
			}
			if n, err := f.ReadAt(make([]byte, 1), 0); n != 0 || err != io.EOF {
				t.Fatalf("ReadAt of an empty file: %d, %v", n, err)
			}
			r, err := reader.Open(f, f.Size())
			if err != nil || r.NumRows() != 0 {
				t.Fatalf("reader.Open of an empty file: %v", err)
			}
		})
	}
}

func TestNoSuffixRanges(t *testing.T) {
	data := orcFile(t, 30000)
	want, _ := rowsOf(t, bytes.NewReader(data), int64(len(data)))
	for _, tc := range []struct {
		name     string
		refuse   func(w http.ResponseWriter, r *http.Request)
		requests int64 // made by Open
	}{
		{"400", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "bad range", http.StatusBadRequest)
		}, 2},
		{"501", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "not implemented", http.StatusNotImplemented)
		}, 2},
		{"416 for a file that is not empty", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", len(data)))
			http.Error(w, "unsatisfiable", http.StatusRequestedRangeNotSatisfiable)
		}, 2},
		// A server that takes ordinary ranges but ignores suffix ranges:
		// its 200's headers give the size, its body stays unread.
		{"200", func(w http.ResponseWriter, r *http.Request) {
			r.Header.Del("Range")
			w.Header().Set("ETag", `"v1"`)
			http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(data))
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log reqLog
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				log.add(r)
				if strings.HasPrefix(r.Header.Get("Range"), "bytes=-") {
					tc.refuse(w, r)
					return
				}
				w.Header().Set("ETag", `"v1"`)
				http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(data))
			}))
			defer srv.Close()
			f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
			if err != nil {
				t.Fatal(err)
			}
			if f.Size() != int64(len(data)) || f.Requests() != tc.requests {
				t.Fatalf("size %d after %d requests (%q), want %d after %d", f.Size(), f.Requests(), log.get(), len(data), tc.requests)
			}
			got, _ := rowsOf(t, f, f.Size())
			equal(t, "from a server refusing suffix ranges", got, want)
			if f.CachedReads() != 0 {
				t.Fatalf("%d reads from memory, with nothing kept", f.CachedReads())
			}
			// Later range requests carry the validator.
			if l := log.get(); !strings.HasSuffix(l[len(l)-1], `If-Range:"v1"`) {
				t.Fatalf("the last request was %q", l[len(l)-1])
			}
		})
	}
}

func TestOpenMissingFile(t *testing.T) {
	for _, code := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusGone} {
		var n atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			http.Error(w, "no", code)
		}))
		url := srv.URL + "/x.orc"
		_, err := httpfile.Open(context.Background(), url)
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), fmt.Sprint(code)) || !strings.Contains(err.Error(), url) {
			t.Errorf("status %d: %v", code, err)
		}
		if n.Load() != 1 {
			t.Errorf("status %d: %d requests, want 1", code, n.Load())
		}
	}
}

func TestBadContentRange(t *testing.T) {
	data := orcFile(t, 30000)
	size := len(data)
	tail := func(n int) []byte { return data[size-n:] }
	for _, tc := range []struct {
		name   string
		cr     string // Content-Range of the 206
		length string // Content-Length, "" for a chunked body
		body   []byte
		opts   []httpfile.Option
		want   string
	}{
		{"missing", "", "", tail(100), nil, `bad Content-Range ""`},
		{"not bytes", "items 0-9/10", "", tail(100), nil, "bad Content-Range"},
		{"no total", "bytes 0-99", "", tail(100), nil, "bad Content-Range"},
		{"not numbers", "bytes a-b/c", "", tail(100), nil, "bad Content-Range"},
		{"signed", fmt.Sprintf("bytes +%d-%d/%d", size-100, size-1, size), "", tail(100), nil, "bad Content-Range"},
		{"reversed", fmt.Sprintf("bytes %d-%d/%d", size-1, size-100, size), "", tail(100), nil, "bad Content-Range"},
		{"past the total", fmt.Sprintf("bytes %d-%d/%d", size-100, size, size), "", tail(101), nil, "bad Content-Range"},
		{"no range", fmt.Sprintf("bytes */%d", size), "", nil, nil, "gives no range"},
		{"not the end", fmt.Sprintf("bytes 0-99/%d", size), "", data[:100], nil, "does not end at the file's last byte"},
		{"more than asked", fmt.Sprintf("bytes %d-%d/%d", size-2048, size-1, size), "", tail(2048),
			[]httpfile.Option{httpfile.WithTailPrefetch(1024)}, "more than were asked for"},
		{"length disagrees", fmt.Sprintf("bytes %d-%d/%d", size-100, size-1, size), "50", tail(50), nil, "Content-Length 50"},
		{"body too long", fmt.Sprintf("bytes %d-%d/%d", size-100, size-1, size), "", tail(200), nil, "longer than its Content-Range"},
		{"empty file with a body", "bytes 0--1/0", "", []byte("x"), nil, "an empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.cr != "" {
					w.Header().Set("Content-Range", tc.cr)
				}
				if tc.length != "" {
					w.Header().Set("Content-Length", tc.length)
				}
				w.WriteHeader(http.StatusPartialContent)
				if tc.length == "" {
					w.(http.Flusher).Flush() // chunked: nothing bounds the body
				}
				w.Write(tc.body)
			}))
			defer srv.Close()
			url := srv.URL + "/f.orc"
			f, err := httpfile.Open(context.Background(), url, tc.opts...)
			if err == nil {
				t.Fatalf("Open succeeded, size %d", f.Size())
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), url) {
				t.Fatalf("got %q, want it to name %s and say %q", err, url, tc.want)
			}
		})
	}
	// A 206 without the total: the HEAD finds the size, nothing is kept.
	srv := serve(t, data, func(w http.ResponseWriter, r *http.Request, _ int64) bool {
		if !strings.HasPrefix(r.Header.Get("Range"), "bytes=-") {
			return false
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/*", size-100, size-1))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(tail(100))
		return true
	})
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	if f.Size() != int64(size) || f.Requests() != 2 {
		t.Fatalf("a 206 with no total: size %d after %d requests, want %d after 2", f.Size(), f.Requests(), size)
	}
	if _, err := f.ReadAt(make([]byte, 10), int64(size-10)); err != nil || f.CachedReads() != 0 {
		t.Fatalf("a 206 with no total: ReadAt %v, %d cached reads", err, f.CachedReads())
	}
}

func TestOpenRetries(t *testing.T) {
	data := orcFile(t, 30000)
	size := int64(len(data))
	busy := func(w http.ResponseWriter, r *http.Request, n int64) bool {
		if n == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return true
		}
		return false
	}
	cut := func(w http.ResponseWriter, r *http.Request, n int64) bool {
		if n != 1 {
			return false
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", size-httpfile.DefaultTailPrefetch, size-1, size))
		w.Header().Set("Content-Length", fmt.Sprint(httpfile.DefaultTailPrefetch))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(data[size-httpfile.DefaultTailPrefetch : size-1000])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return true
	}
	for _, tc := range []struct {
		name string
		h    func(w http.ResponseWriter, r *http.Request, n int64) bool
		want string // the error without retries
	}{
		{"503", busy, "503"},
		{"body cut short", cut, "cut short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, data, tc.h)
			f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc", httpfile.WithBackoff(time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if f.Size() != size || f.Requests() != 2 {
				t.Fatalf("size %d after %d requests, want %d after 2", f.Size(), f.Requests(), size)
			}
			p := make([]byte, 16<<10)
			if _, err := f.ReadAt(p, size-int64(len(p))); err != nil || !bytes.Equal(p, data[size-int64(len(p)):]) || f.Requests() != 2 {
				t.Fatalf("ReadAt of the tail after a retried Open: %v, %d requests", err, f.Requests())
			}
			again := serve(t, data, tc.h)
			if _, err := httpfile.Open(context.Background(), again.URL+"/f.orc", httpfile.WithRetries(0)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("without retries: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTailChangedFile(t *testing.T) {
	data := orcFile(t, 30000)
	size := int64(len(data))
	var version atomic.Int64
	version.Store(1)
	var log reqLog
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version.Load()))
		http.ServeContent(w, r, "f.orc", time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	f, err := httpfile.Open(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	version.Store(2)
	// The kept tail is the version Open saw: reading it is no request and
	// no error.
	p := make([]byte, 16<<10)
	if _, err := f.ReadAt(p, size-int64(len(p))); err != nil || f.Requests() != 1 {
		t.Fatalf("a read inside the kept tail: %v, %d requests", err, f.Requests())
	}
	if _, err := f.ReadAt(p, 0); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("a file replaced after Open: %v", err)
	}
	if l := log.get(); len(l) != 2 || l[1] != fmt.Sprintf(`GET bytes=0-%d If-Range:"v1"`, len(p)-1) {
		t.Fatalf("requests %q", l)
	}
}

func TestConcurrentReadAt(t *testing.T) {
	data := orcFile(t, 50000)
	size := int64(len(data))
	srv := serve(t, data, nil)
	f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
	if err != nil {
		t.Fatal(err)
	}
	tailStart := size - httpfile.DefaultTailPrefetch
	var inTail atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 7))
			for range 40 {
				n := 1 + r.Int64N(20000)
				var off int64
				switch r.IntN(3) {
				case 0: // inside the tail
					off = tailStart + r.Int64N(httpfile.DefaultTailPrefetch-n+1)
				case 1: // across its start
					off = tailStart - 1 - r.Int64N(n)
				default:
					off = r.Int64N(size - n + 1)
				}
				if off >= tailStart && off+n <= size {
					inTail.Add(1)
				}
				p := make([]byte, n)
				if _, err := f.ReadAt(p, off); err != nil {
					t.Errorf("ReadAt(%d bytes at %d): %v", n, off, err)
					return
				}
				if !bytes.Equal(p, data[off:off+n]) {
					t.Errorf("ReadAt(%d bytes at %d): wrong bytes", n, off)
					return
				}
			}
		})
	}
	wg.Wait()
	if f.CachedReads() != inTail.Load() || f.Requests() != 1+8*40-inTail.Load() {
		t.Fatalf("%d cached reads and %d requests, want %d and %d", f.CachedReads(), f.Requests(), inTail.Load(), 1+8*40-inTail.Load())
	}
}

func TestReadAtBadContentRange(t *testing.T) {
	data := orcFile(t, 30000)
	size := len(data)
	for _, cr := range []string{
		fmt.Sprintf("bytes */%d", size),
		fmt.Sprintf("bytes 0-/%d", size),
		fmt.Sprintf("bytes 0-%d/%d", size, size),
	} {
		srv := serve(t, data, func(w http.ResponseWriter, r *http.Request, _ int64) bool {
			if rng := r.Header.Get("Range"); rng == "" || strings.HasPrefix(rng, "bytes=-") {
				return false
			}
			w.Header().Set("Content-Range", cr)
			w.WriteHeader(http.StatusPartialContent)
			w.Write(data[:10])
			return true
		})
		url := srv.URL + "/f.orc"
		f, err := httpfile.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ReadAt(make([]byte, 10), 0); err == nil || !strings.Contains(err.Error(), "bad Content-Range") || !strings.Contains(err.Error(), url) {
			t.Errorf("a ReadAt answered with Content-Range %q: %v", cr, err)
		}
	}
}
