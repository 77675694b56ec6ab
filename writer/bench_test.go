package writer_test

// Benchmarks: a TPC-H lineitem-like stream of 16 columns (integers,
// decimals, dates, a timestamp, strings of low and high cardinality), and a
// wide table of 200 columns of the same kinds plus doubles and booleans.
//
//	go test ./writer -run '^$' -bench 'Lineitem|Wide' -cpu 1
//	ORC_PEAK_HEAP=1 go test ./writer -run TestPeakHeap -v -timeout 120m
//	ORC_PEAK_HEAP=1 go test ./writer -run TestPeakHeap/wide -v -timeout 120m
//
// The benchmarks report rows/s next to MB/s (of raw values) and
// allocations, and rows per CPU second (all threads, garbage collection
// included), which is the one-core figure on a busy machine; TestPeakHeap
// writes 10 million rows and more and reports the peak heap against the
// stripe size (13 to 25 minutes on a busy 2-core machine, most of it for the
// wide table).

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
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
		for _, rows := range []int{1024, 4096} {
			for _, par := range []int{1, 2} {
				b.Run(fmt.Sprintf("%v/batch=%d/parallel=%d", codec, rows, par), func(b *testing.B) {
					benchWriteLineitem(b, codec, rows, par)
				})
			}
		}
	}
}

func benchWriteLineitem(b *testing.B, codec orc.CompressionKind, rowsPerBatch, par int) {
	batches, raw := lineitemBatches(64*1024/rowsPerBatch, rowsPerBatch, 1)
	benchWrite(b, batches, raw, writer.WithCompression(codec), writer.WithParallelism(par))
}

// benchWrite writes batches over and over, one per iteration, with the
// options; bytes is what one batch counts for MB/s. Besides ns/op it reports
// rows/s and rows per CPU second (all goroutines' CPU time).
func benchWrite(b *testing.B, batches []*orc.Batch, bytes int64, opts ...writer.Option) {
	rowsPerBatch := float64(batches[0].NumRows)
	b.SetBytes(bytes)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	w, err := writer.NewWriter(io.Discard, batches[0].Schema, opts...)
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
}

// BenchmarkWriteWide writes the 200-column table (see newWideGen) with the
// default options, cycling 8 batches of 1,024 rows. It reports rows/s and
// rows per CPU second like BenchmarkWriteLineitem; MB/s is of raw values (8
// bytes per integer, double and date, 16 per decimal, 12 per timestamp, 1
// per boolean, and the bytes of the strings).
func BenchmarkWriteWide(b *testing.B) {
	const rowsPerBatch = 1024
	gen := newWideGen(5)
	var batches []*orc.Batch
	var raw int64
	for range 8 {
		batch := orc.NewBatch(gen.schema, rowsPerBatch)
		gen.fill(batch, rowsPerBatch)
		raw += wideRawBytes(gen, batch)
		batches = append(batches, batch)
	}
	benchWrite(b, batches, raw/int64(len(batches)))
}

// wideRawBytes returns the raw size of a wide batch's values (see
// BenchmarkWriteWide).
func wideRawBytes(g *wideGen, b *orc.Batch) int64 {
	var n int64
	for j, c := range g.cols {
		switch v := b.Cols[j].(type) {
		case *orc.BytesVector:
			n += int64(len(v.Data))
		case *orc.DecimalVector:
			n += 16 * int64(len(v.Values))
		case *orc.TimestampVector:
			n += 12 * int64(len(v.Seconds))
		case *orc.LongVector:
			if c.kind == wideBool {
				n += int64(len(v.Values))
			} else {
				n += 8 * int64(len(v.Values))
			}
		case *orc.DoubleVector:
			n += 8 * int64(len(v.Values))
		}
	}
	return n
}

