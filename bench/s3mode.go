package main

// The S3 rows (flag -s3-latency): every query side run again on the same
// files, uploaded to a bucket of versitygw (an S3 gateway that checks
// SigV4 signatures, a program of its own, started on 127.0.0.1 over a
// temporary directory) and read through orccloud with the AWS SDK, as a
// scan of an object on S3 reads it. Each latency has a loopback proxy in
// front of the gateway that holds every request back by that latency
// before passing it on, and counts requests and response body bytes.
//
// versitygw is found as the cloud module's tests find it: $ORCGO_VERSITYGW,
// else versitygw on PATH (go install
// github.com/versity/versitygw/cmd/versitygw@v1.8.0; .ci/run builds it
// into ~/.cache/orcgo-servers/versitygw-1.8.0).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	orccloud "github.com/orcgo/orc/cloud"
)

// The gateway's root keys and bucket; the AWS SDK's default chain finds
// the keys in the environment, which startS3Gateway sets.
const (
	s3Access = "orcgo-bench"
	s3Secret = "orcgo-bench-secret"
	s3Region = "us-east-1"
	s3Bucket = "orcgo-bench"
)

// s3Gateway is a versitygw process serving a temporary directory, the
// bench's files uploaded to a bucket of it, and one latency proxy in
// front of it for each -s3-latency.
type s3Gateway struct {
	cmd     *exec.Cmd
	exited  chan error
	root    string // the gateway's directories, removed by Close
	addr    string // the gateway's host:port on 127.0.0.1
	proxies []*latencyProxy
}

// latencyProxy passes requests on to the gateway, each after waiting its
// latency, and counts them and the response bodies' bytes.
type latencyProxy struct {
	lat      time.Duration
	ln       net.Listener
	srv      *http.Server
	store    *orccloud.Store // the bucket, reached through this proxy
	requests atomic.Int64
	bytes    atomic.Int64
}

// findVersitygw returns versitygw's path: $ORCGO_VERSITYGW, else on PATH.
func findVersitygw() (string, error) {
	if p := os.Getenv("ORCGO_VERSITYGW"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	return "", errors.New("-s3-latency needs versitygw: go install github.com/versity/versitygw/cmd/versitygw@v1.8.0, " +
		"then have it on PATH or set ORCGO_VERSITYGW to it (.ci/run builds it as ~/.cache/orcgo-servers/versitygw-1.8.0)")
}

// startS3Gateway starts versitygw on a free port of 127.0.0.1, points the
// AWS SDK's default credential chain at its keys through this process's
// environment (and away from the user's files and instance metadata),
// uploads files (paths) to its bucket under their base names, and starts a
// proxy for each latency.
func startS3Gateway(files []string, latencies []time.Duration, logw io.Writer) (_ *s3Gateway, err error) {
	bin, err := findVersitygw()
	if err != nil {
		return nil, err
	}
	g := &s3Gateway{}
	defer func() {
		if err != nil {
			g.Close()
		}
	}()
	if g.root, err = os.MkdirTemp("", "orcgo-bench-s3-"); err != nil {
		return nil, err
	}
	data, side := filepath.Join(g.root, "data"), filepath.Join(g.root, "meta")
	for _, d := range []string{data, side} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g.addr = l.Addr().String()
	l.Close()
	g.cmd = exec.Command(bin, "--access", s3Access, "--secret", s3Secret, "--region", s3Region, "--quiet",
		"--port", g.addr, "posix", "--sidecar", side, data)
	g.cmd.Stderr = os.Stderr
	if err := g.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting versitygw %s: %w", bin, err)
	}
	g.exited = make(chan error, 1)
	go func() { g.exited <- g.cmd.Wait() }()
	if err := g.waitListening(20 * time.Second); err != nil {
		return nil, err
	}
	dir := filepath.Join(g.root, "aws")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": s3Access, "AWS_SECRET_ACCESS_KEY": s3Secret, "AWS_REGION": s3Region,
		"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED": "true",
	} {
		os.Setenv(k, v)
	}
	for _, k := range []string{"AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"} {
		os.Unsetenv(k)
	}
	ctx := context.Background()
	direct, _, err := orccloud.OpenStore(ctx, bucketURL("http://"+g.addr))
	if err != nil {
		return nil, err
	}
	defer direct.Close()
	var c *s3.Client
	if !direct.Bucket().As(&c) {
		return nil, errors.New("the s3 bucket is not an *s3.Client")
	}
	name := s3Bucket
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name}); err != nil {
		return nil, fmt.Errorf("creating the bucket on versitygw: %w", err)
	}
	for _, p := range files {
		t := time.Now()
		n, err := uploadFile(ctx, direct, p)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(logw, "s3: uploaded %s, %.1f MiB in %.2fs\n", filepath.Base(p), mib(n), time.Since(t).Seconds())
	}
	for _, d := range latencies {
		p, err := g.startProxy(d)
		if err != nil {
			return nil, err
		}
		g.proxies = append(g.proxies, p)
	}
	return g, nil
}

// bucketURL is the bucket's URL with endpoint the server to reach it at.
func bucketURL(endpoint string) string {
	return "s3://" + s3Bucket + "/?endpoint=" + url.QueryEscape(endpoint) + "&use_path_style=true&region=" + s3Region
}

