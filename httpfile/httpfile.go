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
// failures (connection errors, a body cut short, 408, 429 and 5xx statuses,
// a request that stalled or ran over its timeout) from where the last
// attempt stopped. The file's validator (ETag, else
// Last-Modified) is sent with every range request after Open, as If-Range,
// and every answer's validator is compared with it, so a file replaced
// during a scan is an error naming the URL rather than a mix of two
// versions, even from a server that ignores If-Range; the bytes kept by
// Open belong to the version Open saw. A server that ignores
// Range and sends the whole body is tolerated for files up to
// WithMaxWholeBody: the body is read once and kept.
//
// Deadlines: a request that receives nothing (less than 4 KiB) for the
// stall timeout, 30 s by default (WithStallTimeout), is abandoned and
// retried, as is one that runs over WithRequestTimeout (none by default);
// a call that still fails returns a *RequestError naming the URL and the
// range, which wraps ErrTimeout. ReadAtContext reads under a context of
// the caller's (a scan's: reader.WithContext passes it), and every request
// also ends when the context given to Open is done.
//
// Answers are checked against what was asked: a Content-Range starting
// elsewhere, a total that is not the file's size (the file changed), a
// Content-Length that disagrees with the Content-Range, or a 200 whose
// length is not the file's are errors, not retried; a range shorter than
// asked (or a body cut short) is retried from where it stopped; no more
// bytes are read than were asked for, so a body that never ends costs
// nothing but the request. Redirects are followed (at most 10, a loop is
// an error), and a redirect to another host gets none of the headers of
// WithHeader (credentials), unless WithRedirectHeaders allows it.
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
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orcgo/orc/internal/latency"
	"github.com/orcgo/orc/internal/readat"
)

// DefaultClient is the HTTP client of a File opened without WithClient:
// http.DefaultTransport's settings (proxy from the environment, timeouts,
// HTTP/2), but keeping up to 64 idle connections to a host where the
// default keeps 2. A scan reading ahead sends up to 32 ranged requests at
// once, again for each batch of row groups; with 2 kept, each burst would
// open 30 new connections, and over TLS pay their handshakes before the
// first byte.
var DefaultClient = &http.Client{Transport: defaultTransport()}

func defaultTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}

// Option configures Open.
type Option func(*File) error

// WithClient sets the HTTP client. Default DefaultClient. The File uses a
// copy of it whose CheckRedirect applies the File's rules on redirects
// first (see WithRedirectHeaders), then c's own.
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
// A redirect to another host does not get it, unless WithRedirectHeaders
// allows it.
func WithHeader(key, value string) Option {
	return func(f *File) error {
		f.header.Add(key, value)
		return nil
	}
}

// WithRedirectHeaders(true) sends the headers of WithHeader on redirects
// to other hosts too (a presigning service that redirects to a bucket
// asking for the same token, say). Default false: once a redirect leaves
// the URL's scheme, host and port, none of them is sent.
func WithRedirectHeaders(allow bool) Option {
	return func(f *File) error {
		f.redirectHeaders = allow
		return nil
	}
}

// WithStallTimeout sets how long a request may receive less than 4 KiB
// (waiting for the connection, the answer's headers or its body) before it
// is abandoned and retried. Default DefaultStallTimeout (30 s); 0 turns it
// off; otherwise at least 1ms.
func WithStallTimeout(d time.Duration) Option {
	return func(f *File) error {
		if d < 0 || (d > 0 && d < time.Millisecond) {
			return fmt.Errorf("httpfile: WithStallTimeout(%v): must be 0 (off) or at least 1ms", d)
		}
		f.stall = d
		return nil
	}
}

