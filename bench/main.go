// Command bench compares orcgo with the two Go Parquet libraries,
// github.com/parquet-go/parquet-go and github.com/apache/arrow-go/v18
// (parquet), on one TPC-H lineitem-like table.
//
// It writes the same generated rows with each library and codec, runs six
// queries on every file (serially, and with -parallel on several goroutines
// where the library allows), checks that every file gives the same rows, and
// prints a markdown table (or JSON) of file sizes, write times, heap peaks,
// query times, bytes and ReadAt calls, with each figure's ratio to orcgo at
// the same codec. All measurements run in one process with the libraries
// interleaved (A B C A B C ...), and the median of -runs runs is reported.
//
// Usage:
//
//	cd bench && go run . -sf 1
//	go run . -sf 0.1 -runs 5 -json > out.json
//	go run . -sf 0.2 -libs orcgo,parquet-go -codecs zstd -parallel 1,2
//	go run . -sf 0.1 -cpuprofile cpu.out -profile orcgo/zstd:Q1
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"
)

// tableWriter writes chunks of the table to one file.
type tableWriter interface {
	Write(c *Chunk) error
	Close() error // writes the tail; does not close the destination
}

type writeConfig struct {
	batch        int   // rows per chunk
	rowGroupRows int64 // Parquet row group size in rows
	stripeSize   int64 // orcgo stripe size in bytes
}

// side is one library with one codec, reading on Par goroutines.
type side struct {
	Lib, Codec, Ext string
	Par             int          // goroutines a query reads on (1: serial)
	parallel        bool         // the side can read on more than one goroutine
	remote          remoteTarget // reads over HTTP or S3 from this server (nil: the local file)
	newWriter       func(out io.Writer, codec string, cfg writeConfig) (tableWriter, error)
	query           func(f *countingFile, q *Query, batch, par int) (QueryResult, error)
	columnSizes     func(path string) (ColumnSizes, error)
}

// Name labels the side in the reports: "parquet-go/zstd",
// "parquet-go/zstd x2" when it reads on two goroutines, and
// "parquet-go/zstd x2 http 20ms" when it reads over HTTP.
func (s *side) Name() string {
	n := s.Lib + "/" + s.Codec
	if s.Par > 1 {
		n += fmt.Sprintf(" x%d", s.Par)
	}
	if s.remote != nil {
		n += " " + s.remote.label()
	}
	return n
}

// allSides returns every library and codec, serial, in report order.
func allSides() []*side {
	var out []*side
	for _, codec := range []string{"zstd", "snappy", "none"} {
		out = append(out, &side{Lib: "orcgo", Codec: codec, Ext: "orc", Par: 1, parallel: true,
			newWriter: newOrcWriter, query: queryOrc, columnSizes: orcColumnSizes})
		if codec == "none" {
			continue
		}
		out = append(out,
			&side{Lib: "parquet-go", Codec: codec, Ext: "parquet", Par: 1, parallel: true,
				newWriter: newPqgoWriter, query: queryPqgo, columnSizes: pqgoColumnSizes},
			&side{Lib: "arrow-go", Codec: codec, Ext: "parquet", Par: 1,
				newWriter: newArrowWriter, query: queryArrow, columnSizes: arrowColumnSizes})
	}
	return out
}

// readSides returns the sides the queries run on: for each file (files in
// allSides order), one side per parallelism of par, or at orcPar only for
// orcgo when that is set. A library that cannot read in parallel runs once,
// serially, among the sides of the first parallelism listed. Within a codec
// the sides go by parallelism (in the order of par, then orcPar), then
// library.
func readSides(files []*side, par []int, orcPar int) []*side {
	if len(par) == 0 {
		par = []int{1}
	}
	levels := func(s *side) []int {
		switch {
		case !s.parallel:
			return []int{1}
		case s.Lib == "orcgo" && orcPar > 0:
			return []int{orcPar}
		}
		return par
	}
	// every parallelism a side runs at: those listed, then orcgo's own
	all := slices.Clone(par)
	if orcPar > 0 && !slices.Contains(all, orcPar) {
		all = append(all, orcPar)
	}
	var out []*side
	for i := 0; i < len(files); {
		j := i
		for j < len(files) && files[j].Codec == files[i].Codec {
			j++
		}
		for k, p := range all {
			for _, s := range files[i:j] {
				t := *s
				switch {
				case !s.parallel && k == 0:
					t.Par = 1
				case s.parallel && slices.Contains(levels(s), p):
					t.Par = p
				default:
					continue
				}
				out = append(out, &t)
			}
		}
		i = j
	}
	return out
}

