// Package dataset reads many ORC files as one table: a directory tree (with
// Hive-style partition directories such as dt=2024-03-10), a list of paths,
// an fs.FS, or files the caller opens from its own storage. Files written
// over the years with other schemas are read through one read schema
// (WithSchema, see reader.WithReadSchema); without one, every file must
// have the first file's schema (SchemaMismatchError). A scan prunes in order: partition values first,
// before any file is opened, then each file's footer statistics, then the
// single-file path (stripes, row groups, bloom filters). The next files are
// opened while earlier ones are scanned (WithOpenAhead), so that the round
// trips of an object store overlap.
//
// For distributed engines, Splits cuts the dataset into (file, offset,
// length) units aligned to stripes: reading every split once returns every
// row once, and a split serialises to JSON, so n goroutines or n processes
// can each take a share (see the example).
//
// A directory is listed without following symbolic links, and its files
// are opened through it (an os.Root), so that nothing outside the
// directory given is read; entries that vanish while it is listed are left
// out, and anything unreadable is an error naming its path. Dir lists the
// rules, partition directory names included.
package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/localfile"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// Opener opens one file: it returns the bytes as an io.ReaderAt, the
// file's size, and a Closer for when the scan is done with it (nil when
// there is nothing to close). It is how callers bring their own storage:
// an S3 or GCS client wraps a ranged GET in ReadAt.
type Opener func() (r io.ReaderAt, size int64, c io.Closer, err error)

// File is one ORC file of a dataset.
type File struct {
	// Name identifies the file: a slash-separated path relative to the
	// dataset's root. Files are scanned in Name order, and the directory
	// names in it (key=value) give the partition values.
	Name string
	// Open opens it.
	Open Opener
	// Size and Version are what the listing reports of the file: its size
	// in bytes and a marker that changes when the file is rewritten (a
	// modification time, an ETag). An index entry stands for the file only
	// when both match it (spec.md 7.16); with an empty Version the file is
	// always opened. Dir, FromPaths and FromFS set them (Version: the
	// modification time in nanoseconds, then, on Linux and the BSDs when
	// the file system reports them, the inode number and the inode change
	// time: "mtime.ino.ctime").
	Size    int64
	Version string
}

// HivePartitionDefault is the directory value Hive writes for a NULL
// partition value.
const HivePartitionDefault = "__HIVE_DEFAULT_PARTITION__"

// skipName reports whether a directory entry is left out of a dataset:
// hidden files and the markers and checksums engines leave beside the data
// (names starting with "." or "_", such as _SUCCESS and .part-0.crc).
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// FromPaths lists the files of local paths: a file as it is, a directory
// with every file below it (hidden and marker files left out, see Dir). A
// file's Name is its path relative to the directory it was found in, or its
// base name when given directly.
func FromPaths(paths ...string) ([]File, error) {
	files, _, err := ListPaths(paths...)
	return files, err
}

// Skipped is an entry below a listed directory that the listing left out
// for its kind, not its name: a symbolic link, or a file that is not a
// regular file. Hidden and marker names (see Dir) are not reported.
//
// Symbolic links are not followed, to ORC files either: every file of a
// directory is opened through it (an os.Root), so that nothing outside the
// directory is read, whatever its links point to, and no link loop can
// trap the listing. A file that belongs to a dataset belongs in its
// directory (a hard link or a copy, not a symbolic link).
type Skipped struct {
	Name string // the slash-separated path below the directory, as File.Name
	Kind string // "symbolic link", "named pipe", "socket", "device" or "irregular file"
}

// ListPaths is FromPaths that also returns the entries below its
// directories left out for their kind (see Skipped), so that callers can
// name them, as they name files that are not ORC.
func ListPaths(paths ...string) ([]File, []Skipped, error) {
	var files []File
	var skipped []Skipped
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("dataset: %w", err)
		}
		if !fi.IsDir() {
			files = append(files, File{Name: filepath.Base(p), Open: openLocal(p), Size: fi.Size(), Version: modVersion(fi)})
			continue
		}
		fsFiles, sk, err := walk(localDir(p), ".", func(rel string) string { return filepath.Join(p, filepath.FromSlash(rel)) })
		if err != nil {
			return nil, nil, err
		}
		files = append(files, fsFiles...)
		skipped = append(skipped, sk...)
	}
	return files, skipped, nil
}

