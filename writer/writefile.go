package writer

import (
	"errors"
	"fmt"
	"github.com/orcgo/orc/internal/tempfile"
	"os"
	"path/filepath"
)

// WriteFile writes rows, values of struct type T (see RowWriter for the
// mapping), to a new ORC file at path with opts. It writes to a temporary
// file beside path and renames it into place once the file is complete, so
// path never holds half a file; on error nothing is left behind. The file
// is created with mode 0666 less the umask, as os.Create creates files, and
// errors name path.
func WriteFile[T any](path string, rows []T, opts ...Option) (err error) {
	f, err := tempfile.Create(filepath.Dir(path), ".orcgo-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	rw, err := NewRowWriter[T](f, opts...)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for len(rows) > 0 {
		n := min(len(rows), 1024)
		if err := rw.Write(rows[:n]...); err != nil {
			return fmt.Errorf("%s: %w", path, errors.Join(err, rw.Close()))
		}
		rows = rows[n:]
	}
	if err := rw.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
