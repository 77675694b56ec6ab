package statsindex

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// ErrStale is what Check's error wraps when the index does not describe
// the dataset's files as they are (an entry missing, different or of a
// file no longer listed): UpdateFile makes it current.
var ErrStale = errors.New("the index is stale")

// Check compares the index in r with src's files: it reads every file's
// footer and returns an error naming the first file whose entry is
// missing, stale or different, or the first entry of a file no longer
// listed, wrapping ErrStale; nil when the index is current.
//
// Entries are compared by a hash of their rows. The fresh entries are
// built checkChunk files at a time and the index's rows are read one batch
// at a time, so that memory holds 24 bytes and a path per file of the
// dataset, whatever the index lists, rather than every entry, its
// statistics and its row (the rows of the entry an error names are made
// again for its message).
func Check(src *Source, r io.ReaderAt, size int64) error {
	ix, err := openIndexOf(src, r, size)
	if err != nil {
		return err
	}
	sp := ix.spec()
	sp.schema = src.Schema
	// fresh writes the index of files lo..hi-1 to a buffer.
	fresh := func(lo, hi int) (*bytes.Reader, error) {
		var buf bytes.Buffer
		if _, err := buildIndexOf(&buf, src, sp, 8, lo, hi); err != nil {
			return nil, err
		}
		return bytes.NewReader(buf.Bytes()), nil
	}
	want := map[string]*checkedEntry{}
	for lo := 0; lo < len(src.Files); lo += checkChunk {
		fr, err := fresh(lo, min(lo+checkChunk, len(src.Files)))
		if err != nil {
			return err
		}
		if err := eachRowHash(fr, fr.Size(), func(path string, h rowHash) {
			want[path] = &checkedEntry{want: h}
		}); err != nil {
			return err
		}
	}
	var extra string // the first entry of a file not listed
	if err := eachRowHash(r, size, func(path string, h rowHash) {
		if e, ok := want[path]; ok {
			e.got, e.found = h, true // the last entry of a path counts
		} else if extra == "" {
			extra = path
		}
	}); err != nil {
		return err
	}
	for i, f := range src.Files {
		e := want[f.Name]
		if e == nil || !e.found {
			return fmt.Errorf("dataset: %s is not in the index: %w", f.Name, ErrStale)
		}
		if e.got != e.want {
			gj, err := indexRowJSON(r, size, f.Name)
			if err != nil {
				return err
			}
			fr, err := fresh(i, i+1)
			if err != nil {
				return err
			}
			wj, err := indexRowJSON(fr, fr.Size(), f.Name)
			if err != nil {
				return err
			}
			return fmt.Errorf("dataset: %s: %w: the index has\n  %s\nthe file and the listing give\n  %s", f.Name, ErrStale, gj, wj)
		}
	}
	if extra != "" {
		return fmt.Errorf("dataset: the index has an entry for %s, which is not in the dataset: %w", extra, ErrStale)
	}
	return nil
}

// checkedEntry is what Check knows of a dataset file's entry: the
// hash of its fresh row and of the index's, if the index has one.
type checkedEntry struct {
	want, got rowHash
	found     bool
}

// rowHash is the hash of an index row's JSON.
type rowHash [16]byte

// eachIndexRow calls fn with the path and JSON of each row of an index
// that has a path; buf is reused between calls.
func eachIndexRow(r io.ReaderAt, size int64, fn func(path string, row []byte) bool) error {
	ir, err := reader.Open(r, size)
	if err != nil {
		return err
	}
	br, err := ir.NewBatchReader()
	if err != nil {
		return err
	}
	defer br.Close()
	var buf []byte
	for b, err := range br.All() {
		if err != nil {
			return err
		}
		p := b.Cols[0].(*orc.BytesVector)
		for i := range b.NumRows {
			if !p.IsNull(i) {
				buf = reader.AppendJSONRow(buf[:0], b, i)
				if !fn(p.String(i), buf) {
					return nil
				}
			}
		}
	}
	return nil
}

// checkChunk is how many files' entries Check builds at a time.
const checkChunk = 1024

// eachRowHash calls fn with the path and the hash of each row of an
// index that has a path.
func eachRowHash(r io.ReaderAt, size int64, fn func(path string, h rowHash)) error {
	h := fnv.New128a()
	return eachIndexRow(r, size, func(path string, row []byte) bool {
		h.Reset()
		h.Write(row)
		var sum rowHash
		h.Sum(sum[:0])
		fn(path, sum)
		return true
	})
}

// indexRowJSON returns the JSON of an index's row for path (the last one,
// as Check compares).
func indexRowJSON(r io.ReaderAt, size int64, path string) (string, error) {
	var out string
	err := eachIndexRow(r, size, func(p string, row []byte) bool {
		if p == path {
			out = string(row)
		}
		return true
	})
	return out, err
}
