package orccloud_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// The stores of the tests are real HTTP servers on 127.0.0.1, reached
// through a loopback proxy that counts the requests and can add latency:
//   - S3: gofakes3 (an S3 implementation over an in-memory backend);
//   - GCS: fake-gcs-server's fakestorage;
//   - file://: a temporary directory.
// Azure Blob runs against Azurite where CI has installed it
// (azure_test.go).

// store is a bucket of one of the servers.
type store struct {
	name  string
	base  string // URL of the bucket's root, "scheme://bucket/"
	query string // the URL's query, "" or "?..."
	proxy *countingProxy
}

// url returns the URL of key.
func (s store) url(key string) string { return s.base + key + s.query }

// countingProxy forwards to a server, counting requests and adding a
// fixed delay before each answer.
type countingProxy struct {
	requests atomic.Int64
	delay    atomic.Int64 // ns
	mu       sync.Mutex
	methods  map[string]int
	rewrite  func(r *http.Request) // set before the first request
	// fail, when set, answers a request instead of the server (throttling).
	fail atomic.Pointer[func(w http.ResponseWriter, r *http.Request) bool]
}

func startProxy(t *testing.T, target string) (*countingProxy, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{methods: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	// An upload aborted on purpose is a proxy error too: not worth a line.
	rp.ErrorLog = log.New(io.Discard, "", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		p.mu.Lock()
		p.methods[r.Method]++
		if os.Getenv("ORCGO_PROXY_LOG") != "" {
			fmt.Println(r.Method, r.URL.String(), r.Header.Get("Range"))
		}
		p.mu.Unlock()
		if d := time.Duration(p.delay.Load()); d > 0 {
			time.Sleep(d)
		}
		if f := p.fail.Load(); f != nil && (*f)(w, r) {
			return
		}
		if p.rewrite != nil {
			p.rewrite(r)
		}
		rp.ServeHTTP(w, r)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return p, srv.URL
}

func (p *countingProxy) count() int64 { return p.requests.Load() }

// startS3 starts gofakes3 and returns a bucket on it, with the AWS SDK's
// credential chain pointed at test keys through the environment.
func startS3(t *testing.T, bucket string) store {
	t.Helper()
	backend := s3mem.New()
	faker := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: faker.Server()}}
	srv.Start()
	t.Cleanup(srv.Close)
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	p, purl := startProxy(t, srv.URL)
	awsEnv(t)
	q := "?endpoint=" + url.QueryEscape(purl) + "&use_path_style=true&region=us-east-1"
	return store{name: "s3", base: "s3://" + bucket + "/", query: q, proxy: p}
}

// awsEnv makes the AWS SDK's default chain find test keys in the
// environment and nothing in the user's files or instance metadata.
func awsEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", "orcgo-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "orcgo-test-secret")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_PROFILE", "")
}

// startGCS starts fake-gcs-server and returns a bucket on it, reached
// through STORAGE_EMULATOR_HOST as the Google SDK reaches an emulator.
func startGCS(t *testing.T, bucket string) store {
	t.Helper()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", Port: 0, Writer: discard{}})
	if err != nil {
		t.Fatalf("starting fake-gcs-server: %v", err)
	}
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	p, purl := startProxy(t, srv.URL())
	// The SDK reads objects through GCS's XML API, which fake-gcs-server
	// serves on its public host name only (storage.googleapis.com): the
	// proxy sends that name on those reads, as a request to GCS itself has
	// it (and only there: the server names itself by the Host of other
	// requests in the URLs it answers with, resumable uploads' included).
	p.rewrite = func(r *http.Request) {
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/storage/") && !strings.HasPrefix(r.URL.Path, "/upload/") && !strings.HasPrefix(r.URL.Path, "/download/") {
			r.Host = "storage.googleapis.com"
		}
	}
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(purl, "http://"))
	return store{name: "gcs", base: "gs://" + bucket + "/", proxy: p}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// fileStore is a temporary directory as a file:// store.
func fileStore(t *testing.T) store {
	dir := t.TempDir()
	return store{name: "file", base: "file://" + filepath.ToSlash(dir) + "/", proxy: &countingProxy{methods: map[string]int{}}}
}

// allStores runs f against each store.
func allStores(t *testing.T, f func(t *testing.T, s store)) {
	t.Run("s3", func(t *testing.T) { f(t, startS3(t, "orcgo-test")) })
	t.Run("gcs", func(t *testing.T) { f(t, startGCS(t, "orcgo-test")) })
	t.Run("azure", func(t *testing.T) { f(t, startAzurite(t, "orcgo-test")) })
	t.Run("file", func(t *testing.T) { f(t, fileStore(t)) })
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