// WithRequestTimeout bounds each request, from sending it to the last
// byte of its answer; one that runs over is abandoned and retried. A
// request reads at most 4 MiB for a scan (reader.WithMaxReadSize), or
// the whole file from a server ignoring Range. Default 0: no bound but the
// stall timeout; otherwise at least 1ms.
func WithRequestTimeout(d time.Duration) Option {
	return func(f *File) error {
		if d < 0 || (d > 0 && d < time.Millisecond) {
			return fmt.Errorf("httpfile: WithRequestTimeout(%v): must be 0 (none) or at least 1ms", d)
		}
		f.reqTimeout = d
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
	ctx             context.Context
	url             string
	client          *http.Client
	header          http.Header
	retries         int
	backoff         time.Duration
	maxWhole        int64
	prefetch        int64         // WithTailPrefetch
	stall           time.Duration // WithStallTimeout
	reqTimeout      time.Duration // WithRequestTimeout
	redirectHeaders bool          // WithRedirectHeaders
	emptyTail       bool          // Open's suffix range had an empty 200 answer

	size      int64
	validator string // ETag or Last-Modified, "" when the server gives neither
	etag      bool   // validator is an ETag

	requests atomic.Int64
	cached   atomic.Int64 // ReadAt calls answered from tail or whole
	latency  latency.Min  // the shortest wait for response headers
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
// larger than the prefetch (and WithMaxWholeBody), else closed unread; an
// empty body is taken for an empty file (Hive's) only when a HEAD then
// says Content-Length: 0 (a range request answered by an empty 200 is an
// error otherwise, at Open or at the read). A
// Content-Range that is malformed or does not describe the file's last bytes
// is an error naming the URL. With WithTailPrefetch(0), Open sends the HEAD
// directly. Errors are *RequestError values.
//
// ctx bounds every request of the File, Open's and those of later reads.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	if ctx == nil {
		return nil, errors.New("httpfile: Open with a nil context")
	}
	f := &File{ctx: ctx, url: url, client: DefaultClient, header: http.Header{}, retries: 4,
		backoff: 100 * time.Millisecond, maxWhole: 64 << 20, prefetch: DefaultTailPrefetch, size: -1,
		stall: DefaultStallTimeout}
	for _, o := range opts {
		if err := o(f); err != nil {
			return nil, err
		}
	}
	f.client = f.redirectClient(f.client)
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
		var re *RequestError
		if f.emptyTail && errors.As(err, &re) {
			re.Err = fmt.Errorf("a 200 with an empty body to the suffix range, and no HEAD to confirm an empty file: %w", re.Err)
		}
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
	return f.retry(f.ctx, &request{method: http.MethodHead}, func() (bool, error) {
		resp, done, err := f.send(f.ctx, http.MethodHead, "")
		if err != nil {
			return !isRedirectError(err), err
		}
		resp.Body.Close()
		done()
		if retryable(resp.StatusCode) {
			return true, statusError(resp)
		}
		if resp.StatusCode != http.StatusOK {
			return false, statusError(resp)
		}
		f.setValidator(resp)
		f.size = resp.ContentLength
		return false, nil
	})
}

// probeSize learns the size from a one-byte range's Content-Range.
func (f *File) probeSize() error {
	const rng = "bytes=0-0"
	return f.retry(f.ctx, &request{method: http.MethodGet, rng: rng}, func() (bool, error) {
		resp, done, err := f.send(f.ctx, http.MethodGet, rng)
		if err != nil {
			return !isRedirectError(err), err
		}
		defer done()
		defer resp.Body.Close()
		switch {
		case retryable(resp.StatusCode):
			return true, statusError(resp)
		case resp.StatusCode == http.StatusPartialContent:
			if err := f.sameVersion(resp); err != nil {
				return false, err
			}
			_, _, total, err := parseContentRange(resp.Header.Get("Content-Range"))
			if err != nil || total < 0 {
				return false, fmt.Errorf("no size in Content-Range %q", resp.Header.Get("Content-Range"))
			}
			f.size = total
			return false, nil
		case resp.StatusCode == http.StatusOK:
			if err := f.sameVersion(resp); err != nil {
				return false, err
			}
			if retry, err := f.keepWhole(resp); err != nil {
				return retry, err
			}
			if f.size == 0 {
				// The HEAD gave no size: an empty 200 to a range
				// request does not say the file is empty.
				f.whole, f.size = nil, -1
				return false, errors.New("a 200 with an empty body to a range request, and a HEAD without Content-Length: the file's size is unknown")
			}
			return false, nil
		}
		return false, statusError(resp)
	})
}

func (f *File) setValidator(resp *http.Response) {
	if e := resp.Header.Get("ETag"); e != "" && !strings.HasPrefix(e, "W/") {
		f.validator, f.etag = e, true
	} else if lm := resp.Header.Get("Last-Modified"); lm != "" {
		f.validator = lm
	}
}

