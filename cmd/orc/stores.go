package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/internal/storegw"
	"github.com/orcgo/orc/internal/tempfile"
)

// Object stores: s3://, gs://, azblob:// and file:// URLs are read and
// written through the orc-cloud helper (module github.com/orcgo/orc/cloud),
// which this command starts at the first such URL and which holds the
// cloud SDKs, so that this command links none (spec.md 9). A store URL
// is a URL as isURL says; one whose path ends in "/" is a table, listed
// (with its key=value partitions) and read through its index when it has
// one.

// storeSchemes are the schemes the helper serves.
var storeSchemes = []string{"s3://", "gs://", "azblob://", "file://"}

// knownSchemes lists the URL schemes orc reads, for errors.
const knownSchemes = "http://, https://, s3://, gs://, azblob:// and file://"

// urlScheme returns the scheme of a path written as a URL (a scheme of a
// letter and letters, digits, '+', '-' or '.', then "://"), for an error
// when it is none orc reads and no such file exists.
func urlScheme(p string) (string, bool) {
	i := strings.Index(p, "://")
	if i <= 0 {
		return "", false
	}
	for k, c := range p[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (k == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return p[:i], true
}

// isStoreURL reports whether p is an object store URL.
func isStoreURL(p string) bool {
	lp := strings.ToLower(p)
	for _, s := range storeSchemes {
		if strings.HasPrefix(lp, s) {
			return true
		}
	}
	return false
}

// isStorePrefix reports whether a store URL names a prefix (a table): its
// path, before any query, ends in "/".
func isStorePrefix(p string) bool {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return strings.HasSuffix(p, "/")
}

// storeClient returns the helper's client, starting it once, with the
// command's --timeout.
func storeClient() (*storegw.Client, error) {
	if _, err := netOptions(); err != nil {
		return nil, err // a --timeout out of range
	}
	c, err := storegw.Shared()
	if err != nil {
		return nil, err
	}
	c.SetTimeout(netTimeout)
	return c, nil
}

// openStoreFile opens an object through the helper.
func openStoreFile(u string) (*storegw.File, error) {
	c, err := storeClient()
	if err != nil {
		return nil, err
	}
	return c.Open(interruptContext(), u)
}

// storeOpener is a dataset.Opener of an object.
func storeOpener(u string) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := openStoreFile(u)
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
}

// storeChild is the URL of name below the prefix URL root, the root's
// query kept.
func storeChild(root, name string) string {
	base, q, _ := strings.Cut(root, "?")
	var esc []string
	for _, el := range strings.Split(name, "/") {
		esc = append(esc, url.PathEscape(el))
	}
	u := base + strings.Join(esc, "/")
	if q != "" {
		u += "?" + q
	}
	return u
}

// openStoreDir lists the table at root, a prefix URL, and reads its index
// when it has one (the pointer object, else _orcgo_index.orc).
func openStoreDir(root string) (*urlDir, error) {
	c, err := storeClient()
	if err != nil {
		return nil, err
	}
	list, err := c.List(interruptContext(), root)
	if err != nil {
		return nil, err
	}
	u := &urlDir{root: root, display: map[string]string{}}
	for _, e := range list {
		full := storeChild(root, e.Name)
		u.files = append(u.files, dataset.File{Name: e.Name, Size: e.Size, Version: e.Version, Open: storeOpener(full)})
		u.display[e.Name] = full
	}
	open := func(name string) dataset.Opener { return storeOpener(storeChild(root, name)) }
	ra, size, cl, err := statsindex.Pointer(open)()
	u.name = storeChild(root, statsindex.PointerName)
	if errors.Is(err, fs.ErrNotExist) {
		u.name = storeChild(root, statsindex.FileName)
		ra, size, cl, err = open(statsindex.FileName)()
		if errors.Is(err, fs.ErrNotExist) {
			return u, nil // no index: the listing alone
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.name, err)
	}
	defer cl.Close()
	if err := u.readIndex(ra, size); err != nil {
		return nil, err
	}
	return u, nil
}

// output is a file being written: a temporary file beside OUT renamed into
// place at commit, or an upload to a store URL that appears whole at
// commit. abort leaves neither.
type output struct {
	w       io.Writer
	written int64 // bytes written
	name    string
	tmp     *os.File
	upload  *storegw.Upload
}

// createOutput starts writing out.
func createOutput(out string) (*output, error) {
	if isStoreURL(out) {
		c, err := storeClient()
		if err != nil {
			return nil, err
		}
		up := c.Create(interruptContext(), out)
		return &output{w: up, name: out, upload: up}, nil
	}
	tmp, err := tempfile.Create(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &output{w: outputWriter(tmp), name: out, tmp: tmp}, nil
}

// Write writes p to the output.
func (o *output) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	o.written += int64(n)
	return n, err
}

// commit completes the output: OUT appears whole.
func (o *output) commit() error {
	if o.upload != nil {
		return o.upload.Close()
	}
	if err := o.tmp.Close(); err != nil {
		return err
	}
	return os.Rename(o.tmp.Name(), o.name)
}

// abort ends the output, leaving no OUT and no temporary file.
func (o *output) abort() {
	if o.upload != nil {
		o.upload.Abort()
		return
	}
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}

// checkStoreOut refuses a store OUT that is one of the inputs, or that
// exists without --overwrite.
func checkStoreOut(cmd, out string, ins []string, overwrite bool) error {
	for _, in := range ins {
		if in == out {
			return fmt.Errorf("%w: %s is both OUT and an input: --overwrite never replaces a file being read", errUsage, in)
		}
	}
	if overwrite {
		return nil
	}
	f, err := openStoreFile(out)
	if err == nil {
		f.Close()
		return fmt.Errorf("%w: %s exists; it is OUT, the file orc %s writes (its last argument, or -o OUT), and --overwrite replaces it", errUsage, out, cmd)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// storeIndex builds, updates, checks or shows the index of a store's
// table (orc index build|update|check|show URL/). A store has no rename,
// so a new index is published as an object of its own and the pointer
// object naming it (statsindex.Publish).
func storeIndex(sub, root string, df datasetFlags, columns, blooms []string, stdout, stderr io.Writer) error {
	if !isStorePrefix(root) {
		return fmt.Errorf("%w: %s: a table's URL ends in /", errUsage, root)
	}
	switch {
	case sub != "build" && sub != "update" && sub != "check" && sub != "show":
		return fmt.Errorf("%w: unknown index command %q (build, update, check or show)", errUsage, sub)
	case sub != "build" && (len(columns) > 0 || len(blooms) > 0):
		return fmt.Errorf("%w: %s keeps the index's columns (--columns and --bloom-columns are for build)", errUsage, sub)
	}
	start := time.Now()
	var old *urlDir
	if sub != "build" {
		var err error
		if old, err = openStoreDir(root); err != nil {
			return err
		}
		if old.index == nil {
			return fmt.Errorf("%s: the table has no index (orc index build %s)", root, root)
		}
		if sub == "show" {
			info := old.info
			fmt.Fprintf(stdout, "index: %s\nfiles: %d\nbytes: %d\ncolumns: %s\n", old.name, info.Files, info.Bytes, strings.Join(info.Columns, ", "))
			if info.Partitions != "" {
				fmt.Fprintf(stdout, "partitions: %s\n", info.Partitions)
			}
			return nil
		}
	}
	none := true
	df.noIndex = &none
	d, _, err := openDataset([]string{root}, df, stderr, "index")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	var info statsindex.Info
	switch sub {
	case "check":
		if err := statsindex.Check(d.IndexSource(), readerAt(old.index), int64(len(old.index))); err != nil {
			return fmt.Errorf("%s: %w (orc index update %s publishes a current one)", old.name, err, root)
		}
		fmt.Fprintf(stdout, "%s: current (%d files)\n", old.name, len(d.Files()))
		return nil
	case "update":
		info, err = statsindex.Update(d.IndexSource(), readerAt(old.index), int64(len(old.index)), &buf)
	default:
		var opts []statsindex.Option
		if len(columns) > 0 {
			opts = append(opts, statsindex.Columns(columns...))
		}
		if len(blooms) > 0 {
			opts = append(opts, statsindex.BloomColumns(blooms...))
		}
		info, err = statsindex.Write(d.IndexSource(), &buf, opts...)
	}
	if err != nil {
		return err
	}
	name, err := statsindex.Publish(storePut(root), buf.Bytes())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d files (%d footers read), columns %s, %d bytes, in %v (named by %s)\n", storeChild(root, name), info.Files,
		info.Read, strings.Join(info.Columns, ", "), info.Bytes, time.Since(start).Round(time.Millisecond), statsindex.PointerName)
	return nil
}

// storePut stores objects below the prefix URL root, whole.
func storePut(root string) statsindex.PutFunc {
	return func(name string, data []byte) error {
		o, err := createOutput(storeChild(root, name))
		if err != nil {
			return err
		}
		if _, err := o.Write(data); err != nil {
			o.abort()
			return err
		}
		return o.commit()
	}
}

// outputBuffer is the buffer a command writes its output through.
func outputBuffer(o *output) *bufio.Writer { return bufio.NewWriterSize(o, 1<<20) }