// skippedKind names the kind of an entry that is not a regular file.
func skippedKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "irregular file"
}

// Dir lists the files below a local directory (FromPaths of one directory).
//
// What a directory may hold, and what becomes of it:
//   - Hidden files and directories and those of engines' markers (names
//     starting with "." or "_", such as .part-0.crc, _SUCCESS, _temporary)
//     are left out.
//   - Symbolic links, to files or directories, are left out: they are not
//     followed, so a link loop cannot trap the listing and no link leads
//     out of the directory (ListPaths reports them, and the other entries
//     left out for their kind, so that callers can name them). Every file is later opened through the
//     directory (an os.Root), so a listed file replaced by a link that
//     points outside it fails to open instead of being read.
//   - Other non-regular files (devices, pipes, sockets) are left out. A
//     listed file replaced by one after the listing fails the scan that
//     reaches it, naming it (it is opened without blocking, so a named
//     pipe cannot hold the scan waiting for a writer).
//   - A file or directory that vanishes while the directory is listed is
//     left out; one that vanishes, or cannot be opened, after the listing
//     fails the scan that reaches it, with an error naming it. A file
//     rewritten after the listing is read as it is when opened (an index
//     entry stands for it only while its size and version still match).
//   - A subdirectory that cannot be read (permissions) fails the listing
//     with an error naming it: a table read without some of its files
//     would be wrong without a word.
//   - Paths longer than the system allows (PATH_MAX) are opened a
//     directory at a time, so deep trees list and read.
//
// The key=value directories in a file's path give its partition values
// (WithPartitioning): the value is URL-unescaped (so %2F is "/" and %3D
// is "="); the first "=" splits key from value; an empty value is the
// empty string (NULL only as __HIVE_DEFAULT_PARTITION__); a key that
// appears twice in one path (ignoring case) is an error naming the file.
// Values are data and never paths: a value such as ".." or "a%2Fb" is
// that string and opens nothing.
func Dir(root string) ([]File, error) { return FromPaths(root) }

// localDir is a local directory as an fs.FS that opens nothing outside it:
// names are resolved by an os.Root, which refuses a symbolic link (or a
// "..") that leads out of the directory and walks long paths a directory
// at a time.
type localDir string

// Open opens name, a slash-separated path below the directory.
func (d localDir) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_RDONLY|localfile.Flags, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// openLocal opens a local file, which must be a regular file.
func openLocal(p string) Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, fi, err := localfile.Open(p)
		if err != nil {
			return nil, 0, nil, err
		}
		return f, fi.Size(), f, nil
	}
}

// FromFS lists the files below root in fsys, in lexical order, leaving out
// hidden and marker files (names starting with "." or "_"), symbolic links
// and other non-regular files, and what vanishes while it is listed (see
// Dir). The files fsys opens must implement io.ReaderAt (os.DirFS and
// embed.FS files do).
func FromFS(fsys fs.FS, root string) ([]File, error) {
	files, _, err := walk(fsys, root, func(rel string) string { return rel })
	return files, err
}

// walk lists the files below root in fsys, and the entries it leaves out
// for their kind; show turns a path of fsys into the one errors name.
func walk(fsys fs.FS, root string, show func(string) string) ([]File, []Skipped, error) {
	var files []File
	var skipped []Skipped
	rel := func(p string) string {
		if root == "." {
			return p
		}
		return strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
	}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != root && errors.Is(err, fs.ErrNotExist) {
				return nil // gone while being listed
			}
			return listError(show(p), err)
		}
		if p != root && skipName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			skipped = append(skipped, Skipped{Name: rel(p), Kind: skippedKind(d.Type())})
			return nil
		}
		f := File{Name: rel(p), Open: openFS(fsys, p, show(p))}
		fi, err := d.Info()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil // gone while being listed
		case err != nil:
			return listError(show(p), err)
		}
		f.Size, f.Version = fi.Size(), modVersion(fi)
		files = append(files, f)
		return nil
	})
	return files, skipped, err
}

// listError is an error listing path: the path, then the cause without the
// operation and relative path an fs.PathError adds.
func listError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("dataset: listing %s: %w", path, err)
}

