package writer_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// TestWriteSameFiles writes a fixed set of files into the directory
// ORCGO_SAMEFILES names (skipped without it): random schemas and rows,
// every codec, several strides (0 too), stripe sizes, bloom filters,
// parallel writes, a Writer.Reset and wide schemas of integers. Run it
// at two commits and compare the directories (cmp) to check that a
// change to the writer leaves its files byte for byte the same:
//
//	ORCGO_SAMEFILES=/tmp/a go test ./writer -run TestWriteSameFiles
func TestWriteSameFiles(t *testing.T) {
	dir := os.Getenv("ORCGO_SAMEFILES")
	if dir == "" {
		t.Skip("ORCGO_SAMEFILES names no directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd}
	for i := range 150 {
		r := rand.New(rand.NewPCG(uint64(i), 49))
		var s *orc.Schema
		switch i % 10 {
		case 0:
			s = wideInts(500 + r.IntN(3000))
		default:
			s = testutil.RandomSchema(r, 12, 3)
		}
		opts := []writer.Option{writer.WithCompression(codecs[i%len(codecs)])}
		stride := []int{0, 1000, 10000}[r.IntN(3)]
		if stride != 10000 {
			opts = append(opts, writer.WithRowIndexStride(stride))
		}
		if r.IntN(3) == 0 {
			opts = append(opts, writer.WithStripeSize(int64(64<<10+r.IntN(1<<20))))
		}
		if r.IntN(3) == 0 {
			opts = append(opts, writer.WithParallelism(2+r.IntN(3)))
		}
		if stride > 0 && r.IntN(3) == 0 {
			var names []string
			for j, f := range s.FieldNames {
				if k := s.Children[j].Kind; k.IsPrimitive() && k != orc.Boolean && r.IntN(2) == 0 {
					names = append(names, f)
				}
			}
			opts = append(opts, writer.WithBloomFilterColumns(names...))
		}
		rows := 1 + r.IntN(3000)
		if i%10 == 0 {
			rows = 1 + r.IntN(3)
		}
		var out bytes.Buffer
		w, err := writer.NewWriter(&out, s, opts...)
		if err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		g := testutil.NewGenerator(r, s)
		parts := 1
		if i%7 == 3 {
			parts = 2 // a Writer.Reset between two files
		}
		for p := range parts {
			if p > 0 {
				out.Reset()
				if err := w.Reset(&out); err != nil {
					t.Fatalf("file %d: Reset: %v", i, err)
				}
			}
			for left := rows; left > 0; {
				n := min(left, 1+r.IntN(2048))
				if err := w.Write(g.Batch(n)); err != nil {
					t.Fatalf("file %d: %v", i, err)
				}
				left -= n
			}
			if err := w.Close(); err != nil {
				t.Fatalf("file %d: %v", i, err)
			}
			name := filepath.Join(dir, fmt.Sprintf("f%03d-%d.orc", i, p))
			if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestWriteSameFilesFewValues writes, as TestWriteSameFiles does, files
// whose columns get a value or a few between row group and stripe ends:
// rows written one to three at a time in stripes of a few rows (or row
// groups of 100), row groups aligned or not, nulls, parallel writes and a
// Writer.Reset. An integer column holds up to two values without an
// encoder (heldInts); these files check that its bytes, positions and
// size estimates are an encoder's.
func TestWriteSameFilesFewValues(t *testing.T) {
	dir := os.Getenv("ORCGO_SAMEFILES")
	if dir == "" {
		t.Skip("ORCGO_SAMEFILES names no directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionZlib}
	for i := range 40 {
		r := rand.New(rand.NewPCG(uint64(i), 4910))
		s := testutil.RandomSchema(r, 12, 3)
		if i%4 == 0 {
			s = wideInts(20 + r.IntN(100))
		}
		opts := []writer.Option{
			writer.WithCompression(codecs[i%len(codecs)]),
			writer.WithRowIndexStride([]int{0, 100}[r.IntN(2)]),
			writer.WithAlignedRowGroups(r.IntN(2) == 0),
		}
		rows := 1 + r.IntN(250)
		if r.IntN(4) > 0 {
			opts = append(opts, writer.WithStripeRowLimit(int64(1+r.IntN(7))))
			rows = 1 + r.IntN(40)
		}
		if i%5 == 2 {
			opts = append(opts, writer.WithParallelism(2))
		}
		var out bytes.Buffer
		w, err := writer.NewWriter(&out, s, opts...)
		if err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		g := testutil.NewGenerator(r, s)
		for p := range 1 + i%2 {
			if p > 0 {
				out.Reset()
				if err := w.Reset(&out); err != nil {
					t.Fatalf("file %d: Reset: %v", i, err)
				}
			}
			for left := rows; left > 0; {
				n := min(left, 1+r.IntN(3))
				if err := w.Write(g.Batch(n)); err != nil {
					t.Fatalf("file %d: %v", i, err)
				}
				left -= n
			}
			if err := w.Close(); err != nil {
				t.Fatalf("file %d: %v", i, err)
			}
			name := filepath.Join(dir, fmt.Sprintf("few%03d-%d.orc", i, p))
			if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestWriteSameFilesSparse writes, as TestWriteSameFiles does, files of
// integer columns that get a value every few dozen rows, nulls between,
// so that a row group of 100 rows starts while a column holds a value or
// two (heldInts): their positions, in row groups aligned or not.
func TestWriteSameFilesSparse(t *testing.T) {
	dir := os.Getenv("ORCGO_SAMEFILES")
	if dir == "" {
		t.Skip("ORCGO_SAMEFILES names no directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		r := rand.New(rand.NewPCG(uint64(i), 4911))
		s := wideInts(12)
		opts := []writer.Option{
			writer.WithCompression([]orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd}[i%2]),
			writer.WithRowIndexStride(100),
			writer.WithAlignedRowGroups(i%4 < 2),
		}
		var out bytes.Buffer
		w, err := writer.NewWriter(&out, s, opts...)
		if err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		every := make([]int, len(s.Children))
		for j := range every {
			every[j] = 30 + r.IntN(120)
		}
		for row := 0; row < 400; {
			n := 1 + r.IntN(60)
			b := orc.NewBatch(s, n)
			for j, v := range b.Cols {
				lv := v.(*orc.LongVector)
				for k := range n {
					if (row+k)%every[j] == 0 {
						lv.Append(int64(r.IntN(3))) // repeats: runs end early
					} else {
						lv.AppendNull()
					}
				}
			}
			b.NumRows = n
			if err := w.Write(b); err != nil {
				t.Fatalf("file %d: %v", i, err)
			}
			row += n
		}
		if err := w.Close(); err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		name := filepath.Join(dir, fmt.Sprintf("sparse%02d.orc", i))
		if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wideInts returns a struct of n bigint, int, smallint and tinyint fields.
func wideInts(n int) *orc.Schema {
	kinds := []string{"bigint", "int", "smallint", "tinyint"}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("c%d:%s", i, kinds[i%len(kinds)])
	}
	return orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
}
