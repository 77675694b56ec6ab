package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestRunS3 runs the harness with two S3 row sets at a tiny scale against
// versitygw (skipped, saying so, where it is not installed): every S3 row
// must be there, labelled, counted, and agree with the local rows.
func TestRunS3(t *testing.T) {
	if _, err := findVersitygw(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	const lat = 5 * time.Millisecond
	rep, err := run(options{rows: smokeRows, runs: 1, batch: 4096, stripeSize: 64 << 20,
		seed: 3, dir: t.TempDir(), quiet: true, queries: "Q2,Q4", codecs: "zstd", libs: "orcgo,parquet-go",
		parallel: []int{1, 2}, s3Latency: []time.Duration{0, lat}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// orcgo, parquet-go, orcgo x2, parquet-go x2: locally and at each
	// latency, for each of the two queries
	if len(rep.Read) != 2*3*4 {
		t.Fatalf("report has %d reads, want 24", len(rep.Read))
	}
	local := map[string]ReadResult{}
	for _, x := range rep.Read {
		if x.remote() == nil {
			local[x.Query+" "+x.Side] = x
		}
	}
	for _, x := range rep.Read {
		if x.remote() == nil {
			continue
		}
		if x.HTTP != nil {
			t.Errorf("%s %s: an HTTP row in a run without HTTP", x.Query, x.Side)
			continue
		}
		base, _, _ := strings.Cut(x.Side, " s3 ")
		l, ok := local[x.Query+" "+base]
		if !ok || !strings.HasSuffix(x.Side, " s3 "+x.S3.Latency) {
			t.Errorf("%s %s: no local row %q, or not labelled with its latency %s", x.Query, x.Side, base, x.S3.Latency)
			continue
		}
		if x.Matched != l.Matched || x.Checksum != l.Checksum {
			t.Errorf("%s %s: matched %d (%s), locally %d (%s)", x.Query, x.Side, x.Matched, x.Checksum, l.Matched, l.Checksum)
		}
		if x.S3.Requests < 1 || x.BytesRead < 1 || x.ReadCalls < 1 {
			t.Errorf("%s %s: %d requests, %d bytes, %d ReadAt calls", x.Query, x.Side, x.S3.Requests, x.BytesRead, x.ReadCalls)
		}
		if x.S3.LatencySeconds == lat.Seconds() && x.Seconds < lat.Seconds() {
			t.Errorf("%s %s took %.2f ms, less than one request's latency", x.Query, x.Side, x.Seconds*1e3)
		}
	}
	var md strings.Builder
	writeMarkdown(&md, rep)
	for _, want := range []string{"### Queries on S3", "| Q4 | orcgo/zstd x2 s3 5ms |", "| Q2 | parquet-go/zstd s3 0s |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report has no %q", want)
		}
	}
	if i := strings.Index(md.String(), "### Queries on S3"); strings.Contains(md.String()[:i], " s3 ") {
		t.Error("an S3 row in an earlier table")
	}
	t.Log("\n" + md.String()[strings.Index(md.String(), "### Queries on S3"):])
}
