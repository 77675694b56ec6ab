package reader_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestColumnParallelism reads files of every type, nulls and nesting with
// WithColumnParallelism and checks the rows against a serial scan: full
// scans, projections, pruned and exactly filtered scans (columns loaded
// lazily), alone and under WithParallelism, for each codec.
func TestColumnParallelism(t *testing.T) {
	t.Parallel()
	s := testutil.AllTypesSchema()
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionSnappy}
	if testing.Short() {
		codecs = codecs[1:2]
	}
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			g := testutil.NewGenerator(rand.New(rand.NewPCG(7, uint64(codec))), s)
			var batches []*orc.Batch
			for range 12 {
				batches = append(batches, g.Batch(1000))
			}
			r, _ := writeOpen(t, s, batches, writer.WithCompression(codec), writer.WithRowIndexStride(1000),
				writer.WithStripeRowLimit(7000), writer.WithCompressionBlockSize(8<<10))
			names := r.Schema().FieldNames
			first := names[0]
			cases := []struct {
				name string
				opts []reader.ScanOption
			}{
				{"full", nil},
				{"projection", []reader.ScanOption{reader.WithColumns(names[1], names[len(names)-1], names[len(names)/2])}},
				{"filtered", []reader.ScanOption{reader.WithSearchArgument(sarg.MustParse(first + " IS NOT NULL")), reader.WithExactFilter(true)}},
				{"nulls", []reader.ScanOption{reader.WithSearchArgument(sarg.MustParse(first + " IS NULL")), reader.WithExactFilter(true)}},
			}
			for _, c := range cases {
				want, _ := scanLines(t, r, append(c.opts, reader.WithBatchSize(300))...)
				if len(want) == 0 && c.name == "full" {
					t.Fatal("no rows")
				}
				for _, n := range []int{2, 64} {
					got, _ := scanLines(t, r, append(c.opts, reader.WithBatchSize(300), reader.WithColumnParallelism(n))...)
					if !slices.Equal(got, want) {
						t.Fatalf("%s, %d goroutines: %d rows differ from the serial scan's %d", c.name, n, len(got), len(want))
					}
				}
				got, _ := scanLines(t, r, append(c.opts, reader.WithBatchSize(300), reader.WithColumnParallelism(3), reader.WithParallelism(2))...)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, with stripe workers: %d rows differ from the serial scan's %d", c.name, len(got), len(want))
				}
			}
		})
	}
}

// TestColumnParallelismErrors damages one column's data and checks that a
// column-parallel scan fails with a corruption error, as the serial one does.
func TestColumnParallelismErrors(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint,b:string,c:double,d:bigint>")
	g := testutil.NewGenerator(rand.New(rand.NewPCG(1, 1)), s)
	var batches []*orc.Batch
	for range 5 {
		batches = append(batches, g.Batch(1000))
	}
	r, data := writeOpen(t, s, batches, writer.WithCompression(orc.CompressionNone))
	d, err := r.StripeDetail(0)
	if err != nil {
		t.Fatal(err)
	}
	// Fill column 4's DATA stream (d) with bytes that are not RLE v2.
	bad := append([]byte(nil), data...)
	hit := false
	for _, st := range d.Streams {
		if st.Column == 4 && st.Kind == "DATA" {
			for i := st.Offset; i < st.Offset+st.Length; i++ {
				bad[i] = 0xff
			}
			hit = true
		}
	}
	if !hit {
		t.Fatal("no DATA stream for column 4")
	}
	r, err = reader.Open(bytes.NewReader(bad), int64(len(bad)))
	if err != nil {
		t.Fatal(err)
	}
	_, serial := scanRows(r)
	_, par := scanRows(r, reader.WithColumnParallelism(4))
	var ce *orc.CorruptError
	if !errors.As(serial, &ce) || !errors.As(par, &ce) || par.Error() != serial.Error() {
		t.Fatalf("serial: %v\nparallel: %v", serial, par)
	}
}