// parseParallel parses a -parallel list such as "1,2".
func parseParallel(flagName, list string) ([]int, error) {
	var out []int
	for _, x := range strings.Split(list, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		n, err := strconv.Atoi(x)
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("-%s %q: want goroutine counts 1..64 separated by commas", flagName, list)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-%s %q: empty", flagName, list)
	}
	return out, nil
}

// writePars returns the writer goroutine counts side s writes with: the
// list for orcgo (flag -orc-write-parallel), one write for the others.
func writePars(s *side, list []int) []int {
	if s.Lib != "orcgo" || len(list) == 0 {
		return []int{1}
	}
	return list
}

// writeName labels a write in the reports: the side's name, and
// "orcgo/zstd w2" for a write on two goroutines.
func writeName(s *side, par int) string {
	if par > 1 {
		return fmt.Sprintf("%s w%d", s.Name(), par)
	}
	return s.Name()
}

type options struct {
	table       string
	columns     bool
	sf          float64
	rows        int64
	runs        int
	dir         string
	keep        bool
	batch       int
	rgRows      int64
	stripeSize  int64
	seed        uint64
	json        bool
	jsonFile    string
	libs        string
	codecs      string
	queries     string
	cpuprofile  string
	heapprofile string
	profile     string
	quiet       bool
	liveHeap    bool
	parallel    []int           // goroutines each query reads on, one report row per entry (nil: 1)
	orcPar      int             // orcgo's only parallelism, overriding parallel (0: follow parallel)
	writePar    []int           // goroutines the orcgo writer runs on, one write row per entry
	httpLatency []time.Duration // first-byte latencies of the HTTP row sets (nil: local files only)
	httpBW      int64           // the range server's bytes per second per connection (0: uncapped)
	s3Latency   []time.Duration // latencies of the S3 row sets (nil: none)
}

