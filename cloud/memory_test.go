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
// its own so that the server's memory is not counted, and reports the
// writer process's peak heap and peak RSS against the bound: the writer's
// stripe (64 MiB) and batch plus the upload's part buffers. It runs only
// when ORC_CLOUD_WRITE_MB is set (1024 for the 1 GB).
func TestUploadMemory(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("ORC_CLOUD_WRITE_MB"))
	if mb <= 0 {
		t.Skip("set ORC_CLOUD_WRITE_MB (e.g. 1024) to measure an upload's memory")
	}
	s := startS3(t, "orcgo-test")
	url := s.url("big.orc")
	alone, _ := runWriteChild(t, "discard")
	r, took := runWriteChild(t, url)
	f, err := orccloud.Open(ctxT(t), url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != r.Bytes {
		t.Fatalf("the object has %d bytes, %d were written", f.Size(), r.Bytes)
	}
	t.Logf("%d MB to S3 in %v (%d rows): peak heap %d MiB, peak RSS %d MiB; the writer alone (to io.Discard): %d MiB, %d MiB; parts of %d MiB",
		r.Bytes>>20, took.Round(time.Millisecond), r.Rows, r.PeakHeap>>20, r.PeakRSS>>20, alone.PeakHeap>>20, alone.PeakRSS>>20, orccloud.DefaultPartSize>>20)
}

// runWriteChild runs writeChild in a process of its own, writing to url.
func runWriteChild(t *testing.T, url string) (writeReport, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ORCGO_CLOUD_WRITE_CHILD="+url)
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
	Bytes, Rows, PeakHeap, PeakRSS int64
}

// writeChild is the writing process of TestUploadMemory.
func writeChild(url string) error {
	mb, _ := strconv.Atoi(os.Getenv("ORC_CLOUD_WRITE_MB"))
	var peak atomic.Int64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if int64(ms.HeapInuse) > peak.Load() {
				peak.Store(int64(ms.HeapInuse))
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
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
	rss := int64(0)
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(st), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				rss = kb << 10
			}
		}
	}
	rep, _ := json.Marshal(writeReport{Bytes: cw.n, Rows: rows, PeakHeap: peak.Load(), PeakRSS: rss})
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
