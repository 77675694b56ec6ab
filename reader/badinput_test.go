package reader_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// readAll opens data and reads every row of every readable column,
// returning the first error.
func readAll(data []byte) (err error) {
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for i := range r.Stripes() {
		if _, err := r.StripeDetail(i); err != nil {
			return err
		}
	}
	br, err := r.NewBatchReader(reader.WithBatchSize(1000))
	if err != nil {
		return err
	}
	b := br.NewBatch()
	var line []byte
	for {
		if err := br.Next(b); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		for i := 0; i < b.NumRows; i++ {
			line = reader.AppendJSONRow(line[:0], b, i)
		}
	}
}

// checkBad asserts that reading data either succeeds or fails with an error
// wrapping orc.ErrCorrupt, orc.ErrUnsupported or orc.ErrLimit, within a time limit.
func checkBad(t *testing.T, name string, data []byte, mustFail bool) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("%s: panic: %v", name, p)
				done <- nil
			}
		}()
		done <- readAll(data)
	}()
	select {
	case err := <-done:
		if err == nil {
			if mustFail {
				t.Errorf("%s: read without error", name)
			}
			return
		}
		if !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrLimit) {
			t.Errorf("%s: error wraps none of ErrCorrupt, ErrUnsupported, ErrLimit: %v", name, err)
		}
	case <-time.After(90 * time.Second):
		t.Fatalf("%s: no answer after 90s (hang?)", name)
	}
}

func TestCorruptExamples(t *testing.T) {
	dir := examples.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "corrupt", "*.orc"))
	if len(files) == 0 {
		t.Fatal("no corrupt examples")
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		err = readAll(data)
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%s: got %v, want an error wrapping ErrCorrupt", filepath.Base(path), err)
		} else {
			t.Logf("%s: %v", filepath.Base(path), err)
		}
	}
}

func TestZeroAndFutureVersion(t *testing.T) {
	dir := examples.Dir(t)
	data, err := os.ReadFile(filepath.Join(dir, "zero.orc"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("zero.orc: %v", err)
	}
	if r.NumRows() != 0 || len(r.Stripes()) != 0 {
		t.Fatalf("zero.orc: %d rows, %d stripes", r.NumRows(), len(r.Stripes()))
	}
	data, err = os.ReadFile(filepath.Join(dir, "version1999.orc"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reader.Open(bytes.NewReader(data), int64(len(data)))
	if !errors.Is(err, orc.ErrUnsupported) || !strings.Contains(err.Error(), "19.99") {
		t.Fatalf("version1999.orc: got %v, want ErrUnsupported naming version 19.99", err)
	}
	for n := 1; n <= 3; n++ {
		_, err := reader.Open(bytes.NewReader([]byte("ORC")[:n]), int64(n))
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("%d-byte file: got %v, want ErrCorrupt", n, err)
		}
	}
}

// TestDamagedCopies truncates and flips bytes of every example.
func TestDamagedCopies(t *testing.T) {
	dir := examples.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	for _, path := range files {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			flips := 200
			if testing.Short() {
				flips = 20
				if name == "demo-11-zlib.orc" || name == "demo-12-zlib.orc" {
					t.Skip("1.9M rows per read; skipped in -short")
				}
			}
			rng := rand.New(rand.NewPCG(uint64(len(data)), 7))
			// Truncations: 20 cut points, always including the tail area.
			for i := 0; i < 20; i++ {
				var cut int
				if i < 10 {
					cut = len(data) - 1 - rng.IntN(min(len(data), 300))
				} else {
					cut = rng.IntN(len(data))
				}
				checkBad(t, name+" truncated", data[:cut], cut > 0)
			}
			// flips copies, each with 1 to 4 random bytes flipped, half of them in
			// the tail.
			buf := make([]byte, len(data))
			for i := 0; i < flips; i++ {
				copy(buf, data)
				for k := 0; k < 1+rng.IntN(4); k++ {
					var pos int
					if rng.IntN(2) == 0 {
						pos = len(buf) - 1 - rng.IntN(min(len(buf), 512))
					} else {
						pos = rng.IntN(len(buf))
					}
					buf[pos] ^= byte(1 + rng.IntN(255))
				}
				checkBad(t, name+" flipped", buf, false)
			}
		})
	}
}
