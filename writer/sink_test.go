package writer

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// The tests of background stripe writes (sink.go): the bytes, a slow and a
// failing io.Writer, Reset with a stripe in flight, and the bound on what
// the next stripe may hold while the last is written.

// sinkBatches are batches of random rows (integers, text, doubles),
// some ten to a 256 KiB stripe.
func sinkBatches(n int) (*orc.Schema, []*orc.Batch) {
	s := orc.MustParseSchema("struct<a:bigint,b:string,c:double>")
	rng := rand.New(rand.NewPCG(11, 2))
	var bs []*orc.Batch
	for range n {
		b := orc.NewBatch(s, 1000)
		a, t, c := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector), b.Cols[2].(*orc.DoubleVector)
		for range 1000 {
			a.Values = append(a.Values, rng.Int64())
			t.AppendString(strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(4)) + strconv.FormatUint(rng.Uint64(), 36))
			c.Values = append(c.Values, rng.Float64())
		}
		b.NumRows = 1000
		bs = append(bs, b)
	}
	return s, bs
}

// sinkFile is the file of bs written by a new writer at parallelism par.
func sinkFile(t *testing.T, s *orc.Schema, bs []*orc.Batch, par int) []byte {
	t.Helper()
	var buf bytes.Buffer
	writeSinkFile(t, &buf, s, bs, par)
	return buf.Bytes()
}

