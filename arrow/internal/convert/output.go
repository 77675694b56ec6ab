package convert

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/orcgo/orc/internal/tempfile"
)

// Output is a conversion's output file being written: a temporary file
// beside the destination, which Commit renames over it, so that a failed
// or interrupted conversion leaves the destination as it was.
type Output struct {
	*os.File
	path string
}

// CreateOutput starts writing path. An existing path is an error unless
// overwrite is set, as orc convert and orc merge refuse it.
func CreateOutput(path string, overwrite bool) (*Output, error) {
	if fi, err := os.Stat(path); err == nil {
		if !overwrite {
			return nil, fmt.Errorf("%s exists; pass -overwrite to replace it", path)
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
	}
	f, err := tempfile.Create(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &Output{File: f, path: path}, nil
}

// Commit closes the file and puts it at the destination.
func (o *Output) Commit() error {
	if err := o.File.Close(); err != nil {
		os.Remove(o.File.Name())
		return err
	}
	if err := os.Rename(o.File.Name(), o.path); err != nil {
		os.Remove(o.File.Name())
		return err
	}
	return nil
}

// Abort closes and removes the file, leaving the destination untouched.
func (o *Output) Abort() {
	o.File.Close()
	os.Remove(o.File.Name())
}
