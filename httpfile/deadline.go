package httpfile

// Deadlines and retries. Every request runs under a context of its own,
// derived from the context of the call (ReadAtContext's, or the File's for
// ReadAt and Open) and cancelled by the File's context too, by the stall
// timer and by the request timer:
//
//   - the stall timer starts with the request and restarts each time
//     stallBytes more bytes of the answer arrive (its headers count as
//     progress). It fires when the stall timeout passes without them: a
//     server that answers nothing, a half-open connection, or one that
//     trickles a byte a second;
//   - the request timer (WithRequestTimeout) bounds the whole request,
//     from sending it to the answer's last byte.
//
// A timer that fires makes the request fail with a *timeoutError, which
// is retried like other transient failures (connection errors, a body
// cut short, 408, 429 and 5xx); the call's and the File's contexts are
// not: once either is done the call returns its error at once, without
// waiting for the backoff. A call that fails for good returns a
// *RequestError naming the URL and the range.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// DefaultStallTimeout is how long a request may go without progress before
// it is abandoned (and retried), unless WithStallTimeout says otherwise.
//
// Design note: object stores answer a range request's first byte in 10-50
// ms and send at tens of MB/s, and under throttling take seconds, not tens
// of seconds; a connection silent for 30 s is half-open or a server that
// will not answer. A working scan thus never meets it, and a stalled one
// fails after (1+retries) x 30 s plus the backoff: about 2.5 minutes with
// the default 4 retries (WithRetries), each attempt resuming where the
// last one stopped.
const DefaultStallTimeout = 30 * time.Second

// stallBytes is the progress that restarts the stall timer: a request that
// receives fewer bytes than this (or than the rest of its answer) in a
// stall timeout has stalled. A server trickling a byte every half second
// is as stalled as a silent one: 4 KiB in 30 s is 136 bytes a second.
const stallBytes = 4 << 10

// ErrTimeout is what the error of a request that timed out wraps: one that
// stalled (WithStallTimeout) or ran over WithRequestTimeout on its last
// attempt. Test for it with errors.Is.
var ErrTimeout = errors.New("timeout")

// timeoutError is why a timer cancelled a request.
type timeoutError struct {
	msg string
}

func (e *timeoutError) Error() string   { return e.msg }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Is(t error) bool { return t == ErrTimeout }

// RequestError is the error of a call that failed for good: a request
// refused, answered wrongly, or failing past its retries. It names the
// request: the URL, the method and the Range header sent.
type RequestError struct {
	URL      string
	Method   string // GET or HEAD
	Range    string // the Range header, "bytes=first-last" or "bytes=-n"; "" for none
	Attempts int    // the requests made for this range, retries included
	Err      error
}

func (e *RequestError) Error() string {
	s := "httpfile: " + e.URL
	if e.Range != "" {
		s += " (" + e.Range + ")"
	} else if e.Method != http.MethodGet {
		s += " (" + e.Method + ")"
	}
	s += ": " + e.Err.Error()
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return s
}

func (e *RequestError) Unwrap() error { return e.Err }

// Timeout reports whether the request timed out (as net.Error does).
func (e *RequestError) Timeout() bool { return errors.Is(e.Err, ErrTimeout) }

// attempt is one request under its deadlines.
type attempt struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	stall  *time.Timer // nil when the stall timeout is off
	wait   time.Duration
	total  *time.Timer // the request timer, nil when off
	stopF  func() bool // ends the watch on the File's context
	got    int         // bytes since the stall timer last restarted
}

// begin starts an attempt under ctx and the File's deadlines.
func (f *File) begin(ctx context.Context) *attempt {
	a := &attempt{wait: f.stall}
	a.ctx, a.cancel = context.WithCancelCause(ctx)
	if ctx != f.ctx {
		a.stopF = context.AfterFunc(f.ctx, func() { a.cancel(context.Cause(f.ctx)) })
	}
	if f.stall > 0 {
		err := &timeoutError{fmt.Sprintf("stalled: fewer than %d bytes in %v (the stall timeout)", stallBytes, f.stall)}
		a.stall = time.AfterFunc(f.stall, func() { a.cancel(err) })
	}
	if f.reqTimeout > 0 {
		err := &timeoutError{fmt.Sprintf("not done in %v (the request timeout)", f.reqTimeout)}
		a.total = time.AfterFunc(f.reqTimeout, func() { a.cancel(err) })
	}
	return a
}

