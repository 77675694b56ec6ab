package orccloud_test

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// failReads makes the proxy answer the next n ranged GETs (n < 0: all)
// with status code and an S3-style error body, and returns the count of
// answers it made.
func failReads(p *countingProxy, n int, code int, s3code string) *atomic.Int64 {
	var left atomic.Int64
	left.Store(int64(n))
	var made atomic.Int64
	f := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodGet || r.Header.Get("Range") == "" && r.Header.Get("X-Ms-Range") == "" {
			return false
		}
		if n >= 0 && left.Add(-1) < 0 {
			return false
		}
		made.Add(1)
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(code)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected by the test's proxy</Message></Error>`, s3code)
		return true
	}
	p.fail.Store(&f)
	return &made
}

// TestThrottled: a read answered 503 SlowDown is retried with backoff by
// the SDKs and the scan completes; a store that always answers 503 fails
// the read after a bounded number of attempts, naming the URL.
func TestThrottled(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		if s.name == "file" {
			t.Skip("a directory is never throttled")
		}
		url := s.url("slow.orc")
		upload(t, url, 0, 200000)
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		made := failReads(s.proxy, 1, http.StatusServiceUnavailable, "SlowDown")
		rows, _, _ := scanSum(t, f, f.Size(), "")
		if rows != 200000 || made.Load() != 1 {
			t.Fatalf("scan through a 503: %d rows, %d answered 503", rows, made.Load())
		}
		if s.name == "azure" {
			// Its SDK waits 4 s, then 8 s, between attempts: bounded
			// (4 attempts), but too long to wait for here.
			s.proxy.fail.Store(nil)
			return
		}
		made = failReads(s.proxy, -1, http.StatusServiceUnavailable, "SlowDown")
		start := time.Now()
		_, err = f.ReadAt(make([]byte, 100), 0)
		if err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(url, s.query)) {
			t.Fatalf("a read always answered 503: %v", err)
		}
		if made.Load() > 5 {
			t.Errorf("a read always answered 503 was sent %d times", made.Load())
		}
		t.Logf("%s: always 503: %d attempts in %v: %v", s.name, made.Load(), time.Since(start).Round(time.Millisecond), err)
		s.proxy.fail.Store(nil)
	})
}

// TestDenied: a store refusing the credentials is an error naming the URL,
// wrapping ErrDenied and saying where credentials come from, not retried.
func TestDenied(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		if s.name == "file" {
			t.Skip("a directory takes no credentials")
		}
		url := s.url("denied.orc")
		upload(t, url, 0, 1000)
		made := failReads(s.proxy, -1, http.StatusForbidden, "AccessDenied")
		defer s.proxy.fail.Store(nil)
		_, err := orccloud.Open(ctxT(t), url)
		if !errors.Is(err, orccloud.ErrDenied) || !strings.Contains(err.Error(), strings.TrimSuffix(url, s.query)) || !strings.Contains(err.Error(), "credentials") {
			t.Fatalf("a refused open: %v", err)
		}
		if made.Load() != 1 {
			t.Errorf("a refused read was sent %d times", made.Load())
		}
		t.Logf("%s: %v", s.name, err)
	})
}

// TestLatency scans through a proxy adding 20 ms to every answer, serially
// and on 2 goroutines: the scan reads ahead (the File is a
// reader.LatencyReader), so it takes about the time of its requests' round
// trips in flight together, not one after another; the requests are the
// same as without the delay. ORC_CLOUD_LATENCY_ROWS sets the rows
// (default 1,000,000), ORC_CLOUD_LATENCY_RUNS the runs of each (default 1;
// medians are reported).
func TestLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("times scans")
	}
	n := int64(1000000)
	if v, err := strconv.ParseInt(os.Getenv("ORC_CLOUD_LATENCY_ROWS"), 10, 64); err == nil && v > 0 {
		n = v
	}
	s := startS3(t, "orcgo-test")
	url := s.url("lat.orc")
	upload(t, url, 0, n, writer.WithStripeSize(64<<20)) // the default stripes
	scan := func(parallel int) (time.Duration, int64) {
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := reader.Open(f, f.Size())
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		br, err := r.NewBatchReader(reader.WithParallelism(parallel))
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		var rows int64
		for b, err := range br.All() {
			if err != nil {
				t.Fatal(err)
			}
			rows += int64(b.NumRows)
		}
		if rows != n {
			t.Fatalf("%d rows", rows)
		}
		return time.Since(start), f.Requests()
	}
	runs := latencyRuns()
	for _, par := range []int{1, 2} {
		var fast, slow []time.Duration
		var reqs, slowReqs int64
		for range runs {
			s.proxy.delay.Store(0)
			d, r := scan(par)
			fast, reqs = append(fast, d), r
			s.proxy.delay.Store(int64(20 * time.Millisecond))
			d, r = scan(par)
			slow, slowReqs = append(slow, d), r
			s.proxy.delay.Store(0)
			if reqs != slowReqs {
				t.Errorf("%d requests without the delay, %d with it", reqs, slowReqs)
			}
		}
		t.Logf("full scan of %d rows on %d goroutine(s), median of %d: %s, %d requests; with 20 ms per answer: %s (%.2fx), %d requests",
			n, par, runs, spread(fast), reqs, spread(slow), float64(median(slow))/float64(median(fast)), slowReqs)
	}
}

