package orccloud

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync/atomic"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"gocloud.dev/blob"
	"google.golang.org/api/googleapi"
	// The drivers register their schemes on blob.DefaultMux.
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"
)

// ErrChanged marks a read of an object that was replaced (or deleted)
// since it was opened: the File reads one version or fails.
var ErrChanged = errors.New("the object changed since it was opened")

// ErrDenied marks a request the store refused: credentials it does not
// take, or an access they do not grant.
var ErrDenied = errors.New("access denied or the credentials were refused")

// ErrNoCredentials marks a request that was never sent because the SDK
// found no credentials in its chain (environment, config and profile files,
// instance metadata).
var ErrNoCredentials = errors.New("no credentials were found")

// noCredentials reports whether err is an SDK's failure to find
// credentials: the AWS SDK's "get credentials: ..." (its chain came up
// empty or failed), the Google SDK's "could not find default credentials".
// Neither has a type of its own to test for.
func noCredentials(err error) bool {
	m := err.Error()
	return strings.Contains(m, "get identity: get credentials: ") || strings.Contains(m, "failed to retrieve credentials") ||
		strings.Contains(m, "could not find default credentials")
}

// gcsAttempts is how many times a GCS request is sent before its error is
// returned (the S3 and Azure SDKs' defaults are 3 and 4).
const gcsAttempts = 4

// Store is a bucket (an S3 or GCS bucket, an Azure container, the local
// file system) opened from a URL. Its methods are safe for concurrent use.
type Store struct {
	loc    location
	bucket *blob.Bucket
	gcs    *storage.Client // GCS: the client, for suffix-range reads
	lists  atomic.Int64    // list requests (pages)
}

// OpenStore opens the bucket a URL names and returns it with the URL's key
// (the path below the bucket, "" or ending in "/" for a prefix). Opening
// sends no request; credentials are looked up by the cloud's SDK as it
// does (environment, config and profile files, instance metadata).
func OpenStore(ctx context.Context, rawURL string) (*Store, string, error) {
	loc, err := parseURL(rawURL)
	if err != nil {
		return nil, "", err
	}
	// The bucket outlives ctx's cancellation (a GCS client keeps the
	// context it was made with for its credentials).
	b, err := blob.OpenBucket(context.WithoutCancel(ctx), loc.bucketURL())
	if err != nil {
		return nil, "", fmt.Errorf("orccloud: opening the bucket of %s: %v%s", rawURL, err, hint(loc.scheme))
	}
	s := &Store{loc: loc, bucket: b}
	if loc.scheme == "gs" {
		var c *storage.Client
		if b.As(&c) {
			s.gcs = c
			// As many attempts as the S3 and Azure SDKs make by default;
			// the GCS client's own default retries until the context ends.
			c.SetRetry(storage.WithMaxAttempts(gcsAttempts))
		}
	}
	return s, loc.key, nil
}

// Close closes the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// Bucket returns the gocloud.dev bucket, for what this package does not do.
func (s *Store) Bucket() *blob.Bucket { return s.bucket }

// URL returns the URL of an object of the store, as messages name it.
func (s *Store) URL(key string) string {
	if s.loc.scheme == "file" {
		return "file:///" + key
	}
	return s.loc.url(key)
}

// ListRequests returns how many list requests (pages) the Store has made.
func (s *Store) ListRequests() int64 { return s.lists.Load() }

// hint says where a store's credentials come from, for errors that may
// be theirs.
func hint(scheme string) string {
	switch scheme {
	case "s3":
		return " (credentials: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws, or the instance's role; region: ?region= or AWS_REGION; an S3-compatible store: ?endpoint=URL&use_path_style=true)"
	case "gs":
		return " (credentials: GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, or the instance's service account)"
	case "azblob":
		return " (credentials: AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_CONNECTION_STRING, or an Azure identity)"
	}
	return ""
}

// storeError describes a failed operation on url: a missing object wraps
// fs.ErrNotExist, a refused one says where credentials come from, a
// failed precondition wraps ErrChanged.
func (s *Store) storeError(op, url string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("orccloud: %s %s: %w", op, url, err)
	}
	if noCredentials(err) {
		return fmt.Errorf("orccloud: %s %s: %w: %v%s", op, url, ErrNoCredentials, short(err), hint(s.loc.scheme))
	}
	code := gcerrors.Code(err)
	if errors.Is(err, storage.ErrObjectNotExist) || errors.Is(err, storage.ErrBucketNotExist) {
		code = gcerrors.NotFound
	}
	if code == gcerrors.Unknown {
		// A store's answer gocloud.dev does not classify (Azure's codes
		// beyond its list, GCS's answers to the client used directly).
		switch httpStatus(err) {
		case http.StatusUnauthorized, http.StatusForbidden:
			code = gcerrors.PermissionDenied
		case http.StatusNotFound:
			code = gcerrors.NotFound
		case http.StatusPreconditionFailed:
			code = gcerrors.FailedPrecondition
		}
	}
	switch code {
	case gcerrors.NotFound:
		return fmt.Errorf("orccloud: %s %s: no such object or bucket: %w (%v)", op, url, fs.ErrNotExist, short(err))
	case gcerrors.PermissionDenied:
		return fmt.Errorf("orccloud: %s %s: %w: %v%s", op, url, ErrDenied, short(err), hint(s.loc.scheme))
	case gcerrors.FailedPrecondition:
		return fmt.Errorf("orccloud: %s %s: %w (%v)", op, url, ErrChanged, short(err))
	}
	if m := strings.ToLower(err.Error()); s.loc.scheme == "s3" && (strings.Contains(m, "invalid region") || strings.Contains(m, "missing region")) {
		// no region, or one the SDK cannot make an endpoint of
		return fmt.Errorf("orccloud: %s %s: %w%s", op, url, err, hint(s.loc.scheme))
	}
	return fmt.Errorf("orccloud: %s %s: %w", op, url, err)
}

// httpStatus returns the HTTP status of an SDK's error, or 0.
func httpStatus(err error) int {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	var ae *azcore.ResponseError
	if errors.As(err, &ae) {
		return ae.StatusCode
	}
	var se *smithyhttp.ResponseError
	if errors.As(err, &se) {
		return se.HTTPStatusCode()
	}
	return 0
}

// short is the first line of an SDK's error, which may run over many.
func short(err error) string {
	m := err.Error()
	if i := strings.IndexByte(m, '\n'); i >= 0 {
		m = m[:i]
	}
	if len(m) > 300 {
		m = m[:300] + "..."
	}
	return m
}
