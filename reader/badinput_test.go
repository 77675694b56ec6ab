package reader_test

import (
	"bytes"
	"errors"
	"fmt"
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
	t.Parallel()
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
		flips := 200
		if testing.Short() {
			flips = 20
			if name == "demo-11-zlib.orc" || name == "demo-12-zlib.orc" {
				continue // 1.9M rows per read; skipped in -short
			}
		}
		copies := damagedCopies(data, flips)
		// The copies run in parallel parts of at most 60, so that the files
		// of 1.9M rows keep both cores busy.
		for part := 0; part < len(copies); part += 60 {
			t.Run(fmt.Sprintf("%s/%d", name, part), func(t *testing.T) {
				t.Parallel()
				buf := make([]byte, len(data))
				for _, c := range copies[part:min(part+60, len(copies))] {
					if c.cut >= 0 {
						checkBad(t, name+" truncated", data[:c.cut], c.cut > 0)
						continue
					}
					copy(buf, data)
					for _, f := range c.flips {
						buf[f.pos] ^= f.xor
					}
					checkBad(t, name+" flipped", buf, false)
				}
			})
		}
	}
}

// damagedCopy is a truncation of a file (cut >= 0) or a copy with a few
// bytes flipped.
type damagedCopy struct {
	cut   int
	flips []struct {
		pos int
		xor byte
	}
}

// damagedCopies returns 20 truncations of data, half of them in the tail
// area, and n copies with 1 to 4 random bytes flipped, half of them in the
// tail.
func damagedCopies(data []byte, n int) []damagedCopy {
	rng := rand.New(rand.NewPCG(uint64(len(data)), 7))
	var out []damagedCopy
	for i := 0; i < 20; i++ {
		c := damagedCopy{}
		if i < 10 {
			c.cut = len(data) - 1 - rng.IntN(min(len(data), 300))
		} else {
			c.cut = rng.IntN(len(data))
		}
		out = append(out, c)
	}
	for i := 0; i < n; i++ {
		c := damagedCopy{cut: -1}
		for k := 0; k < 1+rng.IntN(4); k++ {
			var pos int
			if rng.IntN(2) == 0 {
				pos = len(data) - 1 - rng.IntN(min(len(data), 512))
			} else {
				pos = rng.IntN(len(data))
			}
			c.flips = append(c.flips, struct {
				pos int
				xor byte
			}{pos, byte(1 + rng.IntN(255))})
		}
		out = append(out, c)
	}
	return out
}
