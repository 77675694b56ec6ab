package writer_test

// Benchmarks: a TPC-H lineitem-like stream of 16 columns (integers,
// decimals, dates, a timestamp, strings of low and high cardinality).
//
//	go test ./writer -run '^$' -bench Lineitem -cpu 1
//	ORC_PEAK_HEAP=1 go test ./writer -run TestPeakHeap -v -timeout 30m
//
// BenchmarkWriteLineitem reports rows/s next to MB/s (of raw values) and
// allocations, and rows per CPU second (all threads, garbage collection
// included), which is the one-core figure on a busy machine; TestPeakHeap
// writes 10 million rows and more and reports the peak heap against the
// stripe size.

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/writer"
)

const lineitemSchema = "struct<l_orderkey:bigint,l_partkey:bigint,l_suppkey:int,l_linenumber:int," +
	"l_quantity:decimal(12,2),l_extendedprice:decimal(12,2),l_discount:decimal(12,2),l_tax:decimal(12,2)," +
	"l_returnflag:char(1),l_linestatus:char(1),l_shipdate:date,l_commitdate:date,l_shiptime:timestamp," +
	"l_shipinstruct:string,l_shipmode:string,l_comment:string>"

var (
	instructs = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	modes     = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	words     = []string{"furiously", "quickly", "carefully", "blithely", "slyly", "regular", "final", "pending",
		"ironic", "express", "bold", "even", "silent", "unusual", "deposits", "packages", "accounts", "requests",
		"instructions", "theodolites", "pinto", "beans", "foxes", "ideas", "dependencies", "platelets"}
)

// lineitemGen makes lineitem-like rows.
type lineitemGen struct {
	r     *rand.Rand
	order int64
	line  int64
}

func newLineitemGen(seed uint64) *lineitemGen {
	return &lineitemGen{r: rand.New(rand.NewPCG(seed, 1)), order: 1}
}

// fill resets b and fills it with n new rows, reusing its buffers. It
// returns the raw size of the values in bytes: 8 per integer and date, 16
// per decimal, 12 per timestamp, and the bytes of the strings.
func (g *lineitemGen) fill(b *orc.Batch, n int) int64 {
	b.Reset()
	r := g.r
	col := func(i int) *orc.LongVector { return b.Cols[i].(*orc.LongVector) }
	dec := func(i int) *orc.DecimalVector { return b.Cols[i].(*orc.DecimalVector) }
	str := func(i int) *orc.BytesVector { return b.Cols[i].(*orc.BytesVector) }
	ts := b.Cols[12].(*orc.TimestampVector)
	for i := 0; i < n; i++ {
		if g.line == 0 || r.IntN(4) == 0 {
			g.order += 1 + int64(r.IntN(3))
			g.line = 1
		} else {
			g.line++
		}
		col(0).Values = append(col(0).Values, g.order)
		col(1).Values = append(col(1).Values, 1+int64(r.IntN(200000)))
		col(2).Values = append(col(2).Values, 1+int64(r.IntN(10000)))
		col(3).Values = append(col(3).Values, g.line)
		qty := int64(1 + r.IntN(50))
		dec(4).Values = append(dec(4).Values, orc.Int128FromInt64(qty*100))
		dec(5).Values = append(dec(5).Values, orc.Int128FromInt64(qty*int64(90000+r.IntN(10000000))/100))
		dec(6).Values = append(dec(6).Values, orc.Int128FromInt64(int64(r.IntN(11))))
		dec(7).Values = append(dec(7).Values, orc.Int128FromInt64(int64(r.IntN(9))))
		str(8).AppendString([]string{"A", "N", "R"}[r.IntN(3)])
		str(9).AppendString([]string{"F", "O"}[r.IntN(2)])
		ship := int64(8036 + r.IntN(2526))
		col(10).Values = append(col(10).Values, ship)
		col(11).Values = append(col(11).Values, ship+int64(r.IntN(90))-30)
		ts.Seconds = append(ts.Seconds, ship*86400+int64(r.IntN(86400)))
		ts.Nanos = append(ts.Nanos, int32(r.IntN(1000))*1_000_000)
		str(13).AppendString(instructs[r.IntN(len(instructs))])
		str(14).AppendString(modes[r.IntN(len(modes))])
		c := str(15)
		if len(c.Offsets) == 0 {
			c.Offsets = append(c.Offsets, 0)
		}
		for w, m := 0, 2+r.IntN(5); w < m; w++ {
			if w > 0 {
				c.Data = append(c.Data, ' ')
			}
			c.Data = append(c.Data, words[r.IntN(len(words))]...)
		}
		c.Offsets = append(c.Offsets, len(c.Data))
	}
	b.NumRows = n
	raw := int64(n) * (4*8 + 4*16 + 2*8 + 12)
	for _, i := range []int{8, 9, 13, 14, 15} {
		raw += int64(len(str(i).Data))
	}
	return raw
}

// lineitemBatches returns k batches of n rows each and the mean raw size
// of a batch's values in bytes.
func lineitemBatches(k, n int, seed uint64) ([]*orc.Batch, int64) {
	s := orc.MustParseSchema(lineitemSchema)
	g := newLineitemGen(seed)
	var out []*orc.Batch
	var raw int64
	for j := 0; j < k; j++ {
		b := orc.NewBatch(s, n)
		raw += g.fill(b, n)
		out = append(out, b)
	}
	return out, raw / int64(k)
}