func main() {
	var o options
	flag.StringVar(&o.table, "table", tableDecimal, "table: lineitem (money columns decimal(15,2)) or lineitem-double (money columns DOUBLE)")
	flag.BoolVar(&o.columns, "columns", false, "also report each file's compressed size per column")
	flag.Float64Var(&o.sf, "sf", 1, "scale factor: SF 1 = 6,000,000 rows; fractions allowed")
	flag.Int64Var(&o.rows, "rows", 0, "row count (overrides -sf)")
	flag.IntVar(&o.runs, "runs", 3, "runs per measurement; the median is reported")
	flag.StringVar(&o.dir, "dir", "", "directory for the files (default: a new temp dir, removed at the end)")
	flag.BoolVar(&o.keep, "keep", false, "keep the files")
	flag.BoolVar(&o.liveHeap, "live-heap", false, "after the timed runs, run each local query once more with a collection forced every 2 ms, and report the most it found live (peak heap counts garbage, so it moves with when the collector runs; this does not)")
	flag.IntVar(&o.batch, "batch", 4096, "rows per batch, writing and reading")
	flag.Int64Var(&o.rgRows, "rg-rows", 0, "Parquet rows per row group (0: orcgo's rows per stripe)")
	flag.Int64Var(&o.stripeSize, "stripe-size", 64<<20, "orcgo stripe size in bytes")
	flag.Uint64Var(&o.seed, "seed", 20240601, "generator seed")
	flag.BoolVar(&o.json, "json", false, "print JSON instead of markdown")
	flag.StringVar(&o.jsonFile, "json-file", "", "also write the JSON report to this file")
	flag.StringVar(&o.libs, "libs", "", "comma-separated libraries to run (orcgo,parquet-go,arrow-go; default all)")
	flag.StringVar(&o.codecs, "codecs", "", "comma-separated codecs to run (zstd,snappy,none; default all)")
	flag.StringVar(&o.queries, "queries", "", "comma-separated queries to run (Q1..Q6; default all)")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the -profile measurement to this file")
	flag.StringVar(&o.heapprofile, "heapprofile", "", "with -profile LIB/CODEC:write, write a heap profile of what was live when the write's heap grew highest to this file")
	flag.StringVar(&o.profile, "profile", "", "what -cpuprofile profiles: LIB/CODEC:write or LIB/CODEC:Qn (e.g. orcgo/zstd:Q1)")
	flag.BoolVar(&o.quiet, "q", false, "no progress on stderr")
	flag.BoolVar(&orcUseSarg, "orc-sarg", true, "pass predicates to the orcgo reader (search argument + exact filter)")
	writeList := flag.String("orc-write-parallel", "1", "comma-separated goroutine counts the orcgo writer encodes and compresses columns on (writer.WithParallelism), one write row each, interleaved in every run (the files are the same bytes; the queries, and -profile's write, use the last); 1 matches the single-threaded Parquet writers")
	flag.IntVar(&orcBlockSize, "orc-block-size", 0, "orcgo compression block size in bytes (writer.WithCompressionBlockSize; 0: the writer's default)")
	flag.IntVar(&orcLevel, "orc-level", 0, "orcgo codec level (writer.WithCompressionLevel; 0: the codec's default)")
	flag.IntVar(&zstdLevel, "zstd-level", 0, "ZSTD level for orcgo and parquet-go alike (1..22, as libzstd numbers them; 0: each library's default, level 3 for both)")
	flag.IntVar(&orcColumns, "orc-columns", 1, "goroutines the orcgo reader decodes a batch's columns on (reader.WithColumnParallelism); 1 matches the single-threaded Parquet readers")
	flag.Int64Var(&orcWindow, "orc-window", 0, "bytes of a stream the orcgo reader fetches at a time (reader.WithReadWindow); 0 keeps its default (256 KiB)")
	flag.IntVar(&o.orcPar, "orc-parallel", 0, "run orcgo's queries only with reader.WithParallelism(N), whatever -parallel lists (0: follow -parallel)")
	parList := flag.String("parallel", "1", "comma-separated goroutine counts to run every query at, one row each (orcgo: reader.WithParallelism(n); parquet-go: n goroutines reading whole row groups; arrow-go: serial only)")
	latList := flag.String("http-latency", "", "comma-separated first-byte latencies (0,20ms,50ms): each runs every query again over HTTP, rows labelled \"http 20ms\", from a range server on 127.0.0.1 that waits this long before each response; empty: local files only")
	bwFlag := flag.String("http-bandwidth", "0", "the range server's cap on body bytes per second per connection (1GB, 100MiB, 5e8; 0: uncapped)")
	s3List := flag.String("s3-latency", "", "comma-separated latencies (0,20ms): each runs every query again on S3, rows labelled \"s3 20ms\": the files uploaded to versitygw ($ORCGO_VERSITYGW or on PATH) on 127.0.0.1, read through orccloud and a proxy that holds each request this long; empty: no S3 rows")
	flag.Parse()
	par, err := parseParallel("parallel", *parList)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if o.httpLatency, err = parseLatencies(*latList); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if o.s3Latency, err = parseLatencyFlag("s3-latency", *s3List); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if o.httpBW, err = parseBandwidth(*bwFlag); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	o.parallel = par
	if o.writePar, err = parseParallel("orc-write-parallel", *writeList); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if o.rows == 0 {
		o.rows = rowsForSF(o.sf)
	} else {
		o.sf = float64(o.rows) / 6_000_000
	}
	rep, err := run(o, os.Stderr)
	if rep != nil {
		if o.jsonFile != "" {
			if e := writeJSONFile(o.jsonFile, rep); e != nil && err == nil {
				err = e
			}
		}
		if o.json {
			if e := writeJSON(os.Stdout, rep); e != nil && err == nil {
				err = e
			}
		} else {
			writeMarkdown(os.Stdout, rep)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func writeJSONFile(path string, rep *Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeJSON(f, rep); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func pick(list string, v string) bool {
	if list == "" {
		return true
	}
	for _, x := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(x), v) {
			return true
		}
	}
	return false
}

// run measures everything and returns the report. A non-nil error with a
// non-nil report means the measurements ran but the sides disagreed.
func run(o options, log io.Writer) (*Report, error) {
	if o.runs < 1 || o.batch < 1 || o.rows < 1 {
		return nil, errors.New("-runs, -batch and the row count must be positive")
	}
	if o.quiet {
		log = io.Discard
	}
	if o.table == "" {
		o.table = tableDecimal
	}
	if err := setTable(o.table); err != nil {
		return nil, err
	}
	var sides []*side
	for _, s := range allSides() {
		if pick(o.libs, s.Lib) && pick(o.codecs, s.Codec) {
			sides = append(sides, s)
		}
	}
	if len(sides) == 0 {
		return nil, errors.New("no library/codec selected")
	}
	var queries []*Query
	for _, q := range makeQueries(o.rows, o.seed) {
		if pick(o.queries, q.ID) {
			queries = append(queries, q)
		}
	}
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "orcgo-bench-")
		if err != nil {
			return nil, err
		}
		dir = d
		if !o.keep {
			defer os.RemoveAll(d)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cfg := writeConfig{batch: o.batch, rowGroupRows: o.rgRows, stripeSize: o.stripeSize}
	path := func(s *side) string {
		return filepath.Join(dir, fmt.Sprintf("%s-%s-%s.%s", o.table, s.Lib, s.Codec, s.Ext))
	}

	rep := &Report{Table: o.table, SF: o.sf, Rows: o.rows, Runs: o.runs, Batch: o.batch, Seed: o.seed,
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), StripeSize: o.stripeSize}
	for _, q := range queries {
		rep.Queries = append(rep.Queries, QueryInfo{ID: q.ID, Desc: q.Desc})
	}

	// Writes: run r writes every file once, the libraries interleaved.
	wtimes := map[string][]float64{}
	wheap := map[string][]float64{}
	size := map[string]int64{}
	for r := range o.runs {
		for _, s := range sides {
			if s.Lib != "orcgo" && cfg.rowGroupRows == 0 {
				cfg.rowGroupRows = 1 << 19
				for _, t := range sides {
					if t.Lib == "orcgo" {
						if n, err := orcStripeRows(path(t)); err == nil {
							cfg.rowGroupRows = n
						}
						break
					}
				}
			}
			for _, wp := range writePars(s, o.writePar) {
				orcWriteParallel = wp
				name := writeName(s, wp)
				d, heap, n, err := measureWrite(s, path(s), o.rows, o.seed, cfg)
				if err != nil {
					return nil, fmt.Errorf("write %s: %w", name, err)
				}
				fmt.Fprintf(log, "write run %d %-21s %8.3fs %8.1f MiB heap %8.1f MiB\n", r+1, name, d.Seconds(), mib(n), mib(heap))
				wtimes[name] = append(wtimes[name], d.Seconds())
				wheap[name] = append(wheap[name], float64(heap))
				size[name] = n
			}
		}
	}
	if cfg.rowGroupRows == 0 {
		cfg.rowGroupRows = 1 << 19
	}
	rep.RowGroupRows = cfg.rowGroupRows
	for _, s := range sides {
		for _, wp := range writePars(s, o.writePar) {
			name := writeName(s, wp)
			t := median(wtimes[name])
			rep.Write = append(rep.Write, WriteResult{Side: name, Lib: s.Lib, Codec: s.Codec,
				Bytes: size[name], Seconds: t, RowsPerSec: float64(o.rows) / t,
				PeakHeap: int64(median(wheap[name])), Runs: wtimes[name]})
		}
	}

	if o.columns {
		for _, cd := range columns {
			rep.ColumnNames = append(rep.ColumnNames, cd.name)
		}
		for _, s := range sides {
			cs, err := s.columnSizes(path(s))
			if err != nil {
				return nil, fmt.Errorf("column sizes of %s: %w", s.Name(), err)
			}
			cs.Side = s.Name()
			rep.Columns = append(rep.Columns, cs)
		}
	}

	// Queries: run r runs each query on every file, the libraries (and
	// their parallel variants, then the same over HTTP and from S3 at each latency)
	// interleaved.
	readers := readSides(sides, o.parallel, o.orcPar)
	local := readers
	if len(o.httpLatency) > 0 && len(queries) > 0 {
		servers, err := startHTTP(dir, o.httpLatency, o.httpBW)
		if err != nil {
			return nil, err
		}
		defer func() {
			for _, srv := range servers {
				srv.Close()
			}
		}()
		rep.HTTPBandwidth = o.httpBW
		readers = append(readers, httpSides(local, servers)...)
	}
	if len(o.s3Latency) > 0 && len(queries) > 0 {
		var files []string
		for _, s := range sides {
			files = append(files, path(s))
		}
		gw, err := startS3Gateway(files, o.s3Latency, log)
		if err != nil {
			return nil, fmt.Errorf("-s3-latency: %w", err)
		}
		defer gw.Close()
		readers = append(readers, s3Sides(local, gw)...)
	}
	type key struct{ q, s string }
	rtimes := map[key][]float64{}
	rheap := map[key][]float64{}
	rconsume := map[key][]float64{}
	last := map[key]readMeasure{}
	var mismatch []string
	for r := range o.runs {
		for _, q := range queries {
			var ref *readMeasure
			var refSide string
			for _, s := range readers {
				m, err := measureQuery(s, path(s), q, o.batch)
				if err != nil {
					return nil, fmt.Errorf("%s on %s: %w", q.ID, s.Name(), err)
				}
				if s.remote != nil {
					fmt.Fprintf(log, "%s run %d %-21s %9.2fms matched %d served %.2f MiB in %d requests (%d calls)\n",
						q.ID, r+1, s.Name(), m.dur.Seconds()*1e3, m.res.Matched, mib(m.bytes), m.requests, m.calls)
				} else {
					fmt.Fprintf(log, "%s run %d %-21s %9.2fms matched %d read %.2f MiB in %d calls\n",
						q.ID, r+1, s.Name(), m.dur.Seconds()*1e3, m.res.Matched, mib(m.bytes), m.calls)
				}
				k := key{q.ID, s.Name()}
				rtimes[k] = append(rtimes[k], m.dur.Seconds())
				rheap[k] = append(rheap[k], float64(m.heap))
				rconsume[k] = append(rconsume[k], m.res.Consume.Seconds())
				last[k] = m
				if ref == nil {
					ref, refSide = &m, s.Name()
				} else if m.res.Matched != ref.res.Matched || m.res.Checksum != ref.res.Checksum {
					mismatch = append(mismatch, fmt.Sprintf("%s run %d: %s matched %d (checksum %x) but %s matched %d (checksum %x)",
						q.ID, r+1, s.Name(), m.res.Matched, m.res.Checksum, refSide, ref.res.Matched, ref.res.Checksum))
				}
			}
		}
	}
	live := map[key]int64{}
	if o.liveHeap {
		for _, q := range queries {
			for _, s := range readers {
				if s.remote != nil {
					continue
				}
				l := startLive(2 * time.Millisecond)
				_, err := measureQuery(s, path(s), q, o.batch)
				n := l.Stop()
				if err != nil {
					return nil, fmt.Errorf("%s on %s: %w", q.ID, s.Name(), err)
				}
				fmt.Fprintf(log, "%s live heap %-21s %.1f MiB\n", q.ID, s.Name(), mib(n))
				live[key{q.ID, s.Name()}] = n
			}
		}
	}
	for _, q := range queries {
		for _, s := range readers {
			k := key{q.ID, s.Name()}
			m := last[k]
			x := ReadResult{Query: q.ID, Side: s.Name(), Lib: s.Lib, Codec: s.Codec, Parallel: s.Par,
				Seconds: median(rtimes[k]), BytesRead: m.bytes, ReadCalls: m.calls,
				RowsDecoded: m.res.RowsDecoded, PeakHeap: int64(median(rheap[k])), LiveHeap: live[k],
				Matched: m.res.Matched, Checksum: fmt.Sprintf("%016x", m.res.Checksum), Runs: rtimes[k],
				ConsumeSeconds: median(rconsume[k])}
			if s.remote != nil {
				s.remote.record(&x, m)
			}
			rep.Read = append(rep.Read, x)
		}
	}

	if len(queries) > 0 {
		if err := measureDecompress(rep, sides, o.runs, path, log); err != nil {
			return nil, err
		}
	}

	if o.cpuprofile != "" {
		if err := profile(o, sides, readers, queries, cfg, path); err != nil {
			return rep, err
		}
	}
	if len(mismatch) > 0 {
		rep.Mismatches = mismatch
		return rep, fmt.Errorf("the files disagree:\n  %s", strings.Join(mismatch, "\n  "))
	}
	return rep, nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// measureDecompress adds the decompress-only limits of the compressed orcgo
// files to rep (runs passes each, interleaved, after a collection each),
// with the serial Q1, Q2, Q5 and Q6 times of rep as multiples of them. The NONE file
// has nothing to decompress and is left out.
func measureDecompress(rep *Report, sides []*side, runs int, path func(*side) string, log io.Writer) error {
	type key struct{ side, scope string }
	times := map[key][]float64{}
	reads := map[key][]float64{}
	last := map[key]decompMeasure{}
	for r := range runs {
		for _, s := range sides {
			if s.Lib != "orcgo" || s.Codec == "none" {
				continue
			}
			for _, sc := range decompScopes {
				runtime.GC()
				m, err := decompressOnly(path(s), sc.cols)
				if err != nil {
					return fmt.Errorf("decompress-only %s (%s): %w", s.Name(), sc.scope, err)
				}
				fmt.Fprintf(log, "decompress-only run %d %-21s %-12s %9.2fms %8.1f MiB -> %8.1f MiB in %d streams\n",
					r+1, s.Name(), sc.scope, m.dur.Seconds()*1e3, mib(m.stored), mib(m.decompressed), m.streams)
				k := key{s.Name(), sc.scope}
				times[k] = append(times[k], m.dur.Seconds())
				reads[k] = append(reads[k], m.read.Seconds())
				last[k] = m
			}
		}
	}
	for _, s := range sides {
		if s.Lib != "orcgo" || s.Codec == "none" {
			continue
		}
		for _, sc := range decompScopes {
			k := key{s.Name(), sc.scope}
			m := last[k]
			x := DecompressResult{Side: s.Name(), Codec: s.Codec, Scope: sc.scope, Query: sc.query,
				Streams: m.streams, StoredBytes: m.stored, DecompressedBytes: m.decompressed,
				Seconds: median(times[k]), ReadSeconds: median(reads[k]), Runs: times[k]}
			x.relate(rep.Read, s.Lib, sc.also)
			rep.Decompress = append(rep.Decompress, x)
		}
	}
	return nil
}

// measureWrite writes the table with s and returns the time spent in the
// library (generation excluded), the peak heap and the file size.
func measureWrite(s *side, path string, rows int64, seed uint64, cfg writeConfig) (time.Duration, int64, int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	gen := NewGenerator(rows, seed)
	var c Chunk
	h := startHeap(time.Millisecond)
	var busy time.Duration
	t := time.Now()
	tw, err := s.newWriter(bw, s.Codec, cfg)
	busy += time.Since(t)
	if err != nil {
		h.Stop()
		return 0, 0, 0, err
	}
	for gen.Next(&c, cfg.batch) {
		t = time.Now()
		err = tw.Write(&c)
		busy += time.Since(t)
		if err != nil {
			h.Stop()
			return 0, 0, 0, err
		}
	}
	t = time.Now()
	err = tw.Close()
	if err == nil {
		err = bw.Flush()
	}
	busy += time.Since(t)
	heap := h.Stop()
	if err != nil {
		return 0, 0, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, 0, 0, err
	}
	return busy, heap, st.Size(), nil
}

type readMeasure struct {
	dur          time.Duration
	heap         int64
	bytes, calls int64 // over HTTP: bytes the server sent, ReadAt calls
	requests     int64 // over HTTP: requests the server received
	res          QueryResult
}

// measureQuery runs q on the file of s: open, prune, decode, filter, on
// s.Par goroutines. The heap is sampled process-wide, so it counts what the
// reading goroutines allocate; every side's query returns only once its
// goroutines have ended. A side reading over HTTP reads path from its
// server (measureQueryHTTP).
func measureQuery(s *side, path string, q *Query, batch int) (readMeasure, error) {
	if s.remote != nil {
		return s.remote.measure(s, path, q, batch)
	}
	f, err := openCounting(path)
	if err != nil {
		return readMeasure{}, err
	}
	defer f.Close()
	h := startHeap(time.Millisecond)
	t := time.Now()
	res, err := s.query(f, q, batch, s.Par)
	d := time.Since(t)
	heap := h.Stop()
	if err != nil {
		return readMeasure{}, err
	}
	return readMeasure{dur: d, heap: heap, bytes: f.bytes.Load(), calls: f.calls.Load(), res: res}, nil
}

// profile runs the -profile measurement -runs more times under the CPU
// profiler, apart from the timed runs. Writes are looked up among sides,
// queries among readers (where "parquet-go/zstd x2" is a name).
func profile(o options, sides, readers []*side, queries []*Query, cfg writeConfig, path func(*side) string) error {
	name, what, ok := strings.Cut(o.profile, ":")
	if !ok {
		return fmt.Errorf("-profile %q: want LIB/CODEC:write or LIB/CODEC:Qn", o.profile)
	}
	among := readers
	if what == "write" {
		among = sides
	}
	i := slices.IndexFunc(among, func(s *side) bool { return s.Name() == name })
	if what == "write" {
		// A write row names its goroutine count ("orcgo/zstd w2").
		for j, s := range sides {
			for _, wp := range writePars(s, o.writePar) {
				if writeName(s, wp) == name {
					i = j
					orcWriteParallel = wp
				}
			}
		}
	}
	if i < 0 {
		return fmt.Errorf("-profile %q: no side %s among those run", o.profile, name)
	}
	s := among[i]
	var q *Query
	if what != "write" {
		j := slices.IndexFunc(queries, func(q *Query) bool { return strings.EqualFold(q.ID, what) })
		if j < 0 {
			return fmt.Errorf("-profile %q: no query %s among those run", o.profile, what)
		}
		q = queries[j]
	}
	pf, err := os.Create(o.cpuprofile)
	if err != nil {
		return err
	}
	defer pf.Close()
	if err := pprof.StartCPUProfile(pf); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	if q == nil && o.heapprofile != "" {
		peakProfile = o.heapprofile
		defer func() { peakProfile = "" }()
	}
	for range o.runs {
		if q == nil {
			p := path(s) + ".profile"
			_, _, _, err = measureWrite(s, p, o.rows, o.seed, cfg)
			os.Remove(p)
		} else {
			_, err = measureQuery(s, path(s), q, o.batch)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
