package dataset

// The dataset's use of its statistics index (package statsindex, spec.md
// 7.16): a scan asks the index which of its files it can skip before
// opening any, and the index is built from the dataset's IndexSource.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/reader"
)

// WithIndex makes the dataset's scans look files up in an index (written
// by statsindex.Write) before opening them. open opens the index; an open
// that fails with an error wrapping fs.ErrNotExist means there is no
// index, and any other failure (an unreadable or foreign index) is
// ignored with a warning (Stats.IndexWarning): the scan then prunes by
// footers alone. name names the index in messages. WithIndexFile is the
// local-file form; on a store without rename, statsindex.Pointer(open)
// opens the index the pointer object names (statsindex.Publish).
func WithIndex(name string, open Opener) Option {
	return func(d *Dataset) error {
		if open == nil {
			return errors.New("dataset: WithIndex: no Open function")
		}
		d.index, d.indexName = open, name
		return nil
	}
}

// WithIndexFile uses the index at a local path when it exists (normally
// filepath.Join(root, statsindex.FileName)); see WithIndex.
func WithIndexFile(path string) Option { return WithIndex(path, openLocal(path)) }

// WithIndexLookup turns the index lookup of a scan on or off. Default: on,
// when the dataset has an index (WithIndex) and the scan a predicate.
func WithIndexLookup(on bool) ScanOption {
	return func(c *scanConfig) error {
		c.noIndex = !on
		return nil
	}
}

// IndexSource returns the dataset as its statistics index sees it, for
// statsindex.Write, Update and Check: the read schema, the partition
// columns, and each file with its listed size and version, its partition
// values and an Open that checks the file as a scan does.
func (d *Dataset) IndexSource() *statsindex.Source {
	src := &statsindex.Source{Schema: d.read, Partitions: d.parts, ByPosition: d.byPosition,
		Files: make([]statsindex.SourceFile, len(d.files))}
	for i, f := range d.files {
		src.Files[i] = statsindex.SourceFile{Name: f.Name, Size: f.Size, Version: f.Version, Partition: d.values[i],
			Open: func() (*reader.Reader, io.Closer, error) {
				of, err := d.open(i)
				if err != nil {
					return nil, nil, err
				}
				return of.r, of.c, nil
			}}
	}
	return src
}

// errNoIndex means the dataset has no index.
var errNoIndex = errors.New("dataset: no index")

// openIndex opens and checks the dataset's index. The returned function
// closes what the index reads.
func (d *Dataset) openIndex() (*statsindex.Index, func(), error) {
	ra, size, c, err := d.index()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, errNoIndex
		}
		return nil, nil, fmt.Errorf("%s: %w", d.indexName, err)
	}
	done := func() {
		if c != nil {
			c.Close()
		}
	}
	ix, err := statsindex.Open(ra, size, d.read, d.parts, d.readerOpts...)
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("%s: %w", d.indexName, err)
	}
	return ix, done, nil
}

// indexLookup rules out the units the index proves hold no match
// (statsindex.Index.Lookup). A failing index is ignored with a warning.
func (s *Scanner) indexLookup() {
	d := s.d
	if d.index == nil || s.cfg.noIndex || s.cfg.where == nil || len(s.units) == 0 {
		return
	}
	ix, done, err := d.openIndex()
	if err == errNoIndex {
		return
	}
	if err == nil {
		defer done()
		err = s.lookupWith(ix)
		if err != nil {
			err = fmt.Errorf("%s: %w", d.indexName, err)
		}
	}
	if err != nil {
		s.stats.IndexWarning = fmt.Sprintf("dataset: index ignored, files pruned by their footers: %v", err)
		if s.cfg.explain {
			fmt.Fprintf(&s.explain, "index: ignored: %v\n", err)
		}
	}
}

// lookupWith rules out units through the index: a unit under a predicate
// whose file the index rules out. The files asked about are those with a
// unit under a predicate and a version an entry can match; a split's
// units share their file's verdict, and each counts.
func (s *Scanner) lookupWith(ix *statsindex.Index) error {
	q := statsindex.Query{Where: *s.cfg.where}
	asked := map[int]int{} // file -> its place in q.Files
	for _, u := range s.units {
		f := s.d.files[u.file]
		if u.where == nil || f.Version == "" {
			continue
		}
		if _, ok := asked[u.file]; !ok {
			asked[u.file] = len(q.Files)
			q.Files = append(q.Files, statsindex.QueryFile{Name: f.Name, Size: f.Size, Version: f.Version, Where: *u.where})
		}
	}
	res, err := ix.Lookup(q)
	if err != nil {
		return err
	}
	if res.Warning != "" {
		s.stats.IndexWarning = fmt.Sprintf("dataset: %s: %s", s.d.indexName, res.Warning)
	}
	var stale, byGroups, byStats int
	kept := s.units[:0]
	for _, u := range s.units {
		if u.where == nil {
			kept = append(kept, u)
			continue
		}
		v := statsindex.NotVouched
		if k, ok := asked[u.file]; ok {
			v = res.Verdicts[k]
		}
		switch v {
		case statsindex.NotVouched:
			stale++
			kept = append(kept, u)
		case statsindex.MayMatch:
			kept = append(kept, u)
		case statsindex.RuledOutByRowGroups:
			byGroups++
		case statsindex.RuledOutByStatistics:
			byStats++
		}
	}
	s.units = kept
	s.stats.IndexUsed = true
	s.stats.FilesSkipped += byGroups + byStats
	s.stats.FilesPrunedByIndex += byGroups + byStats
	s.stats.FilesNotInIndex += stale
	if s.cfg.explain {
		fmt.Fprintf(&s.explain, "index: lookup expression: %s\n", res.LookupExpr)
		fmt.Fprintf(&s.explain, "index: membership expression: %s\n", res.MembershipExpr)
		fmt.Fprintf(&s.explain, "index: %d files ruled out by the index's row groups, %d by their entries' statistics; %d missing, changed or without a version (read)\n",
			byGroups, byStats, stale)
	}
	return nil
}
