package storegw

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orcgo/orc/internal/latency"
	"github.com/orcgo/orc/internal/readat"
)

// Client talks to a helper. Its methods are safe for concurrent use.
type Client struct {
	base    string // http://127.0.0.1:PORT
	token   string
	hc      *http.Client
	timeout atomic.Int64 // ns; 0: none (SetTimeout)
}

// ErrTimeout is what the error of a request the store did not answer
// within the client's timeout wraps.
var ErrTimeout = errors.New("timed out")

// SetTimeout bounds each open, read and listing the client asks of the
// helper, the store's own requests and the SDK's retries of them inside
// it, to d (0: no bound but the caller's context). The helper's request to
// the store ends with it. Uploads are not bounded. A request that runs out
// of time fails with an error wrapping ErrTimeout that names the URL.
func (c *Client) SetTimeout(d time.Duration) { c.timeout.Store(int64(max(d, 0))) }

// bounded returns ctx with the client's timeout, if any.
func (c *Client) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if d := time.Duration(c.timeout.Load()); d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}

// timedOut turns err into an ErrTimeout naming url and what was asked when
// the bounded context ran out while the caller's had not.
func (c *Client) timedOut(parent, bounded context.Context, err error, what, storeURL string) error {
	if err == nil || parent.Err() != nil || !errors.Is(bounded.Err(), context.DeadlineExceeded) {
		return err
	}
	return &timeoutErr{msg: fmt.Sprintf("%s %s: the store did not answer within %v", what, storeURL, time.Duration(c.timeout.Load()))}
}

type timeoutErr struct{ msg string }

func (e *timeoutErr) Error() string { return e.msg }
func (e *timeoutErr) Unwrap() error { return ErrTimeout }
func (e *timeoutErr) Timeout() bool { return true }

// NewClient returns a client of the helper at base (http://host:port)
// that sends token.
func NewClient(base, token string) *Client {
	return &Client{base: strings.TrimSuffix(base, "/"), token: token, hc: &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: 64, DisableCompression: true, Proxy: nil,
	}}}
}

// call sends one request under the client's timeout (bounded), hands the
// answer to read and closes it; an error of either that the timeout
// caused becomes an ErrTimeout saying what was asked (what) of storeURL.
func (c *Client) call(ctx context.Context, method, path string, q url.Values, what, storeURL string, read func(*http.Response) error) error {
	bctx, cancel := c.bounded(ctx)
	defer cancel()
	resp, err := c.request(bctx, method, path, q, nil)
	if err == nil {
		err = read(resp)
		resp.Body.Close()
	}
	return c.timedOut(ctx, bctx, err, what, storeURL)
}

func (c *Client) request(ctx context.Context, method, path string, q url.Values, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path+"?"+q.Encode(), body)
	if err != nil {
		return nil, err
	}
	req.Header.Set(tokenHeader, c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the orc-cloud helper: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, answerError(resp)
	}
	return resp, nil
}

// answerError is the error a failure status stands for: its text, wrapping
// the sentinel of its status.
func answerError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
	msg := strings.TrimSpace(string(b))
	var sentinel error
	switch resp.StatusCode {
	case http.StatusBadRequest:
		sentinel = ErrBadURL
	case http.StatusForbidden:
		sentinel = ErrDenied
	case http.StatusNotFound:
		sentinel = fs.ErrNotExist
	case http.StatusConflict:
		sentinel = ErrChanged
	default:
		return errors.New(msg)
	}
	return &answerErr{msg: msg, is: sentinel}
}

type answerErr struct {
	msg string
	is  error
}

func (e *answerErr) Error() string { return e.msg }
func (e *answerErr) Unwrap() error { return e.is }

// File is an object opened through the helper: an io.ReaderAt with
// ReadAtContext and Latency, as the reader package reads a remote file.
type File struct {
	c       *Client
	ctx     context.Context
	url     string
	handle  string
	size    int64
	version string
	tailOff int64
	tail    []byte
	latency latency.Min
	reqs    atomic.Int64
	once    sync.Once
}

// Open opens the object at storeURL under ctx (which reads without a
// context of their own run under).
func (c *Client) Open(ctx context.Context, storeURL string) (*File, error) {
	f, err := c.open(ctx, storeURL)
	if err != nil {
		return nil, err
	}
	f.ctx = ctx
	return f, nil
}

func (c *Client) open(ctx context.Context, storeURL string) (*File, error) {
	start := time.Now()
	f := &File{c: c, url: storeURL}
	if err := c.call(ctx, http.MethodPost, "/open", url.Values{"u": {storeURL}}, "opening", storeURL, f.opened); err != nil {
		return nil, err
	}
	f.reqs.Add(1)
	f.latency.Note(time.Since(start))
	return f, nil
}

