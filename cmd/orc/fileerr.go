package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/internal/units"
)

// fileError is an error in one of the inputs, named by the path the user
// typed (or the file's path below a directory the user typed).
type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string {
	return e.path + ": " + strings.TrimPrefix(e.err.Error(), "orc: ")
}

func (e *fileError) Unwrap() error { return e.err }

// inFile returns err naming path, unless it already names a file.
func inFile(path string, err error) error {
	if err == nil {
		return nil
	}
	if path == "-" {
		path = "standard input"
	}
	var fe *fileError
	if errors.As(err, &fe) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		// "open x.orc: no such file or directory" says x.orc: ..."
		return &fileError{path: path, err: pe.Err}
	}
	return &fileError{path: path, err: err}
}

// fileFailure is inFile for a one-file command's error, leaving usage
// errors as they are.
func fileFailure(path string, err error) error {
	if err == nil || errors.Is(err, errUsage) {
		return err
	}
	return inFile(path, err)
}

// datasetError returns an error of a dataset scan ("dataset: NAME: ...")
// naming the file as the user knows it (display maps the dataset's file
// names to paths); other errors as they are.
func datasetError(err error, display map[string]string) error {
	if err == nil {
		return nil
	}
	var sm *dataset.SchemaMismatchError
	if errors.As(err, &sm) {
		name := func(n string) string {
			if p, ok := display[n]; ok {
				return p
			}
			return n
		}
		first := name(sm.First)
		return &fileError{path: name(sm.File), err: &textError{
			text: fmt.Sprintf("its schema differs from that of %s, the first file: %s (%s against %s); --union-by-name reads files of several schemas through the union of their columns, --schema through the schema it gives",
				first, strings.ReplaceAll(sm.Difference, sm.First, first), sm.Schema, sm.FirstSchema),
			err: sm}}
	}
	rest, ok := strings.CutPrefix(err.Error(), "dataset: ")
	if !ok {
		return err
	}
	best := ""
	for name := range display {
		if len(name) > len(best) && strings.HasPrefix(rest, name+": ") {
			best = name
		}
	}
	if best == "" {
		return err
	}
	// The message after the name, wrapping what err wraps.
	return &fileError{path: display[best], err: &textError{text: strings.TrimPrefix(rest, best+": "), err: errors.Unwrap(err)}}
}

// textError is an error's text, wrapping what the error wrapped.
type textError struct {
	text string
	err  error
}

func (e *textError) Error() string { return e.text }
func (e *textError) Unwrap() error { return e.err }

// plural returns n and the noun, made plural unless n is 1: "1 row",
// "2 rows".
func plural(n int64, noun string) string { return units.Plural(n, noun) }

// nameColumn adds the column's path to a corruption error that gives only
// its id, from the file's schema s ("column 3" becomes column 3
// "loc.lat").
func nameColumn(err error, s *orc.Schema) error {
	var ce *orc.CorruptError
	if s != nil && errors.As(err, &ce) && ce.Column > 0 && ce.ColumnPath == "" {
		ce.ColumnPath = s.Path(ce.Column)
	}
	return err
}
