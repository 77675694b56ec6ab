package reader

import (
	"context"
	"fmt"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// Option configures Open.
type Option func(*config) error

type config struct {
	maxTailSize     int64
	maxStripeFooter int64
	defaultZone     *time.Location
}

func defaultConfig() config {
	return config{
		maxTailSize:     256 << 20,
		maxStripeFooter: 64 << 20,
		defaultZone:     time.UTC,
	}
}

// WithMaxTailSize caps the bytes of the file footer and metadata sections,
// compressed and decompressed. Default 256 MiB; at least 1 KiB.
func WithMaxTailSize(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 {
			return fmt.Errorf("orc: WithMaxTailSize(%d): must be at least 1024", n)
		}
		c.maxTailSize = n
		return nil
	}
}

// WithMaxStripeFooterSize caps the decompressed size of a stripe footer.
// Default 64 MiB; at least 1 KiB.
func WithMaxStripeFooterSize(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 {
			return fmt.Errorf("orc: WithMaxStripeFooterSize(%d): must be at least 1024", n)
		}
		c.maxStripeFooter = n
		return nil
	}
}

// WithDefaultTimeZone sets the zone assumed for TIMESTAMP columns of stripes
// that do not name their writer's zone (files of old writers). Default UTC.
func WithDefaultTimeZone(loc *time.Location) Option {
	return func(c *config) error {
		if loc == nil {
			return fmt.Errorf("orc: WithDefaultTimeZone(nil)")
		}
		c.defaultZone = loc
		return nil
	}
}

// ScanOption configures a BatchReader.
type ScanOption func(*scanConfig) error

type scanConfig struct {
	// test holds hooks that only the package's tests set.
	test      *scanTestHooks
	columns   []string
	allCols   bool
	batchSize int
	coalesce  int64
	gapSet    bool // WithCoalesceGap was given
	window    int64
	where     *sarg.Expr
	parallel  int
	colPar    int
	maxDict   int64
	maxNested int64
	maxMemory int64
	split     *byteRange // WithRange, or nil: the whole file
	filter    filterMode
	explain   bool

	inFlight   int   // WithMaxReadsInFlight
	maxRequest int64 // WithMaxReadSize
	prefetch   int64 // WithPrefetch; -1 when not given: the default
	// readAhead says the scan reads ahead (sched.go), decided once when
	// it starts: WithPrefetch(n > 0), or by default a file over a network
	// (a LatencyReader).
	readAhead bool

	lenientFields bool // WithLenientFields

	readSchema *orc.Schema // WithReadSchema, or nil
	byPosition bool        // WithPositionalMatch
	ctx        context.Context
}

func defaultScanConfig() scanConfig {
	return scanConfig{test: &scanTestHooks{}, prefetch: -1, allCols: true, filter: filterExact, batchSize: 1024, colPar: 1, coalesce: 64 << 10, window: defaultReadWindow, maxDict: 1 << 30, maxNested: 1 << 26, maxMemory: 4 << 30,
		inFlight: defaultInFlight, maxRequest: defaultMaxRequest}
}

// defaultRemoteGap is the coalescing gap once a scan reads ahead.
const defaultRemoteGap = 1 << 20

// localDataGap is the most a scan of a file of this machine reads between
// two ranges of a stripe's data plan, unless WithCoalesceGap says
// otherwise. There a read costs a system call and no request, and the
// kernel's read-ahead brings nearby bytes from the device anyway, so a
// page is as far as copying bytes nobody decodes pays. It weighs where a
// parallel scan's chunks each plan a row group of a stream and the
// dictionary stored after it, or the next stream's row group: at 64 KiB
// each chunk read up to 64 KiB of later row groups with it, which their
// own chunks read again (lineitem SF 1 on 2 goroutines, doubles: 334 MB
// read where a serial scan reads 310, decimals 341 against 306; at 4 KiB
// 310.6 and 306.5, in 5% more reads).
const localDataGap = 4 << 10 // a page

