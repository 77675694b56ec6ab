package httpfile_test

// Servers that stall, trickle, lie in their headers, never end their
// bodies, change the file or redirect in loops, all on loopback: each is a
// clear error naming the URL and the range, or the right bytes, in bounded
// time and memory.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/reader"
)

// randomData returns n random bytes: httpfile does not care for ORC.
func randomData(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

// rangeOf parses a request's Range header "bytes=a-b" (a suffix range
// "bytes=-n" is the last n bytes of a file of size bytes).
func rangeOf(r *http.Request, size int64) (first, last int64, ok bool) {
	h := r.Header.Get("Range")
	if n, found := strings.CutPrefix(h, "bytes=-"); found {
		var k int64
		fmt.Sscan(n, &k)
		return max(size-k, 0), size - 1, true
	}
	if _, err := fmt.Sscanf(h, "bytes=%d-%d", &first, &last); err != nil {
		return 0, 0, false
	}
	return first, min(last, size-1), true
}

// hostile serves data with ServeContent except for ranged GETs that are
// not Open's suffix range, which h answers when it returns true.
func hostile(t *testing.T, data []byte, h func(w http.ResponseWriter, r *http.Request, first, last int64) bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if rng := r.Header.Get("Range"); rng != "" && !strings.HasPrefix(rng, "bytes=-") {
			first, last, ok := rangeOf(r, int64(len(data)))
			if ok && h(w, r, first, last) {
				return
			}
		}
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// trickle answers [first, last] with a 206 and then a byte every
// interval, until the client goes away.
func trickle(w http.ResponseWriter, r *http.Request, data []byte, first, last int64, interval time.Duration) {
	w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
	w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
	w.WriteHeader(http.StatusPartialContent)
	for i := first; i <= last; i++ {
		w.Write(data[i : i+1])
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(interval):
		}
	}
}

// wantRequestError checks that err is a *RequestError naming url and the
// range and saying what.
func wantRequestError(t *testing.T, err error, url, what string) *httpfile.RequestError {
	t.Helper()
	var re *httpfile.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("got %v (%T), want a *httpfile.RequestError", err, err)
	}
	if !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "bytes=") || !strings.Contains(err.Error(), what) {
		t.Fatalf("got %q, want it to name %s, the range and say %q", err, url, what)
	}
	return re
}

// The server: a range answered at one byte per half second. The
// stall timeout (4 KiB in the timeout) ends each attempt; the error after
// the retries says so with the URL and range, and wraps ErrTimeout.
func TestStalledServer(t *testing.T) {
	data := randomData(200 << 10)
	for _, tc := range []struct {
		name string
		h    func(w http.ResponseWriter, r *http.Request, first, last int64) bool
	}{
		{"a byte every 500ms", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			trickle(w, r, data, first, last, 500*time.Millisecond)
			return true
		}},
		{"no answer", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			<-r.Context().Done()
			return true
		}},
		{"headers, then nothing", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
			w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(data[first : first+100])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return true
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := hostile(t, data, tc.h)
			url := srv.URL + "/f.orc"
			const stall = 200 * time.Millisecond
			f, err := httpfile.Open(context.Background(), url, httpfile.WithStallTimeout(stall),
				httpfile.WithRetries(2), httpfile.WithBackoff(time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = f.ReadAt(make([]byte, 8000), 1000)
			took := time.Since(start)
			re := wantRequestError(t, err, url, "stall timeout")
			if !errors.Is(err, httpfile.ErrTimeout) || !re.Timeout() || re.Attempts != 3 {
				t.Fatalf("%v: ErrTimeout %v, %d attempts", err, errors.Is(err, httpfile.ErrTimeout), re.Attempts)
			}
			// Three attempts of one stall timeout each, and the backoff.
			if took < 3*stall || took > 3*stall+2*time.Second {
				t.Fatalf("failed after %v, want about %v", took, 3*stall)
			}
			t.Logf("%v: %v", took.Round(time.Millisecond), err)
		})
	}
}

