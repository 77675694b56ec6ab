package reader_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

// seedExamples adds the small Apache examples to a fuzz corpus when they
// are present (the corpus in testdata/fuzz holds what fuzzing found).
func seedExamples(f *testing.F, maxSize int64) {
	dir := os.Getenv("ORC_EXAMPLES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "orc-examples")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	for _, p := range files {
		if st, err := os.Stat(p); err != nil || st.Size() > maxSize {
			continue
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Add([]byte("ORC\x00"))
}

// FuzzReader reads whole files: any outcome but an error wrapping
// ErrCorrupt, ErrUnsupported or ErrLimit (or a clean read) is a bug.
func FuzzReader(f *testing.F) {
	seedExamples(f, 50<<10)
	f.Fuzz(func(t *testing.T, data []byte) {
		err := readAll(data)
		if err != nil && !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrLimit) {
			t.Fatalf("error wraps none of ErrCorrupt, ErrUnsupported, ErrLimit: %v", err)
		}
	})
}

// FuzzTail parses file tails only.
func FuzzTail(f *testing.F) {
	seedExamples(f, 1<<20)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{MaxTailSize: 1 << 20})
		if err != nil && !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrLimit) {
			t.Fatalf("error wraps none of ErrCorrupt, ErrUnsupported, ErrLimit: %v", err)
		}
	})
}
