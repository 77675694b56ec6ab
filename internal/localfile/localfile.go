// Package localfile opens local files that must be regular files (a
// dataset's data files, its statistics index) without blocking on
// anything else found at their paths: a named pipe put where a file was
// fails the check at once instead of waiting for a writer.
package localfile

import (
	"fmt"
	"os"
)

// Open opens path for reading with Flags and returns the file and its
// size, or an error saying it is not a regular file.
func Open(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|Flags, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("dataset: %s is not a regular file", path)
	}
	return f, fi.Size(), nil
}
