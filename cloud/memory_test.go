package orccloud_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/writer"
)

// TestUploadMemory writes ORC_CLOUD_WRITE_MB megabytes of ORC (random,
// hardly compressible strings) to S3 through an upload, in a process of
// its own so that the server's memory is not counted, and checks the
// writing process's peak live heap against the bound: what the same writer
// holds writing to io.Discard (its stripe, 64 MiB, and batch, measured in a
// process of its own) plus the upload's part buffers, Concurrency+1 of
// DefaultPartSize, plus 4 MiB for the SDK's requests. The live heap is
// what a collection forced every 50 ms finds live; the peak heap in use
// (garbage not yet collected included) and RSS are reported beside it.
// For comparison it also writes through gocloud.dev's s3blob writer (the
// transfer manager), which S3 uploads used before s3Upload. It runs only
// when ORC_CLOUD_WRITE_MB is set (1024 for the 1 GB).
func TestUploadMemory(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("ORC_CLOUD_WRITE_MB"))
	if mb <= 0 {
		t.Skip("set ORC_CLOUD_WRITE_MB (e.g. 1024) to measure an upload's memory")
	}
	s := startS3(t, "orcgo-test")
	url := s.url("big.orc")
	alone, _ := runWriteChild(t, "discard", false)
	blob, blobTook := runWriteChild(t, s.url("big-blob.orc"), true)
	r, took := runWriteChild(t, url, false)
	f, err := orccloud.Open(ctxT(t), url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != r.Bytes {
		t.Fatalf("the object has %d bytes, %d were written", f.Size(), r.Bytes)
	}
	const parts = 2 * orccloud.DefaultPartSize // the default concurrency, 1, plus one
	t.Logf("%d MB to S3 in %v (%d rows): peak live heap %.1f MiB, peak heap in use %.1f MiB, peak RSS %d MiB",
		r.Bytes>>20, took.Round(time.Millisecond), r.Rows, mib(r.PeakLive), mib(r.PeakHeap), r.PeakRSS>>20)
	t.Logf("the writer alone (to io.Discard): %.1f MiB live, %.1f MiB in use, %d MiB RSS; the bound: %.1f + %d MiB of parts + 4 MiB = %.1f MiB",
		mib(alone.PeakLive), mib(alone.PeakHeap), alone.PeakRSS>>20, mib(alone.PeakLive), parts>>20, mib(alone.PeakLive+parts+4<<20))
	t.Logf("through gocloud.dev's s3blob writer instead: %v, %.1f MiB live, %.1f MiB in use, %d MiB RSS",
		blobTook.Round(time.Millisecond), mib(blob.PeakLive), mib(blob.PeakHeap), blob.PeakRSS>>20)
	if r.PeakLive > alone.PeakLive+parts+4<<20 {
		t.Errorf("the upload's peak live heap, %.1f MiB, is over the writer's %.1f MiB plus %d MiB of parts plus 4 MiB",
			mib(r.PeakLive), mib(alone.PeakLive), parts>>20)
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// runWriteChild runs writeChild in a process of its own, writing to url.
// With blobWriter, an S3 upload goes through gocloud.dev's writer.
func runWriteChild(t *testing.T, url string, blobWriter bool) (writeReport, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ORCGO_CLOUD_WRITE_CHILD="+url, fmt.Sprintf("ORCGO_CLOUD_WRITE_BLOB=%v", blobWriter))
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the writing process: %v", err)
	}
	var r writeReport
	if err := json.Unmarshal(out[strings.LastIndexByte(strings.TrimSpace(string(out)), '\n')+1:], &r); err != nil {
		t.Fatalf("the writing process said %q: %v", out, err)
	}
	return r, time.Since(start)
}

type writeReport struct {
	Bytes, Rows, PeakHeap, PeakLive, PeakRSS int64
}

// writeChild is the writing process of TestUploadMemory.
func writeChild(url string) error {
	mb, _ := strconv.Atoi(os.Getenv("ORC_CLOUD_WRITE_MB"))
	orccloud.UseBlobWriterForS3(os.Getenv("ORCGO_CLOUD_WRITE_BLOB") == "true")
	var peak, peakLive atomic.Int64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for i := 0; ; i++ {
			if i%5 == 4 {
				// every 50 ms: what is live now
				runtime.GC()
				metrics.Read(live)
				if v := int64(live[0].Value.Uint64()); v > peakLive.Load() {
					peakLive.Store(v)
				}
			}
			runtime.ReadMemStats(&ms)
			if int64(ms.HeapInuse) > peak.Load() {
				peak.Store(int64(ms.HeapInuse))
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var up interface {
		Write([]byte) (int, error)
		Close() error
		Abort() error
	}
	if url == "discard" {
		up = discardUpload{}
	} else {
		w, err := orccloud.Create(context.Background(), url)
		if err != nil {
			return err
		}
		up = w
	}
	cw := &countWriter{w: up}
	bw := bufio.NewWriterSize(cw, 1<<20)
	schema := orc.MustParseSchema("struct<id:bigint,s:string>")
	w, err := writer.NewWriter(bw, schema, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		return err
	}
	b := orc.NewBatch(schema, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	var rows int64
	buf := make([]byte, 96)
	for cw.n < int64(mb)<<20 {
		b.Reset()
		ids, ss := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector)
		for i := 0; i < 1024; i++ {
			ids.Append(rows)
			for j := range buf {
				buf[j] = byte('a' + rng.IntN(26))
			}
			ss.Append(buf)
			rows++
		}
		b.NumRows = 1024
		if err := w.Write(b); err != nil {
			up.Abort()
			return err
		}
	}
	if err := w.Close(); err != nil {
		up.Abort()
		return err
	}
	if err := bw.Flush(); err != nil {
		up.Abort()
		return err
	}
	if err := up.Close(); err != nil {
		return err
	}
	close(stop)
	<-stopped
	rss := int64(0)
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(st), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				rss = kb << 10
			}
		}
	}
	rep, _ := json.Marshal(writeReport{Bytes: cw.n, Rows: rows, PeakHeap: peak.Load(), PeakLive: peakLive.Load(), PeakRSS: rss})
	fmt.Println(string(rep))
	return nil
}

// discardUpload is an upload to nowhere: the writer's memory alone.
type discardUpload struct{}

func (discardUpload) Write(p []byte) (int, error) { return len(p), nil }
func (discardUpload) Close() error                { return nil }
func (discardUpload) Abort() error                { return nil }

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
