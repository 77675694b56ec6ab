package orccloud

import (
	"context"
	"fmt"
	"sync"

	gblob "gocloud.dev/blob"
)

// DefaultPartSize is the size of an upload's parts (S3's multipart
// upload; the buffer of a GCS or Azure upload).
const DefaultPartSize = 8 << 20

// WriteOption configures Create.
type WriteOption func(*writeConfig) error

type writeConfig struct {
	partSize    int
	concurrency int
	contentType string
}

// WithPartSize sets the size of an upload's parts: the bytes each buffer
// holds. Default DefaultPartSize; range 5 MiB (S3's smallest part) to
// 5 GiB.
func WithPartSize(n int) WriteOption {
	return func(c *writeConfig) error {
		if n < 5<<20 || n > 5<<30 {
			return fmt.Errorf("orccloud: WithPartSize(%d): out of range 5 MiB..5 GiB", n)
		}
		c.partSize = n
		return nil
	}
}

// WithConcurrency sets how many parts upload at once. Default 1; range
// 1..64. An upload holds one part buffer more than this (S3; GCS and Azure
// as their SDKs do).
func WithConcurrency(n int) WriteOption {
	return func(c *writeConfig) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("orccloud: WithConcurrency(%d): out of range 1..64", n)
		}
		c.concurrency = n
		return nil
	}
}

// Writer is an upload of one object: an io.WriteCloser whose object
// appears, whole, when Close returns nil. Abort, a failed Write or the end
// of Create's context abort the upload, leaving no object (and the object
// of that name, if any, as it was). A Writer is one goroutine's, but Abort
// may be called from any.
type Writer struct {
	url    string
	s      *Store
	w      uploader
	cancel context.CancelFunc
	owns   bool
	mu     sync.Mutex
	err    error // sticky: the first failure
	done   bool

	closeStore sync.Once
}

// Create starts an upload to rawURL under ctx.
func Create(ctx context.Context, rawURL string, opts ...WriteOption) (*Writer, error) {
	return openOwning(ctx, rawURL, func(s *Store, key string) (*Writer, error) { return s.Create(ctx, key, opts...) })
}

// own makes the end of the upload close the store.
func (w *Writer) own() { w.owns = true }

// Create starts an upload of the object key under ctx. Nothing is sent
// before the first part is full (or Close).
func (s *Store) Create(ctx context.Context, key string, opts ...WriteOption) (*Writer, error) {
	cfg := writeConfig{partSize: DefaultPartSize, concurrency: 1, contentType: "application/octet-stream"}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	url := s.URL(key)
	if key == "" || key[len(key)-1] == '/' {
		return nil, fmt.Errorf("orccloud: %s names a prefix, not an object to write", url)
	}
	ctx, cancel := context.WithCancel(ctx)
	if c, ok := s.directS3(key); ok {
		up := newS3Upload(ctx, c, s.loc.bucket, key, cfg.contentType, cfg.partSize, cfg.concurrency)
		return &Writer{url: url, s: s, w: up, cancel: cancel}, nil
	}
	w, err := s.bucket.NewWriter(ctx, key, &gblob.WriterOptions{
		BufferSize: cfg.partSize, MaxConcurrency: cfg.concurrency,
		ContentType: cfg.contentType, DisableContentTypeDetection: true,
	})
	if err != nil {
		cancel()
		return nil, s.storeError("writing", url, err)
	}
	return &Writer{url: url, s: s, w: blobUpload{w}, cancel: cancel}, nil
}

// uploader is an upload in progress: S3's through s3Upload, the others'
// through gocloud.dev's writer.
type uploader interface {
	Write(p []byte) (int, error)
	// Close completes the object.
	Close() error
	// abort ends the upload without an object, once the upload's context
	// is cancelled.
	abort()
}

// blobUpload is an upload through gocloud.dev's writer, which aborts when
// closed after its context's end.
type blobUpload struct{ *gblob.Writer }

func (b blobUpload) abort() { b.Close() }

// URL returns the URL of the object being written.
func (w *Writer) URL() string { return w.url }

// Write writes p to the upload. A failure aborts the upload and is
// returned by every later call.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	err, done := w.err, w.done
	w.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if done {
		return 0, fmt.Errorf("orccloud: %s: write after Close", w.url)
	}
	n, err := w.w.Write(p)
	if err != nil {
		return n, w.fail(w.s.storeError("writing", w.url, err))
	}
	return n, nil
}

// fail keeps err as the Writer's error and aborts the upload.
func (w *Writer) fail(err error) error {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	err = w.err
	done := w.done
	w.done = true
	w.mu.Unlock()
	w.cancel()
	if !done {
		w.w.abort()
	}
	w.release()
	return err
}

// Abort ends the upload, leaving no object. After Close it does nothing.
func (w *Writer) Abort() error {
	w.mu.Lock()
	done := w.done
	w.mu.Unlock()
	if !done {
		w.fail(fmt.Errorf("orccloud: %s: upload aborted", w.url))
	}
	return nil
}

// Close completes the upload: the object appears whole, or Close returns
// an error naming the URL and no object appears.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.done {
		err := w.err
		w.mu.Unlock()
		return err
	}
	w.done = true
	w.mu.Unlock()
	err := w.w.Close()
	w.cancel()
	w.release()
	if err != nil {
		err = w.s.storeError("uploading", w.url, err)
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
	}
	return err
}

func (w *Writer) release() {
	w.closeStore.Do(func() {
		if w.owns {
			w.s.Close()
		}
	})
}