// sameVersion checks an answer's validator against the one Open saw: an
// answer with an ETag other than Open's, or (when Open saw no ETag) a
// Last-Modified other than Open's, comes from another version of the file,
// which a server ignoring If-Range may send. An answer that carries no
// validator of the kind Open saw is taken as it comes: it gives nothing to
// compare (and its size is still checked).
func (f *File) sameVersion(resp *http.Response) error {
	if f.validator == "" {
		return nil
	}
	var now string
	if f.etag {
		// A weak ETag names a version only loosely; compare its opaque
		// part, as the weak comparison of RFC 9110 does.
		now = strings.TrimPrefix(resp.Header.Get("ETag"), "W/")
	} else {
		now = resp.Header.Get("Last-Modified")
	}
	if now == "" || now == f.validator {
		return nil
	}
	what := "Last-Modified"
	if f.etag {
		what = "ETag"
	}
	return fmt.Errorf("the file changed while being read: %s %s when opened, %s in this answer", what, f.validator, now)
}

// Size returns the file's size in bytes.
func (f *File) Size() int64 { return f.size }

// Latency returns the shortest time a request of the File has waited for
// its response's headers: the server's time to first byte and the
// network's round trip, the least a read that is not answered from the
// cached tail costs (0 before the first answer). reader.Open asks for it
// (reader.LatencyReader): a file whose tail came with Open's request
// answers the reader's first reads from memory, and would otherwise look
// local to it.
func (f *File) Latency() time.Duration { return f.latency.Get() }

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

// ReadAt reads len(p) bytes at off, under the context given to Open (see
// ReadAtContext).
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	return f.ReadAtContext(f.ctx, p, off)
}

// ReadAtContext reads len(p) bytes at off. A read that falls entirely
// inside the tail kept by Open (or a whole body kept from a server ignoring
// Range) is copied from memory; any other read is one range request
// (retried), even when part of it is in memory. The request ends, and
// ReadAtContext returns, as soon as ctx or the context given to Open is
// done; the error wraps the context's.
func (f *File) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("httpfile: ReadAt at negative offset %d", off)
	}
	if ctx == nil {
		return 0, errors.New("httpfile: ReadAtContext with a nil context")
	}
	want, err := readat.Clip(p, off, f.size)
	if err != nil {
		return 0, err
	}
	f.mu.Lock()
	whole, tail := f.whole, f.tail
	f.mu.Unlock()
	if whole != nil {
		f.cached.Add(1)
		return readat.Done(copy(want, whole[off:]), p)
	}
	if n, ok := readat.FromTail(want, off, f.tailOff, tail); ok {
		f.cached.Add(1)
		return readat.Done(n, p)
	}
	if err := f.ctxErr(ctx); err != nil {
		return 0, &RequestError{URL: f.url, Method: http.MethodGet, Range: fmt.Sprintf("bytes=%d-%d", off, off+int64(len(want))-1), Err: err}
	}
	got := 0
	req := &request{method: http.MethodGet}
	err = f.retry(ctx, req, func() (bool, error) {
		// Each attempt asks for the rest of the range.
		start := off + int64(got)
		req.rng = fmt.Sprintf("bytes=%d-%d", start, off+int64(len(want))-1)
		resp, done, err := f.send(ctx, http.MethodGet, req.rng)
		if err != nil {
			return !isRedirectError(err), err
		}
		defer done()
		defer resp.Body.Close()
		return f.body(resp, want, &got, start)
	})
	if err != nil {
		return got, err
	}
	return readat.Done(got, p)
}