// latencyRuns is ORC_CLOUD_LATENCY_RUNS, how many times the latency tests
// time each query with and without the delay, alternately (default 1).
func latencyRuns() int {
	if v, err := strconv.Atoi(os.Getenv("ORC_CLOUD_LATENCY_RUNS")); err == nil && v > 0 {
		return v
	}
	return 1
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// spread formats the median and range of ds: "120ms (98-140ms)".
func spread(ds []time.Duration) string {
	if len(ds) == 1 {
		return ds[0].Round(100 * time.Microsecond).String()
	}
	return fmt.Sprintf("%v (%v-%v)", median(ds).Round(100*time.Microsecond), slices.Min(ds).Round(100*time.Microsecond), slices.Max(ds).Round(100*time.Microsecond))
}

// TestS3WrongKey: versitygw checks every request's SigV4 signature, so a
// wrong secret key is refused by the server itself, not by a proxy: the
// error names the URL, says where credentials come from, and is not
// retried.
func TestS3WrongKey(t *testing.T) {
	s := startS3(t, "orcgo-test")
	url := s.url("k.orc")
	upload(t, url, 0, 1000)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret-versitygw-was-given")
	before := s.proxy.count()
	_, err := orccloud.Open(ctxT(t), url)
	if !errors.Is(err, orccloud.ErrDenied) || !strings.Contains(err.Error(), strings.TrimSuffix(url, s.query)) || !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("a wrong secret key: %v", err)
	}
	if n := s.proxy.count() - before; n > 2 {
		t.Errorf("a refused open sent %d requests", n)
	}
	t.Log(err)
}

// TestLatencyLookups times a point lookup and a 0.1% range of the id
// column (sorted) through a proxy adding 20 ms to every answer, after the
// open, and reports the round trips they waited for: the time the delay
// added over 20 ms. Each query makes the same requests with and without
// the delay; the round trips are reported, not checked (they are timing).
func TestLatencyLookups(t *testing.T) {
	if testing.Short() {
		t.Skip("times scans")
	}
	n := int64(3000000)
	if v, err := strconv.ParseInt(os.Getenv("ORC_CLOUD_LATENCY_ROWS"), 10, 64); err == nil && v > 0 {
		n = v
	}
	s := startS3(t, "orcgo-test")
	url := s.url("lookups.orc")
	upload(t, url, 0, n, writer.WithStripeSize(64<<20), writer.WithBloomFilterColumns("id"))
	query := func(where string) (time.Duration, int64, int64) {
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := reader.Open(f, f.Size())
		if err != nil {
			t.Fatal(err)
		}
		opened := f.Requests()
		start := time.Now()
		br, err := r.NewBatchReader(reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true))
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		var rows int64
		for b, err := range br.All() {
			if err != nil {
				t.Fatal(err)
			}
			rows += int64(b.NumRows)
		}
		return time.Since(start), rows, f.Requests() - opened
	}
	lo := n / 3
	for _, q := range []struct {
		name, where string
		rows        int64
	}{
		{"point lookup", fmt.Sprintf("id = %d", lo+17), 1},
		{"0.1% range", fmt.Sprintf("id BETWEEN %d AND %d", lo, lo+n/1000-1), n / 1000},
	} {
		var fast, slow []time.Duration
		var reqs int64
		for range latencyRuns() {
			s.proxy.delay.Store(0)
			d, rows, r := query(q.where)
			fast, reqs = append(fast, d), r
			s.proxy.delay.Store(int64(20 * time.Millisecond))
			d, _, slowReqs := query(q.where)
			slow = append(slow, d)
			s.proxy.delay.Store(0)
			if rows != q.rows {
				t.Errorf("%s: %d rows, want %d", q.name, rows, q.rows)
			}
			if reqs != slowReqs {
				t.Errorf("%s: %d requests without the delay, %d with it", q.name, reqs, slowReqs)
			}
		}
		t.Logf("%s of %d rows after the open, median of %d: %s, %d requests; with 20 ms per answer %s: %.1f round trips",
			q.name, n, len(fast), spread(fast), reqs, spread(slow), float64(median(slow)-median(fast))/float64(20*time.Millisecond))
	}
}
