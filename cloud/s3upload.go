package orccloud

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// An upload to S3 is written with the SDK's multipart calls directly, not
// through gocloud.dev's writer: its transfer manager reads the first 16 MiB
// of an upload with io.ReadAll (a buffer grown by copying, kept until the
// first two parts are sent) besides its pool of Concurrency+1 part
// buffers. Writing 1 GB of ORC (TestUploadMemory, 8 MiB parts, one in
// flight) peaked at 121 MiB of heap in use through it, 87 MiB through
// s3Upload, whose peak live heap (85.7 MiB) is the writer's alone (68.9
// MiB) plus its two part buffers. s3Upload holds one buffer being filled
// and one for each part in flight, Concurrency+1 in all, and no other
// copy of the bytes.

// blobWriterForS3 sends S3 uploads through gocloud.dev's writer (tests).
var blobWriterForS3 bool

// abortTimeout bounds the request that aborts a failed upload, which runs
// after the upload's context has ended.
const abortTimeout = 30 * time.Second

// s3Upload is one object written to S3: a single PutObject when it fits in
// a part, else a multipart upload whose parts are sent as they fill.
type s3Upload struct {
	c      *s3.Client
	bucket string
	key    string
	ctype  string
	ctx    context.Context // cancelled by Abort (the Writer's)
	// reqCtx is the multipart upload's requests' (create and parts): not
	// ended with ctx, so that the upload is aborted only once every request
	// that could add to it has been answered (a part the store is still
	// receiving when the upload is aborted can leave the upload, and its
	// parts, behind: S3's documentation says to abort again then). It
	// ends abortTimeout after ctx, or when the upload is complete.
	reqCtx   context.Context
	endReqs  context.CancelFunc
	algo     types.ChecksumAlgorithm
	partSize int
	workers  int

	// op is held by Write, Close and abort: abort may come from another
	// goroutine (after the context's cancellation, which ends a Write's
	// waits and requests).
	op sync.Mutex

	buf  []byte      // the part being filled; its capacity grows to partSize for the first part only
	free chan []byte // buffers back from sent parts
	made int         // buffers made: at most workers+1
	next int32       // the next part's number

	id   *string     // the multipart upload's, once the first part is full
	work chan s3Part // parts to send (nil before the upload starts)
	wg   sync.WaitGroup
	mu   sync.Mutex
	done []types.CompletedPart
	err  error // the first failure of a part
}

type s3Part struct {
	num int32
	buf []byte
}

// directS3 reports whether an upload to key of the store can go through
// s3Upload: the bucket is S3's, the key is one gocloud.dev's s3blob would
// not escape (so that it reads back under the same name), and the URL asks
// for no server-side encryption, which only s3blob's writer applies.
func (s *Store) directS3(key string) (*s3.Client, bool) {
	var c *s3.Client
	if blobWriterForS3 || s.loc.scheme != "s3" || !s.bucket.As(&c) {
		return nil, false
	}
	if strings.Contains(key, "__0x") || strings.Contains(key, "../") || strings.ContainsFunc(key, func(r rune) bool { return r < 32 }) {
		return nil, false
	}
	if strings.Contains(s.loc.query, "ssetype") || strings.Contains(s.loc.query, "kmskeyid") {
		return nil, false
	}
	return c, true
}

func newS3Upload(ctx context.Context, c *s3.Client, bucket, key, ctype string, partSize, concurrency int) *s3Upload {
	u := &s3Upload{c: c, bucket: bucket, key: key, ctype: ctype, ctx: ctx, partSize: partSize,
		workers: concurrency, free: make(chan []byte, concurrency+1), next: 1}
	u.reqCtx, u.endReqs = context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(ctx, func() { time.AfterFunc(abortTimeout, u.endReqs) })
	// As the transfer manager does: a CRC32 of every part unless the
	// client computes checksums only where S3 requires them.
	if c.Options().RequestChecksumCalculation != aws.RequestChecksumCalculationWhenRequired {
		u.algo = types.ChecksumAlgorithmCrc32
	}
	return u
}

// failed returns the first failure of a part, if any.
func (u *s3Upload) failed() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.err
}

// Write copies p into the part being filled, sending each part as it
// fills. It waits while every worker is sending and every buffer is in
// use.
func (u *s3Upload) Write(p []byte) (int, error) {
	u.op.Lock()
	defer u.op.Unlock()
	n := 0
	for len(p) > 0 {
		if err := u.failed(); err != nil {
			return n, err
		}
		if len(u.buf) == u.partSize {
			if err := u.send(); err != nil {
				return n, err
			}
		}
		if len(u.buf) == cap(u.buf) {
			// The first part only: grown as it fills, so that a small
			// object never holds a whole part; past 1 MiB it takes one.
			c := max(2*cap(u.buf), len(u.buf)+len(p), 64<<10)
			if c > 1<<20 {
				c = u.partSize
			}
			nb := make([]byte, len(u.buf), min(u.partSize, c))
			copy(nb, u.buf)
			u.buf = nb
		}
		k := copy(u.buf[len(u.buf):cap(u.buf)], p)
		u.buf = u.buf[:len(u.buf)+k]
		p = p[k:]
		n += k
	}
	return n, nil
}