// dataGap returns the coalescing gap of the scan's stripe data plans;
// onDisk says whether the file is a file of this machine (Reader.onDisk).
func (c scanConfig) dataGap(onDisk bool) int64 {
	if onDisk && !c.gapSet && !c.readAhead {
		return min(c.coalesce, localDataGap)
	}
	return c.coalesce
}

// schedPrefetchAlways makes every scan read ahead from its first read, as
// over a network, whatever the file (tests).
var schedPrefetchAlways bool

// declareReadAhead decides whether the scan reads ahead: as WithPrefetch
// says when given, else when the file is read over a network (remote: a
// LatencyReader). It never looks at how long reads take.
func (c *scanConfig) declareReadAhead(remote bool) {
	switch {
	case c.prefetch >= 0:
		c.readAhead = c.prefetch > 0
	default:
		c.readAhead = remote || schedPrefetchAlways
	}
}

// sched returns the I/O scheduler's settings; onDisk says whether the file
// is a file of this machine (Reader.onDisk).
func (c scanConfig) sched(onDisk bool) schedConfig {
	prefetch := c.prefetch
	if prefetch < 0 {
		// n goroutines decoding consume the bytes n times as fast, so
		// reading as far ahead in time takes n times the bytes.
		prefetch = defaultPrefetch * int64(min(max(c.parallel, 1), maxPrefetchScale))
	}
	prefetch = min(prefetch, c.maxMemory/4)
	gap := c.coalesce
	if c.readAhead && prefetch > 0 && !c.gapSet {
		// Over a network a round trip costs more than the bytes between.
		gap = max(gap, defaultRemoteGap)
	}
	return schedConfig{inFlight: c.inFlight, maxRequest: c.maxRequest, prefetch: prefetch, gap: c.coalesce, mergeGap: gap,
		ahead: c.readAhead, shared: c.parallel > 1 && !onDisk}
}

// WithMaxReadsInFlight sets how many reads of the file a scan keeps
// running at once when it reads ahead (WithPrefetch): over an object store,
// where each request waits 10-50 ms for its first byte, several in flight
// hide that wait. Parallel workers (WithParallelism) share them; a read
// the decoder waits for starts at once, so each goroutine waiting may add
// one more. Default 32 (a selective scan reads a row group of each column
// apart: 20 or more columns in one round trip); 1 to 64.
func WithMaxReadsInFlight(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("orc: WithMaxReadsInFlight(%d): must be 1..64", n)
		}
		c.inFlight = n
		return nil
	}
}

// WithMaxReadSize sets the most bytes one read of the file fetches when
// the scan reads ahead: a stripe's planned ranges are merged across gaps
// up to WithCoalesceGap and cut into reads of at most this size, so the
// decoder starts on the first while the others are under way. Default
// 4 MiB (object stores serve 4-16 MiB ranges at full speed); 64 KiB to
// 1 GiB.
func WithMaxReadSize(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 64<<10 || n > 1<<30 {
			return fmt.Errorf("orc: WithMaxReadSize(%d): must be %d..%d", n, 64<<10, 1<<30)
		}
		c.maxRequest = n
		return nil
	}
}

// WithPrefetch sets how many bytes a scan may fetch ahead of its decoder:
// once a stripe is planned, the reads of its planned ranges start in the
// order the decoder will want them, up to WithMaxReadsInFlight at once,
// as long as the bytes fetched and not yet decoded stay under n (a read
// the decoder waits for starts whatever the bound). Whether a scan reads
// ahead is decided when it starts, never from how long reads take: given
// n > 0, it reads ahead from its first read, whatever the file; given 0,
// it never does; by default it reads ahead a file over a network (a
// LatencyReader, such as httpfile.File) and reads any other reader (a
// local file, bytes in memory) as the decoder asks, one read at a time,
// holding nothing ahead. A ReaderAt over a network that is no
// LatencyReader should pass WithPrefetch. So two scans with the same
// options make the same requests.
// The bytes read ahead come on top of what WithMaxScanMemory caps, and
// are at most a quarter of it: a scan holds at most 1.25 times
// WithMaxScanMemory, plus one read (WithMaxReadSize) per goroutine
// waiting for bytes not yet read. 0 turns reading ahead off. Default
// 32 MiB for each goroutine decoding (WithParallelism), at most 128 MiB:
// n goroutines consume the bytes n times as fast, and reading as far
// ahead in time takes n times the bytes (32 MiB keeps a 50 ms round trip
// hidden behind one goroutine decoding ZSTD at 300-400 MB/s of file
// bytes); 0 to 1 GiB.
func WithPrefetch(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 0 || n > 1<<30 {
			return fmt.Errorf("orc: WithPrefetch(%d): must be 0..%d", n, 1<<30)
		}
		c.prefetch = n
		return nil
	}
}

