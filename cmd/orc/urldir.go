package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
)

// A URL ending in "/" names a dataset on a web server or an object store's
// HTTP endpoint. HTTP has no listing, so the dataset's statistics index is
// its listing (statsindex.Listing): the pointer object
// _orcgo_index.pointer when there is one (statsindex.Publish), else
// _orcgo_index.orc. Its header gives the read schema and the partition
// columns, so that the scan's first requests are the pointer, the index's
// tail and, for an index over 64 KiB, one more; then only the files the
// index cannot rule out are opened.

// maxURLIndex bounds the index a URL directory reads into memory.
const maxURLIndex = 256 << 20

// urlIndexPiece is how much of the index one request reads.
const urlIndexPiece = 16 << 20

// isURLDir reports whether p is a URL naming a directory.
func isURLDir(p string) bool {
	return isURL(p) && (strings.HasSuffix(p, "/") || isStoreURL(p) && isStorePrefix(p))
}

// urlDir is a dataset listed by its index over HTTP.
type urlDir struct {
	root    string
	name    string // the index's URL
	index   []byte
	info    statsindex.Info
	files   []dataset.File
	display map[string]string
}

// openURLDir reads the index of the dataset at root and lists its files;
// a store's prefix is listed (openStoreDir).
func openURLDir(root string) (*urlDir, error) {
	if isStoreURL(root) {
		return openStoreDir(root)
	}
	open := func(name string) dataset.Opener { return urlOpener(root + name) }
	u := &urlDir{root: root, display: map[string]string{}}
	ra, size, c, err := statsindex.Pointer(open)()
	u.name = root + statsindex.PointerName
	if errors.Is(err, fs.ErrNotExist) {
		u.name = root + statsindex.FileName
		ra, size, c, err = open(statsindex.FileName)()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: a URL ending in / is read through the dataset's index, since HTTP lists no directory; there is neither %s nor %s (orc index build DIR, then copy DIR to the server)",
				root, statsindex.PointerName, statsindex.FileName)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.name, err)
	}
	defer c.Close()
	if err := u.readIndex(ra, size); err != nil {
		return nil, err
	}
	listed, err := statsindex.Listing(readerAt(u.index), size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.name, err)
	}
	for _, f := range listed {
		u.files = append(u.files, dataset.File{Name: f.Name, Size: f.Size, Version: f.Version})
	}
	for i, f := range u.files {
		var esc []string
		for _, el := range strings.Split(f.Name, "/") {
			esc = append(esc, url.PathEscape(el))
		}
		full := root + strings.Join(esc, "/")
		u.files[i].Open = staleAware(urlOpener(full), u.name)
		u.display[f.Name] = full
	}
	return u, nil
}

// readIndex reads the index u.name into memory and its header.
func (u *urlDir) readIndex(ra io.ReaderAt, size int64) error {
	if size > maxURLIndex {
		return fmt.Errorf("%s: the index has %d bytes, more than the %d read into memory", u.name, size, maxURLIndex)
	}
	// In pieces, so that a size the server gives but does not send
	// allocates no more than what arrives.
	for off := int64(0); off < size; {
		n := min(size-off, urlIndexPiece)
		u.index = append(u.index, make([]byte, n)...)
		if k, err := ra.ReadAt(u.index[off:off+n], off); int64(k) < n {
			return fmt.Errorf("%s: reading the index: %v", u.name, err)
		}
		off += n
	}
	info, err := statsindex.ReadInfo(readerAt(u.index), size)
	if err != nil {
		return fmt.Errorf("%s: %w", u.name, err)
	}
	u.info = info
	return nil
}

// staleAware is open, whose error for a file the server does not have
// says that the index naming it is stale.
func staleAware(open dataset.Opener, index string) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		ra, size, c, err := open()
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("the index %s lists this file, which the server does not have: the index is stale (orc index update DIR, then copy DIR's index to the server): %w", index, err)
		}
		return ra, size, c, err
	}
}

// opener serves the index read into memory.
func (u *urlDir) opener() dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		return readerAt(u.index), int64(len(u.index)), nil, nil
	}
}

// readerAt is an io.ReaderAt over bytes.
type readerAt []byte

func (b readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