// modVersion is the Version of a listed file: its modification time in
// nanoseconds and, where the system reports them (statVersion), its inode
// number and inode change time, which no tool can set back. A file
// rewritten in place with the same size and its modification time
// restored (cp -p, rsync -a, tar x) then gets another version, since
// restoring the time changes the inode's. Where they are not reported, such
// a file keeps its version, and the index must be updated after it.
func modVersion(fi fs.FileInfo) string {
	v := strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	if sv := statVersion(fi); sv != "" {
		v += "." + sv
	}
	return v
}

// openFS opens a file of an fs.FS; shown is its path in errors.
func openFS(fsys fs.FS, p, shown string) Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := fsys.Open(p)
		if err != nil {
			if shown == p {
				return nil, 0, nil, err
			}
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, 0, nil, fmt.Errorf("opening %s: %w", shown, err)
		}
		ra, ok := f.(io.ReaderAt)
		if !ok {
			f.Close()
			return nil, 0, nil, fmt.Errorf("dataset: %s: the fs.FS file does not implement io.ReaderAt", p)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, 0, nil, fmt.Errorf("%s is no longer a regular file", shown)
		}
		return ra, fi.Size(), f, nil
	}
}

// FromOpeners makes files from names and a function opening a name: the way
// to read from an object store, whose client lists the names.
func FromOpeners(names []string, open func(name string) (io.ReaderAt, int64, io.Closer, error)) []File {
	files := make([]File, len(names))
	for i, n := range names {
		files[i] = File{Name: n, Open: func() (io.ReaderAt, int64, io.Closer, error) { return open(n) }}
	}
	return files
}

// Option configures a Dataset.
type Option func(*Dataset) error

// WithSchema sets the read schema, a struct: every file is read through it
// (reader.WithReadSchema: columns matched by name, missing ones null,
// widening conversions). Default: the schema of the first file, which
// every file must then have: a scan that opens a file of another schema
// fails with a *SchemaMismatchError naming it and the difference.
func WithSchema(s *orc.Schema) Option {
	return func(d *Dataset) error {
		if s == nil || s.Kind != orc.Struct {
			return fmt.Errorf("dataset: WithSchema(%v): must be a struct", s)
		}
		if err := s.Validate(); err != nil {
			return fmt.Errorf("dataset: WithSchema: %w", err)
		}
		d.read = s.Copy()
		d.read.Assign()
		return nil
	}
}

// WithPartitioning declares the Hive-style partition columns, a struct such
// as struct<dt:date,region:string>; struct<> declares none. Without it, New
// discovers them from the files' names (DiscoverPartitioning), leaving out
// a key that is also a column of the read schema: that column is the
// files'. Either way, a directory named key=value in a file's
// Name gives the file's value for column key (URL-escaped as Hive escapes
// it; __HIVE_DEFAULT_PARTITION__ or a missing directory is NULL). The
// columns follow the data columns in every batch, and predicates on them
// rule out files before they are opened. Types: boolean, the integers,
// float, double, decimal, string, varchar, char, date (2006-01-02) and
// timestamp (2006-01-02 15:04:05[.nnnnnnnnn]).
func WithPartitioning(s *orc.Schema) Option {
	return func(d *Dataset) error {
		if s == nil || s.Kind != orc.Struct {
			return fmt.Errorf("dataset: WithPartitioning(%v): must be a struct", s)
		}
		for i, c := range s.Children {
			switch c.Kind {
			case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double, orc.Decimal,
				orc.String, orc.Varchar, orc.Char, orc.Date, orc.Timestamp:
			default:
				return fmt.Errorf("dataset: partition column %s: type %s is not supported", s.FieldNames[i], c)
			}
		}
		d.parts, d.partsSet = s.Copy(), true
		d.parts.Assign()
		if len(s.Children) == 0 {
			d.parts = nil // struct<>: no partition columns
		}
		return nil
	}
}

// WithPositionalMatch matches the read schema's top-level columns to each
// file's by position rather than by name (reader.WithPositionalMatch).
func WithPositionalMatch(on bool) Option {
	return func(d *Dataset) error {
		d.byPosition = on
		return nil
	}
}