// A first attempt that stalls is retried, and the retry resumes where the
// stalled one stopped.
func TestStallRetried(t *testing.T) {
	data := randomData(300 << 10)
	var n atomic.Int64
	var ranges []string
	srv := hostile(t, data, func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
		ranges = append(ranges, r.Header.Get("Range"))
		if n.Add(1) > 1 {
			return false
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
		w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(data[first : first+10000])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return true
	})
	f, err := httpfile.Open(context.Background(), srv.URL, httpfile.WithStallTimeout(100*time.Millisecond), httpfile.WithBackoff(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 100000)
	if _, err := f.ReadAt(p, 5); err != nil || !bytes.Equal(p, data[5:100005]) {
		t.Fatalf("a stalled read retried: %v", err)
	}
	if len(ranges) != 2 || ranges[1] != "bytes=10005-100004" {
		t.Fatalf("ranges asked %q", ranges)
	}
}

// The stall timeout also bounds Open's request.
func TestStalledOpen(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer srv.Close()
	start := time.Now()
	_, err := httpfile.Open(context.Background(), srv.URL+"/x", httpfile.WithStallTimeout(50*time.Millisecond),
		httpfile.WithRetries(1), httpfile.WithBackoff(time.Millisecond))
	if !errors.Is(err, httpfile.ErrTimeout) || !strings.Contains(err.Error(), srv.URL+"/x (bytes=-65536)") {
		t.Fatalf("a stalled Open: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("a stalled Open took %v", took)
	}
}

// A server sending steadily but slowly is no stall; WithRequestTimeout
// bounds it.
func TestRequestTimeout(t *testing.T) {
	data := randomData(1 << 20)
	srv := hostile(t, data, func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
		w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
		w.WriteHeader(http.StatusPartialContent)
		for i := first; i <= last; i += 8 << 10 {
			w.Write(data[i:min(i+8<<10, last+1)])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return true
			case <-time.After(10 * time.Millisecond):
			}
		}
		return true
	})
	url := srv.URL + "/f.orc"
	// 512 KiB at 8 KiB every 10 ms takes 640 ms: no stall.
	f, err := httpfile.Open(context.Background(), url, httpfile.WithStallTimeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 512<<10)
	if _, err := f.ReadAt(p, 0); err != nil || !bytes.Equal(p, data[:len(p)]) {
		t.Fatalf("a slow, steady read: %v", err)
	}
	g, err := httpfile.Open(context.Background(), url, httpfile.WithRequestTimeout(150*time.Millisecond),
		httpfile.WithRetries(1), httpfile.WithBackoff(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = g.ReadAt(p, 0)
	wantRequestError(t, err, url, "request timeout")
	if !errors.Is(err, httpfile.ErrTimeout) || time.Since(start) > 2*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
	for _, o := range []httpfile.Option{httpfile.WithRequestTimeout(-1), httpfile.WithStallTimeout(time.Microsecond)} {
		if _, err := httpfile.Open(context.Background(), url, o); err == nil {
			t.Fatal("a bad timeout was taken")
		}
	}
}

// ReadAtContext ends its request when its context is done, and so does
// every read when Open's context is; neither waits for the backoff.
func TestReadHonoursContext(t *testing.T) {
	data := randomData(200 << 10)
	srv := hostile(t, data, func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
		if first == 0 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return true
		}
		<-r.Context().Done()
		return true
	})
	openCtx, cancelOpen := context.WithCancel(context.Background())
	defer cancelOpen()
	f, err := httpfile.Open(openCtx, srv.URL, httpfile.WithStallTimeout(0), httpfile.WithBackoff(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{0, 1000} { // waiting for the backoff; in a request
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := f.ReadAtContext(ctx, make([]byte, 100), at)
		if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
			t.Fatalf("read at %d, cancelled after 50ms: %v after %v", at, err, time.Since(start))
		}
		wantRequestError(t, err, srv.URL, "canceled")
	}
	time.AfterFunc(50*time.Millisecond, cancelOpen)
	start := time.Now()
	if _, err := f.ReadAt(make([]byte, 100), 1000); !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Fatalf("Open's context cancelled: %v after %v", err, time.Since(start))
	}
	// ReadAtContext too, under a context of its own.
	if _, err := f.ReadAtContext(context.Background(), make([]byte, 100), 1000); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open's context cancelled, ReadAtContext: %v", err)
	}
}

