package orccloud

// SetListPageSize sets the list page size for a test and returns the
// function that restores it.
func SetListPageSize(n int) func() {
	old := listPageSize
	listPageSize = n
	return func() { listPageSize = old }
}

// UseBlobWriterForS3 makes S3 uploads go through gocloud.dev's writer, as
// before s3Upload, for TestUploadMemory's comparison.
func UseBlobWriterForS3(b bool) { blobWriterForS3 = b }
