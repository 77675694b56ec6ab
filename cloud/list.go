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

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	gblob "gocloud.dev/blob"
)

// ListPageSize is how many objects one list request asks for (S3's
// largest page).
const ListPageSize = 1000

// listPageSize is ListPageSize, smaller in tests.
var listPageSize = ListPageSize

// List lists the objects below prefix (a key ending in "/", or "" for the
// whole bucket), a page of ListPageSize at a time, as dataset.Files named
// by their keys below prefix. As dataset.FromPaths does with a directory,
// it leaves out objects with a path element starting with "." or "_"
// (hidden files, _SUCCESS markers, the statistics index) and directory
// markers. Each File's Version is the object's modification time and MD5
// (a rewrite changes it), its Open opens it with Store.Open under ctx.
func (s *Store) List(ctx context.Context, prefix string) ([]dataset.File, error) {
	files, _, err := s.list(ctx, prefix)
	return files, err
}

// list is List, also returning the names left out directly below prefix.
func (s *Store) list(ctx context.Context, prefix string) ([]dataset.File, map[string]bool, error) {
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	var files []dataset.File
	left := map[string]bool{}
	token := gblob.FirstPageToken
	opts := &gblob.ListOptions{Prefix: prefix}
	for {
		s.lists.Add(1)
		page, next, err := s.bucket.ListPage(ctx, token, listPageSize, opts)
		if err != nil {
			return nil, nil, s.storeError("listing", s.URL(prefix), err)
		}
		for _, o := range page {
			name := strings.TrimPrefix(o.Key, prefix)
			if o.IsDir || name == "" || strings.HasSuffix(name, "/") || skipName(name) {
				left[name] = true
				continue
			}
			files = append(files, dataset.File{Name: name, Size: o.Size,
				Version: strconv.FormatInt(o.ModTime.UnixNano(), 10) + "." + hex.EncodeToString(o.MD5),
				Open:    s.Opener(ctx, o.Key)})
		}
		if len(next) == 0 {
			return files, left, nil
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

// PutFunc returns the statsindex.PutFunc that stores objects below prefix,
// for statsindex.Publish.
func (s *Store) PutFunc(ctx context.Context, prefix string) statsindex.PutFunc {
	return func(name string, data []byte) error { return s.Put(ctx, joinKey(prefix, name), data) }
}

func joinKey(prefix, name string) string {
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return prefix + name
}

// maxIndexSize bounds the index OpenTable reads into memory.
const maxIndexSize = 256 << 20

// Table is a table read from a prefix: its store and its files.
type Table struct {
	Store  *Store
	Prefix string
	Files  []dataset.File
	// Index is the table's statistics index, read into memory, ready for
	// dataset.New: the one the pointer object (statsindex.PointerName)
	// names when there is one, else statsindex.FileName; nil when
	// neither exists. IndexInfo is its header.
	Index     dataset.Option
	IndexInfo statsindex.Info
}

// OpenTable lists the table at a URL ending in "/" and reads its index:
// the listing's pages, then the pointer and the index, and no data file.
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
	var left map[string]bool
	if t.Files, left, err = s.list(ctx, prefix); err != nil {
		s.Close()
		return nil, err
	}
	if err := t.readIndex(ctx, left); err != nil {
		s.Close()
		return nil, err
	}
	return t, nil
}

// readIndex reads the index the listing found (the names it left out).
func (t *Table) readIndex(ctx context.Context, listed map[string]bool) error {
	open := func(n string) dataset.Opener { return t.Store.Opener(ctx, joinKey(t.Prefix, n)) }
	var opener dataset.Opener
	name := statsindex.FileName
	switch {
	case listed[statsindex.PointerName]:
		opener, name = statsindex.Pointer(open), statsindex.PointerName
	case listed[statsindex.FileName]:
		opener = open(statsindex.FileName)
	default:
		return nil
	}
	url := t.Store.URL(joinKey(t.Prefix, name))
	ra, size, c, err := opener()
	if err != nil {
		return fmt.Errorf("orccloud: reading the index %s: %w", url, err)
	}
	defer c.Close()
	if size > maxIndexSize {
		return fmt.Errorf("orccloud: the index %s has %d bytes, more than the %d read into memory", url, size, maxIndexSize)
	}
	index := make([]byte, size)
	if n, err := ra.ReadAt(index, 0); int64(n) < size {
		return fmt.Errorf("orccloud: reading the index %s: %w", url, err)
	}
	if t.IndexInfo, err = statsindex.ReadInfo(bytes.NewReader(index), size); err != nil {
		return fmt.Errorf("orccloud: the index %s: %w", url, err)
	}
	t.Index = dataset.WithIndex(url, func() (io.ReaderAt, int64, io.Closer, error) {
		return bytes.NewReader(index), size, io.NopCloser(nil), nil
	})
	return nil
}

// OpenDataset opens the table at a URL ending in "/" as a dataset: its
// files listed (key=value directories are partition columns, as
// dataset.New discovers them), and its index used when it has one, whose
// schema and partition columns are the dataset's then, so that no data
// file is opened before a scan. opts come after those. Close the returned
// Store when done.
func OpenDataset(ctx context.Context, rawURL string, opts ...dataset.Option) (*dataset.Dataset, *Store, error) {
	t, err := OpenTable(ctx, rawURL)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Files) == 0 {
		t.Store.Close()
		return nil, nil, fmt.Errorf("orccloud: %s: no ORC objects below this prefix: %w", rawURL, fs.ErrNotExist)
	}
	var first []dataset.Option
	if t.Index != nil {
		first = append(first, t.Index)
		for _, p := range []struct {
			schema string
			opt    func(*orc.Schema) dataset.Option
		}{{t.IndexInfo.Schema, dataset.WithSchema}, {t.IndexInfo.Partitions, dataset.WithPartitioning}} {
			if p.schema == "" {
				continue
			}
			sch, err := orc.ParseSchema(p.schema)
			if err != nil {
				t.Store.Close()
				return nil, nil, fmt.Errorf("orccloud: the index of %s: %w", rawURL, err)
			}
			first = append(first, p.opt(sch))
		}
	}
	d, err := dataset.New(t.Files, append(first, opts...)...)
	if err != nil {
		t.Store.Close()
		return nil, nil, fmt.Errorf("orccloud: %s: %w", rawURL, err)
	}
	return d, t.Store, nil
}
