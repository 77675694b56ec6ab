package main

// The HTTP rows (flags -http-latency, -http-bandwidth): every query side
// run again on the same files, served by a rangeServer (httpserve.go) and
// read through httpfile, as a scan of a file on an object store reads it.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// remoteTarget is where a side reads its file over a network: a range
// server (httpTarget) or an S3 gateway (s3Target), each with its own
// first-byte latency.
type remoteTarget interface {
	// label names the row set in the reports: "http 20ms", "s3 20ms".
	label() string
	// latency is what the server or proxy adds before each response.
	latency() time.Duration
	// measure runs q on the file path names (its base name on the server)
	// as measureQuery does, the open included, with the server's counts.
	measure(s *side, path string, q *Query, batch int) (readMeasure, error)
	// record adds the target's part to a query's result.
	record(x *ReadResult, m readMeasure)
}

// httpTarget is the server an HTTP side reads from.
type httpTarget struct {
	srv *rangeServer
}

func (h *httpTarget) label() string          { return "http " + h.srv.latency.String() }
func (h *httpTarget) latency() time.Duration { return h.srv.latency }

func (h *httpTarget) record(x *ReadResult, m readMeasure) {
	x.HTTP = &RemoteRead{Latency: h.srv.latency.String(), LatencySeconds: h.srv.latency.Seconds(), Requests: m.requests}
}

// httpClient is the client of every HTTP side: no proxy, and idle
// connections enough for the most goroutines -parallel allows, so that a
// parallel scan does not reconnect for want of one.
var httpClient = &http.Client{Transport: &http.Transport{
	MaxIdleConns:        128,
	MaxIdleConnsPerHost: 128,
	IdleConnTimeout:     90 * time.Second,
	DisableCompression:  true,
}}

// parseLatencies parses a -http-latency list such as "0,20ms,50ms" (""
// gives none: local files only).
func parseLatencies(list string) ([]time.Duration, error) {
	return parseLatencyFlag("http-latency", list)
}

