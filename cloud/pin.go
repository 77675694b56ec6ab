package orccloud

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	gblob "gocloud.dev/blob"
)

// version is what pins a File to one version of its object: the ETag (S3,
// Azure), the generation (GCS), else the modification time and size.
type version struct {
	etag string
	gen  int64
	mod  time.Time
}

func (v version) String() string {
	switch {
	case v.gen != 0:
		return "generation " + strconv.FormatInt(v.gen, 10)
	case v.etag != "":
		return "ETag " + v.etag
	}
	return "modified " + v.mod.UTC().Format(time.RFC3339Nano)
}

// beforeRead returns the callback that asks the store for version v only
// (If-Match, or the generation), and, when suffix > 0 on S3, for the last
// suffix bytes instead of the range given.
func (s *Store) beforeRead(v version, suffix int64) func(func(any) bool) error {
	return func(as func(any) bool) error {
		var in *s3.GetObjectInput
		if as(&in) {
			if v.etag != "" {
				in.IfMatch = aws.String(v.etag)
			}
			if suffix > 0 {
				in.Range = aws.String(fmt.Sprintf("bytes=-%d", suffix))
			}
			// A checksum covers the whole object, never a range: S3 sends
			// none for ranged GETs, and one sent anyway cannot be checked.
			var o *[]func(*s3.Options)
			if as(&o) {
				*o = append(*o, func(so *s3.Options) {
					so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
				})
			}
			return nil
		}
		var oh **storage.ObjectHandle
		if as(&oh) {
			if v.gen != 0 {
				*oh = (*oh).If(storage.Conditions{GenerationMatch: v.gen})
			}
			return nil
		}
		var ao *blob.DownloadStreamOptions
		if as(&ao) && v.etag != "" {
			e := azcore.ETag(v.etag)
			if ao.AccessConditions == nil {
				ao.AccessConditions = &blob.AccessConditions{}
			}
			if ao.AccessConditions.ModifiedAccessConditions == nil {
				ao.AccessConditions.ModifiedAccessConditions = &blob.ModifiedAccessConditions{}
			}
			ao.AccessConditions.ModifiedAccessConditions.IfMatch = &e
		}
		return nil
	}
}

// answered returns the version a read's answer carries and, for S3, the
// object's size from its Content-Range (-1 when unknown).
func answered(r *gblob.Reader) (version, int64) {
	var so s3.GetObjectOutput
	if r.As(&so) {
		return version{etag: aws.ToString(so.ETag)}, totalOf(aws.ToString(so.ContentRange))
	}
	var gr *storage.Reader
	if r.As(&gr) && gr != nil {
		return version{gen: gr.Attrs.Generation}, gr.Attrs.Size
	}
	var ar blob.DownloadStreamResponse
	if r.As(&ar) && ar.ETag != nil {
		return version{etag: string(*ar.ETag)}, -1
	}
	return version{mod: r.ModTime()}, -1
}

// totalOf returns the total of a Content-Range "bytes a-b/total", or -1.
func totalOf(cr string) int64 {
	i := strings.LastIndexByte(cr, '/')
	if i < 0 {
		return -1
	}
	n, err := strconv.ParseInt(cr[i+1:], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// same reports whether an answer's version is the pinned one. A store
// that sends no version in an answer is trusted to have honoured the
// condition the request carried.
func (v version) same(got version) bool {
	switch {
	case v.gen != 0 && got.gen != 0:
		return v.gen == got.gen
	case v.etag != "" && got.etag != "":
		return strings.Trim(v.etag, `"`) == strings.Trim(got.etag, `"`)
	case v.etag == "" && v.gen == 0 && !v.mod.IsZero() && !got.mod.IsZero():
		return v.mod.Equal(got.mod)
	}
	return true
}

// openTail reads the last n bytes of key with one request where the store
// takes a suffix range (S3, GCS), else after a request for the object's
// attributes. It returns the bytes, the object's size and its version.
func (s *Store) openTail(ctx context.Context, key string, n int64, count func()) ([]byte, int64, version, error) {
	switch {
	case s.loc.scheme == "s3" && n > 0:
		count()
		r, err := s.bucket.NewRangeReader(ctx, key, 0, n, &gblob.ReaderOptions{BeforeRead: s.beforeRead(version{}, n)})
		if err == nil {
			defer r.Close()
			v, size := answered(r)
			if size < 0 {
				size = r.Size()
			}
			tail, err := io.ReadAll(io.LimitReader(r, n))
			return tail, size, v, err
		}
		if !strings.Contains(err.Error(), "InvalidRange") {
			return nil, 0, version{}, err
		}
		// An empty object has no last bytes: ask for its attributes.
	case s.gcs != nil && n > 0:
		count()
		r, err := s.gcs.Bucket(s.loc.bucket).Object(key).NewRangeReader(ctx, -n, -1)
		if err != nil {
			return nil, 0, version{}, err
		}
		defer r.Close()
		tail, err := io.ReadAll(io.LimitReader(r, n))
		return tail, r.Attrs.Size, version{gen: r.Attrs.Generation}, err
	}
	count()
	a, err := s.bucket.Attributes(ctx, key)
	if err != nil {
		return nil, 0, version{}, err
	}
	v := version{etag: a.ETag, mod: a.ModTime}
	var ga storage.ObjectAttrs
	if a.As(&ga) {
		v = version{gen: ga.Generation}
	}
	if s.loc.scheme == "file" {
		v.etag = "" // fileblob's ETag is made of the time and size
	}
	off := max(0, a.Size-n)
	if a.Size == 0 || n == 0 {
		return nil, a.Size, v, nil
	}
	count()
	r, err := s.bucket.NewRangeReader(ctx, key, off, a.Size-off, &gblob.ReaderOptions{BeforeRead: s.beforeRead(v, 0)})
	if err != nil {
		return nil, 0, version{}, err
	}
	defer r.Close()
	tail, err := io.ReadAll(io.LimitReader(r, a.Size-off))
	return tail, a.Size, v, err
}