// tailKeeper is an io.Writer that keeps only the last 4 MiB written (in a
// buffer allocated once) and serves them through ReadAt, enough to read a
// big file's tail without holding the file. (The tail of 20 million rows of
// the 200-column table, with the statistics of each of its 300 stripes, is
// some 1.3 MB.)
type tailKeeper struct {
	mu      sync.Mutex // n and buf: a parallel writer writes stripes from a goroutine of its own
	n       int64      // bytes written
	buf     []byte
	onWrite func()        // called at each write, if set
	delay   time.Duration // each write takes this much longer: a slow destination
}

const tailKeep = 4 << 20

func newTailKeeper() *tailKeeper { return &tailKeeper{buf: make([]byte, 0, 2*tailKeep)} }

func (k *tailKeeper) Write(p []byte) (int, error) {
	if k.onWrite != nil {
		k.onWrite()
	}
	if k.delay > 0 {
		time.Sleep(k.delay)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
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

// size returns the bytes written.
func (k *tailKeeper) size() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.n
}

func (k *tailKeeper) ReadAt(p []byte, off int64) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	start := k.n - int64(len(k.buf))
	if off < start || off+int64(len(p)) > k.n {
		return 0, fmt.Errorf("tailKeeper: [%d, %d) not kept", off, off+int64(len(p)))
	}
	return copy(p, k.buf[off-start:]), nil
}

// The wide table: 200 columns in the mix of a denormalised fact table.
// Each column has its own generator; values are drawn afresh for every
// batch, so nothing repeats across batches the way a cycled set of batches
// would, and the integer and floating-point columns carry as much entropy
// as their ranges allow.

// wideKind is the kind of values a wide column holds.
type wideKind int

const (
	wideSeq      wideKind = iota // bigint: increasing ids with small random gaps
	wideBig                      // bigint: uniform in [0, span)
	wideInt                      // int: uniform in [0, span)
	wideDouble                   // double: random measurements
	widePrice                    // double: prices rounded to cents
	wideDecimal                  // decimal(12,2): amounts up to span cents
	wideDecimal4                 // decimal(18,4): rates
	wideDate                     // date: days in a 30-year range
	wideTime                     // timestamp: seconds in a 30-year range, millisecond nanos
	wideDict                     // string: one of card values (dictionary encoded)
	wideHex                      // string: a random 64-bit id in hex (high cardinality)
	wideText                     // string: 2 to 12 words (high cardinality)
	wideBool                     // boolean: true with probability span/100
)

// wideCol describes one column of the wide table.
type wideCol struct {
	kind  wideKind
	span  int64    // range of values (see wideKind)
	nulls int      // percent of rows that are null
	keys  []string // wideDict: the values
	seq   int64    // wideSeq: the last id
}

// wideGen makes rows of the wide table.
type wideGen struct {
	r      *rand.Rand
	schema *orc.Schema
	cols   []wideCol
}

