package writer_test

// Writer behaviour: sticky errors from the destination, option validation,
// refused batches, calls after Close.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

var errInjected = errors.New("injected write failure")

// failWriter fails its k-th Write call (1-based) and every call after it,
// and counts the calls made after the first failure.
type failWriter struct {
	k, calls, after int
	partial         bool // the failing call writes half its bytes
	buf             bytes.Buffer
}

func (f *failWriter) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.k {
		f.after++
		return 0, errInjected
	}
	if f.calls == f.k {
		n := 0
		if f.partial {
			n = len(p) / 2
			f.buf.Write(p[:n])
		}
		return n, errInjected
	}
	return f.buf.Write(p)
}

// shortWriter reports a short write without an error at its k-th call.
type shortWriter struct {
	k, calls int
	done     bool // the short write happened (the k-th call had bytes)
}

func (s *shortWriter) Write(p []byte) (int, error) {
	s.calls++
	if s.calls == s.k && len(p) > 0 {
		s.done = true
		return len(p) - 1, nil
	}
	return len(p), nil
}

func stickySpec() *spec {
	s := orc.MustParseSchema("struct<a:int,b:string,c:array<double>,d:timestamp>")
	r := rand.New(rand.NewPCG(4, 4))
	sp := &spec{schema: s, opts: []writer.Option{writer.WithRowIndexStride(100), writer.WithStripeRowLimit(400),
		writer.WithBloomFilterColumns("b")}}
	generate(sp, testutil.NewGenerator(r, s), 1000, 300, r)
	return sp
}

// TestStickyError fails the destination at every write call in turn: the
// failing call's error comes back from that call and every later one, and
// nothing is written after it.
func TestStickyError(t *testing.T) {
	for _, par := range []int{1, 2} {
		t.Run(fmt.Sprint("parallel=", par), func(t *testing.T) { testStickyError(t, par) })
	}
}

// testStickyError is TestStickyError for a writer on par goroutines. A
// parallel writer writes each stripe in the background, so the call that
// reports a failure may come after the one that caused it.
func testStickyError(t *testing.T, par int) {
	sp := stickySpec()
	sp.opts = append(sp.opts, writer.WithParallelism(par))
	counter := &failWriter{k: math.MaxInt}
	run := func(w0 *failWriter) (rest []error, first error) {
		w, err := writer.NewWriter(w0, sp.schema, sp.opts...)
		if err != nil {
			return nil, err
		}
		calls := []func() error{}
		for _, b := range sp.batches {
			calls = append(calls, func() error { return w.Write(b) })
		}
		calls = append(calls, w.Close)
		for _, c := range calls {
			err := c()
			if first == nil {
				first = err
				continue
			}
			rest = append(rest, err)
		}
		rest = append(rest, w.Write(sp.batches[0]), w.Close(), w.AddUserMetadata("k", nil), w.Close())
		return rest, first
	}
	if _, first := run(counter); first != nil {
		t.Fatalf("clean run failed: %v", first)
	}
	total := counter.calls
	if total < 10 {
		t.Fatalf("only %d write calls; the test needs a file written in many pieces", total)
	}
	for _, partial := range []bool{false, true} {
		for k := 1; k <= total; k++ {
			fw := &failWriter{k: k, partial: partial}
			rest, first := run(fw)
			if first == nil && fw.calls < k && par > 1 {
				// A parallel writer cuts its streams into pages by what
				// its pool holds when they start, which the background
				// writes of the stripe before decide: this run wrote its
				// bytes in fewer calls than the clean one, and none
				// failed because none was the k-th.
				continue
			}
			if first == nil {
				t.Fatalf("k=%d: no call failed (%d calls)", k, fw.calls)
			}
			if !errors.Is(first, errInjected) {
				t.Errorf("k=%d: error %v does not wrap the destination's", k, first)
			}
			for i, err := range rest {
				if err != first {
					t.Errorf("k=%d: call %d after the failure returned %v, want the first error %v", k, i, err, first)
					break
				}
			}
			if fw.after != 0 {
				t.Errorf("k=%d: %d writes after the failure", k, fw.after)
			}
		}
	}
	// A short write without an error is an error too.
	for k := 1; k <= total; k += 3 {
		sw := &shortWriter{k: k}
		w, err := writer.NewWriter(sw, sp.schema, sp.opts...)
		if err == nil {
			for _, b := range sp.batches {
				if err = w.Write(b); err != nil {
					break
				}
			}
			if err == nil {
				err = w.Close()
			}
		}
		if sw.done && !errors.Is(err, io.ErrShortWrite) || !sw.done && err != nil {
			t.Errorf("short write at call %d: error %v", k, err)
		}
	}
}