// body reads the answer to a range request for want[*got:], which starts
// at start, into it. A range shorter than asked is read and reported as a
// transient error, so that the next attempt asks for the rest; a longer
// one is read as far as wanted.
func (f *File) body(resp *http.Response, want []byte, got *int, start int64) (retry bool, err error) {
	switch {
	case retryable(resp.StatusCode):
		return true, statusError(resp)
	case resp.StatusCode == http.StatusOK:
		// The server ignored Range (or If-Range found the file changed).
		if err := f.sameVersion(resp); err != nil {
			return false, err
		}
		if resp.ContentLength == 0 {
			return false, fmt.Errorf("a 200 with an empty body to a range request, for a file of %d bytes", f.size)
		}
		if resp.ContentLength >= 0 && resp.ContentLength != f.size {
			return false, fmt.Errorf("the file changed while being read: it had %d bytes, a 200 answer has %d", f.size, resp.ContentLength)
		}
		if retry, err := f.keepWhole(resp); err != nil {
			return retry, err
		}
		*got += copy(want[*got:], f.whole[start:])
		return false, nil
	case resp.StatusCode != http.StatusPartialContent:
		return false, statusError(resp)
	}
	// A server that ignores If-Range may answer from a replaced object.
	if err := f.sameVersion(resp); err != nil {
		return false, err
	}
	h := resp.Header.Get("Content-Range")
	first, last, total, err := parseContentRange(h)
	if err == nil && first < 0 { // "bytes */total" names no bytes
		err = fmt.Errorf("bad Content-Range %q", h)
	}
	if err != nil {
		return false, err
	}
	if total >= 0 && total != f.size {
		return false, fmt.Errorf("the file changed while being read: it had %d bytes, Content-Range %q says %d", f.size, h, total)
	}
	if first != start {
		return false, fmt.Errorf("asked for bytes from %d, the server sent from %d (Content-Range %q)", start, first, h)
	}
	if n := last - first + 1; resp.ContentLength >= 0 && resp.ContentLength != n {
		return false, fmt.Errorf("Content-Length %d but Content-Range %q (%d bytes)", resp.ContentLength, h, n)
	}
	dst := want[*got:]
	short := false
	if n := last - first + 1; n < int64(len(dst)) {
		dst, short = dst[:n], true
	}
	n, err := io.ReadFull(resp.Body, dst)
	*got += n
	if err != nil {
		if errors.Is(err, ErrTimeout) {
			return true, fmt.Errorf("%w, at byte %d", err, start+int64(n))
		}
		return true, fmt.Errorf("body cut short at byte %d: %w", start+int64(n), err)
	}
	if short {
		return true, fmt.Errorf("the server sent bytes %d-%d, fewer than asked (Content-Range %q)", first, last, h)
	}
	return false, nil
}

// keepWhole reads and keeps a whole body, for a server ignoring Range. It
// reads no more than the file's size (when known) and WithMaxWholeBody,
// plus a byte to tell a longer body.
func (f *File) keepWhole(resp *http.Response) (retry bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.whole != nil {
		return false, nil
	}
	size := f.size
	if size < 0 {
		size = resp.ContentLength
	}
	if size > f.maxWhole || (size < 0 && f.maxWhole == 0) {
		return false, fmt.Errorf("the server ignores Range requests and the file (%d bytes) is larger than WithMaxWholeBody (%d)", size, f.maxWhole)
	}
	var body []byte
	if size >= 0 {
		body = make([]byte, size)
		if n, err := io.ReadFull(resp.Body, body); err != nil {
			return true, fmt.Errorf("reading the whole body: cut short at byte %d of %d: %w", n, size, err)
		}
		if n, _ := io.ReadFull(resp.Body, make([]byte, 1)); n > 0 {
			return false, fmt.Errorf("the whole body is longer than the file's %d bytes", size)
		}
	} else {
		if body, err = io.ReadAll(io.LimitReader(resp.Body, f.maxWhole+1)); err != nil {
			return true, fmt.Errorf("reading the whole body: %w", err)
		}
		if int64(len(body)) > f.maxWhole {
			return false, fmt.Errorf("the server ignores Range requests and the file is larger than WithMaxWholeBody (%d)", f.maxWhole)
		}
	}
	f.size = int64(len(body))
	f.whole = body
	return false, nil
}

func retryable(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

// isRedirectError reports whether the client refused a redirect (not
// transient).
func isRedirectError(err error) bool {
	return errors.Is(err, errRedirect)
}

func statusError(resp *http.Response) error {
	return &statusErr{status: resp.Status, code: resp.StatusCode}
}

// statusErr is an error status. A 404 or 410 is fs.ErrNotExist to
// errors.Is, so that callers tell a missing file from a failing one.
type statusErr struct {
	status string
	code   int
}

func (e *statusErr) Error() string { return "the server answered " + e.status }

func (e *statusErr) Is(target error) bool {
	return target == fs.ErrNotExist && (e.code == http.StatusNotFound || e.code == http.StatusGone)
}
