package httpfile

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// openTail learns the file's size and validator with one GET of its last
// f.prefetch bytes (Range: bytes=-N) and keeps those bytes. It reports false,
// with no error, when the server could not answer and Open should fall back
// to a HEAD. Nothing of the File changes until an attempt succeeds, so a
// retry starts afresh (a suffix range needs no validator to stay consistent).
func (f *File) openTail() (done bool, err error) {
	rng := "bytes=-" + strconv.FormatInt(f.prefetch, 10)
	err = f.retry(f.ctx, &request{method: http.MethodGet, rng: rng}, func() (bool, error) {
		resp, end, err := f.send(f.ctx, http.MethodGet, rng)
		if err != nil {
			return !isRedirectError(err), err
		}
		defer end()
		defer resp.Body.Close()
		switch code := resp.StatusCode; {
		case code == http.StatusNotImplemented:
			// Not transient, unlike the other 5xx: the server does not
			// implement suffix ranges (or Range at all).
			return false, nil
		case retryable(code):
			return true, statusError(resp)
		case code == http.StatusPartialContent:
			var retry bool
			done, retry, err = f.keepTail(resp)
			return retry, err
		case code == http.StatusOK:
			var retry bool
			done, retry, err = f.keepSmallBody(resp)
			return retry, err
		case code == http.StatusRequestedRangeNotSatisfiable:
			// The answer to a suffix range on an empty file: "bytes */0".
			// Any other 416 is a server refusing suffix ranges.
			if _, _, total, err := parseContentRange(resp.Header.Get("Content-Range")); err == nil && total == 0 {
				f.setValidator(resp)
				f.size = 0
				done = true
			}
			return false, nil
		case code == http.StatusUnauthorized || code == http.StatusForbidden ||
			code == http.StatusNotFound || code == http.StatusGone:
			// A HEAD would be refused the same way.
			return false, statusError(resp)
		}
		// 400, 501 and the like: the server does not take suffix ranges.
		return false, nil
	})
	return done, err
}

// keepTail keeps the body of a 206 answer to the suffix range, after
// checking that its Content-Range describes the file's last bytes, no more
// than were asked for, and that the body has exactly those bytes.
func (f *File) keepTail(resp *http.Response) (done, retry bool, err error) {
	h := resp.Header.Get("Content-Range")
	if _, tot, ok := strings.Cut(h, "/"); ok && tot == "0" {
		// An empty file; Go's http.ServeContent answers a suffix range on
		// one with a 206 and "bytes 0--1/0".
		if n, _ := io.ReadFull(resp.Body, make([]byte, 1)); n > 0 {
			return false, false, fmt.Errorf("Content-Range %q (an empty file) but a body", h)
		}
		f.setValidator(resp)
		f.size = 0
		return true, false, nil
	}
	first, last, total, err := parseContentRange(h)
	if err != nil {
		return false, false, err
	}
	if first < 0 {
		return false, false, fmt.Errorf("a 206 with Content-Range %q, which gives no range", h)
	}
	if total < 0 {
		// "bytes a-b/*": no size. Let the HEAD find it; the bytes cannot
		// be placed without it.
		return false, false, nil
	}
	if last != total-1 {
		return false, false, fmt.Errorf("Content-Range %q, which does not end at the file's last byte", h)
	}
	n := last - first + 1
	if n > f.prefetch {
		return false, false, fmt.Errorf("Content-Range %q, %d bytes, more than were asked for", h, n)
	}
	if resp.ContentLength >= 0 && resp.ContentLength != n {
		return false, false, fmt.Errorf("Content-Length %d but Content-Range %q", resp.ContentLength, h)
	}
	buf := make([]byte, n)
	if got, err := io.ReadFull(resp.Body, buf); err != nil {
		if errors.Is(err, ErrTimeout) {
			return false, true, fmt.Errorf("%w, at byte %d", err, first+int64(got))
		}
		return false, true, fmt.Errorf("body cut short at byte %d: %w", first+int64(got), err)
	}
	if resp.ContentLength < 0 { // no Content-Length: nothing bounded the body
		if extra, _ := io.ReadFull(resp.Body, make([]byte, 1)); extra > 0 {
			return false, false, fmt.Errorf("a body longer than its Content-Range %q", h)
		}
	}
	f.setValidator(resp)
	f.size = total
	f.tail, f.tailOff = buf, first
	return true, false, nil
}

// keepSmallBody handles a 200 answer to the suffix range: the server ignored
// it and sends the whole file. A body no larger than the prefetch (and
// WithMaxWholeBody) is read and kept. A larger one is closed unread, since
// the server may well answer ordinary ranges and only ignore suffix ranges
// (reading it whole is left to ReadAt, as for any server ignoring Range); its
// Content-Length gives the size, as a HEAD's would, or, when it has none,
// Open falls back to the HEAD. At most limit+1 bytes are read either way.
// An empty body makes Open fall back to the HEAD too: the file is empty
// only when the HEAD's Content-Length is 0 as well.
func (f *File) keepSmallBody(resp *http.Response) (done, retry bool, err error) {
	limit := min(f.prefetch, f.maxWhole)
	if resp.ContentLength > limit || limit == 0 {
		if resp.ContentLength < 0 {
			return false, false, nil
		}
		f.setValidator(resp)
		f.size = resp.ContentLength
		return true, false, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return false, true, fmt.Errorf("reading the whole body: %w", err)
	}
	if int64(len(body)) > limit { // no Content-Length, and a large body
		return false, false, nil
	}
	if len(body) == 0 {
		// An empty 200 to a range request is Hive's empty file only if a
		// HEAD says so too: a proxy or a failing server sends it as well.
		f.emptyTail = true
		return false, false, nil
	}
	f.setValidator(resp)
	f.size = int64(len(body))
	f.tail, f.tailOff = body, 0
	return true, false, nil
}

// parseContentRange parses a Content-Range header of a byte range:
// "bytes first-last/total", or "bytes */total" for which first and last are
// -1. total is -1 for "*". The range must be ordered and, when the total is
// known, inside it.
func parseContentRange(h string) (first, last, total int64, err error) {
	bad := fmt.Errorf("bad Content-Range %q", h)
	spec, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, 0, 0, bad
	}
	rng, tot, ok := strings.Cut(spec, "/")
	if !ok {
		return 0, 0, 0, bad
	}
	total = -1
	if tot != "*" {
		if total, err = parseDecimal(tot); err != nil {
			return 0, 0, 0, bad
		}
	}
	if rng == "*" {
		if total < 0 {
			return 0, 0, 0, bad
		}
		return -1, -1, total, nil
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return 0, 0, 0, bad
	}
	if first, err = parseDecimal(a); err != nil {
		return 0, 0, 0, bad
	}
	if last, err = parseDecimal(b); err != nil {
		return 0, 0, 0, bad
	}
	if last < first || (total >= 0 && last >= total) {
		return 0, 0, 0, bad
	}
	return first, last, total, nil
}

// parseDecimal parses a non-empty run of decimal digits.
func parseDecimal(s string) (int64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errors.New("not a decimal number")
	}
	return strconv.ParseInt(s, 10, 64)
}