// opened takes the helper's answer to an open: the handle, version, size
// and the object's tail.
func (f *File) opened(resp *http.Response) error {
	f.handle, f.version = resp.Header.Get("X-Orcgo-Handle"), resp.Header.Get("X-Orcgo-Version")
	var err error
	f.size, err = strconv.ParseInt(resp.Header.Get("X-Orcgo-Size"), 10, 64)
	if err == nil {
		f.tailOff, err = strconv.ParseInt(resp.Header.Get("X-Orcgo-Tail-Offset"), 10, 64)
	}
	if err == nil {
		f.tail, err = io.ReadAll(io.LimitReader(resp.Body, f.size+1))
	}
	if err == nil && (f.size < 0 || f.tailOff < 0 || f.tailOff+int64(len(f.tail)) != f.size) {
		err = fmt.Errorf("the orc-cloud helper sent a tail of %d bytes at %d for an object of %d", len(f.tail), f.tailOff, f.size)
	}
	return err
}

// Size returns the object's size.
func (f *File) Size() int64 { return f.size }

// Version returns the version the File's reads are pinned to.
func (f *File) Version() string { return f.version }

// Requests returns how many requests the File has sent, its open's included.
func (f *File) Requests() int64 { return f.reqs.Load() }

// Latency returns the shortest wait for an answer so far.
func (f *File) Latency() time.Duration { return f.latency.Get() }

// ReadAt reads under the context given to Open.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.ReadAtContext(f.ctx, p, off) }

// ReadAtContext reads len(p) bytes at off: from the tail kept by Open, or
// with one request.
func (f *File) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: read at negative offset %d", f.url, off)
	}
	want, err := readat.Clip(p, off, f.size)
	if err != nil {
		return 0, err
	}
	if n, ok := readat.FromTail(want, off, f.tailOff, f.tail); ok {
		return readat.Done(n, p)
	}
	f.reqs.Add(1)
	start := time.Now()
	bctx, cancel := f.c.bounded(ctx)
	defer cancel()
	resp, err := f.c.request(bctx, http.MethodGet, "/read", url.Values{"h": {f.handle},
		"off": {strconv.FormatInt(off, 10)}, "n": {strconv.Itoa(len(want))}}, nil)
	if err != nil {
		return 0, f.c.timedOut(ctx, bctx, err, fmt.Sprintf("reading %d bytes at %d of", len(want), off), f.url)
	}
	defer resp.Body.Close()
	f.latency.Note(time.Since(start))
	n, err := io.ReadFull(resp.Body, want)
	if err != nil {
		if terr := f.c.timedOut(ctx, bctx, err, fmt.Sprintf("reading %d bytes at %d of", len(want), off), f.url); terr != err {
			return n, terr
		}
		return n, fmt.Errorf("%s: reading %d bytes at %d: %w", f.url, len(want), off, err)
	}
	return readat.Done(n, p)
}

// Close forgets the object in the helper.
func (f *File) Close() error {
	f.once.Do(func() {
		if resp, err := f.c.request(context.Background(), http.MethodPost, "/close", url.Values{"h": {f.handle}}, nil); err == nil {
			resp.Body.Close()
		}
	})
	return nil
}

// List lists the objects below the prefix storeURL.
func (c *Client) List(ctx context.Context, storeURL string) ([]Entry, error) {
	var list []Entry
	err := c.call(ctx, http.MethodGet, "/list", url.Values{"u": {storeURL}}, "listing", storeURL, func(resp *http.Response) error {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var e Entry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				return fmt.Errorf("listing %s: the orc-cloud helper sent %q: %v", storeURL, sc.Text(), err)
			}
			list = append(list, e)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("listing %s: %w", storeURL, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// Upload is an object being written through the helper: the object appears
// when Close returns nil; Abort (or a failed Close) leaves none.
type Upload struct {
	pw   *io.PipeWriter
	done chan error
	url  string
}

// errAborted ends an aborted upload's body early.
var errAborted = errors.New("upload aborted")

// Create starts an upload to storeURL. The body streams to the helper as
// it is written.
func (c *Client) Create(ctx context.Context, storeURL string) *Upload {
	pr, pw := io.Pipe()
	u := &Upload{pw: pw, done: make(chan error, 1), url: storeURL}
	go func() {
		resp, err := c.request(ctx, http.MethodPut, "/put", url.Values{"u": {storeURL}}, pr)
		if err == nil {
			resp.Body.Close()
		}
		pr.CloseWithError(fmt.Errorf("the upload of %s ended: %v", storeURL, err))
		u.done <- err
	}()
	return u
}

// Write sends p.
func (u *Upload) Write(p []byte) (int, error) { return u.pw.Write(p) }

// Close ends the body and waits for the object to be complete.
func (u *Upload) Close() error {
	u.pw.Close()
	return <-u.done
}

// Abort ends the upload early: the helper aborts it, leaving no object.
func (u *Upload) Abort() {
	u.pw.CloseWithError(errAborted)
	<-u.done
}
