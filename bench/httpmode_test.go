package main

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseHTTPFlags(t *testing.T) {
	if got, err := parseLatencies(" 0, 20ms,20ms,1.5ms"); err != nil ||
		!slices.Equal(got, []time.Duration{0, 20 * time.Millisecond, 1500 * time.Microsecond}) {
		t.Errorf("parseLatencies = %v, %v", got, err)
	}
	if got, err := parseLatencies(""); err != nil || got != nil {
		t.Errorf("parseLatencies(\"\") = %v, %v", got, err)
	}
	for _, bad := range []string{"20", "-5ms", "x", "2h"} {
		if _, err := parseLatencies(bad); err == nil {
			t.Errorf("parseLatencies(%q) did not fail", bad)
		}
	}
	for _, c := range []struct {
		v    string
		want int64
	}{
		{"0", 0}, {"1000", 1000}, {"5e8", 5e8}, {"1GB", 1e9}, {"1gb/s", 1e9}, {"250MB/s", 250e6},
		{"100MiB", 100 << 20}, {"2KiB", 2048}, {"3k", 3000}, {"1.5G", 1.5e9}, {"10B", 10},
	} {
		if got, err := parseBandwidth(c.v); err != nil || got != c.want {
			t.Errorf("parseBandwidth(%q) = %d, %v, want %d", c.v, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "1TB", "GB"} {
		if _, err := parseBandwidth(bad); err == nil {
			t.Errorf("parseBandwidth(%q) did not fail", bad)
		}
	}
}

// TestRunHTTP runs the harness with two HTTP row sets at a tiny scale: every
// HTTP row must be there, labelled, counted, and agree with the local rows.
func TestRunHTTP(t *testing.T) {
	const lat = 5 * time.Millisecond
	rep, err := run(options{rows: smokeRows, runs: 1, batch: 4096, stripeSize: 64 << 20,
		seed: 3, dir: t.TempDir(), quiet: true, queries: "Q2,Q4", codecs: "zstd",
		parallel: []int{1, 2}, httpLatency: []time.Duration{0, lat}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// orcgo, parquet-go, arrow-go, orcgo x2, parquet-go x2: locally and at
	// each latency, for each of the two queries
	if len(rep.Read) != 2*3*5 {
		t.Fatalf("report has %d reads, want 30", len(rep.Read))
	}
	local := map[string]ReadResult{}
	for _, x := range rep.Read {
		if x.HTTP == nil {
			local[x.Query+" "+x.Side] = x
		}
	}
	for _, x := range rep.Read {
		if x.HTTP == nil {
			continue
		}
		base, _, _ := strings.Cut(x.Side, " http ")
		l, ok := local[x.Query+" "+base]
		if !ok || !strings.HasSuffix(x.Side, " http "+x.HTTP.Latency) {
			t.Errorf("%s %s: no local row %q, or not labelled with its latency %s", x.Query, x.Side, base, x.HTTP.Latency)
			continue
		}
		if x.Matched != l.Matched || x.Checksum != l.Checksum {
			t.Errorf("%s %s: matched %d (%s), locally %d (%s)", x.Query, x.Side, x.Matched, x.Checksum, l.Matched, l.Checksum)
		}
		if x.HTTP.Requests < 1 || x.BytesRead < 1 || x.ReadCalls < 1 {
			t.Errorf("%s %s: %d requests, %d bytes, %d ReadAt calls", x.Query, x.Side, x.HTTP.Requests, x.BytesRead, x.ReadCalls)
		}
		if x.HTTP.LatencySeconds == lat.Seconds() && x.Seconds < lat.Seconds() {
			t.Errorf("%s %s took %.2f ms, less than one request's latency", x.Query, x.Side, x.Seconds*1e3)
		}
	}
	var md strings.Builder
	writeMarkdown(&md, rep)
	for _, want := range []string{"### Queries over HTTP", "| Q4 | orcgo/zstd x2 http 5ms |", "| Q2 | parquet-go/zstd http 0s |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report has no %q", want)
		}
	}
	if i := strings.Index(md.String(), "### Queries over HTTP"); strings.Contains(md.String()[:i], " http ") {
		t.Error("an HTTP row in the local queries' table")
	}
}