// Answers whose headers do not describe what was asked.
func TestLyingRanges(t *testing.T) {
	data := randomData(300 << 10)
	size := int64(len(data))
	answer := func(w http.ResponseWriter, cr, length string, body []byte) {
		w.Header().Set("Content-Range", cr)
		if length != "" {
			w.Header().Set("Content-Length", length)
		}
		w.WriteHeader(http.StatusPartialContent)
		w.Write(body)
	}
	for _, tc := range []struct {
		name string
		h    func(w http.ResponseWriter, r *http.Request, first, last int64) bool
		want string // "" for the right bytes
	}{
		{"another start", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first+1, last+1, size), "", data[first+1:last+2])
			return true
		}, "the server sent from"},
		{"another size", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, last, size+1), "", data[first:last+1])
			return true
		}, "the file changed while being read"},
		{"length disagrees", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, last, size), fmt.Sprint(last-first), data[first:last])
			return true
		}, "Content-Length"},
		{"always shorter", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, first+9, size), "", data[first:first+10])
			return true
		}, "fewer than asked"},
		{"shorter once", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			if first != 1000 {
				return false
			}
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, first+9, size), "", data[first:first+10])
			return true
		}, ""},
		{"longer", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, size-1, size), "", data[first:])
			return true
		}, ""},
		{"body shorter than its length", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			answer(w, fmt.Sprintf("bytes %d-%d/%d", first, last, size), fmt.Sprint(last-first+1), data[first:first+10])
			return true
		}, "cut short"},
		{"body longer than its length", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			// net/http's server will not send it: write the answer raw.
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return false
			}
			defer conn.Close()
			fmt.Fprintf(buf, "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nContent-Length: %d\r\n\r\n", first, last, size, last-first+1)
			buf.Write(data[first : last+1000])
			buf.Flush()
			return true
		}, ""},
		{"a body that never ends", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, size))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(data[first : last+1])
			for r.Context().Err() == nil {
				if _, err := w.Write(data[:4096]); err != nil {
					break
				}
			}
			return true
		}, ""},
		{"a 200 of another length", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			w.Header().Set("Content-Length", fmt.Sprint(size+10))
			w.WriteHeader(http.StatusOK)
			w.Write(data)
			w.Write(data[:10])
			return true
		}, "the file changed while being read"},
		{"an unbounded 200", func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			w.WriteHeader(http.StatusOK)
			w.Write(data)
			for r.Context().Err() == nil {
				if _, err := w.Write(data[:4096]); err != nil {
					break
				}
			}
			return true
		}, "longer than the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := hostile(t, data, tc.h)
			url := srv.URL + "/f.orc"
			f, err := httpfile.Open(context.Background(), url, httpfile.WithBackoff(time.Millisecond), httpfile.WithStallTimeout(time.Second))
			if err != nil {
				t.Fatal(err)
			}
			p := make([]byte, 100000)
			start := time.Now()
			_, err = f.ReadAt(p, 1000)
			if tc.want == "" {
				if err != nil || !bytes.Equal(p, data[1000:101000]) {
					t.Fatalf("want the right bytes, got %v", err)
				}
			} else {
				wantRequestError(t, err, url, tc.want)
				t.Logf("%v", err)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Fatalf("took %v", took)
			}
		})
	}
}

// A 200 with a multi-gigabyte body (a server ignoring Range, or one
// answering with another file) is refused from its headers, or after the
// file's size and a byte when it has no length: memory stays within the
// file's size, not the body's.
func TestHugeBody(t *testing.T) {
	data := randomData(300 << 10)
	size := int64(len(data))
	endless := func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	for _, length := range []string{"4294967296", ""} {
		srv := hostile(t, data, func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
			if length != "" {
				w.Header().Set("Content-Length", length)
			}
			w.WriteHeader(http.StatusOK)
			endless(w, r)
			return true
		})
		f, err := httpfile.Open(context.Background(), srv.URL, httpfile.WithBackoff(time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		before := m.TotalAlloc
		_, err = f.ReadAt(make([]byte, 100), 0)
		runtime.ReadMemStats(&m)
		if err == nil {
			t.Fatal("a 4 GiB answer to a 300 KiB file was taken")
		}
		t.Logf("Content-Length %q: %v; %d KiB allocated", length, err, (m.TotalAlloc-before)>>10)
		if got := m.TotalAlloc - before; got > 8<<20+2*uint64(size) {
			t.Fatalf("allocated %d bytes reading a 4 GiB answer", got)
		}
	}
	// At Open: a 200 of 4 GiB to the suffix range, with no Content-Length,
	// is read no further than the prefetch; with one, not at all.
	for _, length := range []string{"4294967296", ""} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if length != "" {
				w.Header().Set("Content-Length", length)
			}
			if r.Method == http.MethodHead {
				w.Header().Set("Content-Length", fmt.Sprint(size))
				return
			}
			w.WriteHeader(http.StatusOK)
			endless(w, r)
		}))
		start := time.Now()
		f, err := httpfile.Open(context.Background(), srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("Open took %v", time.Since(start))
		}
		t.Logf("Open, 200 with Content-Length %q: size %d", length, f.Size())
		srv.Close()
	}
}

