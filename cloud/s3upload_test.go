package orccloud_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	orccloud "github.com/orcgo/orc/cloud"
)

// methods returns a copy of the proxy's request counts by method.
func (p *countingProxy) methodCounts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := map[string]int{}
	for k, v := range p.methods {
		m[k] = v
	}
	return m
}

// TestS3Upload writes objects around the part size to S3, in writes of
// odd sizes, with one and three parts in flight: each reads back as
// written, an object of at most one part is one PUT, a larger one a
// multipart upload of ceil(size/part) parts.
func TestS3Upload(t *testing.T) {
	s := startS3(t, "orcgo-test")
	const part = 5 << 20
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 2*part+3)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for _, conc := range []int{1, 3} {
		for _, size := range []int{0, 1, part - 1, part, part + 1, 2 * part, 2*part + 3} {
			url := s.url("up.bin")
			before := s.proxy.methodCounts()
			w, err := orccloud.Create(ctxT(t), url, orccloud.WithPartSize(part), orccloud.WithConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			for off, step := 0, 1; off < size; step = step*3 + 1 {
				n := min(step%(part/2)+1, size-off)
				if _, err := w.Write(data[off : off+n]); err != nil {
					t.Fatal(err)
				}
				off += n
			}
			if err := w.Close(); err != nil {
				t.Fatalf("%d bytes, %d in flight: %v", size, conc, err)
			}
			after := s.proxy.methodCounts()
			puts, posts := after["PUT"]-before["PUT"], after["POST"]-before["POST"]
			wantPuts, wantPosts := 1, 0
			if size > part {
				wantPuts, wantPosts = (size+part-1)/part, 2 // create, parts, complete
			}
			if puts != wantPuts || posts != wantPosts {
				t.Errorf("%d bytes, %d in flight: %d PUT and %d POST requests, want %d and %d", size, conc, puts, posts, wantPuts, wantPosts)
			}
			f, err := orccloud.Open(ctxT(t), url, orccloud.WithTailSize(0))
			if size == 0 {
				// an empty object opens (its size is 0) or not, as the
				// store answers a suffix range of it; either way it exists
				if err != nil && errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("the empty object: %v", err)
				}
				if f != nil {
					f.Close()
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
			f.Close()
			if err != nil || !bytes.Equal(got, data[:size]) {
				t.Fatalf("%d bytes, %d in flight: read back %d bytes (%v), not what was written", size, conc, len(got), err)
			}
		}
	}
}

// TestS3UploadAbortedLeavesNoUpload aborts an upload after two parts were
// sent, once while another goroutine is writing: no object appears and no
// multipart upload is left open (S3 would keep, and bill, its parts).
func TestS3UploadAbortedLeavesNoUpload(t *testing.T) {
	s := startS3(t, "orcgo-test")
	chunk := bytes.Repeat([]byte("orcgo"), 1<<20)
	for _, concurrent := range []bool{false, true} {
		url := s.url("aborted.bin")
		w, err := orccloud.Create(ctxT(t), url, orccloud.WithPartSize(5<<20), orccloud.WithConcurrency(2))
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := w.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		if concurrent {
			var wg sync.WaitGroup
			wg.Add(1)
			started := make(chan struct{})
			go func() {
				defer wg.Done()
				close(started)
				for {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			}()
			<-started
			w.Abort()
			wg.Wait()
		} else {
			w.Abort()
		}
		if err := w.Close(); err == nil {
			t.Fatal("Close after Abort succeeded")
		}
		if _, err := orccloud.Open(ctxT(t), url); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("after an aborted upload: %v, want no object", err)
		}
		st, _, err := orccloud.OpenStore(context.Background(), s.url(""))
		if err != nil {
			t.Fatal(err)
		}
		var c *s3.Client
		if !st.Bucket().As(&c) {
			t.Fatal("not an s3.Client")
		}
		bucket := strings.TrimSuffix(strings.TrimPrefix(s.base, "s3://"), "/")
		out, err := c.ListMultipartUploads(ctxT(t), &s3.ListMultipartUploadsInput{Bucket: &bucket})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Uploads) != 0 {
			t.Errorf("concurrent %v: %d multipart uploads left open after Abort: %s %v", concurrent, len(out.Uploads), *out.Uploads[0].UploadId, out.Uploads[0].Initiated)
		}
	}
}

// TestS3UploadDenied: a store refusing a write, a one-part object's PUT or
// a multipart upload's creation, is an error naming the URL that wraps
// ErrDenied and says where credentials come from, sent once.
func TestS3UploadDenied(t *testing.T) {
	s := startS3(t, "orcgo-test")
	var refused atomic.Int64
	f := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPut && r.Method != http.MethodPost {
			return false
		}
		refused.Add(1)
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>injected by the test's proxy</Message></Error>`)
		return true
	}
	s.proxy.fail.Store(&f)
	defer s.proxy.fail.Store(nil)
	for _, size := range []int{1000, 6 << 20} {
		refused.Store(0)
		url := s.url("denied.bin")
		w, err := orccloud.Create(ctxT(t), url, orccloud.WithPartSize(5<<20))
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.Write(make([]byte, size))
		if err == nil {
			err = w.Close()
		} else {
			w.Abort()
		}
		if !errors.Is(err, orccloud.ErrDenied) || !strings.Contains(err.Error(), s.base+"denied.bin") || !strings.Contains(err.Error(), "credentials") {
			t.Errorf("%d bytes: %v; want ErrDenied naming the URL", size, err)
		}
		if n := refused.Load(); n != 1 {
			t.Errorf("%d bytes: the refused write was sent %d times", size, n)
		}
		t.Logf("%d bytes: %v", size, err)
	}
}
