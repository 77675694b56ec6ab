package orccloud_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	orccloud "github.com/orcgo/orc/cloud"
)

// TestS3NoCredentials: with no credentials anywhere the AWS SDK looks
// (environment, config and profile files; instance metadata disabled, as
// no address but 127.0.0.1 is reached here), opening an object and
// starting a write fail at once, naming the URL and saying where
// credentials come from, with no request sent to the store; orc cat says
// the same through orc-cloud.
func TestS3NoCredentials(t *testing.T) {
	s := startS3(t, "orcgo-test")
	url := s.url("k.orc")
	upload(t, url, 0, 100)
	dir := t.TempDir()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	before := s.proxy.count()
	start := time.Now()
	_, err := orccloud.Open(ctxT(t), url)
	t.Logf("open: %v (%v)", err, time.Since(start))
	w, werr := orccloud.Create(ctxT(t), s.url("w.orc"))
	if werr == nil {
		_, werr = w.Write([]byte("x"))
		if werr == nil {
			werr = w.Close()
		}
	}
	t.Logf("write: %v", werr)
	for _, e := range []error{err, werr} {
		if e == nil || !strings.Contains(e.Error(), strings.TrimSuffix(s.base, "/")) || !strings.Contains(e.Error(), "AWS_ACCESS_KEY_ID") {
			t.Errorf("no credentials: %v; want an error naming the URL and where credentials come from", e)
		}
		if !errors.Is(e, orccloud.ErrNoCredentials) {
			t.Errorf("no credentials: %v does not wrap ErrNoCredentials", e)
		}
	}
	if n := s.proxy.count() - before; n != 0 {
		t.Errorf("%d requests reached the store without credentials", n)
	}
	if testing.Short() {
		return
	}
	_, errs, code := orcRun(t, "cat", url)
	if code != 1 || !strings.Contains(errs, s.base+"k.orc") || !strings.Contains(errs, "no credentials were found") || !strings.Contains(errs, "AWS_ACCESS_KEY_ID") {
		t.Errorf("orc cat without credentials: exit %d, %s", code, errs)
	}
}

// TestS3NoRegion: an S3 URL with no region (none in the URL, the
// environment or a config file) fails before any request, naming the URL
// and saying where the region comes from. (Without a region the SDK
// cannot make the endpoint's name: nothing is sent, to no address.)
func TestS3NoRegion(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", "k")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s")
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	_, err := orccloud.Open(ctxT(t), "s3://orcgo-test/k.orc")
	if err == nil || !strings.Contains(err.Error(), "s3://orcgo-test/k.orc") || !strings.Contains(err.Error(), "?region=") {
		t.Errorf("no region: %v; want an error naming the URL and saying how to give a region", err)
	}
	t.Log(err)
}