// parseLatencyFlag parses the list of the latency flag name (http-latency,
// s3-latency).
func parseLatencyFlag(name, list string) ([]time.Duration, error) {
	var out []time.Duration
	for _, x := range strings.Split(list, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		d, err := time.ParseDuration(x)
		if err != nil || d < 0 || d > time.Minute {
			return nil, fmt.Errorf("-%s %q: want durations from 0 to 1m (0, 20ms, ...) separated by commas", name, list)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// parseBandwidth parses a -http-bandwidth value: bytes per second, a plain
// number or one with a unit (k, M, G: powers of 1000; KiB, MiB, GiB: of
// 1024; a trailing "B" and "/s" optional): "1GB", "250MB/s", "1e9", "0".
func parseBandwidth(v string) (int64, error) {
	s := strings.TrimSuffix(strings.TrimSpace(v), "/s")
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9},
		{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"b", 1},
	} {
		if len(s) > len(u.suffix) && strings.EqualFold(s[len(s)-len(u.suffix):], u.suffix) {
			s, mult = s[:len(s)-len(u.suffix)], u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || x < 0 || x*mult > 1<<50 {
		return 0, fmt.Errorf("-http-bandwidth %q: want bytes per second (0: uncapped), e.g. 1GB, 100MiB, 5e8", v)
	}
	return int64(x * mult), nil
}

// bandwidthText formats bytes per second for the report: "uncapped",
// "1 GB/s", "100 MB/s", "12345 B/s".
func bandwidthText(b int64) string {
	switch {
	case b == 0:
		return "uncapped"
	case b%1e9 == 0:
		return fmt.Sprintf("%d GB/s", b/1e9)
	case b%1e6 == 0:
		return fmt.Sprintf("%d MB/s", b/1e6)
	case b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB/s", b>>20)
	}
	return fmt.Sprintf("%d B/s", b)
}

// startHTTP starts one server over dir for each latency.
func startHTTP(dir string, latencies []time.Duration, bandwidth int64) ([]*rangeServer, error) {
	var out []*rangeServer
	for _, d := range latencies {
		srv, err := startRangeServer(dir, d, bandwidth)
		if err != nil {
			for _, s := range out {
				s.Close()
			}
			return nil, err
		}
		out = append(out, srv)
	}
	return out, nil
}

// httpSides returns, for each server in turn, a copy of every local reader
// that reads from it.
func httpSides(readers []*side, servers []*rangeServer) []*side {
	var out []*side
	for _, srv := range servers {
		for _, s := range readers {
			t := *s
			t.remote = &httpTarget{srv: srv}
			out = append(out, &t)
		}
	}
	return out
}

// measure runs q as measureQuery does, over HTTP: the time runs
// from httpfile.Open (which asks the server for the file's size, and
// perhaps its tail) to the query's end; requests and bytes are the
// server's, the open's included (bytes are response bodies); calls are the
// ReadAt calls on the httpfile.File, some of which it may answer from
// bytes it keeps. A failed request is an error, not retried, so the counts
// are the scan's own.
func (ht *httpTarget) measure(s *side, path string, q *Query, batch int) (readMeasure, error) {
	srv := ht.srv
	req0, bytes0 := srv.Counts()
	h := startHeap(time.Millisecond)
	t := time.Now()
	hf, err := httpfile.Open(context.Background(), srv.URL(filepath.Base(path)),
		httpfile.WithClient(httpClient), httpfile.WithRetries(0))
	var res QueryResult
	var f *countingFile
	if err == nil {
		f = newCounting(hf, hf.Size(), hf)
		res, err = s.query(f, q, batch, s.Par)
	}
	d := time.Since(t)
	heap := h.Stop()
	if f != nil {
		f.Close()
	}
	if err != nil {
		return readMeasure{}, err
	}
	req1, bytes1 := srv.Counts()
	return readMeasure{dur: d, heap: heap, bytes: bytes1 - bytes0, calls: f.calls.Load(),
		requests: req1 - req0, res: res}, nil
}

// writeHTTPMarkdown prints the queries over HTTP, if any ran, as a table of
// their own (writeRemoteMarkdown).
func writeHTTPMarkdown(w io.Writer, r *Report) {
	writeRemoteMarkdown(w, r, func(x ReadResult) *RemoteRead { return x.HTTP }, "### Queries over HTTP",
		fmt.Sprintf("The same files from a range server on 127.0.0.1, read through httpfile; \"http 20ms\": every response waits 20 ms before its first byte; bodies %s per connection. "+
			"Times run from httpfile.Open to the query's end; requests are the server's count, the open's included; MiB are the response bodies sent; ReadAt counts the calls on the httpfile.File, which may answer some from bytes it keeps.",
			bandwidthText(r.HTTPBandwidth)))
}

// writeRemoteMarkdown prints the reads that pick gives a RemoteRead for, if
// any, as a table of their own under title and intro. Each ratio's base is
// orcgo with the same codec, parallelism and latency (or else orcgo's first
// row with the codec and latency); "× 0" is the row's time over the same
// file's, query's and parallelism's with the least latency of the table (0
// when it ran), so the latency's own cost.
func writeRemoteMarkdown(w io.Writer, r *Report, pick func(ReadResult) *RemoteRead, title, intro string) {
	type k struct {
		q, codec, lat string
		par           int
	}
	type z struct{ q, side string }
	rorc := map[k]ReadResult{}
	least := map[z]ReadResult{}
	have := false
	for _, x := range r.Read {
		rr := pick(x)
		if rr == nil {
			continue
		}
		have = true
		if x.Lib == "orcgo" {
			rorc[k{x.Query, x.Codec, rr.Latency, x.Parallel}] = x
			if _, ok := rorc[k{x.Query, x.Codec, rr.Latency, 0}]; !ok {
				rorc[k{x.Query, x.Codec, rr.Latency, 0}] = x
			}
		}
		zk := z{x.Query, baseSide(x.Side, rr)}
		if b, ok := least[zk]; !ok || rr.LatencySeconds < pick(b).LatencySeconds {
			least[zk] = x
		}
	}
	if !have {
		return
	}
	fmt.Fprintln(w, title)
	fmt.Fprintln(w)
	fmt.Fprintln(w, intro)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| query | file | ms | × | × 0 | requests | × | MiB served | × | ReadAt | peak heap MiB | × | matched |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, x := range r.Read {
		rr := pick(x)
		if rr == nil {
			continue
		}
		b, ok := rorc[k{x.Query, x.Codec, rr.Latency, x.Parallel}]
		if !ok {
			b, ok = rorc[k{x.Query, x.Codec, rr.Latency, 0}]
		}
		var breq int64
		if ok {
			breq = pick(b).Requests
		}
		l := least[z{x.Query, baseSide(x.Side, rr)}]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %s | %s | %s | %d | %s | %s | %d |\n",
			x.Query, x.Side,
			msec(x.Seconds), ratio(x.Seconds, b.Seconds, ok), ratio(x.Seconds, l.Seconds, pick(l).Latency != rr.Latency),
			rr.Requests, ratio(float64(rr.Requests), float64(breq), ok),
			mibs(float64(x.BytesRead)), ratio(float64(x.BytesRead), float64(b.BytesRead), ok),
			x.ReadCalls,
			mibs(float64(x.PeakHeap)), ratio(float64(x.PeakHeap), float64(b.PeakHeap), ok),
			x.Matched)
	}
	fmt.Fprintln(w)
}

// baseSide is a remote row's side without its latency's label: "orcgo/zstd
// x2 s3" for "orcgo/zstd x2 s3 20ms".
func baseSide(side string, rr *RemoteRead) string {
	return strings.TrimSuffix(side, " "+rr.Latency)
}
