//go:build !linux && !darwin && !freebsd && !netbsd

package dataset

import "io/fs"

// statVersion reports nothing here: a local file's Version is its
// modification time alone, and the index must be updated after a file is
// rewritten in place with its time restored (see modVersion).
func statVersion(fs.FileInfo) string { return "" }
