package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/orcgo/orc/dataset/statsindex"
)

// servedDir serves a directory over HTTP and records the paths asked.
type servedDir struct {
	srv  *httptest.Server
	mu   sync.Mutex
	asks []string
}

func serveDir(t *testing.T, dir string) *servedDir {
	sd := &servedDir{}
	files := http.FileServer(http.Dir(dir))
	sd.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sd.mu.Lock()
		sd.asks = append(sd.asks, strings.TrimPrefix(r.URL.Path, "/"))
		sd.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(sd.srv.Close)
	return sd
}

func (sd *servedDir) take() []string {
	sd.mu.Lock()
	defer sd.mu.Unlock()
	a := sd.asks
	sd.asks = nil
	return a
}

// TestScanURLDir: orc scan URL/ reads a dataset over HTTP through its
// index, which lists its files: the first requests are the index's (the
// pointer when there is one), then only the files the index keeps; the
// rows are those of the local directory.
func TestScanURLDir(t *testing.T) {
	dir := t.TempDir()
	for m := 1; m <= 6; m++ {
		writeORC(t, filepath.Join(dir, fmt.Sprintf("dt=2024-%02d-01", m), "part 0.orc"), m*1000, 100)
		writeORC(t, filepath.Join(dir, fmt.Sprintf("dt=2024-%02d-01", m), "part-1.orc"), m*1000+500, 100)
	}
	sd := serveDir(t, dir)
	where := "id = 2005 OR id = 4599 OR dt = DATE '2024-01-01' AND v = 'v1003'"
	local, _, err := runCmd(t, "scan", dir, "--where", where)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "scan", sd.srv.URL+"/", "--where", where); err == nil || !strings.Contains(err.Error(), "neither _orcgo_index.pointer nor _orcgo_index.orc") {
		t.Fatalf("a URL directory without an index: %v", err)
	}
	if _, _, err := runCmd(t, "index", "build", dir); err != nil {
		t.Fatal(err)
	}
	check := func(what string, indexAsks int) {
		t.Helper()
		sd.take()
		out, errOut, err := runCmd(t, "scan", sd.srv.URL+"/", "--where", where, "--stats")
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, want := strings.Split(out, "\n"), strings.Split(local, "\n")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || !strings.Contains(errOut, "9 by the index") {
			t.Fatalf("%s: rows\n%s\nwant\n%s\n%s", what, out, local, errOut)
		}
		asks := sd.take()
		k := 0
		for k < len(asks) && strings.HasPrefix(asks[k], "_") {
			k++
		}
		if k != indexAsks || len(asks)-k != 3 {
			t.Fatalf("%s: requests %q, want %d for the index, then the 3 candidate files", what, asks, indexAsks)
		}
		for _, a := range asks[k:] {
			if strings.HasPrefix(a, "_") {
				t.Fatalf("%s: requests %q", what, asks)
			}
		}
	}
	check("_orcgo_index.orc", 2) // a 404 for the pointer, then the index
	// A published index: the pointer names it.
	data, err := os.ReadFile(filepath.Join(dir, statsindex.FileName))
	if err != nil {
		t.Fatal(err)
	}
	put := func(name string, b []byte) error { return os.WriteFile(filepath.Join(dir, name), b, 0o644) }
	if _, err := statsindex.Publish(put, data); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, statsindex.FileName))
	check("pointer", 2) // the pointer, then the index it names
	// --no-index still lists through the index, and opens every file.
	out, errOut, err := runCmd(t, "scan", sd.srv.URL+"/", "--where", where, "--stats", "--no-index")
	if err != nil || strings.Count(out, "\n") != strings.Count(local, "\n") || !strings.Contains(errOut, "12 opened") {
		t.Fatalf("--no-index: %v\n%s", err, errOut)
	}
	if _, _, err := runCmd(t, "scan", sd.srv.URL+"/", dir); err == nil || !strings.Contains(err.Error(), "must be the only input") {
		t.Fatalf("a URL directory among other inputs: %v", err)
	}
}

// TestScanURLDirHostile: an index that a server says is huge but does not
// send is an error, read piece by piece (no allocation of the size it
// claims), and one over the limit is refused before any read.
func TestScanURLDirHostile(t *testing.T) {
	for _, size := range []int64{200 << 20, 300 << 20} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/"+statsindex.FileName) {
				http.NotFound(w, r)
				return
			}
			if r.Header.Get("Range") == "bytes=-65536" {
				w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", size-65536, size-1, size))
				w.WriteHeader(http.StatusPartialContent)
				w.Write(make([]byte, 65536))
				return
			}
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		}))
		_, _, err := runCmd(t, "scan", srv.URL+"/", "--where", "id = 1")
		srv.Close()
		want := "reading the index"
		if size > maxURLIndex {
			want = "more than the"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("size %d: %v", size, err)
		}
	}
}