// uploadFile uploads the local file path to st as its base name, through
// a multipart upload, and returns its size.
func uploadFile(ctx context.Context, st *orccloud.Store, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w, err := st.Create(ctx, filepath.Base(path))
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(w, f)
	if err != nil {
		w.Abort()
		return n, fmt.Errorf("uploading %s: %w", path, err)
	}
	return n, w.Close()
}

// waitListening waits until the gateway accepts connections.
func (g *s3Gateway) waitListening(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.Dial("tcp", g.addr)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("versitygw did not listen on %s in %v", g.addr, limit)
		}
		select {
		case err := <-g.exited:
			g.exited <- err
			return fmt.Errorf("versitygw exited: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startProxy starts a latency proxy to the gateway on 127.0.0.1 and opens
// the bucket through it.
func (g *s3Gateway) startProxy(lat time.Duration) (*latencyProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &latencyProxy{lat: lat, ln: ln}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: g.addr})
	rp.Transport = &http.Transport{MaxIdleConns: 128, MaxIdleConnsPerHost: 128,
		IdleConnTimeout: 90 * time.Second, DisableCompression: true}
	rp.ErrorLog = log.New(io.Discard, "", 0) // a scan's requests cancelled on purpose
	p.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		if !sleepUntil(r, time.Now().Add(p.lat)) {
			return
		}
		rp.ServeHTTP(&countingResponse{ResponseWriter: w, n: &p.bytes}, r)
	})}
	go p.srv.Serve(ln) // returns http.ErrServerClosed at Close
	p.store, _, err = orccloud.OpenStore(context.Background(), bucketURL("http://"+ln.Addr().String()))
	if err != nil {
		p.srv.Close()
		return nil, err
	}
	return p, nil
}

// countingResponse counts the body bytes written through it.
type countingResponse struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingResponse) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// Unwrap gives http.ResponseController (the reverse proxy's flushes) the
// wrapped writer.
func (c *countingResponse) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Close ends the proxies and the gateway and removes its directory.
func (g *s3Gateway) Close() error {
	for _, p := range g.proxies {
		p.store.Close()
		p.srv.Close()
	}
	if g.cmd != nil && g.cmd.Process != nil {
		g.cmd.Process.Kill()
		<-g.exited
	}
	if g.root != "" {
		os.RemoveAll(g.root)
	}
	return nil
}

// s3Sides returns, for each proxy in turn, a copy of every local reader
// that reads its file from the bucket through that proxy.
func s3Sides(readers []*side, g *s3Gateway) []*side {
	var out []*side
	for _, p := range g.proxies {
		for _, s := range readers {
			t := *s
			t.remote = &s3Target{p: p}
			out = append(out, &t)
		}
	}
	return out
}

// s3Target is the proxy an S3 side reads through.
type s3Target struct {
	p *latencyProxy
}

func (t *s3Target) label() string          { return "s3 " + t.p.lat.String() }
func (t *s3Target) latency() time.Duration { return t.p.lat }

func (t *s3Target) record(x *ReadResult, m readMeasure) {
	x.S3 = &RemoteRead{Latency: t.p.lat.String(), LatencySeconds: t.p.lat.Seconds(), Requests: m.requests}
}

// measure runs q as measureQuery does, on the object of the bucket named
// as path's base name: the time runs from orccloud's Store.Open (one
// suffix-range GET: the object's tail, size and ETag) to the query's end;
// requests and bytes are the proxy's, the open's included (bytes are
// response bodies); calls are the ReadAt calls on the orccloud.File, which
// answers those inside the tail from memory. The SDK's retries would show
// in the requests; a failed read fails the run.
func (t *s3Target) measure(s *side, path string, q *Query, batch int) (readMeasure, error) {
	p := t.p
	req0, bytes0 := p.requests.Load(), p.bytes.Load()
	h := startHeap(time.Millisecond)
	start := time.Now()
	of, err := p.store.Open(context.Background(), filepath.Base(path))
	var res QueryResult
	var f *countingFile
	if err == nil {
		f = newCounting(of, of.Size(), of)
		res, err = s.query(f, q, batch, s.Par)
	}
	d := time.Since(start)
	heap := h.Stop()
	if f != nil {
		f.Close()
	}
	if err != nil {
		return readMeasure{}, err
	}
	return readMeasure{dur: d, heap: heap, bytes: p.bytes.Load() - bytes0, calls: f.calls.Load(),
		requests: p.requests.Load() - req0, res: res}, nil
}

// writeS3Markdown prints the queries from S3, if any ran, as a table of
// their own (writeRemoteMarkdown).
func writeS3Markdown(w io.Writer, r *Report) {
	writeRemoteMarkdown(w, r, func(x ReadResult) *RemoteRead { return x.S3 }, "### Queries on S3",
		"The same files uploaded to a bucket of versitygw (an S3 gateway, a process of its own on 127.0.0.1) and read through orccloud (the AWS SDK, SigV4, ETag-pinned ranged GETs), "+
			"through a loopback proxy; \"s3 20ms\": the proxy holds every request 20 ms before passing it on. "+
			"Times run from orccloud's Store.Open (one suffix-range GET) to the query's end; requests are the proxy's count, the open's included; MiB are the response bodies passed on; "+
			"ReadAt counts the calls on the orccloud.File, which answers those inside the tail it read at open from memory; × 0 is the time over the same row's with the least latency.")
}
