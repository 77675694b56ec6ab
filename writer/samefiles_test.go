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

// wideInts returns a struct of n bigint, int, smallint and tinyint fields.
func wideInts(n int) *orc.Schema {
	kinds := []string{"bigint", "int", "smallint", "tinyint"}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("c%d:%s", i, kinds[i%len(kinds)])
	}
	return orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
}