// WithColumns selects the columns to read by name; nested struct fields are
// named with dots ("a.b.c"). The batch holds the top-level columns in the
// order first named (a nested name places its top-level column), and only
// those, with structs keeping only their selected fields, in the file's
// order. Default: every column (except encrypted ones), in file order.
func WithColumns(names ...string) ScanOption {
	return func(c *scanConfig) error {
		c.columns = append([]string(nil), names...)
		c.allCols = false
		return nil
	}
}

// MaxBatchSize is the most rows WithBatchSize allows a batch.
const MaxBatchSize = 1 << 20

// WithBatchSize sets the most rows a batch holds. Default 1024; 1 to
// MaxBatchSize.
func WithBatchSize(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > MaxBatchSize {
			return fmt.Errorf("orc: WithBatchSize(%d): must be 1..%d", n, MaxBatchSize)
		}
		c.batchSize = n
		return nil
	}
}

// WithCoalesceGap sets how far apart two byte ranges of a stripe may be and
// still be fetched with one read. Larger values mean fewer, larger reads
// (good for object stores). Default 64 KiB (4 KiB between the data
// ranges of a file of this machine, an *os.File, whose reads cost a system
// call and no request), and 1 MiB once the scan reads ahead (WithPrefetch:
// over a network, where reading a megabyte more costs less than a round
// trip); given, it holds for all. 0 to 64 MiB.
func WithCoalesceGap(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 0 || n > 64<<20 {
			return fmt.Errorf("orc: WithCoalesceGap(%d): must be 0..%d", n, 64<<20)
		}
		c.coalesce, c.gapSet = n, true
		return nil
	}
}

// defaultReadWindow is WithReadWindow's default.
const defaultReadWindow = 256 << 10

// WithReadWindow sets how many bytes of one stream a scan fetches at a
// time: a scan holds about one window per selected stream (plus one
// decompression block per compressed stream) instead of whole stripes, and
// makes about one ReadAt per window of data it reads. A window never splits
// a compression chunk, and a stream whose planned bytes for a run of row
// groups are fewer is fetched in one read, coalesced with its neighbours
// (WithCoalesceGap). Larger windows mean fewer reads and more memory.
// Default 256 KiB; 4 KiB to 1 GiB.
//
// Over a network the window does not set the requests: once reads show
// latency the I/O scheduler fetches the planned bytes in requests of up
// to WithMaxReadSize, and a window only sets how much of them a stream
// copies out at a time. It sets the reads of a local file, and of a store
// that answers within a few milliseconds (read as a local file): for a
// store charging per request that answers that fast, a window of 1 MiB or
// more makes a quarter of the requests. On a local file 256 KiB was the
// fastest of 128 KiB to 1 MiB for full scans of lineitem (spec.md 4.7),
// and holds a quarter of 1 MiB's bytes.
func WithReadWindow(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 4<<10 || n > 1<<30 {
			return fmt.Errorf("orc: WithReadWindow(%d): must be %d..%d", n, 4<<10, 1<<30)
		}
		c.window = n
		return nil
	}
}

