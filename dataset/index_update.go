package dataset

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
	ix, err := d.openIndexAt("index", r, size, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("dataset: %w", err)
	}
	for k, hc := range ix.hdr.Columns {
		if !ix.usable[k] {
			return nil, nil, fmt.Errorf("dataset: the index's column %s %s is not a column of %s: build a new index", hc.Name, hc.Type, d.read)
		}
	}
	if !ix.parts && (ix.hdr.Partitions != "" || d.parts != nil) {
		return nil, nil, fmt.Errorf("dataset: the index's partition columns %q are not the dataset's %v: build a new index", ix.hdr.Partitions, d.parts)
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

// CheckIndex compares the index in r with the dataset's files: it reads
// every file's footer and returns an error naming the first file whose
// entry is missing, stale or different, or the first entry of a file no
// longer listed; nil when the index is current.
func (d *Dataset) CheckIndex(r io.ReaderAt, size int64) error {
	ix, _, err := d.readIndexEntries(r, size)
	if err != nil {
		return err
	}
	var fresh bytes.Buffer
	sp := ix.spec()
	sp.schema = d.read
	if _, err := d.buildIndex(&fresh, sp, 8); err != nil {
		return err
	}
	want, err := indexRowsJSON(bytes.NewReader(fresh.Bytes()), int64(fresh.Len()))
	if err != nil {
		return err
	}
	got, err := indexRowsJSON(r, size)
	if err != nil {
		return err
	}
	for _, f := range d.files {
		g, ok := got[f.Name]
		if !ok {
			return fmt.Errorf("dataset: %s is not in the index", f.Name)
		}
		if w := want[f.Name]; g != w {
			return fmt.Errorf("dataset: %s: the index has\n  %s\nthe file and the listing give\n  %s", f.Name, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			return fmt.Errorf("dataset: the index has an entry for %s, which is not in the dataset", p)
		}
	}
	return nil
}

// indexRowsJSON returns an index's rows as JSON, by path.
func indexRowsJSON(r io.ReaderAt, size int64) (map[string]string, error) {
	ir, err := reader.Open(r, size)
	if err != nil {
		return nil, err
	}
	br, err := ir.NewBatchReader()
	if err != nil {
		return nil, err
	}
	defer br.Close()
	out := map[string]string{}
	b := br.NewBatch()
	for {
		err := br.Next(b)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		p := b.Cols[0].(*orc.BytesVector)
		for i := range b.NumRows {
			if !p.IsNull(i) {
				out[p.String(i)] = string(reader.AppendJSONRow(nil, b, i))
			}
		}
	}
}

// replaceFile writes data to a temporary file beside path and renames it
// over path, so that readers see the old contents or the new, never a part.
func replaceFile(path string, data []byte) error {
	tmp, err := createTemp(filepath.Dir(path), "_orcgo_index-*.tmp")
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