// send hands the full part to a worker, starting the multipart upload
// with the first, and takes a buffer for the next.
func (u *s3Upload) send() error {
	if u.id == nil {
		in := &s3.CreateMultipartUploadInput{Bucket: &u.bucket, Key: &u.key, ContentType: &u.ctype, ChecksumAlgorithm: u.algo}
		out, err := u.c.CreateMultipartUpload(u.reqCtx, in)
		if err != nil {
			return err
		}
		u.id = out.UploadId
		u.work = make(chan s3Part)
		for range u.workers {
			u.wg.Add(1)
			go u.worker(u.work)
		}
		u.made = 1 // the first part's buffer
	}
	select {
	case u.work <- s3Part{num: u.next, buf: u.buf}:
	case <-u.ctx.Done():
		return u.ctx.Err()
	}
	u.next++
	u.buf = nil
	select {
	case b := <-u.free:
		u.buf = b[:0]
		return nil
	default:
	}
	if u.made <= u.workers {
		u.made++
		u.buf = make([]byte, 0, u.partSize)
		return nil
	}
	select {
	case b := <-u.free:
		u.buf = b[:0]
		return nil
	case <-u.ctx.Done():
		return u.ctx.Err()
	}
}

// worker sends parts until the work channel closes, each buffer back to
// free once its part is sent (or skipped after a failure).
func (u *s3Upload) worker(work <-chan s3Part) {
	defer u.wg.Done()
	for p := range work {
		if u.failed() == nil {
			out, err := u.c.UploadPart(u.reqCtx, &s3.UploadPartInput{Bucket: &u.bucket, Key: &u.key, UploadId: u.id,
				PartNumber: aws.Int32(p.num), Body: bytes.NewReader(p.buf), ContentLength: aws.Int64(int64(len(p.buf))),
				ChecksumAlgorithm: u.algo})
			u.mu.Lock()
			if err != nil {
				if u.err == nil {
					u.err = fmt.Errorf("part %d: %w", p.num, err)
				}
			} else {
				u.done = append(u.done, types.CompletedPart{PartNumber: aws.Int32(p.num), ETag: out.ETag,
					ChecksumCRC32: out.ChecksumCRC32, ChecksumCRC32C: out.ChecksumCRC32C,
					ChecksumSHA1: out.ChecksumSHA1, ChecksumSHA256: out.ChecksumSHA256, ChecksumCRC64NVME: out.ChecksumCRC64NVME})
			}
			u.mu.Unlock()
		}
		u.free <- p.buf
	}
}

// stop ends the workers after the parts handed to them.
func (u *s3Upload) stop() {
	if u.work != nil {
		close(u.work)
		u.work = nil
		u.wg.Wait()
	}
}

// Close completes the object: one PutObject if no part was sent, else the
// last part and CompleteMultipartUpload. On failure the upload is aborted.
func (u *s3Upload) Close() error {
	u.op.Lock()
	defer u.op.Unlock()
	defer u.endReqs()
	if u.id == nil {
		_, err := u.c.PutObject(u.ctx, &s3.PutObjectInput{Bucket: &u.bucket, Key: &u.key, ContentType: &u.ctype,
			Body: bytes.NewReader(u.buf), ContentLength: aws.Int64(int64(len(u.buf)))})
		u.buf = nil
		return err
	}
	var err error
	if len(u.buf) > 0 {
		select {
		case u.work <- s3Part{num: u.next, buf: u.buf}:
		case <-u.ctx.Done():
			err = u.ctx.Err()
		}
	}
	u.buf = nil
	u.stop()
	if err == nil {
		err = u.failed()
	}
	if err == nil {
		slices.SortFunc(u.done, func(a, b types.CompletedPart) int { return int(*a.PartNumber - *b.PartNumber) })
		_, err = u.c.CompleteMultipartUpload(u.ctx, &s3.CompleteMultipartUploadInput{Bucket: &u.bucket, Key: &u.key,
			UploadId: u.id, MultipartUpload: &types.CompletedMultipartUpload{Parts: u.done}})
		if err == nil {
			u.id = nil // complete: nothing to abort
		}
	}
	if err != nil {
		if aerr := u.abortUpload(); aerr != nil {
			err = errors.Join(err, aerr)
		}
	}
	return err
}

// abort ends the upload without an object: once the parts in flight are
// answered (within abortTimeout of the context's end), the multipart
// upload, if started, is aborted. The context has ended by then, so a
// Write waiting for a buffer has returned.
func (u *s3Upload) abort() {
	u.op.Lock()
	defer u.op.Unlock()
	u.stop()
	u.endReqs()
	u.buf = nil
	u.abortUpload()
}

// abortUpload aborts the multipart upload, if started, under a context of
// its own: the upload's may have ended.
func (u *s3Upload) abortUpload() error {
	if u.id == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(u.ctx), abortTimeout)
	defer cancel()
	_, err := u.c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &u.bucket, Key: &u.key, UploadId: u.id})
	u.id = nil
	if err != nil {
		return fmt.Errorf("aborting the multipart upload: %w", err)
	}
	return nil
}
