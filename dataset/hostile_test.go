package dataset_test

// Directories that fight back (issue 35): link loops, links out of the
// directory, unreadable and vanishing entries, files changed after the
// listing, partition directories with odd names, very deep paths, and a
// directory of many files.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// writeTree writes files (slash names relative to dir) holding data.
func writeTree(t *testing.T, dir string, data []byte, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(files []dataset.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

// scanErr scans d to the end and returns the first error.
func scanErr(d *dataset.Dataset) error {
	s, err := d.Scan()
	if err != nil {
		return err
	}
	defer s.Close()
	b := s.NewBatch()
	for {
		if err := s.Next(b); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func TestDirSymlinksLeftOut(t *testing.T) {
	data := makeFiles(t, 1, 1, 10)[0].data
	outside := t.TempDir()
	writeTree(t, outside, data, "secret.orc")
	dir := t.TempDir()
	writeTree(t, dir, data, "a/f.orc")
	links := map[string]string{
		"a/loop":       "..",                                  // a loop back up
		"self":         "self",                                // a link to itself
		"b":            "a",                                   // a directory inside
		"in.orc":       "a/f.orc",                             // a file inside
		"out.orc":      filepath.Join(outside, "secret.orc"),  // a file outside
		"outdir":       outside,                               // a directory outside
		"dangling.orc": filepath.Join(outside, "missing.orc"), // nothing
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(l))); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	done := make(chan struct{})
	var files []dataset.File
	var err error
	go func() { files, err = dataset.Dir(dir); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("listing a directory with a link loop did not end")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := names(files); !slices.Equal(got, []string{"a/f.orc"}) {
		t.Fatalf("listed %q, want only a/f.orc (links are left out)", got)
	}
}

func TestDirOpenStaysInside(t *testing.T) {
	data := makeFiles(t, 1, 1, 10)[0].data
	outside := t.TempDir()
	writeTree(t, outside, data, "secret.orc")
	dir := t.TempDir()
	writeTree(t, dir, data, "dt=1/f.orc", "dt=2/f.orc")
	files, err := dataset.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// After the listing, a file is replaced by a link out of the directory,
	// and another by a link to a file inside it.
	p := filepath.Join(dir, "dt=1", "f.orc")
	os.Remove(p)
	if err := os.Symlink(filepath.Join(outside, "secret.orc"), p); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	_, _, _, err = files[0].Open()
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("opening a file replaced by a link out of the directory: %v; want an error naming %s", err, p)
	}
	q := filepath.Join(dir, "dt=2", "f.orc")
	os.Rename(q, q+".old")
	os.Symlink("f.orc.old", q)
	ra, size, c, err := files[1].Open()
	if err != nil {
		t.Fatalf("a link that stays inside the directory: %v", err)
	}
	c.Close()
	if ra == nil || size != int64(len(data)) {
		t.Fatalf("size %d, want %d", size, len(data))
	}
}

// faultFS is an fs.FS over a MapFS with faults: directories whose reading
// fails, files whose opening fails, and names listed that are gone.
type faultFS struct {
	fstest.MapFS
	badDirs  map[string]error
	badFiles map[string]error
	phantoms map[string][]fs.DirEntry // extra entries listed per directory
}

func (f *faultFS) Open(name string) (fs.File, error) {
	if err := f.badFiles[name]; err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f.MapFS.Open(name)
}

func (f *faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.badDirs[name]; err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	ents, err := f.MapFS.ReadDir(name)
	ents = append(ents, f.phantoms[name]...)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// phantom is a directory entry whose file is gone by the time it is looked at.
type phantom struct {
	name string
	dir  bool
}

func (p phantom) Name() string { return p.name }
func (p phantom) IsDir() bool  { return p.dir }
func (p phantom) Type() fs.FileMode {
	if p.dir {
		return fs.ModeDir
	}
	return 0
}
func (p phantom) Info() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "lstat", Path: p.name, Err: fs.ErrNotExist}
}

func TestListingFaults(t *testing.T) {
	data := makeFiles(t, 1, 1, 10)[0].data
	m := fstest.MapFS{
		"dt=1/f.orc":      {Data: data},
		"dt=2/f.orc":      {Data: data},
		"locked/f.orc":    {Data: data},
		"dt=3/vanish.orc": {Data: data},
	}
	// What vanishes while it is listed is left out.
	fsys := &faultFS{MapFS: m, phantoms: map[string][]fs.DirEntry{
		".":    {phantom{"gone", true}},
		"dt=1": {phantom{"gone.orc", false}},
	}}
	files, err := dataset.FromFS(fsys, ".")
	if err != nil {
		t.Fatalf("entries that vanished while listed: %v", err)
	}
	if got := names(files); !slices.Equal(got, []string{"dt=1/f.orc", "dt=2/f.orc", "dt=3/vanish.orc", "locked/f.orc"}) {
		t.Fatalf("listed %q", got)
	}
	// A directory that cannot be read fails the listing, naming it.
	fsys.badDirs = map[string]error{"locked": fs.ErrPermission}
	if _, err := dataset.FromFS(fsys, "."); err == nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("an unreadable directory: %v; want a permission error naming locked", err)
	}
	// A file that cannot be opened, or is gone, fails the scan, naming it.
	fsys.badDirs = nil
	for name, cause := range map[string]error{"dt=2/f.orc": fs.ErrPermission, "dt=3/vanish.orc": fs.ErrNotExist} {
		fsys.badFiles = map[string]error{name: cause}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
		if err != nil {
			t.Fatal(err)
		}
		if err := scanErr(d); err == nil || !errors.Is(err, cause) || !strings.Contains(err.Error(), name) {
			t.Fatalf("%s failing with %v: the scan says %v", name, cause, err)
		}
	}
}

func TestDirUnreadable(t *testing.T) {
	data := makeFiles(t, 1, 1, 10)[0].data
	dir := t.TempDir()
	writeTree(t, dir, data, "dt=1/f.orc", "dt=2/f.orc", "locked/f.orc")
	locked := filepath.Join(dir, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	if f, err := os.Open(locked); err == nil {
		f.Close()
		// Root (or a file system without permissions) reads it anyway:
		// TestListingFaults covers the failure through an fs.FS.
		t.Skip("permissions do not deny reading here (running as root?): the unreadable-directory case is covered by TestListingFaults")
	}
	_, err := dataset.Dir(dir)
	if err == nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), locked) {
		t.Fatalf("an unreadable directory: %v; want a permission error naming %s", err, locked)
	}
	os.Chmod(locked, 0o755)
	unreadable := filepath.Join(dir, "dt=2", "f.orc")
	os.Chmod(unreadable, 0)
	files, err := dataset.Dir(dir)
	if err != nil {
		t.Fatalf("an unreadable file is listed (it fails when read): %v", err)
	}
	d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
	if err != nil {
		t.Fatal(err)
	}
	if err := scanErr(d); err == nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), unreadable) {
		t.Fatalf("an unreadable file: %v; want a permission error naming %s", err, unreadable)
	}
}