// writeSinkFile writes bs to out with a new writer at parallelism par.
func writeSinkFile(t *testing.T, out io.Writer, s *orc.Schema, bs []*orc.Batch, par int) {
	t.Helper()
	w, err := NewWriter(out, s, sinkOpts(par)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// gateWriter is an io.Writer that, while closed, blocks every write until
// opened, records what it was given, and can fail from some call on.
type gateWriter struct {
	mu     sync.Mutex
	open   *sync.Cond
	closed bool
	buf    bytes.Buffer
	calls  int
	failAt int // the call (1-based) from which writes fail; 0 never
	inside atomic.Int32
}

var errGate = errors.New("gate: disk full")

func newGateWriter() *gateWriter {
	g := &gateWriter{}
	g.open = sync.NewCond(&g.mu)
	return g
}

func (g *gateWriter) Write(p []byte) (int, error) {
	g.inside.Add(1)
	defer g.inside.Add(-1)
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.closed {
		g.open.Wait()
	}
	g.calls++
	if g.failAt > 0 && g.calls >= g.failAt {
		return 0, errGate
	}
	return g.buf.Write(p)
}

func (g *gateWriter) setClosed(c bool) {
	g.mu.Lock()
	g.closed = c
	g.mu.Unlock()
	g.open.Broadcast()
}

func (g *gateWriter) state() (calls, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls, g.buf.Len()
}

func sinkOpts(par int) []Option {
	return []Option{WithCompression(orc.CompressionZstd), WithStripeSize(256 << 10), WithCompressionBlockSize(4 << 10),
		WithRowIndexStride(1000), WithParallelism(par)}
}

// A writer slow to take each write gets the serial file's bytes, all of
// them by the time Close returns, and none after.
func TestSinkSlowWriter(t *testing.T) {
	s, bs := sinkBatches(48)
	want := sinkFile(t, s, bs, 1)
	slow := &slowWriter{}
	w, err := NewWriter(slow, s, sinkOpts(2)...)
	if err != nil {
		t.Fatal(err)
	}
	if w.sink == nil {
		t.Fatal("no background stripe writes at parallelism 2")
	}
	for _, b := range bs {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := slow.bytes()
	time.Sleep(20 * time.Millisecond)
	if !bytes.Equal(got, want) || !bytes.Equal(slow.bytes(), got) {
		t.Fatalf("%d bytes at Close, %d later, want the serial file's %d", len(got), len(slow.bytes()), len(want))
	}
	r, err := reader.Open(bytes.NewReader(got), int64(len(got)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Stripes()); n < 4 {
		t.Fatalf("%d stripes, want several", n)
	}
	t.Logf("%d stripes, the first of %d rows", len(r.Stripes()), r.Stripes()[0].NumRows)
}

// slowWriter sleeps a little at every write.
type slowWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(50 * time.Microsecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *slowWriter) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.buf.Bytes())
}

// A write failing in the background is the writer's sticky error from the
// next call on, with the offset where it failed; Close waits for the
// stripe in flight even then.
func TestSinkWriteError(t *testing.T) {
	s, bs := sinkBatches(24)
	// The writes a file takes: the header, three stripes' pages and
	// parts, the tail.
	g := newGateWriter()
	writeSinkFile(t, g, s, bs, 2)
	total, _ := g.state()
	for _, failAt := range []int{2, 5, total / 3, total / 2, total - 3, total} {
		g := newGateWriter()
		g.failAt = failAt
		w, err := NewWriter(g, s, sinkOpts(2)...)
		if err != nil {
			t.Fatal(err)
		}
		var first error
		for _, b := range bs {
			if first = w.Write(b); first != nil {
				break
			}
		}
		cerr := w.Close()
		if first == nil {
			first = cerr
		}
		if !errors.Is(first, errGate) || !strings.Contains(first.Error(), "writing at offset") {
			t.Fatalf("fail at call %d: error %v, want the writer's, with its offset", failAt, first)
		}
		if cerr == nil || cerr.Error() != first.Error() {
			t.Fatalf("fail at call %d: Close gave %v after %v", failAt, cerr, first)
		}
		if err := w.Write(bs[0]); err == nil || err.Error() != first.Error() {
			t.Fatalf("fail at call %d: Write after the failure gave %v", failAt, err)
		}
		calls, _ := g.state()
		time.Sleep(10 * time.Millisecond)
		if later, _ := g.state(); later != calls || g.inside.Load() != 0 {
			t.Fatalf("fail at call %d: %d writes after Close returned", failAt, later-calls)
		}
	}
}

// Reset with a stripe in flight waits for the write under way, writes no
// more of the old file, and the new file is what a new writer writes.
func TestSinkResetInFlight(t *testing.T) {
	s, bs := sinkBatches(24)
	want := sinkFile(t, s, bs[:8], 2)

	g := newGateWriter()
	w, err := NewWriter(g, s, sinkOpts(2)...)
	if err != nil {
		t.Fatal(err)
	}
	g.setClosed(true)
	for _, b := range bs {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // for a stripe's write to reach the gate
		if g.inside.Load() > 0 {
			break // a stripe's write is under way, held at the gate
		}
	}
	if g.inside.Load() == 0 {
		t.Fatal("no stripe went out")
	}
	go func() {
		time.Sleep(30 * time.Millisecond)
		g.setClosed(false)
	}()
	var next bytes.Buffer
	if err := w.Reset(&next); err != nil {
		t.Fatal(err)
	}
	calls, n := g.state()
	if calls != 2 || g.inside.Load() != 0 {
		// the header, then the one write under way at Reset
		t.Fatalf("old file: %d writes (%d bytes) by the time Reset returned, want 2", calls, n)
	}
	for _, b := range bs[:8] {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if later, _ := g.state(); later != calls {
		t.Fatalf("old file: %d writes after Reset", later-calls)
	}
	if !bytes.Equal(next.Bytes(), want) {
		t.Fatalf("file after Reset: %d bytes, a new writer's %d", next.Len(), len(want))
	}
}

// While an io.Writer does not take the last stripe, the next one may grow
// only until the two pass 1.25 x the stripe size: then Write waits. Without
// the bound it would fill a whole stripe, and the heap would hold two.
func TestSinkBound(t *testing.T) {
	s, bs := sinkBatches(60)
	g := newGateWriter()
	w, err := NewWriter(g, s, sinkOpts(2)...)
	if err != nil {
		t.Fatal(err)
	}
	g.setClosed(true)
	var accepted atomic.Int64
	done := make(chan error, 1)
	go func() {
		for _, b := range bs {
			if err := w.Write(b); err != nil {
				done <- err
				return
			}
			accepted.Add(int64(b.NumRows))
		}
		done <- w.Close()
	}()
	// Wait until the writer stops taking batches.
	last := int64(-1)
	for {
		time.Sleep(50 * time.Millisecond)
		if n := accepted.Load(); n == last && g.inside.Load() > 0 {
			break
		}
		last = accepted.Load()
		select {
		case err := <-done:
			t.Fatalf("the writer finished (%v) with its io.Writer closed", err)
		default:
		}
	}
	stuck := accepted.Load()
	g.setClosed(false)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_, n := g.state()
	r, err := reader.Open(bytes.NewReader(g.buf.Bytes()), int64(n))
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stripes()
	if len(st) < 3 {
		t.Fatalf("%d stripes, want several", len(st))
	}
	first, second := st[0].NumRows, st[1].NumRows
	t.Logf("stripes of %d and %d rows; the writer stopped at %d rows", first, second, stuck)
	if stuck <= first || stuck-first > second/2 {
		t.Fatalf("with the first stripe (%d rows) not written, the writer took %d rows of the second (%d rows), want some and at most half",
			first, stuck-first, second)
	}
}
