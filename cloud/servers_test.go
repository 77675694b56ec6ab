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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	orccloud "github.com/orcgo/orc/cloud"
)

// The stores of the tests are real HTTP servers on 127.0.0.1, reached
// through a loopback proxy that counts the requests and can add latency:
//   - S3: versitygw, a separate process (runVersitygw);
//   - GCS: fake-gcs-server, a separate process (startGCS);
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
			fmt.Println(time.Now().Format("15:04:05.000000"), r.Method, r.URL.String(), r.Header.Get("Range"))
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

// versitygw is the S3 server the tests share: versitygw (a real S3
// gateway that checks SigV4 signatures) over a temporary directory, which
// .ci/run installs and names by $ORCGO_VERSITYGW; started by the first
// test that needs it, ended by TestMain.
var versitygw struct {
	once    sync.Once
	addr    string
	err     error
	buckets atomic.Int64
}

// The root keys versitygw is started with; awsEnv gives them to the SDK.
const (
	s3Access = "orcgo-test"
	s3Secret = "orcgo-test-secret"
)

// runVersitygw starts versitygw's posix backend on a new temporary
// directory, its metadata in sidecar files (no extended attributes
// needed).
func runVersitygw(bin string) (string, error) {
	root, err := os.MkdirTemp("", "orcgo-versitygw-")
	if err != nil {
		return "", err
	}
	atExit(func() { os.RemoveAll(root) })
	data, side := filepath.Join(root, "data"), filepath.Join(root, "meta")
	for _, d := range []string{data, side} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", err
		}
	}
	return runServer("versitygw", bin, func(port int) []string {
		return []string{"--access", s3Access, "--secret", s3Secret, "--region", "us-east-1", "--quiet",
			"--port", "127.0.0.1:" + strconv.Itoa(port), "posix", "--sidecar", side, data}
	})
}

// startS3 returns a new bucket of the shared versitygw, reached through a
// counting proxy, with the AWS SDK's credential chain pointed at the test
// keys through the environment.
func startS3(t *testing.T, name string) store {
	t.Helper()
	bin := serverProgram(t, "ORCGO_VERSITYGW", "versitygw", "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0")
	versitygw.once.Do(func() { versitygw.addr, versitygw.err = runVersitygw(bin) })
	if versitygw.err != nil {
		t.Fatal(versitygw.err)
	}
	name = fmt.Sprintf("%s-%d", name, versitygw.buckets.Add(1))
	p, purl := startProxy(t, "http://"+versitygw.addr)
	awsEnv(t)
	q := "?endpoint=" + url.QueryEscape(purl) + "&use_path_style=true&region=us-east-1"
	s := store{name: "s3", base: "s3://" + name + "/", query: q, proxy: p}
	st, _, err := orccloud.OpenStore(context.Background(), s.url(""))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var c *s3.Client
	if !st.Bucket().As(&c) {
		t.Fatal("the s3blob bucket is not an s3.Client")
	}
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &name}); err != nil {
		t.Fatalf("creating the bucket: %v", err)
	}
	return s
}

// awsEnv makes the AWS SDK's default chain find test keys in the
// environment and nothing in the user's files or instance metadata.
func awsEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", s3Access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s3Secret)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_PROFILE", "")
}

// fakeGCS is the GCS server the tests share: fake-gcs-server, run as a
// program of its own (.ci/run installs it and names it by
// $ORCGO_FAKE_GCS), in memory; started by the first test that needs it,
// ended by TestMain.
var fakeGCS struct {
	once    sync.Once
	addr    string
	err     error
	buckets atomic.Int64
}

// startGCS returns a new bucket of the shared fake-gcs-server, reached
// through STORAGE_EMULATOR_HOST as the Google SDK reaches an emulator.
func startGCS(t *testing.T, name string) store {
	t.Helper()
	bin := serverProgram(t, "ORCGO_FAKE_GCS", "fake-gcs-server", "go install github.com/fsouza/fake-gcs-server@v1.56.1")
	fakeGCS.once.Do(func() {
		fakeGCS.addr, fakeGCS.err = runServer("fake-gcs-server", bin, func(port int) []string {
			return []string{"-scheme", "http", "-host", "127.0.0.1", "-port", strconv.Itoa(port), "-backend", "memory", "-log-level", "error"}
		})
	})
	if fakeGCS.err != nil {
		t.Fatal(fakeGCS.err)
	}
	name = fmt.Sprintf("%s-%d", name, fakeGCS.buckets.Add(1))
	body := strings.NewReader(fmt.Sprintf(`{"name": %q}`, name))
	resp, err := http.Post("http://"+fakeGCS.addr+"/storage/v1/b?project=orcgo-test", "application/json", body)
	if err != nil {
		t.Fatalf("creating the bucket: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("creating the bucket: %s", resp.Status)
	}
	p, purl := startProxy(t, "http://"+fakeGCS.addr)
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
	return store{name: "gcs", base: "gs://" + name + "/", proxy: p}
}

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
