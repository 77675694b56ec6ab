package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// serveTestFile writes size pseudo-random bytes to a file in a new
// directory and serves it; it returns the server and the bytes.
func serveTestFile(t *testing.T, size int, latency time.Duration, bandwidth int64) (*rangeServer, []byte) {
	t.Helper()
	data := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := startRangeServer(dir, latency, bandwidth)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, data
}

var testClient = &http.Client{Transport: &http.Transport{}}

func TestRangeServer(t *testing.T) {
	const size = 100_000
	const latency = 15 * time.Millisecond
	srv, data := serveTestFile(t, size, latency, 0)
	resp, err := testClient.Head(srv.URL("f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || resp.ContentLength != size || etag == "" || resp.Header.Get("Accept-Ranges") != "bytes" {
		t.Fatalf("HEAD: %s, length %d, ETag %q, Accept-Ranges %q", resp.Status, resp.ContentLength, etag, resp.Header.Get("Accept-Ranges"))
	}
	wantReq, wantBytes := int64(1), int64(0)

	for _, c := range []struct {
		method, path, rng, ifRange string
		status                     int
		off, n                     int64  // the body: data[off:off+n]
		contentRange               string // "": none
	}{
		{"GET", "f.bin", "", "", 200, 0, size, ""},
		{"GET", "f.bin", "bytes=10-19", "", 206, 10, 10, "bytes 10-19/100000"},
		{"GET", "f.bin", "bytes=0-0", etag, 206, 0, 1, "bytes 0-0/100000"},
		{"GET", "f.bin", "bytes=99990-", "", 206, 99990, 10, "bytes 99990-99999/100000"},
		{"GET", "f.bin", "bytes=99990-200000", "", 206, 99990, 10, "bytes 99990-99999/100000"},
		{"GET", "f.bin", "bytes=-7", "", 206, size - 7, 7, "bytes 99993-99999/100000"},
		{"GET", "f.bin", "bytes=-65536", "", 206, size - 65536, 65536, "bytes 34464-99999/100000"},
		{"GET", "f.bin", "bytes=-200000", "", 206, 0, size, "bytes 0-99999/100000"},
		{"HEAD", "f.bin", "bytes=5-9", "", 206, 0, 0, "bytes 5-9/100000"},
		{"GET", "f.bin", "bytes=100000-", "", 416, 0, 0, "bytes */100000"},
		{"GET", "f.bin", "bytes=-0", "", 416, 0, 0, "bytes */100000"},
		{"GET", "f.bin", "bytes=20-10", "", 416, 0, 0, "bytes */100000"},
		{"GET", "f.bin", "bytes=0-1,5-6", "", 400, 0, 0, ""},
		{"GET", "f.bin", "bytes=x-1", "", 400, 0, 0, ""},
		{"GET", "f.bin", "items=0-1", "", 400, 0, 0, ""},
		{"GET", "f.bin", "bytes=0-9", `"other"`, 200, 0, size, ""}, // If-Range of another version
		{"GET", "missing", "", "", 404, 0, 0, ""},
		{"GET", "sub/f.bin", "", "", 404, 0, 0, ""},
		{"POST", "f.bin", "", "", 405, 0, 0, ""},
	} {
		req, err := http.NewRequest(c.method, srv.URL(c.path), nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.rng != "" {
			req.Header.Set("Range", c.rng)
		}
		if c.ifRange != "" {
			req.Header.Set("If-Range", c.ifRange)
		}
		start := time.Now()
		resp, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		name := c.method + " " + c.path + " " + c.rng
		wantReq++
		wantBytes += int64(len(body))
		if took < latency {
			t.Errorf("%s took %v, less than the latency %v", name, took, latency)
		}
		if resp.StatusCode != c.status {
			t.Errorf("%s: %s, want %d", name, resp.Status, c.status)
			continue
		}
		if got := resp.Header.Get("Content-Range"); got != c.contentRange {
			t.Errorf("%s: Content-Range %q, want %q", name, got, c.contentRange)
		}
		if !bytes.Equal(body, data[c.off:c.off+c.n]) {
			t.Errorf("%s: %d bytes of body, want data[%d:%d]", name, len(body), c.off, c.off+c.n)
		}
		if c.status == 206 {
			want := c.n
			if c.method == "HEAD" {
				want = 5 // Content-Length says what a GET would send
			}
			if got := resp.Header.Get("Content-Length"); got != strconv.FormatInt(want, 10) {
				t.Errorf("%s: Content-Length %s, want %d", name, got, want)
			}
		}
	}
	if req, n := srv.Counts(); req != wantReq || n != wantBytes {
		t.Errorf("server counted %d requests and %d bytes, want %d and %d", req, n, wantReq, wantBytes)
	}
}

// TestRangeServerBandwidth checks that a body takes at least its size over
// the cap after the latency, and that no header comes before the latency.
func TestRangeServerBandwidth(t *testing.T) {
	for _, c := range []struct {
		latency time.Duration
		rng     string
		n       int
		want    time.Duration
	}{
		{0, "bytes=0-39999", 40_000, 100 * time.Millisecond},
		{20 * time.Millisecond, "bytes=-4000", 4000, 30 * time.Millisecond},
	} {
		srv, data := serveTestFile(t, 40_000, c.latency, 400_000)
		req, _ := http.NewRequest("GET", srv.URL("f.bin"), nil)
		req.Header.Set("Range", c.rng)
		start := time.Now()
		resp, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		head := time.Since(start)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil || !bytes.Equal(body, data[len(data)-c.n:]) {
			t.Fatalf("%s: %d bytes, %v", c.rng, len(body), err)
		}
		if head < c.latency || took < c.want || took > c.want+5*time.Second {
			t.Errorf("%s at 400,000 B/s after %v: headers after %v, body after %v, want about %v",
				c.rng, c.latency, head, took, c.want)
		}
	}
}

// TestRangeServerHTTPFile reads the served file through httpfile, as the
// HTTP rows do, and checks that both count the same requests.
func TestRangeServerHTTPFile(t *testing.T) {
	srv, data := serveTestFile(t, 300_000, time.Millisecond, 0)
	f, err := httpfile.Open(context.Background(), srv.URL("f.bin"), httpfile.WithClient(testClient), httpfile.WithRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) {
		t.Fatalf("Size %d, want %d", f.Size(), len(data))
	}
	for _, r := range [][2]int{{0, 100}, {1000, 150_000}, {299_990, 10}, {250_000, 50_000}, {5, 1}} {
		p := make([]byte, r[1])
		if n, err := f.ReadAt(p, int64(r[0])); n != r[1] || err != nil || !bytes.Equal(p, data[r[0]:r[0]+r[1]]) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v, or other bytes", r[1], r[0], n, err)
		}
	}
	if req, _ := srv.Counts(); req != f.Requests() || req == 0 {
		t.Errorf("server counted %d requests, httpfile made %d", req, f.Requests())
	}
}

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		h        string
		size     int64
		off, n   int64
		unsat, e bool
	}{
		{h: "bytes=0-9", size: 100, off: 0, n: 10},
		{h: "bytes=90-", size: 100, off: 90, n: 10},
		{h: "bytes=90-500", size: 100, off: 90, n: 10},
		{h: "bytes=-10", size: 100, off: 90, n: 10},
		{h: "bytes=-500", size: 100, off: 0, n: 100},
		{h: "bytes=100-", size: 100, unsat: true},
		{h: "bytes=-1", size: 0, unsat: true},
		{h: "bytes=-0", size: 100, unsat: true},
		{h: "bytes=5-4", size: 100, unsat: true},
		{h: "bytes=0-1,3-4", size: 100, e: true},
		{h: "bytes=-", size: 100, e: true},
		{h: "bytes=+1-2", size: 100, e: true},
		{h: "bytes=1", size: 100, e: true},
		{h: "0-1", size: 100, e: true},
	} {
		off, n, err := parseRange(c.h, c.size)
		switch {
		case c.unsat:
			if err != errUnsatisfiable {
				t.Errorf("parseRange(%q, %d): %v, want unsatisfiable", c.h, c.size, err)
			}
		case c.e:
			if err == nil || err == errUnsatisfiable {
				t.Errorf("parseRange(%q, %d): %v, want malformed", c.h, c.size, err)
			}
		case err != nil || off != c.off || n != c.n:
			t.Errorf("parseRange(%q, %d) = %d, %d, %v, want %d, %d", c.h, c.size, off, n, err, c.off, c.n)
		}
	}
}
