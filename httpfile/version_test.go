package httpfile_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// A server that ignores If-Range and answers later ranges from a replaced
// object of the same size: every answer's validator is compared with the
// one Open saw, so the read fails, naming the URL, instead of returning
// bytes of the new version.
func TestReplacedObjectIgnoringIfRange(t *testing.T) {
	const size = 200 << 10 // larger than the tail Open keeps
	r := rand.New(rand.NewPCG(3, 4))
	v1, v2 := make([]byte, size), make([]byte, size)
	for i := range v1 {
		v1[i], v2[i] = byte(r.Uint32()), byte(r.Uint32())
	}
	t1, t2 := time.Unix(1700000000, 0), time.Unix(1700000600, 0)
	for _, tc := range []struct {
		name string
		opts []httpfile.Option
		// header sets the validator of version v (1 or 2).
		header  func(h http.Header, v int64)
		wantErr bool
	}{
		{"ETag", nil, func(h http.Header, v int64) { h.Set("ETag", []string{"", `"v1"`, `"v2"`}[v]) }, true},
		{"ETag after HEAD", []httpfile.Option{httpfile.WithTailPrefetch(0)},
			func(h http.Header, v int64) { h.Set("ETag", []string{"", `"v1"`, `"v2"`}[v]) }, true},
		{"Last-Modified", nil, func(h http.Header, v int64) {
			h.Set("Last-Modified", []time.Time{{}, t1, t2}[v].UTC().Format(http.TimeFormat))
		}, true},
		// The same validator on both versions: nothing to tell them
		// apart by, so the read succeeds (the control case).
		{"same ETag", nil, func(h http.Header, v int64) { h.Set("ETag", `"v1"`) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var version atomic.Int64
			version.Store(1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				v := version.Load()
				tc.header(w.Header(), v)
				req.Header.Del("If-Range") // the server ignores it
				http.ServeContent(w, req, "", time.Time{}, bytes.NewReader([][]byte{nil, v1, v2}[v]))
			}))
			defer srv.Close()
			url := srv.URL + "/t/f.orc"
			f, err := httpfile.Open(context.Background(), url, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			p := make([]byte, 1000)
			if _, err := f.ReadAt(p, 0); err != nil || !bytes.Equal(p, v1[:1000]) {
				t.Fatalf("a read before the change: %v", err)
			}
			version.Store(2)
			_, err = f.ReadAt(p, 5000)
			if !tc.wantErr {
				if err != nil || !bytes.Equal(p, v2[5000:6000]) {
					t.Fatalf("a read with the same validator: %v", err)
				}
				return
			}
			var re *httpfile.RequestError
			if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "changed") {
				t.Fatalf("a read of a replaced object: %v", err)
			}
			if bytes.Equal(p, v2[5000:6000]) {
				t.Fatal("the new version's bytes were returned")
			}
		})
	}
}

// A server answering range requests with 200 and no body: the file is
// empty (Hive's empty file) only when a HEAD says so too, else reading it
// is an error naming the URL, never an empty file.
func TestEmptyAnswerToRange(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100)
	for _, tc := range []struct {
		name string
		head http.HandlerFunc
	}{
		{"HEAD gives the size", func(w http.ResponseWriter, r *http.Request) {
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
		}},
		{"HEAD refused", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusMethodNotAllowed)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodHead {
					tc.head(w, r)
					return
				}
				w.Header().Set("Content-Length", "0")
				w.WriteHeader(http.StatusOK)
			}))
			defer srv.Close()
			url := srv.URL + "/e/f.orc"
			f, err := httpfile.Open(context.Background(), url, httpfile.WithRetries(0))
			if err == nil {
				if f.Size() == 0 {
					t.Fatalf("an empty 200 to a range request read as an empty file (%d requests)", f.Requests())
				}
				_, err = f.ReadAt(make([]byte, 10), 0)
			}
			if err == nil || !strings.Contains(err.Error(), url) {
				t.Fatalf("an empty 200 to a range request: %v", err)
			}
			t.Log(err)
		})
	}
}