// A file that changes size between requests: each answer's total is
// checked against the size Open saw.
func TestSizeChanges(t *testing.T) {
	data := randomData(300 << 10)
	var grown atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := data
		if grown.Load() {
			d = append(bytes.Clone(data), data[:1000]...)
		}
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(d)) // no validator
	}))
	defer srv.Close()
	f, err := httpfile.Open(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 100), 0); err != nil {
		t.Fatal(err)
	}
	grown.Store(true)
	_, err = f.ReadAt(make([]byte, 100), 0)
	wantRequestError(t, err, srv.URL, "changed while being read")
}

// Redirects: followed within one host with every header; to another host
// without the headers of WithHeader, unless WithRedirectHeaders; loops and
// long chains are errors, not retried.
func TestRedirects(t *testing.T) {
	data := randomData(200 << 10)
	type seen struct{ auth, key string }
	var got atomic.Pointer[seen]
	var originURL string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/back" {
			http.Redirect(w, r, originURL+"/data", http.StatusFound)
			return
		}
		got.Store(&seen{r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")})
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
	}))
	defer target.Close()
	var requests atomic.Int64
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/data", http.StatusFound)
		case "/data":
			got.Store(&seen{r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")})
			http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
		case "/away":
			http.Redirect(w, r, target.URL+"/f", http.StatusTemporaryRedirect)
		case "/away-and-back":
			http.Redirect(w, r, target.URL+"/back", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop2", http.StatusFound)
		case "/loop2":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default: // /chain/N
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), http.StatusFound)
		}
	}))
	defer origin.Close()
	originURL = origin.URL
	creds := []httpfile.Option{httpfile.WithHeader("Authorization", "Bearer s3cret"), httpfile.WithHeader("X-Api-Key", "k3y")}
	read := func(path string, opts ...httpfile.Option) (*seen, error) {
		got.Store(nil)
		f, err := httpfile.Open(context.Background(), origin.URL+path, append(opts, creds...)...)
		if err != nil {
			return nil, err
		}
		p := make([]byte, 1000)
		if _, err := f.ReadAt(p, 10); err != nil {
			return nil, err
		}
		if !bytes.Equal(p, data[10:1010]) {
			t.Fatalf("%s: wrong bytes", path)
		}
		return got.Load(), nil
	}
	if s, err := read("/same"); err != nil || *s != (seen{"Bearer s3cret", "k3y"}) {
		t.Fatalf("a redirect within the host: %v, headers %+v", err, s)
	}
	if s, err := read("/away"); err != nil || *s != (seen{}) {
		t.Fatalf("a redirect to another host: %v, headers %+v", err, s)
	}
	if s, err := read("/away-and-back"); err != nil || *s != (seen{}) {
		t.Fatalf("a redirect to another host and back: %v, headers %+v", err, s)
	}
	if s, err := read("/away", httpfile.WithRedirectHeaders(true)); err != nil || *s != (seen{"Bearer s3cret", "k3y"}) {
		t.Fatalf("a redirect to another host, headers allowed: %v, headers %+v", err, s)
	}
	for _, tc := range []struct{ path, want string }{
		{"/loop", "redirect loop"},
		{"/chain/0", "more than 10 redirects"},
	} {
		requests.Store(0)
		_, err := httpfile.Open(context.Background(), origin.URL+tc.path, httpfile.WithBackoff(time.Millisecond))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), origin.URL+tc.path) {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if n := requests.Load(); n > 11 {
			t.Fatalf("%s: %d requests: retried", tc.path, n)
		}
		t.Logf("%s: %v", tc.path, err)
	}
}

// A scan reads under its context: cancelling it ends the request in
// flight (the server sees it go) and the scan, whether the scan reads
// ahead or as the decoder asks.
func TestScanUnderContext(t *testing.T) {
	data := orcFile(t, 30000)
	ended := make(chan struct{}, 16)
	srv := hostile(t, data, func(w http.ResponseWriter, r *http.Request, first, last int64) bool {
		<-r.Context().Done()
		ended <- struct{}{}
		return true
	})
	for _, prefetch := range []bool{true, false} {
		f, err := httpfile.Open(context.Background(), srv.URL+"/f.orc")
		if err != nil {
			t.Fatal(err)
		}
		r, err := reader.Open(f, f.Size())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		opts := []reader.ScanOption{reader.WithContext(ctx)}
		if !prefetch {
			opts = append(opts, reader.WithPrefetch(0))
		}
		br, err := r.NewBatchReader(opts...)
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		err = br.Next(br.NewBatch())
		if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
			t.Fatalf("prefetch %v: Next %v after %v, want context.Canceled at once", prefetch, err, time.Since(start))
		}
		select {
		case <-ended:
		case <-time.After(2 * time.Second):
			t.Fatalf("prefetch %v: the request was not ended", prefetch)
		}
		br.Close()
	}
}
