package orccloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/orcgo/orc/internal/latency"
	"github.com/orcgo/orc/internal/readat"
	"github.com/orcgo/orc/reader"
	gblob "gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// DefaultTailSize is how many bytes from an object's end Open reads: the
// ORC tail (postscript, footer, stripe statistics) of most files, which
// reader.Open then reads from memory.
const DefaultTailSize = 64 << 10

// bodyRetries is how many times a read whose body was cut short is sent
// again for the bytes still missing (the SDKs retry failed requests,
// 503 SlowDown included, themselves).
const bodyRetries = 3

// Option configures Open.
type Option func(*openConfig) error

type openConfig struct {
	tail int64
}

// WithTailSize sets how many bytes from the end of the object Open reads
// (and keeps, answering reads inside them from memory). Default
// DefaultTailSize; range 0..64 MiB, 0 reading none.
func WithTailSize(n int64) Option {
	return func(c *openConfig) error {
		if n < 0 || n > 64<<20 {
			return fmt.Errorf("orccloud: WithTailSize(%d): out of range 0..64 MiB", n)
		}
		c.tail = n
		return nil
	}
}

// File is an object read with ranged GETs, pinned to the version Open saw.
// It is a reader.ContextReaderAt and a reader.LatencyReader; its methods
// are safe for concurrent use.
type File struct {
	s        *Store
	key, url string
	ctx      context.Context
	size     int64
	ver      version
	tail     []byte
	tailOff  int64
	owns     bool // Close closes s
	requests atomic.Int64
	bytes    atomic.Int64
	cached   atomic.Int64
	latency  latency.Min // shortest wait for an answer
}

var (
	_ reader.ContextReaderAt = (*File)(nil)
	_ reader.LatencyReader   = (*File)(nil)
)

// Open opens the object at rawURL for reading under ctx (which every read
// without a context of its own runs under).
func Open(ctx context.Context, rawURL string, opts ...Option) (*File, error) {
	return openOwning(ctx, rawURL, func(s *Store, key string) (*File, error) { return s.Open(ctx, key, opts...) })
}

// openOwning opens the store of rawURL and, with it, the object (a File or
// a Writer) that open makes of the URL's key, which then owns the store:
// closing it closes the store. When open fails the store is closed at once.
func openOwning[T interface{ own() }](ctx context.Context, rawURL string, open func(*Store, string) (T, error)) (T, error) {
	var none T
	s, key, err := OpenStore(ctx, rawURL)
	if err != nil {
		return none, err
	}
	v, err := open(s, key)
	if err != nil {
		s.Close()
		return none, err
	}
	v.own()
	return v, nil
}

// own makes Close close the store.
func (f *File) own() { f.owns = true }

// Open opens the object key of the store. It reads the object's last bytes
// (WithTailSize) with one suffix-range request on S3 and GCS, two requests
// (its attributes, then the bytes) on others, and pins every later read to
// the version that answer came from.
func (s *Store) Open(ctx context.Context, key string, opts ...Option) (*File, error) {
	cfg := openConfig{tail: DefaultTailSize}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	url := s.URL(key)
	if key == "" || strings.HasSuffix(key, "/") {
		return nil, fmt.Errorf("orccloud: %s names a prefix, not an object (List or OpenDataset read a table)", url)
	}
	f := &File{s: s, key: key, url: url, ctx: ctx}
	start := time.Now()
	tail, size, v, err := s.openTail(ctx, key, cfg.tail, func() { f.requests.Add(1) })
	if err != nil {
		return nil, s.storeError("opening", url, err)
	}
	f.latency.Note(time.Since(start))
	f.size, f.ver, f.tail, f.tailOff = size, v, tail, size-int64(len(tail))
	f.bytes.Add(int64(len(tail)))
	return f, nil
}

// Version names the version of the object every read is pinned to: its
// ETag, its GCS generation, or (file://) its modification time.
func (f *File) Version() string { return f.ver.String() }

// Tail returns the object's last bytes, read by Open, and their offset.
// The bytes are the File's; do not change them.
func (f *File) Tail() (int64, []byte) { return f.tailOff, f.tail }

// URL returns the object's URL.
func (f *File) URL() string { return f.url }

// Size returns the object's size in bytes.
func (f *File) Size() int64 { return f.size }

// Requests returns how many requests the File has made, Open's included.
func (f *File) Requests() int64 { return f.requests.Load() }

// BytesRead returns how many bytes the File's requests have received.
func (f *File) BytesRead() int64 { return f.bytes.Load() }

// CachedReads returns how many reads were answered from the tail Open kept.
func (f *File) CachedReads() int64 { return f.cached.Load() }

// Latency returns the shortest time a request of the File has waited for
// its answer, or 0 before the first (reader.LatencyReader).
func (f *File) Latency() time.Duration { return f.latency.Get() }

// Close closes the store when Open (the function) opened it; reads after
// Close fail then.
func (f *File) Close() error {
	if f.owns {
		return f.s.Close()
	}
	return nil
}

// ReadAt reads len(p) bytes at off under the context given to Open.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	return f.ReadAtContext(f.ctx, p, off)
}

// ReadAtContext reads len(p) bytes at off with one ranged GET (sent again
// for the missing bytes if its body is cut short), or from the tail kept
// by Open. A read of a version other than Open's fails with an error
// wrapping ErrChanged and naming the URL.
func (f *File) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("orccloud: %s: read at negative offset %d", f.url, off)
	}
	want, err := readat.Clip(p, off, f.size)
	if err != nil {
		return 0, err
	}
	if n, ok := readat.FromTail(want, off, f.tailOff, f.tail); ok {
		f.cached.Add(1)
		return readat.Done(n, p)
	}
	got := 0
	for try := 0; try <= bodyRetries && got < len(want); try++ {
		var n int
		n, err = f.readRange(ctx, want[got:], off+int64(got))
		got += n
		if err == nil || !retryBody(err) {
			break
		}
	}
	if err != nil && got < len(want) {
		return got, f.s.storeError(fmt.Sprintf("reading bytes %d-%d of", off, off+int64(len(want))-1), f.url, err)
	}
	return readat.Done(got, p)
}

// readRange is one ranged GET of len(p) bytes at off, pinned to f's
// version.
func (f *File) readRange(ctx context.Context, p []byte, off int64) (int, error) {
	f.requests.Add(1)
	start := time.Now()
	r, err := f.s.bucket.NewRangeReader(ctx, f.key, off, int64(len(p)), &gblob.ReaderOptions{BeforeRead: f.s.beforeRead(f.ver, 0)})
	if err != nil {
		return 0, err
	}
	defer r.Close()
	f.latency.Note(time.Since(start))
	if v, size := answered(r); !f.ver.same(v) || size >= 0 && size != f.size {
		return 0, fmt.Errorf("%w: opened at %s (%d bytes), now %s", ErrChanged, f.ver, f.size, v)
	}
	n, err := io.ReadFull(r, p)
	f.bytes.Add(int64(n))
	if err != nil {
		return n, &bodyError{err}
	}
	return n, nil
}

// bodyError is a body cut short, which a read sends again.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return "body cut short: " + e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

func retryBody(err error) bool {
	var b *bodyError
	return errors.As(err, &b) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) &&
		gcerrors.Code(err) != gcerrors.FailedPrecondition
}
