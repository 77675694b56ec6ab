// Package reader reads ORC files: the tail (schema, statistics, stripes,
// user metadata) and the rows, decoded into reusable typed vectors.
//
// Concurrency: a Reader is safe for concurrent use once opened; each
// BatchReader it creates belongs to one goroutine, and may use more inside
// (WithParallelism decodes chunks of row groups, or whole stripes, on
// several goroutines, WithColumnParallelism spreads a batch's columns).
// Ownership: Open does not
// close the io.ReaderAt; the caller keeps it open while readers use it.
// Values in a Batch stay valid until the next call to Next with that Batch.
//
// Reading: each stripe a scan reads is first planned from metadata alone
// (the kept runs of row groups and the bytes of every selected stream they
// need; WithExplain prints the plans), then executed: a stream is fetched a
// window at a time (WithReadWindow) as it is decoded, so a scan holds about
// one window per selected stream, never a whole stripe. Every read goes
// through the scan's I/O scheduler: over a network (a file whose reads show
// latency) it fetches each planned stripe's bytes ahead of the decoder in
// few large requests, up to WithMaxReadsInFlight at once and WithPrefetch
// bytes ahead, and plans the next stripe before the current one ends; a
// local file is read as the decoder asks. spec.md 4.5-4.8 gives the rules.
//
// Untrusted files: reading never panics, and no size read from a file is
// allocated without a bound. Errors wrap orc.ErrCorrupt (bytes that are not
// valid ORC, with the offset, stripe, column and stream where known),
// orc.ErrUnsupported (valid files using what orcgo does not read) or
// orc.ErrLimit (a resource limit: WithMaxTailSize, WithMaxStripeFooterSize,
// WithMaxDictionarySize, WithMaxNestedValues, and WithMaxScanMemory, which
// caps what one scan holds at once).
package reader

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // fallback zone database for writer time zones

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
)

// Reader is an open ORC file.
type Reader struct {
	r    io.ReaderAt
	cfg  config
	tail *format.Tail

	cols      []*orc.Schema    // the schema's nodes by column id
	winfo     stats.WriterInfo // which recorded statistics to trust
	encrypted []bool           // per column id: under an encrypted root

	footerDecs sync.Pool // format.Decompressor for stripe footers

	// lastFooter is the last stripe's footer when Open's first read (the
	// file's last 16 KiB) held it: a scan reaching that stripe reads it
	// from here, one request fewer over a network.
	lastFooter []byte

	// Open's reads of the tail.
	tailReads int
	tailBytes int64
	// remote: r is read over a network (a LatencyReader), so scans read
	// ahead by default (scanConfig.declareReadAhead).
	remote bool
	// onDisk: r is a file of this machine (an *os.File, or a reader with
	// its Fd method; see localFile), whose reads cost no request.
	onDisk bool
}

// localFile is what Open takes for a file of this machine: an *os.File
// has the method, and a wrapper of one (counting its reads, say) can
// forward it. The workers of a parallel scan read such a file as a serial
// scan does, each its own row groups' windows (sched.go).
type localFile interface {
	Fd() uintptr
}

// A LatencyReader is an io.ReaderAt over a network that knows how long its
// reads wait for their first byte, as httpfile.File does. Scans of a file
// Open gets as one read ahead from their first read by default
// (WithPrefetch), whatever latency it reports: each request costs a round
// trip, and the scans make the same requests at any latency. Any other
// reader is read as the decoder asks unless the scan passes
// WithPrefetch.
type LatencyReader interface {
	io.ReaderAt
	// Latency returns the shortest time a read has waited for its first
	// byte so far, or 0 when none has been measured.
	Latency() time.Duration
}

// StripeInfo describes one stripe.
type StripeInfo struct {
	Index        int
	Offset       int64 // absolute offset of the stripe's first byte
	IndexLength  int64 // bytes of index streams (row index, bloom filters)
	DataLength   int64 // bytes of data streams
	FooterLength int64 // bytes of the stripe footer
	NumRows      int64
}

// Length returns the stripe's total size in bytes.
func (s StripeInfo) Length() int64 { return s.IndexLength + s.DataLength + s.FooterLength }

// MetadataItem is one user metadata entry.
type MetadataItem struct {
	Key   string
	Value []byte
}

// Open reads the tail of an ORC file of the given size. It reads the last
// 16 KiB with one ReadAt, and more only when the tail is larger.
//
// An r with an Fd() uintptr method (an *os.File, or a wrapper of one that
// forwards it) is taken for a file on this machine, whose reads cost no
// request: the workers of a parallel scan (WithParallelism) read it as a
// serial scan does, each stream a read window at a time. Any other reader
// is read by them through requests they share, so that a store fast
// enough to pass for local is sent the serial scan's requests, not a set
// per worker. An r that is a LatencyReader is read over a network: scans
// read it ahead (WithPrefetch).
func Open(r io.ReaderAt, size int64, opts ...Option) (*Reader, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	tr := &tailReader{r: r}
	tail, err := format.ReadTail(tr, size, format.TailOptions{MaxTailSize: cfg.maxTailSize})
	if err != nil {
		return nil, err
	}
	rd := &Reader{r: r, cfg: cfg, tail: tail, cols: tail.Schema.Columns(),
		winfo:     stats.WriterInfoFromTail(tail.PostScript, tail.Footer),
		tailReads: tr.calls, tailBytes: tr.bytes}
	_, rd.onDisk = r.(localFile)
	_, rd.remote = r.(LatencyReader)
	rd.keepLastFooter(tr.firstOff, tr.first)
	rd.encrypted = make([]bool, tail.Schema.MaxID()+1)
	if enc := tail.Footer.GetEncryption(); enc != nil {
		cols := rd.cols
		for _, v := range enc.GetVariants() {
			root := int(v.GetRoot())
			if root >= len(cols) {
				return nil, &orc.CorruptError{Offset: tail.FooterStart, Stripe: -1, Column: root, Stream: "footer",
					Msg: fmt.Sprintf("encryption variant names column %d of %d", root, len(cols))}
			}
			for id := root; id <= cols[root].MaxID(); id++ {
				rd.encrypted[id] = true
			}
		}
	}
	return rd, nil
}

