// Package orccloud reads and writes ORC files where they live: Amazon S3
// (and S3-compatible stores such as MinIO, Ceph or R2), Google Cloud
// Storage, Azure Blob Storage and local directories, through
// gocloud.dev/blob.
//
// It is a module of its own (github.com/orcgo/orc/cloud), so that the
// cloud SDKs never enter the build of a program that imports only the
// reader and writer packages.
//
// # URLs
//
//	s3://bucket/path/to/file.orc?region=eu-west-1
//	s3://bucket/table/?endpoint=http://127.0.0.1:9000&use_path_style=true   (MinIO and other S3-compatible stores)
//	gs://bucket/path/to/file.orc
//	azblob://container/path/to/file.orc
//	file:///abs/path/to/file.orc
//
// The host is the bucket (container for azblob), the path the object's key,
// and the query holds the store's settings as gocloud.dev reads them
// (region, endpoint, use_path_style, disable_https for S3). Credentials
// come from each cloud's standard chain (environment, shared config and
// profile files, instance or workload metadata), never from the URL. A
// URL whose path ends in "/" names a table: the objects below it.
//
// # Reading
//
// Open returns a File: an io.ReaderAt (reader.ContextReaderAt and
// reader.LatencyReader) over ranged GETs. Opening costs one request where
// the store takes a suffix range (S3, GCS): the object's last bytes, which
// hold the ORC tail and give its size and version. Every later read names
// that version (If-Match on the ETag for S3 and Azure, the generation for
// GCS) and checks the version the answer carries, so an object replaced
// during a scan is an error naming its URL (ErrChanged), never a mix of
// two versions.
//
// # Writing
//
// Create returns a Writer that streams into an upload (a multipart upload
// on S3) holding at most the part buffers (WithPartSize, WithConcurrency)
// beside what the ORC writer holds. The object appears only when Close
// succeeds; a failed or cancelled write (Abort, or the context ending)
// aborts the upload and leaves no object. On S3, the parts in flight are
// answered before the multipart upload is aborted, so that none is left
// behind holding parts.
//
// # Tables
//
// List lists the ORC objects below a prefix in pages as dataset.Files
// (Version: the ETag), so that dataset.New discovers key=value partitions
// and the statistics index (dataset.WithIndex, statsindex.Pointer and Publish)
// works as on a directory; OpenDataset does all of it.
//
// Files, Stores and Writers are safe for concurrent use as their io
// interfaces say: a File's reads may run at once; a Writer is one
// goroutine's.
package orccloud
