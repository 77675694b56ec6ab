package orccloud

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/orcgo/orc/dataset"
	gblob "gocloud.dev/blob"
)

// ListPageSize is how many objects one list request asks for.
const ListPageSize = 1000

// List lists the objects below prefix (a key ending in "/", or "" for the
// whole bucket), a page of ListPageSize at a time, as dataset.Files named
// by their keys below prefix. As dataset.FromPaths does with a directory,
// it leaves out objects with a path element starting with "." or "_"
// (hidden files, _SUCCESS markers, the statistics index) and directory
// markers. Each File's Version is the object's modification time and MD5
// (a rewrite changes it), its Open opens it with Store.Open under ctx.
func (s *Store) List(ctx context.Context, prefix string) ([]dataset.File, error) {
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	var files []dataset.File
	token := gblob.FirstPageToken
	opts := &gblob.ListOptions{Prefix: prefix}
	for {
		s.lists.Add(1)
		page, next, err := s.bucket.ListPage(ctx, token, ListPageSize, opts)
		if err != nil {
			return nil, s.storeError("listing", s.URL(prefix), err)
		}
		for _, o := range page {
			name := strings.TrimPrefix(o.Key, prefix)
			if o.IsDir || name == "" || strings.HasSuffix(name, "/") || skipName(name) {
				continue
			}
			files = append(files, dataset.File{Name: name, Size: o.Size,
				Version: strconv.FormatInt(o.ModTime.UnixNano(), 10) + "." + hex.EncodeToString(o.MD5),
				Open:    s.Opener(ctx, o.Key)})
		}
		if len(next) == 0 {
			return files, nil
		}
		token = next
	}
}

// skipName reports whether a listed name is left out: an element starting
// with "." or "_".
func skipName(name string) bool {
	for _, el := range strings.Split(name, "/") {
		if strings.HasPrefix(el, ".") || strings.HasPrefix(el, "_") {
			return true
		}
	}
	return false
}

// Opener returns a dataset.Opener of the object key, opened under ctx. A
// missing object is an error wrapping fs.ErrNotExist.
func (s *Store) Opener(ctx context.Context, key string, opts ...Option) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := s.Open(ctx, key, opts...)
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
}

// Put stores data as the object key, whole.
func (s *Store) Put(ctx context.Context, key string, data []byte) error {
	w, err := s.Create(ctx, key)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, bytes.NewReader(data)); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// PutFunc returns the dataset.PutFunc that stores objects below prefix,
// for dataset.PublishIndex.
func (s *Store) PutFunc(ctx context.Context, prefix string) dataset.PutFunc {
	return func(name string, data []byte) error { return s.Put(ctx, joinKey(prefix, name), data) }
}

func joinKey(prefix, name string) string {
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return prefix + name
}

// Table is a table read from a prefix: its store and its files.
type Table struct {
	Store  *Store
	Prefix string
	Files  []dataset.File
	// Index is how the table's statistics index is found, ready for
	// dataset.New: the pointer object (dataset.IndexPointerName) when
	// there is one, else dataset.IndexFileName; nil when neither exists.
	Index dataset.Option
}

// OpenTable lists the table at a URL ending in "/" and finds its index.
func OpenTable(ctx context.Context, rawURL string) (*Table, error) {
	s, prefix, err := OpenStore(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		s.Close()
		return nil, fmt.Errorf("orccloud: %s: a table's URL ends in /", rawURL)
	}
	t := &Table{Store: s, Prefix: prefix}
	if t.Files, err = s.List(ctx, prefix); err != nil {
		s.Close()
		return nil, err
	}
	t.Index, err = s.findIndex(ctx, prefix)
	if err != nil {
		s.Close()
		return nil, err
	}
	return t, nil
}

// findIndex returns the dataset option that reads the table's index.
func (s *Store) findIndex(ctx context.Context, prefix string) (dataset.Option, error) {
	for _, name := range []string{dataset.IndexPointerName, dataset.IndexFileName} {
		ok, err := s.bucket.Exists(ctx, joinKey(prefix, name))
		if err != nil {
			return nil, s.storeError("looking for the index", s.URL(joinKey(prefix, name)), err)
		}
		if !ok {
			continue
		}
		if name == dataset.IndexFileName {
			return dataset.WithIndex(s.URL(joinKey(prefix, name)), s.Opener(ctx, joinKey(prefix, name))), nil
		}
		open := func(n string) dataset.Opener { return s.Opener(ctx, joinKey(prefix, n)) }
		return dataset.WithIndex(s.URL(joinKey(prefix, name)), dataset.IndexPointer(open)), nil
	}
	return nil, nil
}

// OpenDataset opens the table at a URL ending in "/" as a dataset: its
// files listed (key=value directories are partition columns, as
// dataset.New discovers them) and its index used when it has one. Close
// the returned Store when done.
func OpenDataset(ctx context.Context, rawURL string, opts ...dataset.Option) (*dataset.Dataset, *Store, error) {
	t, err := OpenTable(ctx, rawURL)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Files) == 0 {
		t.Store.Close()
		return nil, nil, fmt.Errorf("orccloud: %s: no ORC objects below this prefix: %w", rawURL, fs.ErrNotExist)
	}
	if t.Index != nil {
		opts = append([]dataset.Option{t.Index}, opts...)
	}
	d, err := dataset.New(t.Files, opts...)
	if err != nil {
		t.Store.Close()
		return nil, nil, fmt.Errorf("orccloud: %s: %w", rawURL, err)
	}
	return d, t.Store, nil
}
