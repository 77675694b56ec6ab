package httpfile

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is how many redirects a request follows, as net/http's
// default client does.
const maxRedirects = 10

// errRedirect marks a redirect refused: a loop, or too many. It is not
// retried.
var errRedirect = errors.New("redirect refused")

// redirectClient returns a copy of c that follows redirects under the
// File's rules (checkRedirect) and then c's own.
func (f *File) redirectClient(c *http.Client) *http.Client {
	nc := *c
	next := c.CheckRedirect
	nc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := f.checkRedirect(req, via); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &nc
}

// checkRedirect decides on a redirect to req after the requests via
// (via[0] the first): a URL already visited is a loop, more than
// maxRedirects are too many, and once the chain has left the first
// request's origin (scheme, host and port), the headers of WithHeader are
// dropped from every request after, unless WithRedirectHeaders allows them.
// (net/http drops Authorization and Cookie itself on a redirect to another
// domain, but no other header: an API key in X-Api-Key would follow.)
func (f *File) checkRedirect(req *http.Request, via []*http.Request) error {
	for _, v := range via {
		if v.URL.String() == req.URL.String() {
			return fmt.Errorf("%w: a redirect loop, back to %s after %d redirects", errRedirect, req.URL.Redacted(), len(via))
		}
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("%w: more than %d redirects (the last to %s)", errRedirect, maxRedirects, req.URL.Redacted())
	}
	if len(f.header) == 0 {
		return nil
	}
	if f.redirectHeaders {
		// net/http dropped Authorization on a redirect to another domain:
		// put the File's headers back.
		for k, vs := range f.header {
			req.Header[k] = vs
		}
		return nil
	}
	origin := via[0].URL
	left := !sameOrigin(req.URL, origin)
	for _, v := range via[1:] {
		left = left || !sameOrigin(v.URL, origin)
	}
	if left {
		for k := range f.header {
			req.Header.Del(k)
		}
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (an absent port being the scheme's).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
