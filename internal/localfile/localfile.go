// Package localfile opens local files that must be regular files (a
// dataset's data files, its statistics index) without blocking on
// anything else found at their paths: a named pipe put where a file was
// fails the check at once instead of waiting for a writer.
package localfile

import (
	"fmt"
	"io/fs"
	"os"
)

// NotRegularError is Open's error for a path that holds something other
// than a regular file: a named pipe, a device, a directory, a socket.
type NotRegularError struct {
	Path string
	Mode fs.FileMode // the type bits of what Path holds
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (mode %s)", e.Path, e.Mode.Type())
}

// Open opens path for reading with Flags and returns the file and what
// Stat says of it, or a *NotRegularError when path holds anything but a
// regular file. On an error nothing is left open.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|Flags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, fi, nil
}