// newWideGen returns a generator of the 200-column table: 30 bigint (10 of
// them increasing ids), 30 int, 30 double (10 of them prices), 20 decimal,
// 10 date, 10 timestamp, 40 low-cardinality strings (3 to 5,000 distinct
// values), 20 high-cardinality strings (hex ids and free text) and 10
// booleans. A quarter of the columns have 1% to 20% nulls.
func newWideGen(seed uint64) *wideGen {
	g := &wideGen{r: rand.New(rand.NewPCG(seed, 2))}
	r := g.r
	var fields []string
	add := func(name, typ string, c wideCol) {
		if len(g.cols)%4 == 3 {
			c.nulls = 1 + r.IntN(20)
		}
		g.cols = append(g.cols, c)
		fields = append(fields, fmt.Sprintf("%s_%d:%s", name, len(g.cols), typ))
	}
	for i := 0; i < 10; i++ {
		add("id", "bigint", wideCol{kind: wideSeq, span: 1 + int64(r.IntN(10))})
	}
	for i := 0; i < 20; i++ {
		add("big", "bigint", wideCol{kind: wideBig, span: int64(1) << (16 + r.IntN(47))})
	}
	for i := 0; i < 30; i++ {
		add("int", "int", wideCol{kind: wideInt, span: int64(1) << (4 + r.IntN(27))})
	}
	for i := 0; i < 20; i++ {
		add("dbl", "double", wideCol{kind: wideDouble})
	}
	for i := 0; i < 10; i++ {
		add("price", "double", wideCol{kind: widePrice, span: int64(1) << (10 + r.IntN(20))})
	}
	for i := 0; i < 15; i++ {
		add("amount", "decimal(12,2)", wideCol{kind: wideDecimal, span: int64(1) << (8 + r.IntN(30))})
	}
	for i := 0; i < 5; i++ {
		add("rate", "decimal(18,4)", wideCol{kind: wideDecimal4})
	}
	for i := 0; i < 10; i++ {
		add("day", "date", wideCol{kind: wideDate})
	}
	for i := 0; i < 10; i++ {
		add("ts", "timestamp", wideCol{kind: wideTime})
	}
	for i := 0; i < 40; i++ {
		card := []int{3, 7, 20, 50, 200, 1000, 5000}[i%7]
		c := wideCol{kind: wideDict, keys: make([]string, card)}
		for k := range c.keys {
			c.keys[k] = fmt.Sprintf("%s-%s-%d", words[r.IntN(len(words))], words[r.IntN(len(words))], k)
		}
		add("cat", "string", c)
	}
	for i := 0; i < 10; i++ {
		add("uid", "string", wideCol{kind: wideHex})
	}
	for i := 0; i < 10; i++ {
		add("note", "string", wideCol{kind: wideText})
	}
	for i := 0; i < 10; i++ {
		add("flag", "boolean", wideCol{kind: wideBool, span: int64(1 + r.IntN(99))})
	}
	g.schema = orc.MustParseSchema("struct<" + strings.Join(fields, ",") + ">")
	return g
}

// fill resets b and fills it with n new rows, reusing its buffers.
func (g *wideGen) fill(b *orc.Batch, n int) {
	b.Reset()
	r := g.r
	for j := range g.cols {
		c := &g.cols[j]
		var nulls *orc.Nulls
		switch v := b.Cols[j].(type) {
		case *orc.LongVector:
			nulls = &v.Nulls
			for i := 0; i < n; i++ {
				var x int64
				switch c.kind {
				case wideSeq:
					c.seq += 1 + r.Int64N(c.span)
					x = c.seq
				case wideBig, wideInt:
					x = r.Int64N(c.span)
				case wideDate:
					x = 5000 + r.Int64N(11000)
				case wideBool:
					if r.Int64N(100) < c.span {
						x = 1
					}
				}
				v.Values = append(v.Values, x)
			}
		case *orc.DoubleVector:
			nulls = &v.Nulls
			for i := 0; i < n; i++ {
				if c.kind == widePrice {
					v.Values = append(v.Values, float64(r.Int64N(c.span))/100)
				} else {
					v.Values = append(v.Values, r.NormFloat64()*1000)
				}
			}
		case *orc.DecimalVector:
			nulls = &v.Nulls
			for i := 0; i < n; i++ {
				if c.kind == wideDecimal {
					v.Values = append(v.Values, orc.Int128FromInt64(r.Int64N(c.span)))
				} else {
					v.Values = append(v.Values, orc.Int128FromInt64(r.Int64N(2_000_000)-1_000_000))
				}
			}
		case *orc.TimestampVector:
			nulls = &v.Nulls
			for i := 0; i < n; i++ {
				v.Seconds = append(v.Seconds, 432_000_000+r.Int64N(946_080_000))
				v.Nanos = append(v.Nanos, int32(r.IntN(1000))*1_000_000)
			}
		case *orc.BytesVector:
			nulls = &v.Nulls
			v.Offsets = append(v.Offsets, 0)
			for i := 0; i < n; i++ {
				switch c.kind {
				case wideDict:
					k := r.IntN(len(c.keys))
					if r.IntN(2) == 0 {
						k /= 4 // skewed: the first quarter of the keys is more frequent
					}
					v.Data = append(v.Data, c.keys[k]...)
				case wideHex:
					v.Data = append(v.Data, "u-"...)
					v.Data = strconv.AppendUint(v.Data, r.Uint64(), 16)
				case wideText:
					for w, m := 0, 2+r.IntN(11); w < m; w++ {
						if w > 0 {
							v.Data = append(v.Data, ' ')
						}
						v.Data = append(v.Data, words[r.IntN(len(words))]...)
					}
				}
				v.Offsets = append(v.Offsets, len(v.Data))
			}
		}
		if c.nulls > 0 {
			nulls.Nulls = nulls.Nulls[:0]
			for i := 0; i < n; i++ {
				nulls.Nulls = append(nulls.Nulls, r.IntN(100) < c.nulls)
			}
		}
	}
	b.NumRows = n
}

