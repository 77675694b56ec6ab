package writer_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
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
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionZlib,
		orc.CompressionSnappy, orc.CompressionLZ4} {
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
			for _, b := range batches {
				if err := w.Write(b); err != nil {
					t.Fatalf("parallelism %d: %v", par, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
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