// TestOptionErrors checks that each option refuses bad arguments and that
// NewWriter then writes nothing.
func TestOptionErrors(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,b:boolean,c:array<int>,d:struct<e:string>>")
	cases := []struct {
		name string
		opts []writer.Option
		s    *orc.Schema
	}{
		{"compression LZO", []writer.Option{writer.WithCompression(orc.CompressionLZO)}, s},
		{"compression BROTLI", []writer.Option{writer.WithCompression(orc.CompressionBrotli)}, s},
		{"compression 99", []writer.Option{writer.WithCompression(99)}, s},
		{"level -1", []writer.Option{writer.WithCompressionLevel(-1)}, s},
		{"level 10", []writer.Option{writer.WithCompressionLevel(10)}, s},
		{"block 1023", []writer.Option{writer.WithCompressionBlockSize(1023)}, s},
		{"block 8Mi", []writer.Option{writer.WithCompressionBlockSize(8 << 20)}, s},
		{"stripe small", []writer.Option{writer.WithStripeSize(64<<10 - 1)}, s},
		{"stripe large", []writer.Option{writer.WithStripeSize(2<<30 + 1)}, s},
		{"stripe rows negative", []writer.Option{writer.WithStripeRowLimit(-1)}, s},
		{"parallelism 0", []writer.Option{writer.WithParallelism(0)}, s},
		{"parallelism 65", []writer.Option{writer.WithParallelism(65)}, s},
		{"stride 99", []writer.Option{writer.WithRowIndexStride(99)}, s},
		{"stride negative", []writer.Option{writer.WithRowIndexStride(-1)}, s},
		{"stride huge", []writer.Option{writer.WithRowIndexStride(10_000_001)}, s},
		{"fpp 0", []writer.Option{writer.WithBloomFilterFPP(0)}, s},
		{"fpp 1", []writer.Option{writer.WithBloomFilterFPP(1)}, s},
		{"fpp NaN", []writer.Option{writer.WithBloomFilterFPP(math.NaN())}, s},
		{"dict ratio -0.1", []writer.Option{writer.WithDictionaryKeyRatio(-0.1)}, s},
		{"dict ratio 1.5", []writer.Option{writer.WithDictionaryKeyRatio(1.5)}, s},
		{"dict ratio NaN", []writer.Option{writer.WithDictionaryKeyRatio(math.NaN())}, s},
		{"zone nil", []writer.Option{writer.WithTimeZone(nil)}, s},
		{"bloom unknown column", []writer.Option{writer.WithBloomFilterColumns("zz")}, s},
		{"bloom boolean", []writer.Option{writer.WithBloomFilterColumns("b")}, s},
		{"bloom list", []writer.Option{writer.WithBloomFilterColumns("c")}, s},
		{"bloom without index", []writer.Option{writer.WithBloomFilterColumns("a"), writer.WithRowIndexStride(0)}, s},
		{"nil schema", nil, nil},
		{"bad schema", nil, &orc.Schema{Kind: orc.Decimal, Precision: 39}},
		{"bad struct", nil, &orc.Schema{Kind: orc.Struct, Children: []*orc.Schema{{Kind: orc.Int}}}},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, c.s, c.opts...)
		if err == nil {
			t.Errorf("%s: NewWriter accepted it", c.name)
			continue
		}
		if w != nil {
			t.Errorf("%s: NewWriter returned a writer with the error", c.name)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: NewWriter wrote %d bytes", c.name, buf.Len())
		}
		if !strings.HasPrefix(err.Error(), "orc: ") {
			t.Errorf("%s: error %q lacks the orc: prefix", c.name, err)
		}
	}
	// The good edges are accepted.
	good := [][]writer.Option{
		{writer.WithCompressionBlockSize(1 << 10)}, {writer.WithCompressionBlockSize(8<<20 - 1)},
		{writer.WithStripeSize(64 << 10)}, {writer.WithStripeSize(2 << 30)}, {writer.WithRowIndexStride(0)},
		{writer.WithRowIndexStride(100)}, {writer.WithRowIndexStride(10_000_000)}, {writer.WithDictionaryKeyRatio(0)},
		{writer.WithDictionaryKeyRatio(1)}, {writer.WithBloomFilterColumns("a", "d.e")}, {writer.WithCompressionLevel(9), writer.WithCompression(orc.CompressionZlib)},
		{writer.WithTimeZone(newYork)},
	}
	for i, opts := range good {
		if newYork == nil && i == len(good)-1 {
			continue
		}
		if _, err := writer.NewWriter(&bytes.Buffer{}, s, opts...); err != nil {
			t.Errorf("good options %d: %v", i, err)
		}
	}
}

var newYork, _ = time.LoadLocation("America/New_York")

// TestAfterClose checks the calls after Close.
func TestAfterClose(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := buf.Len()
	b := orc.NewBatch(s, 1)
	b.Cols[0].(*orc.LongVector).Values = []int64{1}
	b.NumRows = 1
	if err := w.Write(b); !errors.Is(err, writer.ErrClosed) {
		t.Errorf("Write after Close: %v", err)
	}
	if err := w.AddUserMetadata("k", []byte("v")); !errors.Is(err, writer.ErrClosed) {
		t.Errorf("AddUserMetadata after Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if buf.Len() != n {
		t.Errorf("%d bytes written after Close", buf.Len()-n)
	}
}
