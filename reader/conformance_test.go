package reader_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

func openFile(tb testing.TB, path string, opts ...reader.Option) *reader.Reader {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := reader.Open(f, st.Size(), opts...)
	if err != nil {
		tb.Fatalf("open %s: %v", filepath.Base(path), err)
	}
	return r
}

// forEachRow calls fn with each row's JSON line.
func forEachRow(r *reader.Reader, fn func(line []byte) error, opts ...reader.ScanOption) (int64, error) {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return 0, err
	}
	b := br.NewBatch()
	var n int64
	var line []byte
	for {
		err := br.Next(b)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		for i := 0; i < b.NumRows; i++ {
			line = reader.AppendJSONRow(line[:0], b, i)
			if err := fn(line); err != nil {
				return n, err
			}
			n++
		}
	}
}

func TestConformance(t *testing.T) {
	dir := examples.Dir(t)
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsn.gz"))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no expected files in %s", dir)
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsn.gz")
		orcPath := filepath.Join(dir, name+".orc")
		if _, err := os.Stat(orcPath); err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "demo-12-zlib" {
				t.Skip("1.9M rows; skipped in -short")
			}
			t.Parallel()
			r := openFile(t, orcPath)
			sc := expectedRows(t, exp)
			var row int64
			n, err := forEachRow(r, func(line []byte) error {
				if !sc.Scan() {
					return fmt.Errorf("row %d: expected file has no more rows", row)
				}
				want := sc.Bytes()
				if !bytes.Equal(line, want) {
					if msg := examples.RowDiff(r.Schema(), line, want); msg != "" {
						return fmt.Errorf("row %d: %s\n got: %s\nwant: %s", row, msg, clip(line), clip(want))
					}
				}
				row++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Scan() {
				t.Fatalf("read %d rows, expected file has more: %s", n, clip(sc.Bytes()))
			}
			if n != r.NumRows() {
				t.Fatalf("read %d rows, footer says %d", n, r.NumRows())
			}
		})
	}
}

// expectedRows returns a scanner over the lines of an expected file
// (expected/NAME.jsn.gz), closed with the test.
func expectedRows(t *testing.T, path string) *bufio.Scanner {
	t.Helper()
	ef, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ef.Close() })
	gz, err := gzip.NewReader(ef)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return sc
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// TestOtherExamples reads every example without an expected file to its end
// and checks the row count, or checks the named reason it is refused.
func TestOtherExamples(t *testing.T) {
	dir := examples.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	refused := map[string]error{
		"version1999.orc": orc.ErrUnsupported,
	}
	for _, path := range files {
		name := filepath.Base(path)
		if _, err := os.Stat(filepath.Join(dir, "expected", strings.TrimSuffix(name, ".orc")+".jsn.gz")); err == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			r, err := reader.Open(f, st.Size())
			if want, ok := refused[name]; ok {
				if !errors.Is(err, want) {
					t.Fatalf("got %v, want an error wrapping %v", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n, err := forEachRow(r, func([]byte) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != r.NumRows() {
				t.Fatalf("read %d rows, footer says %d", n, r.NumRows())
			}
		})
	}
}