// progress counts n bytes received.
func (a *attempt) progress(n int) {
	if a.stall == nil {
		return
	}
	a.got += n
	if a.got >= stallBytes {
		a.got = 0
		a.stall.Reset(a.wait)
	}
}

// restart counts an event that is progress whatever its size (the
// answer's headers).
func (a *attempt) restart() {
	if a.stall != nil {
		a.got = 0
		a.stall.Reset(a.wait)
	}
}

// end releases the attempt's timers and context.
func (a *attempt) end() {
	if a.stall != nil {
		a.stall.Stop()
	}
	if a.total != nil {
		a.total.Stop()
	}
	if a.stopF != nil {
		a.stopF()
	}
	a.cancel(nil)
}

// why replaces an error caused by a timer with the timer's error.
func (a *attempt) why(err error) error {
	if err == nil {
		return nil
	}
	var te *timeoutError
	if errors.As(context.Cause(a.ctx), &te) {
		return te
	}
	return err
}

// watched is an answer's body read under its attempt: each read counts as
// progress, and an error caused by a timer says which.
type watched struct {
	body io.ReadCloser
	a    *attempt
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	w.a.progress(n)
	if err != nil && err != io.EOF {
		err = w.a.why(err)
	}
	return n, err
}

func (w *watched) Close() error { return w.body.Close() }

// send sends one request under ctx and the File's deadlines. The response's
// body is read under them too; done must be called once it is closed.
func (f *File) send(ctx context.Context, method, rng string) (resp *http.Response, done func(), err error) {
	a := f.begin(ctx)
	req, err := http.NewRequestWithContext(a.ctx, method, f.url, nil)
	if err != nil {
		a.end()
		return nil, nil, err
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
	start := time.Now()
	resp, err = f.client.Do(req)
	if err == nil {
		f.latency.Note(time.Since(start))
	}
	if err != nil {
		// The *RequestError names the URL: net/http's *url.Error is
		// dropped unless it names a redirect's.
		var ue *url.Error
		if errors.As(err, &ue) && (ue.URL == f.url || errors.Is(err, errRedirect)) {
			err = ue.Err
		}
		err = a.why(err)
		a.end()
		return nil, nil, err
	}
	a.restart()
	resp.Body = &watched{resp.Body, a}
	return resp, a.end, nil
}

// request describes a request for its errors.
type request struct {
	method, rng string
}

// retry runs fn until it succeeds, fails for good, or the retries run out,
// waiting the backoff between attempts. fn returns whether its error is
// transient; it may change req.rng, which errors name. A failure of a
// request (fn's error is not already a *RequestError) is returned as a
// *RequestError; once ctx or the File's context is done, their error.
func (f *File) retry(ctx context.Context, req *request, fn func() (retry bool, err error)) error {
	wait := f.backoff
	for attempt := 1; ; attempt++ {
		again, err := fn()
		if err == nil {
			return nil
		}
		if cerr := f.ctxErr(ctx); cerr != nil {
			return &RequestError{URL: f.url, Method: req.method, Range: req.rng, Attempts: attempt, Err: cerr}
		}
		if !again || attempt > f.retries {
			var re *RequestError
			if errors.As(err, &re) {
				return err
			}
			return &RequestError{URL: f.url, Method: req.method, Range: req.rng, Attempts: attempt, Err: err}
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
		case <-f.ctx.Done():
		}
		t.Stop()
		if cerr := f.ctxErr(ctx); cerr != nil {
			return &RequestError{URL: f.url, Method: req.method, Range: req.rng, Attempts: attempt, Err: cerr}
		}
		wait *= 2
	}
}

// ctxErr returns the error of ctx or of the File's context, whichever is
// done.
func (f *File) ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	if err := f.ctx.Err(); err != nil {
		return context.Cause(f.ctx)
	}
	return nil
}
