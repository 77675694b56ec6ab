package main

// The range server of the -http-latency rows: the bench's files, served
// from their directory on a loopback port the way an object store serves
// them, each response held back by a first-byte latency and its body paced
// to a bandwidth cap, with every request and body byte counted.
//
// What it answers:
//   - GET and HEAD of /NAME, a file directly in the directory (anything
//     else: 404; other methods: 405). Every response carries an ETag (from
//     the file's modification time and size), Last-Modified and
//     Accept-Ranges: bytes.
//   - Range: bytes=a-b, bytes=a- and the suffix bytes=-n, one range: 206
//     with Content-Range: bytes a-b/size (b and n are cut to the file); an
//     unsatisfiable range (a at or past the end, n = 0, b < a) 416 with
//     Content-Range: bytes */size. A malformed Range header or several
//     ranges: 400, which no client of the bench sends (a real server would
//     ignore the header and send the whole file, and hide the mistake).
//   - If-Range with an ETag other than the file's: the whole file, 200.
//   - No Range: the whole file, 200.
//
// Latency and bandwidth: every response, whatever its status, waits the
// latency after its request arrives before its first byte goes out. Under a
// cap, a body goes out in chunks of about 5 ms, chunk i (and the headers,
// with the first) not before arrival + latency + (bytes up to the end of
// chunk i) / bandwidth, so an n-byte body ends no sooner than latency +
// n/bandwidth after its request came; one timer does both waits, so a small
// body costs one timer's slack, as an uncapped one does. HTTP/1.1 carries one
// response at a time on a connection, so a cap per response is a cap per
// connection. Connecting costs nothing extra: loopback TCP, no TLS.

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// rangeServer serves the files of one directory over HTTP on 127.0.0.1.
type rangeServer struct {
	dir       string
	latency   time.Duration // before each response's first byte
	bandwidth int64         // body bytes per second per connection; 0: uncapped

	ln  net.Listener
	srv *http.Server

	requests atomic.Int64 // requests received, whatever their answer
	bytes    atomic.Int64 // body bytes sent
}

// startRangeServer listens on a free port of 127.0.0.1 (never another
// address) and serves dir until Close.
func startRangeServer(dir string, latency time.Duration, bandwidth int64) (*rangeServer, error) {
	if latency < 0 || bandwidth < 0 {
		return nil, fmt.Errorf("bench: range server: latency %v and bandwidth %d must not be negative", latency, bandwidth)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &rangeServer{dir: dir, latency: latency, bandwidth: bandwidth, ln: ln}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) // returns http.ErrServerClosed at Close
	return s, nil
}

// URL returns the address of the file name in the served directory.
func (s *rangeServer) URL(name string) string {
	return "http://" + s.ln.Addr().String() + "/" + url.PathEscape(name)
}

// Counts returns the requests received and the body bytes sent so far.
func (s *rangeServer) Counts() (requests, bytes int64) {
	return s.requests.Load(), s.bytes.Load()
}

// Close stops the server and closes its connections.
func (s *rangeServer) Close() error { return s.srv.Close() }

func (s *rangeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	start := time.Now()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, start, http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		s.fail(w, r, start, http.StatusNotFound)
		return
	}
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		s.fail(w, r, start, http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		s.fail(w, r, start, http.StatusNotFound)
		return
	}
	size := st.Size()
	etag := fmt.Sprintf(`"%x-%x"`, st.ModTime().UnixNano(), size)
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Last-Modified", st.ModTime().UTC().Format(http.TimeFormat))
	h.Set("Accept-Ranges", "bytes")

	off, n, status := int64(0), size, http.StatusOK
	if rng := r.Header.Get("Range"); rng != "" {
		if ir := r.Header.Get("If-Range"); ir == "" || ir == etag {
			var err error
			off, n, err = parseRange(rng, size)
			switch {
			case errors.Is(err, errUnsatisfiable):
				h.Set("Content-Range", fmt.Sprintf("bytes */%d", size))
				s.fail(w, r, start, http.StatusRequestedRangeNotSatisfiable)
				return
			case err != nil:
				s.fail(w, r, start, http.StatusBadRequest)
				return
			}
			status = http.StatusPartialContent
			h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", off, off+n-1, size))
		}
	}
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.FormatInt(n, 10))
	if s.bandwidth > 0 && r.Method == http.MethodGet && n > 0 {
		// the headers wait in the response's buffer for the first chunk,
		// which send releases after the latency and the chunk's time
		w.WriteHeader(status)
		s.send(w, r, f, off, n, start.Add(s.latency))
		return
	}
	if !sleepUntil(r, start.Add(s.latency)) {
		return
	}
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	s.send(w, r, f, off, n, time.Time{})
}