// WithSearchArgument prunes the scan with a predicate: files, stripes and
// row groups whose statistics or bloom filters prove that no row can match
// are skipped without being read, and the batches hold exactly the rows for
// which the predicate is TRUE (WithWholeRowGroups returns every row of the
// groups that survive instead). The predicate's columns are read even when
// WithColumns leaves them out, but the batches hold only the columns
// WithColumns names.
func WithSearchArgument(e sarg.Expr) ScanOption {
	return func(c *scanConfig) error {
		c.where = &e
		return nil
	}
}

// WithExactFilter(true), the default, makes a scan with a search argument
// return only the rows for which the predicate is TRUE (SQL semantics: NULL
// does not match). The predicate's columns are decoded first; the other
// columns only for the rows that match. WithExactFilter(false) is
// WithWholeRowGroups.
func WithExactFilter(on bool) ScanOption {
	return func(c *scanConfig) error {
		c.filter &^= filterExact
		if on {
			c.filter |= filterExact
		}
		return nil
	}
}

// WithSelection makes an exactly filtered scan (a search argument without
// WithWholeRowGroups) hand over a batch's matching rows as a selection
// where that saves work: the vectors keep every row decoded and
// Batch.Selected lists those that match. The reader still moves the rows
// together where few match and the columns outside the predicate decode
// only those (the batch's Selected is empty then), so a consumer reads
// each batch's rows through Batch.Row, or Selected when not empty. Scans
// that read through a read schema (WithReadSchema) always move the rows
// together.
func WithSelection() ScanOption {
	return func(c *scanConfig) error {
		c.filter |= filterSelect
		return nil
	}
}

// filterMode is what a scan with a search argument does with the rows of
// the row groups that survive pruning: its flags.
type filterMode uint8

const (
	filterExact  filterMode = 1 << iota // return only the rows that match
	filterSelect                        // ... as a selection (WithSelection)
)

// exact reports whether the scan filters rows exactly.
func (m filterMode) exact() bool { return m&filterExact != 0 }

// selects reports whether an exact filter hands over selections.
func (m filterMode) selects() bool { return m == filterExact|filterSelect }

// WithWholeRowGroups makes a scan with a search argument return every row
// of the row groups that survive pruning, unfiltered: a superset of the
// matching rows, for engines that evaluate the predicate themselves and
// want no work done twice. Without it, a search argument filters exactly.
func WithWholeRowGroups() ScanOption {
	return func(c *scanConfig) error {
		c.filter &^= filterExact
		return nil
	}
}

// WithExplain records, for every file, stripe and row group the predicate
// was evaluated on, each leaf's truth value and the decision; read it with
// BatchReader.Explain. Default off.
func WithExplain() ScanOption {
	return func(c *scanConfig) error {
		c.explain = true
		return nil
	}
}

// WithRange restricts the scan to the stripes whose first byte lies in
// [offset, offset+length): the split that distributed engines give each
// task. Splits that tile a file read every stripe exactly once. Default: the
// whole file.
func WithRange(offset, length int64) ScanOption {
	return func(c *scanConfig) error {
		if offset < 0 || length < 0 {
			return fmt.Errorf("orc: WithRange(%d, %d): offset and length must not be negative", offset, length)
		}
		c.split = &byteRange{off: offset, n: length}
		return nil
	}
}

// WithParallelism decodes the scan on n goroutines while Next still
// returns rows in file order. The unit of work is two chunks of row
// groups (a chunk holds at least 8,192 rows, one group at the default
// stride, and more for narrow scans, up to about 2 MiB of vectors) when a
// stripe's row groups can be read apart without reading more than an
// eighth more bytes (files written with aligned row groups, orcgo's
// default), and a whole stripe otherwise (unaligned files of other
// writers, files without a row index). Each goroutine, the caller's
// included, has its own decompressor and buffers and may decode one unit
// ahead of the rows Next returns, so memory grows with n by a unit's
// batches (at most 256) and a read window per stream. A scan that the
// statistics leave at most one stripe starts the other goroutines only
// once that stripe has a second unit for them. The goroutines'
// batches are kept, once the scan ends, for the next parallel scan with
// batches of the same type and size (a sync.Pool: the garbage collector
// takes them when no scan does). Results and ScanStats' pruning counts
// equal a serial scan's. Call BatchReader.Close
// when stopping before the end, so the goroutines stop. Ignored with
// WithExplain. Default 1; 1 to 64.
func WithParallelism(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("orc: WithParallelism(%d): must be 1..64", n)
		}
		c.parallel = n
		return nil
	}
}

