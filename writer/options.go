package writer

import (
	"fmt"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

// Option configures NewWriter. Each option checks its argument; NewWriter
// returns the first error.
type Option func(*config) error

type config struct {
	compression  orc.CompressionKind
	level        int
	blockSize    int // 0 until NewWriter chooses it (defaultBlockSize)
	stripeSize   int64
	stripeRows   int64
	stride       int
	bloomColumns []string
	fpp          float64
	dictRatio    float64
	zone         *time.Location
	softwareVer  string
	parallel     int
	aligned      bool
	allowBadUTF8 bool
	// unvalidatedWKB skips the WKB check of geometry values
	unvalidatedWKB bool
}

func defaultConfig() config {
	return config{
		compression: orc.CompressionZstd,
		stripeSize:  64 << 20,
		stride:      10000,
		fpp:         0.01,
		dictRatio:   0.8,
		zone:        time.UTC,
		softwareVer: SoftwareVersion,
		parallel:    1,
		aligned:     true,
	}
}

// SoftwareVersion is recorded in every file's footer.
const SoftwareVersion = "orcgo-0.1.0"

// WithParallelism encodes the columns of each batch on up to n goroutines,
// the calling one among them, and compresses their chunks on up to n more.
// The top-level columns are claimed by the encoding goroutines one at a
// time, the costliest first by the time each took so far (by their types
// before it is measured); where each goroutine needs a compressor of its
// own (blocks under 1 KiB), they are dealt to the goroutines at each
// stripe's start instead. The goroutines also end the columns' row groups
// and stripes (their last chunks and dictionaries); Write returns once
// they are done. The goroutines besides the caller's are kept between
// Writes: each waits up to 100 µs for the next Write, spinning on its
// processor, and then ends (so an idle writer holds none, and needs no
// Close to release them; a producer slower than that pays for one wake-up
// a Write instead). Full chunks
// go to a compression pipeline (format.Pipeline) that runs beside the
// encoding and may still be compressing the last batch's chunks when
// Write returns: the batch is no longer read by then, and Close waits for
// all. Each finished stripe goes to the io.Writer from a goroutine of its
// own while the next stripe encodes (its pages are not copied), so the
// io.Writer must not be used by anything else until Close returns; Close
// and Reset wait for that write, a failure of it is the writer's sticky
// error from the next call on, and the next stripe waits for it before
// the pages of the two, with the free pages kept for reuse, pass 1.25 x
// the stripe size (however slow the io.Writer). The file is the same as
// with n = 1. Memory: each worker past the
// first has a compressor of its own (some 2.8 MiB for ZSTD), and each
// stream has up to 4 chunks in flight, each in a buffer sized to it (a
// short chunk, as at an aligned row group's end, in the power of two from
// 4 KiB that holds it) and compressed over itself, which the stripe size
// does not count (it cannot, for the file to be the same); the page pool
// keeps up to a quarter stripe of small pages between stripes, for the
// next stripe to start in while the last is written. It helps with
// costly codecs (ZSTD, ZLIB) and wide tables: on the bench's 16-column
// lineitem with doubles at SF 0.5 (ZSTD, 64 MiB stripes, a file behind a
// 1 MiB bufio.Writer, a 2-core VM, serial and parallel writes alternating
// in one run, medians of 5), 2 goroutines wrote 2.48 times the rows per
// second of one at 4,096-row batches (part of it from writing stripes out
// in the background) and 1.57 times at 1,024-row batches. The live heap at
// its peak (4 million rows, after forced collections) was 75 MiB against
// 71 serially; counting the garbage not yet collected, as the bench does,
// 89-95 MiB against 80-81. Each Write pays a fixed cost for handing out
// and collecting the columns, so batches should be large: from memory to
// io.Discard (BenchmarkWriteLineitem), 2 goroutines gave 1.70 times the
// rows per second of one at 1,024-row batches and 1.91 at 4,096. A schema
// whose root is not a struct, or has one field, writes serially.
// Default 1; 1 to 64.
func WithParallelism(n int) Option {
	return rangeOption("WithParallelism", n, 1, 64, func(cfg *config) { cfg.parallel = n })
}

// rangeOption returns the option name(n): set, when n is within lo..hi,
// else an error saying the range.
func rangeOption[T int | int64](name string, n, lo, hi T, set func(cfg *config)) Option {
	return func(cfg *config) error {
		if n < lo || n > hi {
			return fmt.Errorf("orc: %s(%d): must be %d..%d", name, n, lo, hi)
		}
		set(cfg)
		return nil
	}
}

// WithAlignedRowGroups makes every row group start on fresh runs and
// chunks. At each row-index boundary every stream of every column ends its
// encoder's run (integer RLE, byte RLE, the complete bytes of boolean RLE)
// and its compression chunk (a short chunk, legal ORC), so that each
// recorded position is [chunk header offset, 0 in the chunk, 0 values to
// skip] when compressed and [byte offset, 0 values to skip] when not; a
// reader can start a row group by decompressing from its first chunk, and
// a group's bytes end where the next group's begin. The one exception is a
// boolean stream (PRESENT, boolean DATA) after a group whose value count is
// not a multiple of 8: the byte holding the last bits cannot end there, so
// its position still gives the bits already used (0..7) of the next byte.
//
// The cost is a short run per RLE stream and, when compressed, a short
// chunk per stream and row group, which compresses on its own. With the
// default stride and block size, the bench lineitem table (1.2 M rows)
// grows 0.40% with ZSTD and 0.14% with SNAPPY, the demo table (3 M rows)
// 0.21% and 0.09% (the ZSTD figures with a ZSTD compressor that
// entropy-codes blocks without matches; with one that stores them raw,
// 4.80% and 2.58%); per column, see spec.md section 4.6. Off gives the layout of Java's and C++'s writers,
// where runs and chunks run across row groups. Default on; the same for
// every stripe.
func WithAlignedRowGroups(on bool) Option {
	return func(cfg *config) error {
		cfg.aligned = on
		return nil
	}
}

// WithAllowInvalidUTF8 lets string, varchar and char values hold bytes
// that are not UTF-8. By default Write refuses such a batch, naming the
// column and row, because ORC text is UTF-8 and readers (Java's Text,
// Hive, Trino) may replace or reject what is not. When allowed, the bytes
// are stored as given; varchar(n) truncation and char(n) padding count
// characters as Go's range over a string does, each byte that does not
// start a valid UTF-8 sequence counting as one character. Binary columns
// are never checked. Default false.
func WithAllowInvalidUTF8(allow bool) Option {
	return func(cfg *config) error {
		cfg.allowBadUTF8 = allow
		return nil
	}
}

// WithCompression sets the codec: CompressionNone, CompressionZlib,
// CompressionSnappy, CompressionLZ4 or CompressionZstd. Default ZSTD.
func WithCompression(c orc.CompressionKind) Option {
	return func(cfg *config) error {
		switch c {
		case orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd:
			cfg.compression = c
			return nil
		}
		return fmt.Errorf("orc: WithCompression(%s): orcgo writes NONE, ZLIB, SNAPPY, LZ4 or ZSTD", c)
	}
}

// WithCompressionLevel sets the codec's level: 1..9 for ZLIB (as DEFLATE
// levels), 1..9 for ZSTD (mapped onto zstd's levels), 1..9 for LZ4 (its
// high-compression mode), ignored by SNAPPY; 0 means the codec's fast
// default. Default 0.
func WithCompressionLevel(level int) Option {
	return rangeOption("WithCompressionLevel", level, 0, 9, func(cfg *config) { cfg.level = level })
}

// WithCompressionBlockSize sets the largest uncompressed size of one
// compression chunk. Each compressed stream holds up to two blocks while
// its stripe is open (the chunk being filled and the compressor's output),
// so wide schemas want small blocks. Default: 256 KiB, or less when the
// schema is wide: the smallest power of two at least the stripe size / (20
// x the number of columns, counting every node of the schema, the root
// struct included), from 4 KiB to 256 KiB, as Java ORC's writer chooses it
// (64 MiB stripes: 256 KiB up to 25 columns, 32 KiB for 200 fields).
// Smaller blocks cost compression: each chunk is compressed on its own, and
// ZSTD loses several percent going from 256 KiB to 128 KiB on typical
// tables. 1 KiB to 8 MiB - 1.
func WithCompressionBlockSize(n int) Option {
	return rangeOption("WithCompressionBlockSize", n, 1<<10, format.MaxBlockSize, func(cfg *config) { cfg.blockSize = n })
}

// WithStripeSize sets the size at which a stripe is cut. The size counts
// what the writer holds for the stripe: the encoded streams, each
// compressed stream's chunk buffers, dictionaries and values not yet
// encoded. The writer's memory is therefore about one stripe plus one
// batch, and a stripe on disk is somewhat smaller than this, the more so
// the more columns the schema has. (The stripe's data always gets at least
// half the size: with buffers larger than that, from very many columns and
// a large WithCompressionBlockSize, the memory is half a stripe plus the
// buffers.) Default 64 MiB; 64 KiB to 2 GiB.
func WithStripeSize(n int64) Option {
	return rangeOption("WithStripeSize", n, 64<<10, 2<<30, func(cfg *config) { cfg.stripeSize = n })
}

// WithStripeRowLimit cuts a stripe when it holds n rows, whatever its size.
// Default 0, no limit.
func WithStripeRowLimit(n int64) Option {
	return func(cfg *config) error {
		if n < 0 {
			return fmt.Errorf("orc: WithStripeRowLimit(%d): must not be negative", n)
		}
		cfg.stripeRows = n
		return nil
	}
}

// WithRowIndexStride sets the rows per row group: every stride rows each
// column records its stream positions and statistics in the row index, the
// unit that readers skip. 0 writes no row index (and no bloom filters).
// Default 10,000; 0 or 100 to 10,000,000.
func WithRowIndexStride(n int) Option {
	return func(cfg *config) error {
		if n != 0 && (n < 100 || n > 10_000_000) {
			return fmt.Errorf("orc: WithRowIndexStride(%d): must be 0 or 100..10000000", n)
		}
		cfg.stride = n
		return nil
	}
}

// WithBloomFilterColumns writes a bloom filter per row group for the named
// columns (dotted paths for nested struct fields). Columns must be of a
// primitive type other than boolean. Default none.
func WithBloomFilterColumns(names ...string) Option {
	return func(cfg *config) error {
		cfg.bloomColumns = append([]string(nil), names...)
		return nil
	}
}

// WithBloomFilterFPP sets the bloom filters' target false-positive rate.
// Default 0.01; between 0 and 1, exclusive.
func WithBloomFilterFPP(p float64) Option {
	return func(cfg *config) error {
		if !(p > 0 && p < 1) {
			return fmt.Errorf("orc: WithBloomFilterFPP(%v): must be in (0, 1)", p)
		}
		cfg.fpp = p
		return nil
	}
}

// WithDictionaryKeyRatio sets when string columns use a dictionary: after
// the first row group of each stripe, a column whose distinct values are at
// most this fraction of its non-null values is dictionary encoded for the
// stripe. 0 never uses a dictionary, 1 always does. Default 0.8.
func WithDictionaryKeyRatio(r float64) Option {
	return func(cfg *config) error {
		if !(r >= 0 && r <= 1) {
			return fmt.Errorf("orc: WithDictionaryKeyRatio(%v): must be in [0, 1]", r)
		}
		cfg.dictRatio = r
		return nil
	}
}

// WithTimeZone sets the writer time zone recorded in every stripe. TIMESTAMP
// values are wall clocks; ORC stores them relative to this zone, and readers
// give back the same wall clock. With a zone that has daylight saving time, a
// wall clock inside a spring-forward gap does not exist and reads back
// shifted; UTC has no such cases. Default UTC.
func WithTimeZone(loc *time.Location) Option {
	return func(cfg *config) error {
		if loc == nil {
			return fmt.Errorf("orc: WithTimeZone(nil)")
		}
		// The zone is recorded by name, so it must be one that readers can
		// look up: not time.Local or a zone made with time.FixedZone.
		if loc != time.UTC {
			if l, err := time.LoadLocation(loc.String()); err != nil || loc.String() == "Local" || l.String() != loc.String() {
				return fmt.Errorf("orc: WithTimeZone(%q): not an IANA time zone name readers can load", loc.String())
			}
		}
		cfg.zone = loc
		return nil
	}
}

// defaultBlockSize returns the compression block size of a writer not
// given one: 256 KiB for narrow schemas, less for wide ones so that the
// chunk buffers stay a small part of the stripe. With about two streams per
// column, stripeSize / (20 x columns) is a tenth of each stream's share of
// the stripe; rounded up to a power of two, as Java ORC's writer does, the
// buffers of two blocks per stream come to at most two fifths of it. They
// count towards the stripe size, so the peak memory stays at about a
// stripe either way; rounding down would cost compression for no memory.
func defaultBlockSize(stripeSize int64, columns int) int {
	limit := stripeSize / (20 * int64(max(columns, 1)))
	n := 4 << 10
	for n < 256<<10 && int64(n) < limit {
		n <<= 1
	}
	return n
}
