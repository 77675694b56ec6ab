// Package httpfile reads a file over HTTP range requests, as an io.ReaderAt:
// the way to scan an ORC file on a web server or an object store's HTTP
// endpoint without copying it. It uses net/http only.
//
// Open costs one request: a GET of the file's last bytes with a suffix range
// (Range: bytes=-65536 by default, see WithTailPrefetch), whose Content-Range
// gives the file's size and whose headers give its validator. Open keeps
// those bytes, and a later ReadAt that falls entirely inside them is answered
// from memory, so reader.Open, which reads the file's tail first, makes no
// request of its own for most files. Opening a file and reading its tail is
// then one round trip instead of two (a HEAD, then a GET), which is what
// counts over an object store, where each request waits 10-50 ms for its
// first byte. Servers that cannot answer a suffix range are met as they
// come: Open falls back to a HEAD when the answer is an error status such as
// 400 or 501, and takes the size from the headers of a 200 that ignored the
// range (reading its body only when it is no larger than the prefetch).
//
// Every other ReadAt is one GET with a Range header (the reader's coalesced
// reads keep them few: a read per run of row groups), retried on transient
// failures (connection errors, a body cut short, 408, 429 and 5xx statuses)
// from where the last attempt stopped. The file's validator (ETag, else
// Last-Modified) is sent with every range request after Open, so a file
// replaced during a scan is an error rather than a mix of two versions; the
// bytes kept by Open belong to the version Open saw. A server that ignores
// Range and sends the whole body is tolerated for files up to
// WithMaxWholeBody: the body is read once and kept.
//
// Object stores: S3, GCS and Azure accept ranged GETs on presigned or public
// URLs, so httpfile reads them directly (Azure Blob documents no suffix
// range; where one is not answered, Open falls back as above); for
// authenticated clients, wrap the client's ranged read in an io.ReaderAt
// and pass it to reader.Open or to a dataset.Opener.
package httpfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Option configures Open.
type Option func(*File) error

// WithClient sets the HTTP client. Default http.DefaultClient.
func WithClient(c *http.Client) Option {
	return func(f *File) error {
		if c == nil {
			return errors.New("httpfile: WithClient(nil)")
		}
		f.client = c
		return nil
	}
}

// WithRetries sets how many times a failed request is retried. Default 4.
func WithRetries(n int) Option {
	return func(f *File) error {
		if n < 0 || n > 100 {
			return fmt.Errorf("httpfile: WithRetries(%d): must be 0..100", n)
		}
		f.retries = n
		return nil
	}
}

// WithBackoff sets the wait before the first retry; it doubles for each
// further one. Default 100ms.
func WithBackoff(d time.Duration) Option {
	return func(f *File) error {
		if d < 0 {
			return fmt.Errorf("httpfile: WithBackoff(%v): must not be negative", d)
		}
		f.backoff = d
		return nil
	}
}

// WithHeader adds a header to every request (an Authorization token, say).
func WithHeader(key, value string) Option {
	return func(f *File) error {
		f.header.Add(key, value)
		return nil
	}
}

// WithMaxWholeBody sets the largest file read whole, and kept in memory,
// from a server that ignores Range. Default 64 MiB; 0 refuses such servers.
func WithMaxWholeBody(n int64) Option {
	return func(f *File) error {
		if n < 0 {
			return fmt.Errorf("httpfile: WithMaxWholeBody(%d): must not be negative", n)
		}
		f.maxWhole = n
		return nil
	}
}

// DefaultTailPrefetch is how many bytes from the end of the file Open fetches
// and keeps, unless WithTailPrefetch says otherwise.
//
// Design note: an ORC file's tail (postscript, footer and stripe metadata) is
// usually a few KiB to a few tens of KiB, and reader.Open reads the last
// 16 KiB first and then whatever of the tail that missed. 64 KiB covers both
// reads for most files, so opening an ORC file costs one request, while the
// bytes fetched past what the reader needs cost well under a millisecond at
// object-store bandwidths, against the 10-50 ms of a second request.
const DefaultTailPrefetch = 64 << 10

// maxTailPrefetch bounds WithTailPrefetch: Open allocates up to that many
// bytes.
const maxTailPrefetch = 256 << 20

// WithTailPrefetch sets how many bytes from the end of the file Open fetches,
// in the one request that also learns the file's size, and keeps for ReadAt.
// Default DefaultTailPrefetch (64 KiB); range 0..256 MiB. 0 makes Open send a
// HEAD instead and keep nothing, as before the prefetch existed.
func WithTailPrefetch(n int64) Option {
	return func(f *File) error {
		if n < 0 || n > maxTailPrefetch {
			return fmt.Errorf("httpfile: WithTailPrefetch(%d): must be 0..%d", n, maxTailPrefetch)
		}
		f.prefetch = n
		return nil
	}
}