func BenchmarkWriteLineitem(b *testing.B) {
	for _, codec := range []orc.CompressionKind{orc.CompressionZstd, orc.CompressionNone} {
		b.Run(codec.String(), func(b *testing.B) {
			const rowsPerBatch = 1024
			batches, raw := lineitemBatches(64, rowsPerBatch, 1)
			b.SetBytes(raw)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			w, err := writer.NewWriter(io.Discard, batches[0].Schema, writer.WithCompression(codec))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if err := w.Write(batches[i%len(batches)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)*rowsPerBatch/b.Elapsed().Seconds(), "rows/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)*rowsPerBatch/cpu.Seconds(), "rows/cpu-s")
			}
		})
	}
}

// tailKeeper is an io.Writer that keeps only the last 512 KiB written (in
// a buffer allocated once) and serves them through ReadAt, enough to read
// a big file's tail without holding the file.
type tailKeeper struct {
	n       int64 // bytes written
	buf     []byte
	onWrite func() // called at each write, if set
}

const tailKeep = 512 << 10

func newTailKeeper() *tailKeeper { return &tailKeeper{buf: make([]byte, 0, 2*tailKeep)} }

func (k *tailKeeper) Write(p []byte) (int, error) {
	if k.onWrite != nil {
		k.onWrite()
	}
	k.n += int64(len(p))
	switch {
	case len(p) >= tailKeep:
		k.buf = append(k.buf[:0], p[len(p)-tailKeep:]...)
	case len(k.buf)+len(p) > cap(k.buf):
		keep := k.buf[len(k.buf)-(tailKeep-len(p)):]
		k.buf = append(k.buf[:copy(k.buf, keep)], p...)
	default:
		k.buf = append(k.buf, p...)
	}
	return len(p), nil
}

func (k *tailKeeper) ReadAt(p []byte, off int64) (int, error) {
	start := k.n - int64(len(k.buf))
	if off < start || off+int64(len(p)) > k.n {
		return 0, fmt.Errorf("tailKeeper: [%d, %d) not kept", off, off+int64(len(p)))
	}
	return copy(p, k.buf[off-start:]), nil
}

// peakHeap writes rows lineitem rows with the given stripe size and
// returns the peak live heap above the heap before the writer existed, the
// peak of all heap objects including garbage not yet collected, and the
// largest stripe written. The live heap is measured exactly (a forced
// garbage collection, then HeapAlloc) every 16 batches and at every write
// to the destination after the first stripe, which covers each stripe's
// fullest moment (just before and while it is written out); all heap
// objects are sampled every 2 ms in the background.
func peakHeap(t *testing.T, rows int, stripe int64) (live, alloc uint64, largest int64, elapsed time.Duration) {
	gen := newLineitemGen(2)
	batch := orc.NewBatch(orc.MustParseSchema(lineitemSchema), 1024)
	gen.fill(batch, 1024)
	out := newTailKeeper()
	liveNow := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := liveNow()
	var maxLive uint64
	measure := func() {
		if l := liveNow(); l > maxLive {
			maxLive = l
		}
	}
	out.onWrite = func() {
		if out.n > 1<<20 { // stripes are being written
			measure()
		}
	}
	var maxAlloc atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > maxAlloc.Load() {
					maxAlloc.Store(v)
				}
			}
		}
	}()
	start := time.Now()
	w, err := writer.NewWriter(out, batch.Schema, writer.WithStripeSize(stripe))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < rows; n += 1024 {
		gen.fill(batch, 1024) // fresh values: cycling a few batches would compress unrealistically well
		if err := w.Write(batch); err != nil {
			t.Fatal(err)
		}
		if n%(16*1024) == 0 {
			measure()
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	elapsed = time.Since(start)
	close(stop)
	wg.Wait()
	runtime.KeepAlive(w)
	if maxLive > base {
		live = maxLive - base
	}
	if m := maxAlloc.Load(); m > base {
		alloc = m - base
	}
	out.onWrite = nil
	tail, err := format.ReadTail(out, out.n, format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tail.Footer.GetStripes() {
		largest = max(largest, int64(s.GetIndexLength()+s.GetDataLength()+s.GetFooterLength()))
	}
	return live, alloc, largest, elapsed
}

// TestPeakHeap writes lineitem rows with 16 MiB and 64 MiB stripes, each at
// two row counts (several stripes) to show that the peak does not grow with
// the file, and reports the peak live heap against the stripe size. It runs
// only with ORC_PEAK_HEAP=1, outside -short, and takes a minute or so.
func TestPeakHeap(t *testing.T) {
	if testing.Short() || os.Getenv("ORC_PEAK_HEAP") == "" {
		t.Skip("set ORC_PEAK_HEAP=1 to write 10M+ rows and measure the peak heap")
	}
	for _, c := range []struct {
		stripe int64
		rows   []int
	}{{16 << 20, []int{5_000_000, 10_000_000}}, {64 << 20, []int{10_000_000, 25_000_000}}} {
		for _, rows := range c.rows {
			peak, alloc, largest, el := peakHeap(t, rows, c.stripe)
			t.Logf("stripe size %2d MiB, %8d rows: largest stripe %5.1f MiB, peak live heap %6.1f MiB = %.2f x stripe size, "+
				"%.2f x largest stripe (all heap objects incl. garbage %6.1f MiB), %.0f rows/s incl. measuring",
				c.stripe>>20, rows, float64(largest)/(1<<20), float64(peak)/(1<<20), float64(peak)/float64(c.stripe),
				float64(peak)/float64(largest), float64(alloc)/(1<<20), float64(rows)/el.Seconds())
			if c.stripe == 64<<20 && float64(peak) > 1.5*float64(c.stripe) {
				t.Errorf("peak live heap %.2f x the default stripe size, target 1.5", float64(peak)/float64(c.stripe))
			}
		}
	}
}