// WithReaderOptions sets the options every file is opened with (limits,
// default time zone).
func WithReaderOptions(opts ...reader.Option) Option {
	return func(d *Dataset) error {
		d.readerOpts = append([]reader.Option(nil), opts...)
		return nil
	}
}

// Dataset is a set of ORC files read as one table. It is immutable and safe
// for concurrent use: each Scan is independent.
type Dataset struct {
	files      []File
	values     [][]any // per file, its partition values (EvalRow types), nil for NULL
	read       *orc.Schema
	parts      *orc.Schema // partition columns, or nil
	byPosition bool
	readerOpts []reader.Option
	schema     *orc.Schema // read columns, then partition columns
	index      Opener      // the statistics index, or nil
	indexName  string
	// schemaFrom is the file the read schema was taken from when no
	// WithSchema gave one: every file opened must then have its schema.
	schemaFrom string
	// partsSet: WithPartitioning was given; else New discovers them.
	partsSet bool
}

// New makes a dataset of files, sorted by Name.
func New(files []File, opts ...Option) (*Dataset, error) {
	d := &Dataset{files: slices.Clone(files)}
	for _, o := range opts {
		if err := o(d); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(d.files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(d.files); i++ {
		if d.files[i].Name == d.files[i-1].Name {
			return nil, fmt.Errorf("dataset: two files are named %q", d.files[i].Name)
		}
	}
	if d.read == nil {
		if len(d.files) == 0 {
			return nil, errors.New("dataset: no files, and no schema given (WithSchema)")
		}
		// The first file that holds a tail: a 0-byte file (Hive's empty
		// file) has no schema.
		first := 0
		of, err := d.open(first)
		for err == nil && of.r.Size() == 0 && first+1 < len(d.files) {
			of.close()
			first++
			of, err = d.open(first)
		}
		if err != nil {
			return nil, err
		}
		d.read = of.r.Schema().Copy()
		of.close()
		if d.read.Kind != orc.Struct {
			return nil, fmt.Errorf("dataset: %s: the schema %s is not a struct", d.files[first].Name, d.read)
		}
		d.read.Assign()
		d.schemaFrom = d.files[first].Name
	}
	if !d.partsSet {
		d.parts = discoveredPartitions(d.files, d.read)
	}
	d.schema = d.read.Copy()
	if d.parts != nil {
		for i, c := range d.parts.Children {
			name := d.parts.FieldNames[i]
			if d.read.Field(name) != nil {
				return nil, fmt.Errorf("dataset: partition column %s is also a column of the schema %s", name, d.read)
			}
			d.schema.Children = append(d.schema.Children, c.Copy())
			d.schema.FieldNames = append(d.schema.FieldNames, name)
		}
	}
	d.schema.Assign()
	d.values = make([][]any, len(d.files))
	if d.parts != nil {
		for i, f := range d.files {
			v, err := partitionValues(d.parts, f.Name)
			if err != nil {
				return nil, err
			}
			d.values[i] = v
		}
	}
	return d, nil
}

// Files returns the dataset's files in scan order.
func (d *Dataset) Files() []File { return slices.Clone(d.files) }

// Schema returns the table's schema: the read schema's columns, then the
// partition columns.
func (d *Dataset) Schema() *orc.Schema { return d.schema }

// openFile is an opened file of the dataset.
type openFile struct {
	r *reader.Reader
	c io.Closer
}

func (o *openFile) close() {
	if o.c != nil {
		o.c.Close()
	}
}

// open opens file i.
func (d *Dataset) open(i int) (*openFile, error) {
	f := d.files[i]
	if f.Open == nil {
		return nil, fmt.Errorf("dataset: %s: no Open function", f.Name)
	}
	ra, size, c, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", f.Name, err)
	}
	r, err := reader.Open(ra, size, d.readerOpts...)
	if err == nil && d.schemaFrom != "" && size > 0 {
		if diff := schemaDifference(r.Schema(), d.read, d.schemaFrom, d.byPosition); diff != "" {
			err = &SchemaMismatchError{File: f.Name, Schema: r.Schema(), First: d.schemaFrom, FirstSchema: d.read, Difference: diff}
		}
	}
	if err != nil {
		if c != nil {
			c.Close()
		}
		var sm *SchemaMismatchError
		if errors.As(err, &sm) {
			return nil, err
		}
		return nil, fmt.Errorf("dataset: %s: %w", f.Name, err)
	}
	return &openFile{r: r, c: c}, nil
}

// partitionValues parses the key=value directories of a file name into
// values of the partition columns' types (EvalRow's types), nil for NULL.
func partitionValues(parts *orc.Schema, name string) ([]any, error) {
	vals := make([]any, len(parts.Children))
	seen := make([]string, len(parts.Children)) // the directory that gave each value
	dirs := strings.Split(path.Dir(name), "/")
	for _, dir := range dirs {
		k, v, ok := strings.Cut(dir, "=")
		if !ok {
			continue
		}
		if uk, err := url.PathUnescape(k); err == nil {
			k = uk
		}
		for i, fname := range parts.FieldNames {
			if fname != k && !strings.EqualFold(fname, k) {
				continue
			}
			if seen[i] != "" {
				return nil, fmt.Errorf("dataset: %s: partition %s is given twice, by %s and %s", name, fname, seen[i], dir)
			}
			seen[i] = dir
			if v == HivePartitionDefault {
				vals[i] = nil
				break
			}
			uv, err := url.PathUnescape(v)
			if err != nil {
				return nil, fmt.Errorf("dataset: %s: partition %s: bad escape in %q", name, fname, v)
			}
			x, err := parseValue(parts.Children[i], uv)
			if err != nil {
				return nil, fmt.Errorf("dataset: %s: partition %s=%q: %w", name, fname, uv, err)
			}
			vals[i] = x
			break
		}
	}
	return vals, nil
}

// parseValue parses a partition value of type t.
func parseValue(t *orc.Schema, s string) (any, error) {
	switch t.Kind {
	case orc.Boolean:
		return strconv.ParseBool(s)
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		bits := map[orc.Kind]int{orc.Byte: 8, orc.Short: 16, orc.Int: 32, orc.Long: 64}[t.Kind]
		return strconv.ParseInt(s, 10, bits)
	case orc.Float, orc.Double:
		return strconv.ParseFloat(s, 64)
	case orc.Decimal:
		v, scale, err := orc.ParseDecimal(s)
		if err != nil {
			return nil, err
		}
		r, exact, ok := orc.Rescale(v, scale, t.Scale)
		if !exact || !ok {
			return nil, fmt.Errorf("does not fit %s", t)
		}
		return stats.DecimalValue{Unscaled: r, Scale: t.Scale}, nil
	case orc.String, orc.Varchar, orc.Char:
		if t.Kind == orc.Char {
			for n := len([]rune(s)); n < t.MaxLength; n++ {
				s += " "
			}
		}
		return s, nil
	case orc.Date:
		tm, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, err
		}
		return tm.Unix() / 86400, nil
	case orc.Timestamp:
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			return nil, err
		}
		return timestampValue(tm), nil
	}
	return nil, fmt.Errorf("type %s is not supported", t)
}

// decimalValue is a decimal partition value.
type decimalValue = stats.DecimalValue

// timestampValue is a wall clock as EvalRow takes it.
func timestampValue(t time.Time) sarg.TimestampValue {
	return sarg.TimestampValue{Sec: t.Unix(), Nanos: int32(t.Nanosecond())}
}

// discoveredPartitions returns the partition columns the files' key=value
// directories give (DiscoverPartitioning), without the keys that are also
// columns of the read schema (exactly or ignoring case), which stay the
// files' columns; nil when none remain.
func discoveredPartitions(files []File, read *orc.Schema) *orc.Schema {
	found := DiscoverPartitioning(files)
	if found == nil {
		return nil
	}
	kept := &orc.Schema{Kind: orc.Struct}
	for i, c := range found.Children {
		name := found.FieldNames[i]
		if slices.ContainsFunc(read.FieldNames, func(n string) bool { return strings.EqualFold(n, name) }) {
			continue
		}
		kept.Children = append(kept.Children, c)
		kept.FieldNames = append(kept.FieldNames, name)
	}
	if len(kept.Children) == 0 {
		return nil
	}
	kept.Assign()
	return kept
}