// heapRun is what peakHeap measured.
type heapRun struct {
	live    uint64        // peak live heap, batch included, above the heap before the batch existed
	at      string        // when the peak was measured
	alloc   uint64        // peak of all heap objects, garbage included, on the same base
	batch   int64         // bytes held by the batch's vectors (Batch.CapacityBytes)
	largest int64         // largest stripe written, in bytes
	stripes int           // stripes written
	elapsed time.Duration // writing time, measuring included
}

// peakHeap writes rows rows of schema s, filled 1,024 at a time by fill,
// with the given stripe size and otherwise default options. The live heap
// is measured exactly (a forced garbage collection, then HeapAlloc) every
// 16 batches, at the first write to the destination within each Write or
// Close call (a stripe is then fully encoded and about to be written: its
// fullest moment) and after every further 4 MiB written; all heap objects
// are sampled every 2 ms in the background. The base is the heap before the
// batch is allocated, so the peak counts the batch as well as the writer.
// Each write to the destination takes delay longer, as to a slow network
// destination, when delay is positive.
func peakHeap(t *testing.T, s *orc.Schema, fill func(*orc.Batch, int), rows int, stripe int64, delay time.Duration, opts ...writer.Option) heapRun {
	liveNow := liveHeap
	var run heapRun
	out := newTailKeeper() // before the base: the test's, not the writer's
	out.delay = delay
	base := liveNow()
	batch := orc.NewBatch(s, 1024)
	fill(batch, 1024)
	run.batch = batch.CapacityBytes()
	// With WithParallelism the writer writes stripes from a goroutine of
	// its own, so onWrite and the loop below share these under mu.
	var mu sync.Mutex
	var maxLive uint64
	rowsIn := 0
	measure := func(at string) {
		if l := liveNow(); l > maxLive {
			maxLive = l
			run.at = fmt.Sprintf("%s, %d rows in, %d MiB out", at, rowsIn, out.size()>>20)
		}
	}
	armed, last := false, int64(0)
	out.onWrite = func() {
		mu.Lock()
		defer mu.Unlock()
		if n := out.size(); armed || n-last >= 4<<20 {
			measure("writing a stripe")
			armed, last = false, n
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
	w, err := writer.NewWriter(out, s, append([]writer.Option{writer.WithStripeSize(stripe)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < rows; n += 1024 {
		fill(batch, 1024) // fresh values: cycling a few batches would compress unrealistically well
		mu.Lock()
		armed = true
		mu.Unlock()
		if err := w.Write(batch); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		rowsIn += 1024
		if n%(16*1024) == 0 {
			measure("between batches")
		}
		mu.Unlock()
	}
	mu.Lock()
	armed = true
	mu.Unlock()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	run.elapsed = time.Since(start)
	close(stop)
	wg.Wait()
	runtime.KeepAlive(w)
	runtime.KeepAlive(batch)
	if maxLive > base {
		run.live = maxLive - base
	}
	if m := maxAlloc.Load(); m > base {
		run.alloc = m - base
	}
	out.onWrite = nil
	tail, err := format.ReadTail(out, out.n, format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tail.Footer.GetNumberOfRows(); got != uint64((rows+1023)/1024*1024) {
		t.Fatalf("file has %d rows, wrote %d", got, (rows+1023)/1024*1024)
	}
	run.stripes = len(tail.Footer.GetStripes())
	for _, s := range tail.Footer.GetStripes() {
		run.largest = max(run.largest, int64(s.GetIndexLength()+s.GetDataLength()+s.GetFooterLength()))
	}
	return run
}

// logHeapRun reports a run against the stripe size and checks the target:
// peak live heap <= 1.5 x stripe size + one batch, at the default stripe
// size.
func logHeapRun(t *testing.T, name string, rows int, stripe int64, run heapRun) {
	t.Helper()
	mib := func(n float64) float64 { return n / (1 << 20) }
	limit := 1.5*float64(stripe) + float64(run.batch)
	t.Logf("%s, stripe size %2d MiB, %8d rows: %3d stripes, largest %5.1f MiB; batch %4.2f MiB; "+
		"peak live heap %6.1f MiB = %.2f x stripe size (target 1.5 x stripe + batch = %5.1f MiB), %.2f x largest stripe; "+
		"all heap objects incl. garbage %6.1f MiB; %.0f rows/s incl. measuring; peak %s",
		name, stripe>>20, rows, run.stripes, mib(float64(run.largest)), mib(float64(run.batch)),
		mib(float64(run.live)), float64(run.live)/float64(stripe), mib(limit), float64(run.live)/float64(run.largest),
		mib(float64(run.alloc)), float64(rows)/run.elapsed.Seconds(), run.at)
	if stripe == 64<<20 && float64(run.live) > limit {
		t.Errorf("%s: peak live heap %.1f MiB over the target 1.5 x the default stripe size + one batch = %.1f MiB",
			name, mib(float64(run.live)), mib(limit))
	}
}

// TestPeakHeap writes lineitem rows (16 columns) with 16 MiB and 64 MiB
// stripes and rows of a 200-column table with the default 64 MiB stripes,
// each at two row counts (many stripes) to show that the peak does not grow
// with the file, and reports the peak live heap against the stripe size.
// At the default stripe size the peak must stay at or under 1.5 x the
// stripe size plus one batch. It runs only with ORC_PEAK_HEAP=1, outside
// -short, and takes many minutes.
func TestPeakHeap(t *testing.T) {
	if testing.Short() || os.Getenv("ORC_PEAK_HEAP") == "" {
		t.Skip("set ORC_PEAK_HEAP=1 to write 10M+ rows and measure the peak heap")
	}
	for _, c := range []struct {
		stripe int64
		rows   []int
	}{{16 << 20, []int{5_000_000, 10_000_000}}, {64 << 20, []int{10_000_000, 25_000_000}}} {
		for _, rows := range c.rows {
			t.Run(fmt.Sprintf("lineitem/%dMiB/%d", c.stripe>>20, rows), func(t *testing.T) {
				gen := newLineitemGen(2)
				run := peakHeap(t, orc.MustParseSchema(lineitemSchema), func(b *orc.Batch, n int) { gen.fill(b, n) }, rows, c.stripe, 0)
				logHeapRun(t, "lineitem (16 columns)", rows, c.stripe, run)
			})
		}
	}
	for _, rows := range []int{10_000_000, 20_000_000} {
		t.Run(fmt.Sprintf("wide/64MiB/%d", rows), func(t *testing.T) {
			gen := newWideGen(3)
			run := peakHeap(t, gen.schema, gen.fill, rows, 64<<20, 0)
			logHeapRun(t, "wide (200 columns)", rows, 64<<20, run)
		})
	}
}

// TestDefaultBlockSize checks the compression block size chosen for
// schemas of different widths and stripe sizes, and that an explicit
// WithCompressionBlockSize is kept.
func TestDefaultBlockSize(t *testing.T) {
	wide := newWideGen(1).schema
	for _, c := range []struct {
		name   string
		schema *orc.Schema
		opts   []writer.Option
		want   int
	}{
		{"lineitem", orc.MustParseSchema(lineitemSchema), nil, 256 << 10}, // 64 MiB / (20 x 17) = 197 KiB
		{"lineitem 16 MiB stripes", orc.MustParseSchema(lineitemSchema), []writer.Option{writer.WithStripeSize(16 << 20)}, 64 << 10},
		{"one column", orc.MustParseSchema("bigint"), nil, 256 << 10},
		{"wide", wide, nil, 32 << 10}, // 64 MiB / (20 x 201) = 16.3 KiB
		{"wide 1 GiB stripes", wide, []writer.Option{writer.WithStripeSize(1 << 30)}, 256 << 10},
		{"wide 64 KiB stripes", wide, []writer.Option{writer.WithStripeSize(64 << 10)}, 4 << 10},
		{"wide explicit", wide, []writer.Option{writer.WithCompressionBlockSize(100 << 10)}, 100 << 10},
	} {
		out := newTailKeeper()
		w, err := writer.NewWriter(out, c.schema, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tail, err := format.ReadTail(out, out.n, format.TailOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if tail.BlockSize != c.want {
			t.Errorf("%s: block size %d, want %d", c.name, tail.BlockSize, c.want)
		}
	}
}

// TestSmallStripes writes with stripe sizes that the chunk buffers,
// counted towards the stripe size, take much of: lineitem's 17 columns
// with 4 MiB stripes and the default (16 KiB) blocks, where each stripe's
// data gets what the buffers leave, and the 200-column table with 8 MiB
// stripes and 64 KiB blocks, whose buffers (some 50 MiB) alone exceed the
// stripe size: its stripes must still get half the stripe size of data
// rather than one batch each. (In the 200-column table's first row group
// the dictionaries tried for its 60 string columns hold some 2.5 KiB a
// row, more than the row takes on disk, so its small stripes are small.)
func TestSmallStripes(t *testing.T) {
	wide := newWideGen(4)
	item := newLineitemGen(4)
	for _, c := range []struct {
		name    string
		schema  *orc.Schema
		fill    func(*orc.Batch, int)
		rows    int
		stripe  uint64
		block   int
		minSize float64 // least size of a stripe but the last, as a fraction of the stripe size
		minRows uint64  // least rows of a stripe but the last
	}{
		// Stored chunks are counted as allocated, up to a quarter more
		// than their size: 0.4 rather than 0.5.
		{"lineitem, default blocks", orc.MustParseSchema(lineitemSchema), func(b *orc.Batch, n int) { item.fill(b, n) },
			400_000, 4 << 20, 0, 0.4, 0},
		{"wide, 64 KiB blocks", wide.schema, wide.fill, 8_192, 8 << 20, 64 << 10, 0, 2048},
	} {
		stripe := c.stripe
		opts := []writer.Option{writer.WithStripeSize(int64(stripe))}
		if c.block > 0 {
			opts = append(opts, writer.WithCompressionBlockSize(c.block))
		}
		out := newTailKeeper()
		w, err := writer.NewWriter(out, c.schema, opts...)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(c.schema, 1024)
		for n := 0; n < c.rows; n += 1024 {
			c.fill(b, min(1024, c.rows-n))
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tail, err := format.ReadTail(out, out.n, format.TailOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stripes := tail.Footer.GetStripes()
		if len(stripes) < 3 {
			t.Fatalf("%s: %d stripes, want several", c.name, len(stripes))
		}
		var total uint64
		for i, s := range stripes {
			total += s.GetNumberOfRows()
			size := s.GetIndexLength() + s.GetDataLength() + s.GetFooterLength()
			if i < len(stripes)-1 && (float64(size) < c.minSize*float64(stripe) || size > stripe || s.GetNumberOfRows() < c.minRows) {
				t.Errorf("%s: stripe %d of %d has %d bytes and %d rows, want %.0f to %d bytes and %d rows or more",
					c.name, i, len(stripes), size, s.GetNumberOfRows(), c.minSize*float64(stripe), stripe, c.minRows)
			}
		}
		if total != uint64(c.rows) {
			t.Errorf("%s: %d rows in the stripes, wrote %d", c.name, total, c.rows)
		}
	}
}