func TestDirChangedAfterListing(t *testing.T) {
	tf := makeFiles(t, 1, 2, 300)
	dir := t.TempDir()
	writeTree(t, dir, tf[0].data, "a.orc", "b.orc", "c.orc")
	files, err := dataset.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)))
	if err != nil {
		t.Fatal(err)
	}
	// a.orc vanishes: the scan fails naming it.
	os.Remove(filepath.Join(dir, "a.orc"))
	if err := scanErr(d); err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(dir, "a.orc")) {
		t.Fatalf("a vanished file: %v", err)
	}
	// b.orc is cut short, c.orc rewritten with other (valid) data.
	writeTree(t, dir, tf[0].data, "a.orc")
	writeTree(t, dir, tf[0].data[:len(tf[0].data)/2], "b.orc")
	writeTree(t, dir, tf[1].data, "c.orc")
	if err := scanErr(d); err == nil || !strings.Contains(err.Error(), "b.orc") {
		t.Fatalf("a file cut short after the listing: %v", err)
	}
	writeTree(t, dir, tf[0].data, "b.orc")
	rows, _ := scanRows(t, d)
	if want := 2*len(tf[0].rows) + len(tf[1].rows); len(rows) != want {
		t.Fatalf("%d rows, want %d (the rewritten file read as it is now)", len(rows), want)
	}
	// A file truncated while a scan reads it.
	s, err := d.Scan(dataset.WithBatchSize(10))
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := s.Next(b); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.orc", "b.orc", "c.orc"} {
		os.Truncate(filepath.Join(dir, n), 100)
	}
	for err = s.Next(b); err == nil; err = s.Next(b) {
	}
	s.Close()
	if err == io.EOF || !strings.Contains(err.Error(), ".orc") {
		t.Fatalf("files truncated during the scan: %v; want an error naming one", err)
	}
}

func TestPartitionDirectoryNames(t *testing.T) {
	data := makeFiles(t, 1, 1, 1)[0].data
	long := strings.Repeat("v", 240)
	cases := []struct {
		dirs string // the directories above f.orc
		want string // k's value (JSON), or "error: ..." with a text the error holds
	}{
		{"k=..", `".."`},
		{"k=%2E%2E", `".."`},
		{"k=a%2Fb", `"a/b"`},
		{"k=%2F", `"/"`},
		{"k=a=b", `"a=b"`},
		{"k=a%3Db", `"a=b"`},
		{"k=", `""`},
		{"k=%00", `"\u0000"`},
		{"k=" + dataset.HivePartitionDefault, `null`},
		{"k=" + long, `"` + long + `"`},
		{"other=1", `null`},
		{"k=%zz", "error: bad escape"},
		{"k=1/k=2", "error: given twice"},
		{"K=1/x/k=2", "error: given twice"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		writeTree(t, dir, data, c.dirs+"/f.orc")
		files, err := dataset.Dir(dir)
		if err != nil {
			t.Fatalf("%s: %v", c.dirs, err)
		}
		d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(readSchema)),
			dataset.WithPartitioning(orc.MustParseSchema("struct<k:string>")))
		if want, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.dirs+"/f.orc") {
				t.Errorf("%s: %v; want an error naming the file, saying %q", c.dirs, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.dirs, err)
			continue
		}
		rows, _ := scanRows(t, d)
		if len(rows) != 1 || !strings.HasSuffix(rows[0], `"k": `+c.want+`}`) {
			t.Errorf("%s: rows %q, want k %s", c.dirs, rows, c.want)
		}
	}
	// An integer partition with an empty value is an error naming the file.
	dir := t.TempDir()
	writeTree(t, dir, data, "k=/f.orc")
	files, _ := dataset.Dir(dir)
	if _, err := dataset.New(files, dataset.WithPartitioning(orc.MustParseSchema("struct<k:int>"))); err == nil || !strings.Contains(err.Error(), "k=/f.orc") {
		t.Errorf("k= as an int: %v", err)
	}
}

