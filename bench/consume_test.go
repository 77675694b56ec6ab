package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConsumeTimed checks that an orcgo query times the bench's own work on
// its rows: some, and less than the whole query.
func TestConsumeTimed(t *testing.T) {
	s := findSide(t, "orcgo", "zstd")
	path := filepath.Join(t.TempDir(), "t.orc")
	if _, _, _, err := measureWrite(s, path, smokeRows, 5, writeConfig{batch: 1000, stripeSize: 64 << 20}); err != nil {
		t.Fatal(err)
	}
	q := makeQueries(smokeRows, 5)[0] // Q1: every row returned
	f, err := openCounting(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	res, err := queryOrc(f, q, 1000, 1)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if res.Matched != smokeRows || res.Consume <= 0 || res.Consume >= took {
		t.Fatalf("Q1 matched %d rows, consumer %v of %v", res.Matched, res.Consume, took)
	}
}

// TestDecompressRelate checks the ratios of a decompress-only limit to the
// queries it bounds: only serial, local runs of the same library and codec
// count, and the ratio without the bench's time is given only where that
// time was measured.
func TestDecompressRelate(t *testing.T) {
	reads := []ReadResult{
		{Query: "Q1", Lib: "orcgo", Codec: "zstd", Parallel: 1, Seconds: 0.8, ConsumeSeconds: 0.2},
		{Query: "Q1", Lib: "orcgo", Codec: "zstd", Parallel: 2, Seconds: 0.5, ConsumeSeconds: 0.2},
		{Query: "Q1", Lib: "orcgo", Codec: "zstd", Parallel: 1, Seconds: 1.1, HTTP: &RemoteRead{}},
		{Query: "Q1", Lib: "orcgo", Codec: "snappy", Parallel: 1, Seconds: 0.3},
		{Query: "Q1", Lib: "parquet-go", Codec: "zstd", Parallel: 1, Seconds: 0.9},
		{Query: "Q5", Lib: "orcgo", Codec: "zstd", Parallel: 1, Seconds: 0.6},
		{Query: "Q2", Lib: "orcgo", Codec: "zstd", Parallel: 1, Seconds: 0.1},
	}
	x := DecompressResult{Side: "orcgo/zstd", Codec: "zstd", Scope: "all columns", Query: "Q1", Seconds: 0.4}
	x.relate(reads, "orcgo", []string{"Q5", "Q6"})
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(x.QuerySeconds, 0.8) || !near(x.Ratio, 2) || !near(x.ConsumeSeconds, 0.2) || !near(x.RatioLessConsume, 1.5) {
		t.Errorf("Q1: query %v ratio %v, consume %v ratio %v; want 0.8, 2, 0.2, 1.5", x.QuerySeconds, x.Ratio, x.ConsumeSeconds, x.RatioLessConsume)
	}
	if len(x.AlsoRatios) != 1 || !near(x.AlsoRatios["Q5"], 1.5) {
		t.Errorf("also ratios %v, want Q5 1.5 only", x.AlsoRatios)
	}
	var b strings.Builder
	writeDecompressMarkdown(&b, &Report{Decompress: []DecompressResult{x}})
	if !strings.Contains(b.String(), "Q1 = 2.0x or 1.5x less the bench's 200 ms on its rows, Q5 = 1.5x") {
		t.Errorf("markdown:\n%s", b.String())
	}

	// no consumer time measured: no second ratio
	y := DecompressResult{Codec: "zstd", Query: "Q5", Seconds: 0.3}
	y.relate(reads, "orcgo", nil)
	if !near(y.Ratio, 2) || y.RatioLessConsume != 0 || y.ConsumeSeconds != 0 {
		t.Errorf("Q5: ratio %v, without the consumer %v (%v)", y.Ratio, y.RatioLessConsume, y.ConsumeSeconds)
	}
}
