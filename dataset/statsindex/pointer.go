package statsindex

// The index on a store without rename (spec.md 7.16).
//
// A file system replaces the index atomically by writing it aside and
// renaming it over the old one (WriteFile). An object store has no
// rename, but a PUT of one object is atomic: a reader gets the previous
// object or the new one whole. So an index published there is stored under
// a name of its own, never overwritten, and then a small pointer object,
// PointerName, is overwritten with that name. Readers read the
// pointer, then the index it names.
//
// Concurrent publishers each store a complete index and then the pointer;
// the last pointer stored wins, and the index it names is correct for the
// files it lists (files it lacks are read by their footers). A reader that
// read the old pointer reads the old index, which stays in place: the
// caller deletes old indexes, only those whose names sort before the one
// the pointer names (the names begin with the time they were published;
// a later one may be a publication whose pointer is still to come), whose
// publications have returned (one still running may yet store its
// pointer, naming an index older than the one named now), and only once
// no scan that may have read an older pointer still runs. A
// pointer whose index is gone (dangling: deleted too early, or a store
// that shows the new pointer before the new index) is ignored with a
// warning, as a broken index is.
//
// The pointer is text: the line "orcgo-index-pointer 1", then the index's
// name, "_orcgo_index-" followed by letters, digits, '.', '-' or '_', then
// ".orc", relative to the dataset's root, then a newline.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// PointerName is the name of the pointer object that names the current
// index on a store without rename (Publish, Pointer). Like FileName it
// starts with "_", so listings leave it out.
const PointerName = "_orcgo_index.pointer"

// pointerMagic is the pointer's first line; the number is its version.
const pointerMagic = "orcgo-index-pointer 1"

// maxPointerSize bounds the pointer object a reader accepts.
const maxPointerSize = 1024

// PutFunc stores data as the object name in the dataset's root, whole: a
// reader sees the object as it was before or as data, never a part. That
// is what a PUT of S3, GCS or Azure Blob Storage guarantees.
type PutFunc func(name string, data []byte) error

// Publish stores an index (the bytes Write or Update wrote) on a store
// without rename: as a new object of its own,
// "_orcgo_index-<UTC time>-<random>.orc", then as the pointer object
// PointerName naming it. It returns the new object's name. The index
// the pointer named before is left in place, for scans that read the old
// pointer; deleting it later is the caller's job: only indexes whose names
// sort before the pointer's (the names begin with the UTC time) and whose
// Publish calls have returned (concurrent publishers store their
// pointers in any order, the last one winning), once the longest scan is
// over. A failure to store the pointer leaves the new
// index unnamed and the old pointer in force.
func Publish(put PutFunc, index []byte) (string, error) {
	if put == nil {
		return "", errors.New("dataset: index Publish: no Put function")
	}
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("dataset: index Publish: %w", err)
	}
	name := "_orcgo_index-" + time.Now().UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(r[:]) + ".orc"
	if err := put(name, index); err != nil {
		return "", fmt.Errorf("dataset: publishing the index as %s: %w", name, err)
	}
	if err := put(PointerName, []byte(pointerMagic+"\n"+name+"\n")); err != nil {
		return "", fmt.Errorf("dataset: publishing the index pointer %s (naming %s): %w", PointerName, name, err)
	}
	return name, nil
}

// Opener is the type of a function that opens an object: it returns the
// bytes as an io.ReaderAt, their size and a Closer (nil when there is
// nothing to close). dataset.Opener is one.
type Opener interface {
	~func() (r io.ReaderAt, size int64, c io.Closer, err error)
}

// Pointer returns the opener of the index that the pointer object
// (PointerName) names, for dataset.WithIndex and Update on a store without
// rename; open opens an object of the dataset's root by name. No pointer
// (open fails with an error wrapping fs.ErrNotExist) means no index. A
// pointer that does not parse, or that names an index that cannot be
// opened (dangling), is an error, which a scan reports as a warning
// (dataset.Stats.IndexWarning) before pruning by footers alone.
func Pointer[O Opener](open func(name string) O) O {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		name, err := readPointer(open)
		if err != nil {
			return nil, 0, nil, err
		}
		ra, size, c, err := open(name)()
		if err != nil {
			// Not fs.ErrNotExist: a dangling pointer is a broken index,
			// not a missing one.
			return nil, 0, nil, fmt.Errorf("the index pointer %s names %s, which cannot be opened: %v", PointerName, name, err)
		}
		return ra, size, c, nil
	}
}

// readPointer reads the pointer object and returns the index name in it.
// Its error wraps fs.ErrNotExist only when the pointer does not exist.
func readPointer[O Opener](open func(name string) O) (string, error) {
	ra, size, c, err := open(PointerName)()
	if err != nil {
		return "", err
	}
	if c != nil {
		defer c.Close()
	}
	if size < 0 || size > maxPointerSize {
		return "", fmt.Errorf("the index pointer %s has %d bytes, more than a pointer's %d", PointerName, size, maxPointerSize)
	}
	buf := make([]byte, size)
	if n, err := ra.ReadAt(buf, 0); n < len(buf) {
		return "", fmt.Errorf("reading the index pointer %s: %v", PointerName, err)
	}
	name, err := parsePointer(buf)
	if err != nil {
		return "", fmt.Errorf("the index pointer %s: %w", PointerName, err)
	}
	return name, nil
}

// parsePointer parses a pointer object's bytes.
func parsePointer(b []byte) (string, error) {
	first, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || string(first) != pointerMagic {
		return "", fmt.Errorf("does not start with %q", pointerMagic)
	}
	name, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || len(rest) != 0 {
		return "", errors.New("is not two lines")
	}
	if !validIndexName(string(name)) {
		return "", fmt.Errorf("names %q, not an index of the dataset's root (_orcgo_index-*.orc)", name)
	}
	return string(name), nil
}

// validIndexName reports whether a pointer may name s: an index object in
// the dataset's root, with no separator or dot-dot to lead elsewhere.
func validIndexName(s string) bool {
	const pre, suf = "_orcgo_index-", ".orc"
	if len(s) > 200 || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, suf) || strings.Contains(s, "..") {
		return false
	}
	for _, c := range s[len(pre) : len(s)-len(suf)] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return len(s) > len(pre)+len(suf)
}
