package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/orcgo/orc/internal/tempfile"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// UpdateIndex writes to w the index of the dataset's files, taking the
// entries of the index in old (size oldSize) for the files whose listed
// size and version they match and reading the footers of the others only:
// files added or rewritten since old was built. Entries of files no longer
// listed are dropped. The indexed columns are old's; they must still be
// columns of the read schema with the same types, and the partition
// columns old's, or UpdateIndex fails (build a new index). IndexInfo.Read
// counts the footers read.
func (d *Dataset) UpdateIndex(old io.ReaderAt, oldSize int64, w io.Writer, opts ...IndexOption) (IndexInfo, error) {
	cfg := defaultIndexConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return IndexInfo{}, err
		}
	}
	if !cfg.all || cfg.bloom != nil || cfg.fpp != DefaultIndexBloomFPP {
		return IndexInfo{}, fmt.Errorf("dataset: UpdateIndex keeps the index's columns and bloom filters: IndexColumns, IndexBloomColumns and IndexBloomFPP do not apply")
	}
	ix, entries, err := d.readIndexEntries(old, oldSize)
	if err != nil {
		return IndexInfo{}, err
	}
	sp := ix.spec()
	sp.schema = d.read
	out := make([]indexEntry, len(d.files))
	errs := make([]error, len(d.files))
	read := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.parallel)
	for i, f := range d.files {
		if e, ok := entries[f.Name]; ok && f.Version != "" && e.version == f.Version && e.size == f.Size {
			e.parts = d.values[i]
			out[i] = e
			continue
		}
		read++
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = d.indexFile(i, sp)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return IndexInfo{}, err
		}
	}
	info, err := writeIndexEntries(w, out, sp, d.parts)
	info.Read = read
	return info, err
}

// readIndexEntries reads every entry of an index whose columns and
// partitions fit the dataset.
func (d *Dataset) readIndexEntries(r io.ReaderAt, size int64) (*openedIndex, map[string]indexEntry, error) {
	ix, err := d.openIndexOf(r, size)
	if err != nil {
		return nil, nil, err
	}
	entries := map[string]indexEntry{}
	var cols []string
	for _, n := range ix.schema.FieldNames {
		if !isPartitionField(n) {
			cols = append(cols, n)
		}
	}
	err = ix.scanIndex(cols, trueExpr, func(b *orc.Batch, row int) {
		p, sz, v, rows := b.Cols[0].(*orc.BytesVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.BytesVector), b.Cols[3].(*orc.LongVector)
		if p.IsNull(row) || sz.IsNull(row) || v.IsNull(row) || rows.IsNull(row) {
			return
		}
		e := indexEntry{path: p.String(row), size: sz.Values[row], version: v.String(row), rows: rows.Values[row]}
		e.cols = make([]*stats.Column, len(ix.types))
		e.blooms = make([][]byte, len(ix.types))
		for k, t := range ix.types {
			e.cols[k] = entryStats(b, row, k, t, t.Kind)
			if bv, ok := b.Col(fmt.Sprintf("c%d_bloom", k)).(*orc.BytesVector); ok && !bv.IsNull(row) {
				e.blooms[k] = slices.Clone(bv.Get(row))
			}
		}
		entries[e.path] = e
	})
	if err != nil {
		return nil, nil, fmt.Errorf("dataset: reading the index: %w", err)
	}
	return ix, entries, nil
}

// openIndexOf opens an index of the dataset's and checks that its columns
// and partition columns are the dataset's.
func (d *Dataset) openIndexOf(r io.ReaderAt, size int64) (*openedIndex, error) {
	ix, err := d.openIndexAt("index", r, size, nil)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	for k, hc := range ix.hdr.Columns {
		if !ix.usable[k] {
			return nil, fmt.Errorf("dataset: the index's column %s %s is not a column of %s: build a new index", hc.Name, hc.Type, d.read)
		}
	}
	if !ix.parts && (ix.hdr.Partitions != "" || d.parts != nil) {
		return nil, fmt.Errorf("dataset: the index's partition columns %q are not the dataset's %v: build a new index", ix.hdr.Partitions, d.parts)
	}
	return ix, nil
}

// spec returns what the index holds, to build entries like its own.
func (ix *openedIndex) spec() indexSpec {
	sp := indexSpec{types: ix.types, bloom: ix.bloom, fpp: ix.hdr.BloomFPP}
	for _, hc := range ix.hdr.Columns {
		sp.names = append(sp.names, hc.Name)
		sp.paths = append(sp.paths, hc.Path)
	}
	if sp.fpp == 0 {
		sp.fpp = DefaultIndexBloomFPP
	}
	return sp
}

