package writer_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// TestReset writes the same batches through one Writer several times,
// with Reset between: after a closed file, after a file abandoned in the
// middle of a stripe, and after a sticky error; each file must be byte for
// byte the one a new Writer writes. Serially and on two goroutines, with
// several stripes, dictionaries, bloom filters and nulls.
func TestReset(t *testing.T) {
	s := testutil.AllTypesSchema()
	g := testutil.NewGenerator(rand.New(rand.NewPCG(5, 9)), s)
	var batches []*orc.Batch
	for range 6 {
		batches = append(batches, g.Batch(500))
	}
	var blooms []string
	for i, k := range s.Children {
		if k.Kind == orc.String || k.Kind == orc.Long {
			blooms = append(blooms, s.FieldNames[i])
		}
	}
	for _, par := range []int{1, 2} {
		opts := []writer.Option{writer.WithRowIndexStride(500), writer.WithStripeRowLimit(1200),
			writer.WithCompressionBlockSize(4 << 10), writer.WithBloomFilterColumns(blooms...),
			writer.WithParallelism(par)}
		writeAll := func(w *writer.Writer) {
			t.Helper()
			if err := w.AddUserMetadata("k", []byte("v")); err != nil {
				t.Fatal(err)
			}
			for _, b := range batches {
				if err := w.Write(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		var want bytes.Buffer
		fresh, err := writer.NewWriter(&want, s, opts...)
		if err != nil {
			t.Fatal(err)
		}
		writeAll(fresh)

		var first bytes.Buffer
		w, err := writer.NewWriter(&first, s, opts...)
		if err != nil {
			t.Fatal(err)
		}
		writeAll(w)
		if !bytes.Equal(first.Bytes(), want.Bytes()) {
			t.Fatalf("parallelism %d: first file differs from a new writer's", par)
		}
		check := func(name string, got *bytes.Buffer) {
			t.Helper()
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("parallelism %d, %s: %d bytes, a new writer's file has %d (or the bytes differ)",
					par, name, got.Len(), want.Len())
			}
		}

		// After a closed file.
		var again bytes.Buffer
		if err := w.Reset(&again); err != nil {
			t.Fatal(err)
		}
		writeAll(w)
		check("after Close", &again)

		// After a file abandoned in the middle of a stripe, with metadata.
		var abandoned, third bytes.Buffer
		if err := w.Reset(&abandoned); err != nil {
			t.Fatal(err)
		}
		if err := w.AddUserMetadata("dropped", nil); err != nil {
			t.Fatal(err)
		}
		for _, b := range batches[:3] {
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Reset(&third); err != nil {
			t.Fatal(err)
		}
		writeAll(w)
		check("after an abandoned file", &third)
		if abandoned.Len() == 0 {
			t.Errorf("parallelism %d: nothing written to the abandoned file", par)
		}

		// After a sticky error from the io.Writer.
		fw := &failWriter{k: 3}
		if err := w.Reset(fw); err != nil {
			t.Fatal(err)
		}
		var werr error
		for _, b := range batches {
			if werr = w.Write(b); werr != nil {
				break
			}
		}
		if werr == nil {
			werr = w.Close()
		}
		if !errors.Is(werr, errInjected) {
			t.Fatalf("parallelism %d: got %v, want the injected failure", par, werr)
		}
		var fourth bytes.Buffer
		if err := w.Reset(&fourth); err != nil {
			t.Fatal(err)
		}
		writeAll(w)
		check("after a sticky error", &fourth)
	}
}

// TestResetStripeSize: after Reset a Writer cuts stripes by size where a
// new one does. It cut some first stripes early: its scratch stream kept
// the last file's pages, and a text column the last file's dictionary,
// and the stripe's estimated size counts both (seeds 4 and 33 the first,
// 46 the second, of random schemas with 128 KiB stripes).
func TestResetStripeSize(t *testing.T) {
	for _, seed := range []uint64{4, 33, 46, 5, 21} {
		s := testutil.RandomSchema(rand.New(rand.NewPCG(seed, 7)), 8, 3)
		g := testutil.NewGenerator(rand.New(rand.NewPCG(seed, 9)), s)
		var batches []*orc.Batch
		for range 8 {
			batches = append(batches, g.Batch(700))
		}
		for _, par := range []int{1, 2} {
			opts := []writer.Option{writer.WithStripeSize(128 << 10), writer.WithRowIndexStride(700),
				writer.WithCompression(orc.CompressionZstd), writer.WithParallelism(par)}
			write := func(w *writer.Writer) {
				t.Helper()
				for _, b := range batches {
					if err := w.Write(b); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
			}
			var want, first, got bytes.Buffer
			fresh, err := writer.NewWriter(&want, s, opts...)
			if err != nil {
				t.Fatal(err)
			}
			write(fresh)
			w, err := writer.NewWriter(&first, s, opts...)
			if err != nil {
				t.Fatal(err)
			}
			write(w)
			if err := w.Reset(&got); err != nil {
				t.Fatal(err)
			}
			write(w)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("seed %d, parallelism %d: after Reset %d bytes, a new writer's file %d (or the bytes differ)", seed, par, got.Len(), want.Len())
			}
		}
	}
}
