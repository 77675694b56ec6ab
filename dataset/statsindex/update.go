package statsindex

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/localfile"
	"github.com/orcgo/orc/internal/tempfile"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// Update writes to w the index of src's files, taking the entries of the
// index in old (size oldSize) for the files whose listed size and version
// they match and reading the footers of the others only: files added or
// rewritten since old was built. Entries of files no longer listed are
// dropped. The indexed columns are old's; they must still be columns of
// the read schema with the same types, and the partition columns old's,
// or Update fails (build a new index). Info.Read counts the footers read.
// Of the options, only Parallelism applies.
func Update(src *Source, old io.ReaderAt, oldSize int64, w io.Writer, opts ...Option) (Info, error) {
	cfg := defaultIndexConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return Info{}, err
		}
	}
	if !cfg.all || cfg.bloom != nil || cfg.fpp != DefaultBloomFPP {
		return Info{}, fmt.Errorf("dataset: updating an index keeps its columns and bloom filters: Columns, BloomColumns and BloomFPP do not apply")
	}
	ix, entries, err := readIndexEntries(src, old, oldSize)
	if err != nil {
		return Info{}, err
	}
	sp := ix.spec()
	sp.schema = src.Schema
	out := make([]indexEntry, len(src.Files))
	errs := make([]error, len(src.Files))
	read := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.parallel)
	for i, f := range src.Files {
		if e, ok := entries[f.Name]; ok && f.Version != "" && e.version == f.Version && e.size == f.Size {
			e.parts = f.Partition
			out[i] = e
			continue
		}
		read++
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = indexFile(src, i, sp)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Info{}, err
		}
	}
	info, err := writeIndexEntries(w, out, sp, src.Partitions)
	info.Read = read
	return info, err
}

// readIndexEntries reads every entry of an index whose columns and
// partitions fit src.
func readIndexEntries(src *Source, r io.ReaderAt, size int64) (*Index, map[string]indexEntry, error) {
	ix, err := openIndexOf(src, r, size)
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

// openIndexOf opens an index of src's and checks that its columns and
// partition columns are src's.
func openIndexOf(src *Source, r io.ReaderAt, size int64) (*Index, error) {
	ix, err := Open(r, size, src.Schema, src.Partitions)
	if err != nil {
		return nil, fmt.Errorf("dataset: index: %w", err)
	}
	for k, hc := range ix.hdr.Columns {
		if !ix.usable[k] {
			return nil, fmt.Errorf("dataset: the index's column %s %s is not a column of %s: build a new index", hc.Name, hc.Type, src.Schema)
		}
	}
	if !ix.parts && (ix.hdr.Partitions != "" || src.Partitions != nil) {
		return nil, fmt.Errorf("dataset: the index's partition columns %q are not the dataset's %v: build a new index", ix.hdr.Partitions, src.Partitions)
	}
	return ix, nil
}

// spec returns what the index holds, to build entries like its own.
func (ix *Index) spec() indexSpec {
	sp := indexSpec{types: ix.types, bloom: ix.bloom, fpp: ix.hdr.BloomFPP}
	for _, hc := range ix.hdr.Columns {
		sp.names = append(sp.names, hc.Name)
		sp.paths = append(sp.paths, hc.Path)
	}
	if sp.fpp == 0 {
		sp.fpp = DefaultBloomFPP
	}
	return sp
}

// isPartitionField reports whether an index column holds partition values
// (p0, p1, ...).
func isPartitionField(n string) bool {
	return len(n) > 1 && n[0] == 'p' && strings.Trim(n[1:], "0123456789") == ""
}

// UpdateFile updates the index at path (see Update), writing the new one
// aside and renaming it into place; without an index there it builds one
// (WriteFile).
func UpdateFile(src *Source, path string, opts ...Option) (Info, error) {
	old, err := readRegular(path)
	if os.IsNotExist(err) {
		info, err := WriteFile(src, path, opts...)
		info.Read = info.Files
		return info, err
	}
	if err != nil {
		return Info{}, err
	}
	var buf bytes.Buffer
	info, err := Update(src, bytes.NewReader(old), int64(len(old)), &buf, opts...)
	if err != nil {
		return info, fmt.Errorf("%s: %w", path, err)
	}
	return info, replaceFile(path, buf.Bytes())
}

// readRegular reads a file that must be a regular file (an index): a named
// pipe or device at path is an error naming it, returned at once.
func readRegular(path string) ([]byte, error) {
	ra, size, c, err := openLocal(path)
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

// maxIndexRead bounds the index UpdateFile reads into memory.
const maxIndexRead = 1 << 30

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

// openLocal opens a local file that must be a regular file (localfile).
func openLocal(p string) (io.ReaderAt, int64, io.Closer, error) {
	f, fi, err := localfile.Open(p)
	if err != nil {
		return nil, 0, nil, err
	}
	return f, fi.Size(), f, nil
}
