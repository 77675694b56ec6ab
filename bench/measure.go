package main

// Measuring instruments: an io.ReaderAt that counts calls and bytes, a heap
// sampler, and medians.

import (
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// countingFile is an io.ReaderAt (and io.Seeker, which arrow-go asks for)
// over any io.ReaderAt of known size (a local file, or an httpfile.File for
// the -http-latency rows) that counts ReadAt calls and bytes.
type countingFile struct {
	r     io.ReaderAt
	c     io.Closer // closed by Close; nil: nothing to close
	size  int64
	pos   int64
	calls atomic.Int64
	bytes atomic.Int64
}

// forOrc returns what to hand reader.Open for f, telling orcgo what the
// bytes are as opening the wrapped reader itself would: for a local file, f
// with the file's Fd method (a file of this machine: a parallel scan's
// workers read it as a serial scan does, not through requests they share);
// for an httpfile.File, f with its Latency method (a file over a network,
// which scans read ahead: reader.LatencyReader); else f.
func (f *countingFile) forOrc() io.ReaderAt {
	if osf, ok := f.r.(*os.File); ok {
		return countingDisk{f, osf}
	}
	if l, ok := f.r.(interface{ Latency() time.Duration }); ok {
		return countingRemote{f, l}
	}
	return f
}

// countingRemote is a countingFile over a file read over a network.
type countingRemote struct {
	*countingFile
	l interface{ Latency() time.Duration }
}

// Latency passes on the wrapped reader's latency (httpfile.File's).
func (r countingRemote) Latency() time.Duration { return r.l.Latency() }

// countingDisk is a countingFile over a local file, with its Fd.
type countingDisk struct {
	*countingFile
	file *os.File
}

// Fd returns the file's descriptor.
func (d countingDisk) Fd() uintptr { return d.file.Fd() }

// newCounting wraps r, of size bytes; Close closes c when it is not nil.
func newCounting(r io.ReaderAt, size int64, c io.Closer) *countingFile {
	return &countingFile{r: r, c: c, size: size}
}

func openCounting(path string) (*countingFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return newCounting(f, st.Size(), f), nil
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	c.calls.Add(1)
	n, err := c.r.ReadAt(p, off)
	c.bytes.Add(int64(n))
	return n, err
}

// Read reads at the seek position (arrow-go's ReaderAtSeeker asks for it;
// it is counted like ReadAt).
func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.ReadAt(p, c.pos)
	c.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

func (c *countingFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += c.pos
	case io.SeekEnd:
		offset += c.size
	default:
		return 0, errors.New("bench: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("bench: negative seek")
	}
	c.pos = offset
	return offset, nil
}

func (c *countingFile) Close() error {
	if c.c == nil {
		return nil
	}
	return c.c.Close()
}

// heapSampler samples the bytes of live and not yet swept heap objects
// every interval and keeps the maximum.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	base uint64
	peak atomic.Uint64
}

// peakProfile, when set, names a file that every sampler rewrites with a
// heap profile each time its peak grows by 4 MiB or more. Its in-use figures
// are those of the last collection before the sample, so the final file
// shows what was live when the heap's highest growth began (flag
// -heapprofile).
var peakProfile string

func writePeakProfile() {
	f, err := os.Create(peakProfile)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}

var heapMetric = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// heapNow reads the metric s holds (heapMetric or liveMetric), or HeapAlloc
// where the runtime lacks it.
func heapNow(s []metrics.Sample) uint64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	return s[0].Value.Uint64()
}

// startHeap collects garbage, notes the heap as the baseline and starts
// sampling. It collects once: what sync.Pools hold (an earlier
// measurement's decoders and buffers) stays for the measurement to reuse,
// as it would between a program's queries, so the time is that of a warm
// query. (Collecting twice empties the pools, and made orcgo's 0.1% range
// and point lookup at SF 1 pay for new decoders: 7-8 ms became 11-17.)
// The baseline then counts the pools' contents, which the measurement's own
// collections can free, taking as much off its peak: the peak understates
// a library that pools. -live-heap does not (startLive).
func startHeap(interval time.Duration) *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{})}
	s := make([]metrics.Sample, 1)
	copy(s, heapMetric)
	h.base = heapNow(s)
	h.peak.Store(h.base)
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		profiled := h.base
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := heapNow(s); v > h.peak.Load() {
					h.peak.Store(v)
					if peakProfile != "" && v >= profiled+4<<20 {
						writePeakProfile()
						profiled = v
					}
				}
			}
		}
	}()
	return h
}

// Stop ends sampling and returns the peak heap above the baseline.
func (h *heapSampler) Stop() int64 {
	s := make([]metrics.Sample, 1)
	copy(s, heapMetric)
	if v := heapNow(s); v > h.peak.Load() {
		h.peak.Store(v)
	}
	close(h.stop)
	h.done.Wait()
	return int64(h.peak.Load()) - int64(h.base)
}

// liveSampler forces a collection every interval and keeps the most the
// collections found live: a query's working set, whenever the collector
// would have run by itself (-live-heap). A collection counts what is
// allocated while it marks as live, so a query allocating fast adds a
// little of its garbage.
type liveSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	base uint64
	peak atomic.Uint64
}

var liveMetric = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// liveNow collects garbage and returns the bytes it found live (s holds
// liveMetric; heapNow reads it).
func liveNow(s []metrics.Sample) uint64 {
	runtime.GC()
	return heapNow(s)
}

// startLive notes the live heap as the baseline and starts forcing
// collections. The baseline is taken after two collections: the first only
// moves what sync.Pools hold (an earlier query's buffers) to their victim
// caches, where it would count as live in the baseline and be gone by the
// query's first sample, hiding as much of the query's own.
func startLive(interval time.Duration) *liveSampler {
	l := &liveSampler{stop: make(chan struct{})}
	s := make([]metrics.Sample, 1)
	copy(s, liveMetric)
	runtime.GC()
	l.base = liveNow(s)
	l.peak.Store(l.base)
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		for {
			select {
			case <-l.stop:
				return
			case <-time.After(interval):
				if v := liveNow(s); v > l.peak.Load() {
					l.peak.Store(v)
				}
			}
		}
	}()
	return l
}

// Stop ends the collections and returns the most found live above the
// baseline.
func (l *liveSampler) Stop() int64 {
	close(l.stop)
	l.done.Wait()
	return int64(l.peak.Load()) - int64(l.base)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
