// Package tempfile creates the temporary files that outputs are written to
// before they are renamed into place.
package tempfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Create is os.CreateTemp, but the file is created with mode 0666 less the
// umask, as os.Create creates files, rather than 0600: renamed into place,
// it is the output, which gets the mode every Unix tool gives a new file.
func Create(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if os.IsExist(err) {
			continue
		}
		return f, err
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: os.ErrExist}
}