func TestDirDeeperThanPathMax(t *testing.T) {
	data := makeFiles(t, 1, 1, 5)[0].data
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// 24 directories of 200 bytes: a path of some 4,800 bytes, past Linux's
	// PATH_MAX of 4,096, made one directory at a time.
	rel := ""
	for i := range 24 {
		rel = filepath.Join(rel, fmt.Sprintf("%03d%s", i, strings.Repeat("d", 197)))
		if err := root.Mkdir(rel, 0o755); err != nil {
			t.Skipf("cannot make a deep tree here: %v", err)
		}
	}
	f, err := root.Create(filepath.Join(rel, "f.orc"))
	if err != nil {
		t.Skipf("cannot make a deep tree here: %v", err)
	}
	f.Write(data)
	f.Close()
	files, err := dataset.Dir(dir)
	if err != nil {
		t.Fatalf("listing a tree deeper than PATH_MAX: %v", err)
	}
	if len(files) != 1 || files[0].Size != int64(len(data)) {
		t.Fatalf("listed %d files (%v)", len(files), files)
	}
	d, err := dataset.New(files)
	if err != nil {
		t.Fatalf("opening a file deeper than PATH_MAX: %v", err)
	}
	if err := scanErr(d); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
}

// TestDirManyFiles lists a directory of many files (hard links to one
// small ORC file, spread over partition directories) and states the time
// and memory the listing takes. The size is ORC_DIR_FILES (default 2,000;
// the 100,000 with ORC_DIR_FILES=100000).
func TestDirManyFiles(t *testing.T) {
	n := 2000
	if s := os.Getenv("ORC_DIR_FILES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("ORC_DIR_FILES=%q", s)
		}
	}
	data := makeFiles(t, 1, 1, 3)[0].data
	dir := t.TempDir()
	// File systems cap the links to one file (ext4: 65,000): a seed file
	// for every 50,000.
	var seeds []string
	for i := range (n + 49999) / 50000 {
		seed := filepath.Join(dir, fmt.Sprint("_seed", i))
		if err := os.WriteFile(seed, data, 0o644); err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed)
	}
	made := time.Now()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("p=%d", i/100))
		if i%100 == 0 {
			os.Mkdir(sub, 0o755)
		}
		if err := os.Link(seeds[i/50000], filepath.Join(sub, fmt.Sprintf("part-%06d.orc", i))); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	t.Logf("made %d files in %v", n, time.Since(made).Round(time.Millisecond))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	files, err := dataset.Dir(dir)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.New(files, dataset.WithPartitioning(orc.MustParseSchema("struct<p:bigint>")))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d files: listed in %v (%.1f µs a file); listing and dataset hold %d KiB (%d bytes a file), %d MiB allocated in all",
		n, took.Round(time.Millisecond), float64(took.Microseconds())/float64(n), held>>10, held/int64(n), (after.TotalAlloc-before.TotalAlloc)>>20)
	if len(d.Files()) != n {
		t.Fatalf("listed %d files, want %d", len(d.Files()), n)
	}
	// What a file costs held: its name, version, opener and partition
	// values, some hundreds of bytes. 2 KiB a file leaves room, and fails
	// a listing that keeps per-file buffers.
	if held > int64(n)*2048+1<<20 {
		t.Errorf("%d files hold %d bytes, over 2 KiB a file", n, held)
	}
	// A scan pruned to one partition directory opens only its files.
	start = time.Now()
	s, err := d.Scan(dataset.WithSearchArgument(sarg.Eq("p", sarg.Int(0))))
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	rows := 0
	for {
		if err := s.Next(b); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rows += b.NumRows
	}
	st := s.Stats()
	s.Close()
	t.Logf("scanned p=0 in %v", time.Since(start).Round(time.Millisecond))
	if want := min(n, 100) * 3; rows != want {
		t.Fatalf("%d rows in p=0, want %d", rows, want)
	}
	if st.FilesOpened != min(n, 100) {
		t.Fatalf("the scan of p=0 opened %d files, want %d", st.FilesOpened, min(n, 100))
	}
	runtime.KeepAlive(d)
}