// Schema returns the file's type tree. Callers must not modify it.
func (r *Reader) Schema() *orc.Schema { return r.tail.Schema }

// NumRows returns the number of rows in the file.
func (r *Reader) NumRows() int64 {
	if n := r.tail.Footer.NumberOfRows; n != nil {
		return int64(*n)
	}
	var n int64
	for _, s := range r.tail.Footer.GetStripes() {
		n += int64(s.GetNumberOfRows())
	}
	return n
}

// Compression returns the file's codec.
func (r *Reader) Compression() orc.CompressionKind { return r.tail.Compression }

// CompressionBlockSize returns the largest decompressed size of a chunk.
func (r *Reader) CompressionBlockSize() int { return r.tail.BlockSize }

// Version returns the file format version.
func (r *Reader) Version() format.FileVersion { return r.tail.Version }

// WriterVersion returns which writer fixes the file claims.
func (r *Reader) WriterVersion() format.WriterVersion { return r.tail.WriterVersion() }

// Writer returns the software that wrote the file (Footer.writer).
func (r *Reader) Writer() WriterID { return WriterID(r.tail.Footer.GetWriter()) }

// SoftwareVersion returns the writing software's version string, if recorded.
func (r *Reader) SoftwareVersion() string { return r.tail.Footer.GetSoftwareVersion() }

// RowIndexStride returns the rows per row group, or 0 when the file has no
// row index.
func (r *Reader) RowIndexStride() int { return int(r.tail.Footer.GetRowIndexStride()) }

// Calendar returns the calendar of the file's dates and timestamps, as
// recorded.
func (r *Reader) Calendar() Calendar { return Calendar(r.tail.Footer.GetCalendar()) }

// Size returns the file size given to Open.
func (r *Reader) Size() int64 { return r.tail.FileSize }

// Tail returns the decoded tail, for tools that need raw metadata. Callers
// must not modify it.
func (r *Reader) Tail() *format.Tail { return r.tail }

// Stripes describes the file's stripes in order.
func (r *Reader) Stripes() []StripeInfo {
	ss := r.tail.Footer.GetStripes()
	out := make([]StripeInfo, len(ss))
	for i, s := range ss {
		out[i] = stripeInfo(i, s)
	}
	return out
}

func stripeInfo(i int, s *orcpb.StripeInformation) StripeInfo {
	return StripeInfo{Index: i, Offset: int64(s.GetOffset()), IndexLength: int64(s.GetIndexLength()),
		DataLength: int64(s.GetDataLength()), FooterLength: int64(s.GetFooterLength()),
		NumRows: int64(s.GetNumberOfRows())}
}

// UserMetadata returns the user metadata entries in file order.
func (r *Reader) UserMetadata() []MetadataItem {
	var out []MetadataItem
	for _, m := range r.tail.Footer.GetMetadata() {
		out = append(out, MetadataItem{Key: m.GetName(), Value: m.GetValue()})
	}
	return out
}

// IsEncrypted reports whether column id lies under an encrypted column,
// whose data orcgo cannot read.
func (r *Reader) IsEncrypted(id int) bool {
	return id >= 0 && id < len(r.encrypted) && r.encrypted[id]
}

// writerZone resolves a stripe's writer time zone.
func (r *Reader) writerZone(name string) (*time.Location, error) {
	if name == "" {
		return r.cfg.defaultZone, nil
	}
	if name == "UTC" || name == "GMT" || name == "Etc/UTC" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		// A zone name is short and printable; anything else is damage,
		// echoed as a short escaped prefix.
		if len(name) > 64 || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
			shown := name
			if len(shown) > 32 {
				shown = shown[:32]
			}
			return nil, orc.Corruptf("the stripe's writer time zone (%d bytes, starting %q) is not a zone name", len(name), shown)
		}
		return nil, fmt.Errorf("%w: writer time zone %q is not in the zone database", orc.ErrUnsupported, name)
	}
	return loc, nil
}

// keepLastFooter keeps a copy of the last stripe's footer when the bytes
// read at off hold it.
func (r *Reader) keepLastFooter(off int64, buf []byte) {
	ss := r.tail.Footer.GetStripes()
	if len(ss) == 0 || len(buf) == 0 {
		return
	}
	info := stripeInfo(len(ss)-1, ss[len(ss)-1])
	start := info.Offset + info.IndexLength + info.DataLength
	if info.FooterLength <= 0 || info.FooterLength > r.cfg.maxStripeFooter || start < off ||
		start+info.FooterLength > off+int64(len(buf)) || start+info.FooterLength < start {
		return
	}
	r.lastFooter = append([]byte(nil), buf[start-off:start-off+info.FooterLength]...)
}

// tailReader counts Open's reads. It keeps the bytes of the first (the
// file's last bytes, which may hold the last stripe's footer).
type tailReader struct {
	r        io.ReaderAt
	calls    int
	bytes    int64
	first    []byte
	firstOff int64
}

func (t *tailReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := t.r.ReadAt(p, off)
	if t.calls == 0 && err == nil {
		t.first, t.firstOff = p[:n], off
	}
	t.calls++
	t.bytes += int64(n)
	return n, err
}