// fail answers status with no body, after the latency.
func (s *rangeServer) fail(w http.ResponseWriter, r *http.Request, start time.Time, status int) {
	w.Header().Set("Content-Length", "0")
	if sleepUntil(r, start.Add(s.latency)) {
		w.WriteHeader(status)
	}
}

// sleepUntil sleeps until at; false when r's client went away first.
func sleepUntil(r *http.Request, at time.Time) bool {
	d := time.Until(at)
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

const serveChunk = 32 << 10

var serveBufs = sync.Pool{New: func() any { return new([serveChunk]byte) }}

// send writes the n bytes of f at off. Under a cap it releases each chunk
// no sooner than base + (bytes up to the chunk's end) / bandwidth.
func (s *rangeServer) send(w http.ResponseWriter, r *http.Request, f *os.File, off, n int64, base time.Time) {
	buf := serveBufs.Get().(*[serveChunk]byte)
	defer serveBufs.Put(buf)
	chunk := int64(serveChunk)
	var rc *http.ResponseController
	if s.bandwidth > 0 {
		// chunks of about 5 ms at the cap, so the pace is even
		chunk = min(chunk, max(512, s.bandwidth/200))
		rc = http.NewResponseController(w)
	}
	for sent := int64(0); sent < n; {
		m := min(chunk, n-sent)
		k, _ := f.ReadAt(buf[:m], off+sent)
		if int64(k) < m {
			return // the file shrank: the client sees a short body
		}
		if rc != nil {
			// release the chunk when the cap has let its last byte through
			due := base.Add(time.Duration(float64(sent+m) / float64(s.bandwidth) * float64(time.Second)))
			if !sleepUntil(r, due) {
				return
			}
		}
		k, err := w.Write(buf[:m])
		s.bytes.Add(int64(k))
		sent += int64(k)
		if err != nil {
			return // the client went away
		}
		if rc != nil {
			if rc.Flush() != nil {
				return
			}
		}
	}
}

var errUnsatisfiable = errors.New("range not satisfiable")

// parseRange parses a Range header of one byte range against a file of size
// bytes and returns the range's offset and length: errUnsatisfiable when it
// holds no byte of the file, another error when it is malformed or lists
// several ranges.
func parseRange(h string, size int64) (off, n int64, err error) {
	spec, ok := strings.CutPrefix(h, "bytes=")
	if !ok {
		return 0, 0, fmt.Errorf("range %q: not bytes=", h)
	}
	spec = strings.TrimSpace(spec)
	if strings.Contains(spec, ",") {
		return 0, 0, fmt.Errorf("range %q: several ranges", h)
	}
	a, b, ok := strings.Cut(spec, "-")
	if !ok {
		return 0, 0, fmt.Errorf("range %q: no '-'", h)
	}
	num := func(x string) (int64, error) {
		if x == "" || strings.TrimLeft(x, "0123456789") != "" {
			return 0, fmt.Errorf("range %q: bad number %q", h, x)
		}
		return strconv.ParseInt(x, 10, 64)
	}
	if a == "" { // suffix: the last b bytes
		last, err := num(b)
		if err != nil {
			return 0, 0, err
		}
		if last == 0 || size == 0 {
			return 0, 0, errUnsatisfiable
		}
		last = min(last, size)
		return size - last, last, nil
	}
	first, err := num(a)
	if err != nil {
		return 0, 0, err
	}
	end := size - 1
	if b != "" {
		if end, err = num(b); err != nil {
			return 0, 0, err
		}
		if end < first {
			return 0, 0, errUnsatisfiable
		}
		end = min(end, size-1)
	}
	if first >= size {
		return 0, 0, errUnsatisfiable
	}
	return first, end - first + 1, nil
}
