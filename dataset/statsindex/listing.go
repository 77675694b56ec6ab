package statsindex

import (
	"fmt"
	"io"
	"strings"

	"github.com/orcgo/orc"
)

// ListedFile is a data file as an index lists it: the path, size and
// version of its entry.
type ListedFile struct {
	Name    string // slash-separated, below the dataset's root (dataset.File.Name)
	Size    int64
	Version string
}

// Listing returns the files an index lists, each with the size and
// version its entry records, for a store that cannot be listed, such as a plain HTTP server: the index is then
// the dataset's listing, as a table format's manifest is. Such a dataset
// holds the files the index held when it was written: files added since
// are not seen, and a file rewritten since is judged by its old entry
// unless it is opened (spec.md 7.16), so the index must be updated with
// the files. Each path must be relative, slash-separated, without empty,
// "." or ".." elements, backslashes or control characters, so that it
// names a file below the dataset's root; an index with another path fails.
func Listing(r io.ReaderAt, size int64) ([]ListedFile, error) {
	ix, err := Open(r, size, &orc.Schema{Kind: orc.Struct}, nil)
	if err != nil {
		return nil, fmt.Errorf("dataset: index: %w", err)
	}
	var files []ListedFile
	var bad error
	seen := map[string]bool{}
	err = ix.scanIndex([]string{"path", "size", "version"}, trueExpr, func(b *orc.Batch, row int) {
		p, sz, v := b.Cols[0].(*orc.BytesVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.BytesVector)
		if bad != nil || p.IsNull(row) || sz.IsNull(row) || v.IsNull(row) {
			return
		}
		name := p.String(row)
		switch {
		case !relativePath(name):
			bad = fmt.Errorf("dataset: the index lists %q, not a path below the dataset's root", name)
		case seen[name]:
			bad = fmt.Errorf("dataset: the index lists %q twice", name)
		case sz.Values[row] < 0:
			bad = fmt.Errorf("dataset: the index gives %q a size of %d", name, sz.Values[row])
		default:
			seen[name] = true
			files = append(files, ListedFile{Name: name, Size: sz.Values[row], Version: v.String(row)})
		}
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, fmt.Errorf("dataset: reading the index's paths: %w", err)
	}
	return files, nil
}

// relativePath reports whether p is a clean relative slash path.
func relativePath(p string) bool {
	if p == "" || len(p) > 4096 {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return false
		}
	}
	return true
}
