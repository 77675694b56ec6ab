package writer_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// TestParallelSameBytes writes the same batches serially and with
// WithParallelism, and checks the files are byte for byte the same: every
// type, nulls, nested columns, bloom filters, dictionaries that go direct,
// several stripes (fields dealt again at each), for each codec.
func TestParallelSameBytes(t *testing.T) {
	s := testutil.AllTypesSchema()
	var blooms []string
	for i, k := range s.Children {
		if k.Kind != orc.Boolean && k.Kind != orc.Struct && k.Kind != orc.List && k.Kind != orc.Map && k.Kind != orc.Union {
			blooms = append(blooms, s.FieldNames[i])
		}
	}
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionZlib,
		orc.CompressionSnappy, orc.CompressionLZ4}
	if testing.Short() {
		// -short is CI's run under the race detector, which looks at the
		// goroutines, the same for every codec; the full run has them all.
		codecs = codecs[:2]
	}
	for _, codec := range codecs {
		g := testutil.NewGenerator(rand.New(rand.NewPCG(3, uint64(codec))), s)
		var batches []*orc.Batch
		for range 12 {
			batches = append(batches, g.Batch(700))
		}
		write := func(par int) []byte {
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, writer.WithCompression(codec), writer.WithRowIndexStride(500),
				writer.WithStripeRowLimit(3000), writer.WithCompressionBlockSize(4<<10),
				writer.WithBloomFilterColumns(blooms...), writer.WithParallelism(par))
			if err != nil {
				t.Fatal(err)
			}
			writeAndClose(t, w, batches, par)
			return buf.Bytes()
		}
		want := write(1)
		for _, par := range []int{2, 3, 64} {
			if got := write(par); !bytes.Equal(got, want) {
				t.Fatalf("%v, parallelism %d: %d bytes differ from the serial file's %d", codec, par, len(got), len(want))
			}
		}
	}
}

// TestParallelSameBytesBySize is TestParallelSameBytes with stripes cut by
// size rather than rows, where the deferred compression of parallel
// writing must count a stripe's bytes exactly as a serial writer does:
// batches of random sizes (one row to several row groups), blocks small
// enough for dozens of chunks per stream and row group, aligned and not,
// and a writer Reset between two files. With -short (the race detector's
// run) it tries ZSTD alone.
func TestParallelSameBytesBySize(t *testing.T) {
	s := testutil.AllTypesSchema()
	codecs := []orc.CompressionKind{orc.CompressionZstd, orc.CompressionZlib, orc.CompressionSnappy}
	pars, blocks, nb := []int{2, 3}, []int{1 << 10, 4 << 10}, 40
	if testing.Short() {
		codecs, pars, blocks, nb = codecs[:1], pars[:1], blocks[:1], 16
	}
	for _, codec := range codecs {
		for _, aligned := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(5, uint64(codec)))
			g := testutil.NewGenerator(rng, s)
			var batches []*orc.Batch
			for range nb {
				n := 1 + rng.IntN(1500)
				if rng.IntN(4) == 0 {
					n = 1 + rng.IntN(8)
				}
				batches = append(batches, g.Batch(n))
			}
			write := func(par, block int) ([]byte, int) {
				var first, buf bytes.Buffer
				w, err := writer.NewWriter(&first, s, writer.WithCompression(codec), writer.WithRowIndexStride(400),
					writer.WithStripeSize(64<<10), writer.WithCompressionBlockSize(block),
					writer.WithAlignedRowGroups(aligned), writer.WithParallelism(par))
				if err != nil {
					t.Fatal(err)
				}
				// An abandoned first file, then the one compared.
				for _, b := range batches[:5] {
					if err := w.Write(b); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Reset(&buf); err != nil {
					t.Fatal(err)
				}
				writeAndClose(t, w, batches, par)
				r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
				if err != nil {
					t.Fatal(err)
				}
				return buf.Bytes(), len(r.Stripes())
			}
			for _, block := range blocks {
				want, stripes := write(1, block)
				if stripes < 3 {
					t.Fatalf("%v: %d stripes; the test wants stripes cut by size", codec, stripes)
				}
				for _, par := range pars {
					if got, _ := write(par, block); !bytes.Equal(got, want) {
						t.Fatalf("%v, aligned %v, block %d, parallelism %d: %d bytes differ from the serial file's %d",
							codec, aligned, block, par, len(got), len(want))
					}
				}
			}
		}
	}
}

// writeAndClose writes the batches with w and closes it.
func writeAndClose(t *testing.T, w *writer.Writer, batches []*orc.Batch, par int) {
	t.Helper()
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			t.Fatalf("parallelism %d: %v", par, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
