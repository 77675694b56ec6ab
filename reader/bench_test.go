package reader_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// benchFile opens an example for a benchmark and returns its reader and
// size.
func benchFile(b *testing.B, name string) (*reader.Reader, int64) {
	path := examples.Path(b, name)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return openFile(b, path), st.Size()
}

// BenchmarkDecodeDemo12 decodes every row of demo-12-zlib.orc (1.9M rows,
// ZLIB, dictionary strings). Bytes are the file's bytes.
func BenchmarkDecodeDemo12(b *testing.B) {
	r, size := benchFile(b, "demo-12-zlib.orc")
	b.SetBytes(size)
	b.ReportAllocs()
	var rows int64
	for i := 0; i < b.N; i++ {
		br, err := r.NewBatchReader()
		if err != nil {
			b.Fatal(err)
		}
		batch := br.NewBatch()
		for {
			if err := br.Next(batch); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			rows += int64(batch.NumRows)
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkNextBatch measures one Next call in the steady state: the
// allocations reported are per batch of 1024 rows.
func BenchmarkNextBatch(b *testing.B) {
	for _, c := range []struct{ name, file string }{
		{"demo12-all", "demo-12-zlib.orc"},
		{"testSeek-all", "TestOrcFile.testSeek.orc"},
	} {
		b.Run(c.name, func(b *testing.B) {
			r, _ := benchFile(b, c.file)
			br, err := r.NewBatchReader()
			if err != nil {
				b.Fatal(err)
			}
			batch := br.NewBatch()
			// Warm up: one pass allocates every buffer.
			for br.Next(batch) == nil {
			}
			br, _ = r.NewBatchReader()
			batch2 := br.NewBatch()
			for br.Next(batch2) == nil {
			}
			br, _ = r.NewBatchReader()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := br.Next(batch2); err == io.EOF {
					b.StopTimer()
					br, _ = r.NewBatchReader()
					b.StartTimer()
				} else if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDictionaryStrings decodes the dictionary-encoded string columns
// of demo-12-zlib.orc; bytes are the decoded string bytes.
func BenchmarkDictionaryStrings(b *testing.B) {
	r, _ := benchFile(b, "demo-12-zlib.orc")
	cols := []string{"_col1", "_col2", "_col3", "_col5"}
	scan := func() int64 {
		br, err := r.NewBatchReader(reader.WithColumns(cols...))
		if err != nil {
			b.Fatal(err)
		}
		batch := br.NewBatch()
		var n int64
		for {
			if err := br.Next(batch); err == io.EOF {
				return n
			} else if err != nil {
				b.Fatal(err)
			}
			for _, c := range batch.Cols {
				n += int64(len(c.(*orc.BytesVector).Data))
			}
		}
	}
	b.SetBytes(scan())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scan()
	}
}

// BenchmarkExamples decodes every row of every Apache example file that
// opens (the conformance set, 40-odd files of every writer and codec), one
// after the other. Bytes are the files' bytes.
func BenchmarkExamples(b *testing.B) {
	dir := examples.Dir(b)
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	type file struct {
		r    *reader.Reader
		size int64
	}
	var files []file
	var total int64
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".orc") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		r, err := reader.Open(f, st.Size())
		if err != nil {
			continue // zero.orc and the like
		}
		files = append(files, file{r, st.Size()})
		total += st.Size()
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			br, err := f.r.NewBatchReader()
			if err != nil {
				continue // encrypted columns and the like
			}
			batch := br.NewBatch()
			for {
				if err := br.Next(batch); err != nil {
					break // io.EOF, or a file the conformance test expects to fail
				}
			}
		}
	}
}
