package orccloud

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Schemes lists the URL schemes Open, Create, List and OpenStore take.
var Schemes = []string{"s3", "gs", "azblob", "file"}

// ErrURL marks a URL that names no object or prefix this package can
// reach: another scheme, no bucket, a malformed bucket name.
var ErrURL = errors.New("orccloud: not a store URL")

// IsURL reports whether s is a URL with one of Schemes.
func IsURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	scheme := strings.ToLower(s[:i])
	for _, k := range Schemes {
		if scheme == k {
			return true
		}
	}
	return false
}

// location is a parsed store URL: the bucket's URL (scheme, bucket and
// the store's query settings) and the key below it.
type location struct {
	scheme string
	bucket string
	query  string // encoded, without "?"
	key    string // "" or ending in "/" for a prefix
}

// parseURL splits a store URL into its bucket and key.
func parseURL(raw string) (location, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return location{}, fmt.Errorf("%w: %s: %v", ErrURL, raw, err)
	}
	loc := location{scheme: strings.ToLower(u.Scheme), bucket: u.Host, query: u.RawQuery}
	if !IsURL(raw) {
		return location{}, fmt.Errorf("%w: %s: the scheme %q is not one of s3://, gs://, azblob://, file://", ErrURL, raw, u.Scheme)
	}
	if u.User != nil {
		return location{}, fmt.Errorf("%w: %s: credentials in the URL are not taken; they come from the cloud's standard chain (environment, config files, instance metadata)", ErrURL, redact(u))
	}
	if loc.scheme == "file" {
		if loc.bucket != "" && loc.bucket != "localhost" {
			return location{}, fmt.Errorf("%w: %s: a file URL names a path of this machine: file:///abs/path", ErrURL, raw)
		}
		// The bucket is the root directory, the key the path below it.
		loc.bucket = ""
		loc.key = strings.TrimPrefix(u.Path, "/")
		return loc, nil
	}
	if err := checkBucket(loc.scheme, loc.bucket); err != nil {
		return location{}, fmt.Errorf("%w: %s: %v", ErrURL, raw, err)
	}
	loc.key = strings.TrimPrefix(u.Path, "/")
	return loc, nil
}

// redact returns u without its password, for messages.
func redact(u *url.URL) string { return u.Redacted() }

// checkBucket checks a bucket (or container) name as the stores spell
// them: 3 to 63 characters (222 for GCS names with dots), lower-case
// letters, digits, '-' and '.' ('_' too on GCS), starting and ending with
// a letter or digit.
func checkBucket(scheme, b string) error {
	if b == "" {
		return fmt.Errorf("no bucket: write %s://BUCKET/KEY", scheme)
	}
	max := 63
	if scheme == "gs" && strings.Contains(b, ".") {
		max = 222
	}
	if len(b) < 3 || len(b) > max {
		return fmt.Errorf("malformed bucket name %q: it must have 3 to %d characters", b, max)
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' && scheme != "azblob" || c == '_' && scheme == "gs"
		if !ok {
			return fmt.Errorf("malformed bucket name %q: %q is not allowed (lower-case letters, digits, '-' and '.')", b, c)
		}
	}
	if !alnum(b[0]) || !alnum(b[len(b)-1]) {
		return fmt.Errorf("malformed bucket name %q: it must start and end with a letter or digit", b)
	}
	return nil
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// bucketURL is the URL gocloud.dev opens the bucket with.
func (l location) bucketURL() string {
	u := l.scheme + "://" + l.bucket
	if l.scheme == "file" {
		u = "file:///"
	}
	q := l.query
	if l.scheme == "file" {
		// No ".attrs" file beside each object written.
		q = joinQuery(q, "metadata=skip")
	}
	if q != "" {
		u += "?" + q
	}
	return u
}

// url returns the URL of key in the location's bucket, with its query.
func (l location) url(key string) string {
	var esc []string
	for _, el := range strings.Split(key, "/") {
		esc = append(esc, url.PathEscape(el))
	}
	u := l.scheme + "://" + l.bucket + "/" + strings.Join(esc, "/")
	if l.query != "" {
		u += "?" + l.query
	}
	return u
}

func joinQuery(a, b string) string {
	if a == "" {
		return b
	}
	return a + "&" + b
}