// isPartitionField reports whether an index column holds partition values
// (p0, p1, ...).
func isPartitionField(n string) bool {
	return len(n) > 1 && n[0] == 'p' && strings.Trim(n[1:], "0123456789") == ""
}

// UpdateIndexFile updates the index at path (see UpdateIndex), writing the
// new one aside and renaming it into place; without an index there it
// builds one (WriteIndexFile).
func (d *Dataset) UpdateIndexFile(path string, opts ...IndexOption) (IndexInfo, error) {
	old, err := readRegular(path)
	if os.IsNotExist(err) {
		info, err := d.WriteIndexFile(path, opts...)
		info.Read = info.Files
		return info, err
	}
	if err != nil {
		return IndexInfo{}, err
	}
	var buf bytes.Buffer
	info, err := d.UpdateIndex(bytes.NewReader(old), int64(len(old)), &buf, opts...)
	if err != nil {
		return info, fmt.Errorf("%s: %w", path, err)
	}
	return info, replaceFile(path, buf.Bytes())
}

// readRegular reads a file that must be a regular file (an index): a named
// pipe or device at path is an error naming it, returned at once.
func readRegular(path string) ([]byte, error) {
	ra, size, c, err := openLocal(path)()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if size > maxIndexRead {
		return nil, fmt.Errorf("dataset: %s: an index of %d bytes, more than %d", path, size, int64(maxIndexRead))
	}
	data := make([]byte, size)
	if _, err := ra.ReadAt(data, 0); err != nil && !(err == io.EOF && size == 0) {
		return nil, fmt.Errorf("dataset: reading %s: %w", path, err)
	}
	return data, nil
}

// maxIndexRead bounds the index UpdateIndexFile reads into memory.
const maxIndexRead = 1 << 30

// ErrIndexStale is what CheckIndex's error wraps when the index does not
// describe the dataset's files as they are (an entry missing, different
// or of a file no longer listed): UpdateIndexFile makes it current.
var ErrIndexStale = errors.New("the index is stale")

// CheckIndex compares the index in r with the dataset's files: it reads
// every file's footer and returns an error naming the first file whose
// entry is missing, stale or different, or the first entry of a file no
// longer listed, wrapping ErrIndexStale; nil when the index is current.
//
// Entries are compared by a hash of their rows. The fresh entries are
// built checkChunk files at a time and the index's rows are read one batch
// at a time, so that memory holds 24 bytes and a path per file of the
// dataset, whatever the index lists, rather than every entry, its
// statistics and its row (the rows of the entry an error names are made
// again for its message).
func (d *Dataset) CheckIndex(r io.ReaderAt, size int64) error {
	ix, err := d.openIndexOf(r, size)
	if err != nil {
		return err
	}
	sp := ix.spec()
	sp.schema = d.read
	// fresh writes the index of files lo..hi-1 to a buffer.
	fresh := func(lo, hi int) (*bytes.Reader, error) {
		var buf bytes.Buffer
		if _, err := d.buildIndexOf(&buf, sp, 8, lo, hi); err != nil {
			return nil, err
		}
		return bytes.NewReader(buf.Bytes()), nil
	}
	want := map[string]*checkedEntry{}
	for lo := 0; lo < len(d.files); lo += checkChunk {
		fr, err := fresh(lo, min(lo+checkChunk, len(d.files)))
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
	for i, f := range d.files {
		e := want[f.Name]
		if e == nil || !e.found {
			return fmt.Errorf("dataset: %s is not in the index: %w", f.Name, ErrIndexStale)
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
			return fmt.Errorf("dataset: %s: %w: the index has\n  %s\nthe file and the listing give\n  %s", f.Name, ErrIndexStale, gj, wj)
		}
	}
	if extra != "" {
		return fmt.Errorf("dataset: the index has an entry for %s, which is not in the dataset: %w", extra, ErrIndexStale)
	}
	return nil
}

// checkedEntry is what CheckIndex knows of a dataset file's entry: the
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
	b := br.NewBatch()
	for {
		err := br.Next(b)
		if err == io.EOF {
			return nil
		}
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
}

// checkChunk is how many files' entries CheckIndex builds at a time.
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
// as CheckIndex compares).
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

// replaceFile writes data to a temporary file beside path and renames it
// over path, so that readers see the old contents or the new, never a part.
func replaceFile(path string, data []byte) error {
	tmp, err := tempfile.Create(filepath.Dir(path), "_orcgo_index-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: writing the index %s: %w", path, err)
	}
	return nil
}

var trueExpr = sarg.True()