// WithColumnParallelism decodes the top-level columns of each batch on up
// to n goroutines: the calling one and n-1 helpers, which wait up to 100 µs
// for the next batch (spinning) and then end, so none outlives a scan by
// more and a batch that follows quickly does not pay for waking one. Columns
// are dealt to the goroutines by their cost (their bytes in the stripe,
// then the time they took in the stripes before), each goroutine with its
// own decompressor. Unlike WithParallelism it holds no batches or stripes
// ahead, so memory stays that of a serial scan. The goroutines meet once a
// batch, so it pays with large batches: scanning 3M lineitem rows (the
// bench's Q1, decimals, ZSTD) on a 2-core VM took 357 ms serially and 243
// ms with n = 2 at 32,768-row batches, and 368 and 279-295 ms at 4,096
// rows. It combines with
// WithParallelism (each stripe worker then uses n goroutines). A file whose
// root is not a struct decodes serially. Default 1; 1 to 64.
func WithColumnParallelism(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("orc: WithColumnParallelism(%d): must be 1..64", n)
		}
		c.colPar = n
		return nil
	}
}

// WithMaxDictionarySize caps the bytes of one string column's dictionary in
// one stripe; a larger dictionary fails the scan with an error wrapping
// orc.ErrLimit that names the column and stripe. Default 1 GiB; at
// least 1 KiB.
func WithMaxDictionarySize(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 1<<10 {
			return fmt.Errorf("orc: WithMaxDictionarySize(%d): must be at least 1024", n)
		}
		c.maxDict = n
		return nil
	}
}

// WithMaxNestedValues caps the children (list elements, map entries) one
// list or map column may hold in one batch; a batch over it fails with an
// error wrapping orc.ErrLimit. Default 64 Mi; at least 1024.
func WithMaxNestedValues(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 1024 {
			return fmt.Errorf("orc: WithMaxNestedValues(%d): must be at least 1024", n)
		}
		c.maxNested = n
		return nil
	}
}

// WithMaxScanMemory caps the bytes one scan may need at once for the data
// it reads: the streams' read windows (WithReadWindow) and row indexes, one decompression
// block per compressed stream, string dictionaries, and each batch's
// variable-length values (string bytes, list elements and map entries at 8
// bytes each) and fixed-width vectors. Parallel workers share the cap. Every
// need is checked before its allocation; one over the cap fails the scan
// with an error wrapping orc.ErrLimit. Default 4 GiB; at least 1 MiB.
func WithMaxScanMemory(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 1<<20 {
			return fmt.Errorf("orc: WithMaxScanMemory(%d): must be at least %d", n, 1<<20)
		}
		c.maxMemory = n
		return nil
	}
}

// WithStrictFields makes NewRowReader (and ReadFile) fail when a field of
// the row type names a column the file lacks. It is the default; the
// option stays for programs that say so, and undoes WithLenientFields.
// BatchReader ignores it.
func WithStrictFields() ScanOption {
	return func(c *scanConfig) error {
		c.lenientFields = false
		return nil
	}
}

// WithLenientFields makes NewRowReader (and ReadFile) read a field of the
// row type whose column the file lacks as its zero value, instead of
// failing: for files of an older shape. A struct none of whose fields
// finds a column is still an error. BatchReader ignores it.
func WithLenientFields() ScanOption {
	return func(c *scanConfig) error {
		c.lenientFields = true
		return nil
	}
}

// byteRange is a range of a file's bytes, [off, off+n).
type byteRange struct{ off, n int64 }