// File is a file read over HTTP. Its methods are safe for concurrent use.
type File struct {
	ctx      context.Context
	url      string
	client   *http.Client
	header   http.Header
	retries  int
	backoff  time.Duration
	maxWhole int64
	prefetch int64 // WithTailPrefetch

	size      int64
	validator string // ETag or Last-Modified, "" when the server gives neither
	etag      bool   // validator is an ETag

	requests atomic.Int64
	cached   atomic.Int64 // ReadAt calls answered from tail or whole
	mu       sync.Mutex
	whole    []byte // the body, from a server that ignores Range
	// tail holds the file's bytes from tailOff to the end, fetched by Open.
	// It is never written after Open; ReadAt copies out of it.
	tail    []byte
	tailOff int64
}

// Open opens the file at url with one request: a GET of its last
// DefaultTailPrefetch bytes (see WithTailPrefetch) with a suffix range,
// retried on transient failures. The answer's Content-Range gives the size,
// its ETag or Last-Modified the validator, and its body is kept so that a
// ReadAt inside it needs no request. A refusal (401, 403) or a missing file
// (404, 410) is an error, as it would be for a HEAD. A server that cannot answer the suffix range is handled as
// follows: an error status such as 400 or 501, or a 416 for a file that is
// not empty, makes Open fall back to a HEAD (and, when the HEAD has no
// Content-Length, to a one-byte GET); a 200 that ignored the range gives the
// size from its Content-Length, and its body is kept only when it is no
// larger than the prefetch (and WithMaxWholeBody), else closed unread. A
// Content-Range that is malformed or does not describe the file's last bytes
// is an error naming the URL. With WithTailPrefetch(0), Open sends the HEAD
// directly.
//
// ctx bounds every request of the File.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	f := &File{ctx: ctx, url: url, client: http.DefaultClient, header: http.Header{}, retries: 4,
		backoff: 100 * time.Millisecond, maxWhole: 64 << 20, prefetch: DefaultTailPrefetch, size: -1}
	for _, o := range opts {
		if err := o(f); err != nil {
			return nil, err
		}
	}
	if f.prefetch > 0 {
		done, err := f.openTail()
		if err != nil {
			return nil, err
		}
		if done {
			return f, nil
		}
	}
	if err := f.head(); err != nil {
		return nil, err
	}
	if f.size < 0 { // no Content-Length on HEAD: ask for one byte
		if err := f.probeSize(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// head learns the file's size and validator with a HEAD request; the size
// stays -1 when the answer has no Content-Length.
func (f *File) head() error {
	return f.retry(func() (bool, error) {
		resp, err := f.do(http.MethodHead, "")
		if err != nil {
			return true, err
		}
		resp.Body.Close()
		if retryable(resp.StatusCode) {
			return true, statusError(resp, f.url)
		}
		if resp.StatusCode != http.StatusOK {
			return false, statusError(resp, f.url)
		}
		f.setValidator(resp)
		f.size = resp.ContentLength
		return false, nil
	})
}

// probeSize learns the size from a one-byte range's Content-Range.
func (f *File) probeSize() error {
	return f.retry(func() (bool, error) {
		resp, err := f.do(http.MethodGet, "bytes=0-0")
		if err != nil {
			return true, err
		}
		defer resp.Body.Close()
		switch {
		case retryable(resp.StatusCode):
			return true, statusError(resp, f.url)
		case resp.StatusCode == http.StatusPartialContent:
			_, _, total, err := parseContentRange(resp.Header.Get("Content-Range"))
			if err != nil || total < 0 {
				return false, fmt.Errorf("httpfile: %s: no size in Content-Range %q", f.url, resp.Header.Get("Content-Range"))
			}
			f.size = total
			return false, nil
		case resp.StatusCode == http.StatusOK:
			return false, f.keepWhole(resp)
		}
		return false, statusError(resp, f.url)
	})
}

func (f *File) setValidator(resp *http.Response) {
	if e := resp.Header.Get("ETag"); e != "" && !strings.HasPrefix(e, "W/") {
		f.validator, f.etag = e, true
	} else if lm := resp.Header.Get("Last-Modified"); lm != "" {
		f.validator = lm
	}
}

// Size returns the file's size in bytes.
func (f *File) Size() int64 { return f.size }

// Requests returns how many HTTP requests the File has made, retries
// included. Reads answered from memory are not requests.
func (f *File) Requests() int64 { return f.requests.Load() }

// CachedReads returns how many ReadAt calls were answered from memory, with
// no request: from the tail fetched by Open, or from a whole body kept from
// a server ignoring Range.
func (f *File) CachedReads() int64 { return f.cached.Load() }

// Close releases the File: the tail kept by Open and a body kept from a
// server ignoring Range. Later reads go to the network.
func (f *File) Close() error {
	f.mu.Lock()
	f.whole, f.tail = nil, nil
	f.mu.Unlock()
	return nil
}

// do sends one request.
func (f *File) do(method, rng string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(f.ctx, method, f.url, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range f.header {
		req.Header[k] = vs
	}
	if rng != "" {
		req.Header.Set("Range", rng)
		if f.validator != "" {
			// If-Range: a changed file answers 200 with the new body,
			// which ReadAt then refuses.
			req.Header.Set("If-Range", f.validator)
		}
	}
	f.requests.Add(1)
	return f.client.Do(req)
}

// ReadAt reads len(p) bytes at off. A read that falls entirely inside the
// tail kept by Open (or a whole body kept from a server ignoring Range) is
// copied from memory; any other read is one range request (retried), even
// when part of it is in memory.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("httpfile: ReadAt at negative offset %d", off)
	}
	if off >= f.size {
		return 0, io.EOF
	}
	want := p
	if rest := f.size - off; int64(len(want)) > rest {
		want = want[:rest]
	}
	f.mu.Lock()
	whole, tail := f.whole, f.tail
	f.mu.Unlock()
	if whole != nil {
		f.cached.Add(1)
		n := copy(want, whole[off:])
		return n, eofIfShort(n, len(p))
	}
	if tail != nil && off >= f.tailOff && off+int64(len(want)) <= f.tailOff+int64(len(tail)) {
		f.cached.Add(1)
		n := copy(want, tail[off-f.tailOff:])
		return n, eofIfShort(n, len(p))
	}
	got := 0
	err := f.retry(func() (bool, error) {
		for got < len(want) {
			start := off + int64(got)
			resp, err := f.do(http.MethodGet, fmt.Sprintf("bytes=%d-%d", start, off+int64(len(want))-1))
			if err != nil {
				return true, err
			}
			retry, err := f.body(resp, want, &got, start)
			resp.Body.Close()
			if err != nil {
				return retry, err
			}
		}
		return false, nil
	})
	if err != nil {
		return got, err
	}
	return got, eofIfShort(got, len(p))
}

// body reads a range response into want[*got:].
func (f *File) body(resp *http.Response, want []byte, got *int, start int64) (retry bool, err error) {
	switch {
	case retryable(resp.StatusCode):
		return true, statusError(resp, f.url)
	case resp.StatusCode == http.StatusOK:
		// The server ignored Range (or If-Range found the file changed).
		if f.validator != "" {
			nf := &File{validator: f.validator, etag: f.etag}
			nf.setValidator(resp)
			if nf.validator != f.validator {
				return false, fmt.Errorf("httpfile: %s changed while being read (validator %s, now %s)", f.url, f.validator, nf.validator)
			}
		}
		if err := f.keepWhole(resp); err != nil {
			return false, err
		}
		*got += copy(want[*got:], f.whole[start:])
		return false, nil
	case resp.StatusCode != http.StatusPartialContent:
		return false, statusError(resp, f.url)
	}
	first, _, _, err := parseContentRange(resp.Header.Get("Content-Range"))
	if err == nil && first < 0 { // "bytes */total" names no bytes
		err = fmt.Errorf("bad Content-Range %q", resp.Header.Get("Content-Range"))
	}
	if err != nil {
		return false, fmt.Errorf("httpfile: %s: %w", f.url, err)
	}
	if first != start {
		return false, fmt.Errorf("httpfile: %s: asked for bytes from %d, the server sent from %d", f.url, start, first)
	}
	n, err := io.ReadFull(resp.Body, want[*got:])
	*got += n
	if err != nil {
		return true, fmt.Errorf("httpfile: %s: body cut short at byte %d: %w", f.url, start+int64(n), err)
	}
	return false, nil
}

// keepWhole reads and keeps a whole body, for a server ignoring Range.
func (f *File) keepWhole(resp *http.Response) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.whole != nil {
		return nil
	}
	if f.size < 0 {
		f.size = resp.ContentLength
	}
	if f.size > f.maxWhole || (f.size < 0 && f.maxWhole == 0) {
		return fmt.Errorf("httpfile: %s: the server ignores Range requests and the file (%d bytes) is larger than WithMaxWholeBody (%d)", f.url, f.size, f.maxWhole)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.maxWhole+1))
	if err != nil {
		return fmt.Errorf("httpfile: %s: reading the whole body: %w", f.url, err)
	}
	if int64(len(body)) > f.maxWhole {
		return fmt.Errorf("httpfile: %s: the server ignores Range requests and the file is larger than WithMaxWholeBody (%d)", f.url, f.maxWhole)
	}
	if f.size >= 0 && int64(len(body)) != f.size {
		return fmt.Errorf("httpfile: %s: the whole body has %d bytes, the file %d", f.url, len(body), f.size)
	}
	f.size = int64(len(body))
	f.whole = body
	return nil
}

// retry runs fn until it succeeds, fails for good, or the retries run out.
func (f *File) retry(fn func() (retry bool, err error)) error {
	wait := f.backoff
	for attempt := 0; ; attempt++ {
		again, err := fn()
		if err == nil {
			return nil
		}
		if !again || attempt >= f.retries || f.ctx.Err() != nil {
			if attempt > 0 {
				return fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return err
		}
		select {
		case <-time.After(wait):
		case <-f.ctx.Done():
			return f.ctx.Err()
		}
		wait *= 2
	}
}

func retryable(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

func statusError(resp *http.Response, url string) error {
	return fmt.Errorf("httpfile: %s: %s", url, resp.Status)
}

func eofIfShort(n, want int) error {
	if n < want {
		return io.EOF
	}
	return nil
}
